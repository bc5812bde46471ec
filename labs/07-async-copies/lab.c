/* lab.c: lab 07's program (kit-owned; the student edits asynccopy.cu only).
 *
 * Build:  ./kit check 07          (or: meson compile -C build lab07)
 * Run:    build/labs/07-async-copies/lab07                                  all variants, public sizes
 *         build/labs/07-async-copies/lab07 --variants cpasync --sizes 17,1000x17x3
 *         build/labs/07-async-copies/lab07 --sizes 4096                    every variant, cuBLAS too when built
 */
#include "lab.h"
#include "tilelab.h"
#ifdef TL_HAVE_CUBLAS
#include "yardstick.h"
#endif

static const tl_rect_launcher f_cpasync = launch_cpasync, f_tma = launch_tma, f_grouped = launch_grouped;

/* The code of each variant; names, constraints and sizes are lab 07's entry in common/labtable.c. */
static const tl_lab_code code[] = {
    {"cpasync", .gpu = tl_run_rect, .ctx = &f_cpasync},
    {"tma", .gpu = tl_run_rect, .ctx = &f_tma},
    {"grouped", .gpu = tl_run_rect, .ctx = &f_grouped},
#ifdef TL_HAVE_CUBLAS
    {"cublas", .gpu = launch_cublas},
#endif
};

int main(int argc, char **argv)
{
    return tl_lab_run("07", code, (int)(sizeof code / sizeof code[0]), NULL, argc, argv);
}
