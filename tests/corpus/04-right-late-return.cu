/* 04-right-late-return.cu: corpus, lab 04, right: threads outside P leave after the phase loop (every barrier reached), not before */
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
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    if (Row < Width && Col < Width)
        Pd[Row * Width + Col] = Pvalue;
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
        for (int kk = 0; kk < TILE_WIDTH; ++kk)
            Pvalue += Mds[ty][kk] * Nds[kk][tx];
        __syncthreads();
    }
    if (Row >= m || Col >= n)   /* STYLE: a late return after the barriers, then the store */
        return;
    Pd[Row * n + Col] = Pvalue;
}

/* ------------------------------------------------------------------ the launchers */

/* Ceiling division in both directions: the last block row and column stick out past P. */
extern "C" int launch_boundary(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH), 1);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}

/* x covers the n columns of P, y its m rows. */
extern "C" int launch_rect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(n, TILE_WIDTH), ceil_div(m, TILE_WIDTH), 1);
    MatrixMulKernelRect<<<dimGrid, dimBlock>>>(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}
