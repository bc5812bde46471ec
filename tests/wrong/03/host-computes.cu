/* tiled.cu: KNOWN WRONG (tests/wrong/03/host-computes.cu): a decoy kernel, the product on the host.
 * The launcher launches a kernel that only writes zeros to Pd (so "a kernel ran" and "P was
 * stored"), then copies Md and Nd to the host, multiplies there and copies P over Pd. P is right;
 * the kernel loaded nothing of M and N, so the grader's work counts name a host-side computation
 * and the correctness tests give no credit. Everything else is the reference solution.
 */
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

/* One block per tile of Pd. Width is a multiple of TILE_WIDTH here, so Width / TILE_WIDTH is
 * exact; ceil_div says what is meant and stays right in lab 04. */
static __global__ void ZeroKernel(float *Md, float *Nd, float *Pd, int Width)  // BUG: differs from the solution here (the header says how)
{
    int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    (void)Md;
    (void)Nd;
    Pd[Row * Width + Col] = 0;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;  // BUG: differs from the solution here (the header says how)
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH), 1);
    ZeroKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);   /* the decoy */
    if (cudaDeviceSynchronize() != cudaSuccess)  // BUG: differs from the solution here (the header says how)
        return (int)cudaGetLastError();
    size_t count = (size_t)Width * Width;
    float *h_M = (float *)malloc(sizeof(float) * count), *h_N = (float *)malloc(sizeof(float) * count);
    float *h_P = (float *)malloc(sizeof(float) * count);
    if (!h_M || !h_N || !h_P)
        return (int)cudaErrorMemoryAllocation;
    cudaMemcpy(h_M, Md, sizeof(float) * count, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_N, Nd, sizeof(float) * count, cudaMemcpyDeviceToHost);
    for (int i = 0; i < Width; ++i)          /* the bug: the host does the work */
        for (int j = 0; j < Width; ++j) {
            float sum = 0;
            for (int k = 0; k < Width; ++k)
                sum += h_M[i * Width + k] * h_N[k * Width + j];
            h_P[i * Width + j] = sum;
        }
    cudaMemcpy(Pd, h_P, sizeof(float) * count, cudaMemcpyHostToDevice);
    free(h_M);
    free(h_N);
    free(h_P);
    return (int)cudaGetLastError();
}
