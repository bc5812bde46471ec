/* KNOWN-WRONG SUBMISSION (tests/wrong/03/prefetch-wrong-phase.cu): double-buffered tiles (the next
 * phase's tiles are loaded into the other buffer while this phase's are used, one barrier a phase),
 * but the prefetch loads phase ph again, not ph + 1: each phase from the second on computes with the
 * previous phase's tiles, so phase 0's terms count twice and the last phase's never. Right at
 * Width = TILE_WIDTH (one phase), wrong at every larger size. The fix: load phase ph + 1 into the
 * other buffer, only while ph + 1 < Width / TILE_WIDTH. Everything else is the reference solution.
 * tests/wrong/README.md lists the verdict each bug must get. */
/* tiled.cu: lab 03, the tiled kernel.
 *
 * Check:  ./kit check 03     (builds TILE_WIDTH 16 and 32, runs both on the public sizes)
 * Read:   labs/03-tiled-kernel/README.md for the tasks and the questions.
 *
 * Md, Nd, Pd are Width x Width floats, row-major, on the device. In this lab Width is always a
 * multiple of TILE_WIDTH (the harness refuses other sizes); lab 04 handles any Width.
 * This file is compiled twice, with -DTILE_WIDTH=16 and -DTILE_WIDTH=32 (see lab.h): write
 * TILE_WIDTH, never 16 or 32. CUDA C only: no templates, no classes.
 *
 * Scope: the lecture's kernel, written for clarity. It leaves out register tiling (several
 * outputs per thread) and padding against bank conflicts; cuBLAS, timed next to it, has both.
 */
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
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[2][TILE_WIDTH][TILE_WIDTH];  // BUG: differs from the solution here (the header says how)
    __shared__ float Nds[2][TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;  // BUG: differs from the solution here (the header says how)
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    Mds[0][ty][tx] = Md[Row * Width + tx];             /* phase 0's tiles */
    Nds[0][ty][tx] = Nd[ty * Width + Col];  // BUG: differs from the solution here (the header says how)
    __syncthreads();
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        int cur = ph & 1, nxt = cur ^ 1;
        if (ph + 1 < Width / TILE_WIDTH) {
            /* BUG: the prefetch loads phase ph into the next buffer, not phase ph + 1 */
            Mds[nxt][ty][tx] = Md[Row * Width + ph * TILE_WIDTH + tx];
            Nds[nxt][ty][tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        }
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[cur][ty][k] * Nds[cur][k][tx];  // BUG: differs from the solution here (the header says how)
        __syncthreads();   /* this phase's reads of cur and writes of nxt done before the next phase */
    }
    Pd[Row * Width + Col] = Pvalue;
}

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
