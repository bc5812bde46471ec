/* nbody.cu: the bench's 1-D tiling kernel (tl-nbody): all-pairs n-body accelerations, the lecture's
 * "when tiling pays" case next to matrix multiplication.
 *
 * Build:  meson compile -C build tl-nbody        (CUDA builds only; tests/gpu/deck-on-device.sh)
 *   or    nvcc -O2 -lineinfo -gencode arch=compute_90,code=sm_90 -Icommon plots/nbody.cu -o tl-nbody
 * Run:    tl-nbody --records FILE [--sizes 1000,16384,65536] [--reps 20]
 * Variants (one row each per size, in this order):
 *   nbody_naive      one thread per body i, every pos[j] read from global memory (through L1)
 *   nbody_ldcg       the same with __ldcg (L2 only: what the naive kernel costs without the L1's help)
 *   nbody_tiled      1-D tiling: a block stages NB_TILE bodies in a static __shared__ array, then
 *                    every thread uses all of them (the Futhark notes' 1-D tiling)
 *   nbody_dyn        the same with `extern __shared__`: the tile is blockDim.x bodies, its bytes the
 *                    launch's third argument; timed at 128, 256 and 512 bodies per tile
 *
 * Why tiling pays here: pos[] is read by every thread i, whatever i is; it is invariant to the
 * parallel dimension. A block of B threads that reads one tile of B bodies together serves B x B
 * interactions from one load per thread, as a matmul tile serves TILE_WIDTH multiply-adds per load.
 *
 * Correctness before time: every variant at every size is compared with a double-precision
 * host reference (all bodies at sizes up to 4096, 256 sampled bodies above) with a bound that
 * grows with n; a size that is not a multiple of the tile (1000) tests the zero-mass padding.
 * Only then is it timed: 3 warm-up launches, then --reps launches timed one by one with CUDA events,
 * the median reported. The inputs (n x 16 B) stay in L2 across runs: warm-cache figures.
 * FLOP are counted as 20 per interaction (the convention of GPU Gems 3, ch. 31).
 * Exit: 0 all checked and timed, 1 a check failed, 2 bad usage, 77 no usable CUDA device.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_check.h"

#define NB_TILE 256           /* bodies per tile of nbody_tiled = its block size                 */
#define NB_EPS2 0.01f         /* softening squared: no division by 0, also for a body with itself */
#define NB_FLOP 20.0          /* FLOP per interaction, GPU Gems 3 ch. 31's count                 */
#define NB_WARMUP 3
#define NB_FULLCHECK 4096     /* sizes up to this are checked body by body; larger ones sampled  */
#define NB_SAMPLES 256

/* ------------------------------------------------------------------------------------------------ */
/* kernels                                                                                           */

/* One interaction: body i feels body j (w = mass). A padding body has mass 0 and adds exactly 0. */
__device__ __forceinline__ void body_body(float4 pi, float4 pj, float3 *a)
{
    float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
    float r2 = dx * dx + dy * dy + dz * dz + NB_EPS2;
    float inv = rsqrtf(r2);
    float s = pj.w * inv * inv * inv;
    a->x += dx * s;
    a->y += dy * s;
    a->z += dz * s;
}

__global__ void nbody_naive(const float4 *pos, float4 *acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;               /* no barrier in this kernel: an early return is safe */
    float4 pi = pos[i];
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j)
        body_body(pi, pos[j], &a);
    acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

__global__ void nbody_ldcg(const float4 *pos, float4 *acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 pi = pos[i];
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j)
        body_body(pi, __ldcg(&pos[j]), &a);
    acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

/* 1-D tiling, static shared memory: blockDim.x must be NB_TILE (the launcher sets it). */
__global__ void nbody_tiled(const float4 *pos, float4 *acc, int n)
{
    __shared__ float4 tile[NB_TILE];
    int i = blockIdx.x * NB_TILE + threadIdx.x;
    float4 pi = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += NB_TILE) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f); /* guarded load writes 0 */
        __syncthreads();      /* the tile is loaded */
        for (int t = 0; t < NB_TILE; ++t)
            body_body(pi, tile[t], &a);
        __syncthreads();      /* the tile is used: the next may overwrite it */
    }
    if (i < n)                /* guarded store; every thread reached both barriers */
        acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

/* The same with dynamic shared memory: the tile is as long as the block, sized at launch. */
__global__ void nbody_dyn(const float4 *pos, float4 *acc, int n)
{
    extern __shared__ float4 dtile[];   /* blockDim.x float4s: the launch's third argument */
    int T = blockDim.x;
    int i = blockIdx.x * T + threadIdx.x;
    float4 pi = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += T) {
        int j = base + threadIdx.x;
        dtile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        for (int t = 0; t < T; ++t)
            body_body(pi, dtile[t], &a);
        __syncthreads();
    }
    if (i < n)
        acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

/* ------------------------------------------------------------------------------------------------ */
/* launchers: each owns its grid arithmetic and checks its launch                                   */

typedef struct variant {
    const char *name;
    int block;                /* threads per block = bodies per tile for the tiled kernels */
    int dyn;                  /* 1: dynamic shared memory of block x 16 B                  */
    void (*kernel)(const float4 *, float4 *, int);
} variant;

static const variant variants[] = {
    {"nbody_naive", 256, 0, nbody_naive},
    {"nbody_ldcg", 256, 0, nbody_ldcg},
    {"nbody_tiled", NB_TILE, 0, nbody_tiled},
    {"nbody_dyn", 128, 1, nbody_dyn},
    {"nbody_dyn", 256, 1, nbody_dyn},
    {"nbody_dyn", 512, 1, nbody_dyn},
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

static size_t smem_of(const variant *v) { return v->dyn ? (size_t)v->block * sizeof(float4) : v->kernel == nbody_tiled ? NB_TILE * sizeof(float4) : 0; }

static cudaError_t launch(const variant *v, const float4 *d_pos, float4 *d_acc, int n)
{
    dim3 grid(ceil_div(n, v->block)), block(v->block);
    v->kernel<<<grid, block, v->dyn ? (size_t)v->block * sizeof(float4) : 0>>>(d_pos, d_acc, n);
    return cudaGetLastError();
}

/* ------------------------------------------------------------------------------------------------ */
/* the host reference and the check                                                                 */

static unsigned long long rng_state = 20261126ULL;
static float uniform(void)    /* [-1, 1), xorshift64*: the same bodies on every machine */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (float)((rng_state * 2685821657736338717ULL >> 40) / (double)(1 << 24)) * 2.f - 1.f;
}

/* Body i's acceleration in double, and the sum of the terms' magnitudes (the error's scale). */
static void ref_body(const float4 *pos, int n, int i, double out[3], double *scale)
{
    double ax = 0, ay = 0, az = 0, s = 0;
    for (int j = 0; j < n; ++j) {
        double dx = (double)pos[j].x - pos[i].x, dy = (double)pos[j].y - pos[i].y, dz = (double)pos[j].z - pos[i].z;
        double r2 = dx * dx + dy * dy + dz * dz + (double)NB_EPS2;
        double f = pos[j].w / (r2 * sqrt(r2));
        ax += dx * f;
        ay += dy * f;
        az += dz * f;
        s += f * sqrt(dx * dx + dy * dy + dz * dz) + 1e-30;
    }
    out[0] = ax, out[1] = ay, out[2] = az;
    *scale = s;
}

/* 0 when every checked body is within (2n + 64) u of its scale (u = 2^-24: float sums of n terms,
 * plus rsqrtf's few ulp); prints the worst body otherwise. */
static int check(const char *name, int block, const float4 *pos, const float4 *acc, int n)
{
    int count = n <= NB_FULLCHECK ? n : NB_SAMPLES, bad = 0;
    double worst = 0;
    int worst_i = -1;
    for (int c = 0; c < count; ++c) {
        int i = n <= NB_FULLCHECK ? c : (int)(((long long)c * 7919 + 13) % n);
        double r[3], scale;
        ref_body(pos, n, i, r, &scale);
        double bound = (2.0 * n + 64) * ldexp(1.0, -24) * scale;
        double got[3] = {acc[i].x, acc[i].y, acc[i].z};
        for (int d = 0; d < 3; ++d) {
            double e = fabs(got[d] - r[d]);
            if (!(e <= bound)) {  /* NaN fails too */
                bad++;
                if (!(e / bound <= worst)) {
                    worst = e / bound;
                    worst_i = i;
                }
            }
        }
    }
    if (bad)
        fprintf(stderr, "tl-nbody: %s (block %d) at n = %d: %d of %d checked components wrong; worst body %d "
                "at %.3g x its bound\n", name, block, n, bad, 3 * count, worst_i, worst);
    return bad != 0;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* ------------------------------------------------------------------------------------------------ */
/* main: check every variant at every size, then time it, then write the records                    */

int main(int argc, char **argv)
{
    const char *records = NULL;
    int sizes[16], nsizes = 0, reps = 20;
    for (int a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "--records") && a + 1 < argc) {
            records = argv[++a];
        } else if (!strcmp(argv[a], "--reps") && a + 1 < argc) {
            reps = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "--sizes") && a + 1 < argc) {
            for (char *s = strtok(argv[++a], ","); s && nsizes < 16; s = strtok(NULL, ","))
                sizes[nsizes++] = atoi(s);
        } else {
            fprintf(stderr, "usage: tl-nbody --records FILE [--sizes N,N,...] [--reps 1..1000]\n");
            return 2;
        }
    }
    if (!records || reps < 1 || reps > 1000) {
        fprintf(stderr, "tl-nbody: give --records FILE (and --reps from 1 to 1000)\n");
        return 2;
    }
    if (nsizes == 0) {
        int def[] = {1000, 16384, 65536, 131072};
        memcpy(sizes, def, sizeof def);
        nsizes = 4;
    }
    for (int s = 0; s < nsizes; ++s)
        if (sizes[s] < 1 || sizes[s] > (1 << 22)) {
            fprintf(stderr, "tl-nbody: size %d out of range 1..%d\n", sizes[s], 1 << 22);
            return 2;
        }
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "tl-nbody: no usable CUDA device; nothing measured\n");
        return 77;
    }
    cudaDeviceProp p;
    if (CUDA_CHECK(cudaGetDeviceProperties(&p, 0)) != cudaSuccess)
        return 1;

    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", records);
    FILE *out = fopen(tmp, "w");
    if (!out) {
        fprintf(stderr, "tl-nbody: cannot write %s\n", tmp);
        return 2;
    }
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    int clk = 0, mclk = 0;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0);
    fprintf(out, "# tilelab_records: 3\n# kit_version: 0.1.0\n# device: %s\n# compute_capability: %d.%d\n"
                 "# sm_count: %d\n# sm_clock_mhz: %d\n# mem_clock_mhz: %d\n# mem_bus_bits: %d\n# l2_bytes: %d\n"
                 "# driver: %d\n# runtime: %d\n# build_type: %s\n# date: %s\n# host: %s\n# seed: 20261126\n",
            p.name, p.major, p.minor, p.multiProcessorCount, clk / 1000, mclk / 1000, p.memoryBusWidth, p.l2CacheSize,
            drv, rt, getenv("TL_BUILD_TYPE") ? getenv("TL_BUILD_TYPE") : "debugoptimized", date,
            getenv("TL_HOST") ? getenv("TL_HOST") : "unknown");
    fprintf(out, "# nbody_flop: 20 per interaction (GPU Gems 3 ch. 31); gflops = 20 n^2 / median; warm L2\n");

    int maxn = 0;
    for (int s = 0; s < nsizes; ++s)
        maxn = sizes[s] > maxn ? sizes[s] : maxn;
    float4 *h_pos = (float4 *)malloc(maxn * sizeof(float4)), *h_acc = (float4 *)malloc(maxn * sizeof(float4));
    float *times = (float *)malloc(reps * sizeof(float));
    float4 *d_pos = NULL, *d_acc = NULL;
    cudaEvent_t e0, e1;
    if (!h_pos || !h_acc || !times || CUDA_CHECK(cudaMalloc(&d_pos, maxn * sizeof(float4))) ||
        CUDA_CHECK(cudaMalloc(&d_acc, maxn * sizeof(float4))) || CUDA_CHECK(cudaEventCreate(&e0)) ||
        CUDA_CHECK(cudaEventCreate(&e1)))
        return 1;
    /* rows are collected first: a failed check leaves no records file at all */
    char *rows = (char *)calloc(1, 1 << 16);
    size_t used = 0;
    int failed = 0;
    for (int s = 0; s < nsizes && !failed; ++s) {
        int n = sizes[s];
        for (int i = 0; i < n; ++i)
            h_pos[i] = make_float4(uniform(), uniform(), uniform(), 0.5f + 0.5f * (uniform() + 1.f) / 2.f);
        if (CUDA_CHECK(cudaMemcpy(d_pos, h_pos, n * sizeof(float4), cudaMemcpyHostToDevice)))
            return 1;
        for (size_t v = 0; v < N_VARIANTS && !failed; ++v) {
            const variant *V = &variants[v];
            if (CUDA_CHECK(cudaMemset(d_acc, 0xff, n * sizeof(float4))) ||   /* NaN poison */
                CUDA_CHECK(launch(V, d_pos, d_acc, n)) || CUDA_CHECK(cudaDeviceSynchronize()) ||
                CUDA_CHECK(cudaMemcpy(h_acc, d_acc, n * sizeof(float4), cudaMemcpyDeviceToHost)))
                return 1;
            if (check(V->name, V->block, h_pos, h_acc, n)) {
                failed = 1;
                break;
            }
            for (int w = 0; w < NB_WARMUP; ++w)
                if (CUDA_CHECK(launch(V, d_pos, d_acc, n)))
                    return 1;
            for (int r = 0; r < reps; ++r) {
                if (CUDA_CHECK(cudaEventRecord(e0)) || CUDA_CHECK(launch(V, d_pos, d_acc, n)) ||
                    CUDA_CHECK(cudaEventRecord(e1)) || CUDA_CHECK(cudaEventSynchronize(e1)) ||
                    CUDA_CHECK(cudaEventElapsedTime(&times[r], e0, e1)))
                    return 1;
            }
            qsort(times, reps, sizeof *times, cmp_float);
            double med = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
            double gflops = NB_FLOP * (double)n * n / (med * 1e-3) / 1e9;
            used += snprintf(rows + used, (1 << 16) - used,
                             "kernel,,%s,,,%d,%d,,%zu,,,PASS,%d,%.6f,%.6f,%.6f,%.3f,,,,,,,\n", V->name, n, V->block,
                             smem_of(V), reps, med, times[0], times[reps - 1], gflops);
            printf("%-12s block %3d  n = %7d  %9.3f ms  %9.1f GFLOP/s  (checked)\n", V->name, V->block, n, med, gflops);
        }
    }
    if (failed) {
        fclose(out);
        remove(tmp);
        return 1;
    }
    fprintf(out, "kind,lab,variant,m,k,n,tile,regs,smem_bytes,occ_calc,occ_api,status,reps,median_ms,min_ms,max_ms,"
                 "gflops,gbps,traffic,dram_bytes,l2_bytes,l1_bytes,shared_bytes,limit\n%s", rows);
    if (ferror(out) | (fclose(out) != 0) || rename(tmp, records) != 0) {
        fprintf(stderr, "tl-nbody: cannot write %s\n", records);
        return 2;
    }
    return 0;
}
