/* exec.h — private to the interpreter (sim/exec_*): the execution model, and what its
 * files share.
 *
 * Execution model (PTX ISA §3.1 "SIMT architecture"; CUDA C++ Programming Guide,
 * "Independent Thread Scheduling"): every thread has its own PC. A warp issues one
 * decoded instruction for the runnable lanes that share the chosen PC: the smallest,
 * which reconverges structured code where the PCs meet, except that lanes spinning in
 * a loop while others wait yield to them (forward progress) and warp-synchronous
 * instructions wait for the lanes of their membermask; sim_warp_step (exec_issue.c)
 * states the policy. The instruction's guard predicate is then evaluated per lane.
 * Handlers loop over the active lanes (decode cost is paid once per warp) and are
 * grouped by family, each citing its PTX ISA section.
 *
 * Families: integer (§9.7.1), extended precision (§9.7.2), float (§9.7.3), half
 * precision (§9.7.4), comparison and selection (§9.7.6), logic and shift (§9.7.7),
 * data movement and conversion (§9.7.8, §9.7.9), control flow (§9.7.12), parallel
 * synchronization and communication (§9.7.13: atom, red, bar, membar, vote, match,
 * redux, shfl, activemask, nanosleep). Section numbers follow PTX ISA 8.x.
 *
 * This header holds the helpers every tier calls per lane (value, float and operand
 * helpers, the lane-loop macros), as static inline functions so that each tier's
 * loops inline them as before; the family handlers called once per warp instruction
 * are declared at the end.
 */
#ifndef GL_SIM_EXEC_H
#define GL_SIM_EXEC_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sim/sfu.h"
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
/* .relu of fma.f16/.bf16 (PTX ISA §9.7.4.4) and of cvt to f16/bf16 (§9.7.9.21): negative
 * results become +0.0, -0.0 included (measured on an H100: corpus cvt_relu_satfinite,
 * half_arith_edges), a NaN stays NaN. */
static inline double relu(double x)
{
    return x <= 0.0 ? 0.0 : x;
}

/* Sets the host rounding mode for .rz/.rm/.rp; returns the previous one. */
static inline int round_begin(int rnd)
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
 * canonicalised (tests/isa/nan.txt: every f32 form, neg and abs too, on an H200).
 * Double precision propagates NaN payloads: nan64_of. */
#define NAN32 0x7fffffffu
#define QNAN64_BIT 0x0008000000000000ull /* an f64 NaN's quiet bit (IEEE 754 §6.2.1) */

/* The NaN an f64 operation returns whose result r is a NaN: the first NaN operand of
 * a, b, c (PTX order), made quiet, sign and payload kept (no operand negation applied:
 * sub.f64 of a NaN b gives b's sign); r itself when no operand is a NaN (an invalid
 * operation's default NaN, 0xfff8000000000000 on the GPU as on the host). Measured on
 * an H200 (tests/isa/nan.txt); which NaN comes back when two operands are NaNs follows
 * the operand order ptxas chose, which PTX does not fix (rows marked `order`; NVRTC's
 * code gets the first: corpus nan_minmax_f64_two_nans). */
static inline double nan64_of(double r, double a, double b, double c)
{
    const double x = a != a ? a : b != b ? b : c != c ? c : r;
    return f64(bf64(x) | QNAN64_BIT);
}
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
            return f64(bf64(a) | QNAN64_BIT); /* a, quiet */
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
            return f64(bf64(a) | QNAN64_BIT); /* a, quiet */
        return a != a ? b : a;
    }
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}

/* rcp.f64: .rn is correctly rounded; rcp.approx.ftz.f64 (PTX ISA §9.7.3.14) is the
 * unit's MUFU.RCP64H, as an H200 gives it (sim/sfu.h). */
static inline double rcp_f64(double x, const ptx_insn *in)
{
    return in->flags & PTX_F_APPROX ? sfu_rcp_f64(x) : 1.0 / x;
}

/* ---- half precision (PTX ISA §5.2.1 .f16 / .bf16; §9.7.4 half precision ops) ---- */

/* Rounds x to a binary format with ebits exponent and mbits mantissa bits (f16: 5, 10;
 * bf16: 8, 7) in rounding mode rnd (PTX_RND_*; NONE = RN); satfinite clamps
 * infinities to the largest finite value. NaN gives the canonical 0x7fff. */
static inline uint32_t small_float(double x, int ebits, int mbits, int rnd, int satfinite)
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
static inline double small_float_val(uint32_t b, int ebits, int mbits)
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
static inline uint64_t sreg(const sim_ctx *c, unsigned id, unsigned t)
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
    /* Where the thread runs (sim.c sim_place): its warp's slot on its modelled SM, of
     * the profile's warps per SM, and the SM's id, of the profile's SMs. "%warpid
     * returns the location of a thread at the moment when read" (§10.4): not the warp's
     * index in its block, which a block that shares its SM with others, or that does
     * not start at slot 0, does not read; "%nwarpid ... the maximum number of warp
     * identifiers" (§10.5); "%nsmid may be larger than the physical number of SMs"
     * (§10.9): the profile's SM count, as every %smid is below it. */
    case PTX_SREG_WARPID: return c->wslot[t >> 5];
    case PTX_SREG_NWARPID: return c->nwarpid;
    case PTX_SREG_SMID: return c->smid;
    case PTX_SREG_NSMID: return (uint64_t)sim_model(c->s)->sm_count;
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
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return c->own_shared - c->dynshared_off;
    case PTX_SREG_TOTAL_SMEM_SIZE:
        return c->total_smem; /* PTX ISA §10.40 */
    /* the driver's reserved shared memory (sim_ctx.reserved_off): the window
     * [reserved_off, shared_size); offset 0 at its start, offset 1 half way (512 bytes
     * in from sm_80's 1 KiB; cooperative_groups needs 288 bytes there: memory.h) */
    case PTX_SREG_RESERVED_SMEM_BEGIN:
    case PTX_SREG_RESERVED_SMEM_0: return c->reserved_off;
    case PTX_SREG_RESERVED_SMEM_END: return c->shared_size;
    case PTX_SREG_RESERVED_SMEM_CAP: return c->shared_size - c->reserved_off;
    case PTX_SREG_RESERVED_SMEM_1: return c->reserved_off + (c->shared_size - c->reserved_off) / 2;
    /* %envreg<n> (PTX ISA §10 %envreg<32>): the driver's; cooperative_groups reads %envreg1:%envreg2 as the
     * address of a cooperative launch's grid workspace (details/driver_abi.h). The
     * simulator's launches are not cooperative (cuLaunchKernel, not
     * cuLaunchCooperativeKernel): 0, so grid_group::is_valid() is false and grid.sync()
     * traps, as after a <<<>>> launch on a GPU */
    default: return 0;
    case PTX_SREG_WARPSZ: return 32;
    case PTX_SREG_GRIDID: return 1;
    /* clusters (PTX ISA §10): without a cluster launch every CTA is a cluster of one */
    case PTX_SREG_CLUSTERID_X: return c->bid[0] / c->cl_dim[0];
    case PTX_SREG_CLUSTERID_Y: return c->bid[1] / c->cl_dim[1];
    case PTX_SREG_CLUSTERID_Z: return c->bid[2] / c->cl_dim[2];
    case PTX_SREG_NCLUSTERID_X: return c->grid[0] / c->cl_dim[0];
    case PTX_SREG_NCLUSTERID_Y: return c->grid[1] / c->cl_dim[1];
    case PTX_SREG_NCLUSTERID_Z: return c->grid[2] / c->cl_dim[2];
    case PTX_SREG_CLUSTER_CTAID_X: return c->bid[0] % c->cl_dim[0];
    case PTX_SREG_CLUSTER_CTAID_Y: return c->bid[1] % c->cl_dim[1];
    case PTX_SREG_CLUSTER_CTAID_Z: return c->bid[2] % c->cl_dim[2];
    case PTX_SREG_CLUSTER_NCTAID_X: return c->cl_dim[0];
    case PTX_SREG_CLUSTER_NCTAID_Y: return c->cl_dim[1];
    case PTX_SREG_CLUSTER_NCTAID_Z: return c->cl_dim[2];
    case PTX_SREG_CLUSTER_CTARANK: return c->cl_rank;
    case PTX_SREG_CLUSTER_NCTARANK: return c->cl_n;
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return (uint64_t)c->cl_explicit;
    }
}

/* Whether special register id reads the same for every thread of the block at any
 * moment; not %tid, %laneid, the %lanemask_* registers (per lane) or %warpid (per warp:
 * its slot on the SM). The fast tiers broadcast a uniform one to every warp. */
static inline int sreg_block_uniform(unsigned id)
{
    return !(id <= PTX_SREG_TID_Z || id == PTX_SREG_LANEID || id == PTX_SREG_WARPID ||
             id == PTX_SREG_LANEMASK_EQ ||
             (id >= PTX_SREG_LANEMASK_LE && id <= PTX_SREG_LANEMASK_GT));
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
    case PTX_SYM_FUNC: return PTX_FUNC_ADDR(s->value); /* what an indirect call takes */
    default: return 0;
    }
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

static inline uint64_t combine(int bop, uint64_t x, uint64_t y)
{
    return bop == PTX_BOP_AND ? (x & y) : bop == PTX_BOP_OR ? (x | y) : (x ^ y);
}

/* The membermask operand of a warp-synchronous instruction, read in thread t's frame
 * (shfl.sync: the fifth operand; vote/match/redux: the third; bar.warp.sync: the
 * first). */
static inline uint32_t member_mask(const sim_ctx *c, const ptx_insn *in, unsigned t)
{
    const uint64_t *R = sim_lane_regs(c, t);
    switch ((ptx_op)in->op) {
    case PTX_OP_shfl:
        return in->o4kind == PTX_OPK_REG ? (uint32_t)RG(in->target) : (uint32_t)in->target;
    case PTX_OP_vote:
    case PTX_OP_match:
    case PTX_OP_redux: return (uint32_t)opval(c, &in->o[2], R, t);
    case PTX_OP_elect: return (uint32_t)opval(c, &in->o[1], R, t);
    case PTX_OP_bar_warp: return in->nopnd ? (uint32_t)opval(c, &in->o[0], R, t) : 0xffffffffu;
    default: return PTX_IS_MMA(in->op) ? 0xffffffffu : 0; /* .aligned: the whole warp */
    }
}

/* The membermask lanes (of the warp whose first thread is base) name at the
 * warp-synchronous instruction in, when every one of them names the same: 1 and *mask;
 * 0 when they may differ (*mask untouched). The same: an immediate, no operand, the
 * whole warp (.aligned), or a register that holds one value in each of the lanes, read
 * directly from the warp's registers when they are one lane-major block (w_called 0). */
static inline int member_mask_uniform(const sim_ctx *c, const ptx_insn *in, unsigned base,
                                      uint32_t lanes, uint32_t *mask)
{
    uint32_t reg;
    switch ((ptx_op)in->op) {
    case PTX_OP_shfl:
        if (in->o4kind != PTX_OPK_REG) {
            *mask = (uint32_t)in->target;
            return 1;
        }
        reg = in->target;
        break;
    case PTX_OP_vote:
    case PTX_OP_match:
    case PTX_OP_redux:
    case PTX_OP_elect: {
        const ptx_operand *o = &in->o[in->op == PTX_OP_elect ? 1 : 2];
        if (o->kind == PTX_OPK_IMM) {
            *mask = (uint32_t)o->imm;
            return 1;
        }
        if (o->kind != PTX_OPK_REG || o->sub)
            return 0;
        reg = o->reg;
        break;
    }
    case PTX_OP_bar_warp:
        if (!in->nopnd || in->o[0].kind == PTX_OPK_IMM) {
            *mask = in->nopnd ? (uint32_t)in->o[0].imm : 0xffffffffu;
            return 1;
        }
        if (in->o[0].kind != PTX_OPK_REG || in->o[0].sub)
            return 0;
        reg = in->o[0].reg;
        break;
    default: *mask = PTX_IS_MMA(in->op) ? 0xffffffffu : 0; return 1;
    }
    const unsigned w = base >> 5;
    if (!lanes || w >= SIM_ITS_WARPS || c->w_called[w])
        return 0;
    const uint64_t *const row = c->regs + (((size_t)w * c->regcap + reg) << 5);
    const uint32_t first = (uint32_t)row[__builtin_ctz(lanes)];
    uint32_t differ = 0;
    if (lanes == 0xffffffffu) /* the whole warp: one pass the compiler vectorises */
        for (unsigned l = 0; l < 32; l++)
            differ |= (uint32_t)row[l] ^ first;
    else
        for (uint32_t m = lanes; m; m &= m - 1)
            differ |= (uint32_t)row[__builtin_ctz(m)] ^ first;
    if (differ)
        return 0;
    *mask = first;
    return 1;
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
    return (k <= PTX_OP_movmatrix - PTX_OP_shfl && k != PTX_OP_activemask - PTX_OP_shfl) ||
           in->op == PTX_OP_elect;
}

/* Lanes `lanes` of warp w let the warp's other lanes run first (see sim_warp_step). */
static inline void its_yield_now(sim_ctx *c, unsigned w, uint32_t lanes)
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

/* ------------------------------------------------------------ family handlers */
/* exec_alu.c: setp/set comparison op (ptx_cmp) of x and y as type ty (PTX ISA §9.7.6.1
 * setp, "Integer and bit-size comparison operators", "Floating-point comparison
 * operators"): 1 or 0. */
int sim_compare(int op, ptx_type ty, uint64_t x, uint64_t y);
/* exec_alu.c: cvt (PTX ISA §9.7.9.21) of source bits v as instruction in says: the
 * destination's bits, zero-extended. */
uint64_t sim_cvt(const ptx_insn *in, uint64_t v);
/* exec_alu.c: the lanes em of the warp at thread base run in, an extended-precision
 * integer op (.cc, addc/subc/madc; PTX ISA §9.7.2). */
void sim_exec_carry(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);
/* exec_alu.c: the same for a SIMD video op (vadd2/4 ... vset2/4; PTX ISA §9.7.16.2). */
void sim_exec_video(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);
/* exec_alu.c: cvt with a .tf32, .e4m3x2 or .e5m2x2 type (ptx_insn.cmp PTX_CVT_*, PTX ISA
 * §9.7.9.21) of source operands a (and b: the second f32 of a pair). */
uint64_t sim_cvt_special(const ptx_insn *in, uint64_t a, uint64_t b);
/* exec_alu.c: the scalar video instructions (PTX ISA §9.7.18.1: vadd ... vset). */
void sim_exec_svideo(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);
/* exec_alu.c: the same for half-precision arithmetic (.f16/.bf16/x2; PTX ISA §9.7.4). */
void sim_exec_half(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);
/* add/min/max on packed 16-bit integers (.u16x2, .s16x2; PTX ISA §9.7.1.1, §9.7.1.10). */
void sim_exec_int16x2(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);
/* exec_alu.c: the same for set with an .f16/.bf16 destination or .f16x2/.bf16x2 sources
 * (PTX ISA §9.7.5.1). */
void sim_exec_half_set(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);

/* exec_ctrl.c: the mnemonic of op (ptx_ops.def), "?" past the list. */
const char *sim_op_name(unsigned op);
/* exec_ctrl.c: faults thread t with SIM_FAULT_UNSUPPORTED for instruction in. */
void sim_unsupported(sim_ctx *c, unsigned t, const ptx_insn *in);
/* exec_ctrl.c: call (PTX ISA §9.7.12.x) by thread t, returning to next_pc: pushes a
 * frame and copies the arguments; vprintf and __assertfail run here. */
void sim_do_call(sim_ctx *c, const ptx_insn *in, unsigned t, uint32_t next_pc);
/* exec_ctrl.c: ret (PTX ISA §9.7.12.x) by thread t: pops its frame, or exits it. */
void sim_do_ret(sim_ctx *c, const ptx_insn *in, unsigned t);
/* exec_ctrl.c: the value an atom/red op (PTX ISA §9.7.13 atom, red) of type ty stores
 * given the old value, operand b and, for cas, cv. */
uint64_t sim_atom_op(int op, ptx_type ty, uint64_t old, uint64_t b, uint64_t cv);
/* exec_ctrl.c: part[l], for each lane l of em, the lanes of em it exchanges values with
 * at warp-synchronous instruction in (its membermask). */
void sim_member_parts(const sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em,
                      uint32_t part[32]);

/* exec_mem.c: ld/ldu (PTX ISA §9.7.9.8, §9.7.9.9) for the lanes em of warp w (first
 * thread base); a faulting lane ends the instruction. */
void sim_exec_ld(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em);
/* exec_mem.c: the same for st (PTX ISA §9.7.9.10). */
void sim_exec_st(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);
/* exec_mem.c: the same for atom and red (PTX ISA §9.7.13.5, §9.7.13.6). */
void sim_exec_atom(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em);
/* exec_warp.c: warp-synchronous shfl.sync and vote.sync (PTX ISA §9.7.8.6, §9.7.13) for
 * the lanes em of warp w (first thread base) at pc (for the trace's pictures). */
void sim_exec_shfl(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                   uint32_t pc);
void sim_exec_vote(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                   uint32_t pc);
/* exec_warp.c: the same for match.sync, redux.sync and elect.sync (PTX ISA §9.7.13). */
void sim_exec_match(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);
void sim_exec_redux(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);
void sim_exec_elect(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);

/* Tensor-core instruction in (PTX_IS_MMA: mma, wmma, ldmatrix, stmatrix, movmatrix, PTX
 * ISA §9.7.14) for the lanes em of warp w (first thread base): all 32 lanes, or a fault,
 * as `.aligned` requires (exec_mma.c). */
void sim_exec_mma(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em);
/* exec_insn.c: the general tier: runs in for the lanes em of warp w (first thread base)
 * at pc; mask is the warp's active mask, for the trace. */
void sim_exec_insn(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                   uint32_t pc, uint32_t mask);

#endif
