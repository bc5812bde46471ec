/* ceilings.cu: measure the device ceilings the lecture charts draw, one per level (tl-ceilings).
 *
 *   build:  meson compile -C build tl-ceilings   (CUDA enabled: nvcc on PATH when meson setup ran)
 *   run:    build/plots/tl-ceilings --records ceilings.csv   (./kit bench does; a summary on stderr without it)
 *
 *   copy_bandwidth  a grid-stride float4 copy of a 1 GiB buffer into another; GB/s counts the bytes
 *                   read plus the bytes written. A copy kernel, not cudaMemcpy, so that it measures
 *                   what a kernel's loads and stores can reach.
 *   fma_peak        8 independent fmaf chains per thread, enough threads to fill every SM; each FMA
 *                   counts 2 FLOP. The results are stored and checked on the host, so nothing is
 *                   optimised away and a wrong run is never reported.
 *   l2_bandwidth    every thread sums float4s of a buffer a quarter of the L2's size, read again and
 *                   again with __ldcg (cached in L2, not in L1): bytes read / time.
 *   l1_bandwidth    every block sums the same 16 KiB again and again with __ldca (kept in each SM's
 *                   L1): bytes read / time.
 *   shared_bandwidth every block sums a 16 KiB float4 array in shared memory, each warp reading 32
 *                   consecutive float4s (no bank conflict): bytes read / time.
 *                   The three read kernels store one sum per thread; sums of small whole numbers are
 *                   exact in float, and sampled threads are compared with the host's count.
 *
 * Both: warm-up runs, then >= 10 timed runs with CUDA events; the median is the figure, min and max
 * go with it. These are achieved ceilings of simple kernels, not the datasheet numbers: the copy sees
 * DRAM (1 GiB is far beyond any L2), the FMA kernel runs at whatever clock the GPU holds under load.
 * Exit codes: 0 ok, 1 a check or a CUDA call failed, 2 bad usage, 77 no usable CUDA device.
 */
#include <cuda_runtime.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tilelab.h"


#define COPY_MIB_DEFAULT 1024 /* per buffer: read 1 GiB, write 1 GiB per run */
#define COPY_MIB_MIN 64       /* below this a copy is too short to time well */
#define THREADS 256           /* per block, both kernels */
#define FMA_CHAINS 8          /* independent accumulators per thread: enough ILP to hide FMA latency */
#define FMA_UNROLL 16         /* FMAs per chain per loop trip */
#define FMA_ITERS 8192        /* loop trips: about 10 ms on an H100 */
#define READ_BLOCKS_PER_SM 8 /* read kernels: 8 x 256 threads = 2048 per SM (full occupancy) */
#define L1_FLOAT4 1024        /* 16 KiB: fits every SM's L1 */
#define SMEM_FLOAT4 1024      /* 16 KiB of shared memory per block */
#define REPS_DEFAULT 20
#define WARMUP_DEFAULT 3

/* ------------------------------------------------------------------------------------------------ */
/* error checks                                                                                      */

static void cuda_check(cudaError_t err, const char *call, const char *file, int line)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "tl-ceilings: CUDA error in %s at %s:%d: %s (%s)\n", call, file, line, cudaGetErrorString(err),
                cudaGetErrorName(err));
        exit(1);
    }
}
#define CUDA_CHECK(call) cuda_check((call), #call, __FILE__, __LINE__)
#define CUDA_CHECK_LAUNCH(what) cuda_check(cudaGetLastError(), what, __FILE__, __LINE__)

static unsigned ceil_div(size_t a, size_t b) { return (unsigned)((a + b - 1) / b); }

/* ------------------------------------------------------------------------------------------------ */
/* kernels                                                                                           */

static __device__ float pattern(size_t i, int lane) { return (float)(i & 0xfffff) + 0.25f * (float)lane; }

__global__ void fill_pattern(float4 *p, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = make_float4(pattern(i, 0), pattern(i, 1), pattern(i, 2), pattern(i, 3));
}

__global__ void copy_float4(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

__global__ void count_mismatches(const float4 *p, size_t n, unsigned long long *bad)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = p[i];
        if (v.x != pattern(i, 0) || v.y != pattern(i, 1) || v.z != pattern(i, 2) || v.w != pattern(i, 3))
            atomicAdd(bad, 1ULL);
    }
}

/* The start of chain c in thread t; the same on host and device. */
static __host__ __device__ float chain_start(unsigned t, int c) { return (float)(t % 97) * 0.01f + 0.1f * (float)c; }

/* x <- x * a + b converges to b / (1 - a) = 1 for a = 0.999, b = 0.001: no overflow, no denormals. */
__global__ void fma_chains(float *out, float a, float b, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float x[FMA_CHAINS];
#pragma unroll
    for (int c = 0; c < FMA_CHAINS; c++)
        x[c] = chain_start(t, c);
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < FMA_UNROLL; u++) {
#pragma unroll
            for (int c = 0; c < FMA_CHAINS; c++)
                x[c] = fmaf(x[c], a, b);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < FMA_CHAINS; c++)
        sum += x[c];
    out[t] = sum;
}

/* What fma_chains stores for thread t, computed on the host with the same correctly rounded fmaf. */
static float fma_chains_host(unsigned t, float a, float b, int iters)
{
    float x[FMA_CHAINS];
    for (int c = 0; c < FMA_CHAINS; c++)
        x[c] = chain_start(t, c);
    for (int i = 0; i < iters; i++)
        for (int u = 0; u < FMA_UNROLL; u++)
            for (int c = 0; c < FMA_CHAINS; c++)
                x[c] = fmaf(x[c], a, b);
    float sum = 0.0f;
    for (int c = 0; c < FMA_CHAINS; c++)
        sum += x[c];
    return sum;
}

/* The value at float4 index i of the read buffers: each component (i & 3), a small whole number. */
static __host__ __device__ float read_value(size_t i) { return (float)(i & 3); }

__global__ void fill_read(float4 *p, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v = read_value(i);
        p[i] = make_float4(v, v, v, v);
    }
}

/* L2: n = per x (threads of the grid) float4s, read PASSES times through __ldcg (L2 only): in each
 * pass every thread loads PER float4s one grid apart (independent loads, all in flight at once).
 * Each pass starts L2_SHIFT float4s further on, a shift of 67 blocks, so what a thread reads was read
 * in the pass before by a block on another SM: no pass can be served from an SM's own L1 (ncu's
 * lts__t_bytes then counts what the kernel asks for; tests/gpu/bench-traffic.sh --check shows it). */
#define L2_SHIFT (67 * THREADS)
__global__ void read_l2(const float4 *p, size_t n, int per, int passes, float *out)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    size_t shift = 0;
    float a = 0, b = 0;
    for (int r = 0; r < passes; r++) {
#pragma unroll 4
        for (int j = 0; j < per; j++) {
            size_t i = t + (size_t)j * stride + shift;
            float4 v = __ldcg(&p[i < n ? i : i - n]);
            a += v.x + v.y;
            b += v.z + v.w;
        }
        shift += L2_SHIFT;
        if (shift >= n)
            shift -= n;
    }
    out[t] = a + b;
}

/* L1: every block reads the same L1_FLOAT4 float4s, PASSES times, through __ldca (L1 and L2). */
__global__ void read_l1(const float4 *p, int passes, float *out)
{
    float a = 0, b = 0;
    for (int r = 0; r < passes; r++)
#pragma unroll 4
        for (int i = threadIdx.x; i < L1_FLOAT4; i += blockDim.x) {
            float4 v = __ldca(&p[(i + r * 32) & (L1_FLOAT4 - 1)]);
            a += v.x + v.y;
            b += v.z + v.w;
        }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}

/* Shared: every block fills SMEM_FLOAT4 float4s, then reads them PASSES times (consecutive float4s
 * per warp: conflict-free), offset by the pass so the compiler cannot keep them in registers. */
__global__ void read_shared(int passes, float *out)
{
    __shared__ float4 s[SMEM_FLOAT4];
    for (int i = threadIdx.x; i < SMEM_FLOAT4; i += blockDim.x) {
        float v = read_value((size_t)i);
        s[i] = make_float4(v, v, v, v);
    }
    __syncthreads();
    float a = 0, b = 0;
    for (int r = 0; r < passes; r++)
#pragma unroll 4
        for (int i = 0; i < SMEM_FLOAT4; i += blockDim.x) {
            float4 v = s[(i + threadIdx.x + r * 32) & (SMEM_FLOAT4 - 1)];
            a += v.x + v.y;
            b += v.z + v.w;
        }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}

/* What each read kernel stores for global thread t, counted on the host. */
static double expect_l2(size_t t, size_t threads, size_t n, int per, int passes)
{
    double s = 0;
    size_t shift = 0;
    for (int r = 0; r < passes; r++) {
        for (int j = 0; j < per; j++) {
            size_t i = t + (size_t)j * threads + shift;
            s += 4 * read_value(i < n ? i : i - n);
        }
        shift += L2_SHIFT;
        if (shift >= n)
            shift -= n;
    }
    return s;
}
static double expect_l1(size_t t, int passes)
{
    double s = 0;
    for (int r = 0; r < passes; r++)
        for (int i = (int)(t % THREADS); i < L1_FLOAT4; i += THREADS)
            s += 4 * read_value((size_t)((i + r * 32) & (L1_FLOAT4 - 1)));
    return s;
}
static double expect_shared(size_t t, int passes)
{
    double s = 0;
    int tx = (int)(t % THREADS);
    for (int r = 0; r < passes; r++)
        for (int i = 0; i < SMEM_FLOAT4; i += THREADS)
            s += 4 * read_value((size_t)((i + tx + r * 32) & (SMEM_FLOAT4 - 1)));
    return s;
}

/* ------------------------------------------------------------------------------------------------ */
/* timing                                                                                            */

typedef struct timing {
    float median_ms, min_ms, max_ms;
} timing;

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

typedef void (*launch_fn)(void *ctx);

/* Warm up, then time REPS runs of LAUNCH one by one with CUDA events. */
static timing time_runs(launch_fn launch, void *ctx, int warmup, int reps)
{
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; i++)
        launch(ctx);
    CUDA_CHECK(cudaDeviceSynchronize());
    float *ms = (float *)malloc((size_t)reps * sizeof *ms);
    if (!ms) {
        fprintf(stderr, "tl-ceilings: out of host memory\n");
        exit(1);
    }
    for (int i = 0; i < reps; i++) {
        CUDA_CHECK(cudaEventRecord(start));
        launch(ctx);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&ms[i], start, stop));
    }
    qsort(ms, (size_t)reps, sizeof *ms, cmp_float);
    timing t;
    t.median_ms = reps % 2 ? ms[reps / 2] : 0.5f * (ms[reps / 2 - 1] + ms[reps / 2]);
    t.min_ms = ms[0];
    t.max_ms = ms[reps - 1];
    free(ms);
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return t;
}

/* ------------------------------------------------------------------------------------------------ */
/* the two measurements                                                                              */

typedef struct copy_ctx {
    const float4 *d_src;
    float4 *d_dst;
    size_t n; /* float4 elements per buffer */
    unsigned blocks;
} copy_ctx;

static void launch_copy(void *p)
{
    copy_ctx *c = (copy_ctx *)p;
    copy_float4<<<c->blocks, THREADS>>>(c->d_src, c->d_dst, c->n);
    CUDA_CHECK_LAUNCH("copy_float4<<<>>>");
}

/* Copy bandwidth in GB/s (bytes read + written); 0 when the copy came out wrong. */
static double measure_copy(size_t bytes, unsigned blocks, int warmup, int reps, timing *t)
{
    size_t n = bytes / sizeof(float4);
    float4 *d_src = NULL, *d_dst = NULL;
    unsigned long long *d_bad = NULL, h_bad = 0;
    CUDA_CHECK(cudaMalloc(&d_src, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_dst, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_bad, sizeof *d_bad));
    CUDA_CHECK(cudaMemset(d_bad, 0, sizeof *d_bad));
    fill_pattern<<<blocks, THREADS>>>(d_src, n);
    CUDA_CHECK_LAUNCH("fill_pattern<<<>>>");
    CUDA_CHECK(cudaMemset(d_dst, 0xff, n * sizeof(float4))); /* NaN everywhere: a skipped copy shows */

    copy_ctx ctx = {d_src, d_dst, n, blocks};
    *t = time_runs(launch_copy, &ctx, warmup, reps);

    count_mismatches<<<blocks, THREADS>>>(d_dst, n, d_bad);
    CUDA_CHECK_LAUNCH("count_mismatches<<<>>>");
    CUDA_CHECK(cudaMemcpy(&h_bad, d_bad, sizeof h_bad, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_src));
    CUDA_CHECK(cudaFree(d_dst));
    CUDA_CHECK(cudaFree(d_bad));
    if (h_bad != 0) {
        fprintf(stderr, "tl-ceilings: the copy kernel left %llu of %zu float4 elements wrong; not reporting a "
                "bandwidth\n", h_bad, n);
        return 0;
    }
    return 2.0 * (double)(n * sizeof(float4)) / (t->median_ms * 1e-3) / 1e9;
}

typedef struct fma_ctx {
    float *d_out;
    unsigned blocks;
    float a, b;
} fma_ctx;

static void launch_fma(void *p)
{
    fma_ctx *c = (fma_ctx *)p;
    fma_chains<<<c->blocks, THREADS>>>(c->d_out, c->a, c->b, FMA_ITERS);
    CUDA_CHECK_LAUNCH("fma_chains<<<>>>");
}

/* FP32 FMA throughput in GFLOP/s; 0 when a checked thread's result is wrong. */
static double measure_fma(unsigned blocks, int warmup, int reps, timing *t)
{
    size_t threads = (size_t)blocks * THREADS;
    float *d_out = NULL;
    CUDA_CHECK(cudaMalloc(&d_out, threads * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_out, 0xff, threads * sizeof(float)));
    fma_ctx ctx = {d_out, blocks, 0.999f, 0.001f};
    *t = time_runs(launch_fma, &ctx, warmup, reps);

    float *h_out = (float *)malloc(threads * sizeof(float));
    if (!h_out) {
        fprintf(stderr, "tl-ceilings: out of host memory\n");
        exit(1);
    }
    CUDA_CHECK(cudaMemcpy(h_out, d_out, threads * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_out));
    unsigned probe[] = {0u, 1u, 96u, (unsigned)(threads / 2), (unsigned)(threads - 1)};
    int ok = 1;
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
        float want = fma_chains_host(probe[i], ctx.a, ctx.b, FMA_ITERS);
        if (memcmp(&want, &h_out[probe[i]], sizeof want) != 0) {
            fprintf(stderr, "tl-ceilings: fma_chains thread %u stored %.9g, expected %.9g; not reporting a peak\n",
                    probe[i], h_out[probe[i]], want);
            ok = 0;
        }
    }
    free(h_out);
    if (!ok)
        return 0;
    double flop = 2.0 * FMA_CHAINS * FMA_UNROLL * (double)FMA_ITERS * (double)threads;
    return flop / (t->median_ms * 1e-3) / 1e9;
}

enum read_level { LEVEL_L2, LEVEL_L1, LEVEL_SHARED };

typedef struct read_ctx {
    enum read_level level;
    const float4 *d_buf;
    size_t n; /* float4s in the L2 buffer */
    int per;  /* L2: float4s a thread reads per pass */
    int passes;
    unsigned blocks;
    float *d_out;
} read_ctx;

static void launch_read(void *p)
{
    read_ctx *c = (read_ctx *)p;
    if (c->level == LEVEL_L2)
        read_l2<<<c->blocks, THREADS>>>(c->d_buf, c->n, c->per, c->passes, c->d_out);
    else if (c->level == LEVEL_L1)
        read_l1<<<c->blocks, THREADS>>>(c->d_buf, c->passes, c->d_out);
    else
        read_shared<<<c->blocks, THREADS>>>(c->passes, c->d_out);
    CUDA_CHECK_LAUNCH("read kernel<<<>>>");
}

/* Read bandwidth of one level in GB/s (bytes the kernel's loads asked for / time); 0 when a sampled
 * thread's sum is wrong. */
static double measure_read(enum read_level level, size_t l2_bytes, unsigned blocks, int warmup, int reps,
                           timing *t)
{
    static const char *const names[] = {"read_l2", "read_l1", "read_shared"};
    size_t threads = (size_t)blocks * THREADS;
    read_ctx c = {level, NULL, 0, 0, 0, blocks, NULL};
    double bytes_per_pass;
    float4 *d_buf = NULL;
    if (level == LEVEL_L2) {
        /* whole grids of float4s, at most a quarter of the L2 (at least one grid): it stays there */
        c.per = (int)(l2_bytes / 4 / sizeof(float4) / threads);
        if (c.per < 1)
            c.per = 1;
        c.n = (size_t)c.per * threads;
        bytes_per_pass = (double)c.n * sizeof(float4);
    } else if (level == LEVEL_L1) {
        c.n = L1_FLOAT4;
        bytes_per_pass = (double)blocks * L1_FLOAT4 * sizeof(float4);
    } else {
        bytes_per_pass = (double)blocks * SMEM_FLOAT4 * sizeof(float4);
    }
    c.passes = (int)(4e9 / bytes_per_pass) + 1; /* about 4 GB read per run: a few ms */
    if (level != LEVEL_SHARED) {
        CUDA_CHECK(cudaMalloc(&d_buf, c.n * sizeof(float4)));
        fill_read<<<blocks, THREADS>>>(d_buf, c.n);
        CUDA_CHECK_LAUNCH("fill_read<<<>>>");
        c.d_buf = d_buf;
    }
    CUDA_CHECK(cudaMalloc(&c.d_out, threads * sizeof(float)));
    CUDA_CHECK(cudaMemset(c.d_out, 0xff, threads * sizeof(float)));
    *t = time_runs(launch_read, &c, warmup, reps);

    float *h_out = (float *)malloc(threads * sizeof(float));
    if (!h_out) {
        fprintf(stderr, "tl-ceilings: out of host memory\n");
        exit(1);
    }
    CUDA_CHECK(cudaMemcpy(h_out, c.d_out, threads * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(c.d_out));
    if (d_buf)
        CUDA_CHECK(cudaFree(d_buf));
    size_t probe[] = {0, 1, 255, 256, threads / 2 + 3, threads - 1};
    int ok = 1;
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
        size_t th = probe[i];
        double want = level == LEVEL_L2 ? expect_l2(th, threads, c.n, c.per, c.passes)
                    : level == LEVEL_L1 ? expect_l1(th, c.passes) : expect_shared(th, c.passes);
        if ((double)h_out[th] != want) {
            fprintf(stderr, "tl-ceilings: %s thread %zu stored %.9g, expected %.9g; not reporting a bandwidth\n",
                    names[level], th, h_out[th], want);
            ok = 0;
        }
    }
    free(h_out);
    return ok ? bytes_per_pass * c.passes / (t->median_ms * 1e-3) / 1e9 : 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* records (CONTRACTS.md section 4)                                                                  */

/* One measured ceiling: its records variant, GB/s or GFLOP/s (0 = check failed), its timing. */
typedef struct ceiling {
    const char *variant;
    int is_flops;
    double value;
    timing t;
} ceiling;

static int write_records(const char *path, int argc, char **argv, int warmup, int reps, size_t copy_bytes,
                         unsigned blocks, const ceiling *c, int nc)
{
    tl_device_info dev;
    char err[512], timing_text[240], extra[1024];
    tl_device_query(&dev);
    snprintf(timing_text, sizeof timing_text, "cuda-events, median of %d after %d warm-ups, L2 not flushed "
             "(the copy streams %zu MiB each way, beyond any L2; the read kernels stay in their level)", reps,
             warmup, copy_bytes >> 20);
    int used = snprintf(extra, sizeof extra, "# copy_bytes: %zu\n# fma_threads: %zu\n# command:", copy_bytes,
                        (size_t)blocks * THREADS);
    for (int i = 0; i < argc && used < (int)sizeof extra - 2; i++)
        used += snprintf(extra + used, sizeof extra - used, " %s", argv[i]);
    tl_records rec;
    if (tl_records_open(&rec, path, &dev, 0, timing_text, extra, err, sizeof err) != 0) {
        fprintf(stderr, "tl-ceilings: %s\n", err);
        return 2;
    }
    for (int i = 0; i < nc; i++) {
        int ok = c[i].value > 0;
        tl_stats st = {reps, c[i].t.median_ms, c[i].t.min_ms, c[i].t.max_ms};
        tl_record_row row = {"ceiling", "", c[i].variant, 0, 0, 0, 0, -1, -1, -1, -1, ok ? "PASS" : "FAIL",
                             ok ? &st : NULL, ok && c[i].is_flops ? c[i].value : -1,
                             ok && !c[i].is_flops ? c[i].value : -1, NULL, -1, -1, -1, -1, NULL};
        tl_records_row(&rec, &row);
    }
    if (tl_records_close(&rec, err, sizeof err) != 0) {
        fprintf(stderr, "tl-ceilings: %s\n", err);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */

static void usage(FILE *to)
{
    fprintf(to, "usage: tl-ceilings [--records FILE] [--reps N (>= 10)] [--warmup N] [--copy-mib N] [--help]\n"
                "Measures DRAM copy, L2, L1 and shared-memory read bandwidth and the FP32 FMA peak on CUDA\n"
                "device 0 and writes them as records rows\n"
                "(CONTRACTS.md section 4) to FILE (written to FILE.tmp, then renamed).\n"
                "Exit 0 ok, 1 a check or CUDA call failed, 2 bad usage, 77 no usable CUDA device.\n");
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    const char *records = NULL;
    int reps = REPS_DEFAULT, warmup = WARMUP_DEFAULT, copy_mib = COPY_MIB_DEFAULT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--records") && v) {
            records = v;
            i++;
        } else if (!strcmp(a, "--reps") && v && parse_int(v, 10, 100000, &reps) == 0) {
            i++;
        } else if (!strcmp(a, "--warmup") && v && parse_int(v, 1, 1000, &warmup) == 0) {
            i++;
        } else if (!strcmp(a, "--copy-mib") && v && parse_int(v, COPY_MIB_MIN, 1 << 20, &copy_mib) == 0) {
            i++;
        } else {
            fprintf(stderr, "tl-ceilings: bad argument '%s' (or its value is missing or out of range)\n", a);
            usage(stderr);
            return 2;
        }
    }
#ifdef __CUDACC_DEBUG__
    fprintf(stderr, "tl-ceilings: built with nvcc -G (buildtype=debug): kernels unoptimised, so no ceiling is "
                    "measured; reconfigure with meson configure -Dbuildtype=debugoptimized and rebuild\n");
    return 2;
#endif

    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        fprintf(stderr, "tl-ceilings: no usable CUDA device (cudaGetDeviceCount: %s); the ceilings are measured "
                "on the GPU machine\n", err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
        return 77;
    }
    int dev = 0;
    cudaDeviceProp prop;
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));

    /* Copy buffers: 1 GiB each unless the device has less room; every SM full of blocks. */
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    size_t copy_bytes = (size_t)copy_mib << 20;
    while (2 * copy_bytes > free_b / 10 * 9 && copy_bytes > ((size_t)COPY_MIB_MIN << 20))
        copy_bytes /= 2;
    unsigned blocks = (unsigned)prop.multiProcessorCount * ceil_div((size_t)prop.maxThreadsPerMultiProcessor, THREADS);

    unsigned read_blocks = (unsigned)prop.multiProcessorCount * READ_BLOCKS_PER_SM;
    ceiling c[5] = {{"copy_bandwidth", 0, 0, {0, 0, 0}}, {"l2_bandwidth", 0, 0, {0, 0, 0}},
                    {"l1_bandwidth", 0, 0, {0, 0, 0}}, {"shared_bandwidth", 0, 0, {0, 0, 0}},
                    {"fma_peak", 1, 0, {0, 0, 0}}};
    c[0].value = measure_copy(copy_bytes, blocks, warmup, reps, &c[0].t);
    c[1].value = measure_read(LEVEL_L2, (size_t)prop.l2CacheSize, read_blocks, warmup, reps, &c[1].t);
    c[2].value = measure_read(LEVEL_L1, 0, read_blocks, warmup, reps, &c[2].t);
    c[3].value = measure_read(LEVEL_SHARED, 0, read_blocks, warmup, reps, &c[3].t);
    c[4].value = measure_fma(blocks, warmup, reps, &c[4].t);
    fprintf(stderr, "tl-ceilings: %s, %d runs after %d warm-ups (medians):\n", prop.name, reps, warmup);
    int all = 1;
    for (int i = 0; i < 5; i++) {
        fprintf(stderr, "  %-17s %10.1f %s  (%.3f ms)%s\n", c[i].variant, c[i].value, c[i].is_flops ? "GFLOP/s" : "GB/s   ",
                c[i].t.median_ms, c[i].value > 0 ? "" : "  CHECK FAILED");
        all &= c[i].value > 0;
    }

    if (records) {
        int rc = write_records(records, argc, argv, warmup, reps, copy_bytes, blocks, c, 5);
        if (rc)
            return rc;
    }
    return all ? 0 : 1;
}
