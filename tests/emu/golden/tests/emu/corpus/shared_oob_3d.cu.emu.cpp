#line 1 "tests/emu/corpus/shared_oob_3d.cu"
/* BUG: an index one past the last dimension of a 3-D __shared__ array. */
#include "corpus.h"
__global__ void Cube(float *out) {
    static const tl_emu::Site cube_tl_site_ = {"cube", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A3<float, (2), (4), (8)>> cube(cube_tl_site_); 
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { cube(__LINE__, tl_emu::Plain{&tl_emu_lc_})[threadIdx.x / 32][threadIdx.x / 8 % 4][threadIdx.x % 8 + 1] = 1.0f; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 5
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { cube(__LINE__, tl_emu::Esc{tl_emu_ep_})[threadIdx.x / 32][threadIdx.x / 8 % 4][threadIdx.x % 8 + 1] = 1.0f; } } } else {
#line 5
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { cube(__LINE__, tl_emu_ep_)[threadIdx.x / 32][threadIdx.x / 8 % 4][threadIdx.x % 8 + 1] = 1.0f; } }
#line 5
 }
    if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (tl_emu::gcount(1), out)[threadIdx.x] = cube(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[threadIdx.x / 32][threadIdx.x / 8 % 4][threadIdx.x % 8]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 7
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (tl_emu::gcount(1), out)[threadIdx.x] = cube(__LINE__, tl_emu::Esc{tl_emu_ep_})[threadIdx.x / 32][threadIdx.x / 8 % 4][threadIdx.x % 8]; } } } else {
#line 7
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { (tl_emu::gcount(1), out)[threadIdx.x] = cube(__LINE__, tl_emu_ep_)[threadIdx.x / 32][threadIdx.x / 8 % 4][threadIdx.x % 8]; } }
#line 7
 }
}
extern "C" int corpus_run(void) {
    float *d;
    CHECK(cudaMalloc(&d, 64 * sizeof(float)));
    tl_emu_launch(Cube, "Cube", __FILE__, __LINE__, 1,  64)(d);
    return cudaDeviceSynchronize() != cudaSuccess;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Cube: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_Cube_0_(Cube, "Cube", 0 + sizeof(float) * (2) * (4) * (8), 1);
#else
static tl_emu::KernelReg tl_emu_reg_Cube_0_(Cube, "Cube", 0, 1);
#endif
