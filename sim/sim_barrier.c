/* sim_barrier.c — CTA barriers and synccheck (PTX ISA §9.7.13.x bar/barrier): a
 * thread that executes bar.sync waits; when no warp of the CTA can issue, the waiting
 * threads are released if every non-exited thread waits at the same barrier id, as on
 * Volta and later GPUs (verified on an H200: tests/cli/bar_divergent.golden.json);
 * otherwise the CTA is deadlocked. sim_config.barrier_strict makes it stricter, like
 * compute-sanitizer's synccheck: every thread must wait at the same bar.sync, and
 * exited threads make a deadlock.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_mem.h"

/* Lists the groups of waiting threads, one per barrier instruction: "16 thread(s) wait
 * at a.cu:5 (PTX line 40); 16 thread(s) wait at a.cu:9 (PTX line 52)". Returns the
 * number of groups. */
static int barrier_groups(const sim_ctx *c, char *lines, size_t cap)
{
    size_t len = 0;
    int listed[8], nlisted = 0, ngroups = 0;
    lines[0] = 0;
    for (unsigned t = 0; t < c->nthreads; t++) {
        if (c->state[t] != SIM_T_BAR)
            continue;
        int seen = 0;
        for (int i = 0; i < nlisted; i++)
            seen |= listed[i] == c->bar_pc[t];
        if (seen)
            continue;
        ngroups++;
        if (nlisted == 8)
            continue;
        listed[nlisted++] = c->bar_pc[t];
        unsigned n = 0;
        for (unsigned u = 0; u < c->nthreads; u++)
            n += c->state[u] == SIM_T_BAR && c->bar_pc[u] == c->bar_pc[t];
        char where[160];
        sim_where(c, &c->code[c->bar_pc[t]], where, sizeof where);
        const ptx_insn *b = &c->code[c->bar_pc[t]];
        (void)b;
        int k = snprintf(lines + len, cap - len, "%s%u thread(s) wait at %s (barrier %u)",
                         len ? "; " : "", n, where, (unsigned)c->bar_id[t]);
        if (k > 0 && (size_t)k < cap - len)
            len += (size_t)k;
    }
    return ngroups;
}

/* The value of a bar/barrier operand for thread t (an immediate or a register). */
static uint64_t bar_operand(const sim_ctx *c, const ptx_operand *o, unsigned t)
{
    if (o->kind == PTX_OPK_IMM)
        return o->imm;
    if (o->kind == PTX_OPK_REG)
        return *sim_reg(c, t, o->reg) ^ (o->sub & 1);
    return 0;
}

/* Releases the threads waiting at barrier id (PTX ISA §9.7.13.1): bar.red writes each
 * waiting thread's result (popc: the number of waiting threads whose predicate c is
 * true; and/or of those predicates), synccheck warns when they waited at different
 * instructions, and racecheck starts a new barrier interval. */
static void release_barrier(sim_ctx *c, unsigned id)
{
    unsigned first = 0, popc = 0, all = 1, any = 0, n = 0;
    int pc0 = -1;
    const int same_pc = !c->bar_mixed[id];
    uint32_t *const lanes = c->bar_lanes[id]; /* the waiting threads, per warp */
    const unsigned nw = c->nwarps < SIM_ITS_WARPS ? c->nwarps : SIM_ITS_WARPS;
    for (unsigned w = 0; w < nw; w++) {
        if (!lanes[w])
            continue;
        if (pc0 < 0) {
            first = w * 32 + (unsigned)__builtin_ctz(lanes[w]);
            pc0 = c->bar_pc[first];
        }
        n += lanes[w] == UINT32_MAX ? 32 : sim_pop32(lanes[w]);
    }
#ifndef NDEBUG
    { /* the bookkeeping agrees with the threads' states (debug builds) */
        unsigned nn = 0, mixed = 0;
        for (unsigned t = 0; t < c->nthreads; t++) {
            const int at = c->state[t] == SIM_T_BAR && c->bar_id[t] == id;
            nn += (unsigned)at;
            mixed |= at && c->bar_pc[t] != pc0;
            if (at != (int)((lanes[t / 32] >> (t % 32)) & 1))
                abort();
        }
        if (nn != n || (n && nn != c->bar_waiting[id]) || (int)mixed == same_pc)
            abort();
    }
#endif
    if (pc0 < 0)
        return;
    /* bar.red: reduce the waiting threads' predicates */
    const int red = !same_pc || c->code[pc0].cmp == PTX_BAR_RED;
    if (red) {
        for (unsigned w = 0; w < nw; w++)
            for (uint32_t m = lanes[w]; m; m &= m - 1) {
                const unsigned t = w * 32 + (unsigned)__builtin_ctz(m);
                const ptx_insn *in = &c->code[c->bar_pc[t]];
                if (in->cmp == PTX_BAR_RED) {
                    unsigned p = (unsigned)(bar_operand(c, &in->o[3], t) & 1);
                    popc += p;
                    all &= p;
                    any |= p;
                }
            }
    }
    if (!same_pc && (c->checks & SIM_CHECK_SYNC)) {
        /* synccheck: released, but threads waited at different bar.sync */
        char lines[400];
        barrier_groups(c, lines, sizeof lines);
        sim_finding *f = sim_add_finding(c, SIM_FIND_DIVERGENT_BARRIER, 0, SIM_SPACE_GENERIC, 0, 0,
                                         SIM_HAZ_NONE, first, pc0, 0, -1, -1, 0);
        if (f)
            snprintf(f->message, sizeof f->message,
                     "barrier in divergent code: in block (%u,%u,%u) threads waited at "
                     "different __syncthreads(): %s. Volta and later GPUs release them "
                     "together because they count arrivals per barrier id, but each "
                     "group went past a different barrier, so the code around them is "
                     "not synchronised as written (compute-sanitizer synccheck reports "
                     "this)",
                     c->bid[0], c->bid[1], c->bid[2], lines);
    }
    if (c->nexited && !c->bar_expect[id] && (c->checks & SIM_CHECK_SYNC)) {
        /* synccheck: released because the rest of the block had exited */
        unsigned ex = 0;
        for (unsigned t = 0; t < c->nthreads && !ex; t++)
            if (c->state[t] == SIM_T_EXIT)
                ex = t + 1;
        char lines[400], who_ex[80];
        barrier_groups(c, lines, sizeof lines);
        sim_who(c, ex - 1, who_ex, sizeof who_ex);
        sim_finding *f = sim_add_finding(c, SIM_FIND_EXITED_BARRIER, 0, SIM_SPACE_GENERIC, 0, 0,
                                         SIM_HAZ_NONE, first, pc0, 0, -1, -1, 0);
        if (f)
            snprintf(f->message, sizeof f->message,
                     "barrier in conditional code: in block (%u,%u,%u) %s, while %u thread(s) "
                     "of the block had exited without reaching it (%s among them). Volta and "
                     "later GPUs release it because exited threads no longer count, but "
                     "__syncthreads() in conditional code is allowed only where the "
                     "condition is the same for the whole block (CUDA C++ Programming Guide, "
                     "\"Synchronization Functions\"): make the threads that returned early "
                     "reach the barrier too",
                     c->bid[0], c->bid[1], c->bid[2], lines, c->nexited, who_ex);
    }
    c->epoch++; /* racecheck: a new barrier interval */
    if (c->trace) {
        sim_trace_flush(c);
        trace_event ev = {0};
        ev.kind = TRACE_EV_BAR_RELEASE;
        ev.block = c->block_linear;
        ev.pc = pc0;
        ev.barrier = (uint16_t)id;
        ev.time = c->steps;
        ev.aux =
            trace_add_snapshot(c->trace, c->block_linear, pc0, c->steps, c->shared, c->shared_size);
        trace_append(c->trace, &ev, NULL);
    }
    for (unsigned w = 0; w < nw; w++) {
        const uint32_t lm = lanes[w];
        if (!lm)
            continue;
        if (red) {
            for (uint32_t m = lm; m; m &= m - 1) {
                const unsigned t = w * 32 + (unsigned)__builtin_ctz(m);
                const ptx_insn *in = &c->code[c->bar_pc[t]];
                if (in->cmp == PTX_BAR_RED && in->o[0].kind == PTX_OPK_REG)
                    *sim_reg(c, t, in->o[0].reg) = in->bop == PTX_BAR_POPC  ? popc
                                                   : in->bop == PTX_BOP_AND ? all
                                                                            : any;
            }
        }
        c->wdone &= ~(1u << w); /* lanes can run again */
        if (lm == UINT32_MAX) {
            memset(c->state + w * 32, SIM_T_RUN, 32);
            /* all at the instruction after pc0: converged (warp_step needs no scan) */
            if (same_pc)
                c->wconv[w] = (uint32_t)pc0 + 2;
        } else {
            for (uint32_t m = lm; m; m &= m - 1)
                c->state[w * 32 + (unsigned)__builtin_ctz(m)] = SIM_T_RUN;
        }
        lanes[w] = 0;
    }
    c->bar_mixed[id] = 0;
    /* arrivals past the thread count belong to the next phase */
    uint32_t total = n + c->bar_arrived[id], want = c->bar_expect[id];
    c->bar_arrived[id] =
        want && total > want
            ? (total - want < c->bar_arrived[id] ? total - want : c->bar_arrived[id])
            : 0;
    c->bar_waiting[id] = 0;
    c->bar_expect[id] = 0;
}

void sim_barrier_exec(sim_ctx *c, const ptx_insn *in, uint32_t pc, unsigned base, uint32_t em)
{
    const int red = in->cmp == PTX_BAR_RED;
    const ptx_operand *a = &in->o[red ? 1 : 0], *b = &in->o[red ? 2 : 1];
    unsigned t0 = base + (unsigned)__builtin_ctz(em);
    /* a and b are the same for every lane (PTX ISA: "should be warp-uniform") */
    unsigned id = (unsigned)bar_operand(c, a, t0);
    if (id > 15) {
        sim_fault_at(c, t0, in, SIM_FAULT_TRAP,
                     "barrier id %u is out of range: a CTA has barriers 0 to 15", id);
        return;
    }
    uint32_t count = b->kind != PTX_OPK_NONE ? (uint32_t)bar_operand(c, b, t0) : 0;
    if (b->kind != PTX_OPK_NONE && (count == 0 || count % 32)) {
        sim_fault_at(c, t0, in, SIM_FAULT_TRAP,
                     "barrier thread count %u is not a positive multiple of the warp size "
                     "(PTX ISA bar/barrier)",
                     count);
        return;
    }
    /* a count of exactly the whole CTA means every thread: the scheduler's rule (exited
     * threads do not hold the barrier back) applies */
    if (count == c->nthreads)
        count = 0;
    if (count && !c->bar_expect[id])
        c->bar_expect[id] = count;
    unsigned k = em == UINT32_MAX ? 32 : sim_pop32(em);
    if (in->cmp == PTX_BAR_ARRIVE) {
        c->bar_arrived[id] += k;
    } else {
        /* bookkeeping for release_barrier: the lanes per warp, whether the
         * waiting threads are at one instruction */
        if (c->bar_waiting[id] == 0) {
            c->bar_pc_any[id] = (int32_t)pc;
            c->bar_mixed[id] = 0;
        } else if (c->bar_pc_any[id] != (int32_t)pc) {
            c->bar_mixed[id] = 1;
        }
        c->bar_lanes[id][base / 32] |= em;
        if (em == UINT32_MAX) {
            /* the whole warp: four lanes' bar_pc per vector store */
            const sim_wv pv = WV(pc);
            memset(c->state + base, SIM_T_BAR, 32);
            memset(c->bar_id + base, (int)id, 32);
            _Pragma("GCC unroll 8") for (unsigned l = 0; l < 32; l += 4)
                wv_st(c->bar_pc + base + l, pv);
        } else {
            for (uint32_t m = em; m; m &= m - 1) {
                unsigned t = base + (unsigned)__builtin_ctz(m);
                c->state[t] = SIM_T_BAR;
                c->bar_pc[t] = (int32_t)pc;
                c->bar_id[t] = (uint8_t)id;
            }
        }
        c->bar_waiting[id] += k;
    }
    if (c->bar_expect[id] && c->bar_waiting[id] &&
        c->bar_waiting[id] + c->bar_arrived[id] >= c->bar_expect[id])
        release_barrier(c, id);
    /* the whole warp waits: no lane can run until a release (what warp_step's next scan
     * would find) */
    if (em == UINT32_MAX && c->state[base] == SIM_T_BAR && base / 32 < SIM_ITS_WARPS)
        c->wdone |= 1u << (base / 32);
}

/* Releases the CTA's waiting threads or reports a deadlock; called when no warp can
 * issue. A barrier with a thread count is released once that many threads arrived
 * (sim_barrier_exec does it at once); one without, when every thread that has not
 * exited waits at it (or arrived), as on Volta and later GPUs; barrier_strict (synccheck)
 * also wants them at one instruction and no thread exited. Returns 1 when threads were
 * released, 0 when the block is finished, -1 on deadlock (fault recorded). */
int sim_resolve_barrier(sim_ctx *c)
{
    /* counted as threads wait and exit (sim_barrier_exec, the exit paths) */
    unsigned waiting = 0, exited = c->nexited, first = 0, busy = 0;
    int pc0 = -1;
    {
        /* the 16 counts, four per vector; busy: the ids with waiting threads */
        sim_wv sum = WV(0);
        for (unsigned id = 0; id < 16; id += 4) {
            const sim_wv v = wv_ld(c->bar_waiting + id);
            sum += v;
            busy |= wm_bits(v != WV(0)) << id;
        }
        waiting = sum[0] + sum[1] + sum[2] + sum[3];
    }
#ifndef NDEBUG
    { /* the counts agree with the threads' states (debug builds) */
        unsigned nw = 0, ne = 0;
        for (unsigned t = 0; t < c->nthreads; t++) {
            ne += c->state[t] == SIM_T_EXIT;
            nw += c->state[t] == SIM_T_BAR;
        }
        if (nw != waiting || ne != exited)
            abort();
    }
#endif
    if (waiting == 0)
        return 0;
    int released = 0;
    for (; busy; busy &= busy - 1) { /* a release changes its own id's counts only */
        const unsigned id = (unsigned)__builtin_ctz(busy);
        uint32_t w = c->bar_waiting[id], arrived = c->bar_arrived[id];
        int ok;
        if (c->bar_expect[id]) {
            ok = w + arrived >= c->bar_expect[id];
        } else {
            ok = w + arrived + exited == c->nthreads;
            if (ok && c->s->cfg.barrier_strict) /* and all at one instruction */
                ok = exited == 0 && !c->bar_mixed[id];
        }
        if (ok) {
            release_barrier(c, id);
            released = 1;
        }
    }
    if (released)
        return 1;
    /* deadlock: name the barriers threads wait at, the first waiting thread's first */
    for (unsigned t = 0; t < c->nthreads; t++)
        if (c->state[t] == SIM_T_BAR) {
            pc0 = c->bar_pc[t];
            first = t;
            break;
        }
    char lines[400];
    int groups = barrier_groups(c, lines, sizeof lines);
    char why[200] = "";
    if (groups > 1)
        snprintf(why, sizeof why, "threads wait at %d different barriers", groups);
    else if (exited && c->s->cfg.barrier_strict)
        snprintf(why, sizeof why, "%u thread(s) exited without reaching it (strict barrier mode)",
                 exited);
    else if (c->bar_expect[c->bar_id[first]])
        snprintf(why, sizeof why, "%u of the %u threads it counts arrived",
                 c->bar_waiting[c->bar_id[first]] + c->bar_arrived[c->bar_id[first]],
                 c->bar_expect[c->bar_id[first]]);
    sim_fault_at(c, first, &c->code[pc0], SIM_FAULT_DEADLOCK,
                 "deadlock: a barrier can never be released (%s): %s; %u thread(s) exited", why,
                 lines, exited);
    return -1;
}
