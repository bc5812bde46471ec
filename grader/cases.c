/* cases.c: the grader's cases and inputs: public sizes, hidden sizes drawn from the secret seed,
 * the inputs and double-precision references made once per run, and the seed itself. */
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

double tg_round2(double v)
{
    return floor(v * 100.0 + 0.5) / 100.0;
}

uint64_t tg_mix64(uint64_t x)
{   /* splitmix64's finaliser */
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* ------------------------------------------------------------------ cases */

int tg_add_size(grun *R, int m, int k, int n, int hidden)
{
    for (int i = 0; i < R->run.nsizes; ++i)
        if (R->run.sizes[i].m == m && R->run.sizes[i].k == k && R->run.sizes[i].n == n) {
            if (hidden == 0)
                R->run.sizes[i].hidden = 0;
            return i;
        }
    if (R->run.nsizes == (int)(sizeof R->run.sizes / sizeof R->run.sizes[0]))
        return -1;
    gsize *s = &R->run.sizes[R->run.nsizes];
    memset(s, 0, sizeof *s);
    s->m = m; s->k = k; s->n = n; s->hidden = hidden;
    s->bf16 = R->lab && R->lab->inputs_bf16;
    s->seed = tg_mix64(R->run.seed ^ tg_mix64(((uint64_t)m << 42) ^ ((uint64_t)k << 21) ^ (uint64_t)n));
    return R->run.nsizes++;
}

static int draw(tl_rng *r, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int)(tl_rng_next(r) % (uint32_t)(hi - lo + 1));
}

/* Hidden sizes from the secret seed: for ragged labs the first is small and odd, the second
 * one past a multiple of 64 (a last block of one element), the rest anywhere in the range. */
void tg_make_hidden_sizes(grun *R)
{
    const tl_lab_info *L = R->lab;
    tl_rng r;
    tl_rng_seed(&r, R->run.seed, 0x7117 + (uint64_t)atoi(L->id));
    for (int i = 0, tries = 0; i < L->hidden_count && tries < 1000; ++tries) {
        int v = draw(&r, L->hidden_min, L->hidden_max);
        if (L->hidden_multiple > 0 && i == 0)      /* one small one: it runs under emulation too */
            v = draw(&r, L->hidden_min, L->hidden_max < 480 ? L->hidden_max : 480);
        if (L->hidden_multiple > 0) {
            v = (v + L->hidden_multiple - 1) / L->hidden_multiple * L->hidden_multiple;
            if (v > L->hidden_max)
                v -= L->hidden_multiple;
        } else if (L->hidden_ragged && i == 0) {
            v = 3 + 2 * draw(&r, 0, 29);
        } else if (L->hidden_ragged && i == 1) {
            v = 64 * draw(&r, 1, L->hidden_max / 64 - 1) + 1;
        }
        int before = R->run.nsizes;
        int idx = tg_add_size(R, v, v, v, 1);
        if (idx >= before)
            ++i;
    }
    if (L->hidden_rect) {
        /* Rectangular m x k x n: a row vector (m 1), a column (n 1), k 1 (an outer product),
         * tall and skinny, wide and flat, then any shape; each dimension off the tile grid. */
        int half = L->hidden_max / 2;
        for (int i = 0, tries = 0; i < L->hidden_count + 2 && tries < 1000; ++tries) {
            int m = draw(&r, L->hidden_min, half), k = draw(&r, L->hidden_min, half), n = draw(&r, L->hidden_min, half);
            switch (i) {
            case 0: m = 1; break;
            case 1: n = 1; break;
            case 2: k = 1; break;
            case 3: m = draw(&r, 1000, 2 * half); k = draw(&r, 2, 40); n = draw(&r, 1, 9); break;
            case 4: m = draw(&r, 1, 9); k = draw(&r, 2, 40); n = draw(&r, 1000, 2 * half); break;
            default:
                if (m == k || k == n || m == n)
                    continue;
            }
            int before = R->run.nsizes;
            if (tg_add_size(R, m, k, n, 1) >= before)
                ++i;
        }
    }
}

int tg_prepare_size(gsize *s, char *err, size_t errlen)
{
    if (s->payload)
        return 0;
    if (tl_matrix_alloc(&s->M, "M", s->m, s->k) || tl_matrix_alloc(&s->N, "N", s->k, s->n)) {
        snprintf(err, errlen, "out of memory for the inputs of %dx%dx%d", s->m, s->k, s->n);
        return -1;
    }
    tl_matrix_fill_random(&s->M, s->seed, 1);
    tl_matrix_fill_random(&s->N, s->seed, 2);
    if (s->bf16) {
        tl_matrix_round_bf16(&s->M);
        tl_matrix_round_bf16(&s->N);
    }
    size_t cnt = (size_t)s->m * s->n;
    s->ref = malloc(cnt * sizeof(double));
    s->absref = malloc(cnt * sizeof(double));
    if (!s->ref || !s->absref) {
        snprintf(err, errlen, "out of memory for the reference of %dx%dx%d", s->m, s->k, s->n);
        return -1;
    }
    /* Large products on the GPU when this build and host have one (same bits as the CPU's),
     * in this process, before any student's program runs; otherwise on the host's cores. */
    if ((double)s->m * s->k * s->n < TL_REF_GPU_WORK ||
        tl_reference_gemm_gpu(s->M.data, s->N.data, s->ref, s->absref, s->m, s->k, s->n, NULL, 0) != 0)
        tl_reference_gemm(s->M.data, s->N.data, s->ref, s->absref, s->m, s->k, s->n);
    FILE *f = open_memstream(&s->payload, &s->payload_len);
    if (!f || tl_matfile_fwrite(f, &s->M, "M", err, errlen) || tl_matfile_fwrite(f, &s->N, "N", err, errlen)) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

int tg_variant_accepts(const tl_lab_variant *v, const gsize *s)
{
    if (v->square_only && !(s->m == s->k && s->k == s->n))
        return 0;
    if (v->multiple_of > 0 && (s->m % v->multiple_of || s->k % v->multiple_of || s->n % v->multiple_of))
        return 0;
    return 1;
}

void tg_size_str(char *b, size_t l, const gsize *s)
{
    if (s->m == s->k && s->k == s->n)
        snprintf(b, l, "%d", s->m);
    else
        snprintf(b, l, "%dx%dx%d", s->m, s->k, s->n);
}

int tg_read_seed(const char *path, uint64_t *seed, char *err, size_t errlen)
{
    size_t len;
    char *s = tg_read_file(path, 4096, &len);
    if (!s) {
        snprintf(err, errlen, "cannot read the secret '%s' (%s)", path, strerror(errno));
        return -1;
    }
    char *p = s;
    while (*p && isspace((unsigned char)*p))
        ++p;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 0);
    if (errno || end == p) {
        /* Not a number: hash the whole file (any secret text works as a seed). */
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < len; ++i)
            h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
        v = h;
        if (len == 0) {
            free(s);
            snprintf(err, errlen, "the secret '%s' is empty: put a seed (a number or any text) in it", path);
            return -1;
        }
    }
    free(s);
    *seed = v;
    return 0;
}

int tg_state_seed(grun *R, const char *secret, char *err, size_t errlen)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/seed", R->run.state);
    if (secret)
        return tg_read_seed(secret, &R->run.seed, err, errlen);
    if (R->opt->check && !R->opt->random_seed) {
        R->run.seed = TL_DEFAULT_SEED;    /* kit check: the public cases, reproducibly */
        return 0;
    }
    if (tg_is_file(p))
        return tg_read_seed(p, &R->run.seed, err, errlen);
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &R->run.seed, sizeof R->run.seed) != (ssize_t)sizeof R->run.seed) {
        snprintf(err, errlen, "cannot read /dev/urandom for a seed; give one with --secret FILE");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    char line[64];
    int n = snprintf(line, sizeof line, "%llu\n", (unsigned long long)R->run.seed);
    if (tg_write_atomic(p, line, (size_t)n) != 0) {
        snprintf(err, errlen, "cannot write '%s' (%s)", p, strerror(errno));
        return -1;
    }
    chmod(p, 0600);
    return 0;
}
