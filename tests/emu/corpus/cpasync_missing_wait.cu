/* BUG: the wait is missing: the barrier alone does not wait for copies, so the phase is read before its
 * copies land (a read of an element its copy has not written yet). */
#include "corpus.h"
#include <cuda_pipeline.h>
#define T 16
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    __shared__ float Mds[2][T][T], Nds[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
    int phases = Width / T;
    float Pvalue = 0;
    __pipeline_memcpy_async(&Mds[0][ty][tx], &Md[Row * Width + tx], 4);
    __pipeline_memcpy_async(&Nds[0][ty][tx], &Nd[ty * Width + Col], 4);
    __pipeline_commit();
    for (int ph = 0; ph < phases; ++ph) {
        if (ph + 1 < phases) {
            __pipeline_memcpy_async(&Mds[(ph + 1) % 2][ty][tx], &Md[Row * Width + (ph + 1) * T + tx], 4);
            __pipeline_memcpy_async(&Nds[(ph + 1) % 2][ty][tx], &Nd[((ph + 1) * T + ty) * Width + Col], 4);
        }
        __pipeline_commit();
        /* BUG: no __pipeline_wait_prior(1) */
        __syncthreads();
        for (int k = 0; k < T; ++k) Pvalue += Mds[ph % 2][ty][k] * Nds[ph % 2][k][tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        MatrixMulKernel<<<dim3(w / T, w / T), dim3(T, T)>>>(a, b, c, w);
    }, 64);
}
