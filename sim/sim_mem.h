/* sim_mem.h — private to sim/: what the memory paths (sim_mem.c) inline from the
 * checkers and the trace, as static inline functions so that each access costs what it
 * did in one file: the racecheck shadows and their per-access check (race_one,
 * race_word), the global-memory race detector's common case (grace_lanes, and grace_rows
 * for a warp's one or two unit-stride rows: one pass over the request's words), and the
 * trace's memory-request gathering (mreq_*); with the declarations that sim_mem.c,
 * sim_race.c, sim_initcheck.c, sim_trace.c, sim_barrier.c and sim.c share.
 *
 * Checkers (findings in sim_result; sim_mem runs them on every access):
 *  - memcheck (sim_mem.c): out-of-bounds and misaligned accesses in every space end the
 *    launch. Local memory is bounded by the thread's stack: its frames up to the end of
 *    the current function's .local data.
 *  - initcheck (sim_initcheck.c): global allocations keep one bit per byte written
 *    (sim_memcpy_htod or a kernel store/atomic); shared memory one byte per byte, per
 *    block. Loads of unwritten bytes are warnings.
 *  - racecheck (sim_race.c): a shadow per shared byte holds the last writer and the
 *    readers since, tagged with the block's barrier epoch (incremented at each
 *    release), so hazards between threads with no barrier between them are found
 *    without clearing anything. Different warps, or lanes of one warp with no
 *    __syncwarp between (a race under independent thread scheduling): an error.
 *    Atomics are checked against plain accesses of other threads, not against each
 *    other.
 *  - global racecheck (sim_race.c grace_*): a shadow per global word holds the last
 *    store or atomic and one read since, tagged with the launch, block, warp, barrier
 *    epoch and the block's release count; a store and another access not both strong,
 *    from different blocks or from different warps in one barrier interval, are an
 *    error unless a release (fence) of the first block and a later acquire (atomic,
 *    strong load) of the second order them (PTX ISA §8, "Memory Consistency Model").
 *  - synccheck (sim_barrier.c): a release where threads waited at different bar.sync
 *    instructions is a warning; a barrier that can never be released is the deadlock
 *    fault.
 * Tracing (sim_config.trace): sim_trace_issue is the one hook in the interpreter;
 * memory requests are gathered lane by lane in sim_mem and emitted at the next issue.
 */
#ifndef GL_SIM_MEM_H
#define GL_SIM_MEM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim/sim_internal.h"

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Four consecutive word shadows' values of one field (sim_mem.c shared_range, barrier and block-start resets). */
typedef uint32_t sim_wv __attribute__((vector_size(16)));
typedef int32_t sim_wm __attribute__((vector_size(16))); /* a comparison: 0 or -1 */
static inline sim_wv wv_ld(const void *p)
{
    sim_wv v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void wv_st(void *p, sim_wv v)
{
    memcpy(p, &v, sizeof v);
}
#define WV(x) ((sim_wv){(x), (x), (x), (x)})
/* The sign bits of a comparison's four elements, bit i for element i (SSE movmskps). */
static inline unsigned wm_bits(sim_wm m)
{
#if defined(__x86_64__) && defined(__SSE2__)
    __m128 f;
    memcpy(&f, &m, sizeof f);
    return (unsigned)_mm_movemask_ps(f);
#else
    return (m[0] < 0) | (m[1] < 0) << 1 | (m[2] < 0) << 2 | (m[3] < 0) << 3;
#endif
}
/* m ? x : y in each element */
#define WV_SEL(m, x, y) (((sim_wv)(m) & (x)) | (~(sim_wv)(m) & (y)))

/* ---------------------------------------------------- shared across sim/sim*.c */
/* sim_mem.c: a global allocation of `bytes` aligned to `align` (at least 256) labelled
 * `label`, its address in *dptr; SIM_ERR_LAUNCH when out of host memory. */
sim_status sim_alloc_global(sim_t *s, size_t bytes, const char *label, uint64_t align,
                            uint64_t *dptr);

/* sim_fault.c: the part of path p after its last '/'. */
const char *sim_base_name(const char *p);
/* sim_fault.c: "generic", "global", ... for a sim_space; "?" for others. */
const char *sim_space_name(int space);
/* sim_fault.c: "load", "store" or "atomic" for an access kind 0, 1, 2. */
const char *sim_kind_name(int kind);
/* sim_fault.c: describes global address addr (size bytes) relative to the nearest
 * allocation, for fault messages, into buf (n bytes); *near gets that allocation when the
 * text names one past whose end or before whose start the access lies (near->bytes 0
 * otherwise). */
void sim_describe_global(sim_t *s, uint64_t addr, unsigned size, char *buf, size_t n,
                         sim_alloc_near *near);
/* sim_fault.c: records a finding (kept up to sim_config.max_findings, counted past
 * it); NULL when not kept. t, pc, op: the access; other_*: the earlier one, -1 none. */
sim_finding *sim_add_finding(sim_ctx *c, sim_finding_kind kind, int is_error, sim_space sp,
                             uint64_t addr, unsigned size, sim_hazard hz, unsigned t, int32_t pc,
                             int op, int other_t, int32_t other_pc, int other_op);
/* sim_fault.c: "thread (x,y,z) of block (x,y,z)" for thread t, into buf (n bytes). */
void sim_who(const sim_ctx *c, unsigned t, char *buf, size_t n);
/* sim_fault.c: the verb of access kind op (0 read, 1 write, 2 atomic), past or present. */
const char *sim_op_verb(int op, int past);

/* sim_race.c: reports a racecheck hazard hz between thread t's access (op at in, shared
 * bytes [addr, addr+size)) and thread ot's earlier one (oop at PC opc). */
__attribute__((cold, noinline)) void sim_report_race(sim_ctx *c, unsigned t, const ptx_insn *in,
                                                     int op, uint64_t addr, unsigned size,
                                                     sim_hazard hz, unsigned ot, int32_t opc,
                                                     int oop);
/* sim_race.c: racecheck of thread t's access (op 0 load, 1 store, 2 atomic) to shared
 * bytes [a, a+size). */
void sim_race_check(sim_ctx *c, unsigned t, uint64_t a, unsigned size, int op, const ptx_insn *in);
/* Racecheck's ordering by release and acquire in shared memory (PTX ISA §8.8 "Release and
 * acquire patterns"), as libcu++'s cuda::barrier and cuda::pipeline use it where there
 * is no mbarrier (sm_70-sm_75: atom.add.acq_rel arrivals, ld.acquire polls).
 * sim_race_released: thread t's release write (st/atom/red .release, .acq_rel, .sc) to
 * shared byte offset a (an 8-byte object at most). sim_race_acquired: an atomic or
 * strong load of thread t of [a, a+size) that reads a release of another thread in the
 * current interval starts a new one (sim_race_interval). Coarser than the memory model,
 * as an mbarrier's phase is (exec_async.c): the threads that did not take part are
 * ordered too, so races between them go unreported; never a false report. */
void sim_race_released(sim_ctx *c, unsigned t, uint64_t a);
void sim_race_acquired(sim_ctx *c, unsigned t, uint64_t a, unsigned size);
/* A new racecheck interval for the CTA: every access so far is ordered before every later
 * one (a barrier's release, an mbarrier phase's completion). */
void sim_race_interval(sim_ctx *c);
/* sim_race.c: marks shared bytes [a, a+size) as the destination of thread tid's
 * cp.async at pc that has not completed (on = 1: racecheck reports any access to them,
 * SIM_EPOCH_ASYNC), or clears the mark when it lands (on = 0). */
void sim_race_async_mark(sim_ctx *c, uint64_t a, unsigned size, unsigned tid, int32_t pc, int on);
/* sim_race.c: reports thread t's access (op) to [a, a+size) before the cp.async at cpc
 * of thread ct that writes it completed. */
__attribute__((cold, noinline)) void sim_report_async_race(sim_ctx *c, unsigned t,
                                                           const ptx_insn *in, int op, uint64_t a,
                                                           unsigned size, unsigned ct, int32_t cpc);
/* sim_race.c: racecheck of an access by thread rt of another CTA of the cluster
 * (SIM_CLUSTER_TID naming, its warp's __syncwarp count ws) to bytes [a, a+size) of the
 * shared memory of tc's block, in tc's shadows and barrier interval. */
void sim_race_check_remote(sim_ctx *tc, unsigned rt, uint16_t ws, uint64_t a, unsigned size, int op,
                           const ptx_insn *in);
/* sim_race.c: frees allocation al's global race shadow, if any. */
void sim_gsh_free(sim_alloc *al);
/* Frees allocation a's data (malloc'd, or mapped by sim_malloc_mapped), its initcheck
 * bits and its race detector's shadow; the entry itself stays (the caller removes it). */
void sim_alloc_release(sim_alloc *a);
/* sim_race.c: allocation al's global race shadow, made on first use; NULL when al is
 * too large to check or memory is short. */
sim_gword *sim_grace_shadow(sim_ctx *c, sim_alloc *al);
/* sim_race.c: the full global race check of thread t's access at shadow sh. */
__attribute__((noinline)) void sim_grace_check_sh(sim_ctx *c, sim_gword *sh, unsigned t,
                                                  sim_alloc *al, uint64_t a, unsigned size, int op,
                                                  const ptx_insn *in);

/* n zero bytes, from 2 MiB on in pages of their own (mmap; huge pages where the system
 * allows them). hot: every page mapped writable now (MADV_POPULATE_WRITE, Linux 5.14;
 * else by writing it), for memory that worker threads (sim_par.c) read before they write:
 * a page first read maps the shared zero page, and its first write then replaces it and
 * flushes that page from the TLBs of every core the process runs on (an interprocessor
 * interrupt per page). Otherwise pages are mapped on first touch. NULL on no memory;
 * free with sim_zunmap(p, n). */
void *sim_zmap(size_t n, int hot);
void sim_zunmap(void *p, size_t n);

/* sim_initcheck.c: whether the n bits from bit o of bitmap b are all set. */
int sim_bits_all_set(const unsigned char *b, uint64_t o, uint64_t n);
/* sim_initcheck.c: reports thread t's load of unwritten bytes [addr, addr+size) of
 * space sp (what: the memory's name). */
__attribute__((cold, noinline)) void sim_report_uninit(sim_ctx *c, unsigned t, const ptx_insn *in,
                                                       sim_space sp, uint64_t addr, unsigned size,
                                                       const char *what);
/* sim_initcheck.c: initcheck of thread t's access (kind 0 load, else a write that marks
 * the bytes) to [a, a+size) of global allocation al. */
void sim_global_init_check(sim_ctx *c, unsigned t, sim_alloc *al, uint64_t a, unsigned size,
                           int kind, const ptx_insn *in);

/* sim_trace.c: emits what the last issued instruction left pending (memory request,
 * printf output, registers written). */
void sim_trace_flush(sim_ctx *c);
/* sim_trace.c: a block event of `kind` (TRACE_EV_BLOCK_*) for the current block. */
void sim_trace_block(sim_ctx *c, int kind);
/* sim_trace.c: starts the launch of `kernel` in c->trace; -1 when out of memory. */
int sim_trace_setup(sim_ctx *c, const char *kernel);

/* sim_barrier.c: when no warp of the block can issue, releases the barrier every
 * waiting thread waits at, or faults the block as deadlocked (-1); 1 when threads
 * were released, 0 when none waits. */
int sim_resolve_barrier(sim_ctx *c);

#define SIM_DEFAULT_MAX_FINDINGS 100

/* A byte shadow's w_epoch while a cp.async that writes the byte has not completed
 * (sim_race_async_mark): any access to it is an error, whatever the barriers between. */
#define SIM_EPOCH_ASYNC UINT32_MAX

/* Racecheck shadow of one shared-memory byte (like compute-sanitizer racecheck): the
 * last writer and the readers since, in the current barrier interval (epoch). Entries
 * of an older epoch are empty, so a barrier costs one increment. Readers: the first
 * (r), one in another warp than the first (rx), one other in the first's warp (ro);
 * 0xffff = none. wsync: the warp's __syncwarp count at the access, so lanes of one
 * warp ordered by __syncwarp are not a hazard. */
struct sim_shadow {
    uint32_t w_epoch, r_epoch;
    int32_t w_pc, r_pc, rx_pc, ro_pc;
    uint16_t w_tid, r_tid, rx_tid, ro_tid;
    uint16_t w_wsync, r_wsync, ro_wsync;
};

/* The word shadows of racecheck (sim_ctx.wshadow, see sim_race_check): struct sim_shadow's
 * fields, all 32-bit (the tid and wsync fields hold their 16-bit values, the pc fields
 * their int32_t ones), in blocks of four words: field f of word k is
 * mem[(k / 4) * 4 * SIM_WSH_FIELDS + f * 4 + k % 4] (WSH). One word's fields are at
 * fixed offsets from one pointer (race_word), and four consecutive words' values of a
 * field are one vector (shared_range checks and updates a warp's 32 words with vector
 * operations). */
struct sim_wshadow {
    uint32_t *mem;
};
enum {
    WSF_w_epoch,
    WSF_r_epoch,
    WSF_w_pc,
    WSF_r_pc,
    WSF_rx_pc,
    WSF_ro_pc,
    WSF_w_tid,
    WSF_r_tid,
    WSF_rx_tid,
    WSF_ro_tid,
    WSF_w_wsync,
    WSF_r_wsync,
    WSF_ro_wsync,
    SIM_WSH_FIELDS
};
/* Pointer to field f of word k in the blocks M (for k % 4 == 0, to the four words from k). */
#define WSH(M, f, k) ((M) + ((k) >> 2) * (4 * SIM_WSH_FIELDS) + WSF_##f * 4 + ((k)&3))

static inline struct sim_wshadow *wshadow_new(size_t n)
{
    struct sim_wshadow *S = calloc(1, sizeof *S);
    uint32_t *mem = S ? calloc((n / 4 + 1) * 4 * SIM_WSH_FIELDS, sizeof *mem) : NULL;
    if (!mem) {
        free(S);
        return NULL;
    }
    S->mem = mem;
    return S;
}

static inline void wshadow_free(struct sim_wshadow *S)
{
    if (S)
        free(S->mem);
    free(S);
}

/* Word k's shadow as a struct sim_shadow (wshadow_get) and back (wshadow_set). */
static inline void wshadow_get(const struct sim_wshadow *S, uint64_t k, struct sim_shadow *o)
{
    o->w_epoch = *WSH(S->mem, w_epoch, k);
    o->r_epoch = *WSH(S->mem, r_epoch, k);
    o->w_pc = *WSH(S->mem, w_pc, k);
    o->r_pc = *WSH(S->mem, r_pc, k);
    o->rx_pc = *WSH(S->mem, rx_pc, k);
    o->ro_pc = *WSH(S->mem, ro_pc, k);
    o->w_tid = (uint16_t)*WSH(S->mem, w_tid, k);
    o->r_tid = (uint16_t)*WSH(S->mem, r_tid, k);
    o->rx_tid = (uint16_t)*WSH(S->mem, rx_tid, k);
    o->ro_tid = (uint16_t)*WSH(S->mem, ro_tid, k);
    o->w_wsync = (uint16_t)*WSH(S->mem, w_wsync, k);
    o->r_wsync = (uint16_t)*WSH(S->mem, r_wsync, k);
    o->ro_wsync = (uint16_t)*WSH(S->mem, ro_wsync, k);
}

static inline void wshadow_set(struct sim_wshadow *S, uint64_t k, const struct sim_shadow *i)
{
    *WSH(S->mem, w_epoch, k) = i->w_epoch;
    *WSH(S->mem, r_epoch, k) = i->r_epoch;
    *WSH(S->mem, w_pc, k) = i->w_pc;
    *WSH(S->mem, r_pc, k) = i->r_pc;
    *WSH(S->mem, rx_pc, k) = i->rx_pc;
    *WSH(S->mem, ro_pc, k) = i->ro_pc;
    *WSH(S->mem, w_tid, k) = i->w_tid;
    *WSH(S->mem, r_tid, k) = i->r_tid;
    *WSH(S->mem, rx_tid, k) = i->rx_tid;
    *WSH(S->mem, ro_tid, k) = i->ro_tid;
    *WSH(S->mem, w_wsync, k) = i->w_wsync;
    *WSH(S->mem, r_wsync, k) = i->r_wsync;
    *WSH(S->mem, ro_wsync, k) = i->ro_wsync;
}

/* Checks and records, in one shadow sh (a shared byte, or a whole word whose shadows
 * agree), an access of thread t of warp w (its __syncwarp count ws, at pc = in; E the
 * current epoch) to shared bytes [a, a+size). op: 0 load, 1 store, 2 atomic, 3 strong
 * load, 4 strong store (PTX ISA §8.5: strong operations, atomics and the .relaxed,
 * .acquire, .release forms, do not race with each other: they are checked against plain
 * accesses of other threads, a strong load against plain stores only, and are not
 * recorded). Reports only when !reported (one report per access); returns whether
 * the access has been reported. */
/* The body of race_one and race_word, SH_(field) naming the shadow's field. */
#define RACE_ONE_BODY                                                                              \
    if (!reported) {                                                                               \
        int ot = -1; /* the earlier access this one conflicts with */                              \
        int32_t opc = 0;                                                                           \
        int oop = 0;                                                                               \
        sim_hazard hz = SIM_HAZ_NONE;                                                              \
        if (SH_(w_epoch) == SIM_EPOCH_ASYNC) {                                                     \
            sim_report_async_race(c, t, in, op, a, size, SH_(w_tid), SH_(w_pc));                   \
            reported = 1;                                                                          \
        } else if (SH_(w_epoch) == E && SH_(w_tid) != t &&                                         \
                   !(SH_(w_tid) / 32u == w && SH_(w_wsync) != ws)) {                               \
            ot = SH_(w_tid);                                                                       \
            opc = SH_(w_pc);                                                                       \
            oop = 1;                                                                               \
            hz = op == 0 || op == 3 ? SIM_HAZ_RAW : SIM_HAZ_WAW;                                   \
        } else if ((op == 1 || op == 2 || op == 4) && SH_(r_epoch) == E) {                         \
            /* a reader in another warp first (an error), then one in this warp */                 \
            if (SH_(r_tid) / 32u != w) {                                                           \
                ot = SH_(r_tid);                                                                   \
                opc = SH_(r_pc);                                                                   \
            } else if (SH_(rx_tid) != 0xffff) {                                                    \
                ot = SH_(rx_tid);                                                                  \
                opc = SH_(rx_pc);                                                                  \
            } else if (SH_(r_tid) != t && SH_(r_wsync) == ws) {                                    \
                ot = SH_(r_tid);                                                                   \
                opc = SH_(r_pc);                                                                   \
            } else if (SH_(ro_tid) != 0xffff && SH_(ro_tid) != t && SH_(ro_wsync) == ws) {         \
                ot = SH_(ro_tid);                                                                  \
                opc = SH_(ro_pc);                                                                  \
            }                                                                                      \
            hz = SIM_HAZ_WAR;                                                                      \
        }                                                                                          \
        if (ot >= 0) {                                                                             \
            sim_report_race(c, t, in, op, a, size, hz, (unsigned)ot, opc, oop);                    \
            reported = 1;                                                                          \
        }                                                                                          \
    }                                                                                              \
    if (op == 1) {                                                                                 \
        SH_(w_epoch) = E;                                                                          \
        SH_(w_tid) = (uint16_t)t;                                                                  \
        SH_(w_pc) = pc;                                                                            \
        SH_(w_wsync) = ws;                                                                         \
        SH_(r_epoch) = 0;                                                                          \
    } else if (op == 0) {                                                                          \
        if (SH_(r_epoch) != E) {                                                                   \
            SH_(r_epoch) = E;                                                                      \
            SH_(r_tid) = (uint16_t)t;                                                              \
            SH_(r_pc) = pc;                                                                        \
            SH_(r_wsync) = ws;                                                                     \
            SH_(rx_tid) = SH_(ro_tid) = 0xffff;                                                    \
        } else if (SH_(r_tid) == t) {                                                              \
            SH_(r_pc) = pc;                                                                        \
            SH_(r_wsync) = ws;                                                                     \
        } else if (SH_(r_tid) / 32u != w) {                                                        \
            SH_(rx_tid) = (uint16_t)t;                                                             \
            SH_(rx_pc) = pc;                                                                       \
        } else {                                                                                   \
            SH_(ro_tid) = (uint16_t)t;                                                             \
            SH_(ro_pc) = pc;                                                                       \
            SH_(ro_wsync) = ws;                                                                    \
        }                                                                                          \
    }                                                                                              \
    return reported;

static inline __attribute__((always_inline)) int
race_one(sim_ctx *c, struct sim_shadow *sh, unsigned t, unsigned w, uint16_t ws, uint32_t E,
         int32_t pc, int op, const ptx_insn *in, uint64_t a, unsigned size, int reported)
{
#define SH_(f) sh->f
    RACE_ONE_BODY
#undef SH_
}

/* race_one on word k's shadow in the word shadows' blocks M (sim_wshadow.mem). */
static inline __attribute__((always_inline)) int
race_word(sim_ctx *c, uint32_t *M, uint64_t k, unsigned t, unsigned w, uint16_t ws, uint32_t E,
          int32_t pc, int op, const ptx_insn *in, uint64_t a, unsigned size, int reported)
{
    uint32_t *const P_ = WSH(M, w_epoch, k);
#define SH_(f) P_[WSF_##f * 4]
    RACE_ONE_BODY
#undef SH_
}

/* ------------------------------------------------------- global-memory races */

/* A record's block field: the launch's tag (sim_grace.tag) in bits 23..31, the linear
 * block + 1 in bits 0..22; a record of another launch, or 0, is empty. */
#define GRACE_KEY(c) (((c)->grace->tag << 23) | ((c)->block_linear + 1))
static inline int grace_live(const sim_ctx *c, uint32_t b)
{
    return b != 0 && b >> 23 == c->grace->tag;
}

/* sim_grace_check_sh for the lanes whose accesses need it, after the common case inline: a
 * plain load or store of one aligned word (or two) whose word holds no live store of
 * another warp (for a store, no live read of another warp either), which records it
 * without a look at ordering. lanes: n accesses of `size` bytes, lane l's at a[l] (or
 * a0 + l * size when a is NULL) by thread base + l, where lanes says. */
static inline __attribute__((always_inline)) void
grace_lanes(sim_ctx *c, sim_alloc *al, unsigned base, uint32_t lanes, const uint64_t *addr,
            uint64_t a0, unsigned size, int op, const ptx_insn *in)
{
    /* gsh_launch publishes gsh to the worker threads of a launch (sim_grace_shadow) */
    sim_gword *const sh = __atomic_load_n(&al->gsh_launch, __ATOMIC_ACQUIRE) == c->s->launches
                              ? al->gsh
                              : sim_grace_shadow(c, al);
    if (!sh)
        return;
    const int plain = op != 2 && !(in->flags & PTX_F_VOLATILE) && (size == 4 || size == 8);
    const uint32_t key = GRACE_KEY(c), tag = c->grace->tag;
    const unsigned warp = base / 32;
    sim_gacc y = {.block = key,
                  .pc = (int32_t)(in - c->code),
                  .epoch = (uint16_t)c->epoch,
                  .rel = c->grace->rel_count[c->block_linear],
                  .bits = (uint8_t)(0xf | op << 4)};
    for (uint32_t m = lanes; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        const uint64_t a = addr ? addr[l] : a0 + (uint64_t)l * size;
        const uint64_t off = a - al->base;
        if (plain && (off & (size - 1)) == 0) {
            sim_gword *g = &sh[off >> 2];
            const unsigned nw = size / 4;
            int fast = 1;
            for (unsigned i = 0; i < nw && fast; i++) {
                const uint32_t wb = g[i].w.block, rb = g[i].r.block;
                const int w_quiet = wb >> 23 != tag || wb == 0 ||
                                    (wb == key && g[i].w.tid / 32u == warp) ||
                                    (op == 0 && ((g[i].w.bits >> 4) & 3) == 2);
                const int r_quiet = rb >> 23 != tag || rb == 0 || rb == key;
                fast = w_quiet && (op == 0 || (r_quiet && (rb != key || g[i].r.tid / 32u == warp)));
            }
            if (fast) {
                y.tid = (uint16_t)(base + l);
                for (unsigned i = 0; i < nw; i++) {
                    if (op == 0) {
                        /* a read of another block stays (sim_grace_check_sh would replace
                         * it only if it is ordered before this one) */
                        const uint32_t rb = g[i].r.block;
                        if (rb >> 23 != tag || rb == 0 || rb == key)
                            g[i].r = y;
                    } else {
                        g[i].w = y;
                        g[i].r.block = 0;
                    }
                }
                continue;
            }
        }
        sim_grace_check_sh(c, sh, base + l, al, a, size, op, in);
    }
}

/* Whether each of the n words from g passes grace_lanes' common-case test for a plain
 * load (op 0) or store (op 1) by warp `warp` of the block whose records say key: a word
 * with no live record (a load: no store; a store: no store or read) passes at once, any
 * other takes grace_lanes' own test, and the first that fails ends the pass (a request
 * that needs sim_grace_check_sh, an in-place update across warps, costs one word more). */
static inline __attribute__((always_inline)) int
grace_words_quiet(const sim_gword *g, unsigned n, uint32_t key, uint32_t tag, unsigned warp, int op)
{
    for (unsigned i = 0; i < n; i++) {
        const uint32_t wb = g[i].w.block, rb = g[i].r.block;
        const unsigned live =
            ((wb >> 23 == tag) & (wb != 0)) | (op == 1 && ((rb >> 23 == tag) & (rb != 0)));
        if (!live)
            continue;
        const unsigned w_quiet = (wb >> 23 != tag) | (wb == 0) |
                                 ((wb == key) & (g[i].w.tid / 32u == warp)) |
                                 (op == 0 && ((g[i].w.bits >> 4) & 3) == 2);
        const unsigned r_quiet = (rb >> 23 != tag) | (rb == 0) | (rb == key);
        if (!(w_quiet & (op == 0 || (r_quiet & ((rb != key) | (g[i].r.tid / 32u == warp))))))
            return 0;
    }
    return 1;
}

/* grace_lanes' common-case records of the n words from g (`per` words a lane, word i by
 * thread t0 + i / per), y the record but for its thread. */
static inline __attribute__((always_inline)) void grace_words_record(sim_gword *g, unsigned n,
                                                                     unsigned per, uint32_t key,
                                                                     uint32_t tag, sim_gacc y,
                                                                     unsigned t0, int op)
{
    for (unsigned i = 0; i < n; i++) {
        y.tid = (uint16_t)(t0 + i / per);
        if (op == 0) {
            const uint32_t rb = g[i].r.block;
            if (rb >> 23 != tag || rb == 0 || rb == key)
                g[i].r = y;
        } else {
            g[i].w = y;
            g[i].r.block = 0;
        }
    }
}

/* grace_rows' test and records for n words a half-warp (n constant in each caller's
 * form). Returns 0, nothing recorded, when a word needs sim_grace_check_sh. */
static inline __attribute__((always_inline)) int grace_halves_words(sim_gword *g0, sim_gword *g16,
                                                                    unsigned n, uint32_t key,
                                                                    uint32_t tag, unsigned base,
                                                                    sim_gacc y, int op)
{
    if (!grace_words_quiet(g0, n, key, tag, base / 32, op) ||
        !grace_words_quiet(g16, n, key, tag, base / 32, op))
        return 0;
    grace_words_record(g0, n, n / 16, key, tag, y, base, op);
    grace_words_record(g16, n, n / 16, key, tag, y, base + 16, op);
    return 1;
}

/* grace_lanes for a full warp's request of two unit-stride half-warp rows (lane l's
 * access at a0 + l * size for l < 16, at a16 + (l - 16) * size for the others; a16 =
 * a0 + 16 size: one unit-stride row) whose words are distinct: the common case tested
 * over all the request's words, then their records, which is what grace_lanes' lane by
 * lane loop does since no word is two lanes'; anything else (a word that needs
 * sim_grace_check_sh, rows that overlap) through grace_lanes, with the lanes' addresses
 * addr (or NULL for one row). */
static inline __attribute__((always_inline)) void
grace_rows(sim_ctx *c, sim_alloc *al, unsigned base, uint64_t a0, uint64_t a16,
           const uint64_t *addr, unsigned size, int op, const ptx_insn *in)
{
    sim_gword *const sh = __atomic_load_n(&al->gsh_launch, __ATOMIC_ACQUIRE) == c->s->launches
                              ? al->gsh
                              : sim_grace_shadow(c, al);
    if (!sh)
        return;
    const uint64_t o0 = a0 - al->base, o16 = a16 - al->base, half = 16 * (uint64_t)size;
    if ((op == 0 || op == 1) && !(in->flags & PTX_F_VOLATILE) && (size == 4 || size == 8) &&
        ((o0 | o16) & (size - 1)) == 0 && (o0 + half <= o16 || o16 + half <= o0)) {
        const sim_gacc y = {.block = GRACE_KEY(c),
                            .pc = (int32_t)(in - c->code),
                            .epoch = (uint16_t)c->epoch,
                            .rel = c->grace->rel_count[c->block_linear],
                            .bits = (uint8_t)(0xf | op << 4)};
        sim_gword *const g0 = &sh[o0 >> 2], *const g16 = &sh[o16 >> 2];
        const uint32_t key = y.block, tag = c->grace->tag;
        /* the word count constant in each form: the loops unrolled */
        if (size == 4 ? (op == 0 ? grace_halves_words(g0, g16, 16, key, tag, base, y, 0)
                                 : grace_halves_words(g0, g16, 16, key, tag, base, y, 1))
                      : (op == 0 ? grace_halves_words(g0, g16, 32, key, tag, base, y, 0)
                                 : grace_halves_words(g0, g16, 32, key, tag, base, y, 1)))
            return;
    }
    grace_lanes(c, al, base, UINT32_MAX, addr, a0, size, op, in);
}

/* grace_lanes for one thread's access. */
static inline void grace_check(sim_ctx *c, unsigned t, sim_alloc *al, uint64_t a, unsigned size,
                               int op, const ptx_insn *in)
{
    grace_lanes(c, al, t & ~31u, 1u << (t & 31), NULL, a - (uint64_t)(t & 31) * size, size, op, in);
}

/* ------------------------------------------------------------------ tracing */

/* ld, ldu, st, atom, red: the ops of a memory request (their trace classes, ptx_ops.def) */
static inline int is_mem_op(int op)
{
    const int k = op < PTX_OP_COUNT ? ptx_op_table[op].cls : TRACE_CLASS_OTHER;
    return k == TRACE_CLASS_LOAD || k == TRACE_CLASS_STORE || k == TRACE_CLASS_ATOMIC;
}

/* Makes instruction in (warp w) the pending memory request, with no lanes yet, unless it
 * already is. */
static inline void mreq_begin(sim_ctx *c, unsigned w, int sp, unsigned size, int kind,
                              const ptx_insn *in)
{
    if (c->mreq_in == in)
        return;
    c->mreq_in = in;
    c->mreq_warp = w;
    c->mreq_mask = 0;
    memset(c->mreq_addr, 0, sizeof c->mreq_addr);
    c->mreq_space = (uint8_t)sp;
    c->mreq_op = (uint8_t)kind;
    c->mreq_width = (uint8_t)(size > 255 ? 255 : size);
}

/* Adds lane t's address to the pending memory request of instruction in. */
static inline void mreq_add(sim_ctx *c, unsigned t, int sp, uint64_t a, unsigned size, int kind,
                            const ptx_insn *in)
{
    if (sp == SIM_SPACE_PARAM || !is_mem_op(in->op))
        return;
    mreq_begin(c, t / 32, sp, size, kind, in);
    c->mreq_mask |= 1u << (t % 32);
    c->mreq_addr[t % 32] = a;
}

/* mreq_add for the lanes em of the warp whose first thread is base, in lane order (what
 * per-lane sim_mem calls do): lane l's address addr[l] - off. */
static inline void mreq_warp(sim_ctx *c, unsigned base, uint32_t em, int sp, const uint64_t *addr,
                             uint64_t off, unsigned size, int kind, const ptx_insn *in)
{
    if (!em || sp == SIM_SPACE_PARAM || !is_mem_op(in->op))
        return;
    mreq_begin(c, base / 32, sp, size, kind, in);
    c->mreq_mask |= em;
    for (uint32_t m = em; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        c->mreq_addr[l] = addr[l] - off;
    }
}

/* mreq_warp for a full warp's unit-stride request: lane l's address is a + l * size. */
static inline void mreq_row(sim_ctx *c, unsigned base, int sp, uint64_t a, unsigned size, int kind,
                            const ptx_insn *in)
{
    if (!is_mem_op(in->op))
        return;
    mreq_begin(c, base / 32, sp, size, kind, in);
    c->mreq_mask = UINT32_MAX;
    for (unsigned l = 0; l < 32; l++)
        c->mreq_addr[l] = a + (uint64_t)l * size;
}

#endif
