/* lab08-tcpeak.cu: the tensor cores' measured ceilings, for the roofline (kit code, not a lab; lab08-bench
 * --peaks runs it, tests/gpu/lab08-on-device.sh builds it for sm_90a).
 *
 * What a tensor core can do when nothing else limits it: compute-only kernels whose operands never
 * leave the SM (registers for mma.sync, a shared-memory tile written once for wgmma), no global
 * traffic but one guarded store at the end, every instruction's result kept (asm volatile and
 * accumulators that feed the next instruction), operands nonzero (zeros draw less power, and a GPU
 * held at a lower clock by power would be measured faster than it computes on real data):
 *   tc_mma_tf32    mma.sync m16n8k8 TF32 -> FP32, 8 independent accumulators a warp (2048 FLOP each)
 *   tc_mma_bf16    mma.sync m16n8k16 BF16 -> FP32, the same (4096 FLOP each): what WMMA and part (b) use
 *   tc_wgmma_tf32  wgmma m64n256k8 TF32 (sm_90a), A and B from a swizzled shared tile (262144 FLOP each)
 *   tc_wgmma_bf16  wgmma m64n256k16 BF16 (sm_90a), the same (524288 FLOP each): what part (c) uses
 * Each is launched in a few shapes (warps or warpgroups a block, blocks an SM: occupancy from the API)
 * and the fastest shape is its ceiling; each shape: 3 warm-ups, then `reps` launches timed with CUDA
 * events, the median. The roofline's tensor-core roof for a format is the fastest of its rows.
 * A shape that cannot launch (an sm_90a kernel on another GPU) is named and skipped.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc-ptx.h"

#define PK_CHAINS 8 /* independent mma.sync accumulators a warp: enough in flight to hide the latency */

__device__ __forceinline__ unsigned pk_bits(unsigned seed) /* a small nonzero value's bits, never NaN */
{
    seed = seed * 2654435761u + 12345u;
    return 0x3C003C00u | (seed & 0x007F007Fu); /* two BF16 in [2^-7, 2^-6): also a small TF32 */
}

/* ------------------------------------------------------------------------------- mma.sync */

__device__ __forceinline__ void mma_tf32_1688(float *d, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <int TF32>
__global__ void peak_mma(float *out, int iters, int flag)
{
    unsigned a[4], b[2];
    for (int i = 0; i < 4; i++)
        a[i] = pk_bits(threadIdx.x * 8 + i);
    for (int i = 0; i < 2; i++)
        b[i] = pk_bits(threadIdx.x * 8 + 4 + i);
    if (TF32) { /* as FP32 bits: the TF32 unit reads the top 19 */
        for (int i = 0; i < 4; i++)
            a[i] = (a[i] & 0x7FFFu) << 13 | 0x3C000000u;
        for (int i = 0; i < 2; i++)
            b[i] = (b[i] & 0x7FFFu) << 13 | 0x3C000000u;
    }
    float d[PK_CHAINS][4];
    for (int c = 0; c < PK_CHAINS; c++)
        for (int i = 0; i < 4; i++)
            d[c][i] = 0.0f;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int c = 0; c < PK_CHAINS; c++) {
            if (TF32)
                mma_tf32_1688(d[c], a, b);
            else
                mma_bf16_16816(d[c], a, b);
        }
    }
    float s = 0;
    for (int c = 0; c < PK_CHAINS; c++)
        s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
    if (flag) /* never true: the sums are kept, nothing is stored */
        out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* ------------------------------------------------------------------------------- wgmma (sm_90a) */

#define PK_A_BYTES (64 * 128)  /* 64 rows of 128 bytes: one k step of 64 BF16 / 32 TF32 */
#define PK_B_BYTES (256 * 128) /* 256 rows of 128 bytes                                */
#define PK_WG_SMEM (PK_A_BYTES + PK_B_BYTES + 1024)

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define PK_SM90A 1
/* D (64 x 256 FP32) += A (64 x 8 TF32) B (8 x 256 TF32), both K-major in shared memory, 128-byte swizzle. */
__device__ __forceinline__ void wgmma_tf32_m64n256k8(float *d, uint64_t desc_a, uint64_t desc_b)
{
    asm volatile("{\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
                 "}, %128, %129, 1, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                   "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                   "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                   "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                   "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                   "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                   "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
                   "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                   "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(desc_a), "l"(desc_b));
}
#endif

/* Each warpgroup of the block keeps one 64 x 256 accumulator and issues groups of 4 wgmma (one
 * 128-byte row of k) on it, one group in flight behind the one running. */
template <int TF32>
__global__ void __launch_bounds__(384, 1) peak_wgmma(float *out, int iters, int flag)
{
#ifdef PK_SM90A
    extern __shared__ unsigned char pk_raw[];
    unsigned char *sm = pk_raw + ((1024 - (smem_addr(pk_raw) & 1023)) & 1023);
    for (int i = threadIdx.x; i < (PK_A_BYTES + PK_B_BYTES) / 4; i += blockDim.x) {
        unsigned v = pk_bits(i);
        ((unsigned *)sm)[i] = TF32 ? ((v & 0x7FFFu) << 13 | 0x3C000000u) : v;
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* generic stores, read by the async proxy */
    __syncthreads();
    const unsigned char *a = sm, *b = sm + PK_A_BYTES;
    float acc[128];
    for (int i = 0; i < 128; i++)
        acc[i] = 0.0f;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int i = 0; i < 128; i++)
            wgmma_fence_operand(&acc[i]);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
            if (TF32)
                wgmma_tf32_m64n256k8(acc, wg_desc(a + kk * 32), wg_desc(b + kk * 32));
            else
                wgmma_m64n256k16(acc, wg_desc(a + kk * 32), wg_desc(b + kk * 32), 1);
        }
        wgmma_commit();
#pragma unroll
        for (int i = 0; i < 128; i++)
            wgmma_fence_operand(&acc[i]);
        wgmma_wait1();
    }
    wgmma_wait0();
    float s = 0;
#pragma unroll
    for (int i = 0; i < 128; i++) {
        wgmma_fence_operand(&acc[i]);
        s += acc[i];
    }
    if (flag)
        out[blockIdx.x * blockDim.x + threadIdx.x] = s;
#else
    (void)out; (void)iters; (void)flag;
#endif
}

/* ------------------------------------------------------------------------------- the host side */

static int pk_cmp(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

typedef struct pk_shape {
    const char *name;      /* the ceiling row's variant */
    const void *fn;
    int threads;           /* a block                   */
    int smem;              /* dynamic shared memory     */
    double flop_per_iter;  /* a block's FLOP per loop iteration */
} pk_shape;

/* Times one shape: the median rate in GFLOP/s (0: it could not run); *med, *lo, *hi in ms. */
static double pk_time(const pk_shape *s, int sms, int reps, float *d_out, float *med, float *lo, float *hi,
                      int *blocks_out)
{
    int per_sm = 0;
    if (s->smem > 48 * 1024 &&
        cudaFuncSetAttribute(s->fn, cudaFuncAttributeMaxDynamicSharedMemorySize, s->smem) != cudaSuccess)
        return 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, s->fn, s->threads, s->smem) != cudaSuccess ||
        per_sm < 1) {
        cudaGetLastError();
        return 0;
    }
    int blocks = sms * per_sm, iters = 1;
    *blocks_out = blocks;
    void (*k)(float *, int, int) = (void (*)(float *, int, int))s->fn;
    /* calibrate: iterations for about 20 ms a launch */
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    float ms = 0;
    for (int round = 0; round < 12; round++) {
        cudaEventRecord(e0);
        k<<<blocks, s->threads, s->smem>>>(d_out, iters, 0);
        cudaEventRecord(e1);
        if (cudaEventSynchronize(e1) != cudaSuccess || cudaGetLastError() != cudaSuccess) {
            cudaEventDestroy(e0);
            cudaEventDestroy(e1);
            return 0;
        }
        cudaEventElapsedTime(&ms, e0, e1);
        if (ms > 5.0f)
            break;
        iters *= ms < 0.05f ? 16 : 4;
    }
    iters = (int)(iters * (20.0 / (ms > 0 ? ms : 1)));
    if (iters < 1)
        iters = 1;
    for (int w = 0; w < 3; w++)
        k<<<blocks, s->threads, s->smem>>>(d_out, iters, 0);
    float *t = (float *)malloc(sizeof(float) * reps);
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(e0);
        k<<<blocks, s->threads, s->smem>>>(d_out, iters, 0);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&t[r], e0, e1);
    }
    int bad = cudaGetLastError() != cudaSuccess;
    qsort(t, reps, sizeof(float), pk_cmp);
    *med = t[reps / 2];
    *lo = t[0];
    *hi = t[reps - 1];
    free(t);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (bad)
        return 0;
    return (double)blocks * s->flop_per_iter * iters / (*med * 1e-3) / 1e9;
}

/* Measures every ceiling, prints a line a shape, and writes one ceiling row per instruction (its
 * fastest shape) to records (may be NULL). Returns how many could not be measured. */
extern "C" int tl08_tc_peaks(FILE *records, int reps)
{
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    float *d_out = NULL;
    if (cudaMalloc(&d_out, (size_t)sms * 4 * 1024 * sizeof(float)) != cudaSuccess)
        return 4;
    /* mma.sync: FLOP per warp per iteration = PK_CHAINS x (2 m n k) */
    const double mma_tf32 = PK_CHAINS * 2.0 * 16 * 8 * 8, mma_bf16 = PK_CHAINS * 2.0 * 16 * 8 * 16;
    /* wgmma: a warpgroup per iteration = 4 x (2 x 64 x 256 x K) */
    const double wg_tf32 = 4 * 2.0 * 64 * 256 * 8, wg_bf16 = 4 * 2.0 * 64 * 256 * 16;
    const pk_shape shapes[] = {
        {"tc_mma_tf32", (const void *)peak_mma<1>, 128, 0, 4 * mma_tf32},
        {"tc_mma_tf32", (const void *)peak_mma<1>, 256, 0, 8 * mma_tf32},
        {"tc_mma_tf32", (const void *)peak_mma<1>, 512, 0, 16 * mma_tf32},
        {"tc_mma_bf16", (const void *)peak_mma<0>, 128, 0, 4 * mma_bf16},
        {"tc_mma_bf16", (const void *)peak_mma<0>, 256, 0, 8 * mma_bf16},
        {"tc_mma_bf16", (const void *)peak_mma<0>, 512, 0, 16 * mma_bf16},
        {"tc_wgmma_tf32", (const void *)peak_wgmma<1>, 128, PK_WG_SMEM, 1 * wg_tf32},
        {"tc_wgmma_tf32", (const void *)peak_wgmma<1>, 256, PK_WG_SMEM, 2 * wg_tf32},
        {"tc_wgmma_tf32", (const void *)peak_wgmma<1>, 384, PK_WG_SMEM, 3 * wg_tf32},
        {"tc_wgmma_bf16", (const void *)peak_wgmma<0>, 128, PK_WG_SMEM, 1 * wg_bf16},
        {"tc_wgmma_bf16", (const void *)peak_wgmma<0>, 256, PK_WG_SMEM, 2 * wg_bf16},
        {"tc_wgmma_bf16", (const void *)peak_wgmma<0>, 384, PK_WG_SMEM, 3 * wg_bf16},
    };
    const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    int missing = 0;
    for (int i = 0; i < nshapes;) {
        const char *name = shapes[i].name;
        double best = 0;
        float bmed = 0, blo = 0, bhi = 0;
        for (; i < nshapes && strcmp(shapes[i].name, name) == 0; i++) {
            float med = 0, lo = 0, hi = 0;
            int blocks = 0;
            double g = pk_time(&shapes[i], sms, reps, d_out, &med, &lo, &hi, &blocks);
            if (g <= 0) {
                printf("PEAK %-14s %3d threads a block: could not run here (%s)\n", name, shapes[i].threads,
                       cudaGetErrorString(cudaGetLastError()));
                continue;
            }
            printf("PEAK %-14s %3d threads a block, %4d blocks: median %.3f ms (min %.3f max %.3f, %d runs) %.1f TFLOP/s\n",
                   name, shapes[i].threads, blocks, med, lo, hi, reps, g / 1000);
            if (g > best)
                best = g, bmed = med, blo = lo, bhi = hi;
        }
        if (best <= 0) {
            missing++;
            continue;
        }
        printf("CEILING %-14s %.1f TFLOP/s (its fastest shape)\n", name, best / 1000);
        if (records) /* as tl-ceilings writes fma_peak: no size, the rate in gflops */
            fprintf(records, "ceiling,08,%s,,,,,,,,,PASS,%d,%.6f,%.6f,%.6f,%.3f,,,,,,,\n", name, reps, bmed, blo, bhi,
                    best);
    }
    cudaFree(d_out);
    return missing;
}
