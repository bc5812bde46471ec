/* options.c: tl-grade's options as one table (common/tilelab.h's tl_cli_opt). getopt_long's entries,
 * `tl-grade --help` and every one-line option error ("--jobs needs a value: --jobs N|auto (...)",
 * "did you mean --jobs?") are made from it (tl-grade.c); nothing reads the help's text back.
 * The order is the help's. An entry without .help is not listed on its own: a Slurm job's own
 * option, or one that another's paragraph describes (--grace with --due). .val is what tl-grade.c's
 * option families switch on. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opts.h"

char tg_lab_list[160];   /* "the lab: 01, 02, ...": the lab table's ids, filled by tg_options_init */

const tl_cli_opt tg_options[] = {
    {.name = "lab", .has_arg = required_argument, .val = 'l', .arg = "NN",
     .brief = tg_lab_list, .help = tg_lab_list},
    {.name = "out", .has_arg = required_argument, .val = 'o', .arg = "DIR",
     .brief = "results: DIR/<student>/results.json, DIR/gradebook.csv, DIR/summary.md",
     .help = "results: DIR/<student>/results.json, DIR/gradebook.csv, DIR/summary.md"},
    {.name = "secret", .has_arg = required_argument, .val = 's', .arg = "FILE",
     .brief = "a file holding the seed of the hidden cases",
     .help = "a file holding the seed of the hidden cases (default: a fresh random seed,\n"
             "kept in DIR/.state so a restarted run uses the same one)"},
    {.name = "public-only", .has_arg = no_argument, .val = 'p',
     .brief = "the public cases only",
     .help = "the public cases only (no hidden sizes, no safety, no speed)"},
    {.name = "jobs", .has_arg = required_argument, .val = 'j', .arg = "N|auto",
     .brief = "submissions built and graded at once",
     .help = "submissions built and graded at once (default auto: the number of cores);\n"
             "on a GPU the timed runs take the device alone, the rest overlaps"},
    {.name = "slurm", .has_arg = no_argument, .val = 1000,
     .brief = "a Slurm cluster grades",
     .help = "a Slurm cluster grades: the intake, the seed and the kit's build happen here\n"
             "into DIR (which must be on a filesystem the nodes share, like the kit), then\n"
             "one job array grades the students and a job after it writes the gradebook;\n"
             "submitting again grades only the students not graded yet"},
    {.name = "partition", .has_arg = required_argument, .val = 1001, .arg = "P",
     .brief = "--slurm: the partition",
     .help = "--slurm: the partition (default: the cluster's)"},
    {.name = "gpus-per-task", .has_arg = required_argument, .val = 1002, .arg = "N",
     .brief = "--slurm: GPUs each task asks for",
     .help = "--slurm: GPUs each task asks for (GPU labs: 1)"},
    {.name = "max-parallel", .has_arg = required_argument, .val = 1003, .arg = "N",
     .brief = "--slurm: tasks running at once",
     .help = "--slurm: tasks running at once (default: as many as Slurm allows)"},
    {.name = "per-task", .has_arg = required_argument, .val = 1004, .arg = "N",
     .brief = "--slurm: students graded by one task, one after another",
     .help = "--slurm: students graded by one task, one after another (default 1)"},
    {.name = "cpus-per-task", .has_arg = required_argument, .val = 1005, .arg = "N",
     .brief = "--slurm: cores each task asks for",
     .help = "--slurm: cores each task asks for; its students are graded N at once"},
    {.name = "time", .has_arg = required_argument, .val = 1016, .arg = "T",
     .brief = "--slurm: each task's time limit",
     .help = "--slurm: each task's time limit (default: from the lab's case limits)"},
    {.name = "mem", .has_arg = required_argument, .val = 1017, .arg = "M",
     .brief = "--slurm: each task's memory, e.g. 8G",
     .help = "--slurm: each task's memory, e.g. 8G (default: from the sandbox's limits)"},
    {.name = "account", .has_arg = required_argument, .val = 1018, .arg = "A",
     .brief = "--slurm: the account charged",
     .help = "--slurm: the account charged"},
    {.name = "gres", .has_arg = required_argument, .val = 1019, .arg = "G",
     .brief = "--slurm: generic resources per task, e.g. gpu:1 or gpu:h100:1",
     .help = "--slurm: generic resources per task, e.g. gpu:1 or gpu:h100:1"},
    {.name = "from", .has_arg = required_argument, .val = 1009, .arg = "KIND EXPORT",
     .brief = "grade a course's download instead of SUBMISSION...: gradescope, canvas or moodle",
     .help = "grade a course's download instead of SUBMISSION...: gradescope (the\n"
             "\"Export Submissions\" zip or folder; students by name, email and SID from\n"
             "submission_metadata.yml, the latest submission of each), canvas or moodle\n"
             "(the \"Download submissions\" zip or folder of loose files, mapped to students\n"
             "by the LMS's file names)"},
    {.name = "name-pattern", .has_arg = required_argument, .val = 1010, .arg = "RE",
     .brief = "--from canvas|moodle: map file names to students with RE instead",
     .help = "--from canvas|moodle: map file names to students with RE instead, a PCRE2\n"
             "regular expression with named groups: sid, name, email (who), file (the\n"
             "student's own file name), late"},
    {.name = "rubric", .has_arg = required_argument, .val = 1011, .arg = "FILE",
     .brief = "grade with this rubric",
     .help = "grade with this rubric (points per test, hidden-size count) instead of the\n"
             "lab table's; --print-rubric NN writes the table's as a file to edit"},
    {.name = "regrade", .has_arg = optional_argument, .val = 1012, .arg = "[=NAMES]",
     .brief = "grade again",
     .help = "grade again: the whole class in DIR (needed after a rubric or cases change),\n"
             "or the students named (comma-separated, as in gradebook.csv, or folders)"},
    {.name = "print-rubric", .has_arg = required_argument, .val = 1013, .arg = "NN",
     .brief = "print lab NN's rubric as a --rubric file, and exit",
     .help = "print lab NN's rubric as a --rubric file, and exit"},
    {.name = "roster", .has_arg = required_argument, .val = 1015, .arg = "FILE",
     .brief = "join the students to the course's roster",
     .help = "join the students to the course's roster (CSV: name, email, sid): DIR/roster.md\n"
             "lists who has no submission and who is not on it; DIR/canvas.csv and\n"
             "DIR/gradescope.csv hold a row per roster student (kept for later runs)"},
    {.name = "due", .has_arg = required_argument, .val = 1020, .arg = "DATE",
     .brief = "the due date",
     .help = "the due date (2026-11-21T23:59-08:00); with --late-penalty P (percent of\n"
             "the score per day late or part of one), --late-cap C (percent, default 100),\n"
             "--grace MINUTES, --extensions FILE (CSV: sid, email or name; due or days).\n"
             "Submission times: the export's, else the file's own"},
    {.name = "late-penalty", .has_arg = required_argument, .val = 1022, .arg = "P",
     .brief = "--due: percent of the score per day late or part of one"},
    {.name = "late-cap", .has_arg = required_argument, .val = 1023, .arg = "C",
     .brief = "--due: the most a late submission loses, in percent"},
    {.name = "grace", .has_arg = required_argument, .val = 1021, .arg = "MINUTES",
     .brief = "--due: minutes after the due date that are not late"},
    {.name = "extensions", .has_arg = required_argument, .val = 1024, .arg = "FILE",
     .brief = "--due: CSV of sid, email or name; due or days"},
    {.name = "similar", .has_arg = required_argument, .val = 1025, .arg = "DIR",
     .brief = "the pairs of DIR's graded submissions alike",
     .help = "the pairs of DIR's graded submissions alike (sim_c, the skeleton's lines\n"
             "left out; never a score) from --threshold N % on (default 60), also in\n"
             "DIR/similarity.md and summary.md"},
    {.name = "threshold", .has_arg = required_argument, .val = 1026, .arg = "N",
     .brief = "--similar: pairs from N % alike on"},
    {.name = "rescale", .has_arg = no_argument, .val = 1014,
     .brief = "tests that cannot be graded here scale the others up to the full points",
     .help = "tests that cannot be graded here (speed without a GPU) scale the others up\n"
             "to the full points, in every report (default: they count 0 and are named)"},
    {.name = "status", .has_arg = required_argument, .val = 1008, .arg = "DIR",
     .brief = "where the run writing DIR stands: graded, not graded, to go, its Slurm jobs",
     .help = "where the run writing DIR stands: graded, not graded, to go, its Slurm jobs"},
    {.name = "gpu-archs", .has_arg = required_argument, .val = 'A', .arg = "LIST",
     .brief = "GPU labs: compute capabilities each submission is compiled for",
     .help = "GPU labs: compute capabilities each submission is compiled for (e.g. 90;\n"
             "default: this machine's GPU from nvidia-smi, 90 when grading emulated,\n"
             "else the kit's default)"},
    {.name = "unsafe-no-sandbox", .has_arg = no_argument, .val = 'U',
     .brief = "grade even where bubblewrap cannot isolate the filesystem and the processes",
     .help = "grade even where bubblewrap cannot isolate the filesystem and the\n"
             "processes (a submission could then read the seed and forge results);\n"
             "every report says UNSAFE"},
    {.name = "keep-work", .has_arg = no_argument, .val = 'K',
     .brief = "keep each submission's work folder",
     .help = "keep each submission's work folder (DIR/.state/work/NAME) for a post-mortem"},
    {.name = "check", .has_arg = no_argument, .val = 'c',
     .brief = "kit check: public cases, teaching output on stdout",
     .help = "kit check: public cases, teaching output on stdout; judges one FOLDER built\n"
             "over a pristine copy, or (--prebuilt) a lab program already built"},
    {.name = "prebuilt", .has_arg = required_argument, .val = 'B', .arg = "BINARY",
     .brief = "--check: judge this lab program",
     .help = "--check: judge this lab program (built by kit check with ninja); no copy,\n"
             "no build; with --emulate it is the emulated build (labs/emulated/labNN-emu)"},
    {.name = "build-failed", .has_arg = required_argument, .val = 'F', .arg = "LOG",
     .brief = "--check: the lab's build failed",
     .help = "--check: the lab's build failed; report it (the compiler's first errors\n"
             "from LOG) as kit check's verdict: every test fails, exit 1"},
    {.name = "random-seed", .has_arg = no_argument, .val = 'S',
     .brief = "--check: draw the public cases' inputs from a fresh seed",
     .help = "--check: draw the public cases' inputs from a fresh seed (default: the kit's)"},
    {.name = "emulate", .has_arg = no_argument, .val = 'e',
     .brief = "GPU labs: the emulated build instead of the GPU",
     .help = "GPU labs: the emulated build instead of the GPU"},
    {.name = "quiet", .has_arg = no_argument, .val = 'q',
     .brief = "--check: no isolation line",
     .help = "--check: no isolation line"},
    {.name = "kit", .has_arg = required_argument, .val = 'k', .arg = "DIR",
     .brief = "the kit's top folder",
     .help = "the kit's top folder (default: $TL_ROOT, else the current folder)"},
    {.name = "print-pristine", .has_arg = required_argument, .val = 'P', .arg = "KITDIR",
     .brief = "print the kit-relative paths a pristine copy of KITDIR holds",
     .help = "print the kit-relative paths a pristine copy of KITDIR holds (what\n"
             "a submission is built over and ./kit release ships), one a line"},
    /* a Slurm job's own (slurm.c writes them into the job script), and --help */
    {.name = "slurm-task", .has_arg = required_argument, .val = 1006, .arg = "G",
     .brief = "the job script's own: one array task of submission generation G"},
    {.name = "slurm-finish", .has_arg = no_argument, .val = 1007,
     .brief = "the job script's own: the job that writes the gradebook"},
    {.name = "help", .short_name = 'h', .has_arg = no_argument, .val = 'h',
     .brief = "this text"},
    {.name = NULL},
};

void tg_options_init(void)
{
    int n = snprintf(tg_lab_list, sizeof tg_lab_list, "the lab: ");
    for (int i = 0; i < tl_nlabs && n > 0 && (size_t)n < sizeof tg_lab_list; ++i)
        n += snprintf(tg_lab_list + n, sizeof tg_lab_list - (size_t)n, "%s%s", i ? ", " : "", tl_labs[i].id);
}

/* ------------------------------------------------------------ what tl-grade and tl-grade-args share */

/* tl-grade --help: the forms of the command line, every option's paragraph from the table, the exit
 * codes. tl-grade prints it, and so does tl-grade-args, so that `./kit grade --help` is answered
 * without tl-grade's own build (kit-grade.sh). */
void tg_print_usage(FILE *out)
{
    fprintf(out,
            "usage: tl-grade --lab NN --out DIR [--secret FILE] [--public-only] [--jobs N] [--] SUBMISSION...\n"
            "       tl-grade --lab NN --out DIR [OPTIONS] --from gradescope|canvas|moodle EXPORT [--name-pattern RE]\n"
            "       tl-grade --check --lab NN --out DIR --prebuilt BINARY [--emulate]\n"
            "       tl-grade --check --lab NN --out DIR --build-failed LOG\n"
            "       tl-grade --check --lab NN --out DIR [--emulate] FOLDER\n"
            "       tl-grade --slurm [--partition P] [--gpus-per-task N] [--max-parallel N] [--per-task N]\n"
            "                [--cpus-per-task N] --lab NN --out DIR [--secret FILE] SUBMISSION...\n"
            "       tl-grade --status DIR\n"
            "       tl-grade --print-pristine KITDIR\n"
            "(a lab's files, folder and targets: build/common/tl-lab files|dir|get NN ...)\n\n"
            "Grades each SUBMISSION (a student's folder, or a .tar, .tar.gz, .tgz or .zip of it) for lab NN.\n"
            "Only the lab's student files are taken; they are compiled over the kit, built once for the\n"
            "run from a pristine copy, and run in a sandbox on cases made from the secret seed.\n\n");
    tl_cli_print_help(tg_options, out);     /* every option's paragraph, from the table */
    fprintf(out,
            "\nexit codes: 0 graded (--check: all correctness tests pass), 1 --check: a test failed,\n"
            "2 usage, 3 a grader-side problem, 77 --check: nothing could be run here\n");
}

/* Where the user reads every option: ./kit grade --help when the kit started us (kit-grade.sh sets
 * TL_GRADE_HELP), else our own --help. */
static const char *help_cmd(void)
{
    const char *h = getenv("TL_GRADE_HELP");
    return h && *h && strlen(h) < 100 ? h : "tl-grade --help";
}

/* A usage error as one line naming the problem and the fix, then where every option is described;
 * never the whole help (issue 25 item 6: "option errors name the option"). Returns exit 2. */
int tg_usage_error(const char *msg)
{
    fprintf(stderr, "tl-grade: %s (%s lists every option)\n", msg, help_cmd());
    return TL_EXIT_USAGE;
}

/* argv into out (argc + 1 slots and a NULL): every argument before a "--" that starts with '-',
 * is not an option's value and names an existing file or folder is moved to the submissions,
 * behind a "--" (one line on stderr says so when say). Returns the new argc. */
int tg_submissions_first(int argc, char **argv, const struct option *longopts, char **out, int say)
{
    int n = 0, nm = 0, first_pos = -1, dashdash = -1;
    char **moved = calloc((size_t)argc + 1, sizeof *moved);
    out[n++] = argv[0];
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (dashdash < 0 && first_pos < 0 && strcmp(a, "--") == 0) {
            dashdash = n;
            out[n++] = argv[i];
            continue;
        }
        struct stat sb;
        if (moved && dashdash < 0 && first_pos < 0 && a[0] == '-' && a[1] && lstat(a, &sb) == 0) {
            if (say)
                fprintf(stderr, "tl-grade: '%s' is graded as a submission (a file or folder of that name exists "
                        "here), never as an option\n", a);
            moved[nm++] = argv[i];
            continue;
        }
        if (dashdash < 0 && first_pos < 0 && a[0] == '-' && a[1] == '-' && a[2] && !strchr(a, '=')) {
            for (int k = 0; longopts[k].name; ++k)    /* its value, if it takes one, is never moved */
                if (strcmp(a + 2, longopts[k].name) == 0 && longopts[k].has_arg == required_argument && i + 1 < argc) {
                    out[n++] = argv[i++];
                    break;
                }
            out[n++] = argv[i];
            continue;
        }
        if (dashdash < 0 && first_pos < 0 && a[0] != '-')
            first_pos = n;
        out[n++] = argv[i];
    }
    if (nm) {   /* insert after an existing "--", else "--" and them before the first submission */
        int at = dashdash >= 0 ? dashdash + 1 : first_pos >= 0 ? first_pos : n;
        int extra = nm + (dashdash >= 0 ? 0 : 1);
        memmove(out + at + extra, out + at, (size_t)(n - at) * sizeof *out);
        int k = at;
        if (dashdash < 0)
            out[k++] = "--";
        for (int j = 0; j < nm; ++j)
            out[k++] = moved[j];
        n += extra;
    }
    out[n] = NULL;
    free(moved);
    return n;
}
