#line 1 "solutions/speed/ladder.cu"
/* ladder.cu: the kit's own rungs of the kernel ladder that `./kit bench` times next to the labs'
 * reference kernels and cuBLAS (solutions/speed/speed.c lists the whole ladder).
 *
 *   build:  part of build/solutions/speed/speed-ref (instructor edition, CUDA on)
 *   run:    build/solutions/speed/speed-ref --variants naive_rows,naive_ldcg,tiled32_conflict,tiled32_pad
 *
 * Each rung changes ONE thing against a lab kernel, so its measured traffic shows what that thing costs:
 *   naive_rows        lab 02's kernel with threadIdx.x walking rows (Row from x): a warp's loads of Nd
 *                     and its stores to Pd touch 32 different rows, Width floats apart (uncoalesced)
 *   naive_ldcg        lab 02's kernel with __ldcg loads ("cache global": cached in L2, not in L1), so
 *                     the reuse L1 gave naive must come from L2
 *   tiled32_conflict  lab 04's tiled kernel (any Width, TILE_WIDTH 32) with the Nd tile stored
 *                     transposed, Nds[tx][ty]: the inner loop reads Nds[tx][k], 32 words apart for a
 *                     warp, all in one bank (32-way bank conflict)
 *   tiled32_pad       the same with each row padded to TILE_WIDTH + 1 words: the column spreads over
 *                     all 32 banks
 * Every kernel handles any Width (guarded loads that write 0, guarded stores), so the ladder runs at
 * sizes that are not multiples of the tile. Written for clarity, like the labs; lab 06 and cuBLAS go
 * further (register tiles, vector loads, double buffering).
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define LADDER_BLOCK 16 /* naive kernels: 16 x 16 threads, as lab 02 */
#define LADDER_TILE 32  /* the tiled rungs */

/* ----------------------------------------------------------------------------------- naive */

/* Lab 02's kernel with x and y swapped: Row = ...threadIdx.x. The 16 threads of a warp that share
 * threadIdx.y read Md[Row*Width + k] 16 rows apart (16 segments instead of 1) and store Pd 16 rows
 * apart; their Nd[k*Width + Col] is one word (a broadcast). */
__global__ void ladder_naive_rows(const float *Md, const float *Nd, float *Pd, int Width)
{
    int Row = blockIdx.x * blockDim.x + threadIdx.x;
    int Col = blockIdx.y * blockDim.y + threadIdx.y;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    }
}

/* Lab 02's kernel with every load through __ldcg: cached in L2 only. */
__global__ void ladder_naive_ldcg(const float *Md, const float *Nd, float *Pd, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += __ldcg(&(tl_emu::gcount(0), Md)[Row * Width + k]) * __ldcg(&(tl_emu::gcount(0), Nd)[k * Width + Col]);
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    }
}

/* ----------------------------------------------------------------------------------- tiled */

/* Lab 04's kernel, TILE_WIDTH 32, with the Nd tile stored transposed; PAD 0 or 1 words per row.
 * One macro, two kernels: the shared array's shape must be known when it is compiled. */
#define TILED_TRANSPOSED(NAME, PAD)                                                                \
    __global__ void NAME(const float *Md, const float *Nd, float *Pd, int Width)                 \
    {                                                                                              \
        __shared__ float Mds[LADDER_TILE][LADDER_TILE];                                            \
        __shared__ float NdsT[LADDER_TILE][LADDER_TILE + (PAD)]; /* NdsT[c][r] = tile (r, c) */    \
        int tx = threadIdx.x, ty = threadIdx.y;                                                    \
        int Row = blockIdx.y * LADDER_TILE + ty;                                                   \
        int Col = blockIdx.x * LADDER_TILE + tx;                                                   \
        int phases = (Width + LADDER_TILE - 1) / LADDER_TILE;                                      \
        float Pvalue = 0;                                                                          \
        for (int ph = 0; ph < phases; ++ph) {                                                      \
            int mc = ph * LADDER_TILE + tx;                                                        \
            int nr = ph * LADDER_TILE + ty;                                                        \
            Mds[ty][tx] = (Row < Width && mc < Width) ? Md[Row * Width + mc] : 0.0f;               \
            NdsT[tx][ty] = (nr < Width && Col < Width) ? Nd[nr * Width + Col] : 0.0f;              \
            __syncthreads();                                                                       \
            for (int k = 0; k < LADDER_TILE; ++k) /* warp: 32 rows of NdsT at column k */          \
                Pvalue += Mds[ty][k] * NdsT[tx][k];                                                \
            __syncthreads();                                                                       \
        }                                                                                          \
        if (Row < Width && Col < Width)                                                            \
            Pd[Row * Width + Col] = Pvalue;                                                        \
    }

TILED_TRANSPOSED(ladder_tiled32_conflict, 0) /* row = 32 words: a column sits in one bank       */
TILED_TRANSPOSED(ladder_tiled32_pad, 1)      /* row = 33 words: a column spreads over 32 banks  */

/* ----------------------------------------------------------------------------------- launchers */
/* The harness's tl_launch_fn shape (square: m = k = n = Width); each returns cudaGetLastError(). */

extern "C" int launch_ladder_naive_rows(const float *d_M, const float *d_N, float *d_P, int m, int k, int n,
                                        const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    dim3 block(LADDER_BLOCK, LADDER_BLOCK), grid(ceil_div(m, LADDER_BLOCK), ceil_div(m, LADDER_BLOCK));
    tl_emu_launch(ladder_naive_rows, "ladder_naive_rows", __FILE__, __LINE__, grid,  block)(d_M, d_N, d_P, m);
    return (int)cudaGetLastError();
}

extern "C" int launch_ladder_naive_ldcg(const float *d_M, const float *d_N, float *d_P, int m, int k, int n,
                                        const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    dim3 block(LADDER_BLOCK, LADDER_BLOCK), grid(ceil_div(m, LADDER_BLOCK), ceil_div(m, LADDER_BLOCK));
    tl_emu_launch(ladder_naive_ldcg, "ladder_naive_ldcg", __FILE__, __LINE__, grid,  block)(d_M, d_N, d_P, m);
    return (int)cudaGetLastError();
}

extern "C" int launch_ladder_tiled32_conflict(const float *d_M, const float *d_N, float *d_P, int m, int k,
                                              int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    dim3 block(LADDER_TILE, LADDER_TILE), grid(ceil_div(m, LADDER_TILE), ceil_div(m, LADDER_TILE));
    tl_emu_launch(ladder_tiled32_conflict, "ladder_tiled32_conflict", __FILE__, __LINE__, grid,  block)(d_M, d_N, d_P, m);
    return (int)cudaGetLastError();
}

extern "C" int launch_ladder_tiled32_pad(const float *d_M, const float *d_N, float *d_P, int m, int k, int n,
                                         const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    dim3 block(LADDER_TILE, LADDER_TILE), grid(ceil_div(m, LADDER_TILE), ceil_div(m, LADDER_TILE));
    tl_emu_launch(ladder_tiled32_pad, "ladder_tiled32_pad", __FILE__, __LINE__, grid,  block)(d_M, d_N, d_P, m);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// ladder_naive_rows: fibers (a #define of the file holds a barrier or a warp operation)
#if 1
static tl_emu::KernelReg tl_emu_reg_ladder_naive_rows_0_(ladder_naive_rows, "ladder_naive_rows", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_ladder_naive_rows_0_(ladder_naive_rows, "ladder_naive_rows", 0, 0);
#endif
// ladder_naive_ldcg: fibers (a #define of the file holds a barrier or a warp operation)
#if 1
static tl_emu::KernelReg tl_emu_reg_ladder_naive_ldcg_1_(ladder_naive_ldcg, "ladder_naive_ldcg", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_ladder_naive_ldcg_1_(ladder_naive_ldcg, "ladder_naive_ldcg", 0, 0);
#endif
