/* labdocs.c: the tables of labs in the READMEs (README.md, grader/README.md), written from the lab
 * table (labtable.c) like grader/rubric.md: `tl-lab readme FILE` rewrites the table between FILE's
 * markers, `tl-lab readme --check FILE` exits 1 when FILE's table differs from the table's (the test
 * 'lab table' does so), `ninja -C build readme-tables` rewrites both files.
 *
 * A table sits between two lines of the file:
 *     <!-- tl-lab table KIND: written by `ninja -C build readme-tables`; edit common/labtable.c -->
 *     ...
 *     <!-- tl-lab table end -->
 * KIND `labs` (what each lab asks and where it is checked, README.md) or `grading` (what the grader
 * takes and grades, grader/README.md). Written to FILE.tmp, then renamed. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labtable.h"

#define BEGIN_MARK "<!-- tl-lab table "
#define END_MARK   "<!-- tl-lab table end -->"

static void labs_table(FILE *out)
{
    fputs("| lab | the student writes | checked on |\n|---|---|---|\n", out);
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_info *l = &tl_labs[i];
        fprintf(out, "| %s | %s | %s |\n", l->dir, l->writes ? l->writes : l->title,
                l->checked_on ? l->checked_on : l->gpu ? (l->emu_binary ? "GPU (or emulated)" : "GPU") : "any machine");
    }
}

static void grading_table(FILE *out)
{
    fputs("| lab | student files (all the grader takes) | graded variants | points | without a GPU |\n"
          "|---|---|---|---|---|\n", out);
    for (int i = 0; i < tl_nlabs; ++i) {
        const tl_lab_info *l = &tl_labs[i];
        fprintf(out, "| %s |", l->dir);
        for (int f = 0; f < TL_LAB_MAX_FILES && l->files[f]; ++f)
            fprintf(out, "%s`%s`", f ? ", " : " ", l->files[f]);
        fputs(" |", out);
        for (int v = 0; v < l->nvariants; ++v)
            fprintf(out, "%s`%s`", v ? ", " : " ", l->variants[v].name);
        if (l->nvariants == 0)
            fputs(" (its own tests: the rubric)", out);
        fprintf(out, " | %g | %s |\n", tl_lab_points(l),
                !l->gpu ? "graded as on any machine"
                : l->emu_binary ? "graded emulated (speed not graded)"
                : "the parts that need a GPU are not graded");
    }
}

int tl_lab_doc_table(FILE *out, const char *kind)
{
    if (strcmp(kind, "labs") == 0)
        labs_table(out);
    else if (strcmp(kind, "grading") == 0)
        grading_table(out);
    else
        return -1;
    return 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *b = realloc(buf, 2 * cap + 1);
            if (!b) { free(buf); buf = NULL; break; }
            buf = b;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

/* Rewrites (check 0) or compares (check 1) every marked table of path. Returns 0 up to date or
 * rewritten, 1 out of date (check), 2 an error (message on stderr). */
int tl_lab_doc_splice(const char *path, int check)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text) {
        fprintf(stderr, "tl-lab readme: cannot read '%s': %s\n", path, strerror(errno));
        return 2;
    }
    char *made = NULL;
    size_t made_len = 0;
    FILE *out = open_memstream(&made, &made_len);
    int tables = 0, rc = 0;
    const char *p = text;
    for (;;) {
        const char *b = strstr(p, BEGIN_MARK);
        if (b && strncmp(b, END_MARK, strlen(END_MARK)) == 0) {
            fprintf(stderr, "tl-lab readme: %s: '%s' without its opening line; fix: put the opening line "
                            "'" BEGIN_MARK "labs: ... -->' before it\n", path, END_MARK);
            rc = 2;
            break;
        }
        if (!b) {
            fputs(p, out);
            break;
        }
        const char *eol = strchr(b, '\n');
        const char *e = eol ? strstr(eol, END_MARK) : NULL;
        char kind[32] = "";
        sscanf(b + strlen(BEGIN_MARK), "%31[a-z]", kind);
        if (!eol || !e) {
            fprintf(stderr, "tl-lab readme: %s: a table opened by '%.60s' has no '%s' line; add it\n", path, b, END_MARK);
            rc = 2;
            break;
        }
        fwrite(p, 1, (size_t)(eol + 1 - p), out);
        if (tl_lab_doc_table(out, kind) != 0) {
            fprintf(stderr, "tl-lab readme: %s: unknown table '%s'; the kinds are labs and grading\n", path, kind);
            rc = 2;
            break;
        }
        fputs(END_MARK, out);
        p = e + strlen(END_MARK);
        ++tables;
    }
    fclose(out);
    if (rc == 0 && tables == 0) {
        fprintf(stderr, "tl-lab readme: %s holds no '" BEGIN_MARK "KIND: ... -->' line\n", path);
        rc = 2;
    }
    if (rc == 0 && (made_len != len || memcmp(made, text, len) != 0)) {
        if (check) {
            fprintf(stderr, "tl-lab readme: %s: the table of labs differs from common/labtable.c's; "
                            "fix: ninja -C build readme-tables\n", path);
            rc = 1;
        } else {
            char tmp[4096];
            snprintf(tmp, sizeof tmp, "%s.tmp", path);
            FILE *f = fopen(tmp, "wb");
            if (!f || fwrite(made, 1, made_len, f) != made_len || fclose(f) != 0 || rename(tmp, path) != 0) {
                fprintf(stderr, "tl-lab readme: cannot write '%s': %s\n", path, strerror(errno));
                remove(tmp);
                rc = 2;
            }
        }
    }
    free(made);
    free(text);
    return rc;
}
