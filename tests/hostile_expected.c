/* hostile_expected.c: tests/hostile/expected.txt read by the C tests (hostile_expected.h). */
#define _GNU_SOURCE
#include "hostile_expected.h"

#include <glob.h>
#include <stdio.h>
#include <string.h>

/* The word of grade g at place, or NULL when g is malformed. */
static const char *grade_at(char *g, const char *place, char *why, size_t len)
{
    const char *word = NULL, *here = NULL;
    for (char *save = NULL, *it = strtok_r(g, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(it, ':');
        const char *w = colon ? colon + 1 : it;
        if (strcmp(w, "full") != 0 && strcmp(w, "less") != 0) {
            snprintf(why, len, "grade word '%s' is neither full nor less", w);
            return NULL;
        }
        if (colon) {
            *colon = '\0';
            if (strcmp(it, "emulated") != 0 && strcmp(it, "gpu") != 0) {
                snprintf(why, len, "place '%s' is neither emulated nor gpu", it);
                return NULL;
            }
            if (place && strcmp(it, place) == 0)
                here = w;
        } else if (word) {
            snprintf(why, len, "two words for every place");
            return NULL;
        } else
            word = w;
    }
    if (!word) {
        snprintf(why, len, "no word for every place (PLACE:WORD items follow it)");
        return NULL;
    }
    return here ? here : word;
}

/* Calls row(lab, name, grade, ctx) for each row; stops at the first nonzero. */
static int each_row(const char *file, int (*row)(char *, char *, char *, void *), void *ctx, char *why, size_t len)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        snprintf(why, len, "cannot read %s", file);
        return -1;
    }
    char line[4096];
    int rc = 0, n = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ++n;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *save = NULL, *lab = strtok_r(line, " \t\n", &save), *name = strtok_r(NULL, " \t\n", &save),
             *grade = strtok_r(NULL, " \t\n", &save);
        if (!lab || !name || !grade) {
            snprintf(why, len, "%s:%d: not LAB NAME GRADE WHY", file, n);
            rc = -1;
            break;
        }
        rc = row(lab, name, grade, ctx);
        if (rc < 0) {
            char inner[512];
            snprintf(inner, sizeof inner, "%s", why);
            snprintf(why, len, "%s:%d: %s", file, n, inner);
        }
    }
    fclose(f);
    return rc;
}

typedef struct find_ctx {
    const char *lab, *name, *place;
    char *word, *why;
    size_t len, whylen;
} find_ctx;

static int find_row(char *lab, char *name, char *grade, void *v)
{
    find_ctx *c = v;
    if (strcmp(lab, c->lab) != 0 || strcmp(name, c->name) != 0)
        return 0;
    const char *w = grade_at(grade, c->place, c->why, c->whylen);
    if (!w)
        return -1;
    snprintf(c->word, c->len, "%s", w);
    return 1;
}

int hostile_expected(const char *file, const char *lab, const char *name, const char *place, char *word, size_t len)
{
    char why[600] = "";
    find_ctx c = {lab, name, place, word, why, len, sizeof why};
    word[0] = '\0';
    int rc = each_row(file, find_row, &c, why, sizeof why);
    if (rc < 0)
        snprintf(word, len, "%s", why);
    return rc;
}

typedef struct check_ctx {
    const char *root;
    char *why;
    size_t len;
} check_ctx;

static int check_row(char *lab, char *name, char *grade, void *v)
{
    check_ctx *c = v;
    if (strlen(lab) != 2 || lab[0] < '0' || lab[0] > '9' || lab[1] < '0' || lab[1] > '9') {
        snprintf(c->why, c->len, "lab '%s' is not two digits", lab);
        return -1;
    }
    if (!grade_at(grade, NULL, c->why, c->len))
        return -1;
    char pat[1024];
    snprintf(pat, sizeof pat, "%s/tests/hostile/%s/%s.*", c->root, lab, name);
    glob_t g;
    int found = glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0;
    globfree(&g);
    if (!found) {
        snprintf(c->why, c->len, "no file tests/hostile/%s/%s.*", lab, name);
        return -1;
    }
    return 0;
}

int hostile_expected_check(const char *root, char *why, size_t len)
{
    char file[1024];
    snprintf(file, sizeof file, "%s/tests/hostile/expected.txt", root);
    check_ctx c = {root, why, len};
    why[0] = '\0';
    return each_row(file, check_row, &c, why, len) < 0 ? -1 : 0;
}
