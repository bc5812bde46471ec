/* env.h: what this machine offers a grading run, probed once by the class run (run.c, counters.c)
 * before any student is graded, then only read: the sandbox, the GPU, the tools found on PATH. */
#ifndef TILELAB_GRADER_ENV_H
#define TILELAB_GRADER_ENV_H

#include <limits.h>

#include "sandbox.h"

typedef struct tg_env {
    tg_iso   iso;                     /* the isolation that works here (sandbox.c)              */
    int      gpu_ok;                  /* a usable CUDA device answered                      */
    char     gpu_why[300];
    int      gpu_unknown;             /* the grader could not try the device itself: the lab program's word counts */
    char     sanitizer[PATH_MAX];     /* compute-sanitizer ("" none)                        */
    char     meson[PATH_MAX], ninja[PATH_MAX];
    char     tool_path[3 * PATH_MAX]; /* folders of nvcc, meson, ninja: the sandbox's PATH starts with them */
    int      have_emu_target;         /* the kit graded builds the lab's emulated program (labs/emulated) */
    int      no_nvcc;                 /* a GPU lab graded emulated where no nvcc is: the emulated
                                       * program is the only build (it needs the host compilers only) */
    /* counters.c: ncu, found and tried on the reference solution once per run (tg_counters_probe) */
    char     ncu[PATH_MAX];           /* the ncu binary itself (not a wrapper script; "" none)      */
    char     ncu_root[PATH_MAX];      /* its folder, bound read-only where it lies outside /usr ("" none) */
    int      ncu_ok;                  /* it read the reference's counters in the sandbox: students' runs count */
    int      ncu_every;               /* TL_GRADE_NCU=1: every submission's needed variants profiled, the
                                         counters judge the work; else (the default) the emulated twin
                                         counts it and ncu runs only on demand (counters.c's policy)    */
    char     ncu_why[520];            /* why not ("not checked here: ...")                           */
    char     ncu_ref[1200];           /* the reference's profiled figures (the run's log)            */
    double   ncu_ref_s;               /* the reference's profiled run, wall seconds (0: none): a
                                         student's profiled run is limited to 10x that (counters.c)    */
    int      ncu_shared;              /* profiled runs hold the device shared, one at a time on the device
                                         (gpushare.c's ncu lock; counters.c)                          */
    int      ncu_one;                 /* a submission's variants are profiled in one session under one ncu,
                                         its table split by the kit's request markers: the probe's
                                         session of the reference split and judged (counters.c)       */
    char     ncu_one_why[320];        /* why not, where it was tried ("" not tried: one variant, or off) */
    int      ncu_app_only;            /* ncu profiles its own child alone (--target-processes
                                         application-only), where the probe's run read the counters so */
} tg_env;

#endif
