/* similar.c: pairs of submissions that look alike, for the instructor to read; never a score.
 *
 * Theory of operation. The files each student was graded on (DIR/<student>/graded-files/) are
 * compared with Debian's similarity-tester, sim_c (token runs, insensitive to names and layout),
 * after every line the kit's skeleton already holds is taken out of them (the handed-out code is
 * alike in every submission; only what the students wrote is compared). sim_c -p -e -s prints
 * "A consists for N % of B material" per ordered pair at or above the threshold; the larger of a
 * pair's two figures is reported, most similar first, in summary.md's section and in
 * DIR/similarity.md (`./kit similar DIR`). Nothing here reaches results.json or a grade. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"
#include "proc.h"

#define SIM_PAIRS_SHOWN 50

typedef struct simpair {
    int a, b;
    int pct;
} simpair;

/* A line without its leading and trailing blanks, into out. */
static void trimmed(const char *s, size_t n, char *out, size_t len)
{
    while (n && isspace((unsigned char)*s))
        ++s, --n;
    while (n && isspace((unsigned char)s[n - 1]))
        --n;
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), s);
}

/* text without the lines the skeleton holds (and without blank lines), into path. */
static int write_filtered(const char *text, const char *skel, const char *path)
{
    tg_buf out = {0};
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, "\n");
        char t[1024];
        trimmed(p, n, t, sizeof t);
        int in_skel = 0;
        if (t[0] && skel) {
            for (const char *q = skel; *q && !in_skel;) {
                size_t m = strcspn(q, "\n");
                char u[1024];
                trimmed(q, m, u, sizeof u);
                in_skel = strcmp(t, u) == 0;
                q += m + (q[m] == '\n');
            }
        }
        if (t[0] && !in_skel) {
            tg_buf_add(&out, p, n);
            tg_buf_add(&out, "\n", 1);
        }
        p += n + (p[n] == '\n');
    }
    int rc = tg_write_atomic(path, out.s ? out.s : "", out.len);
    tg_buf_free(&out);
    return rc;
}

static int by_pct(const void *x, const void *y)
{
    const simpair *a = x, *b = y;
    return b->pct != a->pct ? b->pct - a->pct : a->a != b->a ? a->a - b->a : a->b - b->b;
}

int tg_similarity(const char *out, const tl_lab_info *lab, const char *kit_lab_dir, int threshold, tg_buf *md)
{
    char simc[PATH_MAX];
    tg_buf_printf(md, "## Similarity (never part of a score)\n\n");
    if (tg_find_tool("sim_c", simc, sizeof simc) != 0) {
        tg_buf_printf(md, "not computed: sim_c is not installed (Debian: apt-get install similarity-tester)\n\n");
        return 77;
    }
    /* The students with graded files, each file with the skeleton's lines taken out. */
    char work[PATH_MAX + 64];
    snprintf(work, sizeof work, "%s/.state/similar", out);
    tg_rmtree(work);
    if (tg_mkdirs(work, 0700) != 0) {
        tg_buf_printf(md, "not computed: cannot make %s (%s)\n\n", work, strerror(errno));
        return -1;
    }
    struct dirent **ents = NULL;
    int ne = scandir(out, &ents, NULL, alphasort), ns = 0;
    char (*names)[256] = calloc((size_t)(ne > 0 ? ne : 1), sizeof *names);
    tg_buf list = {0};
    for (int i = 0; i < ne; ++i) {
        const char *n = ents[i]->d_name;
        char gf[PATH_MAX + 600];
        snprintf(gf, sizeof gf, "%s/%s/graded-files", out, n);
        if (n[0] != '.' && tg_is_dir(gf)) {
            int any = 0;
            for (int f = 0; f < TL_LAB_MAX_FILES && lab->files[f]; ++f) {
                char src[PATH_MAX + 900], dst[PATH_MAX + 900], sk[PATH_MAX + 300];
                snprintf(src, sizeof src, "%s/%s", gf, lab->files[f]);
                snprintf(sk, sizeof sk, "%s/%s", kit_lab_dir, lab->files[f]);
                char *text = tg_read_file(src, TG_FILE_MAX + 1, NULL), *skel = tg_read_file(sk, TG_FILE_MAX + 1, NULL);
                snprintf(dst, sizeof dst, "%s/%d", work, ns);
                tg_mkdirs(dst, 0700);
                snprintf(dst, sizeof dst, "%s/%d/%s", work, ns, lab->files[f]);
                if (text && write_filtered(text, skel, dst) == 0) {
                    tg_buf_printf(&list, "%d/%s\n", ns, lab->files[f]);   /* relative: sim_c runs in work */
                    any = 1;
                }
                free(text);
                free(skel);
            }
            if (any)
                snprintf(names[ns++], sizeof names[0], "%s", n);
        }
        free(ents[i]);
    }
    free(ents);
    if (ns < 2) {
        tg_buf_printf(md, "fewer than two graded submissions: nothing to compare\n\n");
        tg_buf_free(&list);
        free(names);
        return 0;
    }
    /* sim_c reads the file names from its standard input (-i): no argv limit for a big class. */
    char lp[PATH_MAX + 80], op[PATH_MAX + 80], thr[32];
    snprintf(lp, sizeof lp, "%s/files.txt", work);
    snprintf(op, sizeof op, "%s/sim.txt", work);
    tg_write_atomic(lp, list.s, list.len);
    tg_buf_free(&list);
    snprintf(thr, sizeof thr, "-t%d", threshold);
    const char *argv[] = {simc, "-p", "-e", "-s", "-T", thr, "-i", NULL};
    tg_proc_io io = {.out = TG_PROC_FILE, .err = TG_PROC_FILE, .path = op, .in = lp, .dir = work};
    int rc = tg_proc_run(argv, &io);
    char *res = tg_read_file(op, 16 << 20, NULL);
    if (rc != 0 || !res) {
        tg_buf_printf(md, "not computed: sim_c failed (exit %d): %.300s\n\n", rc, res ? res : "");
        free(res);
        free(names);
        return -1;
    }
    /* sim_c's report of a pair, the files named as listed: "3/gmm.c consists for 87 % of 5/gmm.c
     * material" (a lab's file names hold no space) */
    int cap = 64, np = 0;
    simpair *pairs = malloc((size_t)cap * sizeof *pairs);
    for (char *ln = res, *nl; ln && *ln; ln = nl) {
        nl = strchr(ln, '\n');
        if (nl)
            *nl++ = '\0';
        int a, b, pct;
        if (sscanf(ln, "%d/%*s consists for %d %% of %d/", &a, &pct, &b) != 3 || a == b || a < 0 || b < 0 ||
            a >= ns || b >= ns)
            continue;
        if (a > b) {
            int t = a;
            a = b;
            b = t;
        }
        int found = 0;
        for (int k = 0; k < np && !found; ++k)
            if (pairs[k].a == a && pairs[k].b == b) {
                found = 1;
                if (pct > pairs[k].pct)
                    pairs[k].pct = pct;
            }
        if (found)
            continue;
        if (np == cap) {
            simpair *p2 = realloc(pairs, (size_t)(cap *= 2) * sizeof *pairs);
            if (!p2)
                break;
            pairs = p2;
        }
        pairs[np++] = (simpair){a, b, pct};
    }
    free(res);
    qsort(pairs, (size_t)np, sizeof *pairs, by_pct);
    tg_buf_printf(md, "sim_c (Debian's similarity-tester) on the files each student was graded on, every line of the "
                  "kit's skeleton taken out; pairs where one consists for at least %d %% of the other's material, "
                  "most similar first. For the instructor to read: similar code has innocent causes too.\n\n",
                  threshold);
    if (!np)
        tg_buf_printf(md, "no pair of the %d submissions at or above %d %%\n\n", ns, threshold);
    else
        tg_buf_printf(md, "| student | student | similarity |\n|---|---|---|\n");
    for (int k = 0; k < np && k < SIM_PAIRS_SHOWN; ++k) {
        char *x = tg_md_inline(names[pairs[k].a]), *y = tg_md_inline(names[pairs[k].b]);
        tg_buf_printf(md, "| %s | %s | %d %% |\n", x, y, pairs[k].pct);
        free(x);
        free(y);
    }
    if (np > SIM_PAIRS_SHOWN)
        tg_buf_printf(md, "\nand %d more pairs (raise the threshold: ./kit similar DIR --threshold N)\n", np - SIM_PAIRS_SHOWN);
    tg_buf_printf(md, "\n");
    free(pairs);
    free(names);
    return np;
}
