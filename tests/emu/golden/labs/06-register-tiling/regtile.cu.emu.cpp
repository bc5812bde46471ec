#line 1 "labs/06-register-tiling/regtile.cu"
/* regtile.cu: lab 06, register tiling and thread coarsening. YOU complete this file; nothing else.
 *
 * Check:  ./kit check 06     (variants coarse1d, regtile, warptile, next to cuBLAS)
 * Read:   labs/06-register-tiling/README.md for the steps, the measured numbers and the questions.
 * Run:    build/labs/06-register-tiling/lab06 --variants coarse1d --sizes 17,1000x17x3
 *         build/labs/06-register-tiling/lab06 --sizes 2048,4096     (every variant; cublas when built)
 *
 * All matrices are row-major floats on the device: P (m x n) = M (m x k) * N (k x n), any m, k, n
 * >= 1. Plain CUDA C is all it needs; templates (a templated kernel or __device__ helper) are
 * allowed: they build for the GPU and emulated. Keep lab 04's boundary handling in every kernel:
 * loads outside M or N write 0 into the tile, stores outside P are skipped, grids and phase counts
 * round up, and every thread reaches every barrier. The tunables below are the reference's; you
 * may change them (say why in a comment), the launchers must still cover P.
 *
 * Scope: FP32 on the CUDA cores (FFMA), as cuBLAS's CUBLAS_DEFAULT_MATH does; no tensor cores, no
 * TF32, no Hopper-only instructions.
 */
#include <stdint.h>

#include "cuda_check.h"
#include "lab.h"

/* ------------------------------------------------------------------ the tunables */
/* (a) 1-D coarsening: a C1_BM x C1_BN block tile, C1_BK wide phases, C1_TM outputs per thread
 *     (one column of them): C1_BM * C1_BN / C1_TM = 512 threads per block. */
#define C1_BM 64
#define C1_BN 64
#define C1_BK 8
#define C1_TM 8
#define C1_THREADS (C1_BM * C1_BN / C1_TM)

/* (b) 2-D register tiling: a R2_BM x R2_BN block tile, R2_TM x R2_TN outputs per thread:
 *     256 threads, each loading R2_BM * R2_BK / 256 = 4 elements of each tile per phase. */
#define R2_BM 128
#define R2_BN 128
#define R2_BK 8
#define R2_TM 8
#define R2_TN 8
#define R2_THREADS (R2_BM * R2_BN / (R2_TM * R2_TN))
#ifndef R2_MIN_BLOCKS
#define R2_MIN_BLOCKS 1   /* __launch_bounds__'s blocks per SM; 2 caps registers at 128 (see README) */
#endif

/* (c) the speed step: the same 128 x 128 block tile and 8 x 8 outputs per thread, WT_BK 16 wide
 *     phases, with
 *     - 128-bit (float4) global loads: WT_LDM (2) per thread of M's tile and WT_LDN (2) of N's a
 *       phase, and a scalar fallback where a row is not 16-byte aligned (k or n % 4 != 0);
 *     - M's tile stored transposed (Mts[kk][row]), so a thread's 4 rows are one float4 apart;
 *     - warp tiling: a warp computes a 2 x 2 set of 16 x 32 sub-tiles of P, each thread 4 x 4 of
 *       each (rows ty*4 and 64 + ty*4, columns tx*4 and 64 + tx*4), so that a warp's shared loads
 *       hit 4 (M) and 8 (N) distinct float4s: no bank conflicts, one wavefront each;
 *     - double buffering: two stages of shared memory, the next phase's global loads in flight
 *       while this phase computes, one barrier per phase.
 *     WT_PAD: padding M's transposed tile by 4 floats a row spreads its transposed store over more
 *     banks (with BK 16, the 4 threads that share a row of M wrote one bank: a 4-way conflict, 2-way
 *     with the padding) and keeps rows 16-byte aligned. Measured on an H200: 0.74 of cuBLAS
 *     without it, 0.86 with it (README). */
#define WT_BM 128
#define WT_BN 128
#ifndef WT_BK
#define WT_BK 16          /* 8 or 16: 16 measured 11% faster on an H100 (README) */
#endif
#ifndef WT_PAD
#define WT_PAD 4
#endif
#define WT_THREADS 256
#define WT_LDM (WT_BM * WT_BK / 4 / WT_THREADS)   /* float4s of M's tile each thread loads a phase */
#define WT_LDN (WT_BK * WT_BN / 4 / WT_THREADS)   /* ... and of N's tile                            */
#define WT_MROWS (WT_THREADS / (WT_BK / 4))       /* M tile rows apart of one thread's float4s      */
#define WT_NROWS (WT_THREADS / (WT_BN / 4))       /* N tile rows apart                              */

/* ------------------------------------------------------------------ (a) 1-D coarsening */

/* Thread tx computes C1_TM outputs in one column of P: rows rowBase + tr*C1_TM + i, column
 * colBase + tc. Each N element it reads from shared memory (one per kk) is used C1_TM times from a
 * register; a warp's 32 threads share tr, so their M reads are one broadcast. */
__global__ void __launch_bounds__(C1_THREADS)
MatrixMulCoarse1D(const float *__restrict__ Md, const float *__restrict__ Nd, float *__restrict__ Pd,
                  int m, int k, int n)
{
    /* TODO (a): declare the two tiles (Mds C1_BM x C1_BK, Nds C1_BK x C1_BN); give thread tx a
     * column tc and a group of C1_TM rows tr, and one element of each tile to load; keep C1_TM
     * sums in a register array; per phase: guarded loads (0 outside M or N), barrier, for each kk
     * one N value into a register and C1_TM multiply-adds, barrier; then the guarded stores. */
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 85
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; } } } else {
#line 85
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; } }
#line 85
 }
}

/* ------------------------------------------------------------------ (b) 2-D register tiling */

/* Thread (tr, tc) of the 16 x 16 computes the R2_TM x R2_TN micro-tile at rows tr*R2_TM.., columns
 * tc*R2_TN..: per kk it reads R2_TM values of M and R2_TN of N into registers and adds their outer
 * product, R2_TM * R2_TN multiply-adds for R2_TM + R2_TN shared loads. */
__global__ void __launch_bounds__(R2_THREADS, R2_MIN_BLOCKS)
MatrixMulRegTile(const float *__restrict__ Md, const float *__restrict__ Nd, float *__restrict__ Pd,
                 int m, int k, int n)
{
    /* TODO (b): the 16 x 16 threads of the block each own an R2_TM x R2_TN micro-tile of the
     * R2_BM x R2_BN block tile. Per phase each thread loads R2_BM * R2_BK / R2_THREADS elements of
     * each tile (guarded), barrier, then for each kk: R2_TM values of M and R2_TN of N from shared
     * memory into registers and their outer product into acc[R2_TM][R2_TN]; barrier. Index the
     * register arrays only with loop counters of fully unrolled loops (#pragma unroll), or they
     * go to local memory. Then the guarded stores. */
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 103
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; } } } else {
#line 103
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; } }
#line 103
 }
}

/* ------------------------------------------------------------------ (c) the speed step */

/* One phase's global loads for the warptile kernel: 4 consecutive elements of a row, columns
 * col.. of a matrix with cols columns, from q (that row, column col); row_ok says whether the row
 * lies inside the matrix. One float4 when the rows allow 16-byte loads (vec: cols % 4 == 0 and a
 * 16-byte aligned start; then all 4 columns are inside or all outside), else 4 guarded scalars
 * (k or n not a multiple of 4: a float4 there would be misaligned). Outside the matrix: 0. */
static __device__ __forceinline__ float4 load4(const float *__restrict__ q, int row_ok, int col, int cols,
                                               int vec)
{
    /* TODO (c): 0 outside the matrix; a float4 load when vec (then the 4 columns are all inside
     * or all outside); otherwise 4 scalar loads, each with its own column test. */
    (void)q; (void)row_ok; (void)col; (void)cols; (void)vec;
    return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

/* Four results of one row of P: one float4 store when the row allows it, else guarded scalars. */
static __device__ __forceinline__ void store4(float *__restrict__ p, int row, int rows, int col, int cols,
                                              int vec, float a, float b, float c, float d)
{
    /* TODO (c): skip rows outside P; one float4 store when vec and all 4 columns are inside,
     * otherwise 4 scalar stores, each with its own column test. */
    (void)p; (void)row; (void)rows; (void)col; (void)cols; (void)vec; (void)a; (void)b; (void)c; (void)d;
}

/* Two stages of each tile, flattened to 2-D (stage s, row kk is row s*WT_BK + kk). The M tile is
 * transposed: Mts[kk][r] holds M[rowBase + r][kb + kk]. */
__global__ void __launch_bounds__(WT_THREADS, 2)
MatrixMulWarpTile(const float *__restrict__ Md, const float *__restrict__ Nd, float *__restrict__ Pd,
                  int m, int k, int n, int vecM, int vecN, int vecP)
{
    /* TODO (c): two stages of each tile in shared memory (flattened to 2-D: stage s, row kk is
     * row s*WT_BK + kk), M's tile stored transposed: Mts[kk][r] = M[rowBase + r][kb + kk].
     *   - thread tx loads WT_LDM float4s of M's tile (rows tx/(WT_BK/4) + l*WT_MROWS, columns
     *     (tx%(WT_BK/4))*4..) and WT_LDN of N's (rows tx/(WT_BN/4) + l*WT_NROWS, columns
     *     (tx%(WT_BN/4))*4..) with load4, and stores them into the tiles (M's transposed);
     *   - warp tiling: warp w = tx/32, lane l = tx%32; thread rows ty4 = ((w/2)*4 + l/8)*4 and
     *     64 + ty4 (4 each), columns tx4 = ((w%2)*8 + l%8)*4 and 64 + tx4: an 8 x 8 micro-tile;
     *   - double buffering: load stage 0 and wait; then in each phase issue the next phase's
     *     global loads into registers first, compute from the current stage, store the registers
     *     into the other stage, and one __syncthreads();
     *   - the stores with store4. */
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; (void)vecM; (void)vecN; (void)vecP;
    (void)load4; (void)store4; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 148
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; (void)vecM; (void)vecN; (void)vecP;
    (void)load4; (void)store4; } } } else {
#line 148
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; (void)vecM; (void)vecN; (void)vecP;
    (void)load4; (void)store4; } }
#line 149
 }   /* (only to keep the compiler quiet until you call them) */
}

/* ------------------------------------------------------------------ the launchers */

extern "C" int launch_coarse1d(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    dim3 dimBlock(C1_THREADS, 1, 1);
    dim3 dimGrid(1, 1, 1);   /* TODO: x covers the n columns of P in C1_BN blocks, y the m rows */
    tl_emu_launch(MatrixMulCoarse1D, "MatrixMulCoarse1D", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}

extern "C" int launch_regtile(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    dim3 dimBlock(R2_THREADS, 1, 1);
    dim3 dimGrid(1, 1, 1);   /* TODO */
    tl_emu_launch(MatrixMulRegTile, "MatrixMulRegTile", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}

/* 16-byte loads need a row length that is a multiple of 4 floats and a 16-byte aligned start. */
static int rows_allow_float4(const float *p, int cols)
{
    return cols % 4 == 0 && (uintptr_t)p % 16 == 0;
}

extern "C" int launch_warptile(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    dim3 dimBlock(WT_THREADS, 1, 1);
    dim3 dimGrid(1, 1, 1);   /* TODO */
    tl_emu_launch(MatrixMulWarpTile, "MatrixMulWarpTile", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, m, k, n, rows_allow_float4(Md, k),
                                             rows_allow_float4(Nd, n), rows_allow_float4(Pd, n));
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulCoarse1D: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulCoarse1D_0_(MatrixMulCoarse1D, "MatrixMulCoarse1D", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulCoarse1D_0_(MatrixMulCoarse1D, "MatrixMulCoarse1D", 0, 1);
#endif
// MatrixMulRegTile: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulRegTile_1_(MatrixMulRegTile, "MatrixMulRegTile", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulRegTile_1_(MatrixMulRegTile, "MatrixMulRegTile", 0, 1);
#endif
// MatrixMulWarpTile: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulWarpTile_2_(MatrixMulWarpTile, "MatrixMulWarpTile", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulWarpTile_2_(MatrixMulWarpTile, "MatrixMulWarpTile", 0, 1);
#endif
