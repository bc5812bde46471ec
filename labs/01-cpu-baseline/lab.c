/* lab.c: lab 01's program (kit-owned; the student edits gmm.c only).
 *
 * Build:  ./kit check 01          (or: meson compile -C build lab01)
 * Run:    build/labs/01-cpu-baseline/lab01                     all variants, public sizes
 *         build/labs/01-cpu-baseline/lab01 --variants cpu_ikj  one variant
 *         build/labs/01-cpu-baseline/lab01 --sizes 1024 --records my.csv
 */
#include "lab.h"
#include "tilelab.h"

static void run_ijk(const float *M, const float *N, float *P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    GMM_CPU(M, N, P, m);
}

static void run_ikj(const float *M, const float *N, float *P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    GMM_CPU_ikj(M, N, P, m);
}

static void run_blocked(const float *M, const float *N, float *P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n;
    GMM_CPU_blocked(M, N, P, m, *(const int *)ctx);
}

static const int block32 = 32, block64 = 64;

/* The code of each variant; names, constraints and sizes are lab 01's entry in common/labtable.c. */
static const tl_lab_code code[] = {
    {"cpu_ijk", .cpu = run_ijk},
    {"cpu_ikj", .cpu = run_ikj},
    {"cpu_blocked", .cpu = run_blocked, .ctx = &block32},
    {"cpu_blocked64", .cpu = run_blocked, .ctx = &block64},
};

int main(int argc, char **argv)
{
    return tl_lab_run("01", code, (int)(sizeof code / sizeof code[0]), NULL, argc, argv);
}
