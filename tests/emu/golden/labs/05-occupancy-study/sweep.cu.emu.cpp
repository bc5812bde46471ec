#line 1 "labs/05-occupancy-study/sweep.cu"
/* sweep.cu: lab 05 part B, the measured sweep (kit-owned: the student reads its numbers). Lab
 * 03's kernel at tile width 8, 16, 32 with registers as compiled or capped; a register-tiled
 * kernel (each thread R x R outputs, lab 06's idea) whose registers grow with R until they,
 * not threads, limit the resident blocks; each with extra dynamic shared memory that nothing
 * uses, only to lower how many blocks fit on an SM.
 *
 * Build:  part of lab05 when CUDA is on (labs/05-occupancy-study/meson.build)
 * Run:    build/labs/05-occupancy-study/lab05                 part A, then the sweep at Width 2048
 *         build/labs/05-occupancy-study/lab05 --size 4096 --records sweep.csv
 *
 * Scope: the lecture's kernel, unchanged, under different resource budgets, and one register-
 * tiled kernel written for clarity, not tuned (lab 06 tunes it). What the sweep varies is how
 * many blocks the SM can hold at once, and which resource decides it. */
#include <string.h>

#include "cuda_check.h"
#include "lab.h"

/* ------------------------------------------------------------------ the kernels */

/* Lab 03's tiled kernel for tile width T (Width a multiple of T). BOUNDS is empty or a
 * register cap. The dynamic shared memory of the launch is never touched. */
#define TL_SWEEP_KERNEL(NAME, T, BOUNDS)                                                     \
    __global__ void BOUNDS NAME(const float *Md, const float *Nd, float *Pd, int Width)      \
    {                                                                                        \
        __shared__ float Mds[T][T];                                                          \
        __shared__ float Nds[T][T];                                                          \
        int tx = threadIdx.x, ty = threadIdx.y;                                              \
        int Row = blockIdx.y * T + ty;                                                       \
        int Col = blockIdx.x * T + tx;                                                       \
        float Pvalue = 0;                                                                    \
        for (int ph = 0; ph < Width / T; ++ph) {                                             \
            Mds[ty][tx] = Md[Row * Width + ph * T + tx];                                     \
            Nds[ty][tx] = Nd[(ph * T + ty) * Width + Col];                                   \
            __syncthreads();                                                                 \
            for (int k = 0; k < T; ++k)                                                      \
                Pvalue += Mds[ty][k] * Nds[k][tx];                                           \
            __syncthreads();                                                                 \
        }                                                                                    \
        Pd[Row * Width + Col] = Pvalue;                                                      \
    }

TL_SWEEP_KERNEL(sweep_t8, 8, )
TL_SWEEP_KERNEL(sweep_t16, 16, )
TL_SWEEP_KERNEL(sweep_t32, 32, )
TL_SWEEP_KERNEL(sweep_t8_cap, 8, __maxnreg__(TL_SWEEP_REG_CAP))
TL_SWEEP_KERNEL(sweep_t16_cap, 16, __maxnreg__(TL_SWEEP_REG_CAP))
TL_SWEEP_KERNEL(sweep_t32_cap, 32, __maxnreg__(TL_SWEEP_REG_CAP))

/* The register-heavy kernel: 16 x 16 threads compute a (16 R) x (16 R) tile of P, each thread
 * the R x R elements P[Row0 + 16 i][Col0 + 16 j] (so a warp's stores stay coalesced), with the
 * K dimension walked 16 at a time through shared memory. Its R x R accumulators live in
 * registers: R = 2, 4, 8 take about 40, 60 and 130 registers a thread (ptxas, sm_90), enough
 * that the register file, not the 2048 threads, caps the blocks per SM. Width a multiple of
 * 16 R. The dynamic shared memory of the launch is never touched. */
#define TL_SWEEP_RT_KERNEL(NAME, R)                                                          \
    __global__ void __launch_bounds__(256) NAME(const float *Md, const float *Nd, float *Pd, \
                                                int Width)                                   \
    {                                                                                        \
        enum { BT = 16 * R, KT = 16 };                                                       \
        __shared__ float Mds[BT][KT];                                                        \
        __shared__ float Nds[KT][BT];                                                        \
        int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;                          \
        int Row0 = blockIdx.y * BT, Col0 = blockIdx.x * BT;                                  \
        float acc[R][R];                                                                     \
        for (int i = 0; i < R; ++i)                                                          \
            for (int j = 0; j < R; ++j)                                                      \
                acc[i][j] = 0;                                                               \
        for (int ph = 0; ph < Width / KT; ++ph) {                                            \
            for (int l = 0; l < R; ++l) {   /* BT x KT = 256 R elements each: R a thread */  \
                int e = tid + 256 * l;                                                       \
                Mds[e / KT][e % KT] = Md[(Row0 + e / KT) * Width + ph * KT + e % KT];        \
                Nds[e / BT][e % BT] = Nd[(ph * KT + e / BT) * Width + Col0 + e % BT];        \
            }                                                                                \
            __syncthreads();                                                                 \
            for (int k = 0; k < KT; ++k) {                                                   \
                float a[R], b[R];                                                            \
                for (int i = 0; i < R; ++i)                                                  \
                    a[i] = Mds[ty + 16 * i][k];                                              \
                for (int j = 0; j < R; ++j)                                                  \
                    b[j] = Nds[k][tx + 16 * j];                                              \
                for (int i = 0; i < R; ++i)                                                  \
                    for (int j = 0; j < R; ++j)                                              \
                        acc[i][j] += a[i] * b[j];                                            \
            }                                                                                \
            __syncthreads();                                                                 \
        }                                                                                    \
        for (int i = 0; i < R; ++i)                                                          \
            for (int j = 0; j < R; ++j)                                                      \
                Pd[(Row0 + ty + 16 * i) * Width + Col0 + tx + 16 * j] = acc[i][j];           \
    }

TL_SWEEP_RT_KERNEL(sweep_rt2, 2)
TL_SWEEP_RT_KERNEL(sweep_rt4, 4)
TL_SWEEP_RT_KERNEL(sweep_rt8, 8)

typedef void (*sweep_kernel)(const float *, const float *, float *, int);

/* tile: the side of P one block computes; threads: the block is threads x threads; micro: the
 * side of the square of P one thread computes (1: the lecture's kernel). */
static const struct {
    sweep_kernel fn;
    int tile, threads, micro, capped;
    const char *name;
} kernels[] = {
    {sweep_t8, 8, 8, 1, 0, "t8"},          {sweep_t16, 16, 16, 1, 0, "t16"},         {sweep_t32, 32, 32, 1, 0, "t32"},
    {sweep_t8_cap, 8, 8, 1, 1, "t8_cap"},  {sweep_t16_cap, 16, 16, 1, 1, "t16_cap"}, {sweep_t32_cap, 32, 32, 1, 1, "t32_cap"},
    {sweep_rt2, 32, 16, 2, 0, "rt2"},      {sweep_rt4, 64, 16, 4, 0, "rt4"},         {sweep_rt8, 128, 16, 8, 0, "rt8"},
};
enum { NKERNELS = (int)(sizeof kernels / sizeof kernels[0]) };

/* Extra dynamic shared memory per block, bytes: none, then enough to cut the blocks per SM. */
static const int extra_smem[] = {0, 16 * 1024, 48 * 1024, 100 * 1024};
enum { NEXTRA = (int)(sizeof extra_smem / sizeof extra_smem[0]) };

/* ------------------------------------------------------------------ the table */

extern "C" int tl_sweep_kernel_count(void)
{
    return NKERNELS;
}

extern "C" int tl_sweep_config_count(void)
{
    return NKERNELS * NEXTRA;
}

extern "C" void tl_sweep_config_get(int i, tl_sweep_config *c)
{
    memset(c, 0, sizeof *c);
    int kern = i / NEXTRA, e = i % NEXTRA;
    c->kernel = kern;
    c->tile = kernels[kern].tile;
    c->threads = kernels[kern].threads * kernels[kern].threads;
    c->micro = kernels[kern].micro;
    c->capped = kernels[kern].capped;
    c->dyn_smem = extra_smem[e];
    snprintf(c->name, sizeof c->name, "sweep_%s_s%dk", kernels[kern].name, extra_smem[e] / 1024);
}

/* Above 48 KiB a block needs the opt-in; allow every kernel the device's largest block. */
static int optin_done;

static cudaError_t allow_large_smem(void)
{
    if (optin_done)
        return cudaSuccess;
    int dev = 0, optin = 0;
    cudaError_t rc;
    if ((rc = CUDA_CHECK(cudaGetDevice(&dev))) != cudaSuccess ||
        (rc = CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev))) != cudaSuccess)
        return rc;
    for (int i = 0; i < NKERNELS; ++i) {
        cudaFuncAttributes a;
        if ((rc = CUDA_CHECK(cudaFuncGetAttributes(&a, (const void *)kernels[i].fn))) != cudaSuccess)
            return rc;
        if ((rc = CUDA_CHECK(cudaFuncSetAttribute((const void *)kernels[i].fn,
                                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                  optin - (int)a.sharedSizeBytes))) != cudaSuccess)
            return rc;
    }
    optin_done = 1;
    return cudaSuccess;
}

extern "C" int tl_sweep_device(tl_occ_device *d, char *err, size_t errlen)
{
    static char name[300];
    int dev = 0;
    cudaDeviceProp p;
    cudaError_t rc;
    if ((rc = cudaGetDevice(&dev)) != cudaSuccess || (rc = cudaGetDeviceProperties(&p, dev)) != cudaSuccess) {
        snprintf(err, errlen, "device query: %s", cudaGetErrorString(rc));
        return -1;
    }
    snprintf(name, sizeof name, "%s (sm_%d%d)", p.name, p.major, p.minor);
    memset(d, 0, sizeof *d);
    d->name = name;
    d->cc = p.major * 10 + p.minor;
    d->warp_size = p.warpSize;
    d->max_threads_per_block = p.maxThreadsPerBlock;
    d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d->max_warps_per_sm = p.maxThreadsPerMultiProcessor / p.warpSize;
    d->max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    d->regs_per_sm = p.regsPerMultiprocessor;
    d->regs_per_block = p.regsPerBlock;
    /* Not in cudaDeviceProp: the allocation rules of cuda_occupancy.h for sm_75 and later. */
    d->max_regs_per_thread = 255;
    d->reg_alloc_unit = 256;
    d->reg_partitions = 4;
    d->smem_per_sm = (int)p.sharedMemPerMultiprocessor;
    d->smem_per_block = (int)p.sharedMemPerBlockOptin;
    d->smem_alloc_unit = p.major >= 8 ? 128 : 256;
    d->smem_reserved_per_block = (int)p.reservedSharedMemPerBlock;
    return 0;
}

extern "C" int tl_sweep_api(int kern, int block_threads, int dyn_smem, int *regs, int *static_smem,
                            int *max_threads, int *api_blocks, char *err, size_t errlen)
{
    cudaError_t rc;
    if (kern < 0 || kern >= NKERNELS) {
        snprintf(err, errlen, "no sweep kernel %d", kern);
        return -1;
    }
    if ((rc = allow_large_smem()) != cudaSuccess) {
        snprintf(err, errlen, "shared memory opt-in: %s", cudaGetErrorString(rc));
        return -1;
    }
    cudaFuncAttributes a;
    if ((rc = CUDA_CHECK(cudaFuncGetAttributes(&a, (const void *)kernels[kern].fn))) != cudaSuccess) {
        snprintf(err, errlen, "cudaFuncGetAttributes: %s", cudaGetErrorString(rc));
        return -1;
    }
    *regs = a.numRegs;
    *static_smem = (int)a.sharedSizeBytes;
    *max_threads = a.maxThreadsPerBlock;
    int blocks = 0;
    rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernels[kern].fn, block_threads,
                                                       (size_t)dyn_smem);
    if (rc != cudaSuccess) {   /* a configuration that cannot launch: the API's answer is "none" */
        (void)cudaGetLastError();
        blocks = 0;
    }
    *api_blocks = blocks;
    return 0;
}

/* ------------------------------------------------------------------ the launcher */

extern "C" int tl_sweep_launch(const float *d_M, const float *d_N, float *d_P, int m, int k, int n,
                               const void *ctx)
{
    const tl_sweep_config *c = (const tl_sweep_config *)ctx;
    if (m != k || k != n || m % c->tile != 0)
        return (int)cudaErrorInvalidValue;
    cudaError_t rc = allow_large_smem();
    if (rc != cudaSuccess)
        return (int)rc;
    int t = kernels[c->kernel].threads;
    dim3 dimBlock(t, t, 1);
    dim3 dimGrid(ceil_div(n, c->tile), ceil_div(m, c->tile), 1);
    kernels[c->kernel].tl_emu_launch(fn, "fn", __FILE__, __LINE__, dimGrid,  dimBlock,  (size_t)c->dyn_smem)(d_M, d_N, d_P, m);
    return (int)cudaGetLastError();
}
