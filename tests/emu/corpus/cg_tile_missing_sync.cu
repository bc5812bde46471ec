/* BUG: a tile of 32 (the whole block) sums through shared memory with no tile.sync() between one
 * lane's write and another lane's read: lanes are not in lockstep since Volta, so a lane may read its
 * partner's slot before the partner wrote it (cg's tile.sync() is __syncwarp() over the tile). */
#include "corpus.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void TileSum(const float *x, float *out) {
    __shared__ float s[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    unsigned t = tile.thread_rank();
    s[t] = x[block.group_index().x * 32 + t];
    for (unsigned off = 16; off > 0; off /= 2) {
        if (t < off) s[t] += s[t + off];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
extern "C" int corpus_run(void) {
    const int n = 64;
    float hx[n], r[2];
    corpus_fill(hx, n, 4);
    float *x, *out;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&out, sizeof r));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    TileSum<<<2, 32>>>(x, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    cudaFree(x); cudaFree(out);
    int bad = 0;
    for (int w = 0; w < 2; w++) {
        double want = 0, mag = 0;
        for (int l = 0; l < 32; l++) { want += hx[w * 32 + l]; mag += std::fabs(hx[w * 32 + l]); }
        if (!(std::fabs(r[w] - want) <= 1e-5 * mag)) { fprintf(stderr, "WRONG: tile %d sum %.7g, expected %.7g\n", w, r[w], want); bad = 1; }
    }
    return bad;
}
