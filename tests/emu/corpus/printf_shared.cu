/* FEATURE: printf in a kernel prints once per thread, with __shared__ elements passed by value. */
#include "corpus.h"
__global__ void Show(int base) {
    __shared__ float Mds[2][4];
    __shared__ int count;
    Mds[threadIdx.x / 4][threadIdx.x % 4] = base + threadIdx.x * 0.5f;
    if (threadIdx.x == 0) count = 42;
    __syncthreads();
    if (threadIdx.x < 2) printf("thread %d sees %f then %d and %s\n", (int)threadIdx.x, Mds[0][1], count, "end");
}
extern "C" int corpus_run(void) {
    Show<<<1, 8>>>(10);
    CHECK(cudaDeviceSynchronize());
    fflush(stdout);
    return 0;
}
