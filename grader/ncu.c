/* ncu.c: see ncu.h. Theory of operation: the grader runs the student's lab program under ncu
 * inside the sandbox (counters.c); ncu's front end, a process of its own, collects each kernel's
 * hardware counters through its injection into the target and writes them to a file of the
 * grader's; this file reads that file in the grader's process and applies the lab's rule. What
 * the student's process says is never read here. */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu.h"

/* quantity -> metric and factor to thread instructions (or ns, or bytes) */
static const struct {
    const char *metric;
    double      factor;
} metric_of[TG_NCU_NQ] = {
    [TG_NCU_TIME] = {"gpu__time_duration.sum", 1},
    [TG_NCU_FFMA] = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 1},
    [TG_NCU_DFMA] = {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 1},
    [TG_NCU_FMUL] = {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 1},
    [TG_NCU_FADD] = {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1},
    [TG_NCU_GLD] = {"smsp__sass_inst_executed_op_global_ld.sum", 32},
    [TG_NCU_GST] = {"smsp__sass_inst_executed_op_global_st.sum", 32},
    [TG_NCU_SLD] = {"smsp__sass_inst_executed_op_shared_ld.sum", 32},
    [TG_NCU_SST] = {"smsp__sass_inst_executed_op_shared_st.sum", 32},
    [TG_NCU_LDGSTS] = {"smsp__sass_inst_executed_op_ldgsts.sum", 32},
    [TG_NCU_GLD_BYTES] = {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", 1},
    [TG_NCU_GLD_DATA] = {"smsp__sass_data_bytes_mem_global_op_ld.sum", 1},
    [TG_NCU_LDGSTS_DATA] = {"smsp__sass_data_bytes_mem_global_op_ldgsts.sum", 1},
    /* names as `ncu --query-metrics --chip gh100` lists them (device request ncu-1, ncu 2025.3.1) */
    [TG_NCU_GATOM] = {"smsp__sass_inst_executed_op_global_atom.sum", 32},
    [TG_NCU_GRED] = {"smsp__sass_inst_executed_op_global_red.sum", 32},
};

/* Optional columns: older recordings (tests/ncu) lack them, and the rule then falls back to the
 * instruction counts. */
static int optional_q(int q)
{
    return q == TG_NCU_LDGSTS || q == TG_NCU_GLD_BYTES || q >= TG_NCU_GLD_DATA;
}

const char *tg_ncu_metric_name(int q)
{
    return q >= 0 && q < TG_NCU_NQ ? metric_of[q].metric : "";
}

const char *tg_ncu_metrics(void)
{
    static char list[2048];
    if (!list[0]) {
        size_t l = 0;
        for (int q = 0; q < TG_NCU_NQ; ++q)
            l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", q ? "," : "", metric_of[q].metric);
    }
    return list;
}

/* common/device.cu's kernels, as ncu names them (demangled, parameters included) */
static const char *const kit_kernels[] = {
    "tl_l2_flush_kernel(float *, unsigned long)",
    "tl_scale_kernel(float *, unsigned long, float)",
    "tl_rep_check_kernel(const float *, const float *, unsigned long, float, float, int *)",
    NULL,
};

int tg_ncu_kit_kernel(const char *name)
{
    for (int i = 0; kit_kernels[i]; ++i)
        if (strcmp(name, kit_kernels[i]) == 0)
            return 1;
    return 0;
}

int tg_ncu_marker(const char *name)
{
    return strcmp(name, TG_NCU_MARKER) == 0;
}

/* ------------------------------------------------------------------ CSV */

/* One CSV line (RFC 4180: quoted fields, "" inside) into at most max fields, each malloc'd. */
static int csv_fields(const char *p, const char *end, char **f, int max)
{
    int n = 0;
    while (p <= end && n < max) {
        char *out = malloc((size_t)(end - p) + 2), *o = out;
        if (!out)
            break;
        if (p < end && *p == '"') {
            ++p;
            while (p < end) {
                if (*p == '"' && p + 1 < end && p[1] == '"') {
                    *o++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    ++p;
                    break;
                } else {
                    *o++ = *p++;
                }
            }
            while (p < end && *p != ',')
                ++p;
        } else {
            while (p < end && *p != ',')
                *o++ = *p++;
        }
        *o = '\0';
        f[n++] = out;
        if (p >= end)
            break;
        ++p;   /* the comma */
    }
    return n;
}

static void free_fields(char **f, int n)
{
    for (int i = 0; i < n; ++i)
        free(f[i]);
}

/* A number as ncu prints it ("1,234.5", "n/a"): 1 with *v set, 0 not a number. */
static int number(const char *s, double *v)
{
    char buf[128];
    size_t l = 0;
    for (; *s && l < sizeof buf - 1; ++s)
        if (*s != ',' && !isspace((unsigned char)*s))
            buf[l++] = *s;
    buf[l] = '\0';
    if (!l)
        return 0;
    char *end;
    *v = strtod(buf, &end);
    return *end == '\0' && isfinite(*v);
}

/* The factor from a unit to the base one (time: ns; bytes: byte; counts: 1). */
static double unit_factor(const char *u)
{
    static const struct { const char *u; double f; } units[] = {
        {"nsecond", 1}, {"usecond", 1e3}, {"msecond", 1e6}, {"second", 1e9}, {"ns", 1}, {"us", 1e3}, {"ms", 1e6},
        {"s", 1e9}, {"byte", 1}, {"Kbyte", 1e3}, {"Mbyte", 1e6}, {"Gbyte", 1e9}, {"Tbyte", 1e12}, {"", 1},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; ++i)
        if (strcmp(u, units[i].u) == 0)
            return units[i].f;
    /* a count with a prefix: "Kinst", "M" */
    if (u[0] == 'K') return 1e3;
    if (u[0] == 'M') return 1e6;
    if (u[0] == 'G') return 1e9;
    return 1;
}

int tg_ncu_parse(const char *text, size_t len, tg_ncu_counts *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    enum { MAXF = 400 };
    char **f = calloc(MAXF, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory reading ncu's output");
        return -1;
    }
    int col[TG_NCU_NQ], name_col = -1, have_head = 0, have_units = 0;
    double factor[TG_NCU_NQ];
    for (int q = 0; q < TG_NCU_NQ; ++q) {
        col[q] = -1;
        factor[q] = metric_of[q].factor;
    }
    size_t nl = 0;
    for (const char *p = text, *end = text + len; p < end; p = end > p + nl ? p + nl + 1 : end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        nl = (size_t)((e ? e : end) - p);
        const char *le = p + nl;
        if (le > p && le[-1] == '\r')
            --le;
        if (nl == 0 || *p != '"')
            continue;                       /* ncu's own lines (==PROF== ...), or the program's */
        int n = csv_fields(p, le, f, MAXF);
        if (!have_head) {
            for (int i = 0; i < n; ++i) {
                if (strcmp(f[i], "Kernel Name") == 0)
                    name_col = i;
                for (int q = 0; q < TG_NCU_NQ; ++q)
                    if (strcmp(f[i], metric_of[q].metric) == 0)
                        col[q] = i;
            }
            have_head = name_col >= 0;
        } else if (!have_units) {
            /* the units row: the first field is empty (under "ID") */
            for (int q = 0; q < TG_NCU_NQ; ++q)
                if (col[q] >= 0 && col[q] < n)
                    factor[q] *= unit_factor(f[col[q]]);
            have_units = 1;
        } else if (name_col < n) {
            const char *name = f[name_col];
            if (tg_ncu_marker(name)) {
                ;                           /* the request marker: the kit's delimiter, not counted */
            } else if (tg_ncu_kit_kernel(name)) {
                out->kit_kernels++;
            } else {
                out->kernels++;
                size_t l = strlen(out->names);
                if (l + 8 < sizeof out->names && !strstr(out->names, name)) {
                    snprintf(out->names + l, sizeof out->names - l, "%s%s", l ? ", " : "", name);
                    for (char *c = out->names + l; *c; ++c)   /* printable ASCII only */
                        if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
                            *c = '?';
                }
                for (int q = 0; q < TG_NCU_NQ; ++q) {
                    double v;
                    if (col[q] >= 0 && col[q] < n && number(f[col[q]], &v)) {
                        out->q[q] += v * factor[q];
                        out->have[q] = 1;
                    }
                }
            }
        }
        free_fields(f, n);
    }
    free(f);
    if (!have_head) {
        snprintf(err, errlen, "ncu wrote no CSV table (no header with \"Kernel Name\")");
        return -1;
    }
    for (int q = 0; q < TG_NCU_NQ; ++q)
        if (col[q] < 0 && !optional_q(q)) {
            snprintf(err, errlen, "ncu's table has no column %s", metric_of[q].metric);
            return -1;
        }
    return 0;
}

/* ------------------------------------------------------------------ one session, several requests */

typedef struct split_part {
    char  *s;
    size_t len, cap;
} split_part;

static int part_add(split_part *p, const char *line, size_t l)
{
    if (p->len + l + 2 > p->cap) {
        size_t cap = (p->cap ? p->cap * 2 : 4096) + l + 2;
        char *n = realloc(p->s, cap);
        if (!n)
            return -1;
        p->s = n;
        p->cap = cap;
    }
    memcpy(p->s + p->len, line, l);
    p->len += l;
    p->s[p->len++] = '\n';
    p->s[p->len] = '\0';
    return 0;
}

int tg_ncu_split(const char *text, size_t len, int nreq, char **part, size_t *plen, char *why, size_t whylen)
{
    enum { MAXF = 400 };
    why[0] = '\0';
    if (nreq < 1 || nreq > 64) {
        snprintf(why, whylen, "%d requests: not a session to split", nreq);
        return -1;
    }
    char **f = calloc(MAXF, sizeof *f);
    split_part *pt = calloc((size_t)nreq, sizeof *pt);
    split_part head = {0};
    int name_col = -1, grid_col = -1, rows_seen = 0, markers = 0, bad = 0;
    if (!f || !pt) {
        snprintf(why, whylen, "out of memory splitting ncu's table");
        bad = 1;
    }
    size_t nl = 0;
    for (const char *p = text, *end = text + len; !bad && p < end; p = end > p + nl ? p + nl + 1 : end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        nl = (size_t)((e ? e : end) - p);
        const char *le = p + nl;
        if (le > p && le[-1] == '\r')
            --le;
        if (nl == 0 || *p != '"')
            continue;                       /* ncu's own lines, or the program's */
        if (name_col < 0 || rows_seen < 1) {   /* the header, then the units row: every part's */
            if (name_col < 0) {
                int n = csv_fields(p, le, f, MAXF);
                for (int i = 0; i < n; ++i) {
                    if (strcmp(f[i], "Kernel Name") == 0)
                        name_col = i;
                    else if (strcmp(f[i], "Grid Size") == 0)
                        grid_col = i;
                }
                free_fields(f, n);
                if (name_col < 0)
                    continue;               /* not ncu's header: not a table line */
            } else {
                rows_seen = 1;
            }
            if (part_add(&head, p, (size_t)(le - p)) != 0)
                bad = 1;
            continue;
        }
        int n = csv_fields(p, le, f, MAXF);
        if (name_col < n && tg_ncu_marker(f[name_col])) {
            char want[32];
            snprintf(want, sizeof want, "(%d, 1, 1)", markers + 1);
            if (grid_col < 0 || grid_col >= n || strcmp(f[grid_col], want) != 0) {
                snprintf(why, whylen, "request marker %d has grid %.40s, not %s: out of order", markers + 1,
                         grid_col >= 0 && grid_col < n ? f[grid_col] : "(none)", want);
                bad = 1;
            } else if (++markers > nreq) {
                snprintf(why, whylen, "more request markers than the %d requests sent", nreq);
                bad = 1;
            }
        } else if (markers == 0) {
            snprintf(why, whylen, "a kernel (%.80s) before the first request's marker", name_col < n ? f[name_col] : "?");
            bad = 1;
        } else if (part_add(&pt[markers - 1], p, (size_t)(le - p)) != 0) {
            bad = 1;
        }
        free_fields(f, n);
    }
    if (!bad && name_col < 0) {
        snprintf(why, whylen, "ncu wrote no CSV table (no header with \"Kernel Name\")");
        bad = 1;
    }
    if (!bad && markers != nreq) {
        snprintf(why, whylen, "%d request marker%s for %d requests", markers, markers == 1 ? "" : "s", nreq);
        bad = 1;
    }
    for (int i = 0; i < nreq && pt; ++i) {
        if (!bad) {
            split_part whole = {0};
            if (part_add(&whole, head.s ? head.s : "", head.len ? head.len - 1 : 0) != 0 ||
                (pt[i].len && part_add(&whole, pt[i].s, pt[i].len - 1) != 0)) {
                snprintf(why, whylen, "out of memory splitting ncu's table");
                bad = 1;
                for (int j = 0; j < i; ++j)
                    free(part[j]), part[j] = NULL;
                free(whole.s);
            } else {
                part[i] = whole.s;
                plen[i] = whole.len;
            }
        }
        free(pt[i].s);
    }
    free(pt);
    free(head.s);
    free(f);
    if (bad && !why[0])
        snprintf(why, whylen, "out of memory splitting ncu's table");
    return bad ? -1 : 0;
}

int tg_ncu_session_counts(const char *text, size_t len, int nreq, tg_ncu_counts *out, char *why, size_t whylen)
{
    char err[600];
    char *part[64] = {NULL};
    size_t plen[64] = {0};
    why[0] = '\0';
    if (tg_ncu_problem(text, err, sizeof err)) {
        snprintf(why, whylen, "%.300s", err);
        return -1;
    }
    if (tg_ncu_split(text, len, nreq, part, plen, err, sizeof err) != 0) {
        snprintf(why, whylen, "ncu's table did not split per request: %.300s", err);
        return -1;
    }
    int rc = 0;
    for (int j = 0; j < nreq; ++j) {
        if (rc == 0 && tg_ncu_parse(part[j], plen[j], &out[j], err, sizeof err) != 0) {
            snprintf(why, whylen, "request %d's table: %.300s", j + 1, err);
            rc = -1;
        }
        free(part[j]);
    }
    return rc;
}

int tg_ncu_problem(const char *text, char *why, size_t whylen)
{
    if (!text)
        return 0;
    if (strstr(text, "ERR_NVGPUCTRPERM")) {
        snprintf(why, whylen, "the GPU's performance counters are for administrators on this machine "
                 "(ncu: ERR_NVGPUCTRPERM; the driver's NVreg_RestrictProfilingToAdminUsers=1, its default), and the "
                 "sandbox runs the student's program as uid 65534 without capabilities; an administrator lifts it "
                 "with 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d and a reload of the "
                 "driver (NVIDIA's ERR_NVGPUCTRPERM page)");
        return 1;
    }
    const char *e = strstr(text, "==ERROR==");
    if (e) {
        size_t l = strcspn(e, "\n");
        snprintf(why, whylen, "ncu failed: %.*s", (int)(l > 300 ? 300 : l), e);
        for (char *c = why; *c; ++c)
            if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
                *c = ' ';
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ the rule */

int tg_ncu_judge(const tl_lab_info *lab, int tile, int m, int k, int n, const tg_ncu_counts *c, char *headline,
                 size_t hlen, char *figures, size_t flen, const char **pattern)
{
    const char *none;
    if (!pattern)
        pattern = &none;
    *pattern = NULL;
    headline[0] = figures[0] = '\0';
    double mkn = (double)m * k * n;
    double fma = c->q[TG_NCU_FFMA] + c->q[TG_NCU_DFMA] + fmin(c->q[TG_NCU_FMUL], c->q[TG_NCU_FADD]);
    double gld = c->q[TG_NCU_GLD] + c->q[TG_NCU_LDGSTS];
    /* "at most" counts: instructions (an element or more each); "at least": x the widest access */
    tl_work_counts w = {
        .launches = (unsigned long long)c->kernels,
        .global_loads = (unsigned long long)llround(gld),
        /* an atomic or a reduction to global memory stores too (03-right-style-lambda-ldg-tiles.cu
         * stores P with atomicExch: 0 STG, and 50/100 on the H100 before these were counted) */
        .global_stores = (unsigned long long)llround(c->q[TG_NCU_GST] * TG_NCU_VEC_WIDTH + c->q[TG_NCU_GATOM] +
                                                     c->q[TG_NCU_GRED]),
        .shared_loads = (unsigned long long)llround(c->q[TG_NCU_SLD]),
        .shared_stores = (unsigned long long)llround((c->q[TG_NCU_SST] + c->q[TG_NCU_LDGSTS]) * TG_NCU_VEC_WIDTH),
        .shared_loads_most = (unsigned long long)llround(c->q[TG_NCU_SLD] * TG_NCU_VEC_WIDTH),
    };
    /* The bytes a warp's loads asked for (smsp__sass_data_bytes_mem_global_op_*, where ncu wrote them)
     * are a lower bound of the elements moved: idle lanes ask for nothing (warp instructions x 32 count
     * them: an honest kernel whose M tile is loaded by a quarter of each warp's lanes read 0.3125
     * global loads per multiply-add, 2.5 x its true 0.125, on the H100, 2026-11-26), and lanes reading
     * one address ask for it once (lab 02's kernel at 16 x 16: 0.5625 instead of 2). So they serve the
     * "at most" rule only; the "at least" rules keep the instruction counts above. */
    if (c->have[TG_NCU_GLD_DATA]) {
        double async = c->have[TG_NCU_LDGSTS_DATA] ? c->q[TG_NCU_LDGSTS_DATA] : 0;
        double least = (c->q[TG_NCU_GLD_DATA] + async) / TG_NCU_ELEM_BYTES;
        if (least < gld)
            w.global_loads_least = (unsigned long long)llround(least > 1 ? least : 1);
    }
    char head[480], fig[480];
    int bad = tl_work_judge_why(lab, tile, m, k, n, &w, head, sizeof head, fig, sizeof fig, pattern);
    size_t fl = (size_t)snprintf(figures, flen, "%s; multiply-adds executed (FFMA, DFMA, FMUL+FADD) per m k n: %.4g",
                                 fig, mkn > 0 ? fma / mkn : 0);
    if (fl < flen && c->have[TG_NCU_GLD_BYTES] && mkn > 0)
        fl += (size_t)snprintf(figures + fl, flen - fl, "; bytes read from global memory through L1 per "
                               "multiply-add: %.4g", c->q[TG_NCU_GLD_BYTES] / mkn);
    if (fl < flen && c->have[TG_NCU_TIME])
        snprintf(figures + fl, flen - fl, "; kernel time %.3f ms", c->q[TG_NCU_TIME] / 1e6);
    if (!bad && c->kernels > 0 && fma < TG_NCU_FMA_MARGIN * mkn) {
        snprintf(head, sizeof head, "host-side computation: the GPU executed %.0f multiply-adds at %d x %d x %d, %.3g "
                 "of the m k n = %.0f the product needs (at least %.2g: FFMA, DFMA and FMUL+FADD instructions, read "
                 "from the GPU's counters by ncu outside the program's process): P was computed elsewhere",
                 fma, m, k, n, fma / mkn, mkn, TG_NCU_FMA_MARGIN);
        *pattern = "host-side-computation";
        bad = 1;
    }
    if (bad)
        snprintf(headline, hlen, "%s", head);
    return bad;
}

int tg_ncu_timing(double reported_ms, double kernel_ms, char *why, size_t whylen)
{
    why[0] = '\0';
    if (!(kernel_ms > 0))
        return 0;
    if (!(reported_ms >= TG_NCU_TIME_MARGIN * kernel_ms)) {
        snprintf(why, whylen, "forged timing: the reported median %.3f ms is below %.2g x the %.3f ms its kernels "
                 "took on the GPU for the same case (ncu's gpu__time_duration, read outside the program's process): a "
                 "timed run cannot be faster than its kernels", reported_ms, TG_NCU_TIME_MARGIN, kernel_ms);
        return 1;
    }
    snprintf(why, whylen, "the reported median %.3f ms against %.3f ms of kernel time measured by ncu outside the "
             "program's process (ratio %.2f; below %.2g would be a forged timing)", reported_ms, kernel_ms,
             reported_ms / kernel_ms, TG_NCU_TIME_MARGIN);
    return 0;
}

int tg_ncu_review(double reported_ms, double kernel_ms, char *why, size_t whylen)
{
    why[0] = '\0';
    if (!(kernel_ms > 0) || !(reported_ms > TG_NCU_REVIEW_RATIO * kernel_ms))
        return 0;
    snprintf(why, whylen, "REVIEW: the timed runs took %.2f x the GPU time of the kernels ncu profiled for the same "
             "case (%.3f ms against %.3f ms; honest kernels measured 0.99-1.00 on an H100): the graded runs may run "
             "other kernels than the profiled run (a program that knows it is profiled)", reported_ms / kernel_ms,
             reported_ms, kernel_ms);
    return 1;
}
