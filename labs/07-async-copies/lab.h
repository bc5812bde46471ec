/* lab.h: what lab 07's student file provides (kit-owned; do not edit). Included by asynccopy.cu
 * (CUDA C) and by lab.c (C11), hence the C linkage.
 *
 * Pd arrives filled with NaN (the harness's poison, so an element never stored is seen): set
 * every element of P, never read it or add to it (common/cuda_check.h says why). */
#ifndef TILELAB_LAB07_H
#define TILELAB_LAB07_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- asynccopy.cu (student) */
/* Each: Pd (m x n) = Md (m x k) * Nd (k x n), row-major, on the device, any m, k, n >= 1.
 * Returns the launch's cudaError_t as an int; does not wait. */
int launch_cpasync(float *Md, float *Nd, float *Pd, int m, int k, int n);  /* (a) cp.async stages        */
int launch_tma(float *Md, float *Nd, float *Pd, int m, int k, int n);      /* (b) TMA tiles (sm_90)      */
int launch_grouped(float *Md, float *Nd, float *Pd, int m, int k, int n);  /* (c) grouped block order    */

#ifdef __cplusplus
}
#endif
#endif
