/* session.c: the student session: one sandboxed `labNN --serve` process, cases sent on fd 3,
 * answers read on fd 4 and judged against the reference (the checker's teaching report kept). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
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

#include "grade.h"
#include "headline.h"
#include "policy.h"
#include "tilelab.h"
#include "verdict_read.h"

static void exchange(grun *R, gsub *g, gsess *ss, const gsize *s, const tl_lab_variant *v, int timed, double limit_s,
                     cres *r, int held);

/* Whether the session's program runs on the device (the lab's GPU program or the reference's, on a
 * real GPU): its requests then hold the device (gpushare.c). Not an emulated program or a twin that
 * counts the work (the emulated build's names), which run on the CPU. */
static int on_device(const grun *R, const gsess *ss)
{
    char count[PATH_MAX];
    const char *emu[] = {R->lab->emu_binary, R->lab->emu_ref_binary, tg_emu_count_name(R, 1, count, sizeof count)};
    if (!R->lab->gpu || !R->env.gpu_ok || R->opt->emulate || !ss->binary)
        return 0;
    for (int i = 0; i < 3; ++i)
        if (emu[i] && strcmp(ss->binary, emu[i]) == 0)
            return 0;
    return 1;
}

/* A request's hold of the device, taken where the session's program may run the student's code on
 * it: from its start (the student's static constructors run then) or the request's sending until
 * its answer, and its end (its destructors run at exit). A session gives the device up for a timed
 * run when it runs long on the CPU (tg_gpu_req_tick): a plain one, or a sanitizer's (whose start
 * is seconds of CPU: on the H100 class of 2026-11-27 00:06 its requests held the timed queue's
 * drains); a profiled one (ncu, counters.c) holds it. 1 when taken here (the caller ends it). */
static int request_hold(gsess *ss)
{
    int yields = !ss->prof_argv;
    int took = tg_gpu_req_begin(ss->alive ? &ss->c : NULL, yields);
    return took;
}

void tg_sess_end(gsub *g, gsess *ss, int quit)
{
    if (!ss->alive)
        return;
    if (quit && ss->c.to_child >= 0) {
        int held = ss->on_device && request_hold(ss);   /* its exit runs the student's destructors */
        (void)!write(ss->c.to_child, "quit\n", 5);
        close(ss->c.to_child);
        ss->c.to_child = -1;
        tg_child_wait(&ss->c, tl_now_ms() + 5000);
        if (held)
            tg_gpu_req_end();
    }
    tg_child_kill(&ss->c);
    if (ss->c.cap.len) {
        if (g->evidence.len < 8192)
            tg_buf_add(&g->evidence, ss->c.cap.s, ss->c.cap.len < 8192 ? ss->c.cap.len : 8192);
    }
    g->printed += ss->c.out_total;
    ss->alive = 0;
    ss->kept = 0;
}

static int sess_start(grun *R, gsub *g, gsess *ss, char *err, size_t errlen)
{
    char inside[PATH_MAX], host[PATH_MAX], casedir[PATH_MAX];
    snprintf(inside, sizeof inside, "/build/%s", ss->binary);
    snprintf(host, sizeof host, "%s/%s", ss->build, ss->binary);
    snprintf(casedir, sizeof casedir, "%s/case", g->work);
    tg_rmtree(casedir);
    tg_mkdirs(casedir, 0700);
    const char *bin = R->env.iso.bwrap ? inside : host;
    const char *argv_plain[] = {bin, "--serve", NULL};
    /* memcheck with exact allocations: no NaN tails after M and N, no guard zone after P, so an
     * access past a matrix's end is outside its allocation, where memcheck sees it. */
    int memcheck = ss->tool && strcmp(ss->tool, "memcheck") == 0;
    /* --padding: a gap after every allocation, so a read past M's end that would land in N (the
     * allocations can be adjacent) is out of bounds too (kit check's pass, oob.c) */
    char pad[32];
    snprintf(pad, sizeof pad, "%d", ss->padding);
    /* --launch-timeout 0: the sanitizer waits for its program's connection however long its tree
     * was stopped for a timed run meanwhile (gpushare.c; its default, 10 s, would end the run) */
    const char *argv_tool[] = {R->env.sanitizer, "--tool", ss->tool ? ss->tool : "memcheck", "--error-exitcode", "99",
                               "--print-limit", "20", "--launch-timeout", "0", bin, "--serve",
                               memcheck ? "--exact-alloc" : NULL, NULL, NULL, NULL, NULL};
    if (memcheck && ss->padding > 0) {   /* the sanitizer's options before the program */
        memmove(argv_tool + 11, argv_tool + 9, 3 * sizeof argv_tool[0]);
        argv_tool[9] = "--padding";
        argv_tool[10] = pad;
    }
    /* racecheck's hazard analysis in one CPU worker thread (its default, 0, picks a number itself):
     * a racecheck session cost 1.4-1.6 CPU-s on the H100 machine, a memcheck one 0.55, most of it
     * before the first request (device request cpu-1, 2026-11-27); the same analysis, less parallel
     * (issue 29) */
    if (ss->tool && strcmp(ss->tool, "racecheck") == 0) {
        memmove(argv_tool + 11, argv_tool + 9, 3 * sizeof argv_tool[0]);
        argv_tool[9] = "--racecheck-num-workers";
        argv_tool[10] = "1";
    }
    /* counters.c: the program under ncu (its options, then the program as a graded case runs it) */
    const char *argv_prof[40] = {NULL};
    int np = 0;
    for (; ss->prof_argv && ss->prof_argv[np] && np < 36; ++np)
        argv_prof[np] = ss->prof_argv[np];
    argv_prof[np] = bin;
    argv_prof[np + 1] = "--serve";
    tg_spawn_opts o = {.argv = ss->tool ? argv_tool : ss->prof_argv ? argv_prof : argv_plain, .host_cwd = casedir,
                       .sandbox_cwd = "/tmp/case", .serve = 1, .gpu = R->lab->gpu,
                       .max_tasks = ss->tool || ss->prof_argv ? 128 : 64,
                       .mem_bytes = tg_mem_limit(&R->env.iso, R->lab->gpu && R->env.gpu_ok && !R->opt->emulate ? (8LL << 30)
                                                      : R->lab->gpu ? (2LL << 30) : (1LL << 30), R->opt->jobs),
                       .fsize_bytes = 16LL << 20, .tmp_bytes = 64LL << 20,
                       .extra_path = R->env.tool_path[0] ? R->env.tool_path : NULL,
                       .seccomp_net = ss->tool == NULL && ss->prof_argv == NULL};   /* compute-sanitizer and ncu
                                                                                   * talk to their target over TCP */
    o.ro[0] = (tg_bind){ss->build, "/build"};
    /* The emulator's verdict channel (CONTRACTS.md section 10): one file of the grader's, bound into
     * the sandbox, read after each case; a GPU build ignores it. */
    snprintf(ss->vpath, sizeof ss->vpath, "%s/emu-verdicts.jsonl", g->work);
    int vfd = open(ss->vpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (vfd < 0) {
        snprintf(err, errlen, "cannot make %s (%s)", ss->vpath, strerror(errno));
        return -1;
    }
    close(vfd);
    ss->voff = 0;
    char venv[PATH_MAX + 64];
    snprintf(venv, sizeof venv, "TL_EMU_VERDICTS=%s", R->env.iso.bwrap ? "/tmp/tl-emu-verdicts.jsonl" : ss->vpath);
    o.env[0] = venv;
    /* An untimed session on a real GPU waits for the device asleep (common/device.cu): the runtime's
     * default spins a core per waiting process, and on a shared device the processes wait for each
     * other's kernels. A speed test's sessions keep the default, as every timing before. */
    int ne = 1;
    if (R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && !ss->timed)
        o.env[ne++] = "TL_CUDA_SYNC=blocking";
    /* One hardware work queue per context (CUDA's default is 8): a context then starts in about
     * 0.17 s of sys time instead of 0.27, and the driver starts ~12.7 of them a second with 16
     * processes at once instead of ~4.7, the bound of a class's GPU phase (tests/gpu/scale-diag.sh
     * on the H100, 2026-11-27, class-results/h100-x1-2026-11-27-0505Z-scale). Streams still work
     * (their work shares the one queue); the kit's programs and the labs' kernels use the default
     * stream alone, and the reference is timed in the same setting as the student. */
    if (R->lab->gpu && R->env.gpu_ok && !R->opt->emulate)
        o.env[ne++] = "CUDA_DEVICE_MAX_CONNECTIONS=1";
    /* A class's untimed sessions on a GPU run below a speed test's (TG_GPU_TEST_NICE): a timed window
     * holds the device alone for every worker, so its sessions get a core first (builds lower still) */
    if (R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && !ss->timed && !R->opt->check)
        o.nice = TG_GPU_TEST_NICE;
    if (R->env.iso.bwrap)
        o.rw[0] = (tg_bind){ss->vpath, "/tmp/tl-emu-verdicts.jsonl"};
    char etc_pw[PATH_MAX + 32], etc_gr[PATH_MAX + 32];
    if (ss->prof_argv && R->env.iso.bwrap) {   /* ncu's log: a folder of the grader's (counters.c reads it) */
        o.rw[1] = (tg_bind){ss->prof_dir, TG_PROF_INSIDE};
        int nr = 1;
        if (ss->prof_ro)
            o.ro[nr++] = (tg_bind){ss->prof_ro, ss->prof_ro};
        /* ncu looks its user up: a passwd and group of the sandbox's user alone (counters.c writes them) */
        snprintf(etc_pw, sizeof etc_pw, "%s/passwd", ss->prof_dir);
        snprintf(etc_gr, sizeof etc_gr, "%s/group", ss->prof_dir);
        if (tg_is_file(etc_pw) && tg_is_file(etc_gr)) {
            o.ro[nr++] = (tg_bind){etc_pw, "/etc/passwd"};
            o.ro[nr++] = (tg_bind){etc_gr, "/etc/group"};
        }
        /* ncu's threads, its temporary report and its replay's files are its own, not the program's */
        o.max_tasks = 512;
        o.tmp_bytes = 512LL << 20;
        o.fsize_bytes = 1LL << 30;
    }
    if (tg_spawn(&ss->c, &R->env.iso, &o, err, errlen) != 0)
        return -1;
    ss->alive = 1;
    ss->kept = 0;                      /* a fresh program holds no inputs */
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
        return a->len > 16384;   /* a verdict line's longest is about 5 KiB */
    size_t line = (size_t)(nl - a->s) + 1;
    char word[4];
    if (sscanf(a->s, "%3s", word) != 1 || strcmp(word, "ok") != 0)   /* only "ok" has a matrix after it */
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

/* The time limit's verdict: what the program did meanwhile as its detail. */
static void take_note_of_output(const gsess *ss, cres *r, double limit_s, double wall_s)
{
    /* "cpu-time": the case used up its CPU-time limit; "wall-clock": the backstop (limit_s is then
     * the wall-clock seconds, the CPU it had used is in the detail) */
    tl_verdict_init(&r->v, TL_V_TIMEOUT, ss->c.cpu_out ? "cpu-time" : "wall-clock");
    r->v.limit_s = ss->c.cpu_out ? limit_s : wall_s;
    char *extra = r->v.detail;
    size_t el = 0, cap = sizeof r->v.detail;
    if (!ss->c.cpu_out && ss->c.cpu_start_ms >= 0)
        el += (size_t)snprintf(extra, cap, "it had used %.1f s of its %.0f s of CPU time",
                               ss->c.cpu_used_ms / 1000.0, limit_s);
    if (ss->c.out_total > (1u << 20) && el < cap)
        el += (size_t)snprintf(extra + el, cap - el, "%smeanwhile it printed %.1f MiB; %d KiB kept, the rest counted "
                               "and dropped", el ? "; " : "", ss->c.out_total / 1048576.0, TG_CAPTURE_KEEP / 1024);
    if (ss->c.forks_refused > 0 && el < cap)
        snprintf(extra + el, cap - el, "%sthe process limit refused %ld of its forks: a fork bomb", el ? "; " : "",
                 ss->c.forks_refused);
}

int tg_sess_verdicts(gsess *ss, tl_verdict *out, int max)
{
    if (!ss->vpath[0] || max <= 0)
        return 0;
    int fd = open(ss->vpath, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    /* at most 256 KiB a call: the emulator writes a few lines per launch; more is a student's */
    char *buf = malloc(256 * 1024 + 1);
    ssize_t got = buf && lseek(fd, (off_t)ss->voff, SEEK_SET) >= 0 ? read(fd, buf, 256 * 1024) : -1;
    close(fd);
    int n = 0;
    if (got > 0) {
        buf[got] = '\0';
        char *end = memrchr(buf, '\n', (size_t)got);   /* whole lines only; the rest next time */
        if (end) {
            ss->voff += end + 1 - buf;
            for (char *p = buf; p <= end && n < max;) {
                char *e = memchr(p, '\n', (size_t)(end + 1 - p));
                if (tg_verdict_parse(p, (size_t)(e - p), &out[n]) == 0)
                    ++n;
                p = e + 1;
            }
        }
    }
    free(buf);
    return n;
}

/* What the channel got during the case (read once): the first emulator verdict in *first (returns 1,
 * or 0 none), and the emulator's "not supported" among them, any of them (the program may have
 * printed others before it stopped), in *unsup (*have_unsup 1). */
static int channel_verdict(gsess *ss, tl_verdict *first, tl_verdict *unsup, int *have_unsup)
{
    tl_verdict got[8];
    int n = tg_sess_verdicts(ss, got, 8), have = 0;
    *have_unsup = 0;
    for (int i = 0; i < n; ++i) {
        if (got[i].kind != TL_V_EMULATOR)
            continue;
        if (!have)
            *first = got[i];
        have = 1;
        if (!*have_unsup && tl_verdict_pattern_is(&got[i], "not-supported")) {
            *unsup = got[i];
            *have_unsup = 1;
        }
    }
    return have;
}

/* The reason line and, for an emulator verdict, its words for people as the teaching report. */
static void words_of(cres *r, const gsize *s)
{
    r->v.m = s->m;
    r->v.k = s->k;
    r->v.n = s->n;
    tg_verdict_words(&r->v, r->reason, sizeof r->reason);
    if (r->v.kind == TL_V_EMULATOR && r->v.detail[0]) {
        for (const char *p = r->v.detail; *p;) {
            size_t l = strcspn(p, "\n");
            tg_buf_printf(&r->explain, "    %.*s\n", (int)(l > 1000 ? 1000 : l), p);
            p += l + (p[l] == '\n');
        }
    }
}

int tg_unsupported_words(const tl_verdict *v, char *out, size_t len)
{
    if (v->kind != TL_V_EMULATOR || !tl_verdict_pattern_is(v, "not-supported"))
        return 0;
    size_t l = strcspn(v->detail, "\n");
    if (l)
        snprintf(out, len, "%.*s", (int)(l > 380 ? 380 : l), v->detail);
    else
        snprintf(out, len, "not supported under emulation (valid CUDA; on a GPU it runs)");
    return 1;
}

/* Valid CUDA the emulator cannot run (got: the emulator's verdict, kind and pattern): the case gets
 * no verdict of the student's, and the submission records what (judges.c leaves such cases out). */
static int unsupported_case(grun *R, gsub *g, cres *r, const gsize *s, const tl_verdict *got)
{
    char what[400];
    if (!R->opt->emulate || !tg_unsupported_words(got, what, sizeof what))
        return 0;
    r->st = C_NOTRUN;
    tl_verdict_init(&r->v, TL_V_NOT_GRADED, "not-supported");
    tl_verdict_set(r->v.detail, sizeof r->v.detail, what);
    snprintf(g->emu_unsupported, sizeof g->emu_unsupported, "%s", what);
    words_of(r, s);
    return 1;
}

/* The variants whose cases stopped at the time or memory limit: the rest of theirs is not run. */
static int variant_stopped(const gsub *g, const char *name)
{
    for (int i = 0; i < g->nstopped; ++i)
        if (strcmp(g->stopped[i], name) == 0)
            return 1;
    return 0;
}

static void stop_variant(gsub *g, const char *name)
{
    if (!variant_stopped(g, name) && g->nstopped < TL_LAB_MAX_VARIANTS)
        snprintf(g->stopped[g->nstopped++], sizeof g->stopped[0], "%s", name);
}

void tg_limits_aside(gsub *g, tg_limits_saved *saved)
{
    _Static_assert(sizeof saved->stopped == sizeof g->stopped, "tg_limits_saved holds g->stopped whole");
    saved->timeouts = g->timeouts;
    saved->nstopped = g->nstopped;
    memcpy(saved->stopped, g->stopped, sizeof saved->stopped);
    g->timeouts = 0;
    g->nstopped = 0;
}

void tg_limits_back(gsub *g, const tg_limits_saved *saved)
{
    g->timeouts = saved->timeouts;
    g->nstopped = saved->nstopped;
    memcpy(g->stopped, saved->stopped, sizeof g->stopped);
}

/* Runs one case in the session (started on demand) and judges the answer. */
void tg_run_case(grun *R, gsub *g, gsess *ss, const gsize *s, const tl_lab_variant *v, int timed, double limit_s, cres *r)
{
    memset(r, 0, sizeof *r);
    r->reported_ms = -1;
    tl_verdict_init(&r->v, TL_V_NONE, "correct");
    char sz[48];
    tg_size_str(sz, sizeof sz, s);
    if (variant_stopped(g, v->name)) {
        r->st = C_NOTRUN;
        tl_verdict_init(&r->v, TL_V_NOT_RUN, "after-a-limit");
        snprintf(r->v.detail, sizeof r->v.detail, "an earlier case of %s hit the time or memory limit", v->name);
        words_of(r, s);
        return;
    }
    if (g->timeouts >= TIMEOUTS_PER_SUBMISSION) {
        r->st = C_NOTRUN;
        tl_verdict_init(&r->v, TL_V_NOT_RUN, "after-a-limit");
        snprintf(r->v.detail, sizeof r->v.detail, "this submission already hit the time limit %d times", g->timeouts);
        words_of(r, s);
        return;
    }
    char err[600];
    /* the device held for this request (gpushare.c: shared, or nothing to take where held alone) */
    ss->on_device = on_device(R, ss);
    int held = ss->on_device && request_hold(ss);
    if (!ss->alive && sess_start(R, g, ss, err, sizeof err) != 0) {
        if (held)
            tg_gpu_req_end();
        r->st = C_NOTRUN;
        tl_verdict_init(&r->v, TL_V_NOT_GRADED, "grader-problem");
        tl_verdict_set(r->v.detail, sizeof r->v.detail, err);
        words_of(r, s);
        return;
    }
    exchange(R, g, ss, s, v, timed, limit_s, r, held);
    if (held)
        tg_gpu_req_end();
}

/* Whether the next request of ss at size s says "same" and sends no inputs (CONTRACTS.md section 2):
 * a speed test's session on the device whose program holds this size's inputs (its last request
 * answered "ok" at these dimensions and this size's seed). Any other session sends them. */
int tg_sess_same_inputs(const gsess *ss, const gsize *s)
{
    return ss->timed && ss->on_device && ss->kept && ss->kept_m == s->m && ss->kept_k == s->k &&
           ss->kept_n == s->n && ss->kept_seed == s->seed;
}

/* ss's program holds size s's inputs now (an "ok" answer to a request of that size). */
void tg_sess_kept_inputs(gsess *ss, const gsize *s)
{
    ss->kept = 1;
    ss->kept_m = s->m, ss->kept_k = s->k, ss->kept_n = s->n;
    ss->kept_seed = s->seed;
}

/* The request of one case sent, its answer read and judged (tg_run_case, the device held). */
static void exchange(grun *R, gsub *g, gsess *ss, const gsize *s, const tl_lab_variant *v, int timed, double limit_s,
                     cres *r, int held)
{
    char err[600], sz[48];
    tg_size_str(sz, sizeof sz, s);
    /* the channel from here on is this case's (earlier cases' verdicts were answered on fd 4) */
    struct stat vst;
    if (ss->vpath[0] && stat(ss->vpath, &vst) == 0)
        ss->voff = (long long)vst.st_size;
    /* A speed test's session on the device asks for the inputs its program already holds (its last
     * request answered "ok" had this size's): "same", no matrices (CONTRACTS.md section 2). The
     * window's requests then cross no pipe with 32 MB of inputs each (issue 29: about 24 ms of a
     * 2048^3 request's 50-90, tests/gpu/window-diag.sh). The inputs are the ones it would be sent
     * again (one set per size and run): the program sees nothing it had not seen, and a request that
     * changes them in its memory answers a wrong product, judged as any. */
    int same = tg_sess_same_inputs(ss, s);
    ss->kept = 0;                      /* set again below by an "ok" answer */
    char line[160];
    int ll = snprintf(line, sizeof line, "case %s %d %d %d %d%s\n", v->name, s->m, s->k, s->n, timed,
                      same ? " same" : "");
    /* the line, then the inputs as made once per size (not copied per request); the answer's room
     * taken at once (a 4096^2 answer grew by doubling from 256 bytes: issue 29, a case's CPU) */
    tg_buf ans = {0};
    size_t ans_room = 4096 + TL_MAT_HEADER_BYTES + (size_t)s->m * s->n * 4 + 1;
    if ((ans.s = malloc(ans_room)) != NULL) {
        ans.s[0] = '\0';
        ans.cap = ans_room;
    }
    answer_ctx ac = {s->m, s->n};
    /* limit_s is CPU time of the session's whole tree for this case (the same at any load); the
     * wall clock gets a multiple of it, only to end a process that sleeps or waits. */
    double wall_s = limit_s * (R->lab->gpu && R->env.gpu_ok && !R->opt->emulate ? TL_WALL_BACKSTOP_GPU : TL_WALL_BACKSTOP_CPU);
    double waited0 = ss->timed ? tg_child_waited_ms(&ss->c) : -1;   /* (a speed test's session: speed.c) */
    double t0 = tl_now_ms();
    ss->c.cpu_limit_ms = limit_s * 1000.0;
    ss->c.cpu_start_ms = tg_child_cpu_ms(&ss->c);
    ss->c.cpu_used_ms = 0;
    ss->c.cpu_read_at = t0;
    if (ss->c.cpu_start_ms < 0) {   /* the tree's CPU cannot be read here: the wall clock alone */
        ss->c.cpu_limit_ms = 0;
        wall_s = limit_s;
    }
    size_t ans_max = 4096 + TL_MAT_HEADER_BYTES + (size_t)s->m * s->n * 8;
    ss->c.tick = held ? tg_gpu_req_tick : NULL;   /* stopped for a timed run meanwhile (gpushare.c) */
    int rc = tg_child_exchange2(&ss->c, line, (size_t)ll, same ? NULL : s->payload, same ? 0 : s->payload_len, &ans,
                                ans_max, answer_complete, &ac, t0 + wall_s * 1000.0);
    ss->c.tick = NULL;
    if (rc == 0 && held)
        tg_gpu_req_end();              /* answered (after the kit's device synchronize): the grader's check needs no device */
    if (ss->end_window && rc == 0)     /* a speed test's last timed request: its window ends with its answer */
        tg_gpu_window_end();
    ss->end_window = 0;
    ss->c.cpu_limit_ms = 0;
    r->wall_ms = tl_now_ms() - t0;
    double waited1 = waited0 >= 0 && rc == 0 ? tg_child_waited_ms(&ss->c) : -1;
    double cpu1 = waited1 >= 0 && ss->c.cpu_start_ms >= 0 ? tg_child_cpu_ms(&ss->c) : -1;
    r->waited_ms = waited0 >= 0 && waited1 >= 0 && cpu1 >= 0 ?
                   tg_waits_left_out(waited1 - waited0, r->wall_ms, cpu1 - ss->c.cpu_start_ms) : -1;
    if (rc == 2) {
        r->st = C_TIMEOUT;
        g->timeouts++;
        stop_variant(g, v->name);
        take_note_of_output(ss, r, limit_s, wall_s);
        tg_sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    if (rc == 3) {
        r->st = C_PROTO;
        tl_verdict_init(&r->v, TL_V_PROTOCOL, "answer-too-large");
        words_of(r, s);
        tg_sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    if (rc == 1 && !answer_complete(&ans, &ac)) {
        tg_child_wait(&ss->c, tl_now_ms() + 2000);
        tg_child_kill(&ss->c);                 /* reaps, and reads the cgroup's OOM count */
        r->st = C_DIED;
        if (tg_child_net_killed(&ss->c) && ++g->net_killed == 1)
            snprintf(g->net_where, sizeof g->net_where, "%s at size %s", v->name, sz);
        if (ss->c.oom)
            stop_variant(g, v->name);
        tl_verdict chv, unsup;
        int have_unsup, have = channel_verdict(ss, &chv, &unsup, &have_unsup);
        if (have_unsup && unsupported_case(R, g, r, s, &unsup)) {   /* the runtime's verdict */
            tg_sess_end(g, ss, 0);
            tg_buf_free(&ans);
            return;
        }
        /* the emulator's diagnostic, where it stopped the program, says more than the death */
        if (have) {
            r->v = chv;
        } else {
            int exited0 = ss->c.reaped && WIFEXITED(ss->c.status) && !WEXITSTATUS(ss->c.status);
            tl_verdict_init(&r->v, TL_V_CRASH, ss->c.oom ? "out-of-memory" : exited0 ? "exited-without-answer"
                                                                                 : "ended-without-answer");
            tg_child_describe(&ss->c, r->v.detail, sizeof r->v.detail);
        }
        words_of(r, s);
        tg_sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    /* A whole answer: parse it. */
    const char *nl = memchr(ans.s, '\n', ans.len);
    size_t linelen = nl ? (size_t)(nl - ans.s) : (ans.len < 200 ? ans.len : 200);
    char first[512];
    snprintf(first, sizeof first, "%.*s", (int)(linelen < 500 ? linelen : 500), ans.s);
    oneline(first);
    char word[16] = "";        /* the answer's first word: ok, error or verdict (CONTRACTS.md section 2) */
    int at = 0;
    sscanf(first, "%15s %n", word, &at);
    if (strcmp(word, "verdict") == 0 && at > 0) {
        /* The program's verdict on its case (CONTRACTS.md section 2): the emulator's diagnostic, or
         * no usable device. Evidence that fails the case, never one that passes it. */
        tl_verdict got;
        if (tg_verdict_parse(ans.s + at, linelen - (size_t)at, &got) != 0 || got.kind == TL_V_NONE) {
            r->st = C_PROTO;
            tl_verdict_init(&r->v, TL_V_PROTOCOL, "bad-verdict");
            tl_verdict_set(r->v.detail, sizeof r->v.detail, first);
            words_of(r, s);
            tg_sess_end(g, ss, 0);
            tg_buf_free(&ans);
            return;
        }
        int nodev = got.kind == TL_V_ERROR && tl_verdict_pattern_is(&got, "no-device");
        if (nodev && R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && R->env.gpu_unknown) {
            /* Whether a device works is the grader's knowledge (run.c tried the reference on it):
             * the student's word counts only where the grader could not find out itself. */
            r->st = C_NODEV;
            tl_verdict_init(&r->v, TL_V_NOT_GRADED, "no-device");
        } else if (nodev) {
            r->st = C_ERROR;
            tl_verdict_init(&r->v, TL_V_ERROR, "no-device-claimed");
            snprintf(r->v.detail, sizeof r->v.detail, "%s",
                     !R->lab->gpu ? "this lab runs on the CPU" :
                     R->opt->emulate || !R->env.gpu_ok ? "it ran emulated on the CPU" : "the grader's reference ran on this device");
        } else if (got.kind == TL_V_EMULATOR && tl_verdict_pattern_is(&got, "not-supported") &&
                   unsupported_case(R, g, r, s, &got)) {
            tg_buf_free(&ans);
            return;
        } else {
            r->st = C_ERROR;
            r->v = got;
        }
        words_of(r, s);
        tg_buf_free(&ans);
        return;
    }
    if (strcmp(word, "error") == 0) {
        r->st = C_ERROR;
        tl_verdict_init(&r->v, TL_V_ERROR, "reported");
        tl_verdict_set(r->v.detail, sizeof r->v.detail, first + at);
        words_of(r, s);
        tg_buf_free(&ans);
        return;
    }
    double ms = -1;
    /* "ok MS" or "ok -", then under emulation " work L GLD GST SLD SST U H": the emulator's counts
     * of the checked run (CONTRACTS.md section 2), judged by judges.c against the lab. */
    char tbuf[64] = "", wbuf[16] = "";
    int wat = 0;
    int nf = strcmp(word, "ok") == 0 ? sscanf(first + at, "%63s %15s %n", tbuf, wbuf, &wat) : 0;
    if (nf == 2 && strcmp(wbuf, "work") == 0 && wat > 0) {
        tl_work_counts *w = &r->work;
        const char *wp = first + at + wat;
        char tail;
        r->have_work = sscanf(wp, "%llu %llu %llu %llu %llu %llu %llu %c", &w->launches, &w->global_loads,
                              &w->global_stores, &w->shared_loads, &w->shared_stores, &w->unchecked_launches,
                              &w->host_round_trips, &tail) == 7;
        if (!r->have_work)
            nf = 0;
    } else if (nf == 2) {
        nf = 0;
    }
    if (nf < 1 || !nl || (strcmp(tbuf, "-") != 0 && sscanf(tbuf, "%lf", &ms) != 1)) {
        r->st = C_PROTO;
        tl_verdict_init(&r->v, TL_V_PROTOCOL, "bad-answer");
        snprintf(r->v.detail, sizeof r->v.detail, "%.80s", first);
        words_of(r, s);
        tg_sess_end(g, ss, 0);
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
        tl_verdict_init(&r->v, TL_V_PROTOCOL, "unreadable-matrix");
        tl_verdict_set(r->v.detail, sizeof r->v.detail, err);
        words_of(r, s);
        tg_sess_end(g, ss, 0);
        tg_buf_free(&ans);
        return;
    }
    fclose(f);
    tg_buf_free(&ans);
    tg_sess_kept_inputs(ss, s);        /* an "ok" answer: the program read (or kept) this size's inputs */
    if (P.rows != s->m || P.cols != s->n) {
        r->st = C_PROTO;
        tl_verdict_init(&r->v, TL_V_PROTOCOL, "wrong-shape");
        r->v.row = P.rows;      /* the answer's shape */
        r->v.column = P.cols;
        words_of(r, s);
        tl_matrix_free(&P);
        return;
    }
    tg_judge_product(s, v, P.data, r);
    tl_matrix_free(&P);
}

void tg_judge_product(const gsize *s, const tl_lab_variant *v, const float *P, cres *r)
{
    tl_check_report rep;
    int bad = tl_check(P, s->ref, s->absref, s->m, s->n, s->k, v->tile, s->M.data, s->N.data, &rep);
    tl_check_verdict(&rep, &r->v);
    if (!bad) {
        r->st = C_PASS;
        words_of(r, s);
        return;
    }
    r->st = C_WRONG;
    words_of(r, s);
    /* the checker's teaching report, for people */
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
