/* KNOWN-WRONG SUBMISSION (tests/wrong/02/devq-stub.cu): the kernel and launcher are right, the device query is the skeleton's stub: no fact printed
 * Everything else is the reference solution; the checker must reject this file.
 * tests/wrong/README.md lists the verdict each bug must get. */
/* naive.cu: lab 02, the naive kernel: the reference solution (labs/02-naive-kernel/naive.cu completed).
 *
 * Check:  ./kit check 02     (builds, runs every variant on the public sizes, says what is wrong)
 * Read:   labs/02-naive-kernel/README.md for the tasks and the questions.
 *
 * Md, Nd, Pd are Width x Width floats in row-major order on the device: element (i, j) of M is
 * Md[i*Width + j]. The harness fills Pd with NaN before each launch, so every element your grid
 * does not cover shows up. CUDA C only: no templates, no classes.
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
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
    dim3 dimGrid(ceil_div(Width, BLOCK_WIDTH), ceil_div(Width, BLOCK_WIDTH), 1);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}

/* ------------------------------------------------------------------ the device query */

/* Task 3: print what this GPU offers (BUG: the skeleton's stub, left as handed out). */
extern "C" void print_device_facts(FILE *out)
{  // BUG: differs from the solution here (the header says how)
    /* TODO: the device query. */
    fprintf(out, "print_device_facts: not written yet (task 3 in naive.cu)\n");
}
