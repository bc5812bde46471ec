/* boundary.cu: KNOWN WRONG (tests/wrong/04/naive-in-boundary.cu): lab 02's naive kernel, guarded, for both
 * kernels of lab 04. Every size and shape is right, but nothing is tiled: both operands of every
 * multiply-add come from global memory. The grader's work counts show it (global loads per
 * multiply-add far above a TILE_WIDTH kernel's, ragged edges counted) and the correctness tests
 * give no credit. The launchers are the reference solution's.
 */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ square, any Width */

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)  // BUG: differs from the solution here (the header says how)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)          /* BUG: no tiles */
            Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];
        Pd[Row * Width + Col] = Pvalue;
    }  // BUG: differs from the solution here (the header says how)
}

/* ------------------------------------------------------------------ rectangular */

__global__ void MatrixMulKernelRect(float *Md, float *Nd, float *Pd, int m, int k, int n)  // BUG: differs from the solution here (the header says how)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < m && Col < n) {
        float Pvalue = 0;
        for (int kk = 0; kk < k; ++kk)           /* BUG: no tiles */
            Pvalue += Md[Row * k + kk] * Nd[kk * n + Col];
        Pd[Row * n + Col] = Pvalue;
    }  // BUG: differs from the solution here (the header says how)
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
