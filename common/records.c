/* records.c: the one records format (CONTRACTS.md section 4, records.h): the writer, which writes
 * atomically (FILE.tmp, then rename), and the strict reader that tl-plotprep and the tests use.
 *
 * Shape of a file: '# key: value' metadata lines, then the header line, then rows. The reader walks
 * it line by line with plain string functions (no regular expressions), keeps the line number of
 * every row, and stops at the first problem with a message that names file, line and fix.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tilelab.h"

/* ================================================================================================ */
/* writing                                                                                          */


#ifndef TL_BUILD_TYPE
#define TL_BUILD_TYPE "unknown"
#endif

const char tl_records_header[] = TL_REC_HEADER;

const char *tl_build_type(void)
{
    return TL_BUILD_TYPE;
}

/* Metadata values must stay on one line and keep the CSV parseable. */
static void clean(char *dst, size_t len, const char *src)
{
    size_t i = 0;
    for (; src && *src && i + 1 < len; ++src)
        dst[i++] = (*src == '\n' || *src == '\r') ? ' ' : *src;
    dst[i] = '\0';
    if (i == 0)
        snprintf(dst, len, "unknown");
}

int tl_records_open(tl_records *r, const char *path, const struct tl_device_info *dev, uint64_t seed,
                    const char *timing, const char *extra, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (snprintf(r->path, sizeof r->path, "%s", path) >= (int)sizeof r->path) {
        snprintf(err, errlen, "records file '%s': path too long", path);
        return -1;
    }
    snprintf(r->tmp, sizeof r->tmp, "%s.tmp", path);
    r->f = fopen(r->tmp, "w");
    if (!r->f) {
        snprintf(err, errlen, "records file '%s': cannot create '%s' (%s); check the folder exists "
                 "and is writable", path, r->tmp, strerror(errno));
        return -1;
    }
    char date[32], host[128] = "unknown", v[300];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    gethostname(host, sizeof host - 1);
    fprintf(r->f, "# tilelab_records: %d\n# kit_version: %s\n", TL_REC_VERSION, TL_KIT_VERSION);
    if (dev && dev->present) {
        clean(v, sizeof v, dev->name);
        fprintf(r->f, "# device: %s\n# compute_capability: %d.%d\n# sm_count: %d\n"
                "# sm_clock_mhz: %d\n# mem_clock_mhz: %d\n# mem_bus_bits: %d\n# l2_bytes: %ld\n"
                "# driver: %d\n# runtime: %d\n",
                v, dev->major, dev->minor, dev->sm_count, dev->sm_clock_mhz, dev->mem_clock_mhz,
                dev->mem_bus_bits, dev->l2_bytes, dev->driver_version, dev->runtime_version);
    } else {
        fprintf(r->f, "# device: %s\n# compute_capability: unknown\n# sm_count: unknown\n"
                "# sm_clock_mhz: unknown\n# mem_clock_mhz: unknown\n# mem_bus_bits: unknown\n"
                "# l2_bytes: unknown\n# driver: unknown\n# runtime: unknown\n",
                dev ? "none (CPU only)" : "unknown");
    }
    clean(v, sizeof v, host);
    fprintf(r->f, "# build_type: %s\n# date: %s\n# seed: %llu\n# host: %s\n", TL_BUILD_TYPE, date,
            (unsigned long long)seed, v);
    clean(v, sizeof v, timing);
    fprintf(r->f, "# timing: %s\n", v);
    if (extra && *extra)
        fprintf(r->f, "%s%s", extra, extra[strlen(extra) - 1] == '\n' ? "" : "\n");
    fprintf(r->f, "%s\n", tl_records_header);
    return 0;
}

static void put_int(FILE *f, int v, int empty_below)
{
    if (v >= empty_below)
        fprintf(f, ",%d", v);
    else
        fputc(',', f);
}

static void put_dbl(FILE *f, double v, const char *fmt)
{
    fputc(',', f);
    if (v >= 0)
        fprintf(f, fmt, v);
}

void tl_records_row(tl_records *r, const tl_record_row *w)
{
    if (!r->f)
        return;
    fprintf(r->f, "%s,%s,%s", w->kind, w->lab, w->variant);
    put_int(r->f, w->m, 1);
    put_int(r->f, w->k, 1);
    put_int(r->f, w->n, 1);
    put_int(r->f, w->tile, 1);
    put_int(r->f, w->regs, 0);
    put_int(r->f, w->smem_bytes, 0);
    put_dbl(r->f, w->occ_calc, "%.4f");
    put_dbl(r->f, w->occ_api, "%.4f");
    fprintf(r->f, ",%s", w->status);
    int timed = w->stats && strcmp(w->status, "PASS") == 0;
    if (timed)
        fprintf(r->f, ",%d,%.6f,%.6f,%.6f", w->stats->reps, w->stats->median_ms, w->stats->min_ms,
                w->stats->max_ms);
    else
        fputs(",,,,", r->f);
    put_dbl(r->f, timed || strcmp(w->kind, "ceiling") == 0 ? w->gflops : -1, "%.3f");
    put_dbl(r->f, timed || strcmp(w->kind, "ceiling") == 0 ? w->gbps : -1, "%.3f");
    if (w->traffic) {
        fprintf(r->f, ",%s", w->traffic);
        put_dbl(r->f, w->dram_bytes, "%.0f");
        put_dbl(r->f, w->l2_bytes, "%.0f");
        put_dbl(r->f, w->l1_bytes, "%.0f");
        put_dbl(r->f, w->shared_bytes, "%.0f");
    } else {
        fputs(",,,,,", r->f);
    }
    fprintf(r->f, ",%s\n", w->limit ? w->limit : "");
}

int tl_records_close(tl_records *r, char *err, size_t errlen)
{
    if (!r->f)
        return 0;
    int bad = fflush(r->f) != 0 || fsync(fileno(r->f)) != 0;
    bad |= fclose(r->f) != 0;
    r->f = NULL;
    if (bad || rename(r->tmp, r->path) != 0) {
        snprintf(err, errlen, "records file '%s': cannot finish writing (%s); nothing was replaced",
                 r->path, strerror(errno));
        remove(r->tmp);
        return -1;
    }
    return 0;
}

/* ================================================================================================ */
/* reading                                                                                          */

#define MAX_FILE_BYTES (64L * 1024 * 1024) /* records of a whole course run are a few hundred KiB */

enum { F_KIND, F_LAB, F_VARIANT, F_M, F_K, F_N, F_TILE, F_REGS, F_SMEM, F_OCC_CALC, F_OCC_API,
       F_STATUS, F_REPS, F_MEDIAN, F_MIN, F_MAX, F_GFLOPS, F_GBPS, F_TRAFFIC, F_DRAM, F_L2, F_L1, F_SHARED, F_LIMIT };

/* Fields of a row of format VERSION: 18, 23, then all of TL_REC_HEADER. */
static size_t fields_of(int version)
{
    return version == 1 ? TL_REC_NFIELDS_V1 : version == 2 ? TL_REC_NFIELDS_V2 : TL_REC_NFIELDS;
}

/* The name of field I, from TL_REC_HEADER itself (the header is written down once, in records.h). */
static const char *field_name(int i)
{
    static char buf[] = TL_REC_HEADER;
    static char *names[TL_REC_NFIELDS];
    if (!names[0])
        tl_rec_split(buf, names, TL_REC_NFIELDS);
    return names[i];
}

/* The header a file of VERSION must have: all of TL_REC_HEADER, or its first 18 (version 1) or 23
 * (version 2) fields. */
static void header_for(int version, char *buf, size_t len)
{
    snprintf(buf, len, "%s", TL_REC_HEADER);
    if (fields_of(version) < TL_REC_NFIELDS) {
        char *p = buf;
        for (size_t i = 0; i < fields_of(version) && p; i++)
            p = strchr(p + 1, ',');
        if (p)
            *p = '\0';
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* small helpers                                                                                     */

static void fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
{
    int used = line > 0 ? snprintf(err, errlen, "%s:%d: ", path, line) : snprintf(err, errlen, "%s: ", path);
    if (used < 0 || (size_t)used >= errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + used, errlen - (size_t)used, fmt, ap);
    va_end(ap);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* Copy at most 60 characters of S for quoting in a message. */
static const char *excerpt(const char *s, char *buf, size_t buflen)
{
    size_t n = strlen(s);
    if (n + 1 <= buflen && n <= 60) {
        memcpy(buf, s, n + 1);
    } else {
        snprintf(buf, buflen, "%.60s...", s);
    }
    return buf;
}

int tl_rec_parse_count(const char *s, long *out)
{
    if (*s == '\0')
        return -1;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return -1;
    errno = 0;
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

int tl_rec_parse_real(const char *s, double *out)
{
    /* Only digits, one '.', and an exponent: strtod alone would also take " 1", "+1", "0x1p3", "nan". */
    if (*s == '\0' || !((*s >= '0' && *s <= '9') || *s == '.'))
        return -1;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' || *p == '-' || *p == '+'))
            return -1;
    errno = 0;
    char *end = NULL;
    double v = strtod(s, &end);
    if (errno != 0 || *end != '\0' || !isfinite(v) || v < 0)
        return -1;
    *out = v;
    return 0;
}

size_t tl_rec_split(char *line, char **fields, size_t max)
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        char *comma = strchr(p, ',');
        if (n < max)
            fields[n] = p;
        n++;
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

static int is_variant_name(const char *s)
{
    if (*s == '\0')
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return 1;
}

static int is_key_name(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------------ */
/* reading                                                                                           */

static char *slurp(const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fail(err, errlen, path, 0, "cannot open: %s; pass a records file written by the kit's bench "
             "(./kit bench writes build/bench/records-DEVICE-DATE.csv; the kit ships plots/data/*.csv)", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            if (cap >= (size_t)MAX_FILE_BYTES) {
                fail(err, errlen, path, 0, "larger than %ld MiB; this is not a records file (pass the "
                     ".csv that ./kit bench wrote)", MAX_FILE_BYTES >> 20);
                free(buf);
                fclose(fp);
                return NULL;
            }
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    if (!buf) {
        fail(err, errlen, path, 0, "out of memory while reading");
        fclose(fp);
        return NULL;
    }
    if (ferror(fp)) {
        fail(err, errlen, path, 0, "read error: %s", strerror(errno));
        free(buf);
        fclose(fp);
        return NULL;
    }
    fclose(fp);
    if (memchr(buf, '\0', len)) {
        fail(err, errlen, path, 0, "holds NUL bytes: a binary file, not a records CSV");
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

static int add_meta(tl_rec_file *f, const char *key, size_t keylen, const char *value, int line)
{
    tl_rec_meta *m = realloc(f->meta, (f->nmeta + 1) * sizeof *m);
    if (!m)
        return -1;
    f->meta = m;
    char *k = malloc(keylen + 1);
    char *v = dup_str(value);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    memcpy(k, key, keylen);
    k[keylen] = '\0';
    f->meta[f->nmeta++] = (tl_rec_meta){.key = k, .value = v, .line = line};
    return 0;
}

const char *tl_rec_meta_get(const tl_rec_file *f, const char *key)
{
    for (size_t i = 0; i < f->nmeta; i++)
        if (strcmp(f->meta[i].key, key) == 0)
            return f->meta[i].value;
    return NULL;
}

/* Parse one "# key: value" line into the file's metadata. */
static int read_meta_line(tl_rec_file *f, const char *line, int lineno, char *err, size_t errlen)
{
    char ex[80];
    const char *key = line + 2;
    const char *colon = line[1] == ' ' ? strstr(key, ": ") : NULL;
    if (!colon && line[1] == ' ') { /* "# key:" with an empty value */
        size_t n = strlen(key);
        if (n > 0 && key[n - 1] == ':')
            colon = key + n - 1;
    }
    if (!colon || !is_key_name(key, (size_t)(colon - key))) {
        fail(err, errlen, f->path, lineno, "metadata line '%s' is not '# key: value' (key of a-z, 0-9, _); "
             "records files start with '# tilelab_records: 1' and one such line per key",
             excerpt(line, ex, sizeof ex));
        return -1;
    }
    size_t keylen = (size_t)(colon - key);
    const char *value = colon[1] == ' ' ? colon + 2 : colon + 1;
    for (size_t i = 0; i < f->nmeta; i++) {
        if (strlen(f->meta[i].key) == keylen && strncmp(f->meta[i].key, key, keylen) == 0) {
            fail(err, errlen, f->path, lineno, "metadata key '%s' appears again (first on line %d); "
                 "keep one line per key", f->meta[i].key, f->meta[i].line);
            return -1;
        }
    }
    if (add_meta(f, key, keylen, value, lineno) != 0) {
        fail(err, errlen, f->path, lineno, "out of memory");
        return -1;
    }
    return 0;
}

/* Check the metadata once the header is reached: the version is known, the keys the charts print exist. */
static int check_meta(tl_rec_file *f, int header_line, char *err, size_t errlen)
{
    const char *version = tl_rec_meta_get(f, "tilelab_records");
    if (!version) {
        fail(err, errlen, f->path, header_line, "no 'tilelab_records' metadata line before the header; "
             "records files start with '# tilelab_records: 3' (format version)");
        return -1;
    }
    f->version = strcmp(version, "3") == 0 ? 3 : strcmp(version, "2") == 0 ? 2 : strcmp(version, "1") == 0 ? 1 : 0;
    if (f->version == 0) {
        char ex[80];
        int line = 0;
        for (size_t i = 0; i < f->nmeta; i++)
            if (strcmp(f->meta[i].key, "tilelab_records") == 0)
                line = f->meta[i].line;
        fail(err, errlen, f->path, line, "records format version '%s' is not known to this kit (it reads "
             "versions 1, 2 and 3); plot it with the kit that wrote it, or measure again with this kit's "
             "./kit bench", excerpt(version, ex, sizeof ex));
        return -1;
    }
    static const char *const needed[] = {"device", "date"};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++) {
        const char *v = tl_rec_meta_get(f, needed[i]);
        if (!v || *v == '\0') {
            fail(err, errlen, f->path, header_line, "no '# %s: ...' metadata line (or it is empty); every chart "
                 "shows the device and the date, and the contract says every key is present ('unknown' when "
                 "not known)", needed[i]);
            return -1;
        }
    }
    return 0;
}

/* Parse and check the fields of one row into *R. */
static int read_row(const tl_rec_file *f, char *line, int lineno, tl_rec_row *r, char *err, size_t errlen)
{
    char ex[80];
    char *fld[TL_REC_NFIELDS];
    size_t want = fields_of(f->version);
    static char empty[] = "";
    size_t nf = tl_rec_split(line, fld, want);
    if (nf != want) {
        char hdr[sizeof TL_REC_HEADER];
        header_for(f->version, hdr, sizeof hdr);
        fail(err, errlen, f->path, lineno, "row has %zu fields, expected %zu as in the header (%s); is the line "
             "truncated, or does a value hold a comma?", nf, want, hdr);
        return -1;
    }
    for (size_t i = want; i < TL_REC_NFIELDS; i++) /* versions 1 and 2: no traffic, no limit */
        fld[i] = empty;
    for (size_t i = 0; i < want; i++) {
        if (fld[i][0] == '"') {
            fail(err, errlen, f->path, lineno, "field '%s' is quoted; records fields are never quoted and hold "
                 "no commas", field_name((int)i));
            return -1;
        }
    }
    memset(r, 0, sizeof *r);
    r->line = lineno;

    const char *kind = fld[F_KIND];
    if (strcmp(kind, "gemm") != 0 && strcmp(kind, "ceiling") != 0 && strcmp(kind, "sweep") != 0 &&
        strcmp(kind, "traffic") != 0 && strcmp(kind, "kernel") != 0) {
        fail(err, errlen, f->path, lineno, "kind '%s' is not one of gemm, ceiling, sweep, traffic, kernel (first field)",
             excerpt(kind, ex, sizeof ex));
        return -1;
    }
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    if (strlen(fld[F_LAB]) >= sizeof r->lab) {
        fail(err, errlen, f->path, lineno, "lab '%s' is longer than %zu characters", excerpt(fld[F_LAB], ex, sizeof ex),
             sizeof r->lab - 1);
        return -1;
    }
    snprintf(r->lab, sizeof r->lab, "%s", fld[F_LAB]);
    if (!is_variant_name(fld[F_VARIANT]) || strlen(fld[F_VARIANT]) >= sizeof r->variant) {
        fail(err, errlen, f->path, lineno, "variant '%s' must be 1 to %zu characters of a-z, 0-9 and _ "
             "(e.g. naive, tiled16, copy_bandwidth)", excerpt(fld[F_VARIANT], ex, sizeof ex), sizeof r->variant - 1);
        return -1;
    }
    snprintf(r->variant, sizeof r->variant, "%s", fld[F_VARIANT]);

    static const int count_idx[] = {F_M, F_K, F_N, F_TILE, F_REGS, F_SMEM, F_REPS};
    long *count_dst[] = {&r->m, &r->k, &r->n, &r->tile, &r->regs, &r->smem_bytes, &r->reps};
    for (size_t i = 0; i < sizeof count_idx / sizeof count_idx[0]; i++) {
        const char *s = fld[count_idx[i]];
        *count_dst[i] = -1;
        if (*s && tl_rec_parse_count(s, count_dst[i]) != 0) {
            fail(err, errlen, f->path, lineno, "field '%s' is '%s', expected a whole number >= 0 (or empty when "
                 "not applicable)", field_name(count_idx[i]), excerpt(s, ex, sizeof ex));
            return -1;
        }
    }
    static const int real_idx[] = {F_OCC_CALC, F_OCC_API, F_MEDIAN, F_MIN, F_MAX, F_GFLOPS, F_GBPS,
                                   F_DRAM, F_L2, F_L1, F_SHARED};
    double *real_dst[] = {&r->occ_calc, &r->occ_api, &r->median_ms, &r->min_ms, &r->max_ms, &r->gflops, &r->gbps,
                          &r->dram_bytes, &r->l2_bytes, &r->l1_bytes, &r->shared_bytes};
    for (size_t i = 0; i < sizeof real_idx / sizeof real_idx[0]; i++) {
        const char *s = fld[real_idx[i]];
        *real_dst[i] = NAN;
        if (*s && tl_rec_parse_real(s, real_dst[i]) != 0) {
            fail(err, errlen, f->path, lineno, "field '%s' is '%s', expected a finite number >= 0 such as 12.5 "
                 "or 1.2e3 (or empty when not applicable)", field_name(real_idx[i]), excerpt(s, ex, sizeof ex));
            return -1;
        }
    }

    const char *status = fld[F_STATUS];
    if (strcmp(status, "PASS") != 0 && strcmp(status, "FAIL") != 0 && strcmp(status, "SKIP") != 0) {
        fail(err, errlen, f->path, lineno, "status '%s' is not PASS, FAIL or SKIP", excerpt(status, ex, sizeof ex));
        return -1;
    }
    snprintf(r->status, sizeof r->status, "%s", status);

    const char *traffic = fld[F_TRAFFIC];
    if (*traffic && strcmp(traffic, "measured") != 0 && strcmp(traffic, "model") != 0) {
        fail(err, errlen, f->path, lineno, "traffic '%s' is not 'measured' (GPU counters), 'model' (the lecture's "
             "count) or empty", excerpt(traffic, ex, sizeof ex));
        return -1;
    }
    snprintf(r->traffic, sizeof r->traffic, "%s", traffic);
    int has_bytes = !isnan(r->dram_bytes) || !isnan(r->l2_bytes) || !isnan(r->l1_bytes) || !isnan(r->shared_bytes);
    if (has_bytes && !*traffic) {
        fail(err, errlen, f->path, lineno, "row for '%s' carries bytes but does not say where they come from; set "
             "traffic to 'measured' or 'model'", r->variant);
        return -1;
    }
    const char *limit = fld[F_LIMIT];
    if (*limit && (strcmp(kind, "sweep") != 0 ||
                   (strcmp(limit, "threads") != 0 && strcmp(limit, "warps") != 0 && strcmp(limit, "blocks") != 0 &&
                    strcmp(limit, "registers") != 0 && strcmp(limit, "shared") != 0))) {
        fail(err, errlen, f->path, lineno, "limit '%s' on a %s row: only sweep rows carry one, and it is threads, "
             "warps, blocks, registers or shared", excerpt(limit, ex, sizeof ex), kind);
        return -1;
    }
    snprintf(r->limit, sizeof r->limit, "%s", limit);
    if (strcmp(kind, "traffic") == 0) {
        if (strcmp(status, "PASS") != 0)
            return 0;
        if (!*traffic || isnan(r->dram_bytes) || r->m <= 0 || r->k <= 0 || r->n <= 0) {
            fail(err, errlen, f->path, lineno, "PASS traffic row for '%s' needs m, k, n, traffic and dram_bytes "
                 "(./kit bench --traffic writes them)", r->variant);
            return -1;
        }
        return 0;
    }

    int pass = strcmp(status, "PASS") == 0;
    if (!pass) { /* the contract: times and rates only on PASS, so a failed run is never plotted */
        if (!isnan(r->median_ms) || !isnan(r->gflops) || !isnan(r->gbps)) {
            fail(err, errlen, f->path, lineno, "%s row for '%s' carries a time or a rate; only PASS rows may (a "
                 "run that was not checked correct is never timed)", status, r->variant);
            return -1;
        }
        return 0;
    }
    if (isnan(r->median_ms) || r->median_ms <= 0) {
        fail(err, errlen, f->path, lineno, "PASS row for '%s' has no median_ms (or it is 0); every PASS row "
             "carries its time: measure it again with ./kit bench", r->variant);
        return -1;
    }
    if (strcmp(kind, "gemm") == 0) {
        if (r->m <= 0 || r->k <= 0 || r->n <= 0) {
            fail(err, errlen, f->path, lineno, "gemm row for '%s' needs m, k and n (>= 1)", r->variant);
            return -1;
        }
        if (isnan(r->gflops)) {
            fail(err, errlen, f->path, lineno, "PASS gemm row for '%s' has no gflops (2*m*n*k / median)", r->variant);
            return -1;
        }
    } else if (strcmp(kind, "kernel") == 0) {
        if (r->n <= 0 || isnan(r->gflops)) {
            fail(err, errlen, f->path, lineno, "PASS kernel row for '%s' needs n (the problem size) and gflops",
                 r->variant);
            return -1;
        }
    } else if (strcmp(kind, "sweep") == 0) {
        if (isnan(r->gflops) || r->tile <= 0) {
            fail(err, errlen, f->path, lineno, "PASS sweep row for '%s' needs tile and gflops", r->variant);
            return -1;
        }
    } else if (strstr(r->variant, "_bandwidth") && isnan(r->gbps)) {
        fail(err, errlen, f->path, lineno, "PASS ceiling row '%s' has no gbps (bytes moved / time)", r->variant);
        return -1;
    } else if (strcmp(r->variant, "fma_peak") == 0 && isnan(r->gflops)) {
        fail(err, errlen, f->path, lineno, "PASS ceiling row 'fma_peak' has no gflops");
        return -1;
    }
    return 0;
}

/* Name the first header field that differs, so a one-letter slip is found without squinting. */
static void header_mismatch(const char *path, int version, int lineno, char *line, char *err, size_t errlen)
{
    char hdr[sizeof TL_REC_HEADER], want_buf[sizeof TL_REC_HEADER], ex[80];
    header_for(version, hdr, sizeof hdr);
    memcpy(want_buf, hdr, sizeof hdr);
    char *want[TL_REC_NFIELDS], *got[TL_REC_NFIELDS + 1];
    size_t nwant = tl_rec_split(want_buf, want, TL_REC_NFIELDS);
    size_t ngot = tl_rec_split(line, got, TL_REC_NFIELDS + 1);
    for (size_t i = 0; i < nwant; i++) {
        if (i >= ngot) {
            fail(err, errlen, path, lineno, "header ends after %zu fields; expected exactly (version %d): %s", ngot,
                 version, hdr);
            return;
        }
        if (strcmp(got[i], want[i]) != 0) {
            fail(err, errlen, path, lineno, "header field %zu is '%s', expected '%s'; the header must be exactly "
                 "(version %d): %s", i + 1, excerpt(got[i], ex, sizeof ex), want[i], version, hdr);
            return;
        }
    }
    fail(err, errlen, path, lineno, "header has more than %zu fields; expected exactly (version %d): %s", nwant,
         version, hdr);
}

int tl_rec_read(const char *path, tl_rec_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *text = slurp(path, err, errlen);
    if (!text)
        return -1;
    out->path = dup_str(path);
    if (!out->path) {
        fail(err, errlen, path, 0, "out of memory");
        free(text);
        return -1;
    }

    enum { META, ROWS } state = META;
    int lineno = 0, rc = 0;
    size_t cap = 0;
    char *p = text;
    while (*p) {
        char *nl = strchr(p, '\n');
        char *next = nl ? nl + 1 : p + strlen(p);
        if (nl)
            *nl = '\0';
        lineno++;
        size_t len = strlen(p);
        if (len > 0 && p[len - 1] == '\r') /* a file that passed through a Windows editor */
            p[--len] = '\0';
        char *line = p;
        p = next;
        if (len == 0)
            continue;

        if (state == META) {
            if (line[0] == '#') {
                if ((rc = read_meta_line(out, line, lineno, err, errlen)) != 0)
                    break;
                continue;
            }
            if (out->nmeta == 0) {
                fail(err, errlen, path, lineno, "no metadata before this line; a records file starts with "
                     "'# tilelab_records: 2' and '# key: value' lines (device, date, ...), "
                     "then the header: is this a plain CSV rather than one written by ./kit bench?");
                rc = -1;
                break;
            }
            if ((rc = check_meta(out, lineno, err, errlen)) != 0)
                break;
            char hdr[sizeof TL_REC_HEADER];
            header_for(out->version, hdr, sizeof hdr);
            if (strcmp(line, hdr) != 0) {
                header_mismatch(path, out->version, lineno, line, err, errlen);
                rc = -1;
                break;
            }
            state = ROWS;
            continue;
        }
        if (line[0] == '#') {
            fail(err, errlen, path, lineno, "metadata line after the header; all '# key: value' lines come "
                 "before the header");
            rc = -1;
            break;
        }
        if (out->nrows == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            tl_rec_row *rows = realloc(out->rows, ncap * sizeof *rows);
            if (!rows) {
                fail(err, errlen, path, lineno, "out of memory");
                rc = -1;
                break;
            }
            out->rows = rows;
            cap = ncap;
        }
        if ((rc = read_row(out, line, lineno, &out->rows[out->nrows], err, errlen)) != 0)
            break;
        out->nrows++;
    }
    if (rc == 0 && state == META) {
        if (out->nmeta == 0)
            fail(err, errlen, path, 0, "empty: no metadata, no header; pass a records file written by ./kit bench");
        else
            fail(err, errlen, path, lineno, "no header line after the metadata; expected exactly: " TL_REC_HEADER);
        rc = -1;
    }
    free(text);
    if (rc != 0) {
        tl_rec_free(out);
        return -1;
    }
    return 0;
}

void tl_rec_free(tl_rec_file *f)
{
    for (size_t i = 0; i < f->nmeta; i++) {
        free(f->meta[i].key);
        free(f->meta[i].value);
    }
    free(f->meta);
    free(f->rows);
    free(f->path);
    memset(f, 0, sizeof *f);
}
