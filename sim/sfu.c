/* sfu.c — the special-function unit's .approx results as an sm_90 GPU gives them (sfu.h). */
#include "sim/sfu.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ------------------------------------------------------------------ the tables */

/* The tables, zlib streams written by tools/sfu_tables.c into sim/sfu/ and linked in
 * whole (the assembler's .incbin; the Makefile makes this object depend on them): the
 * f32 tables' corrections, 2 bits per entry (correction + 2, entry k in bits 2 (k % 4)
 * of byte k / 4); the half tables' results, each as its step from the one before (one
 * byte, the first from 0). */
#define SFU_BLOB(name, file)                                                                       \
    __asm__(".section .rodata\n"                                                                   \
            ".global sfu_blob_" #name "\n"                                                         \
            ".type sfu_blob_" #name ", @object\n"                                                  \
            ".balign 16\n"                                                                         \
            "sfu_blob_" #name ":\n"                                                                \
            ".incbin \"" file "\"\n"                                                               \
            ".global sfu_blob_" #name "_end\n"                                                     \
            "sfu_blob_" #name "_end:\n"                                                            \
            ".previous\n");                                                                        \
    extern const unsigned char sfu_blob_##name[], sfu_blob_##name##_end[];
SFU_BLOB(rcp, "sim/sfu/rcp.z")
SFU_BLOB(rsqrt, "sim/sfu/rsqrt.z")
SFU_BLOB(sqrt, "sim/sfu/sqrt.z")
SFU_BLOB(ex2, "sim/sfu/ex2.z")
SFU_BLOB(tanh_f16, "sim/sfu/tanh_f16.z")
SFU_BLOB(tanh_bf16, "sim/sfu/tanh_bf16.z")

typedef struct sfu_table {
    const char *name;
    unsigned size; /* entries */
    const unsigned char *blob, *blob_end;
    unsigned char *packed; /* size / 4 bytes once inflated; NULL: damaged (corrections 0) */
    pthread_once_t once;
} sfu_table;

static sfu_table tables[SFU_NTABLES] = {
    [SFU_RCP] = {"rcp", 1u << 23, sfu_blob_rcp, sfu_blob_rcp_end, NULL, PTHREAD_ONCE_INIT},
    [SFU_RSQRT] = {"rsqrt", 1u << 24, sfu_blob_rsqrt, sfu_blob_rsqrt_end, NULL, PTHREAD_ONCE_INIT},
    [SFU_SQRT] = {"sqrt", 1u << 24, sfu_blob_sqrt, sfu_blob_sqrt_end, NULL, PTHREAD_ONCE_INIT},
    [SFU_EX2] = {"ex2", 1u << 23, sfu_blob_ex2, sfu_blob_ex2_end, NULL, PTHREAD_ONCE_INIT},
};

/* Inflates table t's corrections (once). */
#define INFLATE(id)                                                                                \
    static void inflate_##id(void)                                                                 \
    {                                                                                              \
        inflate_table(&tables[id]);                                                                \
    }
static void inflate_table(sfu_table *t)
{
    const size_t want = t->size / 4;
    unsigned char *p = malloc(want);
    uLongf got = (uLongf)want;
    if (p && uncompress(p, &got, t->blob, (uLong)(t->blob_end - t->blob)) == Z_OK && got == want) {
        t->packed = p;
        return;
    }
    free(p);
    fprintf(stderr,
            "gpulearn: the simulator's %s.approx table (sim/sfu/%s.z) is damaged; its results "
            "may differ from the GPU's by an ulp (rebuild gpulearn)\n",
            t->name, t->name);
}
INFLATE(SFU_RCP)
INFLATE(SFU_RSQRT)
INFLATE(SFU_SQRT)
INFLATE(SFU_EX2)
static void (*const inflaters[SFU_NTABLES])(void) = {inflate_SFU_RCP, inflate_SFU_RSQRT,
                                                     inflate_SFU_SQRT, inflate_SFU_EX2};

unsigned sfu_table_size(sfu_table_id t)
{
    return tables[t].size;
}

static inline uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* 2^(h/256) for h < 256, in double, made once (pthread_once): the Taylor series of
 * e^(y ln 2) to 22 terms by Horner's rule, one IEEE operation per statement (no
 * contraction into fma), so every machine computes the same bits. */
static double exp2_steps[256];
static pthread_once_t exp2_steps_once = PTHREAD_ONCE_INIT;
static double exp2_series(double f)
{
    const double y = f * 0x1.62e42fefa39efp-1; /* ln 2 */
    double s = 1.0;
    for (int n = 22; n >= 1; n--) {
        double t = y / (double)n;
        t = t * s;
        s = 1.0 + t;
    }
    return s;
}
static void make_exp2_steps(void)
{
    for (int h = 0; h < 256; h++)
        exp2_steps[h] = exp2_series((double)h / 256.0);
}

/* 2^f for f = k 2^-23 in [0, 1): 2^(h/256) times 2^r for the rest r < 2^-8 (its series
 * to the 6th power, error under 2^-60), with IEEE double operations only (as above):
 * within 2^-50 of 2^f, far below an f32 ulp. */
static double exp2_fraction(unsigned k)
{
    pthread_once(&exp2_steps_once, make_exp2_steps);
    const double y = (double)(k & 0x7fffu) * 0x1p-23 * 0x1.62e42fefa39efp-1;
    double s = 1.0 + y / 6.0;
    s = 1.0 + (y / 5.0) * s;
    s = 1.0 + (y / 4.0) * s;
    s = 1.0 + (y / 3.0) * s;
    s = 1.0 + (y / 2.0) * s;
    s = 1.0 + y * s;
    const double r = exp2_steps[k >> 15] * s;
    return r;
}

unsigned sfu_table_reference(sfu_table_id t, unsigned k)
{
    switch (t) {
    case SFU_RCP: return bits_of((float)(1.0 / (1.0 + (double)k * 0x1p-23)));
    case SFU_RSQRT: return bits_of((float)(1.0 / sqrt((double)float_of(0x3f800000u + k))));
    case SFU_SQRT: return bits_of((float)sqrt((double)float_of(0x3f800000u + k)));
    case SFU_EX2: return bits_of((float)exp2_fraction(k));
    default: return 0;
    }
}

unsigned sfu_table_entry(sfu_table_id t, unsigned k)
{
    sfu_table *tb = &tables[t];
    pthread_once(&tb->once, inflaters[t]);
    const unsigned ref = sfu_table_reference(t, k);
    if (!tb->packed)
        return ref;
    const int corr = (int)((tb->packed[k >> 2] >> (2 * (k & 3))) & 3) - 2;
    return (unsigned)((int)ref + corr);
}

/* ------------------------------------------------------------------ the unit (MUFU) */

#define CANONICAL_NAN 0x7fffffffu
#define ABS(u) ((u)&0x7fffffffu)
#define SIGN(u) ((u)&0x80000000u)
#define IS_NAN(u) (ABS(u) > 0x7f800000u)

/* The unit itself, as the .ftz forms use it: a subnormal input is a signed zero, a
 * subnormal result is flushed to a signed zero. rcp and rsqrt serve two formats: f32,
 * and the high word of an f64 (MUFU.RCP64H, MUFU.RSQ64H), whose top 20 mantissa bits
 * index the f32 tables (m << 3) and take their entries' top 20 bits. */
typedef struct unit_format {
    int mbits;    /* mantissa bits: 23, or 20 in an f64's high word */
    int bias;     /* exponent bias: 127, 1023 */
    uint32_t inf; /* an infinity's bits (without the sign) */
} unit_format;
static const unit_format F32 = {23, 127, 0x7f800000u}, F64_HIGH = {20, 1023, 0x7ff00000u};

static uint32_t mufu_rcp(uint32_t x, const unit_format *f)
{
    const uint32_t a = ABS(x), s = SIGN(x);
    if (a > f->inf)
        return CANONICAL_NAN;
    if (a < 1u << f->mbits) /* zero or subnormal */
        return s | f->inf;
    if (a == f->inf)
        return s;
    const int shift = 23 - f->mbits;
    const uint32_t t = sfu_table_entry(SFU_RCP, (a & ((1u << f->mbits) - 1)) << shift);
    const int e = (int)(t >> 23) - 127 - ((int)(a >> f->mbits) - f->bias) + f->bias;
    return e <= 0 ? s : s | (uint32_t)e << f->mbits | (t & 0x7fffffu) >> shift;
}

/* rsqrt (rs = 1) or sqrt (rs = 0) of a positive normal a: the table entry of its
 * mantissa and exponent parity, the exponent's half applied. */
static uint32_t mufu_root(uint32_t a, int rs, const unit_format *f)
{
    const int e = (int)(a >> f->mbits) - f->bias, odd = e & 1, half = (e - odd) / 2;
    const int shift = 23 - f->mbits;
    const uint32_t t = sfu_table_entry(rs ? SFU_RSQRT : SFU_SQRT,
                                       (uint32_t)odd << 23 | (a & ((1u << f->mbits) - 1)) << shift);
    const int re = (int)(t >> 23) - 127 + (rs ? -half : half) + f->bias;
    return (uint32_t)re << f->mbits | (t & 0x7fffffu) >> shift;
}

static uint32_t mufu_rsqrt(uint32_t x, const unit_format *f)
{
    const uint32_t a = ABS(x), s = SIGN(x);
    if (a > f->inf || (s && a >= 1u << f->mbits))
        return CANONICAL_NAN;
    if (a < 1u << f->mbits)
        return s | f->inf;
    if (a == f->inf)
        return 0;
    return mufu_root(a, 1, f);
}

static uint32_t mufu_sqrt(uint32_t x)
{
    const uint32_t a = ABS(x), s = SIGN(x);
    if (a > 0x7f800000u || (s && a >= 0x00800000u))
        return CANONICAL_NAN;
    if (a < 0x00800000u)
        return s;
    if (a == 0x7f800000u)
        return x;
    return mufu_root(a, 0, &F32);
}

/* ex2: the input as a fixed-point number with 23 fraction bits, its magnitude truncated
 * to i + f; 2^i times the table's 2^f for x >= 0; for x < 0, 2^-i when f is 0 (a whole
 * number, or |x| < 2^-23: 1), else 2^(-i-1) times the table's entry of the fraction's
 * bits inverted (2^(1 - 2^-23 - f): one's complement, measured). */
static uint32_t mufu_ex2(uint32_t x)
{
    const uint32_t a = ABS(x), s = SIGN(x);
    if (a > 0x7f800000u)
        return CANONICAL_NAN;
    if (a < 0x00800000u) /* zero or subnormal: 2^0 */
        return 0x3f800000u;
    if (a >= 0x43000000u) /* |x| >= 128 (and infinity) */
        return s ? 0 : 0x7f800000u;
    const int e = (int)(a >> 23) - 127;
    const uint32_t m = 0x800000u | (a & 0x7fffffu);
    const uint32_t fixed = e >= 0 ? m << e : e > -24 ? m >> -e : 0; /* |x| 2^23 */
    const int i = (int)(fixed >> 23);
    const uint32_t f = fixed & 0x7fffffu;
    if (!s)
        return sfu_table_entry(SFU_EX2, f) + ((uint32_t)i << 23);
    if (f == 0) /* a whole number: 2^-i exactly (libdevice's exp relies on it) */
        return 127 - i <= 0 ? 0 : (uint32_t)(127 - i) << 23;
    const int ex = 127 - i - 1;
    return ex <= 0 ? 0
                   : (uint32_t)ex << 23 | (sfu_table_entry(SFU_EX2, ~f & 0x7fffffu) & 0x7fffffu);
}

/* lg2: the unit's algorithm, recovered from an H200's results of [0.5, 2) (sfu.h,
 * docs/architecture.md "The special-function unit"). */
const sfu_lg2_segment sfu_lg2_segments[64] = {
#include "sim/sfu/lg2.h"
};

/* sq(t) for bit j of t (9 <= j <= 16): t_j t_j 2^2j when 2j >= 19, and the 2 t_i t_j
 * 2^(i+j) of the bits i < j with i + j >= 18. */
unsigned sfu_lg2_square(unsigned t)
{
    unsigned s = 0;
    for (int j = 9; j < 17; j++) /* without branches: t's bits are random */
        s += -(t >> j & 1) &
             ((j >= 10 ? 1u << (2 * j - 19) : 0) + ((t & ((1u << j) - 1)) >> (18 - j)));
    return s;
}

unsigned sfu_lg2_unit(const sfu_lg2_segment seg[64], unsigned x)
{
    const uint32_t a = ABS(x);
    if (a > 0x7f800000u || (SIGN(x) && a >= 0x00800000u))
        return CANONICAL_NAN;
    if (a < 0x00800000u) /* zero or subnormal */
        return 0xff800000u;
    if (a == 0x7f800000u || a == 0x3f800000u) /* lg2(inf) = inf, lg2(1) = +0 */
        return a == 0x3f800000u ? 0 : a;
    const sfu_lg2_segment *s = &seg[(a >> 17) & 63];
    const uint32_t t = a & 0x1ffffu;
    const int64_t v = (s->c0 + (int64_t)s->c1 * t - 16 * (int64_t)s->c2 * sfu_lg2_square(t)) >> 5;
    const int64_t w = ((int64_t)(a >> 23) - 127) * ((int64_t)1 << 36) + v;
    const uint64_t mag = w >= 0 ? (uint64_t)w : (uint64_t)(-w - 1); /* one's complement */
    const uint32_t sign = w >= 0 ? 0 : 0x80000000u;
    if (mag == 0)
        return sign;
    const int top = 63 - __builtin_clzll(mag);
    /* mag 2^-36 truncated to 24 significant bits */
    const uint64_t m = top >= 23 ? mag >> (top - 23) : mag << (23 - top);
    return sign | (uint32_t)(top - 36 + 127) << 23 | ((uint32_t)m & 0x7fffffu);
}

/* ------------------------------------------------------------------ the PTX forms */

/* The .ftz forms are the unit alone; the others are ptxas's sequences around it (read
 * from the SASS it emits for sm_90): f32 multiplies that scale a subnormal or huge input
 * into the unit's range and the result back, rounded to nearest without flushing. */

float sfu_rcp(float x, int ftz)
{
    const uint32_t u = bits_of(x);
    if (ftz)
        return float_of(mufu_rcp(u, &F32));
    /* FSETP |x| < 2^-126: scale 2^24; |x| > 2^126: scale 1/4 */
    const float ax = fabsf(x);
    const float scale = ax < 0x1p-126f ? 0x1p24f : ax > 0x1p126f ? 0.25f : 1.0f;
    return scale * float_of(mufu_rcp(bits_of(x * scale), &F32));
}

float sfu_rsqrt(float x, int ftz)
{
    if (ftz || !(fabsf(x) < 0x1p-126f) || x == 0.0f)
        return float_of(mufu_rsqrt(bits_of(x), &F32));
    return 0x1p12f * float_of(mufu_rsqrt(bits_of(x * 0x1p24f), &F32)); /* subnormal */
}

float sfu_sqrt(float x, int ftz)
{
    if (ftz || !(fabsf(x) < 0x1p-126f) || x == 0.0f)
        return float_of(mufu_sqrt(bits_of(x)));
    return 0x1p-12f * float_of(mufu_sqrt(bits_of(x * 0x1p24f))); /* subnormal */
}

float sfu_lg2(float x, int ftz)
{
    if (ftz || !(fabsf(x) < 0x1p-126f))
        return float_of(sfu_lg2_unit(sfu_lg2_segments, bits_of(x)));
    /* FSETP |x| < 2^-126: the input scaled by 2^24, and 24 taken from the result */
    return float_of(sfu_lg2_unit(sfu_lg2_segments, bits_of(x * 0x1p24f))) + -24.0f;
}

float sfu_ex2(float x, int ftz)
{
    if (ftz || !(x < -126.0f))
        return float_of(mufu_ex2(bits_of(x)));
    /* below -126: 2^(x/2) squared, so that the result can be subnormal */
    const float h = float_of(mufu_ex2(bits_of(x * 0.5f)));
    return h * h;
}

/* ------------------------------------------------------------------ the f64 forms */

/* The f64 forms read the input's high word alone and write the result's high word, its
 * low word 0 (measured on an H200 on all 2^32 high words, with any low word:
 * tools/sfu_check's *.f64 forms). */

static uint32_t high_word(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (uint32_t)(u >> 32);
}

static double from_high_word(uint32_t h)
{
    const uint64_t u = (uint64_t)h << 32;
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

double sfu_rcp_f64(double x)
{
    return from_high_word(mufu_rcp(high_word(x), &F64_HIGH));
}

/* rsqrt.approx.f64's refinement of the unit's y (ptxas's DMUL and DFMAs): e = 1 - x y^2,
 * y + y e (1/2 + 3/8 e). */
static double rsqrt_refined(double x)
{
    const double y = from_high_word(mufu_rsqrt(high_word(x), &F64_HIGH));
    const double e = fma(x, -(y * y), 1.0);
    return fma(fma(e, 0.375, 0.5), y * e, y);
}

double sfu_rsqrt_f64(double x, int ftz)
{
    const uint32_t h = high_word(x);
    if (ftz)
        return from_high_word(mufu_rsqrt(h, &F64_HIGH));
    if (h - 0x00100000u < 0x7fe00000u) /* a positive normal number */
        return rsqrt_refined(x);
    if (x == 0.0)
        return from_high_word(SIGN(h) | 0x7ff00000u);
    if (isnan(x))
        return x + x; /* DADD: the NaN made quiet (tests/isa/nan.txt) */
    if (SIGN(h))
        return from_high_word(0xfff80000u);
    if (isinf(x))
        return 0.0;
    return rsqrt_refined(x * 0x1p54) * 0x1p27; /* subnormal */
}

/* ------------------------------------------------------------------ the half forms */

typedef struct sfu_half_table {
    const char *name;
    unsigned size; /* entries */
    const unsigned char *blob, *blob_end;
    unsigned short *res; /* size results once inflated; NULL: damaged */
    pthread_once_t once;
} sfu_half_table;

static sfu_half_table half_tables[SFU_NHALF_TABLES] = {
    [SFU_TANH_F16] = {"tanh_f16", 0x7c01, sfu_blob_tanh_f16, sfu_blob_tanh_f16_end, NULL,
                      PTHREAD_ONCE_INIT},
    [SFU_TANH_BF16] = {"tanh_bf16", 0x7f81, sfu_blob_tanh_bf16, sfu_blob_tanh_bf16_end, NULL,
                       PTHREAD_ONCE_INIT},
};

static void inflate_half(sfu_half_table *t)
{
    unsigned char *steps = malloc(t->size);
    unsigned short *res = malloc((size_t)t->size * sizeof *res);
    uLongf got = (uLongf)t->size;
    if (steps && res && uncompress(steps, &got, t->blob, (uLong)(t->blob_end - t->blob)) == Z_OK &&
        got == t->size) {
        unsigned v = 0;
        for (unsigned k = 0; k < t->size; k++)
            res[k] = (unsigned short)(v += steps[k]);
        t->res = res;
        free(steps);
        return;
    }
    free(steps);
    free(res);
    fprintf(stderr,
            "gpulearn: the simulator's %s.approx table (sim/sfu/%s.z) is damaged; its results "
            "may differ from the GPU's by an ulp (rebuild gpulearn)\n",
            t->name, t->name);
}
static void inflate_tanh_f16(void)
{
    inflate_half(&half_tables[SFU_TANH_F16]);
}
static void inflate_tanh_bf16(void)
{
    inflate_half(&half_tables[SFU_TANH_BF16]);
}

unsigned sfu_half_table_size(sfu_half_table_id t)
{
    return half_tables[t].size;
}

#define HALF_NAN 0x7fffu

/* An f16's value as an f32 (exact). */
static float f16_value(unsigned short h)
{
    const unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const float v = e == 0 ? (float)m * 0x1p-24f : ldexpf((float)(m | 0x400), (int)e - 25);
    return h & 0x8000 ? -v : v;
}

/* An f32 as an f16, its mantissa truncated (toward zero); 2^16 and up: infinity. */
static unsigned short f16_truncated(float y)
{
    const uint32_t u = bits_of(y), s = (u >> 16) & 0x8000, a = ABS(u);
    if (a >= 0x47800000u) /* 2^16 */
        return (unsigned short)(s | 0x7c00);
    if (a < 0x38800000u) /* below 2^-14: a subnormal f16 (or 0), a multiple of 2^-24 */
        return (unsigned short)(s | (uint32_t)(float_of(a) * 0x1p24f));
    /* normal: the exponent rebased (127 - 15), the mantissa's top 10 bits */
    return (unsigned short)(s | ((a >> 23) - 112) << 10 | ((a >> 13) & 0x3ff));
}

unsigned short sfu_ex2_f16(unsigned short a)
{
    if ((a & 0x7fff) > 0x7c00)
        return HALF_NAN;
    if ((a & 0x7fff) == 0x7c00) /* 2^inf, 2^-inf */
        return a & 0x8000 ? 0 : 0x7c00;
    return f16_truncated(float_of(mufu_ex2(bits_of(f16_value(a)))));
}

unsigned short sfu_ex2_bf16(unsigned short a)
{
    if ((a & 0x7fff) > 0x7f80)
        return HALF_NAN;
    return (unsigned short)(mufu_ex2((uint32_t)a << 16) >> 16);
}

/* tanh of a half (bf: a bf16) from its table, odd; with the table damaged, the f32
 * tanh truncated (said once on stderr). */
static unsigned short tanh_half(unsigned short a, int bf)
{
    if ((a & 0x7fff) > (bf ? 0x7f80 : 0x7c00))
        return HALF_NAN;
    sfu_half_table *t = &half_tables[bf ? SFU_TANH_BF16 : SFU_TANH_F16];
    pthread_once(&t->once, bf ? inflate_tanh_bf16 : inflate_tanh_f16);
    if (t->res)
        return (unsigned short)((a & 0x8000) | t->res[a & 0x7fff]);
    return bf ? (unsigned short)(bits_of(tanhf(float_of((uint32_t)a << 16))) >> 16)
              : f16_truncated(tanhf(f16_value(a)));
}

unsigned short sfu_tanh_f16(unsigned short a)
{
    return tanh_half(a, 0);
}

unsigned short sfu_tanh_bf16(unsigned short a)
{
    return tanh_half(a, 1);
}

/* ------------------------------------------------------------------ sin and cos */

/* sin.approx and cos.approx (sfu.h): the sine of a quarter wave, 2^23 entries, from a
 * zlib stream written by tools/sfu_tables.c: per entry one signed byte, its step from
 * the entry before minus that entry's step (entries and steps before entry 0 are 0), or
 * the byte 0x80 and the entry's 4 bytes (little-endian). Inflated to 32 MiB on first use. */
SFU_BLOB(sin, "sim/sfu/sin.z")
static uint32_t *sin_quarter; /* NULL: damaged */
static pthread_once_t sin_once = PTHREAD_ONCE_INIT;

int sfu_sin_decode(const unsigned char *code, size_t n, uint32_t *out)
{
    size_t i = 0;
    uint32_t v = 0, step = 0;
    for (unsigned k = 0; k < SFU_SIN_ENTRIES; k++) {
        if (i >= n)
            return -1;
        if (code[i] == 0x80) {
            if (n - i < 5)
                return -1;
            const uint32_t w = (uint32_t)code[i + 1] | (uint32_t)code[i + 2] << 8 |
                               (uint32_t)code[i + 3] << 16 | (uint32_t)code[i + 4] << 24;
            step = w - v;
            v = w;
            i += 5;
        } else {
            step += (uint32_t)(int32_t)(signed char)code[i++];
            v += step;
        }
        out[k] = v;
    }
    return i == n ? 0 : -1;
}

static void inflate_sin(void)
{
    const size_t cap = SFU_SIN_CODE_MAX;
    unsigned char *code = malloc(cap);
    uint32_t *tab = malloc((size_t)SFU_SIN_ENTRIES * sizeof *tab);
    uLongf got = (uLongf)cap;
    if (code && tab &&
        uncompress(code, &got, sfu_blob_sin, (uLong)(sfu_blob_sin_end - sfu_blob_sin)) == Z_OK &&
        sfu_sin_decode(code, got, tab) == 0) {
        sin_quarter = tab;
        free(code);
        return;
    }
    free(code);
    free(tab);
    fprintf(stderr, "gpulearn: the simulator's sin.approx table (sim/sfu/sin.z) is damaged; sin "
                    "and cos .approx are computed in double instead (rebuild gpulearn)\n");
}

unsigned sfu_sin_phase(uint32_t x)
{
    const uint32_t a = ABS(x);
    if (a < 0x00800000u) /* zero or subnormal: t below 2^-127, flushed or not */
        return 0;
    /* |x| = m 2^(e-23), the constant 0x3e22f983 = 0xa2f983 2^-26: the product p = m
     * 0xa2f983 (47 or 48 bits, exact) with all but its top 24 bits cleared is t's
     * mantissa (FMUL.RZ), t = p 2^(e-49), and the phase t's fraction times 2^25:
     * p 2^(e-24) modulo 2^25. */
    const int e = (int)(a >> 23) - 127;
    uint64_t p = (uint64_t)(0x800000u | (a & 0x7fffffu)) * 0xa2f983u;
    p &= ~((UINT64_C(1) << (p >> 47 ? 24 : 23)) - 1);
    const int sh = e - 24;
    const uint64_t f = sh >= 25 ? 0 : sh >= 0 ? p << sh : sh <= -48 ? 0 : p >> -sh;
    return (unsigned)(f & ((1u << 25) - 1));
}

unsigned sfu_sin_entry(unsigned k)
{
    pthread_once(&sin_once, inflate_sin);
    if (sin_quarter)
        return sin_quarter[k & (SFU_SIN_ENTRIES - 1)];
    return bits_of((float)sin((double)(k & (SFU_SIN_ENTRIES - 1)) * 0x1p-25 * 6.283185307179586));
}

/* The unit on phase q (2^-25 turns) and the sign to apply: the quarter-wave entry of q's
 * low 23 bits, inverted (one's complement) in the odd quarters, negated in the second
 * half-wave. */
static uint32_t mufu_sin_phase(unsigned q, uint32_t sign)
{
    const unsigned low = q & (SFU_SIN_ENTRIES - 1);
    const unsigned k = q & SFU_SIN_ENTRIES ? SFU_SIN_ENTRIES - 1 - low : low;
    return sfu_sin_entry(k) ^ sign ^ (q >> 24 & 1u) << 31;
}

float sfu_sin(float x)
{
    const uint32_t u = bits_of(x);
    if (ABS(u) >= 0x7f800000u)
        return float_of(CANONICAL_NAN);
    return float_of(mufu_sin_phase(sfu_sin_phase(u), SIGN(u)));
}

float sfu_cos(float x)
{
    const uint32_t u = bits_of(x);
    if (ABS(u) >= 0x7f800000u)
        return float_of(CANONICAL_NAN);
    return float_of(mufu_sin_phase((sfu_sin_phase(u) + SFU_SIN_ENTRIES) & ((1u << 25) - 1), 0));
}

/* ------------------------------------------------------------------ tanh */

/* tanh.approx.f32's 51 segments (sfu.h): of the binades 2^-8, 2^-7, 2^-6 (1 each), 2^-5,
 * 2^-4 (2 each), 2^-3, 2^-2, 2^-1 (4 each), 2^0 (8), 2^1 (16) and 2^2 (8), in that order:
 * {c0, c1, c2} in units of 2^-39, V = c0 + c1 t - c2 sq(t). Fitted to an H200's results of
 * every input of those binades by tools/sfu_tanh_fit.py (each result bounds V to
 * [r, r + ulp), and the lowest integer c0 of the interval the other results leave is
 * kept), which prints these lines; docs/architecture.md "The special-function unit". */
static const struct {
    int64_t c0;
    int32_t c1, c2;
} tanh_segments[51] = {
    {2147483648LL, 16384, 2},         {4294901760LL, 32766, 12},
    {8589279232LL, 65524, 104},       {17174298624LL, 65476, 164},
    {25750994944LL, 65394, 220},      {34315042816LL, 130584, 1272},
    {51389005824LL, 129952, 1776},    {68363812864LL, 129064, 2236},
    {85206958080LL, 127944, 2704},    {101887901696LL, 126592, 3160},
    {118376890368LL, 125012, 3564},   {134645022720LL, 246544, 16552},
    {166415695872LL, 238240, 19296},  {197008556032LL, 228572, 21488},
    {226262777856LL, 217804, 23152},  {254050304000LL, 412568, 98592},
    {304894967808LL, 362992, 100608}, {349179215872LL, 312504, 96608},
    {386979332096LL, 264088, 88688},  {418694561792LL, 219688, 78584},
    {444921020416LL, 180408, 67824},  {466352340992LL, 146536, 57152},
    {483693035520LL, 118004, 47384},  {497613275136LL, 94360, 38736},
    {508716777472LL, 75040, 31376},   {517528616960LL, 59400, 25152},
    {524493389824LL, 46864, 20072},   {529980719104LL, 36874, 15946},
    {534293544960LL, 28942, 12590},   {537676382208LL, 22674, 9898},
    {540325347328LL, 17746, 7784},    {542397464576LL, 13870, 6094},
    {544016596992LL, 10835, 4776},    {545280983040LL, 8457, 3734},
    {546267627520LL, 6599, 2920},     {547037315072LL, 5146, 2278},
    {547637493760LL, 4012, 1778},     {548105355264LL, 3127, 1386},
    {548470030336LL, 2437, 1082},     {548754161664LL, 1899, 842},
    {548975575040LL, 1479, 654},      {549148065792LL, 1152, 508},
    {549282447360LL, 897, 394},       {549388288000LL, 2636, 3504},
    {549620547584LL, 972, 1296},      {549706006528LL, 356, 464},
    {549737463808LL, 132, 176},       {549749129216LL, 48, 64},
    {549753323520LL, 20, 32},         {549754896384LL, 8, 16},
    {549755420672LL, 4, 8},
};

/* Per binade e = -8 .. 2: the input bits below the unit's 17-bit offset t that it drops
 * (the 6 - drop bits above t pick the segment), and the binade's first segment in
 * tanh_segments. */
static const struct {
    unsigned char drop, first;
} tanh_binades[11] = {
    {6, 0}, {6, 1}, {6, 2}, {5, 3}, {5, 5}, {4, 7}, {4, 11}, {4, 15}, {3, 19}, {2, 27}, {3, 43},
};

float sfu_tanh(float x)
{
    const uint32_t u = bits_of(x), a = ABS(u), sign = u & 0x80000000u;
    const int e = (int)(a >> 23) - 127;
    if (a > 0x7f800000u)
        return float_of(CANONICAL_NAN);
    if (e >= 3) /* |x| >= 8, infinities included */
        return float_of(sign | 0x3f800000u);
    if (e <= -9) /* |x| < 2^-8: x itself (zero and subnormals too) */
        return x;
    const unsigned m = (a & 0x7fffffu) >> tanh_binades[e + 8].drop;
    const unsigned t = m & 0x1ffffu;
    const int i = tanh_binades[e + 8].first + (int)(m >> 17);
    const int64_t v = tanh_segments[i].c0 + (int64_t)tanh_segments[i].c1 * t -
                      (int64_t)tanh_segments[i].c2 * sfu_lg2_square(t);
    const int top = 63 - __builtin_clzll((uint64_t)v); /* v >= 2^31 */
    /* v 2^-39 truncated to 24 significant bits */
    return float_of(sign | (uint32_t)(top - 39 + 127) << 23 |
                    ((uint32_t)(v >> (top - 23)) & 0x7fffffu));
}
