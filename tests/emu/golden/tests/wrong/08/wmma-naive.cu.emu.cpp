#line 1 "tests/wrong/08/wmma-naive.cu"
/* KNOWN WRONG (tests/wrong/08/wmma-naive.cu): launch_wmma_bf16 runs a plain one-thread-an-element kernel (lab 02's) on the BF16 copies: P right at every size, but no tensor cores and no tiles: 2 global loads per multiply-add */
/* wmma.cu: lab 08 part (a), the reference: WMMA (nvcuda::wmma) with tiles staged in shared memory.
 *
 * Build:  ./kit check 08                         (or: meson compile -C build lab08)
 * Run:    build/labs/08-tensor-cores/lab08 --variants wmma_tf32,wmma_bf16 --sizes 1000x17x3,1024
 *         build/labs/08-tensor-cores/lab08-emu --variants wmma_tf32          (emulated, no GPU)
 *
 * A block owns a 128 x 128 tile of P and walks k in steps of BK. Its 8 warps are laid out 2 x 4; a
 * warp owns 64 x 32 of the tile: 4 x 2 fragments of 16 x 16 FP32 accumulators. Per step the block
 * stages the BM x BK tile of M and the BK x BN tile of N in shared memory (guarded loads that write 0
 * outside the matrices), then each warp loads its fragments with load_matrix_sync (leading dimension:
 * the staged row, padded) and issues mma_sync. The fragment is a tile of a tile: one mma_sync does
 * 16 x 16 x K (K = 8 for TF32, 16 for BF16) multiply-adds, and each A fragment is reused by the warp's
 * 2 B fragments, each B fragment by its 4 A fragments.
 * Precision: TF32 inputs are rounded once, when staged (wmma::__float_to_tf32, round to nearest, ties
 * away: what cvt.rna.tf32.f32 does); without it the tensor core would drop the low 13 bits (truncate).
 * Accumulation and the stored P are FP32. The edge: accumulators pass through a per-warp 16 x 16
 * scratch tile in shared memory and are stored with guards, so any m, k, n works.
 * Written for clarity; on Hopper WMMA compiles to mma.sync (HMMA), which cannot reach the rate of
 * wgmma (part c): tests/gpu/lab08-on-device.sh measures the gap.
 */
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "cuda_check.h"
#include "lab.h"

using namespace nvcuda;

#define WM_BM 128
#define WM_BN 128
#define WM_BK 32
#define WM_THREADS 256
#define WM_PAD_F 4  /* floats of padding a staged row (keeps 32-byte fragment alignment)  */
#define WM_PAD_H 8  /* BF16 values of padding a staged row                                 */

/* ------------------------------------------------------------------------------- TF32 */

__global__ void __launch_bounds__(WM_THREADS) wmma_tf32_kernel(const float *Md, const float *Nd, float *Pd, int m,
                                                               int k, int n)
{
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (WM_BM), (WM_BK + WM_PAD_F)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (WM_BK), (WM_BN + WM_PAD_F)>> Bs(Bs_tl_site_); 
    static const tl_emu::Site Cs_tl_site_ = {"Cs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (WM_THREADS / 32), (16 * 16)>> Cs(Cs_tl_site_); 
    int warp = threadIdx.x / 32, wr = warp / 4, wc = warp % 4; /* warp tile (wr, wc): 64 x 32 */
    int row0 = blockIdx.y * WM_BM, col0 = blockIdx.x * WM_BN;

    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < k; k0 += WM_BK) {
        for (int e = threadIdx.x; e < WM_BM * WM_BK; e += WM_THREADS) {
            int r = e / WM_BK, c = e % WM_BK;
            float v = (row0 + r < m && k0 + c < k) ? (tl_emu::gcount(0), Md)[(size_t)(row0 + r) * k + k0 + c] : 0.0f;
            As(__LINE__)[r][c] = wmma::__float_to_tf32(v);
        }
        for (int e = threadIdx.x; e < WM_BK * WM_BN; e += WM_THREADS) {
            int r = e / WM_BN, c = e % WM_BN;
            float v = (k0 + r < k && col0 + c < n) ? (tl_emu::gcount(0), Nd)[(size_t)(k0 + r) * n + col0 + c] : 0.0f;
            Bs(__LINE__)[r][c] = wmma::__float_to_tf32(v);
        }
        __syncthreads(); /* the tiles are full before any warp loads a fragment */
        for (int kk = 0; kk < WM_BK; kk += 8) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[2];
            for (int i = 0; i < 4; i++)
                wmma::load_matrix_sync(a[i], &As(__LINE__)[wr * 64 + i * 16][kk], WM_BK + WM_PAD_F);
            for (int j = 0; j < 2; j++)
                wmma::load_matrix_sync(b[j], &Bs(__LINE__)[kk][wc * 32 + j * 16], WM_BN + WM_PAD_F);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads(); /* every warp is done with the tiles before they are refilled */
    }

    tl_emu::SPtr<float> scratch = Cs(__LINE__)[warp];
    int lane = threadIdx.x % 32;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++) {
            wmma::store_matrix_sync(scratch(__LINE__), acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            int r0 = row0 + wr * 64 + i * 16, c0 = col0 + wc * 32 + j * 16;
            for (int e = lane; e < 256; e += 32) {
                int r = r0 + e / 16, c = c0 + e % 16;
                if (r < m && c < n)
                    (tl_emu::gcount(1), Pd)[(size_t)r * n + c] = scratch(__LINE__)[e];
            }
            __syncwarp();
        }
}

/* ------------------------------------------------------------------------------- BF16 */

__global__ void __launch_bounds__(WM_THREADS) wmma_bf16_kernel(const __nv_bfloat16 *Mb, const __nv_bfloat16 *Nb,
                                                               float *Pd, int m, int k, int n, int ldk)
{
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "__nv_bfloat16"}; tl_emu::Shared<tl_emu::A2<__nv_bfloat16, (WM_BM), (WM_BK + WM_PAD_H)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "__nv_bfloat16"}; tl_emu::Shared<tl_emu::A2<__nv_bfloat16, (WM_BK), (WM_BN + WM_PAD_H)>> Bs(Bs_tl_site_); 
    static const tl_emu::Site Cs_tl_site_ = {"Cs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (WM_THREADS / 32), (16 * 16)>> Cs(Cs_tl_site_); 
    int warp = threadIdx.x / 32, wr = warp / 4, wc = warp % 4;
    int row0 = blockIdx.y * WM_BM, col0 = blockIdx.x * WM_BN;
    const __nv_bfloat16 zero = __float2bfloat16(0.0f);

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < k; k0 += WM_BK) {
        for (int e = threadIdx.x; e < WM_BM * WM_BK; e += WM_THREADS) {
            int r = e / WM_BK, c = e % WM_BK;
            As(__LINE__)[r][c] = (row0 + r < m && k0 + c < k) ? (tl_emu::gcount(0), Mb)[(size_t)(row0 + r) * ldk + k0 + c] : zero;
        }
        for (int e = threadIdx.x; e < WM_BK * WM_BN; e += WM_THREADS) {
            int r = e / WM_BN, c = e % WM_BN;
            Bs(__LINE__)[r][c] = (k0 + r < k && col0 + c < n) ? (tl_emu::gcount(0), Nb)[(size_t)(k0 + r) * n + col0 + c] : zero;
        }
        __syncthreads();
        for (int kk = 0; kk < WM_BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[2];
            for (int i = 0; i < 4; i++)
                wmma::load_matrix_sync(a[i], &As(__LINE__)[wr * 64 + i * 16][kk], WM_BK + WM_PAD_H);
            for (int j = 0; j < 2; j++)
                wmma::load_matrix_sync(b[j], &Bs(__LINE__)[kk][wc * 32 + j * 16], WM_BN + WM_PAD_H);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    tl_emu::SPtr<float> scratch = Cs(__LINE__)[warp];
    int lane = threadIdx.x % 32;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++) {
            wmma::store_matrix_sync(scratch(__LINE__), acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            int r0 = row0 + wr * 64 + i * 16, c0 = col0 + wc * 32 + j * 16;
            for (int e = lane; e < 256; e += 32) {
                int r = r0 + e / 16, c = c0 + e % 16;
                if (r < m && c < n)
                    (tl_emu::gcount(1), Pd)[(size_t)r * n + c] = scratch(__LINE__)[e];
            }
            __syncwarp();
        }
}

/* BUG: a plain kernel in place of the tensor cores: one thread an element of P, a row of Mb and a
 * column of Nb from global memory for every multiply-add (lab 02's kernel), FP32 sums: right, untiled */
__global__ void naive_bf16_kernel(const __nv_bfloat16 *Mb, const __nv_bfloat16 *Nb, float *Pd, int m, int k, int n,
                                  int ldk) /* BUG */
{ /* BUG */
    float  tl_p_s[tl_emu::MAX_THREADS]; if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { ; /* BUG */
    if (r >= m || c >= n) /* BUG */
        { tl_emu::rret(); goto tl_emu_p0_; } /* BUG */
    s = (0.0f); /* BUG */
    for (int p = 0; p < k; p++) /* BUG */
        s += __bfloat162float((tl_emu::gcount(0), Mb)[(size_t)r * ldk + p]) * __bfloat162float((tl_emu::gcount(0), Nb)[(size_t)p * n + c]); /* BUG */
    (tl_emu::gcount(1), Pd)[(size_t)r * n + c] = s; } tl_emu_p0_: ; *(tl_p_s + tl_emu_t_) = s; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 158
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { ; /* BUG */
    if (r >= m || c >= n) /* BUG */
        { tl_emu::rret(); goto tl_emu_d0_; } /* BUG */
    s = (0.0f); /* BUG */
    for (int p = 0; p < k; p++) /* BUG */
        s += __bfloat162float((tl_emu::gcount(0), Mb)[(size_t)r * ldk + p]) * __bfloat162float((tl_emu::gcount(0), Nb)[(size_t)p * n + c]); /* BUG */
    (tl_emu::gcount(1), Pd)[(size_t)r * n + c] = s; } tl_emu_d0_: ; *(tl_p_s + tl_emu_t_) = s; } } else {
#line 158
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  r = (blockIdx.y * 16 + threadIdx.y); [[maybe_unused]] int  c = (blockIdx.x * 16 + threadIdx.x); [[maybe_unused]] auto s = *(tl_p_s + tl_emu_t_); { ; /* BUG */
    if (r >= m || c >= n) /* BUG */
        { tl_emu::rret(); goto tl_emu_r0_; } /* BUG */
    s = (0.0f); /* BUG */
    for (int p = 0; p < k; p++) /* BUG */
        s += __bfloat162float((tl_emu::gcount(0), Mb)[(size_t)r * ldk + p]) * __bfloat162float((tl_emu::gcount(0), Nb)[(size_t)p * n + c]); /* BUG */
    (tl_emu::gcount(1), Pd)[(size_t)r * n + c] = s; } tl_emu_r0_: ; *(tl_p_s + tl_emu_t_) = s; }
#line 164
 } /* BUG */
} /* BUG */

/* ------------------------------------------------------------------------------- launchers */

extern "C" int launch_wmma_tf32(const float *Md, const float *Nd, float *Pd, int m, int k, int n)
{
    dim3 grid(ceil_div(n, WM_BN), ceil_div(m, WM_BM));
    tl_emu_launch(wmma_tf32_kernel, "wmma_tf32_kernel", __FILE__, __LINE__, grid,  WM_THREADS)(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}

extern "C" int launch_wmma_bf16(const tl_bf16_bits *Mb, const tl_bf16_bits *Nb, float *Pd, int m, int k, int n,
                                int ldk)
{
    dim3 grid(ceil_div(n, 16), ceil_div(m, 16)), block(16, 16); /* BUG: the plain kernel's launch */
    tl_emu_launch(naive_bf16_kernel, "naive_bf16_kernel", __FILE__, __LINE__, grid,  block)((const __nv_bfloat16 *)Mb, (const __nv_bfloat16 *)Nb, Pd, m, k, n, ldk); /* BUG */
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// wmma_tf32_kernel: fibers (it uses __syncwarp)
#if 1 && defined(WM_BM) && defined(WM_BK) && defined(WM_PAD_F) && defined(WM_BK) && defined(WM_BN) && defined(WM_PAD_F) && defined(WM_THREADS)
static tl_emu::KernelReg tl_emu_reg_wmma_tf32_kernel_0_(wmma_tf32_kernel, "wmma_tf32_kernel", 0 + sizeof(float) * (WM_BM) * (WM_BK + WM_PAD_F) + sizeof(float) * (WM_BK) * (WM_BN + WM_PAD_F) + sizeof(float) * (WM_THREADS / 32) * (16 * 16), 0);
#else
static tl_emu::KernelReg tl_emu_reg_wmma_tf32_kernel_0_(wmma_tf32_kernel, "wmma_tf32_kernel", 0, 0);
#endif
// wmma_bf16_kernel: fibers (it uses __syncwarp)
#if 1 && defined(__nv_bfloat16) && defined(WM_BM) && defined(WM_BK) && defined(WM_PAD_H) && defined(__nv_bfloat16) && defined(WM_BK) && defined(WM_BN) && defined(WM_PAD_H) && defined(WM_THREADS)
static tl_emu::KernelReg tl_emu_reg_wmma_bf16_kernel_1_(wmma_bf16_kernel, "wmma_bf16_kernel", 0 + sizeof(__nv_bfloat16) * (WM_BM) * (WM_BK + WM_PAD_H) + sizeof(__nv_bfloat16) * (WM_BK) * (WM_BN + WM_PAD_H) + sizeof(float) * (WM_THREADS / 32) * (16 * 16), 0);
#else
static tl_emu::KernelReg tl_emu_reg_wmma_bf16_kernel_1_(wmma_bf16_kernel, "wmma_bf16_kernel", 0, 0);
#endif
// naive_bf16_kernel: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_naive_bf16_kernel_2_(naive_bf16_kernel, "naive_bf16_kernel", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_naive_bf16_kernel_2_(naive_bf16_kernel, "naive_bf16_kernel", 0, 1);
#endif
