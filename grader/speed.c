/* speed.c: the speed test's judge (tg_judge_speed): the student's timed runs against the reference's,
 * same GPU, same inputs, cross-checked with the GPU's counters; moved out of judges.c (one judge per
 * test kind there) to keep each file under ~900 lines. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"
#include "ncu.h"          /* the speed test's cross-check with the GPU's counters */
#include "tilelab.h"

/* A request's wall clock less the time its program waited for a core (session.c): on a busy machine
 * (a class's builds and tests beside a timed window) a timed program that spins on its kernels is
 * descheduled between them, and its wall clock grows by what it waited, not by the GPU's time
 * (device run 0711Z, session 15: the solution's estimate 7.5 ms for its true 1.85, so the wall-clock
 * rule flagged honest files for review and profiled them on demand). Each request's waits come off
 * its own wall clock (the untimed one's too, so the difference can also grow by them), at most the
 * time its tree was off the CPU (tg_waits_left_out). */
static double on_cpu_ms(const cres *r)
{
    return r->wall_ms - (r->waited_ms > 0 ? r->waited_ms : 0);
}

double tg_waits_left_out(double waited_ms, double wall_ms, double cpu_ms)
{
    if (waited_ms <= 0 || cpu_ms < 0)
        return 0;
    double off_cpu = wall_ms - cpu_ms;
    return waited_ms < off_cpu ? waited_ms : off_cpu > 0 ? off_cpu : 0;
}

/* The wall-clock rule (tg_judge_speed): an estimate per run far above the reported median, while the
 * reference's own estimate agrees with its median. */
static int wall_suspicious(double est_s, double rep_s, double est_r, double rep_r)
{
    return est_s > SPEED_SUSPICIOUS * rep_s && est_s - rep_s > 1.0 && est_r <= 1.5 * rep_r + 1.0;
}

/* The wall-clock estimate measured once more where it read suspicious: the student's program started
 * again, warmed with the device shared, then its untimed and timed requests in a window of their own.
 * Honest files read 3-16 x their medians where other processes' CUDA contexts started or ended during
 * their window (device runs 0940Z and 0958Z, session 16: 2 of 100 on one H100, 9 on two; ncu cleared
 * every one, each profile holding the device alone 3.5-5 s while the windows queued behind it); a
 * second window holds it about 0.2 s. The estimate, or -1 where a request failed (the first stands). */
static double estimate_again(grun *R, gsub *g, const gsize *s, const tl_lab_variant *v, double extra)
{
    gsess stu = {.build = g->build, .binary = R->lab->binary, .timed = 1};
    cres a0, a1;
    memset(&a0, 0, sizeof a0);
    memset(&a1, 0, sizeof a1);
    a1.st = C_NOTRUN;
    double limit = R->lab->case_limit_s * 3;
    tg_gpu_take(R, TG_GPU_SHARED);
    tg_run_case(R, g, &stu, s, v, 0, limit, &a0);        /* the program's start and warm-up, shared */
    if (a0.st == C_PASS) {
        tg_gpu_take(R, TG_GPU_ALONE);
        tg_stage(TG_PROF_ALONE, "alone %.30s (again)", v->name);
        tg_buf_free(&a0.explain);
        tg_run_case(R, g, &stu, s, v, 0, limit, &a0);
        if (a0.st == C_PASS) {
            stu.end_window = 1;
            tg_run_case(R, g, &stu, s, v, 1, limit, &a1);
            stu.end_window = 0;
        }
        tg_gpu_take(R, TG_GPU_SHARED);
        tg_stage(TG_PROF_TIMED, "speed %.30s", v->name);
    }
    tg_sess_end(g, &stu, 1);
    if (!R->opt->check)
        tg_gpu_take(R, TG_GPU_NONE);
    double est = a0.st == C_PASS && a1.st == C_PASS && a1.reported_ms > 0 ? (on_cpu_ms(&a1) - on_cpu_ms(&a0)) / extra : -1;
    tg_buf_free(&a0.explain);
    tg_buf_free(&a1.explain);
    return est;
}

/* Speed: the reference solution's binary and the student's, same GPU, same run, same inputs.
 * The ratio is the larger of the reported medians' ratio and the ratio of the wall-clock
 * times of an untimed request measured here, so a program that lies about its time gains
 * nothing. Credit: full within TL_SPEED_FULL, linear to 0 at TL_SPEED_ZERO, none if wrong. */
void tg_judge_speed(grun *R, gsub *g, tres *tr)
{
    const tl_lab_test *t = tr->t;
    const tl_lab_variant *v = tl_lab_variant_find(R->lab, t->variant);
    if (!R->env.gpu_ok || R->opt->emulate) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "refused (not attempted): speed is measured only on a real GPU; %s\n",
                      R->opt->emulate ? "this run is emulated" : R->env.gpu_why);
        return;
    }
    if (!R->run.ref_build[0]) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: the reference solution is not available (%s)\n", R->run.ref_why);
        return;
    }
    tl_sizes list;
    char err[600];
    if (!R->lab->speed_size || tl_parse_sizes(R->lab->speed_size, &list, err, sizeof err) != 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded: no speed size in the grader's table\n");
        return;
    }
    int si = tg_add_size(R, list.m[0], list.k[0], list.n[0], 2);
    if (si < 0 || tg_prepare_size(&R->run.sizes[si], err, sizeof err) != 0) {
        tr->graded = 0;
        tg_buf_printf(&tr->out, "not graded (grader problem): %s\n", err);
        return;
    }
    const gsize *s = &R->run.sizes[si];
    gsess ref = {.build = R->run.ref_build, .binary = R->lab->ref_binary, .timed = 1};
    gsess stu = {.build = g->build, .binary = R->lab->binary, .timed = 1};
    cres r0, r1, s0, s1;
    /* The reference runs in a scratch submission record: its time-outs and prints are not the student's. */
    gsub scratch;
    memset(&scratch, 0, sizeof scratch);
    scratch.s = g->s;
    snprintf(scratch.work, sizeof scratch.work, "%s", g->work);
    /* The timed window is the timed requests alone (gpushare.c, grader/README.md "The GPUs of a
     * class run"). Each program is started, sent its inputs and warmed (the CUDA context, the first
     * touch) by an untimed request with the device shared, as untimed work is: run_test holds it
     * shared, each request takes it for its time (session.c). Then the device alone (the queue, the
     * drain): the reference's untimed and timed requests (where no fresh timing of it serves), the
     * student's; the second untimed request's wall time is the plausibility estimate's base, so it
     * runs alone like the timed one. Given back at once; the sessions end with it shared. */
    char sz[48], key[64];
    tg_size_str(sz, sizeof sz, s);
    snprintf(key, sizeof key, "%.30s %.30s", v->name, sz);
    /* The reference's timing serves the next speed tests on this device (TG_REF_REUSE of them, for
     * TG_REF_MAX_AGE_S at most; gpushare.c's board): where one looks fresh, its start is not paid
     * here; the device held alone decides (another worker may have timed it meanwhile, or it aged). */
    int reuse = tg_gpu_ref_time_hint(key, TG_REF_REUSE, TG_REF_MAX_AGE_S);
    memset(&r0, 0, sizeof r0);
    memset(&r1, 0, sizeof r1);
    memset(&s1, 0, sizeof s1);
    s1.st = C_NOTRUN;
    if (!reuse) {
        tg_run_case(R, &scratch, &ref, s, v, 0, R->lab->case_limit_s * 3, &r0);
        tg_buf_free(&r0.explain);
    }
    tg_run_case(R, g, &stu, s, v, 0, R->lab->case_limit_s * 3, &s0);
    /* A warm-up that failed as a co-tenant's memory would make it fail: again in the window, from
     * a fresh process (nothing of another student's then runs beside it). Any other failure is the
     * student's: no window for a program that cannot be timed. */
    int crowded = s0.st != C_PASS && tg_gpu_held() == TG_GPU_SHARED &&
                  ((s0.v.kind == TL_V_ERROR && tl_verdict_pattern_is(&s0.v, "no-device-claimed")) ||
                   tg_gpu_crowded_words(s0.reason) || (stu.c.cap.s && tg_gpu_crowded_words(stu.c.cap.s)));
    if (crowded) {
        tg_sess_end(g, &stu, 0);
        tg_buf_printf(&g->notes, "%s: the warm-up failed while the GPU was shared (%s); run again with the GPU alone\n",
                      t->name, s0.reason);
    }
    int window = s0.st == C_PASS || crowded;
    char ref_note[400] = "", win_note[600] = "";
    double req_ms = 0;                 /* the window's requests, their exchanges' wall time */
    if (window) {
        tg_gpu_take(R, TG_GPU_ALONE);
        double alone_at = tl_now_ms();
        tg_stage(TG_PROF_ALONE, "alone %.30s", v->name);
        tg_ref_time *rt = tg_gpu_ref_time();
        if (rt && tg_ref_time_reuse(rt, key, (long long)tl_now_ms(), TG_REF_REUSE, TG_REF_MAX_AGE_S)) {
            r0.st = r1.st = C_PASS;
            r1.reported_ms = rt->median_ms;
            r0.wall_ms = rt->untimed_wall_ms;   /* (the waits for a core already left out) */
            r1.wall_ms = rt->timed_wall_ms;
            r0.waited_ms = r1.waited_ms = 0;
            rt->uses++;
            snprintf(ref_note, sizeof ref_note, "the reference's median was timed %.1f s earlier on this device "
                     "(timing %d of this run there; one timing serves at most %d speed tests for %d s)",
                     (tl_now_ms() - (double)rt->at_ms) / 1000.0, rt->timings, TG_REF_REUSE, TG_REF_MAX_AGE_S);
        } else {
            if (!ref.alive) {   /* (started only now: its first request pays the CUDA context) */
                tg_run_case(R, &scratch, &ref, s, v, 0, R->lab->case_limit_s * 3, &r0);
                tg_buf_free(&r0.explain);
                req_ms += r0.wall_ms;
            }
            tg_run_case(R, &scratch, &ref, s, v, 0, R->lab->case_limit_s * 3, &r0);
            tg_run_case(R, &scratch, &ref, s, v, 1, R->lab->case_limit_s * 3, &r1);
            req_ms += r0.wall_ms + r1.wall_ms;
            if (rt && r0.st == C_PASS && r1.st == C_PASS && r1.reported_ms > 0) {
                double before = rt->timings ? rt->first_ms : 0;
                snprintf(rt->key, sizeof rt->key, "%s", key);
                rt->median_ms = r1.reported_ms;
                rt->untimed_wall_ms = on_cpu_ms(&r0);
                rt->timed_wall_ms = on_cpu_ms(&r1);
                rt->at_ms = (long long)tl_now_ms();
                rt->uses = 1;
                if (!rt->timings++)
                    rt->first_ms = r1.reported_ms;
                if (before > 0)
                    snprintf(ref_note, sizeof ref_note, "the reference timed now (timing %d of this run on this device; "
                             "its first: %.3f ms, %+.2f%%)", rt->timings, before, 100.0 * (r1.reported_ms / before - 1));
                else
                    snprintf(ref_note, sizeof ref_note, "the reference timed now (the first timing of this run on "
                             "this device)");
            }
        }
        if (crowded) {               /* its warm-up again, alone */
            tg_buf_free(&s0.explain);
            tg_run_case(R, g, &stu, s, v, 0, R->lab->case_limit_s * 3, &s0);
            req_ms += s0.wall_ms;
        }
        if (s0.st == C_PASS) {
            tg_buf_free(&s0.explain);
            tg_run_case(R, g, &stu, s, v, 0, R->lab->case_limit_s * 3, &s0);
            req_ms += s0.wall_ms;
        }
        if (s0.st == C_PASS) {
            /* the last timed request: the device alone is given back once its answer is read, before
             * the grader judges it (session.c; nothing of the student's runs between requests) */
            stu.end_window = 1;
            tg_run_case(R, g, &stu, s, v, 1, R->lab->case_limit_s * 3, &s1);
            stu.end_window = 0;
            req_ms += s1.wall_ms;
        }
        /* the window ends (where the timed answer did not end it): the sessions end with the device
         * shared (their exit runs the student's destructors: a request's hold) */
        double held_s = (tl_now_ms() - alone_at) / 1000.0;
        tg_gpu_take(R, TG_GPU_SHARED);
        tg_gpu_win gw;
        tg_gpu_window(&gw);
        double alone_s = gw.alone_ms > 0 ? gw.alone_ms / 1000.0 : held_s;
        if (tg_gpu_held() == TG_GPU_SHARED && !R->opt->check)   /* (the class's figures, not a student's) */
            snprintf(win_note, sizeof win_note, "timed window: %.2f s alone; %.2f s waiting for it (%.2f s of it "
                     "draining the requests in flight and the windows queued ahead, %d drain(s) given up; a "
                     "request held the device %.2f s at most meanwhile); the requests %.2f s of the alone time, "
                     "the test %.2f s from the lock to its last answer judged; behind other windows %.2f s; "
                     "the longest holder a %s request, the last give-up's a %s one", alone_s, gw.wait_ms / 1000.0,
                     gw.drain_ms / 1000.0, gw.retries, gw.longest_ms / 1000.0, req_ms / 1000.0, held_s,
                     gw.ahead_ms / 1000.0, gw.longest_kind >= 0 ? tg_profile_key(gw.longest_kind) : "none",
                     gw.gave_up_kind >= 0 ? tg_profile_key(gw.gave_up_kind) : "none");
        tg_stage(TG_PROF_TIMED, "speed %.30s", v->name);
    }
    tg_sess_end(&scratch, &ref, 1);
    tg_buf_free(&scratch.evidence);
    tg_sess_end(g, &stu, 1);
    if (!R->opt->check)
        tg_gpu_take(R, TG_GPU_NONE);   /* the rest is the grader's arithmetic */
    /* the reference as far as it ran: timed in the window; without one (the student's warm-up
     * failed) its warm-up passed, or a timing of it looked fresh */
    int ref_ok = window ? r0.st == C_PASS && r1.st == C_PASS && r1.reported_ms > 0 : reuse || r0.st == C_PASS;
    tr->graded = 1;
    if (!ref_ok) {
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
        double credit = tl_test_speed_credit(t, rep_ratio);   /* the lab's tiers, else the linear rule */
        tr->score = tg_round2(t->points * credit);
        tr->passed = credit >= 1.0;
        tg_buf_printf(&tr->out, "size %s: median %.3f ms against the reference's %.3f ms (ratio %.2f): %.0f%% of "
                      "the points ", sz, s1.reported_ms, r1.reported_ms, rep_ratio, 100 * credit);
        if (t->tiers[0].max_ratio > 0) {
            tg_buf_printf(&tr->out, "(tiers:");
            for (int i = 0; i < TL_LAB_MAX_TIERS && t->tiers[i].max_ratio > 0; ++i)
                tg_buf_printf(&tr->out, "%s %.0f%% within %.2fx", i ? "," : "", 100 * t->tiers[i].credit,
                              t->tiers[i].max_ratio);
            tg_buf_printf(&tr->out, ", none beyond)\n");
        } else {
            tg_buf_printf(&tr->out, "(full within %.1fx of the reference, none from %.0fx)\n", TL_SPEED_FULL, TL_SPEED_ZERO);
        }
        /* Plausibility: a timed request does TL_WARMUP_RUNS + TL_TIMED_RUNS more runs than an
         * untimed one, so the difference of their wall-clock times, measured here, bounds the
         * time of one run from below (plus transfers' noise). A reported median far below that
         * bound, while the reference's agrees with its own, is flagged for the instructor. */
        double extra = TL_WARMUP_RUNS + TL_TIMED_RUNS;
        double est_s = (on_cpu_ms(&s1) - on_cpu_ms(&s0)) / extra, est_r = (on_cpu_ms(&r1) - on_cpu_ms(&r0)) / extra;
        tg_buf_printf(&tr->out, "wall-clock estimate per run, measured by the grader: %.3f ms (reference %.3f ms)",
                      est_s, est_r);
        if (s1.waited_ms > 0 || s0.waited_ms > 0)
            tg_buf_printf(&tr->out, "; left out of it, the program waiting for a core: %.1f ms in the timed request, "
                          "%.1f ms in the untimed one", s1.waited_ms > 0 ? s1.waited_ms : 0, s0.waited_ms > 0 ? s0.waited_ms : 0);
        tg_buf_printf(&tr->out, "\n");
        if (ref_note[0])
            tg_buf_printf(&tr->out, "%s\n", ref_note);
        /* The median against the GPU time of the kernels themselves, measured by ncu outside the
         * program's process in the profiled run of this variant and size (counters.c): a timed run
         * cannot be faster than its kernels. The only timing evidence the student cannot write. */
        const tg_ctr_var *cv = tg_counters_var(R, g, v);
        char tw[600];
        int cleared = 0;                 /* the kernels' own time agrees with the reported median */
        /* By default (counters.c's policy) no variant was profiled before the tests: the counting twin
         * counted the work. Where this time is implausible for the kernel it counted, every needed
         * variant is profiled now and the counters judge the work too (counters.c,
         * tg_counters_after_tests): a median the wall clock contradicts (the review rule below: the
         * wall clock only bounds a forgery from below), or a kernel whose reported median (CUDA events
         * around its timed runs alone) is slower than full credit allows (a tiled kernel's time; lab
         * 02's naive one took 1.5 x the reference's at 2048 on the H100: a file that computes otherwise
         * on the GPU than where its work was counted). Not the wall-clock ratio: its untimed requests
         * run beside others' (device request int-1: honest kernels at 1.00 x reported read 1.25 x and
         * more by the wall clock, and their on-demand profiles held the ncu lock 70% of the class) */
        int suspicious = wall_suspicious(est_s, s1.reported_ms, est_r, r1.reported_ms);
        /* The machine's hiccup or the program's: again, alone (estimate_again), up to SPEED_WALL_AGAIN
         * times while it reads suspicious. A second window cleared most honest files; on two H100s
         * (class-results 1703Z, session 19) two read high twice and each then cost an ncu session of
         * 3.5-7 s holding its device in the timed phase, where a window holds it about 0.2 s. */
        for (int again = 0; suspicious && again < SPEED_WALL_AGAIN; ++again) {
            double est2 = estimate_again(R, g, s, v, extra);
            if (est2 < 0)
                break;
            suspicious = wall_suspicious(est2, s1.reported_ms, est_r, r1.reported_ms);
            tg_buf_printf(&tr->out, "the wall-clock estimate measured again, in a window of its own: %.3f ms per "
                          "run%s\n", est2, suspicious ? "" : again ? ": the earlier readings were the machine's, not "
                          "the program's (no review needed)" : ": the first reading was the machine's, not the "
                          "program's (no review needed)");
            if (suspicious && est2 < est_s)
                est_s = est2;
        }
        /* A median under half the reference's is checked on the counters whatever the wall clock says:
         * the wall-clock bound is a difference of two requests' times and reads low where another
         * process's kernel was still on the device (device run 01:47 UTC: gpu_async_stream's forged
         * 0.016 ms against an estimate of 0.536 ms, the reference's 1.218 ms for its true 1.833 ms, so
         * the rule above did not fire and the forgery kept full credit). A forged time is always a
         * fast one; an honest kernel that fast pays one profiled session and keeps its time. */
        int fast = rep_ratio > 0 && rep_ratio < SPEED_FAST_CHECK;
        /* A slow kernel is profiled only while the counters could still take a correctness test's
         * credit (one judged with credit, or one not judged yet): where every correctness test already
         * failed (the twin counted it untiled, a wrong P) there is nothing for them to decide, and the
         * session would only hold the device's profiler (device run 01:31 UTC: the naive-in-tiled file's
         * on-demand sessions, about 100 s of host work under ncu, made 43 timed windows' drains wait) */
        int slow = rep_ratio > TL_SPEED_FULL && (g->corr_credited > 0 || g->corr_left > 0);
        char why[300];
        if (suspicious)
            snprintf(why, sizeof why, "the reported median is far below what the grader's wall clock allows");
        else if (fast)
            snprintf(why, sizeof why, "the speed test's reported median, %.2f x the reference's, is under %.1f x: its "
                     "time is checked against the kernels' own", rep_ratio, SPEED_FAST_CHECK);
        else
            snprintf(why, sizeof why, "the speed test's reported median, %.2f x the reference's, is slower than full "
                     "credit allows (%.1f x)", rep_ratio, TL_SPEED_FULL);
        if ((suspicious || fast || slow) && tg_counters_on_demand(R, g, why)) {
            cv = tg_counters_var(R, g, v);
            tg_buf_printf(&tr->out, "profiled on demand (ncu, outside the program's process): %s\n", why);
        } else if (g->early_why[0]) {
            tg_buf_printf(&tr->out, "profiled before the timed phase (ncu, outside the program's process): %s\n",
                          g->early_why);
        }
        if (cv && cv->size[0] && strcmp(cv->size, sz) != 0)   /* profiled at another size (the variant refused it) */
            cv = NULL;
        if (cv && cv->state == TG_CTR_JUDGED && cv->kernel_ms > 0 && cv->shared && !cv->again &&
            tg_ncu_timing(s1.reported_ms, cv->kernel_ms, tw, sizeof tw)) {
            /* that kernel time was measured beside other processes' kernels (the device shared): a
             * forged timing is said only from a profiled run with the device alone */
            tg_counters_again_alone(R, g, v);
            cv = tg_counters_var(R, g, v);
            if (cv && cv->size[0] && strcmp(cv->size, sz) != 0)
                cv = NULL;
        }
        if (cv && cv->state == TG_CTR_JUDGED && cv->kernel_ms > 0 && tg_ncu_timing(s1.reported_ms, cv->kernel_ms,
                                                                                  tw, sizeof tw)) {
            tr->score = 0;
            tr->passed = 0;
            tg_buf_printf(&tr->out, "no speed credit: %s\n", tw);
            tl_verdict_init(&tr->head.v, TL_V_ERROR, "forged-timing");
            tl_verdict_set(tr->head.v.detail, sizeof tr->head.v.detail, tw);
            snprintf(tr->head.size, sizeof tr->head.size, "%s", sz);
            tr->have_head = 1;
            tg_tres_add_case(tr, sz, &tr->head.v);
            tg_buf_printf(&g->notes, "forged timing in the speed test: %s\n", tw);
        } else if (cv && cv->state == TG_CTR_JUDGED && cv->kernel_ms > 0) {
            tg_buf_printf(&tr->out, "time cross-checked: %s\n", tw);
            if (tg_ncu_review(s1.reported_ms, cv->kernel_ms, tw, sizeof tw)) {   /* evidence, not a score */
                tg_buf_printf(&tr->out, "%s\n", tw);
                tg_buf_printf(&g->notes, "%s\n", tw);
            } else {
                cleared = 1;
            }
        } else if (cv && cv->state == TG_CTR_NOT_CHECKED) {
            tg_buf_printf(&tr->out, "time against the GPU's counters: not checked here: %s (the wall-clock estimate "
                          "above is the evidence)\n", cv->why);
        } else if (cv && cv->state == TG_CTR_FAILED) {
            tr->score = 0;
            tr->passed = 0;
            tg_buf_printf(&tr->out, "no speed credit: %s\n", cv->headline);
        }
        if (suspicious && cleared) {
            /* The better evidence clears it: no accusation of an honest file (device run 0735Z, session
             * 15: on the 2-GPU machine honest files' estimates read high while the other device's
             * sessions started, their waits in the driver not the GPU's time) */
            tg_buf_printf(&tr->out, "the grader's wall clock read ~%.3f ms per run, far above the reported median, but "
                          "the kernels' own time measured outside the program's process agrees with the median: "
                          "the wall clock also counts the program's waits on a loaded machine (no review needed)\n",
                          est_s);
        } else if (suspicious) {
            tg_buf_printf(&tr->out, "REVIEW: the reported median (%.3f ms) is far below what the wall clock allows "
                          "(at least ~%.3f ms per run); the lab binary's timing may have been tampered with\n",
                          s1.reported_ms, est_s);
            tg_buf_printf(&g->notes, "REVIEW the speed test by hand: reported %.3f ms, wall clock ~%.3f ms per run\n",
                          s1.reported_ms, est_s);
        }
    }
    if (win_note[0])
        tg_buf_printf(&tr->out, "%s\n", win_note);
    tg_buf_free(&r0.explain); tg_buf_free(&r1.explain); tg_buf_free(&s0.explain); tg_buf_free(&s1.explain);
}

