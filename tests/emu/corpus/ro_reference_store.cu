/* BUG: between its two barriers one thread of each row zeroes a tile element through a reference
 * (a device function taking float &, called through an object-like macro) while the other threads of
 * the block read it: a race. The emulator runs a stretch unchecked when its text shows no store and no
 * call that might store; the store through the reference must still be found and reported. */
#include "corpus.h"
#define T 16
__device__ void clear(float &x) { x = 0.0f; }
#define CLEAR_FIRST clear(Nds[ty][0])
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    __shared__ float Mds[T][T], Nds[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / T; ++ph) {
        Mds[ty][tx] = Md[Row * Width + ph * T + tx];
        Nds[ty][tx] = Nd[(ph * T + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < T; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        if (tx == T - 1) CLEAR_FIRST;
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        MatrixMulKernel<<<dim3(w / T, w / T), dim3(T, T)>>>(a, b, c, w);
    }, 64);
}
