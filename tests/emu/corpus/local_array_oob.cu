/* BUG: a register-tiled kernel's accumulator array is read one past its end (acc[i + 1] for the
 * last i): on a GPU this reads another of the thread's variables, or a stack slot, and P is wrong
 * with no error. The emulated build checks every index into an array of known size. */
#include "corpus.h"
#define TM 4
__global__ void Coarse(const float *M, const float *N, float *P, int w) {
    int col = blockIdx.x * blockDim.x + threadIdx.x, row0 = blockIdx.y * TM;
    float acc[TM];
    for (int i = 0; i < TM; i++) acc[i] = 0.0f;
    for (int k = 0; k < w; k++)
        for (int i = 0; i < TM; i++) acc[i] += M[(row0 + i) * w + k] * N[k * w + col];
    for (int i = 0; i < TM; i++) P[(row0 + i) * w + col] = acc[i + 1];
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        Coarse<<<dim3(w / 16, w / TM), 16>>>(a, b, c, w);
    }, 32);
}
