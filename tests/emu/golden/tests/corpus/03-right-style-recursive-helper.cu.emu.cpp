#line 1 "tests/corpus/03-right-style-recursive-helper.cu"
/* 03-right-style-recursive-helper.cu: corpus, lab 03, right (issue 24 item 6): the dot product of a tile row and a
 * tile column by a __device__ helper that recurses into its two halves (valid CUDA: device recursion), reading the
 * tiles through a row pointer and a pointer to rows; a printf of a tile value for one thread of one block at the
 * smallest size. The work rule sees the lecture kernel's loads: a helper's reads count where they happen. */
#include "cuda_check.h"
#include "lab.h"

#include <cstdio>

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__device__ float dot(const float *mrow, const float (*ntile)[TILE_WIDTH], int col, int k0, int n)
{
    if (n == 1)
        return mrow[k0] * ntile[k0][col];
    int h = n / 2;
    return dot(mrow, ntile, col, k0, h) + dot(mrow, ntile, col, k0 + h, n - h);
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    int  tl_p_tx[tl_emu::MAX_THREADS]; int  tl_p_Col[tl_emu::MAX_THREADS]; float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { tx = (threadIdx.x);
    Col = (blockIdx.x * TILE_WIDTH + tx);
    Pvalue = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Col + tl_emu_t_) = Col; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 26
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { tx = (threadIdx.x);
    Col = (blockIdx.x * TILE_WIDTH + tx);
    Pvalue = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Col + tl_emu_t_) = Col; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 26
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { tx = (threadIdx.x);
    Col = (blockIdx.x * TILE_WIDTH + tx);
    Pvalue = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Col + tl_emu_t_) = Col; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 28
 }
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 30
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col]; } } } else {
#line 30
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col]; } }
#line 31
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { if (Width == TILE_WIDTH && blockIdx.x == 0 && blockIdx.y == 0 && tx == 0 && ty == 0)
            printf("first tile, M[0][0] = %g\n", Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[0][0]);
        Pvalue += dot(Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty], Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_}), tx, 0, TILE_WIDTH); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 33
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { if (Width == TILE_WIDTH && blockIdx.x == 0 && blockIdx.y == 0 && tx == 0 && ty == 0)
            printf("first tile, M[0][0] = %g\n", Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[0][0]);
        Pvalue += dot(Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty], Nds(__LINE__, tl_emu::Esc{tl_emu_ep_}), tx, 0, TILE_WIDTH); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 33
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { if (Width == TILE_WIDTH && blockIdx.x == 0 && blockIdx.y == 0 && tx == 0 && ty == 0)
            printf("first tile, M[0][0] = %g\n", Mds(__LINE__, tl_emu_ep_)[0][0]);
        Pvalue += dot(Mds(__LINE__, tl_emu_ep_)[ty], Nds(__LINE__, tl_emu_ep_), tx, 0, TILE_WIDTH); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 35
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 38
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } } else {
#line 38
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE_WIDTH + ty); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } }
#line 38
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
