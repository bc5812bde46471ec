#line 1 "labs/07-async-copies/asynccopy.cu"
/* asynccopy.cu: lab 07, asynchronous tile copies. YOU complete this file; nothing else.
 *
 * Check:  ./kit check 07     (variants cpasync, tma, grouped, next to cuBLAS)
 * Read:   labs/07-async-copies/README.md for the steps, the measured numbers and the questions.
 * Run:    build/labs/07-async-copies/lab07 --variants cpasync --sizes 17,1000x17x3
 *         build/labs/07-async-copies/lab07 --sizes 4096                (every variant; cublas when built)
 *
 * All matrices are row-major floats on the device: P (m x n) = M (m x k) * N (k x n), any
 * m, k, n >= 1. Plain CUDA C is all it needs; templates (a templated kernel or __device__ helper) are
 * allowed: they build for the GPU and, for part (a), emulated. No inline assembly (the copy engine's
 * PTX is in the kit's tma.h). Every kernel is lab 06's warp-tiled 128 x 128 block tile, 8 x 8 outputs a
 * thread, 256 threads; what changes is who moves the tiles:
 *   (a) cpasync: cp.async copies global -> shared without registers, CP_STAGES stages deep; the
 *       wait on the oldest stage replaces lab 06's staging registers and its second barrier; the
 *       edges are the copy's zero fill (src-size 0: the lecture's `else ... = 0`).
 *   (b) tma: the Tensor Memory Accelerator copies a whole box (BK x 128 of M, 128 x BK of N) from
 *       one instruction issued by one thread, completing on an mbarrier with the transaction count;
 *       TM_STAGES boxes in flight; out-of-bounds box elements arrive as 0 (no guards at all).
 *   (c) grouped: (b) with the blocks launched in groups of GROUP_M block rows, so that blocks that
 *       run at the same time share their M and N tiles in L2.
 * Given (lab 06's step, already done): the multiply-adds of one stage (mma_stage), the stores of P
 * (store_tile), the launchers' plumbing. Yours: the TODOs (a) zero-filled copies and the stage loop,
 * (b) the tensor maps and the mbarrier stages, (c) the block order. The tunables are the
 * reference's; you may change them (say why in a comment), the launchers must still cover P.
 * Scope: FP32 on the CUDA cores (FFMA), as cuBLAS's CUBLAS_DEFAULT_MATH does; no tensor cores.
 */
#include <stdint.h>

#include <cuda_pipeline.h>   /* __pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior */

#include "cuda_check.h"
#include "lab.h"
#include "tma.h"

/* ------------------------------------------------------------------ the tunables */
#define BM 128
#define BN 128
#define THREADS 256
/* (a) and (b) measured on an H100 (2026-11-26, tests/gpu/lab07-results/h100-sweep3-*), time ratios
 * to cuBLAS SGEMM at 4096: see the README's table. The cp.async kernel keeps its copies' addresses
 * in registers: at 2 blocks an SM (128 registers) it ran at 0.77-0.80, at 1 block (167 registers)
 * with BK 32 and 4 stages at 0.86; the TMA kernel needs none (one thread, coordinates only) and
 * runs best at 2 blocks, BK 32, 3 stages (0.93). */
#ifndef CP_BK
#define CP_BK 32          /* (a) phase width */
#endif
#ifndef CP_STAGES
#define CP_STAGES 4       /* (a) stages of shared memory: CP_STAGES - 1 phases in flight */
#endif
#ifndef CP_MIN_BLOCKS
#define CP_MIN_BLOCKS 1   /* (a) __launch_bounds__'s blocks per SM */
#endif
#define CP_PAD 4          /* (a) M's tile rows padded by 4 floats: no bank conflicts (mma_stage) */
#ifndef TM_BK
#define TM_BK 32          /* (b) phase width: a box of M is TM_BK x 128, of N 128 x TM_BK */
#endif
#ifndef TM_STAGES
#define TM_STAGES 3       /* (b) stages: boxes of TM_STAGES - 1 phases in flight */
#endif
#ifndef TM_MIN_BLOCKS
#define TM_MIN_BLOCKS 2   /* (b) blocks per SM: 2 caps registers at 128 */
#endif
#ifndef GROUP_M
#define GROUP_M 8         /* (c) block rows a group */
#endif

#define CP_MSTAGE (BM * (CP_BK + CP_PAD))   /* floats of one stage of M's tile (rows padded) */
#define CP_NSTAGE (CP_BK * BN)              /* ... of N's tile                            */
#define CP_SMEM ((size_t)CP_STAGES * (CP_MSTAGE + CP_NSTAGE) * sizeof(float))
#define TM_MSTAGE (BM * TM_BK)              /* floats of one box of M (TM_BK columns, BM rows) */
#define TM_NSTAGE (TM_BK * BN)              /* ... of N (BN columns, TM_BK rows)               */
#define TM_SMEM (128 + (size_t)TM_STAGES * ((TM_MSTAGE + TM_NSTAGE) * sizeof(float) + sizeof(uint64_t)))

/* ------------------------------------------------------------------ block order */

/* Block id -> its tile (bm, bn) of P. group 1 is the plain order, row after row of tiles (lab 06's
 * grid). group g > 1 walks g tile rows together, column by column: the blocks in flight at one
 * time cover a g x (resident / g) patch of P, so they read g tiles of M and resident/g of N
 * instead of resident/tilesN of M and all of N. The last group may have fewer rows. */
static __device__ __forceinline__ void tile_of(int id, int tilesM, int tilesN, int group, int *bm, int *bn)
{
    /* TODO (c): the grouped order (README, part c). As given, the plain order for every group. */
    (void)tilesM;
    (void)group;
    *bm = id / tilesN;
    *bn = id % tilesN;
}

/* ------------------------------------------------------------------ stores of P */

/* Four results of one row of P: one float4 store when the row allows it, else guarded scalars. */
static __device__ __forceinline__ void store4(float *__restrict__ p, int row, int rows, int col, int cols,
                                              int vec, float a, float b, float c, float d)
{
    if (row >= rows)
        return;
    float *q = p + (size_t)row * cols + col;
    if (vec && col + 3 < cols) {
        *(float4 *)q = make_float4(a, b, c, d);
    } else {
        if (col + 0 < cols) q[0] = a;
        if (col + 1 < cols) q[1] = b;
        if (col + 2 < cols) q[2] = c;
        if (col + 3 < cols) q[3] = d;
    }
}

/* ------------------------------------------------------------------ the warp tile's arithmetic */

/* One phase's multiply-adds from a stage: Ms[r * ldm + kk] (M's tile, row-major, as both copies
 * leave it), Ns[kk * BN + c]. The thread's rows of P are r0 + 4*i and 64 + r0 + 4*i (i = 0..3), its
 * columns tx4.. and 64 + tx4..: per 4 kk it reads 8 float4 of M (4 kk of one row each) and 2 float4
 * of N per kk, and does 8 x 8 x 4 multiply-adds. At each i the four lane groups (lane / 8) read
 * four neighbouring rows of M: with ldm = BK + 4 they fall in four different bank quads. */
static __device__ __forceinline__ void mma_stage(float acc[8][8], const float *Ms, int ldm, const float *Ns, int bk,
                                                 int r0, int tx4)
{
/* #pragma unroll */
    for (int kq = 0; kq < bk; kq += 4) {
        float4 a[8];
/* #pragma unroll */
        for (int i = 0; i < 4; ++i) {
            a[i] = *(const float4 *)&Ms[(r0 + 4 * i) * ldm + kq];
            a[4 + i] = *(const float4 *)&Ms[(64 + r0 + 4 * i) * ldm + kq];
        }
/* #pragma unroll */
        for (int kk = 0; kk < 4; ++kk) {
            float4 b0 = *(const float4 *)&Ns[(kq + kk) * BN + tx4];
            float4 b1 = *(const float4 *)&Ns[(kq + kk) * BN + 64 + tx4];
            float rn[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
/* #pragma unroll */
            for (int i = 0; i < 8; ++i) {
                float am = kk == 0 ? a[i].x : kk == 1 ? a[i].y : kk == 2 ? a[i].z : a[i].w;
/* #pragma unroll */
                for (int j = 0; j < 8; ++j)
                    acc[i][j] += am * rn[j];
            }
        }
    }
}

/* The thread's 8 x 8 results into P (rows r0 + 4*i and 64 + r0 + 4*i, columns tx4.. and 64 + tx4..). */
static __device__ __forceinline__ void store_tile(float *__restrict__ Pd, float acc[8][8], int m, int n, int rowBase,
                                                  int colBase, int r0, int tx4, int vecP)
{
/* #pragma unroll */
    for (int i = 0; i < 8; ++i) {
        int row = rowBase + (i < 4 ? r0 + 4 * i : 64 + r0 + 4 * (i - 4));
        store4(Pd, row, m, colBase + tx4, n, vecP, acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        store4(Pd, row, m, colBase + 64 + tx4, n, vecP, acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}

/* ------------------------------------------------------------------ (a) cp.async stages */

/* Four consecutive floats from src to dst as cp.async copies, avail of them inside the matrix
 * (<= 0: none). vec: one 16-byte copy (the row allows it; avail is then <= 0 or >= 4), else four
 * 4-byte copies. What lies outside is not read: src-size 0 (zfill = the copy's size) writes 0, the
 * lecture's `else Mds[ty][tx] = 0` done by the copy. safe: a valid address for the copies that read
 * nothing. */
static __device__ __forceinline__ void cp_copy4(float *dst, const float *src, int avail, int vec, const float *safe)
{
    /* TODO (a): vec: one __pipeline_memcpy_async of 16 bytes; else four of 4 bytes. A copy of
     * nothing (outside the matrix) reads from safe with zfill = its size: 0 lands in dst. */
    (void)dst; (void)src; (void)avail; (void)vec; (void)safe;
}

#define CP_LDM (CP_BK + CP_PAD)                   /* floats a row of M's tile in shared memory */
#define CP_MLD (BM * CP_BK / 4 / THREADS)         /* float4 pieces of M's tile a thread copies a phase */
#define CP_NLD (CP_BK * BN / 4 / THREADS)         /* ... of N's tile */
#define CP_MROWS (THREADS / (CP_BK / 4))          /* M tile rows between one thread's pieces */
#define CP_NROWS (THREADS / (BN / 4))             /* N tile rows between one thread's pieces */

/* The cp.async kernel's body, for both kernels below: the general one (any m, k, n; vecM, vecN,
 * vecP say which rows allow 16-byte accesses) and the one for rows that all do (the common case:
 * the flags are constants there, and the scalar paths and their registers are gone). */
static __device__ __forceinline__ void cp_gemm(const float *__restrict__ Md, const float *__restrict__ Nd,
                                               float *__restrict__ Pd, int m, int k, int n, int vecM, int vecN,
                                               int vecP, int group, float *smem)
{
    float *Mss = smem;                              /* CP_STAGES x [BM][CP_LDM] */
    float *Nss = smem + CP_STAGES * CP_MSTAGE;      /* CP_STAGES x [CP_BK][BN]  */
    int tx = threadIdx.x;
    int bm, bn;
    tile_of(blockIdx.x, ceil_div(m, BM), ceil_div(n, BN), group, &bm, &bn);
    int rowBase = bm * BM, colBase = bn * BN;
    int warp = tx / 32, lane = tx % 32;
    int r0 = (warp / 2) * 16 + lane / 8;
    int tx4 = ((warp % 2) * 8 + lane % 8) * 4;
    /* What this thread copies each phase: CP_MLD pieces of M (rows mRow + l*CP_MROWS, columns
     * kb + mCol..), CP_NLD pieces of N (rows kb + nRow + l*CP_NROWS, columns colBase + nCol..). */
    int mRow = tx / (CP_BK / 4), mCol = (tx % (CP_BK / 4)) * 4;
    int nRow = tx / (BN / 4), nCol = (tx % (BN / 4)) * 4;
    /* pM, pN: the next phase to issue's first pieces (advanced a phase at a time, dereferenced only
     * inside M and N); the others are mStep, nStep floats further. mLeft: columns of M left from
     * this thread's piece on (k - kb - mCol); mRows/nRows: bit l set when piece l's row is inside. */
    const float *pM = Md + (size_t)(rowBase + mRow) * k + mCol;
    const float *pN = Nd + (size_t)nRow * n + colBase + nCol;
    size_t mStep = (size_t)CP_MROWS * k, nStep = (size_t)CP_NROWS * n;
    int mLeft = k - mCol, nLeft = n - colBase - nCol, kLeft = k - nRow;
    unsigned mRows = 0;
/* #pragma unroll */
    for (int l = 0; l < CP_MLD; ++l)
        mRows |= (rowBase + mRow + l * CP_MROWS < m) << l;

    float acc[8][8];
/* #pragma unroll */
    for (int i = 0; i < 8; ++i)
/* #pragma unroll */
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;

    int phases = ceil_div(k, CP_BK);
    /* TODO (a): the pipeline (README, part a).
     *   prologue: phases 0 .. CP_STAGES - 2 copied (cp_copy4 for each of this thread's CP_MLD pieces
     *             of M and CP_NLD of N, into stage p % CP_STAGES), one __pipeline_commit() each;
     *   each phase ph: wait until phase ph's group has landed (__pipeline_wait_prior: how many
     *             newer groups may still be pending?), one __syncthreads(), copy phase
     *             ph + CP_STAGES - 1 into the stage phase ph - 1 used, commit (also when there is no
     *             such phase), then mma_stage(acc, ...) on stage ph % CP_STAGES;
     *   after the loop: __pipeline_wait_prior(0).
     * The pointers above (pM, pN, mStep, nStep, mLeft, nLeft, kLeft, mRows) are the reference's
     * bookkeeping: use them or your own. Until then the accumulators stay 0 (P comes out all 0). */
    (void)phases; (void)pM; (void)pN; (void)mStep; (void)nStep; (void)mLeft; (void)nLeft; (void)kLeft;
    (void)mRows; (void)Mss; (void)Nss; (void)vecM; (void)vecN;
    store_tile(Pd, acc, m, n, rowBase, colBase, r0, tx4, vecP);
}

__global__ void __launch_bounds__(THREADS, CP_MIN_BLOCKS)
MatrixMulCpAsync(const float *__restrict__ Md, const float *__restrict__ Nd, float *__restrict__ Pd,
                 int m, int k, int n, int vecM, int vecN, int vecP, int group)
{
    static const tl_emu::Site smem_tl_site_ = {"smem", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::ADyn<float>> smem(smem_tl_site_); 
    cp_gemm(Md, Nd, Pd, m, k, n, vecM, vecN, vecP, group, smem(__LINE__));
}

__global__ void __launch_bounds__(THREADS, CP_MIN_BLOCKS)
MatrixMulCpAsyncVec(const float *__restrict__ Md, const float *__restrict__ Nd, float *__restrict__ Pd,
                    int m, int k, int n, int group)
{
    static const tl_emu::Site smem_tl_site_ = {"smem", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::ADyn<float>> smem(smem_tl_site_); 
    cp_gemm(Md, Nd, Pd, m, k, n, 1, 1, 1, group, smem(__LINE__));
}

/* ------------------------------------------------------------------ (b) TMA tiles */

/* The boxes land row-major, as they are in global memory: Ms[r][kk] (TM_BK floats a row),
 * Ns[kk][c] (BN floats a row); the copy engine writes them densely (no padding: at each i the
 * lane groups' rows of M share two bank quads, a 2-way conflict on M's loads). */
__global__ void __launch_bounds__(THREADS, TM_MIN_BLOCKS)
MatrixMulTma(const __grid_constant__ CUtensorMap mapM, const __grid_constant__ CUtensorMap mapN,
             float *__restrict__ Pd, int m, int k, int n, int vecP, int group)
{
    /* The stages, then the barriers, all in dynamic shared memory; boxes need 128-byte aligned
     * destinations (the offset keeps the pointer a shared-memory one for the compiler). */
    static const tl_emu::Site raw_tl_site_ = {"raw", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::ADyn<float>> raw(raw_tl_site_); 
    tl_emu::SPtr<float> Mss = raw(__LINE__) + ((128 - (tl_smem_addr(raw(__LINE__)) & 127)) & 127) / sizeof(float);   /* TM_STAGES x [BM][TM_BK] */
    tl_emu::SPtr<float> Nss = Mss(__LINE__) + TM_STAGES * TM_MSTAGE;                                        /* TM_STAGES x [TM_BK][BN] */
    uint64_t *full = (uint64_t *)(&*Nss(__LINE__) + TM_STAGES * TM_NSTAGE);   /* stage s landed: a phase of full[s] */
    int tx = threadIdx.x;
    int bm, bn;
    tile_of(blockIdx.x, ceil_div(m, BM), ceil_div(n, BN), group, &bm, &bn);
    int rowBase = bm * BM, colBase = bn * BN;
    int warp = tx / 32, lane = tx % 32;
    int r0 = (warp / 2) * 16 + lane / 8;
    int tx4 = ((warp % 2) * 8 + lane % 8) * 4;
    const unsigned stageBytes = (TM_MSTAGE + TM_NSTAGE) * sizeof(float);

    float acc[8][8]; tl_emu::uninit_fill(acc, __LINE__, 1);
/* #pragma unroll */
    for (int i = 0; i < 8; ++i)
/* #pragma unroll */
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;

    /* TODO (b): the stages (README, part b), with tma.h's operations.
     *   thread 0: tl_mbar_init(&full[s], 1) for every stage, tl_mbar_init_fence(); then every thread
     *             __syncthreads();
     *   thread 0, prologue: for phases 0 .. TM_STAGES - 2: tl_mbar_expect_tx(&full[s], stageBytes),
     *             then the two boxes (tl_tma_load_2d: M's at column p*TM_BK, row rowBase; N's at
     *             column colBase, row p*TM_BK) into stage s;
     *   each phase ph: tl_mbar_wait(&full[s], parity) (which parity is the (ph / TM_STAGES + 1)-th
     *             fill of stage s?), __syncthreads(), thread 0 refills the stage phase ph - 1 used
     *             with phase ph + TM_STAGES - 1 (tl_fence_proxy_async() first: why?), then
     *             mma_stage(acc, ...) on stage s.
     * Until then the accumulators stay 0 (P comes out all 0). */
    (void)mapM; (void)mapN; (void)k; (void)Mss(__LINE__); (void)Nss(__LINE__); (void)full; (void)stageBytes;
    store_tile(Pd, acc, m, n, rowBase, colBase, r0, tx4, vecP);
}

/* ------------------------------------------------------------------ the launchers */

/* 16-byte accesses need a row length that is a multiple of 4 floats and a 16-byte aligned start. */
static int rows_allow_float4(const float *p, int cols)
{
    return cols % 4 == 0 && (uintptr_t)p % 16 == 0;
}

static int run_cpasync(float *Md, float *Nd, float *Pd, int m, int k, int n, int group)
{
    static int ready;
    if (!ready) {   /* more than 48 KB of dynamic shared memory must be asked for */
        cudaError_t rc = cudaFuncSetAttribute(MatrixMulCpAsync, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              (int)CP_SMEM);
        if (rc == cudaSuccess)
            rc = cudaFuncSetAttribute(MatrixMulCpAsyncVec, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)CP_SMEM);
        if (rc != cudaSuccess)
            return (int)rc;
        ready = 1;
    }
    int blocks = ceil_div(m, BM) * ceil_div(n, BN);
    int vecM = rows_allow_float4(Md, k), vecN = rows_allow_float4(Nd, n), vecP = rows_allow_float4(Pd, n);
#ifndef CP_NO_VEC_KERNEL
    if (vecM && vecN && vecP)
        tl_emu_launch(MatrixMulCpAsyncVec, "MatrixMulCpAsyncVec", __FILE__, __LINE__, blocks,  THREADS,  CP_SMEM)(Md, Nd, Pd, m, k, n, group);
    else
#endif
        tl_emu_launch(MatrixMulCpAsync, "MatrixMulCpAsync", __FILE__, __LINE__, blocks,  THREADS,  CP_SMEM)(Md, Nd, Pd, m, k, n, vecM, vecN, vecP, group);
    return (int)cudaGetLastError();
}

extern "C" int launch_cpasync(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    return run_cpasync(Md, Nd, Pd, m, k, n, 1);
}

/* A 2-D tensor map of a row-major rows x cols matrix of floats, boxes of boxCols x boxRows.
 * Returns 0, or -1 where the copy engine cannot address the matrix: the row pitch (cols * 4
 * bytes) must be a multiple of 16 and the start 16-byte aligned. Out-of-bounds elements of a box
 * are filled with zeros (FLOAT_OOB_FILL_NONE: zeros, not NaN). */
static int encode_map(CUtensorMap *map, const float *p, int rows, int cols, int boxRows, int boxCols)
{
    tl_encode_tiled_fn encode = tl_get_encode_tiled();
    if (!encode || cols % 4 != 0 || (uintptr_t)p % 16 != 0)
        return -1;
    /* TODO (b): fill map with encode(...): FLOAT32, rank 2, the sizes innermost first, the row
     * pitch in bytes, the box (boxCols, boxRows), element strides 1, no interleave, no swizzle, an
     * L2 promotion, and the out-of-bounds fill that writes zeros. Return 0 on CUDA_SUCCESS. Until
     * then: -1 (the launchers fall back to the cp.async kernel). */
    (void)map; (void)rows; (void)boxRows; (void)boxCols;
    return -1;
}

/* The TMA kernel where the copy engine can address both inputs (k and n multiples of 4, aligned
 * starts) and the device is sm_90 or newer; else the cp.async kernel, with the same block order. */
static int run_tma(float *Md, float *Nd, float *Pd, int m, int k, int n, int group)
{
    static int ready, major;
    if (!ready) {
        int dev;
        cudaError_t rc = cudaGetDevice(&dev);
        if (rc == cudaSuccess)
            rc = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
        if (rc == cudaSuccess)
            rc = cudaFuncSetAttribute(MatrixMulTma, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)TM_SMEM);
        if (rc != cudaSuccess)
            return (int)rc;
        ready = 1;
    }
    CUtensorMap mapM, mapN;
    if (major < 9 || encode_map(&mapM, Md, m, k, BM, TM_BK) != 0 || encode_map(&mapN, Nd, k, n, TM_BK, BN) != 0)
        return run_cpasync(Md, Nd, Pd, m, k, n, group);
    int blocks = ceil_div(m, BM) * ceil_div(n, BN);
    tl_emu_launch(MatrixMulTma, "MatrixMulTma", __FILE__, __LINE__, blocks,  THREADS,  TM_SMEM)(mapM, mapN, Pd, m, k, n, rows_allow_float4(Pd, n), group);
    return (int)cudaGetLastError();
}

extern "C" int launch_tma(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    return run_tma(Md, Nd, Pd, m, k, n, 1);
}

extern "C" int launch_grouped(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
#ifdef GROUPED_CPASYNC
    return run_cpasync(Md, Nd, Pd, m, k, n, GROUP_M);
#else
    return run_tma(Md, Nd, Pd, m, k, n, GROUP_M);
#endif
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulCpAsync: fibers (it calls cp_gemm, which holds a barrier or a warp operation)
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulCpAsync_0_(MatrixMulCpAsync, "MatrixMulCpAsync", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulCpAsync_0_(MatrixMulCpAsync, "MatrixMulCpAsync", 0, 0);
#endif
// MatrixMulCpAsyncVec: fibers (it calls cp_gemm, which holds a barrier or a warp operation)
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulCpAsyncVec_1_(MatrixMulCpAsyncVec, "MatrixMulCpAsyncVec", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulCpAsyncVec_1_(MatrixMulCpAsyncVec, "MatrixMulCpAsyncVec", 0, 0);
#endif
// MatrixMulTma: fibers (a pointer into shared memory that may differ between threads)
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulTma_2_(MatrixMulTma, "MatrixMulTma", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulTma_2_(MatrixMulTma, "MatrixMulTma", 0, 0);
#endif
