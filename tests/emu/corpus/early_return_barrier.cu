/* BUG: a bounds check that returns before the tile loop's barriers: a divergent barrier. */
#include "corpus.h"
#define T 16
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    __shared__ float Mds[T][T], Nds[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
    if (Row >= Width || Col >= Width) return;
    float Pvalue = 0;
    for (int ph = 0; ph < (Width + T - 1) / T; ++ph) {
        Mds[ty][tx] = ph * T + tx < Width ? Md[Row * Width + ph * T + tx] : 0;
        Nds[ty][tx] = ph * T + ty < Width ? Nd[(ph * T + ty) * Width + Col] : 0;
        __syncthreads();
        for (int k = 0; k < T; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        MatrixMulKernel<<<dim3((w + T - 1) / T, (w + T - 1) / T), dim3(T, T)>>>(a, b, c, w);
    }, 40);
}
