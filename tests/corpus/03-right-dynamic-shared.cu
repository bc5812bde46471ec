/* 03-right-dynamic-shared.cu: corpus, lab 03, right: both tiles carved from one extern __shared__ array sized at the launch */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    extern __shared__ float smem[];
    float *Ms = smem, *Ns = smem + TILE_WIDTH * TILE_WIDTH;
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        Ms[ty * TILE_WIDTH + tx] = Md[Row * Width + ph * TILE_WIDTH + tx];
        Ns[ty * TILE_WIDTH + tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Ms[ty * TILE_WIDTH + k] * Ns[k * TILE_WIDTH + tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    size_t bytes = 2 * TILE_WIDTH * TILE_WIDTH * sizeof(float);
    MatrixMulKernel<<<g, b, bytes>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
