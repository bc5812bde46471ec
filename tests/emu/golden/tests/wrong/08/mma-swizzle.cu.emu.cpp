#line 1 "tests/wrong/08/mma-swizzle.cu"
/* KNOWN WRONG (tests/wrong/08/mma-swizzle.cu): the A tile is stored swizzled (swz) but read by ldmatrix at the plain address: reader and writer disagree */
/* mma.cu: lab 08 part (b), the reference: mma.sync m16n8k16 (BF16, FP32 accumulation) with its
 * operands loaded by ldmatrix from a swizzled shared-memory tile.
 *
 * Build:  ./kit check 08                          (GPU only: the emulator has no mma.sync)
 * Run:    build/labs/08-tensor-cores/lab08 --variants mma_bf16 --sizes 1000x17x3,4096
 *         ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum ...   (zero: the swizzle)
 *
 * A block owns a 128 x 128 tile of P; 8 warps laid out 2 x 4, a warp owns 64 x 32: 4 x 4 mma tiles of
 * 16 x 8, 64 FP32 accumulators a thread. Per k step of BK = 64 the block copies the 128 x 64 tile of
 * Mb and the 128 x 64 tile of Nbt (N transposed: its rows are N's columns, K-major, which is the
 * layout mma's B operand wants) into shared memory, 16 bytes a thread at a time; the next step's
 * tiles are loaded into registers while the tensor cores work on this one.
 * The swizzle. A staged row is 64 BF16 = 128 bytes = 8 chunks of 16 bytes, and ldmatrix reads one
 * chunk from each of 8 rows at once: with a plain layout those 8 chunks sit in the same 4 banks
 * (8-way conflict). Storing chunk c of row r at chunk c ^ (r % 8) puts the 8 rows' chunks in 8
 * different bank quads, and writer and reader use the same function, swz().
 * Edges: a 16-byte chunk is either wholly inside k or wholly in the zero padding up to ldk (a
 * multiple of 8), rows past m or n are staged as zeros, and the stores are guarded.
 */
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda_check.h"
#include "lab.h"
#include "tc-ptx.h"

#define MM_BM 128
#define MM_BN 128
#define MM_BK 64              /* one 128-byte row a staged tile */
#define MM_THREADS 256
#define MM_CHUNKS (MM_BM * MM_BK / 8 / MM_THREADS) /* 16-byte chunks a thread copies per tile: 4 */

/* Byte offset of chunk `c` (8 BF16) of row `r` in a staged tile: the XOR swizzle. */
__device__ __forceinline__ unsigned swz(int r, int c) { return (unsigned)(r * 128 + ((c ^ (r & 7)) << 4)); }

/* The 16-byte chunks of one k step that this thread copies: rows past `rows` or chunks past k are 0. */
__device__ __forceinline__ void load_chunks(uint4 *v, const __nv_bfloat16 *X, int row0, int rows, int k0, int k,
                                            int ldk)
{
/* #pragma unroll */
    for (int i = 0; i < MM_CHUNKS; i++) {
        int id = threadIdx.x + i * MM_THREADS, r = id / 8, c = id % 8;
        int kc = k0 + c * 8;
        v[i] = (row0 + r < rows && kc < k) ? *(const uint4 *)(X + (size_t)(row0 + r) * ldk + kc)
                                           : make_uint4(0, 0, 0, 0);
    }
}

__device__ __forceinline__ void store_chunks(unsigned char *tile, const uint4 *v)
{
/* #pragma unroll */
    for (int i = 0; i < MM_CHUNKS; i++) {
        int id = threadIdx.x + i * MM_THREADS, r = id / 8, c = id % 8;
        *(uint4 *)(tile + swz(r, c)) = v[i];
    }
}

__global__ void __launch_bounds__(MM_THREADS) mma_bf16_kernel(const __nv_bfloat16 *Mb, const __nv_bfloat16 *Nbt,
                                                              float *Pd, int m, int k, int n, int ldk)
{
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "unsigned char"}; tl_emu::Shared<tl_emu::A1<unsigned char, (MM_BM * 128)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "unsigned char"}; tl_emu::Shared<tl_emu::A1<unsigned char, (MM_BN * 128)>> Bs(Bs_tl_site_); 
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wr = warp / 4, wc = warp % 4;
    int row0 = blockIdx.y * MM_BM, col0 = blockIdx.x * MM_BN;
    unsigned sA = (unsigned)__cvta_generic_to_shared(As(__LINE__)), sB = (unsigned)__cvta_generic_to_shared(Bs(__LINE__));

    float acc[4][4][4]; tl_emu::uninit_fill(acc, __LINE__, 1);
/* #pragma unroll */
    for (int i = 0; i < 4; i++)
/* #pragma unroll */
        for (int j = 0; j < 4; j++)
/* #pragma unroll */
            for (int e = 0; e < 4; e++)
                acc[i][j][e] = 0.0f;

    uint4 va[MM_CHUNKS], vb[MM_CHUNKS];
    load_chunks(va, Mb, row0, m, 0, k, ldk);
    load_chunks(vb, Nbt, col0, n, 0, k, ldk);
    for (int k0 = 0; k0 < k; k0 += MM_BK) {
        store_chunks(As(__LINE__), va);
        store_chunks(Bs(__LINE__), vb);
        __syncthreads();
        if (k0 + MM_BK < k) { /* the next step's tiles, in flight while this one computes */
            load_chunks(va, Mb, row0, m, k0 + MM_BK, k, ldk);
            load_chunks(vb, Nbt, col0, n, k0 + MM_BK, k, ldk);
        }
/* #pragma unroll */
        for (int kk = 0; kk < MM_BK / 16; kk++) {
            unsigned a[4][4], b[4][2];
            /* A, 16 x 16 at rows wr*64 + 16i: lanes 0-15 give rows 0-15 of chunk 2kk, 16-31 of chunk 2kk+1 */
/* #pragma unroll */
            for (int i = 0; i < 4; i++) {
                int r = wr * 64 + i * 16 + (lane % 16);
                ldmatrix_x4(a[i], sA + (unsigned)(r * 128 + ((2 * kk + lane / 16) << 4))); /* BUG: no XOR: the writer swizzled */
            }
            /* B, two n8 tiles a call: lanes 0-7 rows 0-7 chunk 2kk, 8-15 rows 0-7 chunk 2kk+1,
             * 16-23 rows 8-15 chunk 2kk, 24-31 rows 8-15 chunk 2kk+1 (rows of Nbt = columns of P) */
/* #pragma unroll */
            for (int j = 0; j < 4; j += 2) {
                int r = wc * 32 + j * 8 + (lane % 8) + (lane / 16) * 8;
                unsigned t[4];
                ldmatrix_x4(t, sB + swz(r, 2 * kk + (lane / 8) % 2));
                b[j][0] = t[0]; b[j][1] = t[1]; b[j + 1][0] = t[2]; b[j + 1][1] = t[3];
            }
/* #pragma unroll */
            for (int i = 0; i < 4; i++)
/* #pragma unroll */
                for (int j = 0; j < 4; j++)
                    mma_bf16_16816(acc[i][j], a[i], b[j]);
        }
        __syncthreads(); /* every warp is done reading before the tiles are refilled */
    }

    /* The m16n8 accumulator layout: e 0,1 at row lane/4, columns 2(lane%4) and +1; e 2,3 at row + 8. */
/* #pragma unroll */
    for (int i = 0; i < 4; i++)
/* #pragma unroll */
        for (int j = 0; j < 4; j++)
/* #pragma unroll */
            for (int h = 0; h < 2; h++) {
                int r = row0 + wr * 64 + i * 16 + lane / 4 + 8 * h;
                int c = col0 + wc * 32 + j * 8 + (lane % 4) * 2;
                if (r < m && c < n)
                    (tl_emu::gcount(1), Pd)[(size_t)r * n + c] = acc[i][j][2 * h];
                if (r < m && c + 1 < n)
                    (tl_emu::gcount(1), Pd)[(size_t)r * n + c + 1] = acc[i][j][2 * h + 1];
            }
}

extern "C" int launch_mma_bf16(const tl_bf16_bits *Mb, const tl_bf16_bits *Nbt, float *Pd, int m, int k, int n,
                               int ldk)
{
    if (ldk % 8 != 0 || ldk < k)
        return (int)cudaErrorInvalidValue;
    dim3 grid(ceil_div(n, MM_BN), ceil_div(m, MM_BM));
    tl_emu_launch(mma_bf16_kernel, "mma_bf16_kernel", __FILE__, __LINE__, grid,  MM_THREADS)((const __nv_bfloat16 *)Mb, (const __nv_bfloat16 *)Nbt, Pd, m, k, n, ldk);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// mma_bf16_kernel: fibers (a local array whose size is not a number)
#if 1 && defined(MM_BM) && defined(MM_BN)
static tl_emu::KernelReg tl_emu_reg_mma_bf16_kernel_0_(mma_bf16_kernel, "mma_bf16_kernel", 0 + sizeof(unsigned char) * (MM_BM * 128) + sizeof(unsigned char) * (MM_BN * 128), 0);
#else
static tl_emu::KernelReg tl_emu_reg_mma_bf16_kernel_0_(mma_bf16_kernel, "mma_bf16_kernel", 0, 0);
#endif
