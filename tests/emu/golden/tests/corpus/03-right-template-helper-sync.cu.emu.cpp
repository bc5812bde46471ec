#line 1 "tests/corpus/03-right-template-helper-sync.cu"
/* 03-right-template-helper-sync.cu: corpus, lab 03, right: the barriers are held by a template __device__ helper
 * (block_sync<TILE_WIDTH>(), as code that templates its block size writes it), valid CUDA: the emulator must
 * keep such a kernel on fibers, not stop with an internal error. (The tiles are loaded in the kernel: loads
 * and stores through a helper's pointers are issue 24's work count, not this file's subject.) */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

template <int T>
__device__ void block_sync()
{
    static_assert(T >= 1, "a tile has a width");
    __syncthreads();
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        Mds(__LINE__)[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__)[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col];
        block_sync<TILE_WIDTH>();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__)[ty][k] * Nds(__LINE__)[k][tx];
        block_sync<TILE_WIDTH>();
    }
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, g,  b)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: fibers (it calls block_sync, which holds a barrier or a warp operation)
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 0);
#endif
