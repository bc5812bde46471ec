/* lab.c: lab 02's program (kit-owned; the student edits naive.cu only).
 *
 * Build:  ./kit check 02          (or: meson compile -C build lab02)
 * Run:    build/labs/02-naive-kernel/lab02                          all variants, public sizes
 *         build/labs/02-naive-kernel/lab02 --variants naive --sizes 17,1000
 *         build/labs/02-naive-kernel/lab02 --sizes 4096 --records naive.csv   naive next to cuBLAS
 */
#include "lab.h"
#include "tilelab.h"
#ifdef TL_HAVE_CUBLAS
#include "yardstick.h"
#endif

/* The harness hands out const inputs; the lecture's kernel signature takes float*. */
static int run_naive(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_naive((float *)d_M, (float *)d_N, d_P, m);
}

/* The code of each variant; names, constraints and sizes are lab 02's entry in common/labtable.c. */
static const tl_lab_code code[] = {
    {"naive", .gpu = run_naive},
#ifdef TL_HAVE_CUBLAS
    {"cublas", .gpu = launch_cublas},
#endif
};

int main(int argc, char **argv)
{
    return tl_lab_run("02", code, (int)(sizeof code / sizeof code[0]), print_device_facts, argc, argv);
}
