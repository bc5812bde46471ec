/* FEATURE: cudaMemcpyAsync, cudaMallocManaged, cudaMemcpyToSymbol into __constant__ memory,
 * cudaOccupancyMaxPotentialBlockSize, cudaFuncSetAttribute with cudaSharedmemCarveoutMaxShared, streams. */
#include "corpus.h"
__constant__ float scale[4];
__global__ void Scale(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * scale[i % 4];
}
extern "C" int corpus_run(void) {
    const int n = 1000;
    float h[n], s[4] = {1, 2, 3, 4};
    for (int i = 0; i < n; i++) h[i] = (float)i;
    CHECK(cudaMemcpyToSymbol(scale, s, sizeof s));
    CHECK(cudaFuncSetAttribute(Scale, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    int minGrid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, Scale, 0, 0));
    if (block < 32 || block > 1024 || minGrid < 1) { fprintf(stderr, "WRONG: block %d grid %d\n", block, minGrid); return 1; }
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    float *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, st));
    Scale<<<(n + block - 1) / block, block, 0, st>>>(d, n);
    CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, st));
    CHECK(cudaStreamSynchronize(st));
    float *m;
    CHECK(cudaMallocManaged(&m, n * sizeof(float)));
    for (int i = 0; i < n; i++) m[i] = 1.0f;
    Scale<<<(n + 255) / 256, 256>>>(m, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        if (h[i] != (float)i * s[i % 4] || m[i] != s[i % 4]) { fprintf(stderr, "WRONG at %d: %g %g\n", i, h[i], m[i]); return 1; }
    cudaStreamDestroy(st);
    return 0;
}
