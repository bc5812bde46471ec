/* records.c: the one result format (CONTRACTS.md section 4), written atomically. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tilelab.h"

#ifndef TL_BUILD_TYPE
#define TL_BUILD_TYPE "unknown"
#endif

const char tl_records_header[] =
    "kind,lab,variant,m,k,n,tile,regs,smem_bytes,occ_calc,occ_api,status,reps,median_ms,min_ms,"
    "max_ms,gflops,gbps";

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

int tl_records_open(tl_records *r, const char *path, const tl_device_info *dev, uint64_t seed,
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
    fprintf(r->f, "# tilelab_records: 1\n# kit_version: %s\n", TL_KIT_VERSION);
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
    fputc('\n', r->f);
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

void tl_records_abort(tl_records *r)
{
    if (r->f) {
        fclose(r->f);
        r->f = NULL;
    }
    if (r->tmp[0])
        remove(r->tmp);
}
