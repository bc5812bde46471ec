/* cli.c: parsing of the values every lab program takes, and the options-as-a-table helpers that
 * every kit program's command line shares (the help, getopt's entries, "did you mean"). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tilelab.h"

int tl_parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int tl_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

int tl_parse_sizes(const char *s, tl_sizes *out, char *err, size_t errlen)
{
    out->count = 0;
    char buf[1024];
    if (strlen(s) >= sizeof buf) {
        snprintf(err, errlen, "size list too long");
        return -1;
    }
    strcpy(buf, s);
    if (buf[0] == ',' || (buf[0] && buf[strlen(buf) - 1] == ',') || strstr(buf, ",,")) {
        snprintf(err, errlen, "bad size list '%s': an empty item between commas", s);
        return -1;
    }
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (out->count == (int)(sizeof out->m / sizeof out->m[0])) {
            snprintf(err, errlen, "too many sizes (at most %d)", (int)(sizeof out->m / sizeof out->m[0]));
            return -1;
        }
        size_t il = strlen(item);
        if (item[0] == 'x' || item[il - 1] == 'x' || strstr(item, "xx")) {
            snprintf(err, errlen, "bad size '%s': give W (square) or MxKxN, e.g. 100 or 64x32x16", item);
            return -1;
        }
        long d[3];
        int nd = 0;
        char *save2 = NULL;
        for (char *p = strtok_r(item, "x", &save2); p; p = strtok_r(NULL, "x", &save2)) {
            if (nd == 3 || tl_parse_int(p, 1, TL_MAX_DIM, &d[nd]) != 0) {
                snprintf(err, errlen, "bad size '%s': give W (square) or MxKxN, each 1..%d", p, TL_MAX_DIM);
                return -1;
            }
            ++nd;
        }
        if (nd != 1 && nd != 3) {
            snprintf(err, errlen, "bad size item: give W (square) or MxKxN, e.g. 100 or 64x32x16");
            return -1;
        }
        int i = out->count++;
        out->m[i] = (int)d[0];
        out->k[i] = (int)(nd == 3 ? d[1] : d[0]);
        out->n[i] = (int)(nd == 3 ? d[2] : d[0]);
    }
    if (out->count == 0) {
        snprintf(err, errlen, "empty size list");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ options as a table */

int tl_cli_longopts(const tl_cli_opt *t, struct option *out, int max)
{
    int n = 0;
    for (; t->name && n < max - 1; ++t, ++n)
        out[n] = (struct option){t->name, t->has_arg, NULL, t->val};
    out[n] = (struct option){NULL, 0, NULL, 0};
    return n;
}

void tl_cli_optstring(const tl_cli_opt *t, const char *prefix, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%s", prefix);
    for (; t->name && n + 3 < len; ++t)
        if (t->short_name) {
            buf[n++] = t->short_name;
            if (t->has_arg != no_argument)
                buf[n++] = ':';
            buf[n] = 0;
        }
}

const tl_cli_opt *tl_cli_by_val(const tl_cli_opt *t, int val)
{
    for (; t->name; ++t)
        if (t->val == val)
            return t;
    return NULL;
}

/* "--jobs N|auto", "--regrade[=NAMES]", "--check" */
static void synopsis(const tl_cli_opt *o, char *buf, size_t len)
{
    snprintf(buf, len, "--%s%s%s", o->name, o->arg && o->arg[0] != '[' ? " " : "", o->arg ? o->arg : "");
}

void tl_cli_describe(const tl_cli_opt *o, char *buf, size_t len)
{
    char syn[128];
    synopsis(o, syn, sizeof syn);
    if (o->brief && *o->brief)
        snprintf(buf, len, "%s (%s)", syn, o->brief);
    else
        snprintf(buf, len, "%s", syn);
}

void tl_cli_print_help(const tl_cli_opt *t, FILE *out)
{
    for (; t->name; ++t) {
        if (!t->help)
            continue;
        char syn[128];
        synopsis(t, syn, sizeof syn);
        fprintf(out, strlen(syn) <= 17 ? "  %-17s " : "  %s  ", syn);
        for (const char *p = t->help; *p;) {     /* the paragraph's lines, the later ones indented */
            size_t n = strcspn(p, "\n");
            fprintf(out, "%s%.*s\n", p == t->help ? "" : "                    ", (int)n, p);
            p += n + (p[n] == '\n');
        }
    }
}

/* Levenshtein distance of a (length n) and b, both under 64 letters. */
static int edit_distance(const char *a, size_t n, const char *b)
{
    size_t m = strlen(b);
    if (n >= 64 || m >= 64)
        return 99;
    int d[65][65];
    for (size_t i = 0; i <= n; ++i)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; ++j)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; ++i)
        for (size_t j = 1; j <= m; ++j) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[n][m];
}

const char *tl_cli_nearest(const char *written, const struct option *longopts, const char *extra)
{
    static char best_extra[64];
    while (*written == '-')
        ++written;
    size_t n = strcspn(written, "=");
    if (n == 0 || n >= 64)
        return NULL;
    const char *best = NULL;
    int best_d = 3;
    for (const struct option *o = longopts; o && o->name; ++o) {
        int d = edit_distance(written, n, o->name);
        if (d < best_d) {
            best_d = d;
            best = o->name;
        }
    }
    for (const char *p = extra; p && *p;) {      /* "emulate,help-lab" */
        size_t len = strcspn(p, ",");
        char name[64];
        if (len && len < sizeof name && strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-") >= len) {
            memcpy(name, p, len);
            name[len] = 0;
            int d = edit_distance(written, n, name);
            if (d < best_d) {
                best_d = d;
                memcpy(best_extra, name, len + 1);
                best = best_extra;
            }
        }
        p += len + (p[len] == ',');
    }
    return best;
}

void tl_cli_refusal(const tl_cli_opt *t, const struct option *longopts, int c, const char *written, int optopt,
                    const char *extra, char *msg, size_t len)
{
    const tl_cli_opt *o = c == ':' ? tl_cli_by_val(t, optopt) : NULL;
    if (o) {
        char line[300];
        tl_cli_describe(o, line, sizeof line);
        snprintf(msg, len, "%.100s needs a value: %s", written, line);
    } else if (c == ':') {
        snprintf(msg, len, "%.100s needs a value", written);
    } else if (written[0] == '-' && written[1] != '-' && optopt > 0 && optopt < 128) {
        snprintf(msg, len, "unknown option '-%c'", optopt);
    } else {
        const char *near = tl_cli_nearest(written, longopts, extra);
        if (near)
            snprintf(msg, len, "unknown option '%.100s'; did you mean --%s?", written, near);
        else
            snprintf(msg, len, "unknown option '%.100s'", written);
    }
}

/* ------------------------------------------------------------ a lab program's options */

/* The options every lab program built on the driver takes (drivercli.c parses them; its help
 * describes them with their defaults). tl-lab's `args` checks kit check's lab options against the
 * same table before anything is built. */
const tl_cli_opt tl_lab_options[] = {
    {.name = "sizes", .has_arg = required_argument, .val = 's', .arg = "LIST",
     .brief = "sizes to run: W (square) or MxKxN, comma-separated"},
    {.name = "variants", .has_arg = required_argument, .val = 'v', .arg = "LIST",
     .brief = "variants to run, comma-separated"},
    {.name = "seed", .has_arg = required_argument, .val = 'S', .arg = "N",
     .brief = "seed of the random inputs"},
    {.name = "reps", .has_arg = required_argument, .val = 'r', .arg = "N",
     .brief = "timed runs per case, 1..1000"},
    {.name = "warmup", .has_arg = required_argument, .val = 'w', .arg = "N",
     .brief = "untimed runs before timing, 0..100"},
    {.name = "no-time", .has_arg = no_argument, .val = 'n', .brief = "check only, time nothing"},
    {.name = "repeat", .has_arg = required_argument, .val = 'P', .arg = "N",
     .brief = "checked runs per GPU case, 1..100"},
    {.name = "exact-alloc", .has_arg = no_argument, .val = 'I',
     .brief = "no guard zones after d_M, d_N, d_P"},
    {.name = "records", .has_arg = required_argument, .val = 'R', .arg = "FILE",
     .brief = "write results as records"},
    {.name = "time-limit", .has_arg = required_argument, .val = 'T', .arg = "S",
     .brief = "CPU seconds for one case's checked run, 0 for none"},
    {.name = "quiet", .has_arg = no_argument, .val = 'q', .brief = "print failures and the summary only"},
    {.name = "serve", .has_arg = no_argument, .val = 'G', .brief = "the grader's channel on fds 3 and 4"},
    {.name = "help", .short_name = 'h', .has_arg = no_argument, .val = 'h', .brief = "the program's help"},
    {.name = NULL},
};

int tl_lab_parse_options(const tl_lab_info *info, int argc, char **argv, tl_lab_opts *o, int *help,
                         const char *extra, char *msg, size_t len)
{
    struct option longopts[32];
    char optstring[8];
    tl_cli_longopts(tl_lab_options, longopts, (int)(sizeof longopts / sizeof longopts[0]));
    tl_cli_optstring(tl_lab_options, ":", optstring, sizeof optstring);
    memset(o, 0, sizeof *o);
    o->seed = TL_DEFAULT_SEED;
    o->reps = TL_TIMED_RUNS;
    o->warmup = TL_WARMUP_RUNS;
    o->repeat = info && info->repeat > 1 ? info->repeat : 1;
    o->time_limit = info && info->case_limit_s > 0 ? info->case_limit_s : 0;
    *help = 0;
    opterr = 0;
    optind = 1;
    int c;
    long v;
    char err[256];
    /* ":h" (optstring): a missing value is ':' and an unknown option '?'; either way argv[optind - 1]
     * is the option as written (optopt holds a long option's val, which is no name). */
    while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (tl_parse_sizes(optarg, &o->sizes, err, sizeof err) != 0) {
                snprintf(msg, len, "--sizes: %s", err);
                return -1;
            }
            o->have_sizes = 1;
            break;
        case 'v':
            snprintf(o->variants, sizeof o->variants, "%s", optarg);
            break;
        case 'S':
            if (tl_parse_u64(optarg, &o->seed) != 0) {
                snprintf(msg, len, "--seed '%s': give a non-negative integer", optarg);
                return -1;
            }
            break;
        case 'r':
            if (tl_parse_int(optarg, 1, 1000, &v) != 0) {
                snprintf(msg, len, "--reps '%s': give an integer from 1 to 1000", optarg);
                return -1;
            }
            o->reps = (int)v;
            break;
        case 'w':
            if (tl_parse_int(optarg, 0, 100, &v) != 0) {
                snprintf(msg, len, "--warmup '%s': give an integer from 0 to 100", optarg);
                return -1;
            }
            o->warmup = (int)v;
            break;
        case 'P':
            if (tl_parse_int(optarg, 1, 100, &v) != 0) {
                snprintf(msg, len, "--repeat '%s': give an integer from 1 to 100", optarg);
                return -1;
            }
            o->repeat = (int)v;
            o->repeat_given = 1;
            break;
        case 'I': o->exact_alloc = 1; break;
        case 'T':
            if (tl_parse_int(optarg, 0, 86400, &v) != 0) {
                snprintf(msg, len, "--time-limit '%s': give whole seconds from 0 (no limit) to 86400", optarg);
                return -1;
            }
            o->time_limit = (double)v;
            break;
        case 'R': o->records = optarg; break;
        case 'n': o->no_time = 1; break;
        case 'G': o->serve = 1; break;
        case 'q': o->quiet = 1; break;
        case 'h':
            *help = 1;
            return 0;
        default:      /* ':' a value missing, '?' unknown: the one line of every kit program */
            tl_cli_refusal(tl_lab_options, longopts, c, argv[optind - 1], optopt, extra, msg, len);
            return -1;
        }
    }
    if (optind < argc) {
        snprintf(msg, len, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    return 0;
}
