/* exec_insn.c — the general tier: sim_exec_insn, one switch over every PTX op, grouped by
 * family with the PTX ISA section each follows: the ALU ops' semantics inline
 * (ptx_ops.def's one-line expressions for the plain ones), the other families' handlers
 * called once per warp instruction (exec_alu.c, exec_ctrl.c, exec_mem.c, exec_warp.c,
 * exec_async.c, exec_mma.c). The fast tiers (exec_fast.h) hand it every form they do not
 * cover.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_async.h"
#include "sim/exec_cluster.h"
#include "sim/exec_lanes.h"
#include "sim/sfu.h"

void sim_exec_insn(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                   uint32_t pc, uint32_t mask)
{
    const int tc = PTX_TCLASS(in->type);
    const unsigned sz = PTX_TSIZE(in->type);
    const int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    const int nanmode = (in->flags & PTX_F_NAN) != 0;
    int unsup = 0;
    (void)nanmode;
    if (tc == PTX_TC_U2 || tc == PTX_TC_S2) { /* add/min/max .u16x2/.s16x2 */
        sim_exec_int16x2(c, in, base, em);
        return;
    }
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
        case PTX_OP_abs:
        case PTX_OP_tanh:
        case PTX_OP_ex2: sim_exec_half(c, in, base, em); return;
        default: break; /* moves, loads, conversions: handled below by size */
        }
    }
    if (in->flags & PTX_F_CC) {
        sim_exec_carry(c, in, base, em);
        return;
    }
    if (sat && tc == PTX_TC_S && sz == 4 && (in->op == PTX_OP_add || in->op == PTX_OP_sub)) {
        /* add.sat.s32 / sub.sat.s32 (PTX ISA §9.7.1.1-2): clamped to MININT..MAXINT */
        FOR_LANES
        const int64_t a = sx(A(1), 4), b = sx(A(2), 4), r = in->op == PTX_OP_add ? a + b : a - b;
        D = zx((uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r), 4);
        END_LANES
        return;
    }
    if ((in->op == PTX_OP_min || in->op == PTX_OP_max) && tc == PTX_TC_S && (in->bop & PTX_RELU)) {
        /* min.relu / max.relu .s32 (PTX ISA §9.7.1.12-13, sm_90): a negative result is 0 */
        FOR_LANES
        const int64_t a = sx(A(1), sz), b = sx(A(2), sz);
        const int64_t r = (in->op == PTX_OP_min) == (a < b) ? a : b;
        D = zx((uint64_t)(r < 0 ? 0 : r), sz);
        END_LANES
        return;
    }
    if ((in->op == PTX_OP_min || in->op == PTX_OP_max) && tc == PTX_TC_F && sz == 4 &&
        (in->bop & PTX_XORSIGN_ABS)) {
        /* min/max.xorsign.abs.f32 (PTX ISA §9.7.3.11-12): min/max of |a| and |b| (the NaN
         * rules unchanged), its sign a's sign ^ b's, unless the result is NaN */
        FOR_LANES
        const uint64_t ab = zx(A(1), 4), bb = zx(A(2), 4);
        float fa = f32(ab & 0x7fffffffu), fb = f32(bb & 0x7fffffffu);
        if (ftz) {
            fa = ftzf(fa);
            fb = ftzf(fb);
        }
        const float r =
            in->op == PTX_OP_min ? ptx_fminf(fa, fb, nanmode) : ptx_fmaxf(fa, fb, nanmode);
        D = r != r ? canon32(r) : (bf32(r) & 0x7fffffffu) | ((ab ^ bb) & 0x80000000u);
        END_LANES
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
        /* neg/abs.f32/.f64 (PTX ISA §9.7.3.9, §9.7.3.8) change only the sign bit of a
         * number; .ftz flushes a subnormal input first. A NaN (the ISA: "NaN inputs
         * yield an unspecified NaN"), as an H200 gives it (tests/isa/nan.txt): .f32 the
         * canonical NaN, .f64 the input made quiet, its sign unchanged */
        const uint64_t sign = sz == 4 ? 0x80000000u : 0x8000000000000000ull;
        FOR_LANES
        uint64_t v = zx(A(1), sz);
        if (ftz && sz == 4)
            v = bf32(ftzf(f32(v)));
        if (sz == 4 && f32(v) != f32(v))
            D = NAN32;
        else if (sz == 8 && f64(v) != f64(v))
            D = v | QNAN64_BIT;
        else
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
        if (NSRC > 1 && r_ != r_)                                                                  \
            r_ = nan64_of(r_, da, db, 0.0);                                                        \
        D = bf64(sat ? satd(r_) : r_);                                                             \
        END_LANES                                                                                  \
        fesetround(old_);                                                                          \
    }
#define BIN(name, cls, sm, ptx, IE, FE, DE)                                                        \
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
#define UN(name, cls, sm, ptx, IE, FE, DE)                                                         \
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
#define OP(name, cls, k, sm, ptx, syntax)
#include "sim/ptx/ptx_ops.def"
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
                double da = f64(A(1)), db = f64(A(2)), dc = is_mad ? f64(A(3)) : 0.0;
                double r = is_mad ? fma(da, db, dc) : da * db;
                if (r != r)
                    r = nan64_of(r, da, db, dc);
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
                    /* div.approx.f32 (PTX ISA §9.7.3.8): a times the unit's 1/b
                         * (MUFU.RCP, sim/sfu.h), max 2 ulp; for
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
                        r = fa * sfu_rcp(fb, 1);
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
        uint64_t r = (uint64_t)sim_compare(in->cmp, (ptx_type)in->type2, A(1), A(2)), nr = !r;
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
        if (PTX_TCLASS(in->type2) == PTX_TC_H2 || PTX_TCLASS(in->type2) == PTX_TC_BH2 ||
            ((tc == PTX_TC_F || tc == PTX_TC_BF) && sz == 2)) {
            sim_exec_half_set(c, in, base, em);
            break;
        }
        FOR_LANES
        int r = sim_compare(in->cmp, (ptx_type)in->type2, A(1), A(2));
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
        if (in->o[0].kind == PTX_OPK_VEC && in->o[1].kind == PTX_OPK_VEC) {
            /* mov.b128 (PTX ISA §9.7.9.4): a .b128 register from or to two .b64 */
            FOR_LANES
            uint64_t v[2];
            for (unsigned i = 0; i < 2; i++) {
                const uint16_t rg = vec_reg(&in->o[1], i);
                v[i] = rg != PTX_NOREG ? RG(rg) : 0;
            }
            for (unsigned i = 0; i < 2; i++) {
                const uint16_t rg = vec_reg(&in->o[0], i);
                if (rg != PTX_NOREG)
                    RG(rg) = v[i];
            }
            END_LANES
        } else if (in->o[1].kind == PTX_OPK_VEC) { /* pack {a, b} into one register */
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
        if (in->cmp) { /* .tf32, .e4m3x2, .e5m2x2 (PTX ISA §9.7.9.21) */
            FOR_LANES
            D = sim_cvt_special(in, A(1), in->nopnd > 2 ? A(2) : 0);
            END_LANES
            break;
        }
        if (in->type == PTX_T_F16X2 || in->type == PTX_T_BF16X2) {
            /* cvt.rn.f16x2.f32 d, a, b: d = {cvt(a) in the upper half, cvt(b) lower} */
            const int bf = in->type == PTX_T_BF16X2;
            FOR_LANES
            double xa = (double)f32(A(1)), xb = (double)f32(A(2));
            if (in->bop & PTX_RELU) {
                xa = relu(xa);
                xb = relu(xb);
            }
            const int satf = (in->bop & PTX_CVT_SATFINITE) != 0;
            uint32_t hi = half_bits(xa, bf, in->rnd, satf), lo = half_bits(xb, bf, in->rnd, satf);
            D = (hi << 16) | (lo & 0xffff);
            END_LANES
            break;
        }
        FOR_LANES
        uint64_t r = sim_cvt(in, A(1));
        /* a signed result is sign-extended to its register's width: 32 bits for a
         * narrower type, 64 in a 64-bit register (.wide, from the parser; PTX ISA
         * §9.7.9.21 cvt Notes) */
        if (tc == PTX_TC_S && sz < 8)
            r = (in->flags & PTX_F_WIDE) ? (uint64_t)sx(r, sz)
                : sz < 4                 ? zx((uint64_t)sx(r, sz), 4)
                                         : r;
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
    case PTX_OP_ldu: sim_exec_ld(c, in, w, base, em); break;
    case PTX_OP_st: /* PTX ISA §9.7.9.10 st */ sim_exec_st(c, in, base, em); break;
    case PTX_OP_atom:
    case PTX_OP_red: sim_exec_atom(c, in, w, base, em); break;
    case PTX_OP_prefetch: break;

    /* ---- control flow (PTX ISA §9.7.12) ---- */
    case PTX_OP_bra:
        FOR_LANES
        c->pc[t] = (uint32_t)in->target;
        END_LANES
        if ((uint32_t)in->target <= pc)
            sim_back_edge(c, w, pc, em);
        break;
    case PTX_OP_brx: { /* PTX ISA §9.7.12.4 brx.idx: to the index-th label of the list */
        const uint64_t n = in->o[1].imm;
        int back = 0;
        FOR_LANES
        const uint64_t i = zx(A(0), 4);
        if (i >= n) {
            sim_fault_at(c, t, in, SIM_FAULT_OUT_OF_BOUNDS,
                         "brx.idx index %llu is past its list of %llu labels (PTX ISA "
                         "§9.7.12.4: the behavior is undefined)",
                         (unsigned long long)i, (unsigned long long)n);
            return;
        }
        c->pc[t] = (uint32_t)c->m->btab[in->target + (int32_t)i];
        back |= c->pc[t] <= pc;
        END_LANES
        if (back)
            sim_back_edge(c, w, pc, em);
        break;
    }
    case PTX_OP_call:
        FOR_LANES
        sim_do_call(c, in, t, pc + 1);
        if (c->faulted)
            return;
        END_LANES
        break;
    case PTX_OP_ret:
        FOR_LANES
        sim_do_ret(c, in, t);
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
    case PTX_OP_bar: /* PTX ISA §9.7.13.1 bar/barrier .sync/.arrive/.red (sim_barrier.c) */
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
    case PTX_OP_lop3: { /* PTX ISA §9.7.8.6 lop3: any function of a, b, c by its LUT; the
                         * .and/.or form also sets p = (d != 0) BoolOp q */
        FOR_LANES
        uint64_t a = A(1), b = A(2), cc = A(3), r = 0;
        uint32_t lut = in->bop ? in->cmp : (uint32_t)O4;
        for (unsigned i = 0; i < 8; i++)
            if ((lut >> i) & 1)
                r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? cc : ~cc);
        D = zx(r, sz);
        if (in->bop && in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG)
            RG(in->o[0].imm) = combine(in->bop, zx(r, sz) != 0, O4 & 1);
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
    case PTX_OP_madc: sim_exec_carry(c, in, base, em); break;
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
    case PTX_OP_bmsk: /* PTX ISA §9.7.1.21 bmsk: a mask of b bits from bit a; .clamp: an
                       * a or b of 32 or more is not wrapped to its low five bits */
        FOR_LANES
        uint32_t a = (uint32_t)A(1), b = (uint32_t)A(2), a1 = a & 31, b1 = b & 31;
        uint32_t mask0 = ~0u << a1, mask1 = a1 + b1 >= 32 ? 0 : ~0u << (a1 + b1);
        const int clamp = (in->flags & PTX_F_CLAMP) != 0;
        if (clamp && a >= 32)
            mask0 = 0;
        if (clamp && b >= 32)
            mask1 = 0;
        else if (b1 == 0 && a1 + b1 < 32)
            mask1 = ~0u;
        D = mask0 & ~mask1;
        END_LANES
        break;
    case PTX_OP_stacksave: /* PTX ISA §9.7.17.1-3: the stack pointer, a local address */
    case PTX_OP_stackrestore:
    case PTX_OP_alloca: {
        const uint64_t fbase = (uint64_t)c->m->funcs[in->func].local_size;
        c->frames_used = 1; /* ldyn moves: block_start resets it */
        FOR_LANES
        const uint64_t sp0 = c->lbase[t] + fbase, sp = sp0 + c->ldyn[t];
        if (in->op == PTX_OP_stacksave) {
            D = zx(sp, sz);
        } else if (in->op == PTX_OP_stackrestore) {
            const uint64_t a = zx(A(0), sz);
            if (a < sp0 || a > (uint64_t)c->localcap) {
                sim_fault_at(c, t, in, SIM_FAULT_OUT_OF_BOUNDS,
                             "stackrestore to 0x%llx, which no stacksave of this function "
                             "returned (PTX ISA §9.7.17.2: the stack would be corrupted)",
                             (unsigned long long)a);
                return;
            }
            c->ldyn[t] = (uint32_t)(a - sp0);
        } else { /* alloca ptr, size{, immAlign}: at least 8-byte aligned */
            const uint64_t size = zx(A(1), sz), al = in->nopnd > 2 && A(2) > 8 ? A(2) : 8;
            const uint64_t p = (sp + al - 1) & ~(al - 1);
            if (p + size > (uint64_t)c->localcap || p + size < p) {
                sim_fault_at(c, t, in, SIM_FAULT_OUT_OF_BOUNDS,
                             "alloca of %llu bytes overflows the thread's stack (%u bytes for "
                             "alloca, the GPU's default cudaLimitStackSize)",
                             (unsigned long long)size, SIM_ALLOCA_BYTES);
                return;
            }
            c->ldyn[t] = (uint32_t)(p + size - sp0);
            D = zx(p, sz);
        }
        END_LANES
        break;
    }
    case PTX_OP_cvt_pack: { /* PTX ISA §9.7.9.22 cvt.pack: a and b saturated to the
                             * width, a above b, then (below 16 bits) c's low bits above */
        const unsigned bits = in->cmp;
        const int64_t lo = in->bop ? -((int64_t)1 << (bits - 1)) : 0;
        const int64_t hi = in->bop ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
        const uint64_t fm = ((uint64_t)1 << bits) - 1;
        FOR_LANES
        int64_t a = sx(A(1), 4), b = sx(A(2), 4);
        a = a < lo ? lo : a > hi ? hi : a;
        b = b < lo ? lo : b > hi ? hi : b;
        uint64_t td = ((uint64_t)b & fm) | (((uint64_t)a & fm) << bits);
        D = bits == 16 ? td : zx(td | (A(3) << (2 * bits)), 4);
        END_LANES
        break;
    }
    case PTX_OP_szext: /* PTX ISA §9.7.1.21 szext: the low b bits of a, sign- (.s32) or
                        * zero-extended; .clamp: b >= 32 keeps all of a, .wrap: b mod 32 */
        FOR_LANES
        const uint32_t a = (uint32_t)A(1), b = (uint32_t)A(2), b1 = b & 31;
        const int too_large = b >= 32 && (in->flags & PTX_F_CLAMP);
        const uint32_t hi = too_large ? 0 : ~0u << b1;
        const int sign = b1 != 0 && !too_large && ISS && ((a >> ((b1 - 1) & 31)) & 1);
        D = (a & ~hi) | (sign ? hi : 0);
        END_LANES
        break;
    case PTX_OP_createpolicy: /* PTX ISA §9.7.9.18: an opaque policy; its form in bits 0-1 */
        FOR_LANES
        D = 0x2c00000000000000ull | in->cmp;
        END_LANES
        break;
    case PTX_OP_applypriority: /* PTX ISA §9.7.9.16-17: cache-line hints */
    case PTX_OP_discard:
    case PTX_OP_pmevent: /* §9.7.19.3: no performance monitors */
    case PTX_OP_griddepcontrol: /* §9.7.13.13: no dependent grids */ break;
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
     *      (sim_member_parts). */
    case PTX_OP_shfl: sim_exec_shfl(c, in, w, base, em, pc); break;
    case PTX_OP_vote: sim_exec_vote(c, in, w, base, em, pc); break;
    case PTX_OP_match: sim_exec_match(c, in, base, em); break;
    case PTX_OP_redux: sim_exec_redux(c, in, base, em); break;
    case PTX_OP_mma: /* PTX ISA §9.7.14: the tensor-core instructions (exec_mma.c) */
    case PTX_OP_wmma_load:
    case PTX_OP_wmma_store:
    case PTX_OP_wmma_mma:
    case PTX_OP_ldmatrix:
    case PTX_OP_stmatrix:
    case PTX_OP_movmatrix: sim_exec_mma(c, in, w, base, em); break;
    case PTX_OP_elect: /* PTX ISA §9.7.13.12: the lowest lane of each group leads */
        sim_exec_elect(c, in, base, em);
        break;
    case PTX_OP_cp:
    case PTX_OP_mbarrier: sim_exec_async(c, in, w, base, em); break;
    case PTX_OP_st_async: /* PTX ISA §9.7.9.12, §9.7.13.7 (exec_async.c) */
    case PTX_OP_red_async: sim_exec_st_async(c, in, base, em); break;
    case PTX_OP_barrier_cluster: /* PTX ISA §9.7.13.2; mapa, getctarank §9.7.9.21-22 */
    case PTX_OP_mapa:
    case PTX_OP_getctarank: sim_exec_cluster(c, in, w, base, em, pc); break;
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
    case PTX_OP_vset4: sim_exec_video(c, in, base, em); break;
    case PTX_OP_vadd: /* PTX ISA §9.7.18.1 scalar video (exec_alu.c) */
    case PTX_OP_vsub:
    case PTX_OP_vabsdiff:
    case PTX_OP_vmin:
    case PTX_OP_vmax:
    case PTX_OP_vshl:
    case PTX_OP_vshr:
    case PTX_OP_vmad:
    case PTX_OP_vset: sim_exec_svideo(c, in, base, em); break;
    case PTX_OP_COUNT: unsup = 1; break;
    }
    if (unsup)
        sim_unsupported(c, base + (unsigned)__builtin_ctz(em), in);
}

#undef FOR_LANES
#undef END_LANES
#undef A
#undef D
#undef ISS
#undef O4
#undef UNSUP
