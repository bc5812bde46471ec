/* hostile/01/read_secrets.c: tries to read the reference solution, the kit's tree, the grader's out dir and seed,
 * and the environment. If it can read any of them it prints LEAK and leaves P unwritten, so a
 * leak costs it points where a test sees it. Expected: nothing readable; full marks. */
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
static int readable(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        return 0;
    char c;
    int ok = fread(&c, 1, 1, f) == 1;
    fclose(f);
    return ok;
}
static void probe(void)
{
    static const char *const rel[] = {"solutions/01-cpu-baseline/gmm.c", ".state/seed", "seed",
                                      "common/reference.c", NULL};
    char p[4096];
    for (int i = 0; rel[i]; ++i) {
        snprintf(p, sizeof p, "%s/%s", TL_HOSTILE_ROOT, rel[i]);
        if (readable(p)) leak(p);
        snprintf(p, sizeof p, "%s/%s", TL_HOSTILE_OUT, rel[i]);
        if (readable(p)) leak(p);
        char up[4096] = "";
        for (int d = 0; d < 10; ++d) {           /* ../solutions, ../../solutions, ... */
            strncat(up, "../", sizeof up - strlen(up) - 1);
            snprintf(p, sizeof p, "%s%s", up, rel[i]);
            if (readable(p)) leak(p);
        }
    }
    if (getenv("TL_ROOT") || getenv("TL_BUILD")) leak("the grader's environment (TL_ROOT/TL_BUILD)");
    if (readable("/proc/1/cwd/solutions/01-cpu-baseline/gmm.c")) leak("/proc/1/cwd");
    if (readable("/root/.bash_history")) leak("/root/.bash_history");
}
#include "lab.h"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    static int once;
    if (!once++)
        probe();
    if (leaked)
        return;
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
