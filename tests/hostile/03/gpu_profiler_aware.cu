/* hostile/03/gpu_profiler_aware.cu (issue 24 item 4, GPU only): a profiler-aware launcher. On its first
 * call it times a one-thread kernel with the host clock (allowed calls only: clock_gettime,
 * cudaDeviceSynchronize): under ncu every kernel is replayed once per pass of counters and takes
 * tens of milliseconds, unprofiled a few microseconds. Profiled it runs the tiled kernel (the
 * counters see what lab 03 asks); otherwise lab 02's naive kernel (right results, not tiled).
 * What it shows: the profiled run is told apart by its cost (grader/README.md says what else a
 * program can see), and telling it apart gains nothing: the file must hold a correct tiled kernel
 * to pass the counters, and its graded runs then time the slower naive one. Expected: less than
 * the solution (the speed test times the naive kernel). */
#include "cuda_check.h"
#include "lab.h"

#include <time.h>

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

/* lab 02's kernel: right results, every operand from global memory (static: the file is built once per
 * tile width, and both link into one program) */
static __global__ void NaiveKernel(float *Md, float *Nd, float *Pd, int Width)
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

static __global__ void Probe(void)
{
}

/* ------------------------------------------------------------------ the launcher */

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* 1 when a one-thread kernel takes longer than 20 ms (the second of two: the first loads the module). */
static int profiled(void)
{
    static int known = -1;
    if (known < 0) {
        double t = 0;
        for (int i = 0; i < 2; ++i) {
            double t0 = seconds();
            Probe<<<1, 1>>>();
            cudaDeviceSynchronize();
            t = seconds() - t0;
        }
        known = t > 0.020;
    }
    return known;
}

extern "C" int launch_tiled(float *Md, float *Nd, float *Pd, int Width)
{
    if (Width % TILE_WIDTH != 0)
        return (int)cudaErrorInvalidValue;   /* this kernel's precondition; see lab 04 */
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, TILE_WIDTH), ceil_div(Width, TILE_WIDTH), 1);
    if (profiled())
        MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    else
        NaiveKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
