#line 1 "tests/hostile/03/gpu_emulated_twin_differs.cu"
/* hostile/03/gpu_emulated_twin_differs.cu (issue 24 item 4, GPU only): the tiled kernel where the
 * emulator builds the file (the twin whose work the grader counts on a GPU) and lab 02's naive
 * kernel in the GPU build. Expected: less than the solution: refused before any test runs, everywhere
 * (it tests TL_EMULATED, which tells the GPU build from the emulated one that counts the work: policy.c,
 * tg_policy_build_split, issue 29); with TL_GRADE_NCU=1 the GPU's counters would see the naive kernel too. */
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
#ifdef TL_EMULATED   /* the twin the grader counts the work of: tiled */
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
#line 26
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    /* threadIdx.x walks columns: a warp loads a row segment of each tile (coalesced). */
    ;
    ;
    Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 26
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    /* threadIdx.x walks columns: a warp loads a row segment of each tile (coalesced). */
    ;
    ;
    Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 30
 }
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        /* Collaborative load: thread (ty, tx) brings M[Row][ph*T + tx] and N[ph*T + ty][Col]. */
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 33
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col]; } } } else {
#line 33
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col]; } }
#line 34
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;   /* the whole tile is loaded before anyone reads it */
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ty][k] * Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 36
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][k] * Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 36
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu_ep_)[ty][k] * Nds(__LINE__, tl_emu_ep_)[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 37
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;   /* everyone is done with this tile before the next load overwrites it */
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 40
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } } else {
#line 40
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } }
#line 40
 }
}
#else                /* the GPU build, timed and checked: lab 02's naive kernel */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + threadIdx.x); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    Pvalue = (0);
    for (int k = 0; k < Width; ++k)
        Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 45
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + threadIdx.x); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    Pvalue = (0);
    for (int k = 0; k < Width; ++k)
        Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 45
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + threadIdx.y); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + threadIdx.x); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    Pvalue = (0);
    for (int k = 0; k < Width; ++k)
        Pvalue += (tl_emu::gcount(0), Md)[Row * Width + k] * (tl_emu::gcount(0), Nd)[k * Width + Col];
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 49
 }
}
#endif

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
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
// MatrixMulKernel: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_1_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_1_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
