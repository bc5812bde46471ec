/* timing.c: the host clock and order statistics. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

#include "tilelab.h"

double tl_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void tl_stats_from(tl_stats *s, double *ms, int n)
{
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    s->reps = n;
    s->min_ms = ms[0];
    s->max_ms = ms[n - 1];
    s->median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

double tl_gflops(int m, int k, int n, double ms)
{
    return 2.0 * (double)m * (double)k * (double)n / (ms * 1e6);
}
