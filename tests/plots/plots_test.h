/* plots_test.h: helpers shared by the tests of plots/: run a program, read a file, make a temp folder.
 *
 * The tests find what they need through the environment that tests/plots/meson.build sets:
 *   TL_PLOTPREP   the built tl-plotprep     TL_TEST_DATA  tests/plots/data
 *   TL_ROOT       the kit's source folder   TL_KIT_PLOTS  plots/kit-plots.sh
 */
#ifndef TL_PLOTS_TEST_H
#define TL_PLOTS_TEST_H

#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUN_CAPTURE 65536 /* bytes of stdout and of stderr kept */

typedef struct run_result {
    int code;               /* exit code, or 128 + signal */
    char out[RUN_CAPTURE];  /* stdout, NUL-terminated, truncated */
    char err[RUN_CAPTURE];  /* stderr, likewise */
} run_result;

static inline const char *env_or_die(const char *name)
{
    const char *v = getenv(name);
    cr_assert(v && *v, "environment variable %s is not set: run the tests through meson test", name);
    return v;
}

/* The path of a file in tests/plots/data, in a static buffer per call site's copy. */
static inline char *data_path(const char *name)
{
    static char buf[8][4096];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, 4096, "%s/%s", env_or_die("TL_TEST_DATA"), name);
    return p;
}

static inline void read_fd_into(int fd, char *buf, size_t cap)
{
    size_t len = 0;
    lseek(fd, 0, SEEK_SET);
    for (;;) {
        ssize_t got = read(fd, buf + len, cap - 1 - len);
        if (got <= 0)
            break;
        len += (size_t)got;
        if (len == cap - 1)
            break;
    }
    buf[len] = '\0';
}

/* Run ARGV (argv[0] looked up on PATH) with the extra "NAME=value" settings in ENV (NULL-terminated,
 * may be NULL); "NAME=" alone unsets NAME. Captures stdout and stderr. */
static inline void run(run_result *r, char *const argv[], char *const env[])
{
    char out_tmpl[] = "/tmp/tl-plots-out-XXXXXX", err_tmpl[] = "/tmp/tl-plots-err-XXXXXX";
    int out_fd = mkstemp(out_tmpl), err_fd = mkstemp(err_tmpl);
    cr_assert(out_fd >= 0 && err_fd >= 0, "mkstemp failed");
    unlink(out_tmpl);
    unlink(err_tmpl);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork failed");
    if (pid == 0) {
        for (size_t i = 0; env && env[i]; i++) {
            const char *eq = strchr(env[i], '=');
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
            if (eq[1] == '\0')
                unsetenv(name);
            else
                setenv(name, eq + 1, 1);
        }
        int null_fd = open("/dev/null", O_RDONLY);
        dup2(null_fd, 0);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        execvp(argv[0], argv);
        fprintf(stderr, "exec %s failed\n", argv[0]);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    r->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    read_fd_into(out_fd, r->out, sizeof r->out);
    read_fd_into(err_fd, r->err, sizeof r->err);
    close(out_fd);
    close(err_fd);
}

/* The whole of PATH, NUL-terminated (caller frees), and its length in *len. NULL if unreadable. */
static inline char *slurp_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - 1 - n, fp)) > 0) {
        n += got;
        if (n == cap - 1) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(fp);
    if (buf) {
        buf[n] = '\0';
        if (len)
            *len = n;
    }
    return buf;
}

static inline void make_temp_dir(char *buf, size_t len)
{
    snprintf(buf, len, "/tmp/tl-plots-test-XXXXXX");
    cr_assert(mkdtemp(buf) != NULL, "mkdtemp failed");
}

static inline void remove_tree(const char *dir)
{
    run_result *r = malloc(sizeof *r);
    char *argv[] = {"rm", "-rf", (char *)dir, NULL};
    run(r, argv, NULL);
    free(r);
}

/* Criterion's assertion with the captured output in the message, so a failure explains itself. */
#define assert_run_code(r, want)                                                                        \
    cr_assert_eq((r)->code, (want), "exit code %d, expected %d\n--- stdout:\n%s\n--- stderr:\n%s",       \
                 (r)->code, (want), (r)->out, (r)->err)

#define assert_contains(hay, needle, what)                                                              \
    cr_assert(strstr((hay), (needle)) != NULL, "%s does not contain \"%s\"; it is:\n%s", (what), (needle), \
              (hay))

#endif
