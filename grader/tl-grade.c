/* tl-grade: the tilelab autograder. Grades a class's submissions for one lab.
 *
 *   tl-grade --lab NN --out DIR [--secret FILE] [--public-only] [--jobs N] SUBMISSION...
 *   tl-grade --check --lab NN [--emulate] --out DIR FOLDER   (what `./kit check NN` runs)
 *   tl-grade --print-files NN                                 (the lab's student files)
 *
 * For each submission: take the allow-listed student files only, lay them over a pristine copy
 * of the kit (no solutions, no tests, no secrets), build from clean in the sandbox, then run
 * the student's lab binary in `--serve` mode in the sandbox, one process per session, and feed
 * it cases made here from the secret seed over fd 3; read its product on fd 4 and compare it
 * with the double-precision reference computed here (common/check.c). The student's exit code
 * and prints are evidence only. Scores per test (labs.c, rubric.md), then results.json
 * (Gradescope format), gradebook.csv and summary.md, each written atomically; a submission's
 * marker is written last, so a killed run started again skips finished ones and loses nothing.
 * Exit codes: 0 graded (check mode: all correctness tests pass), 1 check mode: a test failed,
 * 2 usage, 3 a grader-side problem, 77 check mode: nothing could be run (no GPU, no emulation). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "grade.h"
#include "labs.h"
#include "policy.h"
#include "sandbox.h"
#include "tilelab.h"
#include "util.h"

static int usage(FILE *out, int code)
{
    fprintf(out,
            "usage: tl-grade --lab NN --out DIR [--secret FILE] [--public-only] [--jobs N] SUBMISSION...\n"
            "       tl-grade --check --lab NN --out DIR [--emulate] FOLDER\n"
            "       tl-grade --print-files NN\n\n"
            "Grades each SUBMISSION (a student's folder, or a .tar, .tar.gz, .tgz or .zip of it) for lab NN.\n"
            "Only the lab's student files are taken; they are built over a pristine copy of the kit and\n"
            "run in a sandbox on cases made from the secret seed.\n\n"
            "  --lab NN          the lab: ");
    for (int i = 0; i < tg_nlabs; ++i)
        fprintf(out, "%s%s", i ? ", " : "", tg_labs[i].id);
    fprintf(out,
            "\n  --out DIR         results: DIR/<student>/results.json, DIR/gradebook.csv, DIR/summary.md\n"
            "  --secret FILE     a file holding the seed of the hidden cases (default: a fresh random seed,\n"
            "                    kept in DIR/.state so a restarted run uses the same one)\n"
            "  --public-only     the public cases only (no hidden sizes, no safety, no speed)\n"
            "  --jobs N          submissions built and graded at once (default: the number of cores)\n"
            "  --check           kit check: one folder, public cases, teaching output on stdout\n"
            "  --emulate         GPU labs: the emulated build instead of the GPU\n"
            "  --kit DIR         the kit's top folder (default: $TL_ROOT, else the current folder)\n"
            "  --print-files NN  print lab NN's student files, one per line, and exit\n"
            "  --print-dir NN    print lab NN's folder name (labs/NAME), and exit\n\n"
            "exit codes: 0 graded (--check: all correctness tests pass), 1 --check: a test failed,\n"
            "2 usage, 3 a grader-side problem, 77 --check: nothing could be run here\n");
    return code;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"lab", required_argument, NULL, 'l'},       {"out", required_argument, NULL, 'o'},
        {"secret", required_argument, NULL, 's'},    {"public-only", no_argument, NULL, 'p'},
        {"jobs", required_argument, NULL, 'j'},      {"check", no_argument, NULL, 'c'},
        {"emulate", no_argument, NULL, 'e'},         {"kit", required_argument, NULL, 'k'},
        {"print-files", required_argument, NULL, 'f'}, {"print-dir", required_argument, NULL, 'd'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0}};
    const char *lab_id = NULL, *out = NULL, *secret = NULL, *kit = NULL;
    long v;
    int c;
    opterr = 0;
    signal(SIGPIPE, SIG_IGN);      /* a student's process that dies mid-request must not take us along */
    static grun R;   /* the run context: filled here, passed to every part */
    memset(&R, 0, sizeof R);
    R.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (R.jobs < 1)
        R.jobs = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'l': lab_id = optarg; break;
        case 'o': out = optarg; break;
        case 's': secret = optarg; break;
        case 'p': R.public_only = 1; break;
        case 'j':
            if (tl_parse_int(optarg, 1, 256, &v) != 0) {
                fprintf(stderr, "tl-grade: --jobs '%s': give a number from 1 to 256\n", optarg);
                return TL_EXIT_USAGE;
            }
            R.jobs = (int)v;
            break;
        case 'c':
            R.check = 1;
            R.public_only = 1;
            setenv("TL_GRADE_CHECK", "1", 1);
            break;
        case 'e': R.emulate = 1; break;
        case 'k': kit = optarg; break;
        case 'q': R.quiet = 1; break;
        case 'f':
        case 'd': {
            const tg_lab *L = tg_lab_find(optarg);
            if (!L) {
                fprintf(stderr, "tl-grade: unknown lab '%s'; the labs are:", optarg);
                for (int i = 0; i < tg_nlabs; ++i)
                    fprintf(stderr, " %s", tg_labs[i].id);
                fprintf(stderr, "\n");
                return TL_EXIT_USAGE;
            }
            if (c == 'd')
                printf("%s\n", L->dir);
            else
                for (int i = 0; i < TG_MAX_FILES && L->files[i]; ++i)
                    printf("%s\n", L->files[i]);
            return 0;
        }
        case 'h': return usage(stdout, 0);
        default:
            fprintf(stderr, "tl-grade: %s '%s'\n", optopt ? "option needs a value or is unknown:" : "unknown option",
                    argv[optind - 1]);
            return usage(stderr, TL_EXIT_USAGE);
        }
    }
    if (!lab_id) {
        fprintf(stderr, "tl-grade: give the lab with --lab NN\n");
        return usage(stderr, TL_EXIT_USAGE);
    }
    R.lab = tg_lab_find(lab_id);
    if (!R.lab) {
        fprintf(stderr, "tl-grade: unknown lab '%s'; the labs are:", lab_id);
        for (int i = 0; i < tg_nlabs; ++i)
            fprintf(stderr, " %s (%s)", tg_labs[i].id, tg_labs[i].dir);
        fprintf(stderr, "\n");
        return TL_EXIT_USAGE;
    }
    if (!out) {
        fprintf(stderr, "tl-grade: give the results folder with --out DIR\n");
        return TL_EXIT_USAGE;
    }
    if (optind >= argc) {
        fprintf(stderr, "tl-grade: no submissions given: name one folder or archive per student\n");
        return TL_EXIT_USAGE;
    }
    if (!kit)
        kit = getenv("TL_ROOT");
    if (!kit)
        kit = ".";
    if (!realpath(kit, R.root)) {
        fprintf(stderr, "tl-grade: the kit folder '%s' is missing (%s); give it with --kit DIR or TL_ROOT\n", kit,
                strerror(errno));
        return TL_EXIT_USAGE;
    }
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/labs/%s", R.root, R.lab->dir);
    if (!tg_is_dir(p)) {
        fprintf(stderr, "tl-grade: lab %s is not in this kit yet (no %s)\n", R.lab->id, p);
        return TL_EXIT_USAGE;
    }
    return tg_class_run(&R, argc - optind, argv + optind, out, secret);
}
