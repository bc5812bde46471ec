#line 1 "tests/corpus/04-wrong-acc-uninit-tail.cu"
/* 04-wrong-acc-uninit-tail.cu: corpus, lab 04, wrong: the interior/tail kernel of
 * 04-right-interior-fastpath.cu whose accumulator is set to 0 only in interior blocks (`float acc;
 * if (inside) acc = 0.0f;`): the tail blocks add to an uninitialised register. */
#include <stddef.h>

#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

const int TS = TILE_WIDTH;
const int NT = TILE_WIDTH * TILE_WIDTH;

__global__ void __launch_bounds__(NT) mm_tail(const float *__restrict__ A, const float *__restrict__ B,
                                              float *__restrict__ C, const int m, const int k, const int n)
{
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TS), (TS + 1)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TS), (TS)>> Bs(Bs_tl_site_); 
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); { ;
    ; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 21
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); { ;
    ; } } } else {
#line 21
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); { ;
    ; } }
#line 22
 }
    const bool inside = (blockIdx.y + 1) * TS <= m && (blockIdx.x + 1) * TS <= n && k % TS == 0;
    float  tl_p_acc[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { acc = (tl_emu::uninit_f(__LINE__));   /* BUG: set to 0 only in interior blocks (below) */
    if (inside)
        acc = 0.0f; } *(tl_p_acc + tl_emu_t_) = acc; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { acc = (tl_emu::uninit_f(__LINE__));   /* BUG: set to 0 only in interior blocks (below) */
    if (inside)
        acc = 0.0f; } *(tl_p_acc + tl_emu_t_) = acc; } } else {
#line 24
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { acc = (tl_emu::uninit_f(__LINE__));   /* BUG: set to 0 only in interior blocks (below) */
    if (inside)
        acc = 0.0f; } *(tl_p_acc + tl_emu_t_) = acc; }
#line 26
 }
    for (int t = 0; t < k; t += TS) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { if (inside) {
            As(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), A)[(size_t)row * k + t + tx];
            Bs(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (tl_emu::gcount(0), B)[(size_t)(t + ty) * n + col];
        } else {
            As(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (row < m && t + tx < k) ? (tl_emu::gcount(0), A)[(size_t)row * k + t + tx] : 0.0f;
            Bs(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty][tx] = (t + ty < k && col < n) ? (tl_emu::gcount(0), B)[(size_t)(t + ty) * n + col] : 0.0f;
        } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 28
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { if (inside) {
            As(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), A)[(size_t)row * k + t + tx];
            Bs(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (tl_emu::gcount(0), B)[(size_t)(t + ty) * n + col];
        } else {
            As(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (row < m && t + tx < k) ? (tl_emu::gcount(0), A)[(size_t)row * k + t + tx] : 0.0f;
            Bs(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][tx] = (t + ty < k && col < n) ? (tl_emu::gcount(0), B)[(size_t)(t + ty) * n + col] : 0.0f;
        } } } } else {
#line 28
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { if (inside) {
            As(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), A)[(size_t)row * k + t + tx];
            Bs(__LINE__, tl_emu_ep_)[ty][tx] = (tl_emu::gcount(0), B)[(size_t)(t + ty) * n + col];
        } else {
            As(__LINE__, tl_emu_ep_)[ty][tx] = (row < m && t + tx < k) ? (tl_emu::gcount(0), A)[(size_t)row * k + t + tx] : 0.0f;
            Bs(__LINE__, tl_emu_ep_)[ty][tx] = (t + ty < k && col < n) ? (tl_emu::gcount(0), B)[(size_t)(t + ty) * n + col] : 0.0f;
        } } }
#line 34
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
/* #pragma unroll */
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { for (int i = 0; i < TS; ++i)
            acc += As(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[ty][i] * Bs(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[i][tx]; } *(tl_p_acc + tl_emu_t_) = acc; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 37
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { for (int i = 0; i < TS; ++i)
            acc += As(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty][i] * Bs(__LINE__, tl_emu::Esc{tl_emu_ep_})[i][tx]; } *(tl_p_acc + tl_emu_t_) = acc; } } else {
#line 37
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { for (int i = 0; i < TS; ++i)
            acc += As(__LINE__, tl_emu_ep_)[ty][i] * Bs(__LINE__, tl_emu_ep_)[i][tx]; } *(tl_p_acc + tl_emu_t_) = acc; }
#line 38
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { if (inside)
        (tl_emu::gcount(1), C)[(size_t)row * n + col] = acc;
    else if (row < m && col < n)
        (tl_emu::gcount(1), C)[(size_t)row * n + col] = acc; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 41
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { if (inside)
        (tl_emu::gcount(1), C)[(size_t)row * n + col] = acc;
    else if (row < m && col < n)
        (tl_emu::gcount(1), C)[(size_t)row * n + col] = acc; } } } else {
#line 41
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  ty = (threadIdx.x / TS); [[maybe_unused]] int  tx = (threadIdx.x % TS); [[maybe_unused]] int  row = (blockIdx.y * TS + ty); [[maybe_unused]] int  col = (blockIdx.x * TS + tx); [[maybe_unused]] auto acc = *(tl_p_acc + tl_emu_t_); { if (inside)
        (tl_emu::gcount(1), C)[(size_t)row * n + col] = acc;
    else if (row < m && col < n)
        (tl_emu::gcount(1), C)[(size_t)row * n + col] = acc; } }
#line 44
 }
}

extern "C" int launch_rect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    tl_emu_launch(mm_tail, "mm_tail", __FILE__, __LINE__, dim3((n + TS - 1) / TS, (m + TS - 1) / TS),  dim3(NT))(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}

extern "C" int launch_boundary(float *Md, float *Nd, float *Pd, int Width)
{
    return launch_rect(Md, Nd, Pd, Width, Width, Width);
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// mm_tail: region form
#if 1 && defined(TS) && defined(TS) && defined(TS) && defined(TS)
static tl_emu::KernelReg tl_emu_reg_mm_tail_0_(mm_tail, "mm_tail", 0 + sizeof(float) * (TS) * (TS + 1) + sizeof(float) * (TS) * (TS), 1);
#else
static tl_emu::KernelReg tl_emu_reg_mm_tail_0_(mm_tail, "mm_tail", 0, 1);
#endif
