#line 1 "tests/wrong/04/naive-in-boundary.cu"
/* boundary.cu: KNOWN WRONG (tests/wrong/04/naive-in-boundary.cu): lab 02's naive kernel, guarded, for both
 * kernels of lab 04. Every size and shape is right, but nothing is tiled: both operands of every
 * multiply-add come from global memory. The grader's work counts show it (global loads per
 * multiply-add far above a TILE_WIDTH kernel's, ragged edges counted) and the correctness tests
 * give no credit. The launchers are the reference solution's.
 */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ square, any Width */

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)  // BUG: differs from the solution here (the header says how)
{
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)          /* BUG: no tiles */
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 18
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)          /* BUG: no tiles */
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } } } else {
#line 18
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)          /* BUG: no tiles */
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } }
#line 25
 }  // BUG: differs from the solution here (the header says how)
}

/* ------------------------------------------------------------------ rectangular */

__global__ void MatrixMulKernelRect(float *Md, float *Nd, float *Pd, int m, int k, int n)  // BUG: differs from the solution here (the header says how)
{
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    if (Row < m && Col < n) {
        float Pvalue = 0;
        for (int kk = 0; kk < k; ++kk)           /* BUG: no tiles */
            Pvalue += (tl_emu::gcount(0), Md)[Row * k + kk] * (tl_emu::gcount(0), Nd)[kk * n + Col];
        (tl_emu::gcount(1), Pd)[Row * n + Col] = Pvalue;
    } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 32
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    if (Row < m && Col < n) {
        float Pvalue = 0;
        for (int kk = 0; kk < k; ++kk)           /* BUG: no tiles */
            Pvalue += (tl_emu::gcount(0), Md)[Row * k + kk] * (tl_emu::gcount(0), Nd)[kk * n + Col];
        (tl_emu::gcount(1), Pd)[Row * n + Col] = Pvalue;
    } } } } else {
#line 32
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    if (Row < m && Col < n) {
        float Pvalue = 0;
        for (int kk = 0; kk < k; ++kk)           /* BUG: no tiles */
            Pvalue += (tl_emu::gcount(0), Md)[Row * k + kk] * (tl_emu::gcount(0), Nd)[kk * n + Col];
        (tl_emu::gcount(1), Pd)[Row * n + Col] = Pvalue;
    } } }
#line 39
 }  // BUG: differs from the solution here (the header says how)
}

/* ------------------------------------------------------------------ the launchers */

/* Ceiling division in both directions: the last block row and column stick out past P. */
extern "C" int launch_boundary(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH), 1);
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}

/* x covers the n columns of P, y its m rows. */
extern "C" int launch_rect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(n, TILE_WIDTH), ceil_div(m, TILE_WIDTH), 1);
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
