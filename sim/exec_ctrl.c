/* exec_ctrl.c — control flow and synchronization helpers of the general tier: messages
 * (op and type names, unsupported instructions), call/ret with device printf (vprintf)
 * and __assertfail (PTX ISA §9.7.12), atomic operations (§9.7.13 atom/red) and the
 * membermasks of warp-synchronous instructions (§9.7.8.6 shfl.sync, §9.7.13 vote.sync,
 * match.sync, redux.sync).
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_lanes.h"

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

void sim_unsupported(sim_ctx *c, unsigned t, const ptx_insn *in)
{
    sim_fault_at(c, t, in, SIM_FAULT_UNSUPPORTED,
                 "unsupported instruction '%s' with type .%s at PTX line %d (the simulator "
                 "does not implement this form)",
                 sim_op_name(in->op), type_name(in->type), in->ptx_line);
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

/* The function an indirect call of thread t reaches: the one whose address
 * (PTX_FUNC_ADDR) its register holds, with the prototype's parameters; NULL after a
 * fault (no function there, another signature: undefined on a GPU, PTX ISA §9.7.12.5). */
static const ptx_func *indirect_callee(sim_ctx *c, const ptx_insn *in, unsigned t,
                                       const ptx_call *cl)
{
    const ptx_module *m = c->m;
    const uint64_t a = *sim_reg(c, t, (unsigned)cl->fptr);
    const uint64_t i = (a - PTX_FUNC_ADDR_BASE) / 16;
    const ptx_func *f =
        a >= PTX_FUNC_ADDR_BASE && a % 16 == 0 && i < (uint64_t)m->nfuncs ? &m->funcs[i] : NULL;
    if (!f || f->is_entry || (f->entry_pc < 0 && f->builtin == PTX_BUILTIN_NONE)) {
        sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                     "indirect call through a pointer (0x%llx) that holds the address of %s%s",
                     (unsigned long long)a,
                     !f            ? "no device function"
                     : f->is_entry ? "a kernel: "
                                   : "a function the module only declares: ",
                     f ? f->name : "");
        return NULL;
    }
    if (f->nparams != cl->nargs || (f->nrets > 0) != (cl->nrets > 0)) {
        sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                     "indirect call of '%s' (%d parameters%s) through a prototype of %d "
                     "parameters%s",
                     f->name, f->nparams, f->nrets ? ", a return value" : "", cl->nargs,
                     cl->nrets ? ", a return value" : "");
        return NULL;
    }
    return f;
}

/* call (PTX ISA §9.7.12.5 call): the callee gets a fresh register, parameter and local
 * frame above the caller's; arguments are copied into its parameter frame. An indirect
 * call's callee is the function its register names, per thread (indirect_callee). */
void sim_do_call(sim_ctx *c, const ptx_insn *in, unsigned t, uint32_t next_pc)
{
    const ptx_module *m = c->m;
    const ptx_call *cl = &m->calls[in->target];
    const ptx_func *callee =
        cl->callee >= 0 ? &m->funcs[cl->callee] : indirect_callee(c, in, t, cl);
    if (!callee)
        return;
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
             nl = c->lbase[t] + cur->local_size + c->ldyn[t];
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
    fr->ldyn = c->ldyn[t];
    c->depth[t] = (uint8_t)(d + 1);
    c->frames_used = 1;
    if (d == 0 && t / 32 < SIM_ITS_WARPS)
        c->w_called[t / 32]++;
    c->rbase[t] = nr;
    c->pbase[t] = np;
    c->lbase[t] = nl;
    c->ldyn[t] = 0;
    c->pc[t] = (uint32_t)callee->entry_pc;
}

/* ret (PTX ISA §9.7.12.x ret): copies the return .param back to the call site. */
void sim_do_ret(sim_ctx *c, const ptx_insn *in, unsigned t)
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
    c->ldyn[t] = fr->ldyn; /* the callee's alloca memory is freed (§9.7.17.3) */
    c->pc[t] = (uint32_t)fr->ret_pc;
    c->depth[t] = (uint8_t)(d - 1);
    if (d == 1 && t / 32 < SIM_ITS_WARPS)
        c->w_called[t / 32]--;
}

/* atom / red, PTX ISA §9.7.13.x (atom, red): lanes are applied in lane order. */
uint64_t sim_atom_op(int op, ptx_type ty, uint64_t old, uint64_t b, uint64_t cv)
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

/* The lanes each lane of em (of the warp whose first thread is base) takes part with in
 * warp-synchronous instruction in: its own membermask, restricted to em. Lanes executing
 * one instruction together may name different membermasks, each group its own (a
 * thread_block_tile<8>'s shfl.sync: lanes 0-7 name 0x000000ff, lanes 8-15 0x0000ff00):
 * each lane exchanges values only with the lanes its membermask names (PTX ISA §9.7.8.6
 * shfl.sync, §9.7.13.x vote.sync, match.sync, redux.sync). */
void sim_member_parts(const sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em,
                      uint32_t part[32])
{
    uint32_t mask;
    if (member_mask_uniform(c, in, base, em, &mask)) {
        for (uint32_t m = em; m; m &= m - 1)
            part[__builtin_ctz(m)] = em & mask;
        return;
    }
    for (uint32_t m = em; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        part[l] = em & member_mask(c, in, base + l);
    }
}

/* Mnemonics for messages, from ptx_ops.def. */
const char *sim_op_name(unsigned op)
{
    return op < PTX_OP_COUNT ? ptx_op_table[op].name : "?";
}
