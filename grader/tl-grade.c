/* tl-grade.c: main of tl-grade, the tilelab autograder: the command line read into the run context
 * (cmdline.c, over the table of options in options.c), its one-shot commands run, then run.c does
 * the rest. The parts, each a file with one job (grade.h lists them):
 *   run.c      the class run: out dir, seed, tools, the shared builds (workers.c: workers, resume)
 *   submission.c  one submission in its worker: intake, build, tests, reports
 *   cases.c    cases and inputs: public sizes, hidden sizes from the secret seed, references
 *   build.c    the per-submission build in the sandbox, the kit built once per run, the reference
 *   session.c  the student session: `labNN --serve`, requests on fd 3, answers on fd 4
 *   judges.c   correctness, safety, policy, lab 05's calculator
 *   speed.c    the speed test (timed runs against the reference's, same GPU)
 *   report.c   results.json, scores, summary.md, gradebook.csv, the `kit check` printout
 *   intake.c   submissions (folders, archives: unpack.c) and their file names
 *   pristine.c the pristine copy of the kit
 *   sandbox.c, policy.c, util.c: isolation, the policy scan and filter, helpers (the lab table: common/labtable.h)
 *   options.c  the options as one table: getopt's entries, --help and the option errors come from it
 *   cmdline.c  the command line: each option's value, what goes with what (tl-grade-args.c: the same,
 *              built and run by kit grade before tl-grade's long build)
 *
 *   tl-grade --lab NN --out DIR [--secret FILE] [--public-only] [--jobs N] SUBMISSION...
 *   tl-grade --check --lab NN --out DIR --prebuilt BINARY [--emulate]   (what `./kit check NN` runs)
 *   tl-grade --check --lab NN --out DIR --build-failed LOG               (kit check: the build failed)
 *   tl-grade --print-pristine KITDIR
 *
 * The student's exit code and prints are evidence only. Exit codes: 0 graded (check mode: all
 * correctness tests pass), 1 check mode: a test failed, 2 usage, 3 a grader-side problem,
 * 77 check mode: nothing could be run (no GPU, no emulation). */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade.h"
#include "labtable.h"
#include "tilelab.h"
#include "util.h"

static int usage(FILE *out, int code)
{
    tg_print_usage(out);   /* options.c: tl-grade-args prints the same for ./kit grade --help */
    return code;
}

/* --similar DIR: the pairs of DIR's graded submissions alike at threshold % or more, on stdout
 * and in DIR/similarity.md (similar.c). The lab is the one DIR's identity names. */
static int similar_cmd(const char *dir, const char *kit, int threshold)
{
    char out[PATH_MAX], root[PATH_MAX], p[PATH_MAX + 64], id[8] = "";
    if (!realpath(dir, out)) {
        fprintf(stderr, "tl-grade: --similar '%s': no such folder; give a graded class's out dir\n", dir);
        return TL_EXIT_USAGE;
    }
    snprintf(p, sizeof p, "%s/.state/identity", out);
    char *ident = tg_read_file(p, 1 << 16, NULL);
    const tl_lab_info *lab = ident && sscanf(ident, "lab %7s", id) == 1 ? tl_lab_find(id) : NULL;
    free(ident);
    if (!lab) {
        fprintf(stderr, "tl-grade: --similar '%s': no graded class there (no %s naming its lab)\n", dir, p);
        return TL_EXIT_USAGE;
    }
    if (!kit)
        kit = getenv("TL_ROOT");
    if (!realpath(kit ? kit : ".", root)) {
        fprintf(stderr, "tl-grade: --similar: the kit folder is missing; give it with --kit DIR or TL_ROOT\n");
        return TL_EXIT_USAGE;
    }
    char kl[PATH_MAX + 300];
    snprintf(kl, sizeof kl, "%s/labs/%s", root, lab->dir);
    tg_buf md = {0};
    tg_buf_printf(&md, "# Lab %s: similar submissions in %s\n\n", lab->id, out);
    int rc = tg_similarity(out, lab, kl, threshold, &md);
    fputs(md.s, stdout);
    snprintf(p, sizeof p, "%s/similarity.md", out);
    tg_write_atomic(p, md.s, md.len);
    tg_buf_free(&md);
    return rc == 77 ? TL_EXIT_SKIP : rc < 0 ? EXIT_GRADER : 0;
}

/* One-shot commands (--print-pristine, --status, --print-rubric, --help), run when met: their exit
 * code ends tl-grade (tg_cmdline calls this). */
static int command_option(int c, const char *arg)
{
    switch (c) {
    case 'P': {
        char root[PATH_MAX], err[600];
        int n;
        if (!realpath(arg, root) || !tg_is_dir(root)) {
            fprintf(stderr, "tl-grade: --print-pristine '%s': no such folder; give the kit's top folder\n", arg);
            return TL_EXIT_USAGE;
        }
        if (tg_copy_pristine(root, NULL, 0, &n, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: --print-pristine: %s\n", err);
            return EXIT_GRADER;
        }
        return 0;
    }
    case 1013: {
        const tl_lab_info *L = tl_lab_find(arg);
        if (!L) {
            fprintf(stderr, "tl-grade: --print-rubric: unknown lab '%s'\n", arg);
            return TL_EXIT_USAGE;
        }
        tg_rubric_print(L, stdout);
        return 0;
    }
    case 1008: return tg_status(arg);
    default: return usage(stdout, 0);     /* 'h' */
    }
}

/* The late policy's extensions read, and --rubric laid over the table's (ident.c); what goes with
 * --due and --rubric was checked with the command line (cmdline.c). */
static int late_and_rubric(grun *R, tg_opts *O)
{
    if (O->due_epoch) {
        char err[1200];
        if (tg_late_load(O, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: %s\n", err);
            return TL_EXIT_USAGE;
        }
    }
    if (O->rubric_file[0]) {          /* the instructor's rubric laid over the table's (ident.c) */
        char err[2000];
        if (tg_rubric_load(R, O->rubric_file, err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: %s\n", err);
            return TL_EXIT_USAGE;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);      /* a student's process that dies mid-request must not take us along */
    static grun R;   /* the run context: filled here, passed to every part */
    static tg_opts O; /* its options: written here only; the parts read them through R.opt (const) */
    memset(&R, 0, sizeof R);
    memset(&O, 0, sizeof O);
    R.opt = &O;
    tg_cli a = {0};
    int rc = tg_cmdline(argc, argv, &R, &O, &a, command_option, &argv, &argc);
    if (rc != TG_CMDLINE_GO)
        return rc;
    if (a.similar_dir)                 /* ./kit similar DIR: the similarity section of a graded class */
        return similar_cmd(a.similar_dir, a.kit, O.sim_threshold > 0 ? O.sim_threshold : 60);
    if ((rc = late_and_rubric(&R, &O)) != 0)
        return rc;
    if (O.slurm_task || O.slurm_finish)   /* a Slurm job: the list the submit wrote */
        return tg_class_run(&R, 0, NULL, a.out, NULL);
    if (O.prebuilt[0] || O.build_log[0]) {
        char *one[] = {O.prebuilt[0] ? O.prebuilt : O.build_log};
        return tg_class_run(&R, 1, one, a.out, a.secret);
    }
    if (O.from_kind[0])
        return tg_class_run(&R, 0, NULL, a.out, a.secret);
    return tg_class_run(&R, argc - optind, argv + optind, a.out, a.secret);
}
