/* lab.h: what lab 02's student file provides (kit-owned; do not edit). Included by naive.cu
 * (CUDA C) and by lab.c (C11), hence the C linkage.
 *
 * Pd arrives filled with NaN (the harness's poison, so an element never stored is seen): set
 * every element of P, never read it or add to it (common/cuda_check.h says why). */
#ifndef TILELAB_LAB02_H
#define TILELAB_LAB02_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- naive.cu (student) */
/* Starts MatrixMulKernel for Pd = Md * Nd, all Width x Width, row-major, already on the
 * device. Returns the launch's cudaError_t as an int (cudaGetLastError()); does not wait. */
int  launch_naive(float *Md, float *Nd, float *Pd, int Width);
/* Prints what this GPU offers (name, compute capability, SMs, thread, shared-memory and
 * register limits per block and per SM): the lab's preamble. */
void print_device_facts(FILE *out);

#ifdef __cplusplus
}
#endif
#endif
