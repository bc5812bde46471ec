/* runstate.h: a grading run's own state: its out dir and seed, the cases made once, the builds
 * shared by every submission (the kit's, the reference's), what the grades are computed from, and
 * where the time went. Written by the class run's set-up (run.c, cases.c, build.c, ident.c) before
 * the workers start; a worker reads it (its profile stages are its own process's). */
#ifndef TILELAB_GRADER_RUNSTATE_H
#define TILELAB_GRADER_RUNSTATE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "tilelab.h"

#define TG_HIDDEN_MAX 16          /* most hidden sizes a rubric may ask for (R->run.sizes holds them) */

/* What a class's grades are computed from (ident.c): hashes (16 hex digits) of the rubric and of
 * the cases, and the kit's version. */
typedef struct tg_identity_t {
    char rubric[65], cases[65];
    char kit[96];
} tg_identity_t;

typedef struct gsize {
    int      m, k, n;
    int      hidden;                  /* 0 public, 1 hidden, 2 the speed case only          */
    uint64_t seed;
    int      bf16;                    /* inputs on the BF16 grid (the lab's inputs_bf16)  */
    tl_matrix M, N;
    double  *ref, *absref;
    char    *payload;                 /* M and N as matrix files, ready for fd 3            */
    size_t   payload_len;
} gsize;

/* profile.c: where a class run's time went, per kind of stage, summed over the class (issue 29). */
enum { TG_PROF_SETUP, TG_PROF_INTAKE, TG_PROF_BUILD, TG_PROF_CASES, TG_PROF_WORK, TG_PROF_NCU, TG_PROF_SANITIZER, TG_PROF_TIMED,
       TG_PROF_ALONE, TG_PROF_GPU_WAIT, TG_PROF_QUEUE_WAIT, TG_PROF_STOPPED, TG_PROF_OTHER, TG_PROF_REPORT, TG_PROF_N };
typedef struct tg_profile {
    double wall_s[TG_PROF_N], cpu_s[TG_PROF_N];
    double queued_s;                  /* students' wait for a job slot (not a stage)          */
    double run_wall_s;                /* the run, set-up included                             */
    int    jobs, students;            /* students: those graded in this run (profiled)        */
    int    have;                      /* a class run filled it (not kit check, not Slurm's finish) */
} tg_profile;

typedef struct tg_runstate {
    char     out[PATH_MAX];           /* the out dir (realpath)                                 */
    char     state[PATH_MAX];         /* DIR/.state: the seed, the lock, the work folders (0700) */
    char     pristine[PATH_MAX];      /* DIR/.state/pristine: the kit's copy each build starts from */
    uint64_t seed;                    /* the secret's seed (cases.c: tg_state_seed)             */
    gsize    sizes[96];               /* the cases: public, hidden, safety, speed; made once    */
    int      nsizes;
    char     kit_build[PATH_MAX];     /* the kit built once for this run ("" none: each submission from clean) */
    char     kit_build_why[700];
    char     kit_archs[80];           /* those the kit's build used ("" the kit's default)          */
    char     ref_build[PATH_MAX];     /* the reference solution's build dir ("" none)      */
    char     ref_why[400];
    int      taken;                   /* the submissions were taken at submit time (DIR/.state/taken) */
    tg_identity_t ident;              /* this run's identity                                        */
    tg_profile prof;                  /* where this run's time went (profile.c; summary.md's table)   */
} tg_runstate;

#endif
