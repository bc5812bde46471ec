/* tilelab.h: the harness every lab links, grouped by source file (xv6 defs.h style).
 *
 * Host code is C11. The device part (device.cu) exports C functions; without CUDA the
 * same functions come from device_none.c and report "no usable CUDA device".
 * Contracts with the grader and the plots: common/CONTRACTS.md.
 */
#ifndef TILELAB_H
#define TILELAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "devfacts.h"
#include "labtable.h"
#include "param.h"
#include "records.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes, shared by every kit program. */
enum { TL_EXIT_OK = 0, TL_EXIT_FAIL = 1, TL_EXIT_USAGE = 2, TL_EXIT_SKIP = 77 };

/* ------------------------------------------------------------------ rng.c */
/* PCG32 (O'Neill, pcg-random.org, "XSH RR" output): 64-bit state, 32-bit output.
 * Pure integer arithmetic, so a seed gives the same matrix on every machine. */
typedef struct tl_rng {
    uint64_t state;
    uint64_t inc;       /* stream selector, always odd */
} tl_rng;

void     tl_rng_seed(tl_rng *r, uint64_t seed, uint64_t stream);
uint32_t tl_rng_next(tl_rng *r);
/* Uniform in [-1, 1]: a multiple of 2^-23, so exactly representable in float. */
float    tl_rng_unit(tl_rng *r);

/* --------------------------------------------------------------- matrix.c */
/* A host matrix: rows x cols floats, row-major, in an allocation of its own with
 * TL_GUARD_FLOATS canaries on each side. data points past the front guard. */
typedef struct tl_matrix {
    int    rows;
    int    cols;
    float *data;        /* rows*cols floats, owned; base - TL_GUARD_FLOATS is the allocation */
    float *base;        /* the allocation, for free()                                       */
    char   name[16];    /* "M", "N", "P": used in every message                             */
} tl_matrix;

int    tl_matrix_alloc(tl_matrix *m, const char *name, int rows, int cols);
/* the same, the elements left as the allocator gave them: for a reader that writes every one
 * (matfile.c: a 4096^2 matrix's poison was a 64 MiB pass the file's data then overwrote) */
int    tl_matrix_alloc_unfilled(tl_matrix *m, const char *name, int rows, int cols);
void   tl_matrix_free(tl_matrix *m);
size_t tl_matrix_count(const tl_matrix *m);
/* Seeded fill, values in [-1, 1]. stream keeps M and N of one case independent. Refuses
 * (and redraws) a constant or, for square matrices, a symmetric result. */
void   tl_matrix_fill_random(tl_matrix *m, uint64_t seed, uint64_t stream);
void   tl_matrix_round_bf16(tl_matrix *m);   /* to the BF16 grid (lab 08's inputs) */
void   tl_matrix_poison(tl_matrix *m);          /* every element NaN                    */
/* 0 when both guard zones are intact; otherwise the number of overwritten canaries, and
 * which side in *where ("before" or "after"). */
int    tl_matrix_guards_broken(const tl_matrix *m, const char **where);

/* -------------------------------------------------------------- matfile.c */
/* The binary matrix file (CONTRACTS.md section 3). Errors go into err (a full sentence
 * naming the file, the problem and the fix); the functions return 0 or -1. */
enum { TL_MAT_F32 = 1, TL_MAT_F64 = 2 };
enum { TL_MAT_HEADER_BYTES = 32 };

typedef struct tl_mat_header {
    uint32_t version;
    uint32_t type;
    uint64_t rows;
    uint64_t cols;
} tl_mat_header;

int  tl_matfile_write(const char *path, const tl_matrix *m, char *err, size_t errlen);
/* allow_nonfinite = 0 refuses NaN and Inf in the payload. */
int  tl_matfile_read(const char *path, tl_matrix *m, int allow_nonfinite, char *err, size_t errlen);
/* The same on an open stream (the grader's pipes); what names the stream in messages. */
int  tl_matfile_fwrite(FILE *f, const tl_matrix *m, const char *what, char *err, size_t errlen);
int  tl_matfile_fread(FILE *f, tl_matrix *m, int allow_nonfinite, const char *what,
                      char *err, size_t errlen);
/* Header encode/decode, exposed for tests. */
void tl_mat_header_encode(unsigned char out[TL_MAT_HEADER_BYTES], const tl_mat_header *h);
int  tl_mat_header_decode(const unsigned char in[TL_MAT_HEADER_BYTES], tl_mat_header *h,
                          const char *what, char *err, size_t errlen);

/* ------------------------------------------------------------ reference.c */
/* P = M (m x k) * N (k x n) in double, and A = |M| |N|, the scale of each element's
 * rounding error. ref and absref hold m*n doubles. */
void tl_reference_gemm(const float *M, const float *N, double *ref, double *absref,
                       int m, int k, int n);

/* ------------------------------------ reference_gpu.cu (reference_gpu_none.c) */
/* The same product on the GPU, the same bits (each element sums its terms in order; a float x
 * float product is exact in double). For the grader's own process only (libtlrefgpu), never a
 * student's program. 0 done; -1 not done (a build without CUDA, no usable device, too little
 * memory, any CUDA error: why says), and the caller computes it with tl_reference_gemm. It
 * releases this process's context before returning. Worth it from TL_REF_GPU_WORK on. */
#define TL_REF_GPU_WORK 1e9   /* m*k*n from which the GPU pays for its start (~0.2 s, once per run): 1024^3 up */
int  tl_reference_gemm_gpu(const float *M, const float *N, double *ref, double *absref,
                           int m, int k, int n, char *why, size_t whylen);
/* hold(1): keep this process's context open from one call to the next (several references made
 * in one go); hold(0): release it now. Nothing in a build without CUDA. */
void tl_reference_gpu_hold(int on);

/* ---------------------------------------------------------------- check.c */
typedef enum tl_pattern {
    TL_PAT_NONE = 0,        /* correct                                                   */
    TL_PAT_ALL,             /* (nearly) everything wrong                                 */
    TL_PAT_EDGE_TILES,      /* only the last tile row and/or column: boundary handling   */
    TL_PAT_UNWRITTEN,       /* NaN left from the poison: elements never written          */
    TL_PAT_UNWRITTEN_EDGE,  /* unwritten elements only in the edge tiles: grid too small */
    TL_PAT_TRANSPOSED,      /* P matches the transpose of the product, or M,N swapped    */
    TL_PAT_MISSING_TERM,    /* every dot product lacks its first or last term            */
    TL_PAT_ACCUMULATED,     /* each element adds the previous one: accumulator not reset */
    TL_PAT_PARTIAL_DROPPED, /* the last partial tile/block left out of a loop            */
    TL_PAT_ROWS,            /* whole rows wrong                                          */
    TL_PAT_COLS,            /* whole columns wrong                                       */
    TL_PAT_SCATTERED,       /* a few elements here and there: a race or rounding         */
    TL_PAT_NONFINITE,       /* Inf or NaN values computed                                */
    TL_PAT_GUARD,           /* a write outside the matrix                                */
    TL_PAT_RACE,            /* repeated runs on the same inputs disagree: a data race    */
    TL_PAT_GRID_SWAPPED,    /* only what a grid with x and y exchanged misses is unwritten */
    TL_PAT_ROW_STRIDE,      /* P stored with a row stride other than n (k or m)          */
    TL_PAT_WRONG_DIM,       /* M or N indexed with the wrong dimension as its row length */
    TL_PAT_WRONG_OPERAND,   /* P = M*M or N*N: one operand read where the other belongs     */
    TL_PAT_PHASES,          /* the phase loop counted from n or m, not k: terms missing     */
    TL_PAT_MISPLACED,       /* the right values, stored at other elements' places           */
    TL_PAT_PRECISION,       /* most elements off by a few BF16 ulps: summed or stored in BF16 */
    TL_PAT_PHASE_SHORT,     /* the phase loop one short: the last phase's terms missing     */
    TL_PAT_PHASE_RESET,     /* the sum reset every phase: only the last phase's terms kept  */
    TL_PAT_OUTSIDE_TERMS,   /* out-of-range tile entries not 0: terms from outside M or N   */
    TL_PAT_GRID_COVERS,     /* the grid reaches the wrong rows or columns (which, and why)  */
    TL_PAT_PREFETCH_PHASE   /* double buffering: each phase computed from another phase's tiles */
} tl_pattern;

typedef struct tl_check_report {
    int     m, n, k, tile;
    long    wrong;            /* elements outside their bound (NaN/Inf counted)          */
    long    nonfinite;        /* of which NaN or Inf                                     */
    long    unwritten;        /* of which still the poison pattern                       */
    int     worst_row, worst_col;
    double  worst_value, worst_expected, worst_bound, worst_ratio;  /* ratio = |err|/bound */
    int     rows_wrong, cols_wrong, tiles_wrong, tiles_total;
    char    rows_desc[96], cols_desc[96], tiles_desc[96];  /* "96-99, 120" (first few ranges) */
    int     full_rows, full_cols;     /* rows (cols) where every element is wrong          */
    int     edge_only;                /* every wrong element lies in the last tile row/col */
    char    detail[400];              /* the diagnosis behind the pattern, one sentence    */
    int     guard_broken;             /* canaries overwritten (set by the caller)          */
    const char *guard_where;
    tl_pattern pattern;
} tl_check_report;

/* Compares got (m x n floats) with ref using the per-element bound; tile names tiles in
 * the report (0: none). Returns 0 if all elements pass, 1 otherwise. M and N (may be NULL)
 * let the checker recognise a transposed result. */
int  tl_check(const float *got, const double *ref, const double *absref, int m, int n, int k,
              int tile, const float *M, const float *N, tl_check_report *rep);
double tl_check_bound(double absref, int k);
/* One line: "ok" or the short reason (the pattern's name and the count). */
void tl_check_reason(const tl_check_report *rep, char *buf, size_t len);
/* The full teaching report, several lines, each starting with indent. */
void tl_check_explain(const tl_check_report *rep, FILE *out, const char *indent);
const char *tl_pattern_name(tl_pattern p);
const char *tl_pattern_hint(tl_pattern p);
/* The pattern as a verdict's identifier ("swapped-indices"; CONTRACTS.md section 10), and back
 * (-1 unknown). A generic pattern (all wrong, scattered errors, whole rows or columns, unwritten
 * elements) says less than a recognised one: headlines prefer the others. */
const char *tl_pattern_slug(tl_pattern p);
int  tl_pattern_from_slug(const char *slug);
int  tl_pattern_generic(tl_pattern p);
/* The report as a verdict (kind checker, matrix P, the worst element's row and column, the
 * counts, the diagnosis as detail); a correct one gives kind TL_V_NONE. */
struct tl_verdict;
void tl_check_verdict(const tl_check_report *rep, struct tl_verdict *v);
/* Tests only: on, tl_check_reason and tl_check_explain word everything differently (the verdict
 * stays the same), so a test proves that no consumer reads the checker's printed words. */
void tl_check_reword_for_tests(int on);

/* --------------------------------------------------------------- timing.c */
typedef struct tl_stats {
    int    reps;
    double median_ms, min_ms, max_ms;
} tl_stats;

double tl_now_ms(void);                              /* CLOCK_MONOTONIC                     */
void   tl_stats_from(tl_stats *s, double *ms, int n); /* sorts ms in place                 */
double tl_gflops(int m, int k, int n, double ms);

/* ------------------------------------------------------------------ cli.c */
typedef struct tl_sizes {
    int count;
    int m[64], k[64], n[64];
} tl_sizes;

/* "64,100,1000" (square) or "64x32x16" (m x k x n) items. 0 ok, -1 with err set. */
int  tl_parse_sizes(const char *s, tl_sizes *out, char *err, size_t errlen);
int  tl_parse_int(const char *s, long lo, long hi, long *out);
int  tl_parse_u64(const char *s, uint64_t *out);

/* A program's options as a table (tl-grade's: grader/options.c): getopt_long's entries, the help
 * and the one-line option errors are all made from it, so no program parses its own usage text.
 * Designated initialisers; an entry with a NULL name ends the table. */
typedef struct tl_cli_opt {
    const char *name;        /* the long name, without "--"                                        */
    char        short_name;  /* its one-letter form ('h' for -h), 0 none                            */
    int         has_arg;     /* getopt.h's no_argument, required_argument, optional_argument        */
    int         val;         /* what getopt_long returns for it                                     */
    const char *arg;         /* its value's syntax: "N|auto"; glued to the name when it starts with
                              * '[' ("[=NAMES]"); NULL for none                                     */
    const char *brief;       /* what it is, one line without a full stop: option errors quote it    */
    const char *help;        /* its paragraph in the help (lines after the first are indented by the
                              * help's printer); NULL: not in the help (a job's own, or described in
                              * another option's paragraph)                                          */
} tl_cli_opt;

struct option;
/* The getopt_long entries of table t into out (at most max - 1, then the zero entry); the count. */
int  tl_cli_longopts(const tl_cli_opt *t, struct option *out, int max);
/* getopt_long's optstring for t's one-letter forms, after prefix ("+:"): "+:h". */
void tl_cli_optstring(const tl_cli_opt *t, const char *prefix, char *buf, size_t len);
/* The entry getopt_long returns val for (for ':', optopt holds the long option's val); NULL none. */
const tl_cli_opt *tl_cli_by_val(const tl_cli_opt *t, int val);
/* "--jobs N|auto (submissions built and graded at once)": what an option error says of o. */
void tl_cli_describe(const tl_cli_opt *o, char *buf, size_t len);
/* Every entry of t that has a help paragraph, as "  --jobs N|auto     paragraph..." (the name and
 * syntax in 17 columns, or two spaces after a longer one; the paragraph's further lines at 20). */
void tl_cli_print_help(const tl_cli_opt *t, FILE *out);
/* The long option nearest to the unknown one as written (WRITTEN: "--emulat", "--jbos=3"): at most 2
 * letters added, dropped or changed, among longopts' names and extra's (a comma-separated list, e.g.
 * kit check's own options; NULL none). NULL when none is that near. The one "did you mean" of the
 * kit: tl-grade, the lab programs (drivercli.c) and tl-lab's check of kit check's options use it. */
const char *tl_cli_nearest(const char *written, const struct option *longopts, const char *extra);
/* The one line for an option getopt_long refused (c: ':' its value is missing, optopt the entry's val;
 * '?' unknown): "--jobs needs a value: --jobs N|auto (...)", "unknown option '--jbos'; did you mean
 * --jobs?" (extra: more names for the nearest, as tl_cli_nearest), "unknown option '-x'". */
void tl_cli_refusal(const tl_cli_opt *t, const struct option *longopts, int c, const char *written, int optopt,
                    const char *extra, char *msg, size_t len);
/* The options of every lab program built on the driver, as a table, and what they ask for. */
extern const tl_cli_opt tl_lab_options[];
typedef struct tl_lab_opts {
    tl_sizes    sizes;
    int         have_sizes;
    int         emu_dropped;    /* default sizes left out of an emulated run (too slow)     */
    int         repeat_given;
    char        variants[512];
    uint64_t    seed;
    int         reps, warmup;
    const char *records;
    int         no_time, serve, quiet;
    int         repeat;         /* checked runs per GPU case                               */
    int         exact_alloc;
    double      time_limit;     /* CPU seconds for one case's checked run(s) (0 none)         */
    double      public_work;    /* the largest public case's m*k*n: the limit grows past it   */
    const char *lab_id;
} tl_lab_opts;
/* argv (argv[0] the program) into o as the lab program reads it (drivercli.c; tl-lab args for kit
 * check, before the program is built): the table's options, each value judged; defaults from the lab
 * table's entry. 0 ok (*help: --help asked, the rest not read), or -1 with the one-line usage error in
 * msg. extra: more names for an unknown option's nearest (TL_KIT_OPTIONS), NULL none. The defaults of
 * a run (sizes from the table, the emulated build's limits) are the program's. */
int  tl_lab_parse_options(const tl_lab_info *info, int argc, char **argv, tl_lab_opts *o, int *help,
                          const char *extra, char *msg, size_t len);

/* ---------------------------------------------------------------- device.cu / device_none.c */
typedef struct tl_device_info {
    int    present;           /* 1: a usable CUDA device; 0: see why                       */
    char   why[160];          /* when not present: the reason and the code                */
    char   name[256];
    int    major, minor;
    int    sm_count;
    int    sm_clock_mhz, mem_clock_mhz, mem_bus_bits;
    long   l2_bytes;
    size_t global_bytes;
    int    max_threads_per_block, max_threads_per_sm, max_blocks_per_sm, warp_size;
    size_t smem_per_block, smem_per_block_optin, smem_per_sm;
    int    regs_per_block, regs_per_sm;
    int    max_block_dim[3], max_grid_dim[3];
    int    driver_version, runtime_version;
    int    emulated;          /* 1 when this is the kit's CPU emulation                    */
} tl_device_info;

int  tl_have_cuda_build(void);                /* 1 if this binary was built with CUDA     */
int  tl_device_query(tl_device_info *info);   /* 0 ok (present), -1 no usable device     */
void tl_device_print(const tl_device_info *info, FILE *out);

/* A GPU case: device buffers, each its own cudaMalloc; P is followed by a guard zone. */
typedef struct tl_gpu_case {
    float *d_M, *d_N, *d_P;
    int    m, k, n;
    void  *priv;
} tl_gpu_case;

/* A launcher: starts the kernel(s) for one product, returns a cudaError_t as int. */
typedef int (*tl_launch_fn)(const float *d_M, const float *d_N, float *d_P, int m, int k, int n,
                            const void *ctx);

/* By default d_M and d_N are each followed by TL_DEVICE_GUARD_FLOATS NaNs (TL_INPUT_TAIL_BITS),
 * so a load without its bounds check that runs past the end of M or N poisons P (NaN * 0 is
 * NaN) and the checker sees it; and d_P is followed by a guard zone large enough to hold every
 * stray store of a TL_MAX_TILE-wide block, so an unguarded store is reported, never lost in
 * someone else's memory. tl_gpu_set_exact_alloc(1) allocates M, N and P exactly instead, for
 * compute-sanitizer memcheck, which then sees every access past their ends. */
void tl_gpu_set_exact_alloc(int on);
int  tl_gpu_case_alloc(tl_gpu_case *c, int m, int k, int n, char *err, size_t errlen);
void tl_gpu_case_free(tl_gpu_case *c);
int  tl_gpu_case_upload(tl_gpu_case *c, const tl_matrix *M, const tl_matrix *N, char *err, size_t errlen);
/* Poisons d_P (NaN) and its guard, launches, synchronises, downloads into P, checks the guard.
 * 0 ok; -1 on a CUDA error (err says which); 1 when the guard after P was written. */
int  tl_gpu_case_run(tl_gpu_case *c, tl_launch_fn fn, const void *ctx, tl_matrix *P,
                     char *err, size_t errlen);
/* Times fn with CUDA events: warmup runs, then reps runs, L2 flushed before each when the
 * inputs would fit in it. Every timed run must do the whole work (issue 24): before each, outside
 * the timed interval, P is poisoned and M multiplied by 1 or 2 (repcheck.h); after each, P is
 * downloaded and checked against checked (the checked run's P, already compared with the
 * reference) times that factor. 0 ok, -1 on a CUDA error, 2 when a timed run skipped work (err
 * says which run and what; the case fails with pattern "timed-run-skipped-work"). */
int  tl_gpu_case_time(tl_gpu_case *c, tl_launch_fn fn, const void *ctx, int warmup, int reps,
                      const tl_matrix *checked, tl_stats *st, int *l2_flushed, char *err, size_t errlen);
/* marker.cu: the kit's empty kernel that the --serve loop launches, with seq blocks, at the start of
 * its seq-th GPU request (1, 2, ...): the delimiter by which the grader splits one profiled session's
 * ncu rows per request (grader/ncu.c, tg_ncu_split). A launch error is cleared. No-op without CUDA. */
void tl_gpu_mark_request(int seq);

/* -------------------------------------------------------------- records.c */
/* The records format, its writer and its reader: records.h (included above). */

/* --------------------------------------------------------------- driver.c */
/* One variant as the driver runs it: the lab table's facts (labtable.h, pointed to, never copied)
 * with lab.c's code. */
typedef void (*tl_cpu_fn)(const float *M, const float *N, float *P, int m, int k, int n,
                          const void *ctx);

typedef struct tl_variant {
    const tl_lab_variant *f;    /* the table's facts: name, what, on_gpu, tile, limits      */
    tl_cpu_fn    cpu;           /* CPU variants (f->on_gpu 0)                              */
    tl_launch_fn gpu;           /* GPU variants                                            */
    const void  *ctx;           /* handed to the function                                  */
} tl_variant;

/* A lab program as the driver runs it (tl_lab_run fills it from the table). */
typedef struct tl_lab {
    const char       *id;         /* "01"                                                 */
    const char       *name;       /* "01-cpu-baseline"                                    */
    const char       *title;
    const tl_variant *variants;
    int               nvariants;
    const char       *default_sizes;  /* the public cases                                 */
    void (*preamble)(FILE *out);      /* printed before the table (device facts), or NULL */
    int               repeat;     /* checked runs per GPU case (0: 1); runs that disagree bit
                                     for bit expose a race (a missing __syncthreads)       */
    int               inputs_bf16; /* 1: inputs on the BF16 grid (the lab table's field)   */
} tl_lab;

/* What a lab's lab.c supplies for one variant: code only; every fact is in the lab table. */
typedef struct tl_lab_code {
    const char  *variant;       /* a variant of the lab's table entry, or its yardstick   */
    tl_cpu_fn    cpu;           /* CPU variants                                           */
    tl_launch_fn gpu;           /* GPU variants                                           */
    const void  *ctx;           /* handed to the function                                 */
} tl_lab_code;

/* A GPU variant whose code is the lecture's rectangular launcher alone, launch_X(float *M, float *N,
 * float *P, int m, int k, int n): in lab.c, `static const tl_rect_launcher f_x = launch_x;` and
 * {"x", .gpu = tl_run_rect, .ctx = &f_x} (the harness hands out const inputs; the lecture's
 * launchers take float *). */
typedef int (*tl_rect_launcher)(float *, float *, float *, int, int, int);
int tl_run_rect(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx);

/* The lab program of table entry id (a lab.c's whole main): every table variant needs code, and
 * code for a variant the table lacks is refused (exit 2, naming the variant and the fix). */
int tl_lab_run(const char *id, const tl_lab_code *code, int ncode, void (*preamble)(FILE *out),
               int argc, char **argv);
/* The whole lab program: CLI, cases, checks, timing, table, records, --serve. */
int tl_lab_main(const tl_lab *lab, int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
