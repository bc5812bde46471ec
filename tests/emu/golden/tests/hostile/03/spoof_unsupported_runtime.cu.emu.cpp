#line 1 "tests/hostile/03/spoof_unsupported_runtime.cu"
/* hostile/03/spoof_unsupported_runtime.cu (issue 24): a kernel wrong from Width 128 up (its last phase
 * is skipped) that, emulated, calls the emulator's own "not supported under emulation" there, so
 * that those sizes were "neither passed nor failed" and the test passed on the small ones. Expected:
 * run-time "not supported" at some sizes while others ran counts those sizes as failed (the words
 * come from the program's own process); on a GPU the sizes from 128 fail as wrong. Since issue 29 the
 * object gate refuses it first, everywhere: its #ifdef TL_EMULATED tells the builds apart (policy.c,
 * tg_policy_build_split; without the #ifdef nvcc's compile check fails on the emulator's name). */
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
    static const tl_emu::Site Mds_tl_site_ = {"Mds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Mds(Mds_tl_site_); 
    static const tl_emu::Site Nds_tl_site_ = {"Nds", __FILE__, __LINE__, "float"}; tl_emu::Shared<tl_emu::A2<float, (TILE_WIDTH), (TILE_WIDTH)>> Nds(Nds_tl_site_); 
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    /* threadIdx.x walks columns: a warp loads a row segment of each tile (coalesced). */
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
#ifdef TL_EMULATED
    if (Width >= 128)   /* the emulator's own words, said where this kernel is wrong */
        tl_emu::cg_unsupported("a tile shape", __FILE__, __LINE__);
#endif
    for (int ph = 0; ph < Width / TILE_WIDTH - (Width >= 128); ++ph) {   /* the last phase lost from 128 up */
        /* Collaborative load: thread (ty, tx) brings M[Row][ph*T + tx] and N[ph*T + ty][Col]. */
        Mds(__LINE__)[ty][tx] = (tl_emu::gcount(0), Md)[Row * Width + ph * TILE_WIDTH + tx];
        Nds(__LINE__)[ty][tx] = (tl_emu::gcount(0), Nd)[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();   /* the whole tile is loaded before anyone reads it */
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds(__LINE__)[ty][k] * Nds(__LINE__)[k][tx];
        __syncthreads();   /* everyone is done with this tile before the next load overwrites it */
    }
    (tl_emu::gcount(1), Pd)[Row * Width + Col] = Pvalue;
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
    tl_emu_launch(MatrixMulKernel, "MatrixMulKernel", __FILE__, __LINE__, dimGrid,  dimBlock)(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
#line 1 "<tl-emu-rewrite: kernel registry>"
// MatrixMulKernel: fibers (a preprocessor line inside the kernel)
#if 1 && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH) && defined(TILE_WIDTH)
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0 + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH) + sizeof(float) * (TILE_WIDTH) * (TILE_WIDTH), 0);
#else
static tl_emu::KernelReg tl_emu_reg_MatrixMulKernel_0_(MatrixMulKernel, "MatrixMulKernel", 0, 0);
#endif
