/* 03-right-style-ptr-arith-tiles.cu: corpus, lab 03, right (issue 24 item 6): every access written as pointer
 * arithmetic: global loads *(Md + i), the tiles stored through *(&Mds[0][0] + i) and read through row pointers
 * *(mrow + k), P stored through *(Pd + i). Valid CUDA; the emulator counts each access at its address, so the
 * work rule sees the lecture kernel's loads (2/TILE_WIDTH global, 2 shared per multiply-add). */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float *mbase = &Mds[0][0], *nbase = &Nds[0][0];
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        *(mbase + ty * TILE_WIDTH + tx) = *(Md + Row * Width + ph * TILE_WIDTH + tx);
        *(nbase + ty * TILE_WIDTH + tx) = *(Nd + (ph * TILE_WIDTH + ty) * Width + Col);
        __syncthreads();
        const float *mrow = mbase + ty * TILE_WIDTH, *ncol = nbase + tx;
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += *(mrow + k) * *(ncol + k * TILE_WIDTH);
        __syncthreads();
    }
    *(Pd + Row * Width + Col) = Pvalue;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    MatrixMulKernel<<<g, b>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
