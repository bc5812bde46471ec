/* test_gpushare.c: the GPU sharing of a class run (grader/gpushare.c) without a GPU: the devices
 * named by CUDA_VISIBLE_DEVICES or counted, the spread of workers over a faked count of devices,
 * the share cap from device memory, and the locks themselves between forked processes in a
 * folder of the test's own. No check here depends on the machine's speed: a "must wait" is a
 * process that has not got the lock while another holds it, checked before the holder lets go,
 * and a "gets it" waits as long as it takes (Criterion's timeout ends a hang). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade.h"

Test(gpushare, devices_from_cuda_visible_devices)
{
    char ids[TG_GPU_MAX][TG_GPU_ID_LEN];
    cr_assert_eq(tg_gpu_list("0,1", 8, ids, TG_GPU_MAX), 2);
    cr_assert_str_eq(ids[0], "0");
    cr_assert_str_eq(ids[1], "1");
    cr_assert_eq(tg_gpu_list(" 2 , 3 ", 8, ids, TG_GPU_MAX), 2, "spaces around the names");
    cr_assert_str_eq(ids[0], "2");
    cr_assert_str_eq(ids[1], "3");
    cr_assert_eq(tg_gpu_list("GPU-5d3e,GPU-77aa", 0, ids, TG_GPU_MAX), 2, "UUIDs are names too");
    cr_assert_str_eq(ids[1], "GPU-77aa");
    cr_assert_eq(tg_gpu_list("1,-1,2", 8, ids, TG_GPU_MAX), 1, "CUDA stops at -1: so does the list");
    cr_assert_eq(tg_gpu_list("", 8, ids, TG_GPU_MAX), 0, "set and empty: no device");
    cr_assert_eq(tg_gpu_list(NULL, 3, ids, TG_GPU_MAX), 3, "unset: every device of the host");
    cr_assert_str_eq(ids[2], "2");
    cr_assert_eq(tg_gpu_list("0,1,2,3", 8, ids, 2), 2, "at most max");
}

Test(gpushare, workers_spread_over_faked_devices)
{
    /* the parent's rule: each new worker on the device with the fewest; workers end in any order */
    for (int ndev = 1; ndev <= 4; ++ndev) {
        int load[TG_GPU_MAX] = {0}, where[40];
        for (int w = 0; w < 12; ++w) {
            where[w] = tg_gpu_pick(load, ndev);
            cr_assert(where[w] >= 0 && where[w] < ndev);
            load[where[w]]++;
        }
        for (int d = 0; d < ndev; ++d)
            cr_assert_eq(load[d], 12 / ndev, "%d devices: device %d has %d of 12 workers", ndev, d, load[d]);
        load[where[3]]--, load[where[7]]--;   /* two end; the next goes where one ended */
        int next = tg_gpu_pick(load, ndev);
        cr_assert(load[next] == 12 / ndev - 1 || ndev == 1 || where[3] == where[7],
                  "%d devices: the next worker went to device %d (load %d)", ndev, next, load[next]);
    }
    int uneven[3] = {3, 1, 2};
    cr_assert_eq(tg_gpu_pick(uneven, 3), 1);
    int tie[2] = {2, 2};
    cr_assert_eq(tg_gpu_pick(tie, 2), 0, "a tie: the first device");
}

Test(gpushare, share_cap_from_device_memory)
{
    cr_assert_eq(tg_gpu_share_cap(81559, 32), 32, "an H100 (80 GiB): 35 fit, 32 workers are the bound");
    cr_assert_eq(tg_gpu_share_cap(81559, 64), 35, "an H100: 35 x 2 GiB in 90%% of 80 GiB");
    cr_assert_eq(tg_gpu_share_cap(16 * 1024, 16), 7, "16 GiB: 7");
    cr_assert_eq(tg_gpu_share_cap(0, 16), 7, "not known: as 16 GiB");
    cr_assert_eq(tg_gpu_share_cap(2048, 16), 1, "a small device: one at a time");
    cr_assert_eq(tg_gpu_share_cap(81559, 1), 1);
}

Test(gpushare, lock_names)
{
    char k[160];
    tg_gpu_key(NULL, "1", k, sizeof k);
    cr_assert_str_eq(k, "1");
    tg_gpu_key("4711", "0", k, sizeof k);
    cr_assert_str_eq(k, "job4711-0", "a Slurm job's device numbers are its own");
    tg_gpu_key(NULL, "GPU-ab:cd/..", k, sizeof k);
    cr_assert_str_eq(k, "GPU-ab_cd___");
    tg_gpu_key(NULL, "", k, sizeof k);
    cr_assert_str_eq(k, "all");
}

/* ---------------------------------------------------------------- the locks, between processes */

#include "gpushare-test.h"

TestSuite(gpulocks, .init = setup, .fini = teardown, .timeout = 60);

Test(gpulocks, untimed_work_shares_the_device)
{
    pid_t a = child(0, TG_GPU_SHARED, 4), b = child(1, TG_GPU_SHARED, 4), c = child(2, TG_GPU_SHARED, 4);
    wait_got(0), wait_got(1), wait_got(2);   /* all three hold it at once: a hang here fails */
    cr_assert_eq(sh->most, 3);
    let_go(0), let_go(1), let_go(2);
    reap(a), reap(b), reap(c);
}

Test(gpulocks, the_cap_bounds_how_many_share)
{
    pid_t p[5];
    for (int i = 0; i < 5; ++i)
        p[i] = child(i, TG_GPU_SHARED, 2);
    int in = 0;
    while (in < 2) {                   /* two get in ... */
        in = 0;
        for (int i = 0; i < 5; ++i)
            in += __atomic_load_n(&sh->got[i], __ATOMIC_SEQ_CST);
        pause_ms(5);
    }
    pause_ms(300);                     /* ... and no third while they hold it */
    in = 0;
    for (int i = 0; i < 5; ++i)
        in += sh->got[i];
    cr_assert_eq(in, 2, "%d hold a device capped at 2", in);
    for (int i = 0; i < 5; ++i)
        let_go(i);
    for (int i = 0; i < 5; ++i)
        reap(p[i]);
    cr_assert_eq(sh->most, 2, "at most 2 at once, got %d", sh->most);
}

Test(gpulocks, a_timed_run_waits_for_untimed_work_and_excludes_it)
{
    pid_t a = child(0, TG_GPU_SHARED, 4);
    wait_got(0);
    pid_t t = child(1, TG_GPU_ALONE, 4);
    holds_gate(t);                     /* in the queue (the gate), waiting for the lock */
    still_waiting(1, "the timed run got the device while a test held it shared");
    pid_t b = child(2, TG_GPU_SHARED, 4);
    still_waiting(2, "untimed work started while a timed run was queued");
    let_go(0);
    wait_got(1);
    still_waiting(2, "untimed work started beside a timed run");
    cr_assert_eq(sh->inside, 1);
    let_go(1);
    wait_got(2);
    let_go(2);
    reap(a), reap(t), reap(b);
    cr_assert_eq(sh->most, 1);
}

Test(gpulocks, queued_timed_runs_go_before_new_requests)
{
    /* the test process has a request in flight; two timed runs queue; a request comes later */
    tg_gpu_use(lockdir, "dev0", 4);
    tg_gpu_hold(TG_GPU_SHARED);
    cr_assert(tg_gpu_req_begin(NULL, 0));
    pid_t t1 = child(0, TG_GPU_ALONE, 4);
    pid_t t2 = child(1, TG_GPU_ALONE, 4);
    holds_gate(t1);
    holds_gate(t2);                          /* both queued: the gate shared, waiting for the lock */
    pid_t u = child(2, TG_GPU_SHARED, 4);
    still_waiting(2, "a request passed the gate while timed runs were queued");
    still_waiting(0, "a timed run got the device while a request was in flight");
    still_waiting(1, "a timed run got the device while a request was in flight");
    blocked(u);
    tg_gpu_req_end();                        /* the request ends: the queue drains, one at a time */
    int first = -1;
    while (first < 0) {
        first = __atomic_load_n(&sh->got[0], __ATOMIC_SEQ_CST) ? 0 : __atomic_load_n(&sh->got[1], __ATOMIC_SEQ_CST) ? 1 : -1;
        pause_ms(5);
    }
    still_waiting(1 - first, "two timed runs alone at once");
    still_waiting(2, "a request beside a timed run");
    let_go(first);
    wait_got(1 - first);
    still_waiting(2, "a request started before the queue was done");
    let_go(1 - first);
    wait_got(2);
    let_go(2);
    tg_gpu_hold(TG_GPU_NONE);
    reap(t1), reap(t2), reap(u);
    cr_assert_eq(sh->most, 1);
}

Test(gpulocks, a_speed_test_warms_up_shared_and_times_alone)
{
    pid_t a = child(0, TG_GPU_SHARED, 4);    /* another worker's request in flight */
    wait_got(0);
    tg_gpu_use(lockdir, "dev0", 4);
    tg_gpu_hold(TG_GPU_SHARED);              /* the speed test: its warm-up is a request like any */
    cr_assert(tg_gpu_req_begin(NULL, 1), "the warm-up waited for another request in flight");
    tg_gpu_req_end();
    pid_t b = child(1, TG_GPU_SHARED, 4);    /* and another worker's request beside it */
    wait_got(1);
    let_go(0);
    reap(a);
    pid_t p = fork();                        /* the window: waits for the request in flight (b) */
    cr_assert(p >= 0);
    if (p == 0) {
        tg_gpu_use(lockdir, "dev0", 4);
        tg_gpu_hold(TG_GPU_ALONE);
        __atomic_store_n(&sh->got[2], 1, __ATOMIC_SEQ_CST);
        while (!__atomic_load_n(&sh->release[2], __ATOMIC_SEQ_CST))
            pause_ms(5);
        tg_gpu_hold(TG_GPU_SHARED);          /* the window over: the session's end is shared work */
        __atomic_store_n(&sh->got[3], 1, __ATOMIC_SEQ_CST);
        while (!__atomic_load_n(&sh->release[3], __ATOMIC_SEQ_CST))
            pause_ms(5);
        tg_gpu_hold(TG_GPU_NONE);
        _exit(0);
    }
    holds_gate(p);
    still_waiting(2, "the timed window began while a request was in flight");
    let_go(1);
    wait_got(2);
    cr_assert_eq(sh->inside, 0, "alone, yet %d others hold the device", sh->inside);
    pid_t c = child(4, TG_GPU_SHARED, 4);
    still_waiting(4, "a request beside a timed window");
    let_go(2);
    wait_got(3);                             /* given back: requests start again, */
    wait_got(4);                             /* while that worker still holds its slot */
    let_go(3), let_go(4);
    reap(b), reap(p), reap(c);
    tg_gpu_hold(TG_GPU_NONE);
}

Test(gpulocks, devices_are_locked_apart)
{
    pid_t t = child(0, TG_GPU_ALONE, 1);      /* dev0 alone */
    wait_got(0);
    tg_gpu_use(lockdir, "dev1", 1);           /* another device: no wait */
    tg_gpu_hold(TG_GPU_ALONE);
    cr_assert_eq(tg_gpu_held(), TG_GPU_ALONE);
    tg_gpu_hold(TG_GPU_NONE);
    let_go(0);
    reap(t);
}

Test(gpulocks, a_holder_that_dies_lets_go)
{
    pid_t p = fork();
    cr_assert(p >= 0);
    if (p == 0) {
        tg_gpu_use(lockdir, "dev0", 1);
        tg_gpu_hold(TG_GPU_ALONE);
        _exit(0);                             /* ends holding it */
    }
    reap(p);
    tg_gpu_use(lockdir, "dev0", 1);
    tg_gpu_hold(TG_GPU_ALONE);
    tg_gpu_hold(TG_GPU_NONE);
    tg_gpu_hold(TG_GPU_SHARED);
    cr_assert_eq(tg_gpu_held(), TG_GPU_SHARED);
    tg_gpu_hold(TG_GPU_NONE);
}

Test(gpulocks, a_test_outliving_the_drain_does_not_stall_untimed_work)
{
    pid_t a = child(0, TG_GPU_SHARED, 4);    /* a test that runs on (stopped only by its limit) */
    wait_got(0);
    pid_t t = child(1, TG_GPU_ALONE, 4);
    holds_gate(t);
    pid_t u = child(2, TG_GPU_SHARED, 4);
    still_waiting(2, "untimed work started while the queue drained the device");
    wait_got(2);                             /* the drain's deadline: the gate opens again */
    cr_assert_eq(sh->got[1], 0, "the timed run got the device while tests held it");
    let_go(0), let_go(2);
    wait_got(1);
    cr_assert_eq(sh->inside, 1);
    let_go(1);
    reap(a), reap(t), reap(u);
}

Test(gpulocks, a_long_test_keeps_the_queue_open)
{
    board = tg_gpu_board_new(1);
    cr_assert_not_null(board);
    pid_t a = child(0, TG_GPU_SHARED, 4);
    wait_got(0);
    /* its start made long ago (as if it had run for a minute): the board's slot 0 */
    cr_assert(board->since_ms[0][0] > 0, "the request's start is not on the board");
    board->since_ms[0][0] -= 60 * 1000;
    pid_t t = child(1, TG_GPU_ALONE, 4);
    while (tg_gpu_waiting(board) < 1)
        pause_ms(5);
    pause_ms(300);
    cr_assert(!gate_held_by(t), "the timed run closed the gate while a long test held the device");
    pid_t u = child(2, TG_GPU_SHARED, 4);
    wait_got(2);                             /* the gate stayed open: no hang here */
    cr_assert_eq(sh->got[1], 0);
    let_go(2);
    let_go(0);                               /* the long test ends: the timed run goes */
    wait_got(1);
    let_go(1);
    reap(a), reap(t), reap(u);
    cr_assert_eq(tg_gpu_waiting(board), 0);
}

Test(gpulocks, a_worker_that_died_in_a_test_does_not_keep_the_queue_open)
{
    board = tg_gpu_board_new(1);
    cr_assert_not_null(board);
    pid_t p = fork();
    cr_assert(p >= 0);
    if (p == 0) {                              /* takes the device shared and dies in its test */
        tg_gpu_use(lockdir, "dev0", 4);
        tg_gpu_board_join(board, 0);
        tg_gpu_hold(TG_GPU_SHARED);
        tg_gpu_req_begin(NULL, 0);
        _exit(0);
    }
    reap(p);
    cr_assert(board->since_ms[0][0] > 0, "the request's start is not on the board");
    board->since_ms[0][0] -= 60 * 1000;        /* long ago: but its worker is gone */
    pid_t t = child(0, TG_GPU_ALONE, 4);
    wait_got(0);                               /* a hang here: the dead worker's row kept it open */
    let_go(0);
    reap(t);
}

/* ---------------------------------------------------------------- the reference's timing, kept per device */

Test(gpushare, a_timing_of_the_reference_serves_a_few_speed_tests_for_a_while)
{
    tg_ref_time t;
    memset(&t, 0, sizeof t);
    cr_assert_not(tg_ref_time_reuse(&t, "tiled32 2048", 1000, 10, 30), "nothing timed yet");
    snprintf(t.key, sizeof t.key, "tiled32 2048");
    t.median_ms = 1.846;
    t.at_ms = 1000;
    t.uses = 1;
    cr_assert(tg_ref_time_reuse(&t, "tiled32 2048", 1000, 10, 30), "just timed, used once");
    cr_assert(tg_ref_time_reuse(&t, "tiled32 2048", 31000, 10, 30), "30 s old: still");
    cr_assert_not(tg_ref_time_reuse(&t, "tiled32 2048", 31001, 10, 30), "older than 30 s: timed again");
    cr_assert_not(tg_ref_time_reuse(&t, "tiled32 4096", 1000, 10, 30), "another size: timed there");
    cr_assert_not(tg_ref_time_reuse(&t, "tiled16 2048", 1000, 10, 30), "another variant");
    cr_assert_not(tg_ref_time_reuse(&t, "tiled32 2048", 999, 10, 30), "a clock before the timing: not trusted");
    t.uses = 9;
    cr_assert(tg_ref_time_reuse(&t, "tiled32 2048", 2000, 10, 30), "its 10th use");
    t.uses = 10;
    cr_assert_not(tg_ref_time_reuse(&t, "tiled32 2048", 2000, 10, 30), "10 served: timed again");
    t.uses = 1;
    t.median_ms = 0;
    cr_assert_not(tg_ref_time_reuse(&t, "tiled32 2048", 1000, 10, 30), "no median: never");
    cr_assert_not(tg_ref_time_reuse(NULL, "tiled32 2048", 1000, 10, 30));
}

/* Only a worker holding its device alone gets the device's timing to read or write; another worker
 * on that device sees what it wrote, one on another device does not. */
Test(gpulocks, the_reference_timing_belongs_to_the_device_held_alone)
{
    board = tg_gpu_board_new(2);
    cr_assert_not_null(board);
    tg_gpu_use(lockdir, "dev0", 4);
    tg_gpu_board_join(board, 0);
    cr_assert_null(tg_gpu_ref_time(), "nothing held: no timing");
    tg_gpu_hold(TG_GPU_SHARED);
    cr_assert_null(tg_gpu_ref_time(), "held shared: no timing");
    tg_gpu_hold(TG_GPU_ALONE);
    tg_ref_time *t = tg_gpu_ref_time();
    cr_assert_not_null(t, "held alone: the device's timing");
    snprintf(t->key, sizeof t->key, "tiled32 2048");
    t->median_ms = 1.846;
    t->at_ms = (long long)tl_now_ms();
    t->uses = 1;
    t->timings = 1;
    tg_gpu_hold(TG_GPU_NONE);
    cr_assert_null(tg_gpu_ref_time(), "let go: no timing");
    cr_assert(tg_gpu_ref_time_hint("tiled32 2048", 10, 30), "the hint reads it without the device");
    for (int dev = 0; dev < 2; ++dev) {
        pid_t p = fork();
        cr_assert(p >= 0);
        if (p == 0) {
            tg_gpu_use(lockdir, dev ? "dev1" : "dev0", 4);
            tg_gpu_board_join(board, dev);
            int hint = tg_gpu_ref_time_hint("tiled32 2048", 10, 30);
            tg_gpu_hold(TG_GPU_ALONE);
            tg_ref_time *c = tg_gpu_ref_time();
            int ok = c && (dev == 0 ? hint && c->median_ms == 1.846 && tg_ref_time_reuse(c, "tiled32 2048",
                                                                                          (long long)tl_now_ms(), 10, 30)
                                    : !hint && c->key[0] == '\0' && !tg_ref_time_reuse(c, "tiled32 2048",
                                                                                        (long long)tl_now_ms(), 10, 30));
            if (ok && dev == 0)
                c->uses++;             /* seen by the parent: one board */
            tg_gpu_hold(TG_GPU_NONE);
            _exit(ok ? 0 : 1);
        }
        reap(p);
    }
    tg_gpu_hold(TG_GPU_ALONE);
    cr_assert_eq(tg_gpu_ref_time()->uses, 2, "the worker on device 0 counted its use on the run's board");
    tg_gpu_hold(TG_GPU_NONE);
}

/* Whether lockdir holds the lock file named tilelab-gpu-UID-KEY.WHAT (what the instructor sees in
 * /tmp, and what another run or kit check of the user on that device opens). */
static int lock_file_is_there(const char *key, const char *what)
{
    char path[200], made[200];
    snprintf(path, sizeof path, "%s/tilelab-gpu-%ld-%s.%s", lockdir, (long)getuid(), key, what);
    tg_gpu_lock_path(lockdir, key, what, made, sizeof made);
    cr_assert_str_eq(made, path, "the lock file's name");
    struct stat st;
    return stat(path, &st) == 0;
}

/* The device's profiler: one profiled run at a time on each device (ncu's collection is one process
 * at a time per device: on an H100 x2, one ncu on each GPU at once both passed, two on one GPU one
 * failed, "An error was reported by the driver"; the lead's ncu-overhead diag, 2026-11-26 21:24 UTC),
 * while untimed work shares the device beside it. The parent holds device 0's; a worker of device 1
 * gets device 1's at once; a worker of device 0 waits in flock until the parent lets go; a worker
 * holding device 0 shared is not kept out by it. */
Test(gpulocks, one_profiled_run_at_a_time_on_each_device)
{
    tg_gpu_use(lockdir, "dev0", 4);
    tg_gpu_ncu(1);
    cr_assert(lock_file_is_there("dev0", "ncu"), "device 0's profiler lock is tilelab-gpu-UID-dev0.ncu");
    char host_wide[200];
    snprintf(host_wide, sizeof host_wide, "%s/tilelab-gpu-%ld.ncu", lockdir, (long)getuid());
    cr_assert_neq(access(host_wide, F_OK), 0, "no host-wide profiler lock any more (%s)", host_wide);
    tg_gpu_hold(TG_GPU_SHARED);
    pid_t other = fork();
    cr_assert(other >= 0);
    if (other == 0) {
        tg_gpu_use(lockdir, "dev1", 4);   /* another device: its own profiler, not waited for */
        tg_gpu_ncu(1);
        __atomic_store_n(&sh->got[2], 1, __ATOMIC_SEQ_CST);
        while (!__atomic_load_n(&sh->release[2], __ATOMIC_SEQ_CST))
            pause_ms(5);
        tg_gpu_ncu(0);
        _exit(0);
    }
    wait_got(2);                          /* device 1 profiles while device 0's profiler is held */
    cr_assert(lock_file_is_there("dev1", "ncu"));
    pid_t p = fork();
    cr_assert(p >= 0);
    if (p == 0) {
        tg_gpu_use(lockdir, "dev0", 4);   /* the same device: the same profiler */
        tg_gpu_ncu(1);
        __atomic_store_n(&sh->got[0], 1, __ATOMIC_SEQ_CST);
        tg_gpu_ncu(0);
        _exit(0);
    }
    blocked(p);                           /* it waits in flock for device 0's profiler ... */
    cr_assert_eq(__atomic_load_n(&sh->got[0], __ATOMIC_SEQ_CST), 0, "two profiled runs at once on one device");
    pid_t u = child(1, TG_GPU_SHARED, 4); /* ... while untimed work shares the device beside this one */
    wait_got(1);
    tg_gpu_hold(TG_GPU_NONE);
    tg_gpu_ncu(0);
    wait_got(0);
    let_go(1);
    let_go(2);
    reap(p), reap(u), reap(other);
}

/* The parent's probe, before any worker, profiles on the device its children use: the first of
 * CUDA_VISIBLE_DEVICES (else 0), under the name a worker of that device gives its lock (a Slurm
 * job's devices are the job's own). A worker of that device waits for it. */
Test(gpulocks, the_probe_takes_the_profiler_of_its_own_device)
{
    setenv("TL_GRADE_LOCK_DIR", lockdir, 1);
    setenv("CUDA_VISIBLE_DEVICES", "3,1", 1);
    unsetenv("SLURM_JOB_ID");
    tg_gpu_ncu_first();
    tg_gpu_ncu(1);
    cr_assert(lock_file_is_there("3", "ncu"), "the probe's device: CUDA_VISIBLE_DEVICES's first");
    pid_t p = fork();
    cr_assert(p >= 0);
    if (p == 0) {
        char key[160];
        tg_gpu_key(getenv("SLURM_JOB_ID"), "3", key, sizeof key);   /* as workers.c names device 3 */
        tg_gpu_use(lockdir, key, 4);
        tg_gpu_ncu(1);
        __atomic_store_n(&sh->got[0], 1, __ATOMIC_SEQ_CST);
        tg_gpu_ncu(0);
        _exit(0);
    }
    blocked(p);
    cr_assert_eq(__atomic_load_n(&sh->got[0], __ATOMIC_SEQ_CST), 0, "a worker of the probe's device profiled beside it");
    tg_gpu_ncu(0);
    wait_got(0);
    reap(p);
    setenv("SLURM_JOB_ID", "4711", 1);
    unsetenv("CUDA_VISIBLE_DEVICES");
    tg_gpu_ncu_first();
    tg_gpu_ncu(1);
    tg_gpu_ncu(0);
    /* (its device 0 where the host has /dev/nvidia0; on this machine without one, the name a worker
     * without a device gives its locks) */
    cr_assert(lock_file_is_there(tg_gpu_nodes() > 0 ? "job4711-0" : "job4711-", "ncu"),
              "in a Slurm job without CUDA_VISIBLE_DEVICES: its device 0");
    unsetenv("SLURM_JOB_ID");
    unsetenv("TL_GRADE_LOCK_DIR");
}

/* ---------------------------------------------------------------- requests stopped for a timed run */

/* A fake session's tree as tg_spawn makes one: a process in a session of its own, with a child of
 * its own; both spin on the CPU (busy 1: a computation on the host) or sleep (0: a process waiting,
 * e.g. for its kernel). */
static pid_t fake_tree(int busy)
{
    pid_t p = fork();
    cr_assert(p >= 0);
    if (p == 0) {
        setsid();
        if (fork() < 0)
            _exit(1);
        for (volatile unsigned long n = 0;; ++n)
            if (!busy)
                pause();
    }
    for (;;) {                               /* whole: its child is there */
        char path[64];
        int kid;
        snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)p, (int)p);
        FILE *f = fopen(path, "r");
        int have = f && fscanf(f, "%d", &kid) == 1;
        if (f)
            fclose(f);
        if (have) {
            for (int i = 0; i < 4; ++i)
                if (trees[i] <= 0) {
                    trees[i] = p;
                    break;
                }
            return p;
        }
        pause_ms(2);
    }
}

/* The state letter of a process (R, S, T, ...), '?' when gone. */
static char state_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return '?';
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : '?';
}

/* Every process of the fake tree (its first process and that one's children) in state want. */
static int tree_is(pid_t root, char want)
{
    int all = state_of(root) == want;
    char path[64], line[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)root, (int)root);
    FILE *f = fopen(path, "r");
    int kids = 0, kid;
    while (f && fscanf(f, "%d", &kid) == 1) {
        ++kids;
        all &= state_of(kid) == want;
    }
    if (f)
        fclose(f);
    (void)line;
    return all && kids == 1;
}

static void end_tree(pid_t root)
{
    kill(-root, SIGKILL);
    waitpid(root, NULL, 0);
    for (int i = 0; i < 4; ++i)
        if (trees[i] == root)
            trees[i] = 0;
}

/* Child i: a worker whose request runs in tree; it ticks as the exchange does (session.c) until told
 * to let go, and leaves the milliseconds its tree was stopped in sh->got[i + 4] (at least 1). */
static pid_t owner(int i, pid_t tree)
{
    pid_t p = fork();
    cr_assert(p >= 0);
    if (p)
        return p;
    tg_gpu_use(lockdir, "dev0", 4);
    if (board)
        tg_gpu_board_join(board, 0);
    tg_gpu_hold(TG_GPU_SHARED);
    tg_child c;
    memset(&c, 0, sizeof c);
    c.pid = tree;
    if (!tg_gpu_req_begin(&c, 1))
        _exit(3);
    __atomic_store_n(&sh->got[i], 1, __ATOMIC_SEQ_CST);
    double stopped = 0;
    while (!__atomic_load_n(&sh->release[i], __ATOMIC_SEQ_CST)) {
        stopped += tg_gpu_req_tick(&c, NULL);
        pause_ms(20);
    }
    tg_gpu_req_end();
    tg_gpu_hold(TG_GPU_NONE);
    __atomic_store_n(&sh->got[i + 4], stopped > 0 ? (int)stopped + 1 : 0, __ATOMIC_SEQ_CST);
    _exit(0);
}

Test(gpulocks, a_request_computing_on_the_host_is_stopped_for_a_timed_run)
{
    /* (the share of a core it must have used: tiny here, so that no load of this machine changes
     * the outcome; the default's rule is the same comparison) */
    setenv("TL_GRADE_GPU_YIELD_CPU", "0.01", 1);
    pid_t tree = fake_tree(1);
    pid_t o = owner(0, tree);
    wait_got(0);
    pid_t t = child(1, TG_GPU_ALONE, 4);
    wait_got(1);                             /* alone while that request is still in flight: */
    cr_assert(tree_is(tree, 'T'), "the timed run got the device, but the request's tree was not stopped "
              "(states %c)", state_of(tree));
    cr_assert_eq(sh->got[0 + 4], 0);
    pause_ms(200);
    cr_assert(tree_is(tree, 'T'), "the tree ran during the timed run");
    let_go(1);
    reap(t);
    while (tree_is(tree, 'T'))              /* the queue passed: it goes on */
        pause_ms(5);
    let_go(0);
    reap(o);
    cr_assert(sh->got[4] >= 200, "the stopped time (%d ms) is not the owner's to add to its backstop", sh->got[4]);
    end_tree(tree);
    unsetenv("TL_GRADE_GPU_YIELD_CPU");
}

Test(gpulocks, a_request_that_waits_holds_the_device)
{
    unsetenv("TL_GRADE_GPU_YIELD_CPU");
    pid_t tree = fake_tree(0);               /* asleep: it may be waiting for its kernel */
    pid_t o = owner(0, tree);
    wait_got(0);
    pid_t t = child(1, TG_GPU_ALONE, 4);
    holds_gate(t);
    pause_ms(3 * TG_GPU_YIELD_MS);
    cr_assert_eq(sh->got[1], 0, "a timed run got the device while a waiting request was in flight");
    cr_assert_neq(state_of(tree), 'T', "a waiting request was stopped");
    let_go(0);                               /* it answers: the timed run goes */
    reap(o);
    wait_got(1);
    cr_assert_eq(sh->got[4], 0, "the owner says its tree was stopped");
    let_go(1);
    reap(t);
    end_tree(tree);
}

Test(gpulocks, a_session_waits_stopped_at_a_closed_gate)
{
    pid_t t = child(0, TG_GPU_ALONE, 4);     /* a timed run alone on the device */
    wait_got(0);
    pid_t tree = fake_tree(1);               /* a session between requests; its next one waits */
    pid_t o = owner(1, tree);
    while (!tree_is(tree, 'T'))
        pause_ms(5);
    still_waiting(1, "a request started beside a timed run");
    cr_assert(tree_is(tree, 'T'), "the waiting session ran beside the timed run");
    let_go(0);
    wait_got(1);
    cr_assert_neq(state_of(tree), 'T', "the session was not continued with its request");
    let_go(1);
    reap(t), reap(o);
    end_tree(tree);
}

/* tg_child_stop itself: the whole tree, and back. */
Test(gpulocks, a_tree_is_stopped_whole_and_continued)
{
    pid_t tree = fake_tree(1);
    tg_child c;
    memset(&c, 0, sizeof c);
    c.pid = tree;
    while (!tree_is(tree, 'R'))             /* (its child is there and running) */
        pause_ms(5);
    cr_assert_eq(tg_child_stop(&c, 1), 0);
    cr_assert(tree_is(tree, 'T'), "not every process of the tree was stopped");
    cr_assert_eq(tg_child_running(&c), 0);
    cr_assert_eq(tg_child_stop(&c, 0), 0);
    cr_assert_not(tree_is(tree, 'T'), "the tree was not continued");
    end_tree(tree);
}

/* The board's rule is for requests that hold the device: one that would stop (a plain session's, on
 * the CPU) does not keep the queue open however long it has run; once it holds (asleep: it may be
 * waiting for its kernel) its start counts from then. */
Test(gpulocks, only_a_request_that_holds_keeps_the_queue_open)
{
    unsetenv("TL_GRADE_GPU_YIELD_CPU");
    board = tg_gpu_board_new(1);
    cr_assert_not_null(board);
    pid_t tree = fake_tree(0);
    pid_t o = owner(0, tree);
    wait_got(0);
    cr_assert(board->since_ms[0][0] > 0, "the request's start is not on the board");
    cr_assert_eq(board->holds[0][0], 0, "a plain session's request is on the board as one that holds");
    board->since_ms[0][0] -= 60 * 1000;        /* as if it had run for a minute */
    pid_t t = child(1, TG_GPU_ALONE, 4);
    holds_gate(t);                             /* the queue closed the gate all the same */
    while (!__atomic_load_n(&board->holds[0][0], __ATOMIC_SEQ_CST))
        pause_ms(5);                           /* asleep: it holds the device from now on */
    cr_assert(board->since_ms[0][0] > 0);
    cr_assert_eq(sh->got[1], 0, "a timed run beside a request that holds the device");
    let_go(0);
    reap(o);
    wait_got(1);
    let_go(1);
    reap(t);
    end_tree(tree);
}

/* A queued timed run does not give the gate up while another's window runs on the device (its drain's
 * deadline counts the requests in flight, not the queue ahead of it): untimed work would otherwise
 * slip in between two timed runs of one queue. */
Test(gpulocks, a_queued_timed_run_waits_out_the_windows_ahead_of_it)
{
    board = tg_gpu_board_new(1);
    cr_assert_not_null(board);
    pid_t t1 = child(0, TG_GPU_ALONE, 4);
    wait_got(0);
    cr_assert_eq(board->alone_pid[0], t1, "the window is not on the board");
    pid_t t2 = child(1, TG_GPU_ALONE, 4);
    holds_gate(t2);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {                                     /* past the drain's deadline (TG_GPU_DRAIN_S) */
        cr_assert(gate_held_by(t2), "the queued timed run gave the gate up while a window ran");
        pause_ms(50);
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < (TG_GPU_DRAIN_S + 1) * 1000);
    let_go(0);
    wait_got(1);
    cr_assert_eq(board->alone_pid[0], t2);
    let_go(1);
    reap(t1), reap(t2);
    cr_assert_eq(board->alone_pid[0], 0, "the window's mark outlived it");
}

/* ---------------------------------------------------------------- one session for the correctness tests */

/* judges.c keeps a GPU submission's correctness session (g->corr) until the rubric's last public or
 * hidden test: lab 03's order is public16, hidden16, public32, hidden32, racecheck, memcheck, speed. */
Test(gpushare, the_correctness_session_lives_until_the_last_correctness_test)
{
    const tl_lab_info *lab = tl_lab_find("03");
    cr_assert_not_null(lab);
    grun R;
    memset(&R, 0, sizeof R);
    R.lab = lab;
    int last = -1;
    for (int i = 0; i < lab->ntests; ++i)
        if (lab->tests[i].kind == TL_TEST_PUBLIC || lab->tests[i].kind == TL_TEST_HIDDEN)
            last = i;
    cr_assert(last >= 1, "lab 03 has several correctness tests");
    for (int i = 0; i < lab->ntests; ++i)
        cr_assert_eq(tg_correctness_follows(&R, &lab->tests[i]), i < last, "test %d (%s): the session %s after it", i,
                     lab->tests[i].name, i < last ? "must live on" : "must end");
}
