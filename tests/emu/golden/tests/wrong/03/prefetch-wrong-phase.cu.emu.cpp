#line 1 "tests/wrong/03/prefetch-wrong-phase.cu"
/* KNOWN-WRONG SUBMISSION (tests/wrong/03/prefetch-wrong-phase.cu): double-buffered tiles (the next
 * phase's tiles are loaded into the other buffer while this phase's are used, one barrier a phase),
 * but the prefetch loads phase ph again, not ph + 1: each phase from the second on computes with the
 * previous phase's tiles, so phase 0's terms count twice and the last phase's never. Right at
 * Width = TILE_WIDTH (one phase), wrong at every larger size. The fix: load phase ph + 1 into the
 * other buffer, only while ph + 1 < Width / TILE_WIDTH. Everything else is the reference solution.
 * tests/wrong/README.md lists the verdict each bug must get. */
/* tiled.cu: lab 03, the tiled kernel.
 *
 * Check:  ./kit check 03     (builds TILE_WIDTH 16 and 32, runs both on the public sizes)
 * Read:   labs/03-tiled-kernel/README.md for the tasks and the questions.
 *
 * Md, Nd, Pd are Width x Width floats, row-major, on the device. In this lab Width is always a
 * multiple of TILE_WIDTH (the harness refuses other sizes); lab 04 handles any Width.
 * This file is compiled twice, with -DTILE_WIDTH=16 and -DTILE_WIDTH=32 (see lab.h): write
 * TILE_WIDTH, never 16 or 32. CUDA C only: no templates, no classes.
 *
 * Scope: the lecture's kernel, written for clarity. It leaves out register tiling (several
 * outputs per thread) and padding against bank conflicts; cuBLAS, timed next to it, has both.
 */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ the kernel */

/* One block computes one TILE_WIDTH x TILE_WIDTH tile of Pd, one thread per element. The dot
 * product runs in phases: in phase ph the block loads one tile of Md (its rows, columns
 * ph*TILE_WIDTH ...) and one tile of Nd (rows ph*TILE_WIDTH ..., its columns) into shared
 * memory, each thread one element of each, and then every thread uses TILE_WIDTH elements of
 * each tile: every element loaded from global memory is used TILE_WIDTH times. */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A3<float, (2), (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_);   // BUG: differs from the solution here (the header says how)
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A3<float, (2), (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    int bx = blockIdx.x, by = blockIdx.y;
    float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;  // BUG: differs from the solution here (the header says how)
    ;
    ;
    Pvalue = (0);
    Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[0][ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + tx];             /* phase 0's tiles */
    Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[0][ty][tx] = (tl_emu::gcount(0), Nd)[ty * Width + Col]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 40
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;  // BUG: differs from the solution here (the header says how)
    ;
    ;
    Pvalue = (0);
    Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[0][ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + tx];             /* phase 0's tiles */
    Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[0][ty][tx] = (tl_emu::gcount(0), Nd)[ty * Width + Col]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 40
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;  // BUG: differs from the solution here (the header says how)
    ;
    ;
    Pvalue = (0);
    Mds(__LINE__, tl_emu_ep_)[0][ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + tx];             /* phase 0's tiles */
    Nds(__LINE__, tl_emu_ep_)[0][ty][tx] = (tl_emu::gcount(0), Nd)[ty * Width + Col]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 45
 }  // BUG: differs from the solution here (the header says how)
    if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); [[maybe_unused]] int  cur = (ph & 1); [[maybe_unused]] int  nxt = (cur ^ 1); { ;
        if (ph + 1 < Width / TILE_WIDTH) {
            /* BUG: the prefetch loads phase ph into the next buffer, not phase ph + 1 */
            Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[nxt][ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
            Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[nxt][ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col];
        }
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[cur][ty][k] * Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[cur][k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 48
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); [[maybe_unused]] int  cur = (ph & 1); [[maybe_unused]] int  nxt = (cur ^ 1); { ;
        if (ph + 1 < Width / TILE_WIDTH) {
            /* BUG: the prefetch loads phase ph into the next buffer, not phase ph + 1 */
            Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[nxt][ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
            Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[nxt][ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col];
        }
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[cur][ty][k] * Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[cur][k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 48
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); [[maybe_unused]] int  cur = (ph & 1); [[maybe_unused]] int  nxt = (cur ^ 1); { ;
        if (ph + 1 < Width / TILE_WIDTH) {
            /* BUG: the prefetch loads phase ph into the next buffer, not phase ph + 1 */
            Mds(__LINE__, tl_emu_ep_)[nxt][ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
            Nds(__LINE__, tl_emu_ep_)[nxt][ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col];
        }
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu_ep_)[cur][ty][k] * Nds(__LINE__, tl_emu_ep_)[cur][k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 55
 }  // BUG: differs from the solution here (the header says how)
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;   /* this phase's reads of cur and writes of nxt done before the next phase */
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 58
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } } else {
#line 58
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } }
#line 58
 }
}

/* ------------------------------------------------------------------ the launcher */

/* One block per tile of Pd. Width is a multiple of TILE_WIDTH here, so Width / TILE_WIDTH is
 * exact; ceil_div says what is meant and stays right in lab 04. */
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH), 1);
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (2) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (2) * (TILE_WIDTH) * (TILE_WIDTH), 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
