/* hostile/03/naive_unsupported_include.cu (issue 24 items 2/3, red team): lab 02's naive kernel in
 * tiled.cu (no tile) with an unused #include <cuda_fp16.h>, valid CUDA the emulator lacks: where
 * the work rule's evidence comes from an emulated build (the counting twin), that build records
 * "not supported under emulation" and the rule would be "not checked here", never a failure.
 * Expected: less everywhere: emulated, the tests the emulated build grades are not graded (0, never
 * rescaled); on a GPU whose counters ncu reads, the work comes from the GPU ("not tiled"). */
#include <cuda_fp16.h>
/* tiled.cu: KNOWN WRONG (tests/wrong/03/naive-in-tiled.cu): lab 02's naive kernel handed in as lab 03.
 * One thread per element of P, both operands of every multiply-add loaded from global memory, no
 * shared memory: P is right, but nothing is tiled. The grader's work counts show 2 global loads
 * per multiply-add where a TILE_WIDTH T kernel needs 2/T (8x or 16x fewer), and the correctness
 * tests give no credit. Launched with TILE_WIDTH x TILE_WIDTH blocks, as the lab's launcher.
 */
#include "cuda_check.h"
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 16   /* set by the build: 16 or 32 */
#endif

/* ------------------------------------------------------------------ the kernel */

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)  // BUG: differs from the solution here (the header says how)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)          /* the bug: no tiles, every operand from global memory */
            Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];
        Pd[Row * Width + Col] = Pvalue;
    }  // BUG: differs from the solution here (the header says how)
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
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
