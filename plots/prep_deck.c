/* prep_deck.c: what the deck adds to tl-plotprep: the hardware roofs from the records' metadata, the
 * tensor-core roofs measured by lab 08's bench (its ceiling rows, with the datasheet's beside them), the n-body (1-D tiling) and lab 06 charts' data, the ladder's
 * extra rungs (labs 07/08 and cuBLAS in TF32/BF16, when their records exist), and the lab READMEs'
 * measured tables (--readme LAB), all formatted by fmt_num() so that a number reads the same in a
 * chart, on a slide and in a README.
 */
#include "plotprep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double meta_num(const dataset *d, const char *key)
{
    const char *v = tl_rec_meta_get(&d->files[0], key);
    char *end;
    double x = v ? strtod(v, &end) : NAN;
    return v && end != v && x > 0 ? x : NAN;
}

void set_hardware_roofs(dataset *d)
{
    double sms = meta_num(d, "sm_count"), clk = meta_num(d, "sm_clock_mhz") * 1e6;
    double mclk = meta_num(d, "mem_clock_mhz") * 1e6, bus = meta_num(d, "mem_bus_bits");
    d->hw_gbps[LEVEL_DRAM] = 2.0 * mclk * bus / 8.0 / 1e9;  /* DDR: two transfers a clock */
    d->hw_gbps[LEVEL_L2] = NAN;                              /* no published figure       */
    d->hw_gbps[LEVEL_L1] = sms * 128.0 * clk / 1e9;
    d->hw_gbps[LEVEL_SHARED] = sms * 128.0 * clk / 1e9;
    d->hw_peak_gflops = sms * 256.0 * clk / 1e9;             /* 128 FMA lanes a SM x 2 FLOP */
    const char *cc = tl_rec_meta_get(&d->files[0], "compute_capability");
    int hopper = cc && strcmp(cc, "9.0") == 0 && sms == 132;
    d->tc_tf32_sheet = hopper ? TC_TF32_GFLOPS : NAN;
    d->tc_bf16_sheet = hopper ? TC_BF16_GFLOPS : NAN;
    /* the measured roofs: per format the fastest ceiling row tc_* (lab08-bench --peaks) */
    d->tc_tf32 = d->tc_bf16 = NAN;
    d->tc_tf32_by = d->tc_bf16_by = "";
    d->tc_day[0] = '\0';
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "ceiling") || strncmp(r->variant, "tc_", 3) || !(r->gflops > 0))
            continue;
        int tf = strstr(r->variant, "tf32") != NULL, bf = strstr(r->variant, "bf16") != NULL;
        double *to = tf ? &d->tc_tf32 : bf ? &d->tc_bf16 : NULL;
        if (!to || (!isnan(*to) && *to >= r->gflops))
            continue;
        *to = r->gflops;
        *(tf ? &d->tc_tf32_by : &d->tc_bf16_by) = r->variant;
        for (size_t f = 0; f < d->nfiles; f++) /* the day of the file that holds the row */
            if (r >= d->files[f].rows && r < d->files[f].rows + d->files[f].nrows)
                snprintf(d->tc_day, sizeof d->tc_day, "%.10s", tl_rec_meta_get(&d->files[f], "date"));
    }
}

size_t extra_rungs(const dataset *d, long n, const char **out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < d->npass && k < max; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "gemm") || !is_square(r) || r->n != n)
            continue;
        if (strcmp(r->lab, "07") && strcmp(r->lab, "08") && strcmp(r->variant, "cublas_tf32") &&
            strcmp(r->variant, "cublas_bf16"))
            continue;
        int dup = 0;
        for (size_t j = 0; j < k; j++)
            dup |= strcmp(out[j], r->variant) == 0;
        for (size_t j = 0; j < n_ladder; j++) /* already a rung through the lab table */
            dup |= strcmp(ladder_order[j], r->variant) == 0;
        if (!dup)
            out[k++] = r->variant;
    }
    return k;
}

/* n into sizes (*ns of at most max, ascending) unless it is there already. */
static void add_size(long *sizes, size_t *ns, size_t max, long n)
{
    size_t i = 0;
    while (i < *ns && sizes[i] < n)
        ++i;
    if ((i < *ns && sizes[i] == n) || *ns >= max)
        return;
    memmove(sizes + i + 1, sizes + i, (*ns - i) * sizeof *sizes);
    sizes[i] = n;
    ++*ns;
}

static const tl_rec_row *kernel_at(const dataset *d, const char *variant, long tile, long n)
{
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "kernel") == 0 && strcmp(r->variant, variant) == 0 && r->tile == tile && r->n == n)
            return r;
    }
    return NULL;
}

static void gp_text(FILE *fp, const char *name, double x)
{
    char b[48];
    fmt_num(b, sizeof b, x);
    fprintf(fp, "%s = \"%s\"\n", name, b);
}

/* The day(s) of the files that hold rows of one sort (0: GPU gemm, 1: CPU gemm, 2: kernel), "" if none. */
static void day_of(const dataset *d, int sort, char *buf, size_t len)
{
    char lo[16] = "", hi[16] = "";
    for (size_t i = 0; i < d->nfiles; i++) {
        int has = 0;
        for (size_t j = 0; j < d->files[i].nrows && !has; j++) {
            const tl_rec_row *r = &d->files[i].rows[j];
            int cpu = strncmp(r->variant, "cpu_", 4) == 0;
            has = sort == 2 ? strcmp(r->kind, "kernel") == 0 : strcmp(r->kind, "gemm") == 0 && cpu == (sort == 1);
        }
        if (!has)
            continue;
        char day[16];
        snprintf(day, sizeof day, "%.10s", tl_rec_meta_get(&d->files[i], "date"));
        if (!*lo || strcmp(day, lo) < 0)
            snprintf(lo, sizeof lo, "%s", day);
        if (!*hi || strcmp(day, hi) > 0)
            snprintf(hi, sizeof hi, "%s", day);
    }
    if (strcmp(lo, hi) == 0)
        snprintf(buf, len, "%s", lo);
    else
        snprintf(buf, len, "%s .. %s", lo, hi);
}

int write_deck_data(const dataset *d, const char *dir, FILE *meta, char *err, size_t errlen)
{
    /* each chart names the day its own rows were measured (a supplement adds a later day) */
    static const char *const dayvar[] = {"gpu_day", "cpu_day", "kernel_day"};
    for (int k = 0; k < 3; k++) {
        char day[48];
        day_of(d, k, day, sizeof day);
        fprintf(meta, "%s = ", dayvar[k]);
        put_gp_string(meta, day);
        fputc('\n', meta);
    }
    /* the roofs, as numbers and as the text the charts print (one formatter) */
    static const char *const lv[N_LEVELS] = {"dram", "l2", "l1", "shared"};
    fputs("\n# hardware roofs from the metadata (NaN: none), measured tensor-core roofs (and the datasheet's); "
          "*_txt: as printed\n", meta);
    for (int l = 0; l < N_LEVELS; l++) {
        char name[32];
        fprintf(meta, "hw_%s_gbps =", lv[l]);
        put_real(meta, d->hw_gbps[l]);
        fputc('\n', meta);
        snprintf(name, sizeof name, "hw_%s_txt", lv[l]);
        gp_text(meta, name, d->hw_gbps[l]);
        snprintf(name, sizeof name, "%s_txt", lv[l]);
        gp_text(meta, name, d->level_gbps[l]);
    }
    fputs("hw_peak =", meta);
    put_real(meta, d->hw_peak_gflops);
    fputs("\ntc_tf32 =", meta);
    put_real(meta, d->tc_tf32);
    fputs("\ntc_bf16 =", meta);
    put_real(meta, d->tc_bf16);
    fputc('\n', meta);
    gp_text(meta, "peak_txt", d->peak_gflops);
    gp_text(meta, "hw_peak_txt", d->hw_peak_gflops);
    gp_text(meta, "tc_tf32_txt", d->tc_tf32);
    gp_text(meta, "tc_bf16_txt", d->tc_bf16);
    gp_text(meta, "tc_tf32_sheet_txt", d->tc_tf32_sheet);
    gp_text(meta, "tc_bf16_sheet_txt", d->tc_bf16_sheet);
    /* which instruction reached each roof (tc_wgmma_bf16 -> "wgmma"), and the day */
    fprintf(meta, "tc_tf32_by = \"%s\"\ntc_bf16_by = \"%s\"\ntc_day = ",
            strstr(d->tc_tf32_by, "wgmma") ? "wgmma" : strstr(d->tc_tf32_by, "mma") ? "mma.sync" : "",
            strstr(d->tc_bf16_by, "wgmma") ? "wgmma" : strstr(d->tc_bf16_by, "mma") ? "mma.sync" : "");
    put_gp_string(meta, d->tc_day);
    fputc('\n', meta);
    gp_text(meta, "bw_txt", d->bw_gbps);
    gp_text(meta, "naive_bound_txt", d->bw_gbps / BYTES_PER_FLOP_NAIVE);
    gp_text(meta, "tiled16_bound_txt", fmin(d->peak_gflops, 16 * d->bw_gbps / BYTES_PER_FLOP_NAIVE));
    gp_text(meta, "tiled32_bound_txt", fmin(d->peak_gflops, 32 * d->bw_gbps / BYTES_PER_FLOP_NAIVE));
    char note[1024];
    roof_note(d, note, sizeof note);
    fputs("roof_note = ", meta);
    put_gp_string(meta, note);
    fputc('\n', meta);
    const char *cb = NULL, *cpu = tl_rec_meta_get(&d->files[0], "cpu");
    for (size_t i = 0; i < d->nfiles; i++) /* the file the CPU rows came from names its CPU and build */
        for (size_t j = 0; j < d->files[i].nrows; j++)
            if (strncmp(d->files[i].rows[j].variant, "cpu_", 4) == 0) {
                cb = tl_rec_meta_get(&d->files[i], "cpu_build");
                cpu = tl_rec_meta_get(&d->files[i], "cpu");
            }
    fputs("cpu_name = ", meta);
    put_gp_string(meta, cpu ? cpu : "a CPU the records do not name");
    fputc('\n', meta);
    fputs("cpu_build = ", meta);
    put_gp_string(meta, cb ? cb : "the kit's debugoptimized build (-O2)");
    fputc('\n', meta);

    /* n-body: GFLOP/s per size, one column per variant (NaN where not measured) */
    static const char *const nbv[] = {"nbody_naive", "nbody_ldcg", "nbody_tiled", "nbody_dyn", "nbody_dyn", "nbody_dyn"};
    static const long nbt[] = {256, 256, 256, 128, 256, 512};
    long sizes[32];
    size_t ns = 0;
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "kernel") || strncmp(r->variant, "nbody_", 6))
            continue;
        add_size(sizes, &ns, 32, r->n);
    }
    FILE *fp = open_out(dir, "nbody.dat", err, errlen);
    if (!fp)
        return -1;
    fputs("# n-body GFLOP/s (20 FLOP per interaction) per size; NaN = not measured\n"
          "# idx n naive ldcg tiled dyn128 dyn256 dyn512 \"n as text\"\n", fp);
    double nbmax = 0;
    for (size_t s = 0; s < ns; s++) {
        fprintf(fp, "%zu %ld", s, sizes[s]);
        for (int v = 0; v < 6; v++) {
            const tl_rec_row *r = kernel_at(d, nbv[v], nbt[v], sizes[s]);
            put_real(fp, r ? r->gflops : NAN);
            if (r && r->gflops > nbmax)
                nbmax = r->gflops;
        }
        char b[48];
        fmt_num(b, sizeof b, (double)sizes[s]);
        fprintf(fp, " \"%s\"\n", b);
    }
    if (close_out(fp, dir, "nbody.dat", err, errlen) != 0)
        return -1;
    fprintf(meta, "n_nbody = %zu\nnbody_max = %.6g\n", ns, nbmax);

    /* lab 06: tiled 32 -> coarse 1-D -> register tile -> warp tile -> cuBLAS at the traffic size */
    long n = traffic_size(d);
    if (n <= 0)
        gemm_best(d, "cublas", &n);
    static const char *const l6[] = {"tiled32", "coarse1d", "regtile", "warptile", "cublas"};
    const tl_rec_row *cub = n > 0 ? gemm_at(d, "cublas", n) : NULL;
    fp = open_out(dir, "lab06.dat", err, errlen);
    if (!fp)
        return -1;
    fputs("# lab 06's steps at the ladder size: idx \"variant\" gflops shared_gb \"label\"\n", fp);
    size_t n6 = 0;
    for (int i = 0; i < 5 && n > 0; i++) {
        const tl_rec_row *g = gemm_at(d, l6[i], n);
        if (!g)
            continue;
        const tl_rec_row *t = traffic_at(d, l6[i], n);
        char a[48], b[48], c[48];
        fmt_num(a, sizeof a, g->gflops);
        fmt_pct(b, sizeof b, cub ? 100 * g->gflops / cub->gflops : NAN);
        fmt_pct(c, sizeof c, 100 * g->gflops / d->peak_gflops);
        fprintf(fp, "%zu \"%s\"", n6++, l6[i]);
        put_real(fp, g->gflops);
        put_real(fp, t ? t->shared_bytes / 1e9 : NAN);
        fprintf(fp, " \"%s (%s%% of cuBLAS, %s%% of FP32 peak)\"\n", a, b, c);
    }
    fprintf(meta, "n_lab06 = %zu\nlab06_n = %ld\n", n6, n);
    return close_out(fp, dir, "lab06.dat", err, errlen);
}

/* ------------------------------------------------------------------------------------------------ */
/* the lab READMEs' measured tables                                                                  */

static void cell(FILE *to, double x)
{
    char b[48];
    fmt_num(b, sizeof b, x);
    fprintf(to, " %s |", isnan(x) ? "-" : b);
}

static double gf(const dataset *d, const char *v, long n)
{
    const tl_rec_row *r = gemm_at(d, v, n);
    return r ? r->gflops : NAN;
}

/* Square sizes (ascending) at which any of VARIANTS has a PASS gemm row. */
static size_t sizes_of(const dataset *d, const char *const *variants, size_t nv, long *out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < d->npass; i++) {
        const tl_rec_row *r = d->pass[i].row;
        if (strcmp(r->kind, "gemm") || !is_square(r))
            continue;
        int want = 0;
        for (size_t v = 0; v < nv; v++)
            want |= strcmp(r->variant, variants[v]) == 0;
        if (want)
            add_size(out, &k, max, r->n);
    }
    return k;
}

static void gemm_table(const dataset *d, FILE *to, const char *const *v, const char *const *head, size_t nv,
                       const long *only, size_t nonly)
{
    long sizes[64];
    size_t ns = nonly ? nonly : sizes_of(d, v, nv, sizes, 64);
    fputs("| Width |", to);
    for (size_t i = 0; i < nv; i++)
        fprintf(to, " %s |", head[i]);
    fputs("\n|---:|", to);
    for (size_t i = 0; i < nv; i++)
        fputs("---:|", to);
    fputc('\n', to);
    for (size_t s = 0; s < ns; s++) {
        long n = nonly ? only[s] : sizes[s];
        fprintf(to, "| %ld |", n);
        for (size_t i = 0; i < nv; i++)
            cell(to, gf(d, v[i], n));
        fputc('\n', to);
    }
}

/* Labs 07 and 08: their rows come from their own device run (a supplement, plots/data/extra/), so the
 * table names that run's device, date, build and timing; one row per variant (the kernels, then cuBLAS
 * timed in the same run), one column per size, and each kernel's share of cuBLAS in its own units. */
static int lab_run_table(const dataset *d, const char *lab, FILE *to, char *err, size_t errlen)
{
    const tl_rec_file *f = NULL;
    for (size_t i = 0; i < d->nfiles && !f; i++)
        for (size_t j = 0; j < d->files[i].nrows && !f; j++)
            if (strcmp(d->files[i].rows[j].kind, "gemm") == 0 && strcmp(d->files[i].rows[j].lab, lab) == 0)
                f = &d->files[i];
    if (!f) {
        snprintf(err, errlen, "--readme %s: these records hold no lab %s rows; pass the lab's run too (its supplement, "
                 "plots/data/extra/DEVICE-DATE-lab%s.csv, or your own lab %s records)", lab, lab, lab, lab);
        return -1;
    }
    const tl_rec_row *v[32];
    long sizes[16];
    size_t nv = 0, ns = 0;
    for (size_t j = 0; j < f->nrows; j++) {
        const tl_rec_row *r = &f->rows[j];
        if (strcmp(r->kind, "gemm") || strcmp(r->lab, lab) || strcmp(r->status, "PASS") || !is_square(r))
            continue;
        int dup = 0;
        for (size_t i = 0; i < nv; i++)
            dup |= strcmp(v[i]->variant, r->variant) == 0;
        if (!dup && nv < 32)
            v[nv++] = r;
        add_size(sizes, &ns, 16, r->n);
    }
    /* kernels first, in ladder order (the lab's parts in turn), then the cuBLAS runs in records order */
    const tl_rec_row *order[32];
    size_t no = 0;
    for (size_t l = 0; l <= n_ladder; l++)
        for (size_t i = 0; i < nv; i++) {
            size_t at_l = n_ladder;
            for (size_t k = 0; k < n_ladder; k++)
                at_l = strcmp(ladder_order[k], v[i]->variant) == 0 ? k : at_l;
            if (at_l == l && strncmp(v[i]->variant, "cublas", 6) != 0)
                order[no++] = v[i];
        }
    for (size_t i = 0; i < nv; i++)
        if (strncmp(v[i]->variant, "cublas", 6) == 0)
            order[no++] = v[i];
    long at = 0; /* the size the share is given at: 4096 (the issues' size) if measured, else the largest */
    for (size_t i = 0; i < ns; i++)
        at = sizes[i] == 4096 || at != 4096 ? sizes[i] : at;
    const char *bt = tl_rec_meta_get(f, "build_type"), *timing = tl_rec_meta_get(f, "timing");
    fprintf(to, "%s, %.10s (lab %s's own device run; %s build; %s), GFLOP/s, every run checked first; cuBLAS timed in "
                "the same process.\n\n", tl_rec_meta_get(f, "device"), tl_rec_meta_get(f, "date"), lab, bt ? bt : "unknown",
            timing ? timing : "timing unknown");
    fputs("| kernel | units |", to);
    for (size_t i = 0; i < ns; i++)
        fprintf(to, " %ld |", sizes[i]);
    fprintf(to, " %% of cuBLAS in its units, %ld |\n|---|---|", at);
    for (size_t i = 0; i <= ns; i++)
        fputs("---:|", to);
    fputc('\n', to);
    static const char *const units[N_PREC] = {"FP32", "TF32 tensor cores", "BF16 tensor cores"};
    for (size_t i = 0; i < no; i++) {
        int prec = rung_precision(order[i]->variant, order[i]->lab);
        fprintf(to, "| %s | %s |", order[i]->variant, units[prec]);
        const tl_rec_row *here = NULL;
        for (size_t k = 0; k < ns; k++) {
            const tl_rec_row *g = NULL;
            for (size_t j = 0; j < f->nrows && !g; j++) {
                const tl_rec_row *r = &f->rows[j];
                if (!strcmp(r->kind, "gemm") && !strcmp(r->lab, lab) && !strcmp(r->variant, order[i]->variant) &&
                    !strcmp(r->status, "PASS") && is_square(r) && r->n == sizes[k])
                    g = r;
            }
            cell(to, g ? g->gflops : NAN);
            if (g && g->n == at)
                here = g;
        }
        const tl_rec_row *cb = here ? yardstick_of(d, here) : NULL;
        char pct[16];
        fmt_pct(pct, sizeof pct, cb ? 100 * here->gflops / cb->gflops : NAN);
        fprintf(to, " %s |\n", cb ? pct : "-");
    }
    return 0;
}

int print_readme_table(const dataset *d, const char *lab, FILE *to, char *err, size_t errlen)
{
    const char *device = tl_rec_meta_get(&d->files[0], "device");
    char day[16], bw[48], peak[48], b1[48], b2[48], b3[48];
    snprintf(day, sizeof day, "%.10s", tl_rec_meta_get(&d->files[0], "date"));
    fmt_num(bw, sizeof bw, d->bw_gbps);
    fmt_num(peak, sizeof peak, d->peak_gflops);
    fmt_num(b1, sizeof b1, d->bw_gbps / BYTES_PER_FLOP_NAIVE);
    fmt_num(b2, sizeof b2, fmin(d->peak_gflops, 16 * d->bw_gbps / BYTES_PER_FLOP_NAIVE));
    fmt_num(b3, sizeof b3, fmin(d->peak_gflops, 32 * d->bw_gbps / BYTES_PER_FLOP_NAIVE));
    if (strcmp(lab, "07") == 0 || strcmp(lab, "08") == 0)
        return lab_run_table(d, lab, to, err, errlen);
    if (strcmp(lab, "01") == 0) {
        static const char *const v[] = {"cpu_ijk", "cpu_ikj", "cpu_blocked", "cpu_blocked64"};
        static const char *const h[] = {"cpu_ijk", "cpu_ikj", "cpu_blocked (32)", "cpu_blocked64"};
        const char *cpu = NULL, *build = NULL, *date = NULL;
        for (size_t i = 0; i < d->nfiles; i++) /* the file the CPU rows came from (plotprep.c keeps one) */
            for (size_t j = 0; j < d->files[i].nrows; j++)
                if (strncmp(d->files[i].rows[j].variant, "cpu_", 4) == 0) {
                    cpu = tl_rec_meta_get(&d->files[i], "cpu");
                    build = tl_rec_meta_get(&d->files[i], "cpu_build");
                    date = tl_rec_meta_get(&d->files[i], "date");
                }
        fprintf(to, "GFLOP/s, one thread: %s (the host of the %s), %.10s; build: %s.\n\n", cpu ? cpu : "unknown",
                device, date ? date : day, build ? build : "the kit's debugoptimized build (-O2)");
        gemm_table(d, to, v, h, 4, NULL, 0);
        return 0;
    }
    fprintf(to, "%s, %s, GFLOP/s: medians of CUDA-event timings after warm-up, every run checked first.\n\n",
            device, day);
    if (strcmp(lab, "02") == 0) {
        static const char *const v[] = {"naive", "cublas"};
        static const char *const h[] = {"naive", "cuBLAS SGEMM (FP32)"};
        static const long only[] = {1024, 2048, 4096, 6144};
        gemm_table(d, to, v, h, 2, only, 4);
        fprintf(to, "\nCeilings the same day: copy bandwidth %s GB/s (read + written), FP32 FMA peak %s GFLOP/s; "
                    "question 2's bound is %s / 4 = %s GFLOP/s.\n", bw, peak, bw, b1);
    } else if (strcmp(lab, "03") == 0) {
        static const char *const v[] = {"tiled16", "tiled32", "naive", "cublas"};
        static const char *const h[] = {"tiled16", "tiled32", "naive (lab 02)", "cuBLAS"};
        static const long only[] = {1024, 2048, 4096};
        gemm_table(d, to, v, h, 4, only, 3);
        fprintf(to, "\nThe first-order model on this GPU's measured %s GB/s: naive %s, TILE_WIDTH 16 %s, "
                    "TILE_WIDTH 32 %s GFLOP/s (capped at the FP32 peak, %s).\n", bw, b1, b2, b3, peak);
    } else if (strcmp(lab, "04") == 0) {
        static const char *const v[] = {"boundary16", "boundary32", "tiled32"};
        static const char *const h[] = {"boundary16", "boundary32", "tiled32 (lab 03, multiples only)"};
        static const long only[] = {1023, 1024, 1025, 2047, 2048, 2049, 4096};
        gemm_table(d, to, v, h, 3, only, 7);
        fputs("\nRectangular (rect16 | rect32, GFLOP/s):", to);
        for (size_t i = 0; i < d->npass; i++) {
            const tl_rec_row *r = d->pass[i].row;
            if (strcmp(r->kind, "gemm") || strcmp(r->variant, "rect32"))
                continue;
            double r16 = NAN;
            for (size_t j = 0; j < d->npass; j++) {
                const tl_rec_row *q = d->pass[j].row;
                if (!strcmp(q->kind, "gemm") && !strcmp(q->variant, "rect16") && q->m == r->m && q->k == r->k &&
                    q->n == r->n)
                    r16 = q->gflops;
            }
            char x[48], y[48];
            fmt_num(x, sizeof x, r16);
            fmt_num(y, sizeof y, r->gflops);
            fprintf(to, " %ldx%ldx%ld %s | %s;", r->m, r->k, r->n, x, y);
        }
        fputs(" (- = not measured.)\n", to);
    } else if (strcmp(lab, "05") == 0) {
        fputs("| kernel | registers | shared (static + dynamic) | blocks per SM | occupancy | limit | GFLOP/s |\n"
              "|---|---:|---:|---:|---:|---|---:|\n", to);
        static const char *const kern[] = {"t8", "t16", "t32", "rt2", "rt4", "rt8"};
        static const char *const name[] = {"T8", "T16", "T32", "R2", "R4", "R8"};
        static const char *const extra[] = {"_s0k", "_s100k"};
        for (int k = 0; k < 6; k++)
            for (int e = 0; e < 2; e++) {
                char want[48];
                snprintf(want, sizeof want, "sweep_%s%s", kern[k], extra[e]);
                const row_ref *rr = find_pass(d, "sweep", want);
                if (!rr)
                    continue;
                const tl_rec_row *r = rr->row;
                char g[48];
                fmt_num(g, sizeof g, r->gflops);
                /* threads a block: T x T for the lecture's kernel, 16 x 16 for the register-tiled one */
                long threads = k < 3 ? r->tile * r->tile : 256;
                long blocks = lround(r->occ_calc * 2048.0 / (double)threads);
                if (r->smem_bytes % 1024 == 0)
                    fprintf(to, "| %s | %ld | %ld KiB | %ld | %.1f%% | %s | %s |\n", name[k], r->regs,
                            r->smem_bytes / 1024, blocks, 100 * r->occ_calc, r->limit[0] ? r->limit : "-", g);
                else
                    fprintf(to, "| %s | %ld | %.1f KiB | %ld | %.1f%% | %s | %s |\n", name[k], r->regs,
                            r->smem_bytes / 1024.0, blocks, 100 * r->occ_calc, r->limit[0] ? r->limit : "-", g);
            }
    } else if (strcmp(lab, "06") == 0) {
        long n = traffic_size(d);
        const tl_rec_row *cb = gemm_at(d, "cublas", n);
        fprintf(to, "At n = %ld; GB moved through each level (ncu, one launch each):\n\n"
                    "| kernel | ms | GFLOP/s | %% of cuBLAS | %% of FP32 peak | DRAM | L2 | L1 | shared |\n"
                    "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", n);
        static const char *const v[] = {"tiled32", "coarse1d", "regtile", "warptile", "cublas"};
        for (int i = 0; i < 5; i++) {
            const tl_rec_row *g = gemm_at(d, v[i], n), *t = traffic_at(d, v[i], n);
            if (!g)
                continue;
            char p1[16], p2[16];
            fmt_pct(p1, sizeof p1, cb ? 100 * g->gflops / cb->gflops : NAN);
            fmt_pct(p2, sizeof p2, 100 * g->gflops / d->peak_gflops);
            fprintf(to, "| %s | %.3f |", v[i], g->median_ms);
            cell(to, g->gflops);
            fprintf(to, " %s | %s |", p1, p2);
            for (int l = 0; l < N_LEVELS; l++)
                fprintf(to, " %.2f |", t ? level_bytes(t, l) / 1e9 : NAN);
            fputc('\n', to);
        }
    } else {
        snprintf(err, errlen, "--readme '%s': the labs with measured tables are 01 to 08", lab);
        return -1;
    }
    return 0;
}
