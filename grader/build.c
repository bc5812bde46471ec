/* build.c: the per-submission build in the sandbox, the reference solution's build, and the
 * compiler's first errors for the reports. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade.h"
#include "policy.h"
#include "tilelab.h"

int tg_find_tool(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char buf[8192];
    snprintf(buf, sizeof buf, "%s:/usr/local/cuda/bin", path ? path : "/usr/bin:/bin");
    char *save = NULL;
    for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, name);
        if (access(out, X_OK) == 0)
            return 0;
    }
    out[0] = '\0';
    return -1;
}

/* ------------------------------------------------------------------ build */

void tg_first_errors(const tg_buf *log, tg_buf *out, int *warnings)
{
    *warnings = 0;
    if (!log->s)
        return;
    int lines = 0;
    for (const char *p = log->s; *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char line[400];
        snprintf(line, sizeof line, "%.*s", (int)(l < 399 ? l : 399), p);
        if (strstr(line, "warning:"))
            ++*warnings;
        if ((strstr(line, "error") || strstr(line, "Error") || strstr(line, "ERROR") ||
             strstr(line, "undefined reference")) && lines < 15 && out->len < ERRORS_SHOWN) {
            tg_buf_printf(out, "  %s\n", line);
            ++lines;
        }
        p = e ? e + 1 : p + l;
    }
    if (!lines && log->len) {   /* no line says "error": show the end of the log */
        size_t from = log->len > 800 ? log->len - 800 : 0;
        tg_buf_add(out, log->s + from, log->len - from);
        tg_buf_add(out, "\n", 1);
    }
}

int tg_build_submission(grun *R, gsub *g, char *err, size_t errlen)
{
    tg_buf log = {0};
    char desc[200];
    const char *cuda = R->lab->gpu ? "-Dcuda=enabled" : "-Dcuda=disabled";
    const char *setup[] = {R->meson, "setup", "--buildtype=debugoptimized", "-Dtests=false", cuda,
                           g->build, g->kit, NULL};
    tg_spawn_opts o = {.argv = setup, .host_cwd = g->kit, .sandbox_cwd = NULL, .max_tasks = 512,
                       .mem_bytes = 8LL << 30, .fsize_bytes = 512LL << 20, .tmp_bytes = 512LL << 20,
                       .extra_path = R->tool_path[0] ? R->tool_path : NULL};
    o.rw[0] = (tg_bind){g->work, g->work};
    int rc = tg_run_sandboxed(&R->iso, &o, BUILD_LIMIT_S, &log, desc, sizeof desc, err, errlen);
    if (rc == 0) {
        /* ninja names a target by its output path: labs/01-cpu-baseline/lab01 */
        const char *ninja[] = {R->ninja, "-C", g->build, "-j", "2", R->lab->binary, NULL};
        o.argv = ninja;
        rc = tg_run_sandboxed(&R->iso, &o, BUILD_LIMIT_S, &log, desc, sizeof desc, err, errlen);
        if (rc == 0 && R->lab->gpu && R->have_emu_target && R->lab->emu_target && (!R->gpu_ok || R->emulate)) {
            const char *ninja_emu[] = {R->ninja, "-C", g->build, "-j", "2", R->lab->emu_binary, NULL};
            o.argv = ninja_emu;
            tg_buf elog = {0};
            char e2[300];
            if (tg_run_sandboxed(&R->iso, &o, BUILD_LIMIT_S, &elog, desc, sizeof desc, e2, sizeof e2) == 0)
                g->emu_built = 1;
            else
                tg_buf_printf(&g->notes, "the emulated build (%s) failed: %.300s\n", R->lab->emu_target,
                              elog.s ? elog.s : "");
            tg_buf_free(&elog);
        }
    }
    if (rc < 0) {
        tg_buf_free(&log);
        return -1;
    }
    char logpath[PATH_MAX + 16];
    snprintf(logpath, sizeof logpath, "%s/build.log", g->odir);
    tg_write_atomic(logpath, log.s ? log.s : "", log.len);
    tg_first_errors(&log, &g->build_errors, &g->warnings);
    if (rc != 0 && strstr(desc, "wall-clock"))
        tg_buf_printf(&g->build_errors, "  the build was killed at the %.0f s limit\n", BUILD_LIMIT_S);
    /* A tool missing is the grader's problem, not the student's. */
    if (rc != 0 && log.s && (strstr(log.s, "meson: not found") || strstr(log.s, "No such file or directory: 'ninja'"))) {
        snprintf(err, errlen, "build tool missing: %.200s", log.s);
        tg_buf_free(&log);
        return -1;
    }
    tg_buf_free(&log);
    g->built = rc == 0;
    return 0;
}


/* The reference solution, built from the instructor's tree into the grader's private state. */
void tg_build_reference(grun *R)
{
    char sol[PATH_MAX + 64];
    snprintf(sol, sizeof sol, "%s/solutions/%s", R->root, R->lab->dir);
    if (!tg_is_dir(sol)) {
        snprintf(R->ref_why, sizeof R->ref_why, "no %s in the kit (the student edition has none)", sol);
        return;
    }
    char bdir[PATH_MAX + 16];
    snprintf(bdir, sizeof bdir, "%s/refbuild", R->state);
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "{ [ -f '%s/build.ninja' ] || '%s' setup --buildtype=debugoptimized -Dtests=false "
             "-Dcuda=%s '%s' '%s'; } >'%s/refbuild.log' 2>&1 && '%s' -C '%s' '%s' >>'%s/refbuild.log' 2>&1",
             bdir, R->meson, R->lab->gpu ? "enabled" : "disabled", bdir, R->root, R->state, R->ninja, bdir,
             R->lab->ref_binary, R->state);
    if (system(cmd) != 0) {
        snprintf(R->ref_why, sizeof R->ref_why, "the reference build failed; see %s/refbuild.log", R->state);
        return;
    }
    snprintf(R->ref_build, sizeof R->ref_build, "%s", bdir);
}
