/* exec_fast.c — decoding for the fast tiers, once per module or launch: fast-path kinds
 * per PC (sim_fast_kinds), the registers a function reads before writing them
 * (sim_regs_read_first) and the per-launch operand table of the full-warp kernels
 * (sim_fops_build). The tiers themselves run from exec_fast.h.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/exec_fast.h"

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
            k = FK_SETP_U; /* .s with lo/ls/hi/hs compares unsigned, as sim_compare() does */
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
 * lane that issues them, exec_fast or its sim_exec_insn fallback alike). Every other use of
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
    /* every operand slot, not just nopnd: an operand may sit past them (bar.red d, a, c
     * keeps c in o[3]); the parser zeroes the slots it does not use */
    for (unsigned k = skip_dest ? 1 : 0; k < 4; k++) {
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

/* The successors of instruction i (PC pc0 + i) of a function [pc0, pc0 + n) of m, as
 * indices into succ[] (at most SUCC_MAX): the fall-through, a bra's target, a brx.idx's
 * list (PTX ISA §9.7.12.4); none after an unguarded exit or ret. Returns their number,
 * or -1 when one is outside the function or there are more than SUCC_MAX. */
#define SUCC_MAX 64
static int insn_succ(const ptx_module *m, int pc0, size_t n, size_t i, size_t *succ)
{
    const ptx_insn *ins = &m->code[pc0 + (int)i];
    const int guarded = ins->guard != PTX_NOREG;
    int ns = 0;
    if (ins->op == PTX_OP_bra) {
        succ[ns++] = (size_t)(ins->target - pc0);
        if (guarded || ins->o4kind != PTX_OPK_NONE)
            succ[ns++] = i + 1;
    } else if (ins->op == PTX_OP_brx) {
        const int64_t k = ins->o[1].imm;
        if (ins->target < 0 || k < 1 || k > SUCC_MAX - 1 || ins->target + k > m->nbtab)
            return -1;
        for (int64_t j = 0; j < k; j++)
            succ[ns++] = (size_t)(m->btab[ins->target + j] - pc0);
        if (guarded)
            succ[ns++] = i + 1;
    } else if (ins->op == PTX_OP_exit || ins->op == PTX_OP_ret) {
        if (guarded)
            succ[ns++] = i + 1;
    } else {
        succ[ns++] = i + 1;
    }
    for (int s = 0; s < ns; s++)
        if (succ[s] > n) /* n: falling off the end, which the parser does not allow */
            return -1;
    return ns;
}

/* What both analyses start from, for kernel f [pc0, pc0 + n) of m: per instruction the
 * slots it reads (rd) and surely writes (wr), nw words each, and the slots cross-lane
 * instructions read (need). */
typedef struct flow {
    const ptx_module *m;
    int pc0;
    size_t n, nw;
    unsigned nregs;
    uint64_t *rd, *wr, *need;
} flow;

static void flow_free(flow *fl)
{
    free(fl->rd);
    free(fl->wr);
    free(fl->need);
}

/* Fills fl for kernel f (fast-path kinds fast). 0, or -1 (nothing to free) when the
 * kernel is beyond the analyses (device-function calls, register lists, unknown slots,
 * control flow leaving the function) or memory is short. */
static int flow_init(flow *fl, const ptx_module *m, const uint8_t *fast, const ptx_func *f)
{
    const int pc0 = f->entry_pc, pc1 = f->end_pc;
    if (pc0 < 0 || pc1 <= pc0 || pc1 > m->ncode || f->nregs < 0 || (unsigned)f->nregs >= PTX_NOREG)
        return -1;
    const unsigned nregs = (unsigned)f->nregs;
    const size_t n = (size_t)(pc1 - pc0), nw = (nregs + 63) / 64 + 1;
    *fl = (flow){m,
                 pc0,
                 n,
                 nw,
                 nregs,
                 calloc(n * nw, sizeof *fl->rd),
                 calloc(n * nw, sizeof *fl->wr),
                 calloc(nw, sizeof *fl->need)};
    if (!fl->rd || !fl->wr || !fl->need)
        goto fail;
    size_t succ[SUCC_MAX];
    for (size_t i = 0; i < n; i++) {
        const ptx_insn *ins = &m->code[pc0 + (int)i];
        if (ins->op == PTX_OP_call || PTX_IS_MMA(ins->op))
            goto fail; /* frames of device functions, register lists */
        for (unsigned k = 0; k < 4; k++)
            if (ins->o[k].kind == PTX_OPK_RLIST)
                goto fail;
        const int w = insn_writes(ins, fast[pc0 + (int)i], fl->wr + i * nw, nregs);
        if (!insn_reads(ins, w, fl->rd + i * nw, nregs))
            goto fail;
        /* cross-lane: reads lanes that may not have written the slot */
        if ((ins->op == PTX_OP_shfl || ins->op == PTX_OP_vote || ins->op == PTX_OP_match ||
             ins->op == PTX_OP_redux || ins->op == PTX_OP_activemask) &&
            !insn_reads(ins, 0, fl->need, nregs))
            goto fail;
        if (insn_succ(m, pc0, n, i, succ) < 0)
            goto fail;
    }
    return 0;
fail:
    flow_free(fl);
    return -1;
}

int sim_regs_read_first(const ptx_module *m, const uint8_t *fast, const ptx_func *f, uint16_t **out)
{
    *out = NULL;
    flow fl;
    if (flow_init(&fl, m, fast, f) != 0)
        return -1;
    const size_t n = fl.n, nw = fl.nw;
    const uint64_t *const wr = fl.wr, *const rd = fl.rd;
    uint64_t *const need = fl.need;
    /* per PC: the slots written on entry */
    uint64_t *in = malloc(n * nw * sizeof *in);
    int r = -1;
    if (!in)
        goto out;
    memset(in, 0xff, n * nw * sizeof *in);
    memset(in, 0, nw * sizeof *in); /* nothing is written at the entry */
    /* forward must-analysis to a fixed point: in[s] &= in[pc] | wr[pc] */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            size_t succ[SUCC_MAX];
            const int ns = insn_succ(m, fl.pc0, n, i, succ);
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
    for (unsigned s = 0; s < fl.nregs; s++)
        cnt += (need[s >> 6] >> (s & 63)) & 1;
    r = (int)cnt;
    if (cnt) {
        *out = malloc(cnt * sizeof **out);
        if (!*out) {
            r = -1;
            goto out;
        }
        cnt = 0;
        for (unsigned s = 0; s < fl.nregs; s++)
            if ((need[s >> 6] >> (s & 63)) & 1)
                (*out)[cnt++] = (uint16_t)s;
    }
out:
    free(in);
    flow_free(&fl);
    return r;
}

uint64_t *sim_regs_live(const ptx_module *m, const uint8_t *fast, const ptx_func *f, size_t *nw_out)
{
    flow fl;
    if (flow_init(&fl, m, fast, f) != 0)
        return NULL;
    const size_t n = fl.n, nw = fl.nw;
    /* per PC the slots live on entry, and one more entry (the end: nothing live there) */
    uint64_t *live = calloc((n + 1) * nw, sizeof *live);
    /* backward may-analysis to a fixed point: live[i] = rd[i] | (U live[succ] & ~wr[i]) */
    for (int changed = live != NULL; changed;) {
        changed = 0;
        for (size_t i = n; i-- > 0;) {
            size_t succ[SUCC_MAX];
            const int ns = insn_succ(m, fl.pc0, n, i, succ);
            uint64_t *li = live + i * nw;
            for (size_t k = 0; k < nw; k++) {
                uint64_t o = 0;
                for (int s = 0; s < ns; s++)
                    o |= live[succ[s] * nw + k];
                const uint64_t v = fl.rd[i * nw + k] | (o & ~fl.wr[i * nw + k]);
                changed |= v != li[k];
                li[k] = v;
            }
        }
    }
    *nw_out = nw;
    flow_free(&fl);
    return live;
}

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
