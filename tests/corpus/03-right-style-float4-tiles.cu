/* 03-right-style-float4-tiles.cu: corpus, lab 03, right (issue 24 item 6): the tiles loaded from global memory as
 * float4 (a quarter of the threads, four elements each, through reinterpret_cast<const float4 *>) and stored into
 * the __shared__ tiles as float4; the product reads the tiles element by element. Valid CUDA (every row of M, N
 * and the tiles starts 16-byte aligned: Width is a multiple of TILE_WIDTH); a float4 counts as four elements, so
 * the work rule sees the lecture kernel's loads. */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ __align__(16) float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ __align__(16) float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        if (tx < TILE_WIDTH / 4) {
            float4 m = *reinterpret_cast<const float4 *>(Md + Row * Width + ph * TILE_WIDTH + 4 * tx);
            float4 n = *reinterpret_cast<const float4 *>(Nd + (ph * TILE_WIDTH + ty) * Width +
                                                        blockIdx.x * TILE_WIDTH + 4 * tx);
            *reinterpret_cast<float4 *>(&Mds[ty][4 * tx]) = m;
            *reinterpret_cast<float4 *>(&Nds[ty][4 * tx]) = n;
        }
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
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
