#line 1 "tests/emu/corpus/missing_syncwarp.cu"
/* BUG: the last warp sums shared memory as if its lanes ran in lockstep: no __syncwarp() between one
 * lane's write and another lane's read. Volta and later schedule lanes independently. */
#include "corpus.h"
__global__ void BlockSum(const float *x, float *out) {
    static const tl_emu::Site s_tl_site_ = {"s", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (64)>> s(s_tl_site_); 
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  t = (threadIdx.x); { ;
    s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[t] = (tl_emu::gcount(0), x)[blockIdx.x * 64 + t]; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 6
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  t = (threadIdx.x); { ;
    s(__LINE__, tl_emu::Esc{tl_emu_ep_})[t] = (tl_emu::gcount(0), x)[blockIdx.x * 64 + t]; } } } else {
#line 6
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  t = (threadIdx.x); { ;
    s(__LINE__, tl_emu_ep_)[t] = (tl_emu::gcount(0), x)[blockIdx.x * 64 + t]; } }
#line 7
 }
    if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  t = (threadIdx.x); { if (t < 32) {
        s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[t] += s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[t + 32];
        s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[t] += s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[(t + 16) % 32];
        s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[t] += s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[(t + 8) % 32];
        s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[t] += s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[(t + 4) % 32];
        s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[t] += s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[(t + 2) % 32];
        s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[t] += s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[(t + 1) % 32];
        if (t == 0) (tl_emu::gcount(1), out)[blockIdx.x] = s(__LINE__, tl_emu::Plain{&tl_emu_lc_})[0];
    } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 9
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  t = (threadIdx.x); { if (t < 32) {
        s(__LINE__, tl_emu::Esc{tl_emu_ep_})[t] += s(__LINE__, tl_emu::Esc{tl_emu_ep_})[t + 32];
        s(__LINE__, tl_emu::Esc{tl_emu_ep_})[t] += s(__LINE__, tl_emu::Esc{tl_emu_ep_})[(t + 16) % 32];
        s(__LINE__, tl_emu::Esc{tl_emu_ep_})[t] += s(__LINE__, tl_emu::Esc{tl_emu_ep_})[(t + 8) % 32];
        s(__LINE__, tl_emu::Esc{tl_emu_ep_})[t] += s(__LINE__, tl_emu::Esc{tl_emu_ep_})[(t + 4) % 32];
        s(__LINE__, tl_emu::Esc{tl_emu_ep_})[t] += s(__LINE__, tl_emu::Esc{tl_emu_ep_})[(t + 2) % 32];
        s(__LINE__, tl_emu::Esc{tl_emu_ep_})[t] += s(__LINE__, tl_emu::Esc{tl_emu_ep_})[(t + 1) % 32];
        if (t == 0) (tl_emu::gcount(1), out)[blockIdx.x] = s(__LINE__, tl_emu::Esc{tl_emu_ep_})[0];
    } } } } else {
#line 9
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  t = (threadIdx.x); { if (t < 32) {
        s(__LINE__, tl_emu_ep_)[t] += s(__LINE__, tl_emu_ep_)[t + 32];
        s(__LINE__, tl_emu_ep_)[t] += s(__LINE__, tl_emu_ep_)[(t + 16) % 32];
        s(__LINE__, tl_emu_ep_)[t] += s(__LINE__, tl_emu_ep_)[(t + 8) % 32];
        s(__LINE__, tl_emu_ep_)[t] += s(__LINE__, tl_emu_ep_)[(t + 4) % 32];
        s(__LINE__, tl_emu_ep_)[t] += s(__LINE__, tl_emu_ep_)[(t + 2) % 32];
        s(__LINE__, tl_emu_ep_)[t] += s(__LINE__, tl_emu_ep_)[(t + 1) % 32];
        if (t == 0) (tl_emu::gcount(1), out)[blockIdx.x] = s(__LINE__, tl_emu_ep_)[0];
    } } }
#line 17
 }
}
extern "C" int corpus_run(void) {
    float hx[128], r[2];
    corpus_fill(hx, 128, 6);
    float *x, *out;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&out, sizeof r));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    tl_emu_launch(BlockSum, "BlockSum", __FILE__, __LINE__, 2,  64)(x, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < 2; b++) {
        double want = 0, mag = 0;
        for (int i = 0; i < 64; i++) { want += hx[b * 64 + i]; mag += std::fabs(hx[b * 64 + i]); }
        if (!(std::fabs(r[b] - want) <= 1e-5 * mag)) { fprintf(stderr, "WRONG: block %d sum %.7g, expected %.7g\n", b, r[b], want); bad = 1; }
    }
    cudaFree(x); cudaFree(out);
    return bad;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// BlockSum: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_BlockSum_0_(BlockSum, "BlockSum", 0 + sizeof(float) * (64), 1);
#else
static tl_emu::KernelReg tl_emu_reg_BlockSum_0_(BlockSum, "BlockSum", 0, 1);
#endif
