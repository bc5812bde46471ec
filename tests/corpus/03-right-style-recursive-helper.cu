/* 03-right-style-recursive-helper.cu: corpus, lab 03, right (issue 24 item 6): the dot product of a tile row and a
 * tile column by a __device__ helper that recurses into its two halves (valid CUDA: device recursion), reading the
 * tiles through a row pointer and a pointer to rows; a printf of a tile value for one thread of one block at the
 * smallest size. The work rule sees the lecture kernel's loads: a helper's reads count where they happen. */
#include "cuda_check.h"
#include "lab.h"

#include <cstdio>

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__device__ float dot(const float *mrow, const float (*ntile)[TILE_WIDTH], int col, int k0, int n)
{
    if (n == 1)
        return mrow[k0] * ntile[k0][col];
    int h = n / 2;
    return dot(mrow, ntile, col, k0, h) + dot(mrow, ntile, col, k0 + h, n - h);
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = Md[Row * Width + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();
        if (Width == TILE_WIDTH && blockIdx.x == 0 && blockIdx.y == 0 && tx == 0 && ty == 0)
            printf("first tile, M[0][0] = %g\n", Mds[0][0]);
        Pvalue += dot(Mds[ty], Nds, tx, 0, TILE_WIDTH);
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    MatrixMulKernel<<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
