#line 1 "common/marker.cu"
/* marker.cu: the request marker, a kernel of the kit's that the --serve loop (driverserve.c)
 * launches at the start of each GPU request, before the student's launcher runs.
 *
 * Theory of operation. The grader profiles a submission's variants in ONE session under ONE ncu
 * (grader/counters.c, issue 29): ncu's table then holds the kernels of every request, one row per
 * launch, in launch order. The marker's rows split it: request seq starts with the marker launched
 * with seq blocks of one thread, so its row reads "tl_request_marker_kernel(int)" with Grid Size
 * "(seq, 1, 1)"; the rows after it, up to the next marker, are that request's. grader/ncu.c
 * (tg_ncu_split) accepts a table only with exactly one marker per request, in order, and no kernel
 * before the first; anything else and the grader profiles each variant in a session of its own.
 * The student's object can neither define this kernel (a kit name: the object gate refuses it) nor
 * reference it (not on any lab's kit-call list), so a row of this name comes from the kit's code.
 * Outside a profiled session it costs one empty launch per request, before anything is timed.
 * Built only into the GPU harness (not the emulated one: there it would be a launch the emulator
 * counts). */
#include <cuda_runtime.h>

#include "tilelab.h"

__global__ void tl_request_marker_kernel(int seq)
{
    if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)seq; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 22
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); { (void)seq; } } } else {
#line 22
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { { (void)seq; } }
#line 22
 }   /* the request's number is the grid's width (ncu's Grid Size column) */
}

extern "C" void tl_gpu_mark_request(int seq)
{
    if (seq < 1)
        return;
    tl_emu_launch(tl_request_marker_kernel, "tl_request_marker_kernel", __FILE__, __LINE__, seq,  1)(seq);
    (void)cudaGetLastError();   /* a failed launch is the kit's, never seen by the student's launch check */
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// tl_request_marker_kernel: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_tl_request_marker_kernel_0_(tl_request_marker_kernel, "tl_request_marker_kernel", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_tl_request_marker_kernel_0_(tl_request_marker_kernel, "tl_request_marker_kernel", 0, 1);
#endif
