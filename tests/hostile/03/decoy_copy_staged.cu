/* hostile/03/decoy_copy_staged.cu (issue 24 item 3): the launcher computes P on the host and hands it to a
 * decoy kernel dressed as the tiled kernel: each block stages one tile of M, one of N and one of the host's
 * product in __shared__ memory (every element of M and N loaded once, every loaded element staged, the tiles
 * read back), then copies the product's tile into Pd. It loads fewer elements than a tiled kernel and stages
 * all of them, so "not tiled" and "not staged" both pass. Expected: no correctness credit; the headline names
 * the shared loads per multiply-add (about 3/Width, where the tiled kernel reads 2). */
#include <stdlib.h>
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

static __device__ float *g_answer;   /* the host's product, on the device (static: lab 03 links one unit per tile width) */

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Pds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    Mds[ty][tx] = Md[Row * Width + Col];
    Nds[ty][tx] = Nd[Row * Width + Col];
    Pds[ty][tx] = g_answer[Row * Width + Col];
    __syncthreads();
    volatile float sink = Mds[tx][ty] + Nds[tx][ty];
    (void)sink;
    Pd[Row * Width + Col] = Pds[ty][tx];
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;
    size_t n = (size_t)Width * Width;
    float *M = (float *)malloc(n * sizeof(float)), *N = (float *)malloc(n * sizeof(float)),
          *P = (float *)malloc(n * sizeof(float)), *A = NULL;
    cudaMemcpy(M, Md, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(N, Nd, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < Width; ++i)
        for (int j = 0; j < Width; ++j) {
            float s = 0;
            for (int k = 0; k < Width; ++k)
                s += M[i * Width + k] * N[k * Width + j];
            P[i * Width + j] = s;
        }
    cudaMalloc((void **)&A, n * sizeof(float));
    cudaMemcpy(A, P, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_answer, &A, sizeof A);
    free(M);
    free(N);
    free(P);
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    MatrixMulKernel<<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
