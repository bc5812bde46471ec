#line 1 "tests/corpus/03-right-style-lambda-ldg-tiles.cu"
/* 03-right-style-lambda-ldg-tiles.cu: corpus, lab 03, right (issue 24 item 6): a lambda in the kernel fills both
 * tiles with __ldg through flat pointers to their first elements, and a second lambda reads them; P is stored with
 * an atomicExch (one thread per element: the same value as a plain store). Valid CUDA; every access counts at its
 * address, atomics as a load and a store, so the work rule sees the lecture kernel's loads. */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float *ms = &Mds(__LINE__)[0][0], *ns = &Nds(__LINE__)[0][0];
    auto fill = tl_emu::va( [=](float *tile, const float *src) { tile[ty * TILE_WIDTH + tx] = __ldg(src); });
    auto product = tl_emu::va( [=](const float *a, const float *b) {
        float s = 0;
        for (int k = 0; k < TILE_WIDTH; ++k)
            s += a[ty * TILE_WIDTH + k] * b[k * TILE_WIDTH + tx];
        return s;
    });
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        fill(ms, Md + Row * Width + ph * TILE_WIDTH + tx);
        fill(ns, Nd + (ph * TILE_WIDTH + ty) * Width + Col);
        __syncthreads();
        Pvalue += product(ms, ns);
        __syncthreads();
    }
    atomicExch(&(tl_emu::gcount(0), Pd)[Row * Width + Col], Pvalue);
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, g,  b)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: fibers (a local declared with auto)
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 0);
#endif
