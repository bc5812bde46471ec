/* cuda_check.h: report a failing CUDA call with its text, file and line (cuda-samples'
 * helper_cuda.h idea, as a plain function plus a macro). Include from .cu files only.
 *
 * What every GPU lab's kernel receives: P (Pd) arrives filled with NaN, written by the harness
 * before each launch, so an element the kernel never stores is seen (a zero-filled P would hide
 * it). A kernel sets every element of P and never reads or adds to it: cuBLAS's form
 * P = alpha * M N + beta * P computes NaN everywhere unless beta is 0 and P is never read. */
#ifndef TILELAB_CUDA_CHECK_H
#define TILELAB_CUDA_CHECK_H

#include <stdio.h>
#include <cuda_runtime.h>

/* Prints "file:line: CALL failed: cudaErrorX (text)" to stderr; returns the error unchanged. */
static inline cudaError_t tl_cuda_report(cudaError_t rc, const char *call, const char *file, int line)
{
    if (rc != cudaSuccess)
        fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, cudaGetErrorName(rc),
                cudaGetErrorString(rc));
    return rc;
}

/* CUDA_CHECK(expr): evaluates to the cudaError_t of expr, reporting it when not cudaSuccess. */
#define CUDA_CHECK(expr) tl_cuda_report((expr), #expr, __FILE__, __LINE__)

/* Grid arithmetic: how many blocks (or tiles) of size b cover n elements. Usable in kernels
 * too: the boundary lab's phase loop runs ceil_div(Width, TILE_WIDTH) times. */
static inline __host__ __device__ int ceil_div(int n, int b)
{
    return (n + b - 1) / b;
}

#endif
