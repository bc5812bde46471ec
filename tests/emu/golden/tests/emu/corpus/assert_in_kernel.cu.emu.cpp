#line 1 "tests/emu/corpus/assert_in_kernel.cu"
/* BUG: an assert that fails in one thread: the report names the thread and block. */
#include <cassert>
#include "corpus.h"
__global__ void Check(int *out) {
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { assert(threadIdx.x != 5);
    (tl_emu::gcount(1), out)[threadIdx.x] = 1; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 5
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { assert(threadIdx.x != 5);
    (tl_emu::gcount(1), out)[threadIdx.x] = 1; } } } else {
#line 5
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { assert(threadIdx.x != 5);
    (tl_emu::gcount(1), out)[threadIdx.x] = 1; } }
#line 6
 }
}
extern "C" int corpus_run(void) {
    int *d;
    CHECK(cudaMalloc(&d, 32 * sizeof(int)));
    tl_emu_launch(Check, "Check", __FILE__, __LINE__, 1,  32)(d);
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "sync: %s\n", cudaGetErrorName(e));
    return e != cudaSuccess;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// Check: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_Check_0_(Check, "Check", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_Check_0_(Check, "Check", 0, 1);
#endif
