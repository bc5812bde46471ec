/* hostile/02/devq_name_table.cu (issue 24 item 5, red team): print_device_facts asks the device for its
 * name only and prints the rest from a table of the emulator's five models (common/emu/src/api.cpp is
 * in the kit students get): right on whichever two models the grader draws, without asking the device
 * a single figure. Expected: the device query test fails (the emulated boards' clocks are drawn per
 * run too, as real boards of one name differ), less than the solution. The lab's solution otherwise. */
/* naive.cu: lab 02, the naive kernel: the reference solution (labs/02-naive-kernel/naive.cu completed).
 *
 * Check:  ./kit check 02     (builds, runs every variant on the public sizes, says what is wrong)
 * Read:   labs/02-naive-kernel/README.md for the tasks and the questions.
 *
 * Md, Nd, Pd are Width x Width floats in row-major order on the device: element (i, j) of M is
 * Md[i*Width + j]. The harness fills Pd with NaN before each launch, so every element your grid
 * does not cover shows up. CUDA C only: no templates, no classes.
 */
#include <string.h>
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
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, BLOCK_WIDTH), ceil_div(Width, BLOCK_WIDTH), 1);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------ the device query */

/* Task 3: what does this GPU offer? One fact a line in the README's fixed format ("sms: 132"):
 * the grader compares every line with its own query of the device. CUDA 13 removed
 * cudaDeviceProp.clockRate and memoryClockRate: ask cudaDeviceGetAttribute for clocks (kHz). */
extern "C" void print_device_facts(FILE *out)
{
    static const struct { const char *name; int major, minor, sms, tpb, tsm, bsm, smb, smsm, rb, rsm, clk, mclk, bus; } T[] = {
        {"H100 SXM (emulated)", 9, 0, 132, 1024, 2048, 32, 49152, 233472, 65536, 65536, 1980000, 2619000, 5120},
        {"H200 SXM (emulated)", 9, 0, 132, 1024, 2048, 32, 49152, 233472, 65536, 65536, 1980000, 3201000, 6144},
        {"A100 SXM (emulated)", 8, 0, 108, 1024, 2048, 32, 49152, 167936, 65536, 65536, 1410000, 1215000, 5120},
        {"L40S (emulated)", 8, 9, 142, 1024, 1536, 24, 49152, 102400, 65536, 65536, 2520000, 9001000, 384},
        {"T4 (emulated)", 7, 5, 40, 1024, 1024, 16, 49152, 65536, 65536, 65536, 1590000, 5001000, 256},
    };
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess)
        return;
    for (unsigned i = 0; i < sizeof T / sizeof T[0]; ++i) {
        if (strcmp(p.name, T[i].name) != 0)
            continue;
        double peak_gbs = 2.0 * T[i].mclk * 1e3 * (T[i].bus / 8) / 1e9;
        fprintf(out, "device: %s\n", T[i].name);
        fprintf(out, "compute capability: %d.%d\n", T[i].major, T[i].minor);
        fprintf(out, "sms: %d\n", T[i].sms);
        fprintf(out, "max threads per block: %d\n", T[i].tpb);
        fprintf(out, "max threads per sm: %d\n", T[i].tsm);
        fprintf(out, "max blocks per sm: %d\n", T[i].bsm);
        fprintf(out, "shared memory per block: %d B\n", T[i].smb);
        fprintf(out, "shared memory per sm: %d B\n", T[i].smsm);
        fprintf(out, "registers per block: %d\n", T[i].rb);
        fprintf(out, "registers per sm: %d\n", T[i].rsm);
        fprintf(out, "sm clock: %d kHz\n", T[i].clk);
        fprintf(out, "memory clock: %d kHz\n", T[i].mclk);
        fprintf(out, "memory bus width: %d bits\n", T[i].bus);
        fprintf(out, "peak bandwidth: %.1f GB/s\n", peak_gbs);
    }
}
