/* 03-wrong-double-buffer-prefetch-same-phase.cu: corpus, lab 03, wrong: a double-buffered tiled kernel
 * whose prefetch loads phase ph again (not ph + 1) into the other stage: phase ph is computed from the
 * stage holding phase ph - 1 (0 twice, the last phase never). */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[2][TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[2][TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    int phases = Width / TILE_WIDTH;
    Mds[0][ty][tx] = Md[Row * Width + tx];
    Nds[0][ty][tx] = Nd[ty * Width + Col];
    __syncthreads();
    float Pvalue = 0;
    for (int ph = 0; ph < phases; ++ph) {
        int cur = ph & 1, nxt = cur ^ 1;
        if (ph + 1 < phases) {
            Mds[nxt][ty][tx] = Md[Row * Width + ph * TILE_WIDTH + tx];   /* BUG: the prefetch loads phase ph again, not ph + 1 */
            Nds[nxt][ty][tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        }
#pragma unroll
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[cur][ty][k] * Nds[cur][k][tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(Width / TILE_WIDTH, Width / TILE_WIDTH, 1);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
