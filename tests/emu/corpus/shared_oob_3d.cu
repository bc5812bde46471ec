/* BUG: an index one past the last dimension of a 3-D __shared__ array. */
#include "corpus.h"
__global__ void Cube(float *out) {
    __shared__ float cube[2][4][8];
    cube[threadIdx.x / 32][threadIdx.x / 8 % 4][threadIdx.x % 8 + 1] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = cube[threadIdx.x / 32][threadIdx.x / 8 % 4][threadIdx.x % 8];
}
extern "C" int corpus_run(void) {
    float *d;
    CHECK(cudaMalloc(&d, 64 * sizeof(float)));
    Cube<<<1, 64>>>(d);
    return cudaDeviceSynchronize() != cudaSuccess;
}
