#line 1 "tests/emu/corpus/ballot_count.cu"
/* FEATURE: votes: positives counted with __ballot_sync and __popc, a warp's lane 0 told whether any or
 * all of its lanes saw a positive (__any_sync, __all_sync), and __activemask() inside a branch that
 * only some lanes take. */
#include "corpus.h"
__global__ void CountPositive(const float *x, int n, int *count, int *flags, unsigned *masks) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pred = i < n && (tl_emu::gcount(0), x)[i] > 0.0f;
    unsigned b = __ballot_sync(0xffffffffu, pred);
    int any = __any_sync(0xffffffffu, pred), all = __all_sync(0xffffffffu, i < n);
    int warp = i / 32, lane = threadIdx.x % 32;
    if (lane == 0) {
        atomicAdd(count, __popc(b));
        (tl_emu::gcount(1), flags)[warp] = any + 2 * all;
    }
    if (lane % 2 == 1) {
        unsigned m = __activemask();
        if (lane == 1) (tl_emu::gcount(1), masks)[warp] = m;
    }
}
extern "C" int corpus_run(void) {
    const int n = 200, warps = 7;   /* 224 threads: the last warp has 8 lanes in range */
    float hx[n];
    corpus_fill(hx, n, 5);
    for (int i = 128; i < 160; i++) hx[i] = -1.0f;           /* warp 4: no positive */
    int want = 0;
    for (int i = 0; i < n; i++) want += hx[i] > 0.0f;
    float *x; int *count, *flags; unsigned *masks;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&count, sizeof(int)));
    CHECK(cudaMalloc(&flags, warps * sizeof(int)));
    CHECK(cudaMalloc(&masks, warps * sizeof(unsigned)));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(count, 0, sizeof(int)));
    tl_emu_launch(CountPositive, "CountPositive", __FILE__, __LINE__, 1,  warps * 32)(x, n, count, flags, masks);
    CHECK(cudaGetLastError());
    int got, hf[warps]; unsigned hm[warps];
    CHECK(cudaMemcpy(&got, count, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hf, flags, sizeof hf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hm, masks, sizeof hm, cudaMemcpyDeviceToHost));
    int bad = 0;
    if (got != want) { fprintf(stderr, "WRONG: %d positives counted, expected %d\n", got, want); bad = 1; }
    for (int w = 0; w < warps; w++) {
        int any = 0, all = 1;
        for (int l = 0; l < 32; l++) { int i = w * 32 + l; any |= i < n && hx[i] > 0.0f; all &= i < n; }
        if (hf[w] != any + 2 * all) { fprintf(stderr, "WRONG: warp %d flags %d, expected %d\n", w, hf[w], any + 2 * all); bad = 1; }
        if (hm[w] != 0xAAAAAAAAu) { fprintf(stderr, "WRONG: warp %d __activemask() = 0x%08x, expected 0xaaaaaaaa\n", w, hm[w]); bad = 1; }
    }
    cudaFree(x); cudaFree(count); cudaFree(flags); cudaFree(masks);
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// CountPositive: fibers (it uses __ballot_sync)
#if 1
static tl_emu::KernelReg tl_emu_reg_CountPositive_0_(CountPositive, "CountPositive", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_CountPositive_0_(CountPositive, "CountPositive", 0, 0);
#endif
