/* 02-wrong-coalesced-1d-ragged.cu: corpus, lab 02, wrong: siboehm's kernel 2 (global memory coalescing:
 * a 1-D block of 32*32 threads, cRow from threadIdx.x / 32) with the column guard tested against the
 * row count's block (x < M only, y unguarded): out of bounds at every size not a multiple of 32. */
#include "cuda_check.h"
#include "lab.h"

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

template <const uint BLOCKSIZE>
__global__ void sgemm_global_mem_coalesce(int M, int N, int K, float alpha, const float *A, const float *B,
                                          float beta, float *C)
{
    const int cRow = blockIdx.x * BLOCKSIZE + (threadIdx.x / BLOCKSIZE);
    const int cCol = blockIdx.y * BLOCKSIZE + (threadIdx.x % BLOCKSIZE);
    if (cRow < M) {
        float tmp = 0.0;
        for (int i = 0; i < K; ++i)
            tmp += A[cRow * K + i] * B[i * N + cCol];
        C[cRow * N + cCol] = alpha * tmp;
    }
}

extern "C" int launch_naive(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 gridDim(CEIL_DIV(Width, 32), CEIL_DIV(Width, 32));
    dim3 blockDim(32 * 32);
    sgemm_global_mem_coalesce<32><<<gridDim, blockDim>>>(Width, Width, Width, 1.0f, Md, Nd, 0.0f, Pd);
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
