/* tl-grade-args.c: tl-grade's command line checked by name before tl-grade is built. `./kit grade`
 * runs it first (kit-grade.sh): tl-grade links the whole kit (the emulator, the lab archives, the
 * CUDA reference: about a minute on a fresh clone), this program only the options' table
 * (options.c) and the harness's core, so `./kit grade --jobs` or a misspelt option is answered in
 * seconds, in tl-grade's own words (the same table, the same one-line error). The values are
 * tl-grade's to judge, after the build.
 *
 *   tl-grade-args ARGS...   exit 0: every option known and given its value; 2: one line on stderr */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>

#include "opts.h"

int main(int argc, char **argv)
{
    struct option longopts[64];
    tg_options_init();
    tl_cli_longopts(tg_options, longopts, (int)(sizeof longopts / sizeof longopts[0]));
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return TL_EXIT_USAGE;
    argc = tg_submissions_first(argc, argv, longopts, args, 0);   /* as tl-grade reads them (it says so) */
    char msg[500];
    if (tl_cli_check(tg_options, "+:", argc, args, NULL, msg, sizeof msg) < 0)
        return tg_usage_error(msg);
    return TL_EXIT_OK;
}
