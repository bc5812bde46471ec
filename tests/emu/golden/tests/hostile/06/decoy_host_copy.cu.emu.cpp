#line 1 "tests/hostile/06/decoy_host_copy.cu"
/* hostile/06/decoy_host_copy.cu (issue 24 item 3, lab 06's work rule): every launcher computes P on the
 * host (M and N copied back, a triple loop) and launches one kernel that reads each element of M and N
 * once (so "P not computed by the kernel" passes: every input loaded, every element of P stored) and
 * copies the host's product into P. Right everywhere, no tile. Expected: no correctness credit, the
 * headline "P not computed from the tiles" (no shared load at all). */
#include <stdlib.h>
#include "cuda_check.h"
#include "lab.h"

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

/* One thread an element of P; the first m k threads also read one element of M, the first k n one of N. */
__global__ void CopyKernel(const float *Md, const float *Nd, const float *A, float *Pd, int m, int k, int n)
{
    float  tl_p_sink[tl_emu::MAX_THREADS]; if (const int tl_emu_pm_ = tl_emu::rplain(1)) { tl_emu::Counters tl_emu_lc_{}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] long long  i = ((long long)blockIdx.x * blockDim.x + threadIdx.x); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { ;
    sink = (0);
    if (i < (long long)m * k) sink += (tl_emu::gcount(0), Md)[i];
    if (i < (long long)k * n) sink += (tl_emu::gcount(0), Nd)[i];
    if (i < (long long)m * n) (tl_emu::gcount(1), Pd)[i] = (tl_emu::gcount(0), A)[i] + sink * 0.0f; } *(tl_p_sink + tl_emu_t_) = sink; } tl_emu::rcount(tl_emu_lc_); } else if (tl_emu::rdirect()) {
#line 35
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; const unsigned tl_emu_bx_ = blockDim.x, tl_emu_by_ = blockDim.y, tl_emu_bz_ = blockDim.z; for (unsigned tl_emu_z_ = 0; tl_emu_z_ < tl_emu_bz_; tl_emu_z_++) for (unsigned tl_emu_y_ = 0; tl_emu_y_ < tl_emu_by_; tl_emu_y_++) for (unsigned tl_emu_x_ = 0; tl_emu_x_ < tl_emu_bx_; tl_emu_x_++) { const unsigned tl_emu_t_ = (tl_emu_z_ * tl_emu_by_ + tl_emu_y_) * tl_emu_bx_ + tl_emu_x_; tl_emu::rset(tl_emu_t_, tl_emu_x_, tl_emu_y_, tl_emu_z_); [[maybe_unused]] long long  i = ((long long)blockIdx.x * blockDim.x + threadIdx.x); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { ;
    sink = (0);
    if (i < (long long)m * k) sink += (tl_emu::gcount(0), Md)[i];
    if (i < (long long)k * n) sink += (tl_emu::gcount(0), Nd)[i];
    if (i < (long long)m * n) (tl_emu::gcount(1), Pd)[i] = (tl_emu::gcount(0), A)[i] + sink * 0.0f; } *(tl_p_sink + tl_emu_t_) = sink; } } else {
#line 35
[[maybe_unused]] const uint32_t tl_emu_ep_[2] = {tl_emu::repoch(0), tl_emu::repoch(1)}; for (unsigned tl_emu_i_ = 0, tl_emu_t_ = 0; tl_emu::rnext(tl_emu_i_, tl_emu_t_); tl_emu_i_++) { [[maybe_unused]] long long  i = ((long long)blockIdx.x * blockDim.x + threadIdx.x); [[maybe_unused]] auto sink = *(tl_p_sink + tl_emu_t_); { ;
    sink = (0);
    if (i < (long long)m * k) sink += (tl_emu::gcount(0), Md)[i];
    if (i < (long long)k * n) sink += (tl_emu::gcount(0), Nd)[i];
    if (i < (long long)m * n) (tl_emu::gcount(1), Pd)[i] = (tl_emu::gcount(0), A)[i] + sink * 0.0f; } *(tl_p_sink + tl_emu_t_) = sink; }
#line 39
 }
}

static int launch(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    float *A = host_product(Md, Nd, m, k, n);
    long long most = (long long)m * n;
    if ((long long)m * k > most) most = (long long)m * k;
    if ((long long)k * n > most) most = (long long)k * n;
    tl_emu_launch(CopyKernel, "CopyKernel", __FILE__, __LINE__, (unsigned)((most + 255) / 256),  256)(Md, Nd, A, Pd, m, k, n);
    cudaDeviceSynchronize();
    cudaFree(A);
    return (int)cudaGetLastError();
}

extern "C" int launch_coarse1d(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
extern "C" int launch_regtile(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
extern "C" int launch_warptile(float *Md, float *Nd, float *Pd, int m, int k, int n) { return launch(Md, Nd, Pd, m, k, n); }
#line 1 "<tl-emu-rewrite: kernel registry>"
// CopyKernel: region form
#if 1
static tl_emu::KernelReg tl_emu_reg_CopyKernel_0_(CopyKernel, "CopyKernel", 0, 1);
#else
static tl_emu::KernelReg tl_emu_reg_CopyKernel_0_(CopyKernel, "CopyKernel", 0, 1);
#endif
