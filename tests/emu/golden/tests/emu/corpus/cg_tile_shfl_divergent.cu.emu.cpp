#line 1 "tests/emu/corpus/cg_tile_shfl_divergent.cu"
/* BUG: a tile shuffle inside a branch that half of the tile skips: in each tile of 16 only ranks 0..7
 * call shfl_down, so they wait for ranks 8..15, which are at the block barrier. */
#include "corpus.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void TileSums(const float *x, float *out) {
    static const tl_emu::Site part_tl_site_ = {"part", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (4)>> part(part_tl_site_); 
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    float v = (tl_emu::gcount(0), x)[block.thread_rank()];
    if (tile.thread_rank() < 8)
        for (int off = 8; off > 0; off /= 2) v += tile.shfl_down(v, off);
    if (tile.thread_rank() == 0) part(__LINE__)[tile.meta_group_rank()] = v;
    block.sync();
    if (block.thread_rank() == 0) *out = part(__LINE__)[0] + part(__LINE__)[1] + part(__LINE__)[2] + part(__LINE__)[3];
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
    tl_emu_launch(TileSums, "TileSums", __FILE__, __LINE__, 1,  n)(x, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
    cudaFree(x); cudaFree(out);
    if (!(std::fabs(r - want) <= 1e-5 * mag)) { fprintf(stderr, "WRONG: sum %.7g, expected %.7g\n", r, want); return 1; }
    return 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// TileSums: fibers (it uses this_thread_block)
#if 1
static tl_emu::KernelReg tl_emu_reg_TileSums_0_(TileSums, "TileSums", 0 + sizeof(float) * (4), 0);
#else
static tl_emu::KernelReg tl_emu_reg_TileSums_0_(TileSums, "TileSums", 0, 0);
#endif
