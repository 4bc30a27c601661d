/* sim_exec.c — the interpreter: per-warp issue and the semantics of every PTX op.
 *
 * Execution model (PTX ISA §3.1 "SIMT architecture"; CUDA C++ Programming Guide,
 * "Independent Thread Scheduling"): every thread has its own PC. A warp issues one
 * decoded instruction for the runnable lanes that share the chosen PC: the smallest,
 * which reconverges structured code where the PCs meet, except that lanes spinning in
 * a loop while others wait yield to them (forward progress) and warp-synchronous
 * instructions wait for the lanes of their membermask; sim_warp_step at the end of
 * this file states the policy. The instruction's guard predicate is then evaluated
 * per lane. Handlers loop over the active lanes (decode cost is paid once per warp)
 * and are grouped by family below, each citing its PTX ISA section.
 *
 * Families: integer (§9.7.1), extended precision (§9.7.2), float (§9.7.3), half
 * precision (§9.7.4), comparison and selection (§9.7.6), logic and shift (§9.7.7),
 * data movement and conversion (§9.7.8, §9.7.9), control flow (§9.7.12), parallel
 * synchronization and communication (§9.7.13: atom, red, bar, membar, vote, match,
 * redux, shfl, activemask, nanosleep). Section numbers follow PTX ISA 8.x.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h> /* SSE2: part of the baseline x86-64 target */
#include <immintrin.h> /* AVX and FMA: only in functions for CPUs that have them */
#endif

/* Register slot r of the current lane, R being its frame base (sim_lane_regs): lanes
 * of a warp are adjacent (sim_internal.h, lane-major registers). */
#define RG(r) R[(size_t)(r) << 5]

/* ------------------------------------------------------------ value helpers */

static inline uint64_t zx(uint64_t v, unsigned sz)
{
    return sz >= 8 ? v : v & ((1ull << (sz * 8)) - 1);
}
static inline int64_t sx(uint64_t v, unsigned sz)
{
    if (sz >= 8)
        return (int64_t)v;
    unsigned sh = 64 - sz * 8;
    return (int64_t)(v << sh) >> sh;
}
static inline float f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t bf32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t bf64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
/* Flush a single-precision subnormal to sign-preserving zero (.ftz, PTX ISA §9.7.3). */
static inline float ftzf(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}
/* .sat (PTX ISA §9.7.3): clamps to [0.0, 1.0], NaN to 0.0; a negative zero becomes +0.0
 * (an H200 gives 0x00000000 for cvt.sat.f32.f32 of -0.0 and of -0.0 + -0.0: corpus
 * nan_minmax_saturate). satf for f32 arithmetic, satd for cvt (which rounds through
 * double) and f64. */
static inline float satf(float x)
{
    return isnan(x) ? 0.0f : x <= 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}
static inline double satd(double x)
{
    return isnan(x) ? 0.0 : x <= 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

/* Sets the host rounding mode for .rz/.rm/.rp; returns the previous one. */
static int round_begin(int rnd)
{
    int old = fegetround();
    switch (rnd) {
    case PTX_RND_RZ: fesetround(FE_TOWARDZERO); break;
    case PTX_RND_RM: fesetround(FE_DOWNWARD); break;
    case PTX_RND_RP: fesetround(FE_UPWARD); break;
    default: break;
    }
    return old;
}

/* ------------------------------------------------------------ float helpers */

/* The canonical NaN the GPU produces for single precision (CUDA C++ Programming
 * Guide, "Floating-Point Standard": f32 arithmetic has one canonical NaN, 0x7fffffff,
 * and no payloads); x86 would give 0xffc00000, so every f32 result that is a NaN is
 * canonicalised. Double precision propagates NaN payloads like the host, so f64
 * results are left as the host computes them. */
#define NAN32 0x7fffffffu
static inline uint64_t canon32(float f)
{
    return f != f ? NAN32 : bf32(f);
}

/* min/max with the PTX NaN rules (PTX ISA §9.7.3.10 min, §9.7.3.11 max): one NaN
 * operand gives the other operand; two give the canonical NaN (f32), or for f64 the
 * first operand made quiet, payload and sign kept (the PTX ISA says only "NaN"; an H200
 * returns that for NVRTC's and nvcc's PTX, but the second operand for clang's, as ptxas
 * may swap the operands: corpus nan_minmax_f64_two_nans); with .NaN (nanmode) any NaN
 * gives the canonical NaN. -0.0 counts as smaller than +0.0. */
static inline float ptx_fminf(float a, float b, int nanmode)
{
    if (a != a || b != b) {
        if (nanmode || (a != a && b != b))
            return f32(NAN32);
        return a != a ? b : a;
    }
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline float ptx_fmaxf(float a, float b, int nanmode)
{
    if (a != a || b != b) {
        if (nanmode || (a != a && b != b))
            return f32(NAN32);
        return a != a ? b : a;
    }
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}
static inline double ptx_fmin(double a, double b, int nanmode)
{
    if (a != a || b != b) {
        if (nanmode || (a != a && b != b))
            return f64(bf64(a) | 0x0008000000000000ull); /* a, quiet */
        return a != a ? b : a;
    }
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline double ptx_fmax(double a, double b, int nanmode)
{
    if (a != a || b != b) {
        if (nanmode || (a != a && b != b))
            return f64(bf64(a) | 0x0008000000000000ull); /* a, quiet */
        return a != a ? b : a;
    }
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}

/* The .approx functions (PTX ISA §9.7.3.16 rcp ... §9.7.3.22 tanh) run on the GPU's
 * multi-function unit, whose exact bits NVIDIA does not document. The simulator
 * computes each in double precision and rounds once to f32, so its results are within
 * the error bounds the PTX ISA gives for the GPU (stated per function); tests compare
 * them with those ulp bounds, never bit for bit:
 *   ex2.approx.f32   max relative error 2 ulp (PTX: "2 ulp across the full range")
 *   lg2.approx.f32   max absolute error 2^-22.6 for inputs in [0.5, 2], else 2^-22 rel
 *   sin/cos.approx   max absolute error 2^-20.9 in [-pi, pi]; like the GPU the argument
 *                    is first reduced to turns on a 2^-25 grid (approx_turns), so small
 *                    and large arguments lose accuracy the way they do on the GPU
 *   tanh.approx.f32  max relative error 2^-10.987 on the GPU; here correctly rounded
 *   rsqrt/sqrt/rcp.approx.f32  1 ulp (GPU) versus correctly rounded here
 * Special values follow the PTX tables: ex2(-inf) = +0, ex2(+inf) = +inf, lg2(+0) =
 * -inf, lg2(x<0) = NaN, sin/cos(+-inf) = NaN. */
static float approx_ex2(float x)
{
    return (float)exp2((double)x);
}
static float approx_lg2(float x)
{
    return (float)log2((double)x);
}
/* sin/cos.approx's argument in turns as the GPU's multi-function unit takes it (probed on
 * an H100, tests/kernels/ops/sin_cos_small): |x| times 1/(2 pi) rounded to f32 (the
 * product exact), its fraction truncated to a multiple of 2^-25, with the sign of x. So
 * sin(1e-6) is 9.363e-7 there (5 steps of 2^-25 turns), sin(x) is +-0 below 2 pi 2^-25,
 * and sin(x) is +-0 and cos(x) 1 for |x| from 2^49 on, where no fraction is left. */
static double approx_turns(float x)
{
    const double t = fabs((double)x) * (double)0.15915494309189535f; /* exact: 24 x 24 bits */
    return copysign(floor((t - floor(t)) * 0x1p25) * 0x1p-25, (double)x);
}
static float approx_sin(float x)
{
    if (isinf(x))
        return f32(NAN32);
    return (float)sin(approx_turns(x) * 6.283185307179586476925);
}
static float approx_cos(float x)
{
    if (isinf(x))
        return f32(NAN32);
    return (float)cos(approx_turns(x) * 6.283185307179586476925);
}
static float approx_tanh(float x)
{
    return (float)tanh((double)x);
}
/* rcp.f64: .rn is correctly rounded; rcp.approx.ftz.f64 (PTX ISA §9.7.4.x) keeps only
 * about 20 bits: the GPU's result has a relative error up to 2^-19ish. We truncate the
 * exact reciprocal's mantissa to 20 bits, flush subnormal inputs and results. */
static double rcp_f64(double x, const ptx_insn *in)
{
    if (!(in->flags & PTX_F_APPROX))
        return 1.0 / x;
    if (fpclassify(x) == FP_SUBNORMAL)
        x = copysign(0.0, x);
    double r = 1.0 / x;
    if (!isfinite(r) || r == 0)
        return r;
    if (fpclassify(r) == FP_SUBNORMAL)
        return copysign(0.0, r);
    uint64_t b = bf64(r) & ~((1ull << 32) - 1);
    return f64(b);
}

/* ---- half precision (PTX ISA §5.2.1 .f16 / .bf16; §9.7.4 half precision ops) ---- */

/* Rounds x to a binary format with ebits exponent and mbits mantissa bits (f16: 5, 10;
 * bf16: 8, 7) in rounding mode rnd (PTX_RND_*; NONE = RN); satfinite clamps
 * infinities to the largest finite value. NaN gives the canonical 0x7fff. */
static uint32_t small_float(double x, int ebits, int mbits, int rnd, int satfinite)
{
    uint32_t sign = signbit(x) ? 1u << (ebits + mbits) : 0;
    const int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
    const uint32_t maxfin = ((uint32_t)((1 << ebits) - 2) << mbits) | ((1u << mbits) - 1);
    const uint32_t inf = (uint32_t)((1 << ebits) - 1) << mbits;
    if (x != x)
        return 0x7fffu;
    double a = fabs(x);
    if (a == 0)
        return sign;
    if (isinf(a))
        return sign | (satfinite ? maxfin : inf);
    int e;
    (void)frexp(a, &e);
    int E = e - 1 < emin ? emin : e - 1;
    double n = ldexp(a, mbits - E);
    int neg = sign != 0;
    switch (rnd) {
    case PTX_RND_RZ:
    case PTX_RND_RZI: n = trunc(n); break;
    case PTX_RND_RM:
    case PTX_RND_RMI: n = neg ? ceil(n) : floor(n); break;
    case PTX_RND_RP:
    case PTX_RND_RPI: n = neg ? floor(n) : ceil(n); break;
    default: {
        double f = floor(n), r = n - f;
        n = r > 0.5 ? f + 1 : r < 0.5 ? f : (fmod(f, 2.0) == 0 ? f : f + 1);
    }
    }
    if (n >= ldexp(1.0, mbits + 1)) {
        n /= 2;
        E++;
    }
    if (E > bias) {
        int to_inf = rnd == PTX_RND_NONE || rnd == PTX_RND_RN || (rnd == PTX_RND_RP && !neg) ||
                     (rnd == PTX_RND_RM && neg);
        return sign | (to_inf && !satfinite ? inf : maxfin);
    }
    uint32_t m = (uint32_t)n;
    if (m < (1u << mbits))
        return sign | m; /* subnormal (or zero) */
    return sign | ((uint32_t)(E + bias) << mbits) | (m - (1u << mbits));
}
static double small_float_val(uint32_t b, int ebits, int mbits)
{
    const int bias = (1 << (ebits - 1)) - 1;
    uint32_t sign = (b >> (ebits + mbits)) & 1, ex = (b >> mbits) & ((1u << ebits) - 1),
             m = b & ((1u << mbits) - 1);
    double v;
    if (ex == (1u << ebits) - 1)
        v = m ? NAN : INFINITY;
    else if (ex == 0)
        v = ldexp((double)m, 1 - bias - mbits);
    else
        v = ldexp((double)(m | (1u << mbits)), (int)ex - bias - mbits);
    return sign ? -v : v;
}
/* The value of a 16-bit half of class tc (PTX_TC_F: f16, PTX_TC_BF: bf16). */
static inline double half_val(uint32_t b, int is_bf)
{
    return is_bf ? small_float_val(b & 0xffff, 8, 7) : small_float_val(b & 0xffff, 5, 10);
}
static inline uint32_t half_bits(double x, int is_bf, int rnd, int sat)
{
    return is_bf ? small_float(x, 8, 7, rnd, sat) : small_float(x, 5, 10, rnd, sat);
}
static inline int half_subnormal(uint32_t b, int is_bf)
{
    return is_bf ? ((b >> 7) & 0xff) == 0 : ((b >> 10) & 0x1f) == 0;
}

/* ------------------------------------------------------------ operands */

/* Special registers, PTX ISA §10. */
static uint64_t sreg(const sim_ctx *c, unsigned id, unsigned t)
{
    switch (id) {
    case PTX_SREG_TID_X: return t % c->block[0];
    case PTX_SREG_TID_Y: return (t / c->block[0]) % c->block[1];
    case PTX_SREG_TID_Z: return t / (c->block[0] * c->block[1]);
    case PTX_SREG_NTID_X: return c->block[0];
    case PTX_SREG_NTID_Y: return c->block[1];
    case PTX_SREG_NTID_Z: return c->block[2];
    case PTX_SREG_CTAID_X: return c->bid[0];
    case PTX_SREG_CTAID_Y: return c->bid[1];
    case PTX_SREG_CTAID_Z: return c->bid[2];
    case PTX_SREG_NCTAID_X: return c->grid[0];
    case PTX_SREG_NCTAID_Y: return c->grid[1];
    case PTX_SREG_NCTAID_Z: return c->grid[2];
    case PTX_SREG_LANEID: return t % 32;
    case PTX_SREG_WARPID: return t / 32;
    case PTX_SREG_NWARPID: return c->nwarps;
    case PTX_SREG_SMID: return c->slot % (uint64_t)sim_device()->sm_count;
    case PTX_SREG_NSMID: return (uint64_t)sim_device()->sm_count;
    case PTX_SREG_CLOCK: return c->steps & 0xffffffffu;
    case PTX_SREG_CLOCK64: return c->steps;
    case PTX_SREG_LANEMASK_EQ: return 1u << (t % 32);
    case PTX_SREG_LANEMASK_LE: return 0xffffffffu >> (31 - t % 32);
    case PTX_SREG_LANEMASK_LT: return (1u << (t % 32)) - 1;
    case PTX_SREG_LANEMASK_GE: return 0xffffffffu << (t % 32);
    case PTX_SREG_LANEMASK_GT: return t % 32 == 31 ? 0 : 0xffffffffu << (t % 32 + 1);
    /* Simulated time: one warp instruction of the launch is one clock cycle and one
     * nanosecond, so %clock, %clock64 and %globaltimer are monotonic (PTX ISA §10.17,
     * §10.19) and deterministic; they are not real durations. */
    case PTX_SREG_CLOCK_HI: return (c->steps >> 32) & 0xffffffffu;
    case PTX_SREG_GLOBALTIMER: return c->steps;
    case PTX_SREG_GLOBALTIMER_LO: return c->steps & 0xffffffffu;
    case PTX_SREG_GLOBALTIMER_HI: return c->steps >> 32;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return c->shared_size - c->dynshared_off;
    case PTX_SREG_TOTAL_SMEM_SIZE: return c->shared_size;
    case PTX_SREG_WARPSZ: return 32;
    case PTX_SREG_GRIDID: return 1;
    default: return 0;
    }
}

static inline uint64_t sym_addr(const sim_ctx *c, int sym, unsigned t)
{
    const ptx_sym *s = &c->m->syms[sym];
    switch (s->kind) {
    case PTX_SYM_GLOBAL: return c->s->var_addr[s->value];
    case PTX_SYM_SHARED: return (uint64_t)s->value;
    case PTX_SYM_DYNSHARED: return c->dynshared_off;
    case PTX_SYM_LOCAL: return c->lbase[t] + (uint64_t)s->value;
    case PTX_SYM_KPARAM: return (uint64_t)s->value;
    case PTX_SYM_FPARAM: return SIM_PARAM_FRAME + c->pbase[t] + (uint64_t)s->value;
    default: return 0;
    }
}

uint64_t sim_sym_addr(const sim_ctx *c, int sym, unsigned t)
{
    return sym_addr(c, sym, t);
}

static inline uint64_t addr_of(const sim_ctx *c, const ptx_operand *o, const uint64_t *R,
                               unsigned t)
{
    uint64_t a = o->imm;
    if (o->reg != PTX_NOREG)
        a += RG(o->reg);
    if (o->sym >= 0)
        a += sym_addr(c, o->sym, t);
    return a;
}

static inline uint64_t opval(const sim_ctx *c, const ptx_operand *o, const uint64_t *R, unsigned t)
{
    switch (o->kind) {
    case PTX_OPK_REG: return RG(o->reg) ^ (o->sub & 1); /* sub 1: `!%p` */
    case PTX_OPK_IMM: return o->imm;
    case PTX_OPK_SREG: return sreg(c, o->sub, t);
    case PTX_OPK_SYM: return sym_addr(c, o->sym, t);
    case PTX_OPK_ADDR: return addr_of(c, o, R, t);
    default: return 0;
    }
}

static inline uint16_t vec_reg(const ptx_operand *o, unsigned i)
{
    return (uint16_t)(o->imm >> (16 * i));
}

/* Reads a value of type ty (size sz) from host memory, extended to 64 bits. */
static inline uint64_t load_val(const unsigned char *p, unsigned sz, int is_signed)
{
    uint64_t v = 0;
    memcpy(&v, p, sz);
    return is_signed ? (uint64_t)sx(v, sz) : v;
}

/* ------------------------------------------------------------ comparisons */

/* PTX ISA §9.7.1.x setp / Table "Integer and bit-size comparison operators" and
 * "Floating-point comparison operators". */
static int compare(int op, ptx_type ty, uint64_t x, uint64_t y)
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

static inline uint64_t combine(int bop, uint64_t x, uint64_t y)
{
    return bop == PTX_BOP_AND ? (x & y) : bop == PTX_BOP_OR ? (x | y) : (x ^ y);
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

/* cvt, PTX ISA §9.7.9.21. */
static uint64_t do_cvt(const ptx_insn *in, uint64_t v)
{
    ptx_type dt = (ptx_type)in->type, st = (ptx_type)in->type2;
    unsigned dsz = PTX_TSIZE(dt), ssz = PTX_TSIZE(st);
    int sat = (in->flags & PTX_F_SAT) != 0, ftz = (in->flags & PTX_F_FTZ) != 0;
    if (st == PTX_T_F16 || st == PTX_T_BF16 || dt == PTX_T_F16 || dt == PTX_T_BF16) {
        /* half precision (PTX ISA §9.7.9.21 cvt, "Floating Point Conversion"): one
         * rounding, from the exact value of the source */
        double x;
        if (st == PTX_T_F16 || st == PTX_T_BF16)
            x = half_val((uint32_t)v, st == PTX_T_BF16);
        else if (PTX_TCLASS(st) == PTX_TC_F)
            x = ssz == 4 ? (double)(ftz ? ftzf(f32(v)) : f32(v)) : f64(v);
        else if (PTX_TCLASS(st) == PTX_TC_S)
            x = (double)sx(v, ssz);
        else
            x = (double)zx(v, ssz);
        if (dt == PTX_T_F16 || dt == PTX_T_BF16) {
            if (in->bop == 2 && x < 0) /* .relu: negatives to +0 (NaN stays NaN) */
                x = 0;
            return half_bits(sat ? satd(x) : x, dt == PTX_T_BF16, in->rnd, in->bop == 1);
        }
        if (PTX_TCLASS(dt) != PTX_TC_F)
            return float_to_int(x, in->rnd, dt, ssz);
        if (sat)
            x = satd(x);
        return dsz == 4 ? canon32(ftz ? ftzf((float)x) : (float)x) : bf64(x);
    }
    if (PTX_TCLASS(st) == PTX_TC_F) {
        double x = ssz == 4 ? (double)(ftz ? ftzf(f32(v)) : f32(v)) : f64(v);
        if (PTX_TCLASS(dt) != PTX_TC_F)
            return float_to_int(x, in->rnd, dt, ssz);
        switch (in->rnd) {
        case PTX_RND_RNI: x = nearbyint(x); break;
        case PTX_RND_RZI: x = trunc(x); break;
        case PTX_RND_RMI: x = floor(x); break;
        case PTX_RND_RPI: x = ceil(x); break;
        default: break;
        }
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

/* ------------------------------------------------------------ the dispatch */

#define FOR_LANES                                                                                  \
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {                                                     \
        unsigned t = base + (unsigned)__builtin_ctz(m_);                                           \
        uint64_t *R = sim_lane_regs(c, t);                                                         \
        (void)R;
#define END_LANES }
#define A(i) opval(c, &in->o[i], R, t)
#define D RG(in->o[0].reg)
#define ISS (tc == PTX_TC_S)
#define O4 (in->o4kind == PTX_OPK_REG ? RG(in->target) : (uint64_t)(uint32_t)in->target)
#define UNSUP (unsup = 1, 0)

static const char *type_name(unsigned t)
{
    switch (t) {
    case PTX_T_B8: return "b8";
    case PTX_T_B16: return "b16";
    case PTX_T_B32: return "b32";
    case PTX_T_B64: return "b64";
    case PTX_T_U8: return "u8";
    case PTX_T_U16: return "u16";
    case PTX_T_U32: return "u32";
    case PTX_T_U64: return "u64";
    case PTX_T_S8: return "s8";
    case PTX_T_S16: return "s16";
    case PTX_T_S32: return "s32";
    case PTX_T_S64: return "s64";
    case PTX_T_F16: return "f16";
    case PTX_T_F32: return "f32";
    case PTX_T_F64: return "f64";
    case PTX_T_PRED: return "pred";
    case PTX_T_BF16: return "bf16";
    case PTX_T_F16X2: return "f16x2";
    case PTX_T_BF16X2: return "bf16x2";
    default: return "?";
    }
}

static const char *op_name(unsigned op);

static void unsupported(sim_ctx *c, unsigned t, const ptx_insn *in)
{
    sim_fault_at(c, t, in, SIM_FAULT_UNSUPPORTED,
                 "unsupported instruction '%s' with type .%s at PTX line %d (the simulator "
                 "does not implement this form)",
                 op_name(in->op), type_name(in->type), in->ptx_line);
}

/* vprintf support: reads simulated memory for sim_vprintf_format. */
typedef struct rd_ctx {
    sim_ctx *c;
    unsigned t;
    const ptx_insn *in;
} rd_ctx;

static int rd_generic(void *p, uint64_t addr, void *dst, unsigned size)
{
    rd_ctx *r = p;
    void *src = sim_mem(r->c, r->t, SIM_SPACE_GENERIC, addr, size, 0, r->in);
    if (!src)
        return 0;
    memcpy(dst, src, size);
    return 1;
}

/* Thread t's C string at generic address addr, into buf (n bytes, cut short with
 * "..."); "?" when unreadable. */
static void rd_string(sim_ctx *c, unsigned t, const ptx_insn *in, uint64_t addr, char *buf,
                      size_t n)
{
    rd_ctx r = {c, t, in};
    size_t i = 0;
    for (; i + 1 < n; i++) {
        char ch;
        if (!rd_generic(&r, addr + i, &ch, 1)) {
            snprintf(buf, n, "?");
            return;
        }
        buf[i] = ch;
        if (!ch)
            return;
    }
    buf[i] = '\0';
    if (n > 4)
        memcpy(buf + n - 4, "...", 4);
}

/* __assertfail(message, file, line, function, charSize), what assert() calls when its
 * condition is false (CUDA C++ Programming Guide "Assertion"): the kernel stops, as the
 * GPU stops it with cudaErrorAssert, with the GPU's message. */
static void do_assertfail(sim_ctx *c, const ptx_insn *in, unsigned t, const ptx_call *cl)
{
    const unsigned char *pm = c->params + (size_t)t * c->paramcap + c->pbase[t];
    uint64_t msg = 0, func = 0;
    if (cl->nargs >= 4) {
        memcpy(&msg, pm + cl->arg_off[0], 8);
        memcpy(&func, pm + cl->arg_off[3], 8);
    }
    char m[256], fn[256];
    rd_string(c, t, in, msg, m, sizeof m);
    rd_string(c, t, in, func, fn, sizeof fn);
    if (c->faulted) /* a string outside memory: that fault is the message */
        return;
    /* (the message's place is the assert's line already: file and line are not repeated) */
    sim_fault_at(c, t, in, SIM_FAULT_TRAP, "assertion `%s` failed in %s", m, fn);
}

/* call (PTX ISA §9.7.12.x call): the callee gets a fresh register, parameter and local
 * frame above the caller's; arguments are copied into its parameter frame. */
static void do_call(sim_ctx *c, const ptx_insn *in, unsigned t, uint32_t next_pc)
{
    const ptx_module *m = c->m;
    const ptx_call *cl = &m->calls[in->target];
    const ptx_func *callee = &m->funcs[cl->callee];
    unsigned char *pm = c->params + (size_t)t * c->paramcap;
    if (callee->builtin == PTX_BUILTIN_VPRINTF) {
        /* CUDA C++ Programming Guide "Formatted Output": vprintf(fmt, args) */
        uint64_t fmt = 0, args = 0;
        if (cl->nargs >= 1)
            memcpy(&fmt, pm + c->pbase[t] + cl->arg_off[0], 8);
        if (cl->nargs >= 2)
            memcpy(&args, pm + c->pbase[t] + cl->arg_off[1], 8);
        rd_ctx r = {c, t, in};
        char why[400] = "";
        int n = sim_vprintf_format(&r, rd_generic, fmt, args, &c->res->printf_out,
                                   &c->res->printf_len, &c->printf_cap, why, sizeof why);
        if (n == -2) { /* a format the GPU cannot print: see sim_printf.c */
            sim_fault_at(c, t, in, SIM_FAULT_TRAP, "%s", why);
            return;
        }
        if (c->res->printf_len > SIM_PRINTF_MAX_BYTES) { /* the buffer is full: drop */
            c->res->printf_dropped += c->res->printf_len - SIM_PRINTF_MAX_BYTES;
            c->res->printf_len = SIM_PRINTF_MAX_BYTES;
            c->res->printf_out[SIM_PRINTF_MAX_BYTES] = '\0';
        }
        if (cl->ret_off >= 0) {
            int32_t rv = n;
            memcpy(pm + c->pbase[t] + cl->ret_off, &rv, 4);
        }
        return;
    }
    if (callee->builtin == PTX_BUILTIN_ASSERTFAIL) {
        do_assertfail(c, in, t, cl);
        return;
    }
    const ptx_func *cur = &m->funcs[in->func];
    unsigned d = c->depth[t];
    uint32_t nr = c->rbase[t] + (uint32_t)cur->nregs, np = c->pbase[t] + cur->frame_size,
             nl = c->lbase[t] + cur->local_size;
    if (d + 1 >= SIM_MAX_DEPTH || nr + (size_t)callee->nregs > c->regcap ||
        np + (size_t)callee->frame_size > c->paramcap ||
        nl + (size_t)callee->local_size > c->localcap) {
        sim_fault_at(c, t, in, SIM_FAULT_UNSUPPORTED,
                     "call stack overflow calling '%s' (recursion is not supported yet)",
                     callee->name);
        return;
    }
    for (int i = 0; i < cl->nargs && i < callee->nparams; i++)
        memcpy(pm + np + callee->params[i].offset, pm + c->pbase[t] + cl->arg_off[i],
               callee->params[i].size);
    sim_frame *fr = &c->frames[(size_t)t * SIM_MAX_DEPTH + d];
    fr->ret_pc = (int32_t)next_pc;
    fr->call = in->target;
    fr->rbase = c->rbase[t];
    fr->pbase = c->pbase[t];
    fr->lbase = c->lbase[t];
    c->depth[t] = (uint8_t)(d + 1);
    if (d == 0 && t / 32 < SIM_ITS_WARPS)
        c->w_called[t / 32]++;
    c->rbase[t] = nr;
    c->pbase[t] = np;
    c->lbase[t] = nl;
    c->pc[t] = (uint32_t)callee->entry_pc;
}

/* ret (PTX ISA §9.7.12.x ret): copies the return .param back to the call site. */
static void do_ret(sim_ctx *c, const ptx_insn *in, unsigned t)
{
    unsigned d = c->depth[t];
    if (d == 0) {
        c->state[t] = SIM_T_EXIT;
        c->nexited++;
        return;
    }
    const ptx_module *m = c->m;
    sim_frame *fr = &c->frames[(size_t)t * SIM_MAX_DEPTH + d - 1];
    const ptx_call *cl = &m->calls[fr->call];
    const ptx_func *callee = &m->funcs[in->func];
    unsigned char *pm = c->params + (size_t)t * c->paramcap;
    if (cl->ret_off >= 0 && callee->nrets > 0)
        memcpy(pm + fr->pbase + cl->ret_off, pm + c->pbase[t] + callee->rets[0].offset,
               callee->rets[0].size);
    c->rbase[t] = fr->rbase;
    c->pbase[t] = fr->pbase;
    c->lbase[t] = fr->lbase;
    c->pc[t] = (uint32_t)fr->ret_pc;
    c->depth[t] = (uint8_t)(d - 1);
    if (d == 1 && t / 32 < SIM_ITS_WARPS)
        c->w_called[t / 32]--;
}

/* atom / red, PTX ISA §9.7.13.x (atom, red): lanes are applied in lane order. */
static uint64_t atom_op(int op, ptx_type ty, uint64_t old, uint64_t b, uint64_t cv)
{
    unsigned sz = PTX_TSIZE(ty);
    int tc = PTX_TCLASS(ty);
    if (tc >= PTX_TC_BF || (tc == PTX_TC_F && sz == 2)) {
        /* atom/red.add.noftz.f16/.bf16/.f16x2/.bf16x2 (PTX ISA §9.7.13.5): per half, .rn */
        if (op != PTX_ATOM_ADD)
            return old;
        const int bf = tc == PTX_TC_BF || tc == PTX_TC_BH2;
        uint64_t r = 0;
        for (unsigned h = 0; h < sz / 2; h++) {
            double x =
                half_val((uint32_t)(old >> (16 * h)), bf) + half_val((uint32_t)(b >> (16 * h)), bf);
            r |= (uint64_t)(half_bits(x, bf, PTX_RND_RN, 0) & 0xffff) << (16 * h);
        }
        return r;
    }
    switch (op) {
    case PTX_ATOM_ADD:
        if (tc == PTX_TC_F)
            return sz == 4 ? canon32(f32(old) + f32(b)) : bf64(f64(old) + f64(b));
        return zx(old + b, sz);
    case PTX_ATOM_MIN:
    case PTX_ATOM_MAX: {
        int mx = op == PTX_ATOM_MAX, lt;
        if (tc == PTX_TC_F)
            return sz == 4 ? bf32(mx ? fmaxf(f32(old), f32(b)) : fminf(f32(old), f32(b)))
                           : bf64(mx ? fmax(f64(old), f64(b)) : fmin(f64(old), f64(b)));
        lt = tc == PTX_TC_S ? sx(b, sz) < sx(old, sz) : zx(b, sz) < zx(old, sz);
        return zx(mx ? (lt ? old : b) : (lt ? b : old), sz);
    }
    case PTX_ATOM_AND: return old & b;
    case PTX_ATOM_OR: return old | b;
    case PTX_ATOM_XOR: return old ^ b;
    case PTX_ATOM_EXCH: return b;
    case PTX_ATOM_CAS: return zx(old, sz) == zx(b, sz) ? cv : old;
    case PTX_ATOM_INC: return zx(old, sz) >= zx(b, sz) ? 0 : zx(old + 1, sz);
    case PTX_ATOM_DEC: return (zx(old, sz) == 0 || zx(old, sz) > zx(b, sz)) ? b : zx(old - 1, sz);
    default: return old;
    }
}

/* The membermask operand of a warp-synchronous instruction, read in thread t's frame
 * (shfl.sync: the fifth operand; vote/match/redux: the third; bar.warp.sync: the
 * first). */
static uint32_t member_mask(const sim_ctx *c, const ptx_insn *in, unsigned t)
{
    const uint64_t *R = sim_lane_regs(c, t);
    switch ((ptx_op)in->op) {
    case PTX_OP_shfl:
        return in->o4kind == PTX_OPK_REG ? (uint32_t)RG(in->target) : (uint32_t)in->target;
    case PTX_OP_vote:
    case PTX_OP_match:
    case PTX_OP_redux: return (uint32_t)opval(c, &in->o[2], R, t);
    case PTX_OP_bar_warp: return in->nopnd ? (uint32_t)opval(c, &in->o[0], R, t) : 0xffffffffu;
    default: return PTX_IS_MMA(in->op) ? 0xffffffffu : 0; /* .aligned: the whole warp */
    }
}

_Static_assert(PTX_OP_vote == PTX_OP_shfl + 1 && PTX_OP_match == PTX_OP_shfl + 2 &&
                   PTX_OP_redux == PTX_OP_shfl + 3 && PTX_OP_activemask == PTX_OP_shfl + 4 &&
                   PTX_OP_bar_warp == PTX_OP_shfl + 5 && PTX_OP_mma == PTX_OP_bar_warp + 1,
               "is_warp_sync relies on the order of ptx_ops.def");
static inline int is_warp_sync(const ptx_insn *in)
{
    /* shfl, vote, match, redux, bar_warp (one range of opcodes but activemask), and the
     * tensor-core ops after them (PTX_IS_MMA) */
    const unsigned k = (unsigned)in->op - PTX_OP_shfl;
    return k <= PTX_OP_movmatrix - PTX_OP_shfl && k != PTX_OP_activemask - PTX_OP_shfl;
}

/* The lanes each lane of em (of the warp whose first thread is base) takes part with in
 * warp-synchronous instruction in: its own membermask, restricted to em. Lanes executing
 * one instruction together may name different membermasks, each group its own (a
 * thread_block_tile<8>'s shfl.sync: lanes 0-7 name 0x000000ff, lanes 8-15 0x0000ff00):
 * each lane exchanges values only with the lanes its membermask names (PTX ISA §9.7.8.6
 * shfl.sync, §9.7.13.x vote.sync, match.sync, redux.sync). */
static void member_parts(const sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em,
                         uint32_t part[32])
{
    for (uint32_t m = em; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        part[l] = em & member_mask(c, in, base + l);
    }
}

/* Lanes `lanes` of warp w let the warp's other lanes run first (see sim_warp_step). */
static void its_yield_now(sim_ctx *c, unsigned w, uint32_t lanes)
{
    if (c->its_block[w] != c->block_linear + 1) {
        c->its_block[w] = c->block_linear + 1;
        c->its_yield[w] = 0;
        c->its_spin[w] = 0;
        c->its_syncmem[w] = 0;
    }
    c->its_yield[w] |= lanes;
    c->its_spin[w] = 0;
}

/* Extended-precision integer arithmetic (PTX ISA §9.7.2: add.cc, addc, sub.cc, subc,
 * mad.cc, madc). The carry flag CC.CF is a hidden register of the function
 * (ptx_insn.target); for subtraction it holds the borrow. */
static void exec_carry(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
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

/* Mnemonics for messages, from ptx_ops.def. */
static const char *op_name(unsigned op)
{
    return op < PTX_OP_COUNT ? ptx_op_table[op].name : "?";
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

static void exec_video(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {
        unsigned t = base + (unsigned)__builtin_ctz(m_);
        uint64_t *R = sim_lane_regs(c, t);
        uint32_t a = (uint32_t)opval(c, &in->o[1], R, t), b = (uint32_t)opval(c, &in->o[2], R, t);
        RG(in->o[0].reg) = video_simd(in, a, b, (uint32_t)opval(c, &in->o[3], R, t));
    }
}

/* Half-precision arithmetic (PTX ISA §9.7.4: add/sub/mul/fma/min/max/neg/abs on .f16,
 * .bf16, .f16x2, .bf16x2). Each half is computed exactly in double and rounded once
 * (.rn unless another rounding is given); .ftz flushes subnormal inputs and results;
 * .sat clamps to [0, 1]. fma is exact for every pair of f16 products and addends whose
 * exponents lie within 53 bits of each other (all but extreme cases). */
static void exec_half(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const int tc = PTX_TCLASS(in->type);
    const int bf = tc == PTX_TC_BF || tc == PTX_TC_BH2;
    const int pairs = tc == PTX_TC_H2 || tc == PTX_TC_BH2 ? 2 : 1;
    const int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    const int nanmode = (in->flags & PTX_F_NAN) != 0;
    const int nsrc = in->op == PTX_OP_fma || in->op == PTX_OP_mad   ? 3
                     : in->op == PTX_OP_neg || in->op == PTX_OP_abs ? 1
                                                                    : 2;
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
            uint32_t r;
            switch ((ptx_op)in->op) {
            case PTX_OP_neg: r = b[0] ^ 0x8000; break; /* sign flip, NaN included */
            case PTX_OP_abs: r = b[0] & 0x7fff; break;
            case PTX_OP_min:
            case PTX_OP_max: {
                double v = in->op == PTX_OP_min ? ptx_fmin(x[0], x[1], nanmode)
                                                : ptx_fmax(x[0], x[1], nanmode);
                r = v != v ? 0x7fffu : half_bits(v, bf, PTX_RND_RN, 0);
                break;
            }
            default: {
                double v = in->op == PTX_OP_add   ? x[0] + x[1]
                           : in->op == PTX_OP_sub ? x[0] - x[1]
                           : in->op == PTX_OP_mul ? x[0] * x[1]
                                                  : fma(x[0], x[1], x[2]);
                if (sat)
                    v = satd(v);
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

static void exec_insn(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                      uint32_t pc, uint32_t mask)
{
    const int tc = PTX_TCLASS(in->type);
    const unsigned sz = PTX_TSIZE(in->type);
    const int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    const int nanmode = (in->flags & PTX_F_NAN) != 0;
    int unsup = 0;
    (void)nanmode;
    if (tc >= PTX_TC_BF || (tc == PTX_TC_F && sz == 2)) {
        switch ((ptx_op)in->op) {
        case PTX_OP_add:
        case PTX_OP_sub:
        case PTX_OP_mul:
        case PTX_OP_fma:
        case PTX_OP_mad:
        case PTX_OP_min:
        case PTX_OP_max:
        case PTX_OP_neg:
        case PTX_OP_abs: exec_half(c, in, base, em); return;
        default: break; /* moves, loads, conversions: handled below by size */
        }
    }
    if (in->flags & PTX_F_CC) {
        exec_carry(c, in, base, em);
        return;
    }
    if (tc == PTX_TC_F && in->op == PTX_OP_copysign) {
        /* copysign.f32/.f64 d, a, b (PTX ISA §9.7.3.x copysign): b with a's sign bit, a
         * bit operation: a NaN b keeps its payload (verified on an H200:
         * copysignf(NaN 0x7fc00000, -0.0) gives 0xffc00000, not the canonical NaN) */
        const uint64_t sign = sz == 4 ? 0x80000000u : 0x8000000000000000ull;
        FOR_LANES
        D = (zx(A(2), sz) & ~sign) | (zx(A(1), sz) & sign);
        END_LANES
        return;
    }
    if (tc == PTX_TC_F && (in->op == PTX_OP_neg || in->op == PTX_OP_abs)) {
        /* neg/abs.f32/.f64 (PTX ISA §9.7.3.9, §9.7.3.8) change only the sign bit (NaN
         * payloads kept); .ftz flushes a subnormal input first */
        const uint64_t sign = sz == 4 ? 0x80000000u : 0x8000000000000000ull;
        FOR_LANES
        uint64_t v = zx(A(1), sz);
        if (ftz && sz == 4)
            v = bf32(ftzf(f32(v)));
        D = in->op == PTX_OP_neg ? v ^ sign : v & ~sign;
        END_LANES
        return;
    }
    switch ((ptx_op)in->op) {
        /* ---- integer and float arithmetic (PTX ISA §9.7.1, §9.7.3, §9.7.4, §9.7.7) ---- */
#define FLOAT_CASE(FE, DE, NSRC)                                                                   \
    if (tc == PTX_TC_F && sz == 4) {                                                               \
        int old_ = round_begin(in->rnd);                                                           \
        FOR_LANES                                                                                  \
        float fa = f32(A(1)), fb = NSRC > 1 ? f32(A(2)) : 0.0f;                                    \
        if (ftz) {                                                                                 \
            fa = ftzf(fa);                                                                         \
            fb = ftzf(fb);                                                                         \
        }                                                                                          \
        (void)fa;                                                                                  \
        (void)fb;                                                                                  \
        float r_ = (float)(FE);                                                                    \
        if (sat)                                                                                   \
            r_ = satf(r_);                                                                         \
        D = canon32(ftz ? ftzf(r_) : r_);                                                          \
        END_LANES                                                                                  \
        fesetround(old_);                                                                          \
    } else if (tc == PTX_TC_F) {                                                                   \
        int old_ = round_begin(in->rnd);                                                           \
        FOR_LANES                                                                                  \
        double da = f64(A(1)), db = NSRC > 1 ? f64(A(2)) : 0.0;                                    \
        (void)da;                                                                                  \
        (void)db;                                                                                  \
        double r_ = (double)(DE);                                                                  \
        D = bf64(sat ? satd(r_) : r_);                                                             \
        END_LANES                                                                                  \
        fesetround(old_);                                                                          \
    }
#define BIN(name, cls, IE, FE, DE)                                                                 \
    case PTX_OP_##name:                                                                            \
        FLOAT_CASE(FE, DE, 2)                                                                      \
        else                                                                                       \
        {                                                                                          \
            FOR_LANES                                                                              \
            uint64_t a = ISS ? (uint64_t)sx(A(1), sz) : zx(A(1), sz);                              \
            uint64_t b = ISS ? (uint64_t)sx(A(2), sz) : zx(A(2), sz);                              \
            int64_t sa = (int64_t)a, sb = (int64_t)b;                                              \
            (void)sa;                                                                              \
            (void)sb;                                                                              \
            uint64_t r_ = (uint64_t)(IE);                                                          \
            D = tc == PTX_TC_PRED ? (r_ & 1) : zx(r_, sz);                                         \
            END_LANES                                                                              \
        }                                                                                          \
        break;
#define UN(name, cls, IE, FE, DE)                                                                  \
    case PTX_OP_##name:                                                                            \
        FLOAT_CASE(FE, DE, 1)                                                                      \
        else                                                                                       \
        {                                                                                          \
            FOR_LANES                                                                              \
            uint64_t a = ISS ? (uint64_t)sx(A(1), sz) : zx(A(1), sz);                              \
            int64_t sa = (int64_t)a;                                                               \
            (void)sa;                                                                              \
            uint64_t r_ = (uint64_t)(IE);                                                          \
            D = tc == PTX_TC_PRED ? (r_ & 1) : zx(r_, sz);                                         \
            END_LANES                                                                              \
        }                                                                                          \
        break;
#define OP(name, cls, k)
#include "sim/ptx_ops.def"
#undef BIN
#undef UN
#undef OP

    case PTX_OP_mul:   /* PTX ISA §9.7.1.3 mul (.lo .hi .wide), §9.7.3.3 mul (float) */
    case PTX_OP_mad:   /* PTX ISA §9.7.1.4 mad, §9.7.3.6 mad (float: fused, = fma) */
    case PTX_OP_fma: { /* PTX ISA §9.7.3.5 fma */
        const int is_mad = in->op != PTX_OP_mul;
        if (tc == PTX_TC_F) {
            int old = round_begin(in->rnd);
            FOR_LANES
            if (sz == 4) {
                float fa = f32(A(1)), fb = f32(A(2)), fc = is_mad ? f32(A(3)) : 0.0f;
                if (ftz) {
                    fa = ftzf(fa);
                    fb = ftzf(fb);
                    fc = ftzf(fc);
                }
                float r = is_mad ? fmaf(fa, fb, fc) : fa * fb;
                if (sat)
                    r = satf(r);
                D = canon32(ftz ? ftzf(r) : r);
            } else {
                double da = f64(A(1)), db = f64(A(2));
                double r = is_mad ? fma(da, db, f64(A(3))) : da * db;
                D = bf64(sat ? satd(r) : r);
            }
            END_LANES
            fesetround(old);
            break;
        }
        const int wide = (in->flags & PTX_F_WIDE) != 0, hi = (in->flags & PTX_F_HI) != 0;
        FOR_LANES
        uint64_t a = ISS ? (uint64_t)sx(A(1), sz) : zx(A(1), sz);
        uint64_t b = ISS ? (uint64_t)sx(A(2), sz) : zx(A(2), sz);
        uint64_t r;
        unsigned dsz = sz;
        if (wide) {
            r = a * b;
            dsz = sz * 2;
        } else if (hi) {
            if (sz == 8) {
                if (ISS)
                    r = (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
                else
                    r = (uint64_t)(((unsigned __int128)a * b) >> 64);
            } else {
                r = ISS ? (uint64_t)(((int64_t)a * (int64_t)b) >> (sz * 8)) : (a * b) >> (sz * 8);
            }
        } else {
            r = a * b;
        }
        if (is_mad) {
            uint64_t cv = A(3);
            cv = ISS ? (uint64_t)sx(cv, dsz) : zx(cv, dsz);
            r += cv;
        }
        D = zx(r, dsz);
        END_LANES
        break;
    }
    case PTX_OP_div:   /* PTX ISA §9.7.1.6 div (integer), §9.7.3.8 div (float) */
    case PTX_OP_rem: { /* PTX ISA §9.7.1.7 rem */
        const int is_div = in->op == PTX_OP_div;
        if (tc == PTX_TC_F) {
            if (!is_div) {
                unsup = 1;
                break;
            }
            int old = round_begin(in->rnd);
            FOR_LANES
            if (sz == 4) {
                float fa = f32(A(1)), fb = f32(A(2));
                if (ftz) {
                    fa = ftzf(fa);
                    fb = ftzf(fb);
                }
                float r;
                if (in->flags & PTX_F_APPROX) {
                    /* div.approx.f32 (PTX ISA §9.7.3.8): a * (1/b), max 2 ulp; for
                         * 2^126 < |b| < 2^128 the GPU returns 0 for finite a. A
                         * subnormal b (no .ftz) is scaled into the normal range with a,
                         * as the GPU does: 2^-149 / 2^-149 is 1, not a * inf (libdevice's
                         * fmodf depends on it) */
                    float ab = fabsf(fb);
                    if (ab < 0x1p-126f && ab > 0.0f) {
                        fa *= 0x1p24f;
                        fb *= 0x1p24f;
                    }
                    if (ab > 0x1p126f && ab < INFINITY && isfinite(fa))
                        r = copysignf(0.0f, fa) * copysignf(1.0f, fb);
                    else
                        r = fa * (1.0f / fb);
                } else {
                    /* .rn: IEEE division; .full: within 2 ulp on the GPU, correctly
                         * rounded here */
                    r = fa / fb;
                }
                D = canon32(ftz ? ftzf(r) : r);
            } else {
                D = bf64(f64(A(1)) / f64(A(2)));
            }
            END_LANES
            fesetround(old);
            break;
        }
        FOR_LANES
        uint64_t r;
        if (ISS) {
            int64_t a = sx(A(1), sz), b = sx(A(2), sz);
            if (b == 0)
                r = is_div ? UINT64_MAX : (uint64_t)a; /* unspecified in PTX */
            else if (b == -1)
                r = is_div ? (uint64_t)0 - (uint64_t)a : 0; /* no INT_MIN/-1 trap */
            else
                r = (uint64_t)(is_div ? a / b : a % b);
        } else {
            uint64_t a = zx(A(1), sz), b = zx(A(2), sz);
            r = b == 0 ? (is_div ? UINT64_MAX : a) : is_div ? a / b : a % b;
        }
        D = zx(r, sz);
        END_LANES
        break;
    }
    case PTX_OP_shl: /* PTX ISA §9.7.7.x shl: shift amounts over the width give 0 */
        FOR_LANES
        uint64_t b = zx(A(2), 4);
        D = b >= sz * 8 ? 0 : zx(zx(A(1), sz) << b, sz);
        END_LANES
        break;
    case PTX_OP_shr: /* PTX ISA §9.7.7.x shr: .s types shift in the sign bit */
        FOR_LANES
        uint64_t b = zx(A(2), 4);
        if (ISS) {
            int64_t a = sx(A(1), sz);
            D = zx((uint64_t)(b >= sz * 8 ? (a < 0 ? -1 : 0) : a >> b), sz);
        } else {
            D = b >= sz * 8 ? 0 : zx(A(1), sz) >> b;
        }
        END_LANES
        break;
    case PTX_OP_clz: /* PTX ISA §9.7.1.x clz */
        FOR_LANES
        uint64_t a = zx(A(1), sz);
        D = a == 0 ? sz * 8 : (uint64_t)(__builtin_clzll(a) - (64 - (int)sz * 8));
        END_LANES
        break;
    case PTX_OP_brev: /* PTX ISA §9.7.1.x brev */
        FOR_LANES
        uint64_t a = zx(A(1), sz), r = 0;
        for (unsigned i = 0; i < sz * 8; i++)
            r |= ((a >> i) & 1) << (sz * 8 - 1 - i);
        D = r;
        END_LANES
        break;
    case PTX_OP_bfe: /* PTX ISA §9.7.1.x bfe */
        FOR_LANES
        uint64_t a = zx(A(1), sz);
        unsigned pos = (unsigned)(A(2) & 0xff), len = (unsigned)(A(3) & 0xff);
        unsigned bits = sz * 8;
        uint64_t r;
        if (len == 0 || pos >= bits) {
            r = (ISS && len && (a >> (bits - 1)) & 1) ? UINT64_MAX : 0;
        } else {
            if (pos + len > bits)
                len = bits - pos;
            r = (a >> pos) & (len >= 64 ? UINT64_MAX : ((1ull << len) - 1));
            if (ISS && len < 64 && ((r >> (len - 1)) & 1))
                r |= ~((1ull << len) - 1);
        }
        D = zx(r, sz);
        END_LANES
        break;

    /* ---- comparison and selection (PTX ISA §9.7.6) ---- */
    case PTX_OP_setp: /* PTX ISA §9.7.6.2: p[|q] = (a CMP b) [BOP c]; q uses !(a CMP b) */
        FOR_LANES
        uint64_t r = (uint64_t)compare(in->cmp, (ptx_type)in->type2, A(1), A(2)), nr = !r;
        if (in->bop) {
            uint64_t cp = A(3) & 1;
            r = combine(in->bop, r, cp);
            nr = combine(in->bop, nr, cp);
        }
        D = r;
        if (in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG)
            RG(in->o[0].imm) = nr;
        END_LANES
        break;
    case PTX_OP_set: /* PTX ISA §9.7.6.1: 1.0f / all ones when (a CMP b) [BOP c] */
        FOR_LANES
        int r = compare(in->cmp, (ptx_type)in->type2, A(1), A(2));
        if (in->bop)
            r = (int)combine(in->bop, (uint64_t)r, A(3) & 1);
        if (tc == PTX_TC_F)
            D = r ? bf32(1.0f) : 0;
        else
            D = r ? zx(UINT64_MAX, sz) : 0;
        END_LANES
        break;
    case PTX_OP_selp:
        FOR_LANES
        D = zx((A(3) & 1) ? A(1) : A(2), sz);
        END_LANES
        break;

    /* ---- data movement and conversion (PTX ISA §9.7.9) ---- */
    case PTX_OP_mov:
        if (in->o[1].kind == PTX_OPK_VEC) { /* pack {a, b} into one register */
            unsigned n = in->o[1].sub, esz = sz / n;
            FOR_LANES
            uint64_t r = 0;
            for (unsigned i = 0; i < n; i++) {
                uint16_t rg = vec_reg(&in->o[1], i);
                if (rg != PTX_NOREG)
                    r |= zx(RG(rg), esz) << (i * esz * 8);
            }
            D = zx(r, sz);
            END_LANES
        } else if (in->o[0].kind == PTX_OPK_VEC) { /* unpack */
            unsigned n = in->o[0].sub, esz = sz / n;
            FOR_LANES
            uint64_t v = A(1);
            for (unsigned i = 0; i < n; i++) {
                uint16_t rg = vec_reg(&in->o[0], i);
                if (rg != PTX_NOREG)
                    RG(rg) = zx(v >> (i * esz * 8), esz);
            }
            END_LANES
        } else {
            FOR_LANES
            uint64_t v = A(1);
            D = tc == PTX_TC_PRED ? (v & 1) : zx(v, sz);
            END_LANES
        }
        break;
    case PTX_OP_cvt:
        if (in->type == PTX_T_F16X2 || in->type == PTX_T_BF16X2) {
            /* cvt.rn.f16x2.f32 d, a, b: d = {cvt(a) in the upper half, cvt(b) lower} */
            const int bf = in->type == PTX_T_BF16X2;
            FOR_LANES
            double xa = (double)f32(A(1)), xb = (double)f32(A(2));
            if (in->bop == 2) { /* .relu */
                xa = xa < 0 ? 0 : xa;
                xb = xb < 0 ? 0 : xb;
            }
            uint32_t hi = half_bits(xa, bf, in->rnd, in->bop == 1),
                     lo = half_bits(xb, bf, in->rnd, in->bop == 1);
            D = (hi << 16) | (lo & 0xffff);
            END_LANES
            break;
        }
        FOR_LANES
        uint64_t r = do_cvt(in, A(1));
        /* a signed result narrower than 32 bits is sign-extended in its register
             * (PTX ISA §9.7.9.21 cvt) */
        if (tc == PTX_TC_S && sz < 4)
            r = zx((uint64_t)sx(r, sz), 4);
        D = r;
        END_LANES
        break;
    case PTX_OP_cvta: /* PTX ISA §9.7.9.x cvta: between generic and state-space addresses */
        FOR_LANES
        uint64_t a = A(1), win = in->space == SIM_SPACE_SHARED  ? SIM_SHARED_WIN
                                 : in->space == SIM_SPACE_LOCAL ? SIM_LOCAL_WIN
                                                                : 0;
        D = zx((in->flags & PTX_F_TO) ? a - win : a + win, sz);
        END_LANES
        break;
    case PTX_OP_ld: /* PTX ISA §9.7.9.8 ld, §9.7.9.9 ldu */
    case PTX_OP_ldu: {
        const unsigned n = in->vec;
        const int is_s = tc == PTX_TC_S;
        if ((in->flags & PTX_F_VOLATILE) && w < SIM_ITS_WARPS)
            c->its_syncmem[w] = 1; /* polling memory: see sim_warp_step */
        FOR_LANES
        uint64_t addr = addr_of(c, &in->o[1], R, t);
        const unsigned char *p = sim_mem(c, t, in->space, addr, sz * n, 0, in);
        if (!p)
            return;
        if (in->o[0].kind == PTX_OPK_VEC) {
            for (unsigned i = 0; i < n; i++) {
                uint16_t rg = vec_reg(&in->o[0], i);
                if (rg != PTX_NOREG)
                    RG(rg) = load_val(p + i * sz, sz, is_s);
            }
        } else {
            D = load_val(p, sz, is_s);
        }
        END_LANES
        break;
    }
    case PTX_OP_st: { /* PTX ISA §9.7.9.10 st */
        const unsigned n = in->vec;
        if (in->bop == PTX_MEM_RELEASE) /* st.release: a release, then the store */
            sim_grace_release(c);
        FOR_LANES
        uint64_t addr = addr_of(c, &in->o[0], R, t);
        unsigned char *p = sim_mem(c, t, in->space, addr, sz * n, 1, in);
        if (!p)
            return;
        if (in->o[1].kind == PTX_OPK_VEC) {
            for (unsigned i = 0; i < n; i++) {
                uint16_t rg = vec_reg(&in->o[1], i);
                uint64_t v = rg != PTX_NOREG ? RG(rg) : 0;
                memcpy(p + i * sz, &v, sz);
            }
        } else {
            uint64_t v = A(1);
            memcpy(p, &v, sz);
        }
        END_LANES
        break;
    }
    case PTX_OP_atom:
    case PTX_OP_red: {
        const int is_atom = in->op == PTX_OP_atom;
        if (w < SIM_ITS_WARPS)
            c->its_syncmem[w] = 1; /* polling memory: see sim_warp_step */
        const ptx_operand *ao = &in->o[is_atom ? 1 : 0];
        if (in->bop == PTX_MEM_RELEASE) /* atom.release / .acq_rel */
            sim_grace_release(c);
        FOR_LANES
        uint64_t addr = addr_of(c, ao, R, t);
        unsigned char *p = sim_mem(c, t, in->space, addr, sz, 2, in);
        if (!p)
            return;
        uint64_t old = 0;
        memcpy(&old, p, sz);
        uint64_t b = A(is_atom ? 2 : 1);
        uint64_t cv = is_atom && in->cmp == PTX_ATOM_CAS ? A(3) : 0;
        uint64_t nv = atom_op(in->cmp, (ptx_type)in->type, old, b, cv);
        memcpy(p, &nv, sz);
        c->mwrites += memcmp(&nv, &old, sz) != 0; /* spin detection: memory changed */
        if (is_atom)
            D = old;
        END_LANES
        break;
    }
    case PTX_OP_prefetch: break;

    /* ---- control flow (PTX ISA §9.7.12) ---- */
    case PTX_OP_bra:
        FOR_LANES
        c->pc[t] = (uint32_t)in->target;
        END_LANES
        if ((uint32_t)in->target <= pc)
            sim_back_edge(c, w, pc, em);
        break;
    case PTX_OP_call:
        FOR_LANES
        do_call(c, in, t, pc + 1);
        if (c->faulted)
            return;
        END_LANES
        break;
    case PTX_OP_ret:
        FOR_LANES
        do_ret(c, in, t);
        END_LANES
        break;
    case PTX_OP_exit:
        FOR_LANES
        c->state[t] = SIM_T_EXIT;
        c->nexited++;
        END_LANES
        break;
    case PTX_OP_trap:
    case PTX_OP_brkpt:
        sim_fault_at(c, base + (unsigned)__builtin_ctz(em), in, SIM_FAULT_TRAP,
                     "the kernel executed %s%s", in->op == PTX_OP_trap ? "trap" : "brkpt",
                     in->op == PTX_OP_trap
                         ? " (a __trap(), or code the compiler replaced by a trap because it is "
                           "undefined, such as a load or store through a null pointer)"
                         : "");
        return;

    /* ---- synchronization (PTX ISA §9.7.13) ---- */
    case PTX_OP_bar: /* PTX ISA §9.7.13.1 bar/barrier .sync/.arrive/.red (sim.c) */
    case PTX_OP_barrier: sim_barrier_exec(c, in, pc, base, em); break;
    case PTX_OP_membar: /* PTX ISA §9.7.13.4 membar/fence */
    case PTX_OP_fence:
        /* one instruction at a time: memory is always coherent; at GPU or system scope
         * (__threadfence()) a release for the global-memory race detector */
        if (in->bop != PTX_MEM_CTA)
            sim_grace_release(c);
        break;
    /* ---- bit manipulation and extended integer ops (PTX ISA §9.7.1, §9.7.2, §9.7.8) ---- */
    case PTX_OP_bfi: /* PTX ISA §9.7.8.x bfi: insert a[len-1:0] into b at pos */
        FOR_LANES
        uint64_t a = A(1), b = zx(A(2), sz);
        unsigned pos = (unsigned)(A(3) & 0xff), len = (unsigned)(O4 & 0xff), bits = sz * 8;
        if (len && pos < bits) {
            if (pos + len > bits)
                len = bits - pos;
            uint64_t fm = (len >= 64 ? UINT64_MAX : ((1ull << len) - 1)) << pos;
            b = (b & ~fm) | ((a << pos) & fm);
        }
        D = zx(b, sz);
        END_LANES
        break;
    case PTX_OP_bfind: /* PTX ISA §9.7.1.x bfind: MSB not equal to the sign (.s) or 1 */
        FOR_LANES
        uint64_t a = zx(A(1), sz);
        if (ISS && (a >> (sz * 8 - 1)) & 1)
            a = zx(~a, sz);
        uint64_t r = a == 0 ? 0xffffffffu : (uint64_t)(63 - __builtin_clzll(a));
        if (a != 0 && (in->flags & PTX_F_SHIFTAMT))
            r = sz * 8 - 1 - r;
        D = r;
        END_LANES
        break;
    case PTX_OP_prmt: { /* PTX ISA §9.7.8.7 prmt: byte permute of {b, a} */
        static const uint8_t modes[6][4][4] = {
            /* f4e */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
            /* b4e */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
            /* rc8 */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
            /* ecl */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
            /* ecr */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
            /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
        };
        FOR_LANES
        uint64_t v = zx(A(1), 4) | (zx(A(2), 4) << 32);
        uint32_t sel = (uint32_t)A(3), r = 0;
        for (unsigned i = 0; i < 4; i++) {
            uint32_t byte;
            if (in->cmp == 0) {
                unsigned s4 = (sel >> (4 * i)) & 0xf;
                byte = (uint32_t)(v >> (8 * (s4 & 7))) & 0xff;
                if (s4 & 8)
                    byte = (byte & 0x80) ? 0xff : 0;
            } else {
                byte = (uint32_t)(v >> (8 * modes[in->cmp - 1][sel & 3][i])) & 0xff;
            }
            r |= byte << (8 * i);
        }
        D = r;
        END_LANES
        break;
    }
    case PTX_OP_shf: /* PTX ISA §9.7.8.6 shf: funnel shift of {b, a} */
        FOR_LANES
        uint64_t v = zx(A(1), 4) | (zx(A(2), 4) << 32);
        uint32_t n = (uint32_t)A(3);
        n = (in->flags & PTX_F_CLAMP) ? (n > 32 ? 32 : n) : (n & 31);
        D = in->cmp == PTX_SHF_L ? zx((v << n) >> 32, 4) : zx(v >> n, 4);
        END_LANES
        break;
    case PTX_OP_lop3: { /* PTX ISA §9.7.8.5 lop3: any function of a, b, c by its LUT */
        FOR_LANES
        uint64_t a = A(1), b = A(2), cc = A(3), r = 0;
        uint32_t lut = (uint32_t)O4;
        for (unsigned i = 0; i < 8; i++)
            if ((lut >> i) & 1)
                r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? cc : ~cc);
        D = zx(r, sz);
        END_LANES
        break;
    }
    case PTX_OP_sad: /* PTX ISA §9.7.1.x sad: d = c + |a - b| */
        FOR_LANES
        uint64_t d;
        if (ISS) {
            int64_t a = sx(A(1), sz), b = sx(A(2), sz);
            d = a < b ? (uint64_t)(b - a) : (uint64_t)(a - b);
        } else {
            uint64_t a = zx(A(1), sz), b = zx(A(2), sz);
            d = a < b ? b - a : a - b;
        }
        D = zx(A(3) + d, sz);
        END_LANES
        break;
    case PTX_OP_mul24: /* PTX ISA §9.7.1.x mul24/mad24: 24-bit operands, 48-bit product */
    case PTX_OP_mad24:
        FOR_LANES
        int64_t a = ISS ? sx(A(1), 3) : (int64_t)zx(A(1), 3);
        int64_t b = ISS ? sx(A(2), 3) : (int64_t)zx(A(2), 3);
        uint64_t p = (uint64_t)(a * b);
        uint64_t r = (in->flags & PTX_F_HI) ? p >> 16 : p;
        if (in->op == PTX_OP_mad24)
            r += A(3);
        D = zx(r, 4);
        END_LANES
        break;
    case PTX_OP_addc: /* PTX ISA §9.7.2: add/sub/mad with carry in and (.cc) out */
    case PTX_OP_subc:
    case PTX_OP_madc: exec_carry(c, in, base, em); break;
    case PTX_OP_dp4a: /* PTX ISA §9.7.1.x dp4a: 4-way byte dot product plus c */
    case PTX_OP_dp2a: /* dp2a.lo/.hi: 2-way, 16-bit halves of a times bytes of b */
        FOR_LANES
        uint32_t a = (uint32_t)A(1), b = (uint32_t)A(2);
        int as = PTX_TCLASS(in->type) == PTX_TC_S, bs = PTX_TCLASS(in->type2) == PTX_TC_S;
        int64_t acc = 0;
        if (in->op == PTX_OP_dp4a) {
            for (unsigned i = 0; i < 4; i++)
                acc += (as ? sx(a >> (8 * i), 1) : (int64_t)((a >> (8 * i)) & 0xff)) *
                       (bs ? sx(b >> (8 * i), 1) : (int64_t)((b >> (8 * i)) & 0xff));
        } else {
            unsigned off = (in->flags & PTX_F_HI) ? 2 : 0;
            for (unsigned i = 0; i < 2; i++)
                acc +=
                    (as ? sx(a >> (16 * i), 2) : (int64_t)((a >> (16 * i)) & 0xffff)) *
                    (bs ? sx(b >> (8 * (i + off)), 1) : (int64_t)((b >> (8 * (i + off))) & 0xff));
        }
        D = zx(A(3) + (uint64_t)acc, 4);
        END_LANES
        break;
    case PTX_OP_fns: /* PTX ISA §9.7.8.x fns: the offset-th set bit of mask from base
                      * (towards the msb for offset > 0, the lsb for < 0; 0: base itself) */
        FOR_LANES
        uint32_t msk = (uint32_t)A(1), bse = (uint32_t)A(2) & 31;
        int32_t off = (int32_t)A(3);
        uint32_t r = 0xffffffffu;
        if (off == 0) {
            r = (msk >> bse) & 1 ? bse : 0xffffffffu;
        } else {
            int cnt = 0, step = off > 0 ? 1 : -1, need = off > 0 ? off : -off;
            for (int i = (int)bse; i >= 0 && i < 32; i += step)
                if (((msk >> i) & 1) && ++cnt == need) {
                    r = (uint32_t)i;
                    break;
                }
        }
        D = r;
        END_LANES
        break;
    case PTX_OP_testp: /* PTX ISA §9.7.3.x testp */
        FOR_LANES
        double x = sz == 4 ? (double)f32(A(1)) : f64(A(1));
        int k = sz == 4 ? fpclassify(f32(A(1))) : fpclassify(x), r = 0;
        switch (in->cmp) {
        case PTX_TESTP_FINITE: r = isfinite(x); break;
        case PTX_TESTP_INFINITE: r = isinf(x) != 0; break;
        case PTX_TESTP_NUMBER: r = !isnan(x); break;
        case PTX_TESTP_NOTANUMBER: r = isnan(x) != 0; break;
        case PTX_TESTP_NORMAL: r = k == FP_NORMAL; break;
        case PTX_TESTP_SUBNORMAL: r = k == FP_SUBNORMAL; break;
        default: break;
        }
        D = (uint64_t)r;
        END_LANES
        break;
    case PTX_OP_slct: /* PTX ISA §9.7.6.x slct: d = (c >= 0) ? a : b */
        FOR_LANES
        uint64_t cv = A(3);
        int ge = PTX_TCLASS(in->type2) == PTX_TC_F ? f32(cv) >= 0.0f : (int32_t)cv >= 0;
        uint64_t r = ge ? A(1) : A(2);
        if (tc == PTX_TC_F && (in->flags & PTX_F_FTZ))
            r = bf32(ftzf(f32(r)));
        D = zx(r, sz);
        END_LANES
        break;
    case PTX_OP_isspacep: /* PTX ISA §9.7.9.x isspacep: is a generic address in space */
        FOR_LANES
        uint64_t a = A(1);
        int r = 0;
        switch (in->space) {
        case SIM_SPACE_GLOBAL: r = a >= SIM_GLOBAL_BASE && a < SIM_SHARED_WIN; break;
        case SIM_SPACE_SHARED: r = a >= SIM_SHARED_WIN && a - SIM_SHARED_WIN < SIM_WIN_SIZE; break;
        case SIM_SPACE_LOCAL: r = a >= SIM_LOCAL_WIN && a - SIM_LOCAL_WIN < SIM_WIN_SIZE; break;
        default: break;
        }
        D = (uint64_t)r;
        END_LANES
        break;
    case PTX_OP_prefetchu: break;
    case PTX_OP_nanosleep: /* PTX ISA §9.7.13.x: a hint to let the warp's other lanes run */
        if (w < SIM_ITS_WARPS)
            its_yield_now(c, w, em);
        break;

    /* ---- warp-level (PTX ISA §9.7.8.6 shfl.sync, §9.7.13.x vote.sync, match.sync,
     *      redux.sync, activemask, bar.warp.sync). sim_warp_step issues these only
     *      when every live lane named in membermask is at the instruction; a lane
     *      takes part with the lanes executing it (em) that its own membermask names
     *      (member_parts). */
    case PTX_OP_shfl: {
        uint32_t part[32];
        member_parts(c, in, base, em, part);
        uint64_t val[32];
        uint32_t src[32];
        uint8_t pv[32];
        FOR_LANES
        unsigned lane = t - base;
        uint32_t b = (uint32_t)A(2) & 31, cv = (uint32_t)A(3);
        uint32_t clamp = cv & 31, seg = (cv >> 8) & 31;
        int maxl = (int)((lane & seg) | (clamp & ~seg)), minl = (int)(lane & seg), j;
        int ok;
        switch (in->cmp) {
        case PTX_SHFL_UP:
            j = (int)lane - (int)b;
            ok = j >= maxl;
            break;
        case PTX_SHFL_DOWN:
            j = (int)lane + (int)b;
            ok = j <= maxl;
            break;
        case PTX_SHFL_BFLY:
            j = (int)(lane ^ b);
            ok = j <= maxl;
            break;
        default:
            j = minl | (int)(b & ~seg);
            ok = j <= maxl;
            break;
        }
        if (!ok || j < 0 || j > 31)
            j = (int)lane;
        src[lane] = (uint32_t)j;
        pv[lane] = (uint8_t)ok;
        END_LANES
        if (c->trace) /* which lane each lane read, for the TUI's shuffle picture */
            sim_trace_shfl(c, w, pc, em, src, pv);
        FOR_LANES
        unsigned lane = t - base, st = base + src[lane];
        /* the source lane's value of a; a lane outside the warp, not
             * participating, or exited gives an undefined value on the GPU: here
             * the source lane's register as it is */
        if (st < c->nthreads && ((part[lane] >> src[lane]) & 1) && in->o[1].kind == PTX_OPK_REG)
            val[lane] = *sim_reg(c, st, in->o[1].reg);
        else
            val[lane] = A(1);
        END_LANES
        FOR_LANES
        unsigned lane = t - base;
        D = zx(val[lane], 4);
        if (in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG)
            RG(in->o[0].imm) = pv[lane];
        END_LANES
        break;
    }
    case PTX_OP_vote: {
        uint32_t part[32], pred = 0;
        member_parts(c, in, base, em, part);
        FOR_LANES
        if (A(1) & 1)
            pred |= 1u << (t - base);
        END_LANES
        if (c->trace) { /* who voted what, for the TUI's vote picture */
            _Static_assert((int)TRACE_VOTE_ALL == (int)PTX_VOTE_ALL &&
                               (int)TRACE_VOTE_BALLOT == (int)PTX_VOTE_BALLOT,
                           "trace_vote_kind follows the parser's vote modes");
            sim_trace_vote(c, w, pc, em, pred, in->cmp);
        }
        FOR_LANES
        const uint32_t p = part[t - base], ballot = pred & p;
        switch (in->cmp) {
        case PTX_VOTE_ALL: D = ballot == p; break;
        case PTX_VOTE_ANY: D = ballot != 0; break;
        case PTX_VOTE_UNI: D = ballot == 0 || ballot == p; break;
        default: D = ballot; break;
        }
        END_LANES
        break;
    }
    case PTX_OP_match: {
        uint32_t part[32];
        member_parts(c, in, base, em, part);
        uint64_t val[32];
        FOR_LANES
        val[t - base] = zx(A(1), sz);
        END_LANES
        FOR_LANES
        unsigned lane = t - base;
        if (in->cmp == PTX_MATCH_ALL) {
            int all = 1;
            for (uint32_t pm = part[lane]; pm; pm &= pm - 1)
                all &= val[__builtin_ctz(pm)] == val[lane];
            D = all ? part[lane] : 0;
            if (in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG)
                RG(in->o[0].imm) = (uint64_t)all;
        } else {
            uint32_t r = 0;
            for (uint32_t pm = part[lane]; pm; pm &= pm - 1)
                if (val[__builtin_ctz(pm)] == val[lane])
                    r |= 1u << __builtin_ctz(pm);
            D = r;
        }
        END_LANES
        break;
    }
    case PTX_OP_redux: {
        uint32_t part[32], v[32];
        member_parts(c, in, base, em, part);
        FOR_LANES
        v[t - base] = (uint32_t)A(1);
        END_LANES
        FOR_LANES
        /* over the lanes of its group, in lane order */
        uint32_t acc = 0;
        int first = 1;
        for (uint32_t pm = part[t - base]; pm; pm &= pm - 1) {
            const uint32_t x = v[__builtin_ctz(pm)];
            if (first) {
                acc = x;
                first = 0;
                continue;
            }
            switch (in->cmp) {
            case PTX_ATOM_ADD: acc += x; break;
            case PTX_ATOM_AND: acc &= x; break;
            case PTX_ATOM_OR: acc |= x; break;
            case PTX_ATOM_XOR: acc ^= x; break;
            case PTX_ATOM_MIN:
                acc = ISS ? ((int32_t)x < (int32_t)acc ? x : acc) : (x < acc ? x : acc);
                break;
            case PTX_ATOM_MAX:
                acc = ISS ? ((int32_t)x > (int32_t)acc ? x : acc) : (x > acc ? x : acc);
                break;
            default: break;
            }
        }
        D = acc;
        END_LANES
        break;
    }
    case PTX_OP_mma: /* PTX ISA §9.7.14: the tensor-core instructions (sim_mma.c) */
    case PTX_OP_wmma_load:
    case PTX_OP_wmma_store:
    case PTX_OP_wmma_mma:
    case PTX_OP_ldmatrix:
    case PTX_OP_stmatrix:
    case PTX_OP_movmatrix: sim_exec_mma(c, in, w, base, em); break;
    case PTX_OP_activemask: /* the lanes issued together (converged) at this PC */
        FOR_LANES
        D = mask;
        END_LANES
        break;
    case PTX_OP_bar_warp: /* waiting for membermask is done by sim_warp_step */
        sim_check_warp_sync(c, w);
        break;
    case PTX_OP_vadd2:
    case PTX_OP_vsub2:
    case PTX_OP_vavrg2:
    case PTX_OP_vabsdiff2:
    case PTX_OP_vmin2:
    case PTX_OP_vmax2:
    case PTX_OP_vset2:
    case PTX_OP_vadd4:
    case PTX_OP_vsub4:
    case PTX_OP_vavrg4:
    case PTX_OP_vabsdiff4:
    case PTX_OP_vmin4:
    case PTX_OP_vmax4:
    case PTX_OP_vset4: exec_video(c, in, base, em); break;
    case PTX_OP_COUNT: unsup = 1; break;
    }
    if (unsup)
        unsupported(c, base + (unsigned)__builtin_ctz(em), in);
}

#undef FOR_LANES
#undef END_LANES
#undef A
#undef D
#undef ISS
#undef O4
#undef UNSUP

/* ------------------------------------------------------------ fast paths
 * Decode once (STYLE.md "Interpreter core"): fast_kind gives the common forms of the
 * hot instructions (integer add/sub/mul/mad/logic/shift/mov/selp/setp/cvt, f32
 * add/sub/mul/fma with the default rounding, all with register or immediate sources) a
 * fast-path kind, and exec_fast runs them with the operands resolved once per warp
 * instruction instead of once per lane, and the switch outside the lane loop. Each kind
 * computes exactly what the general handler in exec_insn computes for that form (the
 * same PTX ISA sections); anything else is FK_NONE. The kinds are the executor's, not
 * the IR's: sim_fast_kinds decodes a module's once, the first time a sim launches it
 * (sim.c module_fast), into a table indexed by PC (sim_ctx.fast). */
enum {
    FK_NONE,
    FK_ADD,
    FK_SUB,
    FK_AND,
    FK_OR,
    FK_XOR,
    FK_MULLO,
    FK_MADLO,
    FK_MULWIDE_U,
    FK_MULWIDE_S,
    FK_MADWIDE_U,
    FK_MADWIDE_S,
    FK_SHL,
    FK_SHR_U,
    FK_SHR_S,
    FK_MOV,
    FK_SELP,
    FK_CVT_II,
    FK_SETP_U,
    FK_SETP_S,
    FK_SETP_F32,
    FK_FADD,
    FK_FSUB,
    FK_FMUL,
    FK_FFMA,
    FK_CVTA,
    /* the kinds below have no register or immediate sources (exec_fast's P[]) */
    FK_LD,
    FK_ST,
    FK_LDG,
    FK_STG,
    FK_LDS,
    FK_STS,
    FK_MOV_SREG,
    FK_MOV_SYM,
    FK_BRA,
    FK_EXIT,
};

static int fast_src(const ptx_operand *o)
{
    return (o->kind == PTX_OPK_REG && o->sub == 0) || o->kind == PTX_OPK_IMM;
}

/* The fast-path kind of in (FK_*), FK_NONE for the general path. */
static unsigned fast_kind(const ptx_insn *in)
{
    const int tc = PTX_TCLASS(in->type);
    const unsigned sz = PTX_TSIZE(in->type);
    const int intc = tc == PTX_TC_B || tc == PTX_TC_U || tc == PTX_TC_S;
    const unsigned nsrc = in->nopnd > 0 ? in->nopnd - 1u : 0;
    if (PTX_IS_MMA(in->op))
        return FK_NONE;
    if (in->op == PTX_OP_bra && in->o4kind == PTX_OPK_NONE)
        return FK_BRA;
    if (in->op == PTX_OP_exit || in->op == PTX_OP_ret)
        return FK_EXIT; /* ret: in the kernel's own frame (exec_fast checks) */
    if (in->nopnd < 2 || in->o4kind != PTX_OPK_NONE)
        return FK_NONE;
    if ((in->op == PTX_OP_ld || in->op == PTX_OP_ldu || in->op == PTX_OP_st) && in->nopnd == 2 &&
        (in->flags & ~PTX_F_NC) == 0 && (in->vec == 1 || in->vec == 2 || in->vec == 4) &&
        (sz == 1 || sz == 2 || sz == 4 || sz == 8)) {
        /* ld/st (PTX ISA §9.7.9.8-10) of global, shared, generic or kernel-parameter
         * space; .volatile and the memory-model forms keep the general path */
        const int st = in->op == PTX_OP_st;
        const ptx_operand *a = &in->o[st ? 0 : 1], *v = &in->o[st ? 1 : 0];
        const int vok = v->kind == PTX_OPK_VEC ? v->sub == in->vec
                        : in->vec == 1 && v->kind == PTX_OPK_REG && v->sub == 0
                            ? 1
                            : st && in->vec == 1 && v->kind == PTX_OPK_IMM;
        const int sok = in->space == SIM_SPACE_GLOBAL || in->space == SIM_SPACE_SHARED ||
                        in->space == SIM_SPACE_GENERIC || (in->space == SIM_SPACE_PARAM && !st);
        if (a->kind != PTX_OPK_ADDR || !vok || !sok)
            return FK_NONE;
        /* a scalar of global space (a word or double word) or of shared space (a word)
         * at a register address: exec_fast tries mem_row first */
        if (in->vec == 1 && v->kind == PTX_OPK_REG && a->reg != PTX_NOREG && a->sym < 0) {
            if (in->space == SIM_SPACE_GLOBAL && (sz == 4 || sz == 8))
                return st ? FK_STG : FK_LDG;
            if (in->space == SIM_SPACE_SHARED && sz == 4)
                return st ? FK_STS : FK_LDS;
        }
        return st ? FK_ST : FK_LD;
    }
    if (in->nopnd > 4 || in->vec > 1)
        return FK_NONE;
    if (in->op == PTX_OP_mov && in->nopnd == 2 && in->o[0].kind == PTX_OPK_REG &&
        in->o[0].sub == 0 && in->o[1].kind == PTX_OPK_SREG && in->flags == 0 &&
        (intc || tc == PTX_TC_PRED) && (sz == 1 || sz == 2 || sz == 4 || sz == 8)) {
        return FK_MOV_SREG;
    }
    if (in->op == PTX_OP_mov && in->nopnd == 2 && in->o[0].kind == PTX_OPK_REG &&
        in->o[0].sub == 0 && in->o[1].kind == PTX_OPK_SYM && in->flags == 0 && intc &&
        (sz == 4 || sz == 8)) {
        return FK_MOV_SYM; /* a symbol's address (shared, global, kernel param) */
    }
    if (in->o[0].kind != PTX_OPK_REG || (in->o[0].sub != 0 && in->op != PTX_OP_setp))
        return FK_NONE;
    for (unsigned i = 1; i <= nsrc; i++)
        if (!fast_src(&in->o[i]))
            return FK_NONE;
    if (in->flags & (PTX_F_CC | PTX_F_SAT | PTX_F_FTZ))
        return FK_NONE;
    const unsigned mod = in->flags & (PTX_F_HI | PTX_F_LO | PTX_F_WIDE);
    int k = FK_NONE;
    switch ((ptx_op)in->op) {
    case PTX_OP_add:
    case PTX_OP_sub:
        if (nsrc != 2)
            return FK_NONE;
        if (intc && (sz == 4 || sz == 8) && in->flags == 0)
            k = in->op == PTX_OP_add ? FK_ADD : FK_SUB;
        else if (tc == PTX_TC_F && sz == 4 && (in->flags & ~PTX_F_APPROX) == 0 &&
                 (in->rnd == PTX_RND_NONE || in->rnd == PTX_RND_RN))
            k = in->op == PTX_OP_add ? FK_FADD : FK_FSUB;
        break;
    case PTX_OP_and:
    case PTX_OP_or:
    case PTX_OP_xor:
        if (nsrc == 2 && intc && (sz == 4 || sz == 8) && in->flags == 0)
            k = in->op == PTX_OP_and ? FK_AND : in->op == PTX_OP_or ? FK_OR : FK_XOR;
        break;
    case PTX_OP_mul:
    case PTX_OP_mad:
    case PTX_OP_fma: {
        const int is_mad = in->op != PTX_OP_mul;
        if (nsrc != (is_mad ? 3u : 2u))
            return FK_NONE;
        if (tc == PTX_TC_F) {
            if (sz == 4 && (in->flags & ~PTX_F_APPROX) == 0 &&
                (in->rnd == PTX_RND_NONE || in->rnd == PTX_RND_RN))
                k = is_mad ? FK_FFMA : FK_FMUL;
            break;
        }
        if (in->op == PTX_OP_fma || !intc || (in->flags & ~mod) != 0)
            break;
        if ((mod == PTX_F_LO || mod == 0) && (sz == 4 || sz == 8))
            k = is_mad ? FK_MADLO : FK_MULLO;
        else if (mod == PTX_F_WIDE && sz == 4)
            k = tc == PTX_TC_S ? (is_mad ? FK_MADWIDE_S : FK_MULWIDE_S)
                               : (is_mad ? FK_MADWIDE_U : FK_MULWIDE_U);
        break;
    }
    case PTX_OP_shl:
    case PTX_OP_shr:
        if (nsrc == 2 && intc && (sz == 4 || sz == 8) && in->flags == 0)
            k = in->op == PTX_OP_shl ? FK_SHL : tc == PTX_TC_S ? FK_SHR_S : FK_SHR_U;
        break;
    case PTX_OP_mov:
        if (nsrc == 1 && in->flags == 0 && (intc || tc == PTX_TC_F || tc == PTX_TC_PRED) &&
            (sz == 1 || sz == 2 || sz == 4 || sz == 8))
            k = FK_MOV;
        break;
    case PTX_OP_cvta:
        if (nsrc == 1 && (in->flags & ~PTX_F_TO) == 0 && (sz == 4 || sz == 8))
            k = FK_CVTA;
        break;
    case PTX_OP_selp:
        if (nsrc == 3 && in->flags == 0 && (intc || tc == PTX_TC_F) &&
            (sz == 2 || sz == 4 || sz == 8))
            k = FK_SELP;
        break;
    case PTX_OP_cvt: {
        const int sc = PTX_TCLASS(in->type2);
        const unsigned ssz = PTX_TSIZE(in->type2);
        if (nsrc == 1 && in->flags == 0 && in->rnd == PTX_RND_NONE && in->bop == 0 && intc &&
            (sz == 4 || sz == 8) && (sc == PTX_TC_B || sc == PTX_TC_U || sc == PTX_TC_S) &&
            (ssz == 4 || ssz == 8))
            k = FK_CVT_II;
        break;
    }
    case PTX_OP_setp: {
        const int sc = PTX_TCLASS(in->type2);
        const unsigned ssz = PTX_TSIZE(in->type2);
        if (nsrc != 2 || in->bop != PTX_BOP_NONE || (in->flags & ~PTX_F_FTZ) != 0)
            return FK_NONE;
        if (in->o[0].sub != 0 && in->o[0].sub != 2)
            return FK_NONE;
        if (sc == PTX_TC_F && ssz == 4 && in->cmp >= PTX_CMP_EQ && in->cmp <= PTX_CMP_NAN &&
            !(in->cmp >= PTX_CMP_LO && in->cmp <= PTX_CMP_HS))
            k = FK_SETP_F32;
        else if (sc == PTX_TC_S && (ssz == 4 || ssz == 8) && in->cmp >= PTX_CMP_EQ &&
                 in->cmp <= PTX_CMP_GE)
            k = FK_SETP_S;
        else if ((sc == PTX_TC_U || sc == PTX_TC_B || sc == PTX_TC_S) && (ssz == 4 || ssz == 8) &&
                 in->cmp >= PTX_CMP_EQ && in->cmp <= PTX_CMP_HS)
            k = FK_SETP_U; /* .s with lo/ls/hi/hs compares unsigned, as compare() does */
        break;
    }
    default: break;
    }
    return (unsigned)k;
}

_Static_assert(FK_EXIT <= UINT8_MAX, "a fast-path kind is one byte of sim_ctx.fast");

uint8_t *sim_fast_kinds(const ptx_module *m)
{
    uint8_t *k = malloc((size_t)m->ncode + 1);
    if (!k)
        return NULL;
    for (int pc = 0; pc < m->ncode; pc++)
        k[pc] = (uint8_t)fast_kind(&m->code[pc]);
    k[m->ncode] = FK_NONE;
    return k;
}

/* ------------------------------------------------------------ registers read first
 * (sim_regs_read_first, sim_internal.h). A slot is "written" at a PC when every path
 * from the kernel's entry to it passes an unguarded instruction that surely writes it:
 * a fast-path kind other than st/bra/exit (their destinations are written for every
 * lane that issues them, exec_fast or its exec_insn fallback alike). Every other use of
 * a slot counts as a read (conservative: also other instructions' destinations). */

/* Adds the slot r to bits; 0 when it is not a slot of the function. */
static int slot_add(uint64_t *bits, unsigned nregs, unsigned r)
{
    if (r == PTX_NOREG)
        return 1;
    if (r >= nregs)
        return 0;
    bits[r >> 6] |= 1ull << (r & 63);
    return 1;
}

/* The slots instruction in reads (skip_dest: not o[0] and setp's second destination,
 * which it writes). Returns 0 on a slot outside the function. */
static int insn_reads(const ptx_insn *in, int skip_dest, uint64_t *bits, unsigned nregs)
{
    int ok = slot_add(bits, nregs, in->guard);
    if (in->o4kind == PTX_OPK_REG)
        ok &= slot_add(bits, nregs, (unsigned)in->target);
    if ((in->flags & PTX_F_CC) || in->op == PTX_OP_addc || in->op == PTX_OP_subc ||
        in->op == PTX_OP_madc)
        ok &= in->target >= 0 && slot_add(bits, nregs, (unsigned)in->target);
    for (unsigned k = skip_dest ? 1 : 0; k < in->nopnd && k < 4; k++) {
        const ptx_operand *o = &in->o[k];
        if (o->kind == PTX_OPK_REG || o->kind == PTX_OPK_ADDR)
            ok &= slot_add(bits, nregs, o->reg);
        if (o->kind == PTX_OPK_REG && o->sub == 2)
            ok &= slot_add(bits, nregs, (uint16_t)o->imm);
        if (o->kind == PTX_OPK_VEC)
            for (unsigned i = 0; i < o->sub && i < 4; i++)
                ok &= slot_add(bits, nregs, vec_reg(o, i));
    }
    return ok;
}

/* The slots instruction in (fast-path kind k) surely writes (see above); 0 when it
 * writes none. */
static int insn_writes(const ptx_insn *in, unsigned k, uint64_t *bits, unsigned nregs)
{
    if (in->guard != PTX_NOREG || k == FK_NONE || k == FK_ST || k == FK_STG || k == FK_STS ||
        k == FK_BRA || k == FK_EXIT)
        return 0;
    const ptx_operand *d = &in->o[0];
    if (d->kind == PTX_OPK_VEC) {
        for (unsigned i = 0; i < d->sub && i < 4; i++)
            slot_add(bits, nregs, vec_reg(d, i));
        return 1;
    }
    if (d->kind != PTX_OPK_REG)
        return 0;
    slot_add(bits, nregs, d->reg);
    if (d->sub == 2)
        slot_add(bits, nregs, (uint16_t)d->imm);
    return 1;
}

int sim_regs_read_first(const ptx_module *m, const uint8_t *fast, const ptx_func *f, uint16_t **out)
{
    *out = NULL;
    const int pc0 = f->entry_pc, pc1 = f->end_pc;
    const unsigned nregs = (unsigned)f->nregs;
    if (pc0 < 0 || pc1 <= pc0 || pc1 > m->ncode || f->nregs < 0 || nregs >= PTX_NOREG)
        return -1;
    const size_t n = (size_t)(pc1 - pc0), nw = (nregs + 63) / 64 + 1;
    /* per PC: the slots written on entry (in), read and written by the instruction */
    uint64_t *in = malloc(n * nw * sizeof *in), *rd = calloc(n * nw, sizeof *rd),
             *wr = calloc(n * nw, sizeof *wr), *need = calloc(nw, sizeof *need);
    int r = -1;
    if (!in || !rd || !wr || !need)
        goto out;
    memset(in, 0xff, n * nw * sizeof *in);
    memset(in, 0, nw * sizeof *in); /* nothing is written at the entry */
    for (size_t i = 0; i < n; i++) {
        const ptx_insn *ins = &m->code[pc0 + (int)i];
        if (ins->op == PTX_OP_call || PTX_IS_MMA(ins->op))
            goto out; /* frames of device functions, register lists: clear everything */
        const int w = insn_writes(ins, fast[pc0 + (int)i], wr + i * nw, nregs);
        if (!insn_reads(ins, w, rd + i * nw, nregs))
            goto out;
        if (ins->op == PTX_OP_shfl || ins->op == PTX_OP_vote || ins->op == PTX_OP_match ||
            ins->op == PTX_OP_redux || ins->op == PTX_OP_activemask) {
            /* reads lanes that may not have written the slot */
            if (!insn_reads(ins, 0, need, nregs))
                goto out;
        }
        if (ins->op == PTX_OP_bra && (ins->target < pc0 || ins->target >= pc1))
            goto out;
    }
    /* forward must-analysis to a fixed point: in[s] &= in[pc] | wr[pc] */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            const ptx_insn *ins = &m->code[pc0 + (int)i];
            size_t succ[2];
            int ns = 0;
            const int guarded = ins->guard != PTX_NOREG;
            if (ins->op == PTX_OP_bra) {
                succ[ns++] = (size_t)(ins->target - pc0);
                if (guarded || ins->o4kind != PTX_OPK_NONE)
                    succ[ns++] = i + 1;
            } else if (ins->op == PTX_OP_exit || ins->op == PTX_OP_ret) {
                if (guarded)
                    succ[ns++] = i + 1;
            } else {
                succ[ns++] = i + 1;
            }
            for (int s = 0; s < ns; s++) {
                if (succ[s] >= n)
                    continue;
                uint64_t *is = in + succ[s] * nw;
                const uint64_t *ip = in + i * nw, *wp = wr + i * nw;
                for (size_t k = 0; k < nw; k++) {
                    const uint64_t v = is[k] & (ip[k] | wp[k]);
                    changed |= v != is[k];
                    is[k] = v;
                }
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < nw; k++)
            need[k] |= rd[i * nw + k] & ~in[i * nw + k];
    unsigned cnt = 0;
    for (unsigned s = 0; s < nregs; s++)
        cnt += (need[s >> 6] >> (s & 63)) & 1;
    r = (int)cnt;
    if (cnt) {
        *out = malloc(cnt * sizeof **out);
        if (!*out) {
            r = -1;
            goto out;
        }
        cnt = 0;
        for (unsigned s = 0; s < nregs; s++)
            if ((need[s >> 6] >> (s & 63)) & 1)
                (*out)[cnt++] = (uint16_t)s;
    }
out:
    free(in);
    free(rd);
    free(wr);
    free(need);
    return r;
}

/* 32 lanes' PCs four at a time (GCC/Clang vector extensions; plain SSE2 on x86-64). */
typedef uint32_t sim_u32x4 __attribute__((vector_size(16)));
static inline int pcs_all_equal(const uint32_t *pcs, uint32_t p)
{
    const sim_u32x4 pv = {p, p, p, p};
    sim_u32x4 diff = {0, 0, 0, 0};
    for (unsigned i = 0; i < 32; i += 4) {
        sim_u32x4 v;
        memcpy(&v, pcs + i, sizeof v);
        diff |= v ^ pv;
    }
    return (diff[0] | diff[1] | diff[2] | diff[3]) == 0;
}
static inline void pcs_set(uint32_t *pcs, uint32_t p)
{
    const sim_u32x4 pv = {p, p, p, p};
    memcpy(pcs, &pv, sizeof pv);
    memcpy(pcs + 4, &pv, sizeof pv);
    memcpy(pcs + 8, &pv, sizeof pv);
    memcpy(pcs + 12, &pv, sizeof pv);
    memcpy(pcs + 16, &pv, sizeof pv);
    memcpy(pcs + 20, &pv, sizeof pv);
    memcpy(pcs + 24, &pv, sizeof pv);
    memcpy(pcs + 28, &pv, sizeof pv);
}

/* Full-warp kernels of exec_fast (every lane of the warp, registers one lane-major
 * block): GCC/Clang vector extensions, two lanes per 16-byte vector (SSE2 on x86-64,
 * NEON on aarch64). A 32-bit operation works on the vector's 32-bit elements: the even
 * ones are the lanes' low halves, the odd ones (the high halves) are cleared, which
 * gives exactly the zero-extended results of the per-lane code (the low 32 bits of
 * add/sub/mul/logic/shift results and of 32-bit compares depend only on the sources'
 * low halves). */
typedef uint64_t sim_v64 __attribute__((vector_size(16)));
typedef int64_t sim_vs64 __attribute__((vector_size(16)));
typedef uint32_t sim_v32 __attribute__((vector_size(16)));
typedef int32_t sim_vs32 __attribute__((vector_size(16)));
typedef float sim_vf32 __attribute__((vector_size(16)));
typedef uint32_t sim_v32x2 __attribute__((vector_size(8))); /* two lanes' low halves */
#if defined(__has_builtin)
#if __has_builtin(__builtin_convertvector)
#define SIM_HAVE_CONVERTVECTOR 1
#endif
#endif
#ifndef SIM_HAVE_CONVERTVECTOR
#define SIM_HAVE_CONVERTVECTOR 0
#endif

static inline sim_v64 vld64(const uint64_t *p)
{
    sim_v64 v;
    memcpy(&v, p, sizeof v);
    return v;
}
/* the same 16 bytes as 32-bit elements: unsigned, signed, float (vector casts keep bits) */
static inline sim_v32 vld32(const uint64_t *p)
{
    return (sim_v32)vld64(p);
}
static inline sim_vs32 vlds32(const uint64_t *p)
{
    return (sim_vs32)vld64(p);
}
static inline sim_vf32 vldf32(const uint64_t *p)
{
    return (sim_vf32)vld64(p);
}
static inline void vst64(uint64_t *p, sim_v64 v)
{
    memcpy(p, &v, sizeof v);
}
static inline void vst32(uint64_t *p, sim_v32 v)
{
    memcpy(p, &v, sizeof v);
}
/* the low halves (even 32-bit elements) */
#define VLO ((sim_v32){0xffffffffu, 0, 0xffffffffu, 0})
/* for every pair of lanes l, l+1 of the warp */
#define VPAIRS(STMT)                                                                               \
    do {                                                                                           \
        _Pragma("GCC unroll 16") for (unsigned l = 0; l < 32; l += 2)                              \
        {                                                                                          \
            STMT;                                                                                  \
        }                                                                                          \
    } while (0)

/* Row Dp of a full warp whose first thread is base: lane l's thread index & k (%tid.x
 * of a one-dimensional block), two lanes per step from one running vector */
static inline void tidx_row(uint64_t *Dp, unsigned base, uint64_t k)
{
    sim_v64 t = {base, (uint64_t)base + 1};
    const sim_v64 kv = {k, k}, two = {2, 2};
    VPAIRS(vst64(Dp + l, t & kv); t += two);
}

/* Whether row A of a full warp holds A[0] + l * step in lane l (mod 2^64), two lanes
 * per vector */
static inline int row_unit_stride(const uint64_t *A, uint64_t step)
{
    const uint64_t a = A[0];
    if (A[31] != a + 31 * step) /* the common other patterns fail here (half-warp rows) */
        return 0;
    sim_v64 acc = {0, 0}, want = {a, a + step};
    const sim_v64 two = {2 * step, 2 * step};
    VPAIRS(acc |= vld64(A + l) ^ want; want += two);
    return (acc[0] | acc[1]) == 0;
}

/* f32 results with NaNs canonical (canon32), in the low halves */
static inline sim_v32 vcanon32(sim_vf32 r)
{
    sim_v32 u;
    memcpy(&u, &r, sizeof u);
    const sim_v32 nan = (sim_v32)(r != r);
    return ((nan & NAN32) | (~nan & u)) & VLO;
}

/* mul.wide.s32 of two lanes (PTX ISA §9.7.1.3): the unsigned product of the low halves
 * less 2^32 times each source whose sign bit is set times the other (mod 2^64), so that
 * SSE2's unsigned 32 x 32 -> 64-bit multiply (pmuludq) serves. */
static inline sim_v64 vmulwide_s(sim_v64 a, sim_v64 b)
{
#if defined(__x86_64__) && defined(__SSE2__)
    const __m128i A = (__m128i)a, B = (__m128i)b;
    /* each lane's low-half sign as a 64-bit mask (pshufd, psrad) */
    const __m128i an = _mm_srai_epi32(_mm_shuffle_epi32(A, _MM_SHUFFLE(2, 2, 0, 0)), 31);
    const __m128i bn = _mm_srai_epi32(_mm_shuffle_epi32(B, _MM_SHUFFLE(2, 2, 0, 0)), 31);
    const __m128i corr = _mm_add_epi64(_mm_and_si128(_mm_slli_epi64(B, 32), an),
                                       _mm_and_si128(_mm_slli_epi64(A, 32), bn));
    return (sim_v64)_mm_sub_epi64(_mm_mul_epu32(A, B), corr);
#else
    a &= 0xffffffffu;
    b &= 0xffffffffu;
    return a * b - ((b << 32) & -((a >> 31) & 1)) - ((a << 32) & -((b >> 31) & 1));
#endif
}

/* fma.rn.f32 for a full warp with the AVX and FMA instructions of x86-64 CPUs that have
 * them (a fused multiply-add rounds once, exactly as fmaf; the build targets baseline
 * x86-64, where fmaf is a library call per lane). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SIM_X86_FMA 1
static inline int have_fma(void)
{
    /* libgcc's CPU model, set up at start-up */
    return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx");
}
/* Four lanes per step: each lane's f32 is the low half of its 64-bit slot. The high
 * halves go through the same operations (no trap: exceptions are masked) and are
 * cleared. NaN results become canon32's NaN. D may be A, B or C: each step reads its
 * four lanes before it writes them. */
__attribute__((target("avx,fma"))) static void ffma_full_fma3(uint64_t *D, const uint64_t *A,
                                                              const uint64_t *B, const uint64_t *C)
{
    const __m256 lo = _mm256_castsi256_ps(_mm256_set1_epi64x(0xffffffff));
    const __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi64x(NAN32));
    for (unsigned l = 0; l < 32; l += 4) {
        const __m256 a = _mm256_loadu_ps((const float *)(const void *)(A + l));
        const __m256 b = _mm256_loadu_ps((const float *)(const void *)(B + l));
        const __m256 c = _mm256_loadu_ps((const float *)(const void *)(C + l));
        const __m256 r = _mm256_fmadd_ps(a, b, c);
        const __m256 nan = _mm256_cmp_ps(r, r, _CMP_UNORD_Q);
        const __m256 v = _mm256_or_ps(_mm256_andnot_ps(nan, r), _mm256_and_ps(nan, qnan));
        _mm256_storeu_ps((float *)(void *)(D + l), _mm256_and_ps(v, lo));
    }
}
#else
#define SIM_X86_FMA 0
#endif

/* Full-warp vector kernels (exec_fh): one per operation, type and form, chosen for each
 * instruction once per launch (full_handler, kept in struct sim_fops) so that a warp
 * instruction is one switch and one loop over the lanes. They compute exactly what
 * exec_fast's per-lane code computes. */
enum {
    FH_NONE,
    /* setp.CMP.{u,s,b}32 (PTX ISA §9.7.6.2 setp, as compare()): a 0 or 1 per lane */
    FH_SETP32_EQ,
    FH_SETP32_NE,
    FH_SETP32_LT_S,
    FH_SETP32_LE_S,
    FH_SETP32_GT_S,
    FH_SETP32_GE_S,
    FH_SETP32_LT_U,
    FH_SETP32_LE_U,
    FH_SETP32_GT_U,
    FH_SETP32_GE_U,
    /* 32-bit integer (PTX ISA §9.7.1, §9.7.7): results zero-extended */
    FH_ADD32,
    FH_SUB32,
    FH_AND32,
    FH_OR32,
    FH_XOR32,
    FH_MULLO32,
    FH_MADLO32,
    FH_MULWIDE_U32,
    FH_MADWIDE_U32,
    FH_MULWIDE_S32,
    FH_MADWIDE_S32,
    FH_SHL32_I,
    FH_SHR_U32_I,
    FH_SHR_S32_I, /* by an immediate amount (sa) */
    FH_ZERO,      /* shl/shr.u by the width or more: 0 */
    /* f32 with the default rounding (PTX ISA §9.7.3): NaN results canonical */
    FH_FADD,
    FH_FSUB,
    FH_FMUL,
    FH_FFMA,
    /* 64-bit integer */
    FH_ADD64,
    FH_SUB64,
    FH_AND64,
    FH_OR64,
    FH_XOR64,
    FH_SHL64_I,
    FH_SHR_U64_I,
    FH_ADDK64, /* plus the constant k: cvta between a window and its space (64-bit) */
    FH_MOV32,
    FH_MOV64,
    FH_MOVP,  /* mov: 32 bits zero-extended, 64 bits, a predicate */
    FH_BCAST, /* the constant k in every lane: a kernel parameter, a symbol's address */
    /* run_ahead only (they need the block): a uniform special register (& k), %tid.x
     * of a one-dimensional block (& k) */
    FH_SREG,
    FH_TIDX,
};

/* The full-warp kernel for instruction in (fast-path kind k, below FK_LD), with its
 * immediate shift amount in *sa and its constant in *kv; FH_NONE when it has none
 * (exec_fast's per-lane code runs it). */
static unsigned full_handler(const ptx_insn *in, unsigned k, unsigned *sa, uint64_t *kv)
{
    const unsigned sz = PTX_TSIZE(in->type);
    const int imm2 = in->nopnd > 2 && in->o[2].kind == PTX_OPK_IMM;
    const uint64_t amount = imm2 ? in->o[2].imm & 0xffffffffu : 0;
    *sa = 0;
    *kv = 0;
    if (k == FK_MOV) /* as exec_fast's FK_MOV */
        return PTX_TCLASS(in->type) == PTX_TC_PRED ? FH_MOVP
               : sz == 8                           ? FH_MOV64
               : sz == 4                           ? FH_MOV32
                                                   : FH_NONE;
    if (k == FK_CVTA && sz == 8) { /* as exec_fast's FK_CVTA */
        const uint64_t win = in->space == SIM_SPACE_SHARED  ? SIM_SHARED_WIN
                             : in->space == SIM_SPACE_LOCAL ? SIM_LOCAL_WIN
                                                            : 0;
        *kv = (in->flags & PTX_F_TO) ? 0 - win : win;
        return FH_ADDK64;
    }
    if ((k == FK_SETP_U || k == FK_SETP_S) && PTX_TSIZE(in->type2) == 4) {
        const int s = k == FK_SETP_S; /* FK_SETP_U: .u, .b, and .s with lo/ls/hi/hs */
        switch (in->cmp) {
        case PTX_CMP_EQ: return FH_SETP32_EQ;
        case PTX_CMP_NE: return FH_SETP32_NE;
        case PTX_CMP_LT: return s ? FH_SETP32_LT_S : FH_SETP32_LT_U;
        case PTX_CMP_LE: return s ? FH_SETP32_LE_S : FH_SETP32_LE_U;
        case PTX_CMP_GT: return s ? FH_SETP32_GT_S : FH_SETP32_GT_U;
        case PTX_CMP_GE: return s ? FH_SETP32_GE_S : FH_SETP32_GE_U;
        case PTX_CMP_LO: return s ? FH_NONE : FH_SETP32_LT_U;
        case PTX_CMP_LS: return s ? FH_NONE : FH_SETP32_LE_U;
        case PTX_CMP_HI: return s ? FH_NONE : FH_SETP32_GT_U;
        case PTX_CMP_HS: return s ? FH_NONE : FH_SETP32_GE_U;
        default: return FH_NONE;
        }
    }
    /* shifts by an immediate (PTX ISA §9.7.7 shl/shr: over the width, 0 or the sign) */
    if (k == FK_SHL || k == FK_SHR_U || k == FK_SHR_S) {
        if (!imm2 || (sz != 4 && sz != 8) || (k == FK_SHR_S && sz != 4))
            return FH_NONE;
        if (k != FK_SHR_S && amount >= sz * 8)
            return FH_ZERO;
        *sa = (unsigned)(amount >= sz * 8 ? sz * 8 - 1 : amount);
        return k == FK_SHL     ? (sz == 4 ? FH_SHL32_I : FH_SHL64_I)
               : k == FK_SHR_U ? (sz == 4 ? FH_SHR_U32_I : FH_SHR_U64_I)
                               : FH_SHR_S32_I;
    }
    if (sz == 4) {
        switch (k) {
        case FK_ADD: return FH_ADD32;
        case FK_SUB: return FH_SUB32;
        case FK_AND: return FH_AND32;
        case FK_OR: return FH_OR32;
        case FK_XOR: return FH_XOR32;
        case FK_MULLO: return FH_MULLO32;
        case FK_MADLO: return FH_MADLO32;
        case FK_MULWIDE_U: return FH_MULWIDE_U32;
        case FK_MADWIDE_U: return FH_MADWIDE_U32;
        case FK_MULWIDE_S: return FH_MULWIDE_S32;
        case FK_MADWIDE_S: return FH_MADWIDE_S32;
        case FK_FADD: return FH_FADD;
        case FK_FSUB: return FH_FSUB;
        case FK_FMUL: return FH_FMUL;
#if SIM_X86_FMA
        case FK_FFMA: return have_fma() ? FH_FFMA : FH_NONE;
#endif
        default: return FH_NONE;
        }
    }
    if (sz == 8) {
        switch (k) {
        case FK_ADD: return FH_ADD64;
        case FK_SUB: return FH_SUB64;
        case FK_AND: return FH_AND64;
        case FK_OR: return FH_OR64;
        case FK_XOR: return FH_XOR64;
        default: return FH_NONE;
        }
    }
    return FH_NONE;
}

/* Runs full-warp kernel fh (full_handler; sa its shift amount, k its constant; not
 * FH_SREG or FH_TIDX, which run_ahead runs) on the operand rows
 * P1..P3 into the destination rows Dp and, for setp, D2 (its second destination, the
 * negation) or NULL: all 32 lanes. */
static inline __attribute__((always_inline)) void exec_fh(unsigned fh, unsigned sa, uint64_t k,
                                                          uint64_t *Dp, uint64_t *D2,
                                                          const uint64_t *P1, const uint64_t *P2,
                                                          const uint64_t *P3)
{
    switch (fh) {
#define VCMP(H, EXPR)                                                                              \
    case H:                                                                                        \
        VPAIRS(const sim_v32 a = vld32(P1 + l); const sim_v32 b = vld32(P2 + l);                   \
               const sim_vs32 as = (sim_vs32)a; const sim_vs32 bs = (sim_vs32)b; (void)as;         \
               (void)bs; vst32(Dp + l, (sim_v32)(EXPR)&1 & VLO));                                  \
        break;
        VCMP(FH_SETP32_EQ, a == b)
        VCMP(FH_SETP32_NE, a != b)
        VCMP(FH_SETP32_LT_S, as < bs)
        VCMP(FH_SETP32_LE_S, as <= bs)
        VCMP(FH_SETP32_GT_S, as > bs)
        VCMP(FH_SETP32_GE_S, as >= bs)
        VCMP(FH_SETP32_LT_U, a < b)
        VCMP(FH_SETP32_LE_U, a <= b)
        VCMP(FH_SETP32_GT_U, a > b)
        VCMP(FH_SETP32_GE_U, a >= b)
#undef VCMP
    case FH_ADD32: VPAIRS(vst32(Dp + l, (vld32(P1 + l) + vld32(P2 + l)) & VLO)); return;
    case FH_SUB32: VPAIRS(vst32(Dp + l, (vld32(P1 + l) - vld32(P2 + l)) & VLO)); return;
    case FH_AND32: VPAIRS(vst32(Dp + l, vld32(P1 + l) & vld32(P2 + l) & VLO)); return;
    case FH_OR32: VPAIRS(vst32(Dp + l, (vld32(P1 + l) | vld32(P2 + l)) & VLO)); return;
    case FH_XOR32: VPAIRS(vst32(Dp + l, (vld32(P1 + l) ^ vld32(P2 + l)) & VLO)); return;
#if defined(__x86_64__) && defined(__SSE2__)
    /* the low 32 bits of the lanes' 64-bit products of their low halves (pmuludq: SSE2
     * has no 32-bit multiply) */
    case FH_MULLO32:
        VPAIRS(vst32(Dp + l,
                     (sim_v32)_mm_mul_epu32((__m128i)vld32(P1 + l), (__m128i)vld32(P2 + l)) & VLO));
        return;
    case FH_MADLO32:
        VPAIRS(
            vst32(Dp + l, ((sim_v32)_mm_mul_epu32((__m128i)vld32(P1 + l), (__m128i)vld32(P2 + l)) +
                           vld32(P3 + l)) &
                              VLO));
        return;
#else
    case FH_MULLO32: VPAIRS(vst32(Dp + l, (vld32(P1 + l) * vld32(P2 + l)) & VLO)); return;
    case FH_MADLO32:
        VPAIRS(vst32(Dp + l, (vld32(P1 + l) * vld32(P2 + l) + vld32(P3 + l)) & VLO));
        return;
#endif
    case FH_MULWIDE_U32: /* 32 x 32 -> 64 bits */
        VPAIRS(vst64(Dp + l, (vld64(P1 + l) & 0xffffffffu) * (vld64(P2 + l) & 0xffffffffu)));
        return;
    case FH_MADWIDE_U32:
        VPAIRS(vst64(Dp + l, (vld64(P1 + l) & 0xffffffffu) * (vld64(P2 + l) & 0xffffffffu) +
                                 vld64(P3 + l)));
        return;
    case FH_MULWIDE_S32: VPAIRS(vst64(Dp + l, vmulwide_s(vld64(P1 + l), vld64(P2 + l)))); return;
    case FH_MADWIDE_S32:
        VPAIRS(vst64(Dp + l, vmulwide_s(vld64(P1 + l), vld64(P2 + l)) + vld64(P3 + l)));
        return;
    case FH_SHL32_I: VPAIRS(vst32(Dp + l, (vld32(P1 + l) << sa) & VLO)); return;
    case FH_SHR_U32_I: VPAIRS(vst32(Dp + l, (vld32(P1 + l) >> sa) & VLO)); return;
    case FH_SHR_S32_I: VPAIRS(vst32(Dp + l, (sim_v32)(vlds32(P1 + l) >> sa) & VLO)); return;
    case FH_ZERO: VPAIRS(vst64(Dp + l, (sim_v64){0, 0})); return;
    case FH_FADD: VPAIRS(vst32(Dp + l, vcanon32(vldf32(P1 + l) + vldf32(P2 + l)))); return;
    case FH_FSUB: VPAIRS(vst32(Dp + l, vcanon32(vldf32(P1 + l) - vldf32(P2 + l)))); return;
    case FH_FMUL: VPAIRS(vst32(Dp + l, vcanon32(vldf32(P1 + l) * vldf32(P2 + l)))); return;
#if SIM_X86_FMA
    case FH_FFMA: ffma_full_fma3(Dp, P1, P2, P3); return;
#endif
    case FH_ADD64: VPAIRS(vst64(Dp + l, vld64(P1 + l) + vld64(P2 + l))); return;
    case FH_SUB64: VPAIRS(vst64(Dp + l, vld64(P1 + l) - vld64(P2 + l))); return;
    case FH_AND64: VPAIRS(vst64(Dp + l, vld64(P1 + l) & vld64(P2 + l))); return;
    case FH_OR64: VPAIRS(vst64(Dp + l, vld64(P1 + l) | vld64(P2 + l))); return;
    case FH_XOR64: VPAIRS(vst64(Dp + l, vld64(P1 + l) ^ vld64(P2 + l))); return;
    case FH_SHL64_I: VPAIRS(vst64(Dp + l, vld64(P1 + l) << sa)); return;
    case FH_SHR_U64_I: VPAIRS(vst64(Dp + l, vld64(P1 + l) >> sa)); return;
    case FH_ADDK64: VPAIRS(vst64(Dp + l, vld64(P1 + l) + k)); return;
    case FH_MOV32: VPAIRS(vst64(Dp + l, vld64(P1 + l) & 0xffffffffu)); return;
    case FH_MOV64: VPAIRS(vst64(Dp + l, vld64(P1 + l))); return;
    case FH_MOVP: VPAIRS(vst64(Dp + l, vld64(P1 + l) & 1)); return;
    case FH_BCAST: VPAIRS(vst64(Dp + l, (sim_v64){k, k})); return;
    default: return;
    }
    /* setp: the negation, a 0 or 1 in each low half */
    if (D2)
        VPAIRS(vst32(D2 + l, vld32(Dp + l) ^ (sim_v32){1, 0, 1, 0}));
}

/* Operand row src (struct sim_fops) of a warp whose registers start at W. */
static inline const uint64_t *fop_row(const sim_ctx *c, const uint64_t *W, uint32_t src)
{
    return (src & SIM_FOP_IMM) ? c->imm_rows + (src & ~SIM_FOP_IMM) : W + src;
}

/* Row entries V[0..n) (n a multiple of 4) from the n 32-bit values at src, zero-extended
 * (ld of .u32/.b32/.f32 into 64-bit register slots). */
static inline void rows_from_u32(uint64_t *V, const unsigned char *src, unsigned n)
{
#if defined(__x86_64__) && defined(__SSE2__)
    /* four lanes per step (SSE2 punpckldq, punpckhdq) */
    const __m128i z = _mm_setzero_si128();
    for (unsigned l = 0; l < n; l += 4) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + 4 * l));
        _mm_storeu_si128((__m128i *)(void *)(V + l), _mm_unpacklo_epi32(v, z));
        _mm_storeu_si128((__m128i *)(void *)(V + l + 2), _mm_unpackhi_epi32(v, z));
    }
#else
    for (unsigned l = 0; l < n; l++) {
        uint32_t u;
        memcpy(&u, src + 4 * l, 4);
        V[l] = u;
    }
#endif
}

/* The low halves of a full warp's row V as 32 words at dst (a store's values) */
static inline void u32_from_rows(unsigned char *dst, const uint64_t *V)
{
#if defined(__x86_64__) && defined(__SSE2__)
    /* four lanes per step: their low halves side by side (SSE2 shufps) */
    for (unsigned l = 0; l < 32; l += 4) {
        const __m128 a = _mm_loadu_ps((const float *)(const void *)(V + l));
        const __m128 b = _mm_loadu_ps((const float *)(const void *)(V + l + 2));
        _mm_storeu_ps((float *)(void *)(dst + 4 * l),
                      _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
    }
#else
    uint32_t v32[32];
#if SIM_HAVE_CONVERTVECTOR
    VPAIRS(const sim_v32x2 h = __builtin_convertvector(vld64(V + l), sim_v32x2);
           memcpy(v32 + l, &h, sizeof h));
#else
    for (unsigned l = 0; l < 32; l++)
        v32[l] = (uint32_t)V[l];
#endif
    memcpy(dst, v32, sizeof v32);
#endif
}

/* A full warp's FK_LDG, FK_STG, FK_LDS or FK_STS (fk) in (warp registers W, first thread
 * base): when its 32 accesses are unit-stride and sim_global_row's
 * or sim_shared_row's case, runs it (a load's values zero- or sign-extended into the
 * value row, as load_val does) and returns 1; returns 0, having changed nothing,
 * otherwise (exec_fast's FK_LD and FK_ST path then runs it). */
static __attribute__((noinline)) int mem_row(sim_ctx *c, const ptx_insn *in, unsigned fk,
                                             uint64_t *W, unsigned base)
{
    const int st = fk == FK_STG || fk == FK_STS;
    const ptx_operand *const ao = &in->o[st ? 0 : 1];
    const unsigned bytes = PTX_TSIZE(in->type);
    const uint64_t *const A = W + ((size_t)ao->reg << 5);
    uint64_t *const V = W + ((size_t)in->o[st ? 1 : 0].reg << 5);
    if (!row_unit_stride(A, bytes))
        return 0;
    const uint64_t a = A[0] + ao->imm;
    unsigned char *const p = fk == FK_LDG || fk == FK_STG
                                 ? sim_global_row(c, base, a, bytes, st, in)
                                 : sim_shared_row(c, base, a, st, in);
    if (!p)
        return 0;
    if (bytes == 8) {
        st ? memcpy(p, V, 32 * 8) : memcpy(V, p, 32 * 8);
    } else if (st) {
        u32_from_rows(p, V);
    } else if (PTX_TCLASS(in->type) != PTX_TC_S) {
        rows_from_u32(V, p, 32);
    } else {
        for (unsigned l = 0; l < 32; l++) {
            int32_t v;
            memcpy(&v, p + 4 * l, 4);
            V[l] = (uint64_t)(int64_t)v;
        }
    }
    return 1;
}

/* Runs an instruction of fast-path kind c->fast[pc] (lanes em) when
 * every lane of the warp is in the kernel's own frame (no device-function call under
 * way, the common case): the warp's registers are then one lane-major block, operand
 * k is a pointer P[k] to 32 lane values (a register's row, or the immediate repeated),
 * and each kind is one loop over the lanes with its switch outside. Otherwise, and for
 * the forms found uncommon only here, exec_insn runs it (same arguments). */
static inline __attribute__((always_inline)) void exec_fast(sim_ctx *c, const ptx_insn *in,
                                                            unsigned w, unsigned base, uint32_t em,
                                                            uint32_t pc, uint32_t mask)
{
    if (w >= SIM_ITS_WARPS || c->w_called[w]) {
        exec_insn(c, in, w, base, em, pc, mask);
        return;
    }
    uint64_t *const W = c->regs + (((size_t)w * c->regcap) << 5);
    const unsigned fk = c->fast[pc];
    const unsigned sz = PTX_TSIZE(in->type);
    const uint64_t dm = sz >= 8 ? UINT64_MAX : (1ull << (sz * 8)) - 1;
    const int pred = PTX_TCLASS(in->type) == PTX_TC_PRED;
    uint64_t *const Dp = W + ((size_t)in->o[0].reg << 5);
    const uint64_t *P[4] = {NULL, NULL, NULL, NULL};
    uint64_t imm[3][32];
    if (fk < FK_LD && c->fops) { /* decoded once per launch (sim_fops_build) */
        const struct sim_fops *F = &c->fops[pc];
        for (unsigned k = 1; k < 4; k++)
            P[k] = fop_row(c, W, F->src[k - 1]);
        if (em == UINT32_MAX && F->fh) {
            exec_fh(F->fh, F->sa, F->k, Dp, F->d2 != UINT32_MAX ? W + F->d2 : NULL, P[1], P[2],
                    P[3]);
            return;
        }
    } else if (fk < FK_LD) { /* no table (out of memory): expanded per issue */
        for (unsigned k = 1; k < in->nopnd && k < 4; k++) {
            const ptx_operand *o = &in->o[k];
            if (o->kind == PTX_OPK_REG) {
                P[k] = W + ((size_t)o->reg << 5);
            } else {
                const sim_v64 iv = {o->imm, o->imm};
                VPAIRS(vst64(imm[k - 1] + l, iv));
                P[k] = imm[k - 1];
            }
        }
    }
    const uint64_t *const P1 = P[1], *const P2 = P[2], *const P3 = P[3];
    const int full = em == UINT32_MAX;
/* LANES(stmt): stmt for each lane l of em; the full warp as a plain counted loop */
#define LANES(STMT)                                                                                \
    do {                                                                                           \
        if (full) {                                                                                \
            for (unsigned l = 0; l < 32; l++) {                                                    \
                STMT;                                                                              \
            }                                                                                      \
        } else {                                                                                   \
            for (uint32_t m_ = em; m_; m_ &= m_ - 1) {                                             \
                const unsigned l = (unsigned)__builtin_ctz(m_);                                    \
                STMT;                                                                              \
            }                                                                                      \
        }                                                                                          \
    } while (0)
/* LANES_UNROLLED(stmt): LANES with the full warp's loop unrolled (the per-lane loads and
 * stores through ptr[] of the memory kinds) */
#define LANES_UNROLLED(STMT)                                                                       \
    do {                                                                                           \
        if (full) {                                                                                \
            _Pragma("GCC unroll 32") for (unsigned l = 0; l < 32; l++)                             \
            {                                                                                      \
                STMT;                                                                              \
            }                                                                                      \
        } else {                                                                                   \
            LANES(STMT);                                                                           \
        }                                                                                          \
    } while (0)
/* LANESV(vstmt, stmt): vstmt for each pair of lanes l, l + 1 of the full warp (sim_v64
 * vectors), else stmt for each lane l of em */
#define LANESV(VSTMT, STMT)                                                                        \
    do {                                                                                           \
        if (full)                                                                                  \
            VPAIRS(VSTMT);                                                                         \
        else                                                                                       \
            LANES(STMT);                                                                           \
    } while (0)
    switch (fk) {
#define FAST_BIN(K, EXPR)                                                                          \
    case K: LANES(const uint64_t a = P1[l]; const uint64_t b = P2[l]; Dp[l] = (EXPR)&dm); break;
        FAST_BIN(FK_ADD, a + b)
        FAST_BIN(FK_SUB, a - b)
        FAST_BIN(FK_AND, a & b)
        FAST_BIN(FK_OR, a | b)
        FAST_BIN(FK_XOR, a ^ b)
        FAST_BIN(FK_MULLO, a * b)
    /* .wide: a 64-bit result, not masked to the source size */
    case FK_MULWIDE_U: LANES(Dp[l] = (uint64_t)(uint32_t)P1[l] * (uint32_t)P2[l]); break;
    case FK_MULWIDE_S:
        LANES(Dp[l] = (uint64_t)((int64_t)(int32_t)P1[l] * (int32_t)P2[l]));
        break;
        /* shift amounts over the width give 0 (shr.s: the sign), PTX ISA §9.7.7 */
        FAST_BIN(FK_SHL, (b & 0xffffffffu) >= sz * 8 ? 0 : (a & dm) << (b & 0xffffffffu))
        FAST_BIN(FK_SHR_U, (b & 0xffffffffu) >= sz * 8 ? 0 : (a & dm) >> (b & 0xffffffffu))
        FAST_BIN(FK_SHR_S, (uint64_t)((b & 0xffffffffu) >= sz * 8 ? (sx(a, sz) < 0 ? -1 : 0)
                                                                  : sx(a, sz) >> (b & 0xffffffffu)))
#undef FAST_BIN
    case FK_MADLO: LANES(Dp[l] = (P1[l] * P2[l] + P3[l]) & dm); break;
    case FK_MADWIDE_U: LANES(Dp[l] = (uint64_t)(uint32_t)P1[l] * (uint32_t)P2[l] + P3[l]); break;
    case FK_MADWIDE_S:
        LANES(Dp[l] = (uint64_t)((int64_t)(int32_t)P1[l] * (int32_t)P2[l]) + P3[l]);
        break;
    case FK_MOV:
        if (pred)
            LANESV(vst64(Dp + l, vld64(P1 + l) & 1), Dp[l] = P1[l] & 1);
        else
            LANESV(vst64(Dp + l, vld64(P1 + l) & dm), Dp[l] = P1[l] & dm);
        break;
    case FK_SELP:
        LANESV(const sim_v64 sel = -(vld64(P3 + l) & 1);
               vst64(Dp + l, ((vld64(P1 + l) & sel) | (vld64(P2 + l) & ~sel)) & dm),
               Dp[l] = ((P3[l] & 1) ? P1[l] : P2[l]) & dm);
        break;
    case FK_CVT_II: { /* PTX ISA §9.7.9.21 cvt between integer types, no .sat */
        const unsigned ssz = PTX_TSIZE(in->type2);
        if (PTX_TCLASS(in->type2) == PTX_TC_S)
            LANES(Dp[l] = (uint64_t)sx(P1[l], ssz) & dm);
        else
            LANES(Dp[l] = zx(P1[l], ssz) & dm);
        break;
    }
    case FK_SETP_U:
    case FK_SETP_S:
    case FK_SETP_F32: { /* PTX ISA §9.7.6.2 setp, as compare() */
        const unsigned ssz = PTX_TSIZE(in->type2);
        const int cmp = in->cmp;
        uint64_t *const D2 =
            in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG ? W + ((size_t)in->o[0].imm << 5) : NULL;
        uint64_t r[32];
        if (fk == FK_SETP_F32) {
            switch (cmp) {
#define FCMP(C, E)                                                                                 \
    case C:                                                                                        \
        LANES(const float a = f32(P1[l]); const float b = f32(P2[l]);                              \
              const int un = a != a || b != b; (void)un; r[l] = (uint64_t)(E));                    \
        break;
                FCMP(PTX_CMP_EQ, !un && a == b)
                FCMP(PTX_CMP_NE, !un && a != b)
                FCMP(PTX_CMP_LT, !un && a < b)
                FCMP(PTX_CMP_LE, !un && a <= b)
                FCMP(PTX_CMP_GT, !un && a > b)
                FCMP(PTX_CMP_GE, !un && a >= b)
                FCMP(PTX_CMP_EQU, un || a == b)
                FCMP(PTX_CMP_NEU, un || a != b)
                FCMP(PTX_CMP_LTU, un || a < b)
                FCMP(PTX_CMP_LEU, un || a <= b)
                FCMP(PTX_CMP_GTU, un || a > b)
                FCMP(PTX_CMP_GEU, un || a >= b)
                FCMP(PTX_CMP_NUM, !un)
            default: FCMP(PTX_CMP_NAN, un)
#undef FCMP
            }
        } else if (fk == FK_SETP_S) {
            switch (cmp) {
#define SCMP(C, E)                                                                                 \
    case C:                                                                                        \
        LANES(const int64_t a = sx(P1[l], ssz); const int64_t b = sx(P2[l], ssz);                  \
              r[l] = (uint64_t)(E));                                                               \
        break;
                SCMP(PTX_CMP_EQ, a == b)
                SCMP(PTX_CMP_NE, a != b)
                SCMP(PTX_CMP_LT, a < b)
                SCMP(PTX_CMP_LE, a <= b)
                SCMP(PTX_CMP_GT, a > b)
            default: SCMP(PTX_CMP_GE, a >= b)
#undef SCMP
            }
        } else {
            switch (cmp) {
#define UCMP(C, E)                                                                                 \
    case C:                                                                                        \
        LANES(const uint64_t a = zx(P1[l], ssz); const uint64_t b = zx(P2[l], ssz);                \
              r[l] = (uint64_t)(E));                                                               \
        break;
                UCMP(PTX_CMP_EQ, a == b)
                UCMP(PTX_CMP_NE, a != b)
            case PTX_CMP_LO: UCMP(PTX_CMP_LT, a < b)
            case PTX_CMP_LS: UCMP(PTX_CMP_LE, a <= b)
            case PTX_CMP_HI: UCMP(PTX_CMP_GT, a > b)
            default: UCMP(PTX_CMP_GE, a >= b) /* GE, HS */
#undef UCMP
            }
        }
        LANESV(vst64(Dp + l, vld64(r + l)), Dp[l] = r[l]);
        if (D2)
            LANESV(vst64(D2 + l, vld64(r + l) ^ 1), D2[l] = !r[l]);
        break;
    }
    /* f32 with the default rounding (PTX ISA §9.7.3): NaN results canonical (canon32) */
    case FK_FADD: LANES(Dp[l] = canon32(f32(P1[l]) + f32(P2[l]))); break;
    case FK_FSUB: LANES(Dp[l] = canon32(f32(P1[l]) - f32(P2[l]))); break;
    case FK_FMUL: LANES(Dp[l] = canon32(f32(P1[l]) * f32(P2[l]))); break;
    case FK_FFMA:
#if SIM_X86_FMA
        if (full && have_fma()) {
            ffma_full_fma3(Dp, P1, P2, P3);
            break;
        }
#endif
        LANES(Dp[l] = canon32(fmaf(f32(P1[l]), f32(P2[l]), f32(P3[l]))));
        break;
    case FK_MOV_SYM: { /* one address for the warp unless it is in a thread's frame */
        const int sk = c->m->syms[in->o[1].sym].kind;
        if (sk == PTX_SYM_LOCAL || sk == PTX_SYM_FPARAM) {
            exec_insn(c, in, w, base, em, pc, mask);
            break;
        }
        const uint64_t v = sym_addr(c, in->o[1].sym, base) & dm;
        LANESV(vst64(Dp + l, (sim_v64){v, v}), Dp[l] = v);
        break;
    }
    case FK_BRA: /* as exec_insn's bra (PTX ISA §9.7.8.x bra) */
        if (full)
            pcs_set(c->pc + base, (uint32_t)in->target);
        else
            LANES(c->pc[base + l] = (uint32_t)in->target);
        if ((uint32_t)in->target <= pc)
            sim_back_edge(c, w, pc, em);
        break;
    case FK_EXIT: /* exit, or ret from the kernel itself (do_ret at depth 0) */
        if (full)
            memset(c->state + base, SIM_T_EXIT, 32);
        else
            LANES(c->state[base + l] = SIM_T_EXIT);
        c->nexited += sim_pop32(em);
        break;
    case FK_CVTA: { /* as exec_insn's cvta */
        const uint64_t win = in->space == SIM_SPACE_SHARED  ? SIM_SHARED_WIN
                             : in->space == SIM_SPACE_LOCAL ? SIM_LOCAL_WIN
                                                            : 0;
        if (in->flags & PTX_F_TO)
            LANESV(vst64(Dp + l, (vld64(P1 + l) - win) & dm), Dp[l] = (P1[l] - win) & dm);
        else
            LANESV(vst64(Dp + l, (vld64(P1 + l) + win) & dm), Dp[l] = (P1[l] + win) & dm);
        break;
    }
    case FK_MOV_SREG: { /* special registers, PTX ISA §10 (sreg) */
        const unsigned id = in->o[1].sub;
        const int per_lane = id <= PTX_SREG_TID_Z || id == PTX_SREG_LANEID ||
                             id == PTX_SREG_WARPID || id == PTX_SREG_LANEMASK_EQ ||
                             (id >= PTX_SREG_LANEMASK_LE && id <= PTX_SREG_LANEMASK_GT);
        const uint64_t vm = pred ? 1 : dm;
        if (id == PTX_SREG_TID_X && c->block[0] == c->nthreads) {
            /* one-dimensional block: the thread index */
            if (full)
                tidx_row(Dp, base, vm);
            else
                LANES(Dp[l] = (base + l) & vm);
        } else if (per_lane) {
            LANES(Dp[l] = sreg(c, id, base + l) & vm);
        } else {
            const uint64_t v = sreg(c, id, base) & vm;
            LANESV(vst64(Dp + l, (sim_v64){v, v}), Dp[l] = v);
        }
        break;
    }
    case FK_LDG:
    case FK_STG:
    case FK_LDS:
    case FK_STS:
        if (em == UINT32_MAX) {
            /* lanes 0 and 31 first: other patterns (half-warp rows, broadcasts, columns)
             * fail here, without a call */
            const int st = fk == FK_STG || fk == FK_STS;
            const uint64_t *const A = W + ((size_t)in->o[st ? 0 : 1].reg << 5);
            if (A[31] == A[0] + 31 * sz && mem_row(c, in, fk, W, base))
                break; /* a full warp's unit-stride request, done from its rows */
        }
        /* fall through */
    case FK_LD:
    case FK_ST: {
        const int st = fk == FK_ST || fk == FK_STG || fk == FK_STS;
        const ptx_operand *ao = &in->o[st ? 0 : 1], *vo = &in->o[st ? 1 : 0];
        const unsigned n = in->vec, bytes = sz * n;
        const int is_s = PTX_TCLASS(in->type) == PTX_TC_S;
        uint64_t off = ao->imm;
        if (ao->sym >= 0) {
            const int sk = c->m->syms[ao->sym].kind;
            if (sk == PTX_SYM_LOCAL || sk == PTX_SYM_FPARAM)
                goto general; /* per-thread frames */
            off += sym_addr(c, ao->sym, base);
        }
        unsigned char *ptr[32];
        int mr = 1; /* sim_mem_warp: 2 one range, 3 and 4 two half-warp patterns */
        if (in->space == SIM_SPACE_PARAM) {
            /* ld.param of a kernel parameter: one value for the warp */
            if (ao->reg != PTX_NOREG)
                goto general;
            unsigned char *p =
                sim_mem(c, base + (unsigned)__builtin_ctz(em), in->space, off, bytes, 0, in);
            if (!p)
                return;
            if (vo->kind != PTX_OPK_VEC) {
                const uint64_t v = load_val(p, sz, is_s);
                LANESV(vst64(Dp + l, (sim_v64){v, v}), Dp[l] = v);
                break;
            }
            LANES(ptr[l] = p);
        } else {
            uint64_t addr[32];
            if (ao->reg != PTX_NOREG) {
                const uint64_t *const A = W + ((size_t)ao->reg << 5);
                LANESV(vst64(addr + l, vld64(A + l) + off), addr[l] = off + A[l]);
            } else {
                LANESV(vst64(addr + l, (sim_v64){off, off}), addr[l] = off);
            }
            mr = sim_mem_warp(c, base, em, in->space, addr, bytes, st, in, ptr);
            if (!mr)
                goto general;
        }
        if (mr == 2 && vo->kind == PTX_OPK_REG && (sz == 8 || (sz == 4 && (st || !is_s)))) {
            /* the 32 lanes' values are one range of memory: whole rows */
            uint64_t *const V = W + ((size_t)vo->reg << 5);
            if (sz == 8 && st) {
                memcpy(ptr[0], V, 32 * 8);
            } else if (sz == 8) {
                memcpy(V, ptr[0], 32 * 8);
            } else if (st) {
                u32_from_rows(ptr[0], V);
            } else {
                rows_from_u32(V, ptr[0], 32);
            }
            break;
        }
        if (mr >= 3 && !st && vo->kind == PTX_OPK_REG && sz == 4 && !is_s) {
            /* each half-warp's values one range (3) or one word (4): two half rows */
            uint64_t *const V = W + ((size_t)vo->reg << 5);
            if (mr == 3) {
                rows_from_u32(V, ptr[0], 16);
                rows_from_u32(V + 16, ptr[16], 16);
            } else {
                uint32_t u, u2;
                memcpy(&u, ptr[0], 4);
                memcpy(&u2, ptr[16], 4);
                const sim_v64 a = {u, u}, b = {u2, u2};
                _Pragma("GCC unroll 8") for (unsigned l = 0; l < 16; l += 2)
                {
                    vst64(V + l, a);
                    vst64(V + 16 + l, b);
                }
            }
            break;
        }
        if (mr == 2) /* sim_mem_warp gave lane 0's pointer only */
            for (unsigned l = 1; l < 32; l++)
                ptr[l] = ptr[0] + (size_t)l * bytes;
        if (vo->kind == PTX_OPK_VEC) {
            for (unsigned i = 0; i < n; i++) {
                const uint16_t rg = vec_reg(vo, i);
                uint64_t *const V = rg != PTX_NOREG ? W + ((size_t)rg << 5) : NULL;
                if (st && rg != PTX_NOREG) {
                    LANES(memcpy(ptr[l] + i * sz, &V[l], sz));
                } else if (st) {
                    const uint64_t z = 0;
                    LANES(memcpy(ptr[l] + i * sz, &z, sz));
                } else if (rg != PTX_NOREG) {
                    LANES(V[l] = load_val(ptr[l] + i * sz, sz, is_s));
                }
            }
        } else if (st && vo->kind == PTX_OPK_REG) {
            const uint64_t *const V = W + ((size_t)vo->reg << 5);
            if (sz == 4)
                LANES_UNROLLED(const uint32_t v = (uint32_t)V[l]; memcpy(ptr[l], &v, 4));
            else
                LANES(memcpy(ptr[l], &V[l], sz));
        } else if (st) {
            const uint64_t v = vo->imm;
            LANES(memcpy(ptr[l], &v, sz));
        } else if (sz == 4 && !is_s) {
            LANES_UNROLLED(uint32_t v; memcpy(&v, ptr[l], 4); Dp[l] = v);
        } else if (sz == 8) {
            LANES_UNROLLED(uint64_t v; memcpy(&v, ptr[l], 8); Dp[l] = v);
        } else {
            LANES(Dp[l] = load_val(ptr[l], sz, is_s));
        }
        break;
    general:
        exec_insn(c, in, w, base, em, pc, mask);
        break;
    }
    default: break;
    }
#undef LANESV
#undef LANES_UNROLLED
#undef LANES
}

/* Whether exec_fast reads an immediate operand of in (fast-path kind fk; operands 1..3,
 * not registers). */
static int imm_operands(const ptx_insn *in, unsigned fk)
{
    if (!fk || fk >= FK_LD)
        return 0;
    for (unsigned k = 1; k < in->nopnd && k < 4; k++)
        if (in->o[k].kind != PTX_OPK_REG)
            return 1;
    return 0;
}

void sim_fops_build(sim_ctx *c, int ncode)
{
    size_t n = 0;
    for (int pc = 0; pc < ncode; pc++)
        n += (size_t)imm_operands(&c->code[pc], c->fast[pc]);
    c->fops = calloc((size_t)ncode + 1, sizeof *c->fops);
    c->imm_rows = n ? calloc(n * 3 * 32, sizeof *c->imm_rows) : NULL;
    if (!c->fops || (n && !c->imm_rows)) {
        free(c->fops);
        free(c->imm_rows);
        c->fops = NULL;
        c->imm_rows = NULL;
        return;
    }
    size_t slot = 0; /* rows 3 * slot .. 3 * slot + 2: the next instruction's immediates */
    for (int pc = 0; pc < ncode; pc++) {
        const ptx_insn *in = &c->code[pc];
        const unsigned fk = c->fast[pc];
        struct sim_fops *F = &c->fops[pc];
        F->d = (uint32_t)in->o[0].reg << 5;
        F->bra = fk == FK_BRA;
        F->g = in->guard == PTX_NOREG
                   ? UINT32_MAX
                   : ((uint32_t)in->guard << 5) | ((in->flags & PTX_F_GUARD_NEG) ? 1u : 0u);
        F->next = F->bra ? (uint32_t)in->target : (uint32_t)pc + 1;
        F->d2 = (fk == FK_SETP_U || fk == FK_SETP_S || fk == FK_SETP_F32) && in->o[0].sub == 2 &&
                        in->o[0].imm != PTX_NOREG
                    ? (uint32_t)in->o[0].imm << 5
                    : UINT32_MAX;
        if (fk && fk < FK_LD) {
            unsigned sa;
            F->fh = (uint8_t)full_handler(in, fk, &sa, &F->k);
            F->sa = (uint8_t)sa;
        }
        const int imm = imm_operands(in, fk);
        for (unsigned k = 1; k < in->nopnd && k < 4; k++) {
            const ptx_operand *o = &in->o[k];
            if (o->kind == PTX_OPK_REG) {
                F->src[k - 1] = (uint32_t)o->reg << 5;
            } else if (imm) {
                const size_t row = (slot * 3 + k - 1) * 32;
                for (unsigned l = 0; l < 32; l++)
                    c->imm_rows[row + l] = o->imm;
                F->src[k - 1] = SIM_FOP_IMM | (uint32_t)row;
            }
        }
        slot += (size_t)imm;
    }
}

/* Warp issue and independent thread scheduling (CUDA C++ Programming Guide, "Independent
 * Thread Scheduling"; PTX ISA §3.1, §9.7.8.6 shfl.sync "wait for all lanes in
 * membermask").
 *
 * Policy:
 *  - Default: issue the runnable lanes at the smallest PC. Structured divergent code
 *    reconverges where the PCs meet, as on pre-Volta hardware; branch efficiency and
 *    the trace show ordinary divergence exactly as before.
 *  - Forward progress: when a group of lanes takes a backward branch while other lanes
 *    of the warp are runnable elsewhere, that counts as one spin; after SIM_ITS_SPIN
 *    spins of loops that poll memory (an atomic or a volatile/relaxed/acquire load in
 *    the iteration: how CUDA spin loops are written), after SIM_ITS_SPIN_PLAIN spins of
 *    other loops, or at once on nanosleep, the looping lanes yield: they are not issued
 *    again until every other runnable lane of the warp has yielded, exited, or is
 *    waiting (barrier, warp-sync). Then the yields are forgotten and min-PC resumes.
 *    Each group thus gets its turn (fair rotation), and an intra-warp spin lock built
 *    on atom.cas terminates: the lane holding the lock runs its critical section and
 *    releases while the others are yielded.
 *  - Warp-synchronous instructions (shfl/vote/match/redux .sync, bar.warp.sync) wait
 *    for every live lane named in membermask to reach the same instruction, as on
 *    Volta and later; a group that must wait is skipped and another group issues.
 *    Lanes that have exited are not waited for (the GPU leaves their values
 *    undefined). If every runnable group waits and no lane of the warp is at a CTA
 *    barrier, the warp can never proceed: a deadlock fault names the instruction,
 *    its membermask and the lanes missing (what compute-sanitizer's synccheck would
 *    report).
 * The step cost in converged code is unchanged: one scan of the lanes, one compare. */
#define SIM_ITS_SPIN 64 /* loops that poll memory (atom, ld.volatile/.relaxed/...) */
#define SIM_ITS_SPIN_PLAIN                                                                         \
    4096 /* any other loop: late, so data-dependent loops keep the
                                   min-PC picture (lanes that finish early wait) */

/* Whether the group g of warp lanes at instruction in must wait for other lanes. */
static int wsync_blocked(const sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t g,
                         uint32_t live, uint32_t *missing)
{
    uint32_t need = 0; /* every lane of g waits for the lanes its membermask names */
    for (uint32_t m = g; m; m &= m - 1)
        need |= member_mask(c, in, base + (unsigned)__builtin_ctz(m));
    *missing = need & live & ~g;
    return *missing != 0;
}

/* The lanes whose row value G[l] has bit 0 set (neg: clear): a guard predicate's row. */
static inline uint32_t guard_bits(const uint64_t *G, uint64_t neg)
{
#if defined(__x86_64__) && defined(__SSE2__)
    /* four lanes per step: their low 32-bit halves side by side, bit 0 moved to the
     * sign bit, the four sign bits (SSE2 shufps, pslld, movmskps) */
    uint32_t g = 0;
    for (unsigned l = 0; l < 32; l += 4) {
        const __m128 a = _mm_loadu_ps((const float *)(const void *)(G + l));
        const __m128 b = _mm_loadu_ps((const float *)(const void *)(G + l + 2));
        const __m128i lo = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
        g |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_slli_epi32(lo, 31))) << l;
    }
    return neg ? ~g : g;
#else
    /* two lanes per vector: element 0 gathers the even lanes' bits, element 1 the odd
     * ones' (one place to the right) */
    const sim_v64 nv = {neg, neg};
    sim_v64 acc = {0, 0};
    for (unsigned l = 0; l < 32; l += 2)
        acc |= ((vld64(G + l) ^ nv) & 1) << l;
    return (uint32_t)(acc[0] | (acc[1] << 1));
#endif
}

/* ------------------------------------------------------------------ run-ahead
 * A warp whose 32 lanes are converged runs the register-only instructions after the
 * one it issued at once (run_ahead), up to SIM_AHEAD_MAX, instead of one per turn of
 * the round-robin: the scheduling work of each is saved. Its next turns count them
 * (ahead_turn: the step, the statistics and, while tracing, the issue event with its
 * time) instead of issuing, so that everything another warp or the host can observe —
 * memory, barriers, printf, atomics, findings, the trace and the step limit — happens
 * at the same step as without it. Register-only: what reads and writes only the warp's
 * own registers and cannot fault (ahead_ok). */

/* Whether in reads and writes nothing but the warp's registers, needs no other lane
 * state than a converged warp has, and cannot fault: fast-path ALU kinds, uniform or
 * divergent branches, special registers but the clocks (their value is the step),
 * addresses of symbols outside thread frames, and in-bounds aligned loads of kernel
 * parameters (read-only while the kernel runs). */
static inline int ahead_ok(const sim_ctx *c, const ptx_insn *in, unsigned fk)
{
    switch (fk) {
    case FK_NONE:
    case FK_ST:
    case FK_EXIT:
    case FK_LDG:
    case FK_STG:
    case FK_LDS:
    case FK_STS: return 0;
    case FK_BRA: return 1;
    case FK_MOV_SREG: {
        const unsigned id = in->o[1].sub;
        return id != PTX_SREG_CLOCK && id != PTX_SREG_CLOCK64 && id != PTX_SREG_CLOCK_HI &&
               id != PTX_SREG_GLOBALTIMER && id != PTX_SREG_GLOBALTIMER_LO &&
               id != PTX_SREG_GLOBALTIMER_HI;
    }
    case FK_MOV_SYM: {
        const int sk = c->m->syms[in->o[1].sym].kind;
        return sk != PTX_SYM_LOCAL && sk != PTX_SYM_FPARAM;
    }
    case FK_LD: { /* exec_fast's ld.param of a kernel parameter */
        const ptx_operand *ao = &in->o[1];
        if (in->space != SIM_SPACE_PARAM || ao->reg != PTX_NOREG)
            return 0;
        uint64_t off = ao->imm;
        if (ao->sym >= 0) {
            if (c->m->syms[ao->sym].kind != PTX_SYM_KPARAM)
                return 0;
            off += sym_addr(c, ao->sym, 0);
        }
        const uint64_t bytes = (uint64_t)PTX_TSIZE(in->type) * in->vec;
        return off < c->kparam_size && bytes <= c->kparam_size - off &&
               (bytes <= 1 || (off & (bytes - 1)) == 0);
    }
    default: return fk < FK_LD;
    }
}

/* Sets F->ahead for in (ahead_ok), and for the kinds run_ahead may run that have no
 * full-warp kernel yet, one for this launch: exec_fast's kernel-parameter load and
 * symbol address (one value for the launch: FH_BCAST) and special registers (FH_TIDX,
 * FH_SREG; the per-lane ones but %tid.x keep exec_fast). */
static void ahead_decode(const sim_ctx *c, const ptx_insn *in, unsigned fk, struct sim_fops *F)
{
    F->ahead = ahead_ok(c, in, fk) ? 2 : 1;
    if (F->ahead != 2 || fk < FK_LD)
        return;
    const unsigned sz = PTX_TSIZE(in->type);
    const uint64_t dm = sz >= 8 ? UINT64_MAX : (1ull << (sz * 8)) - 1;
    if (fk == FK_MOV_SREG) {
        const unsigned id = in->o[1].sub;
        const int per_lane = id <= PTX_SREG_TID_Z || id == PTX_SREG_LANEID ||
                             id == PTX_SREG_WARPID || id == PTX_SREG_LANEMASK_EQ ||
                             (id >= PTX_SREG_LANEMASK_LE && id <= PTX_SREG_LANEMASK_GT);
        F->k = PTX_TCLASS(in->type) == PTX_TC_PRED ? 1 : dm;
        if (id == PTX_SREG_TID_X && c->block[0] == c->nthreads)
            F->fh = FH_TIDX;
        else if (!per_lane)
            F->fh = FH_SREG;
    } else if (fk == FK_MOV_SYM) {
        F->k = sym_addr(c, in->o[1].sym, 0) & dm;
        F->fh = FH_BCAST;
    } else if (fk == FK_LD && in->vec == 1 && in->o[0].kind == PTX_OPK_REG) {
        const ptx_operand *ao = &in->o[1]; /* in bounds and aligned (ahead_ok) */
        const uint64_t off = ao->imm + (ao->sym >= 0 ? sym_addr(c, ao->sym, 0) : 0);
        F->k = load_val(c->kparams + off, sz, PTX_TCLASS(in->type) == PTX_TC_S);
        F->fh = FH_BCAST;
    }
}

/* A hash of warp w's state as it takes the backward branch at pc with lanes `mask`: the
 * branch, every register slot of its lanes, and each lane's state, call depth, register
 * base and (outside mask) PC. */
static uint64_t warp_state_hash(const sim_ctx *c, unsigned w, uint32_t pc, uint32_t mask)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ pc;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 0x100000001b3ull, h ^= h >> 29)
    const uint64_t *R = c->regs + (((size_t)w * c->regcap) << 5);
    for (size_t k = 0; k < (c->regcap << 5); k++)
        MIX(R[k]);
    const unsigned base = w * 32, nl = c->nthreads - base < 32 ? c->nthreads - base : 32;
    for (unsigned l = 0; l < nl; l++) {
        const unsigned t = base + l;
        MIX(((uint64_t)c->state[t] << 56) ^ ((uint64_t)c->depth[t] << 48) ^ c->rbase[t]);
        if (!((mask >> l) & 1))
            MIX(c->pc[t]);
    }
#undef MIX
    return h;
}

/* Does every live warp of c's block wait: all its live lanes at a barrier, or its state
 * found repeating (spin_flag) with no memory written since? Sets c->stuck if so. */
static void block_stuck_check(sim_ctx *c)
{
    const uint64_t now = c->mwrites + 1;
    for (unsigned w = 0; w < c->nwarps; w++) {
        if (c->spin_flag[w] == now)
            continue;
        const unsigned base = w * 32, nl = c->nthreads - base < 32 ? c->nthreads - base : 32;
        for (unsigned l = 0; l < nl; l++)
            if (c->state[base + l] == SIM_T_RUN)
                return; /* a lane that may still make progress */
    }
    c->stuck = now;
}

void sim_back_edge(sim_ctx *c, unsigned w, uint32_t pc, uint32_t mask)
{
    c->loop_pc[w] = (int32_t)pc;
    if (c->spin_seen[w] != c->mwrites) {
        c->spin_seen[w] = c->mwrites;
        c->spin_n[w] = 0;
        c->spin_flag[w] = 0;
        return;
    }
    const uint32_t n = ++c->spin_n[w];
    if (n < SIM_SPIN_MIN)
        return;
    if (c->spin_flag[w]) { /* already repeating: check the block now and then */
        if ((n & 63) == 0)
            block_stuck_check(c);
        return;
    }
    if ((n & (n - 1)) == 0) {
        c->spin_pc[w] = (int32_t)pc;
        c->spin_hash[w] = warp_state_hash(c, w, pc, mask);
    } else if (((n - 1) & (n - 2)) == 0 && c->spin_pc[w] == (int32_t)pc &&
               warp_state_hash(c, w, pc, mask) == c->spin_hash[w]) {
        /* lanes of the warp outside mask that may run (independent thread scheduling
         * turns to them once the spinning lanes yield) may still end the spin */
        const unsigned base = w * 32, nl = c->nthreads - base < 32 ? c->nthreads - base : 32;
        for (unsigned l = 0; l < nl; l++)
            if (!((mask >> l) & 1) && c->state[base + l] == SIM_T_RUN)
                return;
        c->spin_flag[w] = c->mwrites + 1;
        block_stuck_check(c);
    }
}

/* Warp w's turn while it has instructions run ahead: counts the oldest as issued now
 * (as warp_step would have: one step, 32 threads, its issue event). Returns 1. */
static inline int ahead_turn(sim_ctx *c, unsigned w)
{
    c->ahead[w]--;
    ++c->steps; /* run_ahead keeps every such step below the step limit */
    c->res->stats.warp_instructions++;
    c->res->stats.thread_instructions += 32;
    if (c->trace) {
        const uint32_t *q = c->ahead_q[w][c->ahead_head[w]];
        c->ahead_head[w] = (uint8_t)((c->ahead_head[w] + 1) % SIM_AHEAD_MAX);
        sim_trace_issue(c, w, q[0], UINT32_MAX, q[1]);
    }
    return 1;
}

/* Runs warp w's register-only instructions from its converged PC (c->wconv[w] - 1)
 * ahead of its turns, as warp_step's converged path would run them (guard, exec_fast,
 * the next converged PC), stopping at the first other instruction, a divergent branch
 * or SIM_AHEAD_MAX. Its lanes' PCs are set once at the end. Nothing runs while the
 * registers view records register values (their events follow each issue), or when a
 * step-limit fault could fall among the turns that count these (every warp's turns
 * could take up to 8 steps each under --schedule random: the margin covers that), or
 * without the per-PC table (sim_fops_build out of memory). */
static void run_ahead(sim_ctx *c, unsigned w)
{
    if ((c->trace && c->trace->record_regs) ||
        c->steps + (uint64_t)(SIM_AHEAD_MAX + 1) * 8 * c->nwarps >= c->step_limit)
        return;
    struct sim_fops *const fops = c->fops;
    if (!fops) /* no table (out of memory): nothing runs ahead */
        return;
    const unsigned base = w * 32;
    uint64_t *const R = c->regs + (((size_t)w * c->regcap) << 5);
    /* fop_row without a branch: a row of the warp's registers or an immediate's */
    const uint64_t *const rows[2] = {R, c->imm_rows};
    const int tracing = c->trace != NULL;
    /* c->ahead[w] and the converged PC (c->wconv[w] - 1) live in n and p meanwhile:
     * nothing that runs here reads them */
    unsigned n = c->ahead[w];
    uint32_t p = c->wconv[w] - 1;
    const unsigned n0 = n;
    while (n < SIM_AHEAD_MAX) {
        struct sim_fops *const F = &fops[p];
        if (F->ahead != 2) { /* ahead_ok once per instruction and launch */
            if (F->ahead)
                break;
            ahead_decode(c, &c->code[p], c->fast[p], F);
            if (F->ahead != 2)
                break;
        }
        uint32_t em = UINT32_MAX;
        if (F->g != UINT32_MAX)
            em = guard_bits(R + (F->g & ~1u), F->g & 1);
        if (tracing) {
            uint32_t *q = c->ahead_q[w][(c->ahead_head[w] + n) % SIM_AHEAD_MAX];
            q[0] = p;
            q[1] = em;
        }
        n++;
        if (em == UINT32_MAX) {
            const unsigned fh = F->fh;
            if (fh && fh < FH_SREG) {
                exec_fh(fh, F->sa, F->k, R + F->d, F->d2 != UINT32_MAX ? R + F->d2 : NULL,
                        rows[F->src[0] >> 31] + (F->src[0] & ~SIM_FOP_IMM),
                        rows[F->src[1] >> 31] + (F->src[1] & ~SIM_FOP_IMM),
                        rows[F->src[2] >> 31] + (F->src[2] & ~SIM_FOP_IMM));
            } else if (fh == FH_TIDX) {
                tidx_row(R + F->d, base, F->k);
            } else if (fh == FH_SREG) {
                uint64_t *const Dp = R + F->d;
                const uint64_t v = sreg(c, c->code[p].o[1].sub, base) & F->k;
                VPAIRS(vst64(Dp + l, (sim_v64){v, v}));
            } else if (F->bra) { /* as exec_fast's bra: the PCs are set below */
                if (F->next <= p)
                    sim_back_edge(c, w, p, UINT32_MAX);
            } else {
                exec_fast(c, &c->code[p], w, base, em, p, UINT32_MAX);
            }
            p = F->next;
            continue;
        }
        if (!em) { /* the whole warp skipped it (guard false) */
            p++;
            continue;
        }
        if (F->bra) {
            /* divergent: the lanes that do not branch go on at p + 1 */
            c->ahead[w] = (uint8_t)n;
            c->wconv[w] = 0;
            pcs_set(c->pc + base, p + 1);
            exec_fast(c, &c->code[p], w, base, em, p, UINT32_MAX);
            c->its_spin[w] = 0; /* converged until now: spins count from zero */
            if (F->next <= p) { /* a backward branch some lanes take: a spin */
                c->its_spin[w] += c->its_syncmem[w] ? SIM_ITS_SPIN_PLAIN / SIM_ITS_SPIN : 1;
                c->its_syncmem[w] = 0;
                if (c->its_spin[w] >= SIM_ITS_SPIN_PLAIN)
                    its_yield_now(c, w, em);
            }
            return;
        }
        exec_fast(c, &c->code[p], w, base, em, p, UINT32_MAX);
        p++;
    }
    if (n != n0)
        c->its_spin[w] = 0; /* converged: spins count from zero (warp_step) */
    c->ahead[w] = (uint8_t)n;
    c->wconv[w] = p + 1;
    pcs_set(c->pc + base, p);
}

#if defined(__x86_64__) && defined(__SSE2__)
/* warp_step's scan of a whole warp (32 lanes, state st, PCs pcs) four lanes at a time
 * (SSE2): the smallest PC of a runnable lane (state SIM_T_RUN, which is 0), with the
 * runnable lanes in *run and those at that PC in *mask; UINT32_MAX when no lane is
 * runnable. PCs are instruction indices, below 2^31, so signed compares order them. */
static inline uint32_t scan_warp(const uint8_t *st, const uint32_t *pcs, uint32_t *run,
                                 uint32_t *mask)
{
    const __m128i z = _mm_setzero_si128();
    const __m128i s0 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)st), z);
    const __m128i s1 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(st + 16)), z);
    *run = (uint32_t)_mm_movemask_epi8(s0) | ((uint32_t)_mm_movemask_epi8(s1) << 16);
    *mask = 0;
    if (!*run)
        return UINT32_MAX;
    /* the byte masks widened to one 32-bit mask per lane, four lanes per vector */
    const __m128i h[4] = {_mm_unpacklo_epi8(s0, s0), _mm_unpackhi_epi8(s0, s0),
                          _mm_unpacklo_epi8(s1, s1), _mm_unpackhi_epi8(s1, s1)};
    __m128i m[8], v[8];
    const __m128i none = _mm_set1_epi32(INT32_MAX);
    __m128i best = none;
    for (unsigned i = 0; i < 8; i++) {
        m[i] = (i & 1) ? _mm_unpackhi_epi16(h[i / 2], h[i / 2])
                       : _mm_unpacklo_epi16(h[i / 2], h[i / 2]);
        v[i] = _mm_loadu_si128((const __m128i *)(const void *)(pcs + 4 * i));
        const __m128i p = _mm_or_si128(_mm_and_si128(m[i], v[i]), _mm_andnot_si128(m[i], none));
        const __m128i gt = _mm_cmpgt_epi32(best, p);
        best = _mm_or_si128(_mm_and_si128(gt, p), _mm_andnot_si128(gt, best));
    }
    for (int sh = 0; sh < 2; sh++) { /* the smallest of the four */
        const __m128i o = sh ? _mm_shuffle_epi32(best, _MM_SHUFFLE(2, 3, 0, 1))
                             : _mm_shuffle_epi32(best, _MM_SHUFFLE(1, 0, 3, 2));
        const __m128i gt = _mm_cmpgt_epi32(best, o);
        best = _mm_or_si128(_mm_and_si128(gt, o), _mm_andnot_si128(gt, best));
    }
    const uint32_t b = (uint32_t)_mm_cvtsi128_si32(best);
    const __m128i bv = _mm_set1_epi32((int)b);
    uint32_t at = 0;
    for (unsigned i = 0; i < 8; i++) {
        const __m128i hit = _mm_and_si128(_mm_cmpeq_epi32(v[i], bv), m[i]);
        at |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(hit)) << (4 * i);
    }
    *mask = at;
    return b;
}
#endif

/* Random schedules (sim_config.schedule_random): the lanes of a diverged warp run in
 * any order under independent thread scheduling (CUDA C++ Programming Guide,
 * "Independent Thread Scheduling"), so half the time the group issued is that of a
 * random runnable lane instead of the one at the smallest PC, unless that lane waits at
 * a warp-synchronous instruction (the general choice below handles those). run: the
 * warp's runnable lanes; best, *mask: the group at the smallest PC. Returns the PC to
 * issue, with *mask its lanes. */
static __attribute__((noinline)) uint32_t random_group(sim_ctx *c, unsigned base, uint32_t run,
                                                       uint32_t best, uint32_t *mask)
{
    /* splitmix64 step (as sim.c's schedule stream) */
    uint64_t z = (c->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    if (z & 1)
        return best;
    unsigned k = (unsigned)((z >> 1) % sim_pop32(run));
    uint32_t m = run;
    while (k--)
        m &= m - 1;
    const uint32_t p = c->pc[base + (unsigned)__builtin_ctz(m)];
    if (p == best || is_warp_sync(&c->code[p]))
        return best;
    uint32_t g = 0;
    for (uint32_t r = run; r; r &= r - 1) {
        const unsigned l = (unsigned)__builtin_ctz(r);
        g |= (uint32_t)(c->pc[base + l] == p) << l;
    }
    *mask = g;
    return p;
}

static inline __attribute__((always_inline)) int warp_step(sim_ctx *c, unsigned w)
{
    if (w < SIM_ITS_WARPS && c->ahead[w])
        return ahead_turn(c, w);
    const unsigned base = w * 32;
    uint32_t best = UINT32_MAX, mask = 0, run = 0;
    const uint8_t *st = c->state + base;
    const uint32_t *pcs = c->pc + base;
    if (w < SIM_ITS_WARPS && ((c->wdone >> w) & 1))
        return 0; /* every lane exited or waits at a barrier (release_barrier clears) */
    if (w < SIM_ITS_WARPS && c->wconv[w]) {
        /* still converged after a straight-line instruction: no scan */
        best = c->wconv[w] - 1;
        mask = run = UINT32_MAX;
        c->wconv[w] = 0;
        goto scanned;
    }
    const unsigned n = c->nthreads - base < 32 ? c->nthreads - base : 32;
    if (n == 32) {
        /* whole warp: 8 lane states per 64-bit word (SIM_T_RUN is 0) */
        uint64_t sw[4], any_run = 0, not_run = 0;
        memcpy(sw, st, sizeof sw);
        for (int i = 0; i < 4; i++) {
            /* a byte of sw[i] that is zero (a runnable lane) */
            any_run |= (sw[i] - 0x0101010101010101ull) & ~sw[i] & 0x8080808080808080ull;
            not_run |= sw[i];
        }
        if (!any_run) {
            c->wdone |= 1u << w;
            return 0; /* every lane exited or waits at a barrier */
        }
        if (!not_run) { /* every lane runnable: converged when all PCs are equal */
            const uint32_t p0 = pcs[0];
            if (pcs_all_equal(pcs, p0)) {
                best = p0;
                mask = run = UINT32_MAX;
                goto scanned;
            }
        }
    }
    /* branch-free passes: the smallest PC of a runnable lane, then the runnable lanes
     * and those at that PC */
#if defined(__x86_64__) && defined(__SSE2__)
    if (n == 32) {
        best = scan_warp(st, pcs, &run, &mask);
        if (best == UINT32_MAX) {
            if (w < SIM_ITS_WARPS)
                c->wdone |= 1u << w;
            return 0;
        }
        goto scanned;
    }
#endif
    for (unsigned l = 0; l < n; l++) {
        const uint32_t p = st[l] == SIM_T_RUN ? pcs[l] : UINT32_MAX;
        best = p < best ? p : best;
    }
    if (best == UINT32_MAX) {
        if (w < SIM_ITS_WARPS)
            c->wdone |= 1u << w;
        return 0;
    }
    for (unsigned l = 0; l < n; l++) {
        run |= (uint32_t)(st[l] == SIM_T_RUN) << l;
        mask |= (uint32_t)(st[l] == SIM_T_RUN && pcs[l] == best) << l;
    }
scanned:;
    if (mask != run && c->s->cfg.schedule_random && w < SIM_ITS_WARPS && !(c->its_yield[w] & run))
        best = random_group(c, base, run, best, &mask);
    const ptx_insn *in = &c->code[best];
    const int its = w < SIM_ITS_WARPS;
    /* (block_start starts every block with no yields, spins or polls: its_block) */
    if ((mask != run && its && !(c->its_yield[w] & run) && !is_warp_sync(in))) {
        /* diverged, no lane has yielded, not warp-synchronous: the group below would
         * be the runnable lanes at the smallest PC, which the scan found */
    } else if (mask != run || is_warp_sync(in)) {
        /* diverged, or a warp-synchronous instruction: choose the group to issue */
        const unsigned nl = c->nthreads - base < 32 ? c->nthreads - base : 32;
        uint32_t live = 0, missing = 0, yielded = its ? c->its_yield[w] & run : 0;
        for (unsigned l = 0; l < nl; l++)
            if (c->state[base + l] != SIM_T_EXIT)
                live |= 1u << l;
        if (its && (run & ~yielded) == 0) {
            c->its_yield[w] = 0;
            yielded = 0;
        }
        const ptx_insn *blocked_at = NULL;
        uint32_t blocked_missing = 0, chosen = 0;
        /* pass 0: lanes that have not yielded; pass 1: all of them */
        for (int pass = 0; pass < 2 && !chosen; pass++) {
            uint32_t cand = run & ~yielded;
            if (pass == 1) {
                if (!yielded)
                    break;
                /* no lane that has not yielded can issue: forget the yields */
                if (its)
                    c->its_yield[w] = 0;
                cand = run;
            }
            while (cand && !chosen) {
                uint32_t p = UINT32_MAX, g = 0;
                for (uint32_t m = cand; m; m &= m - 1) {
                    unsigned l = (unsigned)__builtin_ctz(m);
                    if (c->pc[base + l] < p)
                        p = c->pc[base + l];
                }
                for (uint32_t m = cand; m; m &= m - 1) {
                    unsigned l = (unsigned)__builtin_ctz(m);
                    if (c->pc[base + l] == p)
                        g |= 1u << l;
                }
                const ptx_insn *pi = &c->code[p];
                if (is_warp_sync(pi) && wsync_blocked(c, pi, base, g, live, &missing)) {
                    /* bar.warp.sync at different PCs synchronise with each other
                     * (PTX ISA §9.7.13.x bar.warp.sync, sm_70+): release them together */
                    uint32_t co = 0;
                    if (pi->op == PTX_OP_bar_warp && (missing & ~run) == 0) {
                        for (uint32_t m = missing; m; m &= m - 1) {
                            unsigned l = (unsigned)__builtin_ctz(m);
                            if (c->code[c->pc[base + l]].op == PTX_OP_bar_warp)
                                co |= 1u << l;
                        }
                    }
                    if (co && co == missing) {
                        for (uint32_t m = co; m; m &= m - 1)
                            c->pc[base + (unsigned)__builtin_ctz(m)]++;
                        chosen = g;
                        best = p;
                        break;
                    }
                    if (!blocked_at) {
                        blocked_at = pi;
                        blocked_missing = missing;
                    }
                    cand &= ~g;
                    continue;
                }
                chosen = g;
                best = p;
            }
        }
        if (!chosen) {
            /* every runnable group waits at a warp-synchronous instruction */
            for (unsigned l = 0; l < nl; l++)
                if (c->state[base + l] == SIM_T_BAR)
                    return 0; /* lanes at a CTA barrier: resolve_barrier decides */
            char where[200];
            sim_where(c, blocked_at, where, sizeof where);
            sim_fault_at(c, base + (unsigned)__builtin_ctz(run), blocked_at, SIM_FAULT_DEADLOCK,
                         "deadlock in warp %u: %s.sync at %s waits for lanes 0x%08x named "
                         "in its membermask, which never reach it (they wait at another "
                         "warp-synchronous instruction; the simulator needs the lanes of "
                         "a shfl/vote/match/redux .sync to meet at the same one)",
                         w, op_name(blocked_at->op), where, blocked_missing);
            return 1;
        }
        mask = chosen;
        in = &c->code[best];
    } else if (its && c->its_spin[w]) {
        c->its_spin[w] = 0; /* converged again: spins count from zero */
    }
    int over_steps = ++c->steps > c->step_limit, over_time = 0;
    if (--c->clock_check == 0) { /* the wall clock, every SIM_CLOCK_EVERY instructions */
        c->clock_check = SIM_CLOCK_EVERY;
        over_time = c->deadline > 0 && sim_now() > c->deadline;
    }
    if (over_steps || over_time) {
        const ptx_insn *at = c->loop_pc[w] >= 0 ? &c->code[c->loop_pc[w]] : in;
        char where[200];
        sim_where(c, at, where, sizeof where);
        char warps[300];
        sim_warps_state(c, warps, sizeof warps);
        if (over_steps)
            sim_fault_at(c, base + (unsigned)__builtin_ctz(mask), at, SIM_FAULT_STEP_LIMIT,
                         "step limit of %llu warp instructions reached: an endless loop? "
                         "(last loop branch at %s)%s",
                         (unsigned long long)c->step_limit, where, warps);
        else
            sim_fault_at(c, base + (unsigned)__builtin_ctz(mask), at, SIM_FAULT_STEP_LIMIT,
                         "time limit of %g s reached after %llu warp instructions: an endless "
                         "loop? (last loop branch at %s; --timeout raises the limit)%s",
                         c->s->cfg.time_limit_s, (unsigned long long)c->steps, where, warps);
        return 1;
    }
    c->res->stats.warp_instructions++;
    if (mask == UINT32_MAX) { /* converged: every lane */
        c->res->stats.thread_instructions += 32;
        pcs_set(c->pc + base, best + 1);
    } else {
        c->res->stats.thread_instructions += sim_pop32(mask);
        for (uint32_t m = mask; m; m &= m - 1)
            c->pc[base + (unsigned)__builtin_ctz(m)] = best + 1;
    }
    uint32_t em = mask;
    if (in->guard != PTX_NOREG) {
        const uint64_t neg = (in->flags & PTX_F_GUARD_NEG) ? 1 : 0;
        em = 0;
        if (w < SIM_ITS_WARPS && !c->w_called[w]) { /* one lane-major row (exec_fast) */
            const uint64_t *G = c->regs + (((size_t)w * c->regcap + in->guard) << 5);
            em = guard_bits(G, neg) & mask;
        } else {
            for (uint32_t m = mask; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m), t = base + l;
                if ((*sim_reg(c, t, in->guard) & 1) ^ neg)
                    em |= 1u << l;
            }
        }
    }
    if (c->trace) /* trace hook (sim.c): one predictable branch when tracing is off */
        sim_trace_issue(c, w, best, mask, em);
    if (!em && mask == UINT32_MAX && its) {
        /* the whole warp skipped it (guard false): every lane runnable at the next PC */
        c->wconv[w] = best + 2;
    } else if (em) {
        c->mwrites += in->op == PTX_OP_st; /* spin detection: memory may have changed */
        const unsigned fk = c->fast[best];
        if (fk) {
            exec_fast(c, in, w, base, em, best, mask);
            /* a straight-line instruction issued to the whole warp leaves every lane
             * runnable at the next PC, a branch taken by every lane at its target:
             * the next step needs no scan */
            if (mask == UINT32_MAX && its && !c->faulted) {
                if (fk < FK_BRA)
                    c->wconv[w] = best + 2;
                else if (fk == FK_BRA && em == UINT32_MAX)
                    c->wconv[w] = (uint32_t)in->target + 1;
            }
        } else {
            exec_insn(c, in, w, base, em, best, mask);
        }
        /* a backward branch taken while other lanes of the warp wait: a spin */
        if (its && in->op == PTX_OP_bra && (uint32_t)in->target <= best && (run & ~em)) {
            c->its_spin[w] += c->its_syncmem[w] ? SIM_ITS_SPIN_PLAIN / SIM_ITS_SPIN : 1;
            c->its_syncmem[w] = 0;
            if (c->its_spin[w] >= SIM_ITS_SPIN_PLAIN)
                its_yield_now(c, w, em);
        }
    }
    /* (not when the next instruction is known not to run ahead: the call costs) */
    if (its && c->wconv[w] && !c->w_called[w] && !c->faulted && c->fops &&
        c->fops[c->wconv[w] - 1].ahead != 1)
        run_ahead(c, w);
    return 1;
}

int sim_warp_step(sim_ctx *c, unsigned w)
{
    return warp_step(c, w);
}

int sim_warp_round(sim_ctx *c)
{
    /* the warps that may issue: those that cannot (c->wdone) return 0 at once */
    const uint32_t all = c->nwarps >= 32 ? UINT32_MAX : (1u << c->nwarps) - 1;
    if (!c->trace) {
        /* every such warp has instructions run ahead: the next m rounds only count them
         * (ahead_turn), m the fewest any warp has; count them at once */
        const uint32_t live = all & ~c->wdone;
        unsigned m = SIM_AHEAD_MAX, n = 0;
        for (uint32_t b = live; b && m; b &= b - 1) {
            const unsigned a = c->ahead[__builtin_ctz(b)];
            m = a < m ? a : m;
            n++;
        }
        if (m && n) {
            for (uint32_t b = live; b; b &= b - 1)
                c->ahead[__builtin_ctz(b)] = (uint8_t)(c->ahead[__builtin_ctz(b)] - m);
            c->steps += (uint64_t)m * n;
            c->res->stats.warp_instructions += (uint64_t)m * n;
            c->res->stats.thread_instructions += (uint64_t)m * n * 32;
            return 1;
        }
    }
    int progressed = 0;
    for (unsigned w = 0; w < 32; w++) {
        /* the next warp from w that may issue, looked up afresh: a barrier released by
         * an earlier warp of this round lets later ones issue in it */
        const uint32_t m = all & ~c->wdone & (UINT32_MAX << w);
        if (!m)
            break;
        w = (unsigned)__builtin_ctz(m);
        progressed |= warp_step(c, w);
        if (c->faulted)
            break;
    }
    return progressed;
}
