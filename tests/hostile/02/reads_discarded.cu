/* hostile/02/reads_discarded.cu (issue 24 item 3, red team): lab 02's naive kernel in every access it
 * makes (a row of M and a column of N for each element of P: 2 global loads per multiply-add), whose
 * sum is dropped: P is copied from a product the launcher computed on the host after reading M and N
 * back. Every count the emulator or ncu keeps is the naive kernel's. On a GPU the host's product is
 * in the timed launcher (no speed credit); emulated, where speed is not graded, counts alone cannot
 * tell it from the lab's kernel, but the guarded device sees M and N copied to the host before the
 * kernel's launch and P's copy to the device: 'P was computed on the host' (tests/hostile/expected.txt). */
/* naive.cu: lab 02, the naive kernel: the reference solution (labs/02-naive-kernel/naive.cu completed).
 *
 * Check:  ./kit check 02     (builds, runs every variant on the public sizes, says what is wrong)
 * Read:   labs/02-naive-kernel/README.md for the tasks and the questions.
 *
 * Md, Nd, Pd are Width x Width floats in row-major order on the device: element (i, j) of M is
 * Md[i*Width + j]. The harness fills Pd with NaN before each launch, so every element your grid
 * does not cover shows up. CUDA C only: no templates, no classes.
 */
#include <stdlib.h>
#include "cuda_check.h"
#include "lab.h"

#define BLOCK_WIDTH 16   /* threads per block side: 16 x 16 = 256 threads per block */

/* ------------------------------------------------------------------ the kernel */

/* Task 1: one thread computes one element of Pd, the lecture's MatrixMulKernel. threadIdx.x
 * walks columns, so the 16 (32) threads of a warp read neighbouring elements of Nd and write
 * neighbouring elements of Pd: coalesced accesses. */

static __device__ float *g_answer;   /* the host's product */

static float *host_product(const float *Md, const float *Nd, int w)
{
    size_t e = (size_t)w * w;
    float *M = (float *)malloc(e * sizeof(float)), *N = (float *)malloc(e * sizeof(float)),
          *P = (float *)malloc(e * sizeof(float)), *A = NULL;
    cudaMemcpy(M, Md, e * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(N, Nd, e * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < w; ++i)
        for (int j = 0; j < w; ++j) {
            float acc = 0;
            for (int q = 0; q < w; ++q)
                acc += M[(size_t)i * w + q] * N[(size_t)q * w + j];
            P[(size_t)i * w + j] = acc;
        }
    cudaMalloc((void **)&A, e * sizeof(float));
    cudaMemcpy(A, P, e * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_answer, &A, sizeof A);
    free(M);
    free(N);
    free(P);
    return A;
}

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    /* The grid is rounded up, so the last blocks hold threads outside P: they do nothing. */
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];
        Pd[Row * Width + Col] = g_answer[Row * Width + Col] + Pvalue * 0.0f;   /* the sum dropped */
    }
}

/* ------------------------------------------------------------------ the launcher */

/* Task 2: enough 16 x 16 blocks to cover all of Pd: ceiling division, not floor. */
extern "C" int launch_naive(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, BLOCK_WIDTH), ceil_div(Width, BLOCK_WIDTH), 1);
    float *A = host_product(Md, Nd, Width);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    cudaDeviceSynchronize();
    cudaFree(A);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------ the device query */

/* Task 3: what does this GPU offer? One fact a line in the README's fixed format ("sms: 132"):
 * the grader compares every line with its own query of the device. CUDA 13 removed
 * cudaDeviceProp.clockRate and memoryClockRate: ask cudaDeviceGetAttribute for clocks (kHz). */
extern "C" void print_device_facts(FILE *out)
{
    int dev = 0;
    cudaDeviceProp p;
    if (CUDA_CHECK(cudaGetDevice(&dev)) != cudaSuccess ||
        CUDA_CHECK(cudaGetDeviceProperties(&p, dev)) != cudaSuccess) {
        fprintf(out, "device facts: not available (see the error above)\n");
        return;
    }
    int sm_khz = 0, mem_khz = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
    /* DDR: two transfers per clock; kHz x 1000 = Hz; the bus width is in bits, 8 to a byte. */
    double peak_gbs = 2.0 * mem_khz * 1e3 * (p.memoryBusWidth / 8) / 1e9;
    fprintf(out, "device: %s\n", p.name);
    fprintf(out, "compute capability: %d.%d\n", p.major, p.minor);
    fprintf(out, "sms: %d\n", p.multiProcessorCount);
    fprintf(out, "max threads per block: %d\n", p.maxThreadsPerBlock);
    fprintf(out, "max threads per sm: %d\n", p.maxThreadsPerMultiProcessor);
    fprintf(out, "max blocks per sm: %d\n", p.maxBlocksPerMultiProcessor);
    fprintf(out, "shared memory per block: %zu B\n", p.sharedMemPerBlock);
    fprintf(out, "shared memory per sm: %zu B\n", p.sharedMemPerMultiprocessor);
    fprintf(out, "registers per block: %d\n", p.regsPerBlock);
    fprintf(out, "registers per sm: %d\n", p.regsPerMultiprocessor);
    fprintf(out, "sm clock: %d kHz\n", sm_khz);
    fprintf(out, "memory clock: %d kHz\n", mem_khz);
    fprintf(out, "memory bus width: %d bits\n", p.memoryBusWidth);
    fprintf(out, "peak bandwidth: %.1f GB/s\n", peak_gbs);
    /* Not judged (other keys are ignored): what question 2 needs next to the facts. */
    fprintf(out, "naive bound: %.0f GFLOP/s (peak bandwidth / 4 B per FLOP, if every operand came from DRAM)\n",
            peak_gbs / 4);
}
