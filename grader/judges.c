/* judges.c: one judge per test kind: correctness (public, hidden), safety (compute-sanitizer or
 * the emulator's diagnostics), policy; speed (against the reference, same GPU) is judged in speed.c,
 * lab 05's calculator in calc.c. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
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
#include "ncu.h"
#include "oob.h"            /* kit check on a GPU: memcheck beside the public cases */
#include "policy.h"
#include "tilelab.h"

static const char *binary_for(grun *R, gsub *g, const char **build, int *emulated, char *why, size_t whylen)
{
    *emulated = 0;
    *build = g->build;
    if (R->opt->prebuilt[0]) {          /* kit check: the program it built (g->build is its folder) */
        *emulated = R->lab->gpu && R->opt->emulate;
        return strrchr(R->opt->prebuilt, '/') + 1;
    }
    if (!R->lab->gpu)
        return R->lab->binary;
    if (R->env.gpu_ok && !R->opt->emulate)
        return R->lab->binary;
    if (g->emu_built) {
        *emulated = 1;
        return R->lab->emu_binary;
    }
    if (R->opt->emulate && g->emu_unsupported[0])   /* valid CUDA the emulator cannot take: no verdict here */
        snprintf(why, whylen, "not graded here: %s; check it on a GPU (./kit check %s there)", g->emu_unsupported,
                 R->lab->id);
    else if (R->opt->emulate)
        snprintf(why, whylen, "not graded: --emulate asked for, but this kit has no emulated build of lab %s (%s)",
                 R->lab->id, R->lab->emu_target ? R->lab->emu_target : "none");
    else
        snprintf(why, whylen, "not graded: no usable CUDA device (%s) and no emulated build (%s)", R->env.gpu_why,
                 R->lab->emu_target ? R->lab->emu_target : "none");
    return NULL;
}

void tg_tres_add_case(tres *tr, const char *size, const tl_verdict *v)
{
    if (tr->ncases == tr->capcases) {
        int cap = tr->capcases ? 2 * tr->capcases : 8;
        tg_case_verdict *c = cap <= 256 ? realloc(tr->cases, (size_t)cap * sizeof *c) : NULL;
        if (!c)
            return;            /* more than 256 failing cases: the first ones are kept */
        tr->cases = c;
        tr->capcases = cap;
    }
    snprintf(tr->cases[tr->ncases].size, sizeof tr->cases[0].size, "%s", size);
    tr->cases[tr->ncases++].v = *v;
}

/* A size's weight in a correctness test: log2(1 + m*k*n), so 1 weighs 1, 17 about 12, 1024 30. */
static double case_weight(const gsize *s)
{
    return log2(1.0 + (double)s->m * s->k * s->n);
}

/* Every dimension below 4: right by accident for most wrong kernels. */
static int case_trivial(const gsize *s)
{
    return s->m < 4 && s->k < 4 && s->n < 4;
}

int tg_correctness_follows(const grun *R, const tl_lab_test *t)
{
    int after = 0;
    for (int i = 0; i < R->lab->ntests; ++i) {
        const tl_lab_test *u = &R->lab->tests[i];
        if (after && (u->kind == TL_TEST_PUBLIC || u->kind == TL_TEST_HIDDEN))
            return 1;
        after |= u == t;
    }
    return 0;
}

void tg_judge_correctness(grun *R, gsub *g, tres *tr)
{
    const tl_lab_test *t = tr->t;
    const tl_lab_variant *v = tl_lab_variant_find(R->lab, t->variant);
    int want_hidden = t->kind == TL_TEST_HIDDEN;
    const char *build;
    int emulated;
    char why[600] = "";
    const char *bin = binary_for(R, g, &build, &emulated, why, sizeof why);
    if (!bin) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "%s\n", why);
        return;
    }
    if (emulated && v && v->gpu_only) {   /* the table: not emulated (lab 07's copy engine, lab 08's mma.sync and wgmma) */
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: %s: GPU only (%s is not emulated; graded where a GPU is)\n",
                      v->gpu_only, v->name);
        return;
    }
    if (!want_hidden && !emulated)
        tg_oob_start(R, g);       /* kit check on a GPU: memcheck, one small case per variant, meanwhile */
    /* On a GPU the correctness tests share one session of the program (g->corr): its start and CUDA
     * context (about a third of a CPU second each) once, not once per test. A program that died or
     * ran out of time is started again at the next case, as within a test. Emulated: one per test. */
    gsess own = {.build = build, .binary = bin}, *ss = &own;
    if (!emulated && R->lab->gpu) {
        if (g->corr.alive && (g->corr.build != build || strcmp(g->corr.binary, bin) != 0))
            tg_sess_end(g, &g->corr, 1);
        g->corr.build = build;
        g->corr.binary = bin;
        ss = &g->corr;
    }
    int total = 0, pass = 0, nodev = 0, nontrivial_pass = 0;
    int big_idx = -1;                 /* GPU, public sizes: the largest run, and its time if it passed  */
    double big_ms = 0;
    double wtotal = 0, wpass = 0;     /* the sizes' weights (case_weight)               */
    long explained = 0;
    tg_buf explain = {0};
    tg_buf fails = {0};
    tg_buf sizes_ok = {0};
    char last_reason[600] = "";
    tg_buf same = {0};            /* sizes that failed for the same reason as the last one */
    tg_buf too_big = {0};         /* emulated: sizes above R->opt->emu_max_work, not run             */
    tg_buf unsupported = {0};     /* emulated: sizes the emulator could not run (valid CUDA)    */
    int nunsup = 0;               /* ... how many, and their weight                             */
    double wunsup = 0;
    tg_work_note wn = {0};           /* the work the passing cases did (emulated: counted)         */
    char head[700] = "";             /* the most specific reason of a failing case (headline.c)    */
    int head_rank = 0;
    int work_idx = -1;            /* the size whose work the counting twin counts (work.c)      */
    int ub_idx = -1;              /* GPU: the largest passing ragged size small enough to emulate: the
                                   * undefined-behaviour check's (an uninitialised tail accumulator) */
    int diag_idx = -1;            /* GPU: the largest failing public size small enough to emulate (ragged
                                   * first): where the GPU's reason is generic, the emulator's diagnosis */
    /* Multiples of the variant's tile against ragged sizes: a kernel right only on multiples
     * (how most real tiled kernels are written) is told so, not only failed at size 1. */
    int tile = v->tile > 1 ? v->tile : 0;
    int aligned_pass = 0, aligned_fail = 0, ragged_pass = 0, ragged_fail = 0;
    tg_buf aligned_ok = {0};
    for (int i = 0; i < R->run.nsizes; ++i) {
        gsize *s = &R->run.sizes[i];
        if (s->hidden != want_hidden || !tg_variant_accepts(v, s))
            continue;
        char szb[48];
        tg_size_str(szb, sizeof szb, s);
        if (emulated && tg_emu_too_big(R->opt, s->m, s->k, s->n)) {
            tg_buf_printf(&too_big, "%s%s", too_big.len ? ", " : "", szb);
            continue;
        }
        if (!s->payload && tg_prepare_size(s, why, sizeof why) != 0) {
            tg_buf_printf(&fails, "  size %s: not run (grader problem): %s\n", szb, why);
            continue;
        }
        ++total;
        cres r;
        tg_run_case(R, g, ss, s, v, 0, R->lab->case_limit_s, &r);
        char sz[48];
        tg_size_str(sz, sizeof sz, s);
        if (r.st == C_NOTRUN && emulated && r.v.kind == TL_V_NOT_GRADED && tl_verdict_pattern_is(&r.v, "not-supported")) {
            --total;                     /* valid CUDA the emulator cannot run: neither passed nor failed */
            tg_buf_printf(&unsupported, "%s%s", unsupported.len ? ", " : "", sz);
            ++nunsup;
            wunsup += case_weight(s);
            tg_buf_free(&r.explain);
            continue;
        }
        double wt = case_weight(s);
        wtotal += wt;
        if (r.st == C_PASS)
            tg_work_case(R, v, s, &r, &wn);
        if (!emulated && !want_hidden &&
            (big_idx < 0 || (double)s->m * s->k * s->n > (double)R->run.sizes[big_idx].m * R->run.sizes[big_idx].k *
                                                         R->run.sizes[big_idx].n)) {
            big_idx = i;
            big_ms = r.st == C_PASS ? r.wall_ms - (r.waited_ms > 0 ? r.waited_ms : 0) : 0;
        }
        int rank = r.st == C_PASS || r.st == C_NODEV ? 0 : tg_headline_rank(&r.v);
        /* the first emulator diagnostic or error; the largest size's pattern (it shows best) */
        if (rank > head_rank || (rank == head_rank && rank <= 3 && rank > 0)) {
            head_rank = rank;
            tg_headline_make(&r.v, szb, head, sizeof head);
            tr->head.v = r.v;
            snprintf(tr->head.size, sizeof tr->head.size, "%s", szb);
            tr->have_head = 1;
        }
        if (r.st != C_PASS && r.st != C_NODEV)
            tg_tres_add_case(tr, szb, &r.v);
        /* The largest passing size small enough to emulate quickly, counted below by the counting
         * twin (on a GPU, and under emulation, whose correctness build does not count). */
        if (r.st == C_PASS && !case_trivial(s) && (double)s->m * s->k * s->n <= TG_WORK_EMU_MAX &&
            (work_idx < 0 || (double)s->m * s->k * s->n > (double)R->run.sizes[work_idx].m * R->run.sizes[work_idx].k *
                                                               R->run.sizes[work_idx].n))
            work_idx = i;
        int aligned = tile && s->m % tile == 0 && s->k % tile == 0 && s->n % tile == 0;
        if (r.st != C_PASS && r.st != C_NODEV && r.st != C_NOTRUN && !case_trivial(s) && s->hidden == 0 &&
            (double)s->m * s->k * s->n <= TG_WORK_EMU_MAX) {
            const gsize *d = diag_idx >= 0 ? &R->run.sizes[diag_idx] : NULL;
            int d_aligned = d && tile && d->m % tile == 0 && d->k % tile == 0 && d->n % tile == 0;
            if (!d || (d_aligned && !aligned) ||
                (d_aligned == aligned && (double)s->m * s->k * s->n > (double)d->m * d->k * d->n))
                diag_idx = i;
        }
        if (r.st == C_PASS && !aligned && !case_trivial(s) && s->hidden == 0 &&
            (double)s->m * s->k * s->n <= TG_WORK_EMU_MAX &&
            (ub_idx < 0 || (double)s->m * s->k * s->n > (double)R->run.sizes[ub_idx].m * R->run.sizes[ub_idx].k *
                                                             R->run.sizes[ub_idx].n))
            ub_idx = i;
        if (r.st == C_PASS) {
            ++pass;
            wpass += wt;
            nontrivial_pass |= !case_trivial(s);
            tg_buf_printf(&sizes_ok, "%s%s", sizes_ok.len ? ", " : "", sz);
            if (aligned) {
                ++aligned_pass;
                tg_buf_printf(&aligned_ok, "%s%s", aligned_ok.len ? ", " : "", sz);
            } else {
                ++ragged_pass;
            }
        } else if (r.st != C_NODEV && r.st != C_NOTRUN) {
            if (aligned)
                ++aligned_fail;
            else
                ++ragged_fail;
        }
        if (r.st == C_NODEV) {
            ++nodev;
        } else if (r.st != C_PASS) {
            /* The same verdict up to its numbers (kind, pattern, where): one line for all those sizes. */
            char key[600];
            snprintf(key, sizeof key, "%d %s %s %s %d", (int)r.v.kind, r.v.pattern, r.v.matrix, r.v.file, r.v.line);
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
    /* the shared session ends with the last correctness test of the rubric (its slot kept till then) */
    if (ss == &own || !tg_correctness_follows(R, t))
        tg_sess_end(g, ss, 1);
    /* The device is done with: the work count below runs on the CPU (gpushare.c; kit check keeps
     * it for its memcheck pass). */
    if (!R->opt->check && !g->corr.alive)
        tg_gpu_take(R, TG_GPU_NONE);
    /* On a GPU whose counters ncu reads the twins that count the work were left out of the build
     * (build.c); where this variant's counters could not decide, they are built now, once. */
    if (pass > 0 && R->lab->work.kernel && !(v && v->gpu_only) && !tg_counters_decide(R, g, v))
        tg_build_twins_late(R, g);
    /* None of this test's passing sizes is small enough to emulate (hidden sizes are often all
     * larger): the work is the kernel's, not the size's, so count it on the largest public size
     * that is (it runs there afresh, and must pass there too). */
    if (work_idx < 0 && pass > 0 && R->lab->work.kernel && g->emu_count_built)
        for (int i = 0; i < R->run.nsizes; ++i) {
            const gsize *s = &R->run.sizes[i];
            double w = (double)s->m * s->k * s->n;
            if (s->hidden == 0 && tg_variant_accepts(v, s) && !case_trivial(s) && w <= TG_WORK_EMU_MAX &&
                (work_idx < 0 || w > (double)R->run.sizes[work_idx].m * R->run.sizes[work_idx].k * R->run.sizes[work_idx].n))
                work_idx = i;
        }
    if (work_idx >= 0 && !R->run.sizes[work_idx].payload &&
        tg_prepare_size(&R->run.sizes[work_idx], wn.why, sizeof wn.why) != 0)
        work_idx = -1;
    int on_gpu = R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && !(v && v->gpu_only);
    if (on_gpu && ub_idx >= 0 && !R->run.sizes[ub_idx].payload && tg_prepare_size(&R->run.sizes[ub_idx], why, sizeof why) != 0)
        ub_idx = -1;
    if (pass > 0 && R->lab->work.kernel && tg_counters_work(R, g, v, &wn)) {
        /* the GPU's counters, read by ncu in another process than the program's, decided (counters.c);
         * the emulated twin still runs one small ragged public size as the undefined-behaviour check */
        if (on_gpu && ub_idx >= 0) {
            tg_build_twins_late(R, g);
            tg_ub_check_emulated(R, g, v, &R->run.sizes[ub_idx], &wn);
        }
    }
    else if (v && v->gpu_only && R->lab->work.kernel)   /* the emulated twin does not run it */
        snprintf(wn.why, sizeof wn.why, "%s uses %s: GPU only: the emulator cannot run it to count its work (the "
                 "lab's emulated variants are counted)", v->name, v->gpu_only);
    else if (pass > 0 && tg_work_twin_failed(R, g, &wn))
        ;   /* the twin that counts the work failed to build: the work rule fails (issue 24) */
    else if (work_idx >= 0) {
        tg_work_count_emulated(R, g, v, &R->run.sizes[work_idx], &wn);
        /* A hidden test's passing sizes are often thin (7 x 29 x 1479), where a block tile's padded
         * rows make any staged kernel's reads look like reuse: a kernel that stages every tile, reads
         * each element once and copies a P made elsewhere passed lab 06's hidden tests so. The work
         * is the kernel's: where the padding dominates it is also counted at the variant's largest
         * public size (balanced, where the rule is decisive), and either breach fails the test. */
        const gsize *ws = &R->run.sizes[work_idx];
        int tl = v ? v->tile : 0;
        int thin = tl > 0 && (double)((ws->m + tl - 1) / tl) * tl * ((ws->n + tl - 1) / tl) * tl >
                             1.5 * (double)ws->m * ws->n;   /* the block tiles' padding dominates */
        /* (and where k < 16 the tiles' reuse is not judged at all: lab 04's rectangular hidden
         * tests were judged at 542 x 1 x 654, sizes written m x k x n) */
        int shallow = tl > 0 && ws->k < 16;
        int pub_idx = -1;
        for (int i = 0; ((want_hidden && thin) || shallow) && !wn.bad && i < R->run.nsizes; ++i) {
            const gsize *s = &R->run.sizes[i];
            double w = (double)s->m * s->k * s->n;
            if (s->hidden == 0 && tg_variant_accepts(v, s) && !case_trivial(s) && w <= TG_WORK_EMU_MAX && s->k >= 16 &&
                (pub_idx < 0 || w > (double)R->run.sizes[pub_idx].m * R->run.sizes[pub_idx].k * R->run.sizes[pub_idx].n))
                pub_idx = i;
        }
        if (pub_idx >= 0 && pub_idx != work_idx &&
            (R->run.sizes[pub_idx].payload || tg_prepare_size(&R->run.sizes[pub_idx], wn.why, sizeof wn.why) == 0))
            tg_work_count_emulated(R, g, v, &R->run.sizes[pub_idx], &wn);
        /* the counted sizes were multiples of the tile (or hidden): a ragged one too, for what only the
         * tail blocks do wrong (undefined behaviour the GPU may not show) */
        if (on_gpu && ub_idx >= 0 && ub_idx != work_idx && ub_idx != pub_idx)
            tg_ub_check_emulated(R, g, v, &R->run.sizes[ub_idx], &wn);
    }
    else if (g->emu_count_built && R->lab->work.kernel)
        snprintf(wn.why, sizeof wn.why, "no size up to 128^3 passed, so none was counted");
    /* On a GPU, a test that failed with a generic reason only ("all wrong", "scattered errors": a tile
     * not __shared__, a race the GPU's results do not name): the same file run emulated at one small
     * size it failed, for the emulator's diagnosis (the array and line of a race, the local tile) */
    /* (also where the GPU's reason is a symptom the emulator names at its source: NaN/Inf computed (a
     * load past M or N, an uninitialised value), only the edge tiles wrong, or an error the program
     * reported (cudaErrorIllegalAddress, a misaligned address, a store past P)) */
    int symptom = head_rank == 4 || (tr->have_head && tr->head.v.kind == TL_V_CHECKER &&
                                     (tl_verdict_pattern_is(&tr->head.v, tl_pattern_slug(TL_PAT_NONFINITE)) ||
                                      tl_verdict_pattern_is(&tr->head.v, tl_pattern_slug(TL_PAT_EDGE_TILES))));
    if (on_gpu && pass < total && (head_rank <= 2 || symptom) && diag_idx >= 0 && !wn.ub &&
        (R->run.sizes[diag_idx].payload || tg_prepare_size(&R->run.sizes[diag_idx], why, sizeof why) == 0)) {
        tg_build_twins_late(R, g);
        tg_work_note dn = {0};
        tg_ub_check_emulated(R, g, v, &R->run.sizes[diag_idx], &dn);
        if (dn.ub) {
            char dh[700];
            tg_headline_make(&dn.ub_v, dn.ub_size, dh, sizeof dh);
            head_rank = tg_headline_rank(&dn.ub_v);
            snprintf(head, sizeof head, "%s", dh);
            tr->head.v = dn.ub_v;
            snprintf(tr->head.size, sizeof tr->head.size, "%s", dn.ub_size);
            tr->have_head = 1;
            tg_buf_printf(&fails, "  size %s, the same file run emulated for a diagnosis: %s\n", dn.ub_size,
                          dn.ub_v.detail[0] ? dn.ub_v.detail : dn.ub_v.pattern);
        }
    }
    /* On a GPU: the emulated run that counted the work found a definite bug at a size the GPU passed
     * (work.c, tg_work_ub_class): that size fails, and the bug is the headline, as emulated. */
    if (wn.ub && pass > 0) {
        --pass;
        wpass -= case_weight(wn.ub_s);
        char uh[700];
        tg_headline_make(&wn.ub_v, wn.ub_size, uh, sizeof uh);
        int rank = tg_headline_rank(&wn.ub_v);
        if (rank >= head_rank) {
            head_rank = rank;
            snprintf(head, sizeof head, "%s", uh);
            tr->head.v = wn.ub_v;
            snprintf(tr->head.size, sizeof tr->head.size, "%s", wn.ub_size);
            tr->have_head = 1;
        }
        tg_tres_add_case(tr, wn.ub_size, &wn.ub_v);
        tg_buf_printf(&fails, "  size %s: right on this GPU, but the same file run emulated (to count its work) "
                      "stopped: %s: undefined behaviour that this GPU happened not to show\n", wn.ub_size,
                      wn.ub_v.detail[0] ? wn.ub_v.detail : wn.ub_v.pattern);
    }
    /* The emulator's run-time "not supported" is said from inside the student's process (its
     * verdict): a file that says it at some sizes and runs the others would leave its failing
     * sizes out. Only where no size ran is it "not graded here" (and that earns nothing). */
    if (total > 0 && nunsup) {
        total += nunsup;
        wtotal += wunsup;
        tg_buf_printf(&fails, "  size(s) %s: 'not supported under emulation' said at run time while the other sizes "
                      "ran: counted as failed (those words come from the program's own process)\n", unsupported.s);
        unsupported.len = 0;
    }
    if (nodev && nodev == total) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: no usable CUDA device (the lab binary said so)\n");
    } else if (total == 0 && unsupported.len) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded here: %s; check it on a GPU (./kit check %s there)\n",
                      g->emu_unsupported, R->lab->id);
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
        tr->passed = pass == total;
        /* Credit in proportion to the work of the sizes passed (weight log2(1 + m*k*n)); the
         * trivial sizes (every dimension below 4) earn nothing unless a larger one passes too:
         * size 1 is right by accident for most wrong kernels. */
        if (!tr->passed && !nontrivial_pass)
            wpass = 0;
        tr->score = tr->passed ? t->points : tg_round2(t->points * wpass / (wtotal > 0 ? wtotal : 1));
        /* The reason first: what happened, in the student's terms, before how many sizes it cost.
         * Right on every multiple of the tile and wrong on every ragged size is the reason, unless
         * a case named the mistake itself (a checker pattern, a refused launch): then that first. */
        int cause_first = head[0] && tr->have_head && tg_headline_names_cause(&tr->head.v);
        if (!tr->passed && head[0] && cause_first)
            tg_buf_printf(&tr->out, "%s\n", head);
        if (!tr->passed && aligned_pass > 0 && aligned_fail == 0 && ragged_pass == 0 && ragged_fail > 0)
        {
            /* a tiled lab (its work rule asks for tiled loads) has tiles to pad; lab 02's naive
             * kernel has a block and threads outside P */
            if (R->lab->work.tiled || v->max_shared_per_fma > 0)
                tg_buf_printf(&tr->out, "correct at %s (multiples of the %d x %d tile); wrong at every ragged size: "
                              "boundary handling (loads outside M or N must put 0 in the tile, stores outside P "
                              "are skipped, grids and phase loops round up)\n", aligned_ok.s, tile, tile);
            else
                tg_buf_printf(&tr->out, "correct at %s (multiples of the %d x %d block); wrong at every ragged size: "
                              "boundary handling (a thread outside P, Row or Col past the size, must not load or "
                              "store; the grid rounds up)\n", aligned_ok.s, tile, tile);
        }
        if (!tr->passed && head[0] && !cause_first)
            tg_buf_printf(&tr->out, "%s\n", head);
        if (wn.bad) {   /* right results, computed the wrong way: no credit, and the first line says why */
            tr->passed = 0;
            tr->score = 0;
            tg_buf_printf(&tr->out, "no credit: %s\n", wn.headline);
            tl_verdict wv;   /* as data: the test's headline verdict where no case failed */
            tl_verdict_init(&wv, TL_V_WORK, wn.pattern ? wn.pattern : "");
            tl_verdict_set(wv.detail, sizeof wv.detail, wn.headline);
            tg_tres_add_case(tr, wn.size, &wv);
            if (!head[0]) {
                tr->head.v = wv;
                snprintf(tr->head.size, sizeof tr->head.size, "%s", wn.size);
                tr->have_head = 1;
            }
        }
        tg_buf_printf(&tr->out, "%d of %d %s sizes correct%s%s\n", pass, total, want_hidden ? "hidden" : "public",
                      emulated ? " (emulated GPU: correctness only)" : "",
                      pass == total ? "" : pass && !nontrivial_pass ?
                      "; only trivial sizes (every dimension below 4) passed: no credit" :
                      "; points in proportion to the work of the sizes passed (weight log2(1 + m*k*n) each)");
        if (unsupported.len)
            tg_buf_printf(&tr->out, "%s, at sizes %s: neither passed nor failed\n", g->emu_unsupported,
                          unsupported.s);
        if (too_big.len) {
            tg_buf nr = {0};
            char bound[96];
            int nb = snprintf(bound, sizeof bound, "%.0f^3 work", cbrt(R->opt->emu_max_work));
            if (R->opt->emu_max_p > 0)
                snprintf(bound + nb, sizeof bound - (size_t)nb, " or %.0f x %.0f elements of P",
                         sqrt(R->opt->emu_max_p), sqrt(R->opt->emu_max_p));
            tg_buf_printf(&nr, "not run under emulation (too large for the CPU, above %s): %s; "
                          "neither passed nor failed: the points are scaled over the %d size(s) run\n",
                          bound, too_big.s, total);
            tg_buf_add(&tr->out, nr.s, nr.len);
            tg_buf_add(&tr->shown, nr.s, nr.len);
            tg_buf_free(&nr);
        }
        if (sizes_ok.len)
            tg_buf_printf(&tr->out, "correct: %s\n", sizes_ok.s);
        tg_buf wl = {0};   /* the work the kernel did: the figures teach reuse, also in a passing test */
        tg_work_report(R, emulated, &wn, &wl);
        tg_buf_add(&tr->out, wl.s ? wl.s : "", wl.len);
        tg_buf_add(&tr->shown, wl.s ? wl.s : "", wl.len);
        tg_buf_free(&wl);
        if (fails.len)
            tg_buf_add(&tr->out, fails.s, fails.len);
    }
    tg_buf_free(&fails);
    tg_buf_free(&sizes_ok);
    tg_buf_free(&aligned_ok);
    tg_buf_free(&unsupported);
    tg_buf_free(&too_big);
    /* the largest public size's time (0: it failed), and the class's fastest on the device: a kernel far
     * slower is profiled before the timed phase (submission.c, early_profile) */
    int vi = tg_variant_index(R, v);
    if (big_idx >= 0 && vi >= 0) {
        g->big_case_ms[vi] = big_ms;
        tg_gpu_fast_case(vi, big_ms);
    }
    if (!want_hidden)
        tg_oob_collect(R, g, v, tr);   /* an out-of-bounds access fails the test, named first */
}

/* Safety: the student's binary under compute-sanitizer (racecheck or memcheck) at small sizes;
 * its exit code (--error-exitcode 99) decides, not anything the program prints. Without a GPU,
 * the emulated build's diagnostics; without either, not graded. */
void tg_judge_safety(grun *R, gsub *g, tres *tr)
{
    const tl_lab_test *t = tr->t;
    const tl_lab_variant *v = tl_lab_variant_find(R->lab, t->variant);
    const char *tool = t->kind == TL_TEST_RACECHECK ? "racecheck" : "memcheck";
    tl_sizes list;
    char err[600];
    if (!R->lab->safety_sizes || tl_parse_sizes(R->lab->safety_sizes, &list, err, sizeof err) != 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: no safety sizes in the grader's table\n");
        return;
    }
    int use_gpu = R->env.gpu_ok && !R->opt->emulate && R->env.sanitizer[0];
    if (!use_gpu && v && v->gpu_only) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: %s (without a GPU this variant's safety is not checked)\n", v->gpu_only);
        return;
    }
    if (!use_gpu && !g->emu_built) {
        tr->graded = 0;
        if (R->env.gpu_ok && !R->env.sanitizer[0])
            tg_buf_printf(&tr->out, "not graded: compute-sanitizer is not installed on this machine\n");
        else
            tg_buf_printf(&tr->out, "skipped: no GPU and no emulated build (%s); safety was not checked\n",
                          R->lab->emu_target ? R->lab->emu_target : "none");
        return;
    }
    /* memcheck with a gap after every allocation (as kit check's pass, oob.c): M, N and P can lie
     * back to back, and a read past M's end would land in N, inside an allocation, unseen. A
     * compute-sanitizer that refuses --padding ends without running a case: then once without. */
    int pad = use_gpu && t->kind == TL_TEST_MEMCHECK ? TG_OOB_PADDING : 0;
    gsess ss;
    int all_ok, stored, nfound;
    tg_buf lines = {0}, found = {0};
again:
    ss = (gsess){.build = g->build, .binary = use_gpu ? R->lab->binary : R->lab->emu_binary,
                 .tool = use_gpu ? tool : NULL, .padding = pad};
    all_ok = 1;
    stored = 0;
    nfound = 0;
    tg_buf_free(&lines);
    tg_buf_free(&found);
    for (int i = 0; i < list.count; ++i) {
        int si = tg_add_size(R, list.m[i], list.k[i], list.n[i], 2);
        if (si < 0 || tg_prepare_size(&R->run.sizes[si], err, sizeof err) != 0)
            continue;
        const gsize *s = &R->run.sizes[si];
        if (!tg_variant_accepts(v, s))
            continue;
        cres r;
        tg_run_case(R, g, &ss, s, v, 0, R->lab->sanitizer_limit_s, &r);
        char sz[48];
        tg_size_str(sz, sizeof sz, s);
        tg_buf_printf(&lines, "  size %s: %s\n", sz, r.reason);
        if (!use_gpu) {
            /* The emulator's verdicts on its channel: any is a finding, even where the answer was
             * right; the case's own (a died program's, or the one answered on fd 4) when none. */
            tl_verdict f[8];
            int nf = tg_sess_verdicts(&ss, f, 8);
            if (nf == 0 && r.v.kind == TL_V_EMULATOR)
                f[nf++] = r.v;
            for (int j = 0; j < nf; ++j) {
                if (f[j].kind != TL_V_EMULATOR)
                    continue;
                char w[1200];
                tg_headline_make(&f[j], sz, w, sizeof w);
                if (nfound++ < 12)
                    tg_buf_printf(&found, "  %s\n", w);
                tg_tres_add_case(tr, sz, &f[j]);
            }
        }
        if (r.st != C_PASS && r.st != C_WRONG)   /* a wrong product is correctness's business */
            all_ok = 0;
        if (r.st == C_PASS || (r.st == C_WRONG && tl_pattern_from_slug(r.v.pattern) != TL_PAT_UNWRITTEN))
            ++stored;
        tg_buf_free(&r.explain);
    }
    if (!ss.runs && pad) {
        if (ss.alive)
            tg_sess_end(g, &ss, 1);
        pad = 0;
        goto again;
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
            tg_child_wait(&ss.c, tl_now_ms() + R->lab->sanitizer_limit_s * 1000.0);
        char how[200];
        tg_child_describe(&ss.c, how, sizeof how);
        int code = ss.c.reaped && WIFEXITED(ss.c.status) ? WEXITSTATUS(ss.c.status) : -1;
        if (code != 0)
            verdict_ok = 0;
        tg_buf_printf(&tr->out, "compute-sanitizer --tool %s: %s%s\n", tool, how,
                      code == 99 ? " (the sanitizer found errors)" : "");
        /* The sanitizer's own lines, for the teaching output; its first error as the verdict. */
        if (code == 99) {
            tl_verdict sv;
            tg_sanitizer_verdict(&ss.c.cap, tool, &sv);
            tg_tres_add_case(tr, "", &sv);
        }
        tg_sanitizer_lines(&ss.c.cap, &tr->out);
    } else {
        tg_buf_printf(&tr->out, "emulated build: the emulator's race and bounds diagnostics at small sizes "
                      "(its verdicts, CONTRACTS.md section 10; its words on stderr)\n");
        if (nfound)
            verdict_ok = 0;
        tg_buf_add(&tr->out, found.s ? found.s : "", found.len);
    }
    tg_buf_free(&found);
    tg_sess_end(g, &ss, 1);
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


/* The object compiled from a student file (name): w 0, labs/DIR/X.p/NAME.o (nvcc or gcc); w 1, the
 * emulator's labs/emulated/X.p/meson-generated_STEM.emu.cpp.o. 1 found. */
static int find_object_w(const grun *R, const gsub *g, const char *name, int w, char *out, size_t len, int nth)
{
    char dirs[3][PATH_MAX + 64], want[300];
    snprintf(dirs[0], sizeof dirs[0], "%s/labs/%s", g->build, R->lab->dir);
    snprintf(dirs[1], sizeof dirs[1], "%s", g->build);           /* kit check: the lab program's folder */
    snprintf(dirs[2], sizeof dirs[2], "%s/labs/emulated", g->build);
    if (w == 0)
        snprintf(want, sizeof want, "%s.o", name);
    else {
        char stem[256];
        snprintf(stem, sizeof stem, "%s", name);
        char *dot = strrchr(stem, '.');
        if (dot)
            *dot = '\0';
        snprintf(want, sizeof want, "meson-generated_%s.emu.cpp.o", stem);
    }
    for (int d = 0; d < 3; ++d) {
        DIR *dd = opendir(dirs[d]);
        if (!dd)
            continue;
        struct dirent *e;
        while ((e = readdir(dd))) {
            size_t l = strlen(e->d_name);
            if (l < 3 || strcmp(e->d_name + l - 2, ".p") != 0)
                continue;
            snprintf(out, len, "%s/%s/%s", dirs[d], e->d_name, want);
            struct stat st;
            if (lstat(out, &st) == 0 && S_ISREG(st.st_mode) && nth-- == 0) {
                closedir(dd);
                return 1;
            }
        }
        closedir(dd);
    }
    return 0;
}

/* The objects judged so far and what was found in each: the policy test after the tests judges the
 * objects the gate judged before them (the build folder is read-only to every run between), so
 * each object's sandboxed objdump ran twice a submission (4 runs of lab 03's 8: issue 29). An entry
 * counts only for the same file (device, inode, size, modification and change times to the
 * nanosecond, as lstat says now): an object built again is judged again. */
typedef struct judged_obj {
    char        path[PATH_MAX + 400], file[256];
    struct stat st;
    int         emu, n;          /* what judge_object returned (>= 0: read) */
    tg_buf      found;
} judged_obj;
static judged_obj judged[16];
static int njudged;

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static judged_obj *judged_before(const char *file, const char *obj, int emu, const struct stat *st)
{
    for (int i = 0; i < njudged; ++i)
        if (judged[i].emu == emu && strcmp(judged[i].path, obj) == 0 && strcmp(judged[i].file, file) == 0 &&
            same_file(&judged[i].st, st))
            return &judged[i];
    return NULL;
}

static int judge_object_run(grun *R, const char *file, const char *obj, int emu, tg_buf *found, char *why,
                            size_t whylen);

/* Judges the object (its digest read in the sandbox once per build of it). -1: could not. */
static int judge_object(grun *R, const char *file, const char *obj, int emu, tg_buf *found, char *why, size_t whylen)
{
    struct stat st;
    int have = lstat(obj, &st) == 0 && S_ISREG(st.st_mode);
    judged_obj *j = have ? judged_before(file, obj, emu, &st) : NULL;
    if (j) {
        tg_buf_add(found, j->found.s ? j->found.s : "", j->found.len);
        return j->n;
    }
    tg_buf mine = {0};
    int n = judge_object_run(R, file, obj, emu, &mine, why, whylen);
    struct stat after;
    if (n >= 0 && have && lstat(obj, &after) == 0 && same_file(&st, &after) && strlen(obj) < sizeof judged[0].path &&
        strlen(file) < sizeof judged[0].file) {
        j = &judged[njudged < 16 ? njudged++ : (int)(st.st_ino % 16)];   /* (full: one replaced) */
        tg_buf_free(&j->found);
        snprintf(j->path, sizeof j->path, "%s", obj);
        snprintf(j->file, sizeof j->file, "%s", file);
        j->st = st;
        j->emu = emu;
        j->n = n;
        tg_buf_add(&j->found, mine.s ? mine.s : "", mine.len);
    }
    tg_buf_add(found, mine.s ? mine.s : "", mine.len);
    tg_buf_free(&mine);
    return n;
}

/* Runs objdump on the object in the sandbox and judges its digest (policy.c). -1: could not. */
static int judge_object_run(grun *R, const char *file, const char *obj, int emu, tg_buf *found, char *why,
                            size_t whylen)
{
    char dir[PATH_MAX], inside[PATH_MAX + 300];
    snprintf(dir, sizeof dir, "%s", obj);
    char *slash = strrchr(dir, '/');
    *slash = '\0';
    snprintf(inside, sizeof inside, "%s", R->env.iso.bwrap ? "/obj/" : "");
    snprintf(inside + strlen(inside), sizeof inside - strlen(inside), "%s", R->env.iso.bwrap ? slash + 1 : obj);
    const char *argv[] = {"/bin/sh", "-c", tg_policy_objdump_script(), "sh", inside, NULL};
    tg_spawn_opts o = {.argv = argv, .sandbox_cwd = "/tmp", .host_cwd = "/", .max_tasks = 32,
                       .mem_bytes = tg_mem_limit(&R->env.iso, 1LL << 30, R->opt->jobs), .fsize_bytes = 64LL << 20,
                       .tmp_bytes = 128LL << 20, .seccomp_net = 1};
    o.ro[0] = (tg_bind){dir, "/obj"};
    tg_buf out = {0};
    char desc[200], err[600];
    int rc = tg_run_sandboxed(&R->env.iso, &o, 60, &out, desc, sizeof desc, err, sizeof err);
    int n = rc == 0 && out.s ? tg_policy_objects(file, out.s, emu, R->lab->kit_calls, found) : -1;
    if (n < 0)
        snprintf(why, whylen, "objdump on %s's object: %s%s", file, rc < 0 ? err : desc,
                 rc > 0 && out.s ? "" : "");
    tg_buf_free(&out);
    return n;
}

/* Judges every object built from one student file (each tile width's, the emulated program's and
 * its counting twin's: a file may define a name in one of them only, under #if TILE_WIDTH or
 * __SANITIZE_THREAD__), adding each finding once to found. Returns the findings added; *objects
 * and *unread count the objects judged and those that could not be (why says why). */
static int judge_all_objects(grun *R, const gsub *g, const char *file, tg_buf *found, int *objects, int *unread,
                             char *why, size_t whylen)
{
    int n = 0;
    for (int w = 0, k = 0; w < 2; ++k) {
        char obj[PATH_MAX + 400];
        if (!find_object_w(R, g, file, w, obj, sizeof obj, k)) {
            ++w;          /* the next build's objects, from the first */
            k = -1;
            continue;
        }
        tg_buf mine = {0};
        int jr = judge_object(R, file, obj, w, &mine, why, whylen);
        if (jr < 0)
            ++*unread;
        else
            ++*objects;
        for (const char *p = mine.s; jr > 0 && p && *p;) {    /* each finding once (every object) */
            size_t l = strcspn(p, "\n");
            if (!tg_buf_has_line(found, p, l)) {
                tg_buf_printf(found, "%.*s\n", (int)l, p);
                ++n;
            }
            p += l + (p[l] == '\n');
        }
        tg_buf_free(&mine);
    }
    return n;
}

/* The names that tell the GPU build from the emulated ones, judged where the counting twin counts
 * this lab's work (policy.c, tg_policy_build_split): __CUDA_ARCH__ is allowed in a lab with GPU-only
 * variants (07's TMA, 08's mma.sync and wgmma need it; their work the twin does not count). */
static int build_split(const grun *R, const char *file, const char *text, size_t len, tg_buf *found)
{
    if (!R->lab->gpu || !R->lab->emu_target || !R->lab->work.kernel)
        return 0;
    int arch_ok = 0;
    for (int i = 0; i < R->lab->nvariants; ++i)
        arch_ok |= R->lab->variants[i].gpu_only != NULL;
    return tg_policy_build_split(file, text, len, arch_ok, found);
}

/* The gate before any test runs: every object built from a student file (the program's and the
 * emulated one's) defines no name of the runtimes or the kit, links only allowed names and this
 * lab's kit functions, makes no system call; the files hold no host inline assembly. A finding
 * means nothing the program would answer can be trusted (an interposed fprintf writes the answer
 * channel; a defined counter or timer is the student's): no test runs (run.c), each scores 0 with
 * the findings. Returns the number of findings (into found, one a line). */
int tg_judge_link_gate(grun *R, gsub *g, tg_buf *found)
{
    int n = 0;
    for (int i = 0; g->built && i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
        int objects = 0, unread = 0;
        char why[700] = "";
        n += judge_all_objects(R, g, R->lab->files[i], found, &objects, &unread, why, sizeof why);
        if (unread) {   /* an object the gate cannot read is not trusted (fail closed) */
            tg_buf_printf(found, "%s: a compiled object of it could not be judged (%s): nothing the program would "
                          "answer can be trusted\n", R->lab->files[i], why);
            ++n;
        }
        char p[PATH_MAX + 300];
        snprintf(p, sizeof p, "%s/%s", g->files, R->lab->files[i]);
        size_t len = 0;
        char *text = tg_is_file(p) ? tg_read_file(p, 4 << 20, &len) : NULL;
        if (text) {
            n += tg_policy_host_asm(R->lab->files[i], text, len, found);
            n += build_split(R, R->lab->files[i], text, len, found);
            free(text);
        }
    }
    return n;
}

/* Policy: what the student files' compiled objects link (every undefined symbol on the
 * allow-list, no system call instruction; policy.c), and no case killed by the run-time network
 * filter (seccomp). Where no object can be read (the build failed), the static scan of the
 * source decides. Runs after the other tests. */
void tg_judge_policy(grun *R, gsub *g, tres *tr)
{
    tg_buf found = {0};
    int n = 0, objects = 0, unread = 0;
    tg_buf names = {0};
    char objwhy[700] = "";
    for (int i = 0; g->built && i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
        int objs = 0;
        n += judge_all_objects(R, g, R->lab->files[i], &found, &objs, &unread, objwhy, sizeof objwhy);
        objects += objs;
        unread += objs == 0;   /* none found: the build failed before it */
    }
    for (int i = 0; objects && !unread && i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
        char p[PATH_MAX + 300];         /* host inline assembly: the source shows it, the object not */
        snprintf(p, sizeof p, "%s/%s", g->files, R->lab->files[i]);
        size_t len = 0;
        char *text = tg_is_file(p) ? tg_read_file(p, 4 << 20, &len) : NULL;
        if (text) {
            n += tg_policy_host_asm(R->lab->files[i], text, len, &found);
            n += build_split(R, R->lab->files[i], text, len, &found);
            free(text);
        }
    }
    for (int i = 0; (objects == 0 || unread) && i < TL_LAB_MAX_FILES && R->lab->files[i]; ++i) {
        char p[PATH_MAX + 300];         /* the file as taken, else the kit's skeleton built in its place */
        snprintf(p, sizeof p, "%s/%s", g->files, R->lab->files[i]);
        if (!tg_is_file(p))
            snprintf(p, sizeof p, "%s/labs/%s/%s", R->run.pristine, R->lab->dir, R->lab->files[i]);
        size_t len = 0;
        char *text = tg_read_file(p, 4 << 20, &len);
        tg_buf_printf(&names, "%s%s", names.len ? ", " : "", R->lab->files[i]);
        if (text) {
            n += tg_policy_scan(R->lab->files[i], text, len, &found);
            free(text);
        }
    }
    tr->graded = 1;
    tr->passed = n == 0 && g->net_killed == 0;
    tr->score = tr->passed ? tr->t->points : 0;
    if (!tr->passed) {   /* the verdict: what the class summary groups by (the words stay policy.c's) */
        tl_verdict_init(&tr->head.v, TL_V_POLICY, g->net_killed && !n ? "network-socket"
                                                  : objects ? "links-forbidden" : "calls-forbidden");
        tr->head.v.count = n ? n : g->net_killed;
        snprintf(tr->head.v.detail, sizeof tr->head.v.detail, "%.*s", n ? (int)strcspn(found.s, "\n") : 100,
                 n ? found.s : g->net_where);
        tr->have_head = 1;
    }
    if (n)
        tg_buf_printf(&tr->out, "POLICY VIOLATION: %s link%s or call%s what a lab file never needs (the allow-list: "
                      "math, memory, printing, allocation, the CUDA runtime a lab uses, the kit functions this lab "
                      "lists; no definition of a runtime's or the kit's name; no system call or host asm):\n%s", names.s ? names.s : "the student files", n == 1 ? "s" : "",
                      n == 1 ? "s" : "", found.s);
    else if (objects)
        tg_buf_printf(&tr->out, "the compiled object%s of the student files link%s only allowed symbols (math, memory, "
                      "printing, the CUDA runtime, this lab's kit functions), define%s no runtime or kit name and make%s "
                      "no system call\n",
                      objects == 1 ? "" : "s", objects == 1 ? "s" : "", objects == 1 ? "s" : "", objects == 1 ? "s" : "");
    else
        tg_buf_printf(&tr->out, "static scan of %s (comments and strings ignored): no network, process, file, "
                      "syscall, dlopen, getenv or asm use\n", names.s ? names.s : "the student files");
    if (objects && unread)
        tg_buf_printf(&tr->out, "(%d file(s) judged by the static scan: %s)\n", unread, objwhy[0] ? objwhy : "no object found");
    else if (!objects && g->built)
        tg_buf_printf(&tr->out, "(no compiled object could be read%s%s: the static scan decided)\n",
                      objwhy[0] ? ": " : "", objwhy);
    if (g->net_killed)
        tg_buf_printf(&tr->out, "POLICY VIOLATION at run time: killed: tried to open a network socket (%d case(s); "
                      "the first: %s); the grader's seccomp filter stops AF_INET, AF_INET6 and AF_PACKET sockets\n",
                      g->net_killed, g->net_where);
    else if (R->env.iso.seccomp)
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
