/* hostile/03/device_reset.cu: calls cudaDeviceReset() after its launch, destroying the harness's buffers and context.
 * Expected: a CUDA error reported for the case (not a crash of the grader), the next case and
 * submission unaffected.
 * Written to common/CONTRACTS.md section 1 (lab 03: tiled.cu, MatrixMulKernel, launch_tiled);
 * aligned with labs/03-tiled-kernel (int launcher, float * inputs). Graded on a GPU (selftest.sh 03). */
#include <cuda_runtime.h>

#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

static int ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

/* A correct tiled kernel (Width a multiple of TILE_WIDTH), so only the hostile part differs. */
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
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}

extern "C" int launch_tiled(float *d_M, float *d_N, float *d_P, int Width)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH));
    MatrixMulKernel<<<grid, block>>>(d_M, d_N, d_P, Width);
    cudaError_t err = cudaGetLastError();
    cudaDeviceSynchronize();
    cudaDeviceReset();
    return (int)err;
}
