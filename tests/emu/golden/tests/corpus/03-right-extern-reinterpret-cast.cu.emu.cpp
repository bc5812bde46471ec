#line 1 "tests/corpus/03-right-extern-reinterpret-cast.cu"
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
    static const tl_emu::Site smem_tl_site_ = {"smem", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::ADyn<float>> smem(smem_tl_site_); 
    float(*Ms)[TW] = reinterpret_cast<float(*)[TW]>(&*smem(__LINE__));
    float(*Ns)[TW] = reinterpret_cast<float(*)[TW]>(&*smem(__LINE__) + TW * TW);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TW + ty, col = blockIdx.x * TW + tx;
    float acc = 0.0f;
    for (int ph = 0; ph < width / TW; ++ph) {
        Ms[ty][tx] = (tl_emu::gcount(0), M)[row * width + ph * TW + tx];
        Ns[ty][tx] = (tl_emu::gcount(0), N)[(ph * TW + ty) * width + col];
        __syncthreads();
/* #pragma unroll */
        for (int i = 0; i < TW; ++i)
            acc += Ms[ty][i] * Ns[i][tx];
        __syncthreads();
    }
    (tl_emu::gcount(1), P)[row * width + col] = acc;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;
    cudaStream_t stream = 0;
    size_t bytes = 2 * TW * TW * sizeof(float);
    tl_emu_launch(tiled_extern, "tiled_extern", __FILE__, __LINE__, dim3(Width / TW, Width / TW),  dim3(TW, TW),  bytes,  stream)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// tiled_extern: fibers (a local initialised with () or {})
#if 1
static tl_emu::KernelReg tl_emu_reg_tiled_extern_0_(tiled_extern, "tiled_extern", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_tiled_extern_0_(tiled_extern, "tiled_extern", 0, 0);
#endif
