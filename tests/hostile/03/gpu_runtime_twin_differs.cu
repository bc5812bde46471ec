/* hostile/03/gpu_runtime_twin_differs.cu (issue 29): the tiled kernel where it runs emulated and lab
 * 02's naive kernel on a GPU, told apart at run time with no macro (the emulator's device has its own
 * UUID, "tilelab-emu-gpu0"; a GPU's is its own), so the object gate's test of the macros that tell the
 * builds apart (policy.c, tg_policy_build_split) does not see it. Graded emulated it is the solution
 * (full: what runs there is tiled). On a GPU, where the counting twin counts the work by default, its
 * speed test is slower than full credit allows, so its variants are profiled on demand and the GPU's
 * counters take the correctness tests' credit (not tiled): less (tests/gpu/gpucpu-on-device.sh). */
/* tiled.cu: lab 03, the tiled kernel: the reference solution (labs/03-tiled-kernel/tiled.cu completed).
 *
 * Check:  ./kit check 03     (builds TILE_WIDTH 16 and 32, runs both on the public sizes)
 * Read:   labs/03-tiled-kernel/README.md for the tasks and the questions.
 *
 * Md, Nd, Pd are Width x Width floats, row-major, on the device. In this lab Width is always a
 * multiple of TILE_WIDTH (the harness refuses other sizes); lab 04 handles any Width.
 * This file is compiled twice, with -DTILE_WIDTH=16 and -DTILE_WIDTH=32 (see lab.h): write
 * TILE_WIDTH, never 16 or 32. CUDA C only: no templates, no classes.
 *
 * Scope: the lecture's kernel, written for clarity. It leaves out register tiling (several
 * outputs per thread) and padding against bank conflicts; cuBLAS, timed next to it, has both.
 */
#include <string.h>

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

/* Lab 02's kernel: one thread per element of Pd, every operand from global memory. */
__global__ void NaiveKernel(float *Md, float *Nd, float *Pd, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];
        Pd[Row * Width + Col] = Pvalue;
    }
}

/* 1 on a GPU, 0 on the emulator's device: its UUID. */
static int on_a_gpu(void)
{
    static int known = -1;
    if (known < 0) {
        cudaDeviceProp p;
        memset(&p, 0, sizeof p);
        known = cudaGetDeviceProperties(&p, 0) == cudaSuccess && memcmp(p.uuid.bytes, "tilelab-emu-gpu0", 16) != 0;
    }
    return known;
}

/* ------------------------------------------------------------------ the launcher */

/* One block per tile of Pd. Width is a multiple of TILE_WIDTH here, so Width / TILE_WIDTH is
 * exact; ceil_div says what is meant and stays right in lab 04. */
extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH), 1);
    if (on_a_gpu())
        NaiveKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    else
        MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
