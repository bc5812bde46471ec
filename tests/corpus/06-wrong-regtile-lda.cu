/* 06-wrong-regtile-lda.cu: corpus, lab 06, wrong: 06-right-siboehm-guarded.cu whose kernel 5 reads M's tile with N as its leading
 * dimension (A[row * N + col] where M is m x k, lda = k): right wherever k == n (every square size),
 * wrong on the rectangles. */
#include <stdint.h>
#include <sys/types.h>

#include "cuda_check.h"
#include "lab.h"

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

template <const int BM, const int BN, const int BK, const int TM>
__global__ void sgemm1DBlocktiling(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                   float *C)
{
    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;
    const int threadCol = threadIdx.x % BN;
    const int threadRow = threadIdx.x / BN;
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;
    const uint innerColA = threadIdx.x % BK;
    const uint innerRowA = threadIdx.x / BK;
    const uint innerColB = threadIdx.x % BN;
    const uint innerRowB = threadIdx.x / BN;
    float threadResults[TM] = {0.0};
    for (uint bkIdx = 0; bkIdx < K; bkIdx += BK) {
        As[innerRowA * BK + innerColA] =
            (cRow * BM + innerRowA < M && bkIdx + innerColA < K) ? A[innerRowA * K + innerColA] : 0.0f;
        Bs[innerRowB * BN + innerColB] =
            (bkIdx + innerRowB < K && cCol * BN + innerColB < N) ? B[innerRowB * N + innerColB] : 0.0f;
        __syncthreads();
        A += BK;
        B += BK * N;
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
            float tmpB = Bs[dotIdx * BN + threadCol];
            for (uint resIdx = 0; resIdx < TM; ++resIdx)
                threadResults[resIdx] += As[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB;
        }
        __syncthreads();
    }
    for (uint resIdx = 0; resIdx < TM; ++resIdx) {
        if (cRow * BM + threadRow * TM + resIdx < M && cCol * BN + threadCol < N) {
            float *c = &C[(threadRow * TM + resIdx) * N + threadCol];
            *c = alpha * threadResults[resIdx] + (beta != 0.0f ? beta * *c : 0.0f);
        }
    }
}

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
    sgemm2DBlocktiling(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;
    const uint totalResultsBlocktile = BM * BN;
    const uint numThreadsBlocktile = totalResultsBlocktile / (TM * TN);
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    A += cRow * BM * N;   /* BUG: M's block rows advanced by N, not K */
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;
    const uint innerRowA = threadIdx.x / BK;
    const uint innerColA = threadIdx.x % BK;
    const uint strideA = numThreadsBlocktile / BK;
    const uint innerRowB = threadIdx.x / BN;
    const uint innerColB = threadIdx.x % BN;
    const uint strideB = numThreadsBlocktile / BN;
    float threadResults[TM * TN] = {0.0};
    float regM[TM] = {0.0};
    float regN[TN] = {0.0};
    for (uint bkIdx = 0; bkIdx < K; bkIdx += BK) {
        for (uint loadOffset = 0; loadOffset < BM; loadOffset += strideA) {
            bool in = cRow * BM + innerRowA + loadOffset < M && bkIdx + innerColA < K;
            As[(innerRowA + loadOffset) * BK + innerColA] = in ? A[(innerRowA + loadOffset) * N + innerColA] : 0.0f;   /* BUG: M read with N as its leading dimension */
        }
        for (uint loadOffset = 0; loadOffset < BK; loadOffset += strideB) {
            bool in = bkIdx + innerRowB + loadOffset < K && cCol * BN + innerColB < N;
            Bs[(innerRowB + loadOffset) * BN + innerColB] = in ? B[(innerRowB + loadOffset) * N + innerColB] : 0.0f;
        }
        __syncthreads();
        A += BK;
        B += BK * N;
#pragma unroll
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
#pragma unroll
            for (uint i = 0; i < TM; ++i)
                regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
#pragma unroll
            for (uint i = 0; i < TN; ++i)
                regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
#pragma unroll
            for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
#pragma unroll
                for (uint resIdxN = 0; resIdxN < TN; ++resIdxN)
                    threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
        }
        __syncthreads();
    }
    for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (uint resIdxN = 0; resIdxN < TN; ++resIdxN) {
            uint r = threadRow * TM + resIdxM, c = threadCol * TN + resIdxN;
            if (cRow * BM + r < M && cCol * BN + c < N)
                C[r * N + c] = alpha * threadResults[resIdxM * TN + resIdxN] + (beta != 0.0f ? beta * C[r * N + c] : 0.0f);
        }
}

/* kernel 6: As transposed, float4 global loads and stores where the rows allow them (vecA, vecB,
 * vecC: the row length a multiple of 4 and the base 16-byte aligned), scalars otherwise. */
template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void sgemmVectorize(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                               float *C, int vecA, int vecB, int vecC)
{
    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;
    const uint innerRowA = threadIdx.x / (BK / 4);
    const uint innerColA = threadIdx.x % (BK / 4);
    const uint innerRowB = threadIdx.x / (BN / 4);
    const uint innerColB = threadIdx.x % (BN / 4);
    float threadResults[TM * TN] = {0.0};
    float regM[TM] = {0.0};
    float regN[TN] = {0.0};
    for (uint bkIdx = 0; bkIdx < K; bkIdx += BK) {
        float4 tmp = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        uint ga = bkIdx + innerColA * 4;
        if (cRow * BM + innerRowA < M) {
            const float *a = &A[innerRowA * K + innerColA * 4];
            if (vecA) {
                if (ga < K)
                    tmp = reinterpret_cast<const float4 *>(a)[0];
            } else {
                if (ga + 0 < K) tmp.x = a[0];
                if (ga + 1 < K) tmp.y = a[1];
                if (ga + 2 < K) tmp.z = a[2];
                if (ga + 3 < K) tmp.w = a[3];
            }
        }
        As[(innerColA * 4 + 0) * BM + innerRowA] = tmp.x;
        As[(innerColA * 4 + 1) * BM + innerRowA] = tmp.y;
        As[(innerColA * 4 + 2) * BM + innerRowA] = tmp.z;
        As[(innerColA * 4 + 3) * BM + innerRowA] = tmp.w;
        tmp = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        uint gb = cCol * BN + innerColB * 4;
        if (bkIdx + innerRowB < K) {
            const float *b = &B[innerRowB * N + innerColB * 4];
            if (vecB) {
                if (gb < N)
                    tmp = reinterpret_cast<const float4 *>(b)[0];
            } else {
                if (gb + 0 < N) tmp.x = b[0];
                if (gb + 1 < N) tmp.y = b[1];
                if (gb + 2 < N) tmp.z = b[2];
                if (gb + 3 < N) tmp.w = b[3];
            }
        }
        reinterpret_cast<float4 *>(&Bs[innerRowB * BN + innerColB * 4])[0] = tmp;
        __syncthreads();
        A += BK;
        B += BK * N;
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (uint i = 0; i < TM; ++i)
                regM[i] = As[dotIdx * BM + threadRow * TM + i];
            for (uint i = 0; i < TN; ++i)
                regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
            for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
                for (uint resIdxN = 0; resIdxN < TN; ++resIdxN)
                    threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
        }
        __syncthreads();
    }
    for (uint resIdxM = 0; resIdxM < TM; resIdxM += 1) {
        uint r = threadRow * TM + resIdxM;
        if (cRow * BM + r >= M)
            continue;
        for (uint resIdxN = 0; resIdxN < TN; resIdxN += 4) {
            uint c = threadCol * TN + resIdxN;
            float *p = &C[r * N + c];
            float4 v;
            v.x = alpha * threadResults[resIdxM * TN + resIdxN + 0];
            v.y = alpha * threadResults[resIdxM * TN + resIdxN + 1];
            v.z = alpha * threadResults[resIdxM * TN + resIdxN + 2];
            v.w = alpha * threadResults[resIdxM * TN + resIdxN + 3];
            if (vecC && cCol * BN + c + 3 < N) {
                reinterpret_cast<float4 *>(p)[0] = v;
            } else {
                if (cCol * BN + c + 0 < N) p[0] = v.x;
                if (cCol * BN + c + 1 < N) p[1] = v.y;
                if (cCol * BN + c + 2 < N) p[2] = v.z;
                if (cCol * BN + c + 3 < N) p[3] = v.w;
            }
        }
    }
}

static int rows_allow_float4(const float *p, int cols)
{
    return cols % 4 == 0 && (uintptr_t)p % 16 == 0;
}

extern "C" int launch_coarse1d(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    const uint BM = 64, BN = 64, BK = 8, TM = 8;
    dim3 gridDim(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    dim3 blockDim((BM * BN) / TM);
    sgemm1DBlocktiling<BM, BN, BK, TM><<<gridDim, blockDim>>>(m, n, k, 1.0f, Md, Nd, 0.0f, Pd);
    return (int)cudaGetLastError();
}

extern "C" int launch_regtile(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    const uint BK = 8, TM = 8, TN = 8, BM = 128, BN = 128;
    dim3 gridDim(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    sgemm2DBlocktiling<BM, BN, BK, TM, TN><<<gridDim, blockDim>>>(m, n, k, 1.0f, Md, Nd, 0.0f, Pd);
    return (int)cudaGetLastError();
}

extern "C" int launch_warptile(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    const uint BK = 8, TM = 8, TN = 8, BM = 128, BN = 128;
    dim3 gridDim(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    sgemmVectorize<BM, BN, BK, TM, TN><<<gridDim, blockDim>>>(m, n, k, 1.0f, Md, Nd, 0.0f, Pd,
                                                            rows_allow_float4(Md, k), rows_allow_float4(Nd, n),
                                                            rows_allow_float4(Pd, n));
    return (int)cudaGetLastError();
}
