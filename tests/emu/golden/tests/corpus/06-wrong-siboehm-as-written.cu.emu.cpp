#line 1 "tests/corpus/06-wrong-siboehm-as-written.cu"
/* 06-wrong-siboehm-as-written.cu: corpus, lab 06, wrong: siboehm's SGEMM kernels 4, 5 and 6 as
 * written in his repository (no boundary tests: M, N, K multiples of the block tiles, float4 always):
 * right at 128 and 256, wrong at every ragged size. Only the glue (launchers, beta = 0 not reading C)
 * is ours. */
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
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (BM * BK)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (BK * BN)>> Bs(Bs_tl_site_); 
    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;
    const uint innerColA = threadIdx.x % BK;
    const uint innerRowA = threadIdx.x / BK;
    const uint innerColB = threadIdx.x % BN;
    const uint innerRowB = threadIdx.x / BN;
    float threadResults[TM] = {0.0};
    for (uint bkIdx = 0; bkIdx < K; bkIdx += BK) {
        As(__LINE__)[innerRowA * BK + innerColA] = (tl_emu::gcount(0), A)[innerRowA * K + innerColA];   /* BUG: the tile loads unguarded */
        Bs(__LINE__)[innerRowB * BN + innerColB] = (tl_emu::gcount(0), B)[innerRowB * N + innerColB];
        __syncthreads();
        A += BK;
        B += BK * N;
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
            float tmpB = Bs(__LINE__)[dotIdx * BN + threadCol];
            for (uint resIdx = 0; resIdx < TM; ++resIdx)
                threadResults[resIdx] += As(__LINE__)[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB;
        }
        __syncthreads();
    }
    for (uint resIdx = 0; resIdx < TM; ++resIdx) {
        float *c = &(tl_emu::gcount(0), C)[(threadRow * TM + resIdx) * N + threadCol];   /* BUG: the store unguarded */
        *c = alpha * threadResults[resIdx] + (beta != 0.0f ? beta * *c : 0.0f);
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
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (BM * BK)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (BK * BN)>> Bs(Bs_tl_site_); 
    A += cRow * BM * K;
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
            As(__LINE__)[(innerRowA + loadOffset) * BK + innerColA] = (tl_emu::gcount(0), A)[(innerRowA + loadOffset) * K + innerColA];   /* BUG: the load unguarded */
        }
        for (uint loadOffset = 0; loadOffset < BK; loadOffset += strideB) {
            Bs(__LINE__)[(innerRowB + loadOffset) * BN + innerColB] = (tl_emu::gcount(0), B)[(innerRowB + loadOffset) * N + innerColB];   /* BUG: the load unguarded */
        }
        __syncthreads();
        A += BK;
        B += BK * N;
/* #pragma unroll */
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
/* #pragma unroll */
            for (uint i = 0; i < TM; ++i)
                regM[i] = As(__LINE__)[(threadRow * TM + i) * BK + dotIdx];
/* #pragma unroll */
            for (uint i = 0; i < TN; ++i)
                regN[i] = Bs(__LINE__)[dotIdx * BN + threadCol * TN + i];
/* #pragma unroll */
            for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
/* #pragma unroll */
                for (uint resIdxN = 0; resIdxN < TN; ++resIdxN)
                    threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
        }
        __syncthreads();
    }
    for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (uint resIdxN = 0; resIdxN < TN; ++resIdxN) {
            uint r = threadRow * TM + resIdxM, c = threadCol * TN + resIdxN;
            (tl_emu::gcount(1), C)[r * N + c] = alpha * threadResults[resIdxM * TN + resIdxN] + (beta != 0.0f ? beta * (tl_emu::gcount(0), C)[r * N + c] : 0.0f);   /* BUG: the store unguarded */
        }
}

/* kernel 6: As transposed, float4 global loads and stores where the rows allow them (vecA, vecB,
 * vecC: the row length a multiple of 4 and the base 16-byte aligned), scalars otherwise. */
template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void sgemmVectorize(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                               float *C, int vecA, int vecB, int vecC)
{
    (void)vecA; (void)vecB; (void)vecC;   /* BUG: float4 always, whatever the flags say */
    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (BM * BK)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (BK * BN)>> Bs(Bs_tl_site_); 
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
        float4 tmp = reinterpret_cast<const float4 *>(&(tl_emu::gcount(0), A)[innerRowA * K + innerColA * 4])[0];   /* BUG: float4 loads unguarded, at any row start */
        As(__LINE__)[(innerColA * 4 + 0) * BM + innerRowA] = tmp.x;
        As(__LINE__)[(innerColA * 4 + 1) * BM + innerRowA] = tmp.y;
        As(__LINE__)[(innerColA * 4 + 2) * BM + innerRowA] = tmp.z;
        As(__LINE__)[(innerColA * 4 + 3) * BM + innerRowA] = tmp.w;
        reinterpret_cast<float4 *>(&Bs(__LINE__)[innerRowB * BN + innerColB * 4])[0] =   /* BUG: float4 loads unguarded, at any row start */
            reinterpret_cast<const float4 *>(&(tl_emu::gcount(0), B)[innerRowB * N + innerColB * 4])[0];
        __syncthreads();
        A += BK;
        B += BK * N;
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (uint i = 0; i < TM; ++i)
                regM[i] = As(__LINE__)[dotIdx * BM + threadRow * TM + i];
            for (uint i = 0; i < TN; ++i)
                regN[i] = Bs(__LINE__)[dotIdx * BN + threadCol * TN + i];
            for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
                for (uint resIdxN = 0; resIdxN < TN; ++resIdxN)
                    threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
        }
        __syncthreads();
    }
    for (uint resIdxM = 0; resIdxM < TM; resIdxM += 1) {   /* BUG: no row test: rows past M stored */
        for (uint resIdxN = 0; resIdxN < TN; resIdxN += 4) {
            float4 tmp;   /* BUG: float4 stores always, unguarded */
            tmp.x = alpha * threadResults[resIdxM * TN + resIdxN];
            tmp.y = alpha * threadResults[resIdxM * TN + resIdxN + 1];
            tmp.z = alpha * threadResults[resIdxM * TN + resIdxN + 2];
            tmp.w = alpha * threadResults[resIdxM * TN + resIdxN + 3];
            reinterpret_cast<float4 *>(&(tl_emu::gcount(0), C)[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN])[0] = tmp;
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
    tl_emu_launch(sgemm1DBlocktiling<BM, BN, BK, TM>, "sgemm1DBlocktiling<BM, BN, BK, TM>", __FILE__, __LINE__, gridDim,  blockDim)(m, n, k, 1.0f, Md, Nd, 0.0f, Pd);
    return (int)cudaGetLastError();
}

extern "C" int launch_regtile(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    const uint BK = 8, TM = 8, TN = 8, BM = 128, BN = 128;
    dim3 gridDim(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    tl_emu_launch(sgemm2DBlocktiling<BM, BN, BK, TM, TN>, "sgemm2DBlocktiling<BM, BN, BK, TM, TN>", __FILE__, __LINE__, gridDim,  blockDim)(m, n, k, 1.0f, Md, Nd, 0.0f, Pd);
    return (int)cudaGetLastError();
}

extern "C" int launch_warptile(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    const uint BK = 8, TM = 8, TN = 8, BM = 128, BN = 128;
    dim3 gridDim(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    tl_emu_launch(sgemmVectorize<BM, BN, BK, TM, TN>, "sgemmVectorize<BM, BN, BK, TM, TN>", __FILE__, __LINE__, gridDim,  blockDim)(m, n, k, 1.0f, Md, Nd, 0.0f, Pd,
                                                            rows_allow_float4(Md, k), rows_allow_float4(Nd, n),
                                                            rows_allow_float4(Pd, n));
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// sgemm1DBlocktiling: fibers (a template kernel)
// sgemm2DBlocktiling: fibers (a template kernel)
// sgemmVectorize: fibers (a template kernel)
