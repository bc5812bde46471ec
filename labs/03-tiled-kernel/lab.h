/* lab.h: what lab 03's student file provides (kit-owned; do not edit). Included by tiled.cu
 * (CUDA C) and by lab.c (C11), hence the C linkage.
 *
 * tiled.cu is compiled twice, once per tile width, with TILE_WIDTH and the names renamed on
 * nvcc's command line (labs/03-tiled-kernel/meson.build):
 *     -DTILE_WIDTH=16 -DMatrixMulKernel=MatrixMulKernel_t16 -Dlaunch_tiled=launch_tiled_t16
 *     -DTILE_WIDTH=32 -DMatrixMulKernel=MatrixMulKernel_t32 -Dlaunch_tiled=launch_tiled_t32
 * so you write the lecture's names once and both builds link into one program. Every other name
 * your file defines (a kernel of your own name, a helper, a template instance) is given its copy's
 * suffix after compiling (labs/own-symbols.sh): each copy keeps its own; static is not needed.
 *
 * Pd arrives filled with NaN (the harness's poison, so an element never stored is seen): set
 * every element of P, never read it or add to it (common/cuda_check.h says why). */
#ifndef TILELAB_LAB03_H
#define TILELAB_LAB03_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- tiled.cu (student) */
/* Starts the tiled MatrixMulKernel for Pd = Md * Nd, all Width x Width, row-major, on the
 * device; Width is a multiple of TILE_WIDTH (lab 04 lifts that). Returns the launch's
 * cudaError_t as an int; does not wait. */
int launch_tiled(float *Md, float *Nd, float *Pd, int Width);

/* The same function as the two builds name it (what lab.c calls). */
int launch_tiled_t16(float *Md, float *Nd, float *Pd, int Width);
int launch_tiled_t32(float *Md, float *Nd, float *Pd, int Width);

#ifdef __cplusplus
}
#endif
#endif
