/* opts.h: a grading run's options: what the command line asked for (tl-grade.c), filled once
 * there and read-only after: every part sees them as `const tg_opts *` (R->opt), so a part that
 * wrote an option would not compile. What the run finds out goes to env.h (the machine) and
 * runstate.h (the run's own state). */
#ifndef TILELAB_GRADER_OPTS_H
#define TILELAB_GRADER_OPTS_H

#include <limits.h>
#include <stdint.h>

#include "tilelab.h"
#include "util.h"

typedef struct tg_opts {
    char     root[PATH_MAX];          /* --kit: the kit graded against (realpath)                */
    int      public_only, jobs, check, emulate, quiet;
    int      keep_work;               /* --keep-work: leave DIR/.state/work/<student> for a post-mortem */
    char     prebuilt[PATH_MAX];      /* --check --prebuilt: the lab program built by kit check ("" none) */
    char     build_log[PATH_MAX];     /* --check --build-failed: kit check's failed build's log ("" none)  */
    int      random_seed;             /* --random-seed: kit check draws fresh inputs (default: the kit's seed) */
    int      unsafe_no_sandbox;       /* --unsafe-no-sandbox: grade without bubblewrap (every report says so) */
    char     gpu_archs[80];           /* --gpu-archs: compute capabilities of the submissions' builds */
    /* Slurm (slurm.c): --slurm submits the class as a job array; the tasks and the finishing job
     * are tl-grade again, run on the cluster's nodes over the same DIR (a shared filesystem). */
    int      slurm;                   /* --slurm: prepare here, submit, return                     */
    int      slurm_task;              /* --slurm-task G: one array task of submission generation G   */
    int      slurm_finish;            /* --slurm-finish: the dependent job: gradebook and summary    */
    char     partition[128];          /* --partition P ("" the cluster's default)                  */
    int      gpus_per_task;           /* --gpus-per-task N (0: not asked)                          */
    int      max_parallel;            /* --max-parallel N: tasks running at once (0: no limit)     */
    int      per_task;                /* --per-task N: students graded by one array task (>= 1)    */
    int      cpus_per_task;           /* --cpus-per-task N (0: the cluster's default)              */
    char     slurm_time[32];          /* --time: a task's time limit ("" from the lab table: slurm.c) */
    char     slurm_mem[32];           /* --mem: a task's memory ("" from the sandbox's limits)       */
    char     account[128];            /* --account A ("" the user's default)                       */
    char     gres[128];               /* --gres gpu:1 or gpu:h100:1 ("" none; or --gpus-per-task)   */
    /* Due dates (late.c): --due, --grace, --late-penalty, --late-cap, --extensions. */
    long long due_epoch;              /* 0: no due date                                             */
    char     due_text[64];
    int      grace_min;
    double   late_per_day, late_cap;  /* percent of the score per day late (or part of one); at most */
    char     extensions[PATH_MAX];
    tg_buf   ext_rows;                /* "WHO\tDUE_EPOCH\n" per extension (tg_late_load, at parsing)  */
    /* Intake of a course's export (lms.c): --from KIND SOURCE [--name-pattern RE]. */
    char     from_kind[16];           /* "gradescope", "canvas", "moodle" ("" folders and archives given) */
    char     from_source[PATH_MAX];
    char     name_pattern[1024];      /* --name-pattern ("" the LMS's own)                          */
    /* The out dir's identity and regrading (ident.c, run.c). */
    char     rubric_file[PATH_MAX];   /* --rubric FILE ("" the lab table's)                        */
    int      regrade;                 /* --regrade: 1 every student of the class, 2 those named    */
    char     regrade_names[4096];     /* --regrade=NAME,...: ",NAME,NAME," (display or folder names) */
    int      rescale;                 /* --rescale: tests not graded here scale the rest up (report.c) */
    double   emu_max_work;            /* emulated: sizes with m*k*n above this are not run (TL_EMU_MAX_WORK, or
                                       * lower by TL_GRADE_EMU_MAX_SIZE: the kit's tests, tl-grade.c) */
    double   emu_max_p;               /* emulated: nor sizes with m*n above this (0: no bound; N*N by
                                       * TL_GRADE_EMU_MAX_SIZE=N: the emulator's cost is per element of P) */
    char     roster[PATH_MAX];        /* --roster FILE ("" the out dir's, DIR/.state/roster.csv, if any) */
    int      sim_threshold;           /* --threshold N: similarity pairs shown from N %% (similar.c)   */
} tg_opts;

/* tl-grade's options as one table (options.c): getopt's entries, the help and the option errors
 * are made from it. tg_options_init fills --lab's list of labs (call it before reading the table). */
extern const tl_cli_opt tg_options[];
void tg_options_init(void);
struct option;
/* argv into out (argc + 2 slots): an argument before "--" that starts with '-' but names an existing
 * file or folder is a submission, moved behind a "--" (said on stderr when say). The new argc. */
int tg_submissions_first(int argc, char **argv, const struct option *longopts, char **out, int say);
/* "tl-grade: MSG (./kit grade --help lists every option)" on stderr; returns exit 2. */
int tg_usage_error(const char *msg);
/* tl-grade --help's text on out (tl-grade and tl-grade-args print it). */
void tg_print_usage(FILE *out);

/* What the command line gives besides the options: where, what, and one-shot commands' input. */
typedef struct tg_cli {
    const char *lab_id, *out, *secret, *kit, *similar_dir;
} tg_cli;
struct grun;
enum { TG_CMDLINE_GO = -1 };
/* cmdline.c: tl-grade's command line (argv as given; *argvp, *argcp: as read, submissions named like
 * options moved behind "--", optind at the first submission) into O, a and R's lab: the table's getopt
 * loop, each option's value judged, then what goes with what (--lab and --out, --due's and --slurm's
 * company, --from, the kit's folder). oneshot: runs a one-shot command when met (--print-pristine,
 * --status, --print-rubric, --help; its return ends tl-grade); NULL (tl-grade-args): a one-shot
 * ends the check, 0. TG_CMDLINE_GO, or the exit code (a usage error said on stderr: 2). */
int tg_cmdline(int argc, char **argv, struct grun *R, tg_opts *O, tg_cli *a, int (*oneshot)(int c, const char *arg),
               char ***argvp, int *argcp);

/* An emulated size not run here: above emu_max_work, or above emu_max_p elements of P (judges.c, run.c). */
static inline int tg_emu_too_big(const tg_opts *o, double m, double k, double n)
{
    return m * k * n > o->emu_max_work || (o->emu_max_p > 0 && m * n > o->emu_max_p);
}

#endif
