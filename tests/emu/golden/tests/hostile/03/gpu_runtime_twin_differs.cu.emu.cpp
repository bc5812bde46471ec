#line 1 "tests/hostile/03/gpu_runtime_twin_differs.cu"
/* hostile/03/gpu_runtime_twin_differs.cu (issue 29): the tiled kernel where it runs emulated and lab
 * 02's naive kernel on a GPU, told apart at run time with no macro (the emulator's device has its own
 * UUID, "tilelab-emu-gpu0"; a GPU's is its own), so the object gate's test of the macros that tell the
 * builds apart (policy.c, tg_policy_build_split) does not see it. Graded emulated it is the solution
 * (full: what runs there is tiled). On a GPU, where the counting twin counts the work by default, its
 * speed test is slower than full credit allows, so its variants are profiled on demand and the GPU's
 * counters take the correctness tests' credit (not tiled): less (tests/gpu/gpucpu-on-device.sh). */
/* tiled.cu: lab 03, the tiled kernel: the reference solution (labs/03-tiled-kernel/tiled.cu completed).
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
#include <string.h>

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
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    int bx = blockIdx.x, by = blockIdx.y;
    float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    /* threadIdx.x walks columns: a warp loads a row segment of each tile (coalesced). */
    ;
    ;
    Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 42
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    /* threadIdx.x walks columns: a warp loads a row segment of each tile (coalesced). */
    ;
    ;
    Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 42
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    /* threadIdx.x walks columns: a warp loads a row segment of each tile (coalesced). */
    ;
    ;
    Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 46
 }
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        /* Collaborative load: thread (ty, tx) brings M[Row][ph*T + tx] and N[ph*T + ty][Col]. */
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 49
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col]; } } } else {
#line 49
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col]; } }
#line 50
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;   /* the whole tile is loaded before anyone reads it */
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ty][k] * Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 52
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][k] * Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 52
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu_ep_)[ty][k] * Nds(__LINE__, tl_emu_ep_)[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 53
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;   /* everyone is done with this tile before the next load overwrites it */
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 56
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } } else {
#line 56
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } }
#line 56
 }
}

/* Lab 02's kernel: one thread per element of Pd, every operand from global memory. */
__global__ void NaiveKernel(float *Md, float *Nd, float *Pd, int Width)
{
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 62
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } } } else {
#line 62
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  Row = (blockIdx.y * blockDim.y + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * blockDim.x + threadIdx.x); { ;
    ;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
        (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
    } } }
#line 69
 }
}

/* 1 on a GPU, 0 on the emulator's device: its UUID. */
static int on_a_gpu(void)
{
    static int known = -1;
    if (known < 0) {
        cudaDeviceProp p;
        memset(&p, 0, sizeof p);
        known = cudaGetDeviceProperties(&p, 0) == cudaSuccess && memcmp(p.uuid.bytes, "tilelab-emu-gpu0", 16) != 0;
    }
    return known;
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
    if (on_a_gpu())
        tl_emu_launch(NaiveKernel, "NaiveKernel", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);
    else
        tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
// NaiveKernel: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_NaiveKernel_1_(NaiveKernel, "NaiveKernel", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_NaiveKernel_1_(NaiveKernel, "NaiveKernel", 0, 1);
#endif
