/* lab_list.h: the lab table as the tests see it, asked through build/common/tl-lab (TL_LAB) in a
 * child process, so a test restates no lab: a lab added to the table is tested by the same code.
 * (Criterion's parameter generators run in the runner: this makes no CUDA call.) */
#ifndef TILELAB_TESTS_LAB_LIST_H
#define TILELAB_TESTS_LAB_LIST_H

#include <stdio.h>
#include <string.h>

#define LAB_LIST_MAX 32

typedef struct lab_row {
    char id[8];
    int  gpu, own_main, emulated;
    char binary[160], ref_binary[160], emu_binary[160], emu_ref_binary[160];
} lab_row;

/* The first line of `tl-lab ARGS` into out ("" when it printed nothing); -1 when it failed. */
static int lab_list_ask(const char *tl_lab, const char *args, char *out, size_t len)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' %s", tl_lab, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    out[0] = '\0';
    if (fgets(out, (int)len, p))
        out[strcspn(out, "\n")] = '\0';
    int c;
    while ((c = fgetc(p)) != EOF)
        ;
    return pclose(p) == 0 ? 0 : -1;
}

/* Every lab of the table, in its order. Returns how many (at most max), -1 when tl-lab failed. */
static int lab_list_load(const char *tl_lab, lab_row *rows, int max)
{
    char cmd[512], line[64];
    snprintf(cmd, sizeof cmd, "'%s' list", tl_lab);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int n = 0;
    while (n < max && fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(rows[n++].id, sizeof rows[0].id, "%s", line);
    }
    if (pclose(p) != 0)
        return -1;
    for (int i = 0; i < n; ++i) {
        lab_row *r = &rows[i];
        char a[64], v[16];
        struct { const char *field; char *to; size_t len; } s[] = {
            {"binary", r->binary, sizeof r->binary}, {"ref_binary", r->ref_binary, sizeof r->ref_binary},
            {"emu_binary", r->emu_binary, sizeof r->emu_binary},
            {"emu_ref_binary", r->emu_ref_binary, sizeof r->emu_ref_binary},
        };
        for (size_t f = 0; f < sizeof s / sizeof s[0]; ++f) {
            snprintf(a, sizeof a, "get %s %s", r->id, s[f].field);
            if (lab_list_ask(tl_lab, a, s[f].to, s[f].len) != 0)
                return -1;
        }
        struct { const char *field; int *to; } d[] = {{"gpu", &r->gpu}, {"own_main", &r->own_main},
                                                      {"emulated", &r->emulated}};
        for (size_t f = 0; f < sizeof d / sizeof d[0]; ++f) {
            snprintf(a, sizeof a, "get %s %s", r->id, d[f].field);
            if (lab_list_ask(tl_lab, a, v, sizeof v) != 0)
                return -1;
            *d[f].to = v[0] == '1';
        }
    }
    return n;
}

#endif
