/* sfu.c — the special-function unit's models (sim/sfu.h) per call on the host, beside
 * the correctly rounded double-precision expressions the simulator used before: ns per
 * call over 2^22 inputs spread over each form's range (the half forms: every input,
 * 64 times), the median of BENCH_RUNS runs
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
static float old_lg2(float x, int ftz)
{
    (void)ftz;
    return (float)log2((double)x);
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
    {"lg2.approx.ftz.f32", sfu_lg2, old_lg2, 0x00800000u, 0x7f800000u},
};

/* The half forms: each model beside what the simulator computed before (the f32
 * expression in double, rounded to nearest into the half format). */
static float half_value(unsigned short h, int bf)
{
    if (bf)
        return as_float((uint32_t)h << 16);
    const unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const float v = e == 0    ? (float)m * 0x1p-24f
                    : e == 31 ? (m ? NAN : INFINITY)
                              : ldexpf((float)(m | 0x400), (int)e - 25);
    return h & 0x8000 ? -v : v;
}
static unsigned short half_rounded(double v, int bf)
{
    if (bf) {
        uint32_t u;
        const float f = (float)v;
        memcpy(&u, &f, 4);
        return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
    }
    const unsigned short s = signbit(v) ? 0x8000 : 0;
    v = fabs(v);
    if (v != v)
        return 0x7fff;
    if (v >= 65520.0)
        return s | 0x7c00;
    if (v < 0x1p-14)
        return (unsigned short)(s | (unsigned)nearbyint(v * 0x1p24));
    int e;
    frexp(v, &e);
    const unsigned q = (unsigned)nearbyint(ldexp(v, 11 - e)); /* 1024 .. 2048 */
    return (unsigned short)(s | (((unsigned)(e + 14) << 10) + (q - 1024)));
}
static unsigned short old_ex2_f16(unsigned short a)
{
    return half_rounded(exp2((double)half_value(a, 0)), 0);
}
static unsigned short old_ex2_bf16(unsigned short a)
{
    return half_rounded(exp2((double)half_value(a, 1)), 1);
}
static unsigned short old_tanh_f16(unsigned short a)
{
    return half_rounded(tanh((double)half_value(a, 0)), 0);
}
static unsigned short old_tanh_bf16(unsigned short a)
{
    return half_rounded(tanh((double)half_value(a, 1)), 1);
}

typedef struct half_form {
    const char *name;
    unsigned short (*model)(unsigned short), (*before)(unsigned short);
} half_form;

static const half_form half_forms[] = {
    {"ex2.approx.f16", sfu_ex2_f16, old_ex2_f16},
    {"ex2.approx.ftz.bf16", sfu_ex2_bf16, old_ex2_bf16},
    {"tanh.approx.f16", sfu_tanh_f16, old_tanh_f16},
    {"tanh.approx.bf16", sfu_tanh_bf16, old_tanh_bf16},
};

static volatile unsigned half_sink;

/* ns per call of f over every input, CALLS calls. */
static double time_half(unsigned short (*f)(unsigned short))
{
    unsigned acc = 0;
    const double t0 = wall_s();
    for (uint32_t i = 0; i < CALLS; i++)
        acc += f((unsigned short)(i * 40503u)); /* every input, scattered */
    const double t = wall_s() - t0;
    half_sink = acc;
    return t * 1e9 / CALLS;
}

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
    for (size_t k = 0; k < sizeof half_forms / sizeof half_forms[0]; k++) {
        const half_form *fm = &half_forms[k];
        time_half(fm->model); /* inflates the table */
        double m[MAX_RUNS], b[MAX_RUNS];
        for (int r = 0; r < runs; r++) {
            m[r] = time_half(fm->model);
            b[r] = time_half(fm->before);
        }
        const spread sm = spread_of(m, runs), sb = spread_of(b, runs);
        printf("  %-22s %8.2f ns %8.2f ns %7.2fx\n", fm->name, sm.med, sb.med, sm.med / sb.med);
    }
    return 0;
}
