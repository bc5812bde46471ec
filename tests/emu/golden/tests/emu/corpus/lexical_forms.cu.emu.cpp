#line 1 "tests/emu/corpus/lexical_forms.cu"
/* FEATURE: what the front end's one lexer (common/emu/tl-lex.c) reads as C++ does: this file starts
 * with a UTF-8 byte-order mark; raw strings holding quotes, a launch and a __shared__ name; C++14
 * digit separators; a number whose suffix spells a __shared__ name (1.0f with a tile named f); a
 * comment spanning lines inside a #define; a directive after a comment; a name split by a
 * continuation. Before tl-lex the rewrite died at the separator ("unterminated character literal"). */
#include "corpus.h"
#include <cstring>
#define TILE 1'6 /* the tile's width: a
                    comment that goes on inside the macro (it isn't code: the quote is no literal) */
/* a comment before a directive */ #define SCALE 1.0f
__global__ void Tiled(const float *Md, const float *Nd, float *Pd, int Width) {
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE), (TILE)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site f_tl_site_ = {"f", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE), (TILE)>> f(f_tl_site_); 
    const char *note = R"doc(Mds[0] "<<<" f[1] )" still in the string )doc";
    float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    Pvalue = (0 * 1'000.0f + (note[0] == 'M' ? 0.0f : 1.0f)); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 15
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    Pvalue = (0 * 1'000.0f + (note[0] == 'M' ? 0.0f : 1.0f)); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 15
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { ;
    Pvalue = (0 * 1'000.0f + (note[0] == 'M' ? 0.0f : 1.0f)); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 16
 }
    for (int ph = 0; ph < Width / TILE; ++ph) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE + tx];
        f(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE + ty) * Width + Col] * SCALE; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 18
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE + tx];
        f(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE + ty) * Width + Col] * SCALE; } } } else {
#line 18
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Mds(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE + tx];
        f(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE + ty) * Width + Col] * SCALE; } }
#line 19
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE; ++k) Pvalue += Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ty][k] * f(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[k][tx] * 1.0f; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 21
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE; ++k) Pvalue += Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][k] * f(__LINE__, tl_emu::Esc{tl_emu_ep_})[k][tx] * 1.0f; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 21
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < TILE; ++k) Pvalue += Mds(__LINE__, tl_emu_ep_)[ty][k] * f(__LINE__, tl_emu_ep_)[k][tx] * 1.0f; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 21
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pv\
alue; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pv\
alue; } } } else {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * TILE + ty); [[maybe_unused]] int  Col = (blockIdx.x * TILE + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pv\
alue; } }
#line 25
 }
}
extern "C" int corpus_run(void) {
    const char *doc = R"(a raw string with "quotes" and // no comment)";
    if (strlen(doc) != 44) { fprintf(stderr, "the raw string changed: %zu\n", strlen(doc)); return 1; }
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(Tiled, "Tiled", __FILE__, __LINE__, dim3(w / TILE, w / TILE),  dim3(TILE, TILE))(a, b, c, w);
    }, 64'0 / 10);
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Tiled: region form
#if 1 && defined(TILE) && defined(TILE) && defined(TILE) && defined(TILE)
static tl_emu::KernelReg tl_emu_reg_Tiled_0_(Tiled, "Tiled", 0 + sizeof(float) * (TILE) * (TILE) + sizeof(float) * (TILE) * (TILE), 1);
#else
static tl_emu::KernelReg tl_emu_reg_Tiled_0_(Tiled, "Tiled", 0, 1);
#endif
