/* lab.c: lab 06's program (kit-owned; the student edits regtile.cu only).
 *
 * Build:  ./kit check 06          (or: meson compile -C build lab06)
 * Run:    build/labs/06-register-tiling/lab06                                  all variants, public sizes
 *         build/labs/06-register-tiling/lab06 --variants coarse1d --sizes 17,1000x17x3
 *         build/labs/06-register-tiling/lab06 --sizes 2048,4096          every variant, cuBLAS too when built
 */
#include "lab.h"
#include "tilelab.h"
#ifdef TL_HAVE_CUBLAS
#include "yardstick.h"
#endif

static const tl_rect_launcher f_coarse1d = launch_coarse1d, f_regtile = launch_regtile, f_warptile = launch_warptile;

/* The code of each variant; names, constraints and sizes are lab 06's entry in common/labtable.c. */
static const tl_lab_code code[] = {
    {"coarse1d", .gpu = tl_run_rect, .ctx = &f_coarse1d},
    {"regtile", .gpu = tl_run_rect, .ctx = &f_regtile},
    {"warptile", .gpu = tl_run_rect, .ctx = &f_warptile},
#ifdef TL_HAVE_CUBLAS
    {"cublas", .gpu = launch_cublas},
#endif
};

int main(int argc, char **argv)
{
    return tl_lab_run("06", code, (int)(sizeof code / sizeof code[0]), NULL, argc, argv);
}
