#line 1 "tests/corpus/03-right-style-ptr-arith-tiles.cu"
/* 03-right-style-ptr-arith-tiles.cu: corpus, lab 03, right (issue 24 item 6): every access written as pointer
 * arithmetic: global loads *(Md + i), the tiles stored through *(&Mds[0][0] + i) and read through row pointers
 * *(mrow + k), P stored through *(Pd + i). Valid CUDA; the emulator counts each access at its address, so the
 * work rule sees the lecture kernel's loads (2/TILE_WIDTH global, 2 shared per multiply-add). */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); { ;
    ; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 16
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); { ;
    ; } } } else {
#line 16
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); { ;
    ; } }
#line 17
 }
    float *mbase = &Mds(__LINE__)[0][0], *nbase = &Nds(__LINE__)[0][0];
    float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 19
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 19
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Pvalue = (0); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 19
 }
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { *(mbase + ty * TILE_WIDTH + tx) = *(Md + Row * Width + ph * TILE_WIDTH + tx);
        *(nbase + ty * TILE_WIDTH + tx) = *(Nd + (ph * TILE_WIDTH + ty) * Width + Col); } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 21
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { *(mbase + ty * TILE_WIDTH + tx) = *(Md + Row * Width + ph * TILE_WIDTH + tx);
        *(nbase + ty * TILE_WIDTH + tx) = *(Nd + (ph * TILE_WIDTH + ty) * Width + Col); } } } else {
#line 21
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { *(mbase + ty * TILE_WIDTH + tx) = *(Md + Row * Width + ph * TILE_WIDTH + tx);
        *(nbase + ty * TILE_WIDTH + tx) = *(Nd + (ph * TILE_WIDTH + ty) * Width + Col); } }
#line 22
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); [[maybe_unused]] const float * mrow = (mbase + ty * TILE_WIDTH); [[maybe_unused]] const float * ncol = (nbase + tx); { ;
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += *(mrow + k) * *(ncol + k * TILE_WIDTH); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); [[maybe_unused]] const float * mrow = (mbase + ty * TILE_WIDTH); [[maybe_unused]] const float * ncol = (nbase + tx); { ;
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += *(mrow + k) * *(ncol + k * TILE_WIDTH); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); [[maybe_unused]] const float * mrow = (mbase + ty * TILE_WIDTH); [[maybe_unused]] const float * ncol = (nbase + tx); { ;
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += *(mrow + k) * *(ncol + k * TILE_WIDTH); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 26
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { *(Pd + Row * Width + Col) = Pvalue; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 29
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { *(Pd + Row * Width + Col) = Pvalue; } } } else {
#line 29
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { *(Pd + Row * Width + Col) = Pvalue; } }
#line 29
 }
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
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
