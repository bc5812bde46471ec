#line 1 "tests/emu/corpus/printf_shared.cu"
/* FEATURE: printf in a kernel prints once per thread, with __shared__ elements passed by value. */
#include "corpus.h"
__global__ void Show(int base) {
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (2), (4)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site count_tl_site_ = {"count", __FILE__, __LINE__, "int"}; tl_emu::Shared<tl_emu::A0<int>> count(count_tl_site_); 
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[threadIdx.x / 4][threadIdx.x % 4] = base + threadIdx.x * 0.5f;
    if (threadIdx.x == 0) count(__LINE__, tl_emu::Plain{&tl_emu_lc_}) = 42; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 6
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[threadIdx.x / 4][threadIdx.x % 4] = base + threadIdx.x * 0.5f;
    if (threadIdx.x == 0) count(__LINE__, tl_emu::Esc{tl_emu_ep_}) = 42; } } } else {
#line 6
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { Mds(__LINE__, tl_emu_ep_)[threadIdx.x / 4][threadIdx.x % 4] = base + threadIdx.x * 0.5f;
    if (threadIdx.x == 0) count(__LINE__, tl_emu_ep_) = 42; } }
#line 7
 }
    if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { if (threadIdx.x < 2) printf("thread %d sees %f then %d and %s\n", (int)threadIdx.x, Mds(__LINE__, tl_emu::Plain{&tl_emu_lc_})[0][1], count(__LINE__, tl_emu::Plain{&tl_emu_lc_}), "end"); } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 9
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { if (threadIdx.x < 2) printf("thread %d sees %f then %d and %s\n", (int)threadIdx.x, Mds(__LINE__, tl_emu::Esc{tl_emu_ep_})[0][1], count(__LINE__, tl_emu::Esc{tl_emu_ep_}), "end"); } } } else {
#line 9
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { if (threadIdx.x < 2) printf("thread %d sees %f then %d and %s\n", (int)threadIdx.x, Mds(__LINE__, tl_emu_ep_)[0][1], count(__LINE__, tl_emu_ep_), "end"); } }
#line 9
 }
}
extern "C" int corpus_run(void) {
    tl_emu_launch(Show, "Show", __FILE__, __LINE__, 1,  8)(10);
    CHECK(cudaDeviceSynchronize());
    fflush(stdout);
    return 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Show: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_Show_0_(Show, "Show", 0 + sizeof(float) * (2) * (4) + sizeof(int), 1);
#else
static tl_emu::KernelReg tl_emu_reg_Show_0_(Show, "Show", 0, 1);
#endif
