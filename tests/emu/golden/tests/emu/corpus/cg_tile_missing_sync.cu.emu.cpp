#line 1 "tests/emu/corpus/cg_tile_missing_sync.cu"
/* BUG: a tile of 32 (the whole block) sums through shared memory with no tile.sync() between one
 * lane's write and another lane's read: lanes are not in lockstep since Volta, so a lane may read its
 * partner's slot before the partner wrote it (cg's tile.sync() is __syncwarp() over the tile). */
#include "corpus.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void TileSum(const float *x, float *out) {
    static const tl_emu::Site s_tl_site_ = {"s", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (32)>> s(s_tl_site_); 
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    unsigned t = tile.thread_rank();
    s(__LINE__)[t] = (tl_emu::gcount(0), x)[block.group_index().x * 32 + t];
    for (unsigned off = 16; off > 0; off /= 2) {
        if (t < off) s(__LINE__)[t] += s(__LINE__)[t + off];
    }
    if (t == 0) (tl_emu::gcount(1), out)[blockIdx.x] = s(__LINE__)[0];
}
extern "C" int corpus_run(void) {
    const int n = 64;
    float hx[n], r[2];
    corpus_fill(hx, n, 4);
    float *x, *out;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&out, sizeof r));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    tl_emu_launch(TileSum, "TileSum", __FILE__, __LINE__, 2,  32)(x, out);
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
#line 1 "<tl-emu-rewrite: kernel registry>"
// TileSum: fibers (it uses this_thread_block)
#if 1
static tl_emu::KernelReg tl_emu_reg_TileSum_0_(TileSum, "TileSum", 0 + sizeof(float) * (32), 0);
#else
static tl_emu::KernelReg tl_emu_reg_TileSum_0_(TileSum, "TileSum", 0, 0);
#endif
