/* wrong_manifest.h: reads tests/wrong/manifest.tsv, the one catalogue of known-wrong submissions
 * (header-only, for the tests that run them: test_lab01.c, test_gpu_labs.c, test_emulated.c).
 * The rows are plain arrays, so a Criterion parameter holding one survives the runner's exec. */
#ifndef TILELAB_TEST_WRONG_MANIFEST_H
#define TILELAB_TEST_WRONG_MANIFEST_H

#include <stdio.h>
#include <string.h>

#define WRONG_MAX_ROWS  256
#define WRONG_MAX_NAMES 8

typedef struct wrong_row {
    char file[128];                          /* "03/nosync1.cu", under tests/wrong/           */
    char lab[8];                             /* "03"                                          */
    char program[160];                       /* "tests/wrong/lab03-wrong-nosync1", under build */
    char emu_program[160];                   /* "labs/emulated/lab03-wrong-nosync1-emu"        */
    char expect[WRONG_MAX_NAMES][96];        /* any one of these in the output (exit 1)       */
    int  nexpect;
    char args[256];                          /* the lab program's arguments                   */
    char emu_expect[WRONG_MAX_NAMES][96];    /* every one of these in the emulated output     */
    int  nemu_expect;
    int  emu_gpu_only;                       /* 'gpu-only': the bug is in a variant the emulator does
                                              * not run (the table's gpu_only); its twin only builds */
    char headline[WRONG_MAX_NAMES][96];      /* every one of these in the first line of each
                                              * failing test of kit check ('-': none)             */
    int  nheadline;
    char verdict_kind[16];                   /* the headline's verdict: kind and pattern            */
    char verdict_pattern[48];                /* (CONTRACTS.md section 10; "" for '-')               */
    int  work_only;                          /* expect is 'work: CLASS': P is right, computed the
                                              * wrong way; only the work judge (emulated counts,
                                              * ncu) catches it, the GPU program passes it        */
} wrong_row;

/* Splits s at sep into out[] (at most max), returns the count. */
static inline int wrong_split(const char *s, char sep, char out[][96], int max)
{
    int n = 0;
    while (*s && n < max) {
        const char *e = strchr(s, sep);
        size_t len = e ? (size_t)(e - s) : strlen(s);
        snprintf(out[n++], 96, "%.*s", (int)(len > 95 ? 95 : len), s);
        if (!e)
            break;
        s = e + 1;
    }
    return n;
}

/* Loads the rows of lab (NULL: every lab; "!01": every lab but 01) into rows[WRONG_MAX_ROWS].
 * Returns the count, or -1 when the file cannot be read or a row is malformed (*why says which). */
static inline int wrong_manifest_load(const char *path, const char *lab, wrong_row *rows, char *why, size_t whylen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "cannot open %s", path);
        return -1;
    }
    char line[1024];
    int n = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        char field[7][256];
        int nf = 0;
        for (char *s = line; nf < 7; ++nf) {
            char *tab = strchr(s, '\t');
            if (tab)
                *tab = '\0';
            if (strlen(s) >= sizeof field[nf]) {
                snprintf(why, whylen, "%s:%d: field %d is longer than %zu characters", path, lineno, nf + 1,
                         sizeof field[nf] - 1);
                fclose(f);
                return -1;
            }
            snprintf(field[nf], sizeof field[nf], "%.255s", s);
            if (!tab) {
                ++nf;
                break;
            }
            s = tab + 1;
        }
        if (nf != 7) {
            snprintf(why, whylen, "%s:%d: %d tab-separated fields, not 7", path, lineno, nf);
            fclose(f);
            return -1;
        }
        int exclude = lab && lab[0] == '!';
        if (lab && (strcmp(field[1], lab + exclude) == 0) == exclude)
            continue;
        if (n == WRONG_MAX_ROWS) {
            snprintf(why, whylen, "%s: more than %d rows", path, WRONG_MAX_ROWS);
            fclose(f);
            return -1;
        }
        wrong_row *r = &rows[n++];
        memset(r, 0, sizeof *r);
        snprintf(r->file, sizeof r->file, "%.127s", field[0]);
        snprintf(r->lab, sizeof r->lab, "%.7s", field[1]);
        const char *base = strrchr(field[0], '/');
        base = base ? base + 1 : field[0];
        int stem = (int)strcspn(base, ".");
        stem = stem > 100 ? 100 : stem;
        snprintf(r->program, sizeof r->program, "tests/wrong/lab%s-wrong-%.*s", r->lab, stem, base);
        snprintf(r->emu_program, sizeof r->emu_program, "labs/emulated/lab%s-wrong-%.*s-emu", r->lab, stem, base);
        r->work_only = strncmp(field[2], "work: ", 6) == 0;
        r->nexpect = wrong_split(field[2] + (r->work_only ? 6 : 0), '|', r->expect, WRONG_MAX_NAMES);
        snprintf(r->args, sizeof r->args, "%.255s", field[3]);
        r->emu_gpu_only = strcmp(field[4], "gpu-only") == 0;
        if (strcmp(field[4], "-") != 0 && !r->emu_gpu_only)
            r->nemu_expect = wrong_split(field[4], '&', r->emu_expect, WRONG_MAX_NAMES);
        if (strcmp(field[5], "-") != 0)
            r->nheadline = wrong_split(field[5], '&', r->headline, WRONG_MAX_NAMES);
        if (strcmp(field[6], "-") != 0 &&
            sscanf(field[6], "%15s %47s", r->verdict_kind, r->verdict_pattern) != 2) {
            snprintf(why, whylen, "%s:%d: the verdict '%s' is not 'KIND PATTERN' or '-'", path, lineno, field[6]);
            fclose(f);
            return -1;
        }
        if (r->nexpect == 0) {
            snprintf(why, whylen, "%s:%d: no expected class", path, lineno);
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return n;
}

/* 1 when a row's emulated column holds words that a graded run need not show: the standalone
 * emulated program's own report (its table's FAIL lines, the device facts' check, the cp.async
 * checker's phrasing, the work judge's standalone wording), which a graded run words its own way;
 * and p-stride's checker pattern, which a graded run gives only where no case was first stopped by
 * the emulator's thread-order check (its threads store to one element of P: which order shows it
 * varies; one graded run in two had no 'wrong row stride'). These rows keep their standalone run
 * (test_emulated.c). Every other row with a headline has its emulated column asserted on the
 * headline suite's graded run, whose results.json keeps the emulator's diagnostics
 * (test_headline.c), and is not run standalone again but once per emulator verdict pattern. */
static inline int wrong_emu_words_standalone(const wrong_row *r)
{
    static const char *const rows[] = {
        "02/devq-no-ddr.cu", "02/devq-smem-per-block.cu", "02/devq-mhz-as-khz.cu", "02/devq-stdout.cu",
        "02/devq-stub.cu", "04/grid-swapped.cu", "04/naive-in-boundary.cu", "06/mapping.cu",
        "06/regs-off-by-one.cu", "07/missing-wait.cu", "07/stage-off-by-one.cu", "04/p-stride.cu",
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i)
        if (strcmp(r->file, rows[i]) == 0)
            return 1;
    return 0;
}

#endif
