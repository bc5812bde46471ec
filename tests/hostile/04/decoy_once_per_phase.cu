/* hostile/04/decoy_once_per_phase.cu (issue 24 item 3, red team): lab 04's tiled kernels staging every
 * tile with the boundary guards, each thread reading its own staged element of each tile once per phase
 * (2 shared loads per phase, where the tiled kernel's multiply-adds read 2 per multiply-add), the sum
 * dropped, and P copied from a product computed on the host. Right everywhere. Shared loads per
 * multiply-add 2/TILE_WIDTH: 0.0625 at 32, and 0.125 at 16, the rule's floor. Expected: less than the
 * solution, every correctness test failed with "P not computed from the tiles". */
/* boundary.cu: lab 04, boundary handling: the reference solution (labs/04-boundary-handling/boundary.cu
 * completed).
 *
 * Check:  ./kit check 04     (builds TILE_WIDTH 16 and 32, runs square and rectangular sizes)
 * Read:   labs/04-boundary-handling/README.md for the tasks and the questions.
 *
 * All matrices are row-major floats on the device. Sizes are anything from 1 up: 1, 15, 17,
 * primes, 1000 x 17 x 3. This file is compiled twice, with -DTILE_WIDTH=16 and 32 (see lab.h).
 * CUDA C only: no templates, no classes.
 *
 * Scope: lab 03's kernel made correct for every size, nothing faster. The edge tests cost a
 * little in every phase; a production kernel would run interior tiles without them.
 */
#include <stdlib.h>
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ square, any Width */

/* Lab 03's kernel with three changes: the phase count rounds up; a load that would fall
 * outside M or N writes 0 to the tile instead (0 adds nothing to the dot product, so the
 * compute loop needs no test); the store is guarded. Every thread of the block runs every
 * phase and reaches both barriers, also the threads outside P: they load (or zero) their
 * share of the tiles that the threads inside P need. */

static __device__ float *g_answer;   /* the host's product (static: lab 04 links one unit per tile width) */

/* The product on the host, its device copy in g_answer. */
static float *host_product(const float *Md, const float *Nd, int m, int k, int n)
{
    float *M = (float *)malloc((size_t)m * k * sizeof(float)), *N = (float *)malloc((size_t)k * n * sizeof(float)),
          *P = (float *)malloc((size_t)m * n * sizeof(float)), *A = NULL;
    cudaMemcpy(M, Md, (size_t)m * k * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(N, Nd, (size_t)k * n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float acc = 0;
            for (int q = 0; q < k; ++q)
                acc += M[(size_t)i * k + q] * N[(size_t)q * n + j];
            P[(size_t)i * n + j] = acc;
        }
    cudaMalloc((void **)&A, (size_t)m * n * sizeof(float));
    cudaMemcpy(A, P, (size_t)m * n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_answer, &A, sizeof A);
    free(M);
    free(N);
    free(P);
    return A;
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < ceil_div(Width, TILE_WIDTH); ++ph) {
        /* The tests for the M and N tiles differ: M's column and N's row move with ph. */
        if (Row < Width && ph * TILE_WIDTH + tx < Width)
            Mds[ty][tx] = Md[Row * Width + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph * TILE_WIDTH + ty < Width && Col < Width)
            Nds[ty][tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        else
            Nds[ty][tx] = 0;
        __syncthreads();
        Pvalue += Mds[ty][tx] + Nds[ty][tx];   /* each staged element read once, then dropped */
        __syncthreads();
    }
    if (Row < Width && Col < Width)
        Pd[Row * Width + Col] = g_answer[Row * Width + Col] + Pvalue * 0.0f;
}

/* ------------------------------------------------------------------ rectangular */

/* Pd (m x n) = Md (m x k) * Nd (k x n). Rows of P and M run to m, columns of P and N to n,
 * and the dot product (the phases) to k. The inner loop index is kk: k is the shared size. */
__global__ void MatrixMulKernelRect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < ceil_div(k, TILE_WIDTH); ++ph) {
        if (Row < m && ph * TILE_WIDTH + tx < k)
            Mds[ty][tx] = Md[Row * k + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph * TILE_WIDTH + ty < k && Col < n)
            Nds[ty][tx] = Nd[(ph * TILE_WIDTH + ty) * n + Col];
        else
            Nds[ty][tx] = 0;
        __syncthreads();
        Pvalue += Mds[ty][tx] + Nds[ty][tx];   /* each staged element read once, then dropped */
        __syncthreads();
    }
    if (Row < m && Col < n)
        Pd[Row * n + Col] = g_answer[Row * n + Col] + Pvalue * 0.0f;
}

/* ------------------------------------------------------------------ the launchers */

/* Ceiling division in both directions: the last block row and column stick out past P. */
extern "C" int launch_boundary(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH), 1);
    float *A = host_product(Md, Nd, Width, Width, Width);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    cudaDeviceSynchronize();
    cudaFree(A);
    return (int)cudaGetLastError();
}

/* x covers the n columns of P, y its m rows. */
extern "C" int launch_rect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(n, TILE_WIDTH), ceil_div(m, TILE_WIDTH), 1);
    float *A = host_product(Md, Nd, m, k, n);
    MatrixMulKernelRect<<<dimGrid, dimBlock>>>(Md, Nd, Pd, m, k, n);
    cudaDeviceSynchronize();
    cudaFree(A);
    return (int)cudaGetLastError();
}
