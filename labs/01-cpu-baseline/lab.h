/* lab.h: what lab 01's student file provides (kit-owned; do not edit). */
#ifndef TILELAB_LAB01_H
#define TILELAB_LAB01_H

/* P = M * N for Width x Width row-major matrices: the lecture's triple loop, i-j-k order. */
void GMM_CPU(const float *M, const float *N, float *P, int Width);
/* The same product with the loops in i-k-j order: the inner loop walks N and P in memory order. */
void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width);
/* The same product computed Block x Block tile by tile (any Width, any Block >= 1). */
void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block);

#endif
