/* tl-grade: the tilelab autograder. Grades a class's submissions for one lab.
 *
 *   tl-grade --lab NN --out DIR [--secret FILE] [--public-only] [--jobs N] SUBMISSION...
 *   tl-grade --check --lab NN [--emulate] --out DIR FOLDER   (what `./kit check NN` runs)
 *   tl-grade --print-files NN                                 (the lab's student files)
 *
 * For each submission: take the allow-listed student files only, lay them over a pristine copy
 * of the kit (no solutions, no tests, no secrets), build from clean in the sandbox, then run
 * the student's lab binary in `--serve` mode in the sandbox, one process per session, and feed
 * it cases made here from the secret seed over fd 3; read its product on fd 4 and compare it
 * with the double-precision reference computed here (common/check.c). The student's exit code
 * and prints are evidence only. Scores per test (labs.c, rubric.md), then results.json
 * (Gradescope format), gradebook.csv and summary.md, each written atomically; a submission's
 * marker is written last, so a killed run started again skips finished ones and loses nothing.
 * Exit codes: 0 graded (check mode: all correctness tests pass), 1 check mode: a test failed,
 * 2 usage, 3 a grader-side problem, 77 check mode: nothing could be run (no GPU, no emulation). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "grade.h"
#include "labs.h"
#include "policy.h"
#include "sandbox.h"
#include "tilelab.h"
#include "util.h"

enum { EXIT_GRADER = 3 };

#define TIMEOUTS_PER_SUBMISSION 4        /* after this many time-outs the rest is not run    */
#define BUILD_LIMIT_S           300.0    /* meson setup, and ninja, each                     */
#define SPEED_SUSPICIOUS        3.0      /* wall-clock estimate / reported median: flagged  */
#define EVIDENCE_SHOWN          1200
#define SUMMARY_LINES           12       /* lines of one test's output in summary.md        */     /* bytes of a program's output quoted per report    */
#define ERRORS_SHOWN            2000     /* bytes of compiler errors quoted                  */

/* ------------------------------------------------------------------ the class run */

typedef struct gsize {
    int      m, k, n;
    int      hidden;                  /* 0 public, 1 hidden, 2 the speed case only          */
    uint64_t seed;
    tl_matrix M, N;
    double  *ref, *absref;
    char    *payload;                 /* M and N as matrix files, ready for fd 3            */
    size_t   payload_len;
} gsize;

typedef struct grun {
    const tg_lab *lab;
    char     root[PATH_MAX], out[PATH_MAX], state[PATH_MAX], pristine[PATH_MAX];
    uint64_t seed;
    int      public_only, jobs, check, emulate, quiet;
    tg_iso   iso;
    gsize    sizes[96];
    int      nsizes;
    int      gpu_ok;                  /* a usable CUDA device answered                      */
    char     gpu_why[300];
    char     ref_build[PATH_MAX];     /* the reference solution's build dir ("" none)      */
    char     ref_why[400];
    char     sanitizer[PATH_MAX];     /* compute-sanitizer ("" none)                        */
    char     meson[PATH_MAX], ninja[PATH_MAX];
    char     tool_path[3 * PATH_MAX]; /* folders of nvcc, meson, ninja: the sandbox's PATH starts with them */
    int      have_emu_target;
} grun;

typedef struct gstudent {
    char name[128];
    char path[PATH_MAX];
} gstudent;

static grun R;

static double round2(double v)
{
    return floor(v * 100.0 + 0.5) / 100.0;
}

static uint64_t mix64(uint64_t x)
{   /* splitmix64's finaliser */
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static int find_tool(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char buf[8192];
    snprintf(buf, sizeof buf, "%s:/usr/local/cuda/bin", path ? path : "/usr/bin:/bin");
    char *save = NULL;
    for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, name);
        if (access(out, X_OK) == 0)
            return 0;
    }
    out[0] = '\0';
    return -1;
}

/* ------------------------------------------------------------------ cases */

static int add_size(int m, int k, int n, int hidden)
{
    for (int i = 0; i < R.nsizes; ++i)
        if (R.sizes[i].m == m && R.sizes[i].k == k && R.sizes[i].n == n) {
            if (hidden == 0)
                R.sizes[i].hidden = 0;
            return i;
        }
    if (R.nsizes == (int)(sizeof R.sizes / sizeof R.sizes[0]))
        return -1;
    gsize *s = &R.sizes[R.nsizes];
    memset(s, 0, sizeof *s);
    s->m = m; s->k = k; s->n = n; s->hidden = hidden;
    s->seed = mix64(R.seed ^ mix64(((uint64_t)m << 42) ^ ((uint64_t)k << 21) ^ (uint64_t)n));
    return R.nsizes++;
}

static int draw(tl_rng *r, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int)(tl_rng_next(r) % (uint32_t)(hi - lo + 1));
}

/* Hidden sizes from the secret seed: for ragged labs the first is small and odd, the second
 * one past a multiple of 64 (a last block of one element), the rest anywhere in the range. */
static void make_hidden_sizes(void)
{
    const tg_lab *L = R.lab;
    tl_rng r;
    tl_rng_seed(&r, R.seed, 0x7117 + (uint64_t)atoi(L->id));
    for (int i = 0, tries = 0; i < L->hidden_count && tries < 1000; ++tries) {
        int v = draw(&r, L->hidden_min, L->hidden_max);
        if (L->hidden_multiple > 0 && i == 0)      /* one small one: it runs under emulation too */
            v = draw(&r, L->hidden_min, L->hidden_max < 480 ? L->hidden_max : 480);
        if (L->hidden_multiple > 0) {
            v = (v + L->hidden_multiple - 1) / L->hidden_multiple * L->hidden_multiple;
            if (v > L->hidden_max)
                v -= L->hidden_multiple;
        } else if (L->hidden_ragged && i == 0) {
            v = 3 + 2 * draw(&r, 0, 29);
        } else if (L->hidden_ragged && i == 1) {
            v = 64 * draw(&r, 1, L->hidden_max / 64 - 1) + 1;
        }
        int before = R.nsizes;
        int idx = add_size(v, v, v, 1);
        if (idx >= before)
            ++i;
    }
    if (L->hidden_rect) {
        /* Rectangular m x k x n: a row vector (m 1), a column (n 1), k 1 (an outer product),
         * tall and skinny, wide and flat, then any shape; each dimension off the tile grid. */
        int half = L->hidden_max / 2;
        for (int i = 0, tries = 0; i < L->hidden_count + 2 && tries < 1000; ++tries) {
            int m = draw(&r, L->hidden_min, half), k = draw(&r, L->hidden_min, half), n = draw(&r, L->hidden_min, half);
            switch (i) {
            case 0: m = 1; break;
            case 1: n = 1; break;
            case 2: k = 1; break;
            case 3: m = draw(&r, 1000, 2 * half); k = draw(&r, 2, 40); n = draw(&r, 1, 9); break;
            case 4: m = draw(&r, 1, 9); k = draw(&r, 2, 40); n = draw(&r, 1000, 2 * half); break;
            default:
                if (m == k || k == n || m == n)
                    continue;
            }
            int before = R.nsizes;
            if (add_size(m, k, n, 1) >= before)
                ++i;
        }
    }
}

static int prepare_size(gsize *s, char *err, size_t errlen)
{
    if (s->payload)
        return 0;
    if (tl_matrix_alloc(&s->M, "M", s->m, s->k) || tl_matrix_alloc(&s->N, "N", s->k, s->n)) {
        snprintf(err, errlen, "out of memory for the inputs of %dx%dx%d", s->m, s->k, s->n);
        return -1;
    }
    tl_matrix_fill_random(&s->M, s->seed, 1);
    tl_matrix_fill_random(&s->N, s->seed, 2);
    size_t cnt = (size_t)s->m * s->n;
    s->ref = malloc(cnt * sizeof(double));
    s->absref = malloc(cnt * sizeof(double));
    if (!s->ref || !s->absref) {
        snprintf(err, errlen, "out of memory for the reference of %dx%dx%d", s->m, s->k, s->n);
        return -1;
    }
    tl_reference_gemm(s->M.data, s->N.data, s->ref, s->absref, s->m, s->k, s->n);
    FILE *f = open_memstream(&s->payload, &s->payload_len);
    if (!f || tl_matfile_fwrite(f, &s->M, "M", err, errlen) || tl_matfile_fwrite(f, &s->N, "N", err, errlen)) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

static int variant_accepts(const tg_variant *v, const gsize *s)
{
    if (v->square_only && !(s->m == s->k && s->k == s->n))
        return 0;
    if (v->multiple_of > 0 && (s->m % v->multiple_of || s->k % v->multiple_of || s->n % v->multiple_of))
        return 0;
    return 1;
}

static void size_str(char *b, size_t l, const gsize *s)
{
    if (s->m == s->k && s->k == s->n)
        snprintf(b, l, "%d", s->m);
    else
        snprintf(b, l, "%dx%dx%d", s->m, s->k, s->n);
}

/* ------------------------------------------------------------------ one submission */

typedef enum { C_PASS, C_WRONG, C_ERROR, C_DIED, C_TIMEOUT, C_PROTO, C_NOTRUN, C_NODEV } cstat;

typedef struct cres {
    cstat  st;
    char   reason[600];
    tg_buf explain;          /* the checker's teaching report (wrong results)                  */
    double reported_ms;      /* "ok MS" (-1 none)                                              */
    double wall_ms;          /* request to answer, measured here                               */
} cres;

typedef struct gsess {
    tg_child c;
    int      alive;
    const char *build;       /* host build dir of the binary                                   */
    const char *binary;      /* its path relative to the build dir                             */
    const char *tool;        /* compute-sanitizer tool or NULL                                 */
    int      runs;
} gsess;

typedef struct gsub {
    const gstudent *s;
    char     work[PATH_MAX], kit[PATH_MAX], build[PATH_MAX], odir[PATH_MAX];
    int      timeouts;
    char     timed_out_variants[256];   /* " cpu_ijk tiled16 ": the rest of their cases is not run */
    tg_buf   evidence;        /* what the program printed: shown, never believed               */
    unsigned long long printed;
    tg_buf   notes;
    int      built, emu_built;
    char     refused[600];    /* the submission itself was refused (an archive): why          */
    int      net_killed;      /* cases killed by the seccomp filter (an inet socket asked for) */
    char     net_where[120];  /* the first of them: variant and size                          */
    tg_buf   build_errors;
    int      warnings;
} gsub;

typedef struct tres {
    const tg_test *t;
    int    graded;           /* 0: not graded (a grader-side reason in output)                */
    double score;
    int    passed;
    tg_buf out;
} tres;

static void sess_end(gsub *g, gsess *ss, int quit)
{
    if (!ss->alive)
        return;
    if (quit && ss->c.to_child >= 0) {
        (void)!write(ss->c.to_child, "quit\n", 5);
        close(ss->c.to_child);
        ss->c.to_child = -1;
        tg_child_wait(&ss->c, tl_now_ms() + 5000);
    }
    tg_child_kill(&ss->c);
    if (ss->c.cap.len) {
        if (g->evidence.len < 8192)
            tg_buf_add(&g->evidence, ss->c.cap.s, ss->c.cap.len < 8192 ? ss->c.cap.len : 8192);
    }
    g->printed += ss->c.out_total;
    ss->alive = 0;
}

static int sess_start(gsub *g, gsess *ss, char *err, size_t errlen)
{
    char inside[PATH_MAX], host[PATH_MAX], casedir[PATH_MAX];
    snprintf(inside, sizeof inside, "/build/%s", ss->binary);
    snprintf(host, sizeof host, "%s/%s", ss->build, ss->binary);
    snprintf(casedir, sizeof casedir, "%s/case", g->work);
    tg_rmtree(casedir);
    tg_mkdirs(casedir, 0700);
    const char *bin = R.iso.bwrap ? inside : host;
    const char *argv_plain[] = {bin, "--serve", NULL};
    const char *argv_tool[] = {R.sanitizer, "--tool", ss->tool ? ss->tool : "memcheck", "--error-exitcode", "99",
                               "--print-limit", "20", bin, "--serve", NULL};
    tg_spawn_opts o = {.argv = ss->tool ? argv_tool : argv_plain, .host_cwd = casedir,
                       .sandbox_cwd = "/tmp/case", .serve = 1, .gpu = R.lab->gpu,
                       .max_tasks = ss->tool ? 128 : 64,
                       .mem_bytes = R.lab->gpu ? (32LL << 30) : (1LL << 30),
                       .fsize_bytes = 16LL << 20, .tmp_bytes = 64LL << 20,
                       .extra_path = R.tool_path[0] ? R.tool_path : NULL,
                       .seccomp_net = ss->tool == NULL};   /* compute-sanitizer talks over TCP */
    o.ro[0] = (tg_bind){ss->build, "/build"};
    if (tg_spawn(&ss->c, &R.iso, &o, err, errlen) != 0)
        return -1;
    ss->alive = 1;
    ss->runs++;
    return 0;
}

typedef struct answer_ctx {
    int m, n;
} answer_ctx;

/* The answer is whole: an "error" line, or "ok" + a header + the payload it announces
 * (or a header that cannot be right, which ends the wait at once). */
static int answer_complete(const tg_buf *a, void *vctx)
{
    (void)vctx;
    if (!a->len)
        return 0;
    const char *nl = memchr(a->s, '\n', a->len);
    if (!nl)
        return a->len > 4096;
    size_t line = (size_t)(nl - a->s) + 1;
    if (strncmp(a->s, "ok", 2) != 0)
        return 1;
    if (a->len < line + TL_MAT_HEADER_BYTES)
        return 0;
    tl_mat_header h;
    char e[300];
    if (tl_mat_header_decode((const unsigned char *)a->s + line, &h, "P", e, sizeof e) != 0)
        return 1;
    unsigned long long need = line + TL_MAT_HEADER_BYTES + h.rows * h.cols * (h.type == TL_MAT_F64 ? 8 : 4);
    return a->len >= need;
}

static void oneline(char *s)
{
    for (; *s; ++s)
        if (*s == '\n' || *s == '\r' || *s == '\t')
            *s = ' ';
}

static void take_note_of_output(const gsess *ss, cres *r, double limit_s)
{
    char extra[300] = "";
    size_t el = 0;
    if (ss->c.out_total > (1u << 20))
        el += (size_t)snprintf(extra, sizeof extra, " (meanwhile it printed %.1f MiB; %d KiB kept, the rest counted "
                               "and dropped)", ss->c.out_total / 1048576.0, TG_CAPTURE_KEEP / 1024);
    if (ss->c.forks_refused > 0 && el < sizeof extra)
        snprintf(extra + el, sizeof extra - el, " (the process limit refused %ld of its forks: a fork bomb)",
                 ss->c.forks_refused);
    snprintf(r->reason, sizeof r->reason, "no answer within the %.0f s wall-clock limit: the program "
             "(its whole process tree) was killed; an endless loop, a fork bomb, or far too slow%s",
             limit_s, extra);
}

/* Runs one case in the session (started on demand) and judges the answer. */
static void run_case(gsub *g, gsess *ss, const gsize *s, const tg_variant *v, int timed, double limit_s, cres *r)
{
    memset(r, 0, sizeof *r);
    r->reported_ms = -1;
    char sz[48];
    size_str(sz, sizeof sz, s);
    char vkey[80];
    snprintf(vkey, sizeof vkey, " %s ", v->name);
    if (strstr(g->timed_out_variants, vkey)) {
        r->st = C_NOTRUN;
        snprintf(r->reason, sizeof r->reason, "not run: an earlier case of %s hit the time or memory limit", v->name);
        return;
    }
    if (g->timeouts >= TIMEOUTS_PER_SUBMISSION) {
        r->st = C_NOTRUN;
        snprintf(r->reason, sizeof r->reason, "not run: this submission already hit the time limit %d times",
                 g->timeouts);
        return;
    }
    char err[600];
    if (!ss->alive && sess_start(g, ss, err, sizeof err) != 0) {
        r->st = C_NOTRUN;
        snprintf(r->reason, sizeof r->reason, "not run (grader problem): %s", err);
        return;
    }
    char line[160];
    int ll = snprintf(line, sizeof line, "case %s %d %d %d %d\n", v->name, s->m, s->k, s->n, timed);
    tg_buf req = {0}, ans = {0};
    tg_buf_add(&req, line, (size_t)ll);
    tg_buf_add(&req, s->payload, s->payload_len);
    answer_ctx ac = {s->m, s->n};
    double t0 = tl_now_ms();
    size_t ans_max = 4096 + TL_MAT_HEADER_BYTES + (size_t)s->m * s->n * 8;
    int rc = tg_child_exchange(&ss->c, req.s, req.len, &ans, ans_max, answer_complete, &ac,
                               t0 + limit_s * 1000.0);
    r->wall_ms = tl_now_ms() - t0;
    tg_buf_free(&req);
    if (rc == 2) {
        r->st = C_TIMEOUT;
        g->timeouts++;
        if (strlen(g->timed_out_variants) + strlen(vkey) < sizeof g->timed_out_variants)
            strcat(g->timed_out_variants, vkey[0] && g->timed_out_variants[0] ? vkey + 1 : vkey);
        take_note_of_output(ss, r, limit_s);
        sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    if (rc == 3) {
        r->st = C_PROTO;
        snprintf(r->reason, sizeof r->reason, "the program sent more on fd 4 than any answer can hold; killed");
        sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    if (rc == 1 && !answer_complete(&ans, &ac)) {
        tg_child_wait(&ss->c, tl_now_ms() + 2000);
        tg_child_kill(&ss->c);                 /* reaps, and reads the cgroup's OOM count */
        char how[200];
        tg_child_describe(&ss->c, how, sizeof how);
        r->st = C_DIED;
        if (tg_child_net_killed(&ss->c) && ++g->net_killed == 1)
            snprintf(g->net_where, sizeof g->net_where, "%s at size %s", v->name, sz);
        if (ss->c.oom && strlen(g->timed_out_variants) + strlen(vkey) < sizeof g->timed_out_variants)
            strcat(g->timed_out_variants, g->timed_out_variants[0] ? vkey + 1 : vkey);
        snprintf(r->reason, sizeof r->reason, "the program ended without answering (%s)%s", how,
                 ss->c.oom ? "" :
                 (ss->c.reaped && WIFEXITED(ss->c.status) && !WEXITSTATUS(ss->c.status))
                     ? ": an exit status is not an answer" : "");
        sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    /* A whole answer: parse it. */
    const char *nl = memchr(ans.s, '\n', ans.len);
    size_t linelen = nl ? (size_t)(nl - ans.s) : (ans.len < 200 ? ans.len : 200);
    char first[512];
    snprintf(first, sizeof first, "%.*s", (int)(linelen < 500 ? linelen : 500), ans.s);
    oneline(first);
    if (strncmp(first, "error ", 6) == 0) {
        if (strstr(first, "no usable CUDA device")) {
            r->st = C_NODEV;
            snprintf(r->reason, sizeof r->reason, "not graded: no usable CUDA device");
        } else {
            r->st = C_ERROR;
            snprintf(r->reason, sizeof r->reason, "the program reported an error: %.400s", first + 6);
        }
        tg_buf_free(&ans);
        return;
    }
    double ms = -1;
    if (strncmp(first, "ok ", 3) != 0 || !nl ||
        (strcmp(first + 3, "-") != 0 && sscanf(first + 3, "%lf", &ms) != 1)) {
        r->st = C_PROTO;
        snprintf(r->reason, sizeof r->reason, "the answer on fd 4 does not follow the protocol "
                 "(first line '%.80s'); the lab binary's serve loop was bypassed or broken", first);
        sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    r->reported_ms = ms;
    FILE *f = fmemopen(ans.s + linelen + 1, ans.len - linelen - 1, "rb");
    tl_matrix P;
    if (!f || tl_matfile_fread(f, &P, 1, "P (the program's answer)", err, sizeof err) != 0) {
        if (f)
            fclose(f);
        r->st = C_PROTO;
        snprintf(r->reason, sizeof r->reason, "the answer's matrix is unreadable: %.400s", err);
        sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    fclose(f);
    tg_buf_free(&ans);
    if (P.rows != s->m || P.cols != s->n) {
        r->st = C_PROTO;
        snprintf(r->reason, sizeof r->reason, "the answer is %d x %d, expected %d x %d", P.rows, P.cols, s->m, s->n);
        tl_matrix_free(&P);
        return;
    }
    tl_check_report rep;
    int bad = tl_check(P.data, s->ref, s->absref, s->m, s->n, s->k, v->tile, s->M.data, s->N.data, &rep);
    tl_matrix_free(&P);
    if (!bad) {
        r->st = C_PASS;
        snprintf(r->reason, sizeof r->reason, "correct");
        return;
    }
    r->st = C_WRONG;
    char why[300];
    tl_check_reason(&rep, why, sizeof why);
    snprintf(r->reason, sizeof r->reason, "wrong result: %s", why);
    char *text = NULL;
    size_t tlen = 0;
    FILE *mf = open_memstream(&text, &tlen);
    if (mf) {
        tl_check_explain(&rep, mf, "    ");
        fclose(mf);
        tg_buf_add(&r->explain, text, tlen);
        free(text);
    }
}

static const char *binary_for(gsub *g, const char **build, int *emulated, char *why, size_t whylen)
{
    *emulated = 0;
    *build = g->build;
    if (!R.lab->gpu)
        return R.lab->binary;
    if (R.gpu_ok && !R.emulate)
        return R.lab->binary;
    if (g->emu_built) {
        *emulated = 1;
        return R.lab->emu_binary;
    }
    if (R.emulate)
        snprintf(why, whylen, "not graded: --emulate asked for, but this kit has no emulated build of lab %s (%s)",
                 R.lab->id, R.lab->emu_target ? R.lab->emu_target : "none");
    else
        snprintf(why, whylen, "not graded: no usable CUDA device (%s) and no emulated build (%s)", R.gpu_why,
                 R.lab->emu_target ? R.lab->emu_target : "none");
    return NULL;
}

static void correctness_test(gsub *g, tres *tr)
{
    const tg_test *t = tr->t;
    const tg_variant *v = tg_variant_find(R.lab, t->variant);
    int want_hidden = t->kind == TG_CORRECT_HIDDEN;
    const char *build;
    int emulated;
    char why[600] = "";
    const char *bin = binary_for(g, &build, &emulated, why, sizeof why);
    if (!bin) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "%s\n", why);
        return;
    }
    gsess ss = {.build = build, .binary = bin};
    int total = 0, pass = 0, nodev = 0;
    long explained = 0;
    tg_buf explain = {0};
    tg_buf fails = {0};
    tg_buf sizes_ok = {0};
    char last_reason[600] = "";
    tg_buf same = {0};            /* sizes that failed for the same reason as the last one */
    tg_buf too_big = {0};         /* emulated: sizes above TL_EMU_MAX_WORK, not run             */
    for (int i = 0; i < R.nsizes; ++i) {
        gsize *s = &R.sizes[i];
        if (s->hidden != want_hidden || !variant_accepts(v, s))
            continue;
        char szb[48];
        size_str(szb, sizeof szb, s);
        if (emulated && (double)s->m * s->k * s->n > TL_EMU_MAX_WORK) {
            tg_buf_printf(&too_big, "%s%s", too_big.len ? ", " : "", szb);
            continue;
        }
        if (!s->payload && prepare_size(s, why, sizeof why) != 0) {
            tg_buf_printf(&fails, "  size %s: not run (grader problem): %s\n", szb, why);
            continue;
        }
        ++total;
        cres r;
        run_case(g, &ss, s, v, 0, R.lab->case_limit_s, &r);
        char sz[48];
        size_str(sz, sizeof sz, s);
        if (r.st == C_PASS) {
            ++pass;
            tg_buf_printf(&sizes_ok, "%s%s", sizes_ok.len ? ", " : "", sz);
        } else if (r.st == C_NODEV) {
            ++nodev;
        } else {
            /* The same reason up to its numbers (counts, times): one line for all those sizes. */
            char key[600];
            size_t kl = 0;
            for (const char *q = r.reason; *q && kl + 1 < sizeof key; ++q)
                if (!isdigit((unsigned char)*q))
                    key[kl++] = *q;
            key[kl] = '\0';
            if (last_reason[0] && strcmp(key, last_reason) == 0) {
                tg_buf_printf(&same, ", %s", sz);
                if (r.explain.len && (long)s->m * s->n > explained) {
                    explained = (long)s->m * s->n;
                    tg_buf_free(&explain);
                    tg_buf_printf(&explain, "  where and why, at size %s:\n", sz);
                    tg_buf_add(&explain, r.explain.s, r.explain.len);
                }
                tg_buf_free(&r.explain);
                continue;
            }
            if (same.len)
                tg_buf_printf(&fails, "  also sizes %s: the same\n", same.s + 2);
            tg_buf_free(&same);
            tg_buf_printf(&fails, "  size %s: %s\n", sz, r.reason);
            snprintf(last_reason, sizeof last_reason, "%s", key);
        }
        /* The teaching report of the largest wrong case: it shows the pattern best (which rows,
         * columns and tiles; at size 1 every element is an edge element). */
        if (r.explain.len && (long)s->m * s->n > explained) {
            explained = (long)s->m * s->n;
            tg_buf_free(&explain);
            tg_buf_printf(&explain, "  where and why, at size %s:\n", sz);
            tg_buf_add(&explain, r.explain.s, r.explain.len);
        }
        tg_buf_free(&r.explain);
    }
    if (same.len)
        tg_buf_printf(&fails, "  also sizes %s: the same\n", same.s + 2);
    tg_buf_free(&same);
    if (explain.len)
        tg_buf_add(&fails, explain.s, explain.len);
    tg_buf_free(&explain);
    sess_end(g, &ss, 1);
    if (nodev && nodev == total) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: no usable CUDA device (the lab binary said so)\n");
    } else if (total == 0 && too_big.len) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: every size is too large for the CPU: not run under emulation (%s)\n",
                      too_big.s);
    } else if (total == 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: no %s size fits this variant (grader table problem)\n",
                      want_hidden ? "hidden" : "public");
    } else {
        tr->graded = 1;
        tr->score = round2(t->points * pass / total);
        tr->passed = pass == total;
        tg_buf_printf(&tr->out, "%d of %d %s sizes correct%s%s\n", pass, total, want_hidden ? "hidden" : "public",
                      emulated ? " (emulated GPU: correctness only)" : "",
                      pass == total ? "" : "; points in proportion");
        if (too_big.len)
            tg_buf_printf(&tr->out, "not run under emulation (too large for the CPU, above %.0f^3 work): %s; "
                          "neither passed nor failed: the points are scaled over the %d size(s) run\n",
                          cbrt(TL_EMU_MAX_WORK), too_big.s, total);
        if (sizes_ok.len)
            tg_buf_printf(&tr->out, "correct: %s\n", sizes_ok.s);
        if (fails.len)
            tg_buf_add(&tr->out, fails.s, fails.len);
    }
    tg_buf_free(&fails);
    tg_buf_free(&sizes_ok);
    tg_buf_free(&too_big);
}

/* Safety: the student's binary under compute-sanitizer (racecheck or memcheck) at small sizes;
 * its exit code (--error-exitcode 99) decides, not anything the program prints. Without a GPU,
 * the emulated build's diagnostics; without either, not graded. */
static void safety_test(gsub *g, tres *tr)
{
    const tg_test *t = tr->t;
    const tg_variant *v = tg_variant_find(R.lab, t->variant);
    const char *tool = t->kind == TG_RACECHECK ? "racecheck" : "memcheck";
    tl_sizes list;
    char err[600];
    if (!R.lab->safety_sizes || tl_parse_sizes(R.lab->safety_sizes, &list, err, sizeof err) != 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: no safety sizes in the grader's table\n");
        return;
    }
    int use_gpu = R.gpu_ok && !R.emulate && R.sanitizer[0];
    if (!use_gpu && !g->emu_built) {
        tr->graded = 0;
        if (R.gpu_ok && !R.sanitizer[0])
            tg_buf_printf(&tr->out, "not graded: compute-sanitizer is not installed on this machine\n");
        else
            tg_buf_printf(&tr->out, "skipped: no GPU and no emulated build (%s); safety was not checked\n",
                          R.lab->emu_target ? R.lab->emu_target : "none");
        return;
    }
    gsess ss = {.build = g->build, .binary = use_gpu ? R.lab->binary : R.lab->emu_binary,
                .tool = use_gpu ? tool : NULL};
    int all_ok = 1, stored = 0;
    tg_buf lines = {0};
    for (int i = 0; i < list.count; ++i) {
        int si = add_size(list.m[i], list.k[i], list.n[i], 2);
        if (si < 0 || prepare_size(&R.sizes[si], err, sizeof err) != 0)
            continue;
        const gsize *s = &R.sizes[si];
        if (!variant_accepts(v, s))
            continue;
        cres r;
        run_case(g, &ss, s, v, 0, R.lab->sanitizer_limit_s, &r);
        char sz[48];
        size_str(sz, sizeof sz, s);
        tg_buf_printf(&lines, "  size %s: %s\n", sz, r.reason);
        if (r.st != C_PASS && r.st != C_WRONG)   /* a wrong product is correctness's business */
            all_ok = 0;
        if (r.st == C_PASS || (r.st == C_WRONG && !strstr(r.reason, "unwritten elements")))
            ++stored;
        tg_buf_free(&r.explain);
    }
    int verdict_ok = all_ok;
    if (!ss.runs) {
        tg_buf_printf(&tr->out, "not run: no case could be started (see the reasons below)\n");
        verdict_ok = 0;
    } else if (use_gpu) {
        if (ss.alive && ss.c.to_child >= 0) {
            (void)!write(ss.c.to_child, "quit\n", 5);
            close(ss.c.to_child);
            ss.c.to_child = -1;
        }
        if (ss.alive)
            tg_child_wait(&ss.c, tl_now_ms() + R.lab->sanitizer_limit_s * 1000.0);
        char how[200];
        tg_child_describe(&ss.c, how, sizeof how);
        int code = ss.c.reaped && WIFEXITED(ss.c.status) ? WEXITSTATUS(ss.c.status) : -1;
        if (code != 0)
            verdict_ok = 0;
        tg_buf_printf(&tr->out, "compute-sanitizer --tool %s: %s%s\n", tool, how,
                      code == 99 ? " (the sanitizer found errors)" : "");
        /* The sanitizer's own lines, for the teaching output. */
        if (ss.c.cap.len) {
            int shown = 0;
            for (char *p = ss.c.cap.s; p && *p && shown < 30;) {
                char *e = strchr(p, '\n');
                if (strncmp(p, "=========", 9) == 0) {
                    tg_buf_printf(&tr->out, "  %.*s\n", (int)(e ? e - p : (long)strlen(p)) > 200 ? 200 : (int)(e ? e - p : (long)strlen(p)), p);
                    ++shown;
                }
                p = e ? e + 1 : NULL;
            }
        }
    } else {
        tg_buf_printf(&tr->out, "emulated build: the emulator's race and bounds diagnostics at small sizes "
                      "(its 'tilelab-emu:' lines on stderr and its 'error' answers on fd 4)\n");
        /* The emulator's own lines on stderr: any is a finding, even where the answer was right. */
        int shown = 0;
        for (char *p = ss.c.cap.s; p && *p && shown < 12;) {
            char *e = strchr(p, '\n');
            int l = (int)(e ? e - p : (long)strlen(p));
            if (strncmp(p, "tilelab-emu: ", 13) == 0) {
                tg_buf_printf(&tr->out, "  %.*s\n", l > 300 ? 300 : l, p);
                ++shown;
                verdict_ok = 0;
            }
            p = e ? e + 1 : NULL;
        }
    }
    sess_end(g, &ss, 1);
    if (ss.runs && !stored) {
        /* A kernel that stores nothing (the skeleton) has nothing to race on or overrun. */
        verdict_ok = 0;
        tg_buf_printf(&tr->out, "no safety credit: no case stored its product (every element of P still held "
                      "the poison), so there was nothing for the check to find\n");
    }
    tg_buf_add(&tr->out, lines.s ? lines.s : "", lines.len);
    tg_buf_free(&lines);
    tr->graded = 1;
    tr->passed = verdict_ok;
    tr->score = verdict_ok ? t->points : 0;
}

static int gpu_lock_fd = -1;
static void gpu_lock(int on)
{
    if (!R.lab->gpu)
        return;
    if (on) {
        char p[200];
        snprintf(p, sizeof p, "/tmp/tilelab-gpu-%ld.lock", (long)getuid());
        gpu_lock_fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (gpu_lock_fd >= 0)
            while (flock(gpu_lock_fd, LOCK_EX) != 0 && errno == EINTR)
                ;
    } else if (gpu_lock_fd >= 0) {
        flock(gpu_lock_fd, LOCK_UN);
        close(gpu_lock_fd);
        gpu_lock_fd = -1;
    }
}

/* Speed: the reference solution's binary and the student's, same GPU, same run, same inputs.
 * The ratio is the larger of the reported medians' ratio and the ratio of the wall-clock
 * times of an untimed request measured here, so a program that lies about its time gains
 * nothing. Credit: full within TG_SPEED_FULL, linear to 0 at TG_SPEED_ZERO, none if wrong. */
static void speed_test(gsub *g, tres *tr)
{
    const tg_test *t = tr->t;
    const tg_variant *v = tg_variant_find(R.lab, t->variant);
    if (!R.gpu_ok || R.emulate) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "refused (not attempted): speed is measured only on a real GPU; %s\n",
                      R.emulate ? "this run is emulated" : R.gpu_why);
        return;
    }
    if (!R.ref_build[0]) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: the reference solution is not available (%s)\n", R.ref_why);
        return;
    }
    tl_sizes list;
    char err[600];
    if (!R.lab->speed_size || tl_parse_sizes(R.lab->speed_size, &list, err, sizeof err) != 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: no speed size in the grader's table\n");
        return;
    }
    int si = add_size(list.m[0], list.k[0], list.n[0], 2);
    if (si < 0 || prepare_size(&R.sizes[si], err, sizeof err) != 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded (grader problem): %s\n", err);
        return;
    }
    const gsize *s = &R.sizes[si];
    gsess ref = {.build = R.ref_build, .binary = R.lab->ref_binary};
    gsess stu = {.build = g->build, .binary = R.lab->binary};
    cres r0, r1, s0, s1;
    /* The reference runs in a scratch submission record: its time-outs and prints are not the student's. */
    gsub scratch;
    memset(&scratch, 0, sizeof scratch);
    scratch.s = g->s;
    snprintf(scratch.work, sizeof scratch.work, "%s", g->work);
    /* Each untimed request runs twice; the second one's wall time counts (the first pays for
     * the CUDA context and the first-touch costs). */
    run_case(&scratch, &ref, s, v, 0, R.lab->case_limit_s * 3, &r0);
    tg_buf_free(&r0.explain);
    run_case(&scratch, &ref, s, v, 0, R.lab->case_limit_s * 3, &r0);
    run_case(&scratch, &ref, s, v, 1, R.lab->case_limit_s * 3, &r1);
    sess_end(&scratch, &ref, 1);
    tg_buf_free(&scratch.evidence);
    run_case(g, &stu, s, v, 0, R.lab->case_limit_s * 3, &s0);
    if (s0.st == C_PASS) {
        tg_buf_free(&s0.explain);
        run_case(g, &stu, s, v, 0, R.lab->case_limit_s * 3, &s0);
    }
    run_case(g, &stu, s, v, 1, R.lab->case_limit_s * 3, &s1);
    sess_end(g, &stu, 1);
    char sz[48];
    size_str(sz, sizeof sz, s);
    tr->graded = 1;
    if (r0.st != C_PASS || r1.st != C_PASS || r1.reported_ms <= 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: the reference solution failed at size %s (%s / %s)\n", sz, r0.reason, r1.reason);
    } else if (s0.st != C_PASS || s1.st != C_PASS) {
        tr->score = 0;
        tg_buf_printf(&tr->out, "no speed credit for a wrong or failed run at size %s: %s\n", sz,
                      s0.st != C_PASS ? s0.reason : s1.reason);
    } else if (s1.reported_ms <= 0) {
        tr->score = 0;
        tg_buf_printf(&tr->out, "no time reported for a timed request (answer 'ok -'): not the kit's serve loop?\n");
    } else {
        double rep_ratio = s1.reported_ms / r1.reported_ms;
        double credit = tg_speed_credit(rep_ratio);
        tr->score = round2(t->points * credit);
        tr->passed = credit >= 1.0;
        tg_buf_printf(&tr->out, "size %s: median %.3f ms against the reference's %.3f ms (ratio %.2f): %.0f%% of "
                      "the points (full within %.1fx of the reference, none from %.0fx)\n", sz, s1.reported_ms,
                      r1.reported_ms, rep_ratio, 100 * credit, TG_SPEED_FULL, TG_SPEED_ZERO);
        /* Plausibility: a timed request does TL_WARMUP_RUNS + TL_TIMED_RUNS more runs than an
         * untimed one, so the difference of their wall-clock times, measured here, bounds the
         * time of one run from below (plus transfers' noise). A reported median far below that
         * bound, while the reference's agrees with its own, is flagged for the instructor. */
        double extra = TL_WARMUP_RUNS + TL_TIMED_RUNS;
        double est_s = (s1.wall_ms - s0.wall_ms) / extra, est_r = (r1.wall_ms - r0.wall_ms) / extra;
        tg_buf_printf(&tr->out, "wall-clock estimate per run, measured by the grader: %.3f ms (reference %.3f ms)\n",
                      est_s, est_r);
        if (est_s > SPEED_SUSPICIOUS * s1.reported_ms && est_s - s1.reported_ms > 1.0 &&
            est_r <= 1.5 * r1.reported_ms + 1.0) {
            tg_buf_printf(&tr->out, "REVIEW: the reported median (%.3f ms) is far below what the wall clock allows "
                          "(at least ~%.3f ms per run); the lab binary's timing may have been tampered with\n",
                          s1.reported_ms, est_s);
            tg_buf_printf(&g->notes, "REVIEW the speed test by hand: reported %.3f ms, wall clock ~%.3f ms per run\n",
                          s1.reported_ms, est_s);
        }
    }
    tg_buf_free(&r0.explain); tg_buf_free(&r1.explain); tg_buf_free(&s0.explain); tg_buf_free(&s1.explain);
}

/* Policy: the student files call nothing a lab file never needs (a static scan, policy.c), and
 * no case was killed by the run-time network filter (seccomp). Runs after the other tests. */
static void policy_test(gsub *g, tres *tr)
{
    tg_buf found = {0};
    int n = 0;
    tg_buf names = {0};
    for (int i = 0; i < TG_MAX_FILES && R.lab->files[i]; ++i) {
        char p[PATH_MAX + 300];
        snprintf(p, sizeof p, "%s/labs/%s/%s", g->kit, R.lab->dir, R.lab->files[i]);
        size_t len = 0;
        char *text = tg_read_file(p, 4 << 20, &len);
        tg_buf_printf(&names, "%s%s", names.len ? ", " : "", R.lab->files[i]);
        if (text) {
            n += tg_policy_scan(R.lab->files[i], text, len, &found);
            free(text);
        }
    }
    tr->graded = 1;
    tr->passed = n == 0 && g->net_killed == 0;
    tr->score = tr->passed ? tr->t->points : 0;
    if (n)
        tg_buf_printf(&tr->out, "POLICY VIOLATION: %s call%s what a lab file never needs (network, processes, "
                      "files, raw system calls, dlopen, getenv, inline asm):\n%s", names.s, n == 1 ? "s" : "",
                      found.s);
    else
        tg_buf_printf(&tr->out, "static scan of %s (comments and strings ignored): no network, process, file, "
                      "syscall, dlopen, getenv or asm use\n", names.s);
    if (g->net_killed)
        tg_buf_printf(&tr->out, "POLICY VIOLATION at run time: killed: tried to open a network socket (%d case(s); "
                      "the first: %s); the grader's seccomp filter stops AF_INET, AF_INET6 and AF_PACKET sockets\n",
                      g->net_killed, g->net_where);
    else if (R.iso.seccomp)
        tg_buf_printf(&tr->out, "run time: seccomp was used (no inet sockets; every run outside "
                      "compute-sanitizer); no case tried to open a network socket\n");
    else
        tg_buf_printf(&tr->out, "run time: seccomp was not used (the filter could not be installed on this "
                      "machine: see the isolation notes); the static scan alone decides\n");
    if (!tr->passed) {
        tg_buf_printf(&g->notes, "policy violation: %s", n ? found.s : "");
        if (g->net_killed)
            tg_buf_printf(&g->notes, "%skilled: tried to open a network socket (%s)\n", n ? "policy violation: " : "",
                          g->net_where);
    }
    tg_buf_free(&found);
    tg_buf_free(&names);
}

/* Lab 05 part A. The lab program has its own main (no --serve); it is run in the sandbox from
 * the pristine build and its summary line is parsed: `part A: N of M known answers right`
 * (--calc, any machine), `part A on the GPU: N of M configurations agree with the CUDA API`
 * (a GPU). Points in proportion; the exit code must agree with the line. A stated limit
 * (rubric.md): the student's code runs in that process, so it could print a false line. */
static void calc_test(gsub *g, tres *tr, int api)
{
    tr->graded = 0;
    if (api && (!R.gpu_ok || R.emulate)) {
        tg_buf_printf(&tr->out, "not graded: the CUDA API comparison needs a GPU (%s)\n",
                      R.emulate ? "this run is emulated" : R.gpu_why);
        return;
    }
    char inside[PATH_MAX], host[PATH_MAX], casedir[PATH_MAX];
    snprintf(inside, sizeof inside, "/build/%s", R.lab->binary);
    snprintf(host, sizeof host, "%s/%s", g->build, R.lab->binary);
    snprintf(casedir, sizeof casedir, "%s/case", g->work);
    tg_rmtree(casedir);
    tg_mkdirs(casedir, 0700);
    const char *bin = R.iso.bwrap ? inside : host;
    const char *argv_calc[] = {bin, "--calc", NULL};
    const char *argv_api[] = {bin, "--size", "256", "--reps", "1", NULL};
    tg_spawn_opts o = {.argv = api ? argv_api : argv_calc, .host_cwd = casedir, .sandbox_cwd = "/tmp/case",
                       .gpu = api, .max_tasks = 64, .mem_bytes = api ? (32LL << 30) : (1LL << 30),
                       .fsize_bytes = 16LL << 20, .tmp_bytes = 64LL << 20,
                       .extra_path = R.tool_path[0] ? R.tool_path : NULL, .seccomp_net = 1};
    o.ro[0] = (tg_bind){g->build, "/build"};
    tg_child c;
    char err[600];
    if (tg_spawn(&c, &R.iso, &o, err, sizeof err) != 0) {
        tg_buf_printf(&tr->out, "not graded (grader problem): %s\n", err);
        return;
    }
    tg_child_wait(&c, tl_now_ms() + R.lab->case_limit_s * 1000.0);
    tg_child_kill(&c);
    char how[200];
    tg_child_describe(&c, how, sizeof how);
    if (tg_child_net_killed(&c) && ++g->net_killed == 1)
        snprintf(g->net_where, sizeof g->net_where, "lab05%s", api ? "" : " --calc");
    int code = c.reaped && WIFEXITED(c.status) ? WEXITSTATUS(c.status) : -1;
    const char *key = api ? "part A on the GPU: " : "part A: ";
    int got = -1, of = -1;
    for (char *p = c.cap.s; p && *p;) {
        char *e = strchr(p, '\n');
        if (strncmp(p, key, strlen(key)) == 0 &&
            sscanf(p + strlen(key), api ? "%d of %d configurations agree" : "%d of %d known answers right", &got,
                   &of) == 2) {
            /* the last such line counts */
        }
        p = e ? e + 1 : NULL;
    }
    g->printed += c.out_total;
    if (c.cap.len && g->evidence.len < 8192)
        tg_buf_add(&g->evidence, c.cap.s, c.cap.len < 4096 ? c.cap.len : 4096);
    if (api && code == TL_EXIT_SKIP && got < 0) {
        tg_buf_printf(&tr->out, "not graded: the lab program found no usable CUDA device (%s)\n", how);
        tg_child_free(&c);
        return;
    }
    tr->graded = 1;
    if (got < 0 || of <= 0 || got > of) {
        tr->score = 0;
        tg_buf_printf(&tr->out, "no summary line '%sN of M ...' in the program's output (%s): the program "
                      "crashed, was killed or printed something else\n", key, how);
    } else if ((got == of) != (code == 0 || (!api && code == TL_EXIT_SKIP))) {
        tr->score = 0;
        tg_buf_printf(&tr->out, "the summary line says %d of %d, but the program %s: the two disagree, so "
                      "neither is believed\n", got, of, how);
    } else {
        tr->score = round2(tr->t->points * got / of);
        tr->passed = got == of;
        tg_buf_printf(&tr->out, "%d of %d %s (%s); points in proportion\n", got, of,
                      api ? "configurations agree with cudaOccupancyMaxActiveBlocksPerMultiprocessor"
                          : "known answers right", how);
    }
    /* The failing cases, as the program explained them. */
    int shown = 0;
    for (char *p = c.cap.s; p && *p && shown < 20 && !tr->passed;) {
        char *e = strchr(p, '\n');
        int l = (int)(e ? e - p : (long)strlen(p));
        if (strstr(p, "MISMATCH") == p + strspn(p, " ") || strstr(p, "expected") == p + strspn(p, " ") ||
            strstr(p, "case:") == p + strspn(p, " ") || strstr(p, "FAIL") == p + strspn(p, " ")) {
            tg_buf_printf(&tr->out, "  %.*s\n", l > 200 ? 200 : l, p);
            ++shown;
        }
        p = e ? e + 1 : NULL;
    }
    tg_child_free(&c);
    tg_buf_printf(&tr->out, "(limit: this number comes from the lab program's own summary line, and the student's "
                  "code runs in that process; rubric.md)\n");
}

/* ------------------------------------------------------------------ build */

static void first_errors(const tg_buf *log, tg_buf *out, int *warnings)
{
    *warnings = 0;
    if (!log->s)
        return;
    int lines = 0;
    for (const char *p = log->s; *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char line[400];
        snprintf(line, sizeof line, "%.*s", (int)(l < 399 ? l : 399), p);
        if (strstr(line, "warning:"))
            ++*warnings;
        if ((strstr(line, "error") || strstr(line, "Error") || strstr(line, "ERROR") ||
             strstr(line, "undefined reference")) && lines < 15 && out->len < ERRORS_SHOWN) {
            tg_buf_printf(out, "  %s\n", line);
            ++lines;
        }
        p = e ? e + 1 : p + l;
    }
    if (!lines && log->len) {   /* no line says "error": show the end of the log */
        size_t from = log->len > 800 ? log->len - 800 : 0;
        tg_buf_add(out, log->s + from, log->len - from);
        tg_buf_add(out, "\n", 1);
    }
}

static int build_submission(gsub *g, char *err, size_t errlen)
{
    tg_buf log = {0};
    char desc[200];
    const char *cuda = R.lab->gpu ? "-Dcuda=enabled" : "-Dcuda=disabled";
    const char *setup[] = {R.meson, "setup", "--buildtype=debugoptimized", "-Dtests=false", cuda,
                           g->build, g->kit, NULL};
    tg_spawn_opts o = {.argv = setup, .host_cwd = g->kit, .sandbox_cwd = NULL, .max_tasks = 512,
                       .mem_bytes = 8LL << 30, .fsize_bytes = 512LL << 20, .tmp_bytes = 512LL << 20,
                       .extra_path = R.tool_path[0] ? R.tool_path : NULL};
    o.rw[0] = (tg_bind){g->work, g->work};
    int rc = tg_run_sandboxed(&R.iso, &o, BUILD_LIMIT_S, &log, desc, sizeof desc, err, errlen);
    if (rc == 0) {
        /* ninja names a target by its output path: labs/01-cpu-baseline/lab01 */
        const char *ninja[] = {R.ninja, "-C", g->build, "-j", "2", R.lab->binary, NULL};
        o.argv = ninja;
        rc = tg_run_sandboxed(&R.iso, &o, BUILD_LIMIT_S, &log, desc, sizeof desc, err, errlen);
        if (rc == 0 && R.lab->gpu && R.have_emu_target && R.lab->emu_target && (!R.gpu_ok || R.emulate)) {
            const char *ninja_emu[] = {R.ninja, "-C", g->build, "-j", "2", R.lab->emu_binary, NULL};
            o.argv = ninja_emu;
            tg_buf elog = {0};
            char e2[300];
            if (tg_run_sandboxed(&R.iso, &o, BUILD_LIMIT_S, &elog, desc, sizeof desc, e2, sizeof e2) == 0)
                g->emu_built = 1;
            else
                tg_buf_printf(&g->notes, "the emulated build (%s) failed: %.300s\n", R.lab->emu_target,
                              elog.s ? elog.s : "");
            tg_buf_free(&elog);
        }
    }
    if (rc < 0) {
        tg_buf_free(&log);
        return -1;
    }
    char logpath[PATH_MAX + 16];
    snprintf(logpath, sizeof logpath, "%s/build.log", g->odir);
    tg_write_atomic(logpath, log.s ? log.s : "", log.len);
    first_errors(&log, &g->build_errors, &g->warnings);
    if (rc != 0 && strstr(desc, "wall-clock"))
        tg_buf_printf(&g->build_errors, "  the build was killed at the %.0f s limit\n", BUILD_LIMIT_S);
    /* A tool missing is the grader's problem, not the student's. */
    if (rc != 0 && log.s && (strstr(log.s, "meson: not found") || strstr(log.s, "No such file or directory: 'ninja'"))) {
        snprintf(err, errlen, "build tool missing: %.200s", log.s);
        tg_buf_free(&log);
        return -1;
    }
    tg_buf_free(&log);
    g->built = rc == 0;
    return 0;
}

/* ------------------------------------------------------------------ reports */

static const char *kind_word(tg_kind k)
{
    switch (k) {
    case TG_CORRECT_PUBLIC: return "correctness";
    case TG_CORRECT_HIDDEN: return "correctness";
    case TG_RACECHECK: return "safety";
    case TG_MEMCHECK: return "safety";
    case TG_SPEED: return "speed";
    case TG_CALC: return "calculator";
    case TG_CALC_API: return "calculator";
    case TG_POLICY: return "policy";
    }
    return "?";
}

static void quote_evidence(tg_buf *b, const gsub *g, const char *indent)
{
    if (!g->printed)
        return;
    size_t show = g->evidence.len < EVIDENCE_SHOWN ? g->evidence.len : EVIDENCE_SHOWN;
    tg_buf_printf(b, "%sthe program printed %llu bytes (evidence only, never the verdict)%s:\n", indent,
                  g->printed, g->printed > show ? "; the first ones" : "");
    const char *p = g->evidence.s;
    size_t i = 0;
    int lines = 0;
    while (i < show && lines < 12) {
        const char *e = memchr(p + i, '\n', show - i);
        size_t l = e ? (size_t)(e - (p + i)) : show - i;
        tg_buf_printf(b, "%s  | %.*s\n", indent, (int)(l > 160 ? 160 : l), p + i);
        i += l + 1;
        ++lines;
    }
}

/* kit check: the teaching output for one student at a terminal. */
static void print_check(const gsub *g, const tres *tr, int nt, double score, double max)
{
    if (g->notes.len)
        printf("%s", g->notes.s);
    if (!g->built) {
        printf("\nBUILD FAILED: the compiler's first errors:\n%s\n", g->build_errors.s ? g->build_errors.s : "");
        return;
    }
    if (g->warnings)
        printf("built with %d compiler warning(s)\n", g->warnings);
    for (int i = 0; i < nt; ++i) {
        const char *word = !tr[i].graded ? "SKIP" : tr[i].passed ? "PASS" : "FAIL";
        printf("\n%s  %s", word, tr[i].t->name);
        if (tr[i].graded)
            printf("  (%g/%g)", tr[i].score, tr[i].t->points);
        printf("\n");
        if (tr[i].passed) {
            const char *nr = tr[i].out.s ? strstr(tr[i].out.s, "not run under emulation") : NULL;
            if (nr)
                printf("      %.*s\n", (int)strcspn(nr, "\n"), nr);
            continue;
        }
        for (const char *q = tr[i].out.s; q && *q;) {
            const char *e = strchr(q, '\n');
            size_t l = e ? (size_t)(e - q) : strlen(q);
            printf("      %.*s\n", (int)l, q);
            q = e ? e + 1 : q + l;
        }
    }
    if (g->printed) {
        tg_buf ev = {0};
        quote_evidence(&ev, g, "");
        printf("\n%s", ev.s);
        tg_buf_free(&ev);
    }
    (void)score; (void)max;
}

static void write_reports(gsub *g, tres *tr, int nt, double secs, double *score_out, double *max_out)
{
    const tg_lab *L = R.lab;
    double score = 0, max = 0;
    for (int i = 0; i < nt; ++i)
        if (tr[i].graded) {
            score += tr[i].score;
            max += tr[i].t->points;
        }
    score = round2(score);
    *score_out = score;
    *max_out = max;

    /* results.json (Gradescope) */
    char *js = NULL;
    size_t jl = 0;
    FILE *f = open_memstream(&js, &jl);
    tg_buf top = {0};
    tg_buf_printf(&top, "tilelab lab %s (%s): %s\n", L->id, L->dir, L->title);
    if (g->refused[0])
        tg_buf_printf(&top, "%s: no test could run\n", g->refused);
    else if (!g->built)
        tg_buf_printf(&top, "the build failed: no test could run. The compiler's first errors:\n%s",
                      g->build_errors.s ? g->build_errors.s : "");
    else if (g->warnings)
        tg_buf_printf(&top, "built with %d compiler warning(s); see the build log\n", g->warnings);
    if (g->notes.len)
        tg_buf_add(&top, g->notes.s, g->notes.len);
    quote_evidence(&top, g, "");
    tg_buf_printf(&top, "isolation: %s\n", R.iso.desc);
    tg_buf_printf(&top, "Score: %g/%g\n", score, max);
    fprintf(f, "{\n  \"score\": %.2f,\n  \"execution_time\": %.2f,\n  \"output\": ", score, secs);
    tg_json_str(f, top.s, top.len);
    fprintf(f, ",\n  \"tests\": [");
    int first = 1;
    for (int i = 0; i < nt; ++i) {
        if (!tr[i].graded)
            continue;
        fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
        first = 0;
        tg_json_cstr(f, tr[i].t->name);
        fprintf(f, ", \"score\": %.2f, \"max_score\": %.2f, \"status\": \"%s\", \"output\": ", tr[i].score,
                tr[i].t->points, tr[i].passed ? "passed" : "failed");
        tg_json_str(f, tr[i].out.s ? tr[i].out.s : "", tr[i].out.len);
        fprintf(f, ", \"visibility\": \"%s\"}", tr[i].t->kind == TG_CORRECT_HIDDEN ? "after_published" : "visible");
    }
    fprintf(f, "\n  ],\n  \"tilelab\": {\"student\": ");
    tg_json_cstr(f, g->s->name);
    fprintf(f, ", \"lab\": \"%s\", \"max\": %.2f, \"built\": %s, \"isolation\": ", L->id, max, g->built ? "true" : "false");
    tg_json_cstr(f, R.iso.desc);
    fprintf(f, ", \"not_graded\": [");
    first = 1;
    for (int i = 0; i < nt; ++i) {
        if (tr[i].graded)
            continue;
        fprintf(f, "%s{\"name\": ", first ? "" : ", ");
        first = 0;
        tg_json_cstr(f, tr[i].t->name);
        fprintf(f, ", \"max_score\": %.2f, \"why\": ", tr[i].t->points);
        tg_json_str(f, tr[i].out.s ? tr[i].out.s : "", tr[i].out.len);
        fprintf(f, "}");
    }
    fprintf(f, "]}\n}\n");
    fclose(f);
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/results.json", g->odir);
    tg_write_atomic(p, js, jl);
    free(js);

    /* scores.tsv: the gradebook's row (name TAB score TAB max, or "not graded") */
    tg_buf tsv = {0};
    for (int i = 0; i < nt; ++i) {
        if (tr[i].graded)
            tg_buf_printf(&tsv, "%s\t%.2f\t%.2f\n", tr[i].t->name, tr[i].score, tr[i].t->points);
        else
            tg_buf_printf(&tsv, "%s\tnot graded\t%.2f\n", tr[i].t->name, tr[i].t->points);
    }
    snprintf(p, sizeof p, "%s/scores.tsv", g->odir);
    tg_write_atomic(p, tsv.s ? tsv.s : "", tsv.len);
    tg_buf_free(&tsv);

    /* summary.part.md: this student's section of summary.md */
    tg_buf md = {0};
    tg_buf_printf(&md, "### %s: %g/%g (%.1f s)\n\n", g->s->name, score, max, secs);
    char status[700] = "";
    if (g->refused[0]) {
        tg_buf_printf(&md, "- **%s**: every test scores 0\n", g->refused);
        snprintf(status, sizeof status, "%s", g->refused);
    } else if (!g->built) {
        tg_buf_printf(&md, "- **build failed**: every test scores 0. First errors:\n\n```\n%s```\n",
                      g->build_errors.s ? g->build_errors.s : "");
        snprintf(status, sizeof status, "build failed");
    }
    snprintf(p, sizeof p, "%s/status.txt", g->odir);
    tg_write_atomic(p, status, strlen(status));
    if (g->notes.len) {
        for (const char *q = g->notes.s; *q;) {
            const char *e = strchr(q, '\n');
            size_t l = e ? (size_t)(e - q) : strlen(q);
            tg_buf_printf(&md, "- note: %.*s\n", (int)l, q);
            q = e ? e + 1 : q + l;
        }
    }
    int failed = 0;
    for (int i = 0; i < nt; ++i) {
        if (!g->built || g->refused[0])
            break;
        if (tr[i].graded && tr[i].passed)
            continue;
        ++failed;
        if (!tr[i].graded)
            tg_buf_printf(&md, "- %s (%g points): %s", tr[i].t->name, tr[i].t->points,
                          tr[i].out.s ? tr[i].out.s : "\n");
        else {
            tg_buf_printf(&md, "- **failed: %s** (%s) %g/%g\n\n```\n", tr[i].t->name, kind_word(tr[i].t->kind),
                          tr[i].score, tr[i].t->points);
            int lines = 0, max_lines = SUMMARY_LINES;
            for (int j = 0; j < i; ++j)
                if (tr[i].t->kind == TG_CORRECT_HIDDEN && tr[j].t->kind == TG_CORRECT_PUBLIC && tr[j].graded &&
                    !tr[j].passed && strcmp(tr[j].t->variant, tr[i].t->variant) == 0)
                    max_lines = 3;      /* the public test above already explains this variant */
            for (const char *q = tr[i].out.s; q && *q;) {
                const char *e = strchr(q, '\n');
                size_t l = e ? (size_t)(e - q) : strlen(q);
                if (++lines > max_lines) {
                    int more = 0;
                    for (; q && *q; q = strchr(q, '\n'), q = q ? q + 1 : NULL)
                        ++more;
                    tg_buf_printf(&md, "... %d more line(s) in %s/results.json\n", more, g->s->name);
                    break;
                }
                tg_buf_printf(&md, "%.*s\n", (int)l, q);
                q = e ? e + 1 : q + l;
            }
            tg_buf_printf(&md, "```\n");
        }
    }
    if (g->built && !g->refused[0] && !failed)
        tg_buf_printf(&md, "- every test passed\n");
    if (g->printed) {
        tg_buf ev = {0};
        quote_evidence(&ev, g, "");
        tg_buf_printf(&md, "\n```\n%s```\n", ev.s);
        tg_buf_free(&ev);
    }
    tg_buf_printf(&md, "\n");
    snprintf(p, sizeof p, "%s/summary.part.md", g->odir);
    tg_write_atomic(p, md.s, md.len);
    if (R.check)
        print_check(g, tr, nt, score, max);
    tg_buf_free(&md);
    tg_buf_free(&top);
}

/* Grades one submission: returns 0 graded (marker written), 3 grader-side failure (no marker). */
static int grade_one(const gstudent *st, double *score, double *max, double *secs, char *why, size_t whylen)
{
    double t0 = tl_now_ms();
    gsub g;
    memset(&g, 0, sizeof g);
    g.s = st;
    snprintf(g.work, sizeof g.work, "%s/work/%s", R.state, st->name);
    snprintf(g.kit, sizeof g.kit, "%s/kit", g.work);
    snprintf(g.build, sizeof g.build, "%s/build", g.kit);
    snprintf(g.odir, sizeof g.odir, "%s/%s", R.out, st->name);
    tg_rmtree(g.work);
    if (tg_mkdirs(g.work, 0700) != 0 || tg_mkdirs(g.odir, 0755) != 0) {
        snprintf(why, whylen, "cannot make the work folders (%s)", strerror(errno));
        return EXIT_GRADER;
    }
    char err[800];
    int n;
    if (tg_copy_pristine(R.pristine, g.kit, 0, &n, err, sizeof err) != 0) {
        snprintf(why, whylen, "cannot copy the pristine kit: %s", err);
        return EXIT_GRADER;
    }
    char labdir[PATH_MAX + 64];
    snprintf(labdir, sizeof labdir, "%s/labs/%s", g.kit, R.lab->dir);
    int found[TG_MAX_FILES];
    int rc = tg_intake(R.lab, &R.iso, st->path, g.work, labdir, found, &g.notes, err, sizeof err);
    if (rc < 0) {
        snprintf(why, whylen, "%s", err);
        return EXIT_GRADER;
    }
    tres tr[TG_MAX_TESTS];
    memset(tr, 0, sizeof tr);
    int nt = 0;
    for (int i = 0; i < R.lab->ntests; ++i) {
        const tg_test *t = &R.lab->tests[i];
        if (R.public_only && t->kind != TG_CORRECT_PUBLIC)
            continue;
        tr[nt++].t = t;
    }
    if (rc > 0) {                  /* refused submission: graded, every test 0 */
        snprintf(g.refused, sizeof g.refused, "%s", err);
        for (int i = 0; i < nt; ++i) {
            tr[i].graded = 1;
            tg_buf_printf(&tr[i].out, "not run: %s\n", err);
        }
        g.built = 1;               /* (no build log to show; the note says why) */
    } else {
        if (build_submission(&g, err, sizeof err) != 0) {
            snprintf(why, whylen, "%s", err);
            return EXIT_GRADER;
        }
        if (R.lab->gpu)
            gpu_lock(1);
        for (int i = 0; i < nt; ++i) {
            if (!g.built) {
                tr[i].graded = 1;
                tg_buf_printf(&tr[i].out, "not run: the build failed\n%s", g.build_errors.s ? g.build_errors.s : "");
                continue;
            }
            switch (tr[i].t->kind) {
            case TG_CORRECT_PUBLIC:
            case TG_CORRECT_HIDDEN: correctness_test(&g, &tr[i]); break;
            case TG_RACECHECK:
            case TG_MEMCHECK: safety_test(&g, &tr[i]); break;
            case TG_SPEED: speed_test(&g, &tr[i]); break;
            case TG_CALC: calc_test(&g, &tr[i], 0); break;
            case TG_CALC_API: calc_test(&g, &tr[i], 1); break;
            case TG_POLICY: break;            /* after every run: it reads what they saw */
            }
        }
        for (int i = 0; i < nt; ++i)
            if (g.built && tr[i].t->kind == TG_POLICY)
                policy_test(&g, &tr[i]);
        if (R.lab->gpu)
            gpu_lock(0);
    }
    *secs = (tl_now_ms() - t0) / 1000.0;
    write_reports(&g, tr, nt, *secs, score, max);
    for (int i = 0; i < nt; ++i)
        tg_buf_free(&tr[i].out);
    if (!getenv("TL_GRADE_KEEP_WORK"))
        tg_rmtree(g.work);
    char marker[PATH_MAX + 16], line[128];
    snprintf(marker, sizeof marker, "%s/.done", g.odir);
    int ll = snprintf(line, sizeof line, "%.2f %.2f %.2f\n", *score, *max, *secs);
    if (tg_write_atomic(marker, line, (size_t)ll) != 0) {
        snprintf(why, whylen, "cannot write '%s' (%s)", marker, strerror(errno));
        return EXIT_GRADER;
    }
    tg_buf_free(&g.evidence);
    tg_buf_free(&g.notes);
    tg_buf_free(&g.build_errors);
    return 0;
}

/* ------------------------------------------------------------------ class outputs */

static void csv_field(tg_buf *b, const char *s)
{
    int q = strpbrk(s, ",\"\n\r") != NULL;
    if (!q) {
        tg_buf_printf(b, "%s", s);
        return;
    }
    tg_buf_add(b, "\"", 1);
    for (; *s; ++s) {
        if (*s == '"')
            tg_buf_add(b, "\"", 1);
        tg_buf_add(b, s, 1);
    }
    tg_buf_add(b, "\"", 1);
}

typedef struct srow {
    int    done;
    double score, max, secs;
    char   why[600];            /* grader-side failure */
} srow;

static void write_class(const gstudent *st, const srow *rows, int ns, double total_s)
{
    const tg_lab *L = R.lab;
    tg_buf csv = {0};
    csv_field(&csv, "student");
    tg_buf_printf(&csv, ",score,max");
    for (int i = 0; i < L->ntests; ++i) {
        if (R.public_only && L->tests[i].kind != TG_CORRECT_PUBLIC)
            continue;
        tg_buf_add(&csv, ",", 1);
        csv_field(&csv, L->tests[i].name);
    }
    tg_buf_add(&csv, "\n", 1);
    tg_buf md = {0};
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    int graded = 0;
    double sum = 0, secs = 0;
    for (int i = 0; i < ns; ++i)
        if (rows[i].done) {
            ++graded;
            sum += rows[i].max > 0 ? 100.0 * rows[i].score / rows[i].max : 0;
            secs += rows[i].secs;
        }
    tg_buf_printf(&md, "# Lab %s (%s): grades\n\n", L->id, L->title);
    tg_buf_printf(&md, "- date: %s; %d submission(s), %d graded", date, ns, graded);
    if (graded)
        tg_buf_printf(&md, ", mean %.1f%%, %.1f s per submission (build and run; %.0f s for the run)",
                      sum / graded, secs / graded, total_s);
    tg_buf_printf(&md, "\n- cases: public sizes %s; %s\n", L->public_sizes ? L->public_sizes : "none (lab program's own checks)",
                  !L->public_sizes ? "no hidden sizes" :
                  R.public_only ? "hidden sizes not run (--public-only)" : "hidden sizes drawn from the secret seed");
    tg_buf_printf(&md, "- isolation: %s\n", R.iso.desc);
    if (R.iso.notes[0])
        tg_buf_printf(&md, "- isolation notes: %s\n", R.iso.notes);
    if (L->gpu)
        tg_buf_printf(&md, "- GPU: %s\n", R.gpu_why);
    tg_buf_printf(&md, "- rubric: grader/rubric.md (points per test); a test worth P points scores P x (cases passed / cases run)\n\n");
    tg_buf_printf(&md, "| student | score | time | tests failed |\n|---|---|---|---|\n");
    tg_buf problems = {0};
    for (int i = 0; i < ns; ++i) {
        csv_field(&csv, st[i].name);
        if (!rows[i].done) {
            tg_buf_printf(&csv, ",not graded,,");
            tg_buf_printf(&md, "| %s | not graded | | grader-side problem (below) |\n", st[i].name);
            tg_buf_printf(&problems, "- %s: not graded: %s\n", st[i].name, rows[i].why);
            for (int t = 0; t < L->ntests; ++t)
                if (!R.public_only || L->tests[t].kind == TG_CORRECT_PUBLIC)
                    tg_buf_add(&csv, ",", 1);
            tg_buf_add(&csv, "\n", 1);
            continue;
        }
        tg_buf_printf(&csv, ",%.2f,%.2f", rows[i].score, rows[i].max);
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s/%s/scores.tsv", R.out, st[i].name);
        char *tsv = tg_read_file(p, 1 << 20, NULL);
        tg_buf failed = {0};
        int nfailed = 0;
        for (int t = 0; t < L->ntests; ++t) {
            if (R.public_only && L->tests[t].kind != TG_CORRECT_PUBLIC)
                continue;
            const char *val = "";
            char vb[64];
            if (tsv) {
                size_t nl = strlen(L->tests[t].name);
                for (char *q = tsv; q && *q;) {
                    char *e = strchr(q, '\n');
                    if (strncmp(q, L->tests[t].name, nl) == 0 && q[nl] == '\t') {
                        snprintf(vb, sizeof vb, "%.*s", (int)strcspn(q + nl + 1, "\t\n"), q + nl + 1);
                        val = vb;
                        double sc = atof(vb), mx = L->tests[t].points;
                        if (strcmp(vb, "not graded") != 0 && sc < mx && ++nfailed <= 3)
                            tg_buf_printf(&failed, "%s%s (%g/%g)", failed.len ? "; " : "", L->tests[t].name, sc, mx);
                        break;
                    }
                    q = e ? e + 1 : NULL;
                }
            }
            tg_buf_add(&csv, ",", 1);
            csv_field(&csv, val);
        }
        tg_buf_add(&csv, "\n", 1);
        if (nfailed > 3)
            tg_buf_printf(&failed, "; and %d more", nfailed - 3);
        snprintf(p, sizeof p, "%s/%s/status.txt", R.out, st[i].name);
        char *status = tg_read_file(p, 4096, NULL);
        if (status && *status) {
            tg_buf_free(&failed);
            tg_buf_printf(&failed, "all: %s", status);
        }
        free(status);
        tg_buf_printf(&md, "| %s | %g/%g | %.1f s | %s |\n", st[i].name, rows[i].score, rows[i].max, rows[i].secs,
                      failed.len ? failed.s : "none");
        tg_buf_free(&failed);
        free(tsv);
    }
    tg_buf_printf(&md, "\n## Per student: what failed, where, the likely bug\n\n");
    for (int i = 0; i < ns; ++i) {
        if (!rows[i].done)
            continue;
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s/%s/summary.part.md", R.out, st[i].name);
        char *part = tg_read_file(p, 1 << 22, NULL);
        if (part) {
            tg_buf_printf(&md, "%s", part);
            free(part);
        }
    }
    tg_buf_printf(&md, "## Grader-side problems\n\n%s\n", problems.len ? problems.s : "none\n");
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/gradebook.csv", R.out);
    tg_write_atomic(p, csv.s, csv.len);
    snprintf(p, sizeof p, "%s/summary.md", R.out);
    tg_write_atomic(p, md.s, md.len);
    tg_buf_free(&csv);
    tg_buf_free(&md);
    tg_buf_free(&problems);
}

/* ------------------------------------------------------------------ set-up */

static int usage(FILE *out, int code)
{
    fprintf(out,
            "usage: tl-grade --lab NN --out DIR [--secret FILE] [--public-only] [--jobs N] SUBMISSION...\n"
            "       tl-grade --check --lab NN --out DIR [--emulate] FOLDER\n"
            "       tl-grade --print-files NN\n\n"
            "Grades each SUBMISSION (a student's folder, or a .tar, .tar.gz, .tgz or .zip of it) for lab NN.\n"
            "Only the lab's student files are taken; they are built over a pristine copy of the kit and\n"
            "run in a sandbox on cases made from the secret seed.\n\n"
            "  --lab NN          the lab: ");
    for (int i = 0; i < tg_nlabs; ++i)
        fprintf(out, "%s%s", i ? ", " : "", tg_labs[i].id);
    fprintf(out,
            "\n  --out DIR         results: DIR/<student>/results.json, DIR/gradebook.csv, DIR/summary.md\n"
            "  --secret FILE     a file holding the seed of the hidden cases (default: a fresh random seed,\n"
            "                    kept in DIR/.state so a restarted run uses the same one)\n"
            "  --public-only     the public cases only (no hidden sizes, no safety, no speed)\n"
            "  --jobs N          submissions built and graded at once (default: the number of cores)\n"
            "  --check           kit check: one folder, public cases, teaching output on stdout\n"
            "  --emulate         GPU labs: the emulated build instead of the GPU\n"
            "  --kit DIR         the kit's top folder (default: $TL_ROOT, else the current folder)\n"
            "  --print-files NN  print lab NN's student files, one per line, and exit\n"
            "  --print-dir NN    print lab NN's folder name (labs/NAME), and exit\n\n"
            "exit codes: 0 graded (--check: all correctness tests pass), 1 --check: a test failed,\n"
            "2 usage, 3 a grader-side problem, 77 --check: nothing could be run here\n");
    return code;
}

static int read_seed(const char *path, uint64_t *seed, char *err, size_t errlen)
{
    size_t len;
    char *s = tg_read_file(path, 4096, &len);
    if (!s) {
        snprintf(err, errlen, "cannot read the secret '%s' (%s)", path, strerror(errno));
        return -1;
    }
    char *p = s;
    while (*p && isspace((unsigned char)*p))
        ++p;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 0);
    if (errno || end == p) {
        /* Not a number: hash the whole file (any secret text works as a seed). */
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < len; ++i)
            h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
        v = h;
        if (len == 0) {
            free(s);
            snprintf(err, errlen, "the secret '%s' is empty: put a seed (a number or any text) in it", path);
            return -1;
        }
    }
    free(s);
    *seed = v;
    return 0;
}

static int state_seed(const char *secret, char *err, size_t errlen)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/seed", R.state);
    if (secret)
        return read_seed(secret, &R.seed, err, errlen);
    if (R.check && !getenv("TL_GRADE_RANDOM_SEED")) {
        R.seed = TL_DEFAULT_SEED;    /* kit check: the public cases, reproducibly */
        return 0;
    }
    if (tg_is_file(p))
        return read_seed(p, &R.seed, err, errlen);
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &R.seed, sizeof R.seed) != (ssize_t)sizeof R.seed) {
        snprintf(err, errlen, "cannot read /dev/urandom for a seed; give one with --secret FILE");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    char line[64];
    int n = snprintf(line, sizeof line, "%llu\n", (unsigned long long)R.seed);
    if (tg_write_atomic(p, line, (size_t)n) != 0) {
        snprintf(err, errlen, "cannot write '%s' (%s)", p, strerror(errno));
        return -1;
    }
    chmod(p, 0600);
    return 0;
}

static void student_name(const char *path, char *out, size_t len)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    size_t l = strlen(buf);
    while (l > 1 && buf[l - 1] == '/')
        buf[--l] = '\0';
    const char *b = strrchr(buf, '/');
    b = b ? b + 1 : buf;
    char name[256];
    snprintf(name, sizeof name, "%s", b);
    static const char *const exts[] = {".tar.gz", ".tgz", ".tar", ".zip", NULL};
    for (int i = 0; exts[i]; ++i) {
        size_t nl = strlen(name), el = strlen(exts[i]);
        if (nl > el && strcmp(name + nl - el, exts[i]) == 0) {
            name[nl - el] = '\0';
            break;
        }
    }
    size_t j = 0;
    for (size_t i = 0; name[i] && j + 1 < len && j < 100; ++i) {
        char c = name[i];
        out[j++] = (isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.') ? c : '_';
    }
    out[j] = '\0';
    if (!out[0] || out[0] == '.')
        out[0] = '_';
    if (!out[0])
        snprintf(out, len, "_");
}

/* Is the GPU usable? Ask the reference build (trusted) for a small case. */
static void probe_gpu(void)
{
    if (!R.lab->gpu) {
        snprintf(R.gpu_why, sizeof R.gpu_why, "not needed");
        return;
    }
    if (R.emulate) {
        snprintf(R.gpu_why, sizeof R.gpu_why, "not used (--emulate)");
        return;
    }
    if (!R.iso.gpu_nodes) {
        snprintf(R.gpu_why, sizeof R.gpu_why, "no usable CUDA device: no /dev/nvidia* on this machine");
        return;
    }
    if (!R.lab->nvariants) {
        snprintf(R.gpu_why, sizeof R.gpu_why, "unknown: /dev/nvidia* present; the lab program says whether it finds a device");
        R.gpu_ok = 1;
        return;
    }
    if (!R.ref_build[0]) {
        snprintf(R.gpu_why, sizeof R.gpu_why, "unknown: the reference build failed, so the device was not tried (%s)", R.ref_why);
        R.gpu_ok = 1;   /* let the student binary say whether it finds a device */
        return;
    }
    gsub g;
    memset(&g, 0, sizeof g);
    gstudent probe = {"probe", ""};
    g.s = &probe;
    snprintf(g.work, sizeof g.work, "%s/probe", R.state);
    tg_mkdirs(g.work, 0700);
    char err[300];
    int si = add_size(16, 16, 16, 2);
    if (si < 0 || prepare_size(&R.sizes[si], err, sizeof err) != 0)
        return;
    gsess ss = {.build = R.ref_build, .binary = R.lab->ref_binary};
    cres r;
    run_case(&g, &ss, &R.sizes[si], &R.lab->variants[0], 0, 60, &r);
    sess_end(&g, &ss, 1);
    if (r.st == C_PASS) {
        R.gpu_ok = 1;
        snprintf(R.gpu_why, sizeof R.gpu_why, "a usable CUDA device answered (the reference solution ran a 16x16x16 case)");
    } else {
        snprintf(R.gpu_why, sizeof R.gpu_why, "no usable CUDA device: %.250s", r.reason);
    }
    tg_buf_free(&r.explain);
    tg_buf_free(&g.evidence);
}

/* The reference solution, built from the instructor's tree into the grader's private state. */
static void build_reference(void)
{
    char sol[PATH_MAX + 64];
    snprintf(sol, sizeof sol, "%s/solutions/%s", R.root, R.lab->dir);
    if (!tg_is_dir(sol)) {
        snprintf(R.ref_why, sizeof R.ref_why, "no %s in the kit (the student edition has none)", sol);
        return;
    }
    char bdir[PATH_MAX + 16];
    snprintf(bdir, sizeof bdir, "%s/refbuild", R.state);
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "{ [ -f '%s/build.ninja' ] || '%s' setup --buildtype=debugoptimized -Dtests=false "
             "-Dcuda=%s '%s' '%s'; } >'%s/refbuild.log' 2>&1 && '%s' -C '%s' '%s' >>'%s/refbuild.log' 2>&1",
             bdir, R.meson, R.lab->gpu ? "enabled" : "disabled", bdir, R.root, R.state, R.ninja, bdir,
             R.lab->ref_binary, R.state);
    if (system(cmd) != 0) {
        snprintf(R.ref_why, sizeof R.ref_why, "the reference build failed; see %s/refbuild.log", R.state);
        return;
    }
    snprintf(R.ref_build, sizeof R.ref_build, "%s", bdir);
}

static int lock_fd = -1;

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"lab", required_argument, NULL, 'l'},       {"out", required_argument, NULL, 'o'},
        {"secret", required_argument, NULL, 's'},    {"public-only", no_argument, NULL, 'p'},
        {"jobs", required_argument, NULL, 'j'},      {"check", no_argument, NULL, 'c'},
        {"emulate", no_argument, NULL, 'e'},         {"kit", required_argument, NULL, 'k'},
        {"print-files", required_argument, NULL, 'f'}, {"print-dir", required_argument, NULL, 'd'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0}};
    const char *lab_id = NULL, *out = NULL, *secret = NULL, *kit = NULL;
    long v;
    int c;
    opterr = 0;
    signal(SIGPIPE, SIG_IGN);      /* a student's process that dies mid-request must not take us along */
    memset(&R, 0, sizeof R);
    R.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (R.jobs < 1)
        R.jobs = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'l': lab_id = optarg; break;
        case 'o': out = optarg; break;
        case 's': secret = optarg; break;
        case 'p': R.public_only = 1; break;
        case 'j':
            if (tl_parse_int(optarg, 1, 256, &v) != 0) {
                fprintf(stderr, "tl-grade: --jobs '%s': give a number from 1 to 256\n", optarg);
                return TL_EXIT_USAGE;
            }
            R.jobs = (int)v;
            break;
        case 'c':
            R.check = 1;
            R.public_only = 1;
            setenv("TL_GRADE_CHECK", "1", 1);
            break;
        case 'e': R.emulate = 1; break;
        case 'k': kit = optarg; break;
        case 'q': R.quiet = 1; break;
        case 'f':
        case 'd': {
            const tg_lab *L = tg_lab_find(optarg);
            if (!L) {
                fprintf(stderr, "tl-grade: unknown lab '%s'; the labs are:", optarg);
                for (int i = 0; i < tg_nlabs; ++i)
                    fprintf(stderr, " %s", tg_labs[i].id);
                fprintf(stderr, "\n");
                return TL_EXIT_USAGE;
            }
            if (c == 'd')
                printf("%s\n", L->dir);
            else
                for (int i = 0; i < TG_MAX_FILES && L->files[i]; ++i)
                    printf("%s\n", L->files[i]);
            return 0;
        }
        case 'h': return usage(stdout, 0);
        default:
            fprintf(stderr, "tl-grade: %s '%s'\n", optopt ? "option needs a value or is unknown:" : "unknown option",
                    argv[optind - 1]);
            return usage(stderr, TL_EXIT_USAGE);
        }
    }
    if (!lab_id) {
        fprintf(stderr, "tl-grade: give the lab with --lab NN\n");
        return usage(stderr, TL_EXIT_USAGE);
    }
    R.lab = tg_lab_find(lab_id);
    if (!R.lab) {
        fprintf(stderr, "tl-grade: unknown lab '%s'; the labs are:", lab_id);
        for (int i = 0; i < tg_nlabs; ++i)
            fprintf(stderr, " %s (%s)", tg_labs[i].id, tg_labs[i].dir);
        fprintf(stderr, "\n");
        return TL_EXIT_USAGE;
    }
    if (!out) {
        fprintf(stderr, "tl-grade: give the results folder with --out DIR\n");
        return TL_EXIT_USAGE;
    }
    if (optind >= argc) {
        fprintf(stderr, "tl-grade: no submissions given: name one folder or archive per student\n");
        return TL_EXIT_USAGE;
    }
    if (!kit)
        kit = getenv("TL_ROOT");
    if (!kit)
        kit = ".";
    if (!realpath(kit, R.root)) {
        fprintf(stderr, "tl-grade: the kit folder '%s' is missing (%s); give it with --kit DIR or TL_ROOT\n", kit,
                strerror(errno));
        return TL_EXIT_USAGE;
    }
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/labs/%s", R.root, R.lab->dir);
    if (!tg_is_dir(p)) {
        fprintf(stderr, "tl-grade: lab %s is not in this kit yet (no %s)\n", R.lab->id, p);
        return TL_EXIT_USAGE;
    }
    int ns = argc - optind;
    gstudent *st = calloc((size_t)ns, sizeof *st);
    srow *rows = calloc((size_t)ns, sizeof *rows);
    for (int i = 0; i < ns; ++i) {
        const char *sp = argv[optind + i];
        struct stat sb;
        if (stat(sp, &sb) != 0) {
            fprintf(stderr, "tl-grade: submission '%s' is missing (%s)\n", sp, strerror(errno));
            return TL_EXIT_USAGE;
        }
        if (!realpath(sp, st[i].path)) {
            fprintf(stderr, "tl-grade: cannot resolve '%s'\n", sp);
            return TL_EXIT_USAGE;
        }
        student_name(sp, st[i].name, sizeof st[i].name);
        if (R.check)
            snprintf(st[i].name, sizeof st[i].name, "working-tree");
        for (int j = 0, k = 2; j < i; ++j)       /* the same name twice: alice, alice-2 */
            if (strcmp(st[j].name, st[i].name) == 0) {
                char base[128];
                snprintf(base, sizeof base, "%.100s", st[i].name);
                snprintf(st[i].name, sizeof st[i].name, "%s-%d", base, k++);
                j = -1;
            }
    }
    /* The out dir: ours to write, never inside the kit's solutions or a submission. */
    if (tg_mkdirs(out, 0755) != 0 || !realpath(out, R.out)) {
        fprintf(stderr, "tl-grade: bad out dir '%s': %s\n", out, strerror(errno));
        return TL_EXIT_USAGE;
    }
    for (int i = 0; i < ns; ++i) {
        size_t l = strlen(st[i].path);
        if (strncmp(R.out, st[i].path, l) == 0 && (R.out[l] == '/' || R.out[l] == '\0')) {
            fprintf(stderr, "tl-grade: bad out dir '%s': it lies inside the submission '%s'\n", out, st[i].path);
            return TL_EXIT_USAGE;
        }
    }
    snprintf(R.state, sizeof R.state, "%s/.state", R.out);
    if (tg_mkdirs(R.state, 0700) != 0) {
        fprintf(stderr, "tl-grade: bad out dir '%s': cannot make %s (%s)\n", out, R.state, strerror(errno));
        return TL_EXIT_USAGE;
    }
    chmod(R.state, 0700);
    snprintf(p, sizeof p, "%s/lock", R.state);
    lock_fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
        fprintf(stderr, "tl-grade: another tl-grade is writing to '%s'; wait for it or use another --out\n", out);
        return TL_EXIT_USAGE;
    }
    char err[800];
    if (state_seed(secret, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: %s\n", err);
        return TL_EXIT_USAGE;
    }
    /* An out dir belongs to one lab and one secret: finished results of another must never be
     * taken for this run's. The secret is kept as a fingerprint only. */
    if (!R.check) {
        char ident[160], idp[PATH_MAX + 32];
        int il = snprintf(ident, sizeof ident, "lab %s secret %016llx\n", R.lab->id,
                          (unsigned long long)mix64(R.seed ^ 0x5EC2E7ull));
        snprintf(idp, sizeof idp, "%s/identity", R.state);
        char *have = tg_read_file(idp, 256, NULL);
        if (have && strcmp(have, ident) != 0) {
            fprintf(stderr, "tl-grade: bad out dir '%s': it holds results of another run (%.*s), not lab %s with "
                    "this secret; use another --out, or give the same --secret\n", out, (int)strcspn(have, "\n"), have,
                    R.lab->id);
            free(have);
            return TL_EXIT_USAGE;
        }
        free(have);
        if (tg_write_atomic(idp, ident, (size_t)il) != 0) {
            fprintf(stderr, "tl-grade: bad out dir '%s': cannot write %s (%s)\n", out, idp, strerror(errno));
            return TL_EXIT_USAGE;
        }
    }
    if (find_tool("meson", R.meson, sizeof R.meson) != 0 || find_tool("ninja", R.ninja, sizeof R.ninja) != 0) {
        fprintf(stderr, "tl-grade: not graded: build tool missing (%s not found on PATH); install meson and ninja\n",
                R.meson[0] ? "ninja" : "meson");
        return EXIT_GRADER;
    }
    char nvcc[PATH_MAX] = "";
    /* The sandbox's scrubbed PATH must still find the build tools the grader found (on the GPU
     * server meson and ninja live in a virtualenv, not /usr/bin): their folders go first. */
    const char *tools[3] = {R.meson, R.ninja, NULL};
    if (find_tool("nvcc", nvcc, sizeof nvcc) == 0)
        tools[2] = nvcc;
    for (int t = 2; t >= 0; --t) {
        if (!tools[t] || !strrchr(tools[t], '/'))
            continue;
        size_t dl = (size_t)(strrchr(tools[t], '/') - tools[t]), used = strlen(R.tool_path);
        if (used + dl + 2 < sizeof R.tool_path)
            snprintf(R.tool_path + used, sizeof R.tool_path - used, "%s%.*s", used ? ":" : "", (int)dl, tools[t]);
    }
    if (R.lab->gpu && !nvcc[0]) {
        fprintf(stderr, "tl-grade: not graded: lab %s needs nvcc to build, and none is on PATH or in /usr/local/cuda/bin\n",
                R.lab->id);
        return EXIT_GRADER;
    }
    find_tool("compute-sanitizer", R.sanitizer, sizeof R.sanitizer);
    tg_iso_probe(&R.iso);
    snprintf(p, sizeof p, "%s/labs/emulated/meson.build", R.root);
    if (R.lab->emu_target) {
        char *mb = tg_read_file(p, 1 << 20, NULL);
        char q[80];
        snprintf(q, sizeof q, "'%s'", R.lab->emu_target);
        R.have_emu_target = mb && strstr(mb, q);
        free(mb);
    }
    if (!R.check || !R.quiet) {
        fprintf(R.check ? stdout : stderr, "tl-grade: lab %s, %d submission(s), isolation: %s\n", R.lab->id, ns, R.iso.desc);
        if (R.iso.notes[0] && !R.check)
            fprintf(stderr, "tl-grade: isolation notes: %s\n", R.iso.notes);
    }
    /* The pristine kit, copied fresh each run. */
    snprintf(R.pristine, sizeof R.pristine, "%s/pristine", R.state);
    tg_rmtree(R.pristine);
    int nfiles;
    if (tg_copy_pristine(R.root, R.pristine, R.check, &nfiles, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: not graded: cannot copy the kit: %s\n", err);
        return EXIT_GRADER;
    }
    snprintf(p, sizeof p, "%s/labs/%s/meson.build", R.pristine, R.lab->dir);
    if (!tg_is_file(p)) {
        fprintf(stderr, "tl-grade: not graded: labs/%s is not in the kit's git tree (untracked files are not "
                "graded against: an instructor's class folders must stay out); git add it first\n", R.lab->dir);
        return EXIT_GRADER;
    }
    /* Cases: public, then hidden from the secret seed; references computed once, here. */
    tl_sizes pub = {0};
    if (R.lab->public_sizes && tl_parse_sizes(R.lab->public_sizes, &pub, err, sizeof err) != 0) {
        fprintf(stderr, "tl-grade: internal: lab %s public sizes: %s\n", R.lab->id, err);
        return EXIT_GRADER;
    }
    for (int i = 0; i < pub.count; ++i)
        add_size(pub.m[i], pub.k[i], pub.n[i], 0);
    if (!R.public_only) {
        make_hidden_sizes();
        /* The safety and speed cases too: computed once here, not once per worker. */
        const char *extra[2] = {R.lab->gpu ? R.lab->safety_sizes : NULL,
                                R.lab->gpu && !R.emulate && R.iso.gpu_nodes ? R.lab->speed_size : NULL};
        for (int e = 0; e < 2; ++e) {
            tl_sizes xs;
            if (extra[e] && tl_parse_sizes(extra[e], &xs, err, sizeof err) == 0)
                for (int i = 0; i < xs.count; ++i)
                    add_size(xs.m[i], xs.k[i], xs.n[i], 2);
        }
    }
    /* A GPU lab graded here without a GPU runs emulated: sizes above TL_EMU_MAX_WORK are not run
     * there, so their inputs and references are not made (a 4096^3 reference takes minutes). */
    int likely_emulated = R.lab->gpu && (R.emulate || !R.iso.gpu_nodes);
    for (int i = 0; i < R.nsizes; ++i)
        if (!(likely_emulated && (double)R.sizes[i].m * R.sizes[i].k * R.sizes[i].n > TL_EMU_MAX_WORK) &&
            prepare_size(&R.sizes[i], err, sizeof err) != 0) {
            fprintf(stderr, "tl-grade: not graded: %s\n", err);
            return EXIT_GRADER;
        }
    if (R.lab->gpu && !R.public_only && !R.emulate && R.iso.gpu_nodes && R.lab->speed_size && R.lab->nvariants)
        build_reference();
    else
        snprintf(R.ref_why, sizeof R.ref_why, "not needed in this run");
    probe_gpu();
    if (R.lab->gpu && !R.check)
        fprintf(stderr, "tl-grade: GPU: %s\n", R.gpu_why);

    /* The class: up to --jobs submissions at once, each in its own worker process. */
    double t_start = tl_now_ms();
    int next = 0, running = 0, finished = 0;
    pid_t *pids = calloc((size_t)ns, sizeof *pids);
    while (finished < ns) {
        while (running < R.jobs && next < ns) {
            int i = next++;
            char marker[PATH_MAX + 160];
            snprintf(marker, sizeof marker, "%s/%s/.done", R.out, st[i].name);
            char *m = R.check ? NULL : tg_read_file(marker, 256, NULL);
            if (m && sscanf(m, "%lf %lf %lf", &rows[i].score, &rows[i].max, &rows[i].secs) == 3) {
                rows[i].done = 1;
                ++finished;
                fprintf(stderr, "[%d/%d] %s ... %g/%g (graded earlier; delete %s/%s to grade again)\n", finished, ns,
                        st[i].name, rows[i].score, rows[i].max, R.out, st[i].name);
                free(m);
                continue;
            }
            free(m);
            if (R.check) {
                char od[PATH_MAX + 160];
                snprintf(od, sizeof od, "%s/%s", R.out, st[i].name);
                tg_rmtree(od);
            }
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0) {
                snprintf(rows[i].why, sizeof rows[i].why, "cannot fork (%s)", strerror(errno));
                ++finished;
                continue;
            }
            if (pid == 0) {
#ifdef __linux__
                prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
                close(lock_fd);
                double sc, mx, secs;
                char why[600] = "";
                int rc = grade_one(&st[i], &sc, &mx, &secs, why, sizeof why);
                if (rc != 0) {
                    char np[PATH_MAX + 160];
                    snprintf(np, sizeof np, "%s/%s/not-graded.txt", R.out, st[i].name);
                    tg_mkdirs(np, 0755);
                    rmdir(np);
                    tg_write_atomic(np, why, strlen(why));
                }
                fflush(NULL);
                _exit(rc);
            }
            pids[i] = pid;
            ++running;
        }
        if (running == 0)
            continue;
        int wst;
        pid_t w = wait(&wst);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < ns; ++i) {
            if (pids[i] != w)
                continue;
            pids[i] = 0;
            --running;
            ++finished;
            char marker[PATH_MAX + 160];
            snprintf(marker, sizeof marker, "%s/%s/.done", R.out, st[i].name);
            char *m = tg_read_file(marker, 256, NULL);
            if (WIFEXITED(wst) && WEXITSTATUS(wst) == 0 && m &&
                sscanf(m, "%lf %lf %lf", &rows[i].score, &rows[i].max, &rows[i].secs) == 3) {
                rows[i].done = 1;
                if (!R.check)
                    fprintf(stderr, "[%d/%d] %s ... %g/%g (%.1f s)\n", finished, ns, st[i].name, rows[i].score,
                            rows[i].max, rows[i].secs);
            } else {
                char np[PATH_MAX + 160];
                snprintf(np, sizeof np, "%s/%s/not-graded.txt", R.out, st[i].name);
                char *why = tg_read_file(np, 600, NULL);
                snprintf(rows[i].why, sizeof rows[i].why, "%s",
                         why ? why : WIFSIGNALED(wst) ? "the grader's worker died (signal)" : "the grader's worker failed");
                free(why);
                fprintf(stderr, "[%d/%d] %s ... not graded: %s\n", finished, ns, st[i].name, rows[i].why);
            }
            free(m);
        }
    }
    double total_s = (tl_now_ms() - t_start) / 1000.0;
    write_class(st, rows, ns, total_s);
    if (!R.check)
        fprintf(stderr, "tl-grade: %s/summary.md, %s/gradebook.csv (%.1f s)\n", R.out, R.out, total_s);
    int any_problem = 0;
    for (int i = 0; i < ns; ++i)
        any_problem |= !rows[i].done;
    if (R.check) {
        /* kit check: exit by the correctness tests of the one submission */
        if (!rows[0].done)
            return EXIT_GRADER;
        snprintf(p, sizeof p, "%s/%s/scores.tsv", R.out, st[0].name);
        char *tsv = tg_read_file(p, 1 << 20, NULL);
        int graded = 0, failed = 0;
        for (char *q = tsv; q && *q;) {
            char *e = strchr(q, '\n');
            char *t1 = strchr(q, '\t');
            if (t1 && (!e || t1 < e)) {
                if (strncmp(t1 + 1, "not graded", 10) != 0) {
                    ++graded;
                    double sc = atof(t1 + 1), mx = atof(strchr(t1 + 1, '\t') + 1);
                    failed += sc < mx;
                }
            }
            q = e ? e + 1 : NULL;
        }
        free(tsv);
        printf("Score: %g/%g\n", rows[0].score, rows[0].max);
        if (!graded) {
            printf("nothing could be checked here (see above); exit 77\n");
            return TL_EXIT_SKIP;
        }
        return failed ? TL_EXIT_FAIL : TL_EXIT_OK;
    }
    return any_problem ? EXIT_GRADER : 0;
}
