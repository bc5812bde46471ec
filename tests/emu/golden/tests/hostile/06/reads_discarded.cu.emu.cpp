#line 1 "tests/hostile/06/reads_discarded.cu"
/* hostile/06/reads_discarded.cu (issue 24 item 3, red team): step (b)'s kernel in every access it
 * makes (a 128 x 128 block tile, phases of 8 staged in shared memory, each thread reading 8 values of
 * M's tile and 8 of N's into registers per step, 0.25 shared loads per multiply-add) whose register
 * values are summed into a sink and thrown away: the outputs are copied from a product computed on
 * the host, which read M and N back from the device. Every count the emulator keeps looks like the
 * lab's kernel. Expected: no correctness credit (the launcher read the device's M and N back, then
 * copied to the device and launched: the guarded device's host round trips, 'P was computed on the
 * host'; tests/hostile/expected.txt). */
#include <stdlib.h>
#include "cuda_check.h"
#include "lab.h"

#define BM 128
#define BN 128
#define BK 8

/* The product on the host, put on the device: every launcher's first step. */
static float *host_product(const float *Md, const float *Nd, int m, int k, int n)
{
    float *M = (float *)malloc((size_t)m * k * sizeof(float)), *N = (float *)malloc((size_t)k * n * sizeof(float)),
          *P = (float *)malloc((size_t)m * n * sizeof(float)), *A = NULL;
    cudaMemcpy(M, Md, (size_t)m * k * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(N, Nd, (size_t)k * n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 0;
            for (int q = 0; q < k; ++q)
                s += M[(size_t)i * k + q] * N[(size_t)q * n + j];
            P[(size_t)i * n + j] = s;
        }
    cudaMalloc((void **)&A, (size_t)m * n * sizeof(float));
    cudaMemcpy(A, P, (size_t)m * n * sizeof(float), cudaMemcpyHostToDevice);
    free(M);
    free(N);
    free(P);
    return A;
}

__global__ void __launch_bounds__(256) RegTileKernel(const float *Md, const float *Nd, const float *A, float *Pd,
                                                     int m, int k, int n)
{
    static const tl_emu::Site Ms_tl_site_ = {"Ms", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (BK), (BM)>> Ms(Ms_tl_site_); 
    static const tl_emu::Site Ns_tl_site_ = {"Ns", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (BK), (BN)>> Ns(Ns_tl_site_); 
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); { ; } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 44
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); { ; } } } else {
#line 44
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); { ; } }
#line 44
 }
    int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
    float  tl_p_sink[tl_emu::MAX_THREADS]; if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { sink = (0); } *(tl_p_sink + tl_emu_t_) = sink; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 46
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { sink = (0); } *(tl_p_sink + tl_emu_t_) = sink; } } else {
#line 46
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { sink = (0); } *(tl_p_sink + tl_emu_t_) = sink; }
#line 46
 }
    for (int p = 0; p < (k + BK - 1) / BK; ++p) {
        if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { for (int e = tid; e < BK * BM; e += 256) {   /* M's tile (transposed) and N's tile, guarded */
            int r = e / BK, c = e % BK, gr = rowBase + r, gc = p * BK + c;
            Ms(__LINE__, tl_emu::Plain{&tl_emu_lc_})[c][r] = gr < m && gc < k ? (tl_emu::gcount(0), Md)[(size_t)gr * k + gc] : 0.0f;
            int nr = e / BN, nc = e % BN, gnr = p * BK + nr, gnc = colBase + nc;
            Ns(__LINE__, tl_emu::Plain{&tl_emu_lc_})[nr][nc] = gnr < k && gnc < n ? (tl_emu::gcount(0), Nd)[(size_t)gnr * n + gnc] : 0.0f;
        } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 48
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { for (int e = tid; e < BK * BM; e += 256) {   /* M's tile (transposed) and N's tile, guarded */
            int r = e / BK, c = e % BK, gr = rowBase + r, gc = p * BK + c;
            Ms(__LINE__, tl_emu::Esc{tl_emu_ep_})[c][r] = gr < m && gc < k ? (tl_emu::gcount(0), Md)[(size_t)gr * k + gc] : 0.0f;
            int nr = e / BN, nc = e % BN, gnr = p * BK + nr, gnc = colBase + nc;
            Ns(__LINE__, tl_emu::Esc{tl_emu_ep_})[nr][nc] = gnr < k && gnc < n ? (tl_emu::gcount(0), Nd)[(size_t)gnr * n + gnc] : 0.0f;
        } } } } else {
#line 48
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { for (int e = tid; e < BK * BM; e += 256) {   /* M's tile (transposed) and N's tile, guarded */
            int r = e / BK, c = e % BK, gr = rowBase + r, gc = p * BK + c;
            Ms(__LINE__, tl_emu_ep_)[c][r] = gr < m && gc < k ? (tl_emu::gcount(0), Md)[(size_t)gr * k + gc] : 0.0f;
            int nr = e / BN, nc = e % BN, gnr = p * BK + nr, gnc = colBase + nc;
            Ns(__LINE__, tl_emu_ep_)[nr][nc] = gnr < k && gnc < n ? (tl_emu::gcount(0), Nd)[(size_t)gnr * n + gnc] : 0.0f;
        } } }
#line 53
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
        if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { for (int kk = 0; kk < BK; ++kk)             /* the register tile's reads, summed and dropped */
            for (int i = 0; i < 8; ++i)
                sink += Ms(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[kk][ty * 8 + i] + Ns(__LINE__, tl_emu::Plain{&tl_emu_lc_, tl_emu_pm_ == 2})[kk][tx * 8 + i]; } *(tl_p_sink + tl_emu_t_) = sink; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 55
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { for (int kk = 0; kk < BK; ++kk)             /* the register tile's reads, summed and dropped */
            for (int i = 0; i < 8; ++i)
                sink += Ms(__LINE__, tl_emu::Esc{tl_emu_ep_})[kk][ty * 8 + i] + Ns(__LINE__, tl_emu::Esc{tl_emu_ep_})[kk][tx * 8 + i]; } *(tl_p_sink + tl_emu_t_) = sink; } } else {
#line 55
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { for (int kk = 0; kk < BK; ++kk)             /* the register tile's reads, summed and dropped */
            for (int i = 0; i < 8; ++i)
                sink += Ms(__LINE__, tl_emu_ep_)[kk][ty * 8 + i] + Ns(__LINE__, tl_emu_ep_)[kk][tx * 8 + i]; } *(tl_p_sink + tl_emu_t_) = sink; }
#line 57
 }
        if (tl_emu::rbarrier(__FILE__, __LINE__)) return;
    }
    if (tl_emu::rplain(0)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { for (int i = 0; i < 8; ++i)           /* the thread's 8 x 8 outputs, from the host's product */
        for (int j = 0; j < 8; ++j) {
            int r = rowBase + ty * 8 + i, c = colBase + tx * 8 + j;
            if (r < m && c < n)
                (tl_emu::gcount(1), Pd)[(size_t)r * n + c] = (tl_emu::gcount(0), A)[(size_t)r * n + c] + sink * 0.0f;
        } } } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 60
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { for (int i = 0; i < 8; ++i)           /* the thread's 8 x 8 outputs, from the host's product */
        for (int j = 0; j < 8; ++j) {
            int r = rowBase + ty * 8 + i, c = colBase + tx * 8 + j;
            if (r < m && c < n)
                (tl_emu::gcount(1), Pd)[(size_t)r * n + c] = (tl_emu::gcount(0), A)[(size_t)r * n + c] + sink * 0.0f;
        } } } } else {
#line 60
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] int  tid = (threadIdx.x); [[maybe_unused]] int  tx = (tid % 16); [[maybe_unused]] int  ty = (tid / 16); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { for (int i = 0; i < 8; ++i)           /* the thread's 8 x 8 outputs, from the host's product */
        for (int j = 0; j < 8; ++j) {
            int r = rowBase + ty * 8 + i, c = colBase + tx * 8 + j;
            if (r < m && c < n)
                (tl_emu::gcount(1), Pd)[(size_t)r * n + c] = (tl_emu::gcount(0), A)[(size_t)r * n + c] + sink * 0.0f;
        } } }
#line 65
 }
}

static int launch(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    float *A = host_product(Md, Nd, m, k, n);
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    tl_emu_launch(RegTileKernel, "RegTileKernel", __FILE__, __LINE__, grid,  256)(Md, Nd, A, Pd, m, k, n);
    cudaDeviceSynchronize();
    cudaFree(A);
    return (int)cudaGetLastError();
}

extern "C" int launch_coarse1d(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
extern "C" int launch_regtile(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
extern "C" int launch_warptile(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
#line 1 "<tl-emu-rewrite: kernel registry>"
// RegTileKernel: region form
#if 1 && defined(BK) && defined(BM) && defined(BK) && defined(BN)
static tl_emu::KernelReg tl_emu_reg_RegTileKernel_0_(RegTileKernel, "RegTileKernel", 0 + sizeof(float) * (BK) * (BM) + sizeof(float) * (BK) * (BN), 1);
#else
static tl_emu::KernelReg tl_emu_reg_RegTileKernel_0_(RegTileKernel, "RegTileKernel", 0, 1);
#endif
