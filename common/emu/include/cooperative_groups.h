/* cooperative_groups.h: tilelab emulation mode shim: the block-level part of cooperative groups
 * (this_thread_block(), its sync(), thread_rank(), size(), group_index(), thread_index()). Warp-sized
 * groups (tiled_partition, coalesced_threads) are not emulated and fail to build, naming them. */
#ifndef TL_EMU_COOPERATIVE_GROUPS_H
#define TL_EMU_COOPERATIVE_GROUPS_H
#include "tl_emu.h"

namespace cooperative_groups {
struct thread_block {
    /* the caller's file and line, for the diagnostics of a barrier */
    void sync(const char *file = __builtin_FILE(), int line = __builtin_LINE()) const { tl_emu::syncthreads(file, line); }
    unsigned thread_rank() const { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
    unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
    unsigned num_threads() const { return size(); }
    dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const { return blockDim; }
};
static inline thread_block this_thread_block() { return thread_block{}; }
static inline void sync(const thread_block &b, const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
    b.sync(file, line);
}
template <unsigned N> struct thread_block_tile;
template <unsigned N>
TL_EMU_NO_WARP(tiled_partition) thread_block_tile<N> tiled_partition(const thread_block &b);
struct coalesced_group;
TL_EMU_NO_WARP(coalesced_threads) coalesced_group coalesced_threads();
} /* namespace cooperative_groups */
#endif
