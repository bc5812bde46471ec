/* hostile/01/write_outside.c: tries to write outside its working folder: into $HOME, /root, /tmp/.., the kit's
 * tree, the grader's out dir, ../.. . It prints what it managed and computes correctly: the test
 * checks that none of these files exists on the grader's machine afterwards. Expected: full
 * marks, no file outside the sandbox. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* The test that grades this file may define TL_HOSTILE_ROOT (the instructor's kit) and
 * TL_HOSTILE_OUT (the grader's out dir) on top, so the attempt names the real paths. */
#ifndef TL_HOSTILE_ROOT
#define TL_HOSTILE_ROOT "/work/main"
#endif
#ifndef TL_HOSTILE_OUT
#define TL_HOSTILE_OUT "/tmp/tl-grade-out"
#endif
static int leaked;
static void leak(const char *what)
{
    printf("LEAK: %s\n", what);
    fflush(stdout);
    leaked = 1;
}
static void try_write(const char *p)
{
    FILE *f = fopen(p, "w");
    if (f) {
        fputs("tilelab hostile submission was here\n", f);
        fclose(f);
        printf("wrote %s (inside the sandbox, or a leak)\n", p);
    }
}
static void probe(void)
{
    char p[4096];
    const char *home = getenv("HOME");
    if (home) {
        snprintf(p, sizeof p, "%s/tl_hostile_was_here", home);
        try_write(p);
    }
    try_write("/root/tl_hostile_was_here");
    try_write("/tmp/../tl_hostile_was_here");
    try_write("/tmp/tl_hostile_was_here");
    try_write("../tl_hostile_was_here");
    try_write("../../tl_hostile_was_here");
    snprintf(p, sizeof p, "%s/tl_hostile_was_here", TL_HOSTILE_ROOT);
    try_write(p);
    snprintf(p, sizeof p, "%s/tl_hostile_was_here", TL_HOSTILE_OUT);
    try_write(p);
    fflush(stdout);
}
#include "lab.h"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    static int once;
    if (!once++)
        probe();
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
