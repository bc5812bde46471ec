#line 1 "tests/emu/corpus/warp_macro_xor.cu"
/* FEATURE: a butterfly warp sum (__shfl_xor_sync, every lane ends with the total) written as a macro,
 * so that the kernel's body shows no warp operation; width 8 sums groups of 8 lanes. */
#include "corpus.h"
#define WARP_ALLSUM(v, w) for (int o_ = (w) / 2; o_ > 0; o_ /= 2) v += __shfl_xor_sync(0xffffffffu, v, o_, (w))
__global__ void GroupSums(const int *x, int *all, int *eights) {
    int t = threadIdx.x;
    int a = (tl_emu::gcount(0), x)[t], e = (tl_emu::gcount(0), x)[t];
    WARP_ALLSUM(a, 32);
    WARP_ALLSUM(e, 8);
    (tl_emu::gcount(1), all)[t] = a;
    (tl_emu::gcount(1), eights)[t] = e;
}
extern "C" int corpus_run(void) {
    int hx[64], ha[64], he[64];
    for (int i = 0; i < 64; i++) hx[i] = i * i % 17;
    int *x, *all, *eights;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&all, sizeof ha));
    CHECK(cudaMalloc(&eights, sizeof he));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    tl_emu_launch(GroupSums, "GroupSums", __FILE__, __LINE__, 1,  64)(x, all, eights);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ha, all, sizeof ha, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(he, eights, sizeof he, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 64; i++) {
        int wa = 0, we = 0;
        for (int j = i / 32 * 32; j < i / 32 * 32 + 32; j++) wa += hx[j];
        for (int j = i / 8 * 8; j < i / 8 * 8 + 8; j++) we += hx[j];
        if (ha[i] != wa || he[i] != we) {
            fprintf(stderr, "WRONG: lane %d: %d and %d, expected %d and %d\n", i, ha[i], he[i], wa, we);
            bad = 1;
        }
    }
    cudaFree(x); cudaFree(all); cudaFree(eights);
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// GroupSums: fibers (a #define of the file holds a barrier or a warp operation)
#if 1
static tl_emu::KernelReg tl_emu_reg_GroupSums_0_(GroupSums, "GroupSums", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_GroupSums_0_(GroupSums, "GroupSums", 0, 0);
#endif
