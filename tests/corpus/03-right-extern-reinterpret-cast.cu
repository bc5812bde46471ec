/* 03-right-extern-reinterpret-cast.cu: corpus, lab 03, right: 03-right-extern-carved-stream.cu with the
 * extern __shared__ buffer cut by reinterpret_cast<float(*)[TW]>(smem) instead of C casts. Valid CUDA; emulated it
 * was "BUILD FAILED: invalid cast from type tl_emu::ADyn<float>::Ref" until the rewrite took C++ casts to a
 * pointer or to rows like C casts (session 9). */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

static const int TW = TILE_WIDTH;

__global__ void tiled_extern(const float *__restrict__ M, const float *__restrict__ N, float *__restrict__ P,
                             const int width)
{
    extern __shared__ float smem[];
    float(*Ms)[TW] = reinterpret_cast<float(*)[TW]>(smem);
    float(*Ns)[TW] = reinterpret_cast<float(*)[TW]>(smem + TW * TW);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TW + ty, col = blockIdx.x * TW + tx;
    float acc = 0.0f;
    for (int ph = 0; ph < width / TW; ++ph) {
        Ms[ty][tx] = M[row * width + ph * TW + tx];
        Ns[ty][tx] = N[(ph * TW + ty) * width + col];
        __syncthreads();
#pragma unroll
        for (int i = 0; i < TW; ++i)
            acc += Ms[ty][i] * Ns[i][tx];
        __syncthreads();
    }
    P[row * width + col] = acc;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;
    cudaStream_t stream = 0;
    size_t bytes = 2 * TW * TW * sizeof(float);
    tiled_extern<<<dim3(Width / TW, Width / TW), dim3(TW, TW), bytes, stream>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
