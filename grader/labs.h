/* labs.h: the one table of what the grader, `kit check` and `kit release` know about each lab:
 * the student files (the allow-list: the only files taken from a submission), the build targets,
 * the variants the lab binary serves, the public and hidden cases and the rubric (points per test).
 * grader/rubric.md is the readable copy of the same numbers; tests/test_grader.c checks they agree.
 *
 * Adding a lab: add a row to tg_labs[] in labs.c, a section to rubric.md, and the lab's
 * wrong/hostile submissions under tests/. */
#ifndef TILELAB_GRADER_LABS_H
#define TILELAB_GRADER_LABS_H

#include <stddef.h>

#define TG_MAX_FILES    4
#define TG_MAX_VARIANTS 8
#define TG_MAX_TESTS    16

typedef enum tg_kind {
    TG_CORRECT_PUBLIC,   /* the lab's default sizes, inputs from the secret seed                 */
    TG_CORRECT_HIDDEN,   /* more sizes drawn from the secret seed                                */
    TG_RACECHECK,        /* compute-sanitizer --tool racecheck at small sizes (GPU), emulator    */
    TG_MEMCHECK,         /* compute-sanitizer --tool memcheck at small sizes (GPU), emulator     */
    TG_SPEED,            /* median time against the reference solution, same GPU, same run       */
    TG_CALC,             /* lab 05 part A: `lab05 --calc`, the calculator on known answers (CPU)  */
    TG_CALC_API,         /* lab 05 part A on a GPU: the calculator against the CUDA occupancy API */
    TG_POLICY            /* the student files call nothing a lab never needs (static scan), and no
                          * case was killed by the run-time filter (seccomp: no inet sockets)   */
} tg_kind;

typedef struct tg_variant {
    const char *name;        /* as the lab binary serves it (lab.c's variant table)          */
    int         tile;        /* tile width named in failure reports (0: none)                */
    int         square_only; /* the binary refuses m != k or k != n                          */
    int         multiple_of; /* the binary refuses sizes that are not multiples (0: any)     */
} tg_variant;

typedef struct tg_test {
    const char *name;        /* the test's name in every report                              */
    tg_kind     kind;
    const char *variant;     /* which variant it runs (NULL for TG_CALC, TG_CALC_API, TG_POLICY) */
    double      points;
} tg_test;

typedef struct tg_lab {
    const char *id;                       /* "01"                                              */
    const char *dir;                      /* "01-cpu-baseline": labs/DIR and solutions/DIR     */
    const char *title;
    const char *files[TG_MAX_FILES];      /* the allow-list, NULL-terminated                   */
    const char *target;                   /* ninja target of the student build: "lab01"        */
    const char *binary;                   /* its path in a build dir                          */
    const char *ref_target, *ref_binary;  /* the reference solution's build (speed)           */
    const char *emu_target, *emu_binary;  /* the emulated build of the same sources (no GPU)   */
    int         gpu;                      /* 1: its variants run on a GPU                      */
    const char *public_sizes;             /* = lab.c's default_sizes (NULL: lab 05, own main)  */
    int         hidden_count;             /* hidden sizes drawn from the secret seed           */
    int         hidden_min, hidden_max;   /* their range                                       */
    int         hidden_ragged;            /* 1: include sizes off the tile grid                */
    int         hidden_rect;              /* 1: include rectangular m x k x n (1-wide, tall and
                                           *    skinny, wide and flat, then any)                  */
    int         hidden_multiple;          /* > 0: hidden sizes are multiples of this           */
    const char *safety_sizes;             /* small sizes for the sanitizer runs                */
    const char *speed_size;               /* the timed case                                    */
    const char *speed_variant;
    double      case_limit_s;             /* wall-clock limit of one case                      */
    double      sanitizer_limit_s;        /* wall-clock limit of one sanitizer case            */
    tg_variant  variants[TG_MAX_VARIANTS];
    int         nvariants;
    tg_test     tests[TG_MAX_TESTS];
    int         ntests;
} tg_lab;

extern const tg_lab tg_labs[];
extern const int    tg_nlabs;

/* "01", "1" or "01-cpu-baseline" -> the lab, or NULL. */
const tg_lab     *tg_lab_find(const char *id);
const tg_variant *tg_variant_find(const tg_lab *lab, const char *name);
double            tg_lab_points(const tg_lab *lab);
int               tg_is_student_file(const tg_lab *lab, const char *name);

/* Speed credit for a time ratio student/reference: full up to TG_SPEED_FULL, then linear
 * down to 0 at TG_SPEED_ZERO (rubric.md). */
#define TG_SPEED_FULL 1.2
#define TG_SPEED_ZERO 4.0
double tg_speed_credit(double ratio);

#endif
