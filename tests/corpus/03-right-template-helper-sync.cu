/* 03-right-template-helper-sync.cu: corpus, lab 03, right: the barriers are held by a template __device__ helper
 * (block_sync<TILE_WIDTH>(), as code that templates its block size writes it), valid CUDA: the emulator must
 * keep such a kernel on fibers, not stop with an internal error. (The tiles are loaded in the kernel: loads
 * and stores through a helper's pointers are issue 24's work count, not this file's subject.) */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

template <int T>
__device__ void block_sync()
{
    static_assert(T >= 1, "a tile has a width");
    __syncthreads();
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = Md[Row * Width + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        block_sync<TILE_WIDTH>();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        block_sync<TILE_WIDTH>();
    }
    Pd[Row * Width + Col] = Pvalue;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    MatrixMulKernel<<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
