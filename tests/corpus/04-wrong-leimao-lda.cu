/* 04-wrong-leimao-lda.cu: corpus, lab 04, wrong: Lei Mao's gemm_v02 (right) launched with the wrong leading
 * dimension of A: lda = m (the column count of a column-major A) where row-major M (m x k) has k: right
 * when m == k (every square size), wrong on every rectangle with m != k. */
#include <stddef.h>

#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

template <typename T, size_t BLOCK_TILE_SIZE_X, size_t BLOCK_TILE_SIZE_Y, size_t BLOCK_TILE_SIZE_K, size_t NUM_THREADS>
__device__ void load_data_to_shared_memory(T const *A, size_t lda, T const *B, size_t ldb,
                                           T A_thread_block_tile[BLOCK_TILE_SIZE_Y][BLOCK_TILE_SIZE_K],
                                           T B_thread_block_tile[BLOCK_TILE_SIZE_K][BLOCK_TILE_SIZE_X],
                                           size_t thread_block_tile_idx, size_t thread_linear_idx, size_t m, size_t n,
                                           size_t k)
{
#pragma unroll
    for (size_t load_idx = 0U; load_idx < (BLOCK_TILE_SIZE_Y * BLOCK_TILE_SIZE_K + NUM_THREADS - 1U) / NUM_THREADS;
         ++load_idx) {
        size_t const A_thread_block_tile_row_idx = (thread_linear_idx + load_idx * NUM_THREADS) / BLOCK_TILE_SIZE_K;
        size_t const A_thread_block_tile_col_idx = (thread_linear_idx + load_idx * NUM_THREADS) % BLOCK_TILE_SIZE_K;
        size_t const A_row_idx = blockIdx.y * BLOCK_TILE_SIZE_Y + A_thread_block_tile_row_idx;
        size_t const A_col_idx = thread_block_tile_idx * BLOCK_TILE_SIZE_K + A_thread_block_tile_col_idx;
        T val{static_cast<T>(0)};
        if (A_row_idx < m && A_col_idx < k)
            val = A[A_row_idx * lda + A_col_idx];
        static_assert(BLOCK_TILE_SIZE_K * BLOCK_TILE_SIZE_Y % NUM_THREADS == 0U);
        A_thread_block_tile[A_thread_block_tile_row_idx][A_thread_block_tile_col_idx] = val;
    }
#pragma unroll
    for (size_t load_idx = 0U; load_idx < (BLOCK_TILE_SIZE_K * BLOCK_TILE_SIZE_X + NUM_THREADS - 1U) / NUM_THREADS;
         ++load_idx) {
        size_t const B_thread_block_tile_row_idx = (thread_linear_idx + load_idx * NUM_THREADS) / BLOCK_TILE_SIZE_X;
        size_t const B_thread_block_tile_col_idx = (thread_linear_idx + load_idx * NUM_THREADS) % BLOCK_TILE_SIZE_X;
        size_t const B_row_idx = thread_block_tile_idx * BLOCK_TILE_SIZE_K + B_thread_block_tile_row_idx;
        size_t const B_col_idx = blockIdx.x * BLOCK_TILE_SIZE_X + B_thread_block_tile_col_idx;
        T val{static_cast<T>(0)};
        if (B_row_idx < k && B_col_idx < n)
            val = B[B_row_idx * ldb + B_col_idx];
        static_assert(BLOCK_TILE_SIZE_X * BLOCK_TILE_SIZE_K % NUM_THREADS == 0U);
        B_thread_block_tile[B_thread_block_tile_row_idx][B_thread_block_tile_col_idx] = val;
    }
}

template <typename T, size_t BLOCK_TILE_SIZE_X, size_t BLOCK_TILE_SIZE_Y, size_t BLOCK_TILE_SIZE_K>
__global__ void gemm_v02(size_t m, size_t n, size_t k, T alpha, T const *A, size_t lda, T const *B, size_t ldb, T beta,
                         T *C, size_t ldc)
{
    constexpr size_t NUM_THREADS{BLOCK_TILE_SIZE_X * BLOCK_TILE_SIZE_Y};
    size_t const thread_linear_idx{threadIdx.y * blockDim.x + threadIdx.x};
    size_t const C_col_idx{blockIdx.x * blockDim.x + threadIdx.x};
    size_t const C_row_idx{blockIdx.y * blockDim.y + threadIdx.y};
    __shared__ T A_thread_block_tile[BLOCK_TILE_SIZE_Y][BLOCK_TILE_SIZE_K];
    __shared__ T B_thread_block_tile[BLOCK_TILE_SIZE_K][BLOCK_TILE_SIZE_X];
    size_t const num_thread_block_tiles{(k + BLOCK_TILE_SIZE_K - 1) / BLOCK_TILE_SIZE_K};
    T sum{static_cast<T>(0)};
    for (size_t thread_block_tile_idx{0U}; thread_block_tile_idx < num_thread_block_tiles; ++thread_block_tile_idx) {
        load_data_to_shared_memory<T, BLOCK_TILE_SIZE_X, BLOCK_TILE_SIZE_Y, BLOCK_TILE_SIZE_K, NUM_THREADS>(
            A, lda, B, ldb, A_thread_block_tile, B_thread_block_tile, thread_block_tile_idx, thread_linear_idx, m, n, k);
        __syncthreads();
#pragma unroll
        for (size_t k_i{0U}; k_i < BLOCK_TILE_SIZE_K; ++k_i)
            sum += A_thread_block_tile[threadIdx.y][k_i] * B_thread_block_tile[k_i][threadIdx.x];
        __syncthreads();
    }
    if (C_row_idx < m && C_col_idx < n)
        C[C_row_idx * ldc + C_col_idx] = beta == static_cast<T>(0) ? alpha * sum : alpha * sum + beta * C[C_row_idx * ldc + C_col_idx];
}

template <typename T>
static void launch_gemm_kernel_v02(size_t m, size_t n, size_t k, T const *alpha, T const *A, size_t lda, T const *B,
                                   size_t ldb, T const *beta, T *C, size_t ldc, cudaStream_t stream)
{
    constexpr unsigned int BLOCK_TILE_SIZE_X{TILE_WIDTH};
    constexpr unsigned int BLOCK_TILE_SIZE_Y{TILE_WIDTH};
    constexpr unsigned int BLOCK_TILE_SIZE_K{TILE_WIDTH};
    dim3 const block_dim{BLOCK_TILE_SIZE_X, BLOCK_TILE_SIZE_Y, 1U};
    dim3 const grid_dim{(static_cast<unsigned int>(n) + block_dim.x - 1U) / block_dim.x,
                        (static_cast<unsigned int>(m) + block_dim.y - 1U) / block_dim.y, 1U};
    gemm_v02<T, BLOCK_TILE_SIZE_X, BLOCK_TILE_SIZE_Y, BLOCK_TILE_SIZE_K>
        <<<grid_dim, block_dim, 0U, stream>>>(m, n, k, *alpha, A, lda, B, ldb, *beta, C, ldc);
}

extern "C" int launch_rect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    const float alpha = 1.0f, beta = 0.0f;
    launch_gemm_kernel_v02<float>(m, n, k, &alpha, Md, m, Nd, n, &beta, Pd, n, 0);   /* BUG: lda = m where row-major M (m x k) has k */
    return (int)cudaGetLastError();
}

extern "C" int launch_boundary(float *Md, float *Nd, float *Pd, int Width)
{
    return launch_rect(Md, Nd, Pd, Width, Width, Width);
}
