#line 1 "tests/corpus/03-right-style-reference-helpers.cu"
/* 03-right-style-reference-helpers.cu: corpus, lab 03, right (issue 24 item 6): __forceinline__ helpers taking
 * references: the element to stage as const float & (bound to Md[...] and Nd[...]), the tiles as
 * float (&)[TILE_WIDTH][TILE_WIDTH] (the product a template helper on the tile width), P's element as float &.
 * Valid CUDA; what goes through a reference is counted at its address like any other access, so the work rule
 * sees the lecture kernel's loads. */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

typedef float Tile[TILE_WIDTH][TILE_WIDTH];

__device__ __forceinline__ void stage(Tile &tile, int r, int c, const float &src)
{
    tile[r][c] = src;
}

template <int T>
__device__ __forceinline__ float row_times_col(const float (&a)[T][T], const float (&b)[T][T], int r, int c)
{
    float s = 0;
    for (int k = 0; k < T; ++k)
        s += a[r][k] * b[k][c];
    return s;
}

__device__ __forceinline__ void put(float &out, float v)
{
    out = v;
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "Tile"}; tl_emu::Shared<tl_emu::A0<Tile>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "Tile"}; tl_emu::Shared<tl_emu::A0<Tile>> Nds(Nds_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        const float &m = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        const float &n = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col];
        stage(Mds(__LINE__), ty, tx, m);
        stage(Nds(__LINE__), ty, tx, n);
        __syncthreads();
        Pvalue += row_times_col<TILE_WIDTH>(Mds(__LINE__), Nds(__LINE__), ty, tx);
        __syncthreads();
    }
    put((tl_emu::gcount(0), Pd)[Row * Width + Col], Pvalue);
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
// MatrixMulKernel: fibers (a reference declared in the kernel body)
#if 1 && defined(Tile) && defined(Tile)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(Tile) + sizeof(Tile), 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 0);
#endif
