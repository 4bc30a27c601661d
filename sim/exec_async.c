/* exec_async.c — cp.async and mbarrier: the model is described in exec_async.h. */
#include "sim/exec_async.h"

#include <stdlib.h>
#include <string.h>

#include "sim/exec.h"
#include "sim/sim_mem.h"

/* ------------------------------------------------------------ mbarrier object */

/* The simulator's encoding of an mbarrier (the PTX ISA leaves it opaque): bits 0-19
 * pending arrivals of the current phase, 20-39 expected arrivals per phase, 40-61 the
 * tx-count (two's complement, 22 bits), 63 the phase parity. */
#define MB_PEND(o) ((uint32_t)((o)&0xfffff))
#define MB_EXP(o) ((uint32_t)(((o) >> 20) & 0xfffff))
#define MB_PHASE(o) ((unsigned)((o) >> 63))
static int64_t mb_tx(uint64_t o)
{
    int64_t v = (int64_t)((o >> 40) & 0x3fffff);
    return v >= (1 << 21) ? v - (1 << 22) : v;
}
static uint64_t mb_make(uint32_t pend, uint32_t exp, int64_t tx, unsigned phase)
{
    return (uint64_t)pend | (uint64_t)exp << 20 | ((uint64_t)tx & 0x3fffff) << 40 |
           (uint64_t)(phase & 1) << 63;
}

uint64_t sim_mbar_init(uint32_t count)
{
    return mb_make(count, count, 0, 0);
}

/* Completes the phase when nothing is pending: the next one expects MB_EXP arrivals. */
static int mb_settle(uint64_t *obj)
{
    const uint64_t o = *obj;
    if (MB_PEND(o) != 0 || mb_tx(o) != 0)
        return 0;
    *obj = mb_make(MB_EXP(o), MB_EXP(o), 0, MB_PHASE(o) ^ 1);
    return 1;
}

int sim_mbar_arrive(uint64_t *obj, uint32_t count, int drop, uint64_t *state)
{
    const uint64_t o = *obj;
    if (state)
        *state = o;
    if (count > MB_PEND(o) || (drop && count > MB_EXP(o)))
        return -1;
    *obj = mb_make(MB_PEND(o) - count, drop ? MB_EXP(o) - count : MB_EXP(o), mb_tx(o), MB_PHASE(o));
    return mb_settle(obj);
}

int sim_mbar_tx(uint64_t *obj, int64_t delta)
{
    const uint64_t o = *obj;
    const int64_t tx = mb_tx(o) + delta;
    if (tx > (int64_t)SIM_MBAR_MAX_COUNT || tx < -(int64_t)SIM_MBAR_MAX_COUNT)
        return -1;
    *obj = mb_make(MB_PEND(o), MB_EXP(o), tx, MB_PHASE(o));
    return delta < 0 ? mb_settle(obj) : 0;
}

int sim_mbar_phase_done(uint64_t obj, uint64_t state)
{
    return MB_PHASE(obj) != MB_PHASE(state);
}

int sim_mbar_parity_done(uint64_t obj, unsigned parity)
{
    return MB_PHASE(obj) != (parity & 1);
}

uint32_t sim_mbar_pending(uint64_t state)
{
    return MB_PEND(state);
}

/* ------------------------------------------------------------ cp.async groups */

void sim_async_commit(sim_async *a, unsigned tid)
{
    for (unsigned k = 0; k < a->n; k++)
        if (a->q[k].tid == tid && a->q[k].group < 0)
            a->q[k].group = (int32_t)a->groups[tid];
    a->groups[tid]++;
}

int sim_async_due(const sim_async *a, unsigned k, unsigned tid, int n)
{
    const sim_async_copy *cp = &a->q[k];
    if (cp->tid != tid)
        return 0;
    if (n < 0)
        return 1;
    return cp->group >= 0 && (int64_t)cp->group < (int64_t)a->groups[tid] - n;
}

/* ------------------------------------------------------------ execution */

#define RG(r) R[(size_t)(r) << 5]

static uint64_t val(const sim_ctx *c, const ptx_operand *o, unsigned t)
{
    const uint64_t *R = sim_lane_regs(c, t);
    switch (o->kind) {
    case PTX_OPK_REG: return RG(o->reg);
    case PTX_OPK_IMM: return o->imm;
    default: return 0;
    }
}

static uint64_t addr(const sim_ctx *c, const ptx_operand *o, unsigned t)
{
    const uint64_t *R = sim_lane_regs(c, t);
    uint64_t a = o->imm;
    if (o->reg != PTX_NOREG)
        a += RG(o->reg);
    if (o->sym >= 0) {
        const ptx_sym *s = &c->m->syms[o->sym];
        a += s->kind == PTX_SYM_DYNSHARED ? c->dynshared_off
             : s->kind == PTX_SYM_SHARED  ? (uint64_t)s->value
             : s->kind == PTX_SYM_GLOBAL  ? c->s->var_addr[s->value]
                                          : 0;
    }
    return a;
}

static void set_reg(const sim_ctx *c, const ptx_operand *o, unsigned t, uint64_t v)
{
    if (o->kind == PTX_OPK_REG && o->reg != PTX_NOREG) {
        uint64_t *R = sim_lane_regs(c, t);
        RG(o->reg) = v;
    }
}

/* The CTA's copy state, made (or reset for a new block) on first use; NULL without
 * memory (a fault is recorded). */
static sim_async *async_of(sim_ctx *c, unsigned t, const ptx_insn *in)
{
    if (!c->async && !(c->async = calloc(1, sizeof *c->async))) {
        sim_fault_at(c, t, in, SIM_FAULT_UNSUPPORTED, "out of memory for cp.async");
        return NULL;
    }
    sim_async *a = c->async;
    if (a->block != c->block_linear + 1) {
        a->block = c->block_linear + 1;
        for (unsigned k = 0; k < a->n; k++)
            free(a->q[k].bulk);
        a->n = 0;
        memset(a->groups, 0, sizeof a->groups);
    }
    return a;
}

/* The race checker's view of an asynchronous copy's write as it is issued: the copy may
 * land at any time until its wait (PTX ISA §9.7.9.25.3), so it races with every access
 * of another thread to those bytes in the same barrier interval, those before the issue
 * included. Checked as a store by thread t at `in` now (the reads it overwrites), before
 * sim_race_async_mark replaces the bytes' shadow with the pending copy (which reports
 * the accesses after it until it lands). */
static void async_write_check(sim_ctx *c, uint64_t dst, unsigned size, unsigned t,
                              const ptx_insn *in)
{
    if (c->shadow && size && dst + size <= c->shared_size)
        sim_race_check(c, t, dst, size, 1, in);
}

/* Writes copy cp into shared memory through the checked path (16 bytes at a time for
 * cp.async.bulk), as a store by thread t at `in`, and frees its bulk buffer. Returns 0
 * after a fault. */
static int land_one(sim_ctx *c, const sim_async_copy *cp, unsigned t, const ptx_insn *in)
{
    const unsigned len = cp->bulk ? cp->bulk_size : cp->size, step = cp->bulk ? 16 : cp->size;
    const unsigned char *src = cp->bulk ? cp->bulk : cp->data;
    sim_race_async_mark(c, cp->dst, len, 0, 0, 0);
    int ok = 1;
    for (unsigned o = 0; o < len && ok; o += step) {
        unsigned char *p = sim_mem(c, t, SIM_SPACE_SHARED, cp->dst + o, step, 1, in);
        if (p)
            memcpy(p, src + o, step);
        ok = p != NULL;
    }
    free(cp->bulk);
    c->mwrites++; /* spin detection: memory changed */
    return ok;
}

/* Lands the copies of thread t that are due for a wait with n groups left pending (n <
 * 0: all): writes shared memory through the checked path, in issue order, at `in`. */
static int land(sim_ctx *c, sim_async *a, unsigned t, int n, const ptx_insn *in)
{
    unsigned keep = 0;
    int ok = 1;
    for (unsigned k = 0; k < a->n; k++) {
        if (!ok || !sim_async_due(a, k, t, n)) {
            a->q[keep++] = a->q[k];
            continue;
        }
        ok = land_one(c, &a->q[k], t, in);
    }
    a->n = keep;
    return ok;
}

/* Makes room for one more copy in a's queue; 0 (a fault recorded) without memory. */
static int grow(sim_ctx *c, sim_async *a, unsigned t, const ptx_insn *in)
{
    unsigned nc = a->cap ? a->cap * 2 : 256;
    sim_async_copy *q = realloc(a->q, nc * sizeof *q);
    if (!q) {
        sim_fault_at(c, t, in, SIM_FAULT_UNSUPPORTED, "out of memory for cp.async");
        return 0;
    }
    a->q = q;
    a->cap = nc;
    return 1;
}

/* A warp's cp.async lanes for the trace (trace.h MEM: the global read of the lanes whose
 * src-size is not 0, then the shared write of every lane that issued one). */
typedef struct copy_lanes {
    uint32_t gmask, smask;
    uint64_t g[32], s[32];
} copy_lanes;

/* cp.async [d], [s], cp-size{, src-size} by thread t: reads the source now. Records the
 * lane's addresses in cl when tracing memory (cl non-NULL). */
static int issue_copy(sim_ctx *c, sim_async *a, unsigned t, const ptx_insn *in, uint32_t pc,
                      copy_lanes *cl)
{
    const unsigned size = (unsigned)in->o[2].imm;
    if (size != 4 && size != 8 && size != 16) {
        sim_fault_at(c, t, in, SIM_FAULT_TRAP, "cp.async cp-size must be 4, 8 or 16, not %u", size);
        return 0;
    }
    uint64_t srcsize = in->nopnd > 3 ? val(c, &in->o[3], t) : size;
    if (srcsize > size) {
        sim_fault_at(c, t, in, SIM_FAULT_TRAP, "cp.async src-size %llu is larger than cp-size %u",
                     (unsigned long long)srcsize, size);
        return 0;
    }
    uint64_t dst = addr(c, &in->o[0], t);
    if (dst % size != 0) {
        sim_fault_at(c, t, in, SIM_FAULT_MISALIGNED,
                     "cp.async destination 0x%llx is not aligned to its %u bytes",
                     (unsigned long long)dst, size);
        return 0;
    }
    if (a->n == a->cap && !grow(c, a, t, in))
        return 0;
    sim_async_copy *cp = &a->q[a->n];
    memset(cp, 0, sizeof *cp);
    const uint64_t src = addr(c, &in->o[1], t);
    if (src % size != 0) { /* "src and dst must be aligned to cp-size" (§9.7.9.25.3.1) */
        sim_fault_at(c, t, in, SIM_FAULT_MISALIGNED,
                     "cp.async source 0x%llx is not aligned to its %u bytes",
                     (unsigned long long)src, size);
        return 0;
    }
    if (srcsize) {
        /* the source as a global load of src-size bytes: only those are read, the rest of
         * cp-size is zero-filled, so a tail copy whose cp-size reaches past the end of its
         * allocation is in bounds (§9.7.9.25.3.1 cp.async, src-size) */
        const unsigned char *s = sim_mem(c, t, SIM_SPACE_GLOBAL, src, (unsigned)srcsize, 0, in);
        if (!s)
            return 0;
        memcpy(cp->data, s, srcsize);
    }
    if (cl) {
        const unsigned l = t % 32;
        cl->smask |= 1u << l, cl->s[l] = dst;
        if (srcsize)
            cl->gmask |= 1u << l, cl->g[l] = src;
    }
    cp->dst = (uint32_t)dst;
    cp->tid = (uint16_t)t;
    cp->size = (uint8_t)size;
    cp->srcsize = (uint8_t)srcsize;
    cp->group = -1;
    cp->pc = (int32_t)pc;
    a->n++;
    if (c->checks & SIM_CHECK_RACE) {
        async_write_check(c, dst, size, t, in);
        sim_race_async_mark(c, dst, size, t, (int32_t)pc, 1);
    }
    return 1;
}

/* The key of the mbarrier object at host pointer obj: its shared offset + 1, or 0 when
 * it is not in the CTA's shared memory. */
static uint32_t mbar_key(const sim_ctx *c, const uint64_t *obj)
{
    const unsigned char *p = (const unsigned char *)obj;
    return p && p >= c->shared && p < c->shared + c->shared_size ? (uint32_t)(p - c->shared) + 1
                                                                 : 0;
}

/* The mbarrier with key `key` completed a phase at `in`: the copies it tracks land
 * (each as a store by its issuing thread). */
static void land_tracked(sim_ctx *c, uint32_t key, const ptx_insn *in)
{
    sim_async *a = c->async;
    if (!key || !a || a->block != c->block_linear + 1)
        return;
    unsigned keep = 0;
    for (unsigned k = 0; k < a->n; k++) {
        const sim_async_copy *cp = &a->q[k];
        if (cp->mbar != key || c->faulted) {
            a->q[keep++] = *cp;
            continue;
        }
        land_one(c, cp, cp->tid, in);
    }
    a->n = keep;
}

/* The mbarrier object at operand o of thread t, through the checked path (8 bytes of
 * shared memory; kind: 1 a store (init, inval), 2 an atomic (arrivals and waits, which
 * do not race with each other)); NULL after a fault. */
static uint64_t *mbar_obj(sim_ctx *c, unsigned t, const ptx_insn *in, const ptx_operand *o,
                          int kind)
{
    return sim_mem(c, t, in->space ? in->space : SIM_SPACE_GENERIC, addr(c, o, t), 8, kind, in);
}

/* A phase completed: for the race checker the CTA enters a new interval, as at a barrier
 * (every thread that waits on the phase is ordered after every arrival). Coarser than
 * the PTX memory model (threads that do not wait are ordered too), so races between
 * them go unreported; never a false report. */
static void phase_completed(sim_ctx *c)
{
    sim_race_interval(c);
}

/* Traces one side of thread t's bulk copy of `size` bytes at `a` (trace.h MEM: the
 * 16-byte pieces in each aligned 512-byte block of addresses, one event per block, slot
 * i holding piece i of its block). */
static void trace_bulk(sim_ctx *c, unsigned t, uint32_t pc, int space, int op, uint64_t a,
                       uint64_t size)
{
    uint64_t ad[32];
    for (uint64_t o = 0; o < size;) {
        const uint64_t blk = (a + o) / 512;
        uint32_t mask = 0;
        for (; o < size && (a + o) / 512 == blk; o += 16) {
            const unsigned i = (unsigned)((a + o) % 512 / 16);
            mask |= 1u << i, ad[i] = a + o;
        }
        sim_trace_mem(c, t / 32, pc, space, op, 16, mask, ad);
    }
}

/* Whether thread t may run in, an asynchronous write to .shared::cluster (st.async,
 * red.async, cp.reduce.async.bulk to shared memory): only in a launch with a cluster
 * shape. Without one an H200 stops the kernel with CUDA_ERROR_ILLEGAL_INSTRUCTION
 * (measured for each of the three, driver 580; with "cluster": [1, 1, 1] they run), so
 * the simulator faults there too; 0 after the fault. */
static int cluster_launched(sim_ctx *c, unsigned t, const ptx_insn *in, const char *what)
{
    if (c->cl_explicit)
        return 1;
    sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                 "illegal instruction: %s writes to .shared::cluster, which needs a launch in "
                 "thread block clusters (a \"cluster\" shape, cudaLaunchKernelEx); a GPU stops "
                 "the kernel here (CUDA_ERROR_ILLEGAL_INSTRUCTION)",
                 what);
    return 0;
}

/* cp.reduce.async.bulk [d], [s], size{, [mbar]} by thread t (PTX ISA §9.7.9.25.4.2): each
 * element of the source (shared::cta) is reduced into the destination (global with
 * .bulk_group, else shared::cluster with the mbarrier's complete_tx) at the issue, an
 * order the ISA allows; the element operations are atom's (sim_atom_op). buf: size
 * bytes of scratch, freed here. */
static int bulk_reduce(sim_ctx *c, unsigned t, const ptx_insn *in, uint64_t dst, uint64_t src,
                       uint64_t size, int to_shared, unsigned char *buf)
{
    const unsigned esz = PTX_TSIZE(in->type2);
    int ok = 1;
    if (to_shared && !cluster_launched(c, t, in, "cp.reduce.async.bulk")) {
        free(buf);
        return 0;
    }
    for (uint64_t o = 0; ok && o < size; o += 16) {
        const unsigned char *p = sim_mem(c, t, SIM_SPACE_SHARED, src + o, 16, 0, in);
        if (p)
            memcpy(buf + o, p, 16);
        ok = p != NULL;
    }
    for (uint64_t o = 0; ok && o < size; o += esz) {
        unsigned char *p =
            sim_mem(c, t, to_shared ? SIM_SPACE_SHARED : SIM_SPACE_GLOBAL, dst + o, esz, 2, in);
        if (p) {
            uint64_t old = 0, b = 0;
            memcpy(&old, p, esz);
            memcpy(&b, buf + o, esz);
            const uint64_t nv = sim_atom_op(in->rnd, (ptx_type)in->type2, old, b, 0);
            memcpy(p, &nv, esz);
        }
        ok = p != NULL;
    }
    free(buf);
    if (!ok)
        return 0;
    c->mwrites++;
    if (!to_shared)
        return 1;
    uint64_t *obj = mbar_obj(c, t, in, &in->o[3], 2);
    if (!obj)
        return 0;
    const int r = sim_mbar_tx(obj, -(int64_t)size); /* complete_tx */
    if (r < 0) {
        sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                     "cp.reduce.async.bulk: complete_tx of %llu bytes takes the mbarrier's "
                     "tx-count out of range (PTX ISA §9.7.13.15.2)",
                     (unsigned long long)size);
        return 0;
    }
    if (r > 0) {
        land_tracked(c, mbar_key(c, obj), in);
        phase_completed(c);
    }
    return 1;
}

/* cp.async.bulk [d], [s], size{, [mbar]} by thread t (PTX ISA §9.7.9.25.4.1): the model
 * of exec_async.h. Addresses and size must be multiples of 16. */
static int bulk_copy(sim_ctx *c, sim_async *a, unsigned t, const ptx_insn *in, uint32_t pc)
{
    const uint64_t dst = addr(c, &in->o[0], t), src = addr(c, &in->o[1], t);
    const uint64_t size = val(c, &in->o[2], t);
    if (size == 0 || size % 16 || dst % 16 || src % 16 || size > (1u << 20)) {
        sim_fault_at(c, t, in, SIM_FAULT_MISALIGNED,
                     "cp.async.bulk of %llu bytes from 0x%llx to 0x%llx: addresses and size "
                     "must be multiples of 16 (PTX ISA §9.7.9.25.4.1)",
                     (unsigned long long)size, (unsigned long long)src, (unsigned long long)dst);
        return 0;
    }
    const int to_shared = (in->bop & PTX_CPA_BULK_MBAR) != 0;
    if (c->trace_mem) { /* read at the issue; written when it lands or now (.bulk_group) */
        trace_bulk(c, t, pc, to_shared ? SIM_SPACE_GLOBAL : SIM_SPACE_SHARED, TRACE_LOAD, src,
                   size);
        trace_bulk(c, t, pc, to_shared ? SIM_SPACE_SHARED : SIM_SPACE_GLOBAL, TRACE_STORE, dst,
                   size);
    }
    unsigned char *buf = malloc(size);
    if (!buf) {
        sim_fault_at(c, t, in, SIM_FAULT_UNSUPPORTED, "out of memory for cp.async.bulk");
        return 0;
    }
    if (in->bop & PTX_CPA_REDUCE) /* cp.reduce.async.bulk: read, reduce and write now */
        return bulk_reduce(c, t, in, dst, src, size, to_shared, buf);
    for (uint64_t o = 0; o < size; o += 16) {
        const unsigned char *p =
            sim_mem(c, t, to_shared ? SIM_SPACE_GLOBAL : SIM_SPACE_SHARED, src + o, 16, 0, in);
        if (!p) {
            free(buf);
            return 0;
        }
        memcpy(buf + o, p, 16);
    }
    if (!to_shared) { /* .bulk_group: written to global now */
        for (uint64_t o = 0; o < size; o += 16) {
            unsigned char *p = sim_mem(c, t, SIM_SPACE_GLOBAL, dst + o, 16, 1, in);
            if (!p) {
                free(buf);
                return 0;
            }
            memcpy(p, buf + o, 16);
        }
        free(buf);
        c->mwrites++;
        return 1;
    }
    uint64_t *obj = mbar_obj(c, t, in, &in->o[3], 2);
    if (!obj || (a->n == a->cap && !grow(c, a, t, in))) {
        free(buf);
        return 0;
    }
    sim_async_copy *cp = &a->q[a->n++];
    memset(cp, 0, sizeof *cp);
    cp->dst = (uint32_t)dst;
    cp->tid = (uint16_t)t;
    cp->bulk_size = (uint32_t)size;
    cp->bulk = buf;
    cp->group = -1;
    cp->pc = (int32_t)pc;
    const uint32_t key = mbar_key(c, obj);
    cp->mbar = key;
    if (c->checks & SIM_CHECK_RACE) {
        async_write_check(c, dst, (unsigned)size, t, in);
        sim_race_async_mark(c, dst, (unsigned)size, t, (int32_t)pc, 1);
    }
    const int r = sim_mbar_tx(obj, -(int64_t)size); /* complete_tx */
    if (r < 0) {
        sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                     "cp.async.bulk: complete_tx of %llu bytes takes the mbarrier's tx-count "
                     "out of range (PTX ISA §9.7.13.15.2)",
                     (unsigned long long)size);
        return 0;
    }
    c->mwrites++;
    if (!key || r > 0) { /* outside shared memory the copy lands now */
        land_tracked(c, key, in);
        if (!key)
            land(c, a, t, -1, in);
        if (r > 0)
            phase_completed(c);
    }
    return 1;
}

static void exec_mbarrier(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned t)
{
    uint64_t *obj = NULL, st = 0;
    int r = 0;
    switch (in->cmp) {
    case PTX_MBAR_INIT: {
        uint64_t n = val(c, &in->o[1], t);
        if (n < 1 || n > SIM_MBAR_MAX_COUNT) {
            sim_fault_at(c, t, in, SIM_FAULT_TRAP, "mbarrier.init count %llu is outside 1..%u",
                         (unsigned long long)n, SIM_MBAR_MAX_COUNT);
            return;
        }
        if ((obj = mbar_obj(c, t, in, &in->o[0], 1)))
            *obj = sim_mbar_init((uint32_t)n);
        break;
    }
    case PTX_MBAR_INVAL:
        if ((obj = mbar_obj(c, t, in, &in->o[0], 1)))
            *obj = 0;
        break;
    case PTX_MBAR_ARRIVE:
    case PTX_MBAR_ARRIVE_DROP: {
        if (!(obj = mbar_obj(c, t, in, &in->o[1], 2)))
            return;
        uint32_t count = 1;
        if (in->nopnd > 2 && !(in->bop & PTX_MBAR_TX))
            count = (uint32_t)val(c, &in->o[2], t);
        if ((in->bop & PTX_MBAR_TX) && sim_mbar_tx(obj, (int64_t)val(c, &in->o[2], t)) < 0)
            r = -1;
        else
            r = sim_mbar_arrive(obj, count, in->cmp == PTX_MBAR_ARRIVE_DROP, &st);
        set_reg(c, &in->o[0], t, st);
        break;
    }
    case PTX_MBAR_EXPECT_TX:
    case PTX_MBAR_COMPLETE_TX: {
        if (!(obj = mbar_obj(c, t, in, &in->o[0], 2)))
            return;
        int64_t tx = (int64_t)(uint32_t)val(c, &in->o[1], t);
        r = sim_mbar_tx(obj, in->cmp == PTX_MBAR_EXPECT_TX ? tx : -tx);
        break;
    }
    case PTX_MBAR_TEST_WAIT:
    case PTX_MBAR_TRY_WAIT: {
        if (!(obj = mbar_obj(c, t, in, &in->o[1], 2)))
            return;
        uint64_t s = val(c, &in->o[2], t);
        int done = (in->bop & PTX_MBAR_PARITY) ? sim_mbar_parity_done(*obj, (unsigned)s)
                                               : sim_mbar_phase_done(*obj, s);
        set_reg(c, &in->o[0], t, (uint64_t)done);
        if (!done && w < SIM_ITS_WARPS)
            c->its_syncmem[w] = 1; /* polling memory: other lanes may have to run */
        return;
    }
    case PTX_MBAR_PENDING_COUNT:
        set_reg(c, &in->o[0], t, sim_mbar_pending(val(c, &in->o[1], t)));
        return;
    default: break;
    }
    if (r < 0)
        sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                     "mbarrier: more arrivals or transaction bytes than the phase expects "
                     "(undefined behaviour, PTX ISA §9.7.13.15)");
    else
        c->mwrites++; /* spin detection: a waiter may now see a completed phase */
    if (r > 0) {
        land_tracked(c, mbar_key(c, obj), in);
        phase_completed(c);
    }
}

/* sim_exec_async for the lanes em, lane by lane (cl: cp.async's lanes for the trace). */
static void exec_lanes(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                       uint32_t pc, copy_lanes *cl)
{
    for (uint32_t m = em; m; m &= m - 1) {
        const unsigned t = base + (unsigned)__builtin_ctz(m);
        if (in->op == PTX_OP_mbarrier) {
            exec_mbarrier(c, in, w, t);
        } else {
            sim_async *a = async_of(c, t, in);
            if (!a)
                return;
            int ok = 1;
            if (in->bop & PTX_CPA_BULK) { /* commit_group and wait_group: nothing pending */
                if (in->cmp == PTX_CPA_COPY)
                    ok = bulk_copy(c, a, t, in, pc);
                if (!ok)
                    return;
                continue;
            }
            switch (in->cmp) {
            case PTX_CPA_COPY: ok = issue_copy(c, a, t, in, pc, cl); break;
            case PTX_CPA_COMMIT: sim_async_commit(a, t); break;
            case PTX_CPA_WAIT_GROUP: ok = land(c, a, t, (int)val(c, &in->o[0], t), in); break;
            case PTX_CPA_WAIT_ALL: ok = land(c, a, t, -1, in); break;
            case PTX_CPA_MBAR_ARRIVE: {
                int r = 0;
                /* the mbarrier tracks every prior copy of the thread: they land when its
                 * phase completes. The arrive-on: with .noinc one of the phase's arrivals;
                 * without, the pending count was raised by one first (§9.7.9.25.3.4), so the
                 * net count is unchanged */
                uint64_t *obj = mbar_obj(c, t, in, &in->o[0], 2);
                if (!obj)
                    return;
                const uint32_t key = mbar_key(c, obj);
                for (unsigned k = 0; k < a->n; k++)
                    if (a->q[k].tid == t && !a->q[k].mbar)
                        a->q[k].mbar = key;
                if (!key) /* an mbarrier outside shared memory: the copies land now */
                    ok = land(c, a, t, -1, in);
                if (ok && (in->bop & PTX_MBAR_NOINC) && (r = sim_mbar_arrive(obj, 1, 0, NULL)) < 0)
                    sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                                 "cp.async.mbarrier.arrive.noinc: the phase expects no more "
                                 "arrivals");
                if (r > 0) {
                    land_tracked(c, key, in);
                    phase_completed(c);
                }
                break;
            }
            default: break;
            }
            if (!ok)
                return;
        }
        if (c->faulted)
            return;
    }
}

void sim_exec_st_async(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const unsigned esz = PTX_TSIZE(in->type), sz = esz * in->vec;
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {
        const unsigned t = base + (unsigned)__builtin_ctz(m_);
        if (!cluster_launched(c, t, in, in->op == PTX_OP_st_async ? "st.async" : "red.async"))
            return;
        const uint64_t *R = sim_lane_regs(c, t);
        unsigned char *p = sim_mem(c, t, SIM_SPACE_SHARED, addr(c, &in->o[0], t), sz,
                                   in->op == PTX_OP_st_async ? 1 : 2, in);
        if (!p)
            return;
        if (in->op == PTX_OP_st_async) {
            for (unsigned i = 0; i < in->vec; i++) {
                const uint64_t v =
                    in->o[1].kind == PTX_OPK_VEC ? RG(vec_reg(&in->o[1], i)) : val(c, &in->o[1], t);
                memcpy(p + i * esz, &v, esz);
            }
        } else {
            uint64_t old = 0;
            memcpy(&old, p, esz);
            const uint64_t nv =
                sim_atom_op(in->cmp, (ptx_type)in->type, old, val(c, &in->o[1], t), 0);
            memcpy(p, &nv, esz);
        }
        c->mwrites++;
        uint64_t *obj = mbar_obj(c, t, in, &in->o[2], 2);
        if (!obj)
            return;
        const int r = sim_mbar_tx(obj, -(int64_t)sz); /* complete_tx */
        if (r < 0) {
            sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                         "%s: complete_tx of %u bytes takes the mbarrier's tx-count out of range "
                         "(PTX ISA §9.7.13.15.2)",
                         in->op == PTX_OP_st_async ? "st.async" : "red.async", sz);
            return;
        }
        if (r > 0) {
            land_tracked(c, mbar_key(c, obj), in);
            phase_completed(c);
        }
    }
}

void sim_exec_async(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em)
{
    const uint32_t pc = (uint32_t)(in - c->code);
    copy_lanes cl;
    copy_lanes *clp = NULL;
    if (c->trace_mem && in->op == PTX_OP_cp && in->cmp == PTX_CPA_COPY &&
        !(in->bop & PTX_CPA_BULK)) {
        cl.gmask = cl.smask = 0;
        clp = &cl;
    }
    exec_lanes(c, in, w, base, em, pc, clp);
    if (clp) { /* trace.h MEM: the global read, then the shared write, both at the issue */
        const unsigned size = (unsigned)in->o[2].imm;
        sim_trace_mem(c, w, pc, SIM_SPACE_GLOBAL, TRACE_LOAD, size, cl.gmask, cl.g);
        sim_trace_mem(c, w, pc, SIM_SPACE_SHARED, TRACE_STORE, size, cl.smask, cl.s);
    }
}

void sim_async_free(sim_ctx *c)
{
    if (c->async) {
        for (unsigned k = 0; k < c->async->n; k++)
            free(c->async->q[k].bulk);
        free(c->async->q);
        free(c->async);
        c->async = NULL;
    }
}
