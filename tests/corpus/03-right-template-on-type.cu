/* 03-right-template-on-type.cu: corpus, lab 03, right: the tiled kernel as a template on its element
 * type (template <typename T>, as library kernels are), TILE_WIDTH from the build inside it: the file is
 * compiled once per tile width, and each copy's mm_tiled<float> must stay its own. */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

template <typename T>
__global__ void mm_tiled(const T *__restrict__ M, const T *__restrict__ N, T *__restrict__ P, int w)
{
    __shared__ T Ms[TILE_WIDTH][TILE_WIDTH];
    __shared__ T Ns[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    T acc = T(0);
    for (int ph = 0; ph < w / TILE_WIDTH; ++ph) {
        Ms[ty][tx] = M[row * w + ph * TILE_WIDTH + tx];
        Ns[ty][tx] = N[(ph * TILE_WIDTH + ty) * w + col];
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            acc += Ms[ty][i] * Ns[i][tx];
        __syncthreads();
    }
    P[row * w + col] = acc;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;
    dim3 block(TILE_WIDTH, TILE_WIDTH), grid(Width / TILE_WIDTH, Width / TILE_WIDTH);
    mm_tiled<float><<<grid, block>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
