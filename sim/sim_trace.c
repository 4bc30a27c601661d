/* sim_trace.c — the trace hook: sim_trace_issue (called once per issued warp
 * instruction) emits the pending memory request, printf output and registers written
 * of the last instruction; shfl/vote/block events; and the module's registers and
 * source variables described for trace.h (sim_trace_describe).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/mma.h"
#include "sim/ptx/ptx_dwarf.h"
#include "sim/sim_mem.h"

enum { MAXDST = 32 }; /* the longest destination: a tensor-core register list */

/* The register slots instruction in writes (its destinations: a register, a vector, or
 * a tensor-core instruction's register list, PTX ISA §9.7.14) in out; returns how many. No registers for stores, branches, barriers (bar.red's result
 * arrives at the release, after the issue: not recorded) and the like. */
static int insn_dests(const sim_ctx *c, const ptx_insn *in, uint16_t out[MAXDST])
{
    switch (in->op) {
    case PTX_OP_st:
    case PTX_OP_red:
    case PTX_OP_bar:
    case PTX_OP_barrier:
    case PTX_OP_bra:
    case PTX_OP_brx:
    case PTX_OP_stackrestore:
    case PTX_OP_applypriority:
    case PTX_OP_discard:
    case PTX_OP_pmevent:
    case PTX_OP_griddepcontrol:
    case PTX_OP_call:
    case PTX_OP_ret:
    case PTX_OP_exit:
    case PTX_OP_trap:
    case PTX_OP_brkpt:
    case PTX_OP_membar:
    case PTX_OP_fence:
    case PTX_OP_prefetch:
    case PTX_OP_prefetchu:
    case PTX_OP_nanosleep:
    case PTX_OP_bar_warp: return 0;
    default: break;
    }
    const ptx_operand *d = &in->o[0];
    int n = 0;
    if (in->nopnd == 0)
        return 0;
    if (d->kind == PTX_OPK_REG) {
        out[n++] = d->reg;
        if (d->sub == 2 && (uint16_t)d->imm != PTX_NOREG)
            out[n++] = (uint16_t)d->imm;
    } else if (d->kind == PTX_OPK_VEC) {
        for (unsigned i = 0; i < d->sub && i < 4; i++) {
            uint16_t r = (uint16_t)(d->imm >> (16 * i));
            if (r != PTX_NOREG)
                out[n++] = r;
        }
    } else if (d->kind == PTX_OPK_RLIST) { /* mma, wmma.load, ldmatrix: {d0, d1, ...} */
        for (unsigned i = 0; i < d->sub && i < MAXDST; i++)
            if (c->m->rlist[d->imm + i] != PTX_NOREG)
                out[n++] = c->m->rlist[d->imm + i];
    }
    return n;
}

/* An event of `kind` about the last issued instruction: its warp, block, PC and time. */
/* An event of warp w at pc in the current block, at the current time. */
static trace_event warp_event(const sim_ctx *c, int kind, unsigned w, uint32_t pc, uint32_t mask)
{
    trace_event ev = {0};
    ev.kind = (uint8_t)kind;
    ev.warp = (uint16_t)w;
    ev.block = c->block_linear;
    ev.mask = mask;
    ev.pc = (int32_t)pc;
    ev.time = c->steps;
    return ev;
}

static trace_event last_insn_event(const sim_ctx *c, int kind, uint32_t mask)
{
    return warp_event(c, kind, c->last_warp, (uint32_t)c->last_pc, mask);
}

/* Records the registers the last issued instruction wrote (TRACE_EV_REG): one event
 * per destination with the 32 lanes' values, for the lanes that ran it. */
static void trace_regs(sim_ctx *c)
{
    c->reg_pending = 0;
    const ptx_insn *in = &c->code[c->last_pc];
    uint16_t dst[MAXDST];
    int nd = insn_dests(c, in, dst);
    const ptx_func *f = &c->m->funcs[in->func];
    for (int i = 0; i < nd; i++) {
        if (dst[i] >= f->nregs || f->reg_base + dst[i] >= 0xffff)
            continue;
        uint64_t vals[32] = {0};
        const unsigned base = c->last_warp * 32;
        for (uint32_t m = c->last_pred; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            vals[l] = *sim_reg(c, base + l, dst[i]);
        }
        trace_event ev = last_insn_event(c, TRACE_EV_REG, c->last_pred);
        ev.barrier = (uint16_t)(f->reg_base + dst[i]);
        unsigned sz = PTX_TSIZE(f->reginfo[dst[i]].type);
        ev.width = (uint8_t)(sz ? sz : 8);
        trace_append(c->trace, &ev, vals);
    }
}

/* Emits the pending memory request, printf output and register values of the last
 * issued instruction. */
void sim_trace_flush(sim_ctx *c)
{
    if (!c->trace)
        return;
    if (c->mreq_in) {
        trace_event ev = {0};
        ev.kind = TRACE_EV_MEM;
        ev.space = c->mreq_space;
        ev.op = c->mreq_op;
        ev.width = c->mreq_width;
        ev.warp = (uint16_t)c->mreq_warp;
        ev.block = c->block_linear;
        ev.mask = c->mreq_mask;
        ev.pc = (int32_t)(c->mreq_in - c->code);
        ev.time = c->steps;
        trace_append(c->trace, &ev, c->mreq_addr);
        c->mreq_in = NULL;
    }
    if (c->res->printf_len > c->printf_seen) {
        size_t n = c->res->printf_len - c->printf_seen;
        trace_event ev = last_insn_event(c, TRACE_EV_PRINTF, c->last_mask);
        ev.aux = trace_add_text(c->trace, c->res->printf_out + c->printf_seen, n);
        ev.barrier = (uint16_t)(n > 65535 ? 65535 : n);
        trace_append(c->trace, &ev, NULL);
        c->printf_seen = c->res->printf_len;
    }
    if (c->reg_pending)
        trace_regs(c);
}

/* The barrier id operand a of bar/barrier (PTX ISA §9.7.13.1) when it is an immediate;
 * 0 otherwise (a register id is read per thread by sim_barrier_exec). */
static uint16_t barrier_id(const ptx_insn *in)
{
    const ptx_operand *a = &in->o[in->cmp == PTX_BAR_RED ? 1 : 0];
    return in->nopnd && a->kind == PTX_OPK_IMM ? (uint16_t)(a->imm & 15) : 0;
}

void sim_trace_shfl(sim_ctx *c, unsigned w, uint32_t pc, uint32_t lanes, const uint32_t src[32],
                    const uint8_t ok[32])
{
    trace_event ev = warp_event(c, TRACE_EV_SHFL, w, pc, lanes);
    uint64_t v[32] = {0};
    for (uint32_t m = lanes; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        v[l] = ok[l] ? src[l] : 32 + l;
    }
    trace_append(c->trace, &ev, v);
}

void sim_trace_vote(sim_ctx *c, unsigned w, uint32_t pc, uint32_t lanes, uint32_t yes, int kind)
{
    trace_event ev = warp_event(c, TRACE_EV_VOTE, w, pc, lanes);
    ev.aux = yes & lanes;
    ev.barrier = (uint16_t)kind;
    trace_append(c->trace, &ev, NULL);
}

void sim_trace_mem(sim_ctx *c, unsigned w, uint32_t pc, int space, int op, unsigned width,
                   uint32_t mask, const uint64_t addr[32])
{
    if (!mask)
        return;
    trace_event ev = warp_event(c, TRACE_EV_MEM, w, pc, mask);
    ev.space = (uint8_t)space;
    ev.op = (uint8_t)op;
    ev.width = (uint8_t)(width > 255 ? 255 : width);
    uint64_t a[32];
    for (unsigned l = 0; l < 32; l++)
        a[l] = (mask >> l) & 1u ? addr[l] : 0;
    trace_append(c->trace, &ev, a);
}

void sim_trace_issue(sim_ctx *c, unsigned w, uint32_t pc, uint32_t mask, uint32_t pred)
{
    sim_trace_flush(c);
    trace_event ev = warp_event(c, TRACE_EV_ISSUE, w, pc, mask);
    ev.aux = pred;
    trace_append(c->trace, &ev, NULL);
    const ptx_insn *in = &c->code[pc];
    if ((in->op == PTX_OP_bar || in->op == PTX_OP_barrier) && pred) {
        ev.kind = TRACE_EV_BAR_ARRIVE;
        ev.mask = pred;
        ev.aux = 0;
        ev.barrier = barrier_id(in);
        trace_append(c->trace, &ev, NULL);
    }
    c->last_pc = (int32_t)pc;
    c->last_warp = w;
    c->last_mask = mask;
    c->last_pred = pred;
    c->reg_pending = c->trace->record_regs && pred != 0;
}

void sim_trace_block(sim_ctx *c, int kind)
{
    if (!c->trace)
        return;
    sim_trace_flush(c);
    trace_event ev = {0};
    ev.kind = (uint8_t)kind;
    ev.block = c->block_linear;
    ev.aux = c->smid; /* %smid (sim.c sim_place) */
    ev.pc = -1;
    ev.time = c->steps;
    trace_append(c->trace, &ev, NULL);
}

/* trace.regs: every function's registers in module-wide numbering (reg_base + slot;
 * the kernel's numbering starts wherever its function is in the module). */
/* The module's source variables (a debug build's DWARF) as trace_vars: each one's
 * register found among the declarations of the function holding its first PC. */
static int describe_vars(const ptx_module_t *m, trace_t *tr, int nregs)
{
    trace_var *v = calloc((size_t)m->nsrcvars, sizeof *v);
    if (!v)
        return -1;
    int n = 0;
    for (int i = 0; i < m->nsrcvars; i++) {
        const ptx_srcvar *s = &m->srcvars[i];
        if (s->pc_lo < 0 || s->pc_lo >= m->ncode || s->pc_hi < s->pc_lo)
            continue;
        int fi = m->code[s->pc_lo].func;
        if (fi < 0 || fi >= m->nfuncs)
            continue;
        const ptx_func *f = &m->funcs[fi];
        for (int r = 0; r < f->nregs && f->reginfo; r++) {
            if (strcmp(f->reginfo[r].name, s->reg) != 0)
                continue;
            int k = f->reg_base + r;
            if (k >= nregs)
                break;
            snprintf(v[n].name, sizeof v[n].name, "%s", s->name);
            v[n].reg = k;
            v[n].pc_lo = s->pc_lo;
            v[n].pc_hi = s->pc_hi;
            v[n].decl_line = s->decl_line;
            v[n].is_param = s->is_param;
            n++;
            break;
        }
    }
    int r = trace_set_vars(tr, v, n);
    free(v);
    return r;
}

static int describe_regs(const ptx_module_t *m, trace_t *tr)
{
    size_t n = 0;
    for (int i = 0; i < m->nfuncs; i++)
        n += (size_t)m->funcs[i].nregs;
    if (n > 0xffff)
        n = 0xffff;
    trace_reg *regs = calloc(n + 1, sizeof *regs);
    if (!regs)
        return -1;
    for (int i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = &m->funcs[i];
        for (int r = 0; r < f->nregs && f->reginfo; r++) {
            size_t k = (size_t)f->reg_base + (size_t)r;
            if (k >= n)
                break;
            trace_reg *tr_r = &regs[k];
            char full[200];
            snprintf(full, sizeof full, "%.100s%s%s", f->is_entry ? "" : f->name,
                     f->is_entry ? "" : ":", f->reginfo[r].name);
            size_t len = strlen(full);
            if (len >= sizeof tr_r->name)
                len = sizeof tr_r->name - 1;
            memcpy(tr_r->name, full, len);
            int ty = f->reginfo[r].type;
            static const uint8_t cls[] = {TRACE_REG_B, TRACE_REG_U, TRACE_REG_S, TRACE_REG_F,
                                          TRACE_REG_PRED};
            int tc = PTX_TCLASS(ty) >> 4;
            tr_r->cls = tc < 5 ? cls[tc] : TRACE_REG_B; /* f16/bf16 pairs: bits */
            tr_r->size = (uint8_t)(PTX_TSIZE(ty) ? PTX_TSIZE(ty) : 8);
            tr_r->func = f->is_entry ? 0 : i + 1;
        }
    }
    int r = trace_set_regs(tr, regs, (int)n);
    free(regs);
    if (r == 0 && m->nsrcvars > 0)
        r = describe_vars(m, tr, (int)n);
    return r;
}

_Static_assert((int)TRACE_TYPE_KIND_U == (int)PTX_TC_U && (int)TRACE_TYPE_KIND_S == (int)PTX_TC_S &&
                   (int)TRACE_TYPE_KIND_F == (int)PTX_TC_F &&
                   (int)TRACE_TYPE_KIND_PRED == (int)PTX_TC_PRED &&
                   (int)TRACE_TYPE_KIND_BF16 == (int)PTX_TC_BF &&
                   (int)TRACE_TYPE_KIND_F16X2 == (int)PTX_TC_H2 &&
                   (int)TRACE_TYPE_KIND_BF16X2 == (int)PTX_TC_BH2 &&
                   (int)TRACE_TYPE_KIND_U16X2 == (int)PTX_TC_U2 &&
                   (int)TRACE_TYPE_KIND_S16X2 == (int)PTX_TC_S2,
               "trace.h's type encoding is ptx.h's");

/* The FLOP kind of a CUDA-core float operation of type t (trace.h TRACE_FLOP_*), and
 * how many elements it works on (2 for the packed pairs); 0 for a non-float type. */
static int flop_kind_of(int t, unsigned *elems)
{
    *elems = 1;
    switch (t) {
    case PTX_T_F32: return TRACE_FLOP_FP32;
    case PTX_T_F64: return TRACE_FLOP_FP64;
    case PTX_T_F16X2: *elems = 2; return TRACE_FLOP_FP16;
    case PTX_T_F16: return TRACE_FLOP_FP16;
    case PTX_T_BF16X2: *elems = 2; return TRACE_FLOP_BF16;
    case PTX_T_BF16: return TRACE_FLOP_BF16;
    default: return TRACE_FLOP_NONE;
    }
}

/* The tensor FLOP kind of A and B's element type (PTX ISA §9.7.14.1). */
static int tensor_kind_of(int mma_t)
{
    switch (mma_t) {
    case MMA_T_F16: return TRACE_FLOP_TENSOR_F16;
    case MMA_T_BF16: return TRACE_FLOP_TENSOR_BF16;
    case MMA_T_TF32: return TRACE_FLOP_TENSOR_TF32;
    case MMA_T_F64: return TRACE_FLOP_TENSOR_F64;
    case MMA_T_S8:
    case MMA_T_U8: return TRACE_FLOP_TENSOR_INT8;
    case MMA_T_S4:
    case MMA_T_U4: return TRACE_FLOP_TENSOR_INT4;
    case MMA_T_B1: return TRACE_FLOP_TENSOR_B1;
    case MMA_T_E4M3:
    case MMA_T_E5M2: return TRACE_FLOP_TENSOR_FP8;
    default: return TRACE_FLOP_NONE;
    }
}

/* The trace's facts of instruction in of module m (trace.h trace_insn), decoded once
 * per launch: what the analyses and views read instead of its text. */
static void insn_facts(const ptx_module *m, const ptx_insn *in, trace_insn *ti)
{
    const int op = in->op < PTX_OP_COUNT ? in->op : PTX_OP_mov;
    int cls = ptx_op_table[op].cls;
    if ((op == PTX_OP_rcp || op == PTX_OP_sqrt) && (in->flags & PTX_F_APPROX))
        cls = TRACE_CLASS_SFU; /* MUFU.RCP / MUFU.SQRT (PTX ISA §9.7.3.13, .15) */
    if (op == PTX_OP_cp && in->cmp != PTX_CPA_COPY)
        cls = TRACE_CLASS_SYNC; /* commit_group, wait_group, wait_all, mbarrier.arrive */
    ti->cls = (uint8_t)cls;
    ti->op = (uint16_t)op;
    ti->type = in->type;
    ti->vec = in->vec ? in->vec : 1;
    unsigned f = 0;
    if (in->vec > 1 && cls != TRACE_CLASS_ALU)
        f |= TRACE_INSN_VECTOR;
    if (op == PTX_OP_ldmatrix || op == PTX_OP_stmatrix)
        f |= TRACE_INSN_MATRIX;
    if (op == PTX_OP_wmma_load || op == PTX_OP_wmma_store || op == PTX_OP_wmma_mma)
        f |= TRACE_INSN_WMMA;
    if (PTX_IS_MMA(op))
        f |= TRACE_INSN_FRAGMENTS;
    if (op == PTX_OP_cp && (in->bop & PTX_CPA_BULK))
        f |= TRACE_INSN_BULK;
    if (op == PTX_OP_red)
        f |= TRACE_INSN_REDUCTION;
    if (in->flags & PTX_F_APPROX)
        f |= TRACE_INSN_APPROX;
    if (in->flags & PTX_F_VOLATILE)
        f |= TRACE_INSN_STRONG;
    if (in->guard != PTX_NOREG)
        f |= TRACE_INSN_GUARDED;
    if (in->flags & PTX_F_UNI)
        f |= TRACE_INSN_UNIFORM;
    if (in->flags & PTX_F_NC)
        f |= TRACE_INSN_NC;
    ti->flags = (uint16_t)f;
    const unsigned tsize = PTX_TSIZE(in->type);
    mma_desc d;
    const int is_mma = ptx_mma_desc(in, &d);
    switch (cls) {
    case TRACE_CLASS_LOAD:
        ti->src_space = in->space;
        ti->bytes = (uint8_t)(is_mma ? (d.kind == MMA_K_WLOAD ? 0 : 16) : tsize * ti->vec);
        break;
    case TRACE_CLASS_STORE:
        ti->dst_space = in->space;
        ti->bytes = (uint8_t)(is_mma ? (d.kind == MMA_K_WSTORE ? 0 : 16) : tsize * ti->vec);
        break;
    case TRACE_CLASS_ATOMIC:
        ti->src_space = ti->dst_space = in->space;
        ti->bytes = (uint8_t)(tsize * ti->vec);
        break;
    case TRACE_CLASS_ASYNC_COPY: /* PTX ISA §9.7.9.25: cp.async [dst], [src], cp-size */
        if (!(in->bop & PTX_CPA_BULK)) {
            ti->src_space = SIM_SPACE_GLOBAL, ti->dst_space = SIM_SPACE_SHARED;
            if (in->o[2].kind == PTX_OPK_IMM && in->o[2].imm <= 16)
                ti->bytes = (uint8_t)in->o[2].imm;
        } else if (in->bop & PTX_CPA_BULK_MBAR) { /* global to shared::cluster */
            ti->src_space = SIM_SPACE_GLOBAL, ti->dst_space = SIM_SPACE_SHARED;
        } else { /* .bulk_group: shared to global */
            ti->src_space = SIM_SPACE_SHARED, ti->dst_space = SIM_SPACE_GLOBAL;
        }
        break;
    default: break;
    }
    if (is_mma && (d.kind == MMA_K_MMA || d.kind == MMA_K_WMMA || d.kind == MMA_K_WLOAD ||
                   d.kind == MMA_K_WSTORE)) {
        ti->mma_m = d.m, ti->mma_n = d.n, ti->mma_k = d.k;
        if (d.kind == MMA_K_MMA || d.kind == MMA_K_WMMA) {
            /* 2 x M x N x K per product; the quad-pair m8n8k4 .f16 is four (§9.7.14.5.1);
             * mma.sp multiplies the K/2 kept elements only (§9.7.14.6) */
            ti->flop_kind = (uint8_t)tensor_kind_of(d.atype);
            ti->mma_flops =
                2u * d.m * d.n * (d.sparse ? d.k / 2u : d.k) * (mma_quad_pair(&d) ? 4u : 1u);
        }
    } else if (cls == TRACE_CLASS_ADD || cls == TRACE_CLASS_MUL || cls == TRACE_CLASS_FMA) {
        unsigned elems;
        ti->flop_kind = (uint8_t)flop_kind_of(in->type, &elems);
        if (ti->flop_kind)
            ti->flops = (uint8_t)(elems * (cls == TRACE_CLASS_FMA ? 2u : 1u));
    }
    /* additions: add/sub and mad/fma of any type and operands, atom/red .add; a packed
     * pair is two, a vector atom/red one per element */
    const unsigned tk = TRACE_TYPE_KIND(in->type),
                   pair = tk == TRACE_TYPE_KIND_F16X2 || tk == TRACE_TYPE_KIND_BF16X2 ||
                                  tk == TRACE_TYPE_KIND_U16X2 || tk == TRACE_TYPE_KIND_S16X2
                              ? 2u
                              : 1u;
    if (cls == TRACE_CLASS_ADD || cls == TRACE_CLASS_FMA)
        ti->adds = (uint8_t)pair;
    else if (cls == TRACE_CLASS_ATOMIC && in->cmp == PTX_ATOM_ADD)
        ti->adds = (uint8_t)(pair * ti->vec);
    if (op == PTX_OP_cp && !(in->bop & PTX_CPA_BULK)) { /* PTX ISA §9.7.9.25.3 */
        ti->async_group = in->cmp == PTX_CPA_COPY         ? TRACE_ASYNC_COPY
                          : in->cmp == PTX_CPA_COMMIT     ? TRACE_ASYNC_COMMIT
                          : in->cmp == PTX_CPA_WAIT_GROUP ? TRACE_ASYNC_WAIT
                          : in->cmp == PTX_CPA_WAIT_ALL   ? TRACE_ASYNC_WAIT_ALL
                                                          : TRACE_ASYNC_NONE;
        if (in->cmp == PTX_CPA_WAIT_GROUP && in->o[0].kind == PTX_OPK_IMM)
            ti->async_wait_n = (uint8_t)(in->o[0].imm > 255 ? 255 : in->o[0].imm);
    }
    snprintf(ti->mnemonic, sizeof ti->mnemonic, "%s", ptx_insn_mnemonic(m, in));
}

int sim_trace_describe(const ptx_module_t *m, trace_t *tr)
{
    trace_insn *ti = calloc((size_t)m->ncode + 1, sizeof *ti);
    const char **files = calloc((size_t)m->nfiles + 1, sizeof *files);
    if (!ti || !files) {
        free(ti);
        free(files);
        return -1;
    }
    for (int pc = 0; pc < m->ncode; pc++) {
        const ptx_insn *in = &m->code[pc];
        ti[pc].src_line = in->src_line;
        ti[pc].src_file = (int16_t)in->src_file;
        ti[pc].ptx_line = in->ptx_line;
        insn_facts(m, in, &ti[pc]);
    }
    for (int i = 0; i < m->nfiles; i++)
        files[i] = m->files ? m->files[i] : NULL;
    int r = trace_set_insns(tr, ti, m->ncode, files, m->nfiles);
    free(ti);
    free(files);
    if (r == 0 && tr->record_regs)
        r = describe_regs(m, tr);
    return r;
}

int sim_trace_setup(sim_ctx *c, const char *kernel)
{
    if (trace_begin_launch(c->trace, kernel, c->grid, c->block) < 0)
        return -1;
    return sim_trace_describe(c->m, c->trace);
}
