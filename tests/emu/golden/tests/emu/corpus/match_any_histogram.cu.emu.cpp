#line 1 "tests/emu/corpus/match_any_histogram.cu"
/* FEATURE: a histogram with warp aggregation: __match_any_sync groups the lanes with the same key, the
 * lowest lane of each group adds the group's size (one atomic per distinct key and warp instead of one
 * per element); __match_all_sync on 64-bit values says whether a warp's keys are all equal. */
#include "corpus.h"
#define BINS 16
__global__ void Histogram(const int *keys, int n, int *hist, int *uniform) {
    static const tl_emu::Site sh_tl_site_ = {"sh", __FILE__, __LINE__, "int"}; tl_emu::Shared<tl_emu::A1<int, (BINS)>> sh(sh_tl_site_); 
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < BINS) sh(__LINE__)[threadIdx.x] = 0;
    __syncthreads();
    int key = i < n ? (tl_emu::gcount(0), keys)[i] : -1;
    unsigned peers = __match_any_sync(0xffffffffu, key);
    int leader = __ffs(peers) - 1;
    if (key >= 0 && (int)(threadIdx.x % 32) == leader) atomicAdd(&sh(__LINE__)[key], __popc(peers));
    int pred;
    long long wide = key < 0 ? -1ll : (long long)key << 33;
    unsigned all = __match_all_sync(0xffffffffu, wide, &pred);
    if (threadIdx.x % 32 == 0) (tl_emu::gcount(1), uniform)[i / 32] = pred ? (int)all : 0;
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&(tl_emu::gcount(0), hist)[threadIdx.x], sh(__LINE__)[threadIdx.x]);
}
extern "C" int corpus_run(void) {
    const int n = 1000, threads = 256, blocks = (n + threads - 1) / threads, warps = blocks * threads / 32;
    int hk[n], hh[BINS], hu[warps], want[BINS] = {0};
    for (int i = 0; i < n; i++) hk[i] = (int)((i * 2654435761u) >> 7) % BINS;
    for (int i = 64; i < 96; i++) hk[i] = 3;                  /* warp 2: one key */
    for (int i = 0; i < n; i++) want[hk[i]]++;
    int *keys, *hist, *uniform;
    CHECK(cudaMalloc(&keys, sizeof hk));
    CHECK(cudaMalloc(&hist, sizeof hh));
    CHECK(cudaMalloc(&uniform, sizeof hu));
    CHECK(cudaMemcpy(keys, hk, sizeof hk, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(hist, 0, sizeof hh));
    tl_emu_launch(Histogram, "Histogram", __FILE__, __LINE__, blocks,  threads)(keys, n, hist, uniform);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hu, uniform, sizeof hu, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < BINS; b++)
        if (hh[b] != want[b]) { fprintf(stderr, "WRONG: bin %d holds %d, expected %d\n", b, hh[b], want[b]); bad = 1; }
    for (int w = 0; w < warps; w++) {
        int same = 1;
        for (int l = 1; l < 32; l++) {
            int a = w * 32 < n ? hk[w * 32] : -1, k = w * 32 + l < n ? hk[w * 32 + l] : -1;
            same &= k == a;
        }
        int expect = same ? (int)0xffffffffu : 0;
        if (hu[w] != expect) { fprintf(stderr, "WRONG: warp %d __match_all_sync gave 0x%08x, expected 0x%08x\n", w, hu[w], expect); bad = 1; }
    }
    cudaFree(keys); cudaFree(hist); cudaFree(uniform);
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Histogram: fibers (it uses __match_any_sync)
#if 1 && defined(BINS)
static tl_emu::KernelReg tl_emu_reg_Histogram_0_(Histogram, "Histogram", 0 + sizeof(int) * (BINS), 0);
#else
static tl_emu::KernelReg tl_emu_reg_Histogram_0_(Histogram, "Histogram", 0, 0);
#endif
