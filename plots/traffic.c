/* traffic.c: bytes per memory level per kernel, as records rows of kind 'traffic' (tl-traffic).
 *
 *   measured:  tl-traffic --ncu NCU.log --size N --map VARIANT=KERNEL... [--others VARIANT]
 *                         [--ignore KERNEL...] --records OUT.csv
 *   model:     tl-traffic --model --size N --variants LIST --records OUT.csv [--why TEXT]
 *
 * Measured: NCU.log is the output of
 *   ncu --clock-control none --csv --print-units base --print-kernel-base function --log-file NCU.log
 *       --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,
 *                 l1tex__data_pipe_lsu_wavefronts_mem_shared.sum  speed-ref --no-time --repeat 1 ...
 * (plots/kit-bench.sh runs exactly that). Each profiled kernel is given to a variant by its name
 * (--map naive=MatrixMulKernel; a variant may map several kernels); kernels no map names go to the
 * --others variant (cuBLAS picks its own kernels), and without --others they are an error. The bytes
 * of all kernels of a variant are summed: dram = read + write, l2 = lts__t_bytes, l1 = l1tex__t_bytes,
 * shared = shared-memory wavefronts x 128 B (one wavefront is one pass of the 128-byte-wide shared
 * memory pipe: conflicts show as extra wavefronts, broadcasts do not).
 *
 * Model: the lecture's first-order count, for when the counters cannot be read: every operand load of
 * a kernel without tiles goes to global memory (8 bytes per multiply-add), a TILE_WIDTH T kernel loads
 * 1/T of that and reads 8 bytes of shared memory per multiply-add; for cuBLAS and lab 06 only the
 * compulsory traffic (each matrix moved once) is known, at the DRAM level. Rows say traffic=model.
 *
 * Exit codes: 0 ok, 1 the ncu log holds no measurement (or an error such as ERR_NVGPUCTRPERM),
 * 2 bad usage or input.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilelab.h"

#define MAX_MAP 64
#define SHARED_WAVEFRONT_BYTES 128.0

typedef struct map_entry {
    char variant[48];
    char kernel[128];
} map_entry;

typedef struct totals {
    char variant[48];
    double dram, l2, l1, shared_wf;
    int have_dram_r, have_dram_w, have_l2, have_l1, have_shared;
    int kernels;
} totals;

static int die2(const char *fmt, const char *a)
{
    fprintf(stderr, "tl-traffic: ");
    fprintf(stderr, fmt, a);
    fputc('\n', stderr);
    return 2;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: tl-traffic --ncu NCU.log --size N --map VARIANT=KERNEL... [--others VARIANT]\n"
                "                  [--ignore KERNEL]... --records OUT.csv\n"
                "       tl-traffic --model --size N --variants LIST --records OUT.csv [--why TEXT]\n"
                "Writes records rows of kind 'traffic': bytes through DRAM, L2, L1 and shared memory per\n"
                "variant, measured (from ncu's counters) or model (the lecture's count). See plots/README.md.\n");
}

/* Split one CSV line of ncu's (fields in double quotes, "" inside for a quote) into FIELDS. */
static int csv_fields(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (*p && n < max) {
        if (*p == '"') {
            char *out = ++p, *start = p;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"')
                    p++;
                *out++ = *p++;
            }
            if (*p == '"')
                p++;
            *out = '\0';
            fields[n++] = start;
        } else {
            fields[n++] = p;
            while (*p && *p != ',')
                p++;
        }
        if (*p == ',')
            *p++ = '\0';
        else
            break;
    }
    return n;
}

/* "17,012,345" or "1.5e9", with ncu's unit: bytes. -1 when it is not a number. */
static double parse_value(const char *v, const char *unit)
{
    char buf[64];
    size_t j = 0;
    for (const char *p = v; *p && j + 1 < sizeof buf; p++)
        if (*p != ',')
            buf[j++] = *p;
    buf[j] = '\0';
    char *end = NULL;
    errno = 0;
    double x = strtod(buf, &end);
    if (j == 0 || *end || errno || !isfinite(x) || x < 0)
        return -1;
    static const struct { const char *unit; double scale; } units[] = {
        {"byte", 1}, {"Kbyte", 1e3}, {"Mbyte", 1e6}, {"Gbyte", 1e9}, {"Tbyte", 1e12}, {"", 1}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i].unit) == 0)
            return x * units[i].scale;
    return x; /* counts (wavefronts) have no scaled unit with --print-units base */
}

static totals *find_totals(totals *t, int *nt, const char *variant)
{
    for (int i = 0; i < *nt; i++)
        if (strcmp(t[i].variant, variant) == 0)
            return &t[i];
    if (*nt >= MAX_MAP)
        return NULL;
    memset(&t[*nt], 0, sizeof t[*nt]);
    snprintf(t[*nt].variant, sizeof t[*nt].variant, "%s", variant);
    return &t[(*nt)++];
}

/* Read ncu's log into per-variant totals. 0 ok, 1 no measurement (message printed), 2 bad input. */
static int read_ncu(const char *path, const map_entry *map, int nmap, const char *others, char **ignore,
                    int nignore, totals *t, int *nt)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return die2("cannot open the ncu log '%s'; run ncu with --log-file first (plots/kit-bench.sh does)", path);
    char line[8192];
    int col_id = -1, col_kernel = -1, col_metric = -1, col_unit = -1, col_value = -1, rows = 0, rc = 0;
    long last_id = -1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strstr(line, "ERR_NVGPUCTRPERM")) {
            fprintf(stderr, "tl-traffic: ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM)\n");
            fclose(f);
            return 1;
        }
        if (line[0] != '"')
            continue;
        char *fld[64];
        int nf = csv_fields(line, fld, 64);
        if (col_id < 0) {
            for (int i = 0; i < nf; i++) {
                if (!strcmp(fld[i], "ID")) col_id = i;
                else if (!strcmp(fld[i], "Kernel Name")) col_kernel = i;
                else if (!strcmp(fld[i], "Metric Name")) col_metric = i;
                else if (!strcmp(fld[i], "Metric Unit")) col_unit = i;
                else if (!strcmp(fld[i], "Metric Value")) col_value = i;
            }
            if (col_id < 0 || col_kernel < 0 || col_metric < 0 || col_unit < 0 || col_value < 0) {
                fclose(f);
                return die2("'%s': the first CSV line is not ncu's header (ID, Kernel Name, Metric Name, Metric "
                            "Unit, Metric Value); run ncu with --csv and the default page", path);
            }
            continue;
        }
        if (nf <= col_value)
            continue;
        const char *kernel = fld[col_kernel];
        int skip = 0;
        for (int i = 0; i < nignore; i++)
            skip |= strcmp(kernel, ignore[i]) == 0;
        if (skip)
            continue;
        const char *variant = others;
        for (int i = 0; i < nmap; i++)
            if (strcmp(map[i].kernel, kernel) == 0)
                variant = map[i].variant;
        if (!variant) {
            fprintf(stderr, "tl-traffic: %s: kernel '%s' is in no --map and there is no --others variant\n", path,
                    kernel);
            rc = 2;
            break;
        }
        totals *v = find_totals(t, nt, variant);
        if (!v) {
            rc = die2("more than 64 variants in '%s'", path);
            break;
        }
        long id = strtol(fld[col_id], NULL, 10);
        if (id != last_id)
            v->kernels++;
        last_id = id;
        double x = parse_value(fld[col_value], fld[col_unit]);
        const char *m = fld[col_metric];
        if (x < 0) {
            fprintf(stderr, "tl-traffic: %s: metric %s of kernel '%s' is '%s', not a number (n/a: the counter "
                    "could not be read)\n", path, m, kernel, fld[col_value]);
            rc = 1;
            break;
        }
        rows++;
        if (!strcmp(m, "dram__bytes_read.sum")) { v->dram += x; v->have_dram_r = 1; }
        else if (!strcmp(m, "dram__bytes_write.sum")) { v->dram += x; v->have_dram_w = 1; }
        else if (!strcmp(m, "lts__t_bytes.sum")) { v->l2 += x; v->have_l2 = 1; }
        else if (!strcmp(m, "l1tex__t_bytes.sum")) { v->l1 += x; v->have_l1 = 1; }
        else if (!strcmp(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")) { v->shared_wf += x; v->have_shared = 1; }
    }
    fclose(f);
    if (rc)
        return rc;
    if (rows == 0) {
        fprintf(stderr, "tl-traffic: %s holds no metric values: did the profiled program launch no kernel, or "
                "did ncu fail (its messages are in the log)?\n", path);
        return 1;
    }
    for (int i = 0; i < *nt; i++) {
        if (!t[i].have_dram_r || !t[i].have_dram_w || !t[i].have_l2 || !t[i].have_l1 || !t[i].have_shared) {
            fprintf(stderr, "tl-traffic: %s: variant %s lacks one of the five metrics; pass all of them to ncu "
                    "(--metrics, see tl-traffic --help)\n", path, t[i].variant);
            return 2;
        }
    }
    return 0;
}

/* The lecture's first-order traffic of VARIANT at n x n x n; -1 where the model says nothing. */
static void model_bytes(const char *variant, double n, double *dram, double *l2, double *l1, double *shared)
{
    double fma = n * n * n, out = 4 * n * n;
    int tile = strstr(variant, "16") ? 16 : strstr(variant, "32") ? 32 : 0;
    if (strncmp(variant, "naive", 5) == 0) {
        *dram = *l2 = *l1 = 8 * fma + out;
        *shared = 0;
    } else if (tile && (!strncmp(variant, "tiled", 5) || !strncmp(variant, "boundary", 8))) {
        *dram = *l2 = *l1 = 8 * fma / tile + out;
        *shared = 8 * fma + 8 * fma / tile; /* reads per multiply-add, writes per load */
    } else { /* cuBLAS, lab 06: only the compulsory traffic is known */
        *dram = 12 * n * n;
        *l2 = *l1 = *shared = -1;
    }
}

int main(int argc, char **argv)
{
    const char *ncu = NULL, *records = NULL, *others = NULL, *variants = NULL, *why = NULL;
    long size = 0;
    int model = 0, nmap = 0, nignore = 0;
    map_entry map[MAX_MAP];
    char *ignore[MAX_MAP];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--model")) {
            model = 1;
            continue;
        }
        if (!v) {
            usage(stderr);
            return die2("option '%s' needs a value", a);
        }
        i++;
        if (!strcmp(a, "--ncu")) ncu = v;
        else if (!strcmp(a, "--records")) records = v;
        else if (!strcmp(a, "--others")) others = v;
        else if (!strcmp(a, "--variants")) variants = v;
        else if (!strcmp(a, "--why")) why = v;
        else if (!strcmp(a, "--ignore") && nignore < MAX_MAP) ignore[nignore++] = (char *)v;
        else if (!strcmp(a, "--size")) {
            if (tl_parse_int(v, 1, 1 << 20, &size) != 0)
                return die2("--size '%s' is not a whole number from 1 to 1048576", v);
        } else if (!strcmp(a, "--map") && nmap < MAX_MAP) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1] || (size_t)(eq - v) >= sizeof map[0].variant)
                return die2("--map '%s' is not VARIANT=KERNEL", v);
            snprintf(map[nmap].variant, sizeof map[nmap].variant, "%.*s", (int)(eq - v), v);
            snprintf(map[nmap].kernel, sizeof map[nmap].kernel, "%s", eq + 1);
            nmap++;
        } else {
            usage(stderr);
            return die2("unknown option '%s'", a);
        }
    }
    if (!records || size <= 0 || (!model && !ncu) || (model && !variants)) {
        usage(stderr);
        return die2("%s", !records ? "no --records OUT.csv" : size <= 0 ? "no --size N"
                          : model ? "--model needs --variants LIST" : "no --ncu NCU.log (or --model)");
    }

    totals t[MAX_MAP];
    int nt = 0;
    if (model) {
        char list[1024];
        snprintf(list, sizeof list, "%s", variants);
        for (char *save = NULL, *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
            totals *x = find_totals(t, &nt, v);
            if (!x)
                return die2("more than 64 variants in '%s'", variants);
        }
    } else {
        int rc = read_ncu(ncu, map, nmap, others, ignore, nignore, t, &nt);
        if (rc)
            return rc;
    }

    char extra[600], err[TL_REC_ERRLEN];
    snprintf(extra, sizeof extra, "# traffic: %s\n# traffic_source: %s", model ? "model" : "measured",
             model ? (why ? why : "the lecture's first-order count") :
             "ncu --clock-control none, one launch per kernel; shared = wavefronts x 128 B");
    tl_records rec;
    if (tl_records_open(&rec, records, NULL, 0, model ? "none (traffic rows only)" : "ncu (kernel replay)",
                        extra, err, sizeof err) != 0)
        return die2("%s", err);
    for (int i = 0; i < nt; i++) {
        double dram, l2, l1, shared;
        if (model) {
            model_bytes(t[i].variant, (double)size, &dram, &l2, &l1, &shared);
        } else {
            dram = t[i].dram;
            l2 = t[i].l2;
            l1 = t[i].l1;
            shared = t[i].shared_wf * SHARED_WAVEFRONT_BYTES;
        }
        tl_record_row row = {"traffic", "speed", t[i].variant, (int)size, (int)size, (int)size, 0, -1, -1, -1, -1,
                             "PASS", NULL, -1, -1, model ? "model" : "measured", dram, l2, l1, shared, NULL};
        tl_records_row(&rec, &row);
        printf("  %-18s %s  DRAM %9.3f GB  L2 %9.3f GB  L1 %9.3f GB  shared %9.3f GB\n", t[i].variant,
               model ? "model   " : "measured", dram / 1e9, l2 / 1e9, l1 / 1e9, shared / 1e9);
    }
    if (tl_records_close(&rec, err, sizeof err) != 0)
        return die2("%s", err);
    return 0;
}
