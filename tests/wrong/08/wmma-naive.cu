/* KNOWN WRONG (tests/wrong/08/wmma-naive.cu): launch_wmma_bf16 runs a plain one-thread-an-element kernel (lab 02's) on the BF16 copies: P right at every size, but no tensor cores and no tiles: 2 global loads per multiply-add */
/* wmma.cu: lab 08 part (a), the reference: WMMA (nvcuda::wmma) with tiles staged in shared memory.
 *
 * Build:  ./kit check 08                         (or: meson compile -C build lab08)
 * Run:    build/labs/08-tensor-cores/lab08 --variants wmma_tf32,wmma_bf16 --sizes 1000x17x3,1024
 *         build/labs/08-tensor-cores/lab08-emu --variants wmma_tf32          (emulated, no GPU)
 *
 * A block owns a 128 x 128 tile of P and walks k in steps of BK. Its 8 warps are laid out 2 x 4; a
 * warp owns 64 x 32 of the tile: 4 x 2 fragments of 16 x 16 FP32 accumulators. Per step the block
 * stages the BM x BK tile of M and the BK x BN tile of N in shared memory (guarded loads that write 0
 * outside the matrices), then each warp loads its fragments with load_matrix_sync (leading dimension:
 * the staged row, padded) and issues mma_sync. The fragment is a tile of a tile: one mma_sync does
 * 16 x 16 x K (K = 8 for TF32, 16 for BF16) multiply-adds, and each A fragment is reused by the warp's
 * 2 B fragments, each B fragment by its 4 A fragments.
 * Precision: TF32 inputs are rounded once, when staged (wmma::__float_to_tf32, round to nearest, ties
 * away: what cvt.rna.tf32.f32 does); without it the tensor core would drop the low 13 bits (truncate).
 * Accumulation and the stored P are FP32. The edge: accumulators pass through a per-warp 16 x 16
 * scratch tile in shared memory and are stored with guards, so any m, k, n works.
 * Written for clarity; on Hopper WMMA compiles to mma.sync (HMMA), which cannot reach the rate of
 * wgmma (part c): tests/gpu/lab08-on-device.sh measures the gap.
 */
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "cuda_check.h"
#include "lab.h"

using namespace nvcuda;

#define WM_BM 128
#define WM_BN 128
#define WM_BK 32
#define WM_THREADS 256
#define WM_PAD_F 4  /* floats of padding a staged row (keeps 32-byte fragment alignment)  */
#define WM_PAD_H 8  /* BF16 values of padding a staged row                                 */

/* ------------------------------------------------------------------------------- TF32 */

__global__ void __launch_bounds__(WM_THREADS) wmma_tf32_kernel(const float *Md, const float *Nd, float *Pd, int m,
                                                               int k, int n)
{
    __shared__ __align__(32) float As[WM_BM][WM_BK + WM_PAD_F];
    __shared__ __align__(32) float Bs[WM_BK][WM_BN + WM_PAD_F];
    __shared__ __align__(32) float Cs[WM_THREADS / 32][16 * 16];
    int warp = threadIdx.x / 32, wr = warp / 4, wc = warp % 4; /* warp tile (wr, wc): 64 x 32 */
    int row0 = blockIdx.y * WM_BM, col0 = blockIdx.x * WM_BN;

    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < k; k0 += WM_BK) {
        for (int e = threadIdx.x; e < WM_BM * WM_BK; e += WM_THREADS) {
            int r = e / WM_BK, c = e % WM_BK;
            float v = (row0 + r < m && k0 + c < k) ? Md[(size_t)(row0 + r) * k + k0 + c] : 0.0f;
            As[r][c] = wmma::__float_to_tf32(v);
        }
        for (int e = threadIdx.x; e < WM_BK * WM_BN; e += WM_THREADS) {
            int r = e / WM_BN, c = e % WM_BN;
            float v = (k0 + r < k && col0 + c < n) ? Nd[(size_t)(k0 + r) * n + col0 + c] : 0.0f;
            Bs[r][c] = wmma::__float_to_tf32(v);
        }
        __syncthreads(); /* the tiles are full before any warp loads a fragment */
        for (int kk = 0; kk < WM_BK; kk += 8) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[2];
            for (int i = 0; i < 4; i++)
                wmma::load_matrix_sync(a[i], &As[wr * 64 + i * 16][kk], WM_BK + WM_PAD_F);
            for (int j = 0; j < 2; j++)
                wmma::load_matrix_sync(b[j], &Bs[kk][wc * 32 + j * 16], WM_BN + WM_PAD_F);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads(); /* every warp is done with the tiles before they are refilled */
    }

    float *scratch = Cs[warp];
    int lane = threadIdx.x % 32;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++) {
            wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            int r0 = row0 + wr * 64 + i * 16, c0 = col0 + wc * 32 + j * 16;
            for (int e = lane; e < 256; e += 32) {
                int r = r0 + e / 16, c = c0 + e % 16;
                if (r < m && c < n)
                    Pd[(size_t)r * n + c] = scratch[e];
            }
            __syncwarp();
        }
}

/* ------------------------------------------------------------------------------- BF16 */

__global__ void __launch_bounds__(WM_THREADS) wmma_bf16_kernel(const __nv_bfloat16 *Mb, const __nv_bfloat16 *Nb,
                                                               float *Pd, int m, int k, int n, int ldk)
{
    __shared__ __align__(32) __nv_bfloat16 As[WM_BM][WM_BK + WM_PAD_H];
    __shared__ __align__(32) __nv_bfloat16 Bs[WM_BK][WM_BN + WM_PAD_H];
    __shared__ __align__(32) float Cs[WM_THREADS / 32][16 * 16];
    int warp = threadIdx.x / 32, wr = warp / 4, wc = warp % 4;
    int row0 = blockIdx.y * WM_BM, col0 = blockIdx.x * WM_BN;
    const __nv_bfloat16 zero = __float2bfloat16(0.0f);

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < k; k0 += WM_BK) {
        for (int e = threadIdx.x; e < WM_BM * WM_BK; e += WM_THREADS) {
            int r = e / WM_BK, c = e % WM_BK;
            As[r][c] = (row0 + r < m && k0 + c < k) ? Mb[(size_t)(row0 + r) * ldk + k0 + c] : zero;
        }
        for (int e = threadIdx.x; e < WM_BK * WM_BN; e += WM_THREADS) {
            int r = e / WM_BN, c = e % WM_BN;
            Bs[r][c] = (k0 + r < k && col0 + c < n) ? Nb[(size_t)(k0 + r) * n + col0 + c] : zero;
        }
        __syncthreads();
        for (int kk = 0; kk < WM_BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[2];
            for (int i = 0; i < 4; i++)
                wmma::load_matrix_sync(a[i], &As[wr * 64 + i * 16][kk], WM_BK + WM_PAD_H);
            for (int j = 0; j < 2; j++)
                wmma::load_matrix_sync(b[j], &Bs[kk][wc * 32 + j * 16], WM_BN + WM_PAD_H);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    float *scratch = Cs[warp];
    int lane = threadIdx.x % 32;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++) {
            wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            int r0 = row0 + wr * 64 + i * 16, c0 = col0 + wc * 32 + j * 16;
            for (int e = lane; e < 256; e += 32) {
                int r = r0 + e / 16, c = c0 + e % 16;
                if (r < m && c < n)
                    Pd[(size_t)r * n + c] = scratch[e];
            }
            __syncwarp();
        }
}

/* BUG: a plain kernel in place of the tensor cores: one thread an element of P, a row of Mb and a
 * column of Nb from global memory for every multiply-add (lab 02's kernel), FP32 sums: right, untiled */
__global__ void naive_bf16_kernel(const __nv_bfloat16 *Mb, const __nv_bfloat16 *Nb, float *Pd, int m, int k, int n,
                                  int ldk) /* BUG */
{ /* BUG */
    int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x; /* BUG */
    if (r >= m || c >= n) /* BUG */
        return; /* BUG */
    float s = 0.0f; /* BUG */
    for (int p = 0; p < k; p++) /* BUG */
        s += __bfloat162float(Mb[(size_t)r * ldk + p]) * __bfloat162float(Nb[(size_t)p * n + c]); /* BUG */
    Pd[(size_t)r * n + c] = s; /* BUG */
} /* BUG */

/* ------------------------------------------------------------------------------- launchers */

extern "C" int launch_wmma_tf32(const float *Md, const float *Nd, float *Pd, int m, int k, int n)
{
    dim3 grid(ceil_div(n, WM_BN), ceil_div(m, WM_BM));
    wmma_tf32_kernel<<<grid, WM_THREADS>>>(Md, Nd, Pd, m, k, n);
    return (int)cudaGetLastError();
}

extern "C" int launch_wmma_bf16(const tl_bf16_bits *Mb, const tl_bf16_bits *Nb, float *Pd, int m, int k, int n,
                                int ldk)
{
    dim3 grid(ceil_div(n, 16), ceil_div(m, 16)), block(16, 16); /* BUG: the plain kernel's launch */
    naive_bf16_kernel<<<grid, block>>>((const __nv_bfloat16 *)Mb, (const __nv_bfloat16 *)Nb, Pd, m, k, n, ldk); /* BUG */
    return (int)cudaGetLastError();
}
