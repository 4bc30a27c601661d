/* exec_issue.c — warp issue: independent thread scheduling (which lanes issue next),
 * guard predicates, the warp-synchronous wait, run-ahead of register-only instructions,
 * spin detection, and sim_warp_step / sim_warp_round, the loop that runs the fast tiers
 * (exec_fast.h) and the general tier (sim_exec_insn).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_fast.h"
#include "sim/jit.h"

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

/* The lane states of a whole warp (32 bytes, SIM_T_RUN is 0) eight to a 64-bit word:
 * sets *any_run when some lane is runnable and *all_run when every lane is. */
static inline void warp_run_state(const uint8_t *st, int *any_run, int *all_run)
{
    uint64_t sw[4], zero = 0, not_run = 0;
    memcpy(sw, st, sizeof sw);
    for (int i = 0; i < 4; i++) {
        /* a byte of sw[i] that is zero (a runnable lane) */
        zero |= (sw[i] - 0x0101010101010101ull) & ~sw[i] & 0x8080808080808080ull;
        not_run |= sw[i];
    }
    *any_run = zero != 0;
    *all_run = not_run == 0;
}

/* Whether the group g of warp lanes at instruction in must wait for other lanes. */
static int wsync_blocked(const sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t g,
                         uint32_t live, uint32_t *missing)
{
    uint32_t need = 0; /* every lane of g waits for the lanes its membermask names */
    if (!g || !member_mask_uniform(c, in, base, g, &need)) /* need stays 0 then */
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
        const int per_lane = !sreg_block_uniform(id);
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

/* The fault of a launch stopped by the step limit (over_steps) or the time limit, at
 * thread t issuing `in` for warp w. What the spin detector knows decides the words: a
 * warp whose state repeated with no memory written between (sim_back_edge) loops for
 * ever; warps that took loop branches without repeating may be in a loop that ends late;
 * a block none of whose warps took one ran out of steps in straight-line code (a grid
 * too large for the limit), not in a loop. */
static void step_limit_fault(sim_ctx *c, unsigned w, unsigned t, const ptx_insn *in, int over_steps)
{
    int spinning = -1, looped = -1;
    for (unsigned v = 0; v < c->nwarps && v < SIM_ITS_WARPS; v++) {
        if (spinning < 0 && c->spin_flag[v] == c->mwrites + 1)
            spinning = (int)v;
        if (looped < 0 && c->loop_pc[v] >= 0)
            looped = (int)v;
    }
    const unsigned shown = spinning >= 0 ? (unsigned)spinning : looped >= 0 ? (unsigned)looped : w;
    const ptx_insn *at = c->loop_pc[shown] >= 0 ? &c->code[c->loop_pc[shown]] : in;
    char where[200], warps[300], head[160];
    sim_where(c, at, where, sizeof where);
    sim_warps_state(c, warps, sizeof warps);
    if (over_steps)
        snprintf(head, sizeof head, "step limit of %llu warp instructions reached",
                 (unsigned long long)c->step_limit);
    else
        snprintf(head, sizeof head,
                 "time limit of %g s reached after %llu warp instructions (--timeout raises it)",
                 c->s->cfg.time_limit_s, (unsigned long long)c->steps);
    const uint64_t blocks = (uint64_t)c->grid[0] * c->grid[1] * c->grid[2];
    if (spinning >= 0)
        sim_fault_at(c, t, at, SIM_FAULT_STEP_LIMIT,
                     "%s: warp %d repeats the same state at %s with no memory written between "
                     "its turns: an endless loop%s",
                     head, spinning, where, warps);
    else if (looped >= 0)
        sim_fault_at(c, t, at, SIM_FAULT_STEP_LIMIT,
                     "%s: warps loop (the last loop branch at %s) but none repeated its state: "
                     "a loop that ends late or never, or a launch longer than the limit%s",
                     head, where, warps);
    else
        sim_fault_at(c, t, at, SIM_FAULT_STEP_LIMIT,
                     "%s in straight-line code at %s: no warp of block (%u,%u,%u) took a loop "
                     "branch; the launch (%llu blocks of %u threads) is longer than the limit, "
                     "not an endless loop",
                     head, where, c->bid[0], c->bid[1], c->bid[2], (unsigned long long)blocks,
                     c->nthreads);
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

/* Runs instruction p (its sim_fops F) for all 32 lanes of converged warp w (registers
 * R, first thread base) when it has a full-warp form: an exec_fh kernel, %tid.x of a
 * one-dimensional block (FH_TIDX) or a uniform special register (FH_SREG). Returns 0,
 * having done nothing, for any other instruction. */
static inline int exec_full(sim_ctx *c, const struct sim_fops *F, uint32_t p, uint64_t *R,
                            unsigned base)
{
    const unsigned fh = F->fh;
    if (fh && fh < FH_SREG) {
        const uint64_t *const rows[2] = {R, c->imm_rows}; /* a register's row or an immediate's */
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
    } else {
        return 0;
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
    const int tracing = c->trace != NULL;
    /* c->ahead[w] and the converged PC (c->wconv[w] - 1) live in n and p meanwhile:
     * nothing that runs here reads them */
    unsigned n = c->ahead[w];
    uint32_t p = c->wconv[w] - 1;
    const unsigned n0 = n;
    const sim_jit_table *const jit = c->jit;
    while (n < SIM_AHEAD_MAX) {
        if (jit && jit->len[p] && n + jit->len[p] <= SIM_AHEAD_MAX) {
            /* a translated block (sim/jit.c): its instructions as the loop below would
             * run them, unguarded and register-only */
            const unsigned len = jit->len[p];
            if (tracing)
                for (unsigned i = 0; i < len; i++) {
                    uint32_t *q = c->ahead_q[w][(c->ahead_head[w] + n + i) % SIM_AHEAD_MAX];
                    q[0] = p + i;
                    q[1] = UINT32_MAX;
                }
            jit->fn[p](R);
            c->res->jit_blocks++;
            n += len;
            p += len;
            continue;
        }
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
            if (exec_full(c, F, p, R, base)) {
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

/* ------------------------------------------------------------------ lockstep regions
 * When every warp of a block that can issue is converged at the same PC, with nothing
 * run ahead, the next rounds of the deterministic schedule issue the same instructions
 * to each of those warps in index order for as long as the code is straight-line: a
 * region. Its instructions are those warp_step's converged path runs with exec_fast
 * or a full-warp kernel and that cannot change the control flow: no branch, exit,
 * guard predicate, barrier or other general-path instruction, no clock read. A block
 * found so at the start of its turn (sim_region_turn) runs the whole region in that
 * turn, as that many rounds: instruction i for warp w0, w1, ..., then instruction i + 1.
 * Within the block that is exactly the order of the rounds (run-ahead only moves
 * register-only work, which no one sees); the other resident blocks' turns come after
 * the region instead of between its rounds, which is a legal schedule like any other
 * and the same with either tier. Memory, the checkers, findings, the trace (its issue
 * events in that order, their times the steps) and the statistics see each instruction
 * as if issued in its round.
 *
 * Warps arrive together where the last instruction issued was not a region's: after
 * a branch or a barrier, at a branch target, at the entry (leaders). run_ahead does not
 * start at a leader, so that the warps wait there with nothing run ahead and the block
 * can enter the region; elsewhere it runs ahead as before. */

/* Whether instruction p can be in a region (and decodes it for run_ahead's kernels, so
 * that parameter loads, symbol addresses and special registers have full-warp forms). */
static int region_ok(sim_ctx *c, uint32_t p)
{
    const unsigned fk = c->fast[p];
    struct sim_fops *F = &c->fops[p];
    if (!fk || fk == FK_BRA || fk == FK_EXIT || F->g != UINT32_MAX)
        return 0;
    const ptx_insn *in = &c->code[p];
    if (fk == FK_MOV_SREG) {
        const unsigned id = in->o[1].sub;
        if (id == PTX_SREG_CLOCK || id == PTX_SREG_CLOCK64 || id == PTX_SREG_CLOCK_HI ||
            id == PTX_SREG_GLOBALTIMER || id == PTX_SREG_GLOBALTIMER_LO ||
            id == PTX_SREG_GLOBALTIMER_HI)
            return 0;
    }
    if (!F->ahead)
        ahead_decode(c, in, fk, F);
    return 1;
}

void sim_region_build(sim_ctx *c)
{
    c->rlen = NULL;
    if (!c->fops || c->s->cfg.schedule_random)
        return;
    const int ncode = c->m->ncode;
    uint8_t *ok = calloc((size_t)ncode + 1, 1);
    uint8_t *rl = calloc((size_t)ncode + 1, 1);
    c->rk = calloc((size_t)ncode + 1, sizeof *c->rk);
    if (!ok || !rl || !c->rk) {
        free(ok);
        free(rl);
        free(c->rk);
        c->rk = NULL;
        return;
    }
    for (int p = 0; p < ncode; p++) {
        ok[p] = (uint8_t)region_ok(c, (uint32_t)p);
        if (ok[p] && c->fops[p].fh == FH_BCAST)
            c->rk[p] = c->fops[p].k;
    }
    for (int p = ncode - 1; p >= 0; p--) {
        const unsigned n = ok[p] ? 1u + (rl[p + 1] & SIM_RLEN_MASK) : 0;
        rl[p] = (uint8_t)(n > SIM_REGION_MAX ? SIM_REGION_MAX : n);
    }
    /* a region of one instruction is none (1): nothing to save */
    for (int p = 0; p < ncode; p++)
        if (rl[p] < 2)
            rl[p] = 1;
    /* leaders: the entry, branch targets, after a non-region instruction, and where a
     * region of the maximum length ends inside a longer straight line */
    for (int p = 0; p < ncode; p++) {
        const ptx_insn *in = &c->code[p];
        if (c->fast[p] == FK_BRA && in->target >= 0 && in->target < ncode && rl[in->target] > 1)
            rl[in->target] |= SIM_RLEN_LEADER;
        if (rl[p] > 1 && (p == 0 || !ok[p - 1] || p == c->entry->entry_pc))
            rl[p] |= SIM_RLEN_LEADER;
    }
    for (int p = 0; p < ncode; p++)
        if ((rl[p] & SIM_RLEN_LEADER) && (rl[p] & SIM_RLEN_MASK) == SIM_REGION_MAX &&
            p + SIM_REGION_MAX < ncode && rl[p + SIM_REGION_MAX] > 1)
            rl[p + SIM_REGION_MAX] |= SIM_RLEN_LEADER;
    free(ok);
    c->rlen = rl;
}

/* Sets the PCs of the running region's warps as the rounds stop after warp number k
 * (0-based among rg_wm) issued instruction p: p + 1 for it and those before it, p for
 * the others. */
static void region_stop(sim_ctx *c, uint32_t p, unsigned k)
{
    unsigned i = 0;
    for (uint32_t m = c->rg_wm; m; m &= m - 1, i++) {
        const unsigned w = (unsigned)__builtin_ctz(m);
        pcs_set(c->pc + w * 32, i <= k ? p + 1 : p);
        c->wconv[w] = 0;
    }
}

int sim_region_insn(void *ctx, uint32_t p)
{
    sim_ctx *const c = ctx;
    const int only_count = (p & SIM_REGION_ISSUED) != 0;
    p &= ~SIM_REGION_ISSUED;
    const struct sim_fops *const F = &c->fops[p];
    const ptx_insn *const in = &c->code[p];
    const unsigned n = c->rg_n;
    const uint64_t done = (uint64_t)(p - c->rg_pc) * n; /* issued before p in the region */
    const int st = in->op == PTX_OP_st;
    unsigned k = 0;
    for (uint32_t m = c->rg_wm; m; m &= m - 1, k++) {
        const unsigned w = (unsigned)__builtin_ctz(m), base = w * 32;
        c->steps = c->rg_steps0 + done + k + 1;
        if (c->trace)
            sim_trace_issue(c, w, p, UINT32_MAX, UINT32_MAX);
        if (only_count)
            continue;
        c->mwrites += (uint64_t)st;
        uint64_t *const R = c->regs + (((size_t)w * c->regcap) << 5);
        if (!exec_full(c, F, p, R, base)) {
            exec_fast(c, in, w, base, UINT32_MAX, p, UINT32_MAX);
            if (c->faulted) {
                region_stop(c, p, k);
                c->res->stats.warp_instructions = c->rg_wi0 + done + k + 1;
                c->res->stats.thread_instructions = c->rg_ti0 + (done + k + 1) * 32;
                return 1;
            }
        }
    }
    return 0;
}

/* The round after a region, for its warps wm (converged at T, nothing run ahead), when
 * the instruction at T ends their straight line the same way for each warp: an unguarded
 * exit, or a branch that each warp takes or skips as a whole. Issues it to each warp in
 * index order as warp_step's converged path would (step, statistics, issue event, the
 * branch's back-edge bookkeeping, the next converged PC, run_ahead), so that the block
 * stays in lockstep without a turn of its own; anything else is left to the next
 * round. The step limit is known to be far (sim_region_turn). */
static void region_tail(sim_ctx *c, uint32_t T, uint32_t wm)
{
    const unsigned fk = c->fast[T];
    const struct sim_fops *F = &c->fops[T];
    if (fk != FK_EXIT && fk != FK_BRA)
        return;
    if (fk == FK_EXIT && F->g != UINT32_MAX)
        return;
    uint32_t em[SIM_ITS_WARPS];
    for (uint32_t m = wm; m; m &= m - 1) {
        const unsigned w = (unsigned)__builtin_ctz(m);
        em[w] = UINT32_MAX;
        if (F->g != UINT32_MAX) {
            const uint64_t *R = c->regs + (((size_t)w * c->regcap) << 5);
            em[w] = guard_bits(R + (F->g & ~1u), F->g & 1);
            if (em[w] != 0 && em[w] != UINT32_MAX)
                return; /* a warp diverges here: the ordinary round */
        }
    }
    const ptx_insn *in = &c->code[T];
    const unsigned n = sim_pop32(wm);
    c->res->stats.warp_instructions += n;
    c->res->stats.thread_instructions += 32 * (uint64_t)n;
    for (uint32_t m = wm; m; m &= m - 1) {
        const unsigned w = (unsigned)__builtin_ctz(m), base = w * 32;
        ++c->steps;
        c->clock_check -= c->clock_check > 1; /* the next issue checks it at 1 */
        if (c->trace)
            sim_trace_issue(c, w, T, UINT32_MAX, em[w]);
        c->wconv[w] = 0;
        if (fk == FK_EXIT) {
            pcs_set(c->pc + base, T + 1);
            memset(c->state + base, SIM_T_EXIT, 32);
            c->nexited += 32;
            c->wdone |= 1u << w; /* as warp_step finds it next: no lane can run */
            continue;
        }
        if (em[w]) {
            pcs_set(c->pc + base, (uint32_t)in->target);
            if ((uint32_t)in->target <= T)
                sim_back_edge(c, w, T, UINT32_MAX);
            c->wconv[w] = (uint32_t)in->target + 1;
        } else {
            pcs_set(c->pc + base, T + 1);
            c->wconv[w] = T + 2;
        }
        if (!c->faulted && c->fops[c->wconv[w] - 1].ahead != 1 &&
            !(c->rlen[c->wconv[w] - 1] & SIM_RLEN_LEADER))
            run_ahead(c, w);
    }
}

int sim_region_turn(sim_ctx *c)
{
    if (!c->rlen)
        return 0;
    uint32_t P = UINT32_MAX, wm = 0;
    for (unsigned w = 0; w < c->nwarps; w++) {
        if ((c->wdone >> w) & 1)
            continue;
        if (c->ahead[w] || c->w_called[w])
            return 0;
        uint32_t p;
        if (c->wconv[w]) {
            p = c->wconv[w] - 1;
        } else {
            if (c->nthreads - w * 32 < 32)
                return 0;
            int any_run, all_run;
            warp_run_state(c->state + w * 32, &any_run, &all_run);
            if (!any_run)
                continue; /* every lane exited or waits at a barrier */
            p = c->pc[w * 32];
            if (!all_run || !pcs_all_equal(c->pc + w * 32, p))
                return 0;
        }
        if (P != UINT32_MAX && p != P)
            return 0;
        if (P == UINT32_MAX && (c->rlen[p] & SIM_RLEN_MASK) < 2)
            return 0; /* no region there: no need to look at the other warps */
        P = p;
        wm |= 1u << w;
    }
    if (!wm)
        return 0;
    const unsigned L = c->rlen[P] & SIM_RLEN_MASK, n = sim_pop32(wm);
    if (c->steps + (uint64_t)(L + 1) * n + (uint64_t)(SIM_AHEAD_MAX + 1) * 8 * c->nwarps >=
        c->step_limit)
        return 0;
    c->rg_pc = P;
    c->rg_wm = wm;
    c->rg_n = n;
    c->rg_steps0 = c->steps;
    c->rg_wi0 = c->res->stats.warp_instructions;
    c->rg_ti0 = c->res->stats.thread_instructions;
    for (uint32_t m = wm; m; m &= m - 1) {
        const unsigned w = (unsigned)__builtin_ctz(m);
        c->wconv[w] = 0;
        c->its_spin[w] = 0; /* converged: spins count from zero (warp_step) */
    }
    /* (not while the registers view records each instruction's values) */
    const sim_jit_region_fn fn =
        c->jit && !(c->trace && c->trace->record_regs) ? c->jit->region[P] : NULL;
    int faulted = 0;
    if (fn) {
        for (unsigned i = 0; i < L; i++) { /* this block's uniform special registers */
            const struct sim_fops *F = &c->fops[P + i];
            if (F->fh == FH_SREG)
                c->rk[P + i] = sreg(c, c->code[P + i].o[1].sub, 0) & F->k;
        }
        faulted = fn(c->regs, c->regcap << 5, wm, c, sim_region_insn, c->trace != NULL, c->rk);
        c->res->jit_blocks++;
    } else {
        for (unsigned i = 0; i < L && !faulted; i++)
            faulted = sim_region_insn(c, P + i);
    }
    if (faulted)
        return 1;
    c->res->regions++;
    const uint64_t issued = (uint64_t)L * n;
    c->steps = c->rg_steps0 + issued;
    c->res->stats.warp_instructions = c->rg_wi0 + issued;
    c->res->stats.thread_instructions = c->rg_ti0 + issued * 32;
    for (uint32_t m = wm; m; m &= m - 1) {
        const unsigned w = (unsigned)__builtin_ctz(m);
        pcs_set(c->pc + w * 32, P + L);
        c->wconv[w] = P + L + 1;
    }
    /* the wall clock, as warp_step checks it every SIM_CLOCK_EVERY instructions: the next
     * issue checks it once this many have passed */
    c->clock_check = c->clock_check > issued ? c->clock_check - (uint32_t)issued : 1;
    region_tail(c, P + L, wm);
    return 1;
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

/* Whether lanes a and b (thread indices) are in the same device-function calls: the same
 * depth and return PCs, so that at one PC they run the same instance of a function. */
static int same_calls(const sim_ctx *c, unsigned a, unsigned b)
{
    if (c->depth[a] != c->depth[b])
        return 0;
    const sim_frame *fa = &c->frames[(size_t)a * SIM_MAX_DEPTH],
                    *fb = &c->frames[(size_t)b * SIM_MAX_DEPTH];
    for (unsigned i = 0; i < c->depth[a]; i++)
        if (fa[i].ret_pc != fb[i].ret_pc)
            return 0;
    return 1;
}

/* The lanes of g (at one PC) in the same calls as its lowest lane (same_calls). */
static uint32_t call_mates(const sim_ctx *c, unsigned base, uint32_t g)
{
    const unsigned l0 = base + (unsigned)__builtin_ctz(g);
    uint32_t k = 0;
    for (uint32_t m = g; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        k |= (uint32_t)same_calls(c, l0, base + l) << l;
    }
    return k;
}

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
    *mask = base / 32 < SIM_ITS_WARPS && c->w_called[base / 32] ? call_mates(c, base, g) : g;
    return p;
}

/* Of the lanes cand of the warp at base, those the scheduler issues when some are inside
 * device-function calls: the deepest calls first, and in them the smallest PC, the lanes
 * there in the same calls (call_mates); returns that PC, the lanes in *g. A divergent
 * branch's sides run their calls apart: lanes of different calls of one function (called
 * from both sides of an if, as `nvcc -G` keeps cooperative_groups' __activemask()) do not
 * issue together at its first instruction, as they do not on a GPU, where the branch's
 * sides reconverge only after it (coalesced_threads() in divergent code:
 * tests/corpus/cg_coalesced). */
static uint32_t deepest_group(const sim_ctx *c, unsigned base, uint32_t cand, uint32_t *g)
{
    unsigned d = 0;
    uint32_t p = UINT32_MAX;
    for (uint32_t m = cand; m; m &= m - 1) {
        const unsigned l = base + (unsigned)__builtin_ctz(m);
        if (c->depth[l] > d || (c->depth[l] == d && c->pc[l] < p)) {
            d = c->depth[l];
            p = c->pc[l];
        }
    }
    uint32_t at = 0;
    for (uint32_t m = cand; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        at |= (uint32_t)(c->pc[base + l] == p && c->depth[base + l] == d) << l;
    }
    *g = call_mates(c, base, at);
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
        int any_run, all_run;
        warp_run_state(st, &any_run, &all_run);
        if (!any_run) {
            c->wdone |= 1u << w;
            return 0; /* every lane exited or waits at a barrier */
        }
        if (all_run) { /* every lane runnable: converged when all PCs are equal */
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
    if (w < SIM_ITS_WARPS && c->w_called[w]) /* also when every lane is at one PC */
        best = deepest_group(c, base, run, &mask);
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
                if (w < SIM_ITS_WARPS && c->w_called[w]) {
                    p = deepest_group(c, base, cand, &g);
                } else if (cand == mask) {
                    /* the candidates are the lanes at best (a converged warp at a
                     * warp-synchronous instruction, most often): no lane loop */
                    p = best;
                    g = mask;
                } else {
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
                }
                const ptx_insn *pi = &c->code[p];
                if (is_warp_sync(pi) && wsync_blocked(c, pi, base, g, live, &missing) &&
                    w < SIM_ITS_WARPS && c->w_called[w]) {
                    /* lanes its membermask names that wait at the same instruction in
                     * other calls of its function (deepest_group kept them apart) meet it
                     * there */
                    uint32_t same = 0;
                    for (uint32_t m = cand; m; m &= m - 1) {
                        unsigned l = (unsigned)__builtin_ctz(m);
                        same |= (uint32_t)(c->pc[base + l] == p) << l;
                    }
                    if ((missing & ~same) == 0) {
                        chosen = g | missing;
                        best = p;
                        break;
                    }
                }
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
                         w, sim_op_name(blocked_at->op), where, blocked_missing);
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
        step_limit_fault(c, w, base + (unsigned)__builtin_ctz(mask), in, over_steps);
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
    if (c->trace) /* trace hook (sim_trace.c): one predictable branch when tracing is off */
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
            sim_exec_insn(c, in, w, base, em, best, mask);
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
        c->fops[c->wconv[w] - 1].ahead != 1 &&
        !(c->rlen && (c->rlen[c->wconv[w] - 1] & SIM_RLEN_LEADER)))
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
