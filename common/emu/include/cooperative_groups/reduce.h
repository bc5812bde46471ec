/* cooperative_groups/reduce.h: tilelab emulation mode shim: cg::reduce over a thread_block_tile (the
 * shfl_xor butterfly CUDA's header uses, so float sums round as on a GPU) or a coalesced_group, with
 * cg::plus, less, greater, bit_and, bit_or, bit_xor. Every lane of the group gets the result. */
#ifndef TL_EMU_CG_REDUCE_H
#define TL_EMU_CG_REDUCE_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(T a, T b) const { return a ^ b; } };

template <unsigned N, class P, class T, class Op>
static inline T reduce(const thread_block_tile<N, P> &g, T v, Op op, const char *tl_file_ = __builtin_FILE(),
                       int tl_line_ = __builtin_LINE()) {
    for (unsigned m = N >> 1; m > 0; m >>= 1) v = op(v, g.shfl_xor(v, m, tl_file_, tl_line_));
    return v;
}
/* A coalesced group: each lane gathers every member's value in rank order. */
template <class T, class Op>
static inline T reduce(const coalesced_group &g, T v, Op op, const char *tl_file_ = __builtin_FILE(),
                       int tl_line_ = __builtin_LINE()) {
    T acc = g.shfl(v, 0, tl_file_, tl_line_);
    for (unsigned r = 1; r < g.size(); r++) acc = op(acc, g.shfl(v, r, tl_file_, tl_line_));
    return acc;
}
#define TL_CG_NO_REDUCE(what)                                                                               \
    __attribute__((error("not supported under emulation: " what "; check this kernel on a GPU, or reduce " \
                         "over thread_block_tile<N> tiles (N <= 32) and combine them in shared memory")))
/* cg::reduce over a whole thread_block or a thread_group (CUDA 12's multi-warp forms) */
template <class T, class Op> TL_CG_NO_REDUCE("cg::reduce over a thread_block") T reduce(const thread_block &, T, Op);
template <class T, class Op> TL_CG_NO_REDUCE("cg::reduce over a thread_group") T reduce(const thread_group &, T, Op);
template <class G, class T, class Op> TL_CG_NO_REDUCE("cg::reduce_update_async") void reduce_update_async(const G &, T, Op);
template <class G, class T, class Op> TL_CG_NO_REDUCE("cg::reduce_store_async") void reduce_store_async(const G &, T, Op);
#undef TL_CG_NO_REDUCE
} /* namespace cooperative_groups */
#endif
