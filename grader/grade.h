/* grade.h: the grader's internal types (the run context, whose parts are opts.h, env.h and
 * runstate.h; a submission, a case, a test result) and the prototypes of its parts, grouped by
 * file: tl-grade.c (command line), run.c (class run), submission.c, cases.c, session.c, judges.c,
 * build.c, report.c, intake.c. */
#ifndef TILELAB_GRADER_GRADE_H
#define TILELAB_GRADER_GRADE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tilelab.h"
#include "verdict.h"

#include "env.h"
#include "labtable.h"
#include "opts.h"
#include "proc.h"
#include "runstate.h"
#include "sandbox.h"
#include "util.h"

#define TG_FILE_MAX     (256 * 1024)       /* largest student file taken                      */
#define TG_ARCHIVE_MAX  (8LL << 20)        /* largest archive accepted                        */
#define TG_UNPACK_MAX   (32LL << 20)       /* largest total of an archive's contents          */
#define TG_ENTRIES_MAX  2000               /* most entries in an archive                      */
#define TG_EXPORT_MAX   (2LL << 30)        /* largest LMS export archive (a whole class)      */
#define TG_EXPORT_UNPACK_MAX (8LL << 30)   /* largest total of an export's contents           */
#define TG_EXPORT_ENTRIES_MAX 200000       /* most entries in an export                       */

/* Copies the kit at root to dst without solutions/, tests/, build folders, .git, grader out
 * dirs and grader secrets or hidden data. In a git tree the files are `git ls-files` (tracked
 * only: an instructor's untracked class folders stay out), or with untracked = 1 also the new
 * files git does not ignore (kit check on a student's working tree); elsewhere a walk. With dst
 * NULL nothing is copied: the relative paths are printed, one a line (--print-pristine).
 * 0 ok, -1 with err set. *nfiles gets the count. */
int tg_copy_pristine(const char *root, const char *dst, int untracked, int *nfiles, char *err, size_t errlen);
/* 1 when a kit-relative path must never reach a student build or the student edition. */
int tg_path_excluded(const char *rel);

/* Takes a submission (folder or archive) into work/: the allow-listed files only, each a
 * regular file up to TG_FILE_MAX. Archives are read with libarchive in a child under limits,
 * each entry checked before it is written (no absolute paths, no "..", no links, no devices),
 * sizes capped on the bytes written. A student file is taken by its exact name, else (the only
 * candidate) by a name like it (tg_named_like; notes say so). found[i] says
 * whether lab->files[i] was found; notes gets what the student should know (with list_ignored,
 * "ignored: ..." for the other files handed in; kit check's lab folder is not a hand-in).
 * Returns 0 ok, 1 refused (the student's problem: reason in err), 2 not graded: the instructor
 * must look (a loose file, several candidates or none; err lists the files found), -1
 * grader-side error. */
int tg_intake(const tl_lab_info *lab, const char *submission, const char *work,
              const char *dest_dir, int list_ignored, int found[TL_LAB_MAX_FILES], tg_buf *notes, char *err,
              size_t errlen);

/* 1 when have is named like the student file want: the same name but for the case, or with a
 * browser's " (1)" or an LMS's "-1" / "_1" before the extension (gmm (1).c, gmm-1.c, GMM.c). */
int tg_named_like(const char *want, const char *have);
/* 1 for .tar, .tar.gz, .tgz, .zip. */
int tg_is_archive_name(const char *name);
/* Unpacks a whole class's export (an LMS's zip) under the export limits, as intake unpacks a
 * student's archive: 0 ok, 1 refused (err), -1 grader-side error. */
int tg_unpack_export(const char *archive, const char *into, char *err, size_t errlen);
/* Unpacks a student's archive under the student limits (unpack.c): 0 ok, 1 refused (err), -1
 * grader-side error. */
int tg_unpack_submission(const char *archive, const char *into, char *err, size_t errlen);

/* Copies one file (regular files only), mode 0644. 0 or -1. */
int tg_copy_file(const char *from, const char *to, char *err, size_t errlen);
/* Copies the open regular file `in` (closed here) to a new file `to` (from: its name, for err). */
int tg_copy_fd(int in, const char *from, const char *to, char *err, size_t errlen);


enum { EXIT_GRADER = 3 };

#define TIMEOUTS_PER_SUBMISSION 4        /* after this many time-outs the rest is not run    */
#define BUILD_LIMIT_S           300.0    /* meson setup, and ninja, each                     */
#define SUB_BUILD_MEM           (2LL << 30) /* one submission's build (less on a small machine) */
#define SUB_BUILD_CPU_S         20       /* CPU seconds per compiler process of a submission's
                                            build: one lab file takes under 5; a macro bomb dies */
#define SPEED_SUSPICIOUS        3.0      /* wall-clock estimate / reported median: flagged  */
#define SPEED_WALL_AGAIN        2        /* windows of its own a flagged estimate is measured
                                            again in, at most, before ncu (speed.c)           */
#define SPEED_FAST_CHECK        0.5      /* reported median / the reference's below this: its
                                             time is checked on the GPU's counters (speed.c)     */
#define EVIDENCE_SHOWN          1200     /* bytes of a program's output quoted per report    */
#define SUMMARY_LINES           12       /* lines of one test's output in summary.md        */
#define ERRORS_SHOWN            2000     /* bytes of compiler errors quoted                  */

/* ------------------------------------------------------------------ the run context */





/* gpushare.c: the GPUs of one host shared by what can share them (grader/README.md, "The GPUs of
 * a class run"). */
#define TG_GPU_MAX      16               /* devices of one host a run spreads over            */
#define TG_GPU_ID_LEN   64               /* a device's name in CUDA_VISIBLE_DEVICES            */
#define TG_GPU_SLOT_MIB 2048             /* device memory budgeted per worker using it: a context,
                                          * the lab's largest case, a sanitizer's own (the H100
                                          * class of 2026-11-27 00:06: 13.3 GiB at most for 17) */
enum { TG_GPU_NONE, TG_GPU_SHARED, TG_GPU_QUEUED, TG_GPU_ALONE };   /* (QUEUED: taken as SHARED) */
#define TG_GPU_SLOTS    64               /* a device's share cap at most                       */
#define TG_GPU_LONG_S   6                /* a request holding the device this long keeps the timed queue open */
#define TG_GPU_DRAIN_S  6                /* a timed run's wait for the requests in flight to end, at most */
#define TG_GPU_YIELD_MS 300              /* a request still running this long after a timed run queued ... */
#define TG_GPU_YIELD_CPU 0.3             /* ... on the CPU at least this share of the time: stopped meanwhile
                                          * (TL_GRADE_GPU_YIELD_CPU)                            */
/* With the timed phase (gpushare.c), processes with device work at once over all the host's devices
 * at most (each device's share cap this over the devices). 2026-11-27: the H100 (16 cores) graded
 * 100 lab 03 submissions in 124.4 s with 24 (09:31Z), 77 in 127.8 s with 10 (09:24Z); the 2-GPU
 * H100 (32 cores) had not finished its phase's untimed work after 90 s with 24 a device (20 of 32
 * cores idle, 37-45 requests in flight: 09:48Z) and finished it at 82 s with 12 (09:52Z), as the
 * H100 did with 24: what that work waits on is the host's (the driver's context starts, scale-diag
 * 0505Z, are one suspect), not each device's */
#define TG_GPU_PHASE_SHARE 24
/* A kernel whose correctness case at its variant's largest public size took this much longer than the
 * class's fastest on the device, and this many times as long, is profiled before the timed phase, the
 * device shared (submission.c, early_profile). Only a kernel that slow is worth it: ncu's time grows
 * with the kernel's. On the H100 (device run 1221Z, session 17), at 4096 beside the class: the
 * corpus's recursive helper 3252 ms against the class's fastest 218 ms; honest files up to 1090 ms
 * (5 x, 0.87 s more: three of them were profiled with 500 ms and 3 x, needlessly) */
#define TG_EARLY_SLOW_MS 1500.0
#define TG_EARLY_SLOW_X  6.0
#define TG_GPU_SETTLE_MS 30              /* a stopped request keeps the device this long more     */
#define TG_GPU_WORKERS_PER_JOB 6         /* a GPU class's workers at most, per --jobs (the waiting ones
                                          * do not count against --jobs: workers.c; 3 until session
                                          * 13: device run gpu-1, 16 graded in 80 s with 96 workers
                                          * and a cap of 10, 15 with 48 and 16, 4 with 48 and 35) */
#define TG_GPU_SHARE_PER_JOB_X3 2        /* a device's share cap at most 2/3 of --jobs over the devices:
                                          * a worker in GPU tests keeps ~0.9 of a core busy, so the
                                          * rest build ahead (gpu-1: with a cap of 10 on 16 cores
                                          * 15.6-15.9 cores busy mid-run)                       */
#define TG_GPU_BUSY_PER_JOB_X2 3         /* ... and at work at once (not waiting for a device's lock):
                                          * 3/2 of --jobs (a GPU test waits on its device much)  */
#define TG_GPU_WORKERS_MAX 256         /* TL_GRADE_GPU_WORKERS at most                          */
#define TG_GPU_BUILD_NICE 19             /* a GPU class's builds: below every test's processes, so that
                                          * builds ahead fill the cores the tests leave (workers.c) */
#define TG_GPU_TEST_NICE 5               /* a GPU class's untimed sessions (cases, sanitizers, profiled
                                          * runs): below the speed tests' sessions, whose timed window
                                          * holds the device alone for everyone (gpu-1: a window's two
                                          * requests took 0.40-0.73 s with the cores busy, 0.30 s
                                          * serially: cpu-1), above the builds            */
/* The reference's timing on one device, kept for the next speed tests there (speed.c): read and
 * written only by a worker holding that device alone, so no other lock. */
#define TG_REF_REUSE     10              /* speed tests one timing of the reference serves, at most  */
#define TG_REF_MAX_AGE_S 30              /* ... and for this long at most; then it is timed again    */
typedef struct tg_ref_time {
    char      key[64];                   /* the variant and size timed ("" none yet)                 */
    double    median_ms;                 /* the reference's reported median                         */
    double    untimed_wall_ms, timed_wall_ms;   /* the grader's wall clock of its requests, the waits for a core left out (the estimate) */
    long long at_ms;                     /* when it was timed (tl_now_ms)                            */
    int       uses;                      /* speed tests it served, its own included                  */
    int       timings;                   /* timings of the reference on this device in this run      */
    double    first_ms;                  /* the run's first timing here (the drift is said against it) */
} tg_ref_time;
typedef struct tg_gpu_board {            /* the parent's, shared with its workers (MAP_SHARED) */
    int waiting;                         /* workers waiting for a device's lock now            */
    int ndev;
    long long since_ms[TG_GPU_MAX][TG_GPU_SLOTS];   /* each slot's request in flight: its start (0 none) */
    int       pid[TG_GPU_MAX][TG_GPU_SLOTS];        /* ... its worker                                 */
    int       holds[TG_GPU_MAX][TG_GPU_SLOTS];      /* ... 1: it holds the device (does not stop)     */
    int       kind[TG_GPU_MAX][TG_GPU_SLOTS];       /* ... its stage's kind (TG_PROF_*: the window's note
                                                     * says what a drain waited for)                   */
    int       alone_pid[TG_GPU_MAX];                /* the worker holding the device alone (0 none)   */
    int       want_pid[TG_GPU_MAX][TG_GPU_WORKERS_MAX];   /* workers waiting for a slot of the device: */
    int       want_seq[TG_GPU_MAX][TG_GPU_WORKERS_MAX];   /* ... pid and order (oldest served first)   */
    tg_ref_time ref[TG_GPU_MAX];                    /* each device's latest timing of the reference    */
    /* The timed phase (TL_GRADE_GPU_TIMED=last, gpushare.c): each worker's row on its device, made by
     * the parent before the fork and freed when it reaps the worker */
    int       timed_last;                           /* 1: a speed test waits for its device's timed phase */
    int       more_coming;                          /* 1: the parent will start more workers          */
    int       row_pid[TG_GPU_MAX][TG_GPU_WORKERS_MAX];     /* a worker of the device (-1 being forked, 0 none) */
    int       row_state[TG_GPU_MAX][TG_GPU_WORKERS_MAX];   /* TG_ROW_AHEAD, TG_ROW_TIMED or 0       */
    int       phase_open[TG_GPU_MAX];               /* 1: the device's timed phase is on              */
    long long fast_case_us[TG_GPU_MAX][TL_LAB_MAX_VARIANTS];   /* the class's fastest passing case of a
                                                     * variant at its largest public size on the device
                                                     * (wall less waits for a core, us; 0 none yet)     */
} tg_gpu_board;
#define TG_ROW_AHEAD 1                   /* the worker has untimed device work ahead of its speed test */
#define TG_ROW_TIMED 2                   /* ... waits for the timed phase, or is in its speed test     */
/* The devices: CUDA_VISIBLE_DEVICES's entries (cvd set), else 0 .. nodes-1. Their count. */
int  tg_gpu_list(const char *cvd, int nodes, char ids[][TG_GPU_ID_LEN], int max);
int  tg_gpu_nodes(void);                                  /* /dev/nvidiaN here: the host's devices */
int  tg_gpu_pick(const int *workers, int ndev);          /* the device with the fewest workers   */
int  tg_gpu_share_cap(long long dev_mem_mib, int jobs);  /* processes sharing one device at most */
void tg_gpu_key(const char *slurm_job, const char *id, char *out, size_t len);   /* the lock files' name */
void tg_gpu_use(const char *dir, const char *key, int cap);   /* this worker's device (dir: the lock files') */
/* TG_GPU_SHARED: untimed work (a slot; each request then takes the lock shared: tg_gpu_req_begin);
 * TG_GPU_ALONE: the timed requests (the queue, the drain, the lock alone); TG_GPU_NONE: nothing
 * held. Waits. */
void tg_gpu_hold(int how);
int  tg_gpu_held(void);
/* One request of a session on a device held SHARED (session.c): the gate passed (tree, the session's
 * processes when alive, stopped while it waits there) and the lock shared, from before the request
 * is sent (or the session started) until its answer is read. yields: a plain session's (stopped for
 * a timed run when it runs long on the CPU: tg_gpu_req_tick); 0: a sanitizer's or profiled one's,
 * which holds the device. 1 when it took the hold (tg_gpu_req_end gives it back), 0 nothing to take. */
int  tg_gpu_req_begin(tg_child *tree, int yields);
void tg_gpu_req_end(void);
/* The exchange's tick (tg_child.tick) while a request is in flight: the milliseconds its tree was
 * stopped for a timed run of the device. */
double tg_gpu_req_tick(tg_child *c, void *ctx);
int  tg_gpu_req_yields(void);                             /* requests stopped so, in this process */
/* The last hold alone (TG_GPU_ALONE) of this process: its wait (the queue, the drain and its retries
 * included), the drains' part of it, the drains given up (a request held the device too long), and
 * the longest a request that holds the device had held it while a drain waited. */
typedef struct tg_gpu_win {
    long long wait_ms, drain_ms, longest_ms;
    long long ahead_ms;                  /* of drain_ms: while another worker's window ran             */
    long long alone_ms;                  /* the device alone: from the lock to the last timed answer    */
    int       retries;
    int       gave_up_kind;              /* the stage kind (TG_PROF_*) of the longest holder at the last give-up (-1 none) */
    int       longest_kind;              /* ... of the request that held the device longest meanwhile  */
} tg_gpu_win;
void tg_gpu_window(tg_gpu_win *w);
/* The window ends at its last timed request's answer (session.c, gsess.end_window): the device given
 * back before the grader judges that answer (nothing of the student's runs then: the kit's serve loop
 * synchronized the device before it answered); held SHARED after it, as tg_gpu_hold(TG_GPU_SHARED). */
void tg_gpu_window_end(void);
tg_gpu_board *tg_gpu_board_new(int ndev);
void tg_gpu_board_join(tg_gpu_board *b, int dev);         /* a worker on device dev: its waits, its tests' starts */
/* This worker's place in the run (its submission's start order, 1 the first): a device's free slot
 * goes to the waiting worker that started first, so that submissions finish in about the order they
 * started (0, the default: no order, any waiting worker may take it). */
void tg_gpu_order(int seq);
/* Slots beyond the device's cap, up to most, taken only while the host's cores idle (fewer processes
 * running than 3/4 of its cores: tg_gpu_cores_idle, replaceable for tests); 0: none (the default). */
void tg_gpu_cap_max(int most);
/* The timed phase (TL_GRADE_GPU_TIMED=last, the default): every speed test of a device waits,
 * holding nothing, until no worker of the device has untimed work ahead (cases, sanitizers: built or
 * building) and the parent starts no more; then the device's timed windows go one after the other,
 * draining only the warm-ups (and profiled runs on demand) of the speed tests beside them, and the
 * phase stays on until no worker of the device waits for it or is in its speed test. The parent: a
 * row per worker (tg_gpu_row_add before the fork, _set after it, _free when reaped: a worker's row is
 * "ahead" until then unless it reaches a speed test); the worker: its row (tg_gpu_row), its turn
 * before its speed test (tg_gpu_timed_turn) and done after it (tg_gpu_timed_done). */
int  tg_gpu_row_add(tg_gpu_board *b, int dev);            /* a free row, marked ahead (-1: none) */
void tg_gpu_row_set(tg_gpu_board *b, int dev, int row, int pid);
void tg_gpu_row_free(tg_gpu_board *b, int dev, int row);
void tg_gpu_row(int row);
int  tg_gpu_timed_phase(void);                            /* 1: this worker's speed tests wait for the phase */
void tg_gpu_timed_turn(void);
void tg_gpu_timed_done(void);
int  tg_gpu_phase_is_open(void);                         /* 1: this worker's device's timed phase is on */
/* A variant's passing case at its largest public size (ms: wall less waits) taken into the class's
 * fastest on this worker's device (ms <= 0: none taken in); that fastest now (0: none, or no board). */
double tg_gpu_fast_case(int variant, double ms);
extern int (*tg_gpu_cores_idle)(void);
int  tg_gpu_waiting(const tg_gpu_board *b);
long long tg_gpu_mem_mib(void);                           /* the smallest device's memory (0: unknown) */
/* This worker's device's timing of the reference (NULL: no board, as in kit check): only while the
 * device is held alone. 1 when t may serve a speed test of key now: timed at key, fewer than reuse
 * uses, at most max_age_s old. */
tg_ref_time *tg_gpu_ref_time(void);
int  tg_gpu_ref_time_hint(const char *key, int reuse, int max_age_s);   /* the same, read without it: a hint */
int  tg_ref_time_reuse(const tg_ref_time *t, const char *key, long long now_ms, int reuse, int max_age_s);
/* The device's profiler, one profiled run (ncu) at a time on it (on 1, waits; off 0): ncu's own
 * collection is one process at a time per device ("a driver resource was unavailable" for the
 * others on one GPU; one on each of two GPUs at once both pass). The lock file is the device's
 * (tg_gpu_use's key), or the one tg_gpu_ncu_at names (the parent's probe, before any worker). */
void tg_gpu_ncu(int on);
void tg_gpu_ncu_at(const char *dir, const char *key);
/* The profiler lock of the device a process without a worker's device runs on (the parent's probe):
 * CUDA_VISIBLE_DEVICES's first entry, else device 0, named as a worker of that device names it. */
void tg_gpu_ncu_first(void);
/* A lock file's path: DIR/tilelab-gpu-UID-KEY.WHAT (dir NULL or "": /tmp; what: lock, gate, slotN, ncu) */
void tg_gpu_lock_path(const char *dir, const char *key, const char *what, char *out, size_t len);

/* One grading run, passed to every part: the lab graded, the options (const after parsing), what
 * was probed here, and the run's own state, a header each. */
typedef struct grun {
    const tl_lab_info *lab;           /* the lab graded: the table's entry, or --rubric's copy (ident.c) */
    const tg_opts     *opt;           /* the command line (opts.h): tl-grade.c's, read-only here   */
    tg_env             env;           /* the machine: sandbox, GPU, tools (env.h)                  */
    tg_runstate        run;           /* out dir, seed, cases, shared builds, identity, profile    */
} grun;


typedef struct gstudent {
    char name[128];          /* the folder in the out dir: safe, unique, stable (tg_student_names) */
    char path[PATH_MAX];
    char display[512];       /* the name as handed in (any Unicode, made valid UTF-8): every report */
    /* From a course's export (lms.c; "" otherwise): who, as the LMS names them, and when. */
    char email[256], sid[128];
    char submitted_at[64];   /* the LMS's time of the submission, as it wrote it ("" unknown)       */
    char from[16];           /* "gradescope", "canvas", "moodle" ("" a folder or archive given)      */
    char time_from[8];       /* "file": submitted_at is the file's own time (late.c); "" the LMS's  */
    char lms_note[600];      /* what intake of the export says of this student (a superseded one)  */
    char not_graded[800];    /* the export itself leaves this student ungradable: why ("" graded)  */
} gstudent;

/* Each student's display name (the folder or archive name as given) and out-dir folder name:
 * [A-Za-z0-9_-] only (never a '.', so never a class file or .state; never a leading '-'), with
 * "-" and 8 hex digits of a hash of the display name when anything was changed or when two
 * students would meet, so the same class gives the same folders in any argument order. */
void tg_student_names(gstudent *st, int n);

typedef enum { C_PASS, C_WRONG, C_ERROR, C_DIED, C_TIMEOUT, C_PROTO, C_NOTRUN, C_NODEV } cstat;

typedef struct cres {
    cstat  st;
    char   reason[600];
    tg_buf explain;          /* the checker's teaching report (wrong results)                  */
    double reported_ms;      /* "ok MS" (-1 none)                                              */
    double wall_ms;          /* request to answer, measured here                               */
    double waited_ms;        /* ... of it, the program's tree runnable but waiting for a core (-1 unknown) */
    int    have_work;        /* emulated: the answer carried the emulator's work counts          */
    tl_work_counts work;     /* what the kernels of the checked run did (judges.c: judge_work)   */
    tl_verdict v;            /* what happened, as data (CONTRACTS.md 10): headlines, the summary   */
} cres;

typedef struct gsess {
    tg_child c;
    int      alive;
    const char *build;       /* host build dir of the binary                                   */
    const char *binary;      /* its path relative to the build dir                             */
    const char *tool;        /* compute-sanitizer tool or NULL                                 */
    int      padding;        /* memcheck: --padding BYTES after every allocation (0 none; oob.c) */
    int      runs;
    char     vpath[PATH_MAX + 32];  /* the emulator's verdict channel, a file bound into the sandbox */
    long long voff;          /* what of it was read                                            */
    const char *const *prof_argv;   /* counters.c: the program runs under this (ncu and its options; NULL none) */
    const char *prof_dir;    /* ... which writes into this folder of the grader's (bound at TG_PROF_INSIDE) */
    const char *prof_ro;     /* ... installed in this folder outside /usr (bound read-only; NULL none) */
    int      timed;          /* a speed test's session: the CUDA runtime's own wait (session.c)    */
    int      on_device;      /* its program runs on the device: each request holds it (session.c) */
    int      end_window;     /* the next request is its speed test's last timed one: the device alone
                              * is given back once its answer is read (gpushare.c, tg_gpu_window_end) */
    int      kept;           /* its program holds the inputs of the size below, from its last request
                              * answered "ok" (session.c: a speed test's next request says "same") */
    int      kept_m, kept_k, kept_n;
    uint64_t kept_seed;
} gsess;
#define TG_PROF_INSIDE "/tmp/tl-prof"   /* where a profiled session sees prof_dir */

/* counters.c: the GPU's counters of one profiled run of a variant (ncu, in another process than
 * the student's: issue 24 item 4), read and judged in the grader's process (ncu.c). */
enum { TG_CTR_NONE, TG_CTR_JUDGED, TG_CTR_NOT_CHECKED, TG_CTR_FAILED };
typedef struct tg_ctr_var {
    int    state;             /* TG_CTR_*: NONE not run; NOT_CHECKED the grader could not (why; the
                               * emulated count decides); FAILED the profiled case itself failed    */
    int    work_judged;       /* the work rule was applied to the counts (JUDGED; 0 for a GPU-only variant) */
    int    bad;               /* the work is not what the lab asks (headline, pattern)           */
    const char *pattern;
    char   size[48];
    char   headline[480], figures[1024], why[520];
    double kernel_ms;         /* the student's kernels' GPU time in the profiled call (0: unknown) */
    double wall_s;            /* what the profiled run cost, s                                  */
    double answer_s, end_s;   /* ... of which to the answer (ncu's start, the program's, the case), and
                                 from it to ncu's end (its table written)                           */
    int    stopped;           /* the profiled run was stopped by its time limit                    */
    int    shared;            /* it ran with the device shared (other processes' kernels beside it)  */
    int    again;             /* it is the second, run alone after a shared one could not decide    */
    int    crowded;           /* a shared run failed as a process does whose device memory was taken */
    int    died;              /* a shared run ended without answering (killed, crashed, no device) */
} tg_ctr_var;

typedef struct gsub {
    const gstudent *s;
    char     work[PATH_MAX], kit[PATH_MAX], build[PATH_MAX], odir[PATH_MAX];
    char     emu_build[PATH_MAX];     /* kit check on a GPU: the build folder of the emulated twin */
    char     files[PATH_MAX + 64];    /* the folder holding the student's files as taken         */
    int      timeouts;
    char     stopped[TL_LAB_MAX_VARIANTS][48];   /* variants that hit the time or memory limit: the rest of */
    int      nstopped;                       /* their cases is not run                                */
    tg_buf   evidence;        /* what the program printed: shown, never believed               */
    unsigned long long printed;
    tg_buf   notes;
    int      built, emu_built;
    gsess    corr;              /* on a GPU, the correctness tests' one session: the program started and
                                 * its CUDA context made once for all of them (judges.c), not per test */
    int      emu_count_built;   /* the counting twin (labNN-emu-count) built: the work count's program */
    int      twins_tried;       /* tg_build_twins_late ran for this submission                   */
    int      ctr_demand;        /* counters.c: its variants were profiled on demand (the default policy) */
    int      corr_left;         /* submission.c: correctness tests (public, hidden) not judged yet */
    int      corr_credited;     /* ... and those judged with credit: speed.c profiles a slow kernel on demand only
                                   while the counters could still take some credit away */
    double   big_case_ms[TL_LAB_MAX_VARIANTS];   /* judges.c: each variant's passing case at its largest
                                   public size on a GPU, wall less waits (0 none): submission.c's early profile */
    char     early_why[400];    /* submission.c: why its variants were profiled before the timed phase ("" not) */
    struct {                    /* the counting twin's runs (work.c): one per variant and size    */
        char  variant[32];
        int   m, k, n, hidden;
        unsigned long long seed;
        cres  r;                /* (its explain left out)                                         */
    } twin_runs[8];
    int      ntwin_runs;
    char     refused[600];    /* the submission itself was refused (an archive): why          */
    int      net_killed;      /* cases killed by the seccomp filter (an inet socket asked for) */
    char     net_where[120];  /* the first of them: variant and size                          */
    tg_buf   build_errors;
    char     emu_unsupported[400];    /* emulated: what the emulator cannot run ("" none): the
                                       * file is valid CUDA, so its tests are not graded here;
                                       * only from the rewrite's record (tg_twin_outcome)     */
    char     twin_failed[600];        /* a twin the work rule needs failed to build, not for a
                                       * reason of the kit's: the work-dependent tests fail   */
    int      fatal_warnings;  /* warnings in the student's files that fail the build (tg_student_warnings) */
    int      warnings;
    tg_buf   warn_lines;      /* the student's files' warnings, "file:line: warning: text"      */
    char     log_path[PATH_MAX + 16];   /* the build's full log ("" none)                      */
    double   build_s;                 /* the build's wall-clock time, s (results.json tilelab.build) */
    struct tg_oob *oob;               /* kit check on a GPU: the memcheck pass beside the cases (oob.c) */
    tg_ctr_var ctr[TL_LAB_MAX_VARIANTS];   /* counters.c: per variant of the lab (its index), the profiled run */
    int      ctr_ran;                 /* tg_counters_run was called for this submission           */
    tg_buf   record;                  /* what the grade is computed from (ident.c; graded-from.txt)  */
} gsub;

typedef struct tg_case_verdict {
    char       size[48];     /* "17", "17x33x9"                                                 */
    tl_verdict v;
} tg_case_verdict;

typedef struct tres {
    const tl_lab_test *t;
    int    graded;           /* 0: not graded (a grader-side reason in output)                */
    double score;
    int    passed;
    tg_buf out;
    tg_buf shown;            /* the lines kit check shows even when the test passed (the work, memcheck) */
    /* The failing cases as data (results.json extra_data.tilelab_cases, the class summary) and
     * the one that made the headline (have_head 0: none). */
    tg_case_verdict head;
    int    have_head;
    tg_case_verdict *cases;
    int    ncases, capcases;
} tres;

/* gpushare.c: the worker's device lock for a test (only for runs on a real device; a stage names
 * the wait), and whether a test's failure reads as another process's doing (device memory gone). */
void tg_gpu_take(const grun *R, int how);
int  tg_gpu_crowded_out(const tres *tr);
int  tg_gpu_crowded_words(const char *text);   /* the same words in a text (a case's reason, a session's output) */

/* Keeps a failing case's verdict in tr (report.c writes them). */
void tg_tres_add_case(tres *tr, const char *size, const tl_verdict *v);

typedef struct srow {
    int    done;
    double score, max, secs;
    char   why[600];            /* grader-side failure */
} srow;

/* cases.c */
double tg_round2(double v);
uint64_t tg_mix64(uint64_t x);
int  tg_add_size(grun *R, int m, int k, int n, int hidden);   /* index in R->run.sizes, or -1 when full */
void tg_make_hidden_sizes(grun *R);
int  tg_prepare_size(gsize *s, char *err, size_t errlen);      /* inputs, reference, payload; 0 or -1 */
int  tg_variant_accepts(const tl_lab_variant *v, const gsize *s);
void tg_size_str(char *b, size_t l, const gsize *s);
int  tg_read_seed(const char *path, uint64_t *seed, char *err, size_t errlen);
int  tg_state_seed(grun *R, const char *secret, char *err, size_t errlen);

/* session.c */
void tg_sess_end(gsub *g, gsess *ss, int quit);
/* A speed test's session on the device asks for the inputs its program holds ("same", no matrices:
 * CONTRACTS.md section 2); tg_sess_kept_inputs records them after an "ok" answer at size s. */
int  tg_sess_same_inputs(const gsess *ss, const gsize *s);
void tg_sess_kept_inputs(gsess *ss, const gsize *s);
/* The verdicts the emulator wrote on the session's channel since the last call (at most max). */
int  tg_sess_verdicts(gsess *ss, tl_verdict *out, int max);
void tg_run_case(grun *R, gsub *g, gsess *ss, const gsize *s, const tl_lab_variant *v, int timed, double limit_s, cres *r);
/* A run beside the graded cases (the profiled run under ncu, the work count's twin): its time-outs
 * and stopped variants are its own, not the graded cases'. tg_limits_aside keeps the submission's
 * (g->timeouts, g->nstopped, g->stopped) in saved and clears them for the side run; tg_limits_back
 * puts them back after it, whatever the side run hit. */
typedef struct tg_limits_saved {
    int  timeouts, nstopped;
    char stopped[TL_LAB_MAX_VARIANTS][48];
} tg_limits_saved;
void tg_limits_aside(gsub *g, tg_limits_saved *saved);
void tg_limits_back(gsub *g, const tg_limits_saved *saved);
/* The checker on an answer P (m x n) of size s: r's state, verdict, reason and teaching report. */
void tg_judge_product(const gsize *s, const tl_lab_variant *v, const float *P, cres *r);
/* 1 when v is the emulator's "not supported" (kind emulator, pattern not-supported: the rewrite's
 * record or the runtime's verdict), with its words for people in out ("not supported under
 * emulation: WHAT (valid CUDA; ...)", the first line of its detail); else 0. */
int  tg_unsupported_words(const tl_verdict *v, char *out, size_t len);

/* judges.c */
void tg_judge_correctness(grun *R, gsub *g, tres *tr);
/* 1 when a correctness test (public, hidden) of the lab's rubric comes after t (judges.c: the shared
 * session, g->corr, lives until the last one). */
int  tg_correctness_follows(const grun *R, const tl_lab_test *t);
void tg_judge_safety(grun *R, gsub *g, tres *tr);
/* A request's waits for a core to leave out of the speed test's wall-clock estimate (speed.c), ms: at
 * most the wall clock its tree was not on the CPU. One task that spins on its kernels and is
 * descheduled between them waits about wall - CPU; a tree that runs spinners of its own to wait
 * more (a forger hiding its kernels' time from the estimate) uses the CPU it waits for, and has
 * nothing left out. */
double tg_waits_left_out(double waited_ms, double wall_ms, double cpu_ms);
void tg_judge_speed(grun *R, gsub *g, tres *tr);
void tg_judge_policy(grun *R, gsub *g, tres *tr);
/* Before any test: what the student objects define and link, host asm (judges.c). Findings count. */
int  tg_judge_link_gate(grun *R, gsub *g, tg_buf *found);
void tg_judge_calc(grun *R, gsub *g, tres *tr, int api);

/* work.c: the work the passing cases did, against the lab's work rule (the lab table). */
typedef struct tg_work_note {
    int    judged, bad;               /* cases whose counts were judged; of them, not as the lab asks */
    char   headline[480];             /* the first such case's reason                                 */
    const char *pattern;              /* ... as a verdict's pattern (tl_work_judge_why)               */
    char   size[48];                  /* ... and its size                                             */
    char   figures[1024];             /* the largest judged case's figures                            */
    double figures_work;
    char   figures_size[48];
    int    on_gpu;                    /* counted by the emulated twin of a GPU run (tg_work_count_emulated) */
    int    by_counters;               /* judged from the GPU's counters (ncu, outside the process)     */
    char   ctr_note[560];             /* the counters could not judge: why (the twin's count decides)  */
    char   why[400];                  /* GPU: why the work was not counted                            */
    int    ub;                        /* GPU: the emulated twin stopped a size that passed on the GPU with
                                       * a definite bug (tg_work_ub_class): the test fails with it        */
    tl_verdict ub_v;                  /* ... the emulator's verdict                                    */
    char   ub_size[48];
    const gsize *ub_s;
} tg_work_note;
#define TG_OOB_PADDING 65536   /* memcheck: bytes after every allocation (oob.c, judges.c); an overrun of a small case is far less */
#define TG_WORK_EMU_MAX (128.0 * 128 * 128)   /* GPU: the largest size emulated to count the work (a few 10 ms; 256^3 cost ~0.3 s per variant in every kit check) */
/* One passing case's counts (r->have_work) judged; notes the first breach and the largest case's figures. */
void tg_work_case(const grun *R, const tl_lab_variant *v, const gsize *s, const cres *r, tg_work_note *wn);
/* GPU: the emulated twin (build.c) runs size s once and its counts are judged. */
void tg_work_count_emulated(grun *R, gsub *g, const tl_lab_variant *v, const gsize *s, tg_work_note *wn);
/* 1: the emulator's verdict is a definite bug of the student's code (undefined behaviour in CUDA). */
int  tg_work_ub_class(const tl_verdict *v);
/* GPU: the counting twin runs size s as an undefined-behaviour check only (wn->ub), its counts unjudged. */
void tg_ub_check_emulated(grun *R, gsub *g, const tl_lab_variant *v, const gsize *s, tg_work_note *wn);
/* The counting twin of the lab's emulated program (labs/emulated/meson.build): its ninja target
 * (what = 0) or its path under a build folder (what = 1); "" when the lab has none. */
const char *tg_emu_count_name(const grun *R, int what, char *buf, size_t len);
/* The test's lines about the work: the figures, or "not checked here: WHY". */
void tg_work_report(const grun *R, int emulated, const tg_work_note *wn, tg_buf *out);
/* A failed build of an emulated twin (issue 24): what it means, decided from the build's outcome
 * alone. erc: the build's result (0 built, > 0 failed, < 0 the grader's problem); refused: what the
 * rewrite recorded in its TL_EMU_UNSUPPORTED file (NULL or "" when nothing: the compiler's words
 * are never asked); log: the build's output; count: 1 for the counting twin, 0 the emulated program.
 * Sets g->emu_unsupported or g->twin_failed and returns TG_TWIN_*. */
enum { TG_TWIN_BUILT, TG_TWIN_UNSUPPORTED, TG_TWIN_BUILD_FAILED, TG_TWIN_WORK_FAILED, TG_TWIN_GRADER };
int  tg_twin_outcome(const grun *R, gsub *g, int count, int erc, const char *refused, const tg_buf *log);
/* The work rule's verdict when the twin that counts the work failed to build (g->twin_failed):
 * returns 1 with wn marked bad (the test earns no credit, the headline names the build). */
int  tg_work_twin_failed(const grun *R, const gsub *g, tg_work_note *wn);
/* counters.c: on a GPU, each variant the work rule or the speed test needs is run once more under
 * ncu in the sandbox at the speed size (one untimed case: what a speed test's session starts with),
 * before the tests, with the GPU to itself (run.c holds the lock); its counters judged (ncu.c). */
void tg_counters_run(grun *R, gsub *g);
/* Once per run, before any student: ncu found (the binary, not the CUDA toolkit's wrapper script,
 * whose folder lookup fails in the sandbox) and tried on the reference solution in the sandbox; a
 * student's profiled run counts only where the reference's did (R->env.ncu_ok), so a grader-side
 * failure of ncu is never the student's. */
void tg_counters_probe(grun *R);
int  tg_counters_every_wanted(void);   /* TL_GRADE_NCU=1: every submission profiled (the instructor's ask) */
/* A profiled case that did not pass (counters.c), and whether that run is run again with the device
 * alone before it counts: one with the device shared that ran out of time, lost the device's memory
 * or ended without answering (beside other processes that is not the student's to answer for). */
void tg_ctr_case_failed(tg_ctr_var *cv, const cres *r);
int  tg_ctr_again_alone(const tg_ctr_var *cv);
void tg_counters_probed(grun *R);   /* a worker: the deferred counters' probe's results (run.c) */
const tg_ctr_var *tg_counters_var(const grun *R, const gsub *g, const tl_lab_variant *v);
/* The work rule from the counters into wn: 1 they decided (wn set: a breach, or the figures), 0 the
 * emulated count decides (wn->ctr_note says why the counters did not). */
int  tg_counters_work(const grun *R, const gsub *g, const tl_lab_variant *v, tg_work_note *wn);
/* 1 where tg_counters_work decides this variant's work (judged, or the profiled run failed). */
int  tg_counters_decide(const grun *R, const gsub *g, const tl_lab_variant *v);
/* v's profiled run once more with the device alone (its result replaces the shared one's), where
 * the shared one ran beside other processes; the device's hold is given back as it was. 1 run. */
int  tg_counters_again_alone(grun *R, gsub *g, const tl_lab_variant *v);
/* The default policy's profiled runs (counters.c): every needed variant of this submission, not
 * profiled before its tests, profiled now (the speed test found its time implausible: why says how);
 * 1 done, 0 not (profiled already, once already, or ncu did not read the reference's counters here). */
int  tg_counters_on_demand(grun *R, gsub *g, const char *why);
int  tg_variant_index(const grun *R, const tl_lab_variant *v);   /* its index in the lab's table (-1: none) */
/* After the tests, where the counters were read on demand: a correctness test whose variant's
 * counters show a breach of the work rule (or whose profiled run failed) loses its credit too. */
void tg_counters_after_tests(grun *R, gsub *g, tres *tr, int nt);
/* devquery.c: lab 02's device query against the kit's own query of the device */
void tg_judge_devfacts(grun *R, gsub *g, tres *tr);

/* build.c */
void tg_first_errors(const tg_buf *log, tg_buf *out, int *warnings);
/* kit check (--build-log): the student's own build of the working tree, whose log is the one record
 * of an emulated build there (no TL_EMU_UNSUPPORTED): "not supported under emulation: WHAT (valid
 * CUDA; on a GPU it runs)" when the rewrite's or an emulation header's refusal is in the log (1),
 * else 0. Read from compiler text, so never where a grade is made (tl-grade's builds read the
 * rewrite's record: work.c). */
int  tg_build_log_unsupported(const char *log, char *out, size_t len);
/* The one line that names why a build failed, from its first errors: a duplicate symbol with its
 * name and files, a redefined TILE_WIDTH with its file and line, else the compiler's first error
 * at a file and line (the path cut to the file's name). "" when errs is empty. */
void tg_build_headline(const char *errs, char *out, size_t len);
int  tg_student_warnings(const tl_lab_info *lab, const tg_buf *log, tg_buf *shown, tg_buf *fatal);
/* The failed build as a verdict (kind build; pattern duplicate-symbol, tile-width-redefined,
 * fatal-warning or compile-error; the file and line of the first error; the headline as detail). */
void tg_build_verdict(const gsub *g, tl_verdict *v);
void tg_build_kit(grun *R);    /* sets R->run.kit_build, or R->run.kit_build_why */
int  tg_build_submission(grun *R, gsub *g, char *err, size_t errlen);
/* On a GPU whose counters ncu reads, a submission's build leaves the emulated twins out (the
 * counters judge the work); this builds them, once, for a file whose counters could not decide a
 * variant's work (its profiled run ran out of time, or was not run): the fall-back's count. */
void tg_build_twins_late(grun *R, gsub *g);
/* What a submission's build makes of the emulated twins here (the policy's, testable without a GPU):
 * the emulated program (where the run grades emulated, or a GPU lacks compute-sanitizer), the
 * counting twin (the lab has a work rule), built late only where they are needed (every submission
 * profiled by ncu, TL_GRADE_NCU=1). 0: neither (a CPU lab, no emulated build). */
enum { TG_TWINS_PROGRAM = 1, TG_TWINS_COUNT = 2, TG_TWINS_LATE = 4 };
int  tg_build_twin_plan(const grun *R);
void tg_build_reference(grun *R);

/* report.c */
void tg_print_check(const gsub *g, const tres *tr, int nt, double score, double max);
void tg_write_reports(grun *R, gsub *g, tres *tr, int nt, double secs, double *score_out, double *max_out);
/* results.json read back (cJSON; NULL when missing or not JSON), and one test's score in it:
 * 1 graded (*score, *max set), 0 not graded, -1 absent. */
struct cJSON;
struct cJSON *tg_read_results(const char *path);
int  tg_results_test(const struct cJSON *js, const char *name, double *score, double *max);
/* Escaping (report.c) for anything a student printed or named: valid UTF-8, no terminal control
 * (ANSI escapes, C1, bidi overrides shown as \xNN), and nothing Markdown or HTML acts on.
 * Inline Markdown (headings, table cells), inside a ``` block, HTML text. Results are malloc'd. */
char *tg_md_inline(const char *s);
char *tg_md_code(const char *s);
char *tg_html_text(const char *s);
void tg_write_class(grun *R, const gstudent *st, const srow *rows, int ns, double total_s);

/* glance.c: the class at a glance: a section appended to summary.md (md), DIR/summary.html and
 * the chart DIR/class.png (gnuplot, grader/class.gp; skipped with the reason where it is missing). */
void tg_write_glance(grun *R, const gstudent *st, const srow *rows, int ns, tg_buf *md, const char *date);

/* progress.c: what a person waiting on a class run sees (a live line on a terminal, plain lines
 * otherwise, DIR/progress.json always). A worker names its stage with tg_stage. how: 0 graded,
 * 1 not graded, 2 graded earlier; what: the line's end ("70/100 (6.9 s)"). */
typedef struct tg_progress tg_progress;
tg_progress *tg_progress_start(const grun *R, int total, int slots);
int  tg_progress_slot(tg_progress *p, const char *student);   /* the parent, before fork: a slot or -1 */
void tg_progress_worker(tg_progress *p, int slot);           /* the worker, after fork               */
void tg_stage(int kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));  /* kind: TG_PROF_*, the
                                                  profile's stage, given by the caller, never read from the words */
int  tg_stage_kind(void);                         /* the worker's current stage kind (TG_PROF_OTHER none) */
void tg_stage_end(void);                          /* the worker, before it exits: its last stage summed */
void tg_stage_name(char *out, size_t len);        /* the worker's current stage ("" none)        */
void tg_progress_tick(tg_progress *p);
void tg_progress_done(tg_progress *p, int slot, const char *student, int how, const char *what);
void tg_progress_end(tg_progress *p);
/* The time left (s; -1 unknown yet, 0 none): the students left (left) times the time between
 * completions since the first (first_ms), once jobs more came after it; else the time per student
 * since t0_ms */
double tg_eta_s(double now_ms, double t0_ms, double first_ms, int finished, int left, int jobs);
void tg_progress_setup(tg_progress *p, double class_t0_ms, double setup_wall_s, double setup_cpu_s);
void tg_progress_profile(const tg_progress *p, tg_profile *out);   /* the run's profile so far */

const char *tg_profile_key(int kind);
double tg_profile_cpu_now(void);                  /* CPU s of this process and its waited children */
void tg_profile_add(tg_profile *to, const tg_profile *from);
void tg_profile_json(const tg_profile *pr, void *cjson_object);   /* adds "profile" to it       */
void tg_profile_md(const tg_profile *pr, tg_buf *md);             /* summary.md's table         */

/* slurm.c: the Slurm back end. The student list of a run lives in DIR/.state/students.tsv
 * (index, name, path; written by every class run), so tasks, the finishing job and --status
 * read the same list. */
int  tg_students_write(const grun *R, const gstudent *st, int ns);
int  tg_students_load(const char *out, gstudent **st, int *ns, char *err, size_t errlen);
/* Takes every submission not yet graded into DIR/.state/taken/<name> (the intake, here), writes
 * the task list and the batch scripts, submits the array and the dependent finishing job.
 * Returns tl-grade's exit code. */
int  tg_slurm_submit(grun *R, const gstudent *st, int ns);
/* In a task: the students of this array task (indices into st), from DIR/.state/slurm. */
int  tg_slurm_task_students(const grun *R, int gen, int *idx, int max, char *err, size_t errlen);
/* The submit-time facts a task needs: the kit build, the reference build (saved, then loaded). */
int  tg_slurm_save_prepared(const grun *R);
int  tg_slurm_load_prepared(grun *R, char *err, size_t errlen);
/* The submission taken at submit time, laid into files_dir; notes and a refusal as intake gives
 * them. 0 taken, 1 refused (err says why), -1 grader-side problem. */
int  tg_take_prepared(const grun *R, const gstudent *st, const char *files_dir, tg_buf *notes, char *err,
                      size_t errlen);
/* --status DIR: where the run stands (done, not graded, to go, the Slurm jobs). Exit code. */
int  tg_status(const char *out);

/* lms.c: a class as a course collected it. kind "gradescope" (an "Export Submissions" zip or its
 * folder: submission_metadata.yml read with libyaml), "canvas" or "moodle" (a "Download
 * submissions" folder or zip of loose files, mapped to students by pattern: a PCRE2 regular
 * expression with named groups, the LMS's own unless given). stage: a folder of the out dir's
 * state where unpacked exports and each student's loose files are laid. *st gets the students
 * (paths, names, emails, SIDs, times), report what the instructor should read (unmatched files,
 * superseded submissions). 0 ok, 2 the export is unusable (err says why and what to do). */
int  tg_lms_collect(const char *kind, const char *source, const char *pattern, const char *stage,
                    gstudent **st, int *ns, tg_buf *report, char *err, size_t errlen);
/* DIR/intake.md: the export's students and what the instructor should look at (also on stderr). */
void tg_lms_intake_report(const grun *R, const gstudent *st, int ns, const tg_buf *report);
/* The default --name-pattern of canvas or moodle (NULL for another kind). */
const char *tg_lms_default_pattern(const char *kind);
/* (tg_parse_time, the LMS's times and --due's: util.h) */

/* ident.c: what a grade was computed from. SHA-256 of bytes or of a file (64 hex digits). */
void tg_sha256_hex(const void *data, size_t n, char out[65]);
int  tg_sha256_file(const char *path, char out[65]);
/* The lab's rubric as an instructor's file (--print-rubric), and such a file laid over the table
 * for this run (R->lab then points at the copy): 0, or -1 with err naming the line and the fix. */
void tg_rubric_print(const tl_lab_info *lab, FILE *out);
int  tg_rubric_load(grun *R, const char *path, char *err, size_t errlen);
/* This run's identity (rubric, cases, kit version), and the rubric as words. */
void tg_identity(const grun *R, tg_identity_t *id);
void tg_identity_rubric_text(const grun *R, tg_buf *b);
/* A student's record: the identity's hashes and the SHA-256 of each taken file in files_dir. */
int  tg_files_record(const grun *R, const char *files_dir, const tg_identity_t *id, tg_buf *out);
int  tg_record_same_files(const char *a, const char *b);
/* The kit's records (DIR/.state/identity, graded-from.txt) are lines "KEY VALUE": the value of the
 * first line whose key is key, up to its newline (*len its length), or NULL. */
const char *tg_record_value(const char *rec, const char *key, size_t *len);
/* 1 when that value is exactly want (want_word: only its first word, up to a space). */
int  tg_record_is(const char *rec, const char *key, const char *want, int want_word);
int  tg_record_same_class(const char *rec, const tg_identity_t *id);
/* Reruns: is the student named by --regrade=NAME,...? Does a finished grade still stand (the
 * class's rubric and cases, and for a student of this run the files intake takes now)? why says
 * why not. */
int  tg_regrade_named(const grun *R, const gstudent *s);
int  tg_still_fresh(grun *R, const gstudent *s, int in_run, int named, char *why, size_t whylen);

/* exports.c: after every class run, the out dir's students joined to the roster (DIR/roster.md)
 * and the grades as Canvas and Gradescope read them (DIR/canvas.csv, DIR/gradescope.csv). */
void tg_write_exports(grun *R, const gstudent *st, const srow *rows, int ns);
/* The roster read as the exports read it: 0 (*n its students), or -1 with err naming the fix. */
int  tg_roster_check(const char *path, int *n, char *err, size_t errlen);

/* late.c: submission times, due dates, the late policy and extensions. */
typedef struct tg_late {
    long long due, when;     /* the student's due date (an extension's), the submission's time     */
    int       days, extended, unknown;
    double    percent;       /* the penalty                                                          */
} tg_late;
/* The file's own time when the export gave none (an archive's, a folder's newest file's). */
void   tg_submission_time(gstudent *s);
/* --extensions read (after --due): 0, or -1 with err naming the line. */
int    tg_late_load(tg_opts *o, char *err, size_t errlen);
/* The fraction of the score the student loses (0 on time, or no --due); why gets the words. */
double tg_late_penalty(const grun *R, const gstudent *s, tg_buf *why, tg_late *out);
/* The late policy as words for the class's rubric ("" without --due). */
void   tg_late_text(const grun *R, tg_buf *b);

/* similar.c: pairs of the out dir's graded files alike at threshold percent or more (sim_c, the
 * skeleton's lines taken out of kit_lab_dir's files), as a Markdown section into md; never a
 * score. Returns the pairs found, 77 when sim_c is missing, -1 on a failure (said in md). */
int  tg_similarity(const char *out, const tl_lab_info *lab, const char *kit_lab_dir, int threshold, tg_buf *md);

/* run.c: everything after the command line; returns tl-grade's exit code. */
int  tg_class_run(grun *R, int ns, char **subs, const char *out, const char *secret);
/* submission.c: grades one student in the calling (worker) process: *score, *max and *secs, its
 * reports and DIR/<student>/.done. 0, or EXIT_GRADER with why set (not graded). */
int  tg_grade_one(grun *R, const gstudent *st, double *score, double *max, double *secs, char *why, size_t whylen);

#endif
