/* lab.h: what lab 06's student file provides (kit-owned; do not edit). Included by regtile.cu
 * (CUDA C) and by lab.c (C11), hence the C linkage.
 *
 * Pd arrives filled with NaN (the harness's poison, so an element never stored is seen): set
 * every element of P, never read it or add to it (common/cuda_check.h says why). */
#ifndef TILELAB_LAB06_H
#define TILELAB_LAB06_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- regtile.cu (student) */
/* Each: Pd (m x n) = Md (m x k) * Nd (k x n), row-major, on the device, any m, k, n >= 1.
 * Returns the launch's cudaError_t as an int; does not wait. */
int launch_coarse1d(float *Md, float *Nd, float *Pd, int m, int k, int n);  /* (a) TM outputs a thread, one column */
int launch_regtile(float *Md, float *Nd, float *Pd, int m, int k, int n);   /* (b) TM x TN outputs a thread        */
int launch_warptile(float *Md, float *Nd, float *Pd, int m, int k, int n);  /* (c) the speed step                  */

#ifdef __cplusplus
}
#endif
#endif
