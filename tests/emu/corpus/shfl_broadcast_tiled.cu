/* FEATURE: a tiled product where each lane holds one element of M's tile in a register and the row's
 * elements reach the other lanes by __shfl_sync with width 16 (a warp holds two 16-lane rows); N's
 * tile goes through shared memory and barriers. */
#include "corpus.h"
#define TILE_WIDTH 16
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        float m = Md[Row * Width + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += __shfl_sync(0xffffffffu, m, k, TILE_WIDTH) * Nds[k][tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        MatrixMulKernel<<<dim3(w / TILE_WIDTH, w / TILE_WIDTH), dim3(TILE_WIDTH, TILE_WIDTH)>>>(a, b, c, w);
    }, 64);
}
