/* 03-right-stage-helper.cu: corpus, lab 03, right: double-buffered tiles in one 3-D __shared__ array
 * (Mds[2][TILE_WIDTH][TILE_WIDTH]); each stage is passed to a __device__ helper as a 2-D array
 * (Mds[ph % 2] as float (*)[TILE_WIDTH]) that fills it: valid CUDA, no build error quoting the emulator's
 * internals, no "never written" (issue 25). One barrier per phase is enough: the next phase fills the
 * other stage. */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__device__ void fill(float (*tile)[TILE_WIDTH], const float *src, int stride)
{
    tile[threadIdx.y][threadIdx.x] = src[threadIdx.y * stride + threadIdx.x];
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[2][TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[2][TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE_WIDTH, col0 = blockIdx.x * TILE_WIDTH;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        int s = ph % 2;
        fill(Mds[s], Md + row0 * Width + ph * TILE_WIDTH, Width);
        fill(Nds[s], Nd + ph * TILE_WIDTH * Width + col0, Width);
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[s][ty][k] * Nds[s][k][tx];
    }
    Pd[(row0 + ty) * Width + col0 + tx] = Pvalue;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    MatrixMulKernel<<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
