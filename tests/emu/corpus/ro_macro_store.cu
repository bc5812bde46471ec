/* BUG: between its two barriers thread (15,15) overwrites a tile element through an object-like macro
 * defined before the tile's declaration, while the other threads of the block read it: a race. The
 * emulator runs a stretch unchecked when its text shows no store; the store in the macro must still be
 * found and reported. */
#include "corpus.h"
#define T 16
#define ZAP Nds[0][0] = 0.0f
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    __shared__ float Mds[T][T], Nds[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / T; ++ph) {
        Mds[ty][tx] = Md[Row * Width + ph * T + tx];
        Nds[ty][tx] = Nd[(ph * T + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < T; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        if (tx == T - 1 && ty == T - 1) ZAP;
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        MatrixMulKernel<<<dim3(w / T, w / T), dim3(T, T)>>>(a, b, c, w);
    }, 64);
}
