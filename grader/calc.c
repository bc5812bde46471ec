/* calc.c: the judge of lab 05's occupancy calculator (judges.c has the other test kinds): the
 * student's calculator asked through `lab05 --serve` and compared with the grader's own answers. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade.h"
#include "lab.h"            /* lab 05: the calculator's types, known.c */
#include "tilelab.h"

/* ------------------------------------------------------------------ lab 05: the calculator */

/* Lab 05 part A, judged here: the student's calculator is asked through `lab05 --serve` (a
 * request line per configuration on fd 3, the answer line on fd 4, labs/05-occupancy-study/lab.h)
 * and every answer is compared with the grader's own: the known configurations' answers
 * (known.c) and, for the hidden ones drawn from the secret seed, the reference solution's
 * calculator compiled into tl-grade (tg_occ_reference; absent in the student edition, where only
 * the known configurations are asked). What the program prints is shown, never counted. */
#ifdef TG_OCC_REFERENCE
int tg_occ_reference(const tl_occ_device *d, const tl_occ_kernel *k, tl_occ_result *r);
#endif

#define CALC_ANSWER_S   5.0      /* CPU-time limit of one answer (lab.c's CALC_LIMIT_S); the wall
                                  * clock gets TL_WALL_BACKSTOP_CPU times it                           */
#define CALC_RESTARTS   64       /* crashes tolerated before the rest is not asked                 */
#define CALC_SHOWN      12       /* wrong configurations quoted                                    */
#define CALC_HIDDEN_PER 24       /* hidden configurations per device                               */

typedef struct occ_q {
    tl_occ_device d;
    tl_occ_kernel k;
    const char   *note;          /* a known configuration's lesson, or NULL                         */
    int           want_rc;
    tl_occ_result want;
    int           api_blocks;    /* TL_TEST_CALC_API: the CUDA API's blocks per SM (-1 not that test)    */
} occ_q;

#ifdef TG_OCC_REFERENCE   /* the hidden configurations need the reference calculator */
/* The shared-memory carve-outs a device offers, KiB (the CUDA C Programming Guide's tables). */
static int carveouts(int cc, int *out)
{
    static const int f[] = {16, 48}, t[] = {32, 64}, a[] = {8, 16, 32, 64, 100, 132, 164},
                     r[] = {8, 16, 32, 64, 100}, h[] = {8, 16, 32, 64, 100, 132, 164, 196, 228};
    const int *l = cc == 20 ? f : cc == 75 ? t : cc == 80 ? a : cc == 86 ? r : h;
    int n = cc == 20 ? 2 : cc == 75 ? 2 : cc == 80 ? 7 : cc == 86 ? 5 : 9;
    memcpy(out, l, sizeof(int) * (size_t)n);
    return n;
}

/* The hidden configurations: every device of devices.c, at its carve-out steps, with kernels
 * drawn from the seed (0 registers, register counts around the allocation unit and the
 * per-block refusal, odd block sizes, shared memory around the rounding unit). */
static int hidden_configs(grun *R, occ_q *q, int max)
{
    int n = 0;
    uint64_t x = tg_mix64(R->run.seed ^ 0x05c0ffeeULL);
    for (int di = 0; tl_occ_devices[di] && n < max; ++di) {
        const tl_occ_device *base = tl_occ_devices[di];
        int steps[16], ns = carveouts(base->cc, steps);
        for (int i = 0; i < CALC_HIDDEN_PER && n < max; ++i) {
            occ_q *c = &q[n];
            memset(c, 0, sizeof *c);
            c->d = *base;
            x = tg_mix64(x + (uint64_t)i);
            if (i % 3 == 1)
                c->d.smem_per_sm = steps[(x >> 8) % (uint64_t)ns] * 1024;
            int pick = (int)(x % 8);
            int T = pick < 4 ? 32 * (int)(1 + (x >> 16) % 32) : (int)(1 + (x >> 16) % 1024);
            int regs;
            switch ((x >> 28) % 6) {
            case 0: regs = 0; break;
            case 1: regs = 8 * (int)(1 + (x >> 32) % 8) + 1; break;             /* just past a unit */
            case 2: regs = (int)(65536 / (32 * ((T + 31) / 32 + 3) / 4 * 4)) + 1; break; /* near the block refusal */
            default: regs = (int)(1 + (x >> 32) % (uint64_t)base->max_regs_per_thread); break;
            }
            if (regs > base->max_regs_per_thread)
                regs = base->max_regs_per_thread;
            int smem;
            switch ((x >> 40) % 4) {
            case 0: smem = 0; break;
            case 1: smem = (int)((x >> 44) % 4096) * 8 + 1; break;
            default: smem = (int)((x >> 44) % (uint64_t)(c->d.smem_per_sm / 3 + 1)); break;
            }
            c->k = (tl_occ_kernel){T, regs, smem};
            c->api_blocks = -1;
            c->want_rc = tg_occ_reference(&c->d, &c->k, &c->want);
            ++n;
        }
    }
    return n;
}
#endif

/* The CUDA API's figures for this GPU, from `lab05 --api-table` of a build the grader trusts:
 * the kit built once for this run (kit code only), else (kit check) the student's own build. */
static int api_configs(grun *R, gsub *g, occ_q *q, int max, tg_buf *out)
{
    char build[PATH_MAX], bin[PATH_MAX + 8];
    const char *from;
    if (R->run.kit_build[0]) {
        snprintf(build, sizeof build, "%s", R->run.kit_build);
        from = "the kit's own build";
    } else {
        snprintf(build, sizeof build, "%s", g->build);
        from = R->opt->check ? "your build (kit check)" : "the submission's build (no kit build in this run)";
    }
    snprintf(bin, sizeof bin, "%s/%s", R->env.iso.bwrap ? "/build" : build,
             R->opt->prebuilt[0] && !R->run.kit_build[0] ? strrchr(R->opt->prebuilt, '/') + 1 : R->lab->binary);
    char casedir[PATH_MAX];
    snprintf(casedir, sizeof casedir, "%s/case", g->work);
    tg_rmtree(casedir);
    tg_mkdirs(casedir, 0700);
    const char *argv[] = {bin, "--api-table", NULL};
    tg_spawn_opts o = {.argv = argv, .host_cwd = casedir, .sandbox_cwd = "/tmp/case", .gpu = 1, .max_tasks = 64,
                       .mem_bytes = tg_mem_limit(&R->env.iso, 8LL << 30, R->opt->jobs), .fsize_bytes = 16LL << 20, .tmp_bytes = 64LL << 20,
                       .extra_path = R->env.tool_path[0] ? R->env.tool_path : NULL, .seccomp_net = 1};
    o.ro[0] = (tg_bind){build, "/build"};
    tg_buf text = {0};
    char desc[200], err[600];
    int rc = tg_run_sandboxed(&R->env.iso, &o, R->lab->case_limit_s, &text, desc, sizeof desc, err, sizeof err);
    int n = 0;
    for (char *p = text.s; rc == 0 && p && *p && n < max;) {
        char *e = strchr(p, '\n');
        if (e)
            *e = '\0';
        char word[8] = "";
        int at = 0;
        if (sscanf(p, "%7s %n", word, &at) == 1 && strcmp(word, "api") == 0 && at > 0) {   /* "api ..." */
            char line[600];
            snprintf(line, sizeof line, "occ %s", p + at);
            char *last = strrchr(line, ' ');
            occ_q *c = &q[n];
            memset(c, 0, sizeof *c);
            if (last && tl_occ_request_parse(line, &c->d, &c->k) == 0 && sscanf(last + 1, "%d", &c->api_blocks) == 1)
                ++n;
        }
        p = e ? e + 1 : NULL;
    }
    if (n == 0)
        tg_buf_printf(out, "not graded: `lab05 --api-table` of %s gave no configurations (%s%s%s)\n", from,
                      rc < 0 ? err : desc, text.len ? "; it printed: " : "",
                      text.len ? (text.s[text.len > 300 ? 300 : text.len] = '\0', text.s) : "");
    else
        tg_buf_printf(out, "%d configurations of the kit's sweep kernels on this GPU; the CUDA API's blocks per SM "
                      "from %s\n", n, from);
    tg_buf_free(&text);
    return n;
}

static int calc_complete(const tg_buf *a, void *ctx)
{
    (void)ctx;
    return a->len && (memchr(a->s, '\n', a->len) != NULL || a->len > 1024);
}

static int calc_start(grun *R, gsub *g, tg_child *c, char *err, size_t errlen)
{
    char bin[PATH_MAX + 8], casedir[PATH_MAX];
    const char *name = R->opt->prebuilt[0] ? strrchr(R->opt->prebuilt, '/') + 1 : R->lab->binary;
    snprintf(bin, sizeof bin, "%s/%s", R->env.iso.bwrap ? "/build" : g->build, name);
    snprintf(casedir, sizeof casedir, "%s/case", g->work);
    tg_rmtree(casedir);
    tg_mkdirs(casedir, 0700);
    const char *argv[] = {bin, "--serve", NULL};
    tg_spawn_opts o = {.argv = argv, .host_cwd = casedir, .sandbox_cwd = "/tmp/case", .serve = 1, .gpu = 0,
                       .max_tasks = 64, .mem_bytes = 1LL << 30, .fsize_bytes = 16LL << 20,
                       .tmp_bytes = 64LL << 20, .extra_path = R->env.tool_path[0] ? R->env.tool_path : NULL,
                       .seccomp_net = 1};
    o.ro[0] = (tg_bind){g->build, "/build"};
    return tg_spawn(c, &R->env.iso, &o, err, errlen);
}

static void calc_end(gsub *g, tg_child *c, int alive)
{
    if (!alive)
        return;
    if (c->to_child >= 0) {
        (void)!write(c->to_child, "quit\n", 5);
        close(c->to_child);
        c->to_child = -1;
        tg_child_wait(c, tl_now_ms() + 2000);
    }
    tg_child_kill(c);
    if (c->cap.len && g->evidence.len < 8192)
        tg_buf_add(&g->evidence, c->cap.s, c->cap.len < 4096 ? c->cap.len : 4096);
    g->printed += c->out_total;
    tg_child_free(c);
}

void tg_judge_calc(grun *R, gsub *g, tres *tr, int api)
{
    tr->graded = 0;
    if (api && (!R->env.iso.gpu_nodes || R->opt->emulate)) {
        tg_buf_printf(&tr->out, "not graded: the CUDA API comparison needs a GPU (%s)\n",
                      R->opt->emulate ? "this run is emulated" : "no /dev/nvidia* on this machine");
        return;
    }
    enum { QMAX = 512 };
    occ_q *q = calloc(QMAX, sizeof *q);
    if (!q) {
        tg_buf_printf(&tr->out, "not graded (grader problem): out of memory\n");
        return;
    }
    int nq = 0, nknown = 0, nhidden = 0;
    if (api) {
        nq = api_configs(R, g, q, QMAX, &tr->out);
        if (nq == 0) {
            free(q);
            return;
        }
    } else {
        for (int i = 0; i < tl_occ_nknown; ++i, ++nq) {
            const tl_occ_known *kc = &tl_occ_known_cases[i];
            tl_occ_known_device(kc, &q[nq].d);
            q[nq].k = kc->k;
            q[nq].note = kc->note;
            q[nq].want_rc = kc->rc;
            tl_occ_known_result(kc, &q[nq].want);
            q[nq].api_blocks = -1;
        }
        nknown = nq;
        if (!R->opt->check && !R->opt->public_only) {
#ifdef TG_OCC_REFERENCE
            nhidden = hidden_configs(R, q + nq, QMAX - nq);
            nq += nhidden;
#else
            tg_buf_printf(&tr->out, "hidden configurations not asked: this tl-grade has no reference calculator "
                          "(solutions/05-occupancy-study is not in this kit)\n");
#endif
        }
    }
    tr->graded = 1;
    tg_child c;
    memset(&c, 0, sizeof c);
    int alive = 0, restarts = 0, right = 0, shown = 0, asked = 0;
    char err[600];
    for (int i = 0; i < nq; ++i) {
        occ_q *cq = &q[i];
        char desc[256], why[600] = "";
        tl_occ_describe(desc, sizeof desc, &cq->d, &cq->k);
        int ok = 0;
        if (!alive && restarts > CALC_RESTARTS) {
            snprintf(why, sizeof why, "not asked: the calculator hung (the time limit) or crashed %d times", restarts);
        } else if (!alive && calc_start(R, g, &c, err, sizeof err) != 0) {
            tg_buf_printf(&tr->out, "not graded (grader problem): %s\n", err);
            tr->graded = 0;
            break;
        } else {
            alive = 1;
            ++asked;
            char req[512];
            int rl = tl_occ_request_line(req, sizeof req, &cq->d, &cq->k);
            tg_buf ans = {0};
            double wall = CALC_ANSWER_S * TL_WALL_BACKSTOP_CPU;
            c.cpu_limit_ms = CALC_ANSWER_S * 1000.0;
            c.cpu_start_ms = tg_child_cpu_ms(&c);
            c.cpu_read_at = tl_now_ms();
            if (c.cpu_start_ms < 0) {   /* no CPU count here: the wall clock alone */
                c.cpu_limit_ms = 0;
                wall = CALC_ANSWER_S;
            }
            int rc = tg_child_exchange(&c, req, (size_t)rl, &ans, 4096, calc_complete, NULL,
                                       tl_now_ms() + wall * 1000.0);
            c.cpu_limit_ms = 0;
            int got_rc;
            tl_occ_result got;
            if (rc == 0 && ans.s && tl_occ_answer_parse(ans.s, &got_rc, &got) == 0) {
                if (api) {
                    int blocks = got_rc == 0 ? got.blocks_per_sm : 0;
                    ok = blocks == cq->api_blocks;
                    if (!ok)
                        snprintf(why, sizeof why, "the calculator says %d blocks per SM%s%s, the CUDA API %d", blocks,
                                 got_rc ? " (refused: " : "", got_rc ? got.why : "", cq->api_blocks);
                    if (!ok && got_rc)
                        strncat(why, ")", sizeof why - strlen(why) - 1);
                } else {
                    ok = !tl_occ_compare(&cq->d, &cq->k, cq->want_rc, &cq->want, got_rc, &got, why, sizeof why);
                }
            } else if (rc == 0 || rc == 3) {
                snprintf(why, sizeof why, "the answer on fd 4 does not follow the protocol ('%.80s'): lab.c's serve "
                         "loop was bypassed or broken", ans.s ? ans.s : "");
                calc_end(g, &c, alive);
                alive = 0;
                ++restarts;
            } else {
                if (rc == 1) {
                    tg_child_wait(&c, tl_now_ms() + 2000);
                    tg_child_kill(&c);
                }
                char how[200];
                tg_child_describe(&c, how, sizeof how);
                if (tg_child_net_killed(&c) && ++g->net_killed == 1)
                    snprintf(g->net_where, sizeof g->net_where, "lab05 --serve");
                int fpe = tg_child_signal(&c) == SIGFPE;
                if (rc == 2 && c.cpu_out)
                    snprintf(why, sizeof why, "no answer within the %.0f s CPU-time limit: the program (its whole "
                             "process tree) was killed; an endless loop, or far too slow", CALC_ANSWER_S);
                else if (rc == 2)
                    snprintf(why, sizeof why, "no answer within the %.0f s wall-clock limit: the program (its whole "
                             "process tree) was killed; it sleeps or waits, or the machine is heavily loaded",
                             CALC_ANSWER_S * TL_WALL_BACKSTOP_CPU);
                else
                    snprintf(why, sizeof why, "the calculator crashed (%s)%s%s", how,
                             fpe ? ": an integer division by zero" : "",
                             cq->k.regs_per_thread == 0 ? "; a kernel with 0 registers is not limited by registers "
                             "(INT_MAX, and no division by zero)" : "");
                calc_end(g, &c, alive);
                alive = 0;
                ++restarts;
                if (rc == 2)   /* as for the other labs: after a time-out the rest is not asked */
                    restarts = CALC_RESTARTS + 1;
            }
            tg_buf_free(&ans);
        }
        right += ok;
        if (!ok && shown < CALC_SHOWN) {
            tg_buf_printf(&tr->out, "  WRONG %s%s: %s\n", cq->note || api ? "" : "(hidden) ", desc, why);
            if (cq->note)
                tg_buf_printf(&tr->out, "        case: %s\n", cq->note);
            ++shown;
        }
    }
    calc_end(g, &c, alive);
    if (tr->graded) {
        if (nq - right > shown)
            tg_buf_printf(&tr->out, "  ... and %d more wrong\n", nq - right - shown);
        tr->score = tg_round2(tr->t->points * right / (nq ? nq : 1));
        tr->passed = right == nq;
        if (api)
            tg_buf_printf(&tr->out, "%d of %d configurations agree with cudaOccupancyMaxActiveBlocksPerMultiprocessor; "
                          "points in proportion\n", right, nq);
        else
            tg_buf_printf(&tr->out, "%d of %d configurations right (%d known, %d hidden from the secret seed%s); "
                          "answers compared by the grader with its own; points in proportion\n", right, nq, nknown,
                          nhidden, R->opt->check ? ": those are the grader's alone" : "");
    }
    (void)asked;
    free(q);
}
