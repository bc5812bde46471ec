/* 03-right-helper-fills-tile.cu: corpus, lab 03, right: both tiles filled by a __device__ helper that takes the
 * __shared__ tile as an array parameter (float tile[][TILE_WIDTH]) and as a pointer to rows (float (*)[TILE_WIDTH]),
 * the product read by a helper taking rows (const float *), as guarded real kernels write it: valid CUDA. The
 * emulator must not call the tiles "read of __shared__ memory never written" (issue 25). */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__device__ void load_m(float tile[][TILE_WIDTH], const float *Md, int Row, int col0, int Width)
{
    tile[threadIdx.y][threadIdx.x] = Md[Row * Width + col0 + threadIdx.x];
}

__device__ void load_n(float (*tile)[TILE_WIDTH], const float *Nd, int row0, int Col, int Width)
{
    tile[threadIdx.y][threadIdx.x] = Nd[(row0 + threadIdx.y) * Width + Col];
}

__device__ float dot_rows(const float *mrow, float (*ntile)[TILE_WIDTH], int tx)
{
    float s = 0;
    for (int k = 0; k < TILE_WIDTH; ++k)
        s += mrow[k] * ntile[k][tx];
    return s;
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        load_m(Mds, Md, Row, ph * TILE_WIDTH, Width);
        load_n(Nds, Nd, ph * TILE_WIDTH, Col, Width);
        __syncthreads();
        Pvalue += dot_rows(Mds[ty], Nds, tx);
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    MatrixMulKernel<<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
