/* corpus.h: what the corpus fixtures share: seeded inputs, a double-precision check of P = M * N,
 * and CHECK for CUDA calls. Each fixture defines extern "C" int corpus_run(void): 0 when its kernels
 * gave the right answers, 1 (with a line saying what) when not. */
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        cudaError_t e_ = (call);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            fprintf(stderr, "CUDA %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorName(e_)); \
            return 1;                                                                                 \
        }                                                                                             \
    } while (0)

static inline void corpus_fill(float *a, int n, unsigned seed) {
    unsigned x = seed * 2654435761u + 1;
    for (int i = 0; i < n; i++) { x = x * 1664525u + 1013904223u; a[i] = (float)((x >> 8) % 2001) / 1000.0f - 1.0f; }
}
/* Wrong elements of P (w x w) against M * N in double precision. */
static inline int corpus_wrong(const float *M, const float *N, const float *P, int w) {
    int bad = 0;
    for (int i = 0; i < w; i++)
        for (int j = 0; j < w; j++) {
            double s = 0, a = 0;
            for (int k = 0; k < w; k++) { s += (double)M[i * w + k] * N[k * w + j]; a += std::fabs((double)M[i * w + k] * N[k * w + j]); }
            if (!(std::fabs(P[i * w + j] - s) <= 2.0 * w * a / 16777216.0 + 1e-30)) bad++;
        }
    return bad;
}
/* Runs launch(d_M, d_N, d_P, w) on seeded inputs and checks P; 0 when right. */
template <class F> static inline int corpus_gemm(F launch, int w) {
    size_t n = (size_t)w * w, bytes = n * sizeof(float);
    float *M = (float *)malloc(bytes), *N = (float *)malloc(bytes), *P = (float *)malloc(bytes);
    corpus_fill(M, (int)n, 1);
    corpus_fill(N, (int)n, 2);
    float *d_M, *d_N, *d_P;
    CHECK(cudaMalloc(&d_M, bytes));
    CHECK(cudaMalloc(&d_N, bytes));
    CHECK(cudaMalloc(&d_P, bytes));
    CHECK(cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));
    launch(d_M, d_N, d_P, w);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));
    int bad = corpus_wrong(M, N, P, w);
    if (bad) fprintf(stderr, "WRONG: %d of %zu elements of P\n", bad, n);
    cudaFree(d_M); cudaFree(d_N); cudaFree(d_P);
    free(M); free(N); free(P);
    return bad != 0;
}
