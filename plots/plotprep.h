/* plotprep.h: what the parts of tl-plotprep share: the dataset read from the records (through
 * common/records.h), its ceilings, and small output helpers.
 *   plotprep.c     command line, checks across files, the size/boundary/sweep data, meta.gp
 *   prep_ladder.c  the kernel ladder: its table, the traffic per level, the hierarchical roofline,
 *                  the mission chart's data
 *   prep_tex.c     the slides' figures as LaTeX macros (measured.tex)
 */
#ifndef TL_PLOTPREP_H
#define TL_PLOTPREP_H

#include <stdio.h>

#include "records.h"

/* The lecture's model GPU (lecture 07 and PASI lecture 3): 1000 GFLOP/s, 150 GB/s, 4 bytes per FLOP. */
#define MODEL_PEAK_GFLOPS 1000.0
#define MODEL_BW_GBPS 150.0
#define BYTES_PER_FLOP_NAIVE 4.0 /* one 4-byte operand per FLOP: 8 B per multiply-add pair */
/* Datasheet tensor-core peaks, dense, of the 132-SM Hopper parts the kit ships data for (H100 SXM and
 * H200 share the GH100 die and its clocks): NVIDIA's H100/H200 datasheets, TF32 494.7 and BF16 989.4
 * TFLOP/s (their "with sparsity" figures are twice these). Printed beside the measured tensor-core
 * roofs, for sm_90 with 132 SMs only (the charts draw the measured ones). */
#define TC_TF32_GFLOPS 494700.0
#define TC_BF16_GFLOPS 989400.0

/* The ladder's rungs in the order they are shown (solutions/speed/speed.c runs them so). */
#define TL_LADDER_MAX 128
extern const char *ladder_order[TL_LADDER_MAX];   /* from the lab table (tl_ladder) */
extern size_t n_ladder;

/* The memory levels of the hierarchical roofline, outermost first. */
enum { LEVEL_DRAM, LEVEL_L2, LEVEL_L1, LEVEL_SHARED, N_LEVELS };
extern const char *const level_name[N_LEVELS];  /* "DRAM", "L2", "L1", "shared" */

/* A PASS row with the file it came from. */
typedef struct row_ref {
    const tl_rec_row *row;
    const char *path;
} row_ref;

typedef struct dataset {
    tl_rec_file *files;
    size_t nfiles;
    row_ref *pass; /* every PASS row of every file */
    size_t npass;
    size_t nfail, nskip, ngemm_rows;
    double bw_gbps, peak_gflops;    /* DRAM copy bandwidth and FP32 FMA peak (required) */
    double level_gbps[N_LEVELS];    /* measured per level; NaN when the records lack one */
    /* The hardware's own roofs from the records' metadata (NaN where it has none): DRAM = 2 x memory
     * clock x bus width (DDR), L1 and shared = SMs x 128 B per clock x SM clock (one 128-byte
     * wavefront per SM per clock), L2 none (no published figure); FP32 = SMs x 256 FLOP per clock. */
    double hw_gbps[N_LEVELS], hw_peak_gflops;
    /* The tensor cores' measured roofs (TF32, BF16): the fastest PASS ceiling row of that format
     * (tc_mma_*, tc_wgmma_*: lab08-bench --peaks, compute-only kernels), NaN without one; the
     * instruction that reached it and the day it was measured; and the datasheet's figures. */
    double tc_tf32, tc_bf16;
    const char *tc_tf32_by, *tc_bf16_by; /* the ceiling row's variant, "" without one */
    char tc_day[16];
    double tc_tf32_sheet, tc_bf16_sheet;
    double slack;                   /* --slack: fraction a point may exceed a measured roof (timing noise) */
} dataset;

/* The one number formatter of the kit's charts, slides and READMEs: NaN -> "n/a"; below 10 two
 * significant digits; below 100 one decimal; else rounded to a whole number with thousands
 * separated by commas (2804.7 -> "2,805"). */
void fmt_num(char *buf, size_t len, double x);
/* A percentage with one decimal: 85.43 -> "85.4". */
void fmt_pct(char *buf, size_t len, double x);

int is_square(const tl_rec_row *r);
const row_ref *find_pass(const dataset *d, const char *kind, const char *variant);
const tl_rec_row *gemm_at(const dataset *d, const char *variant, long n);
/* Best GFLOP/s of VARIANT over its PASS gemm rows (NAN if none); *largest: its largest square size. */
double gemm_best(const dataset *d, const char *variant, long *largest);
/* The PASS traffic row of VARIANT at n (square), or NULL. */
const tl_rec_row *traffic_at(const dataset *d, const char *variant, long n);
/* The size the traffic was counted at (the largest square size with traffic rows), or -1. */
long traffic_size(const dataset *d);
/* 1 when every traffic row is measured, 0 when any is model, -1 when there is none. */
int traffic_measured(const dataset *d);
/* Bytes of ROW at LEVEL (NaN when empty). */
double level_bytes(const tl_rec_row *traffic, int level);

FILE *open_out(const char *dir, const char *name, char *err, size_t errlen);
int close_out(FILE *fp, const char *dir, const char *name, char *err, size_t errlen);
void put_real(FILE *fp, double v);
void put_gp_string(FILE *fp, const char *s);

/* The units a rung multiplies with: the FP32 units, or the tensor cores fed TF32 or BF16 (by its
 * name, "tf32"/"bf16", or lab 08). Each is compared with cuBLAS at its own precision. */
enum { PREC_FP32, PREC_TF32, PREC_BF16, N_PREC };
extern const char *const prec_name[N_PREC];       /* "FP32", "TF32", "BF16" */
extern const char *const prec_yardstick[N_PREC];  /* "cublas", "cublas_tf32", "cublas_bf16" */
int rung_precision(const char *variant, const char *lab);
/* A lab's own cuBLAS SGEMM row (variant cublas of lab 07 or 08): timed in the lab's device run next to
 * its kernels; the yardstick of that run's FP32 rungs, not a series or a rung of its own. */
int run_yardstick(const tl_rec_row *r);
/* The cuBLAS row G is compared with: cuBLAS at G's precision and size, from G's own records file
 * when it has one (the same run and process), else the dataset's; NULL if none. */
const tl_rec_row *yardstick_of(const dataset *d, const tl_rec_row *g);
/* The peak G is shown against: the measured FP32 peak, or the tensor cores' measured peak of its
 * input format (NaN where the records have none). */
double peak_of(const dataset *d, const tl_rec_row *g);

/* prep_ladder.c */
/* The rungs shown at size N, grouped by precision, each group ending with its cuBLAS: the FP32 rungs
 * (the kit's ladder, lab 07), cuBLAS SGEMM; TF32 rungs, cuBLAS TF32; BF16 rungs, cuBLAS BF16. */
size_t ladder_rungs(const dataset *d, long n, const char **out, size_t max);
int print_ladder_table(const dataset *d, FILE *to);
int write_ladder(const dataset *d, const char *dir, size_t *nrows, char *err, size_t errlen);
int write_hroofline(const dataset *d, const char *dir, size_t *npoints, char *err, size_t errlen);
int write_mission(const dataset *d, const char *dir, char *err, size_t errlen);
/* Every point of the hierarchical roofline against its roof: prints each violation, returns their count. */
int check_roofs(const dataset *d, FILE *to);
void roof_note(const dataset *d, char *buf, size_t len);

/* prep_deck.c: the deck's extra data (n-body, lab 06, hardware roofs, the lab READMEs' tables) */
void set_hardware_roofs(dataset *d);
int write_deck_data(const dataset *d, const char *dir, FILE *meta, char *err, size_t errlen);
int print_readme_table(const dataset *d, const char *lab, FILE *to, char *err, size_t errlen);
/* Extra rungs after cuBLAS: gemm rows of labs 07/08 and cublas_tf32/cublas_bf16 at size N, in records order. */
size_t extra_rungs(const dataset *d, long n, const char **out, size_t max);

/* prep_tex.c */
int write_tex(const dataset *d, const char *path, char *err, size_t errlen);

#endif
