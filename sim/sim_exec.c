/* sim_exec.c — the interpreter: per-warp issue and the semantics of every PTX op.
 *
 * Execution model (PTX ISA §3.1 "SIMT architecture"; CUDA C++ Programming Guide,
 * "Independent Thread Scheduling"): every thread has its own PC. A warp issues one
 * decoded instruction for the runnable lanes that share the smallest PC, which
 * reconverges structured code where the PCs meet; the instruction's guard predicate is
 * then evaluated per lane. Handlers loop over the active lanes (decode cost is paid
 * once per warp) and are grouped by family below, each citing its PTX ISA section.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

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
static inline float satf(float x)
{
    return isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}
static inline double satd(double x)
{
    return isnan(x) ? 0.0 : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
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
    case PTX_SREG_SMID:
        return ((uint64_t)c->bid[2] * c->grid[1] * c->grid[0] +
                (uint64_t)c->bid[1] * c->grid[0] + c->bid[0]) %
               (uint64_t)sim_device()->sm_count;
    case PTX_SREG_NSMID: return (uint64_t)sim_device()->sm_count;
    case PTX_SREG_CLOCK: return c->steps & 0xffffffffu;
    case PTX_SREG_CLOCK64: return c->steps;
    case PTX_SREG_LANEMASK_EQ: return 1u << (t % 32);
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

static inline uint64_t addr_of(const sim_ctx *c, const ptx_operand *o, const uint64_t *R,
                               unsigned t)
{
    uint64_t a = o->imm;
    if (o->reg != PTX_NOREG)
        a += R[o->reg];
    if (o->sym >= 0)
        a += sym_addr(c, o->sym, t);
    return a;
}

static inline uint64_t opval(const sim_ctx *c, const ptx_operand *o, const uint64_t *R,
                             unsigned t)
{
    switch (o->kind) {
    case PTX_OPK_REG: return R[o->reg];
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
    if (PTX_TCLASS(ty) == PTX_TC_F) {
        double a = sz == 4 ? (double)f32(x) : f64(x), b = sz == 4 ? (double)f32(y) : f64(y);
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
    case PTX_CMP_LT: case PTX_CMP_LO: return a < b;
    case PTX_CMP_LE: case PTX_CMP_LS: return a <= b;
    case PTX_CMP_GT: case PTX_CMP_HI: return a > b;
    case PTX_CMP_GE: case PTX_CMP_HS: return a >= b;
    default: return 0;
    }
}

/* ------------------------------------------------------------ conversion */

static uint64_t float_to_int(double x, int rnd, ptx_type dt)
{
    unsigned dsz = PTX_TSIZE(dt);
    int is_s = PTX_TCLASS(dt) == PTX_TC_S;
    if (isnan(x))
        return 0;
    switch (rnd) {
    case PTX_RND_RNI: case PTX_RND_RN: x = nearbyint(x); break;
    case PTX_RND_RMI: case PTX_RND_RM: x = floor(x); break;
    case PTX_RND_RPI: case PTX_RND_RP: x = ceil(x); break;
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
    if (PTX_TCLASS(st) == PTX_TC_F) {
        double x = ssz == 4 ? (double)(ftz ? ftzf(f32(v)) : f32(v)) : f64(v);
        if (PTX_TCLASS(dt) != PTX_TC_F)
            return float_to_int(x, in->rnd, dt);
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
            return bf32(ftz ? ftzf(r) : r);
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

#define FOR_LANES                                                                         \
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {                                            \
        unsigned t = base + (unsigned)__builtin_ctz(m_);                                  \
        uint64_t *R = c->regs + (size_t)t * c->regcap + c->rbase[t];                      \
        (void)R;
#define END_LANES }
#define A(i) opval(c, &in->o[i], R, t)
#define D R[in->o[0].reg]
#define ISS (tc == PTX_TC_S)
#define UNSUP (unsup = 1, 0)

static void unsupported(sim_ctx *c, unsigned t, const ptx_insn *in)
{
    sim_fault_at(c, t, in, SIM_FAULT_UNSUPPORTED,
                 "unsupported operation %u with type 0x%02x (not implemented)", in->op,
                 in->type);
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
        int n = sim_vprintf_format(&r, rd_generic, fmt, args, &c->res->printf_out,
                                   &c->res->printf_len, &c->printf_cap);
        if (cl->ret_off >= 0) {
            int32_t rv = n;
            memcpy(pm + c->pbase[t] + cl->ret_off, &rv, 4);
        }
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
}

/* atom / red, PTX ISA §9.7.13.x (atom, red): lanes are applied in lane order. */
static uint64_t atom_op(int op, ptx_type ty, uint64_t old, uint64_t b, uint64_t cv)
{
    unsigned sz = PTX_TSIZE(ty);
    int tc = PTX_TCLASS(ty);
    switch (op) {
    case PTX_ATOM_ADD:
        if (tc == PTX_TC_F)
            return sz == 4 ? bf32(f32(old) + f32(b)) : bf64(f64(old) + f64(b));
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
    case PTX_ATOM_DEC:
        return (zx(old, sz) == 0 || zx(old, sz) > zx(b, sz)) ? b : zx(old - 1, sz);
    default: return old;
    }
}

static void exec_insn(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                      uint32_t pc)
{
    const int tc = PTX_TCLASS(in->type);
    const unsigned sz = PTX_TSIZE(in->type);
    const int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    int unsup = 0;
    switch ((ptx_op)in->op) {
    /* ---- integer and float arithmetic (PTX ISA §9.7.1, §9.7.3, §9.7.4, §9.7.7) ---- */
#define FLOAT_CASE(FE, DE, NSRC)                                                          \
    if (tc == PTX_TC_F && sz == 4) {                                                      \
        int old_ = round_begin(in->rnd);                                                  \
        FOR_LANES                                                                         \
            float fa = f32(A(1)), fb = NSRC > 1 ? f32(A(2)) : 0.0f;                       \
            if (ftz) {                                                                    \
                fa = ftzf(fa);                                                            \
                fb = ftzf(fb);                                                            \
            }                                                                             \
            (void)fa;                                                                     \
            (void)fb;                                                                     \
            float r_ = (float)(FE);                                                       \
            if (sat)                                                                      \
                r_ = satf(r_);                                                            \
            D = bf32(ftz ? ftzf(r_) : r_);                                                \
        END_LANES                                                                         \
        fesetround(old_);                                                                 \
    } else if (tc == PTX_TC_F) {                                                          \
        int old_ = round_begin(in->rnd);                                                  \
        FOR_LANES                                                                         \
            double da = f64(A(1)), db = NSRC > 1 ? f64(A(2)) : 0.0;                       \
            (void)da;                                                                     \
            (void)db;                                                                     \
            double r_ = (double)(DE);                                                     \
            D = bf64(sat ? satd(r_) : r_);                                                \
        END_LANES                                                                         \
        fesetround(old_);                                                                 \
    }
#define BIN(name, IE, FE, DE)                                                             \
    case PTX_OP_##name:                                                                   \
        FLOAT_CASE(FE, DE, 2)                                                             \
        else {                                                                            \
            FOR_LANES                                                                     \
                uint64_t a = ISS ? (uint64_t)sx(A(1), sz) : zx(A(1), sz);                 \
                uint64_t b = ISS ? (uint64_t)sx(A(2), sz) : zx(A(2), sz);                 \
                int64_t sa = (int64_t)a, sb = (int64_t)b;                                 \
                (void)sa;                                                                 \
                (void)sb;                                                                 \
                uint64_t r_ = (uint64_t)(IE);                                             \
                D = tc == PTX_TC_PRED ? (r_ & 1) : zx(r_, sz);                            \
            END_LANES                                                                     \
        }                                                                                 \
        break;
#define UN(name, IE, FE, DE)                                                              \
    case PTX_OP_##name:                                                                   \
        FLOAT_CASE(FE, DE, 1)                                                             \
        else {                                                                            \
            FOR_LANES                                                                     \
                uint64_t a = ISS ? (uint64_t)sx(A(1), sz) : zx(A(1), sz);                 \
                int64_t sa = (int64_t)a;                                                  \
                (void)sa;                                                                 \
                uint64_t r_ = (uint64_t)(IE);                                             \
                D = tc == PTX_TC_PRED ? (r_ & 1) : zx(r_, sz);                            \
            END_LANES                                                                     \
        }                                                                                 \
        break;
#define OP(name, k)
#include "sim/ptx_ops.def"
#undef BIN
#undef UN
#undef OP

    case PTX_OP_mul: /* PTX ISA §9.7.1.3 mul (.lo .hi .wide), §9.7.3.3 mul (float) */
    case PTX_OP_mad: /* PTX ISA §9.7.1.4 mad, §9.7.3.6 mad (float: fused, = fma) */
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
                    D = bf32(ftz ? ftzf(r) : r);
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
                    r = ISS ? (uint64_t)(((int64_t)a * (int64_t)b) >> (sz * 8))
                            : (a * b) >> (sz * 8);
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
    case PTX_OP_div: /* PTX ISA §9.7.1.6 div (integer), §9.7.3.8 div (float) */
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
                    float r = fa / fb;
                    D = bf32(ftz ? ftzf(r) : r);
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
    case PTX_OP_setp:
        FOR_LANES
            D = (uint64_t)compare(in->cmp, (ptx_type)in->type2, A(1), A(2));
        END_LANES
        break;
    case PTX_OP_set:
        FOR_LANES
            int r = compare(in->cmp, (ptx_type)in->type2, A(1), A(2));
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
                        r |= zx(R[rg], esz) << (i * esz * 8);
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
                        R[rg] = zx(v >> (i * esz * 8), esz);
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
        FOR_LANES
            D = do_cvt(in, A(1));
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
        FOR_LANES
            uint64_t addr = addr_of(c, &in->o[1], R, t);
            const unsigned char *p = sim_mem(c, t, in->space, addr, sz * n, 0, in);
            if (!p)
                return;
            if (in->o[0].kind == PTX_OPK_VEC) {
                for (unsigned i = 0; i < n; i++) {
                    uint16_t rg = vec_reg(&in->o[0], i);
                    if (rg != PTX_NOREG)
                        R[rg] = load_val(p + i * sz, sz, is_s);
                }
            } else {
                D = load_val(p, sz, is_s);
            }
        END_LANES
        break;
    }
    case PTX_OP_st: { /* PTX ISA §9.7.9.10 st */
        const unsigned n = in->vec;
        FOR_LANES
            uint64_t addr = addr_of(c, &in->o[0], R, t);
            unsigned char *p = sim_mem(c, t, in->space, addr, sz * n, 1, in);
            if (!p)
                return;
            if (in->o[1].kind == PTX_OPK_VEC) {
                for (unsigned i = 0; i < n; i++) {
                    uint16_t rg = vec_reg(&in->o[1], i);
                    uint64_t v = rg != PTX_NOREG ? R[rg] : 0;
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
        const ptx_operand *ao = &in->o[is_atom ? 1 : 0];
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
            if (is_atom)
                D = old;
        END_LANES
        break;
    }
    case PTX_OP_prefetch:
        break;

    /* ---- control flow (PTX ISA §9.7.12) ---- */
    case PTX_OP_bra:
        FOR_LANES
            c->pc[t] = (uint32_t)in->target;
        END_LANES
        if ((uint32_t)in->target <= pc)
            c->loop_pc[w] = (int32_t)pc;
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
        END_LANES
        break;
    case PTX_OP_trap:
    case PTX_OP_brkpt:
        sim_fault_at(c, base + (unsigned)__builtin_ctz(em), in, SIM_FAULT_TRAP,
                     "the kernel executed %s", in->op == PTX_OP_trap ? "trap" : "brkpt");
        return;

    /* ---- synchronization (PTX ISA §9.7.13) ---- */
    case PTX_OP_bar:
    case PTX_OP_barrier:
        FOR_LANES
            c->state[t] = SIM_T_BAR;
            c->bar_pc[t] = (int32_t)pc;
        END_LANES
        break;
    case PTX_OP_membar:
    case PTX_OP_fence:
        break; /* one instruction at a time: memory is always coherent */
    case PTX_OP_COUNT:
        unsup = 1;
        break;
    }
    if (unsup)
        unsupported(c, base + (unsigned)__builtin_ctz(em), in);
}

#undef FOR_LANES
#undef END_LANES
#undef A
#undef D
#undef ISS
#undef UNSUP

int sim_warp_step(sim_ctx *c, unsigned w)
{
    const unsigned base = w * 32;
    const unsigned n = c->nthreads - base < 32 ? c->nthreads - base : 32;
    uint32_t best = UINT32_MAX, mask = 0;
    for (unsigned l = 0; l < n; l++)
        if (c->state[base + l] == SIM_T_RUN && c->pc[base + l] < best)
            best = c->pc[base + l];
    if (best == UINT32_MAX)
        return 0;
    for (unsigned l = 0; l < n; l++)
        if (c->state[base + l] == SIM_T_RUN && c->pc[base + l] == best)
            mask |= 1u << l;
    const ptx_insn *in = &c->code[best];
    if (++c->steps > c->step_limit) {
        const ptx_insn *at = c->loop_pc[w] >= 0 ? &c->code[c->loop_pc[w]] : in;
        char where[200];
        sim_where(c, at, where, sizeof where);
        sim_fault_at(c, base + (unsigned)__builtin_ctz(mask), at, SIM_FAULT_STEP_LIMIT,
                     "step limit of %llu warp instructions reached: an endless loop? "
                     "(last loop branch at %s)",
                     (unsigned long long)c->step_limit, where);
        return 1;
    }
    c->res->stats.warp_instructions++;
    c->res->stats.thread_instructions += (uint64_t)__builtin_popcount(mask);
    for (uint32_t m = mask; m; m &= m - 1)
        c->pc[base + (unsigned)__builtin_ctz(m)] = best + 1;
    uint32_t em = mask;
    if (in->guard != PTX_NOREG) {
        const uint64_t neg = (in->flags & PTX_F_GUARD_NEG) ? 1 : 0;
        em = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m), t = base + l;
            if ((c->regs[(size_t)t * c->regcap + c->rbase[t] + in->guard] & 1) ^ neg)
                em |= 1u << l;
        }
    }
    if (em)
        exec_insn(c, in, w, base, em, best);
    return 1;
}
