/* drivercli.c: a lab program's command line (CONTRACTS.md section 2: options, defaults, usage
 * errors with exit 2) and the variants' size rules (square only, multiples of the tile). Part of
 * the lab driver (driver.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

#ifdef TL_EMULATED
#include "tl_emu_api.h"
#endif

void tl_drv_usage(const tl_lab *lab, FILE *out)
{
    fprintf(out,
            "usage: lab%s [options]\n"
            "%s: runs every variant on the lab's public sizes, checks each result against a\n"
            "double-precision reference, times only the runs that passed, prints a table.\n\n"
            "options:\n"
            "  --sizes LIST      sizes to run: W (square) or MxKxN, comma-separated (default %s)\n"
            "  --variants LIST   variants to run, comma-separated (default: all, see below)\n"
            "  --seed N          seed of the random inputs (default %u)\n"
            "  --reps N          timed runs per case, 1..1000 (default %d)\n"
            "  --warmup N        untimed runs before timing, 0..100 (default %d)\n"
            "  --no-time         check only, time nothing\n"
            "  --repeat N        checked runs per GPU case, 1..100 (default %d); runs that differ\n"
            "                    bit for bit on the same inputs are a race (missing __syncthreads)\n"
            "  --exact-alloc     no guard zones after d_M, d_N, d_P (for compute-sanitizer memcheck,\n"
            "                    which then reports every access past their ends)\n"
            "  --records FILE    write results as records (CSV, common/CONTRACTS.md)\n"
            "  --time-limit S    CPU seconds for one case's checked run, 0 for none (default: the\n"
            "                    grader's limit, scaled up for sizes above the public ones); the wall\n"
            "                    clock stops a run that sleeps or waits at a multiple of it\n"
            "  --quiet           print failures and the summary only\n"
            "  --serve           the grader's channel on fds 3 and 4 (not for people)\n"
            "  --help            this text\n\n"
            "variants:\n",
            lab->id, lab->title, lab->default_sizes, TL_DEFAULT_SEED, TL_TIMED_RUNS, TL_WARMUP_RUNS,
            lab->repeat > 1 ? lab->repeat : 1);
    for (int i = 0; i < lab->nvariants; ++i)
        fprintf(out, "  %-12s %s%s\n", lab->variants[i].f->name, lab->variants[i].f->what,
                lab->variants[i].f->on_gpu ? " [GPU]" : "");
    fprintf(out, "\nexit codes: 0 all checks passed, 1 a check failed, 2 bad usage or input,\n"
                 "77 no usable CUDA device (GPU variants skipped, CPU ones passed)\n");
}

/* The program's own name as the student ran it (lab04, lab04-emu, lab04-ref, ...): the help it
 * points to must name a program that exists on this machine. */
static const char *prog_name = NULL;

int tl_drv_usage_error(const tl_lab *lab, const char *fmt, const char *arg)
{
    char fallback[32];
    snprintf(fallback, sizeof fallback, "lab%s", lab->id);
    const char *name = prog_name && *prog_name ? prog_name : fallback;
    fprintf(stderr, "%s: ", name);
    fprintf(stderr, fmt, arg);
    const char *kit = getenv("TL_KIT_HELP");   /* run by ./kit check NN: its form of the help */
    if (kit && *kit && strlen(kit) < 200)
        fprintf(stderr, "\nrun '%s' for the options of %s\n", kit, name);
    else
        fprintf(stderr, "\nrun '%s --help' for the options\n", name);
    return TL_EXIT_USAGE;
}

int tl_drv_parse(const tl_lab *lab, int argc, char **argv, opts *o, int *done)
{
    if (argc > 0 && argv[0]) {
        const char *slash = strrchr(argv[0], '/');
        prog_name = slash ? slash + 1 : argv[0];
    }
    /* the options and their values (cli.c, which tl-lab args shares for kit check), then what
     * depends on this program: its lab's repeat, its default sizes, the emulated build's limits */
    char err[400];
    if (tl_lab_parse_options(tl_lab_find(lab->id), argc, argv, o, done, getenv("TL_KIT_OPTIONS"), err, sizeof err) != 0)
        return tl_drv_usage_error(lab, "%s", err);
    if (*done) {
        tl_drv_usage(lab, stdout);
        return 0;
    }
    o->lab_id = lab->id;
    if (!o->repeat_given)
        o->repeat = lab->repeat > 1 ? lab->repeat : 1;
    if (!o->have_sizes && tl_parse_sizes(lab->default_sizes, &o->sizes, err, sizeof err) != 0)
        return tl_drv_usage_error(lab, "internal: default sizes: %s", err);
    tl_sizes pub;
    if (lab->default_sizes && tl_parse_sizes(lab->default_sizes, &pub, err, sizeof err) == 0)
        for (int i = 0; i < pub.count; ++i)
            if ((double)pub.m[i] * pub.k[i] * pub.n[i] > o->public_work)
                o->public_work = (double)pub.m[i] * pub.k[i] * pub.n[i];
#ifdef TL_EMULATED
    /* On the CPU a 4096^3 product takes hours: the default cases stop at TL_EMU_MAX_WORK (1024^3;
     * the CPU reference and the emulator both stay under a few seconds each). --sizes still runs
     * anything asked. */
    if (!o->have_sizes) {
        int kept = 0, dropped = 0;
        for (int i = 0; i < o->sizes.count; ++i) {
            if ((double)o->sizes.m[i] * o->sizes.k[i] * o->sizes.n[i] > TL_EMU_MAX_WORK) {
                dropped++;
                continue;
            }
            o->sizes.m[kept] = o->sizes.m[i];
            o->sizes.k[kept] = o->sizes.k[i];
            o->sizes.n[kept] = o->sizes.n[i];
            kept++;
        }
        o->sizes.count = kept;
        o->emu_dropped = dropped;
    }
    if (!o->repeat_given)
        o->repeat = 1;   /* the emulator is deterministic; it permutes thread orders instead */
#endif
    return 0;
}

const tl_variant *tl_drv_find_variant(const tl_lab *lab, const char *name, size_t len)
{
    for (int i = 0; i < lab->nvariants; ++i)
        if (strlen(lab->variants[i].f->name) == len && strncmp(lab->variants[i].f->name, name, len) == 0)
            return &lab->variants[i];
    return NULL;
}

/* Fills sel[] from a comma list; returns the count or -1 after printing the error. */
int tl_drv_select_variants(const tl_lab *lab, const char *list, const tl_variant **sel)
{
    if (!*list) {
        for (int i = 0; i < lab->nvariants; ++i)
            sel[i] = &lab->variants[i];
        return lab->nvariants;
    }
    int n = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        const tl_variant *v = tl_drv_find_variant(lab, p, len);
        if (!v || n == lab->nvariants) {
            fprintf(stderr, "lab%s: --variants: unknown variant '%.*s'; this lab has:", lab->id, (int)len, p);
            for (int i = 0; i < lab->nvariants; ++i)
                fprintf(stderr, " %s", lab->variants[i].f->name);
            fprintf(stderr, "\nrun 'lab%s --help' for what each one is\n", lab->id);
            return -1;
        }
        sel[n++] = v;
        p += len;
        if (*p == ',')
            ++p;
    }
    return n;
}

void tl_drv_size_str(char *buf, size_t len, int m, int k, int n)
{
    if (m == k && k == n)
        snprintf(buf, len, "%d", m);
    else
        snprintf(buf, len, "%dx%dx%d", m, k, n);
}

/* Why a variant refuses a size (NULL: it accepts it). */
const char *tl_drv_refusal(const tl_variant *v, int m, int k, int n, char *buf, size_t len)
{
    if (v->f->square_only && !(m == k && k == n)) {
        snprintf(buf, len, "square sizes only%s%s", v->f->refuse_hint ? ": " : "", v->f->refuse_hint ? v->f->refuse_hint : "");
        return buf;
    }
    if (v->f->multiple_of > 0 && (m % v->f->multiple_of || k % v->f->multiple_of || n % v->f->multiple_of)) {
        snprintf(buf, len, "sizes must be multiples of %d%s%s", v->f->multiple_of,
                 v->f->refuse_hint ? ": " : "", v->f->refuse_hint ? v->f->refuse_hint : "");
        return buf;
    }
    return NULL;
}

