/* late.c: due dates, the late policy and extensions (`--due`), and when a student submitted.
 *
 * Theory of operation. A submission's time is the LMS's (Gradescope's :created_at:) when the
 * export has one, else the file's own: an archive's modification time, or the newest of a
 * folder's files (what an instructor's copy or an LMS's download kept). The class's due date
 * (`--due 2026-11-21T23:59-08:00`), a grace period (`--grace MINUTES`), a penalty per day late
 * or part of one (`--late-penalty PERCENT`) up to a cap (`--late-cap PERCENT`, default 100) and
 * an extensions file (`--extensions FILE`: CSV with a header naming sid, email or name, and due,
 * a date, or days, extra days) decide each student's penalty; the score is multiplied by
 * 1 - penalty everywhere (results.json, the gradebook, the summary, the exports), with the score
 * before it and the days late said. The policy is part of the class's rubric (ident.c): a changed
 * due date or penalty regrades the class only with --regrade. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "grade.h"

static long long newest;
static int newest_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)path; (void)ftw;
    if (flag == FTW_F && S_ISREG(st->st_mode) && (long long)st->st_mtime > newest)
        newest = (long long)st->st_mtime;
    return 0;
}

void tg_submission_time(gstudent *s)
{
    if (s->submitted_at[0] || s->not_graded[0])
        return;
    struct stat st;
    if (lstat(s->path, &st) != 0)
        return;
    newest = 0;
    if (S_ISDIR(st.st_mode))
        nftw(s->path, newest_one, 16, FTW_PHYS);
    else
        newest = (long long)st.st_mtime;
    if (newest <= 0)
        return;
    time_t t = (time_t)newest;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(s->submitted_at, sizeof s->submitted_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(s->time_from, sizeof s->time_from, "file");
}

/* One CSV line's fields (simple: commas, optional double quotes). */
static int fields(char *line, char *f[], int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        while (*p == ' ')
            ++p;
        if (*p == '"') {
            f[n++] = ++p;
            char *w = p;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"')
                    ++p;
                *w++ = *p++;
            }
            if (*p == '"')
                ++p;
            *w = '\0';
            p = strchr(p, ',') ? strchr(p, ',') : p + strlen(p);
        } else {
            f[n++] = p;
            p += strcspn(p, ",");
        }
        char *end = *p ? p : NULL;
        if (*p)
            *p++ = '\0';
        size_t l = strlen(f[n - 1]);
        while (l && (f[n - 1][l - 1] == ' ' || f[n - 1][l - 1] == '\r'))
            f[n - 1][--l] = '\0';
        if (!end)
            break;
    }
    return n;
}

int tg_late_load(tg_opts *o, char *err, size_t errlen)
{
    if (!o->extensions[0])
        return 0;
    size_t len = 0;
    char *text = tg_read_file(o->extensions, 1 << 20, &len);
    if (!text) {
        snprintf(err, errlen, "--extensions '%s': cannot read it (%s)", o->extensions, strerror(errno));
        return -1;
    }
    int ci = -1, cd = -1, cx = -1, line = 0, rc = 0;
    tg_buf_free(&o->ext_rows);
    for (char *ln = text, *nl; ln && *ln && !rc; ln = nl) {
        nl = strchr(ln, '\n');
        if (nl)
            *nl++ = '\0';
        ++line;
        char *f[16];
        int n = fields(ln, f, 16);
        if (n == 1 && !f[0][0])
            continue;
        if (ci < 0) {                 /* the header */
            for (int i = 0; i < n; ++i) {
                if (ci < 0 && (!strcasecmp(f[i], "sid") || !strcasecmp(f[i], "email") || !strcasecmp(f[i], "name") ||
                               !strcasecmp(f[i], "student")))
                    ci = i;
                else if (!strcasecmp(f[i], "due"))
                    cd = i;
                else if (!strcasecmp(f[i], "days"))
                    cx = i;
            }
            if (ci < 0 || (cd < 0 && cx < 0)) {
                snprintf(err, errlen, "--extensions '%s' line 1: name the columns: one of sid, email, name (who), and "
                         "due (a date) or days (extra days), e.g. 'sid,days'", o->extensions);
                rc = -1;
            }
            continue;
        }
        const char *who = ci < n ? f[ci] : "";
        long long until = 0;
        if (cd >= 0 && cd < n && f[cd][0]) {
            if (tg_parse_time(f[cd], &until) != 0) {
                snprintf(err, errlen, "--extensions '%s' line %d: due '%s' is not a date and time (e.g. "
                         "2026-11-23T23:59-08:00)", o->extensions, line, f[cd]);
                rc = -1;
            }
        } else if (cx >= 0 && cx < n && f[cx][0]) {
            char *end;
            double d = strtod(f[cx], &end);
            if (*end || !(d >= 0 && d <= 365)) {
                snprintf(err, errlen, "--extensions '%s' line %d: days '%s' is not a number of days from 0 to 365",
                         o->extensions, line, f[cx]);
                rc = -1;
            }
            until = o->due_epoch + (long long)llround(d * 86400);
        } else {
            snprintf(err, errlen, "--extensions '%s' line %d: no due date or days for '%s'", o->extensions, line, who);
            rc = -1;
        }
        if (!rc && !who[0]) {
            snprintf(err, errlen, "--extensions '%s' line %d: who is it for? (the %s column is empty)", o->extensions,
                     line, ci == cd ? "due" : "first");
            rc = -1;
        }
        if (!rc)
            tg_buf_printf(&o->ext_rows, "%s\t%lld\n", who, until);
    }
    free(text);
    return rc;
}

/* The student's own due date: the extensions file's, else the class's. */
static long long due_of(const grun *R, const gstudent *s)
{
    for (const char *p = R->opt->ext_rows.s; p && *p;) {
        const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
        if (!tab || !nl)
            break;
        size_t wl = (size_t)(tab - p);
        const char *ids[4] = {s->sid, s->email, s->display, s->name};
        for (int i = 0; i < 4; ++i)
            if (ids[i][0] && strlen(ids[i]) == wl && strncasecmp(ids[i], p, wl) == 0)
                return atoll(tab + 1);
        p = nl + 1;
    }
    return R->opt->due_epoch;
}

double tg_late_penalty(const grun *R, const gstudent *s, tg_buf *why, tg_late *out)
{
    memset(out, 0, sizeof *out);
    if (!R->opt->due_epoch)
        return 0;
    long long due = due_of(R, s), when;
    out->due = due;
    out->extended = due != R->opt->due_epoch;
    if (!s->submitted_at[0] || tg_parse_time(s->submitted_at, &when) != 0) {
        tg_buf_printf(why, "late policy: no submission time is known for this student: no penalty (check by hand)\n");
        out->unknown = 1;
        return 0;
    }
    out->when = when;
    long long late = when - (due + (long long)R->opt->grace_min * 60);
    if (late <= 0) {
        if (when > due)
            tg_buf_printf(why, "submitted %s, within the %d-minute grace period: on time\n", s->submitted_at,
                          R->opt->grace_min);
        return 0;
    }
    int days = (int)((late + 86399) / 86400);
    double pct = days * R->opt->late_per_day;
    if (pct > R->opt->late_cap)
        pct = R->opt->late_cap;
    out->days = days;
    out->percent = pct;
    tg_buf_printf(why, "late: submitted %s (%s), %d day(s) after the %sdue date and grace: -%g%% (%g%% a day, at most "
                  "%g%%)\n", s->submitted_at, strcmp(s->time_from, "file") == 0 ? "the file's own time" : "the LMS's time",
                  days, out->extended ? "extended " : "", pct, R->opt->late_per_day, R->opt->late_cap);
    return pct / 100.0;
}

void tg_late_text(const grun *R, tg_buf *b)
{
    if (!R->opt->due_epoch)
        return;
    char ext[20] = "none";
    if (R->opt->ext_rows.len) {
        char h[65];
        tg_sha256_hex(R->opt->ext_rows.s, R->opt->ext_rows.len, h);
        snprintf(ext, sizeof ext, "%.12s", h);
    }
    tg_buf_printf(b, "; due %s grace %d min, %g%% a day late up to %g%%, extensions %s", R->opt->due_text, R->opt->grace_min,
                  R->opt->late_per_day, R->opt->late_cap, ext);
}
