/* ident.c: what a grade was computed from, so that an out dir's grades never go stale.
 *
 * Theory of operation. A class's out dir holds one identity, DIR/.state/identity: the lab, a
 * fingerprint of the secret, the rubric (every test's points and the hidden-size rules, as
 * effective after --rubric FILE), the cases (public sizes, hidden rules, the seed's fingerprint,
 * public-only, emulated) and the kit's version. Each graded student holds what their grade was
 * computed from, DIR/<student>/graded-from.txt: the rubric's and the cases' hashes, the kit's
 * version and the SHA-256 of every file intake took. A rerun into the same out dir:
 *   - refuses when the rubric or the cases changed, unless --regrade (then every student is
 *     graded again: one gradebook never mixes two rubrics); a new kit version is said, not refused;
 *   - grades again a student whose taken files changed (a resubmission), or who is named by
 *     --regrade=NAME,...; keeps the others.
 * A rubric is data: `tl-grade --print-rubric NN` writes the table's rubric as a file, an
 * instructor edits its points and hidden-size count, `--rubric FILE` grades with it (checked on
 * load, every error with its line), and the identity shows it. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade.h"
#include "proc.h"

/* ------------------------------------------------------------ SHA-256 (FIPS 180-4) */

typedef struct sha256 {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t   fill;
} sha256;

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha_block(sha256 *s, const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; ++i) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; ++i) {
        uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
    s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha_init(sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->len = 0;
    s->fill = 0;
}

static void sha_add(sha256 *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->len += n;
    while (n) {
        size_t take = 64 - s->fill < n ? 64 - s->fill : n;
        memcpy(s->buf + s->fill, p, take);
        s->fill += take;
        p += take;
        n -= take;
        if (s->fill == 64) {
            sha_block(s, s->buf);
            s->fill = 0;
        }
    }
}

static void sha_hex(sha256 *s, char out[65])
{
    uint64_t bits = s->len * 8;
    unsigned char pad = 0x80, zero = 0;
    sha_add(s, &pad, 1);
    while (s->fill != 56)
        sha_add(s, &zero, 1);
    unsigned char lb[8];
    for (int i = 0; i < 8; ++i)
        lb[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha_add(s, lb, 8);
    for (int i = 0; i < 8; ++i)
        snprintf(out + 8 * i, 9, "%08x", s->h[i]);
}

void tg_sha256_hex(const void *data, size_t n, char out[65])
{
    sha256 s;
    sha_init(&s);
    sha_add(&s, data, n);
    sha_hex(&s, out);
}

int tg_sha256_file(const char *path, char out[65])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    sha256 s;
    sha_init(&s);
    unsigned char buf[65536];
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0)
        sha_add(&s, buf, r);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return -1;
    sha_hex(&s, out);
    return 0;
}

/* ------------------------------------------------------------ the rubric as data */

static tl_lab_info rubric_lab;     /* the lab with an instructor's rubric laid over the table's */

void tg_rubric_print(const tl_lab_info *L, FILE *out)
{
    fprintf(out, "# tilelab rubric of lab %s (%s): edit the points and the hidden-size count, then grade with\n"
            "#   ./kit grade --lab %s --rubric THIS_FILE ...\n"
            "# Lines: 'lab NN', 'hidden_count N' (hidden sizes drawn from the secret seed, 1..%d), and\n"
            "# 'POINTS<TAB>TEST NAME' for each test (a test left out keeps the table's points).\n"
            "# A changed rubric regrades a class only with --regrade (one gradebook, one rubric).\n",
            L->id, L->dir, L->id, TG_HIDDEN_MAX);
    fprintf(out, "lab\t%s\nhidden_count\t%d\n", L->id, L->hidden_count);
    for (int i = 0; i < L->ntests; ++i)
        fprintf(out, "%g\t%s\n", L->tests[i].points, L->tests[i].name);
}

int tg_rubric_load(grun *R, const char *path, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = tg_read_file(path, 1 << 20, &len);
    if (!text) {
        snprintf(err, errlen, "--rubric '%s': cannot read it (%s); write one with tl-grade --print-rubric %s", path,
                 strerror(errno), R->lab->id);
        return -1;
    }
    rubric_lab = *R->lab;
    int seen[TL_LAB_MAX_TESTS] = {0}, line = 0, lab_ok = 0, rc = 0;
    for (char *ln = text, *nl; ln && *ln && !rc; ln = nl) {
        nl = strchr(ln, '\n');
        if (nl)
            *nl++ = '\0';
        ++line;
        size_t l = strlen(ln);
        while (l && (ln[l - 1] == '\r' || ln[l - 1] == ' '))
            ln[--l] = '\0';
        if (!l || ln[0] == '#')
            continue;
        char *tab = strchr(ln, '\t');
        if (!tab) {
            snprintf(err, errlen, "--rubric '%s' line %d: '%.80s' has no tab between its two fields (POINTS<TAB>TEST, "
                     "hidden_count<TAB>N or lab<TAB>NN)", path, line, ln);
            rc = -1;
            break;
        }
        *tab = '\0';
        const char *key = ln, *val = tab + 1;
        long v;
        if (strcmp(key, "lab") == 0) {
            if (tl_lab_find(val) != R->lab) {
                snprintf(err, errlen, "--rubric '%s' line %d: it is lab %s's rubric, not lab %s's", path, line, val,
                         R->lab->id);
                rc = -1;
            }
            lab_ok = 1;
        } else if (strcmp(key, "hidden_count") == 0) {
            if (tl_parse_int(val, 1, TG_HIDDEN_MAX, &v) != 0) {
                snprintf(err, errlen, "--rubric '%s' line %d: hidden_count '%s': give a number from 1 to %d", path, line,
                         val, TG_HIDDEN_MAX);
                rc = -1;
            } else {
                rubric_lab.hidden_count = (int)v;
            }
        } else {
            char *end = NULL;
            errno = 0;
            double pts = strtod(key, &end);
            int t = -1;
            for (int i = 0; i < rubric_lab.ntests && t < 0; ++i)
                if (strcmp(rubric_lab.tests[i].name, val) == 0)
                    t = i;
            if (!end || *end || end == key || errno || !(pts >= 0 && pts <= 1000)) {
                snprintf(err, errlen, "--rubric '%s' line %d: '%.40s' is not a number of points from 0 to 1000 (lines "
                         "are POINTS<TAB>TEST NAME)", path, line, key);
                rc = -1;
            } else if (t < 0) {
                tg_buf names = {0};
                for (int i = 0; i < rubric_lab.ntests; ++i)
                    tg_buf_printf(&names, "%s'%s'", i ? ", " : "", rubric_lab.tests[i].name);
                snprintf(err, errlen, "--rubric '%s' line %d: lab %s has no test '%.120s'; its tests are: %.1200s", path,
                         line, R->lab->id, val, names.s ? names.s : "");
                tg_buf_free(&names);
                rc = -1;
            } else if (seen[t]++) {
                snprintf(err, errlen, "--rubric '%s' line %d: test '%.120s' is given twice", path, line, val);
                rc = -1;
            } else {
                rubric_lab.tests[t].points = pts;
            }
        }
    }
    free(text);
    if (!rc && !lab_ok) {
        snprintf(err, errlen, "--rubric '%s': no 'lab<TAB>%s' line: say which lab it is for (tl-grade --print-rubric %s "
                 "writes a complete one)", path, R->lab->id, R->lab->id);
        rc = -1;
    }
    if (!rc)
        R->lab = &rubric_lab;
    return rc;
}

/* ------------------------------------------------------------ the identity */

/* The rubric as text: every test's points and the hidden-size rules. */
static void rubric_text(const tl_lab_info *L, tg_buf *b)
{
    tg_buf_printf(b, "lab %s; hidden %d in %d..%d ragged %d rect %d multiple %d", L->id, L->hidden_count, L->hidden_min,
                  L->hidden_max, L->hidden_ragged, L->hidden_rect, L->hidden_multiple);
    for (int i = 0; i < L->ntests; ++i)
        tg_buf_printf(b, "; %s = %g", L->tests[i].name, L->tests[i].points);
}

/* The rubric with the late policy (late.c): both decide the grades. */
static void grading_text(const grun *R, tg_buf *b)
{
    rubric_text(R->lab, b);
    tg_late_text(R, b);
}

void tg_identity(const grun *R, tg_identity_t *id)
{
    memset(id, 0, sizeof *id);
    tg_buf b = {0};
    grading_text(R, &b);
    tg_sha256_hex(b.s, b.len, id->rubric);
    id->rubric[16] = '\0';
    tg_buf_free(&b);
    tg_buf_printf(&b, "public %s; safety %s; speed %s; hidden %d in %d..%d ragged %d rect %d multiple %d; seed %016llx; "
                  "public-only %d; emulated %d", R->lab->public_sizes ? R->lab->public_sizes : "-",
                  R->lab->safety_sizes ? R->lab->safety_sizes : "-", R->lab->speed_size ? R->lab->speed_size : "-",
                  R->lab->hidden_count, R->lab->hidden_min, R->lab->hidden_max, R->lab->hidden_ragged,
                  R->lab->hidden_rect, R->lab->hidden_multiple, (unsigned long long)tg_mix64(R->run.seed ^ 0x5EC2E7ull),
                  R->opt->public_only, R->opt->emulate);
    tg_sha256_hex(b.s, b.len, id->cases);
    id->cases[16] = '\0';
    tg_buf_free(&b);
    /* The kit's version: its git commit, "+changes" when tracked files differ from it. */
    char line[128] = "";
    const char *head[] = {"git", "-C", R->opt->root, "rev-parse", "--short=12", "HEAD", NULL};
    tg_proc_io io = {.out = TG_PROC_CAPTURE, .buf = line, .buflen = sizeof line, .err = TG_PROC_NULL, .search = 1};
    if (tg_proc_run(head, &io) < 0)
        line[0] = '\0';
    line[strcspn(line, "\n")] = '\0';
    if (line[0]) {
        const char *diff[] = {"git", "-C", R->opt->root, "diff", "--quiet", "HEAD", "--", NULL};
        tg_proc_io quiet = {.out = TG_PROC_NULL, .err = TG_PROC_NULL, .search = 1};
        int dirty = tg_proc_run(diff, &quiet) != 0;
        snprintf(id->kit, sizeof id->kit, "git %s%s", line, dirty ? "+changes" : "");
    } else {
        snprintf(id->kit, sizeof id->kit, "unknown (not a git tree)");
    }
}

void tg_identity_rubric_text(const grun *R, tg_buf *b)
{
    grading_text(R, b);
}

/* ------------------------------------------------------------ one student's record */

int tg_files_record(const grun *R, const char *files_dir, const tg_identity_t *id, tg_buf *out)
{
    tg_buf_printf(out, "rubric %s\ncases %s\nkit %s\n", id->rubric, id->cases, id->kit);
    for (int i = 0; i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
        char p[PATH_MAX + 300], hex[65];
        snprintf(p, sizeof p, "%s/%s", files_dir, R->lab->files[i]);
        if (!tg_is_file(p))
            tg_buf_printf(out, "file %s none\n", R->lab->files[i]);
        else if (tg_sha256_file(p, hex) == 0)
            tg_buf_printf(out, "file %s sha256:%s\n", R->lab->files[i], hex);
        else
            return -1;
    }
    return 0;
}

const char *tg_record_value(const char *rec, const char *key, size_t *len)
{
    size_t kl = strlen(key);
    for (const char *p = rec; p && *p;) {
        size_t l = strcspn(p, "\n");
        if (l > kl && p[kl] == ' ' && memcmp(p, key, kl) == 0) {
            *len = l - kl - 1;
            return p + kl + 1;
        }
        p += l + (p[l] == '\n');
    }
    *len = 0;
    return NULL;
}

int tg_record_is(const char *rec, const char *key, const char *want, int want_word)
{
    size_t l;
    const char *v = tg_record_value(rec, key, &l);
    if (v && want_word)
        l = strcspn(v, " \n");
    return v && l == strlen(want) && memcmp(v, want, l) == 0;
}

/* The record's "file" lines only (what the student handed in), in their order. */
static void files_part(const char *rec, tg_buf *out)
{
    tg_buf_add(out, "", 0);
    for (const char *p = rec; p && *p;) {
        size_t l = strcspn(p, "\n");
        if (l > 5 && memcmp(p, "file ", 5) == 0)
            tg_buf_printf(out, "%.*s\n", (int)l, p);
        p += l + (p[l] == '\n');
    }
}

int tg_record_same_files(const char *a, const char *b)
{
    tg_buf fa = {0}, fb = {0};
    files_part(a, &fa);
    files_part(b, &fb);
    int same = fa.s && fb.s && strcmp(fa.s, fb.s) == 0;
    tg_buf_free(&fa);
    tg_buf_free(&fb);
    return same;
}

int tg_record_same_class(const char *rec, const tg_identity_t *id)
{
    return tg_record_is(rec, "rubric", id->rubric, 0) && tg_record_is(rec, "cases", id->cases, 0);
}

/* ------------------------------------------------------------ reruns */

/* Is the student named by --regrade=NAME,... (their name as shown, or their folder)? */
int tg_regrade_named(const grun *R, const gstudent *s)
{
    return R->opt->regrade == 2 && (tg_list_has(R->opt->regrade_names, s->name) || tg_list_has(R->opt->regrade_names, s->display));
}

/* A finished student's grade still stands when it was computed under this class's rubric and
 * cases and, for a student of this run, from the files intake takes from the submission now (a
 * resubmission is graded again). why says why not. */
int tg_still_fresh(grun *R, const gstudent *s, int in_run, int named, char *why, size_t whylen)
{
    if (R->opt->regrade == 1 || named) {
        snprintf(why, whylen, "graded again (--regrade)");
        return 0;
    }
    char p[PATH_MAX + 200];
    snprintf(p, sizeof p, "%s/%s/graded-from.txt", R->run.out, s->name);
    char *rec = tg_read_file(p, 1 << 16, NULL);
    if (!rec) {
        snprintf(why, whylen, "graded by a tl-grade that kept no record of what it graded from: graded again");
        return !in_run;    /* an earlier run's student without its submission here: kept */
    }
    int fresh = tg_record_same_class(rec, &R->run.ident);
    if (!fresh)
        snprintf(why, whylen, "graded under another rubric or cases: graded again");
    if (fresh && in_run && !s->not_graded[0]) {
        char work[PATH_MAX + 64], files[PATH_MAX + 80], err[800];
        snprintf(work, sizeof work, "%s/work/check-%s", R->run.state, s->name);
        snprintf(files, sizeof files, "%s/files", work);
        tg_rmtree(work);
        int found[TL_LAB_MAX_FILES];
        tg_buf notes = {0}, now = {0};
        int rc = tg_mkdirs(files, 0700) == 0 ? tg_intake(R->lab, s->path, work, files, 0, found, &notes, err, sizeof err)
                                             : -1;
        fresh = (rc == 0 || rc == 1) && tg_files_record(R, files, &R->run.ident, &now) == 0 &&
                tg_record_same_files(rec, now.s ? now.s : "");
        if (!fresh)
            snprintf(why, whylen, "its files changed since it was graded (a resubmission): graded again");
        tg_buf_free(&notes);
        tg_buf_free(&now);
        tg_rmtree(work);
    }
    free(rec);
    return fresh;
}
