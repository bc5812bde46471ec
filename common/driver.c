/* driver.c: the program every lab binary is. A lab supplies a table of variants (lab.c);
 * this file runs them: inputs, checks, timing of checked runs only, the table, records. Its
 * other parts (driver.h): the command line (drivercli.c) and the grader's --serve channel
 * (driverserve.c, CONTRACTS.md section 2).
 *
 * Order of work for each case (llm.c's "validate every configuration before timing any"):
 *   1. seeded random M and N, P poisoned, each in its own allocation with canaries;
 *   2. the variant runs once; its output is checked against the double reference;
 *   3. only if it passed: warm-up, timed runs, median/min/max. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <sys/time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"

#ifdef TL_EMULATED
/* The emulation runtime (common/emu): permutes thread order, reports diagnostics, counts the work. */
#include "tl_emu_api.h"
#include "tl_emu_marks.h"   /* TL_EMU_PENDING_MARK: a cp.async stage read before it landed */
#endif

#ifdef TL_EMULATED
static const char *tl_driver_lab_id = "";   /* the running lab (gpu_run: which work rule applies) */
#endif

int tl_drv_counts_work(void)
{
#ifdef TL_EMULATED
    return tl_emu_counts_accesses();
#else
    return 0;
#endif
}


/* ------------------------------------------------------------------ the time limit */
/* Every path of a lab program is bounded like the grader's session: one case's checked run(s)
 * get the lab table's case_limit_s of CPU time (the process's, every thread of it: ITIMER_PROF),
 * scaled up for cases larger than the public ones, so a correct file passes at any load; the wall
 * clock ends only a run that sleeps or waits (a kernel that never ends on a GPU, whose wait costs
 * no CPU), at TL_WALL_BACKSTOP_* times that. The messages are made before the run, so the
 * handlers only write them. */
static char watchdog_msg[2][640];
static size_t watchdog_len[2];

static void watchdog_fired(int sig)
{
    int w = sig == SIGALRM;   /* 0: the CPU-time limit (SIGPROF), 1: the wall clock */
    (void)!write(STDOUT_FILENO, watchdog_msg[w], watchdog_len[w]);
    _exit(TL_EXIT_FAIL);
}

static void watchdog_arm(const char *lab_id, const opts *o, const char *size, const char *variant, double work,
                         int on_gpu)
{
    if (o->time_limit <= 0)
        return;
    double limit = o->time_limit;
    if (o->public_work > 0 && work > o->public_work)
        limit *= work / o->public_work;
    if (limit > 86400)
        limit = 86400;
#ifdef TL_EMULATED
    on_gpu = 0;   /* emulated: the kernels' threads are CPU time like everything else */
#endif
    double wall = limit * (on_gpu ? TL_WALL_BACKSTOP_GPU : TL_WALL_BACKSTOP_CPU);
    for (int w = 0; w < 2; ++w) {
        int l = w == 0
            ? snprintf(watchdog_msg[0], sizeof watchdog_msg[0],
                       "\n  %-14s %-13s FAIL: no answer within the %.0f s CPU-time limit: stopped; an endless "
                       "loop, or far too slow (the grader stops a case at the same limit; --time-limit S changes "
                       "it here, 0 for none)\nlab%s: stopped at the CPU-time limit\n", size, variant, limit, lab_id)
            : snprintf(watchdog_msg[1], sizeof watchdog_msg[1],
                       "\n  %-14s %-13s FAIL: no answer within the %.0f s wall-clock limit (%g times the %.0f s "
                       "CPU-time limit): stopped; it sleeps or waits%s, or the machine is heavily loaded\n"
                       "lab%s: stopped at the wall-clock limit\n", size, variant, wall,
                       on_gpu ? TL_WALL_BACKSTOP_GPU : TL_WALL_BACKSTOP_CPU, limit,
                       on_gpu ? " (a kernel that never ends)" : "", lab_id);
        watchdog_len[w] = l < 0 ? 0 : (size_t)l < sizeof watchdog_msg[w] ? (size_t)l : sizeof watchdog_msg[w] - 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = watchdog_fired;
    sigaction(SIGALRM, &sa, NULL);
    sigaction(SIGPROF, &sa, NULL);
    fflush(stdout);
    fflush(stderr);
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = (time_t)limit;
    it.it_value.tv_usec = (suseconds_t)((limit - floor(limit)) * 1e6);
    if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
        it.it_value.tv_usec = 1;
    setitimer(ITIMER_PROF, &it, NULL);
    alarm((unsigned)ceil(wall));
}

static void watchdog_disarm(void)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    setitimer(ITIMER_PROF, &it, NULL);
    alarm(0);
}

void tl_drv_run_cpu_once(const cpu_ctx *c)
{
    c->v->cpu(c->M->data, c->N->data, c->P->data, c->M->rows, c->M->cols, c->N->cols, c->v->ctx);
}

/* Host timing of a CPU variant: as many runs as fit in about half a second, at most reps. */
void tl_drv_time_cpu(const cpu_ctx *c, double first_ms, int reps, tl_stats *st)
{
    int n = first_ms > 0 ? (int)(500.0 / first_ms) : reps;
    if (n > reps) n = reps;
    if (n < 1) n = 1;
    double *ms = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; ++i) {
        double t0 = tl_now_ms();
        tl_drv_run_cpu_once(c);
        ms[i] = tl_now_ms() - t0;
    }
    tl_stats_from(st, ms, n);
    free(ms);
}

/* The inputs of one size and their reference, made once and shared by every variant (a
 * Width-4096 reference is 6.9e10 multiply-adds: never compute it twice). Made on first use,
 * so sizes that every variant refuses or skips cost nothing. */
typedef struct case_inputs {
    int      ready, failed;
    uint64_t seed;
    int      m, k, n;
    int      bf16;              /* inputs on the BF16 grid (lab 08) */
    tl_matrix M, N;
    double  *ref, *absref;
} case_inputs;

static int inputs_get(case_inputs *in)
{
    if (in->ready)
        return in->failed ? -1 : 0;
    in->ready = 1;
    if (tl_matrix_alloc(&in->M, "M", in->m, in->k) || tl_matrix_alloc(&in->N, "N", in->k, in->n)) {
        in->failed = 1;
        return -1;
    }
    in->ref = malloc(sizeof(double) * (size_t)in->m * in->n);
    in->absref = malloc(sizeof(double) * (size_t)in->m * in->n);
    if (!in->ref || !in->absref) {
        in->failed = 1;
        return -1;
    }
    tl_matrix_fill_random(&in->M, in->seed, 1);
    tl_matrix_fill_random(&in->N, in->seed, 2);
    if (in->bf16) {
        tl_matrix_round_bf16(&in->M);
        tl_matrix_round_bf16(&in->N);
    }
    tl_reference_gemm(in->M.data, in->N.data, in->ref, in->absref, in->m, in->k, in->n);
    return 0;
}

static void inputs_free(case_inputs *in)
{
    if (in->M.base) tl_matrix_free(&in->M);
    if (in->N.base) tl_matrix_free(&in->N);
    free(in->ref);
    free(in->absref);
    memset(in, 0, sizeof *in);
}

#ifdef TL_EMULATED
/* d_M times sm and d_N times sn in place (emulated, outside the guard: device memory is host memory
 * here); a power of two is exact at the labs' magnitudes, so 2 then 0.5 restores them bit for bit. */
static void scale_inputs(tl_gpu_case *gc, float sm, float sn)
{
    size_t cm = (size_t)gc->m * gc->k, cn = (size_t)gc->k * gc->n;
    for (size_t e = 0; sm != 1.0f && e < cm; ++e)
        gc->d_M[e] *= sm;
    for (size_t e = 0; sn != 1.0f && e < cn; ++e)
        gc->d_N[e] *= sn;
}

/* Whether q is s p element by element, exactly (NaN where both are NaN). */
static int scaled_equal(const float *q, const float *p, float s, size_t n)
{
    for (size_t e = 0; e < n; ++e) {
        float want = p[e] * s;
        if (q[e] != want && !(isnan(q[e]) && isnan(want)))
            return 0;
    }
    return 1;
}
#endif

/* tl_gpu_case_run with the emulated device guarded from host code for the launcher's run
 * (tl_emu_guard_device): its buffers out of host code's reach outside kernels and the runtime's copies,
 * as on a GPU, and a copy to the host before a later write to the device counted (a host round trip,
 * judged by tl_work_judge). On a GPU, tl_gpu_case_run itself. */
static int case_run_guarded(tl_gpu_case *gc, const tl_variant *v, tl_matrix *P, char *err, size_t errlen)
{
#ifdef TL_EMULATED
    tl_emu_guard_device(1);
#endif
    int rc = tl_gpu_case_run(gc, v->gpu, v->ctx, P, err, errlen);
#ifdef TL_EMULATED
    tl_emu_guard_device(0);
#endif
    return rc;
}

/* One checked-launch of a GPU variant into P. Under emulation the same case also runs with the
 * threads of each block in reversed and in shuffled order, which must give the same bits (a
 * result that depends on the order is a race), and the emulator's diagnostic (race, divergent
 * barrier, out-of-bounds, ...) replaces a bare CUDA error. Used by the checks and by --serve,
 * so the grader sees exactly what ./kit check sees. */
int tl_drv_gpu_run(tl_gpu_case *gc, const tl_variant *v, tl_matrix *P, unsigned seed, tl_work_counts *wc,
                   tl_verdict *vd, char *err, size_t errlen)
{
    if (vd)
        tl_verdict_init(vd, TL_V_NONE, "correct");
#ifdef TL_EMULATED
    /* Above TL_EMU_MAX_CHECKED_WORK (512^3) the emulator checks the result only: no shared-memory race
     * checks and no re-runs in other thread orders (the smaller sizes, which every check runs, have
     * them): a 1024^3 case then costs about 1 s of CPU instead of 12. Above TL_EMU_MAX_REORDER_WORK
     * (256^3) the case is race-checked in one thread order and not re-run in the other two: the
     * re-runs take the emulator's general copy, about 85% of a 512^3 case's CPU (issue 29), and what
     * only they find (stores of two threads colliding in global memory, with no race in shared
     * memory) shows at the public sizes up to 256^3 that every check runs in all three orders. */
    double work = (double)gc->m * gc->k * gc->n;
    int light = work > TL_EMU_MAX_CHECKED_WORK;
    int reorder = work <= TL_EMU_MAX_REORDER_WORK;
    int race_was = tl_emu_race_check();
    if (light) tl_emu_set_race_check(0);
    /* The work of the checked run alone (the re-runs in other orders would triple it), counted by
     * the emulator: the grader and the table judge it against the lab (tl_work_judge). Shared
     * accesses are counted only where the lab's rule needs them (tiled labs: about 40% slower). */
    const tl_lab_info *info = wc ? tl_lab_find(tl_driver_lab_id) : NULL;
    int count_shared = info && info->work.tiled;
    if (count_shared) tl_emu_set_count_shared(1);
    tl_emu_counters_reset();
    tl_emu_shared_escapes_reset();
#endif
    int rc = case_run_guarded(gc, v, P, err, errlen);
#ifdef TL_EMULATED
    if (count_shared) tl_emu_set_count_shared(0);
    if (light) tl_emu_set_race_check(race_was);
    tl_emu_counters ec;
    tl_emu_counters_get(&ec);
    int read_p = 0;
    /* One pass over P for two ways a kernel reads what it never wrote, both seen in NaN bits x86 keeps
     * through +, * and fma (a GPU makes its own NaN, which the checker sees as computed):
     * - every element still the poison although the kernel stored at least as many elements: what it
     *   stored came from P itself (P += x, or beta * P on the NaN-poisoned output). Read before
     *   written, not "never written";
     * - elements carrying the emulator's mark for a float the kernel declared without a value
     *   (TL_EMU_UNINIT_MARK, with the declaration's line). */
    if (rc == 0) {
        size_t cnt = tl_matrix_count(P), poison = 0, marked = 0, inflight = 0;
        uint32_t at = 0, copy_at = 0;
        for (size_t e = 0; e < cnt; ++e) {
            uint32_t bits;
            memcpy(&bits, &P->data[e], sizeof bits);
            poison += bits == TL_POISON_BITS;
            if ((bits & TL_EMU_UNINIT_MASK) == TL_EMU_UNINIT_MARK && !marked++)
                at = bits & TL_EMU_UNINIT_LINE;
            if ((bits & TL_EMU_UNINIT_MASK) == TL_EMU_PENDING_MARK && !inflight++)
                copy_at = bits & TL_EMU_UNINIT_LINE;
        }
        /* the finding as a verdict (CONTRACTS.md section 10); err its words for people */
        tl_verdict f;
        if (cnt > 0 && poison == cnt && ec.global_stores >= (unsigned long long)cnt) {
            tl_verdict_init(&f, TL_V_EMULATOR, "p-read-before-written");
            f.count = (long long)ec.global_stores;
            snprintf(f.detail, sizeof f.detail, "the kernel stored %llu elements, and every "
                     "element of P is still the NaN the kit fills P with before the run, so each store "
                     "wrote a value computed from P itself (P += ..., or beta * P with beta 0: 0 * NaN is "
                     "NaN); the kit does not zero P: sum in a register and store once, "
                     "P[Row * n + Col] = Pvalue", ec.global_stores);
            snprintf(err, errlen, "reading P before writing it: %.440s", f.detail);
            rc = -1;
            read_p = 1;
        } else if (inflight) {
            /* a stage read before its cp.async copy landed (common/emu/src/pipeline.cpp): the value
             * read was the emulator's mark for a copy in flight, with the copy's line */
            tl_verdict_init(&f, TL_V_EMULATOR, "race");
            f.line = (int)copy_at;
            f.count = (long long)inflight;
            f.total = (long long)cnt;
            snprintf(f.detail, sizeof f.detail, "%zu of %zu elements of P were computed from shared "
                     "memory that the cp.async copy at line %u had not written yet: a stage was read before "
                     "the __pipeline_wait_prior that covers its commit group (and the __syncthreads() after it) "
                     "let the copy land, or refilled while still being read; on a GPU it reads stale data",
                     inflight, cnt, (unsigned)copy_at);
            snprintf(err, errlen, "race: a stage read before its copy landed: %.440s", f.detail);
            rc = -1;
            read_p = 1;
        } else if (marked && (at & TL_EMU_UNINIT_ARRAY2D)) {
            /* a 2-D local array read before this thread wrote it: in a tiled kernel, a tile declared
             * without __shared__ (each thread loads one element of its own copy and reads the rest) */
            unsigned aline = at & TL_EMU_UNINIT_ALINE;
            tl_verdict_init(&f, TL_V_EMULATOR, "tile-not-shared");
            f.line = (int)aline;
            f.count = (long long)marked;
            f.total = (long long)cnt;
            snprintf(f.detail, sizeof f.detail, "%zu of %zu elements of P were computed from "
                     "elements of the array declared at line %u of the kernel's file that no one wrote: "
                     "without __shared__ an array is each thread's own, so the elements the other threads "
                     "load never reach it: declare the tile __shared__ float Mds[TILE_WIDTH][TILE_WIDTH]; "
                     "(on a GPU it holds leftover values)", marked, cnt, aline);
            snprintf(err, errlen, "tile not __shared__: %.440s", f.detail);
            rc = -1;
            read_p = 1;
        } else if (marked && (at & TL_EMU_UNINIT_ARRAY)) {
            unsigned aline = at & TL_EMU_UNINIT_ALINE;
            tl_verdict_init(&f, TL_V_EMULATOR, "uninitialised-local");
            f.line = (int)aline;
            f.count = (long long)marked;
            f.total = (long long)cnt;
            snprintf(f.detail, sizeof f.detail, "%zu of %zu elements of P were computed from "
                     "elements of the array declared without values at line %u of the kernel's file "
                     "(float acc[4]; then acc[i] += ...): a local array is each thread's own: give "
                     "every element a value first (an accumulator its zeros); a tile the block shares "
                     "is declared __shared__", marked, cnt, aline);
            snprintf(err, errlen, "reading a local before giving it a value: %.440s", f.detail);
            rc = -1;
            read_p = 1;
        } else if (marked) {
            tl_verdict_init(&f, TL_V_EMULATOR, "uninitialised-local");
            f.line = (int)at;
            f.count = (long long)marked;
            f.total = (long long)cnt;
            snprintf(f.detail, sizeof f.detail, "%zu of %zu elements of P were "
                     "computed from the float declared without a value at line %u of the kernel's file "
                     "(as float Pvalue; then Pvalue += ..., or a value given on some paths only): the "
                     "emulator gives it a NaN; on a GPU it holds whatever its register held, often 0, so "
                     "it may pass there by luck: give it its value where it is declared (float Pvalue = "
                     "0;)", marked, cnt, (unsigned)at);
            snprintf(err, errlen, "reading a local before giving it a value: %.440s", f.detail);
            rc = -1;
            read_p = 1;
        }
        if (read_p) {
            tl_emu_write_verdict(&f);
            if (vd)
                *vd = f;
        }
    }
    if (wc) {
        /* A light run's launches are unchecked by the harness's own choice, not the student's. */
        *wc = (tl_work_counts){ec.launches, ec.global_loads, ec.global_stores, ec.shared_loads, ec.shared_stores,
                               light ? 0 : ec.unchecked_launches, .host_round_trips = ec.host_round_trips};
    }
    if (rc == 0 && reorder) {
        tl_matrix Q;
        if (tl_matrix_alloc(&Q, "P", P->rows, P->cols) == 0) {
            tl_emu_mute_kernel_output(1);   /* the re-runs print nothing: one printf per thread */
            tl_emu_set_race_check(0);       /* the first run checked for races; these compare results */
            for (int mode = 1; mode <= 2 && rc == 0; ++mode) {
                tl_emu_set_order(mode, seed);
                /* The reversed run multiplies 2 M (exact: only exponents change), so its P must be
                 * exactly twice the first: an answer kept from an earlier call on the same inputs
                 * (every variant of a size gets the same M and N) does not double. The guard is off
                 * here, so the harness scales d_M in place, and back after. A P exactly the first
                 * again is run once more with N doubled: one that ignores both inputs is a kept
                 * answer; any other difference (a race, or a wrong kernel not linear in M: then the
                 * checker says what is wrong) is decided by the same run on the unscaled inputs. */
                int kept = 0, same = 1;   /* same: this run's P is what the first run's makes it */
                size_t cnt = tl_matrix_count(P);
                if (mode == 1) {
                    scale_inputs(gc, 2.0f, 1.0f);
                    rc = case_run_guarded(gc, v, &Q, err, errlen);
                    scale_inputs(gc, 0.5f, 1.0f);
                    if (rc == 0 && !scaled_equal(Q.data, P->data, 2.0f, cnt)) {
                        if (scaled_equal(Q.data, P->data, 1.0f, cnt)) {
                            scale_inputs(gc, 1.0f, 2.0f);
                            rc = case_run_guarded(gc, v, &Q, err, errlen);
                            scale_inputs(gc, 1.0f, 0.5f);
                            kept = rc == 0 && scaled_equal(Q.data, P->data, 1.0f, cnt);
                        } else {
                            rc = case_run_guarded(gc, v, &Q, err, errlen);
                            same = rc != 0 || memcmp(Q.data, P->data, sizeof(float) * cnt) == 0;
                        }
                    }
                } else {
                    rc = case_run_guarded(gc, v, &Q, err, errlen);
                    same = rc != 0 || memcmp(Q.data, P->data, sizeof(float) * cnt) == 0;
                }
                if (rc == 0 && kept) {
                    tl_verdict f;
                    tl_verdict_init(&f, TL_V_EMULATOR, "answer-kept");
                    snprintf(f.detail, sizeof f.detail, "with M doubled, and again with N doubled, the "
                             "launcher returned exactly the first run's P, an answer it kept (from an earlier call "
                             "on the same inputs, or made on the host); every call must compute P from the M and N "
                             "it is given");
                    snprintf(err, errlen, "answer kept: %.440s", f.detail);
                    tl_emu_write_verdict(&f);
                    if (vd)
                        *vd = f;
                    rc = -1;
                } else if (rc == 0 && !same) {
                    tl_verdict f;
                    tl_verdict_init(&f, TL_V_EMULATOR, "order-dependent");
                    /* __shared__ arrays reached through plain pointers (cast from an extern buffer) are
                     * race-checked by no one: name them, the array and the line, where the race will be */
                    char esc[300];
                    if (tl_emu_shared_escapes(esc, sizeof esc) > 0)
                        snprintf(f.detail, sizeof f.detail, "P differs when the threads of a block run in %s "
                                 "order: a race on __shared__ memory the emulator cannot watch: %s: a missing "
                                 "__syncthreads() between the stores into it and the reads of it?",
                                 mode == 1 ? "reverse" : "shuffled", esc);
                    else
                        snprintf(f.detail, sizeof f.detail, "P differs when the threads of a "
                                 "block run in %s order (a race: a missing __syncthreads, or two threads storing to "
                                 "the same element of P, as with a wrong index or row stride)",
                                 mode == 1 ? "reverse" : "shuffled");
                    snprintf(err, errlen, "order-dependent result: %.440s", f.detail);
                    tl_emu_write_verdict(&f);
                    if (vd)
                        *vd = f;
                    rc = -1;
                }
            }
            tl_emu_set_order(0, 0);
            tl_emu_set_race_check(race_was);
            tl_emu_mute_kernel_output(0);
            tl_matrix_free(&Q);
        }
    }
    if (wc) {
        /* the re-runs' host round trips count too: each call of the launcher is guarded alike */
        tl_emu_counters_get(&ec);
        wc->host_round_trips = ec.host_round_trips;
    }
    if (rc != 0) {
        char diag[400];
        if (!read_p && tl_emu_last_diagnostic(diag, sizeof diag) > 0) {
            snprintf(err, errlen, "%s", diag);
            if (vd)
                tl_emu_last_verdict(vd);
        }
        tl_emu_recover();   /* each case judged alone: the next one runs on a working device */
    }
#else
    (void)seed;
    if (wc)
        memset(wc, 0, sizeof *wc);
#endif
    return rc;
}

typedef enum { CASE_PASS, CASE_FAIL, CASE_SKIP, CASE_REFUSED } case_result;

typedef struct case_out {
    case_result result;
    char        reason[640];
    tl_check_report rep;
    int         have_rep;
    tl_stats    st;
    int         timed;
    char        timing_note[64];
} case_out;

/* Runs one variant on one size: check, then time. */
static void run_case(const tl_variant *v, const tl_device_info *dev, const opts *o, case_inputs *in,
                     case_out *out)
{
    int m = in->m, k = in->k, n = in->n;
    memset(out, 0, sizeof *out);
    char buf[256];
    const char *why = tl_drv_refusal(v, m, k, n, buf, sizeof buf);
    if (why) {
        out->result = CASE_REFUSED;
        snprintf(out->reason, sizeof out->reason, "refused: %s", why);
        return;
    }
    if (v->f->on_gpu && !dev->present) {
        out->result = CASE_SKIP;
        snprintf(out->reason, sizeof out->reason, "SKIP: no usable CUDA device");
        return;
    }
    tl_matrix P;
    if (inputs_get(in) != 0 || tl_matrix_alloc(&P, "P", m, n)) {
        out->result = CASE_FAIL;
        snprintf(out->reason, sizeof out->reason, "out of host memory for %dx%dx%d", m, k, n);
        return;
    }
    const tl_matrix *Mp = &in->M, *Np = &in->N;
    const double *ref = in->ref, *absref = in->absref;
    uint64_t case_seed = in->seed;
    (void)case_seed;            /* used by the emulated build */

    char err[512] = "";
    int run_rc = 0;
    double first_ms = 0;
    cpu_ctx cc = {v, Mp, Np, &P};
    int differs = 0;            /* a repeated GPU run disagreed with the first, bit for bit */
    tl_matrix Rq = {0};         /* the latest repeated run, kept when it is the wrong one   */
    int q_wrong = 0;
    tl_work_counts work = {0};  /* emulated: what the kernels of the checked run did         */
    tl_verdict run_v;           /* emulated: the run's verdict (its kind and pattern)       */
    tl_verdict_init(&run_v, TL_V_NONE, "correct");
    tl_gpu_case gc;
    memset(&gc, 0, sizeof gc);
    char szw[48];
    tl_drv_size_str(szw, sizeof szw, m, k, n);
    watchdog_arm(o->lab_id, o, szw, v->f->name, (double)m * k * n, v->f->on_gpu);
    if (!v->f->on_gpu) {
        double t0 = tl_now_ms();
        tl_drv_run_cpu_once(&cc);
        first_ms = tl_now_ms() - t0;
    } else {
        run_rc = tl_gpu_case_alloc(&gc, m, k, n, err, sizeof err);
        if (run_rc == 0)
            run_rc = tl_gpu_case_upload(&gc, Mp, Np, err, sizeof err);
        if (run_rc == 0)
            run_rc = tl_drv_gpu_run(&gc, v, &P, (unsigned)case_seed, &work, &run_v, err, sizeof err);
        /* A correct kernel gives the same bits on every run of the same inputs; a race (a
         * missing __syncthreads) often does not, and may even pass the check now and then.
         * So run it again and compare: any run that fails the check is reported, and runs that
         * disagree turn the diagnosis into "race". */
        if (run_rc == 0 && o->repeat > 1 && tl_matrix_alloc(&Rq, "P", m, n) == 0) {
            tl_check_report qrep;
            int p_wrong = tl_check(P.data, ref, absref, m, n, k, v->f->tile, NULL, NULL, &qrep) != 0;
            for (int r = 1; r < o->repeat && run_rc == 0; ++r) {
                run_rc = case_run_guarded(&gc, v, &Rq, err, sizeof err);
                if (run_rc < 0)
                    break;
                if (memcmp(Rq.data, P.data, sizeof(float) * tl_matrix_count(&P)) != 0) {
                    differs = r + 1;
                    if (!p_wrong && tl_check(Rq.data, ref, absref, m, n, k, v->f->tile, NULL, NULL, &qrep)) {
                        q_wrong = 1;   /* report the wrong run, not the lucky first one */
                        break;
                    }
                    if (p_wrong)
                        break;
                }
            }
        }
    }
    watchdog_disarm();
    if (run_rc < 0 && run_v.kind == TL_V_EMULATOR && tl_verdict_pattern_is(&run_v, "order-dependent") &&
        tl_check(P.data, ref, absref, m, n, k, v->f->tile, Mp->data, Np->data, &out->rep) &&
        out->rep.pattern == TL_PAT_ROW_STRIDE) {
        /* Emulated: the thread order changed the result because stores collide (a wrong row
         * stride), not because a barrier is missing: say what the checker sees. */
        run_rc = 0;
    }
    if (run_rc < 0) {
        out->result = CASE_FAIL;
        snprintf(out->reason, sizeof out->reason, "FAIL: %s", err);
        goto done;
    }
    const char *where = NULL;
    tl_matrix *R = q_wrong ? &Rq : &P;
    int broken = tl_matrix_guards_broken(R, &where);
    tl_check(R->data, ref, absref, m, n, k, v->f->tile, Mp->data, Np->data, &out->rep);
    out->have_rep = 1;
    /* Stores of several threads landing on one element (a wrong row stride) also differ from run
     * to run: the checker's own pattern names that bug better than "race". */
    if (differs && out->rep.wrong && out->rep.pattern != TL_PAT_ROW_STRIDE) {
        out->rep.pattern = TL_PAT_RACE;
        snprintf(out->rep.detail, sizeof out->rep.detail,
                 "run %d gave other bits than run 1 on the same inputs, %ld wrong: a race (a "
                 "missing or skipped __syncthreads: a tile read before it is loaded or overwritten "
                 "while in use), or a value used before it is set (Pvalue)", differs, out->rep.wrong);
    }
    if (run_rc == 1) { /* device guard after P written; err says how many floats */
        long count = 1;
        if (sscanf(err, "%ld", &count) != 1 || count < 1)
            count = 1;
        out->rep.guard_broken = count > 1000000 ? 1000000 : (int)count;
        out->rep.guard_where = "after";
    } else if (broken) {
        out->rep.guard_broken = broken;
        out->rep.guard_where = where;
    }
    if (out->rep.guard_broken && out->rep.wrong && out->rep.pattern != TL_PAT_ROW_STRIDE) {
        /* Stores outside P explain the wrong elements too: a thread with Col >= n stores into
         * the first elements of the next row, racing with the thread that owns them. */
        out->rep.pattern = TL_PAT_GUARD;
        snprintf(out->rep.detail, sizeof out->rep.detail,
                 "stores outside P: threads past the last row write beyond its end, and threads "
                 "past the last column write into the start of the next row (%ld elements wrong "
                 "there): the store needs its (Row < m && Col < n) test", out->rep.wrong);
    }
    if (out->rep.wrong || out->rep.guard_broken) {
        out->result = CASE_FAIL;
        char r[200];
        tl_check_reason(&out->rep, r, sizeof r);
        snprintf(out->reason, sizeof out->reason, "FAIL: %s", r);
        goto done;
    }
#ifdef TL_EMULATED
    /* Right, but was it computed the way the lab asks (by a kernel, tiled)? The emulator counted. */
    if (v->f->on_gpu && tl_drv_counts_work()) {   /* the correctness build does not count: not judged */
        char head[400];
        if (tl_work_judge(tl_lab_find(o->lab_id), v->f->tile, m, k, n, &work, head, sizeof head, NULL, 0)) {
            out->result = CASE_FAIL;
            snprintf(out->reason, sizeof out->reason, "FAIL: %s", head);
            goto done;
        }
    }
#endif
    out->result = CASE_PASS;
    snprintf(out->reason, sizeof out->reason, "PASS");
    if (o->no_time || (v->f->max_time_size && (long)m * k * n > (long)v->f->max_time_size * v->f->max_time_size * v->f->max_time_size))
        goto done;
    if (dev->emulated && v->f->on_gpu) {
        snprintf(out->timing_note, sizeof out->timing_note, "emulated: not timed");
        goto done;
    }
    if (!v->f->on_gpu) {
        tl_drv_time_cpu(&cc, first_ms, o->reps, &out->st);
        out->timed = 1;
    } else {
        int flushed = 0;
        int trc = tl_gpu_case_time(&gc, v->gpu, v->ctx, o->warmup, o->reps, &P, &out->st, &flushed, err, sizeof err);
        if (trc != 0) {   /* 2: a timed run skipped work (err says which), so no time is given */
            out->result = CASE_FAIL;
            snprintf(out->reason, sizeof out->reason, "FAIL%s: %s", trc == 2 ? "" : " while timing", err);
            goto done;
        }
        out->timed = 1;
        snprintf(out->timing_note, sizeof out->timing_note, "%s", flushed ? "L2 flushed" : "");
    }
done:
    if (v->f->on_gpu)
        tl_gpu_case_free(&gc);
    if (Rq.base)
        tl_matrix_free(&Rq);
    tl_matrix_free(&P);
}

/* ------------------------------------------------------------------------ main */

int tl_lab_main(const tl_lab *lab, int argc, char **argv)
{
    opts o;
    int done;
    int rc = tl_drv_parse(lab, argc, argv, &o, &done);
    if (rc || done)
        return rc;
    const tl_variant *sel[64];
    int nsel = tl_drv_select_variants(lab, o.variants, sel);
    if (nsel < 0)
        return TL_EXIT_USAGE;

    int need_gpu = 0;
    for (int i = 0; i < nsel; ++i)
        need_gpu |= sel[i]->f->on_gpu;
#ifdef TL_EMULATED
    /* Variants the emulator cannot run (the table's gpu_only: lab 07's copy engine) are named and
     * left out: neither passed nor failed here; a GPU checks them. */
    int gpu_only = 0;
    const tl_variant *gpu_only_v[64];
    for (int i = 0; i < nsel; ++i) {
        if (sel[i]->f->gpu_only) {
            gpu_only_v[gpu_only++] = sel[i];
        } else {
            sel[i - gpu_only] = sel[i];
        }
    }
    nsel -= gpu_only;
#endif
    tl_device_info dev;
    memset(&dev, 0, sizeof dev);
#ifdef TL_EMULATED
    /* The emulator puts guard pages right after every cudaMalloc and names the buffer and the
     * distance of any access past its end: the harness's own guard zones would hide that. */
    o.exact_alloc = 1;
#endif
    if (o.exact_alloc)
        tl_gpu_set_exact_alloc(1);
    if (need_gpu)
        tl_device_query(&dev);
    else
        snprintf(dev.why, sizeof dev.why, "not needed");

#ifdef TL_EMULATED
    tl_driver_lab_id = lab->id;
#endif
    if (o.serve)
        return tl_drv_serve(lab, &dev, &o);

    if (!o.quiet)
        printf("lab %s: %s\n", lab->id, lab->title);
#ifdef TL_EMULATED
    for (int i = 0; i < gpu_only; ++i)
        printf("%s: %s: GPU only (not emulated: not run here, neither passed nor failed; `./kit check %s` on a "
               "GPU checks it)\n", gpu_only_v[i]->f->name, gpu_only_v[i]->f->gpu_only, lab->id);
    if (nsel == 0 && gpu_only)
        return TL_EXIT_SKIP;
#endif
    if (need_gpu && !dev.present)
        printf("no usable CUDA device: %s\nGPU variants are skipped (exit 77 unless a CPU check fails); "
               "run './kit check %s --emulate' to run them on the CPU\n", dev.why, lab->id);
    int facts_wrong = 0;
    if (need_gpu && dev.present && lab->preamble && tl_facts_judged(lab->id)) {
        /* The device query is judged (lab 02): its text is shown, then checked; bounded in time. */
        size_t len = 0;
        watchdog_arm(lab->id, &o, "device facts", "query", 0, 1);
        char *text = tl_facts_capture(lab->preamble, &len);
        watchdog_disarm();
        if (text && !o.quiet)
            fwrite(text, 1, len, stdout);
        facts_wrong = tl_facts_check(text, len, o.quiet);
        free(text);
    } else if (need_gpu && dev.present && lab->preamble && !o.quiet) {
        lab->preamble(stdout);
    }
    if (dev.present && dev.emulated && !o.quiet)
        printf("emulated GPU (CPU emulation): correctness only, no timings%s\n",
               o.emu_dropped ? "; default sizes above 1024^3 left out (too slow on a CPU; --sizes runs them)" : "");
    int emu_light = 0;
    for (int i = 0; i < o.sizes.count; ++i)
        emu_light |= (double)o.sizes.m[i] * o.sizes.k[i] * o.sizes.n[i] > TL_EMU_MAX_REORDER_WORK;
    if (dev.present && dev.emulated && !o.quiet && emu_light)
        printf("emulated: sizes above %.0f^3 run in one thread order, and above %.0f^3 also without race "
               "checking (the smaller sizes run in three orders, race-checked)\n", cbrt(TL_EMU_MAX_REORDER_WORK),
               cbrt(TL_EMU_MAX_CHECKED_WORK));
    if (strcmp(tl_build_type(), "debug") == 0 && !o.no_time)
        printf("note: debug build (nvcc -G): times would not mean anything, so none are taken; "
               "configure with buildtype=debugoptimized\n");
    int no_time = o.no_time || strcmp(tl_build_type(), "debug") == 0;
    o.no_time = no_time;

    tl_records rec;
    char err[512];
    if (o.records) {
        char timing[160];
        snprintf(timing, sizeof timing, "%s, median of up to %d after %d warm-ups%s", need_gpu ?
                 "cuda-events (GPU), host monotonic clock (CPU)" : "host monotonic clock", o.reps,
                 o.warmup, need_gpu ? ", L2 flushed when the inputs fit in it" : "");
        if (tl_records_open(&rec, o.records, need_gpu ? &dev : NULL, o.seed, timing, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "lab%s: %s\n", lab->id, err);
            return TL_EXIT_USAGE;
        }
    }
    if (!o.quiet)
        printf("\n  %-14s %-13s %-50s %10s\n", "size", "variant", "result", "GFLOP/s");
    int pass = 0, fail = 0, skip = 0, refused = 0;
    char explained[64] = {0};
    char first_refusal[700] = "";
    for (int s = 0; s < o.sizes.count; ++s) {
        int m = o.sizes.m[s], k = o.sizes.k[s], n = o.sizes.n[s];
        /* Each size gets its own inputs; every variant of a size sees the same ones. */
        case_inputs in = {.seed = o.seed ^ ((uint64_t)(s + 1) * 0x9E3779B97F4A7C15ull), .m = m, .k = k, .n = n,
                          .bf16 = lab->inputs_bf16};
        for (int i = 0; i < nsel; ++i) {
            const tl_variant *v = sel[i];
            case_out co;
            run_case(v, &dev, &o, &in, &co);
            char sz[48], rate[32] = "";
            tl_drv_size_str(sz, sizeof sz, m, k, n);
            if (co.timed)
                snprintf(rate, sizeof rate, "%.2f", tl_gflops(m, k, n, co.st.median_ms));
            else if (co.result == CASE_PASS)
                snprintf(rate, sizeof rate, "-");
            pass += co.result == CASE_PASS;
            fail += co.result == CASE_FAIL;
            skip += co.result == CASE_SKIP;
            refused += co.result == CASE_REFUSED;
            if (co.result == CASE_REFUSED && !first_refusal[0])
                snprintf(first_refusal, sizeof first_refusal, "%s at %s: %.300s", v->f->name, sz, co.reason + strlen("refused: "));
            if (!o.quiet || co.result == CASE_FAIL)
                printf("  %-14s %-13s %-50.50s %10s\n", sz, v->f->name, co.reason, rate);
            if (co.result == CASE_FAIL && strlen(co.reason) > 50)
                printf("      %s\n", co.reason);
            /* The full report for a variant's first failure; later ones get the diagnosis only. */
            if (co.result == CASE_FAIL && co.have_rep) {
                /* (tiny sizes say little about rows and tiles: explain a larger one) */
                if (!explained[i] && ((m >= 8 && n >= 8) || s == o.sizes.count - 1)) {
                    tl_check_explain(&co.rep, stdout, "      ");
                    explained[i] = 1;
                } else if (co.rep.wrong) {
                    printf("      likely: %s\n", co.rep.detail);
                }
            }
            if (o.records && co.result != CASE_REFUSED) {
                tl_record_row row = {"gemm", lab->id, v->f->name, m, k, n, v->f->tile, -1, -1, -1, -1,
                                     co.result == CASE_PASS ? "PASS" : co.result == CASE_SKIP ? "SKIP" : "FAIL",
                                     co.timed ? &co.st : NULL,
                                     co.timed ? tl_gflops(m, k, n, co.st.median_ms) : -1, -1, NULL, -1, -1, -1, -1, NULL};
                tl_records_row(&rec, &row);
            }
        }
        inputs_free(&in);
    }
    fail += facts_wrong;
    printf("\n%d passed, %d failed", pass, fail);
    if (skip)
        printf(", %d skipped", skip);
    printf("\n");
    if (refused)
        printf("(%d cases refused by design: a variant's size limits, e.g. %s)\n", refused, first_refusal);
    if (o.records) {
        if (tl_records_close(&rec, err, sizeof err) != 0) {
            fprintf(stderr, "lab%s: %s\n", lab->id, err);
            return TL_EXIT_FAIL;
        }
        if (!o.quiet)
            printf("records written to %s\n", o.records);
    }
    if (fail)
        return TL_EXIT_FAIL;
    if (skip)
        return TL_EXIT_SKIP;
    return TL_EXIT_OK;
}
