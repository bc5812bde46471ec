/* tl-grade.c: the command line of tl-grade, the tilelab autograder: options into the run context,
 * then run.c does the rest. The parts, each a file with one job (grade.h lists them):
 *   run.c      the class run: out dir, seed, tools, workers, progress, resume
 *   cases.c    cases and inputs: public sizes, hidden sizes from the secret seed, references
 *   build.c    the per-submission build in the sandbox, the kit built once per run, the reference
 *   session.c  the student session: `labNN --serve`, requests on fd 3, answers on fd 4
 *   judges.c   correctness, safety, speed, policy, lab 05's calculator
 *   report.c   results.json, scores, summary.md, gradebook.csv, the `kit check` printout
 *   intake.c   submissions (folders, archives) and the pristine copy of the kit
 *   sandbox.c, policy.c, util.c: isolation, the policy scan and filter, helpers (the lab table: common/labtable.h)
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
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "grade.h"
#include "labtable.h"
#include "tilelab.h"
#include "util.h"

static int usage(FILE *out, int code)
{
    fprintf(out,
            "usage: tl-grade --lab NN --out DIR [--secret FILE] [--public-only] [--jobs N] [--] SUBMISSION...\n"
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
            "run from a pristine copy, and run in a sandbox on cases made from the secret seed.\n\n"
            "  --lab NN          the lab: ");
    for (int i = 0; i < tl_nlabs; ++i)
        fprintf(out, "%s%s", i ? ", " : "", tl_labs[i].id);
    fprintf(out,
            "\n  --out DIR         results: DIR/<student>/results.json, DIR/gradebook.csv, DIR/summary.md\n"
            "  --secret FILE     a file holding the seed of the hidden cases (default: a fresh random seed,\n"
            "                    kept in DIR/.state so a restarted run uses the same one)\n"
            "  --public-only     the public cases only (no hidden sizes, no safety, no speed)\n"
            "  --jobs N|auto     submissions built and graded at once (default auto: the number of cores);\n"
            "                    on a GPU the timed runs take the device alone, the rest overlaps\n"
            "  --slurm           a Slurm cluster grades: the intake, the seed and the kit's build happen here\n"
            "                    into DIR (which must be on a filesystem the nodes share, like the kit), then\n"
            "                    one job array grades the students and a job after it writes the gradebook;\n"
            "                    submitting again grades only the students not graded yet\n"
            "  --partition P     --slurm: the partition (default: the cluster's)\n"
            "  --gpus-per-task N --slurm: GPUs each task asks for (GPU labs: 1)\n"
            "  --max-parallel N  --slurm: tasks running at once (default: as many as Slurm allows)\n"
            "  --per-task N      --slurm: students graded by one task, one after another (default 1)\n"
            "  --cpus-per-task N --slurm: cores each task asks for; its students are graded N at once\n"
            "  --status DIR      where the run writing DIR stands: graded, not graded, to go, its Slurm jobs\n"
            "  --gpu-archs LIST  GPU labs: compute capabilities each submission is compiled for (e.g. 90;\n"
            "                    default: this machine's GPU from nvidia-smi, 90 when grading emulated,\n"
            "                    else the kit's default)\n"
            "  --unsafe-no-sandbox  grade even where bubblewrap cannot isolate the filesystem and the\n"
            "                    processes (a submission could then read the seed and forge results);\n"
            "                    every report says UNSAFE\n"
            "  --keep-work       keep each submission's work folder (DIR/.state/work/NAME) for a post-mortem\n"
            "  --check           kit check: public cases, teaching output on stdout; judges one FOLDER built\n"
            "                    over a pristine copy, or (--prebuilt) a lab program already built\n"
            "  --prebuilt BINARY --check: judge this lab program (built by kit check with ninja); no copy,\n"
            "                    no build; with --emulate it is the emulated build (labs/emulated/labNN-emu)\n"
            "  --build-failed LOG  --check: the lab's build failed; report it (the compiler's first errors\n"
            "                    from LOG) as kit check's verdict: every test fails, exit 1\n"
            "  --random-seed     --check: draw the public cases' inputs from a fresh seed (default: the kit's)\n"
            "  --emulate         GPU labs: the emulated build instead of the GPU\n"
            "  --quiet           --check: no isolation line\n"
            "  --kit DIR         the kit's top folder (default: $TL_ROOT, else the current folder)\n"
            "  --print-pristine KITDIR  print the kit-relative paths a pristine copy of KITDIR holds (what\n"
            "                    a submission is built over and ./kit release ships), one a line\n\n"
            "exit codes: 0 graded (--check: all correctness tests pass), 1 --check: a test failed,\n"
            "2 usage, 3 a grader-side problem, 77 --check: nothing could be run here\n");
    return code;
}

/* argv into out (argc + 1 slots and a NULL): every argument before a "--" that starts with '-',
 * is not an option's value and names an existing file or folder is moved to the submissions,
 * behind a "--" (one line on stderr says so). Returns the new argc. */
static int submissions_first_class(int argc, char **argv, const struct option *longopts, char **out)
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
            fprintf(stderr, "tl-grade: '%s' is graded as a submission (a file or folder of that name exists here), "
                    "never as an option\n", a);
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

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"lab", required_argument, NULL, 'l'},       {"out", required_argument, NULL, 'o'},
        {"secret", required_argument, NULL, 's'},    {"public-only", no_argument, NULL, 'p'},
        {"jobs", required_argument, NULL, 'j'},      {"check", no_argument, NULL, 'c'},
        {"emulate", no_argument, NULL, 'e'},         {"kit", required_argument, NULL, 'k'},
        {"quiet", no_argument, NULL, 'q'},           {"prebuilt", required_argument, NULL, 'B'},
        {"build-failed", required_argument, NULL, 'F'}, {"print-pristine", required_argument, NULL, 'P'},
        {"keep-work", no_argument, NULL, 'K'},
        {"random-seed", no_argument, NULL, 'S'},     {"gpu-archs", required_argument, NULL, 'A'},
        {"slurm", no_argument, NULL, 1000},          {"partition", required_argument, NULL, 1001},
        {"gpus-per-task", required_argument, NULL, 1002}, {"max-parallel", required_argument, NULL, 1003},
        {"per-task", required_argument, NULL, 1004}, {"cpus-per-task", required_argument, NULL, 1005},
        {"slurm-task", required_argument, NULL, 1006}, {"slurm-finish", no_argument, NULL, 1007},
        {"status", required_argument, NULL, 1008},
        {"unsafe-no-sandbox", no_argument, NULL, 'U'},
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
    /* A name that exists as a file or folder is a submission, never an option, wherever it stands
     * (a class given as * puts a folder named --public-only first): moved behind a "--". */
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return TL_EXIT_USAGE;
    argc = submissions_first_class(argc, argv, longopts, args);
    argv = args;
    /* "+": options end at the first submission (and at "--"), so a folder named --public-only
     * or -x given after them is a submission, never an option. */
    while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'l': lab_id = optarg; break;
        case 'o': out = optarg; break;
        case 's': secret = optarg; break;
        case 'p': R.public_only = 1; break;
        case 'j':
            if (strcmp(optarg, "auto") == 0)   /* the default: one per core */
                break;
            if (tl_parse_int(optarg, 1, 256, &v) != 0) {
                fprintf(stderr, "tl-grade: --jobs '%s': give a number from 1 to 256, or auto (one per core)\n", optarg);
                return TL_EXIT_USAGE;
            }
            R.jobs = (int)v;
            break;
        case 'c':
            R.check = 1;
            R.public_only = 1;
            break;
        case 'e': R.emulate = 1; break;
        case 'k': kit = optarg; break;
        case 'q': R.quiet = 1; break;
        case 'K': R.keep_work = 1; break;
        case 'U': R.unsafe_no_sandbox = 1; break;
        case 'S': R.random_seed = 1; break;
        case 'A':
            if (!*optarg || strspn(optarg, "0123456789,") != strlen(optarg) || strlen(optarg) >= sizeof R.gpu_archs) {
                fprintf(stderr, "tl-grade: --gpu-archs '%s': give compute capabilities like 90 or 80,90\n", optarg);
                return TL_EXIT_USAGE;
            }
            snprintf(R.gpu_archs, sizeof R.gpu_archs, "%s", optarg);
            break;
        case 'B':
        case 'F':
            if (!realpath(optarg, c == 'B' ? R.prebuilt : R.build_log) || !tg_is_file(optarg)) {
                fprintf(stderr, "tl-grade: --%s '%s': no such file; build the lab first (./kit check NN does)\n",
                        c == 'B' ? "prebuilt" : "build-failed", optarg);
                return TL_EXIT_USAGE;
            }
            break;
        case 'P': {
            char root[PATH_MAX], err[600];
            int n;
            if (!realpath(optarg, root) || !tg_is_dir(root)) {
                fprintf(stderr, "tl-grade: --print-pristine '%s': no such folder; give the kit's top folder\n", optarg);
                return TL_EXIT_USAGE;
            }
            if (tg_copy_pristine(root, NULL, 0, &n, err, sizeof err) != 0) {
                fprintf(stderr, "tl-grade: --print-pristine: %s\n", err);
                return EXIT_GRADER;
            }
            return 0;
        }
        case 1000: R.slurm = 1; break;
        case 1001:
            if (!*optarg || strlen(optarg) >= sizeof R.partition || strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
                "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,") != strlen(optarg)) {
                fprintf(stderr, "tl-grade: --partition '%s': give a partition's name (letters, digits, - _ . ,)\n", optarg);
                return TL_EXIT_USAGE;
            }
            snprintf(R.partition, sizeof R.partition, "%s", optarg);
            break;
        case 1002: case 1003: case 1004: case 1005: case 1006: {
            static const char *const names[] = {"--gpus-per-task", "--max-parallel", "--per-task", "--cpus-per-task",
                                                "--slurm-task"};
            static const long lo[] = {1, 1, 1, 1, 1}, hi[] = {16, 100000, 1000, 256, 1000000};
            int k = c - 1002;
            if (tl_parse_int(optarg, lo[k], hi[k], &v) != 0) {
                fprintf(stderr, "tl-grade: %s '%s': give a number from %ld to %ld\n", names[k], optarg, lo[k], hi[k]);
                return TL_EXIT_USAGE;
            }
            int *dst[] = {&R.gpus_per_task, &R.max_parallel, &R.per_task, &R.cpus_per_task, &R.slurm_task};
            *dst[k] = (int)v;
            break;
        }
        case 1007: R.slurm_finish = 1; break;
        case 1008: return tg_status(optarg);
        case 'h': return usage(stdout, 0);
        default:
            /* optopt is a long option's val (1007, ...): never print it; the option as written is */
            fprintf(stderr, "tl-grade: %s '%s'\n", c == ':' ? "option needs a value:" : "unknown option",
                    argv[optind - 1]);
            return usage(stderr, TL_EXIT_USAGE);
        }
    }
    if (!lab_id) {
        fprintf(stderr, "tl-grade: give the lab with --lab NN\n");
        return usage(stderr, TL_EXIT_USAGE);
    }
    R.lab = tl_lab_find(lab_id);
    if (!R.lab) {
        fprintf(stderr, "tl-grade: unknown lab '%s'; the labs are:", lab_id);
        for (int i = 0; i < tl_nlabs; ++i)
            fprintf(stderr, " %s (%s)", tl_labs[i].id, tl_labs[i].dir);
        fprintf(stderr, "\n");
        return TL_EXIT_USAGE;
    }
    if (!out) {
        fprintf(stderr, "tl-grade: give the results folder with --out DIR\n");
        return TL_EXIT_USAGE;
    }
    int prebuilt = R.prebuilt[0] || R.build_log[0];
    if (prebuilt && (!R.check || optind < argc || (R.prebuilt[0] && R.build_log[0]))) {
        fprintf(stderr, "tl-grade: --prebuilt and --build-failed go with --check and no FOLDER (one of them)\n");
        return usage(stderr, TL_EXIT_USAGE);
    }
    int slurm_job = R.slurm_task || R.slurm_finish;   /* the list is the one --slurm wrote */
    if ((R.slurm || slurm_job) && (R.check || prebuilt || (slurm_job && optind < argc) || (R.slurm && slurm_job))) {
        fprintf(stderr, "tl-grade: --slurm grades a class (SUBMISSION...); --slurm-task and --slurm-finish are its "
                "jobs' own and take no submissions; none goes with --check\n");
        return usage(stderr, TL_EXIT_USAGE);
    }
    if (!R.slurm && (R.partition[0] || R.gpus_per_task || R.max_parallel || R.per_task || R.cpus_per_task)) {
        fprintf(stderr, "tl-grade: --partition, --gpus-per-task, --max-parallel, --per-task and --cpus-per-task go "
                "with --slurm\n");
        return TL_EXIT_USAGE;
    }
    if (slurm_job)
        return tg_class_run(&R, 0, NULL, out, NULL);
    if (!prebuilt && optind >= argc) {
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
    if (prebuilt) {
        char *one[] = {R.prebuilt[0] ? R.prebuilt : R.build_log};
        return tg_class_run(&R, 1, one, out, secret);
    }
    return tg_class_run(&R, argc - optind, argv + optind, out, secret);
}
