/* driverserve.c: a lab program's --serve mode, the grader's channel (CONTRACTS.md sections 2 and
 * 10): case requests and matrices on fd 3, answers, verdicts and P on fd 4, never stdin or stdout
 * (the student's code may print there). The program never sees a seed or a reference in this
 * mode. Part of the lab driver (driver.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE   /* (glibc's mallopt parameters) */
#include <stdlib.h>       /* (first: it says whether this is glibc) */
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <sys/stat.h>

#include "answer.h"
#include "driver.h"

/* "verdict JSON" (CONTRACTS.md sections 2 and 10): this program has no usable device. */
static void answer_no_device(tl_answer *out)
{
    tl_verdict nv;
    char js[512];
    tl_verdict_init(&nv, TL_V_ERROR, "no-device");
    tl_verdict_set(nv.detail, sizeof nv.detail, "no usable CUDA device");
    tl_verdict_json(&nv, js, sizeof js);
    tl_answer_printf(out, "verdict %s\n", js);
}

#ifdef TL_EMULATED
/* Zeroes a matrix's elements through a volatile pointer (a plain memset before the free could be
 * dropped as a dead store). */
static void forget_matrix(tl_matrix *A)
{
    void *(*volatile zero)(void *, int, size_t) = memset;
    zero(A->data, 0, sizeof(float) * tl_matrix_count(A));
}
#endif

/* A session's large buffers kept for its next requests: glibc serves every allocation above 32 MiB
 * (M, N and P of a 4096^2 case, the answer) with a fresh mapping and unmaps it when freed, so each
 * such request faulted in and zeroed about 256 MiB of new pages (three 4096^2 requests: 147,000 page
 * faults and 0.44 CPU-s of reading alone on the build machine, 49,000 and 0.25 with the memory kept;
 * issue 29). From the heap instead, and not given back between requests. On a GPU only: the
 * emulator guards its device buffers itself (common/emu), and its runs are not where this goes. */
static void keep_large_buffers(void)
{
#if defined(__GLIBC__) && !defined(TL_EMULATED)
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

int tl_drv_serve(const tl_lab *lab, const tl_device_info *dev, const opts *o)
{
    keep_large_buffers();
    /* answers leave through answer.c (a system call of the kit's object), never through stdio */
    FILE *in = fdopen(3, "rb");
    tl_answer ans = {0}, *out = &ans;
    struct stat fd4;
    if (!in || fstat(4, &fd4) != 0) {
        fprintf(stderr, "lab%s --serve: fds 3 and 4 must be open (this mode is for the grader)\n", lab->id);
        return TL_EXIT_USAGE;
    }
    char line[256], err[512];
#ifndef TL_EMULATED
    int marked = 0;                  /* GPU requests begun so far: the request marker's number */
#endif
    /* The inputs of the last request whose matrices were read, kept for a request that says "same"
     * (CONTRACTS.md section 2: a speed test's window asks again for the inputs its warm-up sent,
     * which then cross no pipe; issue 29). Not kept by an emulated program: it zeroes its copies. */
    tl_matrix M = {0}, N = {0};
    int kept = 0;
    while (fgets(line, sizeof line, in)) {
        if (strcmp(line, "quit\n") == 0)
            break;
        if (strcmp(line, "facts\n") == 0) {
            /* lab 02: what print_device_facts writes, "facts LEN" and LEN bytes (the grader parses it) */
            size_t len = 0;
            char *text = NULL;
            if (!lab->preamble)
                tl_answer_printf(out, "error this lab has no device query\n");
            else if (!dev->present)   /* a verdict (CONTRACTS.md section 2): the grader knows better, or not */
                answer_no_device(out);
            else if (!(text = tl_facts_capture(lab->preamble, &len)))
                tl_answer_printf(out, "error out of memory for the device facts\n");
            else {
                tl_answer_printf(out, "facts %zu\n", len);
                tl_answer_bytes(out, text, len);
            }
            free(text);
            tl_answer_send(out, 4);
            continue;
        }
        char name[64];
        int m, k, n, timed, at = 0;
        int parsed = sscanf(line, "case %63s %d %d %d %d%n", name, &m, &k, &n, &timed, &at) == 5 && at > 0;
        int same = parsed && strcmp(line + at, " same\n") == 0;
        if (!parsed || (!same && strcmp(line + at, "\n") != 0)) {
            tl_answer_printf(out, "error malformed request\n");
            tl_answer_send(out, 4);
            tl_answer_free(&ans);
            if (kept) {
                tl_matrix_free(&M);
                tl_matrix_free(&N);
            }
            return TL_EXIT_USAGE;
        }
        const tl_variant *v = tl_drv_find_variant(lab, name, strlen(name));
        tl_matrix P;
        if (same) {
            /* no matrices follow: the request is answered (an error where no inputs of its
             * dimensions are kept) and the session goes on */
            const char *no = NULL;
#ifdef TL_EMULATED
            no = "an emulated program keeps no inputs (it zeroes its copies of M and N): send the matrices";
#else
            if (!kept || M.rows != m || M.cols != k || N.rows != k || N.cols != n)
                no = "no inputs of these dimensions kept from the last request: send the matrices";
#endif
            if (no) {
                tl_answer_printf(out, "error %s\n", no);
                tl_answer_send(out, 4);
                continue;
            }
        } else {
            if (kept) {
                tl_matrix_free(&M);
                tl_matrix_free(&N);
                kept = 0;
            }
            int okM = tl_matfile_fread(in, &M, 0, "M (grader)", err, sizeof err) == 0;
            int okN = okM && tl_matfile_fread(in, &N, 0, "N (grader)", err, sizeof err) == 0;
            if (!okN) {
                if (okM)
                    tl_matrix_free(&M);
                tl_answer_printf(out, "error %s\n", err);
                tl_answer_send(out, 4);
                tl_answer_free(&ans);
                return TL_EXIT_USAGE;
            }
        }
        char buf[200];
        const char *why = NULL;
        if (!v)
            why = "unknown variant";
        else if (M.rows != m || M.cols != k || N.rows != k || N.cols != n)
            why = "matrix dimensions do not match the request";
        else
            why = tl_drv_refusal(v, m, k, n, buf, sizeof buf);
#ifdef TL_EMULATED
        if (!why && v->f->gpu_only)
            why = "GPU only: this variant is not emulated (the lab table's gpu_only)";
#endif
        if (!why && v->f->on_gpu && !dev->present) {   /* a verdict: the grader knows better, or not */
            answer_no_device(out);
        } else if (why) {
            tl_answer_printf(out, "error %s\n", why);
        } else {
            tl_matrix_alloc(&P, "P", m, n);
            int rc = 0;
            tl_stats st = {0};
            int have_time = 0, have_work = 0;
            tl_work_counts work = {0};
            tl_verdict vd;                /* the case's verdict, when the emulated harness has one */
            tl_verdict_init(&vd, TL_V_NONE, "correct");
            if (!v->f->on_gpu) {
                cpu_ctx cc = {v, &M, &N, &P};
                double t0 = tl_now_ms();
                tl_drv_run_cpu_once(&cc);
                double first = tl_now_ms() - t0;
                const char *where;
                if (tl_matrix_guards_broken(&P, &where)) {
                    snprintf(err, sizeof err, "write outside P (canaries %s it overwritten)", where);
                    rc = -1;
                } else if (timed) {
                    tl_matrix Q;   /* time on a copy, so the result sent is the checked run's */
                    tl_matrix_alloc(&Q, "P", m, n);
                    cpu_ctx cq = {v, &M, &N, &Q};
                    tl_drv_time_cpu(&cq, first, o->reps, &st);
                    tl_matrix_free(&Q);
                    have_time = 1;
                }
            } else {
                tl_gpu_case gc;
#ifndef TL_EMULATED
                /* the kit's marker first (marker.cu): the grader splits a profiled session's kernels
                 * per request by it; before anything of the student's runs for this request */
                tl_gpu_mark_request(++marked);
#endif
                rc = tl_gpu_case_alloc(&gc, m, k, n, err, sizeof err);
                if (rc == 0) rc = tl_gpu_case_upload(&gc, &M, &N, err, sizeof err);
#ifdef TL_EMULATED
                /* Emulated, nothing times the case and M and N are on the device now: the host's
                 * copies are zeroed before the launcher runs, so that its host code finds no M or N
                 * in the program's memory to multiply (the device is guarded: driver.c). */
                forget_matrix(&M);
                forget_matrix(&N);
#endif
                if (rc == 0) rc = tl_drv_gpu_run(&gc, v, &P, (unsigned)(m * 31 + n), &work, &vd, err, sizeof err);
                have_work = dev->emulated && tl_drv_counts_work();   /* the counting build only */
                if (rc == 0 && timed && !dev->emulated) {
                    int fl;
                    rc = tl_gpu_case_time(&gc, v->gpu, v->ctx, o->warmup, o->reps, &P, &st, &fl, err, sizeof err);
                    have_time = rc == 0;
                    if (rc == 2) {   /* a timed run skipped work: the case fails, as a verdict */
                        tl_verdict_init(&vd, TL_V_ERROR, "timed-run-skipped-work");
                        tl_verdict_set(vd.matrix, sizeof vd.matrix, "P");
                        tl_verdict_set(vd.detail, sizeof vd.detail, err);
                    }
                }
                tl_gpu_case_free(&gc);
            }
            if (rc != 0 && vd.kind != TL_V_NONE) {
                char js[6144];   /* CONTRACTS.md section 2: the case's verdict, one line */
                vd.m = m, vd.k = k, vd.n = n;
                if (tl_verdict_json(&vd, js, sizeof js) < sizeof js)
                    tl_answer_printf(out, "verdict %s\n", js);
                else
                    tl_answer_printf(out, "error %s\n", err);
            } else if (rc != 0) {
                for (char *p = err; *p; ++p)
                    if (*p == '\n') *p = ' ';
                tl_answer_printf(out, "error %s\n", err);
            } else {
                if (have_time)
                    tl_answer_printf(out, "ok %.6f", st.median_ms);
                else
                    tl_answer_printf(out, "ok -");
                if (have_work)   /* emulated: the emulator's counts of the checked run (CONTRACTS.md 2) */
                    tl_answer_printf(out, " work %llu %llu %llu %llu %llu %llu %llu", work.launches,
                            work.global_loads, work.global_stores, work.shared_loads, work.shared_stores,
                            work.unchecked_launches, work.host_round_trips);
                tl_answer_printf(out, "\n");
                tl_answer_matrix(out, &P);
            }
            tl_matrix_free(&P);
        }
        tl_answer_send(out, 4);
#ifdef TL_EMULATED
        tl_matrix_free(&M);
        tl_matrix_free(&N);
#else
        kept = 1;   /* freed when the next request sends its own */
#endif
    }
    if (kept) {
        tl_matrix_free(&M);
        tl_matrix_free(&N);
    }
    tl_answer_free(&ans);
    return TL_EXIT_OK;
}

