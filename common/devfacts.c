/* devfacts.c: lab 02's device query judged: the line format of print_device_facts, its parser,
 * and the comparison with the kit's own query, with the likely cause of each wrong fact
 * (devfacts.h describes the format). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "devfacts.h"

const tl_fact_def tl_fact_defs[TL_FACT_COUNT] = {
    [TL_FACT_DEVICE] = {"device", NULL, "cudaDeviceProp.name"},
    [TL_FACT_CC] = {"compute capability", NULL, "cudaDeviceProp.major and .minor, printed MAJOR.MINOR"},
    [TL_FACT_SMS] = {"sms", NULL, "cudaDeviceProp.multiProcessorCount"},
    [TL_FACT_THREADS_BLOCK] = {"max threads per block", NULL, "cudaDeviceProp.maxThreadsPerBlock"},
    [TL_FACT_THREADS_SM] = {"max threads per sm", NULL, "cudaDeviceProp.maxThreadsPerMultiProcessor"},
    [TL_FACT_BLOCKS_SM] = {"max blocks per sm", NULL, "cudaDeviceProp.maxBlocksPerMultiProcessor"},
    [TL_FACT_SMEM_BLOCK] = {"shared memory per block", "B", "cudaDeviceProp.sharedMemPerBlock, in bytes"},
    [TL_FACT_SMEM_SM] = {"shared memory per sm", "B", "cudaDeviceProp.sharedMemPerMultiprocessor, in bytes"},
    [TL_FACT_REGS_BLOCK] = {"registers per block", NULL, "cudaDeviceProp.regsPerBlock"},
    [TL_FACT_REGS_SM] = {"registers per sm", NULL, "cudaDeviceProp.regsPerMultiprocessor"},
    [TL_FACT_SM_CLOCK] = {"sm clock", "kHz", "cudaDeviceGetAttribute(cudaDevAttrClockRate), in kHz"},
    [TL_FACT_MEM_CLOCK] = {"memory clock", "kHz", "cudaDeviceGetAttribute(cudaDevAttrMemoryClockRate), in kHz"},
    [TL_FACT_BUS] = {"memory bus width", "bits", "cudaDeviceProp.memoryBusWidth, in bits"},
    [TL_FACT_BANDWIDTH] = {"peak bandwidth", "GB/s", "2 x memory clock (kHz x 1000) x bus width (bits) / 8 / 1e9"},
};

void tl_facts_derive(tl_facts *f)
{
    f->have[TL_FACT_BANDWIDTH] = f->have[TL_FACT_MEM_CLOCK] && f->have[TL_FACT_BUS];
    /* DDR: two transfers per clock; the bus width is in bits. */
    f->num[TL_FACT_BANDWIDTH] = 2.0 * f->num[TL_FACT_MEM_CLOCK] * 1e3 * (f->num[TL_FACT_BUS] / 8) / 1e9;
    snprintf(f->unit[TL_FACT_BANDWIDTH], sizeof f->unit[0], "GB/s");
}

void tl_facts_print(const tl_facts *f, FILE *out)
{
    for (int i = 0; i < TL_FACT_COUNT; ++i) {
        if (!f->have[i])
            continue;
        const tl_fact_def *d = &tl_fact_defs[i];
        if (i == TL_FACT_DEVICE)
            fprintf(out, "%s: %s\n", d->key, f->name);
        else if (i == TL_FACT_CC)
            fprintf(out, "%s: %d.%d\n", d->key, f->cc_major, f->cc_minor);
        else if (i == TL_FACT_BANDWIDTH)
            fprintf(out, "%s: %.1f %s\n", d->key, f->num[i], d->unit);
        else
            fprintf(out, "%s: %.0f%s%s\n", d->key, f->num[i], d->unit ? " " : "", d->unit ? d->unit : "");
    }
    if (f->smem_optin)   /* not a fact of the format: the kit's own query adds it for a hint */
        fprintf(out, "%s: %zu B\n", TL_FACTS_OPTIN_KEY, f->smem_optin);
}

/* "  Shared Memory per SM " -> "shared memory per sm" in out. */
static void norm_key(const char *s, size_t n, char *out, size_t outlen)
{
    while (n && isspace((unsigned char)*s))
        ++s, --n;
    while (n && isspace((unsigned char)s[n - 1]))
        --n;
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < outlen; ++i)
        out[k++] = (char)tolower((unsigned char)s[i]);
    out[k] = '\0';
}

static void parse_value(tl_facts *f, int i, const char *v, size_t n)
{
    char buf[512];
    while (n && isspace((unsigned char)*v))
        ++v, --n;
    while (n && isspace((unsigned char)v[n - 1]))
        --n;
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, v, n);
    buf[n] = '\0';
    f->have[i] = 1;
    if (i == TL_FACT_DEVICE) {
        snprintf(f->name, sizeof f->name, "%.255s", buf);
        return;
    }
    if (i == TL_FACT_CC) {
        if (sscanf(buf, "%d.%d", &f->cc_major, &f->cc_minor) != 2) {
            f->cc_major = f->cc_minor = -1;
            f->num[i] = NAN;
        } else {
            f->num[i] = f->cc_major + f->cc_minor / 10.0;
        }
        return;
    }
    char *end;
    double x = strtod(buf, &end);
    if (end == buf) {
        f->num[i] = NAN;
        return;
    }
    f->num[i] = x;
    while (isspace((unsigned char)*end))
        ++end;
    size_t ul = strcspn(end, " \t(");
    if (ul >= sizeof f->unit[i])
        ul = sizeof f->unit[i] - 1;
    memcpy(f->unit[i], end, ul);
    f->unit[i][ul] = '\0';
}

int tl_facts_parse(const char *text, size_t len, tl_facts *f)
{
    memset(f, 0, sizeof *f);
    if (len > TL_FACTS_MAX_TEXT)
        len = TL_FACTS_MAX_TEXT;
    int found = 0;
    for (size_t p = 0; p < len;) {
        const char *line = text + p;
        const char *nl = memchr(line, '\n', len - p);
        size_t ll = nl ? (size_t)(nl - line) : len - p;
        p += ll + 1;
        const char *colon = memchr(line, ':', ll);
        if (!colon)
            continue;
        char key[64];
        norm_key(line, (size_t)(colon - line), key, sizeof key);
        if (strcmp(key, TL_FACTS_OPTIN_KEY) == 0 && !f->smem_optin)
            f->smem_optin = (size_t)strtoull(colon + 1, NULL, 10);
        for (int i = 0; i < TL_FACT_COUNT; ++i)
            if (!f->have[i] && strcmp(key, tl_fact_defs[i].key) == 0) {
                parse_value(f, i, colon + 1, ll - (size_t)(colon - line) - 1);
                ++found;
            }
    }
    return found;
}

/* x is within 1% of y (y > 0). */
static int near(double x, double y)
{
    return y > 0 && fabs(x - y) <= 0.01 * y;
}

/* The likely cause of a wrong number, or NULL. */
static const char *hint(int i, double got, const tl_facts *w)
{
    double want = w->num[i];
    switch (i) {
    case TL_FACT_BANDWIDTH: {
        double r = want > 0 ? got / want : 0;
        double gib = 1e9 / 1073741824.0;
        if (near(r, 0.5))
            return "the factor 2 for double data rate?";
        if (near(r, gib))
            return "GiB/s (2^30 bytes) printed as GB/s (10^9 bytes)?";
        if (near(r, 0.5 * gib))
            return "the factor 2 for double data rate, and GiB/s (2^30 bytes) printed as GB/s?";
        if (near(r, 8) || near(r, 4))
            return "the bus width is in bits: divide it by 8 for bytes?";
        if (near(r, 1000) || near(r, 1e-3) || near(r, 500) || near(r, 5e-4))
            return "a factor 1000: the memory clock is in kHz (x 1000 for Hz), and GB is 10^9 bytes?";
        if (w->num[TL_FACT_MEM_CLOCK] > 0 && near(got / want, w->num[TL_FACT_SM_CLOCK] / w->num[TL_FACT_MEM_CLOCK]))
            return "the SM clock (cudaDevAttrClockRate) instead of the memory clock (cudaDevAttrMemoryClockRate)?";
        return NULL;
    }
    case TL_FACT_SM_CLOCK:
    case TL_FACT_MEM_CLOCK: {
        int other = i == TL_FACT_SM_CLOCK ? TL_FACT_MEM_CLOCK : TL_FACT_SM_CLOCK;
        if (fabs(got - floor(want / 1000)) < 1.5 || fabs(got - want / 1000) < 1)
            return "a clock in MHz labelled kHz? The attribute is in kHz: print it as it is";
        if (near(got, want * 1000))
            return "a clock in Hz labelled kHz? The attribute is in kHz: print it as it is";
        if (got == w->num[other])
            return i == TL_FACT_SM_CLOCK ? "the memory clock instead of the SM clock (cudaDevAttrClockRate)?"
                                         : "the SM clock instead of the memory clock (cudaDevAttrMemoryClockRate)?";
        return NULL;
    }
    case TL_FACT_SMEM_SM:
        if (got == w->num[TL_FACT_SMEM_BLOCK])
            return "shared memory per block printed as per SM?";
        if (w->smem_optin && got == (double)w->smem_optin)
            return "the opt-in maximum per block (sharedMemPerBlockOptin) printed as per SM?";
        break;
    case TL_FACT_SMEM_BLOCK:
        if (got == w->num[TL_FACT_SMEM_SM])
            return "shared memory per SM printed as per block?";
        if (w->smem_optin && got == (double)w->smem_optin)
            return "the opt-in maximum (sharedMemPerBlockOptin) instead of the default per block (sharedMemPerBlock)?";
        break;
    case TL_FACT_THREADS_SM:
        if (got == w->num[TL_FACT_THREADS_BLOCK])
            return "the per-block limit printed as per SM?";
        break;
    case TL_FACT_THREADS_BLOCK:
        if (got == w->num[TL_FACT_THREADS_SM])
            return "the per-SM limit printed as per block?";
        break;
    case TL_FACT_REGS_SM:
        if (got == w->num[TL_FACT_REGS_BLOCK])
            return "registers per block printed as per SM?";
        break;
    case TL_FACT_REGS_BLOCK:
        if (got == w->num[TL_FACT_REGS_SM])
            return "registers per SM printed as per block?";
        break;
    case TL_FACT_BUS:
        if (got * 8 == want)
            return "bytes labelled bits? memoryBusWidth is in bits: print it as it is";
        break;
    }
    if ((i == TL_FACT_SMEM_BLOCK || i == TL_FACT_SMEM_SM) && got * 1024 == want)
        return "KiB labelled B? Print bytes";
    return NULL;
}

static void fmt_num(char *buf, size_t n, int i, double x)
{
    if (isnan(x))
        snprintf(buf, n, "(no number)");
    else if (i == TL_FACT_BANDWIDTH)
        snprintf(buf, n, "%.1f", x);
    else if (i == TL_FACT_CC)
        snprintf(buf, n, "%.1f", x);
    else
        snprintf(buf, n, "%.15g", x);
}

void tl_facts_compare(const tl_facts *want, const tl_facts *got, tl_facts_verdict *v)
{
    memset(v, 0, sizeof *v);
    for (int i = 0; i < TL_FACT_COUNT; ++i) {
        const tl_fact_def *d = &tl_fact_defs[i];
        if (!want->have[i])
            continue;   /* the kit could not read it here: not asked */
        ++v->asked;
        char *why = v->why[i];
        size_t wl = sizeof v->why[i];
        if (!got->have[i]) {
            snprintf(why, wl, "%s missing: no '%s: ' line", d->key, d->key);
            continue;
        }
        ++v->found;
        if (i == TL_FACT_DEVICE) {
            if (strcmp(got->name, want->name) != 0)
                snprintf(why, wl, "device '%.100s', expected '%.100s'", got->name, want->name);
            else
                ++v->right;
            continue;
        }
        if (i == TL_FACT_CC) {
            if (got->cc_major < 0)
                snprintf(why, wl, "compute capability not printed as MAJOR.MINOR, expected %d.%d", want->cc_major,
                         want->cc_minor);
            else if (got->cc_major != want->cc_major || got->cc_minor != want->cc_minor)
                snprintf(why, wl, "compute capability %d.%d, expected %d.%d", got->cc_major, got->cc_minor,
                         want->cc_major, want->cc_minor);
            else
                ++v->right;
            continue;
        }
        char g[48], w[48];
        fmt_num(g, sizeof g, i, got->num[i]);
        fmt_num(w, sizeof w, i, want->num[i]);
        double x = got->num[i], y = want->num[i];
        int ok = !isnan(x) && (i == TL_FACT_BANDWIDTH ? fabs(x - y) <= TL_FACTS_BW_TOL * y : x == y);
        if (ok && d->unit && strcmp(got->unit[i], d->unit) != 0) {
            if (got->unit[i][0])
                snprintf(why, wl, "%s %s %s: the unit is '%s', the format says '%s %s'", d->key, g, got->unit[i],
                         got->unit[i], g, d->unit);
            else
                snprintf(why, wl, "%s %s: no unit, the format says '%s %s'", d->key, g, g, d->unit);
            continue;
        }
        if (ok) {
            ++v->right;
            continue;
        }
        const char *h = isnan(x) ? "no number after the colon" : hint(i, x, want);
        snprintf(why, wl, "%s %s%s%s, expected %s%s%s%s%s", d->key, g, d->unit && got->unit[i][0] ? " " : "",
                 d->unit ? got->unit[i] : "", w, d->unit ? " " : "", d->unit ? d->unit : "", h ? ": " : "",
                 h ? h : "");
    }
}

void tl_facts_headline(const tl_facts_verdict *v, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%d of %d device facts right", v->right, v->asked);
    if (v->found == 0) {
        snprintf(buf + n, len - (size_t)n, ": none printed in the format (print_device_facts(out) prints "
                 "lines like 'sms: 132' to the FILE* it is given; README task 3)");
        return;
    }
    for (int i = 0, first = 1; i < TL_FACT_COUNT && (size_t)n + 4 < len; ++i) {
        if (!v->why[i][0])
            continue;
        const char *w = v->why[i];
        int wl = (int)strlen(w);
        n += snprintf(buf + n, len - (size_t)n, "%s%.*s", first ? "; wrong: " : "; ", wl, w);
        first = 0;
        if ((size_t)n >= len)
            break;
    }
}

void tl_facts_explain(const tl_facts_verdict *v, FILE *out, const char *indent)
{
    char head[2048];
    tl_facts_headline(v, head, sizeof head);
    fprintf(out, "%s%s\n", indent, head);
    if (v->found == 0)
        return;
    for (int i = 0; i < TL_FACT_COUNT; ++i)
        if (v->why[i][0])
            fprintf(out, "%s  %s: from %s\n", indent, tl_fact_defs[i].key, tl_fact_defs[i].source);
}
