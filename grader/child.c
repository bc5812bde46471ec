/* child.c: a sandboxed child's life after tg_spawn (sandbox.c): the I/O pump (requests on fd 3,
 * answers on fd 4, its output captured and counted), waiting with a deadline, killing its whole
 * tree and cgroups, and saying how it ended. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "policy.h"
#include "proc.h"
#include "sandbox.h"
#include "tilelab.h"


/* ------------------------------------------------------------------ I/O pump */

static void take_output(tg_child *c)
{
    char buf[65536];
    for (;;) {
        ssize_t r = read(c->out, buf, sizeof buf);
        if (r > 0) {
            c->out_total += (unsigned long long)r;
            if (c->cap.len < TG_CAPTURE_KEEP) {
                size_t keep = TG_CAPTURE_KEEP - c->cap.len;
                tg_buf_add(&c->cap, buf, (size_t)r < keep ? (size_t)r : keep);
            }
            continue;
        }
        if (r == 0) {
            close(c->out);
            c->out = -1;
        }
        return;   /* EAGAIN or EOF */
    }
}

static void try_reap(tg_child *c)
{
    if (c->reaped || c->pid <= 0)
        return;
    int st;
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r == c->pid) {
        c->reaped = 1;
        c->status = st;
    }
}

int tg_child_exchange(tg_child *c, const void *req, size_t reqlen, tg_buf *ans, size_t ans_max,
                      int (*complete)(const tg_buf *ans, void *ctx), void *ctx, double deadline_ms)
{
    const char *p = req;
    size_t sent = 0;
    for (;;) {
        if (complete(ans, ctx))
            return 0;
        double left = deadline_ms - tl_now_ms();
        if (left <= 0) {
            c->timed_out = 1;
            tg_child_kill(c);
            return 2;
        }
        struct pollfd pf[3];
        int n = 0, ito = -1, ians = -1, iout = -1;
        if (c->to_child >= 0 && sent < reqlen) {
            pf[n] = (struct pollfd){c->to_child, POLLOUT, 0};
            ito = n++;
        }
        if (c->from_child >= 0) {
            pf[n] = (struct pollfd){c->from_child, POLLIN, 0};
            ians = n++;
        }
        if (c->out >= 0) {
            pf[n] = (struct pollfd){c->out, POLLIN, 0};
            iout = n++;
        }
        if (ians < 0)
            return 1;                      /* fd 4 closed: nothing more can come */
        int wait = left > 200 ? 200 : (int)left + 1;
        int r = poll(pf, (nfds_t)n, wait);
        if (r < 0 && errno != EINTR)
            return 1;
        if (iout >= 0 && pf[iout].revents)
            take_output(c);
        if (ito >= 0 && pf[ito].revents) {
            if (pf[ito].revents & (POLLERR | POLLHUP)) {
                close(c->to_child);
                c->to_child = -1;
            } else {
                ssize_t w = write(c->to_child, p + sent, reqlen - sent);
                if (w > 0)
                    sent += (size_t)w;
                else if (w < 0 && errno != EAGAIN && errno != EINTR) {
                    close(c->to_child);     /* EPIPE: the child is gone or closed fd 3 */
                    c->to_child = -1;
                }
            }
        }
        if (ians >= 0 && pf[ians].revents) {
            char buf[65536];
            ssize_t rd = read(c->from_child, buf, sizeof buf);
            if (rd > 0) {
                if (ans->len + (size_t)rd > ans_max) {
                    tg_child_kill(c);
                    return 3;
                }
                tg_buf_add(ans, buf, (size_t)rd);
            } else if (rd == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(c->from_child);
                c->from_child = -1;
                if (complete(ans, ctx))
                    return 0;
                return 1;
            }
        }
        try_reap(c);
    }
}

int tg_child_wait(tg_child *c, double deadline_ms)
{
    for (;;) {
        if (c->out >= 0)
            take_output(c);
        try_reap(c);
        if (c->reaped && c->out < 0)
            return 0;
        double left = deadline_ms - tl_now_ms();
        if (left <= 0) {
            c->timed_out = 1;
            tg_child_kill(c);
            return 2;
        }
        if (c->out >= 0) {
            struct pollfd pf = {c->out, POLLIN, 0};
            poll(&pf, 1, left > 100 ? 100 : (int)left + 1);
        } else {
            /* Output closed (a grandchild may still hold it, or it closed it): wait a little. */
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
}

static void kill_cgroup(const char *dir)
{
    char f[400];
    snprintf(f, sizeof f, "%s/cgroup.kill", dir);          /* v2 >= 5.14: all at once */
    if (access(f, W_OK) == 0)
        tg_sb_write_str(f, "1");
    snprintf(f, sizeof f, "%s/cgroup.procs", dir);
    for (int round = 0; round < 100; ++round) {
        FILE *pf = fopen(f, "r");
        if (!pf)
            return;
        long pid;
        int any = 0;
        while (fscanf(pf, "%ld", &pid) == 1) {
            kill((pid_t)pid, SIGKILL);
            any = 1;
        }
        fclose(pf);
        if (!any)
            return;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

void tg_child_kill(tg_child *c)
{
    if (c->pid > 0 && !c->reaped) {
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
    }
    for (int i = 0; i < 2; ++i)
        if (c->cg[i][0])
            kill_cgroup(c->cg[i]);
    if (c->pid > 0 && !c->reaped) {
        int st;
        tg_proc_wait(c->pid, &st, 0);
        c->reaped = 1;
        c->status = st;
    }
    if (c->out >= 0)
        take_output(c);
    for (int i = 0; i < 2; ++i) {
        if (!c->cg[i][0])
            continue;
        char f[400];
        snprintf(f, sizeof f, "%s/memory.oom_control", c->cg[i]);       /* v1 */
        if (tg_sb_read_counter(f, "oom_kill") > 0)
            c->oom = 1;
        snprintf(f, sizeof f, "%s/memory.events", c->cg[i]);            /* v2 */
        if (tg_sb_read_counter(f, "oom_kill") > 0)
            c->oom = 1;
        snprintf(f, sizeof f, "%s/pids.events", c->cg[i]);              /* "max N": forks refused */
        long refused = tg_sb_read_counter(f, "max");
        if (refused > c->forks_refused)
            c->forks_refused = refused;
        kill_cgroup(c->cg[i]);
        for (int t = 0; t < 50 && rmdir(c->cg[i]) != 0 && errno == EBUSY; ++t) {
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        c->cg[i][0] = '\0';
    }
}

int tg_child_net_killed(const tg_child *c)
{
    if (!c->seccomp || !c->reaped || c->timed_out)
        return 0;
    if (WIFSIGNALED(c->status))
        return WTERMSIG(c->status) == SIGSYS;
    return c->via_bwrap && WIFEXITED(c->status) && WEXITSTATUS(c->status) == 128 + SIGSYS;
}

int tg_child_signal(const tg_child *c)
{
    if (!c->reaped || c->timed_out || c->oom)
        return 0;
    if (WIFSIGNALED(c->status))
        return WTERMSIG(c->status);
    int code = WEXITSTATUS(c->status);
    return c->via_bwrap && code > 128 && code < 128 + 65 ? code - 128 : 0;   /* bubblewrap: 128+N */
}

void tg_child_describe(const tg_child *c, char *buf, size_t len)
{
    if (tg_child_net_killed(c)) {
        snprintf(buf, len, "killed: tried to open a network socket (SIGSYS from the grader's seccomp filter)");
        return;
    }
    if (c->timed_out) {
        snprintf(buf, len, "killed at the wall-clock limit (the whole process tree)");
        return;
    }
    if (c->oom) {
        snprintf(buf, len, "killed by the memory limit (cgroup out-of-memory)");
        return;
    }
    if (!c->reaped) {
        snprintf(buf, len, "still running");
        return;
    }
    if (WIFSIGNALED(c->status)) {
        int s = WTERMSIG(c->status);
        snprintf(buf, len, "killed by signal %d (SIG%s)", s, sigabbrev_np(s) ? sigabbrev_np(s) : "?");
        return;
    }
    int code = WEXITSTATUS(c->status);
    /* bubblewrap passes on 128+N when its child died of signal N. */
    if (c->via_bwrap && code > 128 && code < 128 + 65 && sigabbrev_np(code - 128))
        snprintf(buf, len, "killed by signal %d (SIG%s)", code - 128, sigabbrev_np(code - 128));
    else if (code == 127)
        snprintf(buf, len, "could not be started (exit status 127)");
    else
        snprintf(buf, len, "exited with status %d", code);
}

void tg_child_free(tg_child *c)
{
    tg_child_kill(c);
    if (c->to_child >= 0) close(c->to_child);
    if (c->from_child >= 0) close(c->from_child);
    if (c->out >= 0) close(c->out);
    c->to_child = c->from_child = c->out = -1;
    tg_buf_free(&c->cap);
}
