#line 1 "tests/corpus/03-right-template-on-type.cu"
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
    static const tl_emu::Site Ms_tl_site_ = {"Ms", __FILE__, __LINE__, "T"}; tl_emu::Shared<tl_emu::A2<T, (TILE_WIDTH), (TILE_WIDTH)>> Ms(Ms_tl_site_); 
    static const tl_emu::Site Ns_tl_site_ = {"Ns", __FILE__, __LINE__, "T"}; tl_emu::Shared<tl_emu::A2<T, (TILE_WIDTH), (TILE_WIDTH)>> Ns(Ns_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    T acc = T(0);
    for (int ph = 0; ph < w / TILE_WIDTH; ++ph) {
        Ms(__LINE__)[ty][tx] = (tl_emu::gcount(0), M)[row * w + ph * TILE_WIDTH + tx];
        Ns(__LINE__)[ty][tx] = (tl_emu::gcount(0), N)[(ph * TILE_WIDTH + ty) * w + col];
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            acc += Ms(__LINE__)[ty][i] * Ns(__LINE__)[i][tx];
        __syncthreads();
    }
    (tl_emu::gcount(1), P)[row * w + col] = acc;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;
    dim3 block(TILE_WIDTH, TILE_WIDTH), grid(Width / TILE_WIDTH, Width / TILE_WIDTH);
    tl_emu_launch(mm_tiled<float>, "mm_tiled<float>", __FILE__, __LINE__, grid,  block)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// mm_tiled: fibers (a template kernel)
