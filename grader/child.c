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


/* ------------------------------------------------------------------ CPU time of the tree */
/* Limits are CPU time (the same file gets the same verdict at any load): the tree's CPU is read
 * from the cgroup where it counts it (v2 cpu.stat), else summed over /proc: every process whose
 * session or process group is the child's (tg_spawn calls setsid), whose pid is in its pids
 * cgroup (v1), or whose parent is one of those (bubblewrap's --new-session starts a new session
 * inside). utime + stime + cutime + cstime: a child that ended and was reaped is counted in its
 * parent. A process that leaves all of these (a double fork and setsid) is not counted; the
 * wall-clock backstop still ends it. */
typedef struct pstat {
    long pid, ppid, pgrp, sess;
    unsigned long long ticks;
    int in, running;
    char state;                        /* R, S, D, T (stopped), t (traced), Z, ... */
} pstat;

static int read_pstat(long pid, pstat *ps)
{
    char f[64], buf[1024];
    snprintf(f, sizeof f, "/proc/%ld/stat", pid);
    int fd = open(f, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');            /* the command name may hold spaces and ')' */
    if (!p)
        return -1;
    char st;
    unsigned long long ut, stt;
    long long cut, cst;
    /* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime */
    if (sscanf(p + 1, " %c %ld %ld %ld %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld", &st, &ps->ppid,
               &ps->pgrp, &ps->sess, &ut, &stt, &cut, &cst) != 8)
        return -1;
    ps->pid = pid;
    ps->running = st == 'R';
    ps->state = st;
    ps->ticks = ut + stt + (unsigned long long)(cut > 0 ? cut : 0) + (unsigned long long)(cst > 0 ? cst : 0);
    ps->in = 0;
    return 0;
}

/* The child's tree where it has a cgroup of its own: the processes the cgroup lists and the child
 * itself (before it has moved in), all marked in (a process cannot leave the cgroup: the sandbox
 * has no cgroup file system to write). Reads only the tree's /proc entries, not the host's: with
 * 100 workers and their builds a scan of every process cost the grader milliseconds per look, and
 * the drain of a timed window looks at every waiting session's tree several times (issue 29).
 * NULL when the cgroup cannot be read. */
static pstat *tree_of_cgroup(const tg_child *c, size_t *count)
{
    char f[400];
    snprintf(f, sizeof f, "%s/cgroup.procs", c->cg[0]);
    FILE *pf = fopen(f, "re");
    if (!pf)
        return NULL;
    size_t cap = 64, n = 0;
    pstat *all = malloc(cap * sizeof *all);
    int self = 0;
    long pid;
    while (all && fscanf(pf, "%ld", &pid) == 1) {
        if (n + 1 >= cap) {            /* (room for the child itself after the list) */
            pstat *na = realloc(all, 2 * cap * sizeof *all);
            if (!na) {
                free(all);
                all = NULL;
                break;
            }
            all = na;
            cap *= 2;
        }
        if (pid > 0 && read_pstat(pid, &all[n]) == 0) {
            all[n].in = 1;
            self |= pid == c->pid;
            ++n;
        }
    }
    fclose(pf);
    if (all && !self && read_pstat(c->pid, &all[n]) == 0)
        all[n++].in = 1;
    if (all)
        *count = n;
    return all;
}

/* Every process of the host, those of the child's tree marked (in): its session, process group,
 * and their descendants to any depth; where the child has a cgroup, the cgroup's alone
 * (tree_of_cgroup). NULL when /proc cannot be read. */
static pstat *tree_of(const tg_child *c, size_t *count)
{
    if (c->cg[0][0]) {
        pstat *t = tree_of_cgroup(c, count);
        if (t)
            return t;
    }
    DIR *d = opendir("/proc");
    if (!d)
        return NULL;
    size_t cap = 1024, n = 0;
    pstat *all = malloc(cap * sizeof *all);
    struct dirent *de;
    while (all && (de = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        if (n == cap) {
            pstat *na = realloc(all, 2 * cap * sizeof *all);
            if (!na)
                break;
            all = na;
            cap *= 2;
        }
        if (read_pstat(pid, &all[n]) == 0) {
            pstat *ps = &all[n];
            ps->in = ps->pid == c->pid || ps->sess == c->pid || ps->pgrp == c->pid;
            ++n;
        }
    }
    closedir(d);
    if (!all)
        return NULL;
    for (int more = 1, pass = 0; more && pass < 64; ++pass) {   /* descendants, to any depth */
        more = 0;
        for (size_t i = 0; i < n; ++i) {
            if (all[i].in)
                continue;
            for (size_t j = 0; j < n; ++j)
                if (all[j].in && all[j].pid == all[i].ppid) {
                    all[i].in = more = 1;
                    break;
                }
        }
    }
    *count = n;
    return all;
}

double tg_child_cpu_ms(const tg_child *c)
{
    if (c->pid <= 0)
        return -1;
    if (c->cg[0][0]) {                          /* v2: the cgroup counts its own CPU */
        char f[400];
        snprintf(f, sizeof f, "%s/cpu.stat", c->cg[0]);
        long us = tg_sb_read_counter(f, "usage_usec");
        if (us >= 0)
            return us / 1000.0;
    }
    size_t n = 0;
    pstat *all = tree_of(c, &n);
    if (!all)
        return -1;
    unsigned long long ticks = 0;
    int running = 0;
    for (size_t i = 0; i < n; ++i)
        if (all[i].in) {
            ticks += all[i].ticks;
            running |= all[i].running;
        }
    ((tg_child *)c)->runnable = running;   /* a reading, kept beside the count (not the verdict) */
    free(all);
    long hz = sysconf(_SC_CLK_TCK);
    return ticks * 1000.0 / (hz > 0 ? hz : 100);
}

/* The run delays of pid's tasks (threads), ns summed; -1 none readable. */
static long long task_delays_ns(long pid)
{
    char d[64];
    snprintf(d, sizeof d, "/proc/%ld/task", pid);
    DIR *dir = opendir(d);
    if (!dir)
        return -1;
    long long sum = -1;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char f[128], buf[128];
        snprintf(f, sizeof f, "%s/%.20s/schedstat", d, e->d_name);
        int fd = open(f, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        unsigned long long run, delay;
        if (n <= 0)
            continue;
        buf[n] = '\0';
        if (sscanf(buf, "%llu %llu", &run, &delay) == 2)   /* on the CPU, waiting for it (ns), timeslices */
            sum = (sum < 0 ? 0 : sum) + (long long)delay;
    }
    closedir(dir);
    return sum;
}

double tg_child_waited_ms(const tg_child *c)
{
    if (c->pid <= 0 || c->reaped)
        return -1;
    if (c->cg[0][0]) {                          /* v2 with PSI: the cgroup's own count, exits included */
        char f[400], line[256];
        snprintf(f, sizeof f, "%s/cpu.pressure", c->cg[0]);
        FILE *pf = fopen(f, "re");
        long long us = -1;
        while (pf && fgets(line, sizeof line, pf))   /* (the kernel's format, cgroup-v2.rst: PSI) */
            if (sscanf(line, "some avg10=%*f avg60=%*f avg300=%*f total=%lld", &us) == 1)
                break;
        if (pf)
            fclose(pf);
        if (us >= 0)
            return us / 1000.0;
    }
    size_t n = 0;
    pstat *all = tree_of(c, &n);
    if (!all)
        return -1;
    long long ns = -1;
    for (size_t i = 0; i < n; ++i)
        if (all[i].in) {
            long long d = task_delays_ns(all[i].pid);
            if (d >= 0)
                ns = (ns < 0 ? 0 : ns) + d;
        }
    free(all);
    return ns < 0 ? -1 : ns / 1e6;
}

int tg_child_running(const tg_child *c)
{
    size_t n = 0;
    pstat *all = c->pid > 0 && !c->reaped ? tree_of(c, &n) : NULL;
    int running = 0;
    for (size_t i = 0; all && i < n; ++i)
        running |= all[i].in && all[i].running;
    free(all);
    return running;
}

/* SIGSTOP cannot be caught, blocked or ignored, also not by a pid namespace's first process when
 * it comes from the namespace's parent (the grader): a stopped tree runs nothing on the CPU and
 * cannot fork. Its kernels already on a GPU are not stopped by it (gpushare.c says what follows). */
int tg_child_stop(tg_child *c, int stop)
{
    if (c->pid <= 0 || c->reaped)
        return 0;
    int left = 0;
    for (int pass = 0; pass < 50; ++pass) {    /* (a process forked before the signal: the next pass) */
        size_t n = 0;
        pstat *all = tree_of(c, &n);
        if (!all)
            return -1;
        left = 0;
        int sent = 0;
        for (size_t i = 0; i < n; ++i) {
            if (!all[i].in || all[i].state == 'Z' || all[i].state == 'X')
                continue;
            int stopped = all[i].state == 'T' || all[i].state == 't';
            if (stop && !stopped) {
                kill((pid_t)all[i].pid, SIGSTOP);
                ++left, ++sent;
            } else if (!stop) {
                kill((pid_t)all[i].pid, SIGCONT);
                left += stopped, sent += stopped;
            }
        }
        free(all);
        if (!sent)
            return 0;
        struct timespec ts = {0, 2 * 1000 * 1000};   /* the signals' delivery, then look again */
        nanosleep(&ts, NULL);
    }
    return left;
}

/* The profile's reading of the tree's CPU (profile.c): at most every 100 ms, and when it ends. */
static double sandbox_cpu_ms;   /* the trees' CPU that did not reach this process through wait */

double tg_sandbox_cpu_s(void)
{
    return sandbox_cpu_ms / 1000.0;
}

static void cpu_seen(tg_child *c, int now_anyway)
{
    double now = tl_now_ms();
    if (c->pid <= 0 || c->reaped || (!now_anyway && now - c->cpu_seen_at < 100))
        return;
    int runnable = c->runnable;            /* the CPU-time limit's reading is cpu_spent's alone */
    double v = tg_child_cpu_ms(c);
    c->runnable = runnable;
    c->cpu_seen_at = now;
    if (v > c->cpu_seen_ms)
        c->cpu_seen_ms = v;
}

/* The child reaped with ru its rusage: what its tree used beyond what ru passed up. */
static void cpu_reaped(tg_child *c, const struct rusage *ru)
{
    double up = (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000.0 +
                (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1000.0;
    if (c->cpu_seen_ms > up)
        sandbox_cpu_ms += c->cpu_seen_ms - up;
}

/* Reaps the child (it has ended, or was killed): its tree's last reading first. */
static pid_t reap(tg_child *c, int *st, int flags)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOWAIT | (flags & WNOHANG)) == 0 && si.si_pid == c->pid)
        cpu_seen(c, 1);                    /* a zombie's /proc stat still holds its time */
    struct rusage ru;
    pid_t r;
    while ((r = wait4(c->pid, st, flags, &ru)) < 0 && errno == EINTR)
        ;
    if (r == c->pid)
        cpu_reaped(c, &ru);
    return r;
}

/* Whether the exchange's CPU-time limit is spent (read at most every 100 ms). */
static int cpu_spent(tg_child *c)
{
    if (c->cpu_limit_ms <= 0)
        return 0;
    double now = tl_now_ms();
    if (now - c->cpu_read_at < 100)
        return 0;
    c->cpu_read_at = now;
    double cpu = tg_child_cpu_ms(c);
    if (cpu < 0)
        return 0;
    c->cpu_used_ms = cpu - c->cpu_start_ms;
    if (cpu > c->cpu_seen_ms)
        c->cpu_seen_ms = cpu;
    return c->cpu_used_ms >= c->cpu_limit_ms;
}

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
    pid_t r = reap(c, &st, WNOHANG);
    if (r == c->pid) {
        c->reaped = 1;
        c->status = st;
    }
}

int tg_child_exchange(tg_child *c, const void *req, size_t reqlen, tg_buf *ans, size_t ans_max,
                      int (*complete)(const tg_buf *ans, void *ctx), void *ctx, double deadline_ms)
{
    return tg_child_exchange2(c, req, reqlen, NULL, 0, ans, ans_max, complete, ctx, deadline_ms);
}

int tg_child_exchange2(tg_child *c, const void *req, size_t reqlen, const void *req2, size_t req2len, tg_buf *ans,
                       size_t ans_max, int (*complete)(const tg_buf *ans, void *ctx), void *ctx, double deadline_ms)
{
    const char *p = req;
    size_t sent = 0;
    if (!req || !reqlen) {             /* (the second part alone) */
        p = req2;
        reqlen = req2len;
        req2len = 0;
    }
    double last_ms = 0;
    for (;;) {
        if (complete(ans, ctx))
            return 0;
        if (c->tick) {                     /* the tree stopped meanwhile: not the backstop's time */
            double stopped_ms = c->tick(c, c->tick_ctx);
            if (stopped_ms > 0) {
                deadline_ms += stopped_ms;
                last_ms = 0;               /* (nor the runnable time below) */
            }
        }
        double now = tl_now_ms();
        int cpu_out = cpu_spent(c);
        if (c->cpu_limit_ms <= 0)
            cpu_seen(c, 0);
        /* CPU-time mode: the wall clock counts only while the tree neither runs nor waits for a
         * CPU (state R): a process starved by a loaded machine (or run at a lower priority than the
         * load) is not killed for it; one that sleeps or waits is, at the backstop. */
        if (c->cpu_limit_ms > 0 && c->runnable && last_ms > 0)
            deadline_ms += now - last_ms;
        last_ms = now;
        double left = deadline_ms - now;
        if (left <= 0 || cpu_out) {
            c->timed_out = 1;
            c->cpu_out = cpu_out;
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
        int wait = left > 100 ? 100 : (int)left + 1;
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
                if (sent == reqlen && req2len) {   /* the first part sent: the second next */
                    p = req2;
                    reqlen = req2len;
                    req2len = 0;
                    sent = 0;
                }
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
        cpu_seen(c, 0);
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
        cpu_seen(c, 1);
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
    }
    for (int i = 0; i < 2; ++i)
        if (c->cg[i][0])
            kill_cgroup(c->cg[i]);
    if (c->pid > 0 && !c->reaped) {
        int st = 0;
        reap(c, &st, 0);
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
    if (c->timed_out && c->cpu_out) {
        snprintf(buf, len, "killed at the CPU-time limit (the whole process tree)");
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

/* ------------------------------------------------------------ sandboxed helper runs */

int tg_run_sandboxed(const tg_iso *iso, const tg_spawn_opts *o, double limit_s, tg_buf *output,
                     char *desc, size_t desclen, char *err, size_t errlen)
{
    tg_child c;
    if (tg_spawn(&c, iso, o, err, errlen) != 0)
        return -1;
    int w = tg_child_wait(&c, tl_now_ms() + limit_s * 1000.0);
    tg_child_kill(&c);   /* leftovers of the tree, cgroup removal */
    if (output)
        tg_buf_add(output, c.cap.s ? c.cap.s : "", c.cap.len);
    if (c.out_total > c.cap.len && output)
        tg_buf_printf(output, "\n[... %llu more bytes of output dropped]\n", c.out_total - c.cap.len);
    tg_child_describe(&c, desc, desclen);
    int ok = w == 0 && !c.timed_out && WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0;
    tg_child_free(&c);
    return ok ? 0 : 1;
}
