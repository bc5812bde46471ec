/* ncu.h: the GPU's own counters of one profiled run, read by Nsight Compute's CLI (ncu) in another
 * process than the student's, and the lab's work rule applied to them (issue 24 item 4). This part
 * knows nothing of a grading run: it parses what ncu wrote (its raw page as CSV) and decides; the
 * run itself is counters.c. Everything here is testable without a GPU (tests/test_ncu.c, with CSV
 * that ncu wrote on an H100: tests/ncu/). */
#ifndef TILELAB_GRADER_NCU_H
#define TILELAB_GRADER_NCU_H

#include <stddef.h>

#include "labtable.h"

/* The documented margins (grader/README.md "The work, read from the GPU's counters"). */
#define TG_NCU_FMA_MARGIN   0.9   /* multiply-adds the GPU executed: at least this x m k n          */
#define TG_NCU_VEC_WIDTH    4     /* one thread's load or store instruction moves at most 128 bits:
                                     4 floats; counts the rule needs "at least" of are taken x 4    */
#define TG_NCU_TIME_MARGIN  0.5   /* a reported median below this x the kernels' own time: forged   */
#define TG_NCU_REVIEW_RATIO 1.3   /* a median above this x the profiled kernels' time: for review (the
                                     graded runs may run other kernels than the profiled one)        */

/* What is read of each kernel, and the metric it is read from. */
enum { TG_NCU_TIME, TG_NCU_FFMA, TG_NCU_DFMA, TG_NCU_FMUL, TG_NCU_FADD, TG_NCU_GLD, TG_NCU_GST, TG_NCU_SLD,
       TG_NCU_SST, TG_NCU_LDGSTS, TG_NCU_GLD_BYTES,
       /* the bytes a warp's global loads asked for (smsp__sass_data_bytes_mem_global_op_*: idle lanes
        * ask for nothing, lanes reading one address ask once; optional columns, read where ncu wrote
        * them): the fewest floats the loads moved, for the "at most" rule (tg_ncu_judge) */
       TG_NCU_GLD_DATA, TG_NCU_LDGSTS_DATA,
       /* global atomics (ATOM, ATOMG) and reductions (REDG): a store to P each (an honest kernel may
        * store P with atomicExch or accumulate a split-k with atomicAdd); optional columns */
       TG_NCU_GATOM, TG_NCU_GRED, TG_NCU_NQ };
#define TG_NCU_ELEM_BYTES 4       /* the rule's unit of the data-bytes counts: one float           */

/* The metrics ncu is asked for, comma-separated (every TG_NCU_* quantity's). */
const char *tg_ncu_metrics(void);
/* The metric a quantity is read from, and the factor from its value to thread instructions
 * (warp-level instruction counts x 32: exact where every warp is full; the graded size is). */
const char *tg_ncu_metric_name(int q);

/* The kit's own kernels (the L2 flush, the timed repetitions' scaling and check): their exact
 * names as ncu prints them (demangled, with parameters). A student file cannot define a function
 * of the same name and parameters (a duplicate symbol, refused by the object gate too). */
int tg_ncu_kit_kernel(const char *name);

/* The request marker (common/marker.cu) as ncu names it: the kit's empty kernel that the --serve
 * loop launches with seq blocks at the start of its seq-th GPU request. Its rows are neither the
 * student's nor counted among the kit's (a session of one request has one: its figures are as before
 * the marker). */
#define TG_NCU_MARKER "tl_request_marker_kernel(int)"
int tg_ncu_marker(const char *name);

/* One profiled session that served nreq requests, split per request by the markers: part[i] (malloc'd,
 * the caller frees) is ncu's table as if request i had been the session's only one (ncu's header and
 * units rows, then the rows after marker i+1 up to the next, markers left out), plen[i] its length.
 * The table must hold exactly nreq markers, numbered 1 .. nreq in order (Grid Size "(i, 1, 1)"), and
 * no kernel before the first; else -1 with why set (and no part), and the grader profiles each
 * variant in a session of its own. ncu's own lines (==PROF==, ==WARNING==) are not copied. */
int tg_ncu_split(const char *text, size_t len, int nreq, char **part, size_t *plen, char *why, size_t whylen);

/* The student's kernels of one profiled run, summed (the kit's left out). */
typedef struct tg_ncu_counts {
    int    kernels;            /* the student's kernel launches profiled                        */
    int    kit_kernels;        /* the kit's, left out                                           */
    double q[TG_NCU_NQ];       /* each quantity summed over them: time in ns, the rest counts   */
    int    have[TG_NCU_NQ];    /* the column was in ncu's output                                */
    char   names[400];         /* the student's kernels' names, comma-separated (as far as fits) */
} tg_ncu_counts;

/* Parses ncu's raw page (`ncu --csv --page raw --log-file F`): the lines that
 * start with '"' are CSV (a header, a units row, one row per profiled kernel), the others ncu's
 * own (==PROF==, ==WARNING==, ==ERROR==). Units are read from the units row (ncu 2025.3 writes ns,
 * inst and byte with thousands separators; usecond, Kbyte, ... are converted too). Returns 0, or -1 with err naming what is missing (no header, a metric's column). */
int tg_ncu_parse(const char *text, size_t len, tg_ncu_counts *out, char *err, size_t errlen);

/* A profiled session of nreq requests (the whole of what ncu wrote) read into out[0..nreq-1], each
 * request's counts as a session of it alone read them (tg_ncu_split, then tg_ncu_parse of each part,
 * once): 0; or -1 with why set and the grader profiles each variant in a session of its own: ncu's
 * own problem (tg_ncu_problem, its words), a table that does not split ("ncu's table did not split
 * per request: ..."), or a part without its table ("request N's table: ..."). */
int tg_ncu_session_counts(const char *text, size_t len, int nreq, tg_ncu_counts *out, char *why, size_t whylen);

/* ncu's own words in its log or output that mean the counters cannot be read here (the driver's
 * restriction ERR_NVGPUCTRPERM, an unknown metric, no kernel profiled, the target not found):
 * 1 with why set ("not checked here: ..." material), 0 none found. */
int tg_ncu_problem(const char *text, char *why, size_t whylen);

/* The lab's work rule (tl_work_judge_why, the same rule the emulated count is judged by) on the
 * counters of one launcher call at m x k x n for a variant of tile width `tile`, and the
 * multiply-adds the GPU executed (FFMA + DFMA + paired FMUL/FADD >= TG_NCU_FMA_MARGIN m k n).
 * Counts the rule needs "at most" of are the thread instructions (one instruction per element or
 * fewer: a lower bound); those it needs "at least" of (stores to P, shared stores for the staging)
 * x TG_NCU_VEC_WIDTH (an upper bound). Returns 0 as the lab asks, 1 not (headline and *pattern
 * say why); figures gets the counts per multiply-add either way. */
int tg_ncu_judge(const tl_lab_info *lab, int tile, int m, int k, int n, const tg_ncu_counts *c, char *headline,
                 size_t hlen, char *figures, size_t flen, const char **pattern);

/* The timed median the student's process reported against the GPU time its kernels took in the
 * profiled run of the same variant and size (one launcher call, ncu's gpu__time_duration summed):
 * 1 forged (reported < TG_NCU_TIME_MARGIN x kernel time; why says so), 0 plausible (why has the
 * figures). kernel_ms <= 0: 0, nothing said. */
int tg_ncu_timing(double reported_ms, double kernel_ms, char *why, size_t whylen);

/* 1 when the reported median is above TG_NCU_REVIEW_RATIO x the profiled kernels' time (why says so):
 * evidence for the instructor, never a score (an honest launcher may wait on the host between kernels). */
int tg_ncu_review(double reported_ms, double kernel_ms, char *why, size_t whylen);

#endif
