/* mma.h: tilelab emulation mode: nvcuda::wmma (lab 08, part a), exactly as the lab uses it.
 *
 * Fragments are small matrices. A matrix_a (M x K) or matrix_b (K x N) fragment holds its whole tile
 * in every lane (num_elements = rows x cols): each lane computes from the tile as loaded, the values
 * rounded as the hardware sees them (TF32: a value not rounded by __float_to_tf32 loses its low 13
 * bits, as the tensor core truncates it; BF16 values are exact in float). An accumulator (M x N,
 * FP32) is shared out as on the GPU: lane l owns the elements e with e % 32 == l; mma_sync computes
 * the owned elements (d = a b + c, products exact, sums in FP32), store_matrix_sync writes them,
 * load_matrix_sync reads them. So a warp does the work of the tile once, and a lane that reads what
 * another lane stored needs the __syncwarp() the GPU needs.
 * Memory: load_matrix_sync and store_matrix_sync take the leading dimension ldm and the layout
 * (row_major / col_major, mem_row_major / mem_col_major) and read or write ldm-strided rows or
 * columns. In __shared__ memory every element is checked as a kernel's own access is: a fragment
 * loaded from a float tile another thread is still writing (no barrier between filling the tile and
 * load_matrix_sync) is reported as a race, with the line. BF16 tiles are arrays of a struct type,
 * which the emulator bounds-checks but does not race-check.
 * Work counters (the counted twin, src/count.cpp, counts every instrumented access to device memory):
 * every lane holds the whole A or B tile here, but on the GPU the warp reads each element once; so a
 * lane reads the elements e with e % 32 == lane as a counted access and the rest through an
 * uninstrumented read (quiet_read): a fragment loaded from global memory counts its rows x cols
 * elements once per warp, as on the GPU, not 32 times.
 * Not here (fails at build): other shapes and types (half, int8, double), and the experimental ones. */
#ifndef TL_EMU_MMA_H
#define TL_EMU_MMA_H
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda_bf16.h"

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
namespace precision { struct tf32 {}; }

/* Round to TF32 (10 fraction bits): to nearest, ties away from zero, as cvt.rna.tf32.f32. */
static inline float __float_to_tf32(float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    if ((b & 0x7F800000u) != 0x7F800000u)
        b = (b + 0x1000u) & 0xFFFFE000u;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

namespace detail {
template <class Use, int M, int N, int K> struct dims;
template <int M, int N, int K> struct dims<matrix_a, M, N, K> { enum { R = M, C = K }; };
template <int M, int N, int K> struct dims<matrix_b, M, N, K> { enum { R = K, C = N }; };
template <int M, int N, int K> struct dims<accumulator, M, N, K> { enum { R = M, C = N }; };
template <class T> struct is_tf32 { enum { value = 0 }; };
template <> struct is_tf32<precision::tf32> { enum { value = 1 }; };
template <int M, int N, int K, class T> struct shape_ok { enum { value = 0 }; };
template <> struct shape_ok<16, 16, 8, precision::tf32> { enum { value = 1 }; };
template <> struct shape_ok<16, 16, 16, __nv_bfloat16> { enum { value = 1 }; };
template <> struct shape_ok<16, 16, 8, float> { enum { value = 1 }; };
template <> struct shape_ok<16, 16, 16, float> { enum { value = 1 }; };

static inline float tf32_truncate(float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    b &= 0xFFFFE000u;
    std::memcpy(&f, &b, sizeof f);
    return f;
}
static inline unsigned lane() { return ::tl_emu_cur_tid % 32u; }

/* A read the counters do not see (no ThreadSanitizer hook: the counted twin's -fsanitize=thread
 * leaves this function alone); used for the other lanes' share of a fragment. */
template <class P> __attribute__((noinline, no_sanitize_thread)) P quiet_read(const P *p) { return *p; }

/* Elements read or written through a plain pointer: checked like the kernel's own accesses when they
 * lie in a float __shared__ array (the slot is looked up once per fragment, from its first element). */
struct mem {
    const tl_emu::Slot *s = nullptr;
    const char *base = nullptr;
    int line;
    mem(const void *p, int l) : line(l) {
        size_t i;
        const tl_emu::Slot *f = tl_emu::shared_find(p, &i);
        if (f && f->sh && f->esize == sizeof(float)) {
            s = f;
            base = (const char *)f->data;
        }
    }
    /* own: this lane's share of the warp's reads (counted); else read quietly */
    float read(const float *p, bool own = true) const {
        if (s) {
            size_t i = (size_t)((const char *)p - base) / sizeof(float);
            if (i < s->n)
                tl_emu::on_read(s->sh, s, i, line, &s->blk->epoch, false, p, sizeof(float));
        }
        return own ? *p : quiet_read(p);
    }
    float read(const __nv_bfloat16 *p, bool own = true) const { return own ? (float)*p : (float)quiet_read(p); }
    void write(float *p, float v) const {
        if (s) {
            size_t i = (size_t)((const char *)p - base) / sizeof(float);
            if (i < s->n)
                tl_emu::on_write(s->sh, s, i, line, &s->blk->epoch, false);
        }
        *p = v;
    }
};
} /* namespace detail */

template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {
    static_assert(detail::shape_ok<M, N, K, T>::value,
                  "tilelab-emu: WMMA emulates m16n16k8 TF32 and m16n16k16 BF16 with FP32 accumulators only");
    enum { rows = detail::dims<Use, M, N, K>::R, cols = detail::dims<Use, M, N, K>::C };
    enum { num_elements = rows * cols };
    float x[rows * cols];
};

template <class Use, int M, int N, int K, class T, class L>
static inline void fill_fragment(fragment<Use, M, N, K, T, L> &f, float v) {
    for (int e = 0; e < f.num_elements; ++e)
        f.x[e] = v;
}

/* matrix_a / matrix_b from memory: the whole tile, rows (row_major) or columns (col_major) ldm apart. */
template <class Use, int M, int N, int K, class T, class L, class P>
static inline void load_matrix_sync_at(int line, fragment<Use, M, N, K, T, L> &f, const P *p, unsigned ldm) {
    typedef fragment<Use, M, N, K, T, L> F;
    const bool col = std::is_same<L, col_major>::value;
    const detail::mem m(p, line);
    const int me = (int)detail::lane();
    for (int r = 0; r < F::rows; ++r)
        for (int c = 0; c < F::cols; ++c)
            f.x[r * F::cols + c] = m.read(p + (col ? (size_t)c * ldm + r : (size_t)r * ldm + c),
                                          (r * F::cols + c) % 32 == me);
}

/* The accumulator from memory: this lane's elements. */
template <int M, int N, int K>
static inline void load_matrix_sync_at(int line, fragment<accumulator, M, N, K, float, void> &f, const float *p,
                                       unsigned ldm, layout_t layout) {
    const detail::mem m(p, line);
    for (int e = (int)detail::lane(); e < M * N; e += 32) {
        int r = e / N, c = e % N;
        f.x[e] = m.read(p + (layout == mem_col_major ? (size_t)c * ldm + r : (size_t)r * ldm + c));
    }
}

template <int M, int N, int K>
static inline void store_matrix_sync_at(int line, float *p, const fragment<accumulator, M, N, K, float, void> &f,
                                        unsigned ldm, layout_t layout) {
    const detail::mem m(p, line);
    for (int e = (int)detail::lane(); e < M * N; e += 32) {
        int r = e / N, c = e % N;
        m.write(p + (layout == mem_col_major ? (size_t)c * ldm + r : (size_t)r * ldm + c), f.x[e]);
    }
}

/* d = a b + c on this lane's accumulator elements; TF32 inputs as the tensor core reads them. */
template <int M, int N, int K, class T, class LA, class LB>
static inline void mma_sync(fragment<accumulator, M, N, K, float, void> &d, const fragment<matrix_a, M, N, K, T, LA> &a,
                            const fragment<matrix_b, M, N, K, T, LB> &b,
                            const fragment<accumulator, M, N, K, float, void> &c) {
    const bool tf = detail::is_tf32<T>::value;
    for (int e = (int)detail::lane(); e < M * N; e += 32) {
        int i = e / N, j = e % N;
        float sum = c.x[e];
        for (int k = 0; k < K; ++k) {
            float av = a.x[i * K + k], bv = b.x[k * N + j];
            if (tf) {
                av = detail::tf32_truncate(av);
                bv = detail::tf32_truncate(bv);
            }
            sum += av * bv;
        }
        d.x[e] = sum;
    }
}

} /* namespace wmma */
} /* namespace nvcuda */

/* The line of each load and store, for the emulator's reports. */
#define load_matrix_sync(...) load_matrix_sync_at(__LINE__, __VA_ARGS__)
#define store_matrix_sync(...) store_matrix_sync_at(__LINE__, __VA_ARGS__)
#endif
