#line 1 "tests/emu/corpus/cg_tile_reduce.cu"
/* FEATURE: cooperative groups' warp tiles: a block sum with tiled_partition<32> (shfl_down, thread_rank,
 * meta_group_rank) and partial sums in shared memory; cg::reduce over tiles of 16 with cg::plus, less
 * and greater; a tile of 8's ballot, any, all, match_any and shfl_xor; a tile of 4 cut from a tile of
 * 32; the dynamic tiled_partition(block, 8) with sync; coalesced_threads() in a branch. */
#include "corpus.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void TileSums(const int *x, int *block_sum, int *r16, int *r8, int *misc) {
    static const tl_emu::Site part_tl_site_ = {"part", __FILE__, __LINE__, "int"}; tl_emu::Shared<tl_emu::A1<int, (8)>> part(part_tl_site_); 
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int v = (tl_emu::gcount(0), x)[block.group_index().x * block.size() + block.thread_rank()];
    int s = v;
    for (int off = warp.size() / 2; off > 0; off /= 2) s += warp.shfl_down(s, off);
    if (warp.thread_rank() == 0) part(__LINE__)[warp.meta_group_rank()] = s;
    block.sync();
    if (block.thread_rank() == 0) {
        int t = 0;
        for (unsigned w = 0; w < warp.meta_group_size(); w++) t += part(__LINE__)[w];
        (tl_emu::gcount(1), block_sum)[blockIdx.x] = t;
    }
    auto t16 = tl_emu::va( cg::tiled_partition<16>(block));
    int sum16 = cg::reduce(t16, v, cg::plus<int>());
    int min16 = cg::reduce(t16, v, cg::less<int>()), max16 = cg::reduce(t16, v, cg::greater<int>());
    float fs = cg::reduce(t16, (float)v * 0.5f, cg::plus<float>());
    unsigned xr = cg::reduce(t16, (unsigned)v, cg::bit_xor<unsigned>());
    int g16 = blockIdx.x * 16 + t16.meta_group_rank();
    if (t16.thread_rank() == 0) {
        (tl_emu::gcount(1), r16)[g16 * 5 + 0] = sum16; (tl_emu::gcount(1), r16)[g16 * 5 + 1] = min16; (tl_emu::gcount(1), r16)[g16 * 5 + 2] = max16;
        (tl_emu::gcount(1), r16)[g16 * 5 + 3] = (int)(fs * 2.0f); (tl_emu::gcount(1), r16)[g16 * 5 + 4] = (int)xr;
    }
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    unsigned pos = t8.ballot(v > 0);
    int any = t8.any(v > 900), all = t8.all(v > -1001);
    unsigned same = t8.match_any(v & 1);
    int nb = t8.shfl_xor(v, 1);
    int g8 = blockIdx.x * 32 + t8.meta_group_rank();
    if (t8.thread_rank() == 0) { (tl_emu::gcount(1), r8)[g8 * 4 + 0] = (int)pos; (tl_emu::gcount(1), r8)[g8 * 4 + 1] = any + 2 * all; (tl_emu::gcount(1), r8)[g8 * 4 + 2] = (int)same; }
    if (t8.thread_rank() == 1) (tl_emu::gcount(1), r8)[g8 * 4 + 3] = nb;
    auto t4 = tl_emu::va( cg::tiled_partition<4>(warp));
    cg::thread_group g = cg::tiled_partition(block, 8);
    g.sync();
    cg::sync(block);
    if (block.thread_rank() == 37) {
        (tl_emu::gcount(1), misc)[blockIdx.x * 8 + 0] = (int)t4.thread_rank();
        (tl_emu::gcount(1), misc)[blockIdx.x * 8 + 1] = (int)t4.meta_group_rank();
        (tl_emu::gcount(1), misc)[blockIdx.x * 8 + 2] = (int)t4.meta_group_size();
        (tl_emu::gcount(1), misc)[blockIdx.x * 8 + 3] = (int)(g.thread_rank() + 10 * g.size());
    }
    if (block.thread_rank() % 3 == 0 && block.thread_rank() < 32) {
        cg::coalesced_group c = cg::coalesced_threads();
        int first = c.shfl(v, 0);
        int total = cg::reduce(c, 1, cg::plus<int>());
        unsigned all_ranks = c.ballot(1);
        if (c.thread_rank() == 1) {
            (tl_emu::gcount(1), misc)[blockIdx.x * 8 + 4] = (int)c.size();
            (tl_emu::gcount(1), misc)[blockIdx.x * 8 + 5] = first;
            (tl_emu::gcount(1), misc)[blockIdx.x * 8 + 6] = total;
            (tl_emu::gcount(1), misc)[blockIdx.x * 8 + 7] = (int)all_ranks;
        }
    }
}
extern "C" int corpus_run(void) {
    const int threads = 256, blocks = 3, n = threads * blocks;
    int hx[n], hb[blocks], h16[blocks * 16 * 5], h8[blocks * 32 * 4], hm[blocks * 8];
    for (int i = 0; i < n; i++) hx[i] = (int)((i * 7919u + 13u) % 2001u) - 1000;
    int *x, *bs, *r16, *r8, *misc;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&bs, sizeof hb));
    CHECK(cudaMalloc(&r16, sizeof h16));
    CHECK(cudaMalloc(&r8, sizeof h8));
    CHECK(cudaMalloc(&misc, sizeof hm));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    tl_emu_launch(TileSums, "TileSums", __FILE__, __LINE__, blocks,  threads)(x, bs, r16, r8, misc);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hb, bs, sizeof hb, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h16, r16, sizeof h16, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h8, r8, sizeof h8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hm, misc, sizeof hm, cudaMemcpyDeviceToHost));
    int bad = 0;
#define EXPECT_EQ(got, want, what, k)                                                                      \
    do { if ((got) != (want)) { fprintf(stderr, "WRONG: %s %d: %d, expected %d\n", what, k, (int)(got), (int)(want)); bad = 1; } } while (0)
    for (int b = 0; b < blocks; b++) {
        int t = 0;
        for (int i = 0; i < threads; i++) t += hx[b * threads + i];
        EXPECT_EQ(hb[b], t, "block sum", b);
        int want_misc[8] = {37 % 4, (37 % 32) / 4, 8, 37 % 8 + 10 * 8, 11, hx[b * threads], 11, 0x7ff};
        for (int k = 0; k < 8; k++) EXPECT_EQ(hm[b * 8 + k], want_misc[k], "misc", b * 8 + k);
    }
    for (int g = 0; g < blocks * 16; g++) {
        const int *v = hx + g * 16;
        int s = 0, mn = v[0], mx = v[0]; unsigned xr = 0;
        for (int l = 0; l < 16; l++) { s += v[l]; mn = v[l] < mn ? v[l] : mn; mx = v[l] > mx ? v[l] : mx; xr ^= (unsigned)v[l]; }
        int want[5] = {s, mn, mx, s, (int)xr};
        for (int k = 0; k < 5; k++) EXPECT_EQ(h16[g * 5 + k], want[k], "tile-16 reduction", g * 5 + k);
    }
    for (int g = 0; g < blocks * 32; g++) {
        const int *v = hx + g * 8;
        unsigned pos = 0; int any = 0, all = 1; unsigned same = 0;
        for (int l = 0; l < 8; l++) {
            if (v[l] > 0) pos |= 1u << l;
            any |= v[l] > 900; all &= v[l] > -1001;
            if ((v[l] & 1) == (v[0] & 1)) same |= 1u << l;
        }
        EXPECT_EQ(h8[g * 4 + 0], (int)pos, "tile-8 ballot", g);
        EXPECT_EQ(h8[g * 4 + 1], any + 2 * all, "tile-8 any/all", g);
        EXPECT_EQ(h8[g * 4 + 2], (int)same, "tile-8 match_any", g);
        EXPECT_EQ(h8[g * 4 + 3], v[0], "tile-8 shfl_xor", g);
    }
    cudaFree(x); cudaFree(bs); cudaFree(r16); cudaFree(r8); cudaFree(misc);
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// TileSums: fibers (it uses this_thread_block)
#if 1
static tl_emu::KernelReg tl_emu_reg_TileSums_0_(TileSums, "TileSums", 0 + sizeof(int) * (8), 0);
#else
static tl_emu::KernelReg tl_emu_reg_TileSums_0_(TileSums, "TileSums", 0, 0);
#endif
