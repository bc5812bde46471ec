#line 1 "tests/emu/corpus/cpasync_tiled.cu"
/* cp.async double buffering over static __shared__ tiles: each thread copies its element of the next phase's
 * tiles, commits, waits for the current phase's group, then the barrier: no race, right answers. */
#include "corpus.h"
#include <cuda_pipeline.h>
#define T 16
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A3<float, (2), (T), (T)>> Mds(Mds_tl_site_); static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A3<float, (2), (T), (T)>> Nds(Nds_tl_site_); 
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); { ; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 8
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); { ; } } } else {
#line 8
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); { ; } }
#line 8
 }
    int phases = Width / T;
    float  tl_p_Pvalue[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Pvalue = (0);
    __pipeline_memcpy_async(&Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[0][ty][tx], &(tl_emu::gcount(0), Md)[Row * Width + tx], 4);
    __pipeline_memcpy_async(&Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[0][ty][tx], &(tl_emu::gcount(0), Nd)[ty * Width + Col], 4);
    __pipeline_commit(); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 10
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Pvalue = (0);
    __pipeline_memcpy_async(&Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[0][ty][tx], &(tl_emu::gcount(0), Md)[Row * Width + tx], 4);
    __pipeline_memcpy_async(&Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[0][ty][tx], &(tl_emu::gcount(0), Nd)[ty * Width + Col], 4);
    __pipeline_commit(); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 10
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { Pvalue = (0);
    __pipeline_memcpy_async(&Mds(__LINE__, tl_emu_ep_)[0][ty][tx], &(tl_emu::gcount(0), Md)[Row * Width + tx], 4);
    __pipeline_memcpy_async(&Nds(__LINE__, tl_emu_ep_)[0][ty][tx], &(tl_emu::gcount(0), Nd)[ty * Width + Col], 4);
    __pipeline_commit(); } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 13
 }
    for (int ph = 0; ph < phases; ++ph) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { if (ph + 1 < phases) {
            __pipeline_memcpy_async(&Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[(ph + 1) % 2][ty][tx], &(tl_emu::gcount(0), Md)[Row * Width + (ph + 1) * T + tx], 4);
            __pipeline_memcpy_async(&Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[(ph + 1) % 2][ty][tx], &(tl_emu::gcount(0), Nd)[((ph + 1) * T + ty) * Width + Col], 4);
        }
        __pipeline_commit();
        __pipeline_wait_prior(1); } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 15
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { if (ph + 1 < phases) {
            __pipeline_memcpy_async(&Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[(ph + 1) % 2][ty][tx], &(tl_emu::gcount(0), Md)[Row * Width + (ph + 1) * T + tx], 4);
            __pipeline_memcpy_async(&Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[(ph + 1) % 2][ty][tx], &(tl_emu::gcount(0), Nd)[((ph + 1) * T + ty) * Width + Col], 4);
        }
        __pipeline_commit();
        __pipeline_wait_prior(1); } } } else {
#line 15
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { if (ph + 1 < phases) {
            __pipeline_memcpy_async(&Mds(__LINE__, tl_emu_ep_)[(ph + 1) % 2][ty][tx], &(tl_emu::gcount(0), Md)[Row * Width + (ph + 1) * T + tx], 4);
            __pipeline_memcpy_async(&Nds(__LINE__, tl_emu_ep_)[(ph + 1) % 2][ty][tx], &(tl_emu::gcount(0), Nd)[((ph + 1) * T + ty) * Width + Col], 4);
        }
        __pipeline_commit();
        __pipeline_wait_prior(1); } }
#line 20
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < T; ++k) Pvalue += Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ph % 2][ty][k] * Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ph % 2][k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 22
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < T; ++k) Pvalue += Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ph % 2][ty][k] * Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ph % 2][k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; } } else {
#line 22
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { for (int k = 0; k < T; ++k) Pvalue += Mds(__LINE__, tl_emu_ep_)[ph % 2][ty][k] * Nds(__LINE__, tl_emu_ep_)[ph % 2][k][tx]; } *(tl_p_Pvalue + tl_emu_t_) = Pvalue; }
#line 22
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 25
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } } } else {
#line 25
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] int  Row = (blockIdx.y * T + ty); [[maybe_unused]] int  Col = (blockIdx.x * T + tx); [[maybe_unused]] auto Pvalue = *(tl_p_Pvalue + tl_emu_t_); { (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue; } }
#line 25
 }
}
extern "C" int corpus_run(void) {
    return corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dim3(w / T, w / T),  dim3(T, T))(a, b, c, w);
    }, 64);
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: region form
#if 1 && defined(T) && defined(T) && defined(T) && defined(T)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (2) * (T) * (T) + sizeof(float) * (2) * (T) * (T), 1);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 1);
#endif
