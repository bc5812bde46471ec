/* lab.h: what lab 04's student file provides (kit-owned; do not edit). Included by boundary.cu
 * (CUDA C) and by lab.c (C11), hence the C linkage.
 *
 * boundary.cu is compiled twice, once per tile width, with TILE_WIDTH and the names renamed on
 * nvcc's command line (labs/04-boundary-handling/meson.build), e.g. for 16:
 *     -DTILE_WIDTH=16 -DMatrixMulKernel=MatrixMulKernel_b16 -DMatrixMulKernelRect=MatrixMulKernelRect_b16
 *     -Dlaunch_boundary=launch_boundary_t16 -Dlaunch_rect=launch_rect_t16
 * so you write the lecture's names once and both builds link into one program. Every other name
 * your file defines (a kernel of your own name, a helper, a template instance) is given its copy's
 * suffix after compiling (labs/own-symbols.sh): each copy keeps its own; static is not needed.
 *
 * Pd arrives filled with NaN (the harness's poison, so an element never stored is seen): set
 * every element of P, never read it or add to it (common/cuda_check.h says why). */
#ifndef TILELAB_LAB04_H
#define TILELAB_LAB04_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- boundary.cu (student) */
/* Pd = Md * Nd, all Width x Width, row-major, on the device, for ANY Width >= 1.
 * Returns the launch's cudaError_t as an int; does not wait. */
int launch_boundary(float *Md, float *Nd, float *Pd, int Width);
/* Pd (m x n) = Md (m x k) * Nd (k x n), row-major, on the device, any m, k, n >= 1. */
int launch_rect(float *Md, float *Nd, float *Pd, int m, int k, int n);

/* The same functions as the two builds name them (what lab.c calls). */
int launch_boundary_t16(float *Md, float *Nd, float *Pd, int Width);
int launch_boundary_t32(float *Md, float *Nd, float *Pd, int Width);
int launch_rect_t16(float *Md, float *Nd, float *Pd, int m, int k, int n);
int launch_rect_t32(float *Md, float *Nd, float *Pd, int m, int k, int n);

#ifdef __cplusplus
}
#endif
#endif
