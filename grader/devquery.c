/* devquery.c: lab 02's device query judged (TL_TEST_DEVFACTS). The student's `lab02 --serve` is asked
 * `facts` on fd 3 and answers on fd 4 with what print_device_facts wrote to its FILE* (driver.c);
 * the expected facts come from the kit's own query in a process of its own, `tl-device --facts`
 * (the CUDA runtime), or `tl-device-emu --facts` (the emulator's device model) when the lab runs
 * emulated, both built beside tl-grade. Each fact is compared by tl_facts_compare (devfacts.c):
 * integers exactly, the peak bandwidth within TL_FACTS_BW_TOL. What the program prints on stdout
 * is evidence only. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade.h"
#include "verdict_read.h"
#include "tilelab.h"

#define FACTS_SHOWN 16     /* lines of the student's answer quoted when a fact is wrong */

/* The lab program to ask, as binary_for in judges.c chooses it: kit check's prebuilt program, the
 * GPU build, or the emulated build. NULL with why when there is none. */
static const char *facts_binary(grun *R, gsub *g, int *emulated, char *why, size_t whylen)
{
    *emulated = 0;
    if (R->opt->prebuilt[0]) {
        *emulated = R->lab->gpu && R->opt->emulate;
        return strrchr(R->opt->prebuilt, '/') + 1;
    }
    if (R->env.gpu_ok && !R->opt->emulate)
        return R->lab->binary;
    if (g->emu_built && R->lab->emu_binary) {
        *emulated = 1;
        return R->lab->emu_binary;
    }
    snprintf(why, whylen, "not graded: no usable CUDA device (%s) and no emulated build (%s)", R->env.gpu_why,
             R->lab->emu_target ? R->lab->emu_target : "none");
    return NULL;
}

/* The kit's own query: build/common/tl-device[-emu] beside this tl-grade (build/grader/tl-grade),
 * run sandboxed like any program that touches the GPU. 0 with *want filled; -1 with why. */
static int kit_facts(grun *R, gsub *g, int emulated, const char *model, tl_facts *want, char *why, size_t whylen)
{
    char self[PATH_MAX], dir[PATH_MAX], host[PATH_MAX + 32], inside[64];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(why, whylen, "not graded (grader problem): cannot find tl-grade's own build (/proc/self/exe)");
        return -1;
    }
    self[n] = '\0';
    snprintf(dir, sizeof dir, "%s", self);
    for (int up = 0; up < 2; ++up) {        /* .../build/grader/tl-grade -> .../build */
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
    }
    strncat(dir, "/common", sizeof dir - strlen(dir) - 1);
    const char *tool = emulated ? "tl-device-emu" : "tl-device";
    snprintf(host, sizeof host, "%s/%s", dir, tool);
    if (access(host, X_OK) != 0) {
        snprintf(why, whylen, "not graded (grader problem): the kit's device query %s is not built (ninja -C "
                 "BUILD common/%s; ./kit check and ./kit grade build it)", host, tool);
        return -1;
    }
    snprintf(inside, sizeof inside, "/kit-tools/%s", tool);
    char casedir[PATH_MAX];
    snprintf(casedir, sizeof casedir, "%s/case", g->work);
    tg_rmtree(casedir);
    tg_mkdirs(casedir, 0700);
    const char *argv[] = {R->env.iso.bwrap ? inside : host, "--facts", NULL};
    tg_spawn_opts o = {.argv = argv, .host_cwd = casedir, .sandbox_cwd = "/tmp/case", .gpu = !emulated,
                       .max_tasks = 64, .mem_bytes = tg_mem_limit(&R->env.iso, 2LL << 30, R->opt->jobs),
                       .fsize_bytes = 16LL << 20, .tmp_bytes = 64LL << 20, .seccomp_net = 1,
                       .emu_model = model};
    o.ro[0] = (tg_bind){dir, "/kit-tools"};
    tg_buf text = {0};
    char desc[200], err[600];
    int rc = tg_run_sandboxed(&R->env.iso, &o, R->lab->case_limit_s, &text, desc, sizeof desc, err, sizeof err);
    int found = rc == 0 ? tl_facts_parse(text.s ? text.s : "", text.len, want) : 0;
    if (found)
        tl_facts_derive(want);   /* the bandwidth unrounded, from the clock and the bus width */
    if (rc != 0 || found == 0) {
        /* its own first line says why (no usable CUDA device, with the code) */
        const char *first = text.s ? text.s : "";
        snprintf(why, whylen, "not graded: the kit's own device query %s gave no facts (%s)%s%.*s", tool,
                 rc < 0 ? err : desc, *first ? ": " : "", (int)strcspn(first, "\n"), first);
        tg_buf_free(&text);
        return -1;
    }
    tg_buf_free(&text);
    return 0;
}

/* The answer is whole: an "error" line, or "facts LEN" and LEN bytes. */
static int facts_complete(const tg_buf *a, void *ctx)
{
    (void)ctx;
    const char *nl = a->len ? memchr(a->s, '\n', a->len) : NULL;
    if (!nl)
        return a->len > 256;
    size_t line = (size_t)(nl - a->s) + 1;
    unsigned long need;
    char word[8];
    if (sscanf(a->s, "%7s %lu", word, &need) != 2 || strcmp(word, "facts") != 0 || need > TL_FACTS_MAX_TEXT)
        return 1;
    return a->len >= line + need;
}

static void facts_once(grun *R, gsub *g, tres *tr, const char *model)
{
    int emulated;
    char why[700] = "";
    const char *bin = facts_binary(R, g, &emulated, why, sizeof why);
    tl_facts want, got;
    if (!bin || kit_facts(R, g, emulated, model, &want, why, sizeof why) != 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "%s\n", why);
        return;
    }
    /* The student's program, sandboxed as for a case: `--serve`, then `facts` on fd 3. */
    char path[PATH_MAX + 16], casedir[PATH_MAX], err[600];
    snprintf(path, sizeof path, "%s/%s", R->env.iso.bwrap ? "/build" : g->build, bin);
    snprintf(casedir, sizeof casedir, "%s/case", g->work);
    tg_rmtree(casedir);
    tg_mkdirs(casedir, 0700);
    const char *argv[] = {path, "--serve", NULL};
    tg_spawn_opts o = {.argv = argv, .host_cwd = casedir, .sandbox_cwd = "/tmp/case", .serve = 1,
                       .gpu = R->lab->gpu && !emulated, .max_tasks = 64,
                       .mem_bytes = tg_mem_limit(&R->env.iso, emulated ? (2LL << 30) : (8LL << 30), R->opt->jobs),
                       .fsize_bytes = 16LL << 20, .tmp_bytes = 64LL << 20,
                       .extra_path = R->env.tool_path[0] ? R->env.tool_path : NULL, .seccomp_net = 1,
                       .emu_model = model};
    o.ro[0] = (tg_bind){g->build, "/build"};
    tg_child c;
    memset(&c, 0, sizeof c);
    if (tg_spawn(&c, &R->env.iso, &o, err, sizeof err) != 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded (grader problem): %s\n", err);
        return;
    }
    tr->graded = 1;
    tg_buf ans = {0};
    int rc = tg_child_exchange(&c, "facts\n", 6, &ans, TL_FACTS_MAX_TEXT + 256, facts_complete, NULL,
                               tl_now_ms() + R->lab->case_limit_s * 1000.0);
    const char *text = NULL;
    size_t tlen = 0;
    char fail[700] = "", word[16] = "";
    int at = 0;
    const char *nl = ans.len ? memchr(ans.s, '\n', ans.len) : NULL;
    if (rc == 0 && nl)
        sscanf(ans.s, "%15s %n", word, &at);      /* the answer's first word (CONTRACTS.md section 2) */
    tl_verdict said;
    if (rc == 0 && nl && strcmp(word, "facts") == 0) {
        text = nl + 1;
        tlen = ans.len - (size_t)(text - ans.s);
    } else if (rc == 0 && nl && strcmp(word, "verdict") == 0 && at > 0 &&
               tg_verdict_parse(ans.s + at, (size_t)(nl - ans.s - at), &said) == 0) {
        snprintf(fail, sizeof fail, "the program answered '%s: %.400s'", said.pattern, said.detail);
        if (tl_verdict_pattern_is(&said, "no-device"))
            snprintf(fail, sizeof fail, "the program answered that it has no usable CUDA device, %s",
                     emulated ? "but it ran emulated" : "but the kit's own query found this device");
    } else if (rc == 0 && nl && strcmp(word, "error") == 0) {
        snprintf(fail, sizeof fail, "the program answered '%.*s'", (int)strcspn(ans.s, "\n"), ans.s);
    } else if (rc == 2) {
        snprintf(fail, sizeof fail, "no answer within the %.0f s wall-clock limit: the program (its whole process "
                 "tree) was killed; print_device_facts loops or waits", R->lab->case_limit_s);
    } else if (rc == 0 || rc == 3) {
        snprintf(fail, sizeof fail, "the answer on fd 4 does not follow the protocol ('%.60s'): the lab program's "
                 "serve loop was bypassed or broken", ans.s ? ans.s : "");
    } else {
        tg_child_wait(&c, tl_now_ms() + 2000);
        tg_child_kill(&c);
        char how[200];
        tg_child_describe(&c, how, sizeof how);
        if (tg_child_net_killed(&c) && ++g->net_killed == 1)
            snprintf(g->net_where, sizeof g->net_where, "the device query");
        snprintf(fail, sizeof fail, "the program ended without answering (%s): print_device_facts crashed?", how);
    }
    if (c.to_child >= 0) {
        (void)!write(c.to_child, "quit\n", 5);
        close(c.to_child);
        c.to_child = -1;
        tg_child_wait(&c, tl_now_ms() + 2000);
    }
    tg_child_kill(&c);
    if (c.cap.len && g->evidence.len < 8192)
        tg_buf_add(&g->evidence, c.cap.s, c.cap.len < 4096 ? c.cap.len : 4096);
    g->printed += c.out_total;
    tg_child_free(&c);

    tl_facts_parse(text ? text : "", tlen, &got);
    tl_facts_verdict v;
    tl_facts_compare(&want, &got, &v);
    if (fail[0]) {
        v.right = 0;
        tg_buf_printf(&tr->out, "0 of %d device facts right: %s\n", v.asked, fail);
    } else {
        char *mt = NULL;
        size_t ml = 0;
        FILE *mf = open_memstream(&mt, &ml);
        if (mf) {
            tl_facts_explain(&v, mf, "");
            fclose(mf);
            tg_buf_add(&tr->out, mt, ml);
            free(mt);
        }
    }
    tr->passed = v.asked > 0 && v.right == v.asked;
    tr->score = tg_round2(tr->t->points * v.right / (v.asked ? v.asked : 1));
    tg_buf_printf(&tr->out, "compared with the kit's own query of the device in another process (%s%s); "
                  "points in proportion\n", emulated ? "tl-device-emu --facts: the emulator's model, " : "tl-device --facts",
                  emulated ? want.name : "");
    if (!tr->passed && text) {
        tg_buf_printf(&tr->out, "print_device_facts wrote (%zu bytes)%s\n", tlen, tlen ? ":" : ": nothing");
        int lines = 0;
        for (const char *p = text; p < text + tlen && lines < FACTS_SHOWN; ++lines) {
            const char *e = memchr(p, '\n', (size_t)(text + tlen - p));
            size_t l = e ? (size_t)(e - p) : (size_t)(text + tlen - p);
            tg_buf_printf(&tr->out, "  | %.*s\n", (int)(l > 160 ? 160 : l), p);
            p += l + 1;
        }
    }
    tg_buf_free(&ans);
}

/* The emulated GPUs the query is asked on (common/emu/src/api.cpp's models, from real GPUs). */
static const char *const emu_models[] = {"h100", "h200", "a100", "l40s", "t4"};
enum { NMODELS = sizeof emu_models / sizeof emu_models[0] };

/* On a GPU: once, against the kit's query of that device. Emulated: twice, on two of the
 * emulator's models drawn for this run and student from the secret seed, each against the kit's
 * query of the same model (issue 24: the facts typed in as text match one model at most, so they
 * fail; a program that asks the device is right on both). Credit: the smaller of the two. */
void tg_judge_devfacts(grun *R, gsub *g, tres *tr)
{
    int emulated;
    char why[700] = "";
    if (!facts_binary(R, g, &emulated, why, sizeof why) || !emulated) {
        facts_once(R, g, tr, NULL);
        return;
    }
    uint64_t h = R->run.seed ^ 0x9e3779b97f4a7c15ULL;
    for (const char *p = g->s->name; *p; ++p)
        h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
    h ^= h >> 29;
    int a = (int)(h % NMODELS), b = (a + 1 + (int)((h >> 17) % (NMODELS - 1))) % NMODELS;
    /* each model with its board's clocks drawn too (api.cpp: KEY:N), so a table of the models'
     * facts keyed on the device's name does not match either */
    char ma[32], mb[32];
    snprintf(ma, sizeof ma, "%s:%u", emu_models[a], 1 + (unsigned)((h >> 23) % 62));   /* 1..62: some clock */
    snprintf(mb, sizeof mb, "%s:%u", emu_models[b], 1 + (unsigned)((h >> 37) % 62));   /* always differs    */
    tres r[2];
    memset(r, 0, sizeof r);
    r[0].t = r[1].t = tr->t;
    facts_once(R, g, &r[0], ma);
    facts_once(R, g, &r[1], mb);
    tr->graded = r[0].graded && r[1].graded;
    tr->passed = r[0].passed && r[1].passed;
    tr->score = r[0].score < r[1].score ? r[0].score : r[1].score;
    /* the failing model's verdict first: its first line is the test's headline */
    int first = (!r[0].passed || r[1].passed) ? 0 : 1;
    const char *mf = emu_models[first ? b : a], *mo = emu_models[first ? a : b];
    if (r[first].out.s)
        tg_buf_add(&tr->out, r[first].out.s, r[first].out.len);
    tg_buf_printf(&tr->out, "asked on two emulated GPUs drawn for this run, %s (above) and %s (below): "
                  "print_device_facts must ask the device (cudaGetDeviceProperties), never print it as text; the "
                  "smaller credit counts\non the %s model:\n", mf, mo, mo);
    if (r[!first].out.s)
        tg_buf_add(&tr->out, r[!first].out.s, r[!first].out.len);
    tg_buf_free(&r[0].out);
    tg_buf_free(&r[1].out);
}
