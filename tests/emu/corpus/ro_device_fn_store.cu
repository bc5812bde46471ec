/* BUG: between its two barriers (where a tiled kernel only reads its tiles) thread (0,0) notes its
 * partial sum in a file-scope __shared__ variable through a device function, and every thread reads
 * it with no barrier between: a race. The emulator runs a stretch unchecked when its text shows no
 * store and no call that might store; here the call hides in an object-like macro, and the store in the
 * device function must still be found and reported. */
#include "corpus.h"
#define T 16
__shared__ float last[1];
__device__ void note(float v) { last[0] = v; }
#define NOTE_SUM note(Pvalue)
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    __shared__ float Mds[T][T], Nds[T][T];
    int tx = threadIdx.x, ty = threadIdx.y, Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
    float Pvalue = 0;
    if (tx == 0 && ty == 0) last[0] = 0;
    for (int ph = 0; ph < Width / T; ++ph) {
        Mds[ty][tx] = Md[Row * Width + ph * T + tx];
        Nds[ty][tx] = Nd[(ph * T + ty) * Width + Col];
        __syncthreads();
        for (int k = 0; k < T; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        if (tx == 0 && ty == 0) NOTE_SUM;
        Pvalue += 0.0f * last[0];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        MatrixMulKernel<<<dim3(w / T, w / T), dim3(T, T)>>>(a, b, c, w);
    }, 64);
}
