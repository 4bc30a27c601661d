/* sfu.c — the special-function unit's models (sim/sfu.h) per call on the host, beside
 * the correctly rounded double-precision expressions the simulator used before: ns per
 * call over 2^22 inputs spread over each form's range, the median of BENCH_RUNS runs
 * (default 3; BENCH_QUICK=1: 1), after one run that inflates the tables. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/spread.h"
#include "sim/sfu.h"

#include <math.h>

enum { CALLS = 1 << 22, MAX_RUNS = 15 };

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The expressions the simulator computed before (sim/ptx/ptx_ops.def). */
static float old_rcp(float x, int ftz)
{
    (void)ftz;
    return 1.0f / x;
}
static float old_rsqrt(float x, int ftz)
{
    (void)ftz;
    return (float)(1.0 / sqrt((double)x));
}
static float old_sqrt(float x, int ftz)
{
    (void)ftz;
    return sqrtf(x);
}
static float old_ex2(float x, int ftz)
{
    (void)ftz;
    return (float)exp2((double)x);
}

typedef struct form {
    const char *name;
    float (*model)(float, int);
    float (*before)(float, int);
    uint32_t lo, hi; /* the inputs' bits: CALLS of them evenly over [lo, hi) */
} form;

static const form forms[] = {
    {"rcp.approx.ftz.f32", sfu_rcp, old_rcp, 0x00800000u, 0x7f000000u},
    {"rsqrt.approx.ftz.f32", sfu_rsqrt, old_rsqrt, 0x00800000u, 0x7f000000u},
    {"sqrt.approx.ftz.f32", sfu_sqrt, old_sqrt, 0x00800000u, 0x7f000000u},
    {"ex2.approx.ftz.f32", sfu_ex2, old_ex2, 0x80000000u, 0xc3000000u}, /* 0 to -128 */
};

static volatile float sink;

/* ns per call of f over the form's inputs. */
static double time_calls(const form *fm, float (*f)(float, int))
{
    const uint32_t step = (fm->hi - fm->lo) / CALLS;
    float acc = 0.0f;
    const double t0 = wall_s();
    for (uint32_t i = 0; i < CALLS; i++)
        acc += f(as_float(fm->lo + i * step), 1);
    const double t = wall_s() - t0;
    sink = acc;
    return t * 1e9 / CALLS;
}

int main(void)
{
    int runs = 3;
    const char *quick = getenv("BENCH_QUICK"), *env = getenv("BENCH_RUNS");
    if (quick && *quick && strcmp(quick, "0") != 0)
        runs = 1;
    if (env && *env) {
        const int n = atoi(env);
        if (n < 1 || n > MAX_RUNS) {
            fprintf(stderr, "bench/sfu: BENCH_RUNS=%s: a number of runs from 1 to %d\n", env,
                    MAX_RUNS);
            return 2;
        }
        runs = n;
    }
    printf("special-function unit models (sim/sfu.h), ns per call on this host, median of "
           "%d runs:\n",
           runs);
    printf("  %-22s %10s %10s %8s\n", "form", "model", "before", "ratio");
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        const form *fm = &forms[k];
        time_calls(fm, fm->model); /* inflates the table */
        double m[MAX_RUNS], b[MAX_RUNS];
        for (int r = 0; r < runs; r++) {
            m[r] = time_calls(fm, fm->model);
            b[r] = time_calls(fm, fm->before);
        }
        const spread sm = spread_of(m, runs), sb = spread_of(b, runs);
        printf("  %-22s %8.2f ns %8.2f ns %7.2fx\n", fm->name, sm.med, sb.med, sm.med / sb.med);
    }
    return 0;
}
