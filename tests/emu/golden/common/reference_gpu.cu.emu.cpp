#line 1 "common/reference_gpu.cu"
/* reference_gpu.cu: the double-precision reference product (reference.c) on the GPU, same bits.
 *
 * The grader's own process calls it for the large public sizes (a Width-4096 reference is 6.9e10
 * multiply-adds: seconds on 16 cores, tens of milliseconds here); never the student's program.
 * It gives exactly what tl_reference_gemm gives, element by element:
 *   - each element sums its k terms in the order p = 0, 1, ..., k-1, starting from +0, and only
 *     those terms (a ragged last tile stops at k; no padding terms, which could turn -0 into +0);
 *   - a float x float product is exact in double (24 + 24 significant bits < 53), so fma(a, b, r)
 *     rounds once exactly as r + a * b does on the CPU; the same holds for |a| |b| in absref;
 *   - doubles on the GPU are IEEE with round-to-nearest and no flush to zero.
 * tests/gpu/latency-on-device.sh runs tl-refcheck, which compares both bit for bit on ragged sizes.
 *
 * The device is given back before returning (cudaDeviceReset of this process's own context): the
 * grader then runs students' programs, and on a GPU in exclusive-process mode a context left open
 * here would lock them out. Between tl_reference_gpu_hold(1) and (0) the context stays open from
 * one call to the next (the grader makes all its references in one go, before any student's
 * program runs: one context start instead of one per size, about 0.2 s each on an H100).
 * Any CUDA error returns -1 and the caller computes on the CPU. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <unistd.h>

#include "tilelab.h"

#define RG_TILE 32      /* tile edge: 32 x 32 floats of M and of N in shared memory         */
#define RG_ROWS 8       /* threads per block in y; each thread makes RG_TILE / RG_ROWS rows */
#define RG_PER (RG_TILE / RG_ROWS)

/* One block makes a 32 x 32 tile of ref and absref; thread (tx, ty) makes column tx of rows
 * ty, ty + 8, ty + 16, ty + 24. The k loop walks tiles of 32 in order and, inside one, p in
 * order, so every element sees its terms in the order p = 0, 1, ... */
__global__ void ref_kernel(const float *__restrict__ M, const float *__restrict__ N,
                           double *__restrict__ ref, double *__restrict__ absref, int m, int k, int n)
{
    static const tl_emu::Site sM_tl_site_ = {"sM", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (RG_TILE), (RG_TILE + 1)>> sM(sM_tl_site_); 
    static const tl_emu::Site sN_tl_site_ = {"sN", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (RG_TILE), (RG_TILE)>> sN(sN_tl_site_); 
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * RG_TILE, col = blockIdx.x * RG_TILE + tx;
    double r[RG_PER], a[RG_PER];
    for (int q = 0; q < RG_PER; ++q)
        r[q] = a[q] = 0.0;
    for (int p0 = 0; p0 < k; p0 += RG_TILE) {
        int kk = k - p0 < RG_TILE ? k - p0 : RG_TILE;   /* terms in this tile */
        for (int q = 0; q < RG_PER; ++q) {
            int i = row0 + ty + q * RG_ROWS;
            sM(__LINE__)[ty + q * RG_ROWS][tx] = (i < m && tx < kk) ? (tl_emu::gcount(0), M)[(size_t)i * k + p0 + tx] : 0.0f;
            int p = ty + q * RG_ROWS;
            sN(__LINE__)[p][tx] = (p < kk && col < n) ? (tl_emu::gcount(0), N)[(size_t)(p0 + p) * n + col] : 0.0f;
        }
        __syncthreads();
        for (int p = 0; p < kk; ++p) {
            double nv = (double)sN(__LINE__)[p][tx], na = fabs(nv);
            for (int q = 0; q < RG_PER; ++q) {
                double mv = (double)sM(__LINE__)[ty + q * RG_ROWS][p];
                r[q] = fma(mv, nv, r[q]);
                a[q] = fma(fabs(mv), na, a[q]);
            }
        }
        __syncthreads();
    }
    if (col >= n)
        return;
    for (int q = 0; q < RG_PER; ++q) {
        int i = row0 + ty + q * RG_ROWS;
        if (i < m) {
            (tl_emu::gcount(1), ref)[(size_t)i * n + col] = r[q];
            (tl_emu::gcount(1), absref)[(size_t)i * n + col] = a[q];
        }
    }
}

static int rg_hold = 0;    /* keep the context open after a call (tl_reference_gpu_hold) */
static int rg_open = 0;    /* a context of ours is open                                  */

extern "C" void tl_reference_gpu_hold(int on)
{
    rg_hold = on;
    if (!on && rg_open) {
        cudaDeviceReset();   /* this process's context only: students' programs run next */
        rg_open = 0;
    }
}

/* Records the first failing CUDA call in why; evaluates to nonzero when it failed. */
#define RG_FAIL(call) rg_fail((call), #call, why, whylen)
static int rg_fail(cudaError_t e, const char *what, char *why, size_t whylen)
{
    if (e == cudaSuccess)
        return 0;
    if (why && whylen)
        snprintf(why, whylen, "%s: %s", what, cudaGetErrorString(e));
    return 1;
}

extern "C" int tl_reference_gemm_gpu(const float *M, const float *N, double *ref, double *absref,
                                     int m, int k, int n, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    if (m < 1 || k < 1 || n < 1) {
        if (why && whylen)
            snprintf(why, whylen, "sizes %dx%dx%d: each must be at least 1", m, k, n);
        return -1;
    }
    if ((m + RG_TILE - 1) / RG_TILE > 65535) {   /* gridDim.y's limit */
        if (why && whylen)
            snprintf(why, whylen, "%d rows: more than this kernel's grid covers", m);
        return -1;
    }
    /* CUDA is not fork-safe: a child of the process that used it (a grading worker) must not. */
    static pid_t cuda_pid = 0;
    if (cuda_pid && cuda_pid != getpid()) {
        if (why && whylen)
            snprintf(why, whylen, "this process was forked after its parent used CUDA");
        return -1;
    }
    cuda_pid = getpid();
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        if (why && whylen)
            snprintf(why, whylen, "no usable CUDA device");
        (void)cudaGetLastError();
        return -1;
    }
    size_t bm = sizeof(float) * (size_t)m * k, bn = sizeof(float) * (size_t)k * n;
    size_t bp = sizeof(double) * (size_t)m * n;
    float *d_M = NULL, *d_N = NULL;
    double *d_ref = NULL, *d_abs = NULL;
    int bad = RG_FAIL(cudaMalloc((void **)&d_M, bm)) || RG_FAIL(cudaMalloc((void **)&d_N, bn)) ||
              RG_FAIL(cudaMalloc((void **)&d_ref, bp)) || RG_FAIL(cudaMalloc((void **)&d_abs, bp)) ||
              RG_FAIL(cudaMemcpy(d_M, M, bm, cudaMemcpyHostToDevice)) ||
              RG_FAIL(cudaMemcpy(d_N, N, bn, cudaMemcpyHostToDevice));
    if (!bad) {
        dim3 block(RG_TILE, RG_ROWS);
        dim3 grid((unsigned)((n + RG_TILE - 1) / RG_TILE), (unsigned)((m + RG_TILE - 1) / RG_TILE));
        tl_emu_launch(ref_kernel, "ref_kernel", __FILE__, __LINE__, grid,  block)(d_M, d_N, d_ref, d_abs, m, k, n);
        bad = RG_FAIL(cudaGetLastError()) || RG_FAIL(cudaDeviceSynchronize()) ||
              RG_FAIL(cudaMemcpy(ref, d_ref, bp, cudaMemcpyDeviceToHost)) ||
              RG_FAIL(cudaMemcpy(absref, d_abs, bp, cudaMemcpyDeviceToHost));
    }
    cudaFree(d_M);
    cudaFree(d_N);
    cudaFree(d_ref);
    cudaFree(d_abs);
    rg_open = 1;
    if (bad || !rg_hold) {
        cudaDeviceReset();   /* this process's context only: students' programs run next */
        rg_open = 0;
    }
    return bad ? -1 : 0;
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// ref_kernel: fibers (a local array whose size is not a number)
#if 1 && defined(RG_TILE) && defined(RG_TILE) && defined(RG_TILE) && defined(RG_TILE)
static tl_emu::KernelReg tl_emu_reg_ref_kernel_0_(ref_kernel, "ref_kernel", 0 + sizeof(float) * (RG_TILE) * (RG_TILE + 1) + sizeof(float) * (RG_TILE) * (RG_TILE), 0);
#else
static tl_emu::KernelReg tl_emu_reg_ref_kernel_0_(ref_kernel, "ref_kernel", 0, 0);
#endif
