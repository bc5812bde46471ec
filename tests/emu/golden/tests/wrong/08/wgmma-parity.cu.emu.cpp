#line 1 "tests/wrong/08/wgmma-parity.cu"
/* KNOWN WRONG (tests/wrong/08/wgmma-parity.cu): the consumers wait on full[s] for parity 0 on every use of the stage, not u & 1 */
/* wgmma.cu: lab 08 part (c), the reference: wgmma fed by TMA through an mbarrier pipeline (sm_90a).
 *
 * Build:  built by meson with its own target, -gencode arch=compute_90a,code=sm_90a (wgmma and
 *         setmaxnreg exist only there); on other archs this unit is compiled to a launcher that refuses.
 * Run:    build/labs/08-tensor-cores/lab08 --variants wgmma_bf16 --sizes 4096
 *         bash tests/gpu/lab08-on-device.sh          (checks, cuBLAS BF16/TF32, the tile/stage sweep)
 *
 * Theory of operation. A block owns a BM x BN tile of P (BM = NCONS x 64 rows, BN columns) and walks
 * k in steps of BK = 64 (one 128-byte row of BF16, the width of the 128-byte swizzle). It has
 * NCONS + 1 warpgroups of 128 threads:
 *   warpgroup 0, the producer: one thread issues, per k step, two TMA copies (the BM x 64 tile of
 *     Mb and the BN x 64 tile of Nbt) into stage s of a STAGES-deep ring in shared memory; both
 *     complete on the stage's "full" mbarrier, which it armed with the bytes to expect. Before it
 *     refills stage s it waits on s's "empty" mbarrier.
 *   warpgroups 1..NCONS, the consumers: each owns 64 rows of the tile (64 x BN FP32 accumulators in
 *     registers, BN/2 a thread). Per k step it waits on "full", issues BK/16 = 4 wgmma m64nBNk16
 *     (A and B read from shared memory through matrix descriptors), commits them as one group, waits
 *     until at most the newest group is in flight, and then releases the stage the previous group
 *     read (one arrival a warp on its "empty" mbarrier).
 * Phases: stage s is used for the u-th time at k step kt = u x STAGES + s. A consumer waits on full[s]
 * for parity u & 1; the producer, before its u-th fill (u >= 1), waits on empty[s] for parity (u-1) & 1.
 * The TMA unit swizzles what it writes (SWIZZLE_128B: the 16-byte chunk c of row r lands at chunk
 * c ^ (r % 8)) and the descriptors tell wgmma the same swizzle (layout type 1); a tile's base must
 * be 1024-byte aligned. Edges: TMA fills what lies outside the matrix with zeros, so ragged m, n and
 * k need no guards on the loads; the epilogue guards its stores.
 * Tunables (measured on the H100 by tests/gpu/lab08-on-device.sh; see the lab README): BN, STAGES,
 * NCONS, and WG_SETMAXNREG (give the consumers the producer's registers). */
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda_check.h"
#include "lab.h"
#include "tc-ptx.h"

#ifndef WG_BN
#define WG_BN 256 /* columns of P a block owns: the wgmma's N (128 or 256) */
#endif
#ifndef WG_STAGES
#define WG_STAGES 4 /* k steps in flight in shared memory */
#endif
#ifndef WG_NCONS
#define WG_NCONS 2 /* consumer warpgroups, 64 rows each */
#endif
#ifndef WG_SETMAXNREG
#define WG_SETMAXNREG 1
#endif
#ifndef TL08_SM90A
#define TL08_SM90A 1 /* 0: this unit was built without sm_90a machine code (gpu_archs without 90) */
#endif
#define WG_BK 64                                   /* one 128-byte swizzle row of BF16 */
#define WG_BM (WG_NCONS * 64)
#define WG_THREADS ((WG_NCONS + 1) * 128)
#define WG_A_BYTES (WG_BM * WG_BK * 2)
#define WG_B_BYTES (WG_BN * WG_BK * 2)
#define WG_STAGE_BYTES (WG_A_BYTES + WG_B_BYTES)
#define WG_SMEM_BYTES (WG_STAGES * WG_STAGE_BYTES + 2 * WG_STAGES * 8 + 1024) /* + barriers + alignment */

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WG_HAVE_SM90A 1
#endif

#ifdef WG_HAVE_SM90A
#if WG_BN == 256
#define WGMMA_OP wgmma_m64n256k16
#elif WG_BN == 128
#define WGMMA_OP wgmma_m64n128k16
#else
#error "WG_BN must be 128 or 256"
#endif

/* The compiler must not move the accumulators while a wgmma that writes them is in flight. */
__device__ __forceinline__ void wg_fence_acc(float *acc)
{
/* #pragma unroll */
    for (int i = 0; i < WG_BN / 2; i++)
        wgmma_fence_operand(&acc[i]);
}
#endif /* WG_HAVE_SM90A */

/* ------------------------------------------------------------------------------- the kernel */

static __global__ void __launch_bounds__(WG_THREADS, 1)
    wgmma_gemm(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, float *Pd, int m,
               int n, int k)
{
#ifdef WG_HAVE_SM90A
    static const tl_emu::Site smem_raw_tl_site_ = {"smem_raw", __FILE__, __LINE__, "unsigned char"}; tl_emu::Shared<tl_emu::ADyn<unsigned char>> smem_raw(smem_raw_tl_site_); 
    /* The 128-byte swizzle needs 1024-byte aligned tiles. */
    unsigned char *smem =
        smem_raw(__LINE__) + ((1024 - (smem_addr(smem_raw(__LINE__)) & 1023)) & 1023);
    unsigned char *sA = smem;                              /* STAGES x (BM x 64) BF16 */
    unsigned char *sB = smem + WG_STAGES * WG_A_BYTES;      /* STAGES x (BN x 64) BF16 */
    uint64_t *full = (uint64_t *)(smem + WG_STAGES * WG_STAGE_BYTES);
    uint64_t *empty = full + WG_STAGES;

    /* Block order: groups of 8 block rows walk the columns together, so their tiles of Nbt stay in L2. */
    int tiles_m = ceil_div(m, WG_BM), tiles_n = ceil_div(n, WG_BN);
    int id = blockIdx.x, per_group = 8 * tiles_n;
    int first_m = (id / per_group) * 8;
    int group_m = min(tiles_m - first_m, 8);
    int tm = first_m + (id % per_group) % group_m;
    int tn = (id % per_group) / group_m;
    int ktiles = ceil_div(k, WG_BK);

    int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
    if (threadIdx.x == 0) {
        for (int s = 0; s < WG_STAGES; s++) {
            mbar_init(&full[s], 1);                /* the producer's arrive.expect_tx */
            mbar_init(&empty[s], WG_NCONS * 4);    /* one arrival a consumer warp     */
        }
        mbar_fence_init();
    }
    __syncthreads();

    if (wg == 0) {
        /* ---------------- producer */
#if WG_SETMAXNREG
        setmaxnreg_dec40();
#endif
        if (tid == 0) {
            for (int kt = 0; kt < ktiles; kt++) {
                int s = kt % WG_STAGES, u = kt / WG_STAGES;
                if (u > 0)
                    mbar_wait(&empty[s], (u - 1) & 1);
                mbar_arrive_expect_tx(&full[s], WG_STAGE_BYTES);
                tma_load_2d(sA + s * WG_A_BYTES, &tmA, &full[s], kt * WG_BK, tm * WG_BM);
                tma_load_2d(sB + s * WG_B_BYTES, &tmB, &full[s], kt * WG_BK, tn * WG_BN);
            }
        }
    } else {
        /* ---------------- consumers */
#if WG_SETMAXNREG
        setmaxnreg_inc232();
#endif
        int c = wg - 1;
        float acc[WG_BN / 2]; tl_emu::uninit_fill(acc, __LINE__, 1); /* the first k step overwrites them (scale-d 0): no zeroing pass */
        for (int kt = 0; kt < ktiles; kt++) {
            int s = kt % WG_STAGES, u = kt / WG_STAGES;
            mbar_wait(&full[s], 0); /* BUG: the parity of the u-th use is u & 1: from the second use on this
                                     * returns at once (phase 0 completed long ago), before the TMA lands */
            const unsigned char *a = sA + s * WG_A_BYTES + c * 64 * 128; /* this warpgroup's 64 rows */
            const unsigned char *b = sB + s * WG_B_BYTES;
            wg_fence_acc(acc);
            wgmma_fence();
/* #pragma unroll */
            for (int kk = 0; kk < WG_BK / 16; kk++) /* 16 BF16 = 32 bytes along the swizzled row */
                WGMMA_OP(acc, wg_desc(a + kk * 32), wg_desc(b + kk * 32), kt > 0 || kk > 0);
            wgmma_commit();
            wg_fence_acc(acc);
            /* The group just issued may still run; the one before it has finished: release its stage. */
            wgmma_wait1();
            if (kt > 0 && tid % 32 == 0)
                mbar_arrive(&empty[(kt - 1) % WG_STAGES]);
        }
        wgmma_wait0();
        wg_fence_acc(acc);

        /* ---------------- epilogue: the m64nN accumulator layout (warp w holds rows 16w..16w+15:
         * lane/4 and lane/4 + 8; columns 8j + 2 (lane % 4) and the next one) */
        int w = tid / 32, lane = tid % 32;
        int row = tm * WG_BM + c * 64 + w * 16 + lane / 4;
        int colb = tn * WG_BN + (lane % 4) * 2;
        int pairs = (n % 2 == 0); /* a float2 store needs an even row length */
/* #pragma unroll */
        for (int j = 0; j < WG_BN / 8; j++) {
            int col = colb + j * 8;
/* #pragma unroll */
            for (int h = 0; h < 2; h++) {
                int r = row + 8 * h;
                if (r >= m)
                    continue;
                float v0 = acc[j * 4 + 2 * h], v1 = acc[j * 4 + 2 * h + 1];
                float *p = Pd + (size_t)r * n + col;
                if (pairs && col + 1 < n) {
                    *(float2 *)p = make_float2(v0, v1);
                } else {
                    if (col < n)
                        (tl_emu::gcount(1), p)[0] = v0;
                    if (col + 1 < n)
                        (tl_emu::gcount(1), p)[1] = v1;
                }
            }
        }
    }
#endif /* WG_HAVE_SM90A */
}

/* ------------------------------------------------------------------------------- the launcher */

/* cuTensorMapEncodeTiled through the runtime, so that nothing links libcuda directly. */
typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

/* A rows x ldk BF16 matrix, read in boxes of box_rows x 64 with the 128-byte swizzle; zeros outside. */
static int make_map(CUtensorMap *map, const tl_bf16_bits *base, int rows, int k, int ldk, int box_rows)
{
    static encode_fn encode = NULL;
    if (!encode) {
        cudaDriverEntryPointQueryResult q;
        void *fn = NULL;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) !=
                cudaSuccess ||
            q != cudaDriverEntryPointSuccess || !fn)
            return (int)cudaErrorNotSupported;
        encode = (encode_fn)fn;
    }
    cuuint64_t dims[2] = {(cuuint64_t)k, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)ldk * 2};
    cuuint32_t box[2] = {WG_BK, (cuuint32_t)box_rows};
    cuuint32_t estr[2] = {1, 1};
    CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)base, dims, strides, box, estr,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? 0 : (int)cudaErrorInvalidValue;
}

extern "C" int launch_wgmma_bf16(const tl_bf16_bits *Mb, const tl_bf16_bits *Nbt, float *Pd, int m, int k, int n,
                                 int ldk)
{
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess)
        return (int)cudaErrorNoDevice;
    if (!TL08_SM90A || major != 9 || minor != 0) /* wgmma is sm_90a machine code: nothing else runs it */
        return (int)cudaErrorInvalidDeviceFunction;
    if (ldk % 8 != 0 || ldk < k)
        return (int)cudaErrorInvalidValue;
    CUtensorMap tmA, tmB;
    int rc = make_map(&tmA, Mb, m, k, ldk, WG_BM);
    if (rc == 0)
        rc = make_map(&tmB, Nbt, n, k, ldk, WG_BN);
    if (rc != 0)
        return rc;
    static int attr_set = 0;
    if (!attr_set) {
        cudaError_t e = cudaFuncSetAttribute(wgmma_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, WG_SMEM_BYTES);
        if (e != cudaSuccess)
            return (int)e;
        attr_set = 1;
    }
    int blocks = ceil_div(m, WG_BM) * ceil_div(n, WG_BN);
    tl_emu_launch(wgmma_gemm, "wgmma_gemm", __FILE__, __LINE__, blocks,  WG_THREADS,  WG_SMEM_BYTES)(tmA, tmB, Pd, m, n, k);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// wgmma_gemm: fibers (a preprocessor line inside the kernel)
#if 1
static tl_emu::KernelReg tl_emu_reg_wgmma_gemm_0_(wgmma_gemm, "wgmma_gemm", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_wgmma_gemm_0_(wgmma_gemm, "wgmma_gemm", 0, 0);
#endif
