/* tl-sandbox-exec: runs one command in the grader's sandbox exactly as a graded case runs (the same
 * tg_iso_probe and tg_spawn: bubblewrap, the uid drop as root, no capabilities, cgroup, rlimits),
 * so an instructor or a device script can see what a tool does in there (ncu's counters, the
 * sanitizer) before a class run depends on it. Never part of grading; nothing of a student's runs.
 *
 *   tl-sandbox-exec [--gpu] [--serve] [--no-seccomp] [--grant DIR] [--ro HOST[:INSIDE]]... [--rw HOST[:INSIDE]]...
 *                   [--path DIRS] [--cwd INSIDE] [--tasks N] [--limit S] -- COMMAND ARG...
 *
 * --gpu binds the GPU's device nodes and /sys as a GPU case does; --rw needs --grant (a folder the
 * binds lie under, given to uid 65534 as the grader's state folder is); --path is prepended to PATH
 * and its folders outside /usr bound read-only (as the grader's tool path). Prints the isolation
 * line on stderr, the command's output (stdout and stderr together) on stdout, and how it ended.
 * Exit: the command's exit status, 2 bad usage, 3 the sandbox could not start it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "grade.h"

static int usage(int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: tl-sandbox-exec [--gpu] [--no-seccomp] [--grant DIR] [--ro HOST[:INSIDE]]... [--rw HOST[:INSIDE]]...\n"
            "                       [--path DIRS] [--cwd INSIDE] [--tasks N] [--limit S] -- COMMAND ARG...\n");
    return rc;
}

static void split_bind(char *arg, tg_bind *b)
{
    char *colon = strchr(arg, ':');
    if (colon)
        *colon = '\0';
    b->host = arg;
    b->inside = colon ? colon + 1 : NULL;
}

int main(int argc, char **argv)
{
    tg_spawn_opts o = {.sandbox_cwd = "/tmp/case", .host_cwd = "/", .max_tasks = 128, .mem_bytes = 8LL << 30,
                       .fsize_bytes = 256LL << 20, .tmp_bytes = 256LL << 20, .seccomp_net = 1};
    double limit = 120;
    int nro = 0, nrw = 0, i = 1;
    const char *grant = NULL;
    for (; i < argc && strcmp(argv[i], "--") != 0; ++i) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--gpu") == 0)
            o.gpu = 1;
        else if (strcmp(a, "--no-seccomp") == 0)
            o.seccomp_net = 0;
        else if (strcmp(a, "--help") == 0)
            return usage(0);
        else if (more && strcmp(a, "--grant") == 0)
            grant = argv[++i];
        else if (more && strcmp(a, "--ro") == 0 && nro < 7)
            split_bind(argv[++i], &o.ro[nro++]);
        else if (more && strcmp(a, "--rw") == 0 && nrw < 3)
            split_bind(argv[++i], &o.rw[nrw++]);
        else if (more && strcmp(a, "--path") == 0)
            o.extra_path = argv[++i];
        else if (more && strcmp(a, "--cwd") == 0)
            o.sandbox_cwd = argv[++i];
        else if (more && strcmp(a, "--tasks") == 0)
            o.max_tasks = atoi(argv[++i]);
        else if (more && strcmp(a, "--limit") == 0)
            limit = atof(argv[++i]);
        else {
            fprintf(stderr, "tl-sandbox-exec: unknown or incomplete option '%s'\n", a);
            return usage(2);
        }
    }
    if (i + 1 >= argc)
        return usage(2);
    if (nrw && !grant) {
        fprintf(stderr, "tl-sandbox-exec: --rw needs --grant DIR (a folder above the writable binds, given to the "
                "sandbox's uid as the grader's state folder is)\n");
        return 2;
    }
    o.argv = (const char *const *)argv + i + 1;
    tg_iso iso;
    tg_iso_probe(&iso);
    if (grant)
        snprintf(iso.grant, sizeof iso.grant, "%s", grant);
    fprintf(stderr, "isolation: %s\n", iso.desc);
    if (iso.notes[0])
        fprintf(stderr, "isolation notes: %s\n", iso.notes);
    tg_buf out = {0};
    char desc[300], err[600];
    int rc = tg_run_sandboxed(&iso, &o, limit, &out, desc, sizeof desc, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "tl-sandbox-exec: the sandbox could not start it: %s\n", err);
        return 3;
    }
    if (out.len)
        fwrite(out.s, 1, out.len, stdout);
    fprintf(stderr, "tl-sandbox-exec: %s\n", desc);
    tg_buf_free(&out);
    return rc == 0 ? 0 : 1;
}
