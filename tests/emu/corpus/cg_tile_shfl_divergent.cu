/* BUG: a tile shuffle inside a branch that half of the tile skips: in each tile of 16 only ranks 0..7
 * call shfl_down, so they wait for ranks 8..15, which are at the block barrier. */
#include "corpus.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void TileSums(const float *x, float *out) {
    __shared__ float part[4];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    float v = x[block.thread_rank()];
    if (tile.thread_rank() < 8)
        for (int off = 8; off > 0; off /= 2) v += tile.shfl_down(v, off);
    if (tile.thread_rank() == 0) part[tile.meta_group_rank()] = v;
    block.sync();
    if (block.thread_rank() == 0) *out = part[0] + part[1] + part[2] + part[3];
}
extern "C" int corpus_run(void) {
    const int n = 64;
    float hx[n], r = 0;
    corpus_fill(hx, n, 9);
    double want = 0, mag = 0;
    for (int i = 0; i < n; i++) { want += hx[i]; mag += std::fabs(hx[i]); }
    float *x, *out;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&out, sizeof r));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    TileSums<<<1, n>>>(x, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
    cudaFree(x); cudaFree(out);
    if (!(std::fabs(r - want) <= 1e-5 * mag)) { fprintf(stderr, "WRONG: sum %.7g, expected %.7g\n", r, want); return 1; }
    return 0;
}
