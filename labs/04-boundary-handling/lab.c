/* lab.c: lab 04's program (kit-owned; the student edits boundary.cu only).
 *
 * Build:  ./kit check 04          (or: meson compile -C build lab04)
 * Run:    build/labs/04-boundary-handling/lab04                         all variants, public sizes
 *         build/labs/04-boundary-handling/lab04 --variants boundary16 --sizes 1,15,17
 *         build/labs/04-boundary-handling/lab04 --variants rect32 --sizes 1000x17x3,1x300x1
 */
#include "lab.h"
#include "tilelab.h"

/* The harness hands out const inputs; the lecture's kernel signature takes float*. */
static int run_b16(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_boundary_t16((float *)d_M, (float *)d_N, d_P, m);
}

static int run_b32(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_boundary_t32((float *)d_M, (float *)d_N, d_P, m);
}

static int run_r16(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)ctx;
    return launch_rect_t16((float *)d_M, (float *)d_N, d_P, m, k, n);
}

static int run_r32(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)ctx;
    return launch_rect_t32((float *)d_M, (float *)d_N, d_P, m, k, n);
}

/* The code of each variant; names, constraints and sizes are lab 04's entry in common/labtable.c. */
static const tl_lab_code code[] = {
    {"boundary16", .gpu = run_b16},
    {"boundary32", .gpu = run_b32},
    {"rect16", .gpu = run_r16},
    {"rect32", .gpu = run_r32},
};

int main(int argc, char **argv)
{
    return tl_lab_run("04", code, (int)(sizeof code / sizeof code[0]), NULL, argc, argv);
}
