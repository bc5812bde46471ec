/* cmdline.c: tl-grade's command line into the run's options (tg_opts) and the lab: getopt over the
 * table of options (options.c), each option's value judged by its family (what is graded and how; the
 * class; due dates; Slurm), then what goes with what. tl-grade runs it (tl-grade.c, with its one-shot
 * commands) and so does tl-grade-args, which `./kit grade` builds and asks first: it links only this,
 * the table and the grader's plain helpers (util.c, exports.c's roster check), not the kit tl-grade
 * links, so a bad option or value is answered before the long build. What needs the kit or reads a
 * rubric or an extensions file stays tl-grade's (tl-grade.c: late_and_rubric). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade.h"
#include "labtable.h"
#include "tilelab.h"
#include "util.h"

/* ------------------------------------------------------------ the options, by family
 * Each takes an option getopt_long returned (c, its value optarg): OPT_TAKEN, OPT_NOT_MINE (another
 * family's), or the exit code tl-grade ends with now (a bad value: 2). */
enum { OPT_TAKEN = -1, OPT_NOT_MINE = -2 };

/* What is graded, where, and how: --lab, --out, --secret, --kit, --jobs, --check, --emulate, ... */
static int run_option(int c, tg_opts *O, tg_cli *a)
{
    long v;
    switch (c) {
    case 'l': a->lab_id = optarg; break;
    case 'o': a->out = optarg; break;
    case 's': a->secret = optarg; break;
    case 'p': O->public_only = 1; break;
    case 'j':
        if (strcmp(optarg, "auto") == 0)   /* the default: one per core */
            break;
        if (tl_parse_int(optarg, 1, 256, &v) != 0) {
            fprintf(stderr, "tl-grade: --jobs '%s': give a number from 1 to 256, or auto (one per core)\n", optarg);
            return TL_EXIT_USAGE;
        }
        O->jobs = (int)v;
        break;
    case 'c':
        O->check = 1;
        O->public_only = 1;
        break;
    case 'e': O->emulate = 1; break;
    case 'k': a->kit = optarg; break;
    case 'q': O->quiet = 1; break;
    case 'K': O->keep_work = 1; break;
    case 'U': O->unsafe_no_sandbox = 1; break;
    case 'S': O->random_seed = 1; break;
    case 'A':
        if (!*optarg || strspn(optarg, "0123456789,") != strlen(optarg) || strlen(optarg) >= sizeof O->gpu_archs) {
            fprintf(stderr, "tl-grade: --gpu-archs '%s': give compute capabilities like 90 or 80,90\n", optarg);
            return TL_EXIT_USAGE;
        }
        snprintf(O->gpu_archs, sizeof O->gpu_archs, "%s", optarg);
        break;
    case 'B':
    case 'F':
        if (!realpath(optarg, c == 'B' ? O->prebuilt : O->build_log) || !tg_is_file(optarg)) {
            fprintf(stderr, "tl-grade: --%s '%s': no such file; build the lab first (./kit check NN does)\n",
                    c == 'B' ? "prebuilt" : "build-failed", optarg);
            return TL_EXIT_USAGE;
        }
        break;
    default:
        return OPT_NOT_MINE;
    }
    return OPT_TAKEN;
}

/* The class: a course's export (--from, --name-pattern), --rubric, --regrade, --rescale, --roster,
 * and --similar DIR with --threshold (the similarity section of a graded class). */
static int class_option(int c, int argc, char **argv, tg_opts *O, tg_cli *a)
{
    long v;
    switch (c) {
    case 1025: a->similar_dir = optarg; break;
    case 1026:
        if (tl_parse_int(optarg, 1, 100, &v) != 0) {
            fprintf(stderr, "tl-grade: --threshold '%s': give a percentage from 1 to 100\n", optarg);
            return TL_EXIT_USAGE;
        }
        O->sim_threshold = (int)v;
        break;
    case 1009:               /* --from KIND SOURCE: the source is the next word */
        if (strcmp(optarg, "gradescope") != 0 && strcmp(optarg, "canvas") != 0 && strcmp(optarg, "moodle") != 0) {
            fprintf(stderr, "tl-grade: --from '%s': give gradescope, canvas or moodle, then the export (GitHub "
                    "Classroom clones and your own folders or archives are given as SUBMISSION... without --from)\n",
                    optarg);
            return TL_EXIT_USAGE;
        }
        if (optind >= argc || strlen(argv[optind]) >= sizeof O->from_source) {
            fprintf(stderr, "tl-grade: --from %s needs the export after it: --from %s EXPORT.zip or FOLDER\n",
                    optarg, optarg);
            return TL_EXIT_USAGE;
        }
        snprintf(O->from_kind, sizeof O->from_kind, "%s", optarg);
        snprintf(O->from_source, sizeof O->from_source, "%s", argv[optind++]);
        break;
    case 1011:
        if (!*optarg || strlen(optarg) >= sizeof O->rubric_file) {
            fprintf(stderr, "tl-grade: --rubric: give a rubric file (tl-grade --print-rubric NN writes one)\n");
            return TL_EXIT_USAGE;
        }
        snprintf(O->rubric_file, sizeof O->rubric_file, "%s", optarg);
        break;
    case 1012:               /* --regrade: the class; --regrade=NAME,NAME: those students */
        if (!optarg) {
            O->regrade = 1;
        } else if (!*optarg || strlen(optarg) + 3 >= sizeof O->regrade_names || strchr(optarg, '\n')) {
            fprintf(stderr, "tl-grade: --regrade=NAME,...: give the students' names (as in gradebook.csv) or "
                    "folders, separated by commas; --regrade alone grades the whole class again\n");
            return TL_EXIT_USAGE;
        } else {
            O->regrade = O->regrade == 1 ? 1 : 2;
            snprintf(O->regrade_names, sizeof O->regrade_names, ",%s,", optarg);
        }
        break;
    case 1014: O->rescale = 1; break;
    case 1015:
        if (!tg_is_file(optarg) || strlen(optarg) >= sizeof O->roster) {
            fprintf(stderr, "tl-grade: --roster '%s': no such file; give the course's roster as CSV (name,email,sid)\n",
                    optarg);
            return TL_EXIT_USAGE;
        }
        snprintf(O->roster, sizeof O->roster, "%s", optarg);
        {
            char err[700];
            int n;
            if (tg_roster_check(O->roster, &n, err, sizeof err) != 0) {
                fprintf(stderr, "tl-grade: %s\n", err);
                return TL_EXIT_USAGE;
            }
        }
        break;
    case 1010:
        if (!*optarg || strlen(optarg) >= sizeof O->name_pattern) {
            fprintf(stderr, "tl-grade: --name-pattern: give a regular expression (PCRE2) with named groups, "
                    "at most %zu bytes\n", sizeof O->name_pattern - 1);
            return TL_EXIT_USAGE;
        }
        snprintf(O->name_pattern, sizeof O->name_pattern, "%s", optarg);
        break;
    default:
        return OPT_NOT_MINE;
    }
    return OPT_TAKEN;
}

/* Due dates: --due, --grace, --late-penalty, --late-cap, --extensions (late.c). */
static int late_option(int c, tg_opts *O)
{
    switch (c) {
    case 1020:
        if (tg_parse_time(optarg, &O->due_epoch) != 0 || strlen(optarg) >= sizeof O->due_text || !O->due_epoch) {
            fprintf(stderr, "tl-grade: --due '%s': give a date and time with its offset, e.g. 2026-11-21T23:59-08:00 "
                    "or '2026-11-22 07:59 UTC' (a time without an offset is taken as UTC)\n", optarg);
            return TL_EXIT_USAGE;
        }
        snprintf(O->due_text, sizeof O->due_text, "%s", optarg);
        break;
    case 1021: case 1022: case 1023: {
        char *end;
        double d = strtod(optarg, &end);
        double hi = c == 1021 ? 100000 : 100;
        if (end == optarg || *end || !(d >= 0 && d <= hi)) {
            fprintf(stderr, "tl-grade: %s '%s': give a number from 0 to %g (%s)\n",
                    c == 1021 ? "--grace" : c == 1022 ? "--late-penalty" : "--late-cap", optarg, hi,
                    c == 1021 ? "minutes" : "percent of the score");
            return TL_EXIT_USAGE;
        }
        if (c == 1021)
            O->grace_min = (int)d;
        else if (c == 1022)
            O->late_per_day = d;
        else
            O->late_cap = d + 1000;     /* (marked as given; 1000 taken off below) */
        break;
    }
    case 1024:
        if (!tg_is_file(optarg) || strlen(optarg) >= sizeof O->extensions) {
            fprintf(stderr, "tl-grade: --extensions '%s': no such file (CSV: sid, email or name, and due or days)\n",
                    optarg);
            return TL_EXIT_USAGE;
        }
        snprintf(O->extensions, sizeof O->extensions, "%s", optarg);
        break;
    default:
        return OPT_NOT_MINE;
    }
    return OPT_TAKEN;
}

/* Slurm (slurm.c): --slurm, its jobs' own --slurm-task and --slurm-finish, and the #SBATCH values. */
static int slurm_option(int c, tg_opts *O)
{
    long v;
    switch (c) {
    case 1000: O->slurm = 1; break;
    case 1001:
        if (!*optarg || strlen(optarg) >= sizeof O->partition || strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,") != strlen(optarg)) {
            fprintf(stderr, "tl-grade: --partition '%s': give a partition's name (letters, digits, - _ . ,)\n", optarg);
            return TL_EXIT_USAGE;
        }
        snprintf(O->partition, sizeof O->partition, "%s", optarg);
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
        int *dst[] = {&O->gpus_per_task, &O->max_parallel, &O->per_task, &O->cpus_per_task, &O->slurm_task};
        *dst[k] = (int)v;
        break;
    }
    case 1007: O->slurm_finish = 1; break;
    case 1016: case 1017: case 1018: case 1019: {   /* Slurm: written as #SBATCH lines (slurm.c) */
        static const char *const what[] = {
            "--time: a Slurm time limit (MINUTES, HH:MM:SS or D-HH:MM)",
            "--mem: a Slurm memory size (a number with K, M, G or T)",
            "--account: the Slurm account's name (letters, digits, - _ .)",
            "--gres: a Slurm GRES such as gpu:1 or gpu:h100:1"};
        static const char *const ok[] = {"0123456789:-", "0123456789KMGTkmgt",
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.",
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:,"};
        char *dst[] = {O->slurm_time, O->slurm_mem, O->account, O->gres};
        size_t len[] = {sizeof O->slurm_time, sizeof O->slurm_mem, sizeof O->account, sizeof O->gres};
        int k = c - 1016;
        size_t n = strlen(optarg);
        int good = n && n < len[k] && strspn(optarg, ok[k]) == n && (k >= 2 || isdigit((unsigned char)optarg[0]));
        if (good && k == 1)          /* digits, then at most one unit letter at the end */
            good = strspn(optarg, "0123456789") >= n - 1;
        if (good && k == 3)
            good = strchr(optarg, ':') != NULL;
        if (!good) {
            fprintf(stderr, "tl-grade: '%s' is not %s\n", optarg, what[k]);
            return TL_EXIT_USAGE;
        }
        snprintf(dst[k], len[k], "%s", optarg);
        break;
    }
    default:
        return OPT_NOT_MINE;
    }
    return OPT_TAKEN;
}

/* ------------------------------------------------------------ the options together */

/* --lab and --out, given and known. */
static int lab_and_out(grun *R, const tg_cli *a)
{
    if (!a->lab_id) {
        return tg_usage_error("give the lab with --lab NN, e.g. --lab 02");
    }
    R->lab = tl_lab_find(a->lab_id);
    if (!R->lab) {
        fprintf(stderr, "tl-grade: unknown lab '%s'; the labs are:", a->lab_id);
        for (int i = 0; i < tl_nlabs; ++i)
            fprintf(stderr, " %s (%s)", tl_labs[i].id, tl_labs[i].dir);
        fprintf(stderr, "\n");
        return TL_EXIT_USAGE;
    }
    if (!a->out) {
        fprintf(stderr, "tl-grade: give the results folder with --out DIR\n");
        return TL_EXIT_USAGE;
    }
    return 0;
}

/* What goes with --due, and --rubric with a class (the files are read by tl-grade: late_and_rubric). */
static int late_together(tg_opts *O)
{
    if (!O->due_epoch && (O->grace_min || O->late_per_day > 0 || O->late_cap > 0 || O->extensions[0])) {
        fprintf(stderr, "tl-grade: --grace, --late-penalty, --late-cap and --extensions go with --due DATE\n");
        return TL_EXIT_USAGE;
    }
    O->late_cap = O->late_cap > 0 ? O->late_cap - 1000 : 100;   /* default: up to the whole score */
    if (O->rubric_file[0] && O->check) {
        fprintf(stderr, "tl-grade: --rubric grades a class; kit check uses the kit's rubric\n");
        return TL_EXIT_USAGE;
    }
    return 0;
}

/* kit check's --prebuilt / --build-failed, and --slurm with its jobs and values: what goes with
 * what. more: submissions were given. */
static int slurm_together(const tg_opts *O, int prebuilt, int more)
{
    int slurm_job = O->slurm_task || O->slurm_finish;   /* the list is the one --slurm wrote */
    if (prebuilt && (!O->check || more || (O->prebuilt[0] && O->build_log[0]))) {
        return tg_usage_error("--prebuilt and --build-failed go with --check and no FOLDER (one of them)");
    }
    if ((O->slurm || slurm_job) && (O->check || prebuilt || (slurm_job && more) || (O->slurm && slurm_job))) {
        return tg_usage_error("--slurm grades a class (SUBMISSION...); --slurm-task and --slurm-finish are its "
                           "jobs' own and take no submissions; none goes with --check");
    }
    if (!O->slurm && (O->partition[0] || O->gpus_per_task || O->max_parallel || O->per_task || O->cpus_per_task ||
                     O->slurm_time[0] || O->slurm_mem[0] || O->account[0] || O->gres[0])) {
        fprintf(stderr, "tl-grade: --partition, --gpus-per-task, --gres, --time, --mem, --account, --max-parallel, "
                "--per-task and --cpus-per-task go with --slurm\n");
        return TL_EXIT_USAGE;
    }
    return 0;
}

/* --from and --name-pattern, and a class given at all. more: submissions were given. */
static int export_together(const tg_opts *O, int prebuilt, int more)
{
    if (O->name_pattern[0] && strcmp(O->from_kind, "canvas") != 0 && strcmp(O->from_kind, "moodle") != 0) {
        fprintf(stderr, "tl-grade: --name-pattern goes with --from canvas or --from moodle (loose files)\n");
        return TL_EXIT_USAGE;
    }
    if (O->from_kind[0] && (more || O->check || prebuilt)) {
        fprintf(stderr, "tl-grade: --from %s grades the export's students: give no SUBMISSION... with it (grade "
                "one late student into the same --out with another run), and not --check\n", O->from_kind);
        return TL_EXIT_USAGE;
    }
    if (!prebuilt && !more && !O->from_kind[0]) {
        fprintf(stderr, "tl-grade: no submissions given: name one folder or archive per student\n");
        return TL_EXIT_USAGE;
    }
    return 0;
}

/* The kit graded against: --kit, else TL_ROOT, else here; it must hold the lab's folder. */
static int find_kit(const grun *R, tg_opts *O, tg_cli *a)
{
    if (!a->kit)
        a->kit = getenv("TL_ROOT");
    if (!a->kit)
        a->kit = ".";
    if (!realpath(a->kit, O->root)) {
        fprintf(stderr, "tl-grade: the kit folder '%s' is missing (%s); give it with --kit DIR or TL_ROOT\n", a->kit,
                strerror(errno));
        return TL_EXIT_USAGE;
    }
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/labs/%s", O->root, R->lab->dir);
    if (!tg_is_dir(p)) {
        fprintf(stderr, "tl-grade: lab %s is not in this kit yet (no %s)\n", R->lab->id, p);
        return TL_EXIT_USAGE;
    }
    return 0;
}

/* The GPU class's settings from the environment (README.md, Environment variables): a value the
 * class would not use is said at the start, with what it takes, instead of being dropped silently
 * where a worker reads it (workers.c, gpushare.c, counters.c read them again there, valid). 0, or
 * TL_EXIT_USAGE said. */
static int gpu_env_bad(const char *name, const char *v, const char *takes)
{
    fprintf(stderr, "tl-grade: %s='%s': %s, or unset it\n", name, v, takes);
    return TL_EXIT_USAGE;
}

static int whole_in(const char *v, long lo, long hi)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    return *v && !*end && !errno && n >= lo && n <= hi;
}

static int gpu_env_check(const tg_opts *O)
{
    const char *v;
    char takes[160];
    if ((v = getenv("TL_GRADE_GPU_SHARE")) && *v && !whole_in(v, 1, 4096))
        return gpu_env_bad("TL_GRADE_GPU_SHARE", v, "give a whole number of processes from 1 to 4096");
    snprintf(takes, sizeof takes, "give a whole number of workers from --jobs (%d) to %d", O->jobs, TG_GPU_WORKERS_MAX);
    if ((v = getenv("TL_GRADE_GPU_WORKERS")) && *v && !whole_in(v, O->jobs, TG_GPU_WORKERS_MAX))
        return gpu_env_bad("TL_GRADE_GPU_WORKERS", v, takes);
    if ((v = getenv("TL_GRADE_GPU_TIMED")) && *v && strcmp(v, "inline") != 0 && strcmp(v, "last") != 0)
        return gpu_env_bad("TL_GRADE_GPU_TIMED", v, "give last (each device's speed tests after all of its untimed "
                           "work, the default) or inline (each speed test where the rubric has it)");
    if ((v = getenv("TL_GRADE_NCU")) && *v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
        return gpu_env_bad("TL_GRADE_NCU", v, "give 1 (every submission profiled) or 0 (never)");
    if ((v = getenv("TL_GRADE_GPU_YIELD_CPU")) && *v) {
        char *end;
        double f = strtod(v, &end);
        if (*end || !(f >= 0 && f <= 16))
            return gpu_env_bad("TL_GRADE_GPU_YIELD_CPU", v, "give a share of a core from 0 to 16 (above 1: nothing "
                               "is stopped)");
    }
    return 0;
}

/* TL_GRADE_EMU_MAX_SIZE=N (the kit's own tests): emulated runs stop at N^3 work and N x N elements
 * of P instead of TL_EMU_MAX_WORK's 1024^3 (and no bound on P), as the report then says; it can only
 * lower the bounds. 0, or -1 said. */
static int emu_max_from_env(tg_opts *O)
{
    O->emu_max_work = TL_EMU_MAX_WORK;
    const char *emax = getenv("TL_GRADE_EMU_MAX_SIZE");
    if (emax && *emax) {
        char *end;
        long n = strtol(emax, &end, 10);
        if (*end || n < 1 || (double)n * n * n > TL_EMU_MAX_WORK) {
            fprintf(stderr, "tl-grade: TL_GRADE_EMU_MAX_SIZE='%s': give a whole number N from 1 to %.0f (emulated "
                    "sizes above N^3 work or N x N elements of P are not run), or unset it\n", emax, cbrt(TL_EMU_MAX_WORK));
            return -1;
        }
        O->emu_max_work = (double)n * n * n;
        O->emu_max_p = (double)n * n;   /* the emulator's cost is per element of P, over whole tiles:
                                         * 2000x3x2000 costs what 512^3 does (tests/bench/README.md) */
    }
    return 0;
}

/* ------------------------------------------------------------ the command line */

int tg_cmdline(int argc, char **argv, grun *R, tg_opts *O, tg_cli *a, int (*oneshot)(int c, const char *arg),
               char ***argvp, int *argcp)
{
    /* getopt's entries and optstring from the table of options (options.c), as the help and the
     * option errors are */
    static struct option longopts[64];
    char optstring[16];
    tg_options_init();
    tl_cli_longopts(tg_options, longopts, (int)(sizeof longopts / sizeof longopts[0]));
    tl_cli_optstring(tg_options, "+:", optstring, sizeof optstring);
    opterr = 0;
    optind = 1;
    O->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (O->jobs < 1)
        O->jobs = 1;
    if (emu_max_from_env(O) != 0)
        return TL_EXIT_USAGE;
    /* A name that exists as a file or folder is a submission, never an option, wherever it stands
     * (a class given as * puts a folder named --public-only first): moved behind a "--" (said once,
     * by tl-grade itself). */
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return TL_EXIT_USAGE;
    argc = tg_submissions_first(argc, argv, longopts, args, oneshot != NULL);
    argv = args;
    *argvp = argv;
    *argcp = argc;
    /* "+": options end at the first submission (and at "--"), so a folder named --public-only
     * or -x given after them is a submission, never an option. */
    int c;
    while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
        int rc = run_option(c, O, a);
        if (rc == OPT_NOT_MINE)
            rc = class_option(c, argc, argv, O, a);
        if (rc == OPT_NOT_MINE)
            rc = late_option(c, O);
        if (rc == OPT_NOT_MINE)
            rc = slurm_option(c, O);
        if (rc == OPT_NOT_MINE && tl_cli_by_val(tg_options, c))   /* a one-shot command: run now, or */
            return oneshot ? oneshot(c, optarg) : 0;              /* its value is tl-grade's to judge */
        if (rc == OPT_NOT_MINE) {
            /* optopt is a long option's val (1007, ...): never print it; the option as written is,
             * and for a missing value what the table says of the option it stands for */
            char msg[500];
            tl_cli_refusal(tg_options, longopts, c, argv[optind - 1], optopt, NULL, msg, sizeof msg);
            return tg_usage_error(msg);
        }
        if (rc != OPT_TAKEN)
            return rc;
    }
    if (a->similar_dir)                /* ./kit similar DIR: the similarity section of a graded class */
        return TG_CMDLINE_GO;
    int rc, prebuilt = O->prebuilt[0] || O->build_log[0], more = optind < argc;
    if ((rc = lab_and_out(R, a)) != 0 || (rc = late_together(O)) != 0 || (rc = slurm_together(O, prebuilt, more)) != 0)
        return rc;
    if ((rc = gpu_env_check(O)) != 0)
        return rc;
    if (O->slurm_task || O->slurm_finish)   /* a Slurm job: the list the submit wrote */
        return TG_CMDLINE_GO;
    if ((rc = export_together(O, prebuilt, more)) != 0 || (rc = find_kit(R, O, a)) != 0)
        return rc;
    return TG_CMDLINE_GO;
}
