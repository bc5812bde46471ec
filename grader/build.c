/* build.c: the builds: the kit built once per grading run (common/, the lab's lab.c, the emulator
 * runtime, the skeleton) in the sandbox at /kit and /build; per submission a copy of that build
 * where ninja compiles the student's files alone and links; the fall-back (no bubblewrap) that
 * configures and builds each submission from clean; the reference solution's build; the
 * compiler's first errors for the reports. */
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

#include <ftw.h>
#include <pthread.h>
#include <stdatomic.h>

#include "proc.h"
#include "grade.h"
#include "policy.h"
#include "sandbox.h"
#include "tilelab.h"

/* ------------------------------------------------------------------ a build, watched */

/* A build that uses no CPU for this long is stopped: a compiler blocked reading something that
 * never ends (a pipe, a device) costs the worker nothing but its wall clock, which it would hold
 * until BUILD_LIMIT_S. Under any load a compiler at work gains CPU time within seconds. */
#define BUILD_IDLE_S   30.0
#define BUILD_IDLE_CPU 0.05     /* CPU seconds over the idle time that still count as idle */

/* The idle time: BUILD_IDLE_S, or TL_GRADE_BUILD_IDLE_S (seconds, 2 to 300) from the instructor's
 * environment: the kit's tests shorten it so that their idle build costs seconds, not 30. The
 * student's code never sees tl-grade's environment (the sandbox's is scrubbed). */
static double build_idle_s(void)
{
    const char *e = getenv("TL_GRADE_BUILD_IDLE_S");
    char *end = NULL;
    double v = e && *e ? strtod(e, &end) : 0;
    return end && *end == '\0' && v >= 2 && v <= 300 ? v : BUILD_IDLE_S;
}

typedef struct idle_watch {
    pid_t       pid;
    atomic_int  stop, idle;     /* stop: the build ended; idle: we stopped it */
} idle_watch;

static void *watch_idle(void *arg)
{
    idle_watch *w = arg;
    double last = tg_tree_cpu_s(w->pid), since = tl_now_ms(), idle_s = build_idle_s();
    while (!atomic_load(&w->stop)) {
        /* a second between looks, in steps: the build's end is not kept waiting for the watcher's
         * sleep (on average half a second per ninja or meson call; the set-up makes four) */
        for (int step = 0; step < 20 && !atomic_load(&w->stop); ++step) {
            struct timespec ts = {0, 50 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        if (atomic_load(&w->stop))
            break;
        int busy = 0;
        double now = tg_tree_cpu_busy(w->pid, &busy);
        if (now < 0)
            break;
        /* idle is a tree that waits on something (a pipe, a device), not one waiting for a CPU: on a
         * machine at load 60 a niced compiler gains under 0.05 s in 8 s, yet it is runnable */
        if (now - last > BUILD_IDLE_CPU || busy) {
            last = now;
            since = tl_now_ms();
        } else if (tl_now_ms() - since >= idle_s * 1000.0) {
            atomic_store(&w->idle, 1);
            kill(-w->pid, SIGKILL);
            kill(w->pid, SIGKILL);
            break;
        }
    }
    return NULL;
}

/* tg_run_sandboxed for a build: also stopped after build_idle_s() without CPU, with that reason. */
static int run_build(const tg_iso *iso, const tg_spawn_opts *o, double limit_s, tg_buf *output, char *desc,
                     size_t desclen, char *err, size_t errlen)
{
    tg_child c;
    if (tg_spawn(&c, iso, o, err, errlen) != 0)
        return -1;
    idle_watch w = {.pid = c.pid};
    pthread_t th;
    int watching = pthread_create(&th, NULL, watch_idle, &w) == 0;
    int rc = tg_child_wait(&c, tl_now_ms() + limit_s * 1000.0);
    atomic_store(&w.stop, 1);
    if (watching)
        pthread_join(th, NULL);
    tg_child_kill(&c);
    if (output)
        tg_buf_add(output, c.cap.s ? c.cap.s : "", c.cap.len);
    if (c.out_total > c.cap.len && output)
        tg_buf_printf(output, "\n[... %llu more bytes of output dropped]\n", c.out_total - c.cap.len);
    tg_child_describe(&c, desc, desclen);
    if (atomic_load(&w.idle)) {
        snprintf(desc, desclen, "stopped: no CPU used for %.0f s (a compiler blocked reading a device, a pipe or "
                 "a file that never ends?)", build_idle_s());
        if (output)
            tg_buf_printf(output, "\nerror: the build was %s\n", desc);
    }
    int ok = rc == 0 && !c.timed_out && !atomic_load(&w.idle) && WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0;
    tg_child_free(&c);
    return ok ? 0 : 1;
}

/* ------------------------------------------------------------------ build */

void tg_first_errors(const tg_buf *log, tg_buf *out, int *warnings)
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
        /* a line shown already is left out: an emulated kernel in region form is compiled in three
         * copies (common/emu/tl-emu-region.c), each giving the same error at the student's line */
        int seen = out->s && strstr(out->s, line) != NULL;
        if ((strstr(line, "error") || strstr(line, "Error") || strstr(line, "ERROR") ||
             strstr(line, "undefined reference") || strstr(line, "multiple definition of")) && lines < 15 &&
            out->len < ERRORS_SHOWN && !seen) {
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

/* "dir/sub/tiled.cu(12): error: ..." or "../x/gmm.c:7:3: error: ..." from p (a line) to its end,
 * the path reduced to the file's name. */
static void name_only(const char *p, size_t l, char *out, size_t len)
{
    while (l && (*p == ' ' || *p == '\t')) {
        ++p;
        --l;
    }
    size_t cut = 0;
    for (size_t i = 0; i < l && p[i] != ':' && p[i] != '(' && p[i] != ' '; ++i)
        if (p[i] == '/')
            cut = i + 1;
    snprintf(out, len, "%.*s", (int)(l - cut > 400 ? 400 : l - cut), p + cut);
}

/* The file a linker line names, by its name: "dir/gmm.c.o: in function", "gmm.c:(.text+0x0)",
 * "dir/lab.c.o:dir/lab.c:40: first defined here" -> "gmm.c", "gmm.c", "lab.c:40". */
static void linker_file(const char *p, const char *end, char *out, size_t len)
{
    const char *q = p;   /* the segment ends at "(.text", a space or ';' */
    while (q < end && *q != '(' && *q != ' ' && *q != ';')
        ++q;
    char seg[512];
    snprintf(seg, sizeof seg, "%.*s", (int)(q - p < 511 ? q - p : 511), p);
    out[0] = '\0';
    char *save = NULL, *parts[8];
    int np = 0;
    for (char *t = strtok_r(seg, ":", &save); t && np < 8; t = strtok_r(NULL, ":", &save))
        parts[np++] = t;
    for (int i = np - 1; i >= 0; --i) {
        if (!strchr(parts[i], '.'))
            continue;                            /* a line number, or nothing */
        char *b = strrchr(parts[i], '/') ? strrchr(parts[i], '/') + 1 : parts[i];
        size_t l = strlen(b);
        if (l > 2 && strcmp(b + l - 2, ".o") == 0)
            b[l - 2] = '\0';                     /* gmm.c.o -> gmm.c */
        int line = i + 1 < np && parts[i + 1][0] >= '0' && parts[i + 1][0] <= '9' ? atoi(parts[i + 1]) : 0;
        if (line > 0)
            snprintf(out, len, "%.200s:%d", b, line);
        else
            snprintf(out, len, "%.200s", b);
        return;
    }
}

static void build_headline(const char *errs, char *out, size_t len, const char **pattern);

int tg_build_log_unsupported(const char *text, char *out, size_t len)
{
    static const char key[] = "not supported under emulation";
    const char *p = text ? strstr(text, key) : NULL;
    if (!p)
        return 0;
    const char *what = p + sizeof key - 1;
    while (*what == ':' || *what == ' ')
        ++what;
    size_t wl = strcspn(what, "\n");
    /* the words may follow what they name ("WHAT ... is not supported under emulation") */
    if (wl == 0) {
        const char *ls = p;
        while (ls > text && ls[-1] != '\n')
            --ls;
        what = ls;
        wl = (size_t)(p - ls);
        while (wl && (what[wl - 1] == ' ' || what[wl - 1] == ':'))
            --wl;
    }
    if (wl > 300)
        wl = 300;
    snprintf(out, len, "not supported under emulation: %.*s%s", (int)wl, what,
             memmem(what, wl, "valid CUDA", 10) ? "" : " (valid CUDA; on a GPU it runs)");
    return 1;
}

void tg_build_headline(const char *errs, char *out, size_t len)
{
    build_headline(errs, out, len, NULL);
}

void tg_build_verdict(const gsub *g, tl_verdict *v)
{
    const char *pattern = "compile-error";
    tl_verdict_init(v, TL_V_BUILD, "");
    build_headline(g->build_errors.s, v->detail, sizeof v->detail, &pattern);
    tl_verdict_set(v->pattern, sizeof v->pattern, g->fatal_warnings ? "fatal-warning" : pattern);
    v->count = g->fatal_warnings;
    /* "FILE:LINE: ..." (name_only cut the path): the place as fields */
    const char *colon = strchr(v->detail, ':');
    if (colon && colon[1] >= '0' && colon[1] <= '9' && (size_t)(colon - v->detail) < sizeof v->file &&
        !memchr(v->detail, ' ', (size_t)(colon - v->detail))) {
        snprintf(v->file, sizeof v->file, "%.*s", (int)(colon - v->detail), v->detail);
        v->line = atoi(colon + 1);
    }
}

static void build_headline(const char *errs, char *out, size_t len, const char **pattern)
{
    out[0] = '\0';
    if (!errs || !*errs)
        return;
    const char *md = strstr(errs, "multiple definition of `");
    if (md) {   /* "FILE:(.text+0x0): multiple definition of `SYM'; OTHER.o:OTHER:(...): first defined here" */
        const char *sym = md + 24, *se = strchr(sym, '\'');
        const char *ls = md;
        while (ls > errs && ls[-1] != '\n')
            --ls;
        while (*ls == ' ')
            ++ls;
        if (strncmp(ls, "/usr/bin/ld: ", 13) == 0)
            ls += 13;
        char here[256] = "", first[256] = "";
        linker_file(ls, md, here, sizeof here);
        const char *semi = strchr(md, ';'), *le = strchr(md, '\n');
        if (semi && (!le || semi < le)) {
            const char *f = semi + 1;
            while (*f == ' ')
                ++f;
            linker_file(f, le ? le : f + strlen(f), first, sizeof first);
        }
        snprintf(out, len, "duplicate symbol '%.*s': defined in %s%s%s%s (the linker: multiple definition): the kit "
                 "defines it already; remove yours, or rename it (or make it static)", se ? (int)(se - sym) : 60, sym,
                 here[0] ? here : "your file", first[0] ? " and already in " : "", first,
                 first[0] ? "" : " twice");
        if (pattern)
            *pattern = "duplicate-symbol";
        return;
    }
    const char *tw = strstr(errs, "\"TILE_WIDTH\" redefined");
    if (tw) {
        const char *ls = tw;
        while (ls > errs && ls[-1] != '\n')
            --ls;
        char where[256];
        name_only(ls, (size_t)(tw - ls), where, sizeof where);
        char *w = strstr(where, ": warning");
        if (w)
            *w = '\0';
        snprintf(out, len, "a redefined TILE_WIDTH: %s #defines it over the build's -DTILE_WIDTH (16, 32), so "
                 "every variant runs the tile width you wrote; remove the #define (or put it inside #ifndef "
                 "TILE_WIDTH)", where);
        if (pattern)
            *pattern = "tile-width-redefined";
        return;
    }
    /* the first error at a file and line ("x.cu(12): error", "x.c:7:3: error"), else the first error */
    const char *pick = NULL;
    for (int pass = 0; pass < 2 && !pick; ++pass)
        for (const char *p = errs; *p && !pick;) {
            const char *e = strchr(p, '\n');
            size_t l = e ? (size_t)(e - p) : strlen(p);
            char line[600];
            snprintf(line, sizeof line, "%.*s", (int)(l < 599 ? l : 599), p);
            const char *er = strstr(line, "error");
            if (!er)
                er = strstr(line, "undefined reference");
            int at_line = 0;
            for (const char *q = line; er && q < er && !at_line; ++q)
                at_line = (q[0] == ':' || q[0] == '(') && q[1] >= '0' && q[1] <= '9';
            if (er && (pass == 1 || at_line) && !strstr(line, "collect2") && !strstr(line, "ninja: build stopped"))
                pick = p;
            p = e ? e + 1 : p + l;
        }
    if (!pick)
        pick = errs;
    name_only(pick, strcspn(pick, "\n"), out, len);
}

/* The warnings about the student's own files in a build log, each "file:line: warning: text",
 * into shown (20 at most); those that change what the program means (a TILE_WIDTH redefined over
 * the build's -DTILE_WIDTH, a variable read before it is set) also into fatal with why. Returns
 * how many are fatal: the build then counts as failed. */
int tg_student_warnings(const tl_lab_info *lab, const tg_buf *log, tg_buf *shown, tg_buf *fatal)
{
    int nfatal = 0, nshown = 0;
    for (const char *p = log->s; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char line[600];
        size_t n = 0;
        for (size_t i = 0; i < l && n + 1 < sizeof line; ++i) {   /* colour escapes (ESC [ ... m/K) out */
            if (p[i] == '\033' && i + 1 < l && p[i + 1] == '[') {
                i += 2;
                while (i < l && !((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z')))
                    ++i;
                continue;
            }
            line[n++] = p[i];
        }
        line[n] = '\0';
        p = e ? e + 1 : p + l;
        if (!strstr(line, "warning"))
            continue;
        const char *file = NULL;
        for (int i = 0; i < TL_LAB_MAX_FILES && lab->files[i] && !file; ++i)
            file = strstr(line, lab->files[i]);
        if (!file)
            continue;
        while (file > line && file[-1] != '/' && file[-1] != ' ')
            --file;
        if (nshown++ < 20)
            tg_buf_printf(shown, "  %s\n", file);
        const char *why = NULL;
        if (strstr(line, "\"TILE_WIDTH\" redefined"))
            why = "the build defines TILE_WIDTH for each variant (-DTILE_WIDTH=16, 32): a #define of your own "
                  "replaces it, so the 32-wide variant runs 16-wide tiles and still passes; remove the #define "
                  "(or keep it inside #ifndef TILE_WIDTH)";
        else if (strstr(line, "may be used uninitialized") || strstr(line, "is used uninitialized") ||
                 strstr(line, "used before its value is set"))
            why = "a variable is read before it is set (an accumulator not set to 0?): the result is whatever "
                  "was in that register, right on one machine and wrong on another; initialise it";
        if (why) {
            tg_buf_printf(fatal, "  %s\n    a warning that changes what the program means, so a failure: %s\n", file,
                          why);
            ++nfatal;
        }
    }
    if (nshown > 20)
        tg_buf_printf(shown, "  ... and %d more\n", nshown - 20);
    return nfatal;
}

/* Copies a folder tree (the kit's build, per submission) with cp -a: the grader's own files. */
static int copy_tree(const char *from, const char *to, char *err, size_t errlen)
{
    tg_rmtree(to);
    const char *argv[] = {"/bin/cp", "-a", "--reflink=auto", from, to, NULL};
    if (tg_proc_run(argv, NULL) != 0) {
        snprintf(err, errlen, "cannot copy the kit's build %s to %s (cp -a failed)", from, to);
        return -1;
    }
    return 0;
}

/* The emulated program is built where the run grades emulated (no GPU, or --emulate) and, on a
 * GPU, for the labs whose work the grader judges (the lab table's work rule): there the emulator
 * counts what the student's kernels did on one small case (judges.c), which the GPU run cannot. */
static int want_emu_any(const grun *R)
{
    return R->lab->gpu && R->env.have_emu_target && R->lab->emu_target &&
           (!R->env.gpu_ok || R->opt->emulate || R->lab->work.kernel);
}

/* On a GPU whose counters ncu reads for every submission (TL_GRADE_NCU=1, and the reference's profiled
 * run passed: counters.c's policy) the twins are left out of a submission's build, and
 * tg_build_twins_late builds them for a file whose counters could not decide a variant. The kit's
 * build keeps them, so that late build compiles the student's file alone. By default they are built. */
static int deferred(const grun *R)
{
    return R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && R->env.ncu_ok && R->env.ncu_every &&
           R->lab->work.kernel;
}

static int want_emu(const grun *R)
{
    return want_emu_any(R) && !deferred(R);
}

/* The counting twin (labNN-emu-count: the same file built with every access counted) is built
 * where the work is judged; it runs that one case only (judges.c, work.c). */
static int want_count(const grun *R)
{
    return want_emu(R) && R->lab->work.kernel;
}

/* The targets a build makes: the lab's program, its emulated program (want_emu), and the
 * emulated program's counting twin (want_count); the kit's build (kit: 1) every twin the lab has. */
static char count_target[PATH_MAX];
static int targets(const grun *R, const char *out[4], int kit)
{
    int n = 0;
    out[n++] = R->env.no_nvcc ? "" : R->lab->binary;   /* "": no nvcc, no GPU program to compile */
    if (kit ? want_emu_any(R) : want_emu(R))
        out[n++] = R->lab->emu_binary;
    if (kit ? want_emu_any(R) && R->lab->work.kernel : want_count(R))
        out[n++] = tg_emu_count_name(R, 1, count_target, sizeof count_target);
    out[n] = NULL;
    return n;
}

/* The compute capabilities the kit's build compiles the student's kernels for: --gpu-archs; else
 * the GPU here (nvidia-smi), as one architecture costs about half the CPU time of the kit's
 * default three; with no GPU (emulated grading) one, as that program is a compile check only.
 * "" for a CPU lab, or when nothing is known (the kit's default). */
static void gpu_archs(const grun *R, char *out, size_t len)
{
    out[0] = '\0';
    if (!R->lab->gpu)
        return;
    if (R->opt->gpu_archs[0]) {
        snprintf(out, len, "%s", R->opt->gpu_archs);
        return;
    }
    if (R->opt->emulate || !R->env.gpu_ok || !R->env.iso.gpu_nodes) {
        snprintf(out, len, "90");
        return;
    }
    const char *argv[] = {"nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader", NULL};
    char line[64] = "";
    tg_proc_io io = {.out = TG_PROC_CAPTURE, .buf = line, .buflen = sizeof line, .err = TG_PROC_NULL, .search = 1};
    if (tg_proc_run(argv, &io) < 0)
        line[0] = '\0';
    size_t o = 0;
    for (const char *q = line; *q && *q != '\n' && o + 1 < len; ++q)
        if (*q >= '0' && *q <= '9')
            out[o++] = *q;
    out[o] = '\0';
    if (o < 2)
        out[0] = '\0';
}

/* ------------------------------------------------------------ the kit's build, cached by content
 * TL_GRADE_KIT_CACHE=DIR (the kit's own tests set it: one kit build shared by every grading run of
 * `./kit test`): the kit's build folder is kept in DIR under a key hashed from every file of the
 * pristine copy (path, mode, bytes), the setup's options, the tools' paths and the uid the sandbox
 * builds as (tg_spawn_uid_mode: the files are that uid's, writable by it alone); a later run with
 * the same key copies it instead of configuring and building again, and ninja then builds the
 * targets this run needs that the entry lacks (another lab of the same kit and options: its lab's
 * units and links only, not the emulator's runtime and the kit's libraries again: lab 03's after
 * lab 02's 3.0 CPU-s instead of 14.2, tests/bench/README.md, session 13); the entry is then
 * replaced by the larger build. Nothing of a student is in it (the skeletons alone are built). The
 * pristine copy keeps the kit's file times, so the copied build is up to date over it; a file that
 * changes changes the key. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static uint64_t tree_sum;
static size_t tree_root_len;
static int tree_fail;
static int hash_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)ftw;
    if (flag != FTW_F)
        return 0;
    const char *rel = path + tree_root_len;   /* the path within the kit, not where this run keeps it */
    uint64_t h = fnv(1469598103934665603ULL, rel, strlen(rel) + 1);
    unsigned mode = (unsigned)(st->st_mode & 0777);
    h = fnv(h, &mode, sizeof mode);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        tree_fail = 1;
        return 1;
    }
    char buf[65536];
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0)
        h = fnv(h, buf, (size_t)r);
    close(fd);
    if (r < 0)
        tree_fail = 1;
    tree_sum += h * 0x9E3779B97F4A7C15ULL + (h >> 29);   /* order-free: readdir's order may differ */
    return r < 0;
}

/* The cache entry's path for this run's kit build, or "" (no TL_GRADE_KIT_CACHE, or unreadable). */
static void kit_cache_path(grun *R, const char *const *setup, int uid_mode, char *out, size_t len)
{
    out[0] = '\0';
    const char *dir = getenv("TL_GRADE_KIT_CACHE");
    if (!dir || !*dir)
        return;
    tree_sum = 0;
    tree_fail = 0;
    tree_root_len = strlen(R->run.pristine);
    if (nftw(R->run.pristine, hash_one, 16, FTW_PHYS) != 0 || tree_fail)
        return;
    uint64_t h = fnv(1469598103934665603ULL, &tree_sum, sizeof tree_sum);
    for (int i = 0; setup[i]; ++i)
        h = fnv(h, setup[i], strlen(setup[i]) + 1);
    h = fnv(h, R->env.tool_path, strlen(R->env.tool_path) + 1);
    h = fnv(h, R->env.ninja, strlen(R->env.ninja) + 1);
    h = fnv(h, &uid_mode, sizeof uid_mode);
    snprintf(out, len, "%s/kit-%016llx", dir, (unsigned long long)h);
}


void tg_build_kit(grun *R)
{
    R->run.kit_build[0] = '\0';
    if (!R->env.iso.bwrap) {
        snprintf(R->run.kit_build_why, sizeof R->run.kit_build_why, "no bubblewrap: each submission is configured and "
                 "built from clean (the kit's build needs its fixed paths /kit and /build)");
        return;
    }
    char bdir[PATH_MAX + 16];
    snprintf(bdir, sizeof bdir, "%s/kitbuild", R->run.state);
    tg_rmtree(bdir);
    if (tg_mkdirs(bdir, 0700) != 0) {
        snprintf(R->run.kit_build_why, sizeof R->run.kit_build_why, "cannot make %s (%s)", bdir, strerror(errno));
        return;
    }
    tg_buf log = {0};
    char desc[200], err[600];
    const char *cuda = R->lab->gpu && !R->env.no_nvcc ? "-Dcuda=enabled" : "-Dcuda=disabled";
    char archs[80], archs_opt[100];
    gpu_archs(R, archs, sizeof archs);
    snprintf(archs_opt, sizeof archs_opt, "-Dgpu_archs=%s", archs);
    /* -Dyardstick=disabled: no cuBLAS (0.6 GB loaded by every session) for a variant no test runs */
    const char *setup[] = {R->env.meson, "setup", "--buildtype=debugoptimized", "-Dtests=false", cuda,
                           "-Dyardstick=disabled", "/build", "/kit", archs[0] ? archs_opt : NULL, NULL};
    /* Once for the run, before any worker: as many compilers at once as --jobs (at most 16), each
     * given 1 GiB (nvcc's cicc on a kit file takes up to about that) */
    int kj = R->opt->jobs < 2 ? 2 : R->opt->jobs > 16 ? 16 : R->opt->jobs;
    char kjs[8];
    snprintf(kjs, sizeof kjs, "%d", kj);
    tg_spawn_opts o = {.argv = setup, .sandbox_cwd = "/tmp", .max_tasks = 512,
                       .mem_bytes = tg_mem_limit(&R->env.iso, kj > 8 ? (long long)kj << 30 : 8LL << 30, 1),
                       .fsize_bytes = 512LL << 20, .tmp_bytes = 512LL << 20,
                       .extra_path = R->env.tool_path[0] ? R->env.tool_path : NULL};
    o.ro[0] = (tg_bind){R->run.pristine, "/kit"};
    o.rw[0] = (tg_bind){bdir, "/build"};
    const char *tg[4];
    targets(R, tg, 1);
    char cached[PATH_MAX + 64];
    /* The uid this run's builds write as (the drop to 65534 where the out folder is within its reach,
     * else root without capabilities in a user namespace) owns every file of the build: an entry
     * built in one mode cannot be written over in the other (Permission denied on the student's
     * objects, every test 0), so each mode keys its own. */
    kit_cache_path(R, setup, tg_spawn_uid_mode(&R->env.iso, &o), cached, sizeof cached);
    int hit = cached[0] && tg_is_dir(cached) && copy_tree(cached, bdir, err, sizeof err) == 0, lacks = 0;
    if (hit) {
        tg_buf_printf(&log, "the kit's build copied from %s (TL_GRADE_KIT_CACHE: same sources, options and "
                      "tools); this run's targets built over it\n", cached);
        for (int i = 0; tg[i]; ++i) {
            char t[PATH_MAX + 64];
            snprintf(t, sizeof t, "%s/%s", bdir, tg[i]);
            lacks |= *tg[i] && !tg_is_file(t);
        }
    } else if (cached[0] && tg_is_dir(bdir) && tg_rmtree(bdir) == 0) {   /* a copy that failed half-way */
        tg_mkdirs(bdir, 0700);
    }
    int rc = hit ? 0 : run_build(&R->env.iso, &o, BUILD_LIMIT_S, &log, desc, sizeof desc, err, sizeof err);
    /* every target in one ninja call: their steps share the compilers (one call each built them one
     * target after the other: 2.0 + 2.4 + 0.5 s on the H100, device run gpu-1) */
    const char *ninja[4 + 4 + 1] = {R->env.ninja, "-C", "/build", "-j", kjs};
    int na = 5;
    for (int i = 0; tg[i] && na < 4 + 4; ++i)
        if (*tg[i])
            ninja[na++] = tg[i];
    ninja[na] = NULL;
    if (rc == 0 && na > 5) {
        o.argv = ninja;
        rc = run_build(&R->env.iso, &o, BUILD_LIMIT_S, &log, desc, sizeof desc, err, sizeof err);
    }
    char lp[PATH_MAX + 32];
    snprintf(lp, sizeof lp, "%s/kitbuild.log", R->run.state);
    tg_write_atomic(lp, log.s ? log.s : "", log.len);
    tg_buf_free(&log);
    if (rc != 0) {
        snprintf(R->run.kit_build_why, sizeof R->run.kit_build_why, "the kit itself (its skeletons, no student file) does "
                 "not build here (%s); see %s: a file the build needs that git does not track?", rc < 0 ? err : desc, lp);
        return;
    }
    snprintf(R->run.kit_build, sizeof R->run.kit_build, "%s", bdir);
    snprintf(R->run.kit_archs, sizeof R->run.kit_archs, "%s", archs);
    if (cached[0] && (!hit || lacks)) {   /* kept for the next run: a whole copy, then one rename */
        char tmp[PATH_MAX + 96], old[PATH_MAX + 96];
        snprintf(tmp, sizeof tmp, "%s.tmp%ld", cached, (long)getpid());
        snprintf(old, sizeof old, "%s.old%ld", cached, (long)getpid());
        tg_mkdirs(getenv("TL_GRADE_KIT_CACHE"), 0700);
        /* a larger build (this run's targets over the entry's) takes the entry's place: moved aside,
         * then the new one renamed in (a run copying the old one meanwhile fails its copy and
         * builds from clean: slower, the same build) */
        if (hit && rename(cached, old) != 0)
            old[0] = '\0';
        if (copy_tree(bdir, tmp, err, sizeof err) != 0 || rename(tmp, cached) != 0)
            tg_rmtree(tmp);            /* another run kept a build there first: it serves as well */
        if (old[0])
            tg_rmtree(old);
    }
}

/* In a copy of the kit's build, deletes what was made from the student's files (objects such as
 * tiled.cu.o, the emulator's rewritten tiled.emu.cpp and its object): ninja then rebuilds them
 * because they are missing, whatever the files' times say. */
static const tl_lab_info *stale_lab;
static int remove_stale(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    if (flag != FTW_F)
        return 0;
    const char *base = path + ftw->base;
    if (strncmp(base, "meson-generated_", 16) == 0)
        base += 16;
    for (int i = 0; i < TL_LAB_MAX_FILES && stale_lab->files[i]; ++i) {
        size_t stem = strcspn(stale_lab->files[i], ".");
        if (strncmp(base, stale_lab->files[i], stem) == 0 && base[stem] == '.') {
            unlink(path);
            break;
        }
    }
    return 0;
}

/* Over the kit built once: a private copy of its build folder at /build, the pristine kit
 * read-only at /kit with the student's files bound read-only over their places; ninja then
 * compiles those files alone (they are newer than every object) and links. */
/* The rewrite's record of what emulation cannot run (common/emu/tl-emu-unsupported.c): a file in
 * the build folder that only the rewrite writes (no student code runs in a build), named to it by
 * TL_EMU_UNSUPPORTED; removed before each emulated build, read after it. */
#define TG_EMU_REFUSED ".tl-emu-unsupported"

static void refused_path(const char *build, char *out, size_t len)
{
    snprintf(out, len, "%s/" TG_EMU_REFUSED, build);
}

/* After an emulated twin's build (erc its result; tg_twin_outcome decides what it means): where the
 * run grades emulated (no GPU, or --emulate) the emulated program is the build the tests need, so
 * its failure is the student's build failure (its log joins the build's, whose first errors the
 * report quotes: returns 1); on a GPU, and for the counting twin anywhere, a failure fails the
 * work-dependent tests (g->twin_failed). Valid CUDA the rewrite refused is "not supported". */
static int emu_failed(grun *R, gsub *g, tg_buf *log, const tg_buf *elog, int erc, int rc, int count,
                      const char *host_build)
{
    char rpath[PATH_MAX + 32];
    refused_path(host_build, rpath, sizeof rpath);
    char *refused = erc > 0 && tg_is_file(rpath) ? tg_read_file(rpath, 8192, NULL) : NULL;
    int o = tg_twin_outcome(R, g, count, erc, refused, elog);
    free(refused);
    if (o == TG_TWIN_BUILD_FAILED) {
        tg_buf_printf(log, "\nthe emulated build (%s), which grades this lab here (no GPU used), failed:\n",
                      R->lab->emu_target);
        if (elog->s)
            tg_buf_add(log, elog->s, elog->len);
        return 1;
    }
    return rc;
}

/* Runs one emulated twin's build with the rewrite's record named to it (inside the sandbox: inside). */
static int emu_build(grun *R, tg_spawn_opts *o, const char *host_build, const char *inside, tg_buf *elog, char *desc,
                     size_t desclen)
{
    char rpath[PATH_MAX + 32], env[PATH_MAX + 64];
    refused_path(host_build, rpath, sizeof rpath);
    unlink(rpath);
    snprintf(env, sizeof env, "TL_EMU_UNSUPPORTED=%s/" TG_EMU_REFUSED, inside);
    const char *keep = o->env[0];
    o->env[0] = env;
    char e2[300];
    int erc = run_build(&R->env.iso, o, BUILD_LIMIT_S, elog, desc, desclen, e2, sizeof e2);
    o->env[0] = keep;
    if (erc < 0 && elog)
        tg_buf_printf(elog, "%s\n", e2);
    return erc;
}

/* The sandbox of a build over the kit's: the pristine kit at /kit with the student's files over
 * their places, the submission's copy of the kit's build at /build. */
typedef struct over_kit {
    tg_spawn_opts o;
    const char   *ninja[7];
    char          host[TL_LAB_MAX_FILES][PATH_MAX + 300], inside[TL_LAB_MAX_FILES][PATH_MAX];
} over_kit;

static void over_kit_opts(grun *R, gsub *g, over_kit *k, const char *target)
{
    memset(k, 0, sizeof *k);
    const char *ninja[] = {R->env.ninja, "-C", "/build", "-j", "2", target, NULL};
    memcpy(k->ninja, ninja, sizeof ninja);
    k->o = (tg_spawn_opts){.argv = k->ninja, .sandbox_cwd = "/tmp", .max_tasks = 512,
                           .mem_bytes = tg_mem_limit(&R->env.iso, SUB_BUILD_MEM, R->opt->jobs), .cpu_seconds = SUB_BUILD_CPU_S,
                           .fsize_bytes = 512LL << 20, .tmp_bytes = 512LL << 20,
                           .extra_path = R->env.tool_path[0] ? R->env.tool_path : NULL,
                           /* on a GPU, below the timed runs that may be running beside it */
                           .nice = R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && R->env.iso.gpu_nodes ? TG_GPU_BUILD_NICE : 0};
    k->o.ro[0] = (tg_bind){R->run.pristine, "/kit"};
    for (int i = 0, n = 1; i < TL_LAB_MAX_FILES && R->lab->files[i] && n < 8; ++i) {
        snprintf(k->host[i], sizeof k->host[i], "%s/%s", g->files, R->lab->files[i]);
        if (!tg_is_file(k->host[i]))
            continue;                  /* missing: the kit's skeleton stays in its place */
        snprintf(k->inside[i], sizeof k->inside[i], "/kit/labs/%s/%s", R->lab->dir, R->lab->files[i]);
        k->o.ro[n++] = (tg_bind){k->host[i], k->inside[i]};
    }
    k->o.rw[0] = (tg_bind){g->build, "/build"};
}

/* The emulated program (labNN-emu) itself: graded emulated it runs every test; on a GPU only the
 * safety tests where compute-sanitizer is missing (tg_judge_safety); else nothing runs it (the work
 * count and UB check run the counting twin): not built (issue 29: 2.0 of a lab 03 build's 4.8 CPU-s). */
static int want_emu_program(const grun *R)
{
    return !(R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && R->env.sanitizer[0]);
}

int tg_build_twin_plan(const grun *R)
{
    if (!want_emu_any(R))
        return 0;
    return (want_emu_program(R) ? TG_TWINS_PROGRAM : 0) | (R->lab->work.kernel ? TG_TWINS_COUNT : 0) |
           (deferred(R) ? TG_TWINS_LATE : 0);
}

/* The emulated program (want_emu_program), then its counting twin (only once the program built,
 * where it is built), over a build that holds the GPU program's (or none): o runs ninja with argv[5]
 * the target (inside: the build folder as the build sees it). */
static int build_twins(grun *R, gsub *g, tg_spawn_opts *o, const char **argv5, const char *inside, tg_buf *log,
                       char *desc, size_t desclen, int rc)
{
    int program = want_emu_program(R);
    if (program) {
        *argv5 = R->lab->emu_binary;
        tg_buf elog = {0};
        int erc = emu_build(R, o, g->build, inside, &elog, desc, desclen);
        rc = emu_failed(R, g, log, &elog, erc, rc, 0, g->build);
        tg_buf_free(&elog);
    }
    if (rc == 0 && (g->emu_built || !program) && R->lab->work.kernel) {
        *argv5 = tg_emu_count_name(R, 1, count_target, sizeof count_target);
        tg_buf clog = {0};
        char d2[200];
        int crc = emu_build(R, o, g->build, inside, &clog, d2, sizeof d2);
        emu_failed(R, g, log, &clog, crc, rc, 1, g->build);
        tg_buf_free(&clog);
    }
    return rc;
}

static int build_over_kit(grun *R, gsub *g, tg_buf *log, char *desc, size_t desclen, char *err, size_t errlen)
{
    if (copy_tree(R->run.kit_build, g->build, err, errlen) != 0)
        return -1;
    char labs[PATH_MAX + 16];
    snprintf(labs, sizeof labs, "%s/labs", g->build);
    stale_lab = R->lab;
    nftw(labs, remove_stale, 16, FTW_PHYS);
    const char *tg[4];
    targets(R, tg, 0);
    static over_kit k;                 /* (large: its paths) */
    over_kit_opts(R, g, &k, tg[0]);
    int rc = *tg[0] ? run_build(&R->env.iso, &k.o, BUILD_LIMIT_S, log, desc, desclen, err, errlen) : 0;
    if (!*tg[0])
        snprintf(desc, desclen, "the emulated build");
    if (rc == 0 && tg[1])
        rc = build_twins(R, g, &k.o, &k.ninja[5], "/build", log, desc, desclen, rc);
    return rc;
}

static int finish_build(grun *R, gsub *g, tg_buf *logp, const char *desc, int rc, char *err, size_t errlen);

int tg_build_submission(grun *R, gsub *g, char *err, size_t errlen)
{
    tg_buf log = {0};
    char desc[200];
    if (R->run.kit_build[0]) {
        int rc = build_over_kit(R, g, &log, desc, sizeof desc, err, errlen);
        return finish_build(R, g, &log, desc, rc, err, errlen);
    }
    const char *cuda = R->lab->gpu && !R->env.no_nvcc ? "-Dcuda=enabled" : "-Dcuda=disabled";
    const char *setup[] = {R->env.meson, "setup", "--buildtype=debugoptimized", "-Dtests=false", cuda,
                           "-Dyardstick=disabled", g->build, g->kit, NULL};
    tg_spawn_opts o = {.argv = setup, .host_cwd = g->kit, .sandbox_cwd = NULL, .max_tasks = 512,
                       .mem_bytes = tg_mem_limit(&R->env.iso, SUB_BUILD_MEM, R->opt->jobs), .cpu_seconds = SUB_BUILD_CPU_S,
                       .fsize_bytes = 512LL << 20, .tmp_bytes = 512LL << 20,
                       .extra_path = R->env.tool_path[0] ? R->env.tool_path : NULL};
    o.rw[0] = (tg_bind){g->work, g->work};
    int rc = run_build(&R->env.iso, &o, BUILD_LIMIT_S, &log, desc, sizeof desc, err, errlen);
    if (rc == 0) {
        /* ninja names a target by its output path: labs/01-cpu-baseline/lab01 */
        const char *ninja[] = {R->env.ninja, "-C", g->build, "-j", "2", R->lab->binary, NULL};
        o.argv = ninja;
        if (!R->env.no_nvcc)
            rc = run_build(&R->env.iso, &o, BUILD_LIMIT_S, &log, desc, sizeof desc, err, errlen);
        if (rc == 0 && want_emu(R)) {
            const char *ninja_emu[] = {R->env.ninja, "-C", g->build, "-j", "2", "", NULL};
            o.argv = ninja_emu;
            rc = build_twins(R, g, &o, &ninja_emu[5], g->build, &log, desc, sizeof desc, rc);
        }
    }
    return finish_build(R, g, &log, desc, rc, err, errlen);
}

void tg_build_twins_late(grun *R, gsub *g)
{
    if (g->twins_tried || !g->built || !deferred(R) || !want_emu_any(R) || R->opt->prebuilt[0] || R->opt->build_log[0])
        return;
    g->twins_tried = 1;
    char stage[64];                    /* the run's profile: this is build time */
    tg_stage_name(stage, sizeof stage);
    int stage_kind = tg_stage_kind();
    tg_stage(TG_PROF_BUILD, "build (emulated twins, late)");
    double t0 = tl_now_ms();
    tg_buf log = {0};
    char desc[200];
    if (R->run.kit_build[0]) {
        static over_kit k;
        over_kit_opts(R, g, &k, "");
        build_twins(R, g, &k.o, &k.ninja[5], "/build", &log, desc, sizeof desc, 0);
    } else {
        const char *ninja[] = {R->env.ninja, "-C", g->build, "-j", "2", "", NULL};
        tg_spawn_opts o = {.argv = ninja, .host_cwd = g->kit, .sandbox_cwd = NULL, .max_tasks = 512,
                           .mem_bytes = tg_mem_limit(&R->env.iso, SUB_BUILD_MEM, R->opt->jobs), .cpu_seconds = SUB_BUILD_CPU_S,
                           .fsize_bytes = 512LL << 20, .tmp_bytes = 512LL << 20,
                           .extra_path = R->env.tool_path[0] ? R->env.tool_path : NULL};
        o.rw[0] = (tg_bind){g->work, g->work};
        build_twins(R, g, &o, &ninja[5], g->build, &log, desc, sizeof desc, 0);
    }
    /* kept beside the build's log: the twins' words are the instructor's to read */
    char lp[PATH_MAX + 32];
    snprintf(lp, sizeof lp, "%s/emu-build.log", g->odir);
    tg_write_atomic(lp, log.s ? log.s : "", log.len);
    tg_buf_free(&log);
    tg_buf_printf(&g->notes, "the emulated twins of this file were built late (%.1f s): for the undefined-behaviour "
                  "check (one small ragged size run emulated), and where the GPU's counters could not decide a "
                  "variant's work\n", (tl_now_ms() - t0) / 1000.0);
    tg_stage(stage_kind, "%s", stage);
}

/* The log kept, the compiler's first errors quoted; a missing tool is the grader's problem. */
static int finish_build(grun *R, gsub *g, tg_buf *logp, const char *desc, int rc, char *err, size_t errlen)
{
    tg_buf log = *logp;
    if (rc < 0) {
        tg_buf_free(&log);
        return -1;
    }
    char logpath[PATH_MAX + 16];
    snprintf(logpath, sizeof logpath, "%s/build.log", g->odir);
    tg_write_atomic(logpath, log.s ? log.s : "", log.len);
    tg_first_errors(&log, &g->build_errors, &g->warnings);
    snprintf(g->log_path, sizeof g->log_path, "%s", logpath);
    if (rc == 0 && (g->fatal_warnings = tg_student_warnings(R->lab, &log, &g->warn_lines, &g->build_errors)) > 0)
        rc = 1;        /* a warning that changes the meaning: the build counts as failed */
    if (rc != 0 && strstr(desc, "wall-clock"))
        tg_buf_printf(&g->build_errors, "  the build was killed at the %.0f s limit\n", BUILD_LIMIT_S);
    else if (rc != 0 && log.s && (strstr(log.s, "signal 9") || strstr(log.s, "signal 24") || strstr(log.s, "Killed") ||
                                  strstr(log.s, "memory exhausted") || strstr(log.s, "out of memory") ||
                                  strstr(log.s, "CPU time limit")))
        tg_buf_printf(&g->build_errors, "  the compiler was stopped by the build limits (%d CPU seconds per compiler "
                      "process, %lld MiB of memory): a macro that expands without end?\n", SUB_BUILD_CPU_S,
                      tg_mem_limit(&R->env.iso, SUB_BUILD_MEM, R->opt->jobs) >> 20);
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


/* The reference solution, built from the instructor's tree into the grader's private state. */
void tg_build_reference(grun *R)
{
    char sol[PATH_MAX + 64];
    snprintf(sol, sizeof sol, "%s/solutions/%s", R->opt->root, R->lab->dir);
    if (!tg_is_dir(sol)) {
        snprintf(R->run.ref_why, sizeof R->run.ref_why, "no %s in the kit (the student edition has none)", sol);
        return;
    }
    char bdir[PATH_MAX + 16];
    snprintf(bdir, sizeof bdir, "%s/refbuild", R->run.state);
    /* meson setup (unless configured already), then ninja, both into refbuild.log (made afresh) */
    char log[PATH_MAX + 32], ninja_file[PATH_MAX + 32];
    snprintf(log, sizeof log, "%s/refbuild.log", R->run.state);
    snprintf(ninja_file, sizeof ninja_file, "%s/build.ninja", bdir);
    tg_proc_io io = {.out = TG_PROC_FILE, .err = TG_PROC_FILE, .path = log};
    const char *setup[] = {R->env.meson, "setup", "--buildtype=debugoptimized", "-Dtests=false",
                           R->lab->gpu ? "-Dcuda=enabled" : "-Dcuda=disabled", "-Dyardstick=disabled", bdir,
                           R->opt->root, NULL};
    int rc = 0;
    if (!tg_is_file(ninja_file))
        rc = tg_proc_run(setup, &io);
    else if ((rc = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) >= 0)
        rc = close(rc);                /* configured already: the log made afresh all the same */
    const char *ninja[] = {R->env.ninja, "-C", bdir, R->lab->ref_binary, NULL};
    io.append = 1;
    if (rc == 0)
        rc = tg_proc_run(ninja, &io);
    if (rc != 0) {
        snprintf(R->run.ref_why, sizeof R->run.ref_why, "the reference build failed; see %s/refbuild.log", R->run.state);
        return;
    }
    snprintf(R->run.ref_build, sizeof R->run.ref_build, "%s", bdir);
}
