#line 1 "tests/emu/corpus/reduce_sync_warp.cu"
/* FEATURE: warp reductions in one instruction (sm_80+): __reduce_add_sync, __reduce_min_sync and
 * __reduce_max_sync on int (negative values) and unsigned, __reduce_and/or/xor_sync on unsigned, and a
 * half-warp add with a partial mask. 3 warps of a 96-thread block, one result row per warp. */
#include "corpus.h"
__global__ void WarpReduce(const int *v, int *r) {
    int i = threadIdx.x, w = i / 32, lane = i % 32;
    int x = (tl_emu::gcount(0), v)[i];
    unsigned u = (unsigned)x * 2654435761u;
    int *row = r + w * 9;
    int add = __reduce_add_sync(0xffffffffu, x);
    int mn = __reduce_min_sync(0xffffffffu, x), mx = __reduce_max_sync(0xffffffffu, x);
    unsigned umn = __reduce_min_sync(0xffffffffu, u), umx = __reduce_max_sync(0xffffffffu, u);
    unsigned a = __reduce_and_sync(0xffffffffu, u), o = __reduce_or_sync(0xffffffffu, u);
    unsigned xo = __reduce_xor_sync(0xffffffffu, u);
    unsigned half = 0;
    if (lane < 16) half = __reduce_add_sync(0x0000ffffu, (unsigned)lane);
    if (lane == 0) {
        (tl_emu::gcount(1), row)[0] = add; (tl_emu::gcount(1), row)[1] = mn; (tl_emu::gcount(1), row)[2] = mx; (tl_emu::gcount(1), row)[3] = (int)umn; (tl_emu::gcount(1), row)[4] = (int)umx;
        (tl_emu::gcount(1), row)[5] = (int)a; (tl_emu::gcount(1), row)[6] = (int)o; (tl_emu::gcount(1), row)[7] = (int)xo; (tl_emu::gcount(1), row)[8] = (int)half;
    }
}
extern "C" int corpus_run(void) {
    const int n = 96;
    int hv[n], hr[3 * 9];
    for (int i = 0; i < n; i++) hv[i] = (int)((i * 7919u) % 2001u) - 1000;
    int *v, *r;
    CHECK(cudaMalloc(&v, sizeof hv));
    CHECK(cudaMalloc(&r, sizeof hr));
    CHECK(cudaMemcpy(v, hv, sizeof hv, cudaMemcpyHostToDevice));
    tl_emu_launch(WarpReduce, "WarpReduce", __FILE__, __LINE__, 1,  n)(v, r);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hr, r, sizeof hr, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int w = 0; w < 3; w++) {
        int add = 0, mn = hv[w * 32], mx = hv[w * 32];
        unsigned u0 = (unsigned)hv[w * 32] * 2654435761u, umn = u0, umx = u0, a = u0, o = u0, xo = 0;
        for (int l = 0; l < 32; l++) {
            int x = hv[w * 32 + l];
            unsigned u = (unsigned)x * 2654435761u;
            add += x; mn = x < mn ? x : mn; mx = x > mx ? x : mx;
            umn = u < umn ? u : umn; umx = u > umx ? u : umx; a &= u; o |= u; xo ^= u;
        }
        int want[9] = {add, mn, mx, (int)umn, (int)umx, (int)a, (int)o, (int)xo, 120};
        for (int k = 0; k < 9; k++)
            if (hr[w * 9 + k] != want[k]) {
                fprintf(stderr, "WRONG: warp %d result %d = %d, expected %d\n", w, k, hr[w * 9 + k], want[k]);
                bad = 1;
            }
    }
    cudaFree(v); cudaFree(r);
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// WarpReduce: fibers (it uses __reduce_add_sync)
#if 1
static tl_emu::KernelReg tl_emu_reg_WarpReduce_0_(WarpReduce, "WarpReduce", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_WarpReduce_0_(WarpReduce, "WarpReduce", 0, 0);
#endif
