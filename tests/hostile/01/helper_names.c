/* hostile/01/helper_names.c (issue 24 item 1, a legitimate file): helpers the student named ld,
 * tile_load and store (names no runtime or kit defines), external and static. Expected: full marks. */
#include "lab.h"

float ld(const float *p, long i)
{
    return p[i];
}

void tile_load(float *dst, const float *src, int n)
{
    for (int i = 0; i < n; ++i)
        dst[i] = ld(src, i);
}

static void store(float *p, long i, float v)
{
    p[i] = v;
}

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    for (int i = 0; i < Width; ++i)
        for (int j = 0; j < Width; ++j) {
            float sum = 0;
            for (int k = 0; k < Width; ++k)
                sum += ld(M, (long)i * Width + k) * ld(N, (long)k * Width + j);
            store(P, (long)i * Width + j, sum);
        }
}

void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width)
{
    GMM_CPU(M, N, P, Width);
}

void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    float row[64];
    (void)Block;
    GMM_CPU(M, N, P, Width);
    if (Width >= 64)
        tile_load(row, P, 64);
}
