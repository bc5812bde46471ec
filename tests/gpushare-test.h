/* gpushare-test.h: the helpers of the GPU sharing tests (test_gpushare.c, test_gpushare_sched.c):
 * a lock folder of the test's own, forked workers that take the device as told and report through a
 * shared page, and waits on /proc/locks. No check depends on the machine's speed (test_gpushare.c's
 * header says how). */
#ifndef TILELAB_TESTS_GPUSHARE_TEST_H
#define TILELAB_TESTS_GPUSHARE_TEST_H

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

static char lockdir[64];

static __attribute__((unused)) void make_dir(void)
{
    snprintf(lockdir, sizeof lockdir, "/tmp/tl-gpushare-test.XXXXXX");
    cr_assert_not_null(mkdtemp(lockdir));
}

static __attribute__((unused)) void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", lockdir);
    cr_assert_eq(system(cmd), 0);
}

typedef struct shared {
    int inside, most;                  /* processes holding the device now, the most at once */
    int got[8];                        /* child i holds what it asked for                    */
    int release[8];                    /* the test tells child i to let go                   */
} shared;

static shared *sh;
static tg_gpu_board *board;           /* NULL: the children join none */

static __attribute__((unused)) void pause_ms(int ms)
{
    struct timespec ts = {0, ms * 1000L * 1000L};
    nanosleep(&ts, NULL);
}

/* Child i: the device (cap) held as how, until told to let go; SHARED with a request in flight
 * (one that holds the device: a sanitizer's, one waiting for its kernel). */
static __attribute__((unused)) pid_t child(int i, int how, int cap)
{
    pid_t p = fork();
    cr_assert(p >= 0);
    if (p)
        return p;
    tg_gpu_use(lockdir, "dev0", cap);
    if (board)
        tg_gpu_board_join(board, 0);
    tg_gpu_hold(how);
    if (how == TG_GPU_SHARED && !tg_gpu_req_begin(NULL, 0))
        _exit(3);
    int now = __atomic_add_fetch(&sh->inside, 1, __ATOMIC_SEQ_CST);
    int m = __atomic_load_n(&sh->most, __ATOMIC_SEQ_CST);
    while (now > m && !__atomic_compare_exchange_n(&sh->most, &m, now, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        ;
    __atomic_store_n(&sh->got[i], 1, __ATOMIC_SEQ_CST);
    while (!__atomic_load_n(&sh->release[i], __ATOMIC_SEQ_CST))
        pause_ms(5);
    __atomic_sub_fetch(&sh->inside, 1, __ATOMIC_SEQ_CST);
    tg_gpu_req_end();
    tg_gpu_hold(TG_GPU_NONE);
    _exit(0);
}

static __attribute__((unused)) void wait_got(int i)
{
    while (!__atomic_load_n(&sh->got[i], __ATOMIC_SEQ_CST))
        pause_ms(5);
}

/* Child i has not got its lock after a while (it cannot, while the test holds its own). */
static __attribute__((unused)) void still_waiting(int i, const char *why)
{
    pause_ms(300);
    cr_assert_eq(__atomic_load_n(&sh->got[i], __ATOMIC_SEQ_CST), 0, "%s", why);
}

/* Whether /proc/locks has a flock line of process pid: waiting for one (a "->" line; ino ignored), or
 * holding one on the file whose inode is ino. */
static __attribute__((unused)) int flock_line(pid_t pid, int waiting, unsigned long long ino)
{
    FILE *f = fopen("/proc/locks", "r");
    cr_assert_not_null(f, "no /proc/locks");
    char line[256];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        int id = 0;
        unsigned long long in = 0;
        char *arrow = strstr(line, "-> FLOCK");
        if (waiting)
            found = arrow && sscanf(arrow, "-> FLOCK %*s %*s %d", &id) == 1 && id == pid;
        else
            found = !strstr(line, "->") && strstr(line, "FLOCK") &&
                    sscanf(line, "%*s FLOCK %*s %*s %d %*x:%*x:%llu", &id, &in) == 2 && id == pid && in == ino;
    }
    fclose(f);
    return found;
}

/* Until process pid waits in flock(2): it has taken whatever it holds before that wait. */
static __attribute__((unused)) void blocked(pid_t pid)
{
    while (!flock_line(pid, 1, 0))
        pause_ms(5);
}

/* Whether process pid holds a flock on the device's gate file now (/proc/locks). */
static __attribute__((unused)) int gate_held_by(pid_t pid)
{
    char path[160];
    struct stat st;
    snprintf(path, sizeof path, "%s/tilelab-gpu-%ld-dev0.gate", lockdir, (long)getuid());
    return stat(path, &st) == 0 && flock_line(pid, 0, (unsigned long long)st.st_ino);
}

/* Until process pid holds the gate. */
static __attribute__((unused)) void holds_gate(pid_t pid)
{
    while (!gate_held_by(pid))
        pause_ms(5);
}

static __attribute__((unused)) void let_go(int i)
{
    __atomic_store_n(&sh->release[i], 1, __ATOMIC_SEQ_CST);
}

static __attribute__((unused)) void reap(pid_t p)
{
    int st;
    cr_assert_eq(waitpid(p, &st, 0), p);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static __attribute__((unused)) void setup(void)
{
    make_dir();
    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    cr_assert(sh != MAP_FAILED);
    memset(sh, 0, sizeof *sh);
}

static __attribute__((unused)) pid_t trees[4];                 /* the fake session trees a test made (fake_tree)       */

static __attribute__((unused)) void teardown(void)
{
    for (int i = 0; i < 8; ++i)        /* (a failed test's children end too, not left waiting) */
        __atomic_store_n(&sh->release[i], 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 4; ++i)
        if (trees[i] > 0) {
            kill(-trees[i], SIGKILL);
            waitpid(trees[i], NULL, 0);
            trees[i] = 0;
        }
    munmap(sh, sizeof *sh);
    if (board)
        munmap(board, sizeof *board);
    board = NULL;
    remove_dir();
}

#endif
