#line 1 "tests/emu/corpus/syncthreads_count_divergent.cu"
/* BUG: __syncthreads_count inside a bounds check: the threads past n (the last block of 100 elements
 * with 64 threads per block) skip the barrier and return while the others wait at it. */
#include "corpus.h"
__global__ void CountPositive(const float *x, int n, int *count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int c = __syncthreads_count((tl_emu::gcount(0), x)[i] > 0.0f);
        if (threadIdx.x == 0) atomicAdd(count, c);
    }
}
extern "C" int corpus_run(void) {
    const int n = 100;
    float hx[n];
    corpus_fill(hx, n, 3);
    int want = 0, got = -1;
    for (int i = 0; i < n; i++) want += hx[i] > 0.0f;
    float *x; int *count;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&count, sizeof(int)));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(count, 0, sizeof(int)));
    tl_emu_launch(CountPositive, "CountPositive", __FILE__, __LINE__, (n + 63) / 64,  64)(x, n, count);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&got, count, sizeof got, cudaMemcpyDeviceToHost));
    cudaFree(x); cudaFree(count);
    if (got != want) { fprintf(stderr, "WRONG: %d positives counted, expected %d\n", got, want); return 1; }
    return 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// CountPositive: fibers (it uses __syncthreads_count)
#if 1
static tl_emu::KernelReg tl_emu_reg_CountPositive_0_(CountPositive, "CountPositive", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_CountPositive_0_(CountPositive, "CountPositive", 0, 0);
#endif
