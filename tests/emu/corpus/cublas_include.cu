/* FEATURE: an unused #include <cublas_v2.h> (and other CUDA header names) builds under emulation. */
#include <cublas_v2.h>
#include <cuda.h>
#include <device_launch_parameters.h>
#include <vector_types.h>
#include "corpus.h"
#define T 16
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    __shared__ float Mds[T][T], Nds[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / T; ++ph) {
        Mds[ty][tx] = Md[Row * Width + ph * T + tx];
        Nds[ty][tx] = Nd[(ph * T + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < T; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        MatrixMulKernel<<<dim3(w / T, w / T), dim3(T, T)>>>(a, b, c, w);
    }, 64);
}
