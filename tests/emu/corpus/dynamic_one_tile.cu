/* BUG: dynamic shared memory for one tile, carved through pointers into two: the second tile lies past
 * the end of what the launch allocated. */
#include "corpus.h"
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width, int T) {
    extern __shared__ float smem[];
    float *Mds = smem, *Nds = smem + T * T;
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / T; ++ph) {
        Mds[ty * T + tx] = Md[Row * Width + ph * T + tx];
        Nds[ty * T + tx] = Nd[(ph * T + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < T; ++k) Pvalue += Mds[ty * T + k] * Nds[k * T + tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        MatrixMulKernel<<<dim3(w / 16, w / 16), dim3(16, 16), 16 * 16 * sizeof(float)>>>(a, b, c, w, 16);
    }, 32);
}
