#line 1 "tests/corpus/03-right-flat-shared.cu"
/* 03-right-flat-shared.cu: corpus, lab 03, right: the tiles as flat 1-D shared arrays indexed ty * TILE_WIDTH + tx */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (TILE_WIDTH * TILE_WIDTH)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (TILE_WIDTH * TILE_WIDTH)>> Bs(Bs_tl_site_); 
    float  tl_p_v[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { ;
    ;
    v = (0); } *(tl_p_v + tl_emu_t_) = v; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 13
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { ;
    ;
    v = (0); } *(tl_p_v + tl_emu_t_) = v; } } else {
#line 13
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { ;
    ;
    v = (0); } *(tl_p_v + tl_emu_t_) = v; }
#line 15
 }
    for (int p = 0; p < Width; p += TILE_WIDTH) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { As(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty * TILE_WIDTH + tx] = (tl_emu::gcount(0), Md)[Row * Width + p + tx];
        Bs(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty * TILE_WIDTH + tx] = (tl_emu::gcount(0), Nd)[(p + ty) * Width + Col]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 17
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { As(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty * TILE_WIDTH + tx] = (tl_emu::gcount(0), Md)[Row * Width + p + tx];
        Bs(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty * TILE_WIDTH + tx] = (tl_emu::gcount(0), Nd)[(p + ty) * Width + Col]; } } } else {
#line 17
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { As(__LINE__, tl_emu_ep_)[ty * TILE_WIDTH + tx] = (tl_emu::gcount(0), Md)[Row * Width + p + tx];
        Bs(__LINE__, tl_emu_ep_)[ty * TILE_WIDTH + tx] = (tl_emu::gcount(0), Nd)[(p + ty) * Width + Col]; } }
#line 18
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            v += As(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ty * TILE_WIDTH + k] * Bs(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[k * TILE_WIDTH + tx]; } *(tl_p_v + tl_emu_t_) = v; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 20
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            v += As(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty * TILE_WIDTH + k] * Bs(__LINE__, tl_emu::Esc{tl_emu_ep_})[k * TILE_WIDTH + tx]; } *(tl_p_v + tl_emu_t_) = v; } } else {
#line 20
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k)
            v += As(__LINE__, tl_emu_ep_)[ty * TILE_WIDTH + k] * Bs(__LINE__, tl_emu_ep_)[k * TILE_WIDTH + tx]; } *(tl_p_v + tl_emu_t_) = v; }
#line 21
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = v; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = v; } } } else {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE_WIDTH + tx); [[maybe_unused]] auto v = *(tl_p_v + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = v; } }
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
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH * TILE_WIDTH) + sizeof(float) * (TILE_WIDTH * TILE_WIDTH), 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
