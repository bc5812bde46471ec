/* prep_ladder.c: the kernel ladder in tl-plotprep: its table (./kit bench prints it), the data of the
 * ladder chart, the hierarchical roofline (each kernel at its intensity at each memory level, under
 * that level's measured roof), the check that no point is above its roof, and the mission chart.
 */
#include "plotprep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GB 1e9

static double flops(long n) { return 2.0 * (double)n * (double)n * (double)n; }

/* The rungs shown at size N: the kit's ladder, then any rungs of labs 07/08 and cuBLAS in TF32/BF16
 * that the records hold (their own files passed next to the bench's: they land as separate runs),
 * grouped by precision, each group closed by its cuBLAS (a stable reordering of the ladder). */
size_t ladder_rungs(const dataset *d, long n, const char **out, size_t max)
{
    const char *all[TL_LADDER_MAX + 64];
    size_t k = 0, m = 0;
    for (size_t i = 0; i < n_ladder; i++)
        all[k++] = ladder_order[i];
    k += extra_rungs(d, n, all + k, sizeof all / sizeof all[0] - k);
    for (int p = 0; p < N_PREC; p++)
        for (int last = 0; last < 2; last++) /* the group's kernels, then its cuBLAS */
            for (size_t i = 0; i < k && m < max; i++) {
                const tl_rec_row *g = gemm_at(d, all[i], n);
                int prec = rung_precision(all[i], g ? g->lab : NULL);
                if (prec == p && (strcmp(all[i], prec_yardstick[p]) == 0) == last)
                    out[m++] = all[i];
            }
    return m;
}

/* Square sizes at which the ladder ran: any size with a gemm row of a ladder-only rung or cuBLAS. */
static size_t ladder_sizes(const dataset *d, long *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "gemm") != 0 || !is_square(r) ||
            (strcmp(r->variant, "naive_rows") && strcmp(r->variant, "tiled32_pad")))
            continue;
        int dup = 0;
        for (size_t j = 0; j < n; j++)
            dup |= out[j] == r->n;
        if (!dup && n < max)
            out[n++] = r->n;
    }
    for (size_t i = 1; i < n; i++) /* a few sizes: insertion sort */
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            long t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The size the ladder chart and the roofline show: where traffic was counted, else the largest. */
static long shown_size(const dataset *d)
{
    long n = traffic_size(d), sizes[16];
    size_t ns = ladder_sizes(d, sizes, 16);
    if (n > 0 && ns > 0)
        return n;
    if (ns)
        return sizes[ns - 1];
    long big = -1; /* records without the ladder (version 1): naive's largest square size */
    gemm_best(d, "naive", &big);
    return big;
}

/* A number with thousands separated by a thin space would be LaTeX; here plain digits, one style. */
static void put_bytes(FILE *to, const tl_rec_row *t, int level)
{
    double b = t ? level_bytes(t, level) : NAN;
    if (isnan(b))
        fprintf(to, " %9s", "-");
    else
        fprintf(to, " %9.2f", b / GB);
}

int print_ladder_table(const dataset *d, FILE *to)
{
    long sizes[16];
    size_t ns = ladder_sizes(d, sizes, 16);
    const char *device = tl_rec_meta_get(&d->files[0], "device");
    if (ns == 0) {
        fprintf(to, "no kernel ladder in these records (./kit bench runs it)\n");
        return 0;
    }
    for (size_t s = 0; s < ns; s++) {
        long n = sizes[s];
        int any_traffic = 0, measured = 1;
        const char *rung[64];
        size_t nr = ladder_rungs(d, n, rung, 64);
        for (size_t i = 0; i < nr; i++) {
            const tl_rec_row *t = traffic_at(d, rung[i], n);
            any_traffic |= t != NULL;
            if (t)
                measured &= strcmp(t->traffic, "measured") == 0;
        }
        fprintf(to, "kernel ladder, %s, n = %ld (%s)%s\n", device, n,
                n % 32 ? "not a multiple of 16 or 32: lab 03's kernels refuse it" : "a multiple of 32",
                any_traffic ? (measured ? "; bytes per level measured by ncu" : "; bytes per level: the lecture's MODEL, not measured") : "");
        fprintf(to, "  %-17s %4s %9s %9s %9s", "variant", "with", "ms", "GFLOP/s", "% cuBLAS");
        if (any_traffic)
            fprintf(to, " %9s %9s %9s %9s", "DRAM GB", "L2 GB", "L1 GB", "shared GB");
        fputc('\n', to);
        for (size_t i = 0; i < nr; i++) {
            const tl_rec_row *g = gemm_at(d, rung[i], n);
            if (!g)
                continue;
            const tl_rec_row *cb = yardstick_of(d, g);
            fprintf(to, "  %-17s %4s %9.3f %9.1f", g->variant, prec_name[rung_precision(g->variant, g->lab)],
                    g->median_ms, g->gflops);
            if (cb)
                fprintf(to, " %8.1f%%", 100.0 * g->gflops / cb->gflops);
            else
                fprintf(to, " %9s", "-");
            if (any_traffic) {
                const tl_rec_row *t = traffic_at(d, rung[i], n);
                for (int l = 0; l < N_LEVELS; l++)
                    put_bytes(to, t, l);
            }
            fputc('\n', to);
        }
        fputs("  (with: the units it multiplies with, FP32 or the tensor cores fed TF32 or BF16; % cuBLAS: of cuBLAS\n"
              "   at that precision, timed in the same run where the rung's records hold one)\n", to);
        if (s + 1 < ns)
            fputc('\n', to);
    }
    return 0;
}

int write_ladder(const dataset *d, const char *dir, size_t *nrows, char *err, size_t errlen)
{
    FILE *fp = open_out(dir, "ladder.dat", err, errlen);
    if (!fp)
        return -1;
    long n = shown_size(d);
    fprintf(fp, "# the kernel ladder at n = %ld, in ladder order; GB per level NaN where not counted; %% of cuBLAS at\n"
                "# the rung's precision (prec 0 FP32, 1 TF32, 2 BF16 tensor cores), %% of the peak of its units\n"
                "# idx \"variant\" gflops pct_of_cublas median_ms dram_gb l2_gb l1_gb shared_gb \"gflops\" \"of cuBLAS\" \"of peak\" (as printed) prec \"traffic\"\n", n);
    size_t count = 0;
    const char *rung[64];
    size_t nr = n > 0 ? ladder_rungs(d, n, rung, 64) : 0;
    for (size_t i = 0; i < nr; i++) {
        const tl_rec_row *g = gemm_at(d, rung[i], n);
        if (!g)
            continue;
        const tl_rec_row *t = traffic_at(d, rung[i], n), *cb = yardstick_of(d, g);
        int prec = rung_precision(g->variant, g->lab);
        fprintf(fp, "%zu \"%s\"", count++, g->variant);
        put_real(fp, g->gflops);
        put_real(fp, cb ? 100.0 * g->gflops / cb->gflops : NAN);
        put_real(fp, g->median_ms);
        for (int l = 0; l < N_LEVELS; l++)
            put_real(fp, t ? level_bytes(t, l) / GB : NAN);
        char a[48], b[16], c[16];
        fmt_num(a, sizeof a, g->gflops);
        fmt_pct(b, sizeof b, cb ? 100.0 * g->gflops / cb->gflops : NAN);
        double pk = peak_of(d, g);   /* NaN: no measured peak of these units in the records */
        fmt_pct(c, sizeof c, 100.0 * g->gflops / pk);
        fprintf(fp, " \"%s\" \"%s%%\" \"%s%s\" %d \"%s\"\n", a, b, isnan(pk) ? "-" : c, isnan(pk) ? "" : "%", prec,
                t ? "" : "not counted");
    }
    *nrows = count;
    return close_out(fp, dir, "ladder.dat", err, errlen);
}

/* One point of the hierarchical roofline; 0 when the records cannot place it. */
typedef struct hpoint {
    const char *variant;
    int level;
    double intensity, gflops, roof;
} hpoint;

static int hpoint_at(const dataset *d, const char *variant, int level, long n, hpoint *p)
{
    const tl_rec_row *g = gemm_at(d, variant, n), *t = traffic_at(d, variant, n);
    if (!g || !t || isnan(d->level_gbps[level]))
        return 0;
    double bytes = level_bytes(t, level);
    if (isnan(bytes) || bytes <= 0)
        return 0;
    /* A kernel without shared memory still reads a small count there (about 128 B per 16 outputs on
     * an H100): a level that moved under 1% of the kernel's L1 bytes is not one it uses. */
    if (level == LEVEL_SHARED && !isnan(t->l1_bytes) && bytes < 0.01 * t->l1_bytes)
        return 0;
    p->variant = variant;
    p->level = level;
    p->intensity = flops(n) / bytes;
    p->gflops = g->gflops;
    /* a tensor-core rung (lab 08, cuBLAS in TF32/BF16) is capped by the tensor cores' measured peak */
    double peak = peak_of(d, g);
    if (isnan(peak))
        peak = d->peak_gflops;
    p->roof = fmin(peak, d->level_gbps[level] * p->intensity);
    return 1;
}

/* The kernels the roofline draws: the ladder without the rungs that sit on another's point (boundary
 * 16/32 and the padded tile coincide with tiled 16/32 at a multiple of the tile). */
static int on_roofline(const char *v)
{
    return strcmp(v, "boundary16") && strcmp(v, "boundary32") && strcmp(v, "tiled32_pad");
}

typedef struct rlabel {
    const char *variant;
    double y, at;
} rlabel;

static int cmp_rlabel(const void *a, const void *b)
{
    double x = ((const rlabel *)a)->y, y = ((const rlabel *)b)->y;
    return (x > y) - (x < y);
}

int write_hroofline(const dataset *d, const char *dir, size_t *npoints, char *err, size_t errlen)
{
    FILE *fp = open_out(dir, "hroofline.dat", err, errlen);
    if (!fp)
        return -1;
    long n = traffic_size(d);
    fprintf(fp, "# hierarchical roofline at n = %ld: each kernel at its intensity at each level (FLOP per byte\n"
                "# through that level, traffic from the records), under that level's measured roof; one block\n"
                "# per kernel\n# \"variant\" level_idx \"level\" intensity gflops roof\n", n);
    size_t count = 0, nl = 0;
    rlabel labels[32];
    const char *rung[64];
    size_t nr = n > 0 ? ladder_rungs(d, n, rung, 64) : 0;
    for (size_t i = 0; i < nr; i++) {
        if (!on_roofline(rung[i]))
            continue;
        size_t here = 0;
        for (int l = 0; l < N_LEVELS; l++) {
            hpoint p;
            if (!hpoint_at(d, rung[i], l, n, &p))
                continue;
            fprintf(fp, "\"%s\" %d \"%s\" %.6g %.6g %.6g\n", p.variant, l, level_name[l], p.intensity, p.gflops, p.roof);
            if (here++ == 0 && nl < 32)
                labels[nl++] = (rlabel){rung[i], p.gflops, p.gflops};
            count++;
        }
        if (here)
            fputs("\n\n", fp); /* a blank line ends the kernel's line; two make it a data block */
    }
    *npoints = count;
    if (close_out(fp, dir, "hroofline.dat", err, errlen) != 0)
        return -1;
    /* the kernels in block order, for the chart's key */
    fp = open_out(dir, "hroof_names.gp", err, errlen);
    if (!fp)
        return -1;
    fputs("hroof_kernels = \"", fp);
    for (size_t i = 0; i < nl; i++)
        fprintf(fp, "%s%s", i ? " " : "", labels[i].variant);
    fputs("\"\n", fp);
    /* rungs timed at n whose records hold no traffic (labs 07/08's runs): named, not silently missing */
    int lab7 = 0, lab8 = 0, tc = 0;
    for (size_t i = 0; i < nr; i++) {
        const tl_rec_row *g = gemm_at(d, rung[i], n);
        if (!g || traffic_at(d, rung[i], n))
            continue;
        lab7 |= strcmp(g->lab, "07") == 0;
        lab8 |= strcmp(g->lab, "08") == 0;
        tc |= strcmp(g->lab, "08") && rung_precision(g->variant, g->lab) != PREC_FP32;
    }
    fprintf(fp, "hroof_unplaced = \"%s%s%s%s%s\"\n", lab7 ? "lab 07" : "", lab7 && lab8 ? ", " : "", lab8 ? "lab 08" : "",
            (lab7 || lab8) && tc ? ", " : "", tc ? "cuBLAS TF32/BF16" : "");
    if (close_out(fp, dir, "hroof_names.gp", err, errlen) != 0)
        return -1;
    /* Names in a column at the right, at their kernel's height, pushed apart to 22% in log space. */
    qsort(labels, nl, sizeof *labels, cmp_rlabel);
    for (size_t i = 1; i < nl; i++)
        if (labels[i].y < labels[i - 1].y * 1.22)
            labels[i].y = labels[i - 1].y * 1.22;
    fp = open_out(dir, "hroof_labels.dat", err, errlen);
    if (!fp)
        return -1;
    fputs("# \"variant\" label_y kernel_gflops\n", fp);
    for (size_t i = 0; i < nl; i++)
        fprintf(fp, "\"%s\" %.6g %.6g\n", labels[i].variant, labels[i].y, labels[i].at);
    return close_out(fp, dir, "hroof_labels.dat", err, errlen);
}

/* A point above its measured roof is allowed only under a hardware roof drawn above it (the chart says so). */
static int hw_covers(const dataset *d, const hpoint *p)
{
    double hw = fmin(isnan(d->hw_peak_gflops) ? INFINITY : d->hw_peak_gflops, d->hw_gbps[p->level] * p->intensity);
    return !isnan(d->hw_gbps[p->level]) && p->gflops <= hw;
}

int check_roofs(const dataset *d, FILE *to)
{
    long n = traffic_size(d);
    int bad = 0, seen = 0, under_hw = 0;
    const char *rung[64];
    size_t nr = n > 0 ? ladder_rungs(d, n, rung, 64) : 0;
    for (size_t i = 0; i < nr; i++) {
        for (int l = 0; l < N_LEVELS; l++) {
            hpoint p;
            if (!hpoint_at(d, rung[i], l, n, &p))
                continue;
            seen++;
            int over = p.gflops > (1.0 + d->slack) * p.roof;
            int hw = over && hw_covers(d, &p);
            bad += over && !hw;
            under_hw += hw;
            fprintf(to, "%-17s %-6s intensity %9.3f FLOP/B  %9.1f GFLOP/s  roof %9.1f  %5.1f%% of roof%s\n", p.variant,
                    level_name[l], p.intensity, p.gflops, p.roof, 100 * p.gflops / p.roof,
                    hw ? "  above the measured roof, under the hardware roof (the chart says so)"
                       : over ? "  ABOVE ITS ROOF" : "");
        }
    }
    fprintf(to, "%d points, %d above their roof by more than %.0f%% (%d above a measured roof but under the "
                "hardware roof)\n", seen, bad, 100 * d->slack, under_hw);
    return bad;
}

/* The chart's note: every point above its measured roof, by how much, and the hardware roof above it. */
void roof_note(const dataset *d, char *buf, size_t len)
{
    long n = traffic_size(d);
    size_t used = 0;
    buf[0] = '\0';
    const char *rung[64];
    size_t nr = n > 0 ? ladder_rungs(d, n, rung, 64) : 0;
    for (size_t i = 0; i < nr; i++)
        for (int l = 0; l < N_LEVELS; l++) {
            hpoint p;
            if (!hpoint_at(d, rung[i], l, n, &p) || p.gflops <= p.roof)
                continue;
            char hw[48];
            fmt_num(hw, sizeof hw, d->hw_gbps[l]);
            int k = snprintf(buf + used, len - used, "%s%s at %s: %.1f%% of the measured roof, under the hardware "
                             "roof (%s GB/s, dashed)", used ? "; " : "", rung[i], level_name[l],
                             100 * p.gflops / p.roof, hw);
            if (k < 0 || (size_t)k >= len - used)
                return;
            used += (size_t)k;
        }
}

/* The mission chart: bandwidth-bound naive against the tiled kernels, model ceilings next to measured
 * ones, and where the bytes each kernel asks for are served from. */
int write_mission(const dataset *d, const char *dir, char *err, size_t errlen)
{
    FILE *fp = open_out(dir, "mission.dat", err, errlen);
    if (!fp)
        return -1;
    long n = shown_size(d);
    static const char *const kern[] = {"naive", "tiled16", "tiled32"};
    static const double reuse[] = {1, 16, 32};
    fprintf(fp, "# GFLOP/s at n = %ld: the lecture's model GPU (150 GB/s / 4 B per FLOP x reuse, capped at 1000),\n"
                "# the same model on this GPU's measured DRAM bandwidth and peak, the DRAM bound from the\n"
                "# kernel's measured DRAM bytes (measured bandwidth x measured intensity), and the kernel\n"
                "# idx \"kernel\" model_lecture model_this dram_bound_measured measured, then the four as text\n", n);
    for (int i = 0; i < 3; i++) {
        const tl_rec_row *g = n > 0 ? gemm_at(d, kern[i], n) : NULL;
        const tl_rec_row *t = n > 0 ? traffic_at(d, kern[i], n) : NULL;
        double traffic_bound = NAN;
        if (t && strcmp(t->traffic, "measured") == 0 && t->dram_bytes > 0)
            traffic_bound = fmin(d->peak_gflops, d->bw_gbps * flops(n) / t->dram_bytes);
        double v[4] = {fmin(MODEL_PEAK_GFLOPS, reuse[i] * MODEL_BW_GBPS / BYTES_PER_FLOP_NAIVE),
                       fmin(d->peak_gflops, reuse[i] * d->bw_gbps / BYTES_PER_FLOP_NAIVE), traffic_bound,
                       g ? g->gflops : NAN};
        fprintf(fp, "%d \"%s\"", i, kern[i]);
        for (int j = 0; j < 4; j++)
            put_real(fp, v[j]);
        for (int j = 0; j < 4; j++) { /* the values as printed (fmt_num), empty where not measured */
            char b[48];
            fmt_num(b, sizeof b, v[j]);
            fprintf(fp, " \"%s\"", isnan(v[j]) ? "" : b);
        }
        fputc('\n', fp);
    }
    if (close_out(fp, dir, "mission.dat", err, errlen) != 0)
        return -1;

    fp = open_out(dir, "served.dat", err, errlen);
    if (!fp)
        return -1;
    static const char *const served[] = {"naive", "naive_ldcg", "tiled16", "tiled32", "cublas"};
    fprintf(fp, "# where the bytes come from at n = %ld, GB: what the lecture's model says every load costs\n"
                "# (8 bytes per multiply-add from global memory), then what passed through L1, L2 and DRAM\n"
                "# idx \"kernel\" model_gb l1_gb l2_gb dram_gb shared_gb\n", n);
    for (int i = 0; i < 5; i++) {
        const tl_rec_row *t = n > 0 ? traffic_at(d, served[i], n) : NULL;
        fprintf(fp, "%d \"%s\"", i, served[i]);
        put_real(fp, n > 0 ? 8.0 * (double)n * n * n / GB : NAN);
        put_real(fp, t ? t->l1_bytes / GB : NAN);
        put_real(fp, t ? t->l2_bytes / GB : NAN);
        put_real(fp, t ? t->dram_bytes / GB : NAN);
        put_real(fp, t ? t->shared_bytes / GB : NAN);
        fputc('\n', fp);
    }
    return close_out(fp, dir, "served.dat", err, errlen);
}
