/* lab.c: lab 03's program (kit-owned; the student edits tiled.cu only).
 *
 * Build:  ./kit check 03          (or: meson compile -C build lab03)
 * Run:    build/labs/03-tiled-kernel/lab03                            all variants, public sizes
 *         build/labs/03-tiled-kernel/lab03 --variants tiled16 --sizes 64,1024
 *         build/labs/03-tiled-kernel/lab03 --sizes 4096 --records tiled.csv   next to cuBLAS
 *         build/labs/03-tiled-kernel/lab03 --repeat 10 --no-time   hunt for a race harder
 */
#include "lab.h"
#include "tilelab.h"
#ifdef TL_HAVE_CUBLAS
#include "yardstick.h"
#endif

/* The harness hands out const inputs; the lecture's kernel signature takes float*. */
static int run_t16(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_tiled_t16((float *)d_M, (float *)d_N, d_P, m);
}

static int run_t32(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_tiled_t32((float *)d_M, (float *)d_N, d_P, m);
}

/* The code of each variant; names, constraints and sizes are lab 03's entry in common/labtable.c. */
static const tl_lab_code code[] = {
    {"tiled16", .gpu = run_t16},
    {"tiled32", .gpu = run_t32},
#ifdef TL_HAVE_CUBLAS
    {"cublas", .gpu = launch_cublas},
#endif
};

int main(int argc, char **argv)
{
    return tl_lab_run("03", code, (int)(sizeof code / sizeof code[0]), NULL, argc, argv);
}
