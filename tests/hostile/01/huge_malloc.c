/* hostile/01/huge_malloc.c: GMM_CPU asks for 1 TiB, then 16 GiB and touches it. Expected: the 1 TiB request fails,
 * the 16 GiB one meets the memory cgroup (killed, "memory limit") or, without one, the time
 * limit; never RLIMIT_AS (CUDA needs the address space). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <stdio.h>
#include "lab.h"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    char *huge = malloc((size_t)1 << 40);
    printf("malloc(1 TiB) %s\n", huge ? "succeeded" : "failed");
    fflush(stdout);
    free(huge);
    size_t big = (size_t)16 << 30;
    char *p = malloc(big);
    if (p)
        for (size_t i = 0; i < big; i += 4096)
            p[i] = 1;
    printf("touched 16 GiB\n");
    fflush(stdout);
    free(p);
    for (int i = 0; i < Width; ++i)
        for (int j = 0; j < Width; ++j) {
            float sum = 0;
            for (int k = 0; k < Width; ++k)
                sum += M[i * Width + k] * N[k * Width + j];
            P[i * Width + j] = sum;
        }
}

void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width)
{
    for (int i = 0; i < Width; ++i) {
        float *Prow = P + (long)i * Width;
        for (int j = 0; j < Width; ++j)
            Prow[j] = 0;
        for (int k = 0; k < Width; ++k) {
            float a = M[i * Width + k];
            const float *Nrow = N + (long)k * Width;
            for (int j = 0; j < Width; ++j)
                Prow[j] += a * Nrow[j];
        }
    }
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    for (int i = 0; i < Width * Width; ++i)
        P[i] = 0;
    /* Blocks of rows of P (ii), of the dot product (kk), of columns of P (jj); inside a block
     * the i-k-j order of GMM_CPU_ikj. min() keeps the last, partial block of each direction. */
    for (int ii = 0; ii < Width; ii += Block)
        for (int kk = 0; kk < Width; kk += Block)
            for (int jj = 0; jj < Width; jj += Block) {
                int iend = min_int(ii + Block, Width);
                int kend = min_int(kk + Block, Width);
                int jend = min_int(jj + Block, Width);
                for (int i = ii; i < iend; ++i)
                    for (int k = kk; k < kend; ++k) {
                        float a = M[i * Width + k];
                        for (int j = jj; j < jend; ++j)
                            P[i * Width + j] += a * N[k * Width + j];
                    }
            }
}
