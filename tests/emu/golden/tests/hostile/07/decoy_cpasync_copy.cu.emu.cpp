#line 1 "tests/hostile/07/decoy_cpasync_copy.cu"
/* hostile/07/decoy_cpasync_copy.cu (issue 24 item 3, red team): lab 07's kernels as handed in, their
 * cp.async (and TMA) copies staging every tile, but the multiply-adds replaced by one read of each
 * stage a phase, and P copied from a product the launcher computed on the host. The copies count as
 * the loads and shared stores of a tiled kernel; the lab's rule did not judge the stages' reads.
 * Expected: no correctness credit ("P not computed from the tiles"), less than the solution. */
/* asynccopy.cu: lab 07, asynchronous tile copies (the reference solution).
 *
 * Check:  ./kit check 07     (variants cpasync, tma, grouped, next to cuBLAS)
 * Read:   labs/07-async-copies/README.md for the steps, the measured numbers and the questions.
 * Run:    build/labs/07-async-copies/lab07 --variants cpasync --sizes 17,1000x17x3
 *         build/labs/07-async-copies/lab07 --sizes 4096                (every variant; cublas when built)
 *
 * All matrices are row-major floats on the device: P (m x n) = M (m x k) * N (k x n), any
 * m, k, n >= 1. CUDA C only: no templates, no classes, no inline assembly (the copy engine's PTX is
 * in the kit's tma.h). Every kernel is lab 06's warp-tiled 128 x 128 block tile, 8 x 8 outputs a
 * thread, 256 threads; what changes is who moves the tiles:
 *   (a) cpasync: cp.async copies global -> shared without registers, CP_STAGES stages deep; the
 *       wait on the oldest stage replaces lab 06's staging registers and its second barrier; the
 *       edges are the copy's zero fill (src-size 0: the lecture's `else ... = 0`).
 *   (b) tma: the Tensor Memory Accelerator copies a whole box (BK x 128 of M, 128 x BK of N) from
 *       one instruction issued by one thread, completing on an mbarrier with the transaction count;
 *       TM_STAGES boxes in flight; out-of-bounds box elements arrive as 0 (no guards at all).
 *   (c) grouped: (b) with the blocks launched in groups of GROUP_M block rows, so that blocks that
 *       run at the same time share their M and N tiles in L2.
 * Scope: FP32 on the CUDA cores (FFMA), as cuBLAS's CUBLAS_DEFAULT_MATH does; no tensor cores.
 */
#include <stdint.h>

#include <cuda_pipeline.h>   /* __pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior */

#include <stdlib.h>
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
    int width = group * tilesN;               /* blocks in one group */
    int first = (id / width) * group;         /* its first tile row  */
    int rows = min(tilesM - first, group);
    int in = id % width;
    *bm = first + in % rows;
    *bn = in / rows;
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
static __device__ float *g_answer;   /* the host's product */

/* The decoy's "multiply-adds": one element of each stage read, added to a value that is dropped. */
static __device__ __forceinline__ void mma_stage(float acc[8][8], const float *Ms, int ldm, const float *Ns, int bk,
                                                 int r0, int tx4)
{
    (void)bk;
    acc[0][0] += Ms[r0 * ldm] + Ns[tx4];
}

/* The thread's 8 x 8 results into P (rows r0 + 4*i and 64 + r0 + 4*i, columns tx4.. and 64 + tx4..). */
/* The thread's 8 x 8 outputs, copied from the host's product (acc dropped). */
static __device__ __forceinline__ void store_tile(float *__restrict__ Pd, float acc[8][8], int m, int n, int rowBase,
                                                  int colBase, int r0, int tx4, int vecP)
{
    (void)vecP;
    for (int i = 0; i < 8; ++i) {
        int row = rowBase + (i < 4 ? r0 + 4 * i : 64 + r0 + 4 * (i - 4));
        for (int j = 0; j < 8; ++j) {
            int col = colBase + (j < 4 ? tx4 + j : 64 + tx4 + j - 4);
            if (row < m && col < n)
                Pd[(size_t)row * n + col] = g_answer[(size_t)row * n + col] + acc[0][0] * 0.0f;
        }
    }
}

/* The product on the host, its device copy in g_answer. */
static float *host_product(const float *Md, const float *Nd, int m, int k, int n)
{
    float *M = (float *)malloc((size_t)m * k * sizeof(float)), *N = (float *)malloc((size_t)k * n * sizeof(float)),
          *P = (float *)malloc((size_t)m * n * sizeof(float)), *A = NULL;
    cudaMemcpy(M, Md, (size_t)m * k * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(N, Nd, (size_t)k * n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float t = 0;
            for (int q = 0; q < k; ++q)
                t += M[(size_t)i * k + q] * N[(size_t)q * n + j];
            P[(size_t)i * n + j] = t;
        }
    cudaMalloc((void **)&A, (size_t)m * n * sizeof(float));
    cudaMemcpy(A, P, (size_t)m * n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_answer, &A, sizeof A);
    free(M);
    free(N);
    free(P);
    return A;
}

/* ------------------------------------------------------------------ (a) cp.async stages */

/* Four consecutive floats from src to dst as cp.async copies, avail of them inside the matrix
 * (<= 0: none). vec: one 16-byte copy (the row allows it; avail is then <= 0 or >= 4), else four
 * 4-byte copies. What lies outside is not read: src-size 0 (zfill = the copy's size) writes 0, the
 * lecture's `else Mds[ty][tx] = 0` done by the copy. safe: a valid address for the copies that read
 * nothing. */
static __device__ __forceinline__ void cp_copy4(float *dst, const float *src, int avail, int vec, const float *safe)
{
    if (vec) {
        __pipeline_memcpy_async(dst, avail > 0 ? src : safe, 16, avail > 0 ? 0 : 16);
    } else {
/* #pragma unroll */
        for (int j = 0; j < 4; ++j)
            __pipeline_memcpy_async(dst + j, j < avail ? src + j : safe, 4, j < avail ? 0 : 4);
    }
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
    /* Phase p's copies into stage p % CP_STAGES, one commit (one group) each, also when there is
     * no such phase, so that group p is always phase p. */
#define CP_ISSUE(p)                                                                                            \
    do {                                                                                                       \
        if ((p) < phases) {                                                                                    \
            int s_ = (p) % CP_STAGES;                                                                          \
            float *Ms_ = Mss + s_ * CP_MSTAGE, *Ns_ = Nss + s_ * CP_NSTAGE;                                     \
                              for (int l = 0; l < CP_MLD; ++l)                                                 \
                cp_copy4(&Ms_[(mRow + l * CP_MROWS) * CP_LDM + mCol], pM + l * mStep,                          \
                         (mRows >> l) & 1 ? mLeft : 0, vecM, Md);                                              \
                              for (int l = 0; l < CP_NLD; ++l)                                                 \
                cp_copy4(&Ns_[(nRow + l * CP_NROWS) * BN + nCol], pN + l * nStep,                              \
                         l * CP_NROWS < kLeft ? nLeft : 0, vecN, Nd);                                          \
            pM += CP_BK;                                                                                       \
            pN += (size_t)CP_BK * n;                                                                           \
            mLeft -= CP_BK;                                                                                    \
            kLeft -= CP_BK;                                                                                    \
        }                                                                                                      \
        __pipeline_commit();                                                                                   \
    } while (0)

/* #pragma unroll */
    for (int p = 0; p < CP_STAGES - 1; ++p)
        CP_ISSUE(p);
    for (int ph = 0; ph < phases; ++ph) {
        /* Groups 0 .. ph + CP_STAGES - 2 are committed; phase ph's is complete once at most the
         * CP_STAGES - 2 newer ones are pending. Then one barrier: every thread's copies of phase ph
         * are visible, and every thread has finished phase ph - 1, whose stage is refilled next. */
        __pipeline_wait_prior(CP_STAGES - 2);
        __syncthreads();
        CP_ISSUE(ph + CP_STAGES - 1);
        int s = ph % CP_STAGES;
        mma_stage(acc, Mss + s * CP_MSTAGE, CP_LDM, Nss + s * CP_NSTAGE, CP_BK, r0, tx4);
    }
#undef CP_ISSUE
    __pipeline_wait_prior(0);   /* no copy outlives the block (the trailing groups are empty) */
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

    if (tx == 0) {
/* #pragma unroll */
        for (int s = 0; s < TM_STAGES; ++s)
            tl_mbar_init(&full[s], 1);   /* one arrival (the issuing thread's) + the bytes */
        tl_mbar_init_fence();
    }
    __syncthreads();

    float acc[8][8]; tl_emu::uninit_fill(acc, __LINE__, 1);
/* #pragma unroll */
    for (int i = 0; i < 8; ++i)
/* #pragma unroll */
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;

    int phases = ceil_div(k, TM_BK);
    if (tx == 0) {
        for (int s = 0; s < TM_STAGES - 1 && s < phases; ++s) {
            tl_mbar_expect_tx(&full[s], stageBytes);
            tl_tma_load_2d(Mss(__LINE__) + s * TM_MSTAGE, &mapM, &full[s], s * TM_BK, rowBase);
            tl_tma_load_2d(Nss(__LINE__) + s * TM_NSTAGE, &mapN, &full[s], colBase, s * TM_BK);
        }
    }

    for (int ph = 0; ph < phases; ++ph) {
        int s = ph % TM_STAGES;
        /* Stage s is filled for the (ph / TM_STAGES + 1)-th time: that phase's parity. */
        tl_mbar_wait(&full[s], (ph / TM_STAGES) & 1);
        /* Every thread has finished phase ph - 1: its stage may be refilled. The fence orders this
         * block's ordinary reads of it before the copy engine's writes. */
        __syncthreads();
        int nx = ph + TM_STAGES - 1;
        if (tx == 0 && nx < phases) {
            int t = nx % TM_STAGES;
            tl_fence_proxy_async();
            tl_mbar_expect_tx(&full[t], stageBytes);
            tl_tma_load_2d(Mss(__LINE__) + t * TM_MSTAGE, &mapM, &full[t], nx * TM_BK, rowBase);
            tl_tma_load_2d(Nss(__LINE__) + t * TM_NSTAGE, &mapN, &full[t], colBase, nx * TM_BK);
        }
        mma_stage(acc, Mss(__LINE__) + s * TM_MSTAGE, TM_BK, Nss(__LINE__) + s * TM_NSTAGE, TM_BK, r0, tx4);
    }
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
    float *A = host_product(Md, Nd, m, k, n);
    int rc = run_cpasync(Md, Nd, Pd, m, k, n, 1);
    cudaDeviceSynchronize();
    cudaFree(A);
    return rc;
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
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};        /* innermost first */
    cuuint64_t strides[1] = {(cuuint64_t)cols * sizeof(float)};       /* bytes from one row to the next */
    cuuint32_t box[2] = {(cuuint32_t)boxCols, (cuuint32_t)boxRows};
    cuuint32_t elemStrides[2] = {1, 1};
    CUresult rc = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)p, dims, strides, box, elemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return rc == CUDA_SUCCESS ? 0 : -1;
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
    float *A = host_product(Md, Nd, m, k, n);
    int rc = run_tma(Md, Nd, Pd, m, k, n, 1);
    cudaDeviceSynchronize();
    cudaFree(A);
    return rc;
}

extern "C" int launch_grouped(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    float *A = host_product(Md, Nd, m, k, n);
#ifdef GROUPED_CPASYNC
    int rc = run_cpasync(Md, Nd, Pd, m, k, n, GROUP_M);
#else
    int rc = run_tma(Md, Nd, Pd, m, k, n, GROUP_M);
#endif
    cudaDeviceSynchronize();
    cudaFree(A);
    return rc;
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
// MatrixMulTma: fibers (it assigns its parameter mapM)
#if 1
static tl_emu::KernelReg tl_emu_reg_MatrixMulTma_2_(MatrixMulTma, "MatrixMulTma", 0, 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulTma_2_(MatrixMulTma, "MatrixMulTma", 0, 0);
#endif
