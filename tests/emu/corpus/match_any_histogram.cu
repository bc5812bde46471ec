/* FEATURE: a histogram with warp aggregation: __match_any_sync groups the lanes with the same key, the
 * lowest lane of each group adds the group's size (one atomic per distinct key and warp instead of one
 * per element); __match_all_sync on 64-bit values says whether a warp's keys are all equal. */
#include "corpus.h"
#define BINS 16
__global__ void Histogram(const int *keys, int n, int *hist, int *uniform) {
    __shared__ int sh[BINS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < BINS) sh[threadIdx.x] = 0;
    __syncthreads();
    int key = i < n ? keys[i] : -1;
    unsigned peers = __match_any_sync(0xffffffffu, key);
    int leader = __ffs(peers) - 1;
    if (key >= 0 && (int)(threadIdx.x % 32) == leader) atomicAdd(&sh[key], __popc(peers));
    int pred;
    long long wide = key < 0 ? -1ll : (long long)key << 33;
    unsigned all = __match_all_sync(0xffffffffu, wide, &pred);
    if (threadIdx.x % 32 == 0) uniform[i / 32] = pred ? (int)all : 0;
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&hist[threadIdx.x], sh[threadIdx.x]);
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
    Histogram<<<blocks, threads>>>(keys, n, hist, uniform);
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
