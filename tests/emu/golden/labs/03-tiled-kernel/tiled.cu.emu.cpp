#line 1 "labs/03-tiled-kernel/tiled.cu"
/* tiled.cu: lab 03, the tiled kernel. YOU complete this file; nothing else.
 *
 * Check:  ./kit check 03     (builds TILE_WIDTH 16 and 32, runs both on the public sizes)
 * Read:   labs/03-tiled-kernel/README.md for the tasks and the questions.
 *
 * Md, Nd, Pd are Width x Width floats, row-major, on the device. In this lab Width is always a
 * multiple of TILE_WIDTH (the harness refuses other sizes); lab 04 handles any Width. This file is
 * compiled twice, with -DTILE_WIDTH=16 and -DTILE_WIDTH=32 (see lab.h): write TILE_WIDTH, never 16
 * or 32. Plain CUDA C is all it needs; templates (a templated kernel or __device__ helper) are
 * allowed: they build for the GPU and emulated.
 */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ the kernel */

/* Task 1: the lecture's tiled MatrixMulKernel. One block computes one TILE_WIDTH x TILE_WIDTH
 * tile of Pd, one thread per element (Row from y, Col from x). The dot product runs in phases
 * ph = 0 .. Width/TILE_WIDTH - 1; in each phase:
 *   1. every thread loads one element of the M tile and one of the N tile into Mds and Nds
 *      (Mds[ty][tx] = M[Row][ph*TILE_WIDTH + tx], Nds[ty][tx] = N[ph*TILE_WIDTH + ty][Col]);
 *   2. a barrier, so that no thread reads a tile before all of it is loaded;
 *   3. every thread adds TILE_WIDTH products Mds[ty][k] * Nds[k][tx] to its Pvalue;
 *   4. a barrier, so that no thread overwrites a tile that others still read.
 * Then each thread stores its Pvalue. */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    /* TODO: the two tiles, __shared__ float Mds[TILE_WIDTH][TILE_WIDTH] and Nds likewise;
     * Row, Col, Pvalue; the phase loop with its two __syncthreads(); the store. */
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)Width; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 34
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)Md; (void)Nd; (void)Pd; (void)Width; } } } else {
#line 34
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { (void)Md; (void)Nd; (void)Pd; (void)Width; } }
#line 34
 }
}

/* ------------------------------------------------------------------ the launcher */

/* Task 2: TILE_WIDTH x TILE_WIDTH threads per block, one block per tile of Pd. */
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
    dim3 dimBlock(1, 1, 1);   /* TODO */
    dim3 dimGrid(1, 1, 1);    /* TODO */
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
