/* cooperative_groups.h: tilelab emulation mode shim: cooperative groups on the emulator's barriers and
 * warp operations. this_thread_block() and its sync(); tiled_partition<N>() and tiled_partition(g, n)
 * (tiles of 1 to 32 threads inside a warp) with sync, ranks, shuffles, votes and match; coalesced_threads().
 * cg::reduce is in cooperative_groups/reduce.h, as in CUDA. What is not emulated (grid and multi-grid
 * sync, clusters, memcpy_async, labeled/binary partitions, tiles over 32 threads, scans) fails at build
 * with "not supported under emulation: NAME". Diagnostics name the caller's line (__builtin_FILE/LINE). */
#ifndef TL_EMU_COOPERATIVE_GROUPS_H
#define TL_EMU_COOPERATIVE_GROUPS_H
#include "tl_emu.h"

#define TL_CG_HERE const char *tl_file_ = __builtin_FILE(), int tl_line_ = __builtin_LINE()
#define TL_CG_NO(what)                                                                                      \
    __attribute__((error("not supported under emulation: " what "; check this kernel on a GPU, or use "     \
                         "this_thread_block().sync(), tiled_partition<N>() tiles of up to 32 threads and "  \
                         "shared memory, which are emulated")))

namespace cooperative_groups {
namespace tl_cg {
static inline unsigned block_rank() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
static inline unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
static inline unsigned lane() { return block_rank() & 31u; }
static inline unsigned tile_mask(unsigned n, unsigned lane) {
    return n >= 32 ? 0xffffffffu : ((1u << n) - 1u) << (lane & ~(n - 1u));
}
/* A shuffle of any trivially copyable type: values over 8 bytes move in 8-byte pieces, as CUDA's
 * cooperative groups split them. */
template <class T> static inline T shfl(int kind, unsigned mask, const T &v, int arg, int width, const char *f, int l) {
    static_assert(std::is_trivially_copyable<T>::value, "a cooperative-groups shuffle needs a trivially copyable type");
    T r;
    unsigned char in[sizeof(T)], out[sizeof(T)];
    std::memcpy(in, &v, sizeof(T));
    for (size_t o = 0; o < sizeof(T); o += 8) {
        size_t k = sizeof(T) - o < 8 ? sizeof(T) - o : 8;
        uint64_t b = 0;
        std::memcpy(&b, in + o, k);
        b = tl_emu::warp_op(kind, mask, b, arg, width, f, l);
        std::memcpy(out + o, &b, k);
    }
    std::memcpy(&r, out, sizeof(T));
    return r;
}
/* The lane of a warp that holds the r-th set bit of mask (32 when none). */
static inline unsigned nth_lane(unsigned mask, unsigned r) {
    for (unsigned l = 0; l < 32; l++)
        if (mask >> l & 1u) { if (r == 0) return l; r--; }
    return 32;
}
/* The bits of b at the set bits of mask, packed from bit 0 (the ranks of a coalesced group). */
static inline unsigned compress(unsigned b, unsigned mask) {
    unsigned r = 0, k = 0;
    for (unsigned l = 0; l < 32; l++)
        if (mask >> l & 1u) { if (b >> l & 1u) r |= 1u << k; k++; }
    return r;
}
enum { K_BLOCK, K_TILE, K_COALESCED };
} /* namespace tl_cg */

/* Any group: the whole block, a tile of a warp, or the coalesced lanes of a warp. */
class thread_group {
protected:
    unsigned kind_, size_, mask_, meta_rank_, meta_size_;
    thread_group(unsigned kind, unsigned size, unsigned mask, unsigned mrank, unsigned msize)
        : kind_(kind), size_(size), mask_(mask), meta_rank_(mrank), meta_size_(msize) {}
public:
    void sync(TL_CG_HERE) const {
        if (kind_ == tl_cg::K_BLOCK) tl_emu::syncthreads(tl_file_, tl_line_);
        else (void)tl_emu::warp_op(tl_emu::W_SYNCWARP, mask_, 0, 0, 32, tl_file_, tl_line_);
    }
    unsigned long long num_threads() const { return kind_ == tl_cg::K_BLOCK ? tl_cg::block_size() : size_; }
    unsigned long long size() const { return num_threads(); }
    unsigned long long thread_rank() const {
        if (kind_ == tl_cg::K_BLOCK) return tl_cg::block_rank();
        if (kind_ == tl_cg::K_TILE) return tl_cg::lane() & (size_ - 1u);
        return (unsigned)__popc(mask_ & ((1u << tl_cg::lane()) - 1u));
    }
    unsigned long long meta_group_rank() const { return meta_rank_; }
    unsigned long long meta_group_size() const { return meta_size_; }
    bool is_valid() const { return true; }
    unsigned get_type() const { return kind_; }
    unsigned tl_mask() const { return mask_; }        /* the lanes of the warp in the group (not the block) */
};

class thread_block : public thread_group {
public:
    thread_block() : thread_group(tl_cg::K_BLOCK, 0, 0xffffffffu, 0, 1) {}
    void sync(TL_CG_HERE) const { tl_emu::syncthreads(tl_file_, tl_line_); }
    static void barrier_wait(TL_CG_HERE) { tl_emu::syncthreads(tl_file_, tl_line_); }
    unsigned thread_rank() const { return tl_cg::block_rank(); }
    unsigned size() const { return tl_cg::block_size(); }
    unsigned num_threads() const { return tl_cg::block_size(); }
    dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_threads() const { return blockDim; }
};
static inline thread_block this_thread_block() { return thread_block(); }

/* A tile of N threads (N = 1, 2, 4, 8, 16, 32): lanes N-aligned in one warp. ParentT as in CUDA. */
template <unsigned N, class ParentT = void> class thread_block_tile : public thread_group {
    static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0,
                  "not supported under emulation: thread_block_tile of more than 32 threads (or not a power of 2); "
                  "check this kernel on a GPU, or use tiles of 1, 2, 4, 8, 16 or 32 threads");
    unsigned base() const { return tl_cg::lane() & ~(N - 1u); }
public:
    thread_block_tile(unsigned mrank, unsigned msize)
        : thread_group(tl_cg::K_TILE, N, tl_cg::tile_mask(N, tl_cg::lane()), mrank, msize) {}
    template <class P> thread_block_tile(const thread_block_tile<N, P> &t) : thread_group(t) {}
    void sync(TL_CG_HERE) const { (void)tl_emu::warp_op(tl_emu::W_SYNCWARP, mask_, 0, 0, 32, tl_file_, tl_line_); }
    static constexpr unsigned num_threads() { return N; }
    static constexpr unsigned size() { return N; }
    unsigned thread_rank() const { return tl_cg::lane() & (N - 1u); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    template <class T> T shfl(const T &v, int src, TL_CG_HERE) const {
        return tl_cg::shfl(tl_emu::W_SHFL, mask_, v, src, (int)N, tl_file_, tl_line_);
    }
    template <class T> T shfl_up(const T &v, unsigned d, TL_CG_HERE) const {
        return tl_cg::shfl(tl_emu::W_SHFL_UP, mask_, v, (int)d, (int)N, tl_file_, tl_line_);
    }
    template <class T> T shfl_down(const T &v, unsigned d, TL_CG_HERE) const {
        return tl_cg::shfl(tl_emu::W_SHFL_DOWN, mask_, v, (int)d, (int)N, tl_file_, tl_line_);
    }
    template <class T> T shfl_xor(const T &v, unsigned m, TL_CG_HERE) const {
        return tl_cg::shfl(tl_emu::W_SHFL_XOR, mask_, v, (int)m, (int)N, tl_file_, tl_line_);
    }
    int any(int p, TL_CG_HERE) const { return (int)tl_emu::warp_op(tl_emu::W_ANY, mask_, p != 0, 0, 32, tl_file_, tl_line_); }
    int all(int p, TL_CG_HERE) const { return (int)tl_emu::warp_op(tl_emu::W_ALL, mask_, p != 0, 0, 32, tl_file_, tl_line_); }
    /* bit i: the thread of rank i in the tile */
    unsigned ballot(int p, TL_CG_HERE) const {
        return (unsigned)tl_emu::warp_op(tl_emu::W_BALLOT, mask_, p != 0, 0, 32, tl_file_, tl_line_) >> base();
    }
    template <class T> unsigned match_any(T v, TL_CG_HERE) const {
        return __match_any_sync(mask_, v, tl_file_, tl_line_) >> base();
    }
    template <class T> unsigned match_all(T v, int &pred, TL_CG_HERE) const {
        return __match_all_sync(mask_, v, &pred, tl_file_, tl_line_) >> base();
    }
};

/* tiled_partition<N>(parent): the parent's threads N at a time (thread_rank / N is the tile). */
template <unsigned N> static inline thread_block_tile<N, thread_block> tiled_partition(const thread_block &) {
    return thread_block_tile<N, thread_block>(tl_cg::block_rank() / N, (tl_cg::block_size() + N - 1) / N);
}
template <unsigned N, unsigned M, class P>
static inline thread_block_tile<N, thread_block_tile<M, P>> tiled_partition(const thread_block_tile<M, P> &parent) {
    static_assert(N < M, "Tile size bigger or equal to the parent group size");   /* CUDA's words */
    return thread_block_tile<N, thread_block_tile<M, P>>(parent.thread_rank() / N, M / N);
}

/* The calling thread alone, as a tile of 1 (meta group rank 0 of 1, as in CUDA). */
static inline thread_block_tile<1, void> this_thread() { return thread_block_tile<1, void>(0, 1); }

/* The lanes of a warp that reach this call together (the emulator's picture of convergence). */
class coalesced_group : public thread_group {
    unsigned src_of(unsigned rank) const {
        unsigned l = tl_cg::nth_lane(mask_, rank);
        return l < 32 ? l : tl_cg::lane();
    }
public:
    explicit coalesced_group(unsigned mask) : thread_group(tl_cg::K_COALESCED, (unsigned)__popc(mask), mask, 0, 1) {}
    void sync(TL_CG_HERE) const { (void)tl_emu::warp_op(tl_emu::W_SYNCWARP, mask_, 0, 0, 32, tl_file_, tl_line_); }
    unsigned num_threads() const { return size_; }
    unsigned size() const { return size_; }
    unsigned thread_rank() const { return (unsigned)__popc(mask_ & ((1u << tl_cg::lane()) - 1u)); }
    unsigned meta_group_rank() const { return 0; }
    unsigned meta_group_size() const { return 1; }
    template <class T> T shfl(const T &v, unsigned rank, TL_CG_HERE) const {
        return tl_cg::shfl(tl_emu::W_SHFL, mask_, v, (int)src_of(rank), 32, tl_file_, tl_line_);
    }
    template <class T> T shfl_up(const T &v, unsigned d, TL_CG_HERE) const {
        unsigned r = thread_rank();
        return tl_cg::shfl(tl_emu::W_SHFL, mask_, v, (int)(r >= d ? src_of(r - d) : tl_cg::lane()), 32, tl_file_, tl_line_);
    }
    template <class T> T shfl_down(const T &v, unsigned d, TL_CG_HERE) const {
        unsigned r = thread_rank();
        return tl_cg::shfl(tl_emu::W_SHFL, mask_, v, (int)(r + d < size_ ? src_of(r + d) : tl_cg::lane()), 32, tl_file_,
                           tl_line_);
    }
    int any(int p, TL_CG_HERE) const { return (int)tl_emu::warp_op(tl_emu::W_ANY, mask_, p != 0, 0, 32, tl_file_, tl_line_); }
    int all(int p, TL_CG_HERE) const { return (int)tl_emu::warp_op(tl_emu::W_ALL, mask_, p != 0, 0, 32, tl_file_, tl_line_); }
    unsigned ballot(int p, TL_CG_HERE) const {
        return tl_cg::compress((unsigned)tl_emu::warp_op(tl_emu::W_BALLOT, mask_, p != 0, 0, 32, tl_file_, tl_line_), mask_);
    }
    template <class T> unsigned match_any(T v, TL_CG_HERE) const {
        return tl_cg::compress(__match_any_sync(mask_, v, tl_file_, tl_line_), mask_);
    }
    template <class T> unsigned match_all(T v, int &pred, TL_CG_HERE) const {
        return tl_cg::compress(__match_all_sync(mask_, v, &pred, tl_file_, tl_line_), mask_);
    }
};
static inline coalesced_group coalesced_threads(TL_CG_HERE) {
    return coalesced_group(__activemask(tl_file_, tl_line_));
}

/* tiled_partition(parent, n): a thread_group of n threads (a power of 2 up to 32), as in CUDA. */
static inline thread_group tiled_partition(const thread_group &parent, unsigned n, TL_CG_HERE) {
    if (n == 0 || n > 32 || (n & (n - 1)))
        tl_emu::cg_unsupported("tiled_partition(group, n) with n not a power of 2 from 1 to 32", tl_file_, tl_line_);
    if (parent.get_type() == tl_cg::K_COALESCED)
        tl_emu::cg_unsupported("tiled_partition of a coalesced_group", tl_file_, tl_line_);
    struct tile : thread_group {
        tile(unsigned n, unsigned mr, unsigned ms) : thread_group(tl_cg::K_TILE, n, tl_cg::tile_mask(n, tl_cg::lane()), mr, ms) {}
    };
    unsigned pr = (unsigned)parent.thread_rank(), ps = (unsigned)parent.size();
    if (parent.get_type() == tl_cg::K_TILE && n > ps)
        tl_emu::cg_unsupported("tiled_partition(tile, n) with n larger than the tile", tl_file_, tl_line_);
    return tile(n, pr / n, (ps + n - 1) / n);
}

template <class G> static inline void sync(const G &g, TL_CG_HERE) { g.sync(tl_file_, tl_line_); }
template <class G> static inline unsigned long long thread_rank(const G &g) { return g.thread_rank(); }
template <class G> static inline unsigned long long num_threads(const G &g) { return g.num_threads(); }
template <class G> static inline unsigned long long group_size(const G &g) { return g.size(); }

/* ---- not emulated: fail at build, named ---------------------------------------------------------- */
class grid_group {
public:
    TL_CG_NO("grid_group::sync (grid-wide barrier: cudaLaunchCooperativeKernel)") void sync() const;
    unsigned long long thread_rank() const {
        unsigned long long b = ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
        return b * tl_cg::block_size() + tl_cg::block_rank();
    }
    unsigned long long num_threads() const {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * tl_cg::block_size();
    }
    unsigned long long size() const { return num_threads(); }
    unsigned long long block_rank() const { return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x; }
    unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    dim3 group_dim() const { return gridDim; }
    dim3 dim_blocks() const { return gridDim; }
    dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    bool is_valid() const { return true; }
};
static inline grid_group this_grid() { return grid_group(); }
struct multi_grid_group {};
TL_CG_NO("this_multi_grid (multi-device launches)") multi_grid_group this_multi_grid();
struct cluster_group {};
TL_CG_NO("this_cluster (thread block clusters)") cluster_group this_cluster();
template <class G, class T> TL_CG_NO("labeled_partition") coalesced_group labeled_partition(const G &, T);
template <class G> TL_CG_NO("binary_partition") coalesced_group binary_partition(const G &, bool);
template <unsigned N, class... A> struct block_tile_memory;
template <class G, class F, class... A> TL_CG_NO("invoke_one") void invoke_one(const G &, F &&, A &&...);
} /* namespace cooperative_groups */

#undef TL_CG_HERE
#endif
