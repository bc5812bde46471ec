/* exports.c: the class's grades for the LMS, joined to the course's roster.
 *
 * Theory of operation. After every class run (tg_write_class) the students of the out dir are
 * joined to the roster, `--roster FILE` (kept as DIR/.state/roster.csv for later runs): a CSV
 * with a header naming the columns name, email and sid (in any order and case; "full name",
 * "student", "sis user id", "student id" accepted too). A student matches a roster line by SID,
 * else by email, else by name (an LMS export's students carry SID and email; a folder given by
 * hand matches when it is named by the student's SID, email or name). Then:
 *   DIR/roster.md     who matched, roster students with no submission, submissions not in the roster
 *   DIR/canvas.csv    Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, then
 *                     one assignment column, with a "Points Possible" row
 *   DIR/gradescope.csv the columns of Gradescope's score export: Name, SID, Email, Total Score,
 *                     Max Points, Status, Submission Time
 * A score is a number or empty, never words: "not graded" and "no submission" are in the status
 * (gradescope.csv) or left empty (canvas.csv: an empty cell changes nothing in Canvas). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grade.h"

typedef struct rentry {
    char name[256], email[256], sid[128];
    int  student;              /* the class's student it matched (-1 none) */
} rentry;

/* One CSV record from *p (RFC 4180: quotes, doubled quotes, CRLF): fields into f[0..max-1],
 * each up to flen bytes; returns the count, *p moved past the record; -1 at the end. */
static int csv_record(const char **p, char f[][256], int max)
{
    const char *s = *p;
    if (!*s)
        return -1;
    int n = 0;
    for (;;) {
        char buf[256];
        size_t l = 0;
        if (*s == '"') {
            ++s;
            while (*s && !(*s == '"' && s[1] != '"')) {
                if (*s == '"')
                    ++s;
                if (l + 1 < sizeof buf)
                    buf[l++] = *s;
                ++s;
            }
            if (*s == '"')
                ++s;
            while (*s && *s != ',' && *s != '\n' && *s != '\r')
                ++s;
        } else {
            while (*s && *s != ',' && *s != '\n' && *s != '\r') {
                if (l + 1 < sizeof buf)
                    buf[l++] = *s;
                ++s;
            }
        }
        while (l && (buf[l - 1] == ' ' || buf[l - 1] == '\t'))
            --l;
        buf[l] = '\0';
        const char *b = buf;
        while (*b == ' ' || *b == '\t')
            ++b;
        if (n < max)
            snprintf(f[n], 256, "%s", b);
        ++n;
        if (*s == ',') {
            ++s;
            continue;
        }
        if (*s == '\r')
            ++s;
        if (*s == '\n')
            ++s;
        break;
    }
    *p = s;
    return n;
}

static int header_is(const char *h, const char *const *names)
{
    for (int i = 0; names[i]; ++i)
        if (strcasecmp(h, names[i]) == 0)
            return 1;
    return 0;
}

static int tg_roster_load(const char *path, rentry **out, int *nout, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = tg_read_file(path, 16 << 20, &len);
    if (!text) {
        snprintf(err, errlen, "--roster '%s': cannot read it (%s)", path, strerror(errno));
        return -1;
    }
    const char *p = text;
    if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
        p += 3;                                   /* a spreadsheet's byte-order mark */
    char f[64][256];
    int nh = csv_record(&p, f, 64), cn = -1, ce = -1, cs = -1;
    static const char *const names[] = {"name", "full name", "student", "student name", NULL};
    static const char *const emails[] = {"email", "e-mail", "email address", NULL};
    static const char *const sids[] = {"sid", "student id", "sis user id", "id number", NULL};
    for (int i = 0; i < nh && i < 64; ++i) {
        if (cn < 0 && header_is(f[i], names))
            cn = i;
        else if (ce < 0 && header_is(f[i], emails))
            ce = i;
        else if (cs < 0 && header_is(f[i], sids))
            cs = i;
    }
    if (nh <= 0 || cn < 0 || (ce < 0 && cs < 0)) {
        snprintf(err, errlen, "--roster '%s': its first line must name the columns: name, and email or sid (or both), "
                 "e.g. 'name,email,sid'", path);
        free(text);
        return -1;
    }
    int cap = 64, n = 0, line = 1;
    rentry *r = calloc((size_t)cap, sizeof *r);
    int k;
    while (r && (k = csv_record(&p, f, 64)) >= 0) {
        ++line;
        if (k == 1 && !f[0][0])
            continue;                             /* an empty line */
        if (n == cap) {
            rentry *r2 = realloc(r, (size_t)(cap *= 2) * sizeof *r);
            if (!r2)
                break;
            r = r2;
        }
        memset(&r[n], 0, sizeof r[n]);
        snprintf(r[n].name, sizeof r[n].name, "%s", cn < k ? f[cn] : "");
        snprintf(r[n].email, sizeof r[n].email, "%s", ce >= 0 && ce < k ? f[ce] : "");
        snprintf(r[n].sid, sizeof r[n].sid, "%s", cs >= 0 && cs < k ? f[cs] : "");
        if (!r[n].name[0] && !r[n].email[0] && !r[n].sid[0])
            continue;
        if (!r[n].email[0] && !r[n].sid[0]) {
            snprintf(err, errlen, "--roster '%s' line %d: '%s' has neither email nor SID", path, line, r[n].name);
            free(r);
            free(text);
            return -1;
        }
        r[n].student = -1;
        ++n;
    }
    free(text);
    *out = r;
    *nout = n;
    return 0;
}

int tg_roster_check(const char *path, int *n, char *err, size_t errlen)
{
    rentry *r = NULL;
    int rc = tg_roster_load(path, &r, n, err, errlen);
    free(r);
    return rc;
}

static void field(tg_buf *b, const char *s)
{
    int q = strpbrk(s, ",\"\n\r") != NULL || (*s == ' ') || (*s && s[strlen(s) - 1] == ' ');
    /* A spreadsheet runs a cell that starts with = + - @ as a formula: made text. */
    int formula = *s == '=' || *s == '+' || *s == '-' || *s == '@';
    if (!q && !formula) {
        tg_buf_add(b, s, strlen(s));
        return;
    }
    tg_buf_add(b, "\"", 1);
    if (formula)
        tg_buf_add(b, "'", 1);
    for (; *s; ++s) {
        if (*s == '"')
            tg_buf_add(b, "\"", 1);
        tg_buf_add(b, s, 1);
    }
    tg_buf_add(b, "\"", 1);
}

/* Lowercase letters and digits only: "Smith, Lee Ann" -> "smithleeann". */
static void squash(const char *in, char *out, size_t len)
{
    size_t j = 0;
    for (; *in && j + 1 < len; ++in)
        if (isalnum((unsigned char)*in) || ((unsigned char)*in & 0x80))
            out[j++] = (char)tolower((unsigned char)*in);
    out[j] = '\0';
}

/* Does student s match roster line e? By SID, else by email, else by name. Canvas's SID is its
 * own user id, not the roster's, and its name is the sortable one squashed ("smithleeann" for
 * "Lee Ann Smith"): matched by name, the last word first or as written. A student without an LMS
 * identity (a folder given by hand) matches when named by the SID, the email or the name. */
static int matches(const gstudent *s, const rentry *e)
{
    int canvas = strcmp(s->from, "canvas") == 0;
    if (!canvas && s->sid[0] && e->sid[0])
        return strcmp(s->sid, e->sid) == 0;
    if (s->email[0] && e->email[0])
        return strcasecmp(s->email, e->email) == 0;
    const char *d = s->display[0] ? s->display : s->name;
    if ((e->sid[0] && strcmp(d, e->sid) == 0) || (e->email[0] && strcasecmp(d, e->email) == 0) ||
        (e->name[0] && strcasecmp(d, e->name) == 0))
        return 1;
    if (!canvas || !e->name[0])
        return 0;
    char a[300], b[300], c[300];
    squash(d, a, sizeof a);
    squash(e->name, b, sizeof b);
    const char *last = strrchr(e->name, ' ');
    if (last) {
        char rot[600];
        snprintf(rot, sizeof rot, "%s %.*s", last + 1, (int)(last - e->name), e->name);
        squash(rot, c, sizeof c);
    } else {
        c[0] = '\0';
    }
    return a[0] && (strcmp(a, b) == 0 || strcmp(a, c) == 0);
}

void tg_write_exports(grun *R, const gstudent *st, const srow *rows, int ns)
{
    char p[PATH_MAX + 64], err[600];
    snprintf(p, sizeof p, "%s/.state/roster.csv", R->run.out);
    rentry *ro = NULL;
    int nr = 0, have_roster = tg_is_file(p);
    if (have_roster && tg_roster_load(p, &ro, &nr, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: the exports are without the roster: %s\n", err);
        have_roster = 0;
    }
    int *claimed = calloc((size_t)ns + 1, sizeof *claimed);
    for (int i = 0; i < nr; ++i)
        for (int j = 0; j < ns && ro[i].student < 0; ++j)
            if (!claimed[j] && matches(&st[j], &ro[i])) {
                ro[i].student = j;
                claimed[j] = 1;
            }
    double max = 0;
    for (int j = 0; j < ns; ++j)
        if (rows[j].done && rows[j].max > max)
            max = rows[j].max;
    if (max <= 0)
        max = tl_lab_points(R->lab);
    /* Who is who: the join, said. */
    tg_buf md = {0};
    if (have_roster) {
        int matched = 0;
        for (int i = 0; i < nr; ++i)
            matched += ro[i].student >= 0;
        tg_buf_printf(&md, "# Roster join: lab %s\n\n%d of %d roster students matched a submission.\n\n", R->lab->id,
                      matched, nr);
        tg_buf_printf(&md, "## Roster students with no submission (%d)\n\n", nr - matched);
        for (int i = 0; i < nr; ++i)
            if (ro[i].student < 0)
                tg_buf_printf(&md, "- %s (%s%s%s)\n", ro[i].name, ro[i].sid, ro[i].sid[0] && ro[i].email[0] ? ", " : "",
                              ro[i].email);
        int extra = 0;
        for (int j = 0; j < ns; ++j)
            extra += !claimed[j];
        tg_buf_printf(&md, "\n## Submissions not in the roster (%d): not exported\n\n", extra);
        for (int j = 0; j < ns; ++j)
            if (!claimed[j])
                tg_buf_printf(&md, "- %s (%s%s%s), folder %s\n", st[j].display, st[j].sid,
                              st[j].sid[0] && st[j].email[0] ? ", " : "", st[j].email, st[j].name);
        snprintf(p, sizeof p, "%s/roster.md", R->run.out);
        tg_write_atomic(p, md.s, md.len);
        if (nr - matched || extra)
            fprintf(stderr, "tl-grade: roster: %d of %d matched; %d with no submission, %d submission(s) not in the "
                    "roster (%s/roster.md)\n", matched, nr, nr - matched, extra, R->run.out);
        tg_buf_free(&md);
    }
    /* Canvas and Gradescope: a row per roster student (or per student when there is no roster). */
    tg_buf cv = {0}, gs = {0};
    char title[64];
    snprintf(title, sizeof title, "Lab %s (tilelab)", R->lab->id);
    tg_buf_printf(&cv, "Student,ID,SIS User ID,SIS Login ID,Section,");
    field(&cv, title);
    tg_buf_printf(&cv, "\nPoints Possible,,,,,%.2f\n", max);
    tg_buf_printf(&gs, "Name,SID,Email,Total Score,Max Points,Status,Submission Time\n");
    int n = have_roster ? nr : ns;
    for (int k = 0; k < n; ++k) {
        int j = have_roster ? ro[k].student : k;
        const gstudent *s = j >= 0 ? &st[j] : NULL;
        const char *name = have_roster ? ro[k].name : s->display[0] ? s->display : s->name;
        const char *sid = have_roster && ro[k].sid[0] ? ro[k].sid : s ? s->sid : "";
        const char *email = have_roster && ro[k].email[0] ? ro[k].email : s ? s->email : "";
        char score[32] = "";
        const char *status = !s ? "Missing" : rows[j].done ? "Graded" : "Ungraded";
        if (s && rows[j].done)
            snprintf(score, sizeof score, "%.2f", rows[j].score);
        field(&cv, name);
        tg_buf_add(&cv, ",", 1);
        field(&cv, s && strcmp(s->from, "canvas") == 0 ? s->sid : "");   /* Canvas's user id */
        tg_buf_add(&cv, ",", 1);
        field(&cv, s && strcmp(s->from, "canvas") == 0 && !have_roster ? "" : sid);
        tg_buf_printf(&cv, ",,,%s\n", score);
        field(&gs, name);
        tg_buf_add(&gs, ",", 1);
        field(&gs, sid);
        tg_buf_add(&gs, ",", 1);
        field(&gs, email);
        tg_buf_printf(&gs, ",%s,%.2f,%s,", score, max, status);
        field(&gs, s ? s->submitted_at : "");
        tg_buf_add(&gs, "\n", 1);
    }
    snprintf(p, sizeof p, "%s/canvas.csv", R->run.out);
    tg_write_atomic(p, cv.s, cv.len);
    snprintf(p, sizeof p, "%s/gradescope.csv", R->run.out);
    tg_write_atomic(p, gs.s, gs.len);
    tg_buf_free(&cv);
    tg_buf_free(&gs);
    free(claimed);
    free(ro);
}
