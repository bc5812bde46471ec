/* hostile/01/include_terminal.c (issue 24 item 6): includes terminal devices. In a build sandbox
 * that has them, the compiler blocks reading /dev/ptmx, using no CPU, until the build's wall-clock
 * limit (300 s of a grading worker). Expected: the build sees no such device and fails at once
 * (score 0, the compiler's "No such file" quoted). */
#include "lab.h"
#include "/dev/ptmx"
#include "/dev/tty"

void GMM_CPU(const float *M, const float *N, float *P, int Width)
{
    (void)M; (void)N; (void)P; (void)Width;
}

void GMM_CPU_ikj(const float *M, const float *N, float *P, int Width)
{
    (void)M; (void)N; (void)P; (void)Width;
}

void GMM_CPU_blocked(const float *M, const float *N, float *P, int Width, int Block)
{
    (void)M; (void)N; (void)P; (void)Width; (void)Block;
}
