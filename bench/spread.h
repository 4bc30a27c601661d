/* spread.h — what the benchmarks (bench/bench.c, cli.c, lessons.c, programs.c) share:
 * the wall clock and a figure's median, min and max over runs. */
#ifndef GL_BENCH_SPREAD_H
#define GL_BENCH_SPREAD_H

#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int spread_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A figure over the runs: median, min and max. */
typedef struct spread {
    double med, min, max;
} spread;

/* Sorts v[n] (n >= 1) and returns its median, min and max. */
static inline spread spread_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, spread_cmp_double);
    spread s = {n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]), v[0], v[n - 1]};
    return s;
}

#endif
