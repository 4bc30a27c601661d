/* spec_rng.c — the documented random generator behind a spec's "random" initialiser
 * (spec.h spec_random_fill, spec_random_fill_init and its classes): splitmix64, identical on
 * every back end. */
#include "runtime/spec_internal.h"

#include <math.h>
#include <string.h>

/* splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014; the constants of Vigna's splitmix64.c). Per output, with 64-bit
 * wrapping arithmetic:
 *     state += 0x9E3779B97F4A7C15;
 *     z = state;
 *     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
 *     z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
 *     return z ^ (z >> 31);
 * The state starts at the seed, so seed 0 gives 0xE220A8397B1DCDAF first. One output r
 * per element, in order:
 *   integers: min + (r % (max - min + 1)) in 64-bit wrapping arithmetic (r itself when
 *             the range is all 2^64 values), then the low bits of the type;
 *   f32:      u = (r >> 40) * 2^-24, value = (float)(min + (max - min) * u);
 *   f64:      u = (r >> 11) * 2^-53, value = min + (max - min) * u;
 * with min + (max - min) * u computed in double, so u is in [0, 1) but rounding may give
 * max itself. min/max use .i for signed types, .u for unsigned ones, .f for floats. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

void spec_random_fill(void *dst, gl_type t, size_t len, uint64_t seed, gl_value min, gl_value max)
{
    uint64_t state = seed;
    const double span = max.f - min.f;
    unsigned char *p = dst;
    if (t == GL_F32) { /* one loop per type, each element stored in place */
        for (size_t i = 0; i < len; i++) {
            const double u = (double)(splitmix64(&state) >> 40) * 0x1p-24;
            const float x = (float)(min.f + span * u);
            memcpy(p + 4 * i, &x, 4);
        }
        return;
    }
    if (t == GL_F64) {
        for (size_t i = 0; i < len; i++) {
            const double u = (double)(splitmix64(&state) >> 11) * 0x1p-53;
            const double x = min.f + span * u;
            memcpy(p + 8 * i, &x, 8);
        }
        return;
    }
    /* For signed types .i and .u share their bits: the same wrapping arithmetic works. */
    uint64_t range = max.u - min.u;
    for (size_t i = 0; i < len; i++) {
        uint64_t r = splitmix64(&state);
        uint64_t off = range == UINT64_MAX ? r : r % (range + 1);
        spec_store_bits(dst, t, i, min.u + off);
    }
}

/* The class full_range of an integer type, in [lo, hi] (.i for signed types, .u for
 * unsigned ones). Two outputs r1, r2 per element: when r1 % 8 == 0 the element is
 * special number (r1 / 8) % count, the specials being lo, hi, 0, 1, -1 (signed types),
 * lo + 1 and hi - 1, in that order, each kept once and only if inside [lo, hi]; otherwise
 * it is lo + r2 % (hi - lo + 1), as spec_random_fill draws. */
static void fill_full_range_int(void *dst, gl_type t, size_t len, uint64_t seed, gl_value lo,
                                gl_value hi)
{
    const bool sig = spec_type_is_signed(t);
    const uint64_t cand[] = {lo.u, hi.u, 0, 1, sig ? UINT64_MAX : 0, lo.u + 1, hi.u - 1};
    uint64_t special[7];
    int ns = 0;
    for (size_t k = 0; k < sizeof cand / sizeof *cand; k++) {
        const uint64_t v = cand[k];
        const bool in = sig ? (int64_t)v >= lo.i && (int64_t)v <= hi.i : v >= lo.u && v <= hi.u;
        int seen = 0;
        for (int j = 0; j < ns; j++)
            seen |= special[j] == v;
        if (in && !seen)
            special[ns++] = v;
    }
    const uint64_t range = hi.u - lo.u;
    uint64_t state = seed;
    for (size_t i = 0; i < len; i++) {
        const uint64_t r1 = splitmix64(&state), r2 = splitmix64(&state);
        if (r1 % 8 == 0)
            spec_store_bits(dst, t, i, special[(r1 / 8) % (uint64_t)ns]);
        else
            spec_store_bits(dst, t, i, lo.u + (range == UINT64_MAX ? r2 : r2 % (range + 1)));
    }
}

/* The class full_range of f32 or f64, in [lo, hi] (rounded to the type). q is the
 * quantum, or the type's smallest denormal (2^-149, 2^-1074) when none is given. Three
 * outputs r1, r2, r3 per element:
 *   - r1 % 8 == 0: special number (r1 / 8) % count, the specials being +0 (when
 *     lo <= 0 <= hi), -0 (when also lo < 0), q, -q, without a quantum the smallest
 *     normal (2^-126, 2^-1022) and the largest denormal of either sign, hi, lo, and with
 *     nonfinite +inf, -inf and NaN; in that order, each kept once and (but for the
 *     nonfinite ones) only if inside [lo, hi];
 *   - otherwise a sign, negative when hi <= 0 and lo < 0, positive when lo >= 0, else
 *     bit 3 of r1; the magnitudes that sign allows, [a, b] (b = hi or -lo; a = lo or -hi
 *     where the range does not reach 0, else q); a binade e = ea + r2 % (eb - ea + 1),
 *     ea and eb being those of a and b (floor(log2)); and the value
 *     2^e + s * (r3 % (2^e / s)), s = max(the binade's ulp 2^(e - 23) or 2^(e - 52), q),
 *     clamped into [a, b], with the sign.
 * Every binade gets the same share, the denormal ones too (each counts as one), so
 * magnitudes from q to the largest are all drawn; with a quantum every value is a
 * multiple of it. */
static void fill_full_range_float(void *dst, gl_type t, size_t len, const gl_init *in)
{
    const bool f32 = t == GL_F32;
    const int p = f32 ? 24 : 53, emin = f32 ? -126 : -1022;
    const double denorm = ldexp(1, emin - p + 1);
    const double q = in->quantum > 0 ? in->quantum : denorm;
    const double lo = f32 ? (double)(float)in->a.f : in->a.f;
    const double hi = f32 ? (double)(float)in->b.f : in->b.f;
    double cand[13];
    int nc = 0;
    if (lo <= 0 && hi >= 0)
        cand[nc++] = 0.0;
    if (lo < 0 && hi >= 0)
        cand[nc++] = -0.0;
    cand[nc++] = q;
    cand[nc++] = -q;
    if (in->quantum <= 0) {
        cand[nc++] = ldexp(1, emin);
        cand[nc++] = -ldexp(1, emin);
        cand[nc++] = ldexp(1, emin) - denorm;
        cand[nc++] = denorm - ldexp(1, emin);
    }
    cand[nc++] = hi;
    cand[nc++] = lo;
    double special[16];
    int ns = 0;
    for (int k = 0; k < nc; k++) {
        int seen = 0;
        for (int j = 0; j < ns; j++)
            seen |= memcmp(&special[j], &cand[k], sizeof(double)) == 0;
        if (cand[k] >= lo && cand[k] <= hi && !seen)
            special[ns++] = cand[k];
    }
    if (in->nonfinite) {
        special[ns++] = INFINITY;
        special[ns++] = -INFINITY;
        special[ns++] = NAN;
    }
    uint64_t state = in->seed;
    for (size_t i = 0; i < len; i++) {
        const uint64_t r1 = splitmix64(&state), r2 = splitmix64(&state), r3 = splitmix64(&state);
        if (r1 % 8 == 0 && ns > 0) {
            spec_store_float(dst, t, i, special[(r1 / 8) % (uint64_t)ns]);
            continue;
        }
        const bool neg = hi <= 0 ? lo < 0 : lo >= 0 ? false : (r1 >> 3) & 1;
        const double b = neg ? -lo : hi;
        const double a = neg ? (hi < 0 ? -hi : q) : (lo > 0 ? lo : q);
        double v = b;
        if (b >= a) {
            const int ea = ilogb(a), eb = ilogb(b);
            const int e = ea + (int)(r2 % (uint64_t)(eb - ea + 1));
            const double ulp = ldexp(1, e - p + 1), s = ulp > q ? ulp : q;
            const uint64_t count = (uint64_t)(ldexp(1, e) / s);
            v = ldexp(1, e) + s * (double)(r3 % count);
            v = v < a ? a : v > b ? b : v;
        }
        spec_store_float(dst, t, i, neg ? -v : v);
    }
}

/* The class bit_ranges of an integer type of W bits (the whole type's range): the buffer
 * is cut into W / 8 + 1 parts, element i in part i * (W / 8 + 1) / len (rounded down);
 * part k < W / 8 varies only bits 8k to 8k + 7 (mask 0xff << 8k), the last part only bit
 * W - 1. One output per part, taken at its first element, is its base; one output r per
 * element then gives base ^ (r & mask), cut to W bits. A sort that skips any bit range
 * leaves one part out of order. */
static void fill_bit_ranges(void *dst, gl_type t, size_t len, uint64_t seed)
{
    const unsigned w = (unsigned)(8 * spec_type_size(t));
    const uint64_t parts = w / 8 + 1;
    uint64_t state = seed, base = 0, cur = UINT64_MAX;
    for (size_t i = 0; i < len; i++) {
        const uint64_t k = (uint64_t)i * parts / len;
        if (k != cur) {
            base = splitmix64(&state);
            cur = k;
        }
        const uint64_t mask = k < w / 8 ? (uint64_t)0xff << (8 * k) : (uint64_t)1 << (w - 1);
        spec_store_bits(dst, t, i, base ^ (splitmix64(&state) & mask));
    }
}

void spec_random_fill_init(void *dst, gl_type t, size_t len, const gl_init *in)
{
    if (in->rclass == GL_RANDOM_BIT_RANGES)
        fill_bit_ranges(dst, t, len, in->seed);
    else if (in->rclass == GL_RANDOM_FULL_RANGE && spec_type_is_float(t))
        fill_full_range_float(dst, t, len, in);
    else if (in->rclass == GL_RANDOM_FULL_RANGE)
        fill_full_range_int(dst, t, len, in->seed, in->a, in->b);
    else
        spec_random_fill(dst, t, len, in->seed, in->a, in->b);
}
