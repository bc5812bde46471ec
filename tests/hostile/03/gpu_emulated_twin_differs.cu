/* hostile/03/gpu_emulated_twin_differs.cu (issue 24 item 4, GPU only): the tiled kernel where the
 * emulator builds the file (the twin whose work the grader counts on a GPU) and lab 02's naive
 * kernel in the GPU build. Expected: less than the solution: refused before any test runs, everywhere
 * (it tests TL_EMULATED, which tells the GPU build from the emulated one that counts the work: policy.c,
 * tg_policy_build_split, issue 29); with TL_GRADE_NCU=1 the GPU's counters would see the naive kernel too. */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ the kernel */

/* One block computes one TILE_WIDTH x TILE_WIDTH tile of Pd, one thread per element. The dot
 * product runs in phases: in phase ph the block loads one tile of Md (its rows, columns
 * ph*TILE_WIDTH ...) and one tile of Nd (rows ph*TILE_WIDTH ..., its columns) into shared
 * memory, each thread one element of each, and then every thread uses TILE_WIDTH elements of
 * each tile: every element loaded from global memory is used TILE_WIDTH times. */
#ifdef TL_EMULATED   /* the twin the grader counts the work of: tiled */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    /* threadIdx.x walks columns: a warp loads a row segment of each tile (coalesced). */
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        /* Collaborative load: thread (ty, tx) brings M[Row][ph*T + tx] and N[ph*T + ty][Col]. */
        Mds[ty][tx] = Md[Row * Width + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();   /* the whole tile is loaded before anyone reads it */
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();   /* everyone is done with this tile before the next load overwrites it */
    }
    Pd[Row * Width + Col] = Pvalue;
}
#else                /* the GPU build, timed and checked: lab 02's naive kernel */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    int Row = blockIdx.y * TILE_WIDTH + threadIdx.y, Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k)
        Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];
    Pd[Row * Width + Col] = Pvalue;
}
#endif

/* ------------------------------------------------------------------ the launcher */

/* One block per tile of Pd. Width is a multiple of TILE_WIDTH here, so Width / TILE_WIDTH is
 * exact; ceil_div says what is meant and stays right in lab 04. */
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH), 1);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
