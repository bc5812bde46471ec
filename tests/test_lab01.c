/* test_lab01.c: lab 01 end to end: the solution passes, the skeleton fails, and each
 * known-wrong submission is rejected with the message that points at its bug. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdio.h>

#include "run_capture.h"
#include "tilelab.h"          /* the matrix file's reader and writer (the serve tests) */
#include "../common/records.h" /* TL_REC_HEADER: the header is written down once */
#include "wrong_manifest.h"

static void assert_run(const char *bin, const char *variants, const char *sizes, int want_exit,
                       const char *want_text)
{
    char *argv[] = {(char *)bin, "--no-time", "--variants", (char *)variants, "--sizes", (char *)sizes, NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0, "cannot start %s", bin);
    cr_assert_eq(r.exit_code, want_exit, "%s exited %d, expected %d; it printed:\n%s", bin,
                 r.exit_code, want_exit, r.out);
    if (want_text)
        cr_assert(strstr(r.out, want_text) != NULL, "%s did not say '%s'; it printed:\n%s", bin,
                  want_text, r.out);
    run_free(&r);
}

Test(lab01, the_solution_passes_every_public_size, .timeout = 120)
{
    char *argv[] = {LAB01_REF, "--no-time", NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    cr_assert_eq(r.exit_code, 0, "solution failed:\n%s", r.out);
    cr_assert(strstr(r.out, " 0 failed") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "FAIL") == NULL, "%s", r.out);
    run_free(&r);
}

Test(lab01, the_skeleton_fails_with_unwritten_elements, .timeout = 120)
{
    assert_run(LAB01, "cpu_ijk,cpu_ikj,cpu_blocked", "17,100", 1, "unwritten elements");
}

Test(lab01, bad_options_are_refused_with_exit_2, .timeout = 30)
{
    const char *cases[][2] = {{"--sizes", "0"}, {"--sizes", "12x"}, {"--variants", "gpu_magic"},
                              {"--reps", "0"}, {"--seed", "-4"}, {"--bogus", NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char *argv[] = {LAB01_REF, (char *)cases[i][0], (char *)cases[i][1], NULL};
        run_result r;
        cr_assert_eq(run_capture(argv, &r), 0);
        cr_assert_eq(r.exit_code, 2, "%s %s: exit %d\n%s", cases[i][0], cases[i][1] ? cases[i][1] : "",
                     r.exit_code, r.out);
        cr_assert(strstr(r.out, "--help") != NULL, "no pointer to --help:\n%s", r.out);
        run_free(&r);
    }
}

Test(lab01, records_are_written_atomically_in_the_contract_format, .timeout = 60)
{
    char path[] = "/tmp/tl-rec-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    char *argv[] = {LAB01_REF, "--sizes", "33", "--reps", "2", "--records", path, "--quiet", NULL};
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0);
    cr_assert_eq(r.exit_code, 0, "%s", r.out);
    run_free(&r);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[512];
    int meta = 0, header = 0, rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            meta++;
        else if (!header) {
            cr_assert_str_eq(line, TL_REC_HEADER "\n"); /* common/records.h */
            header = 1;
        } else {
            rows++;
            cr_assert(strncmp(line, "gemm,01,cpu_", 12) == 0, "row: %s", line);
            cr_assert(strstr(line, ",PASS,") != NULL, "row: %s", line);
        }
    }
    fclose(f);
    cr_assert_geq(meta, 15, "metadata lines: %d", meta);
    cr_assert_eq(rows, 4);
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    cr_assert_neq(access(tmp, F_OK), 0, "temporary records file left behind");
    unlink(path);
}

/* Known-wrong submissions of lab 01 (tests/wrong/manifest.tsv): each must fail with the message
 * for its bug. */
ParameterizedTestParameters(lab01_wrong, is_rejected_with_the_message_for_its_bug)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "01", rows, why, sizeof why);
    if (n < 0) {
        fprintf(stderr, "test_lab01: %s\n", why);
        n = 0;      /* no parameters: the test below that counts the rows fails */
    }
    return cr_make_param_array(wrong_row, rows, (size_t)n);
}

ParameterizedTest(wrong_row *c, lab01_wrong, is_rejected_with_the_message_for_its_bug, .timeout = 120)
{
    char bin[1024], args[256];
    snprintf(bin, sizeof bin, "%s/%s", TL_BUILD_ROOT, c->program);
    snprintf(args, sizeof args, "%s", c->args);
    char *argv[16];
    int argc = 0;
    argv[argc++] = bin;
    for (char *save = NULL, *a = strtok_r(args, " ", &save); a && argc < 15; a = strtok_r(NULL, " ", &save))
        argv[argc++] = a;
    argv[argc] = NULL;
    run_result r;
    cr_assert_eq(run_capture(argv, &r), 0, "cannot start %s (is it built? tests/wrong/meson.build)", bin);
    cr_assert_eq(r.exit_code, 1, "%s %s exited %d, expected 1; it printed:\n%s", c->file, c->args, r.exit_code, r.out);
    int named = 0;
    for (int i = 0; i < c->nexpect && !named; ++i)
        named = strstr(r.out, c->expect[i]) != NULL;
    cr_assert(named, "%s did not say '%s'; it printed:\n%s", c->file, c->expect[0], r.out);
    run_free(&r);
}

Test(lab01_wrong, the_manifest_lists_every_lab01_bug, .timeout = 10)
{
    static wrong_row rows[WRONG_MAX_ROWS];
    char why[300];
    int n = wrong_manifest_load(TL_WRONG_MANIFEST, "01", rows, why, sizeof why);
    cr_assert_geq(n, 0, "%s", why);
    cr_assert_geq(n, 4, "tests/wrong/manifest.tsv lists %d lab 01 bugs; the four classic ones are expected", n);
}

/* ---- the --serve channel's "same" request (CONTRACTS.md section 2): a speed test's window asks
 * again for the inputs its program holds, and nothing crosses the pipe but the line. Driven here
 * on lab 01's CPU program (the kit's driver is the GPU labs' too) and lab 03's emulated one. */
typedef struct serve { pid_t pid; FILE *to, *from; } serve;

static void serve_start(serve *s, const char *bin)
{
    int a[2], b[2];
    cr_assert_eq(pipe2(a, O_CLOEXEC), 0);   /* (the program holds only its own ends: it sees EOF) */
    cr_assert_eq(pipe2(b, O_CLOEXEC), 0);
    signal(SIGPIPE, SIG_IGN);
    s->pid = fork();
    cr_assert_geq(s->pid, 0);
    if (s->pid == 0) {
        int ra = dup(a[0]), wb = dup(b[1]);   /* (out of the way of 3 and 4 first) */
        dup2(ra, 3);
        dup2(wb, 4);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(bin, bin, "--serve", (char *)NULL);
        _exit(127);
    }
    close(a[0]);
    close(b[1]);
    s->to = fdopen(a[1], "wb");
    s->from = fdopen(b[0], "rb");
    cr_assert(s->to && s->from);
}

static int serve_end(serve *s)
{
    fclose(s->to);
    fclose(s->from);
    int st = 0;
    waitpid(s->pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* a matrix file (CONTRACTS.md section 3), written by the kit's own writer */
static void put_matrix(FILE *f, int rows, int cols, const float *v)
{
    tl_matrix A;
    char err[300];
    cr_assert_eq(tl_matrix_alloc(&A, "M", rows, cols), 0);
    memcpy(A.data, v, sizeof(float) * (size_t)rows * (size_t)cols);
    cr_assert_eq(tl_matfile_fwrite(f, &A, "a request's input", err, sizeof err), 0, "%s", err);
    tl_matrix_free(&A);
}

static void answer(serve *s, int m, int n, char *line, size_t len, float *P);

/* One request; its answer's first line in line, its P (m x n) in P when the answer is "ok". */
static void request(serve *s, const char *variant, int m, int k, int n, int same, const float *M, const float *N,
                    char *line, size_t len, float *P)
{
    fprintf(s->to, "case %s %d %d %d 0%s\n", variant, m, k, n, same ? " same" : "");
    if (!same) {
        put_matrix(s->to, m, k, M);
        put_matrix(s->to, k, n, N);
    }
    cr_assert_eq(fflush(s->to), 0, "the program stopped reading its requests");
    answer(s, m, n, line, len, P);
}

static void answer(serve *s, int m, int n, char *line, size_t len, float *P)
{
    cr_assert(fgets(line, (int)len, s->from), "the program ended without answering");
    if (strncmp(line, "ok", 2) == 0) {
        tl_matrix A;
        char err[300];
        cr_assert_eq(tl_matfile_fread(s->from, &A, 1, "P (the answer)", err, sizeof err), 0, "%s", err);
        cr_assert(A.rows == m && A.cols == n, "an answer of %d x %d for %d x %d", A.rows, A.cols, m, n);
        memcpy(P, A.data, sizeof(float) * (size_t)m * (size_t)n);
        tl_matrix_free(&A);
    }
}

Test(lab01, a_same_request_multiplies_the_inputs_of_the_last_request_and_sends_none, .timeout = 60)
{
    enum { W = 8 };
    float M[W * W], N[W * W], N2[W * W], P1[W * W], P2[W * W], P3[W * W], P4[W * W];
    for (int i = 0; i < W * W; ++i) {   /* small integers: every product exact */
        M[i] = (float)(i % 5 - 2);
        N[i] = (float)(i % 3 - 1);
        N2[i] = (float)(i % 7 - 3);
    }
    serve s;
    char line[512];
    serve_start(&s, LAB01_REF);
    request(&s, "cpu_ijk", W, W, W, 1, M, N, line, sizeof line, P1);
    cr_assert(strstr(line, "error") == line && strstr(line, "no inputs of these dimensions kept"),
              "a first request that says same: %s", line);
    request(&s, "cpu_ijk", W, W, W, 0, M, N, line, sizeof line, P1);
    cr_assert_str_eq(line, "ok -\n");
    request(&s, "cpu_ikj", W, W, W, 1, NULL, NULL, line, sizeof line, P2);
    cr_assert_str_eq(line, "ok -\n", "same, after a request that sent %dx%d inputs: %s", W, W, line);
    cr_assert_eq(memcmp(P1, P2, sizeof P1), 0, "same did not multiply the last request's inputs");
    request(&s, "cpu_ijk", W, W, W, 0, M, N2, line, sizeof line, P3);   /* new inputs replace the kept */
    cr_assert_neq(memcmp(P1, P3, sizeof P1), 0);
    request(&s, "cpu_ijk", W, W, W, 1, NULL, NULL, line, sizeof line, P4);
    cr_assert_str_eq(line, "ok -\n");
    cr_assert_eq(memcmp(P3, P4, sizeof P3), 0, "same multiplied older inputs than the last request's");
    request(&s, "cpu_ijk", W, W / 2, W, 1, NULL, NULL, line, sizeof line, P4);   /* other dimensions */
    cr_assert(strstr(line, "error") == line && strstr(line, "no inputs of these dimensions kept"), "%s", line);
    request(&s, "cpu_ijk", W, W, W, 1, NULL, NULL, line, sizeof line, P4);   /* the session goes on */
    cr_assert_str_eq(line, "ok -\n");
    cr_assert_eq(memcmp(P3, P4, sizeof P3), 0);
    fputs("case cpu_ijk 8 8 8 0 again\n", s.to);   /* anything else after TIMED: malformed */
    fflush(s.to);
    answer(&s, 0, 0, line, sizeof line, NULL);
    cr_assert_str_eq(line, "error malformed request\n");
    cr_assert_eq(serve_end(&s), 2);
}

Test(lab01, an_emulated_program_keeps_no_inputs_for_a_same_request, .timeout = 60)
{
    char bin[1024];
    snprintf(bin, sizeof bin, "%s/labs/emulated/lab03-ref-emu", TL_BUILD_ROOT);
    if (access(bin, X_OK) != 0)
        cr_skip_test("%s is not built here (no emulator in this build)", bin);
    enum { W = 16 };
    float M[W * W], N[W * W], P[W * W];
    for (int i = 0; i < W * W; ++i)
        M[i] = (float)(i % 5 - 2), N[i] = (float)(i % 3 - 1);
    serve s;
    char line[512];
    serve_start(&s, bin);
    request(&s, "tiled16", W, W, W, 0, M, N, line, sizeof line, P);
    cr_assert(strncmp(line, "ok -", 4) == 0, "%s", line);   /* (with the emulator's work counts) */
    request(&s, "tiled16", W, W, W, 1, NULL, NULL, line, sizeof line, P);
    cr_assert(strstr(line, "error") == line && strstr(line, "an emulated program keeps no inputs"), "%s", line);
    cr_assert_eq(serve_end(&s), 0);
}
