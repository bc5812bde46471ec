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

/* ---------------------------------------------------------------- the timed phase (TL_GRADE_GPU_TIMED=last) */

/* Worker i on row `row` of device 0 (a row the test, as the parent, made): with untimed work ahead
 * (untimed: until told, release[i + 4]), then its speed test's turn (got[i]: it may go), the test
 * (until release[i]), and done. */
static pid_t phase_child(int i, int row, int untimed)
{
    pid_t p = fork();
    cr_assert(p >= 0);
    if (p) {
        tg_gpu_row_set(board, 0, row, p);
        return p;
    }
    tg_gpu_use(lockdir, "dev0", 4);
    tg_gpu_board_join(board, 0);
    tg_gpu_row(row);
    while (untimed && !__atomic_load_n(&sh->release[i + 4], __ATOMIC_SEQ_CST))
        pause_ms(5);
    tg_gpu_timed_turn();
    __atomic_store_n(&sh->got[i], 1, __ATOMIC_SEQ_CST);
    while (!__atomic_load_n(&sh->release[i], __ATOMIC_SEQ_CST))
        pause_ms(5);
    tg_gpu_timed_done();
    _exit(0);
}

/* A row made as the parent makes one (before the fork: ahead). */
static int new_row(void)
{
    int r = tg_gpu_row_add(board, 0);
    cr_assert(r >= 0, "no free row on the board");
    cr_assert_eq(board->row_state[0][r], TG_ROW_AHEAD);
    return r;
}

/* The phase opens once no worker of the device has untimed work ahead and the parent starts no
 * more; it then stays on for a speed test reached beside a newcomer's untimed work (nothing is
 * split), and ends with the last speed test in it; a worker that died before it was reaped does not
 * keep a speed test waiting. */
Test(gpusched, speed_tests_wait_for_the_timed_phase_and_it_ends_with_the_last)
{
    board = tg_gpu_board_new(1);
    cr_assert_not_null(board);
    board->timed_last = 1;
    board->more_coming = 0;
    int ra = new_row(), rb = new_row();
    pid_t a = phase_child(0, ra, 0);            /* reaches its speed test at once */
    pid_t b = phase_child(1, rb, 1);            /* untimed work ahead, until told */
    still_waiting(0, "a speed test began while another worker had untimed work ahead");
    cr_assert_eq(board->phase_open[0], 0);
    __atomic_store_n(&board->more_coming, 1, __ATOMIC_SEQ_CST);
    let_go(1 + 4);                              /* b's untimed work done: both wait for the phase now */
    still_waiting(0, "a speed test began while the parent was still starting workers");
    cr_assert_eq(sh->got[1], 0, "a speed test began while the parent was still starting workers");
    cr_assert_eq(tg_gpu_waiting(board), 2, "the workers waiting for the phase do not count as waiting (the "
                 "parent starts no submission meanwhile)");
    __atomic_store_n(&board->more_coming, 0, __ATOMIC_SEQ_CST);
    wait_got(0);
    wait_got(1);
    cr_assert_eq(board->phase_open[0], 1, "the phase is not on the board");
    cr_assert_eq(tg_gpu_waiting(board), 0);
    /* a newcomer with untimed work ahead starts during the phase: a speed test reached now goes on */
    int rd = new_row(), rc = new_row();
    pid_t d = phase_child(3, rd, 1);
    pid_t c = phase_child(2, rc, 0);
    wait_got(2);
    let_go(0), let_go(1), let_go(2);
    reap(a), reap(b), reap(c);
    tg_gpu_row_free(board, 0, ra), tg_gpu_row_free(board, 0, rb), tg_gpu_row_free(board, 0, rc);
    cr_assert_eq(board->phase_open[0], 0, "the phase outlived its last speed test");
    /* the phase over: a speed test waits for the newcomer's untimed work again */
    int re = new_row();
    pid_t e = phase_child(4, re, 0);
    still_waiting(4, "a speed test began after the phase, beside a worker with untimed work ahead");
    kill(d, SIGKILL);                           /* it dies; its parent has not reaped it yet */
    int st;
    cr_assert_eq(waitpid(d, &st, 0), d);        /* (reaped here, but its row kept: as a parent not yet there) */
    wait_got(4);
    let_go(4);
    reap(e);
    tg_gpu_row_free(board, 0, rd), tg_gpu_row_free(board, 0, re);
    cr_assert_eq(board->phase_open[0], 0);
    for (int r = 0; r < TG_GPU_WORKERS_MAX; ++r)
        cr_assert_eq(board->row_pid[0][r], 0, "a row outlived its worker");
}

/* ------------------------------------------------- the class's fastest case (an early profile's basis) */

/* Each worker takes its passing case at a variant's largest public size into the class's fastest on
 * its device (judges.c); a failed case (0) is not taken in; variants and devices are apart; the
 * fastest is the least any worker saw, whatever the order; without a board (kit check) none. */
Test(gpusched, the_class_fastest_case_is_the_least_any_worker_saw)
{
    cr_assert_eq(tg_gpu_fast_case(0, 12.5), 0, "a fastest case without a board");
    board = tg_gpu_board_new(2);
    cr_assert_not_null(board);
    const double ms[] = {40.0, 25.5, 0, 31.0, 1250.0};
    pid_t kids[5];
    for (int i = 0; i < 5; ++i) {
        kids[i] = fork();
        cr_assert(kids[i] >= 0);
        if (kids[i] == 0) {
            tg_gpu_use(lockdir, "dev0", 4);
            tg_gpu_board_join(board, 0);
            double f = tg_gpu_fast_case(1, ms[i]);
            _exit(ms[i] <= 0 || (f > 0 && f <= ms[i] + 0.002) ? 0 : 1);   /* the fastest never above its own */
        }
    }
    for (int i = 0; i < 5; ++i) {
        int st;
        cr_assert_eq(waitpid(kids[i], &st, 0), kids[i]);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "worker %d read a fastest case above its own", i);
    }
    cr_assert_eq(board->fast_case_us[0][1], 25501, "the class's fastest is not the least case: %lld us",
                 board->fast_case_us[0][1]);
    cr_assert_eq(board->fast_case_us[0][0], 0, "another variant took the case in");
    cr_assert_eq(board->fast_case_us[1][1], 0, "another device took the case in");
    tg_gpu_use(lockdir, "dev1", 4);
    tg_gpu_board_join(board, 1);
    cr_assert_eq(tg_gpu_fast_case(1, 0), 0, "a failed case made a fastest one");
    cr_assert_eq(tg_gpu_fast_case(1, 30.0), 30.001);
    cr_assert_eq(tg_gpu_fast_case(1, 99.0), 30.001, "a slower case replaced the fastest");
}
