/* tl-grade-args.c: tl-grade's command line checked before tl-grade is built. `./kit grade` runs it
 * first (kit-grade.sh): tl-grade links the whole kit (the emulator, the lab archives, the CUDA
 * reference: 106 build steps, about a minute on a fresh clone), this program only what reads the
 * command line (cmdline.c, the table in options.c, the grader's plain helpers and the harness's core:
 * about 25 steps), so `./kit grade --jobs`, a misspelt option, a bad value, an unknown lab or a
 * missing kit folder is answered in seconds, in tl-grade's own words (the same code). Left to tl-grade:
 * the one-shot commands' values (--status, --print-*), --rubric's and --extensions' contents, and
 * the submissions themselves.
 *
 *   tl-grade-args ARGS...   exit 0: tl-grade would start grading; 2: the usage error, one line
 *   tl-grade-args --help    tl-grade --help's text (options.c), exit 0: `./kit grade --help` (and
 *                           `./kit similar --help`) answered without tl-grade's build (kit-grade.sh) */
#include <string.h>

#include "grade.h"

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        tg_options_init();
        tg_print_usage(stdout);
        return TL_EXIT_OK;
    }
    static grun R;
    static tg_opts O;
    tg_cli a = {0};
    R.opt = &O;
    int rc = tg_cmdline(argc, argv, &R, &O, &a, NULL, &argv, &argc);
    return rc == TG_CMDLINE_GO ? TL_EXIT_OK : rc;
}
