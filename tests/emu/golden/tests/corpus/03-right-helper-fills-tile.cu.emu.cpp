#line 1 "tests/corpus/03-right-helper-fills-tile.cu"
/* 03-right-helper-fills-tile.cu: corpus, lab 03, right: both tiles filled by a __device__ helper that takes the
 * __shared__ tile as an array parameter (float tile[][TILE_WIDTH]) and as a pointer to rows (float (*)[TILE_WIDTH]),
 * the product read by a helper taking rows (const float *), as guarded real kernels write it: valid CUDA. The
 * emulator must not call the tiles "read of __shared__ memory never written" (issue 25). */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__device__ void load_m(float tile[][TILE_WIDTH], const float *Md, int Row, int col0, int Width)
{
    tile[threadIdx.y][threadIdx.x] = Md[Row * Width + col0 + threadIdx.x];
}

__device__ void load_n(float (*tile)[TILE_WIDTH], const float *Nd, int row0, int Col, int Width)
{
    tile[threadIdx.y][threadIdx.x] = Nd[(row0 + threadIdx.y) * Width + Col];
}

__device__ float dot_rows(const float *mrow, float (*ntile)[TILE_WIDTH], int tx)
{
    float s = 0;
    for (int k = 0; k < TILE_WIDTH; ++k)
        s += mrow[k] * ntile[k][tx];
    return s;
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    int  tl_p_tx[tl_emu::MAX_THREADS]; int  tl_p_Row[tl_emu::MAX_THREADS]; int  tl_p_Col[tl_emu::MAX_THREADS]; float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { tx = (threadIdx.x);
    Row = (blockIdx.y * TILE_WIDTH + ty), Col = (blockIdx.x * TILE_WIDTH + tx);
    Pvalue = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Row + tl_emu_t_) = Row; *(tl_p_Col + tl_emu_t_) = Col; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 34
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { tx = (threadIdx.x);
    Row = (blockIdx.y * TILE_WIDTH + ty), Col = (blockIdx.x * TILE_WIDTH + tx);
    Pvalue = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Row + tl_emu_t_) = Row; *(tl_p_Col + tl_emu_t_) = Col; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 34
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { tx = (threadIdx.x);
    Row = (blockIdx.y * TILE_WIDTH + ty), Col = (blockIdx.x * TILE_WIDTH + tx);
    Pvalue = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Row + tl_emu_t_) = Row; *(tl_p_Col + tl_emu_t_) = Col; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 36
 }
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { load_m(Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_}), Md, Row, ph * TILE_WIDTH, Width);
        load_n(Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_}), Nd, ph * TILE_WIDTH, Col, Width); } *(tl_p_Row + tl_emu_t_) = Row; *(tl_p_Col + tl_emu_t_) = Col; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 38
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { load_m(Mds(__LINE__, tl_emu::Esc{tl_emu_ep_}), Md, Row, ph * TILE_WIDTH, Width);
        load_n(Nds(__LINE__, tl_emu::Esc{tl_emu_ep_}), Nd, ph * TILE_WIDTH, Col, Width); } *(tl_p_Row + tl_emu_t_) = Row; *(tl_p_Col + tl_emu_t_) = Col; } } else {
#line 38
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { load_m(Mds(__LINE__, tl_emu_ep_), Md, Row, ph * TILE_WIDTH, Width);
        load_n(Nds(__LINE__, tl_emu_ep_), Nd, ph * TILE_WIDTH, Col, Width); } *(tl_p_Row + tl_emu_t_) = Row; *(tl_p_Col + tl_emu_t_) = Col; }
#line 39
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Pvalue += dot_rows(Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty], Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_}), tx); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 41
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Pvalue += dot_rows(Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty], Nds(__LINE__, tl_emu::Esc{tl_emu_ep_}), tx); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 41
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Pvalue += dot_rows(Mds(__LINE__, tl_emu_ep_)[ty], Nds(__LINE__, tl_emu_ep_), tx); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 41
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 44
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } } else {
#line 44
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } }
#line 44
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
