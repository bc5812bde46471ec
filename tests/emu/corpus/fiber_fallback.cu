/* FEATURE: kernels the region form leaves to fibers (a barrier inside a uniform if, auto locals, a
 * template) still run correctly. */
#include "corpus.h"
__global__ void Reverse(float *x, int n, int twice) {
    __shared__ float buf[64];
    auto t = threadIdx.x;
    buf[t] = x[t];
    if (twice) {
        __syncthreads();
        float v = buf[n - 1 - t];
        __syncthreads();
        buf[t] = v;
    }
    __syncthreads();
    x[t] = buf[n - 1 - t];
}
extern "C" int corpus_run(void) {
    float h[64], *d;
    for (int i = 0; i < 64; i++) h[i] = (float)i;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    Reverse<<<1, 64>>>(d, 64, 1);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) if (h[i] != (float)i) { fprintf(stderr, "WRONG: x[%d] = %g\n", i, h[i]); return 1; }
    return 0;
}
