#line 1 "tests/corpus/03-right-pointer-walk.cu"
/* 03-right-pointer-walk.cu: corpus, lab 03, right: pointers to the current tiles advanced each phase (the CUDA samples idiom) */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Bs(Bs_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = Md + blockIdx.y * TILE_WIDTH * Width;
    const float *b = Nd + blockIdx.x * TILE_WIDTH;
    const float *aEnd = a + Width;
    float c = 0;
    for (; a < aEnd; a += TILE_WIDTH, b += TILE_WIDTH * Width) {
        As(__LINE__)[ty][tx] = (tl_emu::gcount(0), a)[ty * Width + tx];
        Bs(__LINE__)[ty][tx] = (tl_emu::gcount(0), b)[ty * Width + tx];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            c += As(__LINE__)[ty][k] * Bs(__LINE__)[k][tx];
        __syncthreads();
    }
    (tl_emu::gcount(1), Pd)[(blockIdx.y * TILE_WIDTH + ty) * Width + blockIdx.x * TILE_WIDTH + tx] = c;
}
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, g,  b)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: fibers (a loop with a barrier whose header reads 'a', which may differ between threads)
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 0);
#endif
