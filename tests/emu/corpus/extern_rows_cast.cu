/* The tiles cut from extern __shared__ memory by a cast to a pointer to rows (valid CUDA, as real
 * kernels write it): right answers, no diagnostic; the accesses through the cast pointers are watched
 * by no race check, so the emulator names the array and the cast's line (tl_emu_shared_escapes). */
#include "corpus.h"
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    extern __shared__ float smem[];
    float (*Mds)[16] = (float (*)[16])smem;
    float (*Nds)[16] = reinterpret_cast<float (*)[16]>(smem + 16 * 16);
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * 16 + ty, Col = blockIdx.x * 16 + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / 16; ++ph) {
        Mds[ty][tx] = Md[Row * Width + ph * 16 + tx];
        Nds[ty][tx] = Nd[(ph * 16 + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < 16; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        MatrixMulKernel<<<dim3(w / 16, w / 16), dim3(16, 16), 2 * 16 * 16 * sizeof(float)>>>(a, b, c, w);
    }, 32);
}
