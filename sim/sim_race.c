/* sim_race.c — racecheck (shared memory: sim_report_race, sim_race_check; the per-access check
 * race_one is in sim_mem.h) and the global-memory race detector (grace_*: shadows,
 * ordering by release/acquire, reports; its common case grace_lanes is in sim_mem.h).
 * sim_mem.h's header comment describes both.
 */
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_mem.h"

/* ------------------------------------------------------------------ racecheck */

static const char *hazard_name(sim_hazard h)
{
    return h == SIM_HAZ_RAW   ? "read after write"
           : h == SIM_HAZ_WAR ? "write after read"
                              : "write after write";
}

__attribute__((cold, noinline)) void sim_report_race(sim_ctx *c, unsigned t, const ptx_insn *in,
                                                     int op, uint64_t addr, unsigned size,
                                                     sim_hazard hz, unsigned ot, int32_t opc,
                                                     int oop)
{
    int32_t pc = (int32_t)(in - c->code);
    op = op == 3 ? 0 : op == 4 ? 1 : op; /* a strong load or store (race_one) */
    const int remote = t >= SIM_CLUSTER_TID || ot >= SIM_CLUSTER_TID;
    int same_warp = t / 32 == ot / 32 && !remote;
    /* an error inside one warp too: independent thread scheduling (Volta+, CUDA C++
     * Programming Guide "Independent Thread Scheduling") lets its lanes run in any
     * order, so lockstep code without __syncwarp() is wrong on today's GPUs */
    sim_finding *f =
        sim_add_finding(c, same_warp ? SIM_FIND_WARP_RACE : SIM_FIND_RACE, 1, SIM_SPACE_SHARED,
                        addr, size, hz, t, pc, op, (int)ot, opc, oop);
    if (!f)
        return;
    char a[200], b[200], wa[80], wb[80], at[120];
    sim_where(c, in, a, sizeof a);
    sim_where(c, &c->code[opc], b, sizeof b);
    sim_who(c, t, wa, sizeof wa);
    sim_who(c, ot, wb, sizeof wb);
    if (f->var[0]) /* "s[63] (shared offset 0xfc)" */
        snprintf(at, sizeof at, "of %s (shared offset 0x%llx)", f->var, (unsigned long long)addr);
    else
        snprintf(at, sizeof at, "at shared offset 0x%llx", (unsigned long long)addr);
    if (remote) /* another CTA of the cluster (distributed shared memory) */
        snprintf(f->message, sizeof f->message,
                 "distributed shared-memory race (%s hazard): %s %s %u bytes %s of block "
                 "(%u,%u,%u) at %s, which %s %s at %s, with no cluster barrier "
                 "(barrier.cluster, cluster.sync()) between them",
                 hazard_name(hz), wa, sim_op_verb(op, 0), size, at, c->bid[0], c->bid[1], c->bid[2],
                 a, wb, sim_op_verb(oop, 1), b);
    else if (!same_warp)
        snprintf(f->message, sizeof f->message,
                 "shared-memory race (%s hazard): %s (warp %u) %s %u bytes %s at %s, which %s "
                 "(warp %u) %s at %s, with no __syncthreads() between them",
                 hazard_name(hz), wa, t / 32, sim_op_verb(op, 0), size, at, a, wb, ot / 32,
                 sim_op_verb(oop, 1), b);
    else
        snprintf(f->message, sizeof f->message,
                 "race under independent thread scheduling (%s hazard inside warp %u): %s "
                 "(lane %u) %s %u bytes %s at %s, which lane %u %s at %s, with no "
                 "__syncwarp() between them; it works only while the warp runs in lockstep, "
                 "which Volta and later GPUs do not promise",
                 hazard_name(hz), t / 32, wa, t % 32, sim_op_verb(op, 0), size, at, a, ot % 32,
                 sim_op_verb(oop, 1), b);
}

/* See sim_mem.h. */
void sim_race_interval(sim_ctx *c)
{
    c->epoch++;
    if (c->wsync)
        for (unsigned w = 0; w < c->nwarps; w++)
            c->wsync[w]++;
}

/* See sim_mem.h. */
void sim_race_released(sim_ctx *c, unsigned t, uint64_t a)
{
    struct sim_shrel *r = &c->shrel[c->nshrel++ % SIM_SHREL];
    r->a = (uint32_t)a;
    r->epoch = c->epoch;
    r->tid = (uint16_t)t;
}

/* See sim_mem.h. */
void sim_race_acquired(sim_ctx *c, unsigned t, uint64_t a, unsigned size)
{
    const unsigned n = c->nshrel < SIM_SHREL ? c->nshrel : SIM_SHREL;
    for (unsigned i = 0; i < n; i++) {
        const struct sim_shrel *r = &c->shrel[i];
        if (r->epoch == c->epoch && r->tid != t && r->a < a + size && a < (uint64_t)r->a + 8) {
            sim_race_interval(c);
            return;
        }
    }
}

/* Checks and records an access of thread t to shared bytes [a, a+size) in the n
 * shadows from sh (race_one each), one report at most. */
static int race_bytes(sim_ctx *c, unsigned t, uint64_t a, unsigned size, struct sim_shadow *sh,
                      unsigned n, int op, const ptx_insn *in, int reported)
{
    const uint32_t E = c->epoch;
    const unsigned w = t / 32;
    const uint16_t ws = c->wsync[w];
    const int32_t pc = (int32_t)(in - c->code);
    for (unsigned i = 0; i < n; i++)
        reported = race_one(c, &sh[i], t, w, ws, E, pc, op, in, a, size, reported);
    return reported;
}

/* race_bytes for an access of thread t to shared bytes [a, a+size), one report at
 * most. A word (4 aligned bytes) whose flag in c->shadow_same is set has four shadow
 * bytes that every check treats alike: they agree in each field that is live (the
 * w_ fields when w_epoch is the current epoch, the r_ ones likewise; the others are
 * never read), so one shadow stands for all four, the word's own in c->wshadow (struct
 * sim_wshadow: whole-word accesses touch a quarter of the memory), and whole-word
 * accesses check and update it alone. Flags are set at block start (a new epoch:
 * nothing is live) and by a store of the whole word (it sets the w_ fields alike and
 * ends the reads; its byte 0's shadow becomes the word's); an access to part of a word
 * first copies the word's shadow to its four bytes and clears the flag. */
void sim_race_check(sim_ctx *c, unsigned t, uint64_t a, unsigned size, int op, const ptx_insn *in)
{
    uint8_t *same = c->shadow_same;
    if (!same || size == 0) {
        race_bytes(c, t, a, size, &c->shadow[a], size, op, in, 0);
        return;
    }
    if ((a & 3) == 0 && (size & 3) == 0) {
        int reported = 0;
        for (uint64_t k = a >> 2; k < (a + size) >> 2; k++) {
            if (same[k]) {
                reported = race_word(c, c->wshadow->mem, k, t, t / 32, c->wsync[t / 32], c->epoch,
                                     (int32_t)(in - c->code), op, in, a, size, reported);
            } else {
                reported = race_bytes(c, t, a, size, &c->shadow[k << 2], 4, op, in, reported);
                if (op == 1) {
                    same[k] = 1;
                    wshadow_set(c->wshadow, k, &c->shadow[k << 2]);
                }
            }
        }
        return;
    }
    for (uint64_t k = a >> 2; k <= (a + size - 1) >> 2; k++) {
        if (same[k]) {
            struct sim_shadow *sh = &c->shadow[k << 2];
            wshadow_get(c->wshadow, k, &sh[0]);
            sh[1] = sh[2] = sh[3] = sh[0];
            same[k] = 0;
        }
    }
    race_bytes(c, t, a, size, &c->shadow[a], size, op, in, 0);
}

void sim_race_check_remote(sim_ctx *tc, unsigned rt, uint16_t ws, uint64_t a, unsigned size, int op,
                           const ptx_insn *in)
{
    if (size == 0)
        return;
    if (tc->shadow_same) /* byte shadows for the words it touches (as a partial access) */
        for (uint64_t k = a >> 2; k <= (a + size - 1) >> 2; k++)
            if (tc->shadow_same[k]) {
                struct sim_shadow *sh = &tc->shadow[k << 2];
                wshadow_get(tc->wshadow, k, &sh[0]);
                sh[1] = sh[2] = sh[3] = sh[0];
                tc->shadow_same[k] = 0;
            }
    const int32_t pc = (int32_t)(in - tc->code);
    int reported = 0;
    for (unsigned i = 0; i < size; i++)
        reported = race_one(tc, &tc->shadow[a + i], rt, rt / 32, ws, tc->epoch, pc, op, in, a, size,
                            reported);
}

void sim_race_async_mark(sim_ctx *c, uint64_t a, unsigned size, unsigned tid, int32_t pc, int on)
{
    if (!c->shadow || size == 0 || a + size > c->shared_size)
        return;
    if (c->shadow_same) /* byte shadows for its words: the mark lives in those */
        for (uint64_t k = a >> 2; k <= (a + size - 1) >> 2; k++)
            if (c->shadow_same[k]) {
                struct sim_shadow *sh = &c->shadow[k << 2];
                wshadow_get(c->wshadow, k, &sh[0]);
                sh[1] = sh[2] = sh[3] = sh[0];
                c->shadow_same[k] = 0;
            }
    for (unsigned i = 0; i < size; i++) {
        struct sim_shadow *sh = &c->shadow[a + i];
        if (on) {
            sh->w_epoch = SIM_EPOCH_ASYNC;
            sh->w_tid = (uint16_t)tid;
            sh->w_pc = pc;
            sh->r_epoch = 0;
        } else if (sh->w_epoch == SIM_EPOCH_ASYNC) {
            sh->w_epoch = sh->r_epoch = 0; /* early reads were reported with the mark */
        }
    }
}

__attribute__((cold, noinline)) void sim_report_async_race(sim_ctx *c, unsigned t,
                                                           const ptx_insn *in, int op, uint64_t a,
                                                           unsigned size, unsigned ct, int32_t cpc)
{
    sim_finding *f = sim_add_finding(c, SIM_FIND_RACE, 1, SIM_SPACE_SHARED, a, size, SIM_HAZ_RAW, t,
                                     (int32_t)(in - c->code), op, (int)ct, cpc, 1);
    if (!f)
        return;
    f->other_async = 1;
    char at[200], cpat[200], wa[80], wb[80], var[120];
    sim_where(c, in, at, sizeof at);
    sim_where(c, &c->code[cpc], cpat, sizeof cpat);
    sim_who(c, t, wa, sizeof wa);
    sim_who(c, ct, wb, sizeof wb);
    if (f->var[0])
        snprintf(var, sizeof var, "%s (shared offset 0x%llx)", f->var, (unsigned long long)a);
    else
        snprintf(var, sizeof var, "shared offset 0x%llx", (unsigned long long)a);
    snprintf(f->message, sizeof f->message,
             "cp.async race: %s %s %u bytes of %s at %s before the cp.async at %s (by %s) "
             "that writes them has completed: wait for it first (cp.async.wait_group or "
             "wait_all, cuda::pipeline's wait, or the mbarrier phase it arrives on), then "
             "__syncthreads() if other threads read it (PTX ISA §9.7.9.25.3)",
             wa, sim_op_verb(op, 0), size, var, at, cpat, wb);
}

void sim_check_warp_sync(sim_ctx *c, unsigned w)
{
    if (c->wsync)
        c->wsync[w]++;
}

void sim_gsh_free(sim_alloc *al)
{
    if (al->gsh)
        sim_zunmap(al->gsh, ((al->size + 3) / 4 ? (al->size + 3) / 4 : 1) * sizeof(sim_gword));
    al->gsh = NULL;
}

/* Allocation al's race shadow; NULL without memory or over SIM_GRACE_MAX_BYTES (the
 * allocation goes unchecked). Records carry their launch's tag, so a new launch finds
 * the old ones empty without clearing them; the shadow is cleared only when the 9-bit
 * tag may have come round since its last use (every 512 launches). */
/* Makes the shadows of a launch on worker threads (sim_par.c) one at a time. */
static pthread_mutex_t gsh_lock = PTHREAD_MUTEX_INITIALIZER;

sim_gword *sim_grace_shadow(sim_ctx *c, sim_alloc *al)
{
    const size_t words = (al->size + 3) / 4;
    if (al->size > SIM_GRACE_MAX_BYTES)
        return NULL;
    if (c->par) {
        pthread_mutex_lock(&gsh_lock);
        if (al->gsh_launch == c->s->launches) { /* another worker made it */
            pthread_mutex_unlock(&gsh_lock);
            return al->gsh;
        }
    }
    if (!al->gsh) {
        /* 8 bytes per byte checked, in huge pages where the kernel offers them, mapped
         * on first touch (also on worker threads: mapping it all at once, serially, cost
         * a 16-thread launch over 16 MiB allocations more than its faults) */
        al->gsh = sim_zmap((words ? words : 1) * sizeof *al->gsh, 0);
    } else if (al->gsh_launch >> 9 != c->s->launches >> 9) {
        memset(al->gsh, 0, words * sizeof *al->gsh);
    }
    __atomic_store_n(&al->gsh_launch, c->s->launches, __ATOMIC_RELEASE);
    if (c->par)
        pthread_mutex_unlock(&gsh_lock);
    return al->gsh;
}

void sim_grace_release(sim_ctx *c)
{
    sim_grace *g = c->grace;
    if (!g)
        return;
    g->rel_count[c->block_linear]++;
    g->rel_time[c->block_linear] = c->steps + 1;
}

/* Whether live access x (recorded in a shadow) happens before an access by thread t of
 * the current block: the same warp (program order; races inside a warp are not checked
 * here), a barrier between two warps of one block, or a release by x's block after x
 * followed by an acquire by the current block (releases and acquires are tracked per
 * block, not per thread: lenient where one thread's fence is not a barrier's). When
 * x's block released more than once since x, the first of those releases is not known:
 * taken as ordered (the detector never reports what it cannot show). */
static int grace_ordered(const sim_ctx *c, const sim_gacc *x, unsigned t)
{
    if (x->block == GRACE_KEY(c) && (x->tid / 32u == t / 32u || x->epoch != (uint16_t)c->epoch))
        return 1;
    /* another block, or another warp of this one in the same barrier interval: ordered
     * by a release after x and an acquire after that (message passing between warps
     * through st.release / ld.acquire orders them too) */
    const sim_grace *g = c->grace;
    const uint32_t a = (x->block & 0x7fffffu) - 1;
    const uint8_t since = (uint8_t)(g->rel_count[a] - x->rel);
    if (since == 0)
        return 0;
    return since > 1 || g->acq_time[c->block_linear] > g->rel_time[a];
}

static __attribute__((cold, noinline)) void report_grace(sim_ctx *c, unsigned t, const ptx_insn *in,
                                                         int op, sim_alloc *al, uint64_t a,
                                                         unsigned size, sim_hazard hz,
                                                         const sim_gacc *x)
{
    const int oop = (x->bits >> 4) & 3;
    const uint32_t ob = (x->block & 0x7fffffu) - 1;
    sim_finding *f = sim_add_finding(c, SIM_FIND_GLOBAL_RACE, 1, SIM_SPACE_GLOBAL, a, size, hz, t,
                                     (int32_t)(in - c->code), op, x->tid, x->pc, oop);
    if (!f)
        return;
    /* the other access is in block ob, not necessarily the current one */
    f->other.block[0] = ob % c->grid[0];
    f->other.block[1] = ob / c->grid[0] % c->grid[1];
    f->other.block[2] = (unsigned)(ob / ((uint64_t)c->grid[0] * c->grid[1]));
    char wa[200], wb[200], here[80];
    sim_where(c, in, wa, sizeof wa);
    sim_where(c, &c->code[x->pc], wb, sizeof wb);
    sim_who(c, t, here, sizeof here);
    const unsigned *ot = f->other.thread, *obk = f->other.block;
    const int same_block = ob == c->block_linear;
    snprintf(f->message, sizeof f->message,
             "global-memory race (%s hazard): %s (warp %u) %s %u bytes at byte offset %llu "
             "of '%s' at %s, which thread (%u,%u,%u) of block (%u,%u,%u) (warp %u) %s at %s, "
             "%s",
             hazard_name(hz), here, t / 32, sim_op_verb(op, 0), size,
             (unsigned long long)(a - al->base), al->label, wa, ot[0], ot[1], ot[2], obk[0], obk[1],
             obk[2], x->tid / 32u, sim_op_verb(oop, 1), wb,
             same_block ? "with no __syncthreads() between them"
                        : "and nothing orders the two: blocks run at the same time, and only "
                          "a __threadfence() in the first block after its access, followed "
                          "by an atomic or volatile access that the second block reads "
                          "before its own, would");
}

/* The global-memory race detector (SIM_FIND_GLOBAL_RACE; PTX ISA §8 "Memory Consistency
 * Model"): checks thread t's access (op 0 load, 1 store, 2 atomic; in) to global bytes
 * [a, a+size) of allocation al (shadow sh) against each word's last store or atomic and
 * its remembered read, then records it. One report per access at most. */
__attribute__((noinline)) void sim_grace_check_sh(sim_ctx *c, sim_gword *sh, unsigned t,
                                                  sim_alloc *al, uint64_t a, unsigned size, int op,
                                                  const ptx_insn *in)
{
    const int strong = op == 2 || (in->flags & PTX_F_VOLATILE) != 0;
    sim_gacc y = {
        .block = GRACE_KEY(c),
        .pc = (int32_t)(in - c->code),
        .epoch = (uint16_t)c->epoch,
        .tid = (uint16_t)t,
        .rel = c->grace->rel_count[c->block_linear],
    };
    const uint64_t off = a - al->base;
    int reported = 0;
    for (uint64_t k = off >> 2; k <= (off + size - 1) >> 2; k++) {
        sim_gword *g = &sh[k];
        const uint64_t lo = k << 2 > off ? k << 2 : off;
        const uint64_t hi = (k << 2) + 4 < off + size ? (k << 2) + 4 : off + size;
        const uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo & 3));
        y.bits = (uint8_t)(mask | op << 4 | strong << 6);
        const int wl = grace_live(c, g->w.block), rl = grace_live(c, g->r.block);
        if (!reported) {
            const sim_gacc *x = NULL;
            sim_hazard hz = SIM_HAZ_NONE;
            /* a pair conflicts when one is a store and they are not both strong; an
             * atomic and a plain load are not reported: the CAS loop that starts from
             * a plain load (CUDA C++ Programming Guide, "Atomic Functions") is right */
            if (wl && (g->w.bits & mask) && (op == 1 || ((g->w.bits >> 4) & 3) == 1) &&
                !(strong && (g->w.bits & 0x40)) && !grace_ordered(c, &g->w, t)) {
                x = &g->w;
                hz = op == 0 ? SIM_HAZ_RAW : SIM_HAZ_WAW;
            } else if (op == 1 && rl && (g->r.bits & mask) && !(strong && (g->r.bits & 0x40)) &&
                       !grace_ordered(c, &g->r, t)) {
                x = &g->r;
                hz = SIM_HAZ_WAR;
            }
            if (x) {
                report_grace(c, t, in, op, al, a, size, hz, x);
                reported = 1;
            }
        }
        if (op != 0) {
            g->w = y;
            g->r.block = 0;
        } else if (!rl || g->r.block == y.block || grace_ordered(c, &g->r, t)) {
            g->r = y;
        }
    }
    if (op == 2 || (op == 0 && strong)) /* an atomic or a strong load: an acquire */
        c->grace->acq_time[c->block_linear] = c->steps + 1;
}
