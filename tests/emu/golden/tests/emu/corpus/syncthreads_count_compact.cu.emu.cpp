#line 1 "tests/emu/corpus/syncthreads_count_compact.cu"
/* FEATURE: block barriers that reduce a predicate: order-preserving stream compaction of the positive
 * elements, each block's count from __syncthreads_count, a warp's offset from __ballot_sync and __popc,
 * and __syncthreads_and / __syncthreads_or telling whether all of a block's elements are in range and
 * whether any of them is negative. The last block is partial (n = 1000, 128 threads per block). */
#include "corpus.h"
#define BLOCK 128
__global__ void Compact(const float *x, int n, float *out, int *counts, int *flags) {
    static const tl_emu::Site warp_base_tl_site_ = {"warp_base", __FILE__, __LINE__, "int"}; tl_emu::Shared<tl_emu::A1<int, (BLOCK / 32)>> warp_base(warp_base_tl_site_); 
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int keep = i < n && (tl_emu::gcount(0), x)[i] > 0.0f;
    unsigned b = __ballot_sync(0xffffffffu, keep);
    if (lane == 0) warp_base(__LINE__)[warp] = __popc(b);
    int total = __syncthreads_count(keep);                  /* also the barrier for warp_base */
    int base = 0;
    for (int w = 0; w < warp; w++) base += warp_base(__LINE__)[w];
    if (keep) (tl_emu::gcount(1), out)[blockIdx.x * BLOCK + base + __popc(b & ((1u << lane) - 1u))] = (tl_emu::gcount(0), x)[i];
    int all_in = __syncthreads_and(i < n);
    int any_neg = __syncthreads_or(i < n && (tl_emu::gcount(0), x)[i] < 0.0f);
    if (threadIdx.x == 0) { (tl_emu::gcount(1), counts)[blockIdx.x] = total; (tl_emu::gcount(1), flags)[blockIdx.x] = all_in + 2 * any_neg; }
}
extern "C" int corpus_run(void) {
    const int n = 1000, blocks = (n + BLOCK - 1) / BLOCK;
    static float hx[n], hout[blocks * BLOCK];
    int hc[blocks], hf[blocks];
    corpus_fill(hx, n, 11);
    for (int i = 384; i < 512; i++) hx[i] = std::fabs(hx[i]) + 0.5f;   /* block 3: no negative */
    float *x, *out; int *counts, *flags;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&out, sizeof hout));
    CHECK(cudaMalloc(&counts, sizeof hc));
    CHECK(cudaMalloc(&flags, sizeof hf));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, sizeof hout));
    tl_emu_launch(Compact, "Compact", __FILE__, __LINE__, blocks,  BLOCK)(x, n, out, counts, flags);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc, counts, sizeof hc, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hf, flags, sizeof hf, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int blk = 0; blk < blocks; blk++) {
        int k = 0, all_in = 1, any_neg = 0;
        for (int t = 0; t < BLOCK; t++) {
            int i = blk * BLOCK + t;
            all_in &= i < n;
            if (i < n && hx[i] < 0.0f) any_neg = 1;
            if (i < n && hx[i] > 0.0f) {
                if (hout[blk * BLOCK + k] != hx[i] && bad++ < 5)
                    fprintf(stderr, "WRONG: block %d kept element %d = %g, expected %g\n", blk, k, hout[blk * BLOCK + k], hx[i]);
                k++;
            }
        }
        if (hc[blk] != k) { fprintf(stderr, "WRONG: block %d __syncthreads_count = %d, expected %d\n", blk, hc[blk], k); bad++; }
        if (hf[blk] != all_in + 2 * any_neg) {
            fprintf(stderr, "WRONG: block %d and/or flags %d, expected %d\n", blk, hf[blk], all_in + 2 * any_neg);
            bad++;
        }
    }
    cudaFree(x); cudaFree(out); cudaFree(counts); cudaFree(flags);
    return bad != 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Compact: fibers (it uses __ballot_sync)
#if 1 && defined(BLOCK)
static tl_emu::KernelReg tl_emu_reg_Compact_0_(Compact, "Compact", 0 + sizeof(int) * (BLOCK / 32), 0);
#else
static tl_emu::KernelReg tl_emu_reg_Compact_0_(Compact, "Compact", 0, 0);
#endif
