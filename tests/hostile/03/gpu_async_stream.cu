/* hostile/03/gpu_async_stream.cu (issue 24 item 4, GPU only): a forged timing through allowed CUDA
 * calls only. The launcher waits for the kit's stream (the poisoned P, the scaled M, the L2 flush),
 * then launches the honest tiled kernel on a non-blocking stream of its own and returns: the kit's
 * stop event on the default stream does not wait for that stream, so the CUDA-event interval holds
 * no kernel and the reported median is a few microseconds; the kit's check after each repetition
 * (cudaDeviceSynchronize first) still finds P right. Nothing is interposed, nothing refused by the
 * object gate. Expected: less than the solution: the median against the kernels' GPU time read by
 * ncu outside the process (grader/counters.c) is a forged timing: no speed credit. */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ the kernel */

/* One block computes one TILE_WIDTH x TILE_WIDTH tile of Pd, one thread per element. The dot
 * product runs in phases: in phase ph the block loads one tile of Md (its rows, columns
 * ph*TILE_WIDTH ...) and one tile of Nd (rows ph*TILE_WIDTH ..., its columns) into shared
 * memory, each thread one element of each, and then every thread uses TILE_WIDTH elements of
 * each tile: every element loaded from global memory is used TILE_WIDTH times. */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    /* threadIdx.x walks columns: a warp loads a row segment of each tile (coalesced). */
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        /* Collaborative load: thread (ty, tx) brings M[Row][ph*T + tx] and N[ph*T + ty][Col]. */
        Mds[ty][tx] = Md[Row * Width + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = Nd[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();   /* the whole tile is loaded before anyone reads it */
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();   /* everyone is done with this tile before the next load overwrites it */
    }
    Pd[Row * Width + Col] = Pvalue;
}

/* ------------------------------------------------------------------ the launcher */

/* One block per tile of Pd, on a stream the kit's timing events do not see. */
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    static cudaStream_t side;
    if (!side && cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking) != cudaSuccess)
        return (int)cudaGetLastError();
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
    cudaStreamSynchronize(0);                /* the kit's work on its stream is done: inputs ready */
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH), 1);
    MatrixMulKernel<<<dimGrid, dimBlock, 0, side>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
