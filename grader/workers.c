/* workers.c: a class run's workers: up to --jobs submissions graded at once, each in a worker
 * process of its own (submission.c grades it), a GPU lab's workers spread over the host's devices
 * (gpushare.c); a student graded already from the same files, rubric and cases is not graded
 * again (resume); each row from what its worker left, the live line or plain lines meanwhile. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "classrun.h"
#include "grade.h"
#include "tilelab.h"

/* One student's row from what their worker left in DIR: the .done marker (graded) or
 * not-graded.txt (why not). in_finish: a Slurm run's finishing job, where a student with neither
 * had a task that never ended well. */
void tg_collect_row(const grun *R, const gstudent *s, srow *row, int in_finish)
{
    char p[PATH_MAX + 160];
    snprintf(p, sizeof p, "%s/%s/.done", R->run.out, s->name);
    char *m = tg_read_file(p, 256, NULL);
    memset(row, 0, sizeof *row);
    if (m && sscanf(m, "%lf %lf %lf", &row->score, &row->max, &row->secs) == 3) {
        row->done = 1;
        free(m);
        return;
    }
    free(m);
    snprintf(p, sizeof p, "%s/%s/not-graded.txt", R->run.out, s->name);
    char *why = tg_read_file(p, 600, NULL);
    snprintf(row->why, sizeof row->why, "%s", why ? why : in_finish ?
             "its Slurm task ended without grading it (killed, timed out or its node failed; see "
             "DIR/.state/slurm/logs/); submit the run again to grade it" : "the grader's worker failed");
    free(why);
}

/* Up to --jobs submissions at once, each in its own worker process. On a real GPU (gpushare.c):
 * each worker on one device, the one with the fewest workers; a worker waiting for a device's lock
 * does not count against --jobs (up to as many again), so the cores build and count while timed
 * runs queue. */
typedef struct pool {
    int           next, running, finished;   /* in todo: the next to start; workers alive; done */
    pid_t        *pids;                      /* per student: its worker (0 none)               */
    int          *slots, *dev_of;            /* per student: its progress slot, its device     */
    int          *row_of;                    /* per student: its row on the board (-1 none)    */
    int           on_gpu, ndev, max_workers, share_cap, share_max;
    char        (*devs)[TG_GPU_ID_LEN];
    int           dev_workers[TG_GPU_MAX];
    tg_gpu_board *board;
    tg_progress  *prog;                      /* NULL in kit check                              */
    double        t_start;
} pool;

static void pool_open(crun *c, pool *w)
{
    grun *R = c->R;
    memset(w, 0, sizeof *w);
    w->t_start = tl_now_ms();
    w->pids = calloc((size_t)c->ns, sizeof *w->pids);
    w->slots = calloc((size_t)c->ns, sizeof *w->slots);
    w->dev_of = calloc((size_t)c->ns, sizeof *w->dev_of);
    w->row_of = calloc((size_t)c->ns, sizeof *w->row_of);
    w->on_gpu = R->lab->gpu && R->env.gpu_ok && !R->opt->emulate && R->env.iso.gpu_nodes;
    w->devs = calloc(TG_GPU_MAX, TG_GPU_ID_LEN);
    w->ndev = w->on_gpu ? tg_gpu_list(getenv("CUDA_VISIBLE_DEVICES"), tg_gpu_nodes(), w->devs, TG_GPU_MAX) : 0;
    /* on a GPU, workers waiting for a device (a closed gate while timed requests run, a slot) do not
     * count against --jobs: up to six times as many exist (TG_GPU_WORKERS_PER_JOB), so that builds
     * of the next students keep the cores busy meanwhile (gpu-1, 2026-11-27 00:06: with twice, 7.9
     * of 16 cores busy; session 13's gpu-1: 96 workers and a cap of 10, 15.6-15.9) */
    w->max_workers = w->on_gpu && !R->opt->check ? TG_GPU_WORKERS_PER_JOB * R->opt->jobs : R->opt->jobs;
    /* TL_GRADE_GPU_WORKERS: more (or fewer) of them, each built ahead while the devices' slots are full */
    const char *wenv = getenv("TL_GRADE_GPU_WORKERS");
    if (w->on_gpu && !R->opt->check && wenv && atoi(wenv) >= R->opt->jobs && atoi(wenv) <= TG_GPU_WORKERS_MAX)
        w->max_workers = atoi(wenv);
    w->share_cap = 1;
    w->board = w->on_gpu ? tg_gpu_board_new(w->ndev) : NULL;
    /* the timed phase (gpushare.c; the default, TL_GRADE_GPU_TIMED=last): every speed test of a
     * device after its untimed work; a worker waiting for it holds nothing but its process, so that
     * every submission up to TG_GPU_WORKERS_MAX has one (none is left to start after the phase).
     * Not with --jobs 1: one submission at a time, as asked (the serial run a class is compared with) */
    const char *order = getenv("TL_GRADE_GPU_TIMED");
    int serial = R->opt->jobs <= 1, phase = w->board && !R->opt->check && !serial && !(order && strcmp(order, "inline") == 0);
    if (phase) {
        w->board->timed_last = 1;
        w->board->more_coming = 1;
        if (!(wenv && *wenv) && c->ntodo > w->max_workers)
            w->max_workers = c->ntodo < TG_GPU_WORKERS_MAX ? c->ntodo : TG_GPU_WORKERS_MAX;
    }
    if (w->on_gpu) {
        const char *env = getenv("TL_GRADE_GPU_SHARE");
        long long mib = tg_gpu_mem_mib();
        int per_dev = w->ndev > 0 ? w->ndev : 1;
        /* at most 2/3 of --jobs test at once over the devices (a class; kit check: its one worker);
         * with the timed phase the workers at work, at most TG_GPU_PHASE_SHARE over the host's devices
         * (no window closes the queue before the phase; what the untimed work waits on is the host's:
         * grade.h) */
        int at_work = (TG_GPU_BUSY_PER_JOB_X2 * R->opt->jobs + 1) / 2;
        int share_jobs = R->opt->check ? w->max_workers : phase ?
                         (at_work < TG_GPU_PHASE_SHARE ? at_work : TG_GPU_PHASE_SHARE) :
                         TG_GPU_SHARE_PER_JOB_X3 * R->opt->jobs / 3;
        char rule[120] = "2/3 of --jobs";
        if (phase)
            snprintf(rule, sizeof rule, "the workers at work, at most %d over the devices", TG_GPU_PHASE_SHARE);
        w->share_cap = env && atoi(env) > 0 ? atoi(env) : tg_gpu_share_cap(mib, (share_jobs + per_dev - 1) / per_dev);
        /* and up to --jobs per device while the cores idle (no builds left to run beside the tests) */
        w->share_max = env && atoi(env) > 0 ? 0 : tg_gpu_share_cap(mib, (R->opt->jobs + per_dev - 1) / per_dev);
        char more[80] = "";
        if (w->share_max > w->share_cap)
            snprintf(more, sizeof more, "; up to %d while the cores idle", w->share_max);
        if (!R->opt->check)
            fprintf(stderr, "tl-grade: GPUs: %d device(s) (%s%s), each shared by at most %d process(es) (%s%s%s), "
                    "the timed runs alone; a free slot to the submission that started first\n", per_dev,
                    w->ndev > 0 ? w->devs[0] : "the default", w->ndev > 1 ? " ..." : "", w->share_cap,
                    env && atoi(env) > 0 ? "TL_GRADE_GPU_SHARE" : rule, env && atoi(env) > 0 ? "" : mib > 0 ?
                    ", at most device memory / 2 GiB" : "; device memory not known: 16 GiB assumed", more);
        if (!R->opt->check)
            fprintf(stderr, "tl-grade: the speed tests: %s\n", phase ?
                    "each device's after all of its untimed work, one window after the other (the timed phase; "
                    "TL_GRADE_GPU_TIMED=inline: each where the rubric has it)" : serial ?
                    "each where the rubric has it (--jobs 1: one submission at a time)" :
                    "each where the rubric has it (TL_GRADE_GPU_TIMED=inline)");
    }
    w->prog = R->opt->check ? NULL : tg_progress_start(R, c->ntodo, w->max_workers);
    tg_progress_setup(w->prog, c->t0, (w->t_start - c->t0) / 1000.0, tg_profile_cpu_now() - c->cpu0);
}

/* A student graded earlier from the same files, rubric and cases (DIR/<student>/.done), or an
 * earlier run's student not graded then (kept with its reason: grade it with its submission given
 * again, or --regrade), is not graded again: 1, its row filled. 0: grade it (why_again says why
 * again, when it was graded before). */
static int already_graded(crun *c, pool *w, int i, char *why_again, size_t len)
{
    grun *R = c->R;
    char marker[PATH_MAX + 160];
    snprintf(marker, sizeof marker, "%s/%s/.done", R->run.out, c->st[i].name);
    char *m = R->opt->check ? NULL : tg_read_file(marker, 256, NULL);
    int named = tg_regrade_named(R, &c->st[i]);
    srow *row = &c->rows[i];
    if (m && sscanf(m, "%lf %lf %lf", &row->score, &row->max, &row->secs) == 3 &&
        (R->opt->slurm_task || tg_still_fresh(R, &c->st[i], i < c->nrun, named, why_again, len))) {
        row->done = 1;
        char what[PATH_MAX + 400];
        snprintf(what, sizeof what, "%g/%g (graded earlier from the same files, rubric and cases; "
                 "--regrade=NAME grades it again)", row->score, row->max);
        if (w->prog)
            tg_progress_done(w->prog, -1, c->st[i].name, 2, what);
        free(m);
        return 1;
    }
    free(m);
    if (!R->opt->check && i >= c->nrun && !R->opt->slurm_task && R->opt->regrade != 1 && !named) {
        tg_collect_row(R, &c->st[i], row, 0);
        if (w->prog)
            tg_progress_done(w->prog, -1, c->st[i].name, 1, row->why);
        return 1;
    }
    return 0;
}

/* A worker's life: its device (every run of the submission, and the reference's), the grading
 * (submission.c), and its reason written when it could not grade. Never returns. */
static void worker_main(crun *c, pool *w, int i, int dev, int row)
{
    grun *R = c->R;
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    tg_progress_worker(w->prog, w->slots[i]);
    close(c->lock_fd);
    if (w->on_gpu) {
        char key[160];
        if (w->ndev > 0)
            setenv("CUDA_VISIBLE_DEVICES", w->devs[dev], 1);
        tg_gpu_key(getenv("SLURM_JOB_ID"), w->ndev > 0 ? w->devs[dev] : "", key, sizeof key);
        tg_gpu_use(getenv("TL_GRADE_LOCK_DIR"), key, w->share_cap);
        tg_gpu_cap_max(w->share_max);
        tg_gpu_board_join(w->board, dev);
        tg_gpu_order(w->next);         /* (its start order: the oldest waiting worker gets a free slot first) */
        tg_gpu_row(row);               /* (the timed phase's: made by the parent, -1 none) */
    }
    double sc, mx, secs;
    char why[600] = "";
    int rc = tg_grade_one(R, &c->st[i], &sc, &mx, &secs, why, sizeof why);
    tg_stage_end();                    /* its last stage into the run's profile */
    if (rc != 0) {
        char np[PATH_MAX + 160];
        snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->run.out, c->st[i].name);
        tg_mkdirs(np, 0755);
        rmdir(np);
        tg_write_atomic(np, why, strlen(why));
    }
    fflush(NULL);
    _exit(rc);
}

/* The next student of todo: skipped when graded already, else its earlier result taken away and a
 * worker started. A fork, not proc.c's posix_spawn: the worker runs the grader's own code
 * (tg_grade_one) with the parent's run context, not a program. */
static void start_next(crun *c, pool *w)
{
    grun *R = c->R;
    int i = c->todo[w->next++];
    char why_again[700] = "";
    if (already_graded(c, w, i, why_again, sizeof why_again)) {
        ++w->finished;
        return;
    }
    if (why_again[0])
        fprintf(stderr, "tl-grade: %s: %s\n", c->st[i].display[0] ? c->st[i].display : c->st[i].name, why_again);
    char od[PATH_MAX + 160];
    snprintf(od, sizeof od, "%s/%s/.done", R->run.out, c->st[i].name);
    unlink(od);                        /* graded again: until it is, it is not graded */
    snprintf(od, sizeof od, "%s/%s", R->run.out, c->st[i].name);
    if (R->opt->check)
        tg_rmtree(od);
    else {                             /* a failure of an earlier run is not this run's */
        snprintf(od, sizeof od, "%s/%s/not-graded.txt", R->run.out, c->st[i].name);
        unlink(od);
    }
    fflush(NULL);
    w->slots[i] = tg_progress_slot(w->prog, c->st[i].name);
    int dev = w->ndev > 1 ? tg_gpu_pick(w->dev_workers, w->ndev) : 0;
    int row = w->board && w->board->timed_last ? tg_gpu_row_add(w->board, dev) : -1;
    pid_t pid = fork();
    if (pid < 0) {
        tg_gpu_row_free(w->board, dev, row);
        snprintf(c->rows[i].why, sizeof c->rows[i].why, "cannot fork (%s)", strerror(errno));
        ++w->finished;
        if (w->prog)
            tg_progress_done(w->prog, w->slots[i], c->st[i].name, 1, c->rows[i].why);
        return;
    }
    if (pid == 0)
        worker_main(c, w, i, dev, row);
    tg_gpu_row_set(w->board, dev, row, pid);
    w->row_of[i] = row;
    w->pids[i] = pid;
    w->dev_of[i] = dev;
    w->dev_workers[dev]++;
    ++w->running;
}

/* Worker pid ended with status wst: the student's row from what it left, and the line saying so. */
static void reap(crun *c, pool *w, pid_t pid, int wst)
{
    grun *R = c->R;
    for (int i = 0; i < c->ns; ++i) {
        if (w->pids[i] != pid)
            continue;
        w->pids[i] = 0;
        tg_gpu_row_free(w->board, w->dev_of[i], w->row_of[i]);
        w->dev_workers[w->dev_of[i]]--;
        --w->running;
        ++w->finished;
        if (!WIFEXITED(wst) || WEXITSTATUS(wst) != 0) {
            char np[PATH_MAX + 160];
            snprintf(np, sizeof np, "%s/%s/not-graded.txt", R->run.out, c->st[i].name);
            if (!tg_is_file(np)) {
                const char *why = WIFSIGNALED(wst) ? "the grader's worker died (signal)" : "the grader's worker failed";
                tg_mkdirs(np, 0755);
                rmdir(np);
                tg_write_atomic(np, why, strlen(why));
            }
        }
        srow *row = &c->rows[i];
        tg_collect_row(R, &c->st[i], row, 0);
        char what[800];
        if (row->done)
            snprintf(what, sizeof what, "%g/%g (%.1f s)", row->score, row->max, row->secs);
        else
            snprintf(what, sizeof what, "not graded: %s", row->why);
        if (w->prog)
            tg_progress_done(w->prog, w->slots[i], c->st[i].name, !row->done, what);
        else if (!row->done)
            fprintf(stderr, "[%d/%d] %s ... %s\n", w->finished, c->ntodo, c->st[i].name, what);
    }
}

/* Every student of todo graded (or skipped): workers started while there is room, reaped as they
 * end; with a live line, its tick every 200 ms. Returns the class's wall seconds. */
double tg_class_grade(crun *c)
{
    grun *R = c->R;
    pool w;
    pool_open(c, &w);
    /* Workers at work at once: --jobs; on a GPU half as many more, since much of a GPU test's time is
     * spent on the device, not on a core (the H100 class of 2026-11-27 01:11: about 18 workers not
     * waiting for a lock, 7 of them in compute-sanitizer runs, kept 8 of 16 cores busy) */
    int room = w.on_gpu && !R->opt->check ? (TG_GPU_BUSY_PER_JOB_X2 * R->opt->jobs + 1) / 2 : R->opt->jobs;
    while (w.finished < c->ntodo) {
        while (w.running < w.max_workers && w.running - tg_gpu_waiting(w.board) < room && w.next < c->ntodo)
            start_next(c, &w);
        if (w.board)                   /* (the timed phase waits while more workers may come: gpushare.c) */
            __atomic_store_n(&w.board->more_coming, w.next < c->ntodo && w.running < w.max_workers, __ATOMIC_SEQ_CST);
        if (w.running == 0)
            continue;
        int wst;
        pid_t pid = waitpid(-1, &wst, w.prog ? WNOHANG : 0);
        if (pid == 0) {                /* nobody finished: show where the run stands */
            tg_progress_tick(w.prog);
            struct timespec ts = {0, 200 * 1000 * 1000};
            nanosleep(&ts, NULL);
            continue;
        }
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        reap(c, &w, pid, wst);
    }
    if (w.prog && !R->opt->slurm_task)
        tg_progress_profile(w.prog, &R->run.prof);   /* summary.md's "Where the time went" */
    tg_progress_end(w.prog);
    free(w.slots);
    free(w.row_of);
    return (tl_now_ms() - w.t_start) / 1000.0;
}
