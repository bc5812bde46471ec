/* labtable.h: the one table of the labs' facts (labtable.c), read by every part of the kit: the lab
 * programs (driver.c), the grader (grader/labs.h), `kit` and the scripts (through build/common/tl-lab),
 * the rubric (tl-lab rubric writes grader/rubric.md), plots, slides and tests. Nothing restates it.
 *
 * A lab's lab.c keeps only code: one tl_lab_code per variant (its function) and, for a lab with its
 * own main (05), the program itself. Adding a lab: common/CONTRACTS.md section 9. */
#ifndef TILELAB_LABTABLE_H
#define TILELAB_LABTABLE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TL_LAB_MAX_FILES    4      /* student files per lab, NULL-terminated                   */
#define TL_LAB_MAX_VARIANTS 8      /* graded variants per lab                                  */
#define TL_LAB_MAX_TESTS    16     /* rubric tests per lab                                     */
#define TL_LAB_MAX_TIERS    6      /* speed tiers per speed test                               */

/* What a rubric test does (the grader's judge for it). */
typedef enum tl_test_kind {
    TL_TEST_PUBLIC,     /* the lab's public sizes, inputs from the secret seed                  */
    TL_TEST_HIDDEN,     /* more sizes drawn from the secret seed (the lab's hidden_* rules)     */
    TL_TEST_RACECHECK,  /* compute-sanitizer racecheck at the safety sizes (GPU), emulator      */
    TL_TEST_MEMCHECK,   /* compute-sanitizer memcheck at the safety sizes (GPU), emulator       */
    TL_TEST_SPEED,      /* median time against the reference solution, same GPU, same run       */
    TL_TEST_CALC,       /* lab 05 part A: the calculator asked through `lab05 --serve` (CPU)     */
    TL_TEST_CALC_API,   /* lab 05 part A on a GPU: the calculator against the CUDA occupancy API */
    TL_TEST_POLICY,     /* the student files call nothing a lab never needs (static scan), and no
                         * case was killed by the run-time filter (seccomp: no inet sockets)   */
    TL_TEST_DEVFACTS    /* lab 02's device query: print_device_facts' lines (asked through
                         * `labNN --serve`) against the kit's own query (`tl-device --facts`)   */
} tl_test_kind;
/* Run by kit check and the grader's --public-only too: the public cases, lab 05's calculator (its
 * known configurations; the hidden ones are asked only in a full grading run), lab 02's device query. */
#define TL_TEST_IS_PUBLIC(k) \
    ((k) == TL_TEST_PUBLIC || (k) == TL_TEST_CALC || (k) == TL_TEST_CALC_API || (k) == TL_TEST_DEVFACTS)

/* One variant the lab program serves and the grader may grade. */
/* Limits are CPU time, so a file gets the same verdict at any load (isolate and DOMjudge do the
 * same); the wall clock only ends a process that sleeps or waits, at this many times the CPU
 * limit. A native GPU run waits for its kernels without CPU time (blocking sync), so an endless
 * kernel meets the wall clock: there the factor is small. On the CPU (a CPU lab, an emulated
 * run) the factor covers a loaded machine: eight emulated checks on 2 cores run each at about
 * a quarter of its CPU time per second of wall time. */
#define TL_WALL_BACKSTOP_CPU 5.0
#define TL_WALL_BACKSTOP_GPU 2.0

typedef struct tl_lab_variant {
    const char *name;         /* "cpu_ijk", "tiled16": CLI, tables, records, rubric            */
    const char *what;         /* one line for --help and tables                                */
    int         on_gpu;       /* 1: a kernel launch; 0: a CPU function                         */
    int         tile;         /* tile (block) width named in failure reports (0: none)         */
    int         square_only;  /* refuses m != k or k != n                                      */
    int         multiple_of;  /* refuses sizes that are not multiples of this (0: any)         */
    const char *refuse_hint;  /* appended to a refusal: "lab 04 handles any size"              */
    int         max_time_size;/* larger sizes are checked but not timed (0: no limit)          */
    int         off_ladder;   /* 1: not a rung of the kernel ladder (speed-ref, ./kit bench, the
                               * ladder chart): rect16/32 time boundary16/32's tiles again       */
    const char *gpu_only;     /* non-NULL: needs a GPU, not emulated: what it uses ("TMA", "mma.sync",
                               * "wgmma (sm_90a)"); an emulated run names it "WHAT: GPU only" and runs
                               * nothing, a build without it (no sm_90a) leaves it out, the grader
                               * grades its tests only on a GPU (elsewhere: not graded, no points) */
    const char *after;        /* the kit's own rungs (tl_ladder_rungs): the rung it follows
                               * (NULL: first); unused in a lab's entry                        */
    double      max_shared_per_fma; /* > 0 (a tiled lab's work rule): shared loads per multiply-add
                               * at most this: the register tile's reuse (lab 06: a thread's 8
                               * outputs in a column read 9 shared elements per 8 multiply-adds,
                               * 1.125; an 8x8 register tile 16 per 64, 0.25; lab 03's tile 2) */
} tl_lab_variant;

/* A speed tier: a time ratio student / reference at most max_ratio earns credit x the points.
 * Tiers are listed from the fastest; a ratio above the last earns 0. */
typedef struct tl_speed_tier {
    double max_ratio;
    double credit;            /* 0..1 */
} tl_speed_tier;

/* One rubric test. */
typedef struct tl_lab_test {
    const char   *name;       /* the test's name in every report                               */
    tl_test_kind  kind;
    const char   *variant;    /* which variant it runs (NULL for CALC, CALC_API, POLICY)       */
    double        points;
    const char   *what;       /* the rubric's "what" column when it is not derived from the
                               * table (CALC, CALC_API; a note appended to the derived text)   */
    tl_speed_tier tiers[TL_LAB_MAX_TIERS];   /* TL_TEST_SPEED: tiers (max_ratio 0 ends them);
                               * none: the linear rule of tl_speed_credit                       */
} tl_lab_test;

/* What the lab asks its kernels to do, judged from the work the emulator counts (tl_work_judge below;
 * the grader's judge in grader/judges.c, the emulated lab programs). A case whose counts break the
 * rule earns no correctness credit, however right P is. */
typedef struct tl_lab_work {
    int    kernel;            /* 1: a kernel computes P: at least one launch, kernel loads of at
                               * least every element of M and N, kernel stores of at least m*n   */
    int    tiled;             /* 1: and the loads are tiled: global loads at most `tolerance`
                               * times a TILE_WIDTH T kernel's, m k ceil(n/T) + k n ceil(m/T)
                               * (2/T per multiply-add when T divides the sizes; ragged edges
                               * are in the count), every loaded element staged in shared memory
                               * (shared stores >= global loads less the stores to P, which an
                               * atomic or P += also reads) and read from there                  */
    double tolerance;         /* the allowance over the tiled count (extra loads, e.g. a guard
                               * that loads before it tests); naive loads are T/2 times more    */
    double min_loads_per_fma; /* > 0: global loads per multiply-add at least this (lab 02: the
                               * naive kernel loads 2; a kernel that reads M and N once and
                               * copies a P computed elsewhere loads about 2/n)                 */
    int    staged_unjudged;   /* 1: shared staging (shared stores >= global loads) not judged
                               * (lab 06: float4 and transposed tiles store in other units)     */
    int    copies;            /* 1: the tiles arrive by cp.async copies (lab 07): the emulator counts
                               * the copies' bytes / 4 as global loads and shared stores; the stores
                               * to P and the stages' reads go through plain pointers it does not
                               * count, so those two are not judged                              */
    int    fragments;         /* 1: the multiply-adds read tensor-core fragments (lab 08: a 16 x 16
                               * fragment loaded once from a shared tile and reused across a warp's
                               * tile, 0.05 shared loads per multiply-add in the solution), so the
                               * fewest shared loads per multiply-add (below) is not a rule there */
} tl_lab_work;

/* The fewest shared loads per multiply-add (over the padded block tiles) a tiled lab's kernel may make:
 * its multiply-adds read the operands from the tiles (lecture kernel 2, an 8 x 8 register tile 0.25,
 * 16 x 16 0.125); a kernel that stages the tiles but copies a P made elsewhere reads about 3/Width. */
#define TL_WORK_MIN_SHARED_PER_FMA 0.125
/* The fewest reads of each staged element, on average, at a size with whole block tiles (m, n at
 * least the tile, k at least 16), counted in elements (the emulator): a tile is staged to be reused.
 * The lecture's tiled kernel reads each TILE_WIDTH times (16, 32), lab 06's and 07's register tiles
 * 16 or more; a kernel that stages its tiles, reads each element once a phase and copies a P made
 * elsewhere reads 1 (it passed the per-multiply-add floor at ragged sizes: lab 04 at 97^3, 0.14). */
#define TL_WORK_MIN_READS_PER_STAGED 4.0

/* The emulator's work counters of one case's checked run (tl_emu_counters, common/emu), as the
 * lab program sends them on the grader's channel ("ok MS work L GLD GST SLD SST U H"). */
typedef struct tl_work_counts {
    unsigned long long launches, global_loads, global_stores, shared_loads, shared_stores;
    unsigned long long unchecked_launches;   /* launches run with race checking off            */
    unsigned long long shared_loads_most;    /* where shared_loads counts instructions (ncu: a
                                              * vector load is one), the most elements they can
                                              * have read; 0: shared_loads counts elements (the
                                              * emulator). The "at least" rule reads this one.    */
    unsigned long long global_loads_least;   /* where global_loads may overcount (ncu: warp
                                              * instructions x 32 count idle lanes), the fewest
                                              * elements the loads can have moved; 0: global_loads
                                              * is exact. The "at most" (not tiled) rule reads it. */
    unsigned long long host_round_trips;     /* the emulator (tl_emu_guard_device): writes to the
                                              * device (launches, copies to it, memsets) after a copy
                                              * to the host within the launcher: the host had device
                                              * data to compute with; 0 on a GPU (ncu: not seen) */
} tl_work_counts;

/* One lab. Build targets and paths follow from id and dir (TL_LAB_BUILDS in labtable.c). */
typedef struct tl_lab_info {
    const char *id;                       /* "01"                                              */
    const char *dir;                      /* "01-cpu-baseline": labs/DIR and solutions/DIR     */
    const char *title;
    const char *writes;                   /* README.md's table: what the student writes        */
    const char *checked_on;               /* README.md's table: where it is checked (NULL: from
                                           * gpu and the emulated build)                        */
    const char *files[TL_LAB_MAX_FILES];  /* the student files: the only files taken from a
                                           * submission (NULL-terminated)                      */
    const char *binary;                   /* the student build, under a build dir             */
    const char *ref_binary;               /* the reference solution's build (speed, bench)     */
    const char *emu_target, *emu_binary;  /* the emulated build (NULL: none)                   */
    const char *emu_ref_binary;           /* the reference's emulated build (NULL: none)        */
    int         gpu;                      /* 1: its variants (or its part B) run on a GPU      */
    int         own_main;                 /* 1: lab.c has its own main (05), no --serve        */
    const char *public_sizes;             /* the public cases: the program's default sizes
                                           * (NULL: own main, see own_main_size)               */
    int         own_main_size;            /* own main: the default of its --size               */
    int         repeat;                   /* checked runs per GPU case by default (0: 1)       */
    const char *yardstick;                /* a kit-code variant the program also serves when
                                           * built with it ("cublas"; never graded), or NULL   */
    int         hidden_count;             /* hidden sizes drawn from the secret seed           */
    int         hidden_min, hidden_max;   /* their range                                       */
    int         hidden_ragged;            /* 1: one small odd size and one 64q+1               */
    int         hidden_rect;              /* 1: hidden_count + 2 rectangular m x k x n as well
                                           *    (m = 1, n = 1, k = 1, tall and skinny, wide and
                                           *    flat, then any)                                */
    int         hidden_multiple;          /* > 0: hidden sizes are multiples of this           */
    const char *safety_sizes;             /* small sizes for the sanitizer runs                */
    const char *speed_size;               /* the timed case (the speed test names the variant) */
    double      case_limit_s;             /* CPU-time limit of one case (seconds of CPU; the
                                           * wall clock gets TL_WALL_BACKSTOP_* times it)      */
    double      sanitizer_limit_s;        /* the same for one sanitizer case                   */
    tl_lab_variant variants[TL_LAB_MAX_VARIANTS];
    int         nvariants;
    tl_lab_test tests[TL_LAB_MAX_TESTS];
    int         ntests;
    tl_lab_work work;                     /* what its kernels must do (kernel 0: not judged)  */
    int         inputs_bf16;              /* 1: inputs drawn on the BF16 grid (8 significant
                                           * bits; tl_matrix_round_bf16), so that BF16 and TF32
                                           * kernels are judged by the FP32 bound (lab 08)     */
    const char *kit_calls;                /* the kit functions and data a student file may
                                           * reference, space-separated (NULL: none); the
                                           * grader refuses any other kit name, whatever its
                                           * prefix (grader/policy.c, CONTRACTS.md 1)          */
    const char *rubric_intro;             /* rubric.md: lines under the lab's heading (or NULL) */
    const char *rubric_notes;             /* rubric.md: lines after the lab's table (or NULL)  */
} tl_lab_info;

extern const tl_lab_info tl_labs[];
extern const int         tl_nlabs;
/* The yardstick variant's facts (cuBLAS SGEMM), shared by every lab that serves it. */
extern const tl_lab_variant tl_yardstick_cublas;

/* The kernel ladder (solutions/speed's speed-ref, ./kit bench, plots' ladder chart): every GPU lab's
 * variants in table order (but those marked off_ladder), the kit's own rungs (solutions/speed/ladder.cu,
 * each after the rung its .after names) and the yardstick last. A new lab's variants join by its
 * table entry alone. */
extern const tl_lab_variant tl_ladder_rungs[];
extern const int            tl_nladder_rungs;
/* Fills out[] with the ladder's variant facts in order (at most max); returns how many. A lab
 * variant's *lab_of (may be NULL) is its lab, NULL for a kit rung or the yardstick. */
int tl_ladder(const tl_lab_variant **out, const tl_lab_info **lab_of, int max);

/* "01", "1" or "01-cpu-baseline" -> the lab, or NULL. */
const tl_lab_info    *tl_lab_find(const char *id);
/* A graded variant of lab by name, or NULL (the yardstick is not graded: NULL). */
const tl_lab_variant *tl_lab_variant_find(const tl_lab_info *lab, const char *name);
/* A variant of any lab, or the yardstick, by name; *lab (may be NULL) gets its lab (NULL for the
 * yardstick). For tools that meet variant names in records (plots, speed-ref). */
const tl_lab_variant *tl_variant_any(const char *name, const tl_lab_info **lab);
double                tl_lab_points(const tl_lab_info *lab);
int                   tl_lab_is_student_file(const tl_lab_info *lab, const char *name);
/* The variant the lab's speed test times (NULL: no speed test). */
const char           *tl_lab_speed_variant(const tl_lab_info *lab);

/* Speed credit for a time ratio student/reference, 0..1. With tiers (t->tiers[0].max_ratio > 0)
 * the first tier whose max_ratio the ratio does not exceed; else full up to TL_SPEED_FULL, then
 * linear down to 0 at TL_SPEED_ZERO. */
#define TL_SPEED_FULL 1.2
#define TL_SPEED_ZERO 4.0
double tl_speed_credit(double ratio);
double tl_test_speed_credit(const tl_lab_test *t, double ratio);

/* Judges one case's work counts (c) against lab->work for a variant of tile width `tile` at
 * m x k x n. Returns 0 when the work is what the lab asks (or the lab judges none), 1 when it is
 * not: headline then names it ("host-side computation: ...", "not tiled: ..."). figures always
 * gets the figures a student learns from ("global loads per multiply-add: 0.0625 = 2/32 ...").
 * Both may be NULL. */
int tl_work_judge(const tl_lab_info *lab, int tile, int m, int k, int n, const tl_work_counts *c,
                  char *headline, size_t hlen, char *figures, size_t flen);
/* The same, and where the work is not what the lab asks, *pattern (may be NULL) the verdict's
 * identifier (CONTRACTS.md section 10, kind work): host-side-computation, unchecked-launches,
 * not-tiled or not-staged-in-shared. */
int tl_work_judge_why(const tl_lab_info *lab, int tile, int m, int k, int n, const tl_work_counts *c,
                      char *headline, size_t hlen, char *figures, size_t flen, const char **pattern);

/* labrubric.c: grader/rubric.md, written from the table (tl-lab rubric). */
void tl_lab_rubric(FILE *out);
/* labdocs.c: the READMEs' tables of labs (kind "labs" or "grading"); -1 for an unknown kind. */
int tl_lab_doc_table(FILE *out, const char *kind);
/* labdocs.c: rewrites (check 0) or compares (check 1) the marked tables of a README: 0 up to date
 * or rewritten, 1 out of date, 2 an error (said on stderr). */
int tl_lab_doc_splice(const char *path, int check);

#ifdef __cplusplus
}
#endif
#endif
