/* math_extra.h — the rest of CUDA's math library for the clang prelude: the double
 * precision functions (exp, log, pow, sin, atan2, erf, lgamma, ...: CUDA Math API
 * reference, "Double Precision Mathematical Functions") and the single precision special
 * functions (erfcf, lgammaf, normcdfinvf, sinpif, ...), which CUDA takes from libdevice.
 * Included by gpulearn_prelude.h after its float math library, whose helpers (gl_poly,
 * gl_exp2, gl_log2, gl_two_sum) and GL_DEV, GL_LN2, GL_LOG2E it uses.
 *
 * The double functions carry the extra bits they need in double-doubles (hi + lo, with
 * fma's exact products): x reduced exactly (Cody-Waite with pi/2 in three doubles below
 * 2^30, Payne-Hanek from 2/pi in 1216 bits above; x - k ln2 for exp), ln x to about
 * 2^-70 for pow, Taylor series evaluated with gl_poly and summed into a double-double,
 * rounded once at the end. Against mpmath (thousands of points each, hard cases
 * included) they were within 0.51 ulp of the exact result for most, 0.7 for sin, erf,
 * erfcx, erfinv, erfcinv, 1.2 for normcdf and normcdfinv (CUDA's bounds: Programming
 * Guide, "Mathematical Functions", 1 to 10 ulp). The float functions round the double
 * one once. Zeros, infinities and NaNs as C11 Annex F (pow's special cases F.10.4.4
 * included); results below the normal range are rounded to subnormals once. erfcx (e^(x^2) erfc x) is a Chebyshev fit, made with mpmath, of
 * (1 + 2x) erfcx(x) in t = (x - 4) / (x + 4); erfinv, erfcinv and normcdfinv are found
 * by Newton's method on erf and log erfc. Not provided: the Bessel functions (j0, y0,
 * cyl_bessel_i0, ...), lgamma's sign (signgam) and norm/rnorm. */

#define GL_NAN __longlong_as_double(0x7fffffffffffffffLL)
#define GL_INF __builtin_inf()
/* constants as double-doubles: value = H + L */
#define GL_LN2_L 0x1.abc9e3b39803fp-56
#define GL_PIO2_H 0x1.921fb54442d18p+0
#define GL_PIO2_L 0x1.1a62633145c07p-54
#define GL_PI_H 0x1.921fb54442d18p+1
#define GL_PI_L 0x1.1a62633145c07p-53
#define GL_2RSQRTPI_H 0x1.20dd750429b6dp+0 /* 2 / sqrt(pi) */
#define GL_2RSQRTPI_L 0x1.1ae3a914fed80p-56
#define GL_RSQRT2_H 0x1.6a09e667f3bcdp-1 /* 1 / sqrt(2) */
#define GL_RSQRT2_L -0x1.bdd3413b26456p-55

/* ------------------------------------------------------------ double-double helpers */
typedef struct gl_dd {
    double hi, lo;
} gl_dd;
GL_DEV gl_dd gl_dd_of(double hi, double lo)
{
    gl_dd r = {hi, lo};
    return r;
}
/* a + b exactly, for |a| >= |b| (or a == 0) */
GL_DEV gl_dd gl_fast_sum(double a, double b)
{
    const double s = a + b;
    return gl_dd_of(s, b - (s - a));
}
/* a + b exactly (Knuth's two-sum) */
GL_DEV gl_dd gl_sum(double a, double b)
{
    gl_dd r;
    gl_two_sum(a, b, &r.hi, &r.lo);
    return r;
}
/* a b rounded, by mul.rn.f64 in inline PTX: clang (-ffp-contract=fast) and ptxas fuse a
 * plain product into a later addition, which breaks the exact sums below where the
 * product is also used rounded (and clang turns __nvvm_mul_rn_d into a plain product) */
GL_DEV double gl_mul(double a, double b)
{
    double r;
    asm("mul.rn.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b));
    return r;
}
/* a b exactly (unless it underflows) */
GL_DEV gl_dd gl_prod(double a, double b)
{
    const double p = gl_mul(a, b);
    return gl_dd_of(p, __builtin_fma(a, b, -p));
}
GL_DEV gl_dd gl_dd_neg(gl_dd a) { return gl_dd_of(-a.hi, -a.lo); }
GL_DEV gl_dd gl_dd_add(gl_dd a, gl_dd b)
{
    const gl_dd s = gl_sum(a.hi, b.hi);
    return gl_fast_sum(s.hi, s.lo + a.lo + b.lo);
}
GL_DEV gl_dd gl_dd_mul(gl_dd a, gl_dd b)
{
    const gl_dd p = gl_prod(a.hi, b.hi);
    return gl_fast_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}
GL_DEV gl_dd gl_dd_div(gl_dd a, gl_dd b)
{
    const double q = a.hi / b.hi;
    const double r = __builtin_fma(-q, b.hi, a.hi) + a.lo - q * b.lo;
    return gl_fast_sum(q, r / b.hi);
}
GL_DEV gl_dd gl_dd_sqrt(gl_dd a) /* a >= 0 */
{
    if (a.hi == 0.0)
        return a;
    const double s = __builtin_sqrt(a.hi);
    return gl_fast_sum(s, (__builtin_fma(-s, s, a.hi) + a.lo) / (2.0 * s));
}
GL_DEV double gl_dd_round(gl_dd a) { return a.hi + a.lo; }

/* ----------------------------------------------------------------- scaling by 2^n */
/* 2^n for n in [-1022, 1023] */
GL_DEV double gl_pow2(int n) { return __longlong_as_double((long long)(n + 1023) << 52); }
/* the unbiased exponent of a finite nonzero double (subnormals normalised) */
GL_DEV int gl_ilogb_d(double x)
{
    const long long u = __double_as_longlong(x) & 0x7fffffffffffffffLL;
    return u >= (1LL << 52) ? (int)(u >> 52) - 1023 : -1011 - __builtin_clzll((unsigned long long)u);
}
/* x 2^n with one rounding: the first factors keep x normal while the result is not
 * subnormal (2^-969 = 2^(-1022 + 53)), so only the last one rounds */
GL_DEV double gl_ldexp(double x, long long n)
{
    n = n > 2100 ? 2100 : n < -2200 ? -2200 : n;
    for (; n > 1023; n -= 1023)
        x *= 0x1p1023;
    for (; n < -1022; n += 969)
        x *= 0x1p-969;
    return x * gl_pow2((int)n);
}
/* (m.hi + m.lo) 2^k rounded once, also where that is subnormal: normalised to [1, 2)
 * first; below 2^-1022, h = hi 2^(k + 1074) is exact and rounded to an integer count of
 * 2^-1074, where lo only decides a tie (|lo| <= ulp(hi) / 2) */
GL_DEV double gl_scale_dd(gl_dd m, int k)
{
    const int e = gl_ilogb_d(m.hi);
    const double s = gl_ldexp(1.0, -e);
    m.hi *= s;
    m.lo *= s;
    k += e;
    if (k >= -1022) /* 2^k in two factors: k may be 1024 on the way to infinity */
        return gl_dd_round(m) * gl_pow2(k >> 1) * gl_pow2(k - (k >> 1));
    if (k < -1076)
        return m.hi * 0.0;
    const double h = m.hi * gl_pow2(k + 1074);
    double n = __builtin_rint(h);
    if (h - n == 0.5 && m.lo > 0.0)
        n += 1.0;
    else if (h - n == -0.5 && m.lo < 0.0)
        n -= 1.0;
    return n * 0x1p-1074;
}

/* ------------------------------------------------------------------ exp and log */
/* e^r - 1 for r = rh + rl (|rh| <= 0.35, |rl| < 2^-40) as a double-double: rh + rh^2/2
 * (exact) + the Taylor series from rh^3 (to rh^15: 2^-68) + rl e^rh */
GL_DEV gl_dd gl_expm1_kernel(double rh, double rl)
{
    const double c[13] = {1.0 / 6,           1.0 / 24,           1.0 / 120,
                          1.0 / 720,         1.0 / 5040,         1.0 / 40320,
                          1.0 / 362880,      1.0 / 3628800,      1.0 / 39916800,
                          1.0 / 479001600,   1.0 / 6227020800,   1.0 / 87178291200,
                          1.0 / 1307674368000}; /* 1/(i+3)! */
    const gl_dd h = gl_prod(rh, 0.5 * rh);
    const gl_dd u = gl_fast_sum(rh, h.hi);
    const double t = u.lo + h.lo + rh * (2.0 * h.hi) * gl_poly(rh, c, 13);
    const gl_dd v = gl_fast_sum(u.hi, t);
    return gl_fast_sum(v.hi, v.lo + rl * (1.0 + v.hi));
}
/* 1 + u for a double-double u with |u| < 1 */
GL_DEV gl_dd gl_one_plus(gl_dd u)
{
    const gl_dd s = gl_fast_sum(1.0, u.hi);
    return gl_fast_sum(s.hi, s.lo + u.lo);
}
/* e^(th + tl) = m 2^k, m in [0.7, 1.42] a double-double (|th| < 1100): r = t - k ln2,
 * whose first part fma(-k, ln2, th) is exact (a multiple of 2^-53 or of ulp(th) below 1) */
GL_DEV gl_dd gl_exp_parts(double th, double tl, int *k)
{
    const double kd = __builtin_rint(th * GL_LOG2E);
    const gl_dd r = gl_sum(__builtin_fma(-kd, GL_LN2, th), __builtin_fma(-kd, GL_LN2_L, tl));
    const gl_dd u = gl_expm1_kernel(r.hi, r.lo);
    *k = (int)kd;
    return gl_one_plus(u);
}
/* e^(th + tl) rounded once; NaN, infinity, 0 outside the double range */
GL_DEV double gl_exp_dd(double th, double tl)
{
    if (!(th < 710.0))
        return th != th ? th : GL_INF;
    if (th < -746.0)
        return 0.0;
    int k;
    const gl_dd m = gl_exp_parts(th, tl, &k);
    return gl_scale_dd(m, k);
}
GL_DEV double exp(double x) { return gl_exp_dd(x, 0.0); }
GL_DEV double exp2(double x)
{
    if (!(x < 1025.0) || x < -1080.0)
        return x < 0.0 ? 0.0 : x + x;
    const double k = __builtin_rint(x), f = x - k; /* exact */
    const gl_dd r = gl_prod(f, GL_LN2);
    const gl_dd u = gl_expm1_kernel(r.hi, __builtin_fma(f, GL_LN2_L, r.lo));
    return gl_scale_dd(gl_one_plus(u), (int)k);
}
GL_DEV double exp10(double x)
{
    if (!(x < 310.0) || x < -330.0)
        return x < 0.0 ? 0.0 : x + x;
    const gl_dd t = gl_prod(x, 0x1.26bb1bbb55516p+1); /* x ln 10 */
    return gl_exp_dd(t.hi, __builtin_fma(x, -0x1.f48ad494ea3e9p-53, t.lo));
}
/* e^x - 1 as a double-double for x in [-40, 700]: (2^k - 1) + 2^k (e^r - 1) */
GL_DEV gl_dd gl_expm1_dd(double x)
{
    if (__builtin_fabs(x) < 0x1p-54)
        return gl_dd_of(x, 0.0);
    const double kd = __builtin_rint(x * GL_LOG2E);
    const gl_dd r = gl_sum(__builtin_fma(-kd, GL_LN2, x), -kd * GL_LN2_L);
    const gl_dd u = gl_expm1_kernel(r.hi, r.lo);
    const int k = (int)kd;
    if (k == 0)
        return u;
    const double s = gl_ldexp(1.0, k);
    return gl_dd_add(gl_sum(s, -1.0), gl_dd_of(u.hi * s, u.lo * s));
}
GL_DEV double expm1(double x)
{
    if (!(x < 709.0))
        return x != x ? x + x : exp(x);
    if (x < -40.0 || __builtin_fabs(x) < 0x1p-54)
        return x < -40.0 ? -1.0 : x; /* expm1(-0) = -0 */
    return gl_dd_round(gl_expm1_dd(x));
}

/* ln x as a double-double (about 2^-70 relative) for a finite x > 0: x = m 2^e with m in
 * [sqrt(1/2), sqrt(2)), ln m = 2 atanh f = 2f + 2f^3/3 + 2f^5/5 + ... for f = (m - 1) /
 * (m + 1) (|f| <= 0.172): f, f^2 and the first two terms in double-double, the rest
 * (f^7 on, 12 terms) in double */
GL_DEV gl_dd gl_log_dd(double x)
{
    int e = 0;
    if (x < 0x1p-1022) {
        x *= 0x1p54;
        e = -54;
    }
    const long long b = __double_as_longlong(x);
    e += (int)(b >> 52) - 1023;
    double m = __longlong_as_double((b & 0xfffffffffffffLL) | 0x3ff0000000000000LL);
    if (m > 0x1.6a09e667f3bcdp+0) {
        m *= 0.5;
        e++;
    }
    const double u = m - 1.0; /* exact */
    const gl_dd v = gl_sum(m, 1.0);
    const double fh = u / v.hi;
    const gl_dd f = gl_dd_of(fh, (__builtin_fma(-fh, v.hi, u) - fh * v.lo) / v.hi);
    const gl_dd f2 = gl_dd_mul(f, f);
    const double c[12] = {2.0 / 7,  2.0 / 9,  2.0 / 11, 2.0 / 13, 2.0 / 15, 2.0 / 17,
                          2.0 / 19, 2.0 / 21, 2.0 / 23, 2.0 / 25, 2.0 / 27, 2.0 / 29};
    const double p = gl_poly(f2.hi, c, 12);
    gl_dd q = gl_dd_add(gl_dd_of(0x1.999999999999ap-2, -0x1.999999999999ap-56), /* 2/5 */
                        gl_dd_mul(f2, gl_dd_of(p, 0.0)));
    q = gl_dd_add(gl_dd_of(0x1.5555555555555p-1, 0x1.5555555555555p-55), /* 2/3 */
                  gl_dd_mul(f2, q));
    const gl_dd l = gl_dd_add(gl_dd_of(2.0 * f.hi, 2.0 * f.lo), gl_dd_mul(gl_dd_mul(f, f2), q));
    const gl_dd eln2 = gl_prod((double)e, GL_LN2);
    return gl_dd_add(gl_fast_sum(eln2.hi, __builtin_fma((double)e, GL_LN2_L, eln2.lo)), l);
}
/* ln(1 + v) for a double-double v > -1: ln w.hi + ln(1 + w.lo / w.hi), w = 1 + v */
GL_DEV gl_dd gl_log1p_dd(gl_dd v)
{
    const gl_dd s = gl_sum(1.0, v.hi);
    const gl_dd w = gl_fast_sum(s.hi, s.lo + v.lo);
    const double c = w.lo / w.hi;
    return gl_dd_add(gl_log_dd(w.hi), gl_dd_of(c - 0.5 * c * c, 0.0));
}
/* log and friends: NaN below 0, -inf at 0, x itself at +inf and NaN */
#define GL_LOG(name, expr)                                                                \
    GL_DEV double name(double x)                                                          \
    {                                                                                     \
        if (!(x > 0.0) || __builtin_isinf(x))                                             \
            return x == 0.0 ? -GL_INF : x > 0.0 || x != x ? x + x : GL_NAN;               \
        return gl_dd_round(expr);                                                         \
    }
GL_LOG(log, gl_log_dd(x))
GL_LOG(log2, gl_dd_mul(gl_log_dd(x), gl_dd_of(GL_LOG2E, 0x1.777d0ffda0d24p-56)))
GL_LOG(log10, gl_dd_mul(gl_log_dd(x), gl_dd_of(0x1.bcb7b1526e50ep-2, 0x1.95355baaafad3p-57)))
#undef GL_LOG
GL_DEV double log1p(double x)
{
    if (!(x > -1.0) || __builtin_isinf(x))
        return x == -1.0 ? -GL_INF : x > 0.0 || x != x ? x + x : GL_NAN;
    if (__builtin_fabs(x) < 0x1p-54)
        return x;
    return gl_dd_round(gl_log1p_dd(gl_dd_of(x, 0.0)));
}

/* 0: y is not an integer, 1: an odd integer, 2: an even one (y finite) */
GL_DEV int gl_int_kind(double y)
{
    if (__builtin_trunc(y) != y)
        return 0;
    return __builtin_fabs(y) < 0x1p53 && ((long long)y & 1) ? 1 : 2;
}
/* x^y (C11 F.10.4.4 for the special cases): e^(y ln |x|) with ln |x| and its product by y
 * in double-double (|y ln x| < 746: 2^-60 absolute, 0.005 ulp) */
GL_DEV double pow(double x, double y)
{
    if (y == 0.0 || x == 1.0)
        return 1.0;
    if (x != x || y != y)
        return x + y;
    const double ax = __builtin_fabs(x);
    if (__builtin_isinf(y)) {
        if (ax == 1.0)
            return 1.0;
        return (ax < 1.0) == (y < 0.0) ? GL_INF : 0.0;
    }
    const int kind = gl_int_kind(y);
    if (x == 0.0 || __builtin_isinf(x)) { /* 0 or infinity to a finite power */
        const double mag = (x == 0.0) == (y < 0.0) ? GL_INF : 0.0;
        return kind == 1 && __builtin_signbit(x) ? -mag : mag;
    }
    if (x < 0.0 && kind == 0)
        return GL_NAN;
    const gl_dd l = gl_log_dd(ax);
    const double th = gl_mul(y, l.hi);
    double r;
    if (!(__builtin_fabs(th) < 800.0))
        r = th > 0.0 ? GL_INF : 0.0;
    else
        r = gl_exp_dd(th, __builtin_fma(y, l.hi, -th) + y * l.lo);
    return x < 0.0 && kind == 1 ? -r : r;
}

/* ---------------------------------------------------------------- sin, cos, tan */
/* 64 bits of 2/pi from bit s on (bit 1 is the first after the point; bits before it are
 * 0): 1216 bits, enough for the largest double's x 2/pi mod 4 to 190 bits */
GL_DEV unsigned long long gl_2opi_bits(int s)
{
    const unsigned long long t[19] = {
        0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull,
        0xfe5163abdebbc561ull, 0xb7246e3a424dd2e0ull, 0x06492eea09d1921cull,
        0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull, 0xe99c7026b45f7e41ull,
        0x3991d639835339f4ull, 0x9c845f8bbdf9283bull, 0x1ff897ffde05980full,
        0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull,
        0x7527bac7ebe5f17bull, 0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull,
        0x56033046fc7b6babull};
    const int p = s - 1;
    if (p <= -64)
        return 0;
    if (p < 0)
        return t[0] >> -p;
    const int j = p >> 6, b = p & 63;
    return b ? (t[j] << b) | (t[j + 1] >> (64 - b)) : t[j];
}
/* r = x - q pi/2 with |r| <= pi/4 (plus rounding) as a double-double, q mod 4 in *q, for
 * a finite x. Below 2^30 Cody-Waite: pi/2 in three doubles, x - k p1 exact with fma,
 * k p2 exact as a two-product (error 2^-129). Above, Payne-Hanek: x = M 2^E (M a 53-bit
 * integer), and x 2/pi mod 4 = M times the 192 bits of 2/pi from the one worth 2 after
 * the 2^E, mod 4: exact 64-bit products; the 190-bit fraction, rounded to the nearest
 * integer, then normalised to a double-double (F >= 2^-62 for every double). */
GL_DEV gl_dd gl_rem_pio2_d(double x, int *q)
{
    const double ax = __builtin_fabs(x);
    if (ax <= 0x1.921fb54442d18p-1) {
        *q = 0;
        return gl_dd_of(x, 0.0);
    }
    if (ax < 0x1p30) {
        const double k = __builtin_rint(x * 0x1.45f306dc9c883p-1);
        const gl_dd t = gl_prod(k, GL_PIO2_L);
        const gl_dd r = gl_sum(__builtin_fma(-k, GL_PIO2_H, x), -t.hi);
        *q = (int)((long long)k & 3);
        return gl_fast_sum(r.hi, r.lo - __builtin_fma(k, -0x1.f1976b7ed8fbcp-110, t.lo));
    }
    const long long b = __double_as_longlong(ax);
    const int E = (int)(b >> 52) - 1075;
    const unsigned long long M = (unsigned long long)(b & 0xfffffffffffffLL) | (1ull << 52);
    const unsigned long long w0 = gl_2opi_bits(E - 1), w1 = gl_2opi_bits(E + 63),
                             w2 = gl_2opi_bits(E + 127);
    const unsigned long long r0 = M * w2, p1 = M * w1;
    const unsigned long long r1 = __umul64hi(M, w2) + p1;
    const unsigned long long r2 = M * w0 + __umul64hi(M, w1) + (r1 < p1);
    int n = (int)(r2 >> 62);
    unsigned long long hi = (r2 << 2) | (r1 >> 62), lo = (r1 << 2) | (r0 >> 62);
    const int up = (int)(hi >> 63); /* fraction >= 1/2: the next integer, F - 1 < 0 */
    if (up) {
        n++;
        hi = ~hi;
        lo = ~lo + 1;
        hi += lo == 0;
    }
    int sh = 0;
    if (hi == 0) { /* not for doubles (|F| >= 2^-62), kept for safety */
        hi = lo;
        lo = r0 << 2;
        sh = 64;
    }
    const int z = __builtin_clzll(hi);
    if (z) {
        hi = (hi << z) | (lo >> (64 - z));
        lo <<= z;
    }
    sh += z;
    const double fh = (double)(hi >> 11) * gl_pow2(11 - 64 - sh);
    const double fl = ((double)(hi & 2047) + (double)lo * 0x1p-64) * gl_pow2(-64 - sh);
    gl_dd r = gl_dd_mul(gl_fast_sum(fh, fl), gl_dd_of(GL_PIO2_H, GL_PIO2_L));
    if (up != (x < 0.0))
        r = gl_dd_neg(r);
    *q = (x < 0.0 ? -n : n) & 3;
    return r;
}
/* sin and cos of r = rh + rl (|r| <= pi/4 + 2^-30) as double-doubles: Taylor series (to
 * r^17 and r^18: 2^-63) plus the first-order term in rl; cos's 1 - r^2/2 exact */
GL_DEV gl_dd gl_sin_dd(gl_dd r)
{
    const double c[8] = {-1.0 / 6,           1.0 / 120,          -1.0 / 5040,
                         1.0 / 362880,       -1.0 / 39916800,    1.0 / 6227020800,
                         -1.0 / 1307674368000, 1.0 / 355687428096000}; /* (-1)^i/(2i+3)! */
    const double r2 = r.hi * r.hi;
    return gl_fast_sum(r.hi, r.hi * r2 * gl_poly(r2, c, 8) + r.lo * (1.0 - 0.5 * r2));
}
GL_DEV gl_dd gl_cos_dd(gl_dd r)
{
    const double c[8] = {1.0 / 24,           -1.0 / 720,         1.0 / 40320,
                         -1.0 / 3628800,     1.0 / 479001600,    -1.0 / 87178291200,
                         1.0 / 20922789888000, -1.0 / 6402373705728000}; /* (-1)^i/(2i+4)! */
    const gl_dd h = gl_prod(0.5 * r.hi, r.hi);
    const double r2 = r.hi * r.hi, w = 1.0 - h.hi;
    return gl_fast_sum(w, ((1.0 - w) - h.hi) - h.lo + r2 * r2 * gl_poly(r2, c, 8) - r.hi * r.lo);
}
/* sin (which = 0) or cos (which = 1) of a reduced argument in quadrant q */
GL_DEV double gl_sincos_q(gl_dd r, int q, int which)
{
    q += which;
    const double v = gl_dd_round((q & 1) ? gl_cos_dd(r) : gl_sin_dd(r));
    return (q & 2) ? -v : v;
}
GL_DEV double sin(double x)
{
    if (!__builtin_isfinite(x) || __builtin_fabs(x) < 0x1p-26)
        return __builtin_isinf(x) ? GL_NAN : x; /* sin(-0) = -0 */
    int q;
    const gl_dd r = gl_rem_pio2_d(x, &q);
    return gl_sincos_q(r, q, 0);
}
GL_DEV double cos(double x)
{
    if (!__builtin_isfinite(x))
        return x - x;
    int q;
    const gl_dd r = gl_rem_pio2_d(x, &q);
    return gl_sincos_q(r, q, 1);
}
GL_DEV void sincos(double x, double *s, double *c)
{
    if (!__builtin_isfinite(x) || x == 0.0) {
        *s = __builtin_isinf(x) ? GL_NAN : x + x;
        *c = x == 0.0 ? 1.0 : x - x;
        return;
    }
    int q;
    const gl_dd r = gl_rem_pio2_d(x, &q);
    *s = gl_sincos_q(r, q, 0);
    *c = gl_sincos_q(r, q, 1);
}
GL_DEV double tan(double x)
{
    if (!__builtin_isfinite(x) || __builtin_fabs(x) < 0x1p-27)
        return __builtin_isinf(x) ? GL_NAN : x;
    int q;
    const gl_dd r = gl_rem_pio2_d(x, &q);
    const gl_dd s = gl_sin_dd(r), c = gl_cos_dd(r);
    return gl_dd_round((q & 1) ? gl_dd_neg(gl_dd_div(c, s)) : gl_dd_div(s, c));
}
/* x = n/2 + f exactly with |f| <= 1/4: pi f as a double-double, n mod 4 in *q */
GL_DEV gl_dd gl_rem_half(double x, int *q)
{
    if (__builtin_fabs(x) >= 0x1p52) { /* an integer: sin(pi x) = 0, cos(pi x) = +-1 */
        *q = __builtin_fabs(x) < 0x1p53 && ((long long)x & 1) ? 2 : 0;
        return gl_dd_of(0.0, 0.0);
    }
    const double n = __builtin_rint(2.0 * x), f = __builtin_fma(-0.5, n, x);
    *q = (int)((long long)n & 3);
    const gl_dd p = gl_prod(f, GL_PI_H);
    return gl_fast_sum(p.hi, __builtin_fma(f, GL_PI_L, p.lo));
}
/* sin(pi x) as a double-double, for a finite x */
GL_DEV gl_dd gl_sinpi_dd(double x)
{
    int q;
    const gl_dd r = gl_rem_half(x, &q);
    const gl_dd v = (q & 1) ? gl_cos_dd(r) : gl_sin_dd(r);
    return (q & 2) ? gl_dd_neg(v) : v;
}
/* sinpi of an integer is 0 with the sign of x; cospi of a half-integer +0 */
GL_DEV double sinpi(double x)
{
    if (!__builtin_isfinite(x))
        return x - x;
    const double v = gl_dd_round(gl_sinpi_dd(x));
    return v == 0.0 ? x * 0.0 : v;
}
GL_DEV double cospi(double x)
{
    if (!__builtin_isfinite(x))
        return x - x;
    int q;
    const gl_dd r = gl_rem_half(x, &q);
    return gl_sincos_q(r, q, 1) + 0.0;
}
GL_DEV void sincospi(double x, double *s, double *c)
{
    *s = sinpi(x);
    *c = cospi(x);
}

/* ------------------------------------------------------------ inverse trigonometric */
/* atan t for a finite double-double t: atan(1/t) = pi/2 - atan t above 1, then
 * atan t = atan c + atan((t - c) / (1 + t c)) for c the nearest j/8 (table in double-
 * double), the series to u^15 for |u| <= 1/16 (2^-68) */
GL_DEV gl_dd gl_atan_dd(gl_dd t)
{
    const double ah[9] = {0.0,                   0x1.fd5ba9aac2f6ep-4, 0x1.f5b75f92c80ddp-3,
                          0x1.6f61941e4def1p-2,  0x1.dac670561bb4fp-2, 0x1.1e00babdefeb4p-1,
                          0x1.4978fa3269ee1p-1,  0x1.700a7c5784634p-1, 0x1.921fb54442d18p-1};
    const double al[9] = {0.0,                    -0x1.cd37686760c17p-59, 0x1.8ab6e3cf7afbdp-57,
                          -0x1.c63aae6f6e918p-56, 0x1.a2b7f222f65e2p-56,  -0x1.928df287a668fp-58,
                          0x1.2419a87f2a458p-56,  -0x1.8c34d25aadef6p-56, 0x1.1a62633145c07p-55};
    const int neg = t.hi < 0.0;
    if (neg)
        t = gl_dd_neg(t);
    const int inv = t.hi > 1.0;
    if (inv)
        t = gl_dd_div(gl_dd_of(1.0, 0.0), t);
    const int j = (int)__builtin_rint(t.hi * 8.0);
    const double c = j * 0.125;
    const gl_dd num = gl_sum(t.hi - c, t.lo); /* t.hi - c exact */
    const gl_dd tc = gl_prod(t.hi, c), d = gl_sum(1.0, tc.hi);
    const gl_dd u = gl_dd_div(num, gl_fast_sum(d.hi, d.lo + tc.lo + t.lo * c));
    const double s[7] = {-1.0 / 3, 1.0 / 5, -1.0 / 7, 1.0 / 9, -1.0 / 11, 1.0 / 13, -1.0 / 15};
    const double u2 = u.hi * u.hi;
    gl_dd a = gl_dd_add(gl_dd_of(ah[j], al[j]),
                        gl_fast_sum(u.hi, u.lo + u.hi * u2 * gl_poly(u2, s, 7)));
    if (inv)
        a = gl_dd_add(gl_dd_of(GL_PIO2_H, GL_PIO2_L), gl_dd_neg(a));
    return neg ? gl_dd_neg(a) : a;
}
GL_DEV double atan(double x)
{
    if (x != x || __builtin_fabs(x) < 0x1p-27)
        return x;
    if (__builtin_isinf(x))
        return x < 0.0 ? -GL_PIO2_H : GL_PIO2_H;
    return gl_dd_round(gl_atan_dd(gl_dd_of(x, 0.0)));
}
/* atan2 (C11 F.10.1.4 for zeros and infinities): atan of y / x as a double-double */
GL_DEV double atan2(double y, double x)
{
    if (x != x || y != y)
        return x + y;
    const int ny = __builtin_signbit(y), nx = __builtin_signbit(x);
    if (__builtin_isinf(y)) {
        const double a = __builtin_isinf(x) ? (nx ? 0x1.2d97c7f3321d2p+1 : 0x1.921fb54442d18p-1)
                                            : GL_PIO2_H;
        return ny ? -a : a;
    }
    if (y == 0.0 || __builtin_isinf(x)) /* +-0 or +-pi with the sign of y */
        return nx ? (ny ? -GL_PI_H : GL_PI_H) : (ny ? -0.0 : 0.0);
    if (x == 0.0)
        return ny ? -GL_PIO2_H : GL_PIO2_H;
    const double qh = y / x;
    gl_dd a;
    if (__builtin_isinf(qh))
        a = gl_dd_of(ny != nx ? -GL_PIO2_H : GL_PIO2_H, ny != nx ? -GL_PIO2_L : GL_PIO2_L);
    else if (__builtin_fabs(qh) < 0x1p-1000)
        a = gl_dd_of(qh, 0.0);
    else
        a = gl_atan_dd(gl_fast_sum(qh, __builtin_fma(-qh, x, y) / x));
    if (!nx)
        return gl_dd_round(a);
    return gl_dd_round(gl_dd_add(a, ny ? gl_dd_of(-GL_PI_H, -GL_PI_L) : gl_dd_of(GL_PI_H, GL_PI_L)));
}
/* sqrt(1 - x^2) as a double-double (|x| <= 1) */
GL_DEV gl_dd gl_sqrt_1mx2(double x)
{
    const gl_dd p = gl_prod(x, x), w = gl_sum(1.0, -p.hi);
    return gl_dd_sqrt(gl_fast_sum(w.hi, w.lo - p.lo));
}
GL_DEV double asin(double x)
{
    const double a = __builtin_fabs(x);
    if (!(a <= 1.0) || a < 0x1p-26)
        return a <= 1.0 ? x : GL_NAN;
    if (a == 1.0)
        return x < 0.0 ? -GL_PIO2_H : GL_PIO2_H;
    const double r = gl_dd_round(gl_atan_dd(gl_dd_div(gl_dd_of(a, 0.0), gl_sqrt_1mx2(a))));
    return x < 0.0 ? -r : r;
}
GL_DEV double acos(double x)
{
    const double a = __builtin_fabs(x);
    if (!(a <= 1.0))
        return GL_NAN;
    if (a < 0x1p-60)
        return GL_PIO2_H;
    const gl_dd r = gl_atan_dd(gl_dd_div(gl_sqrt_1mx2(a), gl_dd_of(a, 0.0)));
    return gl_dd_round(x > 0.0 ? r : gl_dd_add(gl_dd_of(GL_PI_H, GL_PI_L), gl_dd_neg(r)));
}

/* ---------------------------------------------------------------------- hyperbolic */
/* e^a - e^-a (sign -1) or e^a + e^-a (sign 1), halved, for 0 <= a <= 710.5: above 20
 * e^(a - ln 2) alone (e^-2a < 2^-57) */
GL_DEV double gl_cosh_sinh(double a, double sign)
{
    if (a > 20.0) {
        const gl_dd t = gl_sum(a, -GL_LN2);
        return gl_exp_dd(t.hi, t.lo - GL_LN2_L);
    }
    int k;
    gl_dd e = gl_exp_parts(a, 0.0, &k);
    const double s = gl_pow2(k);
    e = gl_dd_of(e.hi * s, e.lo * s);
    const gl_dd ie = gl_dd_div(gl_dd_of(1.0, 0.0), e);
    return 0.5 * gl_dd_round(gl_dd_add(e, gl_dd_of(sign * ie.hi, sign * ie.lo)));
}
GL_DEV double sinh(double x)
{
    const double a = __builtin_fabs(x);
    if (!__builtin_isfinite(x) || a < 0x1p-26)
        return x; /* also +-inf, NaN */
    double r;
    if (a < 1.0) { /* the series: no cancellation (to a^19: 2^-65) */
        const double c[9] = {1.0 / 6,          1.0 / 120,            1.0 / 5040,
                             1.0 / 362880,     1.0 / 39916800,       1.0 / 6227020800,
                             1.0 / 1307674368000, 1.0 / 355687428096000,
                             1.0 / 121645100408832000}; /* 1/(2i+3)! */
        const double a2 = a * a;
        r = a + a * a2 * gl_poly(a2, c, 9);
    } else {
        r = a > 710.5 ? GL_INF : gl_cosh_sinh(a, -1.0);
    }
    return x < 0.0 ? -r : r;
}
GL_DEV double cosh(double x)
{
    const double a = __builtin_fabs(x);
    if (!(a <= 710.5))
        return x != x ? x + x : GL_INF;
    return gl_cosh_sinh(a, 1.0);
}
/* tanh x = u / (u + 2) for u = e^2|x| - 1 (double-double); +-1 from 19.1 on */
GL_DEV double tanh(double x)
{
    const double a = __builtin_fabs(x);
    if (x != x || a < 0x1p-27)
        return x;
    double r = 1.0;
    if (a < 19.1) {
        const gl_dd u = gl_expm1_dd(2.0 * a);
        r = gl_dd_round(gl_dd_div(u, gl_dd_add(u, gl_dd_of(2.0, 0.0))));
    }
    return x < 0.0 ? -r : r;
}
/* ln 2 as a double-double: for asinh and acosh of large x */
#define GL_LN2_DD gl_dd_of(GL_LN2, GL_LN2_L)
GL_DEV double asinh(double x)
{
    const double a = __builtin_fabs(x);
    if (!__builtin_isfinite(x) || a < 0x1p-26)
        return x;
    gl_dd r;
    if (a > 0x1p28) { /* ln 2a (the next term, 1/(4a^2), is below 2^-58) */
        r = gl_dd_add(gl_log_dd(a), GL_LN2_DD);
    } else { /* log1p(a + a^2 / (1 + sqrt(1 + a^2))) */
        const gl_dd a2 = gl_prod(a, a);
        const gl_dd s = gl_dd_sqrt(gl_dd_add(gl_dd_of(1.0, 0.0), a2));
        const gl_dd d = gl_dd_add(gl_dd_of(1.0, 0.0), s);
        r = gl_log1p_dd(gl_dd_add(gl_dd_of(a, 0.0), gl_dd_div(a2, d)));
    }
    const double v = gl_dd_round(r);
    return x < 0.0 ? -v : v;
}
GL_DEV double acosh(double x)
{
    if (!(x >= 1.0) || __builtin_isinf(x))
        return x >= 1.0 ? x : GL_NAN;
    if (x > 0x1p28)
        return gl_dd_round(gl_dd_add(gl_log_dd(x), GL_LN2_DD));
    /* log1p(x - 1 + sqrt(x^2 - 1)), x - 1 exact */
    const gl_dd p = gl_prod(x, x), w = gl_sum(p.hi, -1.0);
    const gl_dd s = gl_dd_sqrt(gl_fast_sum(w.hi, w.lo + p.lo));
    return gl_dd_round(gl_log1p_dd(gl_dd_add(gl_dd_of(x - 1.0, 0.0), s)));
}
GL_DEV double atanh(double x)
{
    const double a = __builtin_fabs(x);
    if (!(a < 1.0) || a < 0x1p-27)
        return a == 1.0 ? x / 0.0 : a < 1.0 ? x : GL_NAN;
    /* log1p(2a / (1 - a)) / 2 */
    const double r = 0.5 * gl_dd_round(gl_log1p_dd(gl_dd_div(gl_dd_of(2.0 * a, 0.0), gl_sum(1.0, -a))));
    return x < 0.0 ? -r : r;
}

/* -------------------------------------------------------------- roots and hypot */
/* cbrt |x| as a double-double for a finite nonzero x: 2^(log2 |x| / 3) (2^-45), then one
 * Newton step with an exact residual; tiny |x| scaled by 2^162 first */
GL_DEV gl_dd gl_cbrt_dd(double x, double *scale)
{
    double a = __builtin_fabs(x);
    *scale = 1.0;
    if (a < 0x1p-1000) {
        a *= 0x1p162;
        *scale = 0x1p-54;
    }
    const double r = gl_exp2(gl_log2(a) / 3.0);
    const gl_dd r2 = gl_prod(r, r);
    const double res = __builtin_fma(r2.hi, r, -a) + r2.lo * r;
    return gl_fast_sum(r, -res / (3.0 * r2.hi));
}
GL_DEV double cbrt(double x)
{
    if (x == 0.0 || !__builtin_isfinite(x))
        return x + x;
    double sc;
    const double r = gl_dd_round(gl_cbrt_dd(x, &sc)) * sc;
    return x < 0.0 ? -r : r;
}
GL_DEV double rcbrt(double x)
{
    if (x == 0.0 || !__builtin_isfinite(x))
        return x != x ? x + x : 1.0 / x; /* +-inf at +-0, +-0 at +-inf */
    double sc;
    const double r = gl_dd_round(gl_dd_div(gl_dd_of(1.0, 0.0), gl_cbrt_dd(x, &sc))) / sc;
    return x < 0.0 ? -r : r;
}
/* 1/sqrt(x): x = m 4^e, one Newton step on 1/sqrt(m) with 1 - m r^2 from an exact r^2 */
GL_DEV double rsqrt(double x)
{
    if (!(x > 0.0) || __builtin_isinf(x))
        return x == 0.0 ? 1.0 / x : x > 0.0 ? 0.0 : GL_NAN;
    const int e = gl_ilogb_d(x) & ~1;
    const double m = gl_ldexp(x, -e), r = 1.0 / __builtin_sqrt(m);
    const gl_dd h = gl_prod(r, r);
    const double d = __builtin_fma(-m, h.hi, 1.0) - m * h.lo;
    return gl_ldexp(__builtin_fma(0.5 * r, d, r), -e / 2);
}
/* sqrt(x^2 + y^2) (inv = 0) or its reciprocal (inv = 1): scaled so that the larger is in
 * [1, 2), the sum of squares and its root in double-double */
GL_DEV double gl_hypot(double x, double y, int inv)
{
    if (__builtin_isinf(x) || __builtin_isinf(y))
        return inv ? 0.0 : GL_INF;
    if (x != x || y != y)
        return x + y;
    double a = __builtin_fabs(x), b = __builtin_fabs(y);
    if (a < b) {
        const double t = a;
        a = b;
        b = t;
    }
    if (a == 0.0)
        return inv ? GL_INF : 0.0;
    const int e = gl_ilogb_d(a);
    a = gl_ldexp(a, -e);
    b = gl_ldexp(b, -e);
    const gl_dd pa = gl_prod(a, a), pb = gl_prod(b, b), s = gl_sum(pa.hi, pb.hi);
    gl_dd r = gl_dd_sqrt(gl_fast_sum(s.hi, s.lo + pa.lo + pb.lo));
    if (inv)
        r = gl_dd_div(gl_dd_of(1.0, 0.0), r);
    return gl_scale_dd(r, inv ? -e : e);
}
GL_DEV double hypot(double x, double y) { return gl_hypot(x, y, 0); }
GL_DEV double rhypot(double x, double y) { return gl_hypot(x, y, 1); }

/* ------------------------------------------------------- error function family */
/* erf x for |x| < 1 as a double-double: 2/sqrt(pi) (x + x sum (-x^2)^n / (n! (2n + 1)))
 * (to n = 20: 2^-70), its first term -x^3/3 in double-double */
GL_DEV gl_dd gl_erf_small(double x)
{
    const double c[20] = {
        -1.0 / 3,         1.0 / 10,          -1.0 / 42,          1.0 / 216,
        -1.0 / 1320,      1.0 / 9360,        -1.0 / 75600,       1.0 / 685440,
        -1.0 / 6894720,   1.0 / 76204800,    -1.0 / 918086400,   1.0 / 11975040000,
        -1.0 / 168129561600, 1.0 / 2528170444800, -1.0 / 40537905408000,
        1.0 / 690452066304000, -1.0 / 12438544665600000, 1.0 / 236028016263168000,
        -1.0 / 4709419608791040000.0, 1.0 / 98605841636106240000.0}; /* (-1)^n/(n!(2n+1)) */
    const gl_dd z = gl_prod(x, x), x3 = gl_dd_mul(gl_dd_of(x, 0.0), z);
    const gl_dd t = gl_dd_add(gl_dd_div(x3, gl_dd_of(-3.0, 0.0)),
                              gl_dd_of(gl_mul(x3.hi * z.hi, gl_poly(z.hi, c + 1, 19)), 0.0));
    return gl_dd_mul(gl_dd_add(gl_dd_of(x, 0.0), t), gl_dd_of(GL_2RSQRTPI_H, GL_2RSQRTPI_L));
}
/* e^(x^2) erfc x for x >= 0 as a double-double: below 1/2 e^(x^2) (1 - erf x), where
 * the fit's Horner sum cancels; then g(t) / (1 + 2x), g the fit in t; from 2^27 on
 * 1/(sqrt(pi) x) (1 - 1/(2x^2)) */
GL_DEV gl_dd gl_erfcx_pos(double x)
{
    if (x < 0.5) {
        const gl_dd p = gl_prod(x, x), e = gl_erf_small(x);
        int k;
        const gl_dd m = gl_exp_parts(p.hi, p.lo, &k);
        const double s = gl_pow2(k);
        return gl_dd_mul(gl_dd_of(m.hi * s, m.lo * s), gl_dd_add(gl_dd_of(1.0, 0.0), gl_dd_neg(e)));
    }
    if (x > 0x1p27) {
        const double q = 0x1.20dd750429b6dp-1 / x;
        return gl_dd_of(__builtin_fma(q, -0.5 / (x * x), q), 0.0);
    }
    const double c[28] = {
        0x1.3ba5916e9fd7fp+0,  -0x1.1df1ad154a28ep-3, 0x1.f7f5df66fd7b4p-7,  0x1.16ecefcfa5395p-4,
        -0x1.9ddb23c3e90c3p-4, 0x1.7fee004e1257bp-4,  -0x1.0fb06dfe490c3p-4, 0x1.3079edf682110p-5,
        -0x1.0962388538971p-6, 0x1.49c6728655506p-8,  -0x1.8d4a999e8c9a9p-11, -0x1.a1df256980c3cp-13,
        0x1.3be033ce3982ap-13, -0x1.9959511d5ab6dp-16, -0x1.7881b584b07b2p-17, 0x1.7f2a52ef41159p-18,
        0x1.38669fea939c7p-22, -0x1.bb468cf4dff69p-21, 0x1.52c97e7ca5ff3p-24, 0x1.dcfb7c98a8956p-24,
        -0x1.77ab5f11dc2d1p-26, -0x1.0b2374ec65be9p-26, 0x1.0f6f8cf940387p-28, 0x1.37c31c710d399p-29,
        -0x1.276d07fd3fd0ap-31, -0x1.46551477da1c3p-32, 0x1.6f4b2c594b8f3p-35, 0x1.9f3a824329015p-36};
    /* t in double-double (g'(t) is up to 1.7), g = c0 + c1 t + t^2 p(t): p and p' by
     * Horner's rule, the last two steps in double-double with c0, c1 to 106 bits */
    const gl_dd t = gl_dd_div(gl_sum(x, -4.0), gl_sum(x, 4.0));
    double p = c[27], dp = 0.0;
    for (int i = 26; i >= 2; i--) {
        dp = dp * t.hi + p;
        p = p * t.hi + c[i];
    }
    gl_dd g = gl_dd_add(gl_dd_of(c[1], -0x1.22ed6d5b59036p-57), gl_prod(t.hi, p));
    g = gl_dd_add(gl_dd_of(c[0], -0x1.aa27c5042c012p-55), gl_dd_mul(gl_dd_of(t.hi, 0.0), g));
    g = gl_fast_sum(g.hi, g.lo + (c[1] + t.hi * (2.0 * p + t.hi * dp)) * t.lo);
    return gl_dd_div(g, gl_sum(1.0, 2.0 * x));
}
/* erfc u = m 2^k for a double-double u with u.hi >= 0.5: e^(-u^2) erfcx(u), u^2 exact
 * enough for u.lo to count (normcdf's -x/sqrt(2)); erfcx's slope makes u.lo negligible */
GL_DEV gl_dd gl_erfc_parts(gl_dd u, int *k)
{
    const gl_dd u2 = gl_dd_mul(u, u);
    const gl_dd m = gl_exp_parts(-u2.hi, -u2.lo, k);
    return gl_dd_mul(m, gl_erfcx_pos(u.hi));
}
GL_DEV double erf(double x)
{
    const double a = __builtin_fabs(x);
    if (x != x || a < 0x1p-28) /* 2/sqrt(pi) x */
        return __builtin_fma(x, GL_2RSQRTPI_H, x * GL_2RSQRTPI_L);
    if (a < 1.0)
        return gl_dd_round(gl_erf_small(x));
    double r = 1.0;
    if (a < 6.0) { /* 1 - erfc a */
        int k;
        const gl_dd m = gl_erfc_parts(gl_dd_of(a, 0.0), &k);
        const double s = gl_pow2(k);
        r = gl_dd_round(gl_dd_add(gl_dd_of(1.0, 0.0), gl_dd_of(-m.hi * s, -m.lo * s)));
    }
    return x < 0.0 ? -r : r;
}
/* erfc u for a double-double u: 1 - erf below 1/2, e^(-u^2) erfcx u above, 2 - erfc(-u)
 * below -1/2 */
GL_DEV double gl_erfc_dd(gl_dd u)
{
    if (u.hi != u.hi)
        return u.hi;
    if (__builtin_fabs(u.hi) < 0.5) { /* erf(u.hi + u.lo) = erf u.hi + 2/sqrt(pi) u.lo */
        const gl_dd e = gl_erf_small(u.hi);
        return gl_dd_round(gl_dd_add(gl_dd_of(1.0, 0.0),
                                     gl_dd_of(-e.hi, -e.lo - GL_2RSQRTPI_H * u.lo)));
    }
    if (u.hi > 27.3)
        return 0.0;
    if (u.hi < -6.0)
        return 2.0;
    int k;
    const gl_dd m = gl_erfc_parts(u.hi > 0.0 ? u : gl_dd_neg(u), &k);
    if (u.hi > 0.0)
        return gl_scale_dd(m, k);
    const double s = gl_pow2(k);
    return gl_dd_round(gl_dd_add(gl_dd_of(2.0, 0.0), gl_dd_of(-m.hi * s, -m.lo * s)));
}
GL_DEV double erfc(double x) { return gl_erfc_dd(gl_dd_of(x, 0.0)); }
/* e^(x^2) erfc x: below 0, 2 e^(x^2) - erfcx |x| */
GL_DEV double erfcx(double x)
{
    if (x != x || x >= 0.0)
        return x != x ? x + x : gl_dd_round(gl_erfcx_pos(x));
    if (x < -26.7)
        return GL_INF;
    const gl_dd p = gl_prod(x, x);
    int k;
    const gl_dd m = gl_exp_parts(p.hi, p.lo, &k);
    const double s = gl_pow2(k - 1) * 4.0; /* 2 2^k, k up to 1024 */
    return gl_dd_round(gl_dd_add(gl_dd_of(m.hi * s, m.lo * s), gl_dd_neg(gl_erfcx_pos(-x))));
}
/* normcdf x = erfc(-x / sqrt(2)) / 2, with -x / sqrt(2) in double-double */
GL_DEV double normcdf(double x)
{
    if (__builtin_isinf(x))
        return x > 0.0 ? 1.0 : 0.0;
    const gl_dd p = gl_prod(-x, GL_RSQRT2_H);
    return 0.5 * gl_erfc_dd(gl_fast_sum(p.hi, __builtin_fma(-x, GL_RSQRT2_L, p.lo)));
}

/* erfinv y for a double-double 0 <= y <= 0.84 (erfinv y < 1): Newton's method on the
 * double-double erf from the first five terms of the series of erfinv (below the root,
 * 2e-2 at most): five steps, each below the root too (erf is concave) */
GL_DEV double gl_erfinv_small(gl_dd y)
{
    const double w = 0x1.c5bf891b4ef6bp-1 * y.hi, w2 = w * w; /* sqrt(pi)/2 y */
    const double c[5] = {1.0, 1.0 / 3, 7.0 / 30, 127.0 / 630, 4369.0 / 22680};
    double x = w * gl_poly(w2, c, 5);
    for (int i = 0; i < 5; i++) {
        const gl_dd e = gl_erf_small(x);
        x -= ((e.hi - y.hi) + (e.lo - y.lo)) * 0x1.c5bf891b4ef6bp-1 * gl_exp2(x * x * GL_LOG2E);
    }
    return x;
}
/* erfcinv z for 0 < z <= 0.16 (x >= 1): Newton's method on ln erfc x = ln z, whose derivative is
 * -2 / (sqrt(pi) erfcx x): x += (ln erfcx x - x^2 - ln z) sqrt(pi)/2 erfcx x, with
 * x^2 + ln z in double-double; from x^2 = -ln z - ln(pi (-ln z)) / 2 */
GL_DEV double gl_erfcinv_small(double z)
{
    const gl_dd lz = gl_log_dd(z);
    const double w = -lz.hi;
    double x = __builtin_sqrt(w - 0.5 * gl_log(GL_PI_H * w));
    for (int i = 0; i < 8; i++) {
        const gl_dd p = gl_prod(x, x), d = gl_dd_add(p, lz);
        const gl_dd e = gl_erfcx_pos(x);
        const double dx = (gl_log(e.hi) + e.lo / e.hi - d.hi - d.lo) * 0x1.c5bf891b4ef6bp-1 * e.hi;
        x += dx;
        if (__builtin_fabs(dx) < 0x1p-60 * x)
            break;
    }
    return x;
}
GL_DEV double erfinv(double y)
{
    const double a = __builtin_fabs(y);
    if (!(a < 1.0) || y == 0.0)
        return a == 1.0 ? y * GL_INF : a < 1.0 ? y : GL_NAN;
    const double r = a <= 0.84 ? gl_erfinv_small(gl_dd_of(a, 0.0)) : gl_erfcinv_small(1.0 - a);
    return y < 0.0 ? -r : r;
}
GL_DEV double erfcinv(double z)
{
    if (!(z > 0.0 && z < 2.0))
        return z == 0.0 ? GL_INF : z == 2.0 ? -GL_INF : GL_NAN;
    /* erfinv(1 - z) with 1 - z in double-double (2 - z exact), or the log erfc Newton */
    if (z > 1.0)
        return z >= 1.84 ? -gl_erfcinv_small(2.0 - z) : -gl_erfinv_small(gl_sum(z, -1.0));
    return z >= 0.16 ? gl_erfinv_small(gl_sum(1.0, -z)) : gl_erfcinv_small(z);
}
GL_DEV double normcdfinv(double p)
{
    if (!(p > 0.0 && p < 1.0))
        return p == 0.0 ? -GL_INF : p == 1.0 ? GL_INF : GL_NAN;
    const double r = erfcinv(2.0 * p); /* -sqrt(2) r in double-double */
    return 0.0 - gl_dd_round(gl_dd_mul(gl_dd_of(r, 0.0), gl_dd_of(0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54)));
}

/* ------------------------------------------------------------------ gamma functions */
/* ln Gamma y for a double-double y >= 12: Stirling's series (y - 1/2) ln y - y +
 * ln(2 pi)/2 + 1/(12y) + sum B_2k / (2k (2k - 1) y^(2k - 1)), k = 2..9 (4e-21) */
GL_DEV gl_dd gl_lgamma_stirling(gl_dd y)
{
    const double c[8] = {-1.0 / 360,     1.0 / 1260,         -1.0 / 1680,
                         1.0 / 1188,     -691.0 / 360360,    1.0 / 156,
                         -3617.0 / 122400, 43867.0 / 244188};
    const gl_dd ly = gl_dd_add(gl_log_dd(y.hi), gl_dd_of(y.lo / y.hi, 0.0));
    const double iy = 1.0 / y.hi, iy2 = iy * iy;
    gl_dd a = gl_dd_mul(gl_dd_add(y, gl_dd_of(-0.5, 0.0)), ly);
    a = gl_dd_add(a, gl_dd_neg(y));
    a = gl_dd_add(a, gl_dd_of(0x1.d67f1c864beb5p-1, -0x1.65b5a1b7ff5dfp-55)); /* ln(2pi)/2 */
    a = gl_dd_add(a, gl_dd_div(gl_dd_of(1.0, 0.0), gl_dd_mul(gl_dd_of(12.0, 0.0), y)));
    return gl_dd_add(a, gl_dd_of(gl_mul(iy * iy2, gl_poly(iy2, c, 8)), 0.0));
}
/* for x in (-20, 12): y = x + n >= 12 and the product x (x + 1) ... (x + n - 1), both in
 * double-double (Gamma x = Gamma y / product) */
GL_DEV gl_dd gl_gamma_shift(double x, gl_dd *y)
{
    const int n = (int)__builtin_ceil(12.0 - x);
    gl_dd p = gl_dd_of(x, 0.0);
    for (int i = 1; i < n; i++)
        p = gl_dd_mul(p, gl_sum(x, (double)i));
    *y = gl_sum(x, (double)n);
    return p;
}
/* ln |a| for a double-double a != 0 */
GL_DEV gl_dd gl_log_abs_dd(gl_dd a)
{
    if (a.hi < 0.0)
        a = gl_dd_neg(a);
    return gl_dd_add(gl_log_dd(a.hi), gl_dd_of(a.lo / a.hi, 0.0));
}
/* ln pi - ln |sin(pi x)| - ln Gamma(1 - x): ln |Gamma x| for x <= -20 by the reflection */
GL_DEV gl_dd gl_lgamma_reflect(double x)
{
    const gl_dd l = gl_dd_add(gl_dd_of(0x1.250d048e7a1bdp+0, 0x1.7abf2ad8d5088p-57), /* ln pi */
                              gl_dd_neg(gl_log_abs_dd(gl_sinpi_dd(x))));
    return gl_dd_add(l, gl_dd_neg(gl_lgamma_stirling(gl_sum(1.0, -x))));
}
/* ln |Gamma x|: Stirling from 12 on, shifted up from (-20, 12), the reflection below;
 * the Taylor series at 1 and 2 within 1/16 of them (the zeros), to eps^17 (2^-68) */
GL_DEV double lgamma(double x)
{
    if (!__builtin_isfinite(x))
        return x * x;
    if (x <= 0.0 && __builtin_trunc(x) == x)
        return GL_INF;
    if (x > 1e305)
        return x * (log(x) - 1.0);
    const double e1 = x - 1.0, e2 = x - 2.0; /* exact near 1 and 2 */
    if (__builtin_fabs(e1) < 0.0625 || __builtin_fabs(e2) < 0.0625) {
        const int at1 = __builtin_fabs(e1) < 0.0625;
        const double c1[16] = {
            0x1.a51a6625307d3p-1,  -0x1.9a4d55beab2d7p-2, 0x1.151322ac7d848p-2,
            -0x1.a8b9c17aa6149p-3, 0x1.5b40cb100c306p-3,  -0x1.2703a1dcea3aep-3,
            0x1.010b36af86397p-3,  -0x1.c806706d57db4p-4, 0x1.9a01e385d5f8fp-4,
            -0x1.748c33114c6d6p-4, 0x1.556ad63243bc4p-4,  -0x1.3b1d971fc5985p-4,
            0x1.2496df8320c5fp-4,  -0x1.11133476e7fe0p-4, 0x1.00010064cdeb2p-4,
            -0x1.e1e2d311e8abdp-5}; /* (-1)^k zeta(k) / k, k = 2..17 */
        const double c2[16] = {
            0x1.4a34cc4a60fa6p-2,  -0x1.13e001a557607p-4, 0x1.51322ac7d8483p-6,
            -0x1.e404fc218f5f2p-8, 0x1.7add6eadb6c30p-9,  -0x1.38ac5c2bf8e08p-10,
            0x1.0b36af86396e9p-11, -0x1.d3fd4c76d2fc8p-13, 0x1.a127b0f17d65ap-14,
            -0x1.78de5bd7c81efp-15, 0x1.580dcee66eb02p-16, -0x1.3cbc963ce2243p-17,
            0x1.2597a39f34aacp-18, -0x1.11b2eb7679541p-19, 0x1.0064cdeb22f0fp-20,
            -0x1.e2600d93cfd2fp-22}; /* (-1)^k (zeta(k) - 1) / k, k = 2..17 */
        const double e = at1 ? e1 : e2;
        const double ch = at1 ? -0x1.2788cfc6fb619p-1 : 0x1.b0ee6072093cep-2; /* -gamma, 1-gamma */
        const gl_dd a = gl_prod(e, ch);
        const double t = e * e * (at1 ? gl_poly(e, c1, 16) : gl_poly(e, c2, 16));
        return gl_dd_round(gl_fast_sum(a.hi, a.lo + e * 0x1.6cb90701fbfabp-58 + t));
    }
    if (x >= 12.0)
        return gl_dd_round(gl_lgamma_stirling(gl_dd_of(x, 0.0)));
    if (x > -20.0) {
        gl_dd y;
        const gl_dd p = gl_gamma_shift(x, &y);
        return gl_dd_round(gl_dd_add(gl_lgamma_stirling(y), gl_dd_neg(gl_log_abs_dd(p))));
    }
    return gl_dd_round(gl_lgamma_reflect(x));
}
/* Gamma x = e^(ln Gamma) with the exponent in double-double: Stirling from 12 on, shifted
 * up from (-20, 12), reflected below (with the sign of sin(pi x)) */
GL_DEV double tgamma(double x)
{
    if (x == 0.0 || !__builtin_isfinite(x))
        return x == 0.0 ? 1.0 / x : x > 0.0 ? x : GL_NAN;
    if (x < 0.0 && __builtin_trunc(x) == x)
        return GL_NAN;
    if (x > 171.7)
        return GL_INF;
    if (__builtin_fabs(x) < 0x1p-54) /* 1/x - Euler's gamma */
        return 1.0 / x;
    gl_dd l, d = gl_dd_of(1.0, 0.0);
    if (x >= 12.0) {
        l = gl_lgamma_stirling(gl_dd_of(x, 0.0));
    } else if (x > -20.0) {
        gl_dd y;
        d = gl_gamma_shift(x, &y);
        l = gl_lgamma_stirling(y);
    } else {
        l = gl_lgamma_reflect(x);
        d = gl_sinpi_dd(x); /* only its sign counts: |Gamma| is in l */
        d = gl_dd_of(d.hi < 0.0 ? -1.0 : 1.0, 0.0);
    }
    if (l.hi < -760.0)
        return d.hi < 0.0 ? -0.0 : 0.0;
    int k;
    const gl_dd m = gl_exp_parts(l.hi, l.lo, &k);
    return gl_scale_dd(gl_dd_div(m, d), k);
}

/* ---------------------------------------------------- single-precision special functions */
/* each the double function rounded once to float */
GL_DEV float erfcf(float x) { return (float)erfc((double)x); }
GL_DEV float erfcxf(float x) { return (float)erfcx((double)x); }
GL_DEV float erfinvf(float x) { return (float)erfinv((double)x); }
GL_DEV float erfcinvf(float x) { return (float)erfcinv((double)x); }
GL_DEV float normcdff(float x) { return (float)normcdf((double)x); }
GL_DEV float normcdfinvf(float x) { return (float)normcdfinv((double)x); }
GL_DEV float lgammaf(float x) { return (float)lgamma((double)x); }
GL_DEV float tgammaf(float x) { return (float)tgamma((double)x); }
GL_DEV float sinpif(float x) { return (float)sinpi((double)x); }
GL_DEV float cospif(float x) { return (float)cospi((double)x); }
GL_DEV void sincospif(float x, float *s, float *c)
{
    *s = sinpif(x);
    *c = cospif(x);
}
GL_DEV float rcbrtf(float x) { return (float)rcbrt((double)x); }
GL_DEV float rhypotf(float x, float y)
{
    if (__builtin_isinf(x) || __builtin_isinf(y))
        return 0.0f;
    const double a = x, b = y; /* the squares are exact in double */
    return (float)(1.0 / __builtin_sqrt(a * a + b * b));
}

/* ----------------------------------------------- exact double functions (C11 §7.12) */
GL_DEV double ldexp(double x, int n) { return gl_ldexp(x, n); }
GL_DEV double scalbn(double x, int n) { return gl_ldexp(x, n); }
GL_DEV double scalbln(double x, long n) { return gl_ldexp(x, n); }
GL_DEV int ilogb(double x)
{
    if (x == 0.0 || x != x)
        return -2147483647 - 1; /* FP_ILOGB0 and FP_ILOGBNAN are INT_MIN, as CUDA's */
    return __builtin_isinf(x) ? 2147483647 : gl_ilogb_d(x);
}
GL_DEV double logb(double x)
{
    if (x == 0.0)
        return -GL_INF;
    if (!__builtin_isfinite(x))
        return x * x;
    return (double)gl_ilogb_d(x);
}
GL_DEV double frexp(double x, int *e)
{
    if (x == 0.0 || !__builtin_isfinite(x)) {
        *e = 0;
        return x + x;
    }
    *e = gl_ilogb_d(x) + 1;
    return gl_ldexp(x, -*e);
}
GL_DEV double modf(double x, double *ip)
{
    *ip = __builtin_trunc(x);
    return __builtin_copysign(__builtin_isinf(x) ? 0.0 : x - *ip, x);
}
GL_DEV double fdim(double x, double y)
{
    return x > y ? x - y : (x != x || y != y) ? x + y : 0.0;
}
GL_DEV double nearbyint(double x) { return __builtin_rint(x); }
GL_DEV long long llrint(double x) { return __double2ll_rn(x); }
GL_DEV long lrint(double x) { return (long)__double2ll_rn(x); }
GL_DEV long long llround(double x) { return __double2ll_rz(__builtin_round(x)); }
GL_DEV long lround(double x) { return (long)__double2ll_rz(__builtin_round(x)); }
GL_DEV double nextafter(double x, double y)
{
    if (x != x || y != y)
        return x + y;
    if (x == y)
        return y;
    if (x == 0.0)
        return __builtin_copysign(__longlong_as_double(1), y);
    const long long u = __double_as_longlong(x);
    return __longlong_as_double((x < y) == (x > 0.0) ? u + 1 : u - 1);
}
/* |x| mod |y| for finite x, nonzero finite y with |x| >= |y|: the remainder of the
 * integer significands, shifted in 11 bits at a time (exact); the quotient's low three
 * bits in *q */
GL_DEV double gl_fmod_abs_d(double x, double y, unsigned *q)
{
    const unsigned long long ux = (unsigned long long)__double_as_longlong(x) << 1 >> 1;
    const unsigned long long uy = (unsigned long long)__double_as_longlong(y) << 1 >> 1;
    const int ex = ux >> 52 ? (int)(ux >> 52) : 1, ey = uy >> 52 ? (int)(uy >> 52) : 1;
    const unsigned long long mx = (ux & 0xfffffffffffffull) | (ux >> 52 ? 1ull << 52 : 0);
    const unsigned long long my = (uy & 0xfffffffffffffull) | (uy >> 52 ? 1ull << 52 : 0);
    unsigned long long r = mx % my;
    unsigned qq = (unsigned)(mx / my);
    for (int d = ex - ey; d > 0;) {
        const int s = d > 11 ? 11 : d;
        const unsigned long long v = r << s;
        qq = (qq << s) + (unsigned)(v / my);
        r = v % my;
        d -= s;
    }
    *q = qq & 7;
    return gl_ldexp((double)r, ey - 1075);
}
GL_DEV double fmod(double x, double y)
{
    if (x != x || y != y || __builtin_isinf(x) || y == 0.0)
        return x != x || y != y ? x + y : GL_NAN;
    if (__builtin_fabs(x) < __builtin_fabs(y))
        return x; /* also y infinite */
    unsigned q;
    return __builtin_copysign(gl_fmod_abs_d(x, y, &q), x);
}
/* x - n y for n the integer nearest x / y (ties to even); the low three bits of n, with
 * the sign of x / y, in *quo */
GL_DEV double remquo(double x, double y, int *quo)
{
    *quo = 0;
    if (x != x || y != y || __builtin_isinf(x) || y == 0.0)
        return x != x || y != y ? x + y : GL_NAN;
    if (__builtin_isinf(y))
        return x;
    const double ay = __builtin_fabs(y), ax = __builtin_fabs(x);
    unsigned q = 0;
    double r = ax < ay ? ax : gl_fmod_abs_d(x, y, &q);
    /* r against ay/2, exactly: halving ay is exact unless subnormal, doubling r then is */
    const int cmp = ay >= 0x1p-1021 ? (r > 0.5 * ay) - (r < 0.5 * ay) : (2.0 * r > ay) - (2.0 * r < ay);
    if (cmp > 0 || (cmp == 0 && (q & 1))) {
        r -= ay; /* exact */
        q++;
    }
    const int neg = (x < 0.0) != (y < 0.0);
    *quo = neg ? -(int)(q & 7) : (int)(q & 7);
    return x < 0.0 ? -r : r;
}
GL_DEV double remainder(double x, double y)
{
    int q;
    return remquo(x, y, &q);
}

#undef GL_LN2_DD
#undef GL_NAN
#undef GL_INF
#undef GL_LN2_L
#undef GL_PIO2_H
#undef GL_PIO2_L
#undef GL_PI_H
#undef GL_PI_L
#undef GL_2RSQRTPI_H
#undef GL_2RSQRTPI_L
#undef GL_RSQRT2_H
#undef GL_RSQRT2_L
