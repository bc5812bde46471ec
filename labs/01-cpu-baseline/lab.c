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

static const tl_variant variants[] = {
    {.name = "cpu_ijk", .what = "GMM_CPU: the lecture's i-j-k triple loop", .where = TL_ON_CPU,
     .square_only = 1, .cpu = run_ijk, .max_time_size = 1024},
    {.name = "cpu_ikj", .what = "GMM_CPU_ikj: i-k-j order, memory-order inner loop", .where = TL_ON_CPU,
     .square_only = 1, .cpu = run_ikj, .max_time_size = 2048},
    {.name = "cpu_blocked", .what = "GMM_CPU_blocked, Block 32", .where = TL_ON_CPU, .tile = 32,
     .square_only = 1, .cpu = run_blocked, .ctx = &block32, .max_time_size = 2048},
    {.name = "cpu_blocked64", .what = "GMM_CPU_blocked, Block 64", .where = TL_ON_CPU, .tile = 64,
     .square_only = 1, .cpu = run_blocked, .ctx = &block64, .max_time_size = 2048},
};

static const tl_lab lab = {
    .id = "01",
    .name = "01-cpu-baseline",
    .title = "CPU baseline: the triple loop, memory order, cache blocking",
    .variants = variants,
    .nvariants = (int)(sizeof variants / sizeof variants[0]),
    .default_sizes = "1,2,17,64,100,128,255,300,512",
};

int main(int argc, char **argv)
{
    return tl_lab_main(&lab, argc, argv);
}
