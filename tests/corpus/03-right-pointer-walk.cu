/* 03-right-pointer-walk.cu: corpus, lab 03, right: pointers to the current tiles advanced each phase (the CUDA samples idiom) */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float As[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    const float *a = Md + blockIdx.y * TILE_WIDTH * Width;
    const float *b = Nd + blockIdx.x * TILE_WIDTH;
    const float *aEnd = a + Width;
    float c = 0;
    for (; a < aEnd; a += TILE_WIDTH, b += TILE_WIDTH * Width) {
        As[ty][tx] = a[ty * Width + tx];
        Bs[ty][tx] = b[ty * Width + tx];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            c += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    Pd[(blockIdx.y * TILE_WIDTH + ty) * Width + blockIdx.x * TILE_WIDTH + tx] = c;
}
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    MatrixMulKernel<<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
