/* hostile/01/interpose_kit_verdict.c (issue 24 item 1): defines every function of the kit's verdict
 * writer (common/verdict.c: a library of its own, linked after the student's object), so the
 * archive's member is never pulled in and the program's verdicts (the emulator's race and memory
 * findings among them) are written by the file. Each definition is strong and the kit's are never
 * linked: no duplicate symbol. Expected: refused before any test runs, naming tl_verdict_json.
 * The lab's solution otherwise. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "verdict.h"

void tl_verdict_init(tl_verdict *v, tl_verdict_kind kind, const char *pattern)
{
    (void)kind; (void)pattern;
    memset(v, 0, sizeof *v);
}
const char *tl_verdict_kind_name(tl_verdict_kind kind) { (void)kind; return "none"; }
int tl_verdict_kind_from_name(const char *name) { (void)name; return 0; }
int tl_verdict_pattern_is(const tl_verdict *v, const char *p) { (void)v; (void)p; return 0; }
void tl_verdict_set(char *field, size_t n, const char *s) { (void)s; if (n) field[0] = '\0'; }
size_t tl_verdict_json(const tl_verdict *v, char *out, size_t len)
{
    (void)v;
    return (size_t)snprintf(out, len, "{\"kind\":\"none\",\"pattern\":\"correct\"}");
}

#include "lab.h"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
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
