/* lab08-bench.cu: lab 08's kernels next to cuBLAS at each precision, checked and timed in one process
 * (the device script tests/gpu/lab08-on-device.sh builds and runs it; kit code, not a lab).
 *
 * Run:  lab08-bench [--sizes LIST] [--time-sizes LIST] [--reps N] [--only NAME,...] [--records FILE]
 *                   [--precision FILE]
 *       sizes W or MxKxN. --sizes are checked only; --time-sizes are checked, then timed.
 *                   [--peaks] [--kit-convert]
 *       --records: the kit's records format (common/CONTRACTS.md section 4, lab "08"): a gemm row per
 *       timed variant and size, and with --peaks the tensor cores' measured ceilings (ceiling rows
 *       tc_mma_tf32, tc_mma_bf16, tc_wgmma_tf32, tc_wgmma_bf16: compute-only kernels, lab08-tcpeak.cu).
 *       --precision: one CSV row per checked variant and size (the precision table).
 *       --peaks: measure the tensor-core ceilings (after the sizes; with no sizes, only them).
 *       --kit-convert: time the lab's BF16 variants as the kit times them (the speed test, lab.c): each
 *       timed run first makes the BF16 copies with the kit's own convert.cu, and the kernel reads
 *       those; printed as KTIME lines, never written to --records (they are not the kernels' times).
 *
 * For every size: fresh inputs in [-1, 1] made on the GPU from the size and a seed (never zeros),
 * the kit's BF16 copies (round to nearest even; Nbt = N transposed, rows padded to ldk = k rounded up
 * to 8 with zeros), and three FP64 references made on the GPU: of the FP32 inputs, of the inputs
 * rounded to BF16 (RNE), of the inputs rounded to TF32 (RNA, as cvt.rna.tf32.f32), each with its
 * (|M||N|)ij. Every variant's P is poisoned (NaN) before its run and judged twice:
 *   exact:  against the reference of ITS input format, bound 2 k u32 (|Mr||Nr|)ij (u32 = 2^-24):
 *           only FP32 accumulation error may remain (the kit's FP32 bound);
 *   format: against the FP32 inputs' reference, bound (2 u + u^2 + 2 k u32) (|M||N|)ij, u the
 *           format's unit roundoff (BF16 2^-8, TF32 2^-11, FP32 0).
 * A lab variant passes when the exact check passes. Exact failing while format passes is named
 * "precision": the products or the sums lost more than FP32 accumulation allows (a BF16 accumulator,
 * rounding at the wrong place). cuBLAS rows (yardsticks) are judged by the format check: cuBLAS's own
 * TF32 rounding is not ours to prescribe. Only a passing run is timed: W warm-ups, then R runs each
 * timed with CUDA events, the median (and min, max); inputs of 4096 in BF16 (64 MiB) exceed the L2.
 * cuBLAS BF16 is called in the layout the lab's kernels read (Mb and Nbt: "TN"), cublas_bf16_nn in
 * the layout of the FP32 inputs (Nb row-major), TF32 and SGEMM on the FP32 inputs.
 */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab.h"
#include "lab08-kit.h"

extern "C" int tl08_tc_peaks(FILE *records, int reps); /* lab08-tcpeak.cu */

#define CK(x) ck((x), #x, __LINE__)
static void ck(cudaError_t e, const char *what, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "lab08-bench: %s (line %d): %s\n", what, line, cudaGetErrorString(e));
        exit(e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ? 77 : 1);
    }
}
#define CB(x) cb((x), #x, __LINE__)
static void cb(cublasStatus_t s, const char *what, int line)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "lab08-bench: %s (line %d): cuBLAS status %d\n", what, line, (int)s);
        exit(1);
    }
}

/* ------------------------------------------------------------------------------- inputs */

__device__ __forceinline__ float hash_unit(uint64_t x) /* splitmix64 -> [-1, 1) */
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return (float)((double)(x >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}

__global__ void fill_k(float *X, size_t count, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        X[i] = hash_unit(seed * 0x100000001B3ull + i);
}

/* Mb (m x ldk), Nb (k x n), Nbt (n x ldk), zero beyond k. */
__global__ void to_bf16_k(const float *M, const float *N, __nv_bfloat16 *Mb, __nv_bfloat16 *Nb, __nv_bfloat16 *Nbt,
                          int m, int k, int n, int ldk)
{
    size_t stride = (size_t)gridDim.x * blockDim.x, start = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (size_t i = start; i < (size_t)m * ldk; i += stride) {
        int r = (int)(i / ldk), c = (int)(i % ldk);
        Mb[i] = __float2bfloat16_rn(c < k ? M[(size_t)r * k + c] : 0.0f);
    }
    for (size_t i = start; i < (size_t)k * n; i += stride)
        Nb[i] = __float2bfloat16_rn(N[i]);
    for (size_t i = start; i < (size_t)n * ldk; i += stride) {
        int j = (int)(i / ldk), p = (int)(i % ldk);
        Nbt[i] = __float2bfloat16_rn(p < k ? N[(size_t)p * n + j] : 0.0f);
    }
}

/* ------------------------------------------------------------------------------- references */

enum { FMT_FP32 = 0, FMT_BF16 = 1, FMT_TF32 = 2 };
static const char *fmt_name[] = {"fp32", "bf16", "tf32"};
static const double fmt_u[] = {0.0, 1.0 / 256, 1.0 / 2048};

__device__ __forceinline__ double round_fmt(float x, int fmt)
{
    if (fmt == FMT_BF16)
        return (double)__bfloat162float(__float2bfloat16_rn(x));
    if (fmt == FMT_TF32) /* round to nearest, ties away from zero, to 10 fraction bits */
        return (double)__uint_as_float((__float_as_uint(x) + 0x1000u) & 0xFFFFE000u);
    return (double)x;
}

/* ref = Mr Nr and absr = |Mr||Nr| in FP64, Mr, Nr the inputs rounded to fmt. 16 x 16 tiles. */
__global__ void ref_k(const float *M, const float *N, double *ref, double *absr, int m, int k, int n, int fmt)
{
    __shared__ double Ms[16][17], Ns[16][17];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    double s = 0, a = 0;
    for (int k0 = 0; k0 < k; k0 += 16) {
        Ms[ty][tx] = (row < m && k0 + tx < k) ? round_fmt(M[(size_t)row * k + k0 + tx], fmt) : 0.0;
        Ns[ty][tx] = (k0 + ty < k && col < n) ? round_fmt(N[(size_t)(k0 + ty) * n + col], fmt) : 0.0;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < 16; p++) {
            double t = Ms[ty][p] * Ns[p][tx];
            s += t;
            a += fabs(t);
        }
        __syncthreads();
    }
    if (row < m && col < n) {
        ref[(size_t)row * n + col] = s;
        absr[(size_t)row * n + col] = a;
    }
}

/* ------------------------------------------------------------------------------- the checker */

typedef struct judged {
    unsigned long long bad, nonfinite, worst_ratio_bits; /* worst |err| / bound, as ordered bits */
    double err2, ref2, max_abs;                          /* sum of err^2, of ref^2; max |err| (bits) */
} judged;

__device__ __forceinline__ void atomic_max_pos(unsigned long long *a, double v)
{
    atomicMax(a, (unsigned long long)__double_as_longlong(v));
}

__global__ void judge_k(const float *P, const double *ref, const double *absr, size_t count, double coef, judged *out)
{
    unsigned long long bad = 0, nonfin = 0;
    double worst = 0, e2 = 0, r2 = 0, mx = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        double p = P[i], r = ref[i], bound = coef * absr[i] + 1e-30;
        if (!isfinite(p)) {
            nonfin++;
            bad++;
            continue;
        }
        double e = fabs(p - r);
        if (e > bound)
            bad++;
        worst = fmax(worst, e / bound);
        mx = fmax(mx, e);
        e2 += e * e;
        r2 += r * r;
    }
    for (int o = 16; o > 0; o /= 2) {
        bad += __shfl_down_sync(0xffffffffu, bad, o);
        nonfin += __shfl_down_sync(0xffffffffu, nonfin, o);
        worst = fmax(worst, __shfl_down_sync(0xffffffffu, worst, o));
        mx = fmax(mx, __shfl_down_sync(0xffffffffu, mx, o));
        e2 += __shfl_down_sync(0xffffffffu, e2, o);
        r2 += __shfl_down_sync(0xffffffffu, r2, o);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(&out->bad, bad);
        atomicAdd(&out->nonfinite, nonfin);
        atomic_max_pos(&out->worst_ratio_bits, worst);
        atomic_max_pos((unsigned long long *)&out->max_abs, mx);
        atomicAdd(&out->err2, e2);
        atomicAdd(&out->ref2, r2);
    }
}

__global__ void poison_k(float *P, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        P[i] = __int_as_float(0x7fc00000);
}

/* ------------------------------------------------------------------------------- the variants */

typedef struct ctx {
    const float *M, *N;                     /* FP32 inputs                  */
    const tl_bf16_bits *Mb, *Nb, *Nbt;      /* the kit's BF16 copies        */
    float *P;
    int m, k, n, ldk;
    cublasHandle_t h;
} ctx;
typedef int (*run_fn)(const ctx *);

static int r_wmma_tf32(const ctx *c) { return launch_wmma_tf32(c->M, c->N, c->P, c->m, c->k, c->n); }
static int r_wmma_bf16(const ctx *c) { return launch_wmma_bf16(c->Mb, c->Nb, c->P, c->m, c->k, c->n, c->ldk); }
static int r_mma_bf16(const ctx *c) { return launch_mma_bf16(c->Mb, c->Nbt, c->P, c->m, c->k, c->n, c->ldk); }
static int r_wgmma_bf16(const ctx *c) { return launch_wgmma_bf16(c->Mb, c->Nbt, c->P, c->m, c->k, c->n, c->ldk); }

/* The tile/stage sweep: wgmma.cu built once per configuration with its launcher renamed. */
#ifdef LAB08_SWEEP
#define WG_SWEEP(X) X(b256_s3) X(b256_s4_nomaxnreg) X(b128_s4) X(b128_s6) X(b256_s2) X(b256_c1)
#define WG_DECL(cfg)                                                                                      \
    extern "C" int launch_wgmma_##cfg(const tl_bf16_bits *, const tl_bf16_bits *, float *, int, int, int, int); \
    static int r_wgmma_##cfg(const ctx *c) { return launch_wgmma_##cfg(c->Mb, c->Nbt, c->P, c->m, c->k, c->n, c->ldk); }
WG_SWEEP(WG_DECL)
#endif

/* cuBLAS is column-major: P (row-major m x n) is P^T (n x m, ld n) = N^T M^T. */
static int r_cublas_bf16(const ctx *c) /* the lab's layout: Nbt (n x ldk) read transposed, Mb (m x ldk) */
{
    const float one = 1, zero = 0;
    return (int)cublasGemmEx(c->h, CUBLAS_OP_T, CUBLAS_OP_N, c->n, c->m, c->k, &one, c->Nbt, CUDA_R_16BF, c->ldk,
                             c->Mb, CUDA_R_16BF, c->ldk, &zero, c->P, CUDA_R_32F, c->n, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT);
}
static int r_cublas_bf16_nn(const ctx *c) /* N row-major (k x n), as the FP32 inputs */
{
    const float one = 1, zero = 0;
    return (int)cublasGemmEx(c->h, CUBLAS_OP_N, CUBLAS_OP_N, c->n, c->m, c->k, &one, c->Nb, CUDA_R_16BF, c->n,
                             c->Mb, CUDA_R_16BF, c->ldk, &zero, c->P, CUDA_R_32F, c->n, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT);
}
static int r_cublas_tf32(const ctx *c)
{
    const float one = 1, zero = 0;
    return (int)cublasGemmEx(c->h, CUBLAS_OP_N, CUBLAS_OP_N, c->n, c->m, c->k, &one, c->N, CUDA_R_32F, c->n, c->M,
                             CUDA_R_32F, c->k, &zero, c->P, CUDA_R_32F, c->n, CUBLAS_COMPUTE_32F_FAST_TF32,
                             CUBLAS_GEMM_DEFAULT);
}
static int r_cublas_sgemm(const ctx *c)
{
    const float one = 1, zero = 0;
    return (int)cublasGemmEx(c->h, CUBLAS_OP_N, CUBLAS_OP_N, c->n, c->m, c->k, &one, c->N, CUDA_R_32F, c->n, c->M,
                             CUDA_R_32F, c->k, &zero, c->P, CUDA_R_32F, c->n, CUBLAS_COMPUTE_32F_PEDANTIC,
                             CUBLAS_GEMM_DEFAULT);
}

typedef struct variant {
    const char *name;
    int fmt;       /* input format: FMT_*                           */
    int yardstick; /* cuBLAS: judged by the format check             */
    run_fn run;
    int cublas;    /* returns a cublasStatus_t rather than cudaError_t */
} variant;

static const variant variants[] = {
    {"wgmma_bf16", FMT_BF16, 0, r_wgmma_bf16, 0},
#ifdef LAB08_SWEEP
#define WG_ROW(cfg) {"wgmma_" #cfg, FMT_BF16, 0, r_wgmma_##cfg, 0},
    WG_SWEEP(WG_ROW)
#endif
    {"mma_bf16", FMT_BF16, 0, r_mma_bf16, 0},
    {"wmma_bf16", FMT_BF16, 0, r_wmma_bf16, 0},
    {"wmma_tf32", FMT_TF32, 0, r_wmma_tf32, 0},
    {"cublas_bf16", FMT_BF16, 1, r_cublas_bf16, 1},
    {"cublas_bf16_nn", FMT_BF16, 1, r_cublas_bf16_nn, 1},
    {"cublas_tf32", FMT_TF32, 1, r_cublas_tf32, 1},
    {"cublas_sgemm", FMT_FP32, 1, r_cublas_sgemm, 1},
};
#define NVAR ((int)(sizeof variants / sizeof variants[0]))

/* ------------------------------------------------------------------------------- one size */

typedef struct size3 { int m, k, n; } size3;

static int parse_sizes(const char *s, size3 *out, int max)
{
    int count = 0;
    while (*s && count < max) {
        int a = 0, b = 0, c = 0, used = 0;
        if (sscanf(s, "%dx%dx%d%n", &a, &b, &c, &used) == 3 && used > 0)
            out[count++] = (size3){a, b, c};
        else if (sscanf(s, "%d%n", &a, &used) == 1 && used > 0)
            out[count++] = (size3){a, a, a};
        else
            return -1;
        if (a < 1 || out[count - 1].k < 1 || out[count - 1].n < 1)
            return -1;
        s += used;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return count;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static judged run_judge(const float *P, const double *ref, const double *absr, size_t count, double coef, judged *d_j)
{
    judged j;
    memset(&j, 0, sizeof j);
    CK(cudaMemcpy(d_j, &j, sizeof j, cudaMemcpyHostToDevice));
    judge_k<<<1024, 256>>>(P, ref, absr, count, coef, d_j);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&j, d_j, sizeof j, cudaMemcpyDeviceToHost));
    return j;
}

static double bits_to_double(unsigned long long b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static int selected(const char *only, const char *name)
{
    if (!only)
        return 1;
    size_t len = strlen(name);
    for (const char *p = only; (p = strstr(p, name)) != NULL; p += len)
        if ((p == only || p[-1] == ',') && (p[len] == ',' || p[len] == 0))
            return 1;
    return 0;
}

static FILE *records = NULL, *precision = NULL;
static int failures = 0;
static int kit_convert = 0; /* --kit-convert */

/* One timed run as the kit's speed test does it (lab.c's run_bf16): the kit's BF16 copies made by
 * convert.cu, then the launch reading them. Lab variants of BF16 only (wmma_bf16 reads Nb, the
 * others Nbt); anything else runs as it is. */
static int run_as_kit(const variant *V, const ctx *c)
{
    if (!kit_convert || V->fmt != FMT_BF16 || V->yardstick)
        return V->run(c);
    int want = strcmp(V->name, "wmma_bf16") == 0 ? TL08_WANT_NB : TL08_WANT_NBT;
    tl08_bf16 in;
    int rc = tl08_bf16_inputs(c->M, c->N, c->m, c->k, c->n, want, &in);
    if (rc != 0)
        return rc;
    ctx k = *c;
    k.Mb = in.Mb;
    k.Nb = in.Nb ? in.Nb : c->Nb;
    k.Nbt = in.Nbt ? in.Nbt : c->Nbt;
    return V->run(&k);
}

static void one_size(size3 s, int timed, int reps, int warmup, const char *only, cublasHandle_t h, uint64_t seed)
{
    int m = s.m, k = s.k, n = s.n, ldk = (k + 7) / 8 * 8;
    size_t mk = (size_t)m * k, kn = (size_t)k * n, mn = (size_t)m * n;
    float *M, *N, *P;
    __nv_bfloat16 *Mb, *Nb, *Nbt;
    double *ref[3], *absr[3];
    judged *d_j;
    CK(cudaMalloc(&M, mk * 4));
    CK(cudaMalloc(&N, kn * 4));
    CK(cudaMalloc(&P, mn * 4));
    CK(cudaMalloc(&Mb, (size_t)m * ldk * 2));
    CK(cudaMalloc(&Nb, kn * 2));
    CK(cudaMalloc(&Nbt, (size_t)n * ldk * 2));
    CK(cudaMalloc(&d_j, sizeof(judged)));
    fill_k<<<1024, 256>>>(M, mk, seed * 3 + (uint64_t)m * 7919 + k);
    fill_k<<<1024, 256>>>(N, kn, seed * 5 + (uint64_t)n * 104729 + k + 1);
    to_bf16_k<<<1024, 256>>>(M, N, Mb, Nb, Nbt, m, k, n, ldk);
    CK(cudaGetLastError());
    dim3 rb(16, 16), rg((n + 15) / 16, (m + 15) / 16);
    for (int f = 0; f < 3; f++) {
        CK(cudaMalloc(&ref[f], mn * 8));
        CK(cudaMalloc(&absr[f], mn * 8));
        ref_k<<<rg, rb>>>(M, N, ref[f], absr[f], m, k, n, f);
        CK(cudaGetLastError());
    }
    CK(cudaDeviceSynchronize());

    char sz[48];
    snprintf(sz, sizeof sz, "%dx%dx%d", m, k, n);
    ctx c = {M, N, (const tl_bf16_bits *)Mb, (const tl_bf16_bits *)Nb, (const tl_bf16_bits *)Nbt, P, m, k, n, ldk, h};
    const double u32 = 1.0 / 16777216.0;
    for (int v = 0; v < NVAR; v++) {
        const variant *V = &variants[v];
        if (!selected(only, V->name))
            continue;
        poison_k<<<1024, 256>>>(P, mn);
        int rc = V->run(&c);
        cudaError_t e = cudaDeviceSynchronize();
        if (rc != 0 || e != cudaSuccess) {
            printf("%-20s %-16s ERROR %s %d (%s)\n", V->name, sz, V->cublas ? "cublas status" : "launch",
                   rc, cudaGetErrorString(e));
            if (rc == (int)cudaErrorInvalidDeviceFunction && !V->cublas)
                continue; /* not built for this GPU: named, not a failure */
            failures++;
            if (e != cudaSuccess)
                exit(1); /* a sticky error: nothing after it can be trusted */
            continue;
        }
        int f = V->fmt;
        judged ex = run_judge(P, ref[f], absr[f], mn, 2.0 * k * u32, d_j);
        double u = fmt_u[f];
        judged fm = run_judge(P, ref[0], absr[0], mn, 2 * u + u * u + 2.0 * k * u32, d_j);
        int pass = V->yardstick ? fm.bad == 0 : ex.bad == 0;
        const char *why = pass ? "" : fm.bad == 0 ? "precision: more error than FP32 accumulation of the rounded inputs allows"
                                 : (ex.nonfinite == mn ? "unwritten or NaN everywhere" : "wrong values");
        if (!pass)
            failures++;
        printf("%-20s %-16s %s %-4s exact: bad %llu worst %.3g of bound, max|err| %.3g | vs fp64(fp32 in): "
               "bad %llu worst %.3g, max|err| %.3g, rel %.3g %s\n",
               V->name, sz, pass ? "PASS" : "FAIL", fmt_name[f], ex.bad, bits_to_double(ex.worst_ratio_bits),
               ex.max_abs, fm.bad, bits_to_double(fm.worst_ratio_bits), fm.max_abs, sqrt(fm.err2 / fm.ref2), why);
        if (precision)
            fprintf(precision, "precision,%s,%d,%d,%d,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g\n", V->name, m, k, n, fmt_name[f],
                    pass ? "PASS" : "FAIL", ex.max_abs, bits_to_double(ex.worst_ratio_bits), fm.max_abs,
                    bits_to_double(fm.worst_ratio_bits), sqrt(fm.err2 / fm.ref2));
        if (!pass || !timed)
            continue;
        cudaEvent_t a, b;
        CK(cudaEventCreate(&a));
        CK(cudaEventCreate(&b));
        for (int w = 0; w < warmup; w++)
            run_as_kit(V, &c);
        float *ms = (float *)malloc(sizeof(float) * reps);
        for (int r = 0; r < reps; r++) {
            CK(cudaEventRecord(a));
            run_as_kit(V, &c);
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            CK(cudaEventElapsedTime(&ms[r], a, b));
        }
        CK(cudaGetLastError());
        qsort(ms, reps, sizeof(float), cmp_float);
        double med = ms[reps / 2], tflops = 2.0 * m * (double)k * n / (med * 1e-3) / 1e12;
        printf("%-20s %-16s %s median %.4f ms (min %.4f max %.4f, %d runs) %.1f TFLOP/s\n", V->name, sz,
               kit_convert ? "KTIME" : "TIME", med, ms[0], ms[reps - 1], reps, tflops);
        if (records && !kit_convert) /* the kit's header: kind,lab,variant,m,k,n,tile,...,status,reps,median,min,max,gflops,... */
            fprintf(records, "gemm,08,%s,%d,%d,%d,,,,,,PASS,%d,%.5f,%.5f,%.5f,%.1f,,,,,,,\n", V->name, m, k, n, reps,
                    med, ms[0], ms[reps - 1], tflops * 1000);
        free(ms);
        CK(cudaEventDestroy(a));
        CK(cudaEventDestroy(b));
    }
    for (int f = 0; f < 3; f++) {
        CK(cudaFree(ref[f]));
        CK(cudaFree(absr[f]));
    }
    CK(cudaFree(M)); CK(cudaFree(N)); CK(cudaFree(P)); CK(cudaFree(Mb)); CK(cudaFree(Nb)); CK(cudaFree(Nbt));
    CK(cudaFree(d_j));
}

int main(int argc, char **argv)
{
    const char *sizes = "128,1000x17x3,257x129x383,1023x1000x1001,2048", *tsizes = "4096", *only = NULL, *rec = NULL, *prec = NULL;
    int reps = 30, warmup = 5, peaks = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--sizes") && v) sizes = v, i++;
        else if (!strcmp(a, "--time-sizes") && v) tsizes = v, i++;
        else if (!strcmp(a, "--only") && v) only = v, i++;
        else if (!strcmp(a, "--records") && v) rec = v, i++;
        else if (!strcmp(a, "--precision") && v) prec = v, i++;
        else if (!strcmp(a, "--reps") && v) reps = atoi(v), i++;
        else if (!strcmp(a, "--warmup") && v) warmup = atoi(v), i++;
        else if (!strcmp(a, "--peaks")) peaks = 1;
        else if (!strcmp(a, "--kit-convert")) kit_convert = 1;
        else {
            fprintf(stderr, "lab08-bench: unknown option '%s' (options: --sizes, --time-sizes, --only, --records, "
                            "--precision, --reps, --warmup, --peaks, --kit-convert)\n", a);
            return 2;
        }
    }
    if (reps < 1 || reps > 1000 || warmup < 0) {
        fprintf(stderr, "lab08-bench: --reps takes 1..1000, --warmup 0 or more\n");
        return 2;
    }
    size3 cs[32], ts[32];
    int ncs = *sizes ? parse_sizes(sizes, cs, 32) : 0, nts = *tsizes ? parse_sizes(tsizes, ts, 32) : 0;
    if (ncs < 0 || nts < 0) {
        fprintf(stderr, "lab08-bench: sizes are W or MxKxN, comma-separated (e.g. 128,1000x17x3)\n");
        return 2;
    }
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        fprintf(stderr, "lab08-bench: no usable CUDA device\n");
        return 77;
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    printf("device: %s (sm_%d%d, %d SMs, L2 %d MiB), %s\n", p.name, p.major, p.minor, p.multiProcessorCount,
           p.l2CacheSize >> 20, date);
    char rec_tmp[1100] = "";
    if (rec) { /* written to FILE.tmp, renamed when complete */
        snprintf(rec_tmp, sizeof rec_tmp, "%s.tmp", rec);
        records = fopen(rec_tmp, "w");
        if (!records) {
            fprintf(stderr, "lab08-bench: cannot write '%s': check the folder exists and is writable\n", rec_tmp);
            return 2;
        }
        int drv = 0, rt = 0;
        cudaDriverGetVersion(&drv);
        cudaRuntimeGetVersion(&rt);
        int sm_khz = 0, mem_khz = 0;
        cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, 0);
        cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
        fprintf(records, "# tilelab_records: 3\n# kit_version: 0.1.0\n# device: %s\n# compute_capability: %d.%d\n"
                         "# sm_count: %d\n# sm_clock_mhz: %d\n# mem_clock_mhz: %d\n# mem_bus_bits: %d\n# l2_bytes: %d\n"
                         "# driver: %d\n# runtime: %d\n# build_type: release\n# date: %s\n# seed: 1\n# host: unknown\n"
                         "# timing: cuda-events, median of %d after %d warm-ups, L2 not flushed (BF16 inputs at 4096: 64 MiB > L2)\n"
                         "# command: tests/gpu/lab08-bench (BF16 conversion before timing, for the kernels and cuBLAS alike)\n"
                         "# ceilings: %s\n%s\n",
                p.name, p.major, p.minor, p.multiProcessorCount, sm_khz / 1000, mem_khz / 1000, p.memoryBusWidth,
                p.l2CacheSize, drv, rt, date, reps, warmup,
                peaks ? "tc_* rows: compute-only tensor-core kernels (tests/gpu/lab08-tcpeak.cu), the fastest of a few "
                        "block shapes, median of the same runs" : "none measured",
                "kind,lab,variant,m,k,n,tile,regs,smem_bytes,occ_calc,occ_api,status,reps,median_ms,min_ms,max_ms,"
                "gflops,gbps,traffic,dram_bytes,l2_bytes,l1_bytes,shared_bytes,limit");
    }
    if (prec) {
        precision = fopen(prec, "w");
        if (!precision) {
            fprintf(stderr, "lab08-bench: cannot write '%s'\n", prec);
            return 2;
        }
        fprintf(precision, "# device: %s\n# date: %s\n# kind,variant,m,k,n,format,status,exact_max_abs,"
                           "exact_worst_ratio,fp64_max_abs,fp64_worst_ratio,fp64_rel_fro\n", p.name, date);
    }
    cublasHandle_t h;
    CB(cublasCreate(&h));
    for (int i = 0; i < ncs; i++)
        one_size(cs[i], 0, reps, warmup, only, h, 1 + i);
    for (int i = 0; i < nts; i++)
        one_size(ts[i], 1, reps, warmup, only, h, 101 + i);
    cublasDestroy(h);
    if (peaks) {
        int missing = tl08_tc_peaks(records, reps < 10 ? 10 : reps > 30 ? 30 : reps);
        if (missing)
            printf("lab08-bench: %d tensor-core ceiling(s) could not be measured on this GPU\n", missing);
    }
    if (records) {
        if (fclose(records) != 0 || rename(rec_tmp, rec) != 0) {
            fprintf(stderr, "lab08-bench: could not write '%s'\n", rec);
            return 2;
        }
    }
    if (precision)
        fclose(precision);
    printf("lab08-bench: %s\n", failures ? "FAILURES above" : "every checked variant passed");
    return failures ? 1 : 0;
}
