/* policy.c: what a lab file may not do (see policy.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"

#include <seccomp.h>
#include <sys/socket.h>

/* Names a lab file never needs to call, and why. Matched as whole identifiers followed by '('
 * (a call, or a function-like macro), not after '.', '->' or '::' (a member). */
static const struct { const char *name, *what; } banned_calls[] = {
    {"socket", "network"}, {"socketpair", "network"}, {"connect", "network"}, {"bind", "network"},
    {"listen", "network"}, {"accept", "network"}, {"accept4", "network"}, {"getaddrinfo", "network"},
    {"gethostbyname", "network"}, {"sendto", "network"}, {"recvfrom", "network"},
    {"fork", "processes"}, {"vfork", "processes"}, {"clone", "processes"}, {"clone3", "processes"},
    {"system", "processes"}, {"popen", "processes"}, {"execl", "processes"}, {"execlp", "processes"},
    {"execle", "processes"}, {"execv", "processes"}, {"execvp", "processes"}, {"execvpe", "processes"},
    {"execve", "processes"}, {"execveat", "processes"}, {"fexecve", "processes"},
    {"posix_spawn", "processes"}, {"posix_spawnp", "processes"}, {"kill", "processes"},
    {"ptrace", "processes"},
    {"fopen", "files"}, {"fopen64", "files"}, {"freopen", "files"}, {"open", "files"},
    {"open64", "files"}, {"openat", "files"}, {"creat", "files"}, {"unlink", "files"},
    {"unlinkat", "files"}, {"remove", "files"}, {"rename", "files"}, {"renameat", "files"},
    {"opendir", "files"}, {"mkdir", "files"}, {"rmdir", "files"}, {"symlink", "files"},
    {"link", "files"}, {"chmod", "files"}, {"truncate", "files"},
    {"syscall", "raw system calls"}, {"dlopen", "loading code"}, {"dlsym", "loading code"},
    {"getenv", "the environment"}, {"secure_getenv", "the environment"},
};

/* Headers of the network API: including one is reason enough. */
static const char *const banned_headers[] = {"sys/socket.h", "netinet/", "arpa/inet.h", "netdb.h",
                                              "sys/un.h", "linux/net", "sys/ptrace.h", "dlfcn.h",
                                              "spawn.h", NULL};

static int is_id(int c)
{
    return isalnum(c) || c == '_';
}

/* Blanks comments and string and character literals (newlines kept, so lines still count). */
static void strip(char *s, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                s[i++] = ' ';
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            s[i] = s[i + 1] = ' ';
            i += 2;
            while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
                if (s[i] != '\n')
                    s[i] = ' ';
                ++i;
            }
            if (i < n)
                s[i] = ' ';
            if (i + 1 < n)
                s[++i] = ' ';
        } else if (s[i] == '"' || s[i] == '\'') {
            char q = s[i];
            /* keep the quotes of an #include "x.h" visible to the header check: it runs first */
            s[i++] = ' ';
            while (i < n && s[i] != q && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n && s[i + 1] != '\n')
                    s[i++] = ' ';
                s[i++] = ' ';
            }
            if (i < n && s[i] == q)
                s[i] = ' ';
        }
    }
}

int tg_policy_scan(const char *file, const char *text, size_t len, tg_buf *findings)
{
    int found = 0;
    char *s = malloc(len + 1);
    if (!s)
        return 0;
    memcpy(s, text, len);
    s[len] = '\0';
    for (size_t i = 0; i < len; ++i)      /* NULs would end the scans early */
        if (!s[i])
            s[i] = ' ';
    /* #include lines first (the header name may be in quotes, which strip() blanks). */
    int line = 1;
    for (char *p = s; *p;) {
        char *e = strchr(p, '\n');
        char *q = p;
        while (*q == ' ' || *q == '\t')
            ++q;
        if (*q == '#') {
            ++q;
            while (*q == ' ' || *q == '\t')
                ++q;
            if (strncmp(q, "include", 7) == 0) {
                size_t l = e ? (size_t)(e - q) : strlen(q);
                for (int h = 0; banned_headers[h]; ++h)
                    if (memmem(q, l, banned_headers[h], strlen(banned_headers[h]))) {
                        tg_buf_printf(findings, "%s:%d: includes <%s...> (network, processes or loading code: "
                                      "a lab file never needs it)\n", file, line, banned_headers[h]);
                        ++found;
                        break;
                    }
            }
        }
        ++line;
        p = e ? e + 1 : p + strlen(p);
    }
    strip(s, len);
    line = 1;
    for (size_t i = 0; i < len; ++i) {
        if (s[i] == '\n') {
            ++line;
            continue;
        }
        if (!is_id((unsigned char)s[i]) || (i > 0 && is_id((unsigned char)s[i - 1])))
            continue;
        size_t j = i;
        while (j < len && is_id((unsigned char)s[j]))
            ++j;
        size_t l = j - i;
        const char *w = s + i;
        /* inline assembly, in any spelling */
        if ((l == 3 && memcmp(w, "asm", 3) == 0) || (l == 5 && memcmp(w, "__asm", 5) == 0) ||
            (l == 7 && memcmp(w, "__asm__", 7) == 0)) {
            tg_buf_printf(findings, "%s:%d: inline assembly ('%.*s')\n", file, line, (int)l, w);
            ++found;
        } else if (!isdigit((unsigned char)w[0])) {
            size_t k = j;
            while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r'))
                ++k;
            size_t b = i;                  /* what precedes: a member access is not a call of ours */
            while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t'))
                --b;
            int member = b > 0 && (s[b - 1] == '.' || (b > 1 && s[b - 1] == '>' && s[b - 2] == '-') ||
                                   (b > 1 && s[b - 1] == ':' && s[b - 2] == ':'));
            if (k < len && s[k] == '(' && !member)
                for (size_t c = 0; c < sizeof banned_calls / sizeof banned_calls[0]; ++c)
                    if (strlen(banned_calls[c].name) == l && memcmp(banned_calls[c].name, w, l) == 0) {
                        tg_buf_printf(findings, "%s:%d: calls %s() (%s: a lab file never needs it)\n", file, line,
                                      banned_calls[c].name, banned_calls[c].what);
                        ++found;
                        break;
                    }
        }
        i = j - 1;
    }
    free(s);
    return found;
}

/* ------------------------------------------------------------------ seccomp */

int tg_seccomp_net_install(void)
{
    /* libseccomp (Debian's libseccomp2) writes the BPF program: the architecture check (another
     * ABI, such as i386 through int 0x80 and its socketcall, or x32, is killed outright: CUDA
     * never uses one), the system call numbers of this architecture, the argument compare.
     * socket(domain, ...) and socketpair(domain, ...) with domain AF_INET, AF_INET6 or AF_PACKET
     * kill the whole process (SIGSYS). AF_UNIX and AF_NETLINK stay allowed (the CUDA driver uses
     * them). connect/sendto to an inet address need an inet socket first, which cannot be had.
     * seccomp_load sets PR_SET_NO_NEW_PRIVS first (its default). */
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        errno = ENOMEM;
        return -1;
    }
    static const int domains[] = {AF_INET, AF_INET6, AF_PACKET};
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    for (size_t i = 0; rc == 0 && i < sizeof domains / sizeof domains[0]; ++i) {
        rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(socket), 1,
                              SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)domains[i]));
        if (rc == 0)
            rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(socketpair), 1,
                                  SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)domains[i]));
    }
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc != 0) {
        errno = -rc;
        return -1;
    }
    return 0;
}
