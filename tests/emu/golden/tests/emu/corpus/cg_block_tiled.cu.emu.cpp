#line 1 "tests/emu/corpus/cg_block_tiled.cu"
/* FEATURE: the lecture's tiled matrix multiplication written with cooperative groups: the block from
 * cg::this_thread_block(), its thread_index() and group_index(), barriers as block.sync() and
 * cg::sync(block). */
#include "corpus.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define TILE_WIDTH 16
__global__ void MatrixMulKernel(const float *Md, const float *Nd, float *Pd, int Width) {
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    int  tl_p_tx[tl_emu::MAX_THREADS]; int  tl_p_ty[tl_emu::MAX_THREADS]; int  tl_p_Row[tl_emu::MAX_THREADS]; int  tl_p_Col[tl_emu::MAX_THREADS]; float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { cg::thread_block block [[maybe_unused]] = ::cooperative_groups::thread_block();
    tx = (::cooperative_groups::thread_block().thread_index().x), ty = (::cooperative_groups::thread_block().thread_index().y);
    Row = (::cooperative_groups::thread_block().group_index().y * TILE_WIDTH + ty);
    Col = (::cooperative_groups::thread_block().group_index().x * TILE_WIDTH + tx);
    Pvalue = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_ty + tl_emu_t_) = ty; *(tl_p_Row + tl_emu_t_) = Row; *(tl_p_Col + tl_emu_t_) = Col; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 11
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { cg::thread_block block [[maybe_unused]] = ::cooperative_groups::thread_block();
    tx = (::cooperative_groups::thread_block().thread_index().x), ty = (::cooperative_groups::thread_block().thread_index().y);
    Row = (::cooperative_groups::thread_block().group_index().y * TILE_WIDTH + ty);
    Col = (::cooperative_groups::thread_block().group_index().x * TILE_WIDTH + tx);
    Pvalue = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_ty + tl_emu_t_) = ty; *(tl_p_Row + tl_emu_t_) = Row; *(tl_p_Col + tl_emu_t_) = Col; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 11
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { cg::thread_block block [[maybe_unused]] = ::cooperative_groups::thread_block();
    tx = (::cooperative_groups::thread_block().thread_index().x), ty = (::cooperative_groups::thread_block().thread_index().y);
    Row = (::cooperative_groups::thread_block().group_index().y * TILE_WIDTH + ty);
    Col = (::cooperative_groups::thread_block().group_index().x * TILE_WIDTH + tx);
    Pvalue = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_ty + tl_emu_t_) = ty; *(tl_p_Row + tl_emu_t_) = Row; *(tl_p_Col + tl_emu_t_) = Col; *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 15
 }
    for (int ph = 0; ph < (Width + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = Row < Width && ph * TILE_WIDTH + tx < Width ? (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx] : 0.0f;
        Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = Col < Width && ph * TILE_WIDTH + ty < Width ? (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col] : 0.0f; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 17
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = Row < Width && ph * TILE_WIDTH + tx < Width ? (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx] : 0.0f;
        Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = Col < Width && ph * TILE_WIDTH + ty < Width ? (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col] : 0.0f; } } } else {
#line 17
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu_ep_)[ty][tx] = Row < Width && ph * TILE_WIDTH + tx < Width ? (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx] : 0.0f;
        Nds(__LINE__, tl_emu_ep_)[ty][tx] = Col < Width && ph * TILE_WIDTH + ty < Width ? (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col] : 0.0f; } }
#line 18
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ty][k] * Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 20
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][k] * Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 20
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds(__LINE__, tl_emu_ep_)[ty][k] * Nds(__LINE__, tl_emu_ep_)[k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 20
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { if (Row < Width && Col < Width) (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } *(tl_p_Row + tl_emu_t_) = Row; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 23
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { if (Row < Width && Col < Width) (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } *(tl_p_Row + tl_emu_t_) = Row; } } else {
#line 23
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] auto ty = *(tl_p_ty + tl_emu_t_); [[maybe_unused]] auto Row = *(tl_p_Row + tl_emu_t_); [[maybe_unused]] auto Col = *(tl_p_Col + tl_emu_t_); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { if (Row < Width && Col < Width) (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } *(tl_p_Row + tl_emu_t_) = Row; }
#line 23
 }
}
extern "C" int corpus_run(void) {
    int bad = 0;
    for (int w : {16, 50}) {
        bad |= corpus_gemm([](float *M, float *N, float *P, int w) {
            dim3 block(TILE_WIDTH, TILE_WIDTH), grid((w + TILE_WIDTH - 1) / TILE_WIDTH, (w + TILE_WIDTH - 1) / TILE_WIDTH);
            tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, grid,  block)(M, N, P, w);
        }, w);
    }
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
