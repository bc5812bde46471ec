#line 1 "tests/corpus/03-wrong-phases-minus-one.cu"
/* 03-wrong-phases-minus-one.cu: corpus, lab 03, wrong: the phase count written as lecture 001's (Width-1)/TILE_WIDTH without its + 1: the phase loop stops one short and every element lacks the last tile's terms */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    ;
    Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 13
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    ;
    Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 13
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    ;
    Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 15
 }
    for (int m = 0; m < (Width - 1) / TILE_WIDTH; ++m) {   /* lecture 001: (Width-1)/TILE_WIDTH + 1 phases */
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + (m * TILE_WIDTH + tx)];
        Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Nd)[(m * TILE_WIDTH + ty) * Width + Col]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 17
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + (m * TILE_WIDTH + tx)];
        Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Nd)[(m * TILE_WIDTH + ty) * Width + Col]; } } } else {
#line 17
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + (m * TILE_WIDTH + tx)];
        Nds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Nd)[(m * TILE_WIDTH + ty) * Width + Col]; } }
#line 18
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ty][k] * Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 20
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][k] * Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 20
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__, tl_emu_ep_)[ty][k] * Nds(__LINE__, tl_emu_ep_)[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 21
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } } else {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  bx = (blockIdx.x); [[maybe_unused]] int  by = (blockIdx.y); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (by * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (bx * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } }
#line 24
 }
}
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 b(TILE_WIDTH, TILE_WIDTH), g(Width / TILE_WIDTH, Width / TILE_WIDTH);
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, g,  b)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
