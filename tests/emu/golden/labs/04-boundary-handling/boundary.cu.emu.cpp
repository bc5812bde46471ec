#line 1 "labs/04-boundary-handling/boundary.cu"
/* boundary.cu: lab 04, boundary handling. YOU complete this file; nothing else.
 *
 * Check:  ./kit check 04     (builds TILE_WIDTH 16 and 32, runs square and rectangular sizes)
 * Read:   labs/04-boundary-handling/README.md for the tasks and the questions.
 *
 * All matrices are row-major floats on the device. Sizes are anything from 1 up: 1, 15, 17,
 * primes, 1000 x 17 x 3. This file is compiled twice, with -DTILE_WIDTH=16 and 32 (see lab.h).
 * Plain CUDA C is all it needs; templates (a templated kernel or __device__ helper) are allowed:
 * they build for the GPU and emulated.
 */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ square, any Width */

/* Task 1: start from your lab 03 kernel and make it right for every Width >= 1:
 *   - the number of phases rounds up (ceil_div works in kernels too);
 *   - a load whose element lies outside M (or N) writes 0 into the tile instead; the tests for
 *     the M tile and the N tile are not the same;
 *   - only threads inside P store;
 *   - every thread of the block reaches every __syncthreads(): never put a barrier inside the
 *     bounds test. */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    /* TODO */
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)Width; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 30
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)Width; } } } else {
#line 30
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { (void)Md; (void)Nd; (void)Pd; (void)Width; } }
#line 30
 }
}

/* ------------------------------------------------------------------ rectangular */

/* Task 3: Pd (m x n) = Md (m x k) * Nd (k x n). Which of m, k, n bounds the rows, the columns,
 * the phases? (k is a parameter here: name the inner loop index something else.) */
__global__ void MatrixMulKernelRect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    /* TODO */
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 40
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; } } } else {
#line 40
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { (void)Md; (void)Nd; (void)Pd; (void)m; (void)k; (void)n; } }
#line 40
 }
}

/* ------------------------------------------------------------------ the launchers */

/* Task 2: enough TILE_WIDTH x TILE_WIDTH blocks to cover P for any Width. */
extern "C" int launch_boundary(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(1, 1, 1);   /* TODO */
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}

/* Task 4: the grid for an m x n P. Which dimension of the grid covers which of m and n? */
extern "C" int launch_rect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(1, 1, 1);   /* TODO */
    tl_emu_launch(MatrixMulKernelRect, "MatrixMulKernelRect", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
// MatrixMulKernelRect: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernelRect_1_(MatrixMulKernelRect, "MatrixMulKernelRect", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernelRect_1_(MatrixMulKernelRect, "MatrixMulKernelRect", 0, 1);
#endif
