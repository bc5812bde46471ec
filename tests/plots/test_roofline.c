/* test_roofline.c: the physics of the hierarchical roofline, on every shipped dataset: no kernel runs
 * faster than the roof of a memory level allows (measured bandwidth of that level x the kernel's
 * measured FLOP per byte through it, capped by the measured FP32 peak), with no slack, unless the
 * hardware's own roof of that level (from the records' metadata: SMs x 128 B x SM clock for L1 and
 * shared memory, 2 x memory clock x bus width for DRAM; none for L2) is above it: the chart draws that
 * roof dashed and names the point. Computed here from the records through common/records.c,
 * independently of tl-plotprep, and then against tl-plotprep --check-roofs --slack 0; a crafted
 * dataset with a point above its roof shows both can fail. */
#include "plots_test.h"

#include "tilelab.h" /* records.h */

#include <dirent.h>
#include <math.h>

#define SLACK 1.0   /* issue 28: --slack 0 */

static double meta_d(const tl_rec_file *f, const char *key)
{
    const char *v = tl_rec_meta_get(f, key);
    return v ? atof(v) : NAN;
}

typedef struct roof_result {
    int points, above;
    char worst[256];
} roof_result;

static double ceiling_gbps(const tl_rec_file *f, const char *variant)
{
    for (size_t i = 0; i < f->nrows; i++)
        if (!strcmp(f->rows[i].kind, "ceiling") && !strcmp(f->rows[i].variant, variant) &&
            !strcmp(f->rows[i].status, "PASS"))
            return !strcmp(variant, "fma_peak") ? f->rows[i].gflops : f->rows[i].gbps;
    return NAN;
}

/* Every (kernel, level) point of FILE against its roof. */
static roof_result check_file(const char *path)
{
    tl_rec_file f;
    char err[TL_REC_ERRLEN] = "";
    cr_assert_eq(tl_rec_read(path, &f, err, sizeof err), 0, "%s was refused: %s", path, err);
    static const char *const ceil_name[4] = {"copy_bandwidth", "l2_bandwidth", "l1_bandwidth", "shared_bandwidth"};
    double bw[4], peak = ceiling_gbps(&f, "fma_peak");
    for (int l = 0; l < 4; l++) {
        bw[l] = ceiling_gbps(&f, ceil_name[l]);
        cr_assert(!isnan(bw[l]), "%s has no PASS '%s' ceiling: measure it with ./kit bench", path, ceil_name[l]);
    }
    cr_assert(!isnan(peak), "%s has no PASS fma_peak ceiling", path);
    roof_result res = {0, 0, ""};
    double worst = 0;
    for (size_t i = 0; i < f.nrows; i++) {
        const tl_rec_row *t = &f.rows[i];
        if (strcmp(t->kind, "traffic") || strcmp(t->status, "PASS"))
            continue;
        cr_assert_str_eq(t->traffic, "measured", "%s:%d: a shipped dataset carries measured traffic, not '%s'",
                         path, t->line, t->traffic);
        const tl_rec_row *g = NULL;
        for (size_t j = 0; j < f.nrows; j++)
            if (!strcmp(f.rows[j].kind, "gemm") && !strcmp(f.rows[j].status, "PASS") &&
                !strcmp(f.rows[j].variant, t->variant) && f.rows[j].m == t->m && f.rows[j].k == t->k &&
                f.rows[j].n == t->n)
                g = &f.rows[j];
        if (!g)
            continue;
        double flop = 2.0 * (double)t->m * (double)t->k * (double)t->n;
        double bytes[4] = {t->dram_bytes, t->l2_bytes, t->l1_bytes, t->shared_bytes};
        for (int l = 0; l < 4; l++) {
            if (isnan(bytes[l]) || bytes[l] <= 0)
                continue;
            if (l == 3 && bytes[3] < 0.01 * t->l1_bytes) /* a kernel without shared memory (plots/README) */
                continue;
            double roof = fmin(peak, bw[l] * flop / bytes[l]);
            double ratio = g->gflops / roof;
            double sms = meta_d(&f, "sm_count"), clk = meta_d(&f, "sm_clock_mhz") * 1e6;
            double hw_bw = l == 0 ? 2 * meta_d(&f, "mem_clock_mhz") * 1e6 * meta_d(&f, "mem_bus_bits") / 8 / 1e9
                         : l == 1 ? NAN : sms * 128 * clk / 1e9;
            double hw_roof = fmin(sms * 256 * clk / 1e9, hw_bw * flop / bytes[l]);
            res.points++;
            if (ratio > SLACK && !(g->gflops <= hw_roof)) /* NaN hardware roof: not covered */
                res.above++;
            if (ratio > worst) {
                worst = ratio;
                snprintf(res.worst, sizeof res.worst, "%s at level %d: %.0f GFLOP/s, roof %.0f (%.1f%%)", t->variant,
                         l, g->gflops, roof, 100 * ratio);
            }
        }
    }
    tl_rec_free(&f);
    return res;
}

/* The shipped datasets: every .csv in plots/data. */
static int shipped(char paths[][1024], int max)
{
    char dir[900];
    snprintf(dir, sizeof dir, "%s/plots/data", env_or_die("TL_ROOT"));
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".csv"))
            snprintf(paths[n++], 1024, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    return n;
}

Test(roofline, no_shipped_point_sits_above_its_roof_unless_the_hardware_roof_covers_it, .timeout = 30)
{
    char paths[8][1024];
    int n = shipped(paths, 8);
    cr_assert_geq(n, 2, "plots/data/ should ship an H100 and an H200 dataset; found %d", n);
    for (int i = 0; i < n; i++) {
        roof_result r = check_file(paths[i]);
        cr_assert_geq(r.points, 20, "%s: only %d roofline points; the ladder's traffic is missing", paths[i], r.points);
        cr_assert_eq(r.above, 0, "%s: %d points above their roof; the worst: %s", paths[i], r.above, r.worst);
    }
}

Test(roofline, plotprep_check_roofs_agrees_on_the_shipped_datasets, .timeout = 30)
{
    char paths[8][1024];
    int n = shipped(paths, 8);
    for (int i = 0; i < n; i++) {
        run_result *res = calloc(1, sizeof *res);
        char *argv[] = {(char *)env_or_die("TL_PLOTPREP"), "--check-roofs", "--slack", "0", paths[i], NULL};
        run(res, argv, NULL);
        assert_run_code(res, 0);
        assert_contains(res->out, " 0 above their roof", "tl-plotprep --check-roofs --slack 0");
        /* the bank-conflict rung passes its measured shared roof (about 103%) under the hardware roof,
         * and says so: the chart names it (roof_note) */
        assert_contains(res->out, "under the hardware roof (the chart says so)", "tl-plotprep --check-roofs --slack 0");
        free(res);
    }
}

Test(roofline, a_point_above_its_roof_is_caught_by_both_checks, .timeout = 30)
{
    roof_result r = check_file(data_path("bad-above-roof.csv"));
    cr_assert_eq(r.above, 1, "the crafted tiled32 shared-memory point was not caught (%d above)", r.above);
    assert_contains(r.worst, "tiled32 at level 3", "the worst point");
    run_result *res = calloc(1, sizeof *res);
    char *argv[] = {(char *)env_or_die("TL_PLOTPREP"), "--check-roofs", (char *)data_path("bad-above-roof.csv"), NULL};
    run(res, argv, NULL);
    assert_run_code(res, 1);
    assert_contains(res->out, "tiled32           shared", "tl-plotprep --check-roofs");
    assert_contains(res->out, "ABOVE ITS ROOF", "tl-plotprep --check-roofs");
    free(res);
    r = check_file(data_path("synthetic-ladder.csv"));
    cr_assert_eq(r.above, 0, "the consistent synthetic ladder has a point above its roof: %s", r.worst);
}

/* Lab 05's sweep in every shipped dataset: each point names what bounds its resident blocks, and
 * the register-tiled kernels make registers the bound of some points (the lesson of lab 05's
 * question on register limits; before, registers never limited a point). */
Test(roofline, every_shipped_sweep_point_names_its_limit_and_registers_bound_some, .timeout = 30)
{
    char paths[8][1024];
    int n = shipped(paths, 8);
    for (int i = 0; i < n; i++) {
        tl_rec_file f;
        char err[TL_REC_ERRLEN] = "";
        cr_assert_eq(tl_rec_read(paths[i], &f, err, sizeof err), 0, "%s was refused: %s", paths[i], err);
        int sweep = 0, by[5] = {0};
        static const char *const names[5] = {"threads", "warps", "blocks", "registers", "shared"};
        for (size_t j = 0; j < f.nrows; j++) {
            const tl_rec_row *r = &f.rows[j];
            if (strcmp(r->kind, "sweep"))
                continue;
            sweep++;
            cr_assert_str_eq(r->status, "PASS", "%s:%d: sweep point %s is %s", paths[i], r->line, r->variant, r->status);
            int named = 0;
            for (int l = 0; l < 5; l++)
                if (!strcmp(r->limit, names[l]))
                    by[l]++, named = 1;
            cr_assert(named, "%s:%d: sweep point %s names no limit (calculator and API disagreed, or an old kit "
                      "wrote it)", paths[i], r->line, r->variant);
            cr_assert(fabs(r->occ_calc - r->occ_api) < 1e-6, "%s:%d: %s: occ_calc %g != occ_api %g", paths[i],
                      r->line, r->variant, r->occ_calc, r->occ_api);
        }
        cr_assert_geq(sweep, 36, "%s: %d sweep points; lab 05's sweep has 36", paths[i], sweep);
        cr_assert_geq(by[3], 3, "%s: only %d register-limited sweep points", paths[i], by[3]);
        cr_assert_geq(by[4], 3, "%s: only %d shared-memory-limited sweep points", paths[i], by[4]);
        cr_assert_geq(by[0], 1, "%s: no thread-limited sweep point", paths[i]);
        tl_rec_free(&f);
    }
}
