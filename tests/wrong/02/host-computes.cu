/* naive.cu: KNOWN WRONG (tests/wrong/02/host-computes.cu): the launcher multiplies on the host.
 * It copies Md and Nd to host memory, runs the triple loop there and copies P back to Pd: P is
 * right, no kernel ran. The lab asks for a kernel; the grader's work counts (the emulator's, or
 * ncu's launches on a GPU) show none, and the correctness tests give no credit.
 * Everything else is the reference solution.
 */
#include "cuda_check.h"
#include "lab.h"

#define BLOCK_WIDTH 16   /* threads per block side: 16 x 16 = 256 threads per block */

/* ------------------------------------------------------------------ the kernel */

/* Task 1: one thread computes one element of Pd, the lecture's MatrixMulKernel. threadIdx.x
 * walks columns, so the 16 (32) threads of a warp read neighbouring elements of Nd and write
 * neighbouring elements of Pd: coalesced accesses. */
__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    /* The grid is rounded up, so the last blocks hold threads outside P: they do nothing. */
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];
        Pd[Row * Width + Col] = Pvalue;
    }
}

/* ------------------------------------------------------------------ the launcher */

/* Task 2: enough 16 x 16 blocks to cover all of Pd: ceiling division, not floor. */
extern "C" int launch_naive(float *Md, float *Nd, float *Pd, int Width)
{
    size_t count = (size_t)Width * Width;  // BUG: differs from the solution here (the header says how)
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

/* ------------------------------------------------------------------ the device query */

/* Task 3: what does this GPU offer? CUDA 13 removed cudaDeviceProp.clockRate and
 * memoryClockRate: ask cudaDeviceGetAttribute for clocks. BUG: an older copy of the query, kept as it was. */
extern "C" void print_device_facts(FILE *out)
{  // BUG: differs from the solution here (the header says how)
    int dev = 0;
    cudaDeviceProp p;
    if (CUDA_CHECK(cudaGetDevice(&dev)) != cudaSuccess ||
        CUDA_CHECK(cudaGetDeviceProperties(&p, dev)) != cudaSuccess) {
        fprintf(out, "device facts: not available (see the error above)\n");
        return;
    }
    int sm_khz = 0, mem_khz = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));  // BUG: differs from the solution here (the header says how)
    /* DDR: two transfers per clock, bus width in bits. */
    double peak_gbs = 2.0 * mem_khz * 1e3 * (p.memoryBusWidth / 8) / 1e9;
    fprintf(out, "device %d          %s, compute capability %d.%d\n", dev, p.name, p.major, p.minor);  // BUG: differs from the solution here (the header says how)
    fprintf(out, "SMs               %d at up to %d MHz\n", p.multiProcessorCount, sm_khz / 1000);
    fprintf(out, "threads           %d per block, %d per SM (%d warps of %d); %d blocks per SM\n",
            p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor,
            p.maxThreadsPerMultiProcessor / p.warpSize, p.warpSize, p.maxBlocksPerMultiProcessor);
    fprintf(out, "shared memory     %zu B per block (%zu B with opt-in), %zu B per SM, %zu B reserved per block\n",
            p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor,
            p.reservedSharedMemPerBlock);
    fprintf(out, "registers         %d per block, %d per SM\n", p.regsPerBlock, p.regsPerMultiprocessor);
    fprintf(out, "memory            %.1f GiB, %d-bit bus at %d MHz: %.0f GB/s peak; L2 %d KiB\n",
            (double)p.totalGlobalMem / (1 << 30), p.memoryBusWidth, mem_khz / 1000, peak_gbs,
            p.l2CacheSize / 1024);
    fprintf(out, "naive bound       %.0f GB/s / 4 B per FLOP = %.0f GFLOP/s if every operand came from DRAM\n",
            peak_gbs, peak_gbs / 4);
}
