/* boundary.cu: lab 04, boundary handling. YOU complete this file; nothing else.
 *
 * Check:  ./kit check 04     (builds TILE_WIDTH 16 and 32, runs square and rectangular sizes)
 * Read:   labs/04-boundary-handling/README.md for the tasks and the questions.
 *
 * All matrices are row-major floats on the device. Sizes are anything from 1 up: 1, 15, 17,
 * primes, 1000 x 17 x 3. This file is compiled twice, with -DTILE_WIDTH=16 and 32 (see lab.h).
 * Plain CUDA C is all it needs; templates (a templated kernel or __device__ helper) are allowed:
 * they build for the GPU and emulated.
 */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ square, any Width */

/* Task 1: start from your lab 03 kernel and make it right for every Width >= 1:
 *   - the number of phases rounds up (ceil_div works in kernels too);
 *   - a load whose element lies outside M (or N) writes 0 into the tile instead; the tests for
 *     the M tile and the N tile are not the same;
 *   - only threads inside P store;
 *   - every thread of the block reaches every __syncthreads(): never put a barrier inside the
 *     bounds test. */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    /* TODO */
    (void)Md; (void)Nd; (void)Pd; (void)Width;
}

/* ------------------------------------------------------------------ rectangular */

/* Task 3: Pd (m x n) = Md (m x k) * Nd (k x n). Which of m, k, n bounds the rows, the columns,
 * the phases? (k is a parameter here: name the inner loop index something else.) */
__global__ void MatrixMulKernelRect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    /* TODO */
    (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n;
}

/* ------------------------------------------------------------------ the launchers */

/* Task 2: enough TILE_WIDTH x TILE_WIDTH blocks to cover P for any Width. */
extern "C" int launch_boundary(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(1, 1, 1);   /* TODO */
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}

/* Task 4: the grid for an m x n P. Which dimension of the grid covers which of m and n? */
extern "C" int launch_rect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(1, 1, 1);   /* TODO */
    MatrixMulKernelRect<<<dimGrid, dimBlock>>>(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}
