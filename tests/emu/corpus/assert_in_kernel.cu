/* BUG: an assert that fails in one thread: the report names the thread and block. */
#include <cassert>
#include "corpus.h"
__global__ void Check(int *out) {
    assert(threadIdx.x != 5);
    out[threadIdx.x] = 1;
}
extern "C" int corpus_run(void) {
    int *d;
    CHECK(cudaMalloc(&d, 32 * sizeof(int)));
    Check<<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "sync: %s\n", cudaGetErrorName(e));
    return e != cudaSuccess;
}
