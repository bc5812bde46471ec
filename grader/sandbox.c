/* sandbox.c: see sandbox.h. Linux gives the strongest isolation (namespaces through bubblewrap,
 * cgroups); elsewhere, or when those are not permitted, process groups and rlimits remain. */
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
#include <grp.h>
#include <ftw.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "policy.h"
#include "proc.h"
#include "sandbox.h"
#include "tilelab.h"

extern char **environ;

/* ------------------------------------------------------------------ helpers */

int tg_sb_write_str(const char *path, const char *s)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, s, strlen(s));
    int e = errno;
    close(fd);
    errno = e;
    return n == (ssize_t)strlen(s) ? 0 : -1;
}

long tg_sb_read_counter(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    long v = -1;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && line[kl] == ' ')
            v = atol(line + kl + 1);
    fclose(f);
    return v;
}

static int find_in_path(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    char *save = NULL;
    for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, name);
        if (access(out, X_OK) == 0)
            return 0;
    }
    return -1;
}

static void close_from(int lowfd)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)lowfd, ~0u, 0u) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = lowfd; fd < max; ++fd)
        close(fd);
}

/* Counts the tasks (threads) the current real uid runs: RLIMIT_NPROC counts them all. */
static long tasks_of_uid(uid_t uid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    long n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char p[300];
        snprintf(p, sizeof p, "/proc/%s", e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && st.st_uid == uid) {
            snprintf(p, sizeof p, "/proc/%s/task", e->d_name);
            DIR *t = opendir(p);
            if (!t) { ++n; continue; }
            struct dirent *te;
            while ((te = readdir(t)))
                n += te->d_name[0] != '.';
            closedir(t);
        }
    }
    closedir(d);
    return n;
}

/* ---------------------------------------------------------------- bwrap argv */

typedef struct argv_b {
    const char *v[256];
    int n;
    char store[40][320];   /* strings we had to build */
    int ns;
} argv_b;

static void A(argv_b *a, const char *s)
{
    if (a->n < (int)(sizeof a->v / sizeof a->v[0]) - 1)
        a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

static const char *S(argv_b *a, const char *fmt, const char *x)
{
    if (a->ns == 40)
        return "";
    snprintf(a->store[a->ns], sizeof a->store[0], fmt, x);
    return a->store[a->ns++];
}

/* /bin, /lib, ... are symlinks into /usr on merged-/usr systems: mirror them, else bind. */
static void root_dir(argv_b *a, const char *p)
{
    char target[256];
    ssize_t n = readlink(p, target, sizeof target - 1);
    if (n > 0) {
        target[n] = '\0';
        A(a, "--symlink"); A(a, S(a, "%s", target)); A(a, p);
    } else if (access(p, F_OK) == 0) {
        A(a, "--ro-bind"); A(a, p); A(a, p);
    }
}

static void build_bwrap_argv(argv_b *a, const tg_iso *iso, const tg_spawn_opts *o, int uid_mode)
{
    A(a, iso->bwrap_path);
    A(a, "--unshare-all");          /* net, pid, ipc, uts, cgroup                             */
    A(a, "--unshare-user");         /* and user: the mounts below are locked (no remount)    */
    if (!iso->old_bwrap)
        A(a, "--disable-userns");   /* no nested user namespace to regain capabilities in    */
    if (uid_mode == TG_UID_MAPPED_ROOT) {
        A(a, "--uid"); A(a, "65534");
        A(a, "--gid"); A(a, "65534");
    }
    A(a, "--cap-drop"); A(a, "ALL"); /* bounding, permitted, effective, ambient: empty        */
    A(a, "--die-with-parent");
    A(a, "--new-session");
    A(a, "--ro-bind"); A(a, "/usr"); A(a, "/usr");
    root_dir(a, "/bin"); root_dir(a, "/sbin"); root_dir(a, "/lib"); root_dir(a, "/lib64");
    root_dir(a, "/lib32"); root_dir(a, "/libx32");
    /* /etc minimal: the loader's cache (without it libc is not found on multiarch systems). */
    A(a, "--ro-bind-try"); A(a, "/etc/ld.so.cache"); A(a, "/etc/ld.so.cache");
    A(a, "--ro-bind-try"); A(a, "/etc/alternatives"); A(a, "/etc/alternatives");
    /* /dev: null, zero and urandom only (issue 24). bwrap's --dev would add tty, ptmx and pts: an
     * #include "/dev/ptmx" or "/dev/tty" blocks the compiler, using no CPU, until the wall clock.
     * The /dev/fd and std* links some build scripts name; /dev/shm (a private tmpfs) where the
     * CUDA runtime may use it; the GPU's nodes are bound below. */
    A(a, "--tmpfs"); A(a, "/dev");
    static const char *const devs[] = {"/dev/null", "/dev/zero", "/dev/urandom", NULL};
    for (int i = 0; devs[i]; ++i) {
        A(a, "--dev-bind"); A(a, devs[i]); A(a, devs[i]);
    }
    A(a, "--symlink"); A(a, "/proc/self/fd"); A(a, "/dev/fd");
    A(a, "--symlink"); A(a, "/proc/self/fd/0"); A(a, "/dev/stdin");
    A(a, "--symlink"); A(a, "/proc/self/fd/1"); A(a, "/dev/stdout");
    A(a, "--symlink"); A(a, "/proc/self/fd/2"); A(a, "/dev/stderr");
    if (o->gpu) {
        A(a, "--tmpfs"); A(a, "/dev/shm");
    }
    /* The build tools' folders outside /usr (the GPU server's meson and ninja live in a Python
     * virtualenv under /opt): read-only, the whole virtualenv when the folder is its bin/ (its
     * scripts need its site-packages), so the scrubbed PATH finds tools that can also run. */
    if (o->extra_path) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", o->extra_path);
        char *save = NULL;
        for (char *d = strtok_r(buf, ":", &save); d && a->ns < 20; d = strtok_r(NULL, ":", &save)) {
            if (d[0] != '/' || tg_path_under(d, "/usr") || strcmp(d, "/bin") == 0)
                continue;
            char root[320], cfg[400];
            snprintf(root, sizeof root, "%s", d);
            char *slash = strrchr(root, '/');
            if (slash && slash != root && strcmp(slash, "/bin") == 0) {
                *slash = '\0';
                snprintf(cfg, sizeof cfg, "%s/pyvenv.cfg", root);
                if (access(cfg, R_OK) != 0)
                    snprintf(root, sizeof root, "%s", d);
            }
            const char *p = S(a, "%s", root);
            A(a, "--ro-bind-try"); A(a, p); A(a, p);
        }
    }
    if (o->gpu) {
        /* Driver libraries reached through LD_LIBRARY_PATH (containers): bind those folders. */
        const char *llp = getenv("LD_LIBRARY_PATH");
        if (llp && *llp) {
            char buf[2048];
            snprintf(buf, sizeof buf, "%s", llp);
            char *save = NULL;
            for (char *d = strtok_r(buf, ":", &save); d && a->ns < 24; d = strtok_r(NULL, ":", &save))
                if (d[0] == '/' && !tg_path_under(d, "/usr")) {
                    const char *p = S(a, "%s", d);
                    A(a, "--ro-bind-try"); A(a, p); A(a, p);
                }
        }
        glob_t g;
        if (glob("/dev/nvidia*", 0, NULL, &g) == 0) {
            for (size_t i = 0; i < g.gl_pathc && a->ns < 30; ++i) {
                const char *p = S(a, "%s", g.gl_pathv[i]);
                A(a, "--dev-bind"); A(a, p); A(a, p);
            }
            globfree(&g);
        }
        A(a, "--ro-bind-try"); A(a, "/sys"); A(a, "/sys");   /* the CUDA driver reads PCI facts */
    }
    A(a, "--proc"); A(a, "/proc");
    char sz[32];
    snprintf(sz, sizeof sz, "%lld", o->tmp_bytes > 0 ? o->tmp_bytes : 256LL << 20);
    A(a, "--size"); A(a, S(a, "%s", sz));
    A(a, "--tmpfs"); A(a, "/tmp");
    for (int i = 0; i < 8 && o->ro[i].host; ++i) {
        A(a, "--ro-bind"); A(a, o->ro[i].host); A(a, o->ro[i].inside ? o->ro[i].inside : o->ro[i].host);
    }
    for (int i = 0; i < 4 && o->rw[i].host; ++i) {
        A(a, "--bind"); A(a, o->rw[i].host); A(a, o->rw[i].inside ? o->rw[i].inside : o->rw[i].host);
    }
    if (o->sandbox_cwd) {
        A(a, "--dir"); A(a, o->sandbox_cwd);
        A(a, "--chdir"); A(a, o->sandbox_cwd);
    } else if (o->host_cwd) {
        A(a, "--chdir"); A(a, o->host_cwd);
    }
    A(a, "--remount-ro"); A(a, "/");   /* the sandbox's own root: nothing to write there */
    A(a, "--");
    for (int i = 0; o->argv[i]; ++i)
        A(a, o->argv[i]);
}

/* ------------------------------------------------------------------ probe */

/* The setuid drop before bubblewrap (root only): no groups, TG_SANDBOX_GID, TG_SANDBOX_UID.
 * Credentials changed, so the parent-death signal is set again afterwards. */
static int drop_to_sandbox_uid(void)
{
    gid_t gid = TG_SANDBOX_GID;
    if (setgroups(1, &gid) != 0 || setresgid(gid, gid, gid) != 0 || setresuid(TG_SANDBOX_UID, TG_SANDBOX_UID, TG_SANDBOX_UID) != 0)
        return -1;
    if (geteuid() == 0 || getuid() == 0)
        return -1;
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    return 0;
}

/* A fork, not proc.c's posix_spawn: the child drops to the sandbox's uid and unshares the network
 * before it execs, which posix_spawn cannot do. */
static int run_quiet_as(char *const argv[], int unshare_net, int drop)
{
    pid_t p = fork();
    if (p < 0)
        return -1;
    if (p == 0) {
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, 0); dup2(nul, 1); dup2(nul, 2);
        }
        if (drop && drop_to_sandbox_uid() != 0)
            _exit(125);
#ifdef __linux__
        if (unshare_net && unshare(CLONE_NEWNET) != 0)
            _exit(126);
#else
        if (unshare_net)
            _exit(126);
#endif
        if (argv)
            execv(argv[0], argv);
        _exit(argv ? 127 : 0);
    }
    int st;
    tg_proc_wait(p, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int run_quiet(char *const argv[], int unshare_net)
{
    return run_quiet_as(argv, unshare_net, 0);
}

static int probe_cgroup_dir(const char *parent, const char *probe_file)
{
    char d[300], f[340];
    snprintf(d, sizeof d, "%s/tilelab-probe-%ld", parent, (long)getpid());
    if (mkdir(d, 0700) != 0)
        return -1;
    snprintf(f, sizeof f, "%s/%s", d, probe_file);
    int ok = access(f, W_OK) == 0;
    rmdir(d);
    return ok ? 0 : -1;
}

/* Empty cgroups left by a grader that was killed (tilelab-PID-N with PID gone): remove them. */
static void sweep_stale_cgroups(const char *parent)
{
    DIR *d = opendir(parent);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        long pid;
        if (sscanf(e->d_name, "tilelab-%ld-", &pid) != 1 || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
            continue;
        char p[600];
        snprintf(p, sizeof p, "%s/%s", parent, e->d_name);
        rmdir(p);     /* fails, harmlessly, while anything still runs in it */
    }
    closedir(d);
}

void tg_iso_probe(tg_iso *iso)
{
    memset(iso, 0, sizeof *iso);
    iso->is_root = geteuid() == 0;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    iso->mem_total = pages > 0 && psz > 0 ? (long long)pages * psz : 0;
    glob_t g;
    if (glob("/dev/nvidia*", 0, NULL, &g) == 0) {
        iso->gpu_nodes = (int)g.gl_pathc;
        globfree(&g);
    }
    size_t nl = 0;
#define NOTE(...) (nl += (size_t)snprintf(iso->notes + nl, nl < sizeof iso->notes ? sizeof iso->notes - nl : 0, __VA_ARGS__))

    /* bubblewrap: try exactly the sandbox we will use, running /usr/bin/true inside. */
    if (getenv("TL_GRADE_NO_BWRAP")) {
        NOTE("bubblewrap: disabled by TL_GRADE_NO_BWRAP; ");
    } else if (find_in_path("bwrap", iso->bwrap_path, sizeof iso->bwrap_path) != 0) {
        NOTE("bubblewrap: not installed (apt-get install bubblewrap); ");
    } else {
        /* Exactly the sandbox we will use, and it must show no capabilities from inside: as
         * root first with the setuid drop (unprivileged inside and out), then as uid 65534 in a
         * user namespace mapped to root. Without --cap-drop a root bubblewrap would keep them. */
        const char *targv[] = {"/bin/sh", "-c", "grep -Eq '^CapEff:[[:space:]]+0+$' /proc/self/status && "
                               "grep -Eq '^CapBnd:[[:space:]]+0+$' /proc/self/status && "
                               "grep -Eq '^NoNewPrivs:[[:space:]]+1$' /proc/self/status", NULL};
        tg_spawn_opts o = {.argv = targv, .sandbox_cwd = "/tmp/case"};
        int root = iso->is_root;
        int modes[4] = {root ? TG_UID_DROPPED : TG_UID_USER, root ? TG_UID_MAPPED_ROOT : TG_UID_USER,
                        TG_UID_DROPPED, TG_UID_MAPPED_ROOT};
        for (int m = 0; m < (iso->is_root ? 4 : 2) && !iso->bwrap; ++m) {
            argv_b a = {0};
            if (m == (iso->is_root ? 2 : 1)) {
                iso->old_bwrap = 1;    /* bubblewrap < 0.8 has no --disable-userns: once more without */
                NOTE("bubblewrap: trying without --disable-userns (bubblewrap before 0.8?); ");
            }
            tg_iso tmp = *iso;
            build_bwrap_argv(&a, &tmp, &o, modes[m]);
            int rc = run_quiet_as((char *const *)a.v, 0, modes[m] == TG_UID_DROPPED);
            if (rc == 0) {
                iso->bwrap = 1;
                iso->uid_mode = modes[m];
            } else {
                NOTE("bubblewrap%s: no sandbox without capabilities here (exit %d); ",
                     modes[m] == TG_UID_DROPPED ? " after the drop to uid 65534" :
                     modes[m] == TG_UID_MAPPED_ROOT ? " as root, user namespace" : "", rc);
            }
        }
    }
    if (!iso->bwrap) {
        if (getenv("TL_GRADE_NO_UNSHARE"))
            NOTE("unshare -n: disabled by TL_GRADE_NO_UNSHARE; ");
        else if (run_quiet(NULL, 1) == 0)
            iso->unshare_net = 1;
        else
            NOTE("unshare -n: not permitted; network not isolated; ");
    }

    /* seccomp: the network filter must install, kill an AF_INET socket() with SIGSYS, and let
     * AF_UNIX through (and bubblewrap start under it, where bubblewrap is used). */
    if (getenv("TL_GRADE_NO_SECCOMP")) {
        NOTE("seccomp: disabled by TL_GRADE_NO_SECCOMP; ");
    } else {
        int ok = 0;
        pid_t p = fork();              /* (forks: the probe is the grader's own code under the filter) */
        if (p == 0) {
            if (tg_seccomp_net_install() != 0)
                _exit(3);
            int u = socket(AF_UNIX, SOCK_STREAM, 0);
            if (u < 0)
                _exit(4);
            close(u);
            (void)!socket(AF_INET, SOCK_STREAM, 0);
            _exit(5);                               /* not killed: the filter does not work */
        }
        int st = 0;
        if (p > 0) {
            tg_proc_wait(p, &st, 0);
            ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS;
        }
        if (ok && iso->bwrap) {
            p = fork();
            if (p == 0) {
                if (tg_seccomp_net_install() != 0)
                    _exit(3);
                const char *targv[] = {"/usr/bin/true", NULL};
                tg_spawn_opts o = {.argv = targv, .sandbox_cwd = "/tmp/case"};
                argv_b a = {0};
                tg_iso tmp = *iso;
                build_bwrap_argv(&a, &tmp, &o, iso->uid_mode);
                _exit(run_quiet_as((char *const *)a.v, 0, iso->uid_mode == TG_UID_DROPPED) == 0 ? 0 : 6);
            }
            if (p > 0) {
                tg_proc_wait(p, &st, 0);
                ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
            }
        }
        if (ok)
            iso->seccomp = 1;
        else
            NOTE("seccomp: the network filter could not be installed or did not work here (status 0x%x); "
                 "not used; ", st);
    }

    /* cgroups: v1 pids + memory hierarchies, or v2 with both controllers enabled. */
    if (getenv("TL_GRADE_NO_CGROUP")) {
        NOTE("cgroup: disabled by TL_GRADE_NO_CGROUP; ");
    } else if (tg_is_dir("/sys/fs/cgroup/pids") && tg_is_dir("/sys/fs/cgroup/memory") &&
               probe_cgroup_dir("/sys/fs/cgroup/pids", "pids.max") == 0 &&
               probe_cgroup_dir("/sys/fs/cgroup/memory", "memory.limit_in_bytes") == 0) {
        iso->cgroup = 1;
        snprintf(iso->cg_pids, sizeof iso->cg_pids, "/sys/fs/cgroup/pids");
        snprintf(iso->cg_mem, sizeof iso->cg_mem, "/sys/fs/cgroup/memory");
        sweep_stale_cgroups(iso->cg_pids);
        sweep_stale_cgroups(iso->cg_mem);
    } else if (tg_is_file("/sys/fs/cgroup/cgroup.controllers") &&
               probe_cgroup_dir("/sys/fs/cgroup", "pids.max") == 0 &&
               probe_cgroup_dir("/sys/fs/cgroup", "memory.max") == 0) {
        iso->cgroup = 2;
        snprintf(iso->cg_pids, sizeof iso->cg_pids, "/sys/fs/cgroup");
        snprintf(iso->cg_mem, sizeof iso->cg_mem, "/sys/fs/cgroup");
        sweep_stale_cgroups(iso->cg_pids);
    } else {
        NOTE("cgroup: no writable pids/memory cgroup (run as root, or delegate one); %s; ",
             iso->is_root ? "fork bombs meet only the time limit (RLIMIT_NPROC does not bind root)"
                          : "fork bombs meet RLIMIT_NPROC");
    }
#undef NOTE
    const char *who = iso->uid_mode == TG_UID_DROPPED ? "uid 65534 inside and out"
                    : iso->uid_mode == TG_UID_MAPPED_ROOT ? "uid 65534 mapped to root outside"
                                                          : "the grader's own uid";
    char bw[300];
    snprintf(bw, sizeof bw, "bubblewrap (%s, no capabilities, no_new_privs; user, mount, pid, net, ipc, uts "
             "namespaces; read-only binds, private capped /tmp, no instructor files)", who);
    snprintf(iso->desc, sizeof iso->desc, "%s%s%s + rlimits (core 0, nofile 1024, fsize%s) + process group + wall-clock limit",
             iso->bwrap ? bw
                        : iso->unshare_net ? "NO SANDBOX: unshare (net) only, no filesystem or process isolation"
                                           : "NO SANDBOX: no namespaces (network not isolated, filesystem visible)",
             iso->cgroup == 1 ? " + cgroup v1 (pids, memory; every process killed at the end)"
                              : iso->cgroup == 2 ? " + cgroup v2 (pids, memory; every process killed at the end)" : "",
             iso->seccomp ? " + seccomp (no inet sockets)" : "",
             !iso->cgroup && !iso->is_root ? ", nproc" : "");
}

/* ------------------------------------------------------------------ spawn */

long long tg_mem_limit(const tg_iso *iso, long long want, int jobs)
{
    if (iso->mem_total <= 0)
        return want;
    long long cap = iso->mem_total / 4 * 3 / (jobs > 0 ? jobs : 1);
    if (cap < (256LL << 20))
        cap = 256LL << 20;
    return want < cap ? want : cap;
}

int tg_iso_contained(const tg_iso *iso)
{
    return iso->bwrap;
}

static int under(const char *path, const char *top)
{
    return strlen(top) > 1 && tg_path_under(path, top);
}

/* 1 when TG_SANDBOX_UID can reach path (bubblewrap runs as it after the drop and binds it):
 * every folder on the way searchable by others or owned by it. Folders under iso->grant are
 * made searchable (o+x, never o+r: names must still be known); others are left alone. */
static int reachable(const tg_iso *iso, const char *path)
{
    char rp[PATH_MAX];
    if (!realpath(path, rp))
        return 0;
    for (char *p = rp + 1;; ++p) {
        if (*p != '/' && *p != '\0')
            continue;
        char ch = *p;
        *p = '\0';
        struct stat st;
        if (stat(rp, &st) != 0)
            return 0;
        if (S_ISDIR(st.st_mode) && !(st.st_mode & S_IXOTH) && st.st_uid != TG_SANDBOX_UID &&
            !(iso->grant[0] && under(rp, iso->grant) && chmod(rp, (st.st_mode & 07777) | S_IXOTH) == 0))
            return 0;
        *p = ch;
        if (!ch)
            return 1;
    }
}

static int give_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)flag; (void)ftw;
    if (st->st_uid != TG_SANDBOX_UID || st->st_gid != TG_SANDBOX_GID)
        if (lchown(path, TG_SANDBOX_UID, TG_SANDBOX_GID) != 0)
            return -1;
    return 0;
}

/* A writable bind for the dropped uid: only a folder under iso->grant, given to it whole
 * (no link followed). 0 when that cannot be. */
static int give_to_sandbox(const tg_iso *iso, const char *path)
{
    char rp[PATH_MAX];
    if (!iso->grant[0] || !realpath(path, rp) || !under(rp, iso->grant) || !reachable(iso, rp))
        return 0;
    return nftw(rp, give_one, 32, FTW_PHYS) == 0;
}

/* The uid this run gets: the drop when every bind is within the dropped uid's reach. */
static int spawn_uid_mode(const tg_iso *iso, const tg_spawn_opts *o)
{
    if (iso->uid_mode != TG_UID_DROPPED)
        return iso->uid_mode;
    for (int i = 0; i < 8 && o->ro[i].host; ++i)
        if (!reachable(iso, o->ro[i].host))
            return TG_UID_MAPPED_ROOT;
    for (int i = 0; i < 4 && o->rw[i].host; ++i)
        if (!give_to_sandbox(iso, o->rw[i].host))
            return TG_UID_MAPPED_ROOT;
    return TG_UID_DROPPED;
}

int tg_spawn_uid_mode(const tg_iso *iso, const tg_spawn_opts *o)
{
    return spawn_uid_mode(iso, o);
}

static int make_cgroup(char *out, size_t len, const char *parent, const char *file, const char *value)
{
    static unsigned seq;
    snprintf(out, len, "%s/tilelab-%ld-%u", parent, (long)getpid(), seq++);
    if (mkdir(out, 0700) != 0 && errno != EEXIST)
        return -1;
    char f[400];
    snprintf(f, sizeof f, "%s/%s", out, file);
    return tg_sb_write_str(f, value);
}

int tg_spawn(tg_child *c, const tg_iso *iso, const tg_spawn_opts *o, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->to_child = c->from_child = c->out = -1;
    int req[2] = {-1, -1}, ans[2] = {-1, -1}, outp[2];
    if (pipe2(outp, O_CLOEXEC) != 0 ||
        (o->serve && (pipe2(req, O_CLOEXEC) != 0 || pipe2(ans, O_CLOEXEC) != 0))) {
        snprintf(err, errlen, "grader: cannot make pipes (%s)", strerror(errno));
        return -1;
    }
    char v[64];
    if (iso->cgroup) {
        int tasks = o->max_tasks > 0 ? o->max_tasks : 64;
        snprintf(v, sizeof v, "%d", tasks);
        if (make_cgroup(c->cg[0], sizeof c->cg[0], iso->cg_pids, "pids.max", v) != 0) {
            snprintf(err, errlen, "grader: cannot set up the pids cgroup %s (%s)", c->cg[0], strerror(errno));
            return -1;
        }
        if (o->mem_bytes > 0) {
            snprintf(v, sizeof v, "%lld", o->mem_bytes);
            if (iso->cgroup == 2) {
                char f[400];
                snprintf(f, sizeof f, "%s/memory.max", c->cg[0]);
                if (tg_sb_write_str(f, v) != 0) {
                    snprintf(err, errlen, "grader: cannot set memory.max (%s)", strerror(errno));
                    return -1;
                }
            } else if (make_cgroup(c->cg[1], sizeof c->cg[1], iso->cg_mem, "memory.limit_in_bytes", v) != 0) {
                snprintf(err, errlen, "grader: cannot set up the memory cgroup (%s)", strerror(errno));
                return -1;
            } else {
                char f[400];   /* no swap either, where the kernel offers the knob */
                snprintf(f, sizeof f, "%s/memory.memsw.limit_in_bytes", c->cg[1]);
                if (access(f, W_OK) == 0)
                    tg_sb_write_str(f, v);
            }
        }
    }
    argv_b a = {0};
    const char *const *argv = o->argv;
    if (iso->bwrap) {
        c->uid_mode = spawn_uid_mode(iso, o);
        build_bwrap_argv(&a, iso, o, c->uid_mode);
        argv = a.v;
        c->via_bwrap = 1;
    }
    /* The environment: scrubbed, only what a program needs. */
    char pathv[600], homev[300];
    snprintf(pathv, sizeof pathv, "PATH=%s%s/usr/local/bin:/usr/bin:/bin", o->extra_path ? o->extra_path : "",
             o->extra_path ? ":" : "");
    snprintf(homev, sizeof homev, "HOME=%s", iso->bwrap ? (o->sandbox_cwd ? o->sandbox_cwd : "/tmp")
                                                        : (o->host_cwd ? o->host_cwd : "/tmp"));
    /* CCACHE_DISABLE: a compiler cache in a private /tmp never hits, and through it a build's
     * compiler writes to a temporary file instead of ninja's pipe, so a file that reads its own
     * output (#include "/dev/stdout": the compiler waits on itself, using no CPU) would be graded
     * differently where ccache is installed; with it off every machine builds alike (the idle
     * watch stops such a build, build.c). It also spares every sandboxed compile a cache lookup
     * and store that cannot hit (~0.45 CPU-s of an emulated lab 03 submission; tests/bench). */
    const char *envp[16] = {pathv, homev, "LC_ALL=C", "TMPDIR=/tmp", "CCACHE_DISABLE=1", NULL};
    int ne = 5;
    static char cvd[200], llp[2100];
    if (getenv("CUDA_VISIBLE_DEVICES")) {
        snprintf(cvd, sizeof cvd, "CUDA_VISIBLE_DEVICES=%s", getenv("CUDA_VISIBLE_DEVICES"));
        envp[ne++] = cvd;
    }
    if (o->gpu && getenv("LD_LIBRARY_PATH")) {   /* where the CUDA driver library may live */
        snprintf(llp, sizeof llp, "LD_LIBRARY_PATH=%s", getenv("LD_LIBRARY_PATH"));
        envp[ne++] = llp;
    }
    for (int i = 0; i < 3 && o->env[i]; ++i)
        envp[ne++] = o->env[i];
    static char emu_model[64];
    if (o->emu_model && *o->emu_model) {          /* the emulated GPU model of this run (devquery.c) */
        snprintf(emu_model, sizeof emu_model, "TL_EMU_MODEL=%s", o->emu_model);
        envp[ne++] = emu_model;
    }
    long uid_tasks = (!iso->cgroup && !iso->is_root) ? tasks_of_uid(getuid()) : -1;

    /* A fork, not proc.c's posix_spawn: the child sets rlimits, its cgroup, a uid and the seccomp
     * filter before it execs the student's program (or bubblewrap), which posix_spawn cannot do. */
    pid_t p = fork();
    if (p < 0) {
        snprintf(err, errlen, "grader: cannot fork (%s)", strerror(errno));
        return -1;
    }
    if (p == 0) {
        setsid();                                  /* own session and process group */
        if (o->nice > 0)
            (void)!setpriority(PRIO_PROCESS, 0, o->nice);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);          /* the grader dies: so does the sandbox */
#endif
        char pid[32];
        snprintf(pid, sizeof pid, "%ld", (long)getpid());
        for (int i = 0; i < 2; ++i)
            if (c->cg[i][0]) {
                char f[400];
                snprintf(f, sizeof f, "%s/cgroup.procs", c->cg[i]);
                if (tg_sb_write_str(f, pid) != 0)
                    _exit(125);
            }
        int nul = open("/dev/null", O_RDONLY);
        dup2(nul, 0);
        dup2(outp[1], 1);
        dup2(outp[1], 2);
        if (o->serve) {
            /* req[0] and ans[1] may already sit on 3 or 4: move them up first. */
            int r = fcntl(req[0], F_DUPFD, 10), w = fcntl(ans[1], F_DUPFD, 10);
            dup2(r, 3);
            dup2(w, 4);
        }
        close_from(o->serve ? 5 : 3);
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = 0;
        setrlimit(RLIMIT_CORE, &rl);
        rl.rlim_cur = rl.rlim_max = 1024;         /* CUDA needs >= 64 (toolchain.md); tools more */
        setrlimit(RLIMIT_NOFILE, &rl);
        if (o->fsize_bytes > 0) {
            rl.rlim_cur = rl.rlim_max = (rlim_t)o->fsize_bytes;
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        if (o->cpu_seconds > 0) {
            rl.rlim_cur = rl.rlim_max = (rlim_t)o->cpu_seconds;
            setrlimit(RLIMIT_CPU, &rl);
        }
        if (uid_tasks >= 0) {                     /* fallback fork-bomb limit (not root) */
            rl.rlim_cur = rl.rlim_max = (rlim_t)(uid_tasks + (o->max_tasks > 0 ? o->max_tasks : 64));
            setrlimit(RLIMIT_NPROC, &rl);
        }
        signal(SIGPIPE, SIG_DFL);
#ifdef __linux__
        if (!iso->bwrap && iso->unshare_net && unshare(CLONE_NEWNET) != 0)
            _exit(126);
#endif
        if (!iso->bwrap && o->host_cwd && chdir(o->host_cwd) != 0)
            _exit(126);
        if (c->via_bwrap && c->uid_mode == TG_UID_DROPPED && drop_to_sandbox_uid() != 0)
            _exit(125);                         /* never run a student's code as root */
        if (o->seccomp_net && iso->seccomp)
            (void)tg_seccomp_net_install();     /* probed at start-up; the last step before exec */
        execve(argv[0], (char *const *)argv, (char *const *)envp);
        _exit(127);
    }
    c->pid = p;
    c->seccomp = o->seccomp_net && iso->seccomp;
    close(outp[1]);
    c->out = outp[0];
    if (o->serve) {
        close(req[0]);
        close(ans[1]);
        c->to_child = req[1];
        c->from_child = ans[0];
        fcntl(c->to_child, F_SETFL, O_NONBLOCK);
        fcntl(c->from_child, F_SETFL, O_NONBLOCK);
    }
    fcntl(c->out, F_SETFL, O_NONBLOCK);
    return 0;
}

/* ---------------------------------------------------------------- CPU time of a process tree */

/* The CPU seconds (user + system, and those of reaped children) of root and every live process
 * below it, read from /proc: a build's progress, whatever its processes are (ninja, nvcc, cc1).
 * -1 when root is gone. */
double tg_tree_cpu_s(pid_t root)
{
    return tg_tree_cpu_busy(root, NULL);
}

double tg_tree_cpu_busy(pid_t root, int *busy)
{
    enum { MAXP = 4096 };
    static pid_t pid[MAXP], ppid[MAXP];
    static double cpu[MAXP];
    static char waits[MAXP];
    int n = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    struct dirent *e;
    long hz = sysconf(_SC_CLK_TCK);
    while ((e = readdir(d)) && n < MAXP) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char f[64], buf[1024];
        snprintf(f, sizeof f, "/proc/%.20s/stat", e->d_name);
        int fd = open(f, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t r = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (r <= 0)
            continue;
        buf[r] = '\0';
        char *p = strrchr(buf, ')');          /* the name may hold spaces and parentheses */
        if (!p)
            continue;
        /* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
         * stime cutime cstime */
        char st;
        long pp;
        unsigned long ut, stt;
        long cut, cst;
        if (sscanf(p + 2, "%c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %ld %ld", &st, &pp, &ut, &stt, &cut,
                   &cst) != 6)
            continue;
        pid[n] = (pid_t)atol(e->d_name);
        ppid[n] = (pid_t)pp;
        waits[n] = st == 'R' || st == 'D';   /* wants the CPU (or the disk): not idle, however starved */
        cpu[n] = (double)(ut + stt + (unsigned long)cut + (unsigned long)cst) / (double)hz;
        ++n;
    }
    closedir(d);
    /* mark root's descendants: repeat until no new one (parents may follow children in /proc) */
    static char in[MAXP];
    int found = 0;
    for (int i = 0; i < n; ++i) {
        in[i] = pid[i] == root;
        found |= in[i];
    }
    if (!found)
        return -1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n; ++i)
            if (!in[i])
                for (int j = 0; j < n; ++j)
                    if (in[j] && ppid[i] == pid[j]) {
                        in[i] = 1;
                        changed = 1;
                        break;
                    }
    }
    double sum = 0;
    if (busy)
        *busy = 0;
    for (int i = 0; i < n; ++i)
        if (in[i]) {
            sum += cpu[i];
            if (busy)
                *busy += waits[i];
        }
    return sum;
}
