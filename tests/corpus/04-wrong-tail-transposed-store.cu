/* 04-wrong-tail-transposed-store.cu: corpus, lab 04, wrong: the interior/tail kernel of
 * 04-right-interior-fastpath.cu whose tail path stores transposed (C[col * m + row]): right at every size
 * that is a multiple of the tile, wrong in the ragged blocks only. */
#include <stddef.h>

#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

const int TS = TILE_WIDTH;
const int NT = TILE_WIDTH * TILE_WIDTH;

__global__ void __launch_bounds__(NT) mm_tail(const float *__restrict__ A, const float *__restrict__ B,
                                              float *__restrict__ C, const int m, const int k, const int n)
{
    __shared__ float As[TS][TS + 1];
    __shared__ float Bs[TS][TS];
    const int ty = threadIdx.x / TS, tx = threadIdx.x % TS;
    const int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    const bool inside = (blockIdx.y + 1) * TS <= m && (blockIdx.x + 1) * TS <= n && k % TS == 0;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TS) {
        if (inside) {
            As[ty][tx] = A[(size_t)row * k + t + tx];
            Bs[ty][tx] = B[(size_t)(t + ty) * n + col];
        } else {
            As[ty][tx] = (row < m && t + tx < k) ? A[(size_t)row * k + t + tx] : 0.0f;
            Bs[ty][tx] = (t + ty < k && col < n) ? B[(size_t)(t + ty) * n + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < TS; ++i)
            acc += As[ty][i] * Bs[i][tx];
        __syncthreads();
    }
    if (inside)
        C[(size_t)row * n + col] = acc;
    else if (row < m && col < n)
        C[(size_t)col * m + row] = acc;   /* BUG: the tail stored transposed */
}

extern "C" int launch_rect(float *Md, float *Nd, float *Pd, int m, int k, int n)
{
    mm_tail<<<dim3((n + TS - 1) / TS, (m + TS - 1) / TS), dim3(NT)>>>(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}

extern "C" int launch_boundary(float *Md, float *Nd, float *Pd, int Width)
{
    return launch_rect(Md, Nd, Pd, Width, Width, Width);
}
