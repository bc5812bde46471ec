/* plotprep.c: turn records files into gnuplot-ready data for the lecture charts (tl-plotprep).
 *
 *   build:  meson compile -C build tl-plotprep
 *   run:    build/plots/tl-plotprep --out WORKDIR [--tex FILE] RECORDS.csv...   (plots/kit-plots.sh)
 *           build/plots/tl-plotprep --table RECORDS.csv...        the ladder table (./kit bench prints it)
 *           build/plots/tl-plotprep --check-roofs RECORDS.csv...  exit 1 if a point is above its roof
 *
 * Reads every records file strictly (common/records.c), checks that together they hold what the
 * charts need (PASS gemm rows, the DRAM and FMA ceilings, one device), and writes into WORKDIR:
 *   gemm_VARIANT.dat   one per variant with PASS rows: size m k n gflops median_ms min_ms max_ms
 *   boundary_cost.dat  n boundary16 tiled16 boundary32 tiled32 (GFLOP/s, NaN where not measured) "tic label"
 *   rect.dat           the rectangular runs: idx "m x k x n" rect16 rect32 (GFLOP/s)
 *   ladder.dat         the kernel ladder at the traffic size (prep_ladder.c)
 *   hroofline.dat      each kernel at its intensity at each memory level (prep_ladder.c)
 *   mission.dat, served.dat  the mission chart's bars (prep_ladder.c)
 *   sweep.dat          "label" tile regs smem_bytes occ_calc occ_api gflops (lab 05 sweep rows)
 *   meta.gp            gnuplot assignments: device, date, ceilings, bounds, which series have data
 * and with --tex FILE the slides' figures as LaTeX macros (prep_tex.c): the charts and the deck's
 * numbers come from one program reading one set of records.
 * Exit codes: 0 ok, 1 --check-roofs found a point above its roof, 2 bad usage or input.
 */
#include "plotprep.h"
#include "labtable.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


/* Series the charts know, in the order of their legends. */
static const char *const gemm_series[] = {"cpu_ijk", "cpu_ikj", "cpu_blocked", "cpu_blocked64", "naive", "tiled16",
                                          "tiled32", "boundary16", "boundary32", "cublas"};
#define N_GEMM_SERIES (sizeof gemm_series / sizeof gemm_series[0])

/* The ladder's rungs in order, from the lab table (tl_ladder, common/labtable.c): a new lab's
 * variants join the ladder chart by its table entry alone. Filled by ladder_init(). */
const char *ladder_order[TL_LADDER_MAX];
size_t n_ladder;

static void ladder_init(void)
{
    const tl_lab_variant *v[TL_LADDER_MAX];
    int n = tl_ladder(v, NULL, TL_LADDER_MAX);
    for (int i = 0; i < n; ++i)
        ladder_order[i] = v[i]->name;
    n_ladder = (size_t)n;
}
const char *const level_name[N_LEVELS] = {"DRAM", "L2", "L1", "shared"};

static void usage(FILE *to)
{
    fprintf(to,
            "usage: tl-plotprep --out WORKDIR [--tex FILE] RECORDS.csv...\n"
            "       tl-plotprep --table RECORDS.csv...\n"
            "       tl-plotprep --check-roofs [--slack PCT] RECORDS.csv...\n"
            "       tl-plotprep --readme LAB RECORDS.csv...   a lab README's measured table (Markdown)\n"
            "Reads records files (CONTRACTS.md section 4), checks them, and writes gnuplot data files and\n"
            "meta.gp into WORKDIR for the charts in plots/*.gp (--tex: the slides' figures as LaTeX macros);\n"
            "--table prints the kernel ladder; --check-roofs checks that no kernel sits above the measured roof\n"
            "of a memory level by more than --slack percent (default 0) unless the hardware roof drawn above it\n"
            "covers it. Exit 0 ok, 1 a point above its roof, 2 bad usage or input.\n");
}

static int die2(const char *msg)
{
    fprintf(stderr, "tl-plotprep: %s\n", msg);
    return 2;
}

/* ------------------------------------------------------------------------------------------------ */
/* checks across files                                                                               */

int is_square(const tl_rec_row *r) { return r->m == r->k && r->k == r->n; }

const tl_rec_row *traffic_at(const dataset *d, const char *variant, long n)
{
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "traffic") == 0 && strcmp(r->variant, variant) == 0 && is_square(r) && r->n == n)
            return r;
    }
    return NULL;
}

long traffic_size(const dataset *d)
{
    long n = -1;
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "traffic") == 0 && is_square(r) && r->n > n)
            n = r->n;
    }
    return n;
}

int traffic_measured(const dataset *d)
{
    int any = 0, model = 0;
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "traffic") == 0) {
            any = 1;
            model |= strcmp(r->traffic, "measured") != 0;
        }
    }
    return any ? !model : -1;
}

double level_bytes(const tl_rec_row *t, int level)
{
    return level == LEVEL_DRAM ? t->dram_bytes : level == LEVEL_L2 ? t->l2_bytes : level == LEVEL_L1 ? t->l1_bytes
                                                                                  : t->shared_bytes;
}

const char *const prec_name[N_PREC] = {"FP32", "TF32", "BF16"};
const char *const prec_yardstick[N_PREC] = {"cublas", "cublas_tf32", "cublas_bf16"};

int rung_precision(const char *variant, const char *lab)
{
    if (strstr(variant, "tf32"))
        return PREC_TF32;
    if (strstr(variant, "bf16") || (lab && strcmp(lab, "08") == 0 && strcmp(variant, "cublas") != 0))
        return PREC_BF16;
    return PREC_FP32;
}

int run_yardstick(const tl_rec_row *r)
{
    return strcmp(r->variant, "cublas") == 0 && (strcmp(r->lab, "07") == 0 || strcmp(r->lab, "08") == 0);
}

const tl_rec_row *yardstick_of(const dataset *d, const tl_rec_row *g)
{
    const char *want = prec_yardstick[rung_precision(g->variant, g->lab)], *path = NULL;
    for (size_t i = 0; i < d->npass && !path; i++)
        if (d->pass[i].row == g)
            path = d->pass[i].path;
    for (size_t i = 0; path && i < d->npass; i++) { /* the same file: the same run */
        const tl_rec_row *r = d->pass[i].row;
        if (d->pass[i].path == path && strcmp(r->kind, "gemm") == 0 && strcmp(r->variant, want) == 0 &&
            r->m == g->m && r->k == g->k && r->n == g->n)
            return r;
    }
    return is_square(g) ? gemm_at(d, want, g->n) : NULL;
}

double peak_of(const dataset *d, const tl_rec_row *g)
{
    int p = rung_precision(g->variant, g->lab);
    return p == PREC_TF32 ? d->tc_tf32 : p == PREC_BF16 ? d->tc_bf16 : d->peak_gflops;
}

/* Two rows of one configuration; a lab run's own cuBLAS (run_yardstick) is not the bench's cuBLAS. */
static int same_config(const tl_rec_row *a, const tl_rec_row *b)
{
    if ((run_yardstick(a) || run_yardstick(b)) && strcmp(a->lab, b->lab) != 0)
        return 0;
    return strcmp(a->kind, b->kind) == 0 && strcmp(a->variant, b->variant) == 0 && a->m == b->m &&
           a->k == b->k && a->n == b->n && a->tile == b->tile && a->regs == b->regs &&
           a->smem_bytes == b->smem_bytes;
}

const row_ref *find_pass(const dataset *d, const char *kind, const char *variant)
{
    for (size_t i = 0; i < d->npass; i++)
        if (strcmp(d->pass[i].row->kind, kind) == 0 && strcmp(d->pass[i].row->variant, variant) == 0)
            return &d->pass[i];
    return NULL;
}

static void list_files(const dataset *d, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < d->nfiles && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", d->files[i].path);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static int check_dataset(dataset *d, char *err, size_t errlen)
{
    const char *device = tl_rec_meta_get(&d->files[0], "device");
    for (size_t i = 0; i < d->nfiles; i++) {
        const tl_rec_file *f = &d->files[i];
        const char *dev = tl_rec_meta_get(f, "device");
        if (strcmp(dev, device) != 0) {
            snprintf(err, errlen, "%s: device '%s' differs from '%s' in %s; one chart shows one GPU: pass the "
                     "records of one device at a time", f->path, dev, device, d->files[0].path);
            return -1;
        }
        const char *bt = tl_rec_meta_get(f, "build_type");
        if (bt && strcmp(bt, "debug") == 0) {
            snprintf(err, errlen, "%s: build_type is 'debug': nvcc built the kernels with -G (unoptimised), so "
                     "the times say nothing about the hardware; measure again from a build configured with "
                     "-Dbuildtype=debugoptimized or release", f->path);
            return -1;
        }
    }
    for (size_t i = 0; i < d->npass; i++) {
        for (size_t j = 0; j < i; j++) {
            if (same_config(d->pass[i].row, d->pass[j].row)) {
                const tl_rec_row *r = d->pass[i].row;
                snprintf(err, errlen, "%s:%d: %s '%s' (m=%ld k=%ld n=%ld) was already measured at %s:%d; a chart "
                         "shows one figure per configuration: drop one of the rows or pass one of the files",
                         d->pass[i].path, r->line, r->kind, r->variant, r->m, r->k, r->n, d->pass[j].path,
                         d->pass[j].row->line);
                return -1;
            }
        }
    }
    char files[512];
    list_files(d, files, sizeof files);
    size_t ngemm_pass = 0;
    for (size_t i = 0; i < d->npass; i++)
        ngemm_pass += strcmp(d->pass[i].row->kind, "gemm") == 0;
    if (d->ngemm_rows == 0) {
        snprintf(err, errlen, "%s: no 'gemm' rows, so there is nothing to plot; measure the kernels with "
                 "./kit bench (it writes gemm and ceiling rows) and pass that file", files);
        return -1;
    }
    if (ngemm_pass == 0) {
        snprintf(err, errlen, "%s: no 'gemm' row passed its check (all FAIL or SKIP); fix the kernels "
                 "(./kit check NN) and measure again with ./kit bench", files);
        return -1;
    }
    static const char *const ceil_names[] = {"copy_bandwidth", "fma_peak"};
    for (size_t i = 0; i < 2; i++) {
        if (!find_pass(d, "ceiling", ceil_names[i])) {
            snprintf(err, errlen, "%s: no PASS 'ceiling' row '%s'; the charts draw the measured ceilings: run "
                     "tl-ceilings --records FILE on the GPU (./kit bench does) and pass FILE too",
                     files, ceil_names[i]);
            return -1;
        }
    }
    d->bw_gbps = find_pass(d, "ceiling", "copy_bandwidth")->row->gbps;
    d->peak_gflops = find_pass(d, "ceiling", "fma_peak")->row->gflops;
    if (d->bw_gbps <= 0 || d->peak_gflops <= 0) {
        snprintf(err, errlen, "%s: a ceiling is 0 (copy_bandwidth %g GB/s, fma_peak %g GFLOP/s); measure again",
                 files, d->bw_gbps, d->peak_gflops);
        return -1;
    }
    static const char *const level_ceiling[N_LEVELS] = {"copy_bandwidth", "l2_bandwidth", "l1_bandwidth",
                                                        "shared_bandwidth"};
    for (int l = 0; l < N_LEVELS; l++) {
        const row_ref *c = find_pass(d, "ceiling", level_ceiling[l]);
        d->level_gbps[l] = c ? c->row->gbps : NAN;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* output                                                                                            */

static double row_size(const tl_rec_row *r) { return is_square(r) ? (double)r->n : cbrt((double)r->m * r->k * r->n); }

static int cmp_size(const void *a, const void *b)
{
    const tl_rec_row *x = ((const row_ref *)a)->row, *y = ((const row_ref *)b)->row;
    double sx = (double)x->m * x->k * x->n, sy = (double)y->m * y->k * y->n;
    return (sx > sy) - (sx < sy);
}

/* Open WORKDIR/NAME for writing; on failure fill ERR. */
FILE *open_out(const char *dir, const char *name, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    if (!fp)
        snprintf(err, errlen, "cannot write '%.900s': %s; pass a writable --out folder", path, strerror(errno));
    return fp;
}

int close_out(FILE *fp, const char *dir, const char *name, char *err, size_t errlen)
{
    if (ferror(fp) | (fclose(fp) != 0)) {
        snprintf(err, errlen, "error writing '%s/%s' (disk full?)", dir, name);
        return -1;
    }
    return 0;
}

/* The PASS square gemm row of VARIANT at size N, or NULL (a lab run's own cuBLAS is not returned:
 * yardstick_of() finds it for its run's rungs). */
const tl_rec_row *gemm_at(const dataset *d, const char *variant, long n)
{
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "gemm") == 0 && !run_yardstick(r) && strcmp(r->variant, variant) == 0 && is_square(r) && r->n == n)
            return r;
    }
    return NULL;
}

/* Best GFLOP/s of VARIANT over all its PASS gemm rows, NAN if none; *largest gets its largest square size. */
double gemm_best(const dataset *d, const char *variant, long *largest)
{
    double best = NAN;
    long big = -1;
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "gemm") != 0 || strcmp(r->variant, variant) != 0 || run_yardstick(r))
            continue;
        if (isnan(best) || r->gflops > best)
            best = r->gflops;
        if (is_square(r) && r->n > big)
            big = r->n;
    }
    if (largest)
        *largest = big;
    return best;
}

void fmt_num(char *buf, size_t len, double x)
{
    if (isnan(x) || x < 0) {
        snprintf(buf, len, "n/a");
        return;
    }
    if (x < 10) {
        snprintf(buf, len, "%.2g", x);
        return;
    }
    if (x < 100) {
        snprintf(buf, len, "%.1f", x);
        return;
    }
    char digits[40];
    snprintf(digits, sizeof digits, "%.0f", x);
    size_t nd = strlen(digits), o = 0;
    for (size_t i = 0; i < nd && o + 2 < len; i++) {
        if (i > 0 && (nd - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

void fmt_pct(char *buf, size_t len, double x)
{
    if (isnan(x))
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%.1f", x);
}

void put_real(FILE *fp, double v)
{
    if (isnan(v))
        fputs(" NaN", fp);
    else
        fprintf(fp, " %.6g", v);
}

/* A gnuplot double-quoted string: backslash and quote escaped, control characters dropped. */
void put_gp_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fputc('\\', fp);
        if (c >= 0x20)
            fputc(c, fp);
    }
    fputc('"', fp);
}

static int write_gemm_files(const dataset *d, const char *dir, char *err, size_t errlen)
{
    row_ref *sorted = malloc((d->npass + 1) * sizeof *sorted);
    if (!sorted) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(sorted, d->pass, d->npass * sizeof *sorted);
    qsort(sorted, d->npass, sizeof *sorted, cmp_size);
    int rc = 0;
    for (size_t i = 0; i < d->npass && rc == 0; i++) {
        const tl_rec_row *first = sorted[i].row;
        if (strcmp(first->kind, "gemm") != 0 || run_yardstick(first))
            continue;
        int seen = 0; /* written already, under an earlier row of the same variant */
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(sorted[j].row->kind, "gemm") == 0 && strcmp(sorted[j].row->variant, first->variant) == 0 &&
                    !run_yardstick(sorted[j].row);
        if (seen)
            continue;
        char name[96];
        snprintf(name, sizeof name, "gemm_%s.dat", first->variant);
        FILE *fp = open_out(dir, name, err, errlen);
        if (!fp) {
            rc = -1;
            break;
        }
        fprintf(fp, "# %s: PASS gemm rows, smallest first (size = n when square, else cbrt(m*k*n))\n"
                    "# size m k n gflops median_ms min_ms max_ms\n", first->variant);
        for (size_t j = i; j < d->npass; j++) {
            const tl_rec_row *r = sorted[j].row;
            if (strcmp(r->kind, "gemm") != 0 || strcmp(r->variant, first->variant) != 0 || run_yardstick(r))
                continue;
            fprintf(fp, "%.6g %ld %ld %ld", row_size(r), r->m, r->k, r->n);
            put_real(fp, r->gflops);
            put_real(fp, r->median_ms);
            put_real(fp, r->min_ms);
            put_real(fp, r->max_ms);
            fputc('\n', fp);
        }
        rc = close_out(fp, dir, name, err, errlen);
        /* the square sizes that are multiples of 32, alone: a line through them does not zigzag
         * through the ragged sizes (1000, 2000, 3000), which the chart marks apart */
        snprintf(name, sizeof name, "gemm32_%s.dat", first->variant);
        if (rc == 0 && (fp = open_out(dir, name, err, errlen)) == NULL)
            rc = -1;
        for (size_t j = i; rc == 0 && j < d->npass; j++) {
            const tl_rec_row *r = sorted[j].row;
            if (strcmp(r->kind, "gemm") || strcmp(r->variant, first->variant) || !is_square(r) || r->n % 32 ||
                run_yardstick(r))
                continue;
            fprintf(fp, "%ld %ld %ld %ld", r->n, r->m, r->k, r->n);
            put_real(fp, r->gflops);
            fputc('\n', fp);
        }
        if (rc == 0)
            rc = close_out(fp, dir, name, err, errlen);
    }
    free(sorted);
    return rc;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Sizes where a boundary kernel was measured, next to the multiple-only tiled kernel where it exists. */
static int write_boundary(const dataset *d, const char *dir, size_t *nsizes, double *top, char *err, size_t errlen)
{
    long *sizes = malloc((d->npass + 1) * sizeof *sizes);
    if (!sizes) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "gemm") != 0 || !is_square(r) ||
            (strcmp(r->variant, "boundary16") != 0 && strcmp(r->variant, "boundary32") != 0))
            continue;
        int dup = 0;
        for (size_t j = 0; j < n; j++)
            dup |= sizes[j] == r->n;
        if (!dup)
            sizes[n++] = r->n;
    }
    qsort(sizes, n, sizeof *sizes, cmp_long);
    FILE *fp = open_out(dir, "boundary_cost.dat", err, errlen);
    if (!fp) {
        free(sizes);
        return -1;
    }
    fputs("# GFLOP/s at each size a boundary kernel was measured; NaN = not measured (the tiled kernels run\n"
          "# only at multiples of their tile); the tic label gives the waves of blocks for tile 16 | 32:\n"
          "# ceil(n/T)^2 blocks over sm_count x (2048 / T^2) resident blocks, rounded up\n"
          "# n boundary16 tiled16 boundary32 tiled32 \"tic\"\n", fp);
    const char *smc = tl_rec_meta_get(&d->files[0], "sm_count");
    long sms = -1;
    if (!smc || tl_rec_parse_count(smc, &sms) != 0 || sms <= 0)
        sms = -1;
    static const char *const cols[] = {"boundary16", "tiled16", "boundary32", "tiled32"};
    for (size_t i = 0; i < n; i++) {
        fprintf(fp, "%ld", sizes[i]);
        for (size_t c = 0; c < 4; c++) {
            const tl_rec_row *r = gemm_at(d, cols[c], sizes[i]);
            put_real(fp, r ? r->gflops : NAN);
            if (r && r->gflops > *top)
                *top = r->gflops;
        }
        if (sms > 0) {
            long b16 = (sizes[i] + 15) / 16, b32 = (sizes[i] + 31) / 32;
            fprintf(fp, " \"%ld\\n%ld|%ld\"", sizes[i], (b16 * b16 + sms * 8 - 1) / (sms * 8),
                    (b32 * b32 + sms * 2 - 1) / (sms * 2));
        } else {
            fprintf(fp, " \"%ld\"", sizes[i]);
        }
        fputc('\n', fp);
    }
    free(sizes);
    *nsizes = n;
    return close_out(fp, dir, "boundary_cost.dat", err, errlen);
}

/* The rectangular runs of lab 04 (rect16, rect32), one bar pair per shape. */
static int write_rect(const dataset *d, const char *dir, size_t *nshapes, double *top, char *err, size_t errlen)
{
    FILE *fp = open_out(dir, "rect.dat", err, errlen);
    if (!fp)
        return -1;
    fputs("# lab 04 rectangular runs, GFLOP/s; NaN = not measured\n# idx \"m x k x n\" rect16 rect32\n", fp);
    size_t count = 0;
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "gemm") != 0 || (strcmp(r->variant, "rect16") && strcmp(r->variant, "rect32")))
            continue;
        int seen = 0;
        for (size_t j = 0; j < i; j++) {
            const tl_rec_row *q = d->pass[j].row;
            seen |= strcmp(q->kind, "gemm") == 0 && !strncmp(q->variant, "rect", 4) && q->m == r->m && q->k == r->k &&
                    q->n == r->n;
        }
        if (seen)
            continue;
        double g[2] = {NAN, NAN};
        for (size_t j = 0; j < d->npass; j++) {
            const tl_rec_row *q = d->pass[j].row;
            if (strcmp(q->kind, "gemm") == 0 && q->m == r->m && q->k == r->k && q->n == r->n) {
                if (!strcmp(q->variant, "rect16"))
                    g[0] = q->gflops;
                else if (!strcmp(q->variant, "rect32"))
                    g[1] = q->gflops;
            }
        }
        for (int c = 0; c < 2; c++)
            if (!isnan(g[c]) && g[c] > *top)
                *top = g[c];
        fprintf(fp, "%zu \"%ld x %ld x %ld\"", count++, r->m, r->k, r->n);
        put_real(fp, g[0]);
        put_real(fp, g[1]);
        for (int c = 0; c < 2; c++) {
            char b[48];
            fmt_num(b, sizeof b, g[c]);
            fprintf(fp, " \"%s\"", isnan(g[c]) ? "no data" : b);
        }
        fputc('\n', fp);
    }
    *nshapes = count;
    return close_out(fp, dir, "rect.dat", err, errlen);
}

static int write_sweep(const dataset *d, const char *dir, size_t *nrows, char *err, size_t errlen)
{
    FILE *fp = open_out(dir, "sweep.dat", err, errlen);
    if (!fp)
        return -1;
    fputs("# lab 05 sweep, in records order; NaN = not given\n"
          "# idx \"label\" tile regs smem_bytes occ_calc occ_api gflops limit micro\n"
          "# limit: what bounds the resident blocks (records column limit): 0 threads, 1 warps, 2 blocks,\n"
          "#   3 registers, 4 shared memory, NaN not recorded (an older file, or calculator != API)\n"
          "# micro: side of the square of P one thread computes (sweep_rtR: R; the lecture's kernel: 1)\n", fp);
    size_t count = 0;
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "sweep") != 0)
            continue;
        fprintf(fp, "%zu \"%s\" %ld", count, r->variant, r->tile);
        put_real(fp, r->regs < 0 ? NAN : (double)r->regs);
        put_real(fp, r->smem_bytes < 0 ? NAN : (double)r->smem_bytes);
        put_real(fp, r->occ_calc);
        put_real(fp, r->occ_api);
        put_real(fp, r->gflops);
        static const char *const limits[] = {"threads", "warps", "blocks", "registers", "shared"};
        double lim = NAN;
        for (int l = 0; l < 5; l++)
            if (strcmp(r->limit, limits[l]) == 0)
                lim = l;
        put_real(fp, lim);
        int micro = 1;   /* the contract's names: sweep_t{8,16,32}[_cap]_s*k, sweep_rt{R}_s*k */
        if (strncmp(r->variant, "sweep_rt", 8) == 0)
            micro = atoi(r->variant + 8);
        fprintf(fp, " %d\n", micro > 0 ? micro : 1);
        count++;
    }
    *nrows = count;
    return close_out(fp, dir, "sweep.dat", err, errlen);
}

/* The dates of all files: one date, or "first .. last" (ISO 8601 sorts as text). */
static void date_span(const dataset *d, size_t width, char *buf, size_t len)
{
    const char *lo = tl_rec_meta_get(&d->files[0], "date"), *hi = lo;
    for (size_t i = 1; i < d->nfiles; i++) {
        const char *v = tl_rec_meta_get(&d->files[i], "date");
        if (strncmp(v, lo, width) < 0)
            lo = v;
        if (strncmp(v, hi, width) > 0)
            hi = v;
    }
    if (strncmp(lo, hi, width) == 0)
        snprintf(buf, len, "%.*s", (int)width, lo);
    else
        snprintf(buf, len, "%.*s .. %.*s", (int)width, lo, (int)width, hi);
}

typedef struct counts {
    size_t boundary, rect, ladder, hroof, sweep;
    double boundary_top, rect_top;
} counts;

static int write_meta(const dataset *d, const char *dir, const counts *c, char *err, size_t errlen)
{
    FILE *fp = open_out(dir, "meta.gp", err, errlen);
    if (!fp)
        return -1;
    const char *device = tl_rec_meta_get(&d->files[0], "device");
    char files[512], date[128], day[64];
    list_files(d, files, sizeof files);
    date_span(d, 64, date, sizeof date);
    date_span(d, 10, day, sizeof day); /* YYYY-MM-DD of an ISO 8601 date */

    fputs("# gnuplot variables written by tl-plotprep; load it before a chart\n", fp);
    fputs("sources = ", fp);
    put_gp_string(fp, files);
    fputs("\ndevice = ", fp);
    put_gp_string(fp, device);
    fputs("\ndate = ", fp);
    put_gp_string(fp, date);
    fputs("\ndate_day = ", fp);
    put_gp_string(fp, day);
    fprintf(fp, "\nsynthetic = %d\n", strncmp(device, "synthetic", 9) == 0);
    static const char *const copied[] = {"compute_capability", "sm_clock_mhz", "build_type", "timing", "cpu",
                                         "driver_version", "clocks_before"};
    for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++) {
        const char *v = tl_rec_meta_get(&d->files[0], copied[i]);
        fprintf(fp, "meta_%s = ", copied[i]);
        put_gp_string(fp, v ? v : "unknown");
        fputc('\n', fp);
    }

    double naive_bound = d->bw_gbps / BYTES_PER_FLOP_NAIVE;
    fprintf(fp, "\n# measured ceilings (GB/s, GFLOP/s) and the lecture's first-order bounds from them\n"
                "bw_gbps = %.6g\npeak_gflops = %.6g\nnaive_bound = %.6g\ntiled16_bound = %.6g\n"
                "tiled32_bound = %.6g\n",
            d->bw_gbps, d->peak_gflops, naive_bound, 16 * naive_bound, 32 * naive_bound);
    fprintf(fp, "\n# the lecture's model GPU\nmodel_peak = %.6g\nmodel_bw = %.6g\nmodel_naive = %.6g\n"
                "model_tiled16 = %.6g\nmodel_tiled32 = %.6g\n",
            MODEL_PEAK_GFLOPS, MODEL_BW_GBPS, MODEL_BW_GBPS / BYTES_PER_FLOP_NAIVE,
            16 * MODEL_BW_GBPS / BYTES_PER_FLOP_NAIVE, 32 * MODEL_BW_GBPS / BYTES_PER_FLOP_NAIVE);
    fputs("\n# measured bandwidth per level, GB/s (NaN: the records have no such ceiling)\n", fp);
    static const char *const lv[N_LEVELS] = {"dram_gbps", "l2_gbps", "l1_gbps", "shared_gbps"};
    for (int l = 0; l < N_LEVELS; l++) {
        fprintf(fp, "%s =", lv[l]);
        put_real(fp, d->level_gbps[l]);
        fputc('\n', fp);
    }
    const char *smc = tl_rec_meta_get(&d->files[0], "sm_count");
    long sm_count = -1;
    if (!smc || tl_rec_parse_count(smc, &sm_count) != 0)
        sm_count = -1;
    fprintf(fp, "sm_count = %ld\n", sm_count);
    int tm = traffic_measured(d);
    fprintf(fp, "traffic_n = %ld\ntraffic_src = \"%s\"\n", traffic_size(d), tm < 0 ? "none" : tm ? "measured" : "model");

    fputs("\n# gemm series: has_X (0/1), best_X (GFLOP/s, NaN when not measured), size range of square rows\n", fp);
    char present[512] = "", missing[512] = "";
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < N_GEMM_SERIES; i++) {
        double best = gemm_best(d, gemm_series[i], NULL);
        fprintf(fp, "has_%s = %d\nbest_%s =", gemm_series[i], !isnan(best), gemm_series[i]);
        put_real(fp, best);
        fputc('\n', fp);
        char *list = isnan(best) ? missing : present;
        size_t used = strlen(list);
        /* present: words for gnuplot's "for [s in ...]"; missing: shown on the chart as a list */
        snprintf(list + used, sizeof present - used, "%s%s", used ? (list == present ? " " : ", ") : "",
                 gemm_series[i]);
        for (size_t j = 0; j < d->npass; j++) {
            const tl_rec_row *r = d->pass[j].row;
            if (strcmp(r->kind, "gemm") == 0 && strcmp(r->variant, gemm_series[i]) == 0 && is_square(r) &&
                strncmp(r->variant, "cpu_", 4) != 0) {
                lo = fmin(lo, (double)r->n);
                hi = fmax(hi, (double)r->n);
            }
        }
    }
    if (hi == 0) { /* only rectangular or unknown variants passed: a sane empty frame */
        lo = 64;
        hi = 4096;
    }
    /* the CPU and the GPU series apart: one chart each (a GPU chart names no CPU) */
    char cpu_list[256] = "", gpu_list[512] = "";
    for (size_t i = 0; i < N_GEMM_SERIES; i++) {
        if (isnan(gemm_best(d, gemm_series[i], NULL)))
            continue;
        char *l = strncmp(gemm_series[i], "cpu_", 4) == 0 ? cpu_list : gpu_list;
        size_t cap = l == cpu_list ? sizeof cpu_list : sizeof gpu_list, used = strlen(l);
        snprintf(l + used, cap - used, "%s%s", used ? " " : "", gemm_series[i]);
    }
    fputs("cpu_present = ", fp);
    put_gp_string(fp, cpu_list);
    fputs("\ngpu_present = ", fp);
    put_gp_string(fp, gpu_list);
    double clo = INFINITY, chi = 0;
    for (size_t j = 0; j < d->npass; j++) {
        const tl_rec_row *r = d->pass[j].row;
        if (strcmp(r->kind, "gemm") == 0 && strncmp(r->variant, "cpu_", 4) == 0 && is_square(r)) {
            clo = fmin(clo, (double)r->n);
            chi = fmax(chi, (double)r->n);
        }
    }
    fprintf(fp, "\ncpu_size_min = %.6g\ncpu_size_max = %.6g\n", chi > 0 ? clo : 64, chi > 0 ? chi : 512);
    fputs("gemm_present = ", fp);
    put_gp_string(fp, present);
    fputs("\ngemm_missing = ", fp);
    put_gp_string(fp, missing);
    fprintf(fp, "\nsize_min = %.6g\nsize_max = %.6g\n", lo, hi);
    long sweep_w = -1;
    for (size_t j = 0; j < d->npass; j++)
        if (strcmp(d->pass[j].row->kind, "sweep") == 0)
            sweep_w = d->pass[j].row->n;
    fprintf(fp, "sweep_width = %ld\n", sweep_w);
    fprintf(fp, "\nboundary_max_gflops = %.6g\nrect_max_gflops = %.6g\n", c->boundary_top, c->rect_top);
    fprintf(fp, "\nn_boundary_sizes = %zu\nn_rect = %zu\nn_ladder = %zu\nn_hroof = %zu\nn_sweep = %zu\n"
                "n_fail = %zu\nn_skip = %zu\n", c->boundary, c->rect, c->ladder, c->hroof, c->sweep, d->nfail, d->nskip);
    if (write_deck_data(d, dir, fp, err, errlen) != 0) {
        fclose(fp);
        return -1;
    }
    return close_out(fp, dir, "meta.gp", err, errlen);
}

/* ------------------------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    ladder_init();
    const char *out = NULL, *tex = NULL, *readme = NULL;
    int table = 0, check = 0;
    double slack = 0;
    char **paths = calloc((size_t)argc, sizeof *paths);
    size_t npaths = 0;
    if (!paths)
        return die2("out of memory");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--tex") == 0 && i + 1 < argc) {
            tex = argv[++i];
        } else if (strcmp(argv[i], "--table") == 0) {
            table = 1;
        } else if (strcmp(argv[i], "--check-roofs") == 0) {
            check = 1;
        } else if (strcmp(argv[i], "--slack") == 0 && i + 1 < argc) {
            char *end;
            slack = strtod(argv[++i], &end);
            if (*end || end == argv[i] || !(slack >= 0 && slack <= 50)) {
                fprintf(stderr, "tl-plotprep: --slack '%s': give a percentage from 0 to 50 (0: no point above a "
                        "measured roof unless the hardware roof covers it)\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--readme") == 0 && i + 1 < argc) {
            readme = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "tl-plotprep: unknown option '%s' (or --out/--tex without a value)\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if ((!out && !tex && !table && !check && !readme) || npaths == 0) {
        fprintf(stderr, "tl-plotprep: %s\n", npaths == 0 ? "no records file given" : "no --out WORKDIR given");
        usage(stderr);
        return 2;
    }

    dataset d = {0};
    d.nfiles = npaths;
    d.files = calloc(d.nfiles, sizeof *d.files);
    if (!d.files)
        return die2("out of memory");
    char err[TL_REC_ERRLEN];
    size_t total = 0;
    for (size_t i = 0; i < d.nfiles; i++) {
        if (tl_rec_read(paths[i], &d.files[i], err, sizeof err) != 0)
            return die2(err);
        total += d.files[i].nrows;
    }
    d.pass = malloc((total + 1) * sizeof *d.pass);
    if (!d.pass)
        return die2("out of memory");
    /* Lab 01's CPU rows come from one file only, the last given that has them (a supplement measured
     * past the caches from a vectorising build replaces the main dataset's): one chart, one build. */
    size_t cpu_file = d.nfiles;
    for (size_t i = 0; i < d.nfiles; i++)
        for (size_t j = 0; j < d.files[i].nrows; j++)
            if (strncmp(d.files[i].rows[j].variant, "cpu_", 4) == 0)
                cpu_file = i;
    for (size_t i = 0; i < d.nfiles; i++) {
        for (size_t j = 0; j < d.files[i].nrows; j++) {
            const tl_rec_row *r = &d.files[i].rows[j];
            if (strncmp(r->variant, "cpu_", 4) == 0 && i != cpu_file)
                continue;
            d.ngemm_rows += strcmp(r->kind, "gemm") == 0;
            if (strcmp(r->status, "PASS") == 0)
                d.pass[d.npass++] = (row_ref){.row = r, .path = d.files[i].path};
            else if (strcmp(r->status, "FAIL") == 0)
                d.nfail++;
            else
                d.nskip++;
        }
    }
    if (check_dataset(&d, err, sizeof err) != 0)
        return die2(err);
    set_hardware_roofs(&d);
    d.slack = slack / 100.0;

    int rc = 0;
    if (readme && print_readme_table(&d, readme, stdout, err, sizeof err) != 0)
        return die2(err);
    if (table)
        print_ladder_table(&d, stdout);
    if (check)
        rc = check_roofs(&d, stdout) ? 1 : 0;
    if (out) {
        struct stat st;
        if (mkdir(out, 0777) != 0 && !(errno == EEXIST && stat(out, &st) == 0 && S_ISDIR(st.st_mode))) {
            fprintf(stderr, "tl-plotprep: cannot make folder '%s': %s\n", out, strerror(errno));
            return 2;
        }
        counts c = {0};
        if (write_gemm_files(&d, out, err, sizeof err) != 0 ||
            write_boundary(&d, out, &c.boundary, &c.boundary_top, err, sizeof err) != 0 ||
            write_rect(&d, out, &c.rect, &c.rect_top, err, sizeof err) != 0 || write_ladder(&d, out, &c.ladder, err, sizeof err) != 0 ||
            write_hroofline(&d, out, &c.hroof, err, sizeof err) != 0 || write_mission(&d, out, err, sizeof err) != 0 ||
            write_sweep(&d, out, &c.sweep, err, sizeof err) != 0 || write_meta(&d, out, &c, err, sizeof err) != 0)
            return die2(err);
    }
    if (tex && write_tex(&d, tex, err, sizeof err) != 0)
        return die2(err);

    for (size_t i = 0; i < d.nfiles; i++)
        tl_rec_free(&d.files[i]);
    free(d.files);
    free(d.pass);
    free(paths);
    return rc;
}
