/* exec_alu.c — the arithmetic families' handlers called once per warp instruction:
 * comparisons (PTX ISA §9.7.6), conversions (§9.7.9.21 cvt), extended-precision integer
 * arithmetic (§9.7.2), SIMD video instructions (§9.7.16.2) and half precision
 * (§9.7.4). The per-lane value helpers they share with the other tiers are in exec.h.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_lanes.h"
#include "sim/sfu.h"

/* ------------------------------------------------------------ comparisons */

/* PTX ISA §9.7.1.x setp / Table "Integer and bit-size comparison operators" and
 * "Floating-point comparison operators". */
int sim_compare(int op, ptx_type ty, uint64_t x, uint64_t y)
{
    unsigned sz = PTX_TSIZE(ty);
    if (PTX_TCLASS(ty) == PTX_TC_F || PTX_TCLASS(ty) == PTX_TC_BF) {
        int bf = PTX_TCLASS(ty) == PTX_TC_BF;
        double a = sz == 2 ? half_val((uint32_t)x, bf) : sz == 4 ? (double)f32(x) : f64(x);
        double b = sz == 2 ? half_val((uint32_t)y, bf) : sz == 4 ? (double)f32(y) : f64(y);
        int un = isnan(a) || isnan(b);
        switch (op) {
        case PTX_CMP_EQ: return !un && a == b;
        case PTX_CMP_NE: return !un && a != b;
        case PTX_CMP_LT: return !un && a < b;
        case PTX_CMP_LE: return !un && a <= b;
        case PTX_CMP_GT: return !un && a > b;
        case PTX_CMP_GE: return !un && a >= b;
        case PTX_CMP_EQU: return un || a == b;
        case PTX_CMP_NEU: return un || a != b;
        case PTX_CMP_LTU: return un || a < b;
        case PTX_CMP_LEU: return un || a <= b;
        case PTX_CMP_GTU: return un || a > b;
        case PTX_CMP_GEU: return un || a >= b;
        case PTX_CMP_NUM: return !un;
        case PTX_CMP_NAN: return un;
        default: return 0;
        }
    }
    if (PTX_TCLASS(ty) == PTX_TC_S) {
        int64_t a = sx(x, sz), b = sx(y, sz);
        switch (op) {
        case PTX_CMP_EQ: return a == b;
        case PTX_CMP_NE: return a != b;
        case PTX_CMP_LT: return a < b;
        case PTX_CMP_LE: return a <= b;
        case PTX_CMP_GT: return a > b;
        case PTX_CMP_GE: return a >= b;
        default: break;
        }
    }
    uint64_t a = zx(x, sz), b = zx(y, sz);
    switch (op) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return a != b;
    case PTX_CMP_LT:
    case PTX_CMP_LO: return a < b;
    case PTX_CMP_LE:
    case PTX_CMP_LS: return a <= b;
    case PTX_CMP_GT:
    case PTX_CMP_HI: return a > b;
    case PTX_CMP_GE:
    case PTX_CMP_HS: return a >= b;
    default: return 0;
    }
}

/* ------------------------------------------------------------ conversion */

/* A float-to-integer cvt (PTX ISA §9.7.9.21 cvt: rounded with .rni/.rzi/.rmi/.rpi, then
 * clamped to the destination's range). The PTX ISA does not say what a NaN source gives;
 * verified on an H200 (tests/corpus/cvt_float_int, cvt_double): f32 (or f16/bf16) to a
 * 32-bit or narrower integer gives 0; a 64-bit destination gives 0x8000000000000000 for
 * .s64 and .u64 alike; f64 to .s32 gives 0x80000000. f64 to .u32 and f64 to 8/16-bit are
 * taken to follow f64 to .s32 (the sign bit of the destination alone): not yet seen on a
 * GPU (tests/kernels/ops/cvt_nan_probe.cu records them). ssz: the source size in bytes. */
static uint64_t float_to_int(double x, int rnd, ptx_type dt, unsigned ssz)
{
    unsigned dsz = PTX_TSIZE(dt);
    int is_s = PTX_TCLASS(dt) == PTX_TC_S;
    if (isnan(x))
        return dsz == 8 || ssz == 8 ? (uint64_t)1 << (dsz * 8 - 1) : 0;
    switch (rnd) {
    case PTX_RND_RNI:
    case PTX_RND_RN: x = nearbyint(x); break;
    case PTX_RND_RMI:
    case PTX_RND_RM: x = floor(x); break;
    case PTX_RND_RPI:
    case PTX_RND_RP: x = ceil(x); break;
    default: x = trunc(x); break;
    }
    /* float-to-integer conversions saturate (PTX ISA §9.7.9.21 cvt) */
    if (is_s) {
        double lo = -ldexp(1.0, (int)dsz * 8 - 1), hi = ldexp(1.0, (int)dsz * 8 - 1);
        int64_t r;
        if (x <= lo)
            r = dsz >= 8 ? INT64_MIN : -((int64_t)1 << (dsz * 8 - 1));
        else if (x >= hi)
            r = dsz >= 8 ? INT64_MAX : ((int64_t)1 << (dsz * 8 - 1)) - 1;
        else
            r = (int64_t)x;
        return zx((uint64_t)r, dsz);
    }
    double hi = ldexp(1.0, (int)dsz * 8);
    if (x <= 0)
        return 0;
    if (x >= hi)
        return zx(UINT64_MAX, dsz);
    return (uint64_t)x;
}

/* The integer v (zx: unsigned; else signed) of ssz bytes as a double that rounds like v
 * itself to a format of at most 51 mantissa bits (f16, bf16): above 2^53 the bits below
 * the double's precision become one sticky bit, so .rn/.rz/.rm/.rp see the exact value
 * (a plain (double) would round twice: cvt.rn.bf16.u64 of 2^63 + 2^55 + 1 gave 2^63). */
static double int_to_double_sticky(uint64_t v, unsigned ssz, int is_signed)
{
    const int neg = is_signed && sx(v, ssz) < 0;
    uint64_t m = neg ? (uint64_t)0 - (uint64_t)sx(v, ssz) : zx(v, ssz);
    if (m >> 53) {
        const int sh = 64 - __builtin_clzll(m) - 53;
        m = (m >> sh) | ((m & (((uint64_t)1 << sh) - 1)) != 0);
        return neg ? -ldexp((double)m, sh) : ldexp((double)m, sh);
    }
    return neg ? -(double)m : (double)m;
}

/* x rounded to an integral value by cvt's integer rounding rnd (.rni ties to even, .rzi,
 * .rmi, .rpi; PTX ISA §9.7.9.21 "Integer Notes"); -0.0 and a NaN kept. */
static double round_integral(double x, int rnd)
{
    switch (rnd) {
    case PTX_RND_RNI: return nearbyint(x);
    case PTX_RND_RZI: return trunc(x);
    case PTX_RND_RMI: return floor(x);
    default: return ceil(x);
    }
}

/* Mantissa bits of a float type (0: not one cvt_nan64 handles). */
static unsigned fmant(ptx_type t)
{
    return t == PTX_T_F64    ? 52
           : t == PTX_T_F32  ? 23
           : t == PTX_T_F16  ? 10
           : t == PTX_T_BF16 ? 7
                             : 0;
}

/* A NaN converted to or from .f64 (the ISA says only "NaN"): an H200 keeps its sign and
 * payload, aligned to the top of the destination's mantissa and made quiet (cvt.f32.f64
 * of 0x7ff8000000000000 is 0x7fc00000, cvt.f64.f16 of 0xfe01 is 0xfff8040000000000;
 * tools/cvt_gpu_check.sh), where between the narrower types a NaN becomes the canonical
 * one. Returns 1 with the result in *out when v is such a NaN. */
static int cvt_nan64(ptx_type dt, ptx_type st, uint64_t v, uint64_t *out)
{
    const unsigned ms = fmant(st), md = fmant(dt);
    if (!ms || !md || dt == st || (dt != PTX_T_F64 && st != PTX_T_F64))
        return 0;
    const unsigned ws = PTX_TSIZE(st) * 8, wd = PTX_TSIZE(dt) * 8;
    const uint64_t one = 1, mmask = (one << ms) - 1, emask = ((one << (ws - 1 - ms)) - 1) << ms;
    if ((v & emask) != emask || !(v & mmask))
        return 0;
    const uint64_t sign = (v >> (ws - 1)) & 1, m52 = (v & mmask) << (52 - ms);
    const uint64_t dm = ((m52 >> (52 - md)) | (one << (md - 1))) & ((one << md) - 1);
    *out = (sign << (wd - 1)) | (((one << (wd - 1 - md)) - 1) << md) | dm;
    return 1;
}

/* cvt, PTX ISA §9.7.9.21. */
uint64_t sim_cvt(const ptx_insn *in, uint64_t v)
{
    ptx_type dt = (ptx_type)in->type, st = (ptx_type)in->type2;
    unsigned dsz = PTX_TSIZE(dt), ssz = PTX_TSIZE(st);
    int sat = (in->flags & PTX_F_SAT) != 0, ftz = (in->flags & PTX_F_FTZ) != 0;
    uint64_t nan_out;
    if (!sat && !(in->bop & PTX_RELU) && cvt_nan64(dt, st, v, &nan_out))
        return nan_out;
    if (st == PTX_T_F16 || st == PTX_T_BF16 || dt == PTX_T_F16 || dt == PTX_T_BF16) {
        /* half precision (PTX ISA §9.7.9.21 cvt, "Floating Point Conversion"): one
         * rounding, from the exact value of the source */
        double x;
        if (st == PTX_T_F16 || st == PTX_T_BF16)
            x = half_val((uint32_t)v, st == PTX_T_BF16);
        else if (PTX_TCLASS(st) == PTX_TC_F)
            /* .ftz does not flush an .f32 subnormal on its way to .f16: an H200 gives
             * cvt.rp.ftz.f16.f32 of 0x00000001 the least subnormal 0x0001
             * (tools/cvt_gpu_check.sh) */
            x = ssz == 4 ? (double)(ftz && dt != PTX_T_F16 ? ftzf(f32(v)) : f32(v)) : f64(v);
        else
            x = int_to_double_sticky(v, ssz, PTX_TCLASS(st) == PTX_TC_S);
        if (dt == PTX_T_F16 || dt == PTX_T_BF16) {
            int rnd = in->rnd;
            if (rnd >= PTX_RND_RNI && rnd <= PTX_RND_RPI) { /* cvt.rni.f16.f16: integral */
                x = round_integral(x, rnd);
                rnd = PTX_RND_RN;
            }
            if (in->bop & PTX_RELU)
                x = relu(x);
            return half_bits(sat ? satd(x) : x, dt == PTX_T_BF16, rnd,
                             (in->bop & PTX_CVT_SATFINITE) != 0);
        }
        if (PTX_TCLASS(dt) != PTX_TC_F)
            return float_to_int(x, in->rnd, dt, ssz);
        if (sat)
            x = satd(x);
        /* cvt.f32.bf16 of a NaN keeps its sign and payload (the bf16 bits become the f32's
         * upper half; the PTX ISA says only "NaN"; measured on an H100: corpus
         * half_roundtrip_bf16), while cvt.f32.f16 gives the canonical 0x7fffffff
         * (corpus half_roundtrip_f16) */
        if (isnan(x) && st == PTX_T_BF16 && dsz == 4)
            return (v & 0xffff) << 16;
        return dsz == 4 ? canon32(ftz ? ftzf((float)x) : (float)x) : bf64(x);
    }
    if (PTX_TCLASS(st) == PTX_TC_F) {
        double x = ssz == 4 ? (double)(ftz ? ftzf(f32(v)) : f32(v)) : f64(v);
        if (PTX_TCLASS(dt) != PTX_TC_F)
            return float_to_int(x, in->rnd, dt, ssz);
        if (in->rnd >= PTX_RND_RNI && in->rnd <= PTX_RND_RPI)
            x = round_integral(x, in->rnd);
        if (sat)
            x = satd(x);
        if (dsz == 4) {
            int old = round_begin(in->rnd);
            volatile double vx = x;
            volatile float f = (float)vx;
            fesetround(old);
            float r = f;
            return canon32(ftz ? ftzf(r) : r);
        }
        return bf64(x);
    }
    int s_signed = PTX_TCLASS(st) == PTX_TC_S;
    uint64_t xv = s_signed ? (uint64_t)sx(v, ssz) : zx(v, ssz);
    if (PTX_TCLASS(dt) == PTX_TC_F) {
        int old = round_begin(in->rnd);
        uint64_t r;
        if (dsz == 4) {
            volatile float f = s_signed ? (float)(int64_t)xv : (float)xv;
            r = bf32(sat ? satf(f) : f);
        } else {
            volatile double d = s_signed ? (double)(int64_t)xv : (double)xv;
            r = bf64(sat ? satd(d) : d);
        }
        fesetround(old);
        return r;
    }
    if (sat) {
        int d_signed = PTX_TCLASS(dt) == PTX_TC_S;
        if (d_signed) {
            int64_t hi = dsz >= 8 ? INT64_MAX : ((int64_t)1 << (dsz * 8 - 1)) - 1;
            int64_t lo = -hi - 1;
            if (s_signed) {
                int64_t x = (int64_t)xv;
                x = x < lo ? lo : x > hi ? hi : x;
                return zx((uint64_t)x, dsz);
            }
            return zx(xv > (uint64_t)hi ? (uint64_t)hi : xv, dsz);
        }
        uint64_t hi = zx(UINT64_MAX, dsz);
        if (s_signed && (int64_t)xv < 0)
            return 0;
        return xv > hi ? hi : xv;
    }
    return zx(xv, dsz);
}

/* Extended-precision integer arithmetic (PTX ISA §9.7.2: add.cc, addc, sub.cc, subc,
 * mad.cc, madc). The carry flag CC.CF is a hidden register of the function
 * (ptx_insn.target); for subtraction it holds the borrow. */
void sim_exec_carry(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const unsigned sz = PTX_TSIZE(in->type), bits = sz * 8;
    const int is_s = PTX_TCLASS(in->type) == PTX_TC_S;
    const int cin = in->op == PTX_OP_addc || in->op == PTX_OP_subc || in->op == PTX_OP_madc;
    const int cout = (in->flags & PTX_F_CC) != 0;
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {
        unsigned t = base + (unsigned)__builtin_ctz(m_);
        uint64_t *R = sim_lane_regs(c, t);
        unsigned __int128 cf = cin ? (RG(in->target) & 1) : 0;
        uint64_t a = zx(opval(c, &in->o[1], R, t), sz), b = zx(opval(c, &in->o[2], R, t), sz);
        unsigned __int128 r;
        uint64_t carry;
        if (in->op == PTX_OP_sub || in->op == PTX_OP_subc) {
            r = (unsigned __int128)a - b - cf;
            carry = (unsigned __int128)b + cf > a;
        } else {
            unsigned __int128 p = (unsigned __int128)a + 0;
            if (in->op == PTX_OP_mad || in->op == PTX_OP_madc) {
                __int128 full =
                    is_s ? (__int128)sx(a, sz) * sx(b, sz) : (__int128)((unsigned __int128)a * b);
                p = (in->flags & PTX_F_HI) ? (unsigned __int128)(full >> bits)
                                           : (unsigned __int128)full;
                p &=
                    bits == 64 ? (unsigned __int128)UINT64_MAX : ((unsigned __int128)1 << bits) - 1;
                b = zx(opval(c, &in->o[3], R, t), sz);
            }
            r = p + b + cf;
            carry = (uint64_t)(r >> bits) & 1;
        }
        RG(in->o[0].reg) = zx((uint64_t)r, sz);
        if (cout)
            RG(in->target) = carry;
    }
}

/* SIMD video instructions (PTX ISA §9.7.16.2 "SIMD Video Instructions", §9.7.18.2 in
 * PTX ISA 8.5+: vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4, vset2/4), as
 * the ISA's pseudocode says: each lane's two elements are picked from the bytes (the
 * half-words) of {b, a} by .asel/.bsel and sign- or zero-extended by .atype/.btype; the
 * lane result is exact (vavrg rounds half away from zero: (x + 1) >> 1 for x >= 0, else
 * x >> 1; vset gives 1 or 0), clamped with .sat to the lane range of .dtype (S8/U8,
 * S16/U16). Then either the SIMD merge: lanes in .mask take the result, truncated to
 * the lane, the others c's lane (the vset text says b's, its pseudocode c's: we follow
 * the pseudocode, as for the other ops); or .add: the results of the lanes in .mask
 * are added to all 32 bits of c (wrapping), as __vsadu4's vabsdiff4...add does. */
static int64_t video_elem(uint64_t ab, unsigned sel, unsigned bits, int sgn)
{
    uint64_t v = (ab >> (sel * bits)) & ((1u << bits) - 1);
    return sgn ? sx(v, bits / 8) : (int64_t)v;
}

static uint32_t video_simd(const ptx_insn *in, uint32_t a, uint32_t b, uint32_t c)
{
    const unsigned lanes = in->vec, bits = 32 / lanes, mask = PTX_V_MASK(in->target);
    const uint32_t tg = (uint32_t)in->target, lmask = (1u << bits) - 1;
    const uint64_t ab = (uint64_t)a | (uint64_t)b << 32;
    const int as = PTX_TCLASS(in->type2) == PTX_TC_S, bs = (tg & PTX_V_BSIGNED) != 0;
    const int64_t hi = PTX_TCLASS(in->type) == PTX_TC_S ? (int64_t)(lmask >> 1) : lmask;
    const int64_t lo = PTX_TCLASS(in->type) == PTX_TC_S ? -hi - 1 : 0;
    uint32_t d = (tg & PTX_V_ADD) ? c : 0;
    for (unsigned i = 0; i < lanes; i++) {
        int64_t x = video_elem(ab, PTX_V_ASEL(tg, i), bits, as);
        int64_t y = video_elem(ab, PTX_V_BSEL(tg, i), bits, bs), t = 0;
        switch ((ptx_op)in->op) {
        case PTX_OP_vadd2:
        case PTX_OP_vadd4: t = x + y; break;
        case PTX_OP_vsub2:
        case PTX_OP_vsub4: t = x - y; break;
        case PTX_OP_vavrg2:
        case PTX_OP_vavrg4:
            t = x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1; /* arithmetic shift */
            break;
        case PTX_OP_vabsdiff2:
        case PTX_OP_vabsdiff4: t = x > y ? x - y : y - x; break;
        case PTX_OP_vmin2:
        case PTX_OP_vmin4: t = x < y ? x : y; break;
        case PTX_OP_vmax2:
        case PTX_OP_vmax4: t = x > y ? x : y; break;
        default: /* vset2, vset4 */
            switch (in->cmp) {
            case PTX_CMP_EQ: t = x == y; break;
            case PTX_CMP_NE: t = x != y; break;
            case PTX_CMP_LT: t = x < y; break;
            case PTX_CMP_LE: t = x <= y; break;
            case PTX_CMP_GT: t = x > y; break;
            default: t = x >= y; break; /* PTX_CMP_GE (the parser allows no other) */
            }
        }
        if (in->flags & PTX_F_SAT)
            t = t < lo ? lo : t > hi ? hi : t;
        if (tg & PTX_V_ADD)
            d += (mask >> i & 1) ? (uint32_t)t : 0;
        else
            d |= (((mask >> i & 1) ? (uint32_t)t : c >> (bits * i)) & lmask) << (bits * i);
    }
    return d;
}

void sim_exec_video(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {
        unsigned t = base + (unsigned)__builtin_ctz(m_);
        uint64_t *R = sim_lane_regs(c, t);
        uint32_t a = (uint32_t)opval(c, &in->o[1], R, t), b = (uint32_t)opval(c, &in->o[2], R, t);
        RG(in->o[0].reg) = video_simd(in, a, b, (uint32_t)opval(c, &in->o[3], R, t));
    }
}

/* x to .e4m3 (PTX ISA §5.2.5 alternate floating-point formats: 4 exponent bits of bias 7,
 * 3 mantissa bits, no infinity, NaN 0x7f, largest 448) rounded to nearest even with
 * .satfinite: beyond +-448 (infinities too) gives +-448; NaN gives 0x7f. */
static uint32_t to_e4m3(double x)
{
    const uint32_t sign = signbit(x) ? 0x80u : 0;
    if (x != x)
        return 0x7f;
    double a = fabs(x);
    if (a >= 448)
        return sign | 0x7e;
    if (a == 0)
        return sign;
    int e;
    (void)frexp(a, &e);
    int E = e - 1 < -6 ? -6 : e - 1;
    double n = ldexp(a, 3 - E), f = floor(n), r = n - f;
    n = r > 0.5 ? f + 1 : r < 0.5 ? f : (fmod(f, 2.0) == 0 ? f : f + 1);
    if (n >= 16) {
        n /= 2;
        E++;
    }
    const uint32_t m = (uint32_t)n;
    if (E > 8 || (E == 8 && m > 14))
        return sign | 0x7e;
    if (m < 8)
        return sign | m; /* subnormal */
    return sign | ((uint32_t)(E + 7) << 3) | (m - 8);
}

/* .e4m3 / .e5m2 bits b (one byte) as a double. */
static double fp8_val(uint32_t b, int e5m2)
{
    if (e5m2)
        return half_val((b & 0xff) << 8, 0); /* e5m2 is f16's upper byte */
    const uint32_t ex = (b >> 3) & 15, m = b & 7;
    if (ex == 15 && m == 7)
        return NAN;
    const double v = ex ? ldexp(8.0 + m, (int)ex - 10) : ldexp((double)m, -9);
    return (b & 0x80) ? -v : v;
}

/* x to .e4m3 or .e5m2 (round to nearest even, .satfinite; .relu: negatives and -0.0 to
 * +0.0, as relu() for .f16). */
static uint32_t to_fp8(double x, int e5m2, int use_relu)
{
    if (use_relu)
        x = relu(x);
    if (!e5m2)
        return to_e4m3(x);
    return x != x ? 0x7f : small_float(x, 5, 2, PTX_RND_RN, 1) & 0xff;
}

uint64_t sim_cvt_special(const ptx_insn *in, uint64_t a, uint64_t b)
{
    const int has_relu = (in->bop & PTX_RELU) != 0;
    switch (in->cmp) {
    case PTX_CVT_TF32: { /* keep 10 mantissa bits: .rna ties away, .rn ties to even;
                          * .relu: a negative value (-0.0, -inf too) gives +0.0, as for
                          * .f16 (sim_cvt), a NaN the canonical NaN */
        uint32_t x = (uint32_t)a;
        if (has_relu && (x & 0x80000000u) && (x & 0x7fffffffu) <= 0x7f800000u)
            return 0;
        if ((x & 0x7f800000u) == 0x7f800000u && !(x & 0x7fffffu)) /* infinity */
            return (in->bop & PTX_CVT_SATFINITE) ? (x & 0x80000000u) | 0x7f7fe000u : x;
        if ((x & 0x7f800000u) == 0x7f800000u) {
            /* a NaN, as an H200 gives it (the ISA says only NaN; tools/cvt_gpu_check.sh):
             * .rn and .rz the tf32 canonical NaN 0x7fffe000; .rna keeps the sign and the
             * payload's high 10 bits; .rna.satfinite one tf32 unit below that (measured
             * for the payloads 0x400000 and 0x400001 only) */
            if (in->rnd != PTX_RND_RNA)
                return 0x7fffe000u;
            x &= 0xffffe000u;
            return (in->bop & PTX_CVT_SATFINITE) && (x & 0x7fe000u) > 0x2000u ? x - 0x2000u : x;
        }
        if (in->rnd == PTX_RND_RNA)
            x += 0x1000;
        else if (in->rnd == PTX_RND_RN)
            x += 0xfff + ((x >> 13) & 1);
        x &= 0xffffe000u;
        if ((in->bop & PTX_CVT_SATFINITE) && (x & 0x7f800000u) == 0x7f800000u)
            x = (x & 0x80000000u) | 0x7f7fe000u;
        return x;
    }
    case PTX_CVT_TO_E4M3X2:
    case PTX_CVT_TO_E5M2X2: { /* d = {cvt(a) upper byte, cvt(b) lower}; from f16x2 its halves */
        const int e5 = in->cmp == PTX_CVT_TO_E5M2X2;
        double hi, lo;
        if (in->type2 == PTX_T_F32) {
            hi = (double)f32(a);
            lo = (double)f32(b);
        } else {
            hi = half_val((uint32_t)(a >> 16) & 0xffff, 0);
            lo = half_val((uint32_t)a & 0xffff, 0);
        }
        return (to_fp8(hi, e5, has_relu) << 8) | to_fp8(lo, e5, has_relu);
    }
    default: { /* cvt.f16x2 from .e4m3x2 / .e5m2x2: each byte to a half, exactly */
        const int e5 = in->cmp == PTX_CVT_FROM_E5M2X2;
        double hi = fp8_val((uint32_t)(a >> 8) & 0xff, e5), lo = fp8_val((uint32_t)a & 0xff, e5);
        if (has_relu) {
            hi = relu(hi);
            lo = relu(lo);
        }
        return ((uint64_t)half_bits(hi, 0, PTX_RND_RN, 0) << 16) | half_bits(lo, 0, PTX_RND_RN, 0);
    }
    }
}

/* The part of v a scalar video selector picks (PTX ISA §9.7.18.1 partSelectSignExtend:
 * 0 the word, 1-4 byte 0-3, 5-6 half-word 0-1), sign- or zero-extended. */
static int64_t svideo_part(uint32_t v, unsigned sel, int sgn)
{
    if (sel >= 1 && sel <= 4) {
        const uint32_t x = (v >> (8 * (sel - 1))) & 0xff;
        return sgn ? (int64_t)(int8_t)x : (int64_t)x;
    }
    if (sel >= 5) {
        const uint32_t x = (v >> (16 * (sel - 5))) & 0xffff;
        return sgn ? (int64_t)(int16_t)x : (int64_t)x;
    }
    return sgn ? (int64_t)(int32_t)v : (int64_t)v;
}

static __int128 clamp128(__int128 x, int64_t lo, int64_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* Scalar video instructions (PTX ISA §9.7.18.1), as the ISA's pseudocode: the operands'
 * parts extended to 33 bits (partSelectSignExtend), the operation on them exactly,
 * optSaturate to .dtype (a byte or half-word range when merging into one), then the
 * secondary operation with c (extended by .dtype) or the merge into c (optMerge); the low
 * 32 bits to d. vmad: (a * b + c) with the negations (~ and a carry-in of 1), .po, and
 * .shr7/.shr15, saturated to 32 bits. vset: 1 or 0, unsigned. */
void sim_exec_svideo(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const uint32_t tg = (uint32_t)in->target;
    const unsigned dsel = PTX_SV_DSEL(tg), op2 = PTX_SV_OP2(tg);
    const int ds = PTX_TCLASS(in->type) == PTX_TC_S, as = PTX_TCLASS(in->type2) == PTX_TC_S;
    const int bs = (tg & PTX_SV_BSIGNED) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    const int vsh = in->op == PTX_OP_vshl || in->op == PTX_OP_vshr;
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {
        unsigned t = base + (unsigned)__builtin_ctz(m_);
        uint64_t *R = sim_lane_regs(c, t);
        const uint32_t a = (uint32_t)opval(c, &in->o[1], R, t);
        const uint32_t b = (uint32_t)opval(c, &in->o[2], R, t);
        const uint32_t cw = in->nopnd > 3 ? (uint32_t)opval(c, &in->o[3], R, t) : 0;
        const int64_t ta = svideo_part(a, PTX_SV_ASEL(tg), as);
        int64_t tb = svideo_part(b, PTX_SV_BSEL(tg), vsh ? 0 : bs);
        __int128 tmp = 0;
        switch ((ptx_op)in->op) {
        case PTX_OP_vadd: tmp = (__int128)ta + tb; break;
        case PTX_OP_vsub: tmp = (__int128)ta - tb; break;
        case PTX_OP_vabsdiff: tmp = ta > tb ? (__int128)ta - tb : (__int128)tb - ta; break;
        case PTX_OP_vmin: tmp = ta < tb ? ta : tb; break;
        case PTX_OP_vmax: tmp = ta > tb ? ta : tb; break;
        case PTX_OP_vshl:
        case PTX_OP_vshr:
            tb = (in->flags & PTX_F_CLAMP) ? (tb > 32 ? 32 : tb) : (tb & 0x1f);
            tmp = in->op == PTX_OP_vshl ? (__int128)ta * ((__int128)1 << tb) : (__int128)(ta >> tb);
            break;
        case PTX_OP_vset:
            switch (in->cmp) {
            case PTX_CMP_EQ: tmp = ta == tb; break;
            case PTX_CMP_NE: tmp = ta != tb; break;
            case PTX_CMP_LT: tmp = ta < tb; break;
            case PTX_CMP_LE: tmp = ta <= tb; break;
            case PTX_CMP_GT: tmp = ta > tb; break;
            default: tmp = ta >= tb; break;
            }
            break;
        default: { /* vmad */
            const int na = (tg & PTX_SV_NEG_A) != 0, nb = (tg & (PTX_SV_NEG_A << 1)) != 0;
            const int nc = (tg & (PTX_SV_NEG_A << 2)) != 0;
            const int sf = as || bs || (na ^ nb) || nc;
            __int128 cc = sf ? (__int128)(int32_t)cw : (__int128)cw, lsb = 0;
            tmp = (__int128)ta * tb;
            if (tg & PTX_SV_PO) {
                lsb = 1;
            } else if (na ^ nb) {
                tmp = ~tmp;
                lsb = 1;
            } else if (nc) {
                cc = ~cc;
                lsb = 1;
            }
            tmp = tmp + cc + lsb;
            if (PTX_SV_SCALE(tg))
                tmp >>= PTX_SV_SCALE(tg) == 1 ? 7 : 15;
            if (sat)
                tmp = sf ? clamp128(tmp, INT32_MIN, INT32_MAX) : clamp128(tmp, 0, UINT32_MAX);
            RG(in->o[0].reg) = (uint32_t)tmp;
            continue;
        }
        }
        if (sat) { /* optSaturate */
            const int bits = dsel >= 5 ? 16 : dsel >= 1 ? 8 : 32;
            tmp = ds ? clamp128(tmp, -((int64_t)1 << (bits - 1)), ((int64_t)1 << (bits - 1)) - 1)
                     : clamp128(tmp, 0, (int64_t)(((uint64_t)1 << bits) - 1));
        }
        const __int128 cv = ds ? (__int128)(int32_t)cw : (__int128)cw;
        uint32_t d = (uint32_t)tmp;
        if (op2 == 1)
            d = (uint32_t)(tmp + cv);
        else if (op2 == 2)
            d = (uint32_t)(tmp < cv ? tmp : cv);
        else if (op2 == 3)
            d = (uint32_t)(tmp > cv ? tmp : cv);
        else if (dsel >= 5)
            d = ((d & 0xffffu) << (16 * (dsel - 5))) | (cw & ~(0xffffu << (16 * (dsel - 5))));
        else if (dsel >= 1)
            d = ((d & 0xffu) << (8 * (dsel - 1))) | (cw & ~(0xffu << (8 * (dsel - 1))));
        RG(in->o[0].reg) = d;
    }
}

/* p + c in double, rounded to odd: when the sum is inexact, of the two doubles around
 * it the one whose last significand bit is 1. A second rounding of that to a format with
 * at most 51 significand bits (f16: 11, bf16: 8) is then the correctly rounded p + c
 * (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms
 * using rounding to odd", IEEE TC 2008); plain round-to-nearest would round twice. The
 * error of the sum is exact by TwoSum (Knuth, TAOCP vol. 2, §4.2.2). */
static double sum_round_odd(double p, double c)
{
    double s = p + c;
    if (!isfinite(s))
        return s;
    double bb = s - p, e = (p - (s - bb)) + (c - bb);
    if (e == 0 || (bf64(s) & 1))
        return s;
    return nextafter(s, e > 0 ? INFINITY : -INFINITY);
}

/* Half-precision arithmetic (PTX ISA §9.7.4: add/sub/mul/fma/min/max/neg/abs on .f16,
 * .bf16, .f16x2, .bf16x2). Each half is rounded once from the exact result (.rn unless
 * another rounding is given): products of two halves are exact in double and sums are
 * rounded to odd first (sum_round_odd); .ftz flushes subnormal inputs and results; .sat
 * clamps to [0, 1]; fma .relu (§9.7.4.4) clamps negative results and -0.0 to +0.0.
 * NaNs, where the PTX ISA says only "NaN" (measured on an H100, sm_80 and sm_90 code:
 * corpus half_arith_*, bf16_arith_*, half2_arith*): every NaN result is the canonical
 * 0x7fff, in each half of an x2 form: add/sub/mul/fma of a NaN, min/max (§9.7.4.7,
 * §9.7.4.8) of two NaNs, min/max .NaN of any NaN, and neg/abs (§9.7.4.5, §9.7.4.6) of a
 * NaN (no sign flip, no payload); min/max of one NaN give the other operand's bits. */
void sim_exec_half(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const int tc = PTX_TCLASS(in->type);
    const int bf = tc == PTX_TC_BF || tc == PTX_TC_BH2;
    const int pairs = tc == PTX_TC_H2 || tc == PTX_TC_BH2 ? 2 : 1;
    const int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    const int nanmode = (in->flags & PTX_F_NAN) != 0;
    const int nsrc = in->op == PTX_OP_fma || in->op == PTX_OP_mad ? 3
                     : in->op == PTX_OP_neg || in->op == PTX_OP_abs || in->op == PTX_OP_tanh ||
                             in->op == PTX_OP_ex2
                         ? 1
                         : 2;
    const int xorsign = (in->bop & PTX_XORSIGN_ABS) != 0;
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {
        unsigned t = base + (unsigned)__builtin_ctz(m_);
        uint64_t *R = sim_lane_regs(c, t);
        uint64_t src[3] = {0, 0, 0};
        for (int k = 0; k < nsrc; k++)
            src[k] = opval(c, &in->o[k + 1], R, t);
        uint32_t out = 0;
        for (int h = 0; h < pairs; h++) {
            uint32_t b[3];
            double x[3];
            for (int k = 0; k < 3; k++) {
                b[k] = (uint32_t)(src[k] >> (16 * h)) & 0xffff;
                if (ftz && half_subnormal(b[k], bf))
                    b[k] &= 0x8000;
                x[k] = half_val(b[k], bf);
            }
            uint32_t r, sign = 0;
            if ((in->bop & PTX_OOB) && (x[0] != x[0] || x[1] != x[1] || x[2] != x[2])) {
                /* fma.oob gives +0 for an "OOB NaN" operand, an encoding the PTX ISA
                 * (§9.7.4.4) leaves to the tensor-map hardware: not simulated */
                sim_unsupported(c, t, in);
                return;
            }
            if (xorsign) { /* min/max.xorsign.abs (§9.7.4.7-8): on |a|, |b|; sign a ^ b */
                sign = (b[0] ^ b[1]) & 0x8000;
                for (int k = 0; k < 2; k++)
                    if (x[k] == x[k]) {
                        b[k] &= 0x7fff;
                        x[k] = fabs(x[k]);
                    }
            }
            switch ((ptx_op)in->op) {
            case PTX_OP_tanh: /* tanh/ex2.approx .f16/.bf16 (§9.7.4.9-10): the GPU's bits */
                r = bf ? sfu_tanh_bf16((unsigned short)b[0]) : sfu_tanh_f16((unsigned short)b[0]);
                break;
            case PTX_OP_ex2:
                r = bf ? sfu_ex2_bf16((unsigned short)b[0]) : sfu_ex2_f16((unsigned short)b[0]);
                break;
            case PTX_OP_neg: r = x[0] != x[0] ? 0x7fffu : b[0] ^ 0x8000; break;
            case PTX_OP_abs: r = x[0] != x[0] ? 0x7fffu : b[0] & 0x7fff; break;
            case PTX_OP_min:
            case PTX_OP_max:
                if (x[0] != x[0] || x[1] != x[1]) {
                    r = !nanmode && x[0] == x[0] ? b[0] : !nanmode && x[1] == x[1] ? b[1] : 0x7fffu;
                    break;
                }
                /* -0.0 counts as smaller than +0.0 */
                if (x[0] == x[1])
                    r = (signbit(x[0]) != 0) == (in->op == PTX_OP_min) ? b[0] : b[1];
                else
                    r = (x[0] < x[1]) == (in->op == PTX_OP_min) ? b[0] : b[1];
                r |= sign; /* .xorsign: r is |a| or |b| here */
                break;
            default: {
                double v = in->op == PTX_OP_add   ? sum_round_odd(x[0], x[1])
                           : in->op == PTX_OP_sub ? sum_round_odd(x[0], -x[1])
                           : in->op == PTX_OP_mul ? x[0] * x[1]
                                                  : sum_round_odd(x[0] * x[1], x[2]);
                if (sat)
                    v = satd(v);
                if (in->bop & PTX_RELU)
                    v = relu(v);
                r = half_bits(v, bf, in->rnd, 0);
                if (ftz && half_subnormal(r, bf))
                    r &= 0x8000;
            }
            }
            out |= (r & 0xffff) << (16 * h);
        }
        RG(in->o[0].reg) = out;
    }
}

/* Packed 16-bit integers (PTX ISA §9.7.1.1 add, §9.7.1.10 min and max, sm_90): each half
 * of the 32-bit operands on its own; add wraps around (no .sat for these types), min/max
 * compare as .u16 or .s16, and .relu (min/max .s16x2) clamps a negative half to 0. */
void sim_exec_int16x2(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const int sgn = PTX_TCLASS(in->type) == PTX_TC_S2, relu = (in->bop & PTX_RELU) != 0;
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {
        unsigned t = base + (unsigned)__builtin_ctz(m_);
        uint64_t *R = sim_lane_regs(c, t);
        const uint32_t a = (uint32_t)opval(c, &in->o[1], R, t);
        const uint32_t b = (uint32_t)opval(c, &in->o[2], R, t);
        uint32_t out = 0;
        for (int h = 0; h < 2; h++) {
            const uint32_t x = (a >> (16 * h)) & 0xffff, y = (b >> (16 * h)) & 0xffff;
            const int32_t xv = sgn ? (int16_t)x : (int32_t)x, yv = sgn ? (int16_t)y : (int32_t)y;
            int32_t r = in->op == PTX_OP_add   ? xv + yv
                        : in->op == PTX_OP_min ? (xv < yv ? xv : yv)
                                               : (xv > yv ? xv : yv);
            if (relu && r < 0)
                r = 0;
            out |= ((uint32_t)r & 0xffff) << (16 * h);
        }
        RG(in->o[0].reg) = out;
    }
}

/* set with half-precision operands (PTX ISA §9.7.5.1 "Half Precision Comparison
 * Instructions: set"): d = (a CMP b) [BOP c]; true is 1.0 in a floating-point destination
 * (0x3c00 for .f16, 0x3f80 for .bf16, f32 1.0 for .f32) and all ones in an integer one,
 * false 0. The x2 forms compare each half and write each half of d (0xffff when true for
 * .u32/.s32), with c combined into each. */
void sim_exec_half_set(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const int dtc = PTX_TCLASS(in->type), stc = PTX_TCLASS(in->type2);
    const int pairs = stc == PTX_TC_H2 || stc == PTX_TC_BH2 ? 2 : 1;
    const ptx_type half = stc == PTX_TC_BH2 ? PTX_T_BF16 : PTX_T_F16;
    const ptx_type st = pairs == 2 ? half : (ptx_type)in->type2;
    uint32_t one;
    if (dtc == PTX_TC_BF || dtc == PTX_TC_BH2)
        one = 0x3f80;
    else if (dtc == PTX_TC_F || dtc == PTX_TC_H2)
        one = PTX_TSIZE(in->type) == 4 && pairs == 1 ? 0x3f800000u : 0x3c00;
    else
        one = pairs == 2 ? 0xffffu : (uint32_t)zx(UINT64_MAX, PTX_TSIZE(in->type));
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {
        unsigned t = base + (unsigned)__builtin_ctz(m_);
        uint64_t *R = sim_lane_regs(c, t);
        uint64_t a = opval(c, &in->o[1], R, t), b = opval(c, &in->o[2], R, t);
        uint64_t p = in->bop ? opval(c, &in->o[3], R, t) & 1 : 0;
        uint32_t d = 0;
        for (int h = 0; h < pairs; h++) {
            unsigned sh = 16 * (unsigned)h;
            uint64_t r = (uint64_t)sim_compare(in->cmp, st, pairs == 2 ? a >> sh & 0xffff : a,
                                               pairs == 2 ? b >> sh & 0xffff : b);
            if (in->bop)
                r = combine(in->bop, r, p);
            d |= r ? one << sh : 0;
        }
        RG(in->o[0].reg) = d;
    }
}
