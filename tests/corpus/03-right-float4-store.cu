/* 03-right-float4-store.cu: corpus, lab 03, right: the M tile stored into shared memory with float4 (a quarter
 * of the threads copy four elements each through *reinterpret_cast<float4 *>(&Mds[ty][4 * tx]) = v), valid
 * CUDA: the tile's rows are 16-byte aligned. (The global loads stay scalar: a load through a pointer is issue
 * 24's work count, not this file's subject.) */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ __align__(16) float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty, Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        if (tx < TILE_WIDTH / 4) {
            int m0 = Row * Width + ph * TILE_WIDTH + 4 * tx;
            float4 v = make_float4(Md[m0], Md[m0 + 1], Md[m0 + 2], Md[m0 + 3]);
            *reinterpret_cast<float4 *>(&Mds[ty][4 * tx]) = v;
        }
        Nds[ty][tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
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
