/* hostile/01/interpose_fprintf.c (issue 24 item 1): defines the C library's output functions, so
 * that the lab program's answer on fd 4 (and any print) would run the student's code, and
 * computes nothing. Expected: refused before any test runs, naming "defines fprintf" and its line. */
#include "lab.h"
#include <stdarg.h>
#include <stdio.h>

int fprintf(FILE *f, const char *fmt, ...)
{
    (void)f;
    (void)fmt;
    return 1;
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    (void)p;
    (void)f;
    (void)size;
    return n;
}

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    (void)M; (void)N;
    for (int i = 0; i < Width * Width; ++i)
        P[i] = 0;
}

void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width) { GMM_CPU(M, N, P, Width); }

void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    (void)Block;
    GMM_CPU(M, N, P, Width);
}
