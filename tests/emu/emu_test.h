/* emu_test.h: what the emulation-mode tests share: inputs, a double-precision reference, a checker,
 * and running a piece of code in a child process to capture its stderr and exit status. */
#ifndef TL_EMU_TEST_H
#define TL_EMU_TEST_H

#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Seeded values in [-1, 1], never constant, never symmetric (as the harness makes them). */
static inline void fill_random(float *a, size_t n, unsigned seed) {
    unsigned long long x = seed * 0x9E3779B97F4A7C15ull + 12345;
    for (size_t i = 0; i < n; i++) {
        x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
        a[i] = (float)((double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
}

/* Number of elements of P (Width x Width) outside |P - ref| <= 2 k u (|M||N|)ij + 1e-30; NaN fails. */
static inline int count_wrong(const float *M, const float *N, const float *P, int w, int *first_r, int *first_c) {
    int bad = 0;
    for (int i = 0; i < w; i++)
        for (int j = 0; j < w; j++) {
            double s = 0, a = 0;
            for (int k = 0; k < w; k++) {
                s += (double)M[i * w + k] * N[k * w + j];
                a += fabs((double)M[i * w + k] * N[k * w + j]);
            }
            double bound = 2.0 * w * (1.0 / 16777216.0) * a + 1e-30, p = P[i * w + j];
            if (!(fabs(p - s) <= bound)) {
                if (bad++ == 0 && first_r) { *first_r = i; *first_c = j; }
            }
        }
    return bad;
}

typedef cudaError_t (*launcher_fn)(float *, float *, float *, int);

/* Multiplies seeded Width x Width matrices through launch; returns the wrong elements (or -1 when a
 * CUDA call fails, with err set). The output starts as NaN so that unwritten elements fail. */
static inline int run_gemm(launcher_fn launch, int w, unsigned seed, cudaError_t *err) {
    size_t n = (size_t)w * w, bytes = n * sizeof(float);
    float *M = malloc(bytes), *N = malloc(bytes), *P = malloc(bytes);
    fill_random(M, n, seed);
    fill_random(N, n, seed + 1);
    for (size_t i = 0; i < n; i++) P[i] = NAN;
    float *d_M, *d_N, *d_P;
    int wrong = -1;
    *err = cudaMalloc((void **)&d_M, bytes);
    if (!*err) *err = cudaMalloc((void **)&d_N, bytes);
    if (!*err) *err = cudaMalloc((void **)&d_P, bytes);
    if (!*err) *err = cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice);
    if (!*err) *err = cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice);
    if (!*err) *err = cudaMemcpy(d_P, P, bytes, cudaMemcpyHostToDevice);
    if (!*err) *err = launch(d_M, d_N, d_P, w);
    if (!*err) *err = cudaDeviceSynchronize();
    if (!*err) *err = cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost);
    if (!*err) wrong = count_wrong(M, N, P, w, NULL, NULL);
    if (!*err) { cudaFree(d_M); cudaFree(d_N); cudaFree(d_P); }
    free(M); free(N); free(P);
    return wrong;
}

typedef struct {
    int exited, code, signaled, sig;
    char err[65536];
} child_result;

/* Runs fn(arg) in a child process with stderr captured; fn's return value is the exit code. */
static inline void run_child(int (*fn)(void *), void *arg, child_result *r) {
    int p[2];
    memset(r, 0, sizeof *r);
    cr_assert_eq(pipe(p), 0, "pipe failed");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork failed");
    if (pid == 0) {
        dup2(p[1], 2);
        close(p[0]);
        int code = fn(arg);
        fflush(stderr);
        _exit(code);
    }
    close(p[1]);
    size_t len = 0;
    ssize_t got;
    while ((got = read(p[0], r->err + len, sizeof r->err - 1 - len)) > 0) len += (size_t)got;
    r->err[len] = 0;
    close(p[0]);
    int st;
    waitpid(pid, &st, 0);
    r->exited = WIFEXITED(st);
    r->code = r->exited ? WEXITSTATUS(st) : -1;
    r->signaled = WIFSIGNALED(st);
    r->sig = r->signaled ? WTERMSIG(st) : 0;
}

/* Asserts that text holds needle, showing the text when it does not. */
#define assert_has(text, needle) \
    cr_assert(strstr((text), (needle)) != NULL, "expected to find\n  %s\nin\n%s", (needle), (text))
#define assert_lacks(text, needle) \
    cr_assert(strstr((text), (needle)) == NULL, "did not expect\n  %s\nin\n%s", (needle), (text))

/* A launch that must fail: runs the launcher on Width x Width inputs in a child and reports on stderr
 * what the harness would see: the launcher's error, cudaDeviceSynchronize's, and the first diagnostic. */
typedef struct { launcher_fn launch; int width; } bad_case;
static inline int run_bad_case(void *arg) {
    const bad_case *c = arg;
    cudaError_t err;
    int wrong = run_gemm(c->launch, c->width, 7, &err);
    char first[4096];
    int n = tl_emu_last_diagnostic(first, sizeof first);
    fprintf(stderr, "RESULT launch=%s sync=%s wrong=%d diag_len=%d\nFIRST %s", cudaGetErrorName(err),
            cudaGetErrorName(cudaDeviceSynchronize()), wrong, n, first);
    /* Each case judged alone: after tl_emu_recover the device works again and the kernel runs anew
     * (its diagnostic comes back, not a leftover error). */
    tl_emu_recover();
    void *probe = NULL;
    cudaError_t m = cudaMalloc(&probe, 64), last = cudaGetLastError();
    cudaFree(probe);
    int again = run_gemm(c->launch, c->width, 8, &err);
    fprintf(stderr, "\nAFTER recover: malloc=%s last=%s; again launch=%s wrong=%d diag_len=%d\n", cudaGetErrorName(m),
            cudaGetErrorName(last), cudaGetErrorName(err), again, tl_emu_last_diagnostic(NULL, 0));
    return 0;
}

#endif
