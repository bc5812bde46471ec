/* 06-right-warptile-reinterpret-cast.cu: corpus, lab 06, right:
 * 06-right-warptile-extern-launchers.cu with the extern __shared__ buffer cut by
 * reinterpret_cast<float(*)[cols]>(wt_smem) instead of C casts. Valid CUDA; emulated it was "BUILD FAILED: invalid
 * cast from type tl_emu::ADyn<float>::Ref" until the rewrite took C++ casts to a pointer or to rows like C casts
 * (session 9). */
#include <stdint.h>

#include "cuda_check.h"
#include "lab.h"

/* ------------------------------------------------------------------ the tunables */
/* (a) 1-D coarsening: a C1_BM x C1_BN block tile, C1_BK wide phases, C1_TM outputs per thread
 *     (one column of them): C1_BM * C1_BN / C1_TM = 512 threads per block. */
#define C1_BM 64
#define C1_BN 64
#define C1_BK 8
#define C1_TM 8
#define C1_THREADS (C1_BM * C1_BN / C1_TM)

/* (b) 2-D register tiling: a R2_BM x R2_BN block tile, R2_TM x R2_TN outputs per thread:
 *     256 threads, each loading R2_BM * R2_BK / 256 = 4 elements of each tile per phase. */
#define R2_BM 128
#define R2_BN 128
#define R2_BK 8
#define R2_TM 8
#define R2_TN 8
#define R2_THREADS (R2_BM * R2_BN / (R2_TM * R2_TN))
#ifndef R2_MIN_BLOCKS
#define R2_MIN_BLOCKS 1   /* __launch_bounds__'s blocks per SM; 2 caps registers at 128 (see README) */
#endif

/* (c) the speed step: the same 128 x 128 block tile and 8 x 8 outputs per thread, WT_BK 16 wide
 *     phases, with
 *     - 128-bit (float4) global loads: WT_LDM (2) per thread of M's tile and WT_LDN (2) of N's a
 *       phase, and a scalar fallback where a row is not 16-byte aligned (k or n % 4 != 0);
 *     - M's tile stored transposed (Mts[kk][row]), so a thread's 4 rows are one float4 apart;
 *     - warp tiling: a warp computes a 2 x 2 set of 16 x 32 sub-tiles of P, each thread 4 x 4 of
 *       each (rows ty*4 and 64 + ty*4, columns tx*4 and 64 + tx*4), so that a warp's shared loads
 *       hit 4 (M) and 8 (N) distinct float4s: no bank conflicts, one wavefront each;
 *     - double buffering: two stages of shared memory, the next phase's global loads in flight
 *       while this phase computes, one barrier per phase.
 *     WT_PAD: padding M's transposed tile by 4 floats a row spreads its transposed store over more
 *     banks (with BK 16, the 4 threads that share a row of M wrote one bank: a 4-way conflict, 2-way
 *     with the padding) and keeps rows 16-byte aligned. Measured on an H200: 0.74 of cuBLAS
 *     without it, 0.86 with it (README). */
#define WT_BM 128
#define WT_BN 128
#ifndef WT_BK
#define WT_BK 16          /* 8 or 16: 16 measured 11% faster on an H100 (README) */
#endif
#ifndef WT_PAD
#define WT_PAD 4
#endif
#define WT_THREADS 256
#define WT_LDM (WT_BM * WT_BK / 4 / WT_THREADS)   /* float4s of M's tile each thread loads a phase */
#define WT_LDN (WT_BK * WT_BN / 4 / WT_THREADS)   /* ... and of N's tile                            */
#define WT_MROWS (WT_THREADS / (WT_BK / 4))       /* M tile rows apart of one thread's float4s      */
#define WT_NROWS (WT_THREADS / (WT_BN / 4))       /* N tile rows apart                              */

/* ------------------------------------------------------------------ (a) 1-D coarsening */

/* Thread tx computes C1_TM outputs in one column of P: rows rowBase + tr*C1_TM + i, column
 * colBase + tc. Each N element it reads from shared memory (one per kk) is used C1_TM times from a
 * register; a warp's 32 threads share tr, so their M reads are one broadcast. */
__global__ void __launch_bounds__(C1_THREADS)
MatrixMulCoarse1D(const float *__restrict__ Md, const float *__restrict__ Nd, float *__restrict__ Pd,
                  int m, int k, int n)
{
    __shared__ float Mds[C1_BM][C1_BK];
    __shared__ float Nds[C1_BK][C1_BN];
    int tx = threadIdx.x;
    int rowBase = blockIdx.y * C1_BM, colBase = blockIdx.x * C1_BN;
    int tr = tx / C1_BN, tc = tx % C1_BN;         /* this thread's group of rows, its column  */
    int mr = tx / C1_BK, mc = tx % C1_BK;         /* the M tile element it loads              */
    int nr = tx / C1_BN, nc = tx % C1_BN;         /* the N tile element it loads              */
    float acc[C1_TM];
    for (int i = 0; i < C1_TM; ++i)
        acc[i] = 0.0f;
    for (int ph = 0; ph < ceil_div(k, C1_BK); ++ph) {
        int kb = ph * C1_BK;
        if (rowBase + mr < m && kb + mc < k)
            Mds[mr][mc] = Md[(size_t)(rowBase + mr) * k + kb + mc];
        else
            Mds[mr][mc] = 0.0f;
        if (kb + nr < k && colBase + nc < n)
            Nds[nr][nc] = Nd[(size_t)(kb + nr) * n + colBase + nc];
        else
            Nds[nr][nc] = 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < C1_BK; ++kk) {
            float b = Nds[kk][tc];
#pragma unroll
            for (int i = 0; i < C1_TM; ++i)
                acc[i] += Mds[tr * C1_TM + i][kk] * b;
        }
        __syncthreads();
    }
    int col = colBase + tc;
#pragma unroll
    for (int i = 0; i < C1_TM; ++i) {
        int row = rowBase + tr * C1_TM + i;
        if (row < m && col < n)
            Pd[(size_t)row * n + col] = acc[i];
    }
}

/* ------------------------------------------------------------------ (b) 2-D register tiling */

/* Thread (tr, tc) of the 16 x 16 computes the R2_TM x R2_TN micro-tile at rows tr*R2_TM.., columns
 * tc*R2_TN..: per kk it reads R2_TM values of M and R2_TN of N into registers and adds their outer
 * product, R2_TM * R2_TN multiply-adds for R2_TM + R2_TN shared loads. */
__global__ void __launch_bounds__(R2_THREADS, R2_MIN_BLOCKS)
MatrixMulRegTile(const float *__restrict__ Md, const float *__restrict__ Nd, float *__restrict__ Pd,
                 int m, int k, int n)
{
    __shared__ float Mds[R2_BM][R2_BK];
    __shared__ float Nds[R2_BK][R2_BN];
    int tx = threadIdx.x;
    int rowBase = blockIdx.y * R2_BM, colBase = blockIdx.x * R2_BN;
    int tr = tx / (R2_BN / R2_TN), tc = tx % (R2_BN / R2_TN);
    float acc[R2_TM][R2_TN];
    float regM[R2_TM], regN[R2_TN];
#pragma unroll
    for (int i = 0; i < R2_TM; ++i)
#pragma unroll
        for (int j = 0; j < R2_TN; ++j)
            acc[i][j] = 0.0f;
    for (int ph = 0; ph < ceil_div(k, R2_BK); ++ph) {
        int kb = ph * R2_BK;
        /* Each thread loads R2_BM * R2_BK / R2_THREADS elements of each tile, strided by the block. */
#pragma unroll
        for (int l = 0; l < R2_BM * R2_BK / R2_THREADS; ++l) {
            int e = tx + l * R2_THREADS;
            int r = e / R2_BK, c = e % R2_BK;
            if (rowBase + r < m && kb + c < k)
                Mds[r][c] = Md[(size_t)(rowBase + r) * k + kb + c];
            else
                Mds[r][c] = 0.0f;
        }
#pragma unroll
        for (int l = 0; l < R2_BK * R2_BN / R2_THREADS; ++l) {
            int e = tx + l * R2_THREADS;
            int r = e / R2_BN, c = e % R2_BN;
            if (kb + r < k && colBase + c < n)
                Nds[r][c] = Nd[(size_t)(kb + r) * n + colBase + c];
            else
                Nds[r][c] = 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < R2_BK; ++kk) {
#pragma unroll
            for (int i = 0; i < R2_TM; ++i)
                regM[i] = Mds[tr * R2_TM + i][kk];
#pragma unroll
            for (int j = 0; j < R2_TN; ++j)
                regN[j] = Nds[kk][tc * R2_TN + j];
#pragma unroll
            for (int i = 0; i < R2_TM; ++i)
#pragma unroll
                for (int j = 0; j < R2_TN; ++j)
                    acc[i][j] += regM[i] * regN[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < R2_TM; ++i) {
        int row = rowBase + tr * R2_TM + i;
#pragma unroll
        for (int j = 0; j < R2_TN; ++j) {
            int col = colBase + tc * R2_TN + j;
            if (row < m && col < n)
                Pd[(size_t)row * n + col] = acc[i][j];
        }
    }
}

/* ------------------------------------------------------------------ (c) the speed step */

/* One phase's global loads for the warptile kernel: 4 consecutive elements of a row, columns
 * col.. of a matrix with cols columns, from q (that row, column col); row_ok says whether the row
 * lies inside the matrix. One float4 when the rows allow 16-byte loads (vec: cols % 4 == 0 and a
 * 16-byte aligned start; then all 4 columns are inside or all outside), else 4 guarded scalars
 * (k or n not a multiple of 4: a float4 there would be misaligned). Outside the matrix: 0. */
static __device__ __forceinline__ float4 load4(const float *__restrict__ q, int row_ok, int col, int cols,
                                               int vec)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (!row_ok)
        return v;
    if (vec) {
        if (col < cols)
            v = *(const float4 *)q;
    } else {
        if (col + 0 < cols) v.x = q[0];
        if (col + 1 < cols) v.y = q[1];
        if (col + 2 < cols) v.z = q[2];
        if (col + 3 < cols) v.w = q[3];
    }
    return v;
}

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

/* Two stages of each tile, flattened to 2-D (stage s, row kk is row s*WT_BK + kk). The M tile is
 * transposed: Mts[kk][r] holds M[rowBase + r][kb + kk]. */
__global__ void __launch_bounds__(WT_THREADS, 2)
MatrixMulWarpTile(const float *__restrict__ Md, const float *__restrict__ Nd, float *__restrict__ Pd,
                  int m, int k, int n, int vecM, int vecN, int vecP)
{
    extern __shared__ __align__(16) float wt_smem[];   /* STYLE: both stages' tiles carved from one dynamic shared array */
    float(*Mts)[WT_BM + WT_PAD] = reinterpret_cast<float(*)[WT_BM + WT_PAD]>(wt_smem);   /* STYLE: reinterpret_cast, not C casts */
    float(*Nds)[WT_BN] = reinterpret_cast<float(*)[WT_BN]>(wt_smem + 2 * WT_BK * (WT_BM + WT_PAD));
    int tx = threadIdx.x;
    int rowBase = blockIdx.y * WT_BM, colBase = blockIdx.x * WT_BN;
    /* Warp tiling: warp w covers thread rows (w/2)*4.. and thread columns (w%2)*8.. of the 16 x 16
     * thread grid; lane l is thread row l/8 and column l%8 within it. */
    int warp = tx / 32, lane = tx % 32;
    int ty4 = ((warp / 2) * 4 + lane / 8) * 4;    /* first of this thread's rows, in the tile   */
    int tx4 = ((warp % 2) * 8 + lane % 8) * 4;    /* first of this thread's columns, in the tile */
    /* What this thread loads each phase (see load4): WT_LDM float4s of M's tile, rows
     * mRow + l*WT_MROWS, columns mCol..mCol+3, from pM (advanced by WT_BK columns a phase);
     * WT_LDN of N's tile, rows nRow + l*WT_NROWS, columns nCol.., from pN (advanced by WT_BK rows). */
    int mRow = tx / (WT_BK / 4), mCol = (tx % (WT_BK / 4)) * 4;
    int nRow = tx / (WT_BN / 4), nCol = (tx % (WT_BN / 4)) * 4;
    const float *pM = Md + (size_t)(rowBase + mRow) * k + mCol;   /* dereferenced only inside M */
    const float *pN = Nd + (size_t)nRow * n + colBase + nCol;
    size_t mStepRows = (size_t)WT_MROWS * k, nStepRows = (size_t)WT_NROWS * n;

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;

    int phases = ceil_div(k, WT_BK);
    float4 a[WT_LDM], b[WT_LDN];
    /* Stage 0 before the loop. */
#pragma unroll
    for (int l = 0; l < WT_LDM; ++l)
        a[l] = load4(pM + l * mStepRows, rowBase + mRow + l * WT_MROWS < m, mCol, k, vecM);
#pragma unroll
    for (int l = 0; l < WT_LDN; ++l)
        b[l] = load4(pN + l * nStepRows, nRow + l * WT_NROWS < k, colBase + nCol, n, vecN);
#pragma unroll
    for (int l = 0; l < WT_LDM; ++l) {
        Mts[mCol + 0][mRow + l * WT_MROWS] = a[l].x;
        Mts[mCol + 1][mRow + l * WT_MROWS] = a[l].y;
        Mts[mCol + 2][mRow + l * WT_MROWS] = a[l].z;
        Mts[mCol + 3][mRow + l * WT_MROWS] = a[l].w;
    }
#pragma unroll
    for (int l = 0; l < WT_LDN; ++l) {
        Nds[nRow + l * WT_NROWS][nCol + 0] = b[l].x;
        Nds[nRow + l * WT_NROWS][nCol + 1] = b[l].y;
        Nds[nRow + l * WT_NROWS][nCol + 2] = b[l].z;
        Nds[nRow + l * WT_NROWS][nCol + 3] = b[l].w;
    }
    __syncthreads();

    for (int ph = 0; ph < phases; ++ph) {
        int cur = (ph % 2) * WT_BK, nxt = WT_BK - cur;
        /* The next phase's loads go out now; they land while this phase computes. */
        if (ph + 1 < phases) {
            int kb = (ph + 1) * WT_BK;
            pM += WT_BK;
            pN += (size_t)WT_BK * n;
#pragma unroll
            for (int l = 0; l < WT_LDM; ++l)
                a[l] = load4(pM + l * mStepRows, rowBase + mRow + l * WT_MROWS < m, kb + mCol, k, vecM);
#pragma unroll
            for (int l = 0; l < WT_LDN; ++l)
                b[l] = load4(pN + l * nStepRows, kb + nRow + l * WT_NROWS < k, colBase + nCol, n, vecN);
        }
#pragma unroll
        for (int kk = 0; kk < WT_BK; ++kk) {
            float rm[8], rn[8];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                rm[i] = Mts[cur + kk][ty4 + i];
                rm[4 + i] = Mts[cur + kk][64 + ty4 + i];
                rn[i] = Nds[cur + kk][tx4 + i];
                rn[4 + i] = Nds[cur + kk][64 + tx4 + i];
            }
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    acc[i][j] += rm[i] * rn[j];
        }
        /* The other stage was last read in the previous phase, before the last barrier: it is
         * free. One barrier: the stores below are read only after it. */
        if (ph + 1 < phases) {
#pragma unroll
            for (int l = 0; l < WT_LDM; ++l) {
                Mts[nxt + mCol + 0][mRow + l * WT_MROWS] = a[l].x;
                Mts[nxt + mCol + 1][mRow + l * WT_MROWS] = a[l].y;
                Mts[nxt + mCol + 2][mRow + l * WT_MROWS] = a[l].z;
                Mts[nxt + mCol + 3][mRow + l * WT_MROWS] = a[l].w;
            }
#pragma unroll
            for (int l = 0; l < WT_LDN; ++l) {
                Nds[nxt + nRow + l * WT_NROWS][nCol + 0] = b[l].x;
                Nds[nxt + nRow + l * WT_NROWS][nCol + 1] = b[l].y;
                Nds[nxt + nRow + l * WT_NROWS][nCol + 2] = b[l].z;
                Nds[nxt + nRow + l * WT_NROWS][nCol + 3] = b[l].w;
            }
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        int row = rowBase + (i < 4 ? ty4 + i : 64 + ty4 + i - 4);
        store4(Pd, row, m, colBase + tx4, n, vecP, acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        store4(Pd, row, m, colBase + 64 + tx4, n, vecP, acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}

/* ------------------------------------------------------------------ the launchers */

typedef void (*gemm_fn)(const float *__restrict__, const float *__restrict__, float *__restrict__, int, int, int);   /* STYLE: a kernel pointer type and a variadic launch wrapper */

template <typename Kernel, typename... Args>
static cudaError_t launch_on(Kernel kern, dim3 grid, dim3 block, cudaStream_t stream, Args... args)
{
    kern<<<grid, block, 0, stream>>>(args...);
    return cudaGetLastError();
}

extern "C" int launch_coarse1d(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    gemm_fn f = MatrixMulCoarse1D;   /* STYLE: launched through a function pointer, on a stream */
    cudaStream_t stream = 0;
    f<<<dim3(ceil_div(n, C1_BN), ceil_div(m, C1_BM)), dim3(C1_THREADS), 0, stream>>>(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}

extern "C" int launch_regtile(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    return (int)launch_on(MatrixMulRegTile, dim3(ceil_div(n, R2_BN), ceil_div(m, R2_BM)), dim3(R2_THREADS), 0,   /* STYLE: launched through the wrapper */
                          (const float *)Md, (const float *)Nd, Pd, m, k, n);
}

/* 16-byte loads need a row length that is a multiple of 4 floats and a 16-byte aligned start. */
static int rows_allow_float4(const float *p, int cols)
{
    return cols % 4 == 0 && (uintptr_t)p % 16 == 0;
}

extern "C" int launch_warptile(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    size_t bytes = sizeof(float) * 2 * WT_BK * (WT_BM + WT_PAD + WT_BN);   /* STYLE: from here to the launch: dynamic shared memory sized and allowed, then launched on a stream */
    cudaError_t e = cudaFuncSetAttribute(MatrixMulWarpTile, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (e != cudaSuccess)
        return (int)e;
    const float *A = Md, *B = Nd;
    float *C = Pd;
    int vecM = rows_allow_float4(Md, k), vecN = rows_allow_float4(Nd, n), vecP = rows_allow_float4(Pd, n);
    void *args[] = {&A, &B, &C, &m, &k, &n, &vecM, &vecN, &vecP};
    e = cudaLaunchKernel((const void *)MatrixMulWarpTile, dim3(ceil_div(n, WT_BN), ceil_div(m, WT_BM)),
                         dim3(WT_THREADS), args, bytes, 0);
    if (e != cudaSuccess)
        return (int)e;
    return (int)cudaGetLastError();
}
