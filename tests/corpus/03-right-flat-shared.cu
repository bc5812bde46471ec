/* 03-right-flat-shared.cu: corpus, lab 03, right: the tiles as flat 1-D shared arrays indexed ty * TILE_WIDTH + tx */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float As[TILE_WIDTH * TILE_WIDTH];
    __shared__ float Bs[TILE_WIDTH * TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float v = 0;
    for (int p = 0; p < Width; p += TILE_WIDTH) {
        As[ty * TILE_WIDTH + tx] = Md[Row * Width + p + tx];
        Bs[ty * TILE_WIDTH + tx] = Nd[(p + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            v += As[ty * TILE_WIDTH + k] * Bs[k * TILE_WIDTH + tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = v;
}
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    MatrixMulKernel<<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
