/* test_gpushare_sched.c: the GPU class's schedule (grader/gpushare.c, issue 29, session 13) without
 * a GPU: a timed window that ends at its last answer, a free slot to the
 * worker that started first, slots beyond the cap only while the cores idle. The locks between
 * forked processes in a folder of the test's own, as test_gpushare.c (its header: no check depends
 * on the machine's speed). */
#define _GNU_SOURCE
#include "gpushare-test.h"

TestSuite(gpusched, .init = setup, .fini = teardown, .timeout = 60);

/* ---------------------------------------------------------------- the window ends at its last answer */

/* speed.c marks the student's last timed request (gsess.end_window): once its answer is read,
 * session.c calls tg_gpu_window_end, and the device alone is given back before the grader judges
 * that answer: a request queued behind the window starts then, the worker keeps the device shared
 * (its sessions end with it so), and the window's alone time is the time to that answer. */
Test(gpusched, a_window_ends_at_its_last_answer)
{
    board = tg_gpu_board_new(1);
    cr_assert_not_null(board);
    tg_gpu_use(lockdir, "dev0", 4);
    tg_gpu_board_join(board, 0);
    tg_gpu_hold(TG_GPU_ALONE);
    cr_assert_eq(tg_gpu_held(), TG_GPU_ALONE);
    cr_assert_eq(board->alone_pid[0], getpid(), "the window is not on the board");
    pid_t c = child(0, TG_GPU_SHARED, 4);    /* a request behind the window */
    still_waiting(0, "a request beside a timed window");
    tg_gpu_window_end();                     /* the last timed answer read */
    wait_got(0);                             /* the request went before the answer was judged */
    cr_assert_eq(tg_gpu_held(), TG_GPU_SHARED, "after its window the worker holds the device shared");
    cr_assert_eq(board->alone_pid[0], 0, "the window's mark outlived it");
    tg_gpu_win w;
    tg_gpu_window(&w);
    cr_assert(w.alone_ms >= 250, "the window's alone time is %lld ms (it held the device alone for the 300 ms "
              "the request waited)", w.alone_ms);
    tg_gpu_window_end();                     /* (a second call, or one not alone: nothing) */
    cr_assert_eq(tg_gpu_held(), TG_GPU_SHARED);
    tg_gpu_hold(TG_GPU_SHARED);              /* speed.c's take after it: nothing to do */
    tg_gpu_window(&w);
    cr_assert(w.alone_ms >= 250, "the alone time was taken again at the later take (%lld ms)", w.alone_ms);
    let_go(0);
    reap(c);
    tg_gpu_hold(TG_GPU_NONE);
}

/* tg_gpu_order: a free slot goes to the waiting worker that started first (its submission's start
 * order), not to whichever polls first: submissions finish in about the order they started. */
/* Child i: holds a slot of the device (cap 1) shared once `setup(arg)` has run in it, until told
 * to let go. */
static pid_t slot_child(int i, void (*setup)(int), int arg)
{
    pid_t p = fork();
    cr_assert(p >= 0);
    if (p)
        return p;
    tg_gpu_use(lockdir, "dev0", 1);
    setup(arg);
    tg_gpu_hold(TG_GPU_SHARED);
    __atomic_store_n(&sh->got[i], 1, __ATOMIC_SEQ_CST);
    while (!__atomic_load_n(&sh->release[i], __ATOMIC_SEQ_CST))
        pause_ms(5);
    tg_gpu_hold(TG_GPU_NONE);
    _exit(0);
}

static void join_in_order(int seq)
{
    tg_gpu_board_join(board, 0);
    tg_gpu_order(seq);
}

static pid_t ordered_child(int i, int seq)
{
    return slot_child(i, join_in_order, seq);
}

Test(gpusched, a_free_slot_goes_to_the_worker_that_started_first)
{
    board = tg_gpu_board_new(1);
    cr_assert_not_null(board);
    pid_t a = ordered_child(0, 1);             /* the one slot (cap 1) */
    wait_got(0);
    pid_t late = ordered_child(1, 9);          /* waits first, started later */
    while (!__atomic_load_n(&board->want_pid[0][0], __ATOMIC_SEQ_CST))
        pause_ms(5);
    pause_ms(100);
    pid_t early = ordered_child(2, 3);         /* waits second, started earlier */
    int n;
    do {
        n = 0;
        for (int e = 0; e < TG_GPU_WORKERS_MAX; ++e)
            n += __atomic_load_n(&board->want_pid[0][e], __ATOMIC_SEQ_CST) > 0;
        pause_ms(5);
    } while (n < 2);
    let_go(0);
    reap(a);
    wait_got(2);
    cr_assert_eq(sh->got[1], 0, "the worker that started later took the slot first");
    let_go(2);
    reap(early);
    wait_got(1);
    let_go(1);
    reap(late);
    for (int e = 0; e < TG_GPU_WORKERS_MAX; ++e)
        cr_assert_eq(board->want_pid[0][e], 0, "a worker left its entry on the list of those waiting");
}

/* tg_gpu_cap_max: a slot beyond the cap only while the host's cores idle (the builds ahead done). */
static int idle_flag(void)
{
    return __atomic_load_n(&sh->most, __ATOMIC_SEQ_CST) == 99;   /* (the test sets it: most is unused here) */
}

static pid_t capped_child(int i)
{
    return slot_child(i, tg_gpu_cap_max, 2);
}

Test(gpusched, a_slot_beyond_the_cap_only_while_the_cores_idle)
{
    int (*was)(void) = tg_gpu_cores_idle;
    tg_gpu_cores_idle = idle_flag;
    pid_t a = capped_child(0);
    wait_got(0);
    pid_t b = capped_child(1);
    still_waiting(1, "a second worker beyond a cap of 1 while the cores are busy");
    __atomic_store_n(&sh->most, 99, __ATOMIC_SEQ_CST);   /* the cores idle now */
    wait_got(1);
    pid_t c = capped_child(2);
    still_waiting(2, "a third worker beyond the most (2) slots");
    let_go(0), let_go(1);
    wait_got(2);
    let_go(2);
    reap(a), reap(b), reap(c);
    tg_gpu_cores_idle = was;
}
