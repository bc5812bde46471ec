#line 1 "tests/corpus/03-right-template-tile.cu"
/* 03-right-template-tile.cu: corpus, lab 03, right: TILE_WIDTH as a template parameter */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

template <int T>
__global__ void tiledT(const float *M, const float *N, float *P, int W)
{
    static const tl_emu::Site sM_tl_site_ = {"sM", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (T), (T)>> sM(sM_tl_site_); static const tl_emu::Site sN_tl_site_ = {"sN", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (T), (T)>> sN(sN_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0;
    for (int t = 0; t < W / T; ++t) {
        sM(__LINE__)[ty][tx] = (tl_emu::gcount(0), M)[row * W + t * T + tx];
        sN(__LINE__)[ty][tx] = (tl_emu::gcount(0), N)[(t * T + ty) * W + col];
        __syncthreads();
/* #pragma unroll */
        for (int k = 0; k < T; ++k)
            acc += sM(__LINE__)[ty][k] * sN(__LINE__)[k][tx];
        __syncthreads();
    }
    (tl_emu::gcount(1), P)[row * W + col] = acc;
}
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    tl_emu_launch(tiledT<TILE_WIDTH>, "tiledT<TILE_WIDTH>", __FILE__, __LINE__, g,  b)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// tiledT: fibers (a template kernel)
