/* 03-right-template-tile.cu: corpus, lab 03, right: TILE_WIDTH as a template parameter */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

template <int T>
__global__ void tiledT(const float *M, const float *N, float *P, int W)
{
    __shared__ float sM[T][T], sN[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0;
    for (int t = 0; t < W / T; ++t) {
        sM[ty][tx] = M[row * W + t * T + tx];
        sN[ty][tx] = N[(t * T + ty) * W + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; ++k)
            acc += sM[ty][k] * sN[k][tx];
        __syncthreads();
    }
    P[row * W + col] = acc;
}
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    tiledT<TILE_WIDTH><<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
