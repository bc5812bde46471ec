#line 1 "tests/corpus/03-right-siboehm-smem-1d.cu"
/* 03-right-siboehm-smem-1d.cu: corpus, lab 03, right: siboehm's kernel 3 (shared memory cache blocking):
 * a 1-D block of BLOCKSIZE*BLOCKSIZE threads, threadRow/threadCol from threadIdx.x, A, B and C
 * advanced as pointers per tile, a template on the tile width, alpha/beta with beta = 0 not reading C. */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif
#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

template <const int BLOCKSIZE>
__global__ void sgemm_shared_mem_block(int M, int N, int K, float alpha, const float *A, const float *B,
                                       float beta, float *C)
{
    const uint cRow = blockIdx.x;
    const uint cCol = blockIdx.y;
    static const tl_emu::Site As_tl_site_ = {"As", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (BLOCKSIZE * BLOCKSIZE)>> As(As_tl_site_); 
    static const tl_emu::Site Bs_tl_site_ = {"Bs", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A1<float, (BLOCKSIZE * BLOCKSIZE)>> Bs(Bs_tl_site_); 
    const uint threadCol = threadIdx.x % BLOCKSIZE;
    const uint threadRow = threadIdx.x / BLOCKSIZE;
    A += cRow * BLOCKSIZE * K;
    B += cCol * BLOCKSIZE;
    C += cRow * BLOCKSIZE * N + cCol * BLOCKSIZE;
    float tmp = 0.0;
    for (int bkIdx = 0; bkIdx < K; bkIdx += BLOCKSIZE) {
        As(__LINE__)[threadRow * BLOCKSIZE + threadCol] = (tl_emu::gcount(0), A)[threadRow * K + threadCol];
        Bs(__LINE__)[threadRow * BLOCKSIZE + threadCol] = (tl_emu::gcount(0), B)[threadRow * N + threadCol];
        __syncthreads();
        A += BLOCKSIZE;
        B += BLOCKSIZE * N;
        for (int dotIdx = 0; dotIdx < BLOCKSIZE; ++dotIdx)
            tmp += As(__LINE__)[threadRow * BLOCKSIZE + dotIdx] * Bs(__LINE__)[dotIdx * BLOCKSIZE + threadCol];
        __syncthreads();
    }
    (tl_emu::gcount(1), C)[threadRow * N + threadCol] = beta == 0.0f ? alpha * tmp : alpha * tmp + beta * (tl_emu::gcount(0), C)[threadRow * N + threadCol];
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;
    dim3 gridDim(CEIL_DIV(Width, TILE_WIDTH), CEIL_DIV(Width, TILE_WIDTH));
    dim3 blockDim(TILE_WIDTH * TILE_WIDTH);
    tl_emu_launch(sgemm_shared_mem_block<TILE_WIDTH>, "sgemm_shared_mem_block<TILE_WIDTH>", __FILE__, __LINE__, gridDim,  blockDim)(Width, Width, Width, 1.0f, Md, Nd, 0.0f, Pd);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// sgemm_shared_mem_block: fibers (a template kernel)
