#line 1 "tests/emu/corpus/helper_tiles.cu"
/* FEATURE: __shared__ tiles that leave the checked views and come back, as real kernels write them (issue 25):
 * filled by __device__ helpers taking an array parameter, a pointer to rows, a reference to an array (of a row, a
 * stage) and one stage of a 3-D array, an
 * extern __shared__ buffer cast to a pointer to rows, a float4 stored through &Tile[r][c], the product read by
 * a helper through a row pointer. Right answers, and no "read of __shared__ memory never written" or race. */
#include "corpus.h"
#define T 16
__device__ void load_m(float tile[][T], const float *Md, int row, int col0, int w) {
    tile[threadIdx.y][threadIdx.x] = Md[row * w + col0 + threadIdx.x];
}
__device__ void load_n(float (*tile)[T], const float *Nd, int row0, int col, int w) {
    tile[threadIdx.y][threadIdx.x] = Nd[(row0 + threadIdx.y) * w + col];
}
__device__ void load_ref(float (&tile)[T][T], const float *src, int w) {
    tile[threadIdx.y][threadIdx.x] = src[threadIdx.y * w + threadIdx.x];
}
__device__ float dot_ref(const float (&mrow)[T], const float (&ntile)[T][T], int tx) {
    float s = 0;
    for (int k = 0; k < T; ++k) s += mrow[k] * ntile[k][tx];
    return s;
}
__device__ float dot_row(const float *mrow, float (*ntile)[T], int tx) {
    float s = 0;
    for (int k = 0; k < T; ++k) s += mrow[k] * ntile[k][tx];
    return s;
}
/* both tiles through helpers (array parameter, pointer to rows); the product through a row pointer */
__global__ void Helpers(float *Md, float *Nd, float *Pd, int w) {
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (T), (T)>> Mds(Mds_tl_site_); static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (T), (T)>> Nds(Nds_tl_site_); 
    int  tl_p_tx[tl_emu::MAX_THREADS]; int  tl_p_row[tl_emu::MAX_THREADS]; int  tl_p_col[tl_emu::MAX_THREADS]; float  tl_p_p[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { tx = (threadIdx.x), row = (blockIdx.y * T + ty), col = (blockIdx.x * T + tx);
    p = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; *(tl_p_p + tl_emu_t_) = p; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 30
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { tx = (threadIdx.x), row = (blockIdx.y * T + ty), col = (blockIdx.x * T + tx);
    p = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; *(tl_p_p + tl_emu_t_) = p; } } else {
#line 30
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { tx = (threadIdx.x), row = (blockIdx.y * T + ty), col = (blockIdx.x * T + tx);
    p = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; *(tl_p_p + tl_emu_t_) = p; }
#line 31
 }
    for (int ph = 0; ph < w / T; ++ph) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { load_m(Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_}), Md, row, ph * T, w);
        load_n(Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_}), Nd, ph * T, col, w); } *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 33
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { load_m(Mds(__LINE__, tl_emu::Esc{tl_emu_ep_}), Md, row, ph * T, w);
        load_n(Nds(__LINE__, tl_emu::Esc{tl_emu_ep_}), Nd, ph * T, col, w); } *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; } } else {
#line 33
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { load_m(Mds(__LINE__, tl_emu_ep_), Md, row, ph * T, w);
        load_n(Nds(__LINE__, tl_emu_ep_), Nd, ph * T, col, w); } *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; }
#line 34
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { p += dot_row(Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty], Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_}), tx); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_p + tl_emu_t_) = p; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 36
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { p += dot_row(Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty], Nds(__LINE__, tl_emu::Esc{tl_emu_ep_}), tx); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_p + tl_emu_t_) = p; } } else {
#line 36
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { p += dot_row(Mds(__LINE__, tl_emu_ep_)[ty], Nds(__LINE__, tl_emu_ep_), tx); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_p + tl_emu_t_) = p; }
#line 36
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { (tl_emu::gcount(1), Pd)[row * w + col] = p; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 39
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { (tl_emu::gcount(1), Pd)[row * w + col] = p; } } } else {
#line 39
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { (tl_emu::gcount(1), Pd)[row * w + col] = p; } }
#line 39
 }
}
/* double buffering in one 3-D array: each stage passed on as a 2-D array; one barrier a phase */
__global__ void Stages(float *Md, float *Nd, float *Pd, int w) {
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A3<float, (2), (T), (T)>> Mds(Mds_tl_site_); static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A3<float, (2), (T), (T)>> Nds(Nds_tl_site_); 
    int  tl_p_row[tl_emu::MAX_THREADS]; int  tl_p_col[tl_emu::MAX_THREADS]; float  tl_p_p[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { row = (blockIdx.y * T + ty), col = (blockIdx.x * T + tx);
    p = (0); } *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; *(tl_p_p + tl_emu_t_) = p; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 44
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { row = (blockIdx.y * T + ty), col = (blockIdx.x * T + tx);
    p = (0); } *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; *(tl_p_p + tl_emu_t_) = p; } } else {
#line 44
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { row = (blockIdx.y * T + ty), col = (blockIdx.x * T + tx);
    p = (0); } *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; *(tl_p_p + tl_emu_t_) = p; }
#line 45
 }
    for (int ph = 0; ph < w / T; ++ph) {
        int s = ph % 2;
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { load_m(Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[s], Md, row, ph * T, w);
        load_n(Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[s], Nd, ph * T, col, w); } *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 48
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { load_m(Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[s], Md, row, ph * T, w);
        load_n(Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[s], Nd, ph * T, col, w); } *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; } } else {
#line 48
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { load_m(Mds(__LINE__, tl_emu_ep_)[s], Md, row, ph * T, w);
        load_n(Nds(__LINE__, tl_emu_ep_)[s], Nd, ph * T, col, w); } *(tl_p_row + tl_emu_t_) = row; *(tl_p_col + tl_emu_t_) = col; }
#line 49
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { for (int k = 0; k < T; ++k) p += Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[s][ty][k] * Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[s][k][tx]; } *(tl_p_p + tl_emu_t_) = p; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 51
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { for (int k = 0; k < T; ++k) p += Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[s][ty][k] * Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[s][k][tx]; } *(tl_p_p + tl_emu_t_) = p; } } else {
#line 51
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { for (int k = 0; k < T; ++k) p += Mds(__LINE__, tl_emu_ep_)[s][ty][k] * Nds(__LINE__, tl_emu_ep_)[s][k][tx]; } *(tl_p_p + tl_emu_t_) = p; }
#line 51
 }
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { (tl_emu::gcount(1), Pd)[row * w + col] = p; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 53
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { (tl_emu::gcount(1), Pd)[row * w + col] = p; } } } else {
#line 53
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tx = (threadIdx.x); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row = *(tl_p_row + tl_emu_t_); [[maybe_unused]] auto col = *(tl_p_col + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { (tl_emu::gcount(1), Pd)[row * w + col] = p; } }
#line 53
 }
}
/* references to arrays: a whole tile, a stage of a 3-D array, a row */
__global__ void Refs(float *Md, float *Nd, float *Pd, int w) {
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (T), (T)>> Mds(Mds_tl_site_); static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A3<float, (2), (T), (T)>> Nds(Nds_tl_site_); 
    int  tl_p_tx[tl_emu::MAX_THREADS]; int  tl_p_row0[tl_emu::MAX_THREADS]; int  tl_p_col0[tl_emu::MAX_THREADS]; float  tl_p_p[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { tx = (threadIdx.x), row0 = (blockIdx.y * T), col0 = (blockIdx.x * T);
    p = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_row0 + tl_emu_t_) = row0; *(tl_p_col0 + tl_emu_t_) = col0; *(tl_p_p + tl_emu_t_) = p; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 58
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { tx = (threadIdx.x), row0 = (blockIdx.y * T), col0 = (blockIdx.x * T);
    p = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_row0 + tl_emu_t_) = row0; *(tl_p_col0 + tl_emu_t_) = col0; *(tl_p_p + tl_emu_t_) = p; } } else {
#line 58
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { tx = (threadIdx.x), row0 = (blockIdx.y * T), col0 = (blockIdx.x * T);
    p = (0); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_row0 + tl_emu_t_) = row0; *(tl_p_col0 + tl_emu_t_) = col0; *(tl_p_p + tl_emu_t_) = p; }
#line 59
 }
    for (int ph = 0; ph < w / T; ++ph) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { load_ref(Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_}), Md + row0 * w + ph * T, w);
        load_ref(Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ph % 2], Nd + ph * T * w + col0, w); } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 61
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { load_ref(Mds(__LINE__, tl_emu::Esc{tl_emu_ep_}), Md + row0 * w + ph * T, w);
        load_ref(Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ph % 2], Nd + ph * T * w + col0, w); } } } else {
#line 61
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { load_ref(Mds(__LINE__, tl_emu_ep_), Md + row0 * w + ph * T, w);
        load_ref(Nds(__LINE__, tl_emu_ep_)[ph % 2], Nd + ph * T * w + col0, w); } }
#line 62
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { p += dot_ref(Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ty], Nds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[ph % 2], tx); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_p + tl_emu_t_) = p; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 64
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { p += dot_ref(Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ty], Nds(__LINE__, tl_emu::Esc{tl_emu_ep_})[ph % 2], tx); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_p + tl_emu_t_) = p; } } else {
#line 64
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { p += dot_ref(Mds(__LINE__, tl_emu_ep_)[ty], Nds(__LINE__, tl_emu_ep_)[ph % 2], tx); } *(tl_p_tx + tl_emu_t_) = tx; *(tl_p_p + tl_emu_t_) = p; }
#line 64
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { (tl_emu::gcount(1), Pd)[(row0 + ty) * w + col0 + tx] = p; } *(tl_p_row0 + tl_emu_t_) = row0; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 67
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { (tl_emu::gcount(1), Pd)[(row0 + ty) * w + col0 + tx] = p; } *(tl_p_row0 + tl_emu_t_) = row0; } } else {
#line 67
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] auto tx = *(tl_p_tx + tl_emu_t_); [[maybe_unused]] int  ty = (threadIdx.y); [[maybe_unused]] auto row0 = *(tl_p_row0 + tl_emu_t_); [[maybe_unused]] auto col0 = *(tl_p_col0 + tl_emu_t_); [[maybe_unused]] auto p = *(tl_p_p + tl_emu_t_); { (tl_emu::gcount(1), Pd)[(row0 + ty) * w + col0 + tx] = p; } *(tl_p_row0 + tl_emu_t_) = row0; }
#line 67
 }
}
/* extern __shared__ cast to pointers to rows; M's tile stored as float4 through &Mds[ty][4 * tx] */
__global__ void Casts(float *Md, float *Nd, float *Pd, int w) {
    static const tl_emu::Site smem_tl_site_ = {"smem", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::ADyn<float>> smem(smem_tl_site_); 
    float (*Mds)[T] = (float (*)[T])&*smem(__LINE__);
    float (*Nds)[T] = (float (*)[T])(&*smem(__LINE__) + T * T);
    static const tl_emu::Site Mv_tl_site_ = {"Mv", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (T), (T)>> Mv(Mv_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float p = 0;
    for (int ph = 0; ph < w / T; ++ph) {
        if (tx < T / 4) {
            const float *m = Md + row * w + ph * T + 4 * tx;
            *reinterpret_cast<float4 *>(&Mv(__LINE__)[ty][4 * tx]) = make_float4((tl_emu::gcount(0), m)[0], (tl_emu::gcount(0), m)[1], (tl_emu::gcount(0), m)[2], (tl_emu::gcount(0), m)[3]);
        }
        Mds[ty][tx] = (tl_emu::gcount(0), Md)[row * w + ph * T + tx];
        Nds[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * T + ty) * w + col];
        __syncthreads();
        for (int k = 0; k < T; ++k) p += 0.5f * (Mds[ty][k] + Mv(__LINE__)[ty][k]) * Nds[k][tx];
        __syncthreads();
    }
    (tl_emu::gcount(1), Pd)[row * w + col] = p;
}
extern "C" int corpus_run(void) {
    int bad = corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(Helpers, "Helpers", __FILE__, __LINE__, dim3(w / T, w / T),  dim3(T, T))(a, b, c, w);
    }, 64);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(Stages, "Stages", __FILE__, __LINE__, dim3(w / T, w / T),  dim3(T, T))(a, b, c, w);
    }, 64);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(Refs, "Refs", __FILE__, __LINE__, dim3(w / T, w / T),  dim3(T, T))(a, b, c, w);
    }, 64);
    bad |= corpus_gemm([](float *a, float *b, float *c, int w) {
        tl_emu_launch(Casts, "Casts", __FILE__, __LINE__, dim3(w / T, w / T),  dim3(T, T),  2 * T * T * sizeof(float))(a, b, c, w);
    }, 64);
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Helpers: region form
#if 1 && defined(T) && defined(T) && defined(T) && defined(T)
static tl_emu::KernelReg tl_emu_reg_Helpers_0_(Helpers, "Helpers", 0 + sizeof(float) * (T) * (T) + sizeof(float) * (T) * (T), 1);
#else
static tl_emu::KernelReg tl_emu_reg_Helpers_0_(Helpers, "Helpers", 0, 1);
#endif
// Stages: region form
#if 1 && defined(T) && defined(T) && defined(T) && defined(T)
static tl_emu::KernelReg tl_emu_reg_Stages_1_(Stages, "Stages", 0 + sizeof(float) * (2) * (T) * (T) + sizeof(float) * (2) * (T) * (T), 1);
#else
static tl_emu::KernelReg tl_emu_reg_Stages_1_(Stages, "Stages", 0, 1);
#endif
// Refs: region form
#if 1 && defined(T) && defined(T) && defined(T) && defined(T)
static tl_emu::KernelReg tl_emu_reg_Refs_2_(Refs, "Refs", 0 + sizeof(float) * (T) * (T) + sizeof(float) * (2) * (T) * (T), 1);
#else
static tl_emu::KernelReg tl_emu_reg_Refs_2_(Refs, "Refs", 0, 1);
#endif
// Casts: fibers (a local initialised with () or {})
#if 1 && defined(T) && defined(T)
static tl_emu::KernelReg tl_emu_reg_Casts_3_(Casts, "Casts", 0 + sizeof(float) * (T) * (T), 0);
#else
static tl_emu::KernelReg tl_emu_reg_Casts_3_(Casts, "Casts", 0, 0);
#endif
