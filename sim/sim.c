/* sim.c — the simulator instance (sim_new, sim_free, the device model) and launches:
 * sim_launch sets up the blocks' contexts and schedules them.
 *
 * Blocks run concurrently, as on a GPU: a wave of resident blocks (the modelled SMs
 * times what one SM holds, sim_blocks_per_sm; at most SIM_DETERMINISTIC_PER_SM per SM in
 * the deterministic schedule) takes turns, one round each in slot order, and a block
 * that finishes hands its slot to the next block in linear order (x fastest). Several
 * resident blocks share each modelled SM, each warp in a warp slot of its SM (sim_place:
 * %smid, %warpid). Within a round, warps are issued in index order, one warp
 * instruction each (sim_warp_step in exec_issue.c). Barriers are sim_barrier.c's.
 *
 * sim_config.schedule_random: 2 to that many resident blocks, in a seeded random order,
 * taking 1..4 rounds per turn in a random order of slots; in each round the block's
 * warps in a random order, each issuing a random burst of 1..8 instructions; and the
 * lanes of a diverged warp in a random order (exec_issue.c random_group); the blocks
 * per SM, the SM ids and the warp slots at random too.
 *
 * The checkers (findings in sim_result) run on every access in sim_mem.c: memcheck
 * there, initcheck in sim_initcheck.c, racecheck and the global-memory race detector in
 * sim_race.c, synccheck in sim_barrier.c; faults and findings are recorded by
 * sim_fault.c, the trace by sim_trace.c.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/exec_async.h"
#include "sim/ptx/ptx_dwarf.h"
#include "sim/jit.h"
#include "sim/sim_mem.h"

/* Fills n bytes at p with the poison of `seed` (a mixed seed xor a Weyl sequence): what
 * uninitialised shared memory, local memory and registers hold. Never all zeros, as
 * they are not on a GPU: a kernel that reads them before writing gets garbage. */
static void sim_poison(void *p, size_t n, uint64_t seed)
{
    /* word i = a mixed seed xor (i + 1) times an odd constant (a Weyl sequence): a
     * different value in every word, block and seed, for an add per 8 bytes (registers
     * and shared memory are filled for every block, in the interpreter's way) */
    uint64_t z = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    unsigned char *b = p;
    size_t words = n / 8;
    uint64_t w = 0;
    for (size_t i = 0; i < words; i++) {
        w += 0x9e3779b97f4a7c15ull; /* an add per word: vectorised */
        uint64_t v = z ^ w;
        memcpy(b + 8 * i, &v, 8);
    }
    if (n % 8) {
        uint64_t v = z ^ (w + 0x9e3779b97f4a7c15ull);
        memcpy(b + 8 * words, &v, n % 8);
    }
}

double sim_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The deterministic schedule interleaves at most this many blocks per modelled SM (8
 * blocks over SIM_RESIDENT_SMS SMs): enough for blocks to overlap and share an SM as on
 * a GPU, and few enough contexts that their registers stay in the host's caches (make
 * bench: 16 interleaved blocks cost scan and sgemm 15-30 %). Random schedules go up to
 * what the occupancy model allows. */
#define SIM_DETERMINISTIC_PER_SM 2u
/* SMs whose resident blocks the simulator interleaves (random schedules too): a wave
 * over all 132 of an H100 would be thousands of block contexts. */
#define SIM_RESIDENT_SMS 4u
/* Warp slots an SM has at most in the placement's masks (sim_place): every profile's
 * max_warps_per_sm is 64 or fewer. */
#define SIM_MAX_WARP_SLOTS 64u

/* Blocks of `threads` threads (rounded up to whole warps) and `shared_bytes` of shared
 * memory each that one SM of the modelled device holds at once: what its thread, block
 * and shared-memory limits allow (at least one). The resident blocks of a launch are
 * SIM_RESIDENT_SMS SMs' worth of these (sim_launch), as a GPU runs a wave of resident
 * blocks at once. */
size_t sim_shared_taken(size_t bytes, size_t reserved, int unit)
{
    const size_t u = unit > 0 ? (size_t)unit : 1;
    return (bytes + reserved + u - 1) / u * u;
}

static unsigned sim_blocks_per_sm(const sim_device_model *d, unsigned threads, size_t shared_bytes)
{
    const unsigned warps = (threads + 31) / 32;
    unsigned per_sm = (unsigned)d->max_blocks_per_sm;
    if (warps && (unsigned)d->max_threads_per_sm / (warps * 32) < per_sm)
        per_sm = (unsigned)d->max_threads_per_sm / (warps * 32);
    const size_t taken =
        sim_shared_taken(shared_bytes, d->shared_reserved_per_block, d->shared_alloc_unit);
    if (taken && d->shared_bytes_per_sm / taken < per_sm)
        per_sm = (unsigned)(d->shared_bytes_per_sm / taken);
    return per_sm ? per_sm : 1;
}

sim_t *sim_new(const sim_config *cfg)
{
    sim_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (cfg)
        s->cfg = *cfg;
    s->next = SIM_GLOBAL_BASE;
    return s;
}

void sim_free(sim_t *s)
{
    if (!s)
        return;
    sim_jit_free(s);
    for (int i = 0; i < s->nallocs; i++)
        sim_alloc_release(&s->allocs[i]);
    free(s->allocs);
    for (int i = 0; i < s->nmods; i++)
        free(s->mods[i].addr);
    free(s->mods);
    free(s->fast);
    free(s);
}

void sim_result_free(sim_result *r)
{
    if (!r)
        return;
    free(r->printf_out);
    r->printf_out = NULL;
    r->printf_len = 0;
    free(r->findings);
    r->findings = NULL;
    r->nfindings = 0;
}

/* ------------------------------------------------------------------ launch */

/* n bytes for messages: "16 GiB", "1.5 MiB", "300 bytes". */
static void fmt_bytes(char *buf, size_t len, uint64_t n)
{
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB"};
    if (n < 1024) {
        snprintf(buf, len, "%llu bytes", (unsigned long long)n);
        return;
    }
    int u = 0;
    double v = (double)n / 1024;
    while (v >= 1024 && u < 3)
        v /= 1024, u++;
    snprintf(buf, len, v == (double)(uint64_t)v ? "%.0f %s" : "%.1f %s", v, unit[u]);
}

/* Instantiates the module's .global/.const variables in s (once per module: a module
 * seen before gets its variables back, with the values they hold). A variable past the
 * memory budget (sim_config.memory_limit) is SIM_ERR_LAUNCH with *why naming it and the
 * sizes. */
static sim_status load_module_vars(sim_t *s, const ptx_module *m, sim_result *res)
{
    if (s->mod_id == m->id)
        return SIM_OK;
    for (int i = 0; i < s->nmods; i++)
        if (s->mods[i].id == m->id) {
            s->var_addr = s->mods[i].addr;
            s->nvars = m->nvars;
            s->mod_id = m->id;
            return SIM_OK;
        }
    struct sim_modvars *mods = realloc(s->mods, ((size_t)s->nmods + 1) * sizeof *mods);
    if (!mods)
        return SIM_ERR_NOMEM;
    s->mods = mods;
    uint64_t *va = calloc((size_t)m->nvars + 1, sizeof *va);
    if (!va)
        return SIM_ERR_NOMEM;
    for (int i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        const uint64_t held = s->mem_used;
        sim_status st = sim_alloc_global(s, v->size, v->name, v->align, &va[i]);
        if (st != SIM_OK && s->cfg.memory_limit && v->size > s->cfg.memory_limit - held) {
            char want[32], have[32], lim[32];
            fmt_bytes(want, sizeof want, v->size);
            fmt_bytes(have, sizeof have, held);
            fmt_bytes(lim, sizeof lim, s->cfg.memory_limit);
            snprintf(res->fault.message, sizeof res->fault.message,
                     "the kernel asks for %s of device memory for its variable '%s' (%s "
                     "allocated before it); the memory limit is %s",
                     want, v->name, have, lim);
            st = SIM_ERR_LAUNCH;
        }
        if (st != SIM_OK) {
            free(va);
            return st;
        }
        if (v->init)
            sim_memcpy_htod(s, va[i], v->init, v->size);
        sim_set_written(s, va[i], v->size, 1); /* module variables start as zeros */
    }
    s->mods[s->nmods].id = m->id;
    s->mods[s->nmods++].addr = va;
    s->var_addr = va;
    s->nvars = m->nvars;
    s->mod_id = m->id;
    return SIM_OK;
}

sim_status sim_var_address(sim_t *s, const ptx_module_t *m, const char *name, uint64_t *dptr,
                           size_t *bytes)
{
    sim_result res;
    memset(&res, 0, sizeof res);
    sim_status st = load_module_vars(s, m, &res);
    if (st != SIM_OK)
        return st;
    for (int i = 0; i < m->nvars; i++)
        if (strcmp(m->vars[i].name, name) == 0) {
            *dptr = s->var_addr[i];
            *bytes = m->vars[i].size;
            return SIM_OK;
        }
    return SIM_ERR_NOT_FOUND;
}

/* Whether module m reads a %reserved_smem_offset_* register (PTX ISA §10): its
 * blocks then get the driver's reserved shared memory (sim_ctx.reserved_off). */
static int reads_reserved_smem(const ptx_module *m)
{
    for (int pc = 0; pc < m->ncode; pc++)
        for (int k = 0; k < m->code[pc].nopnd && k < 4; k++)
            if (m->code[pc].o[k].kind == PTX_OPK_SREG &&
                m->code[pc].o[k].sub >= PTX_SREG_RESERVED_SMEM_BEGIN &&
                m->code[pc].o[k].sub <= PTX_SREG_RESERVED_SMEM_1)
                return 1;
    return 0;
}

/* The executor's fast-path kinds of m's instructions (sim_fast_kinds), decoded the first
 * time s launches m and kept while s launches nothing else; NULL without memory. */
static const uint8_t *module_fast(sim_t *s, const ptx_module *m)
{
    if (s->fast_mod_id == m->id && s->fast)
        return s->fast;
    uint8_t *k = sim_fast_kinds(m);
    if (!k)
        return NULL;
    free(s->fast);
    s->fast = k;
    s->fast_mod_id = m->id;
    return k;
}

/* Frees what ctx_alloc_block allocated for context c. */
static void ctx_free_block(sim_ctx *c)
{
    free(c->pc);
    free(c->state);
    free(c->depth);
    free(c->rbase);
    free(c->pbase);
    free(c->lbase);
    free(c->ldyn);
    free(c->bar_pc);
    free(c->frames);
    free(c->regs);
    free(c->params);
    free(c->local);
    free(c->loop_pc);
    free(c->shared);
    free(c->wsync);
    free(c->shadow);
    sim_async_free(c);
    wshadow_free(c->wshadow);
    free(c->shadow_same);
    free(c->shared_written);
}

/* n elements of `size` bytes, zeroed, on 128-byte lines of their own (the pair of 64-byte
 * lines a core's prefetcher fetches together): block contexts on worker threads write
 * their arrays on every instruction, and two contexts' arrays in one line would make the
 * workers' cores pass it back and forth. NULL on no memory; free() frees it. */
static void *ctx_calloc(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - 127) / size)
        return NULL;
    const size_t bytes = n * size > 0 ? (n * size + 127) / 128 * 128 : 128;
    void *p = aligned_alloc(128, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

/* Allocates the state of the block that context c runs (threads, warps, shared memory,
 * checker shadows), sized by the launch-wide fields already in c. 0, or -1 on no
 * memory (ctx_free_block then frees what was allocated). */
static int ctx_alloc_block(sim_ctx *c)
{
    const size_t n = c->nthreads, shared = c->shared_size;
    c->pc = ctx_calloc(n, sizeof *c->pc);
    c->state = ctx_calloc(n, 1);
    c->depth = ctx_calloc(n, 1);
    c->rbase = ctx_calloc(n, sizeof *c->rbase);
    c->pbase = ctx_calloc(n, sizeof *c->pbase);
    c->lbase = ctx_calloc(n, sizeof *c->lbase);
    c->ldyn = ctx_calloc(n, sizeof *c->ldyn);
    c->frames_used = 1;
    c->bar_pc = ctx_calloc(n, sizeof *c->bar_pc);
    c->frames = ctx_calloc(n * SIM_MAX_DEPTH, sizeof *c->frames);
    c->regs = ctx_calloc((size_t)c->nwarps * 32 * c->regcap, sizeof *c->regs);
    c->params = ctx_calloc(n, c->paramcap);
    c->local = ctx_calloc(n, c->localcap);
    c->loop_pc = ctx_calloc(c->nwarps, sizeof *c->loop_pc);
    c->shared = ctx_calloc(1, shared);
    c->wsync = ctx_calloc(c->nwarps, sizeof *c->wsync);
    c->shadow = NULL;
    c->shadow_same = NULL;
    c->wshadow = NULL;
    c->shared_written = NULL;
    if (c->checks & SIM_CHECK_RACE) {
        /* whole words, so that a word's four shadow bytes always exist */
        const size_t words = (shared + 3) / 4 + 1;
        c->shadow = ctx_calloc(words * 4, sizeof *c->shadow);
        c->shadow_same = ctx_calloc(words, 1);
        c->wshadow = wshadow_new(words);
    }
    if (c->checks & SIM_CHECK_INIT)
        c->shared_written = ctx_calloc(1, shared);
    if (!c->pc || !c->state || !c->depth || !c->rbase || !c->pbase || !c->lbase || !c->ldyn ||
        !c->bar_pc || !c->frames || !c->regs || !c->params || !c->local || !c->loop_pc ||
        !c->shared || !c->wsync ||
        ((c->checks & SIM_CHECK_RACE) && (!c->shadow || !c->shadow_same || !c->wshadow)) ||
        ((c->checks & SIM_CHECK_INIT) && !c->shared_written))
        return -1;
    return 0;
}

/* The memory budget (sim_config.memory_limit) of a launch's resident blocks: the
 * simulated memory one block holds (ctx_alloc_block: local memory, parameter space and
 * call frames per thread, registers per warp, shared memory) times *nres must fit in
 * what the global allocations leave; *nres is lowered to whole clusters of cn blocks
 * that fit. -1 with the message in res when not even one cluster fits. */
static int resident_budget(const sim_ctx *base, unsigned cn, unsigned *nres, sim_result *res)
{
    const sim_t *s = base->s;
    const uint64_t n = base->nthreads, local = n * base->localcap,
                   other = n * (base->paramcap + SIM_MAX_DEPTH * sizeof(sim_frame)) +
                           (uint64_t)base->nwarps * 32 * base->regcap * sizeof(uint64_t) +
                           base->shared_size,
                   block = local + other,
                   left = s->cfg.memory_limit > s->mem_used ? s->cfg.memory_limit - s->mem_used : 0;
    const uint64_t fit = block ? left / block : *nres;
    if (fit >= *nres)
        return 0;
    if (fit >= cn) {
        *nres = (unsigned)(fit / cn * cn);
        return 0;
    }
    char b[32], l[32], per[32], o[32], g[32], lim[32];
    fmt_bytes(b, sizeof b, block * cn);
    fmt_bytes(l, sizeof l, local * cn);
    fmt_bytes(per, sizeof per, base->localcap);
    fmt_bytes(o, sizeof o, other * cn);
    fmt_bytes(g, sizeof g, s->mem_used);
    fmt_bytes(lim, sizeof lim, s->cfg.memory_limit);
    char who[48] = "one resident block";
    if (cn > 1)
        snprintf(who, sizeof who, "a cluster of %u resident blocks", cn);
    snprintf(res->fault.message, sizeof res->fault.message,
             "the kernel asks for %s of memory for %s: local memory %s (%s per thread x %llu "
             "threads), registers, parameters and shared memory %s; with %s of device memory "
             "allocated the memory limit is %s",
             b, who, l, per, (unsigned long long)(n * cn), o, g, lim);
    return -1;
}

/* Frees the launch-wide state (launch context base) and base itself. */
static void launch_free(sim_ctx *base)
{
    if (base->grace) {
        free(base->grace->rel_time);
        free(base->grace->rel_count);
        free(base->grace->acq_time);
        free(base->grace);
    }
    free(base->kparams);
    free(base->zero_regs);
    free(base->imm_rows);
    free(base->fops);
    free(base->rlen);
    free(base->rk);
    free(base->place);
    free(base);
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static sim_status launch_error(sim_result *res, sim_status st, const char *msg)
{
    snprintf(res->fault.message, sizeof res->fault.message, "%s", msg);
    return st;
}

/* schedule_random: splitmix64 (Steele, Lea, Flood 2014); deterministic per seed. */
static uint64_t rng_next(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned rng_below(uint64_t *st, unsigned n)
{
    return (unsigned)(rng_next(st) % n);
}

/* Where a launch's resident blocks run (PTX ISA §10.4 %warpid, §10.8 %smid): the
 * modelled SMs, each with its warp slots. Resident slot k runs on SM k / per_sm: several
 * blocks share an SM, up to what the occupancy model allows. An SM's warp slots are
 * spread over its SIM_SMSPS sub-partitions (the CUDA C++ Programming Guide, "Compute
 * Capability 7.x" and later: 4 warp schedulers per SM, among which "the SM statically
 * distributes its warps"): slot k is in sub-partition k % SIM_SMSPS. A block's warp w
 * goes to sub-partition (start + w) % SIM_SMSPS, at its lowest free slot (the next one
 * with a free slot when that one is full), where start is the SM's counter, one further
 * for each block started there (place_block). Measured on an H200 (tests/kernels/sim/where.cu): warp w of
 * a block alone on its SM reads %warpid 4 * (w / 4) + (start + w) % 4, and the counter
 * goes on across blocks and launches, so that a block often reads %warpid values that are
 * not its warp indices even alone on its SM (1, 2, 3, 0, 5, ... for start 1). The
 * deterministic schedule starts every SM's counter at 1, as after one earlier block
 * there; a random one at random. So no block's %warpid is its warp index by right, as
 * the ISA says ("%ctaid and %tid should be used to compute a virtual warp index"); it is
 * unique among the warps resident on the SM at once and below %nwarpid. */
#define SIM_SMSPS 4u
typedef struct sim_place {
    uint64_t rng;    /* random schedules: the placement's own stream (the schedule's
                         stream stays as it was) */
    unsigned per_sm; /* resident slots per modelled SM */
    unsigned nslots; /* warp slots per SM: the profile's max_warps_per_sm (%nwarpid) */
    struct sim_sm {
        uint64_t used;  /* bit k: warp slot k holds a warp of a resident block */
        unsigned start; /* the sub-partition of the next block's warp 0 */
        uint32_t id;    /* %smid */
    } sm[];
} sim_place;

/* The placement of a launch of nres resident slots over nsm modelled SMs (its per-SM
 * count of resident blocks chosen here: up to SIM_DETERMINISTIC_PER_SM in the
 * deterministic schedule, at random between 2 and per_sm in random ones, never over
 * per_sm, so that more SMs are used only for a cluster larger than nsm SMs hold); NULL
 * on no memory. SM ids: 0, 1, ... in the deterministic schedule; in random ones distinct
 * ids at random in [0, sm_count) (PTX ISA §10.8: "The SM identifier numbering is not
 * guaranteed to be contiguous"; an H200 gives blocks 0-7 of a launch SMs 124-131).
 * Caller frees. */
static sim_place *place_new(const sim_t *s, const sim_device_model *dm, unsigned per_sm,
                            unsigned nsm, unsigned nres)
{
    const int random = s->cfg.schedule_random;
    uint64_t rng = s->cfg.schedule_seed ^ 0x736d69645f706c63ull; /* "smid_plc" */
    unsigned lo = per_sm < SIM_DETERMINISTIC_PER_SM ? per_sm : SIM_DETERMINISTIC_PER_SM, bps = lo;
    if (random) {
        if ((nres + nsm - 1) / nsm > lo)
            lo = (nres + nsm - 1) / nsm;
        if (lo > per_sm) /* a cluster larger than the wave (sim_launch) */
            lo = per_sm;
        bps = lo + (unsigned)(rng_next(&rng) % (per_sm - lo + 1));
    }
    const unsigned used = (nres + bps - 1) / bps; /* SMs the slots fill */
    sim_place *p = calloc(1, sizeof *p + used * sizeof p->sm[0]);
    if (!p)
        return NULL;
    p->per_sm = bps;
    p->nslots = dm->max_warps_per_sm < (int)SIM_MAX_WARP_SLOTS ? (unsigned)dm->max_warps_per_sm
                                                               : SIM_MAX_WARP_SLOTS;
    const uint64_t nids = (uint64_t)dm->sm_count;
    uint64_t off = 0, stride = 1;
    if (random) { /* i -> (off + i * stride) mod sm_count, stride coprime: distinct ids */
        off = rng_next(&rng) % nids;
        do {
            stride = rng_next(&rng) % nids | 1;
        } while (gcd64(stride, nids) != 1);
    }
    for (unsigned i = 0; i < used; i++) {
        p->sm[i].id = (uint32_t)((off + i * stride) % nids);
        p->sm[i].start = random ? (unsigned)(rng_next(&rng) % SIM_SMSPS) : 1;
    }
    p->rng = rng;
    return p;
}

/* Gives the warps of the block starting in c free warp slots of its SM (sim_place):
 * c->wslot[w] is warp w's slot (%warpid), c->wslot_mask all of them. The occupancy
 * model leaves enough free slots: per_sm blocks of c->nwarps warps fit in nslots. */
static void place_block(sim_ctx *c)
{
    struct sim_sm *sm = &c->place->sm[c->sm];
    const unsigned n = c->place->nslots, per = n / SIM_SMSPS; /* slots per sub-partition */
    c->wslot_mask = 0;
    for (unsigned w = 0; w < c->nwarps; w++) {
        unsigned k = 0; /* the lowest free slot of sub-partition start + w, or of the next */
        for (unsigned i = 0, q = 0, r = 0; i < n; i++) { /* q, r: i / per, i % per */
            k = r * SIM_SMSPS + (sm->start + w + q) % SIM_SMSPS;
            if (!((sm->used >> k) & 1))
                break;
            if (++r == per)
                r = 0, q++;
        }
        sm->used |= 1ull << k;
        c->wslot_mask |= 1ull << k;
        c->wslot[w] = (uint8_t)k;
    }
    sm->start = (sm->start + 1) % SIM_SMSPS;
}

/* Called when the block in c was found stuck (c->stuck, sim_back_edge): if every other
 * resident block (busy[k] of cs[0..nres)) is stuck too with no memory written since,
 * no thread of the launch can ever make progress: records the deadlock fault, naming
 * each warp of c's block, and returns 1. pending: blocks not started yet (they never
 * will: the stuck blocks hold every slot). */
static int launch_stuck(sim_ctx *c, const sim_ctx *cs, const uint8_t *busy, unsigned nres,
                        uint64_t pending)
{
    const uint64_t now = c->mwrites + 1;
    unsigned others = 0;
    for (unsigned k = 0; k < nres; k++)
        if (busy[k] == 1 && &cs[k] != c) {
            if (cs[k].stuck != now)
                return 0;
            others++;
        }
    unsigned w = 0, t = 0;
    while (w < c->nwarps && c->spin_flag[w] != now)
        w++;
    if (w == c->nwarps)
        return 0; /* every warp at a barrier: sim_resolve_barrier reports it */
    while (t < 32 && w * 32 + t < c->nthreads && c->state[w * 32 + t] != SIM_T_RUN)
        t++;
    char where[200], warps[300], more[200] = "";
    const ptx_insn *at = &c->code[c->loop_pc[w] >= 0 ? c->loop_pc[w] : (int)c->pc[w * 32 + t]];
    sim_where(c, at, where, sizeof where);
    sim_warps_state(c, warps, sizeof warps);
    if (others || pending)
        snprintf(more, sizeof more, "; %u other resident block(s) wait too%s", others,
                 pending ? ", and the blocks not yet started never will (CUDA does not "
                           "promise that blocks run at the same time: a block must not "
                           "wait for another)"
                         : "");
    sim_fault_at(c, w * 32 + t, at, SIM_FAULT_DEADLOCK,
                 "deadlock: no thread can make progress: warp %u loops at %s without end "
                 "(its registers repeat from one iteration to the next and no thread writes "
                 "memory), and every other warp waits or loops so%s%s",
                 w, where, warps, more);
    return 1;
}

/* Starts block b (linear, x fastest) in context c: every thread at the entry, barriers
 * clear, registers, local and shared memory poisoned, a BLOCK_START trace event. */
static void block_start(sim_ctx *c, uint64_t b)
{
    c->block_linear = (uint32_t)b;
    c->bid[0] = (unsigned)(b % c->grid[0]);
    c->bid[1] = (unsigned)(b / c->grid[0] % c->grid[1]);
    c->bid[2] = (unsigned)(b / ((uint64_t)c->grid[0] * c->grid[1]));
    const ptx_func *f = c->entry;
    const size_t nt = c->nthreads;
    {
        /* every thread at the entry: four per vector store */
        const sim_wv ev = WV((uint32_t)f->entry_pc);
        unsigned t = 0;
        for (; t + 4 <= c->nthreads; t += 4)
            wv_st(c->pc + t, ev);
        for (; t < c->nthreads; t++)
            c->pc[t] = (uint32_t)f->entry_pc;
    }
    memset(c->state, SIM_T_RUN, nt);
    if (c->frames_used) { /* a call or alloca of the last block moved them */
        memset(c->depth, 0, nt);
        memset(c->rbase, 0, nt * sizeof *c->rbase);
        memset(c->pbase, 0, nt * sizeof *c->pbase);
        memset(c->lbase, 0, nt * sizeof *c->lbase);
        memset(c->ldyn, 0, nt * sizeof *c->ldyn);
        c->frames_used = 0;
    }
    memset(c->bar_pc, 0xff, nt * sizeof *c->bar_pc); /* -1: at no barrier */
    memset(c->bar_waiting, 0, sizeof c->bar_waiting);
    memset(c->bar_arrived, 0, sizeof c->bar_arrived);
    memset(c->bar_expect, 0, sizeof c->bar_expect);
    memset(c->bar_lanes, 0, sizeof c->bar_lanes);
    memset(c->bar_mixed, 0, sizeof c->bar_mixed);
    c->nexited = 0;
    c->wdone = 0;
    c->stuck = 0;
    memset(c->spin_n, 0, sizeof c->spin_n);
    memset(c->spin_flag, 0, sizeof c->spin_flag);
    memset(c->spin_seen, 0xff, sizeof c->spin_seen); /* differs from any mwrites */
    for (unsigned w = 0; w < c->nwarps; w++)
        c->loop_pc[w] = -1;
    memset(c->w_called, 0, sizeof c->w_called);
    /* a whole warp starts converged at the entry (warp_step needs no scan) */
    for (unsigned w = 0; w < SIM_ITS_WARPS; w++)
        c->wconv[w] = w < c->nthreads / 32 ? (uint32_t)f->entry_pc + 1 : 0;
    /* independent thread scheduling: no yields, spins or polls yet (sim_warp_step) */
    for (unsigned w = 0; w < c->nwarps && w < SIM_ITS_WARPS; w++) {
        c->its_block[w] = c->block_linear + 1;
        c->its_yield[w] = 0;
        c->its_spin[w] = 0;
        c->its_syncmem[w] = 0;
    }
    if (c->shadow_same) /* a new epoch below: no shadow field is live (sim_race_check) */
        memset(c->shadow_same, 1, (c->shared_size + 3) / 4 + 1);
    /* Registers, local and shared memory start as poison, as on a GPU they hold
     * whatever was there (README "Simulator": never as zeros), one stream per
     * block. Only the register slots a thread may read before writing them need it
     * (sim_regs_read_first); the others are written before any read. */
    const uint64_t poison = c->poison ^ ((uint64_t)c->block_linear * 0xd1b54a32d192ed03ull);
#ifndef NDEBUG
    if (!c->zero_all) {
        /* debug builds: the kernel's other slots get a poison value instead of what the
         * previous block left there, so that a read-before-write the analysis missed
         * changes results (make check runs debug builds) */
        for (unsigned w = 0; w < c->nwarps; w++)
            for (size_t k = 0; k < ((size_t)f->nregs << 5); k++)
                c->regs[(((size_t)w * c->regcap) << 5) + k] = 0xdeadbeefdeadbeefull;
    }
#endif
    if (c->zero_all) {
        sim_poison(c->regs, (size_t)c->nwarps * 32 * c->regcap * sizeof *c->regs, poison);
    } else {
        for (unsigned w = 0; w < c->nwarps; w++)
            for (unsigned k = 0; k < c->nzero_regs; k++)
                sim_poison(c->regs + (((size_t)w * c->regcap + c->zero_regs[k]) << 5),
                           32 * sizeof *c->regs, poison + ((uint64_t)w << 20) + k);
    }
    if (c->m->sum_frame) /* without parameter frames nothing uses c->params */
        memset(c->params, 0, c->nthreads * c->paramcap);
    if (c->m->sum_local) /* without .local data no access to local memory is in bounds */
        sim_poison(c->local, c->nthreads * c->localcap, ~poison);
    sim_poison(c->shared, c->shared_size, poison ^ 0x5555555555555555ull);
    if (c->shared_written)
        memset(c->shared_written, 0, c->shared_size);
    c->epoch++;
    c->faulted = 0;
    c->cl_rank = c->cl_n == 1 ? 0 /* no clusters: skip the divisions */
                              : c->bid[0] % c->cl_dim[0] +
                                    c->cl_dim[0] * (c->bid[1] % c->cl_dim[1] +
                                                    c->cl_dim[1] * (c->bid[2] % c->cl_dim[2]));
    memset(c->clb_thr, 0, sizeof c->clb_thr);
    c->clb_arrived = 0;
    c->clb_phase = 0;
    place_block(c);
    sim_trace_block(c, TRACE_EV_BLOCK_START);
}

/* Ends the block in c: a BLOCK_END trace event, and its warp slots free for the next
 * block on its SM. */
static void block_end(sim_ctx *c)
{
    sim_trace_block(c, TRACE_EV_BLOCK_END);
    c->place->sm[c->sm].used &= ~c->wslot_mask;
    c->wslot_mask = 0;
}

/* The linear index (x fastest) of the CTA of rank r in cluster q (both x fastest) of a
 * launch whose clusters are c->cl_dim CTAs. */
static uint64_t cluster_block(const sim_ctx *c, uint64_t q, unsigned r)
{
    const unsigned *d = c->cl_dim;
    const uint64_t ncx = c->grid[0] / d[0], ncy = c->grid[1] / d[1];
    const uint64_t x = q % ncx * d[0] + r % d[0], y = q / ncx % ncy * d[1] + r / d[0] % d[1],
                   z = q / (ncx * ncy) * d[2] + r / (d[0] * d[1]);
    return x + c->grid[0] * (y + (uint64_t)c->grid[1] * z);
}

/* The cluster shape of a launch of f (sim_config.cluster, else f's .reqnctapercluster,
 * else 1, 1, 1) into out, with *explicit_ set when there is one; 0, or -1 with the reason
 * in res when the launch cannot run so (CUDA C++ Programming Guide "Thread Block
 * Clusters": compute capability 9.0, the grid a whole number of clusters, at most 8 CTAs
 * per cluster, the portable size). */
static int launch_cluster(const sim_t *s, const ptx_func *f, const unsigned grid[3],
                          unsigned out[3], int *explicit_, sim_result *res)
{
    const unsigned *want = s->cfg.cluster[0] ? s->cfg.cluster : f->cluster;
    *explicit_ = s->cfg.cluster[0] || f->explicit_cluster;
    for (int i = 0; i < 3; i++)
        out[i] = want[0] ? (want[i] ? want[i] : 1) : 1;
    if (!*explicit_)
        return 0;
    const sim_device_model *dm = sim_model(s);
    char *msg = res->fault.message;
    const size_t n = sizeof res->fault.message;
    if (s->cfg.cluster[0] && f->cluster[0] &&
        memcmp(s->cfg.cluster, f->cluster, sizeof f->cluster) != 0) {
        snprintf(msg, n,
                 "the launch asks for clusters of (%u,%u,%u) CTAs but kernel %s was compiled "
                 "with __cluster_dims__(%u,%u,%u)",
                 s->cfg.cluster[0], s->cfg.cluster[1], s->cfg.cluster[2], f->name, f->cluster[0],
                 f->cluster[1], f->cluster[2]);
        return -1;
    }
    if (dm->compute_major < 9) {
        snprintf(msg, n,
                 "thread block clusters need compute capability 9.0 (sm_90); the target is %s "
                 "(compute capability %d.%d)",
                 dm->name, dm->compute_major, dm->compute_minor);
        return -1;
    }
    const unsigned size = out[0] * out[1] * out[2];
    if (size > 8) {
        snprintf(msg, n, "a cluster of (%u,%u,%u) = %u CTAs is over the portable maximum of 8 CTAs",
                 out[0], out[1], out[2], size);
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (grid[i] % out[i] != 0) {
            snprintf(msg, n,
                     "grid (%u,%u,%u) is not a whole number of clusters of (%u,%u,%u) CTAs: "
                     "each grid dimension must be a multiple of the cluster's",
                     grid[0], grid[1], grid[2], out[0], out[1], out[2]);
            return -1;
        }
    return 0;
}

/* One turn of the block resident in c. Deterministic (order NULL): one round, every
 * warp one instruction in index order. Random: the warps in a fresh random order, each
 * issuing a random burst of 1..8 instructions. A turn in which no warp could issue
 * resolves the block's barriers (sim_resolve_barrier). Returns 1 while the block has work
 * left, 0 once every thread exited, -1 when it faulted (deadlock included). */
static int block_turn(sim_ctx *c, unsigned *order)
{
    int progressed = 0;
    if (!order) {
        progressed = sim_region_turn(c) || sim_warp_round(c);
    } else {
        for (unsigned i = 0; i < c->nwarps; i++)
            order[i] = i;
        for (unsigned i = c->nwarps; i > 1; i--) {
            unsigned j = rng_below(&c->rng, i), tmp = order[i - 1];
            order[i - 1] = order[j];
            order[j] = tmp;
        }
        for (unsigned i = 0; i < c->nwarps && !c->faulted; i++) {
            unsigned burst = 1 + rng_below(&c->rng, 8);
            for (unsigned k = 0; k < burst; k++) {
                int p = sim_warp_step(c, order[i]);
                if (c->faulted || !p)
                    break;
                progressed = 1;
            }
        }
    }
    if (c->faulted)
        return -1;
    return progressed ? 1 : sim_resolve_barrier(c);
}

/* Turns the fault that ended the launch into a finding (findings list every error). */
static void fault_finding(sim_ctx *c)
{
    const sim_fault *ft = &c->res->fault;
    sim_finding_kind k = ft->kind == SIM_FAULT_OUT_OF_BOUNDS ? SIM_FIND_OUT_OF_BOUNDS
                         : ft->kind == SIM_FAULT_MISALIGNED  ? SIM_FIND_MISALIGNED
                         : ft->kind == SIM_FAULT_DEADLOCK    ? SIM_FIND_DEADLOCK
                         : ft->kind == SIM_FAULT_STEP_LIMIT  ? SIM_FIND_STEP_LIMIT
                                                             : SIM_FIND_OTHER;
    sim_result *r = c->res;
    int max = c->s->cfg.max_findings > 0 ? c->s->cfg.max_findings : SIM_DEFAULT_MAX_FINDINGS;
    r->nerrors++;
    if (!r->findings)
        r->findings = calloc((size_t)max, sizeof *r->findings);
    if (!r->findings || r->nfindings >= max) {
        r->findings_dropped++;
        return;
    }
    sim_finding *f = &r->findings[r->nfindings++];
    memset(f, 0, sizeof *f);
    f->kind = k;
    f->is_error = 1;
    f->space = ft->space;
    f->address = ft->address;
    f->size = ft->size;
    f->count = 1;
    f->access.op = ft->is_store;
    memcpy(f->access.thread, ft->thread, sizeof f->access.thread);
    memcpy(f->access.block, ft->block, sizeof f->access.block);
    f->access.ptx_line = ft->ptx_line;
    f->access.src_file = ft->src_file;
    f->access.src_line = ft->src_line;
    if (ft->src_file && ft->src_line > 0)
        snprintf(f->message, sizeof f->message, "%s:%d: block (%u,%u,%u) thread (%u,%u,%u): %s",
                 sim_base_name(ft->src_file), ft->src_line, ft->block[0], ft->block[1],
                 ft->block[2], ft->thread[0], ft->thread[1], ft->thread[2], ft->message);
    else
        snprintf(f->message, sizeof f->message,
                 "PTX line %d: block (%u,%u,%u) thread (%u,%u,%u): %s", ft->ptx_line, ft->block[0],
                 ft->block[1], ft->block[2], ft->thread[0], ft->thread[1], ft->thread[2],
                 ft->message);
}

/* ------------------------------------------------------- blocks on worker threads */

/* Steps kept between a parallel run's total and the step limit: more than run_ahead
 * and sim_region_turn look ahead (their margins are below 2^14), so that neither the
 * one-thread run nor a worker ever comes near the limit. */
#define SIM_PAR_MARGIN (1ull << 16)

/* Whether a launch (its context base, nblocks blocks) may run on worker threads: more
 * threads than one, the deterministic schedule, no trace, no clusters, far below the
 * step limit, and a module that reads nothing of where or when a block runs (%smid,
 * %warpid, %clock*, %globaltimer*: a block's slot and the launch's step count depend on
 * the other blocks). */
static int par_eligible(const sim_ctx *base, uint64_t nblocks)
{
    const sim_t *s = base->s;
    if (s->cfg.threads < 2 || s->cfg.schedule_random || base->trace || base->cl_n != 1 ||
        base->cl_explicit || nblocks < 2 || nblocks >= (1ull << 26) - 1 ||
        base->step_limit <= 2 * SIM_PAR_MARGIN)
        return 0;
    const ptx_module *m = base->m;
    for (int pc = 0; pc < m->ncode; pc++)
        for (int k = 0; k < m->code[pc].nopnd && k < 4; k++)
            if (m->code[pc].o[k].kind == PTX_OPK_SREG)
                switch (m->code[pc].o[k].sub) {
                case PTX_SREG_WARPID:
                case PTX_SREG_SMID:
                case PTX_SREG_CLOCK:
                case PTX_SREG_CLOCK64:
                case PTX_SREG_CLOCK_HI:
                case PTX_SREG_GLOBALTIMER:
                case PTX_SREG_GLOBALTIMER_LO:
                case PTX_SREG_GLOBALTIMER_HI: return 0;
                default: break;
                }
    return 1;
}

/* What the workers of a parallel launch share: the launch's context, the next block to
 * take, and the end of the run, where each worker waits for the others and then commits
 * its own log (sim_par_commit_log) when the run stands. */
typedef struct par_team {
    const sim_ctx *base;
    struct par_worker *ws;
    unsigned nw;
    uint64_t nblocks;
    double deadline;             /* each worker's: half the wall-time limit, 0 none */
    _Alignas(128) uint64_t next; /* the next block to take (atomic), on a line of its own */
    _Alignas(128) pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned arrived;  /* workers at the end of their blocks */
    unsigned started;  /* workers running (par_launch's thread, worker 0, included) */
    unsigned resolved; /* workers created, or never to be (a failed creation's subtree) */
    int stands;        /* the run stands: commit (else halted: roll back) */
    int decided;       /* stands is set (par_decide) */
} par_team;

/* One worker thread of a parallel launch: its block context (a copy of the launch's,
 * with its own per-PC tables, which the issue loop fills in as it runs), result and
 * single-SM placement, made by the worker itself (in parallel, from its own thread's
 * heap, in memory local to where it runs). */
typedef struct par_worker {
    _Alignas(128) sim_ctx c; /* on cache lines of its own: each worker writes its context
                                and result on every instruction */
    sim_result res;
    pthread_t th;
    int started;
    unsigned index;
    par_team *team;
} par_worker;

/* Sets up worker w's context from the launch's (w->team->base): 0, or -1 on no memory. */
static int par_setup(par_worker *w)
{
    const par_team *t = w->team;
    const sim_ctx *base = t->base;
    sim_ctx *c = &w->c;
    const sim_device_model *dm = sim_model(base->s);
    const int ncode = base->m->ncode;
    *c = *base;
    c->res = &w->res;
    c->par_w = w->index;
    c->slot = w->index;
    c->sm = 0;
    c->smid = 0;
    c->cl_ctx = c;
    c->fops = NULL;
    c->rk = NULL;
    c->place = NULL;
    /* half the wall-time limit: a run that takes longer (a block waiting on one later in
     * its worker's chunk, say; a launch that would take more than the limit on one
     * thread) is halted and the launch runs on one thread with the whole limit, as it
     * would have without workers */
    c->deadline = t->deadline;
    /* nothing of the block state yet: ctx_free_block frees what was made */
    c->pc = NULL, c->state = c->depth = NULL, c->rbase = c->pbase = c->lbase = c->ldyn = NULL;
    c->bar_pc = NULL, c->frames = NULL, c->regs = NULL, c->params = c->local = NULL;
    c->loop_pc = NULL, c->shared = NULL, c->wsync = NULL, c->shadow = NULL;
    c->shadow_same = NULL, c->wshadow = NULL, c->shared_written = NULL, c->async = NULL;
    c->place = calloc(1, sizeof *c->place + sizeof c->place->sm[0]);
    if (!c->place)
        return -1;
    c->place->per_sm = 1;
    c->place->nslots = dm->max_warps_per_sm < (int)SIM_MAX_WARP_SLOTS
                           ? (unsigned)dm->max_warps_per_sm
                           : SIM_MAX_WARP_SLOTS;
    c->place->sm[0].start = 1;
    if (base->fops && (c->fops = malloc(((size_t)ncode + 1) * sizeof *c->fops)))
        memcpy(c->fops, base->fops, ((size_t)ncode + 1) * sizeof *c->fops);
    if (base->rk && (c->rk = malloc(((size_t)ncode + 1) * sizeof *c->rk)))
        memcpy(c->rk, base->rk, ((size_t)ncode + 1) * sizeof *c->rk);
    if ((base->fops && !c->fops) || (base->rk && !c->rk))
        return -1;
    return ctx_alloc_block(c);
}

/* The next chunk of consecutive blocks for a worker: [*b, *end), empty when none is
 * left. Guided: a chunk is the blocks left over twice the workers (at least
 * PAR_MIN_CHUNK), so that the chunks taken last are short and no worker ends long after
 * the others, while the first are long (workers seldom write the same pages: page
 * faults take one lock per 2 MiB of them). */
#define PAR_MIN_CHUNK 4u
static void par_take(par_team *t, uint64_t *b, uint64_t *end)
{
    uint64_t n = __atomic_load_n(&t->next, __ATOMIC_RELAXED), e;
    do {
        if (n >= t->nblocks) {
            *b = *end = t->nblocks;
            return;
        }
        const uint64_t left = t->nblocks - n, k = left / (2 * (uint64_t)t->nw);
        e = n + (k > PAR_MIN_CHUNK ? k : PAR_MIN_CHUNK);
        if (e > t->nblocks)
            e = t->nblocks;
    } while (!__atomic_compare_exchange_n(&t->next, &n, e, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    *b = n;
    *end = e;
}

/* Under t->mu, once every worker that runs has arrived: whether the run stands (no halt,
 * its steps far from the limit), for the workers waiting in par_arrive. */
static void par_decide(par_team *t)
{
    uint64_t steps = 0;
    for (unsigned i = 0; i < t->nw; i++)
        if (t->ws[i].started)
            steps += t->ws[i].c.steps;
    t->stands = !sim_par_halted(t->base->par) && steps + SIM_PAR_MARGIN < t->base->step_limit;
    t->decided = 1;
    pthread_cond_broadcast(&t->cv);
}

/* The end of a worker's run: waits until every worker that runs has arrived; the last
 * decides whether the run stands (no halt, its steps far from the limit). Returns that. */
static int par_arrive(par_worker *w)
{
    par_team *t = w->team;
    pthread_mutex_lock(&t->mu);
    t->arrived++;
    for (;;) {
        if (t->decided)
            break;
        if (t->resolved == t->nw && t->arrived == t->started) {
            par_decide(t);
            break;
        }
        pthread_cond_wait(&t->cv, &t->mu);
    }
    const int stands = t->stands;
    pthread_mutex_unlock(&t->mu);
    return stands;
}

static void *par_run(void *arg);

/* The workers of the subtree of worker k in par_spawn's tree (the parent of m > 0 is m
 * less its highest bit), of nw. */
static unsigned par_subtree(unsigned k, unsigned nw)
{
    unsigned n = 0;
    for (unsigned m = k; m < nw; m++) {
        unsigned a = m;
        while (a > k)
            a &= ~(1u << (31 - __builtin_clz(a)));
        n += a == k;
    }
    return n;
}

/* Worker w's share of starting the team: it creates workers w + 2^j for each 2^j above
 * its index (worker 0: 1, 2, 4, 8, ...), so that every started thread creates threads
 * at once and 16 workers run after 4 creation times, not 15 (a thread creation took
 * 0.2 ms on the 16-core host). A failed creation halts the launch (no more are made),
 * and the subtree that worker would have created counts as resolved. The last
 * resolution decides when every started worker has already arrived (par_arrive). */
static void par_spawn(par_worker *w)
{
    par_team *t = w->team;
    const unsigned i = w->index;
    for (unsigned b = i ? 2u << (31 - __builtin_clz(i)) : 1; b < t->nw - i; b <<= 1) {
        par_worker *c = &t->ws[i + b];
        /* (none once the run is halted: a conflict found early, a failed creation) */
        const int ok =
            !sim_par_halted(t->base->par) && pthread_create(&c->th, NULL, par_run, c) == 0;
        if (!ok)
            sim_par_halt(t->base->par);
        pthread_mutex_lock(&t->mu);
        c->started = ok;
        t->started += (unsigned)ok;
        t->resolved += ok ? 1 : par_subtree(i + b, t->nw);
        if (!t->decided && t->resolved == t->nw && t->arrived == t->started)
            par_decide(t);
        pthread_mutex_unlock(&t->mu);
    }
}

/* A worker's loop: sets up its context, takes chunks of blocks in linear order and runs
 * each block to its end. Halts the launch at anything the one-thread run would order
 * with other blocks: a fault, a finding, printf output, a block found stuck (spin
 * detection counts every block's writes), half the step limit reached. Then, when the
 * run stands, commits what its blocks wrote (initcheck bits) beside the others. */
static void *par_run(void *arg)
{
    par_worker *w = arg;
    par_team *t = w->team;
    sim_ctx *c = &w->c;
    sim_par *p = t->base->par;
    par_spawn(w);
    if (par_setup(w) != 0)
        sim_par_halt(p);
    /* half the limit: a launch that nears it (an endless loop) runs again on one thread,
     * which finds where it stops; what the workers ran by then is lost, so not more */
    const uint64_t lim = c->step_limit / 2;
    uint64_t b = 0, chunk_end = 0;
    while (!sim_par_halted(p)) {
        if (b == chunk_end)
            par_take(t, &b, &chunk_end);
        if (b >= chunk_end)
            break;
        block_start(c, b++);
        int r;
        do
            r = block_turn(c, NULL);
        while (r > 0 && !c->stuck && c->steps < lim && !sim_par_halted(p));
        const sim_result *res = c->res;
        if (r != 0 || res->fault.kind != SIM_FAULT_NONE || res->nfindings || res->nerrors ||
            res->nwarnings || res->findings_dropped || res->printf_len || res->printf_dropped) {
            sim_par_halt(p);
            break;
        }
        block_end(c);
    }
    if (par_arrive(w))
        sim_par_commit_log(p, w->index);
    return NULL;
}

/* Frees worker w's state. */
static void par_worker_free(par_worker *w)
{
    ctx_free_block(&w->c);
    free(w->c.fops);
    free(w->c.rk);
    free(w->c.place);
    sim_result_free(&w->res);
}

/* Runs the launch whose context is base (nblocks blocks) on worker threads when that is
 * provably the one-thread run (sim_par.c): 1 when it ran, its statistics added to
 * base->res; 0 when it did not or was halted, with global memory and the race
 * detector's state as before, for the one-thread run to start. */
static int par_launch(sim_ctx *base, uint64_t nblocks)
{
    sim_t *s = base->s;
    const unsigned nw = s->cfg.threads < nblocks ? s->cfg.threads : (unsigned)nblocks;
    sim_par *p = sim_par_new(s, nw, (base->checks & SIM_CHECK_INIT) != 0);
    par_worker *ws = p ? aligned_alloc(_Alignof(par_worker), nw * sizeof *ws) : NULL;
    par_team *t = ws ? aligned_alloc(_Alignof(par_team), sizeof *t) : NULL;
    if (!t) {
        free(ws);
        sim_par_free(p);
        return 0;
    }
    memset(ws, 0, nw * sizeof *ws);
    memset(t, 0, sizeof *t);
    base->par = p;
    t->base = base;
    t->ws = ws;
    t->nw = nw;
    t->nblocks = nblocks;
    t->deadline = base->deadline > 0 ? sim_now() + s->cfg.time_limit_s / 2 : 0;
    int ok = pthread_mutex_init(&t->mu, NULL) == 0;
    if (ok && pthread_cond_init(&t->cv, NULL) != 0) {
        pthread_mutex_destroy(&t->mu);
        ok = 0;
    }
    if (!ok) {
        base->par = NULL;
        free(t);
        free(ws);
        sim_par_free(p);
        return 0;
    }
    /* worker 0 is this thread, which starts the others through par_spawn's tree (one
     * thread creating 15 others one after the other started the last 3-9 ms after the
     * first on the 16-core host, a tenth to a fifth of a launch of 30 ms) */
    for (unsigned i = 0; i < nw; i++) {
        ws[i].index = i;
        ws[i].team = t;
    }
    ws[0].started = 1;
    t->started = 1;
    t->resolved = 1;
    par_run(&ws[0]); /* arrives like the others: the last to arrive decides */
    for (unsigned i = 1; i < nw; i++)
        if (ws[i].started) /* set under t->mu before the decision par_run waited for */
            pthread_join(ws[i].th, NULL);
    ok = t->decided && t->stands;
    if (ok) {
        base->res->threads = nw;
        for (unsigned i = 0; i < nw; i++) {
            base->res->stats.warp_instructions += ws[i].res.stats.warp_instructions;
            base->res->stats.thread_instructions += ws[i].res.stats.thread_instructions;
            base->res->jit_blocks += ws[i].res.jit_blocks;
            base->res->regions += ws[i].res.regions;
        }
    } else {
        /* as before the launch: the words written, the race detector's records of this
         * launch (a cleared record is as empty as another launch's) and block times */
        sim_par_rollback(p);
        if (base->deadline > 0)
            base->deadline = sim_now() + s->cfg.time_limit_s;
        for (int i = 0; i < s->nallocs; i++)
            if (s->allocs[i].gsh && s->allocs[i].gsh_launch == s->launches)
                memset(s->allocs[i].gsh, 0, (s->allocs[i].size + 3) / 4 * sizeof *s->allocs[i].gsh);
        if (base->grace) {
            memset(base->grace->rel_time, 0, nblocks * sizeof *base->grace->rel_time);
            memset(base->grace->rel_count, 0, nblocks * sizeof *base->grace->rel_count);
            memset(base->grace->acq_time, 0, nblocks * sizeof *base->grace->acq_time);
        }
    }
    for (unsigned i = 0; i < nw; i++)
        par_worker_free(&ws[i]);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    base->par = NULL;
    free(t);
    free(ws);
    sim_par_free(p);
    return ok;
}

sim_status sim_launch(sim_t *s, const ptx_module_t *m, const char *kernel, const unsigned grid[3],
                      const unsigned block[3], unsigned dynamic_shared, void **params,
                      sim_result *res)
{
    memset(res, 0, sizeof *res);
    const ptx_func *f = NULL;
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && m->funcs[i].entry_pc >= 0 &&
            strcmp(m->funcs[i].name, kernel) == 0)
            f = &m->funcs[i];
    if (!f) {
        snprintf(res->fault.message, sizeof res->fault.message,
                 "no kernel (.entry) named '%s' in the module", kernel);
        return SIM_ERR_NOT_FOUND;
    }
    const sim_device_model *dm = sim_model(s);
    for (int i = 0; i < 3; i++) {
        if (grid[i] == 0 || block[i] == 0)
            return launch_error(res, SIM_ERR_LAUNCH, "grid and block dimensions must be >= 1");
        if (block[i] > (unsigned)dm->max_block_dim[i] || grid[i] > dm->max_grid_dim[i]) {
            snprintf(res->fault.message, sizeof res->fault.message,
                     "grid (%u,%u,%u) or block (%u,%u,%u) is over the limits: block "
                     "(%d,%d,%d), grid (%u,%u,%u)",
                     grid[0], grid[1], grid[2], block[0], block[1], block[2], dm->max_block_dim[0],
                     dm->max_block_dim[1], dm->max_block_dim[2], dm->max_grid_dim[0],
                     dm->max_grid_dim[1], dm->max_grid_dim[2]);
            return SIM_ERR_LAUNCH;
        }
    }
    uint64_t nthreads = (uint64_t)block[0] * block[1] * block[2];
    if (nthreads > (uint64_t)dm->max_threads_per_block) {
        snprintf(res->fault.message, sizeof res->fault.message,
                 "a block of %llu threads is over the limit of %d threads per block",
                 (unsigned long long)nthreads, dm->max_threads_per_block);
        return SIM_ERR_LAUNCH;
    }
    /* CUDA C++ Programming Guide, "Compute Capabilities": static shared memory is at most
     * 48 KiB; with dynamic shared memory a block may opt in to more (the profile's
     * opt-in maximum), which gpulearn does for every launch that asks for it */
    size_t shared = (size_t)f->dynshared_off + dynamic_shared;
    if (f->dynshared_off > dm->shared_bytes_per_block) {
        snprintf(res->fault.message, sizeof res->fault.message,
                 "%u bytes of static shared memory is over the limit of %zu bytes (48 KiB) per "
                 "block: allocate the rest as dynamic shared memory (extern __shared__)",
                 f->shared_size, dm->shared_bytes_per_block);
        return SIM_ERR_LAUNCH;
    }
    if (shared > dm->shared_bytes_per_block_optin) {
        snprintf(res->fault.message, sizeof res->fault.message,
                 "%zu bytes of shared memory per block (%u static + %u dynamic) is over the "
                 "limit of %s (compute capability %d.%d): %zu KiB by default, %zu KiB (%zu "
                 "bytes) with the opt-in maximum",
                 shared, f->shared_size, dynamic_shared, dm->name, dm->compute_major,
                 dm->compute_minor, dm->shared_bytes_per_block >> 10,
                 dm->shared_bytes_per_block_optin >> 10, dm->shared_bytes_per_block_optin);
        return SIM_ERR_LAUNCH;
    }
    unsigned cl_dim[3];
    int cl_explicit;
    if (launch_cluster(s, f, grid, cl_dim, &cl_explicit, res) < 0)
        return SIM_ERR_LAUNCH;
    sim_status st = load_module_vars(s, m, res);
    if (st == SIM_ERR_LAUNCH)
        return st; /* over the memory budget: the message says so */
    if (st != SIM_OK)
        return launch_error(res, st, "out of memory for module variables");
    const uint8_t *fast = module_fast(s, m);
    if (!fast)
        return launch_error(res, SIM_ERR_NOMEM, "out of memory for the launch");

    /* launch-wide state, in base; every resident block's context copies it */
    sim_ctx *base = calloc(1, sizeof *base);
    if (!base)
        return launch_error(res, SIM_ERR_NOMEM, "out of memory for the launch");
    base->s = s;
    base->m = m;
    base->entry = f;
    base->code = m->code;
    base->fast = fast;
    sim_fops_build(base, m->ncode);
    base->res = res;
    memcpy(base->grid, grid, sizeof base->grid);
    memcpy(base->block, block, sizeof base->block);
    base->nthreads = (unsigned)nthreads;
    base->nwarps = (base->nthreads + 31) / 32;
    memcpy(base->cl_dim, cl_dim, sizeof base->cl_dim);
    base->cl_n = cl_dim[0] * cl_dim[1] * cl_dim[2];
    base->cl_explicit = cl_explicit;
    base->regcap = (size_t)m->sum_regs + 1;
    base->paramcap = (size_t)m->sum_frame + 64;
    base->localcap = (size_t)m->sum_local + 16;
    for (int pc = 0; pc < m->ncode; pc++)
        if (m->code[pc].op == PTX_OP_alloca) {
            base->localcap += SIM_ALLOCA_BYTES;
            break;
        }
    base->shared_size = base->reserved_off = base->own_shared = shared;
    base->total_smem = sim_shared_taken(shared, 0, dm->shared_alloc_unit);
    if (reads_reserved_smem(m) && dm->shared_reserved_per_block) {
        base->reserved_off = (shared + 15) & ~(size_t)15;
        base->shared_size = base->reserved_off + dm->shared_reserved_per_block;
    }
    base->dynshared_off = f->dynshared_off;
    base->kparam_size = f->kparam_size;
    base->step_limit = s->cfg.step_limit ? s->cfg.step_limit : (1ull << 32);
    base->clock_check = SIM_CLOCK_EVERY;
    base->kparams = calloc(1, base->kparam_size ? base->kparam_size : 1);
    if (!base->kparams) {
        launch_free(base);
        return launch_error(res, SIM_ERR_NOMEM, "out of memory for the launch");
    }
    {
        const int nz = sim_regs_read_first(m, fast, f, &base->zero_regs);
        base->zero_all = nz < 0;
        base->nzero_regs = nz > 0 ? (unsigned)nz : 0;
    }
    for (int i = 0; i < f->nparams; i++) {
        if (!params || !params[i]) {
            launch_free(base);
            return launch_error(res, SIM_ERR_LAUNCH, "missing kernel parameter value");
        }
        memcpy(base->kparams + f->params[i].offset, params[i], f->params[i].size);
    }
    /* checkers (sim_config.checks_off) */
    base->checks = (SIM_CHECK_RACE | SIM_CHECK_INIT | SIM_CHECK_SYNC | SIM_CHECK_GLOBAL_RACE) &
                   ~s->cfg.checks_off;
    uint64_t nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
    s->launches++;
    sim_region_build(base);
    sim_jit_attach(base, nblocks * base->nwarps);
    /* the wall-time limit counts from here: the translating tier's compile (above) is
     * gpulearn's time, not the kernel's */
    base->deadline = s->cfg.time_limit_s > 0 ? sim_now() + s->cfg.time_limit_s : 0;
    if ((base->checks & SIM_CHECK_GLOBAL_RACE) && nblocks <= SIM_GRACE_MAX_BLOCKS) {
        sim_grace *g = base->grace = calloc(1, sizeof *g);
        if (g) {
            g->tag = (uint32_t)(s->launches & 0x1ff);
            g->rel_time = calloc(nblocks, sizeof *g->rel_time);
            g->rel_count = calloc(nblocks, sizeof *g->rel_count);
            g->acq_time = calloc(nblocks, sizeof *g->acq_time);
        }
        if (!g || !g->rel_time || !g->rel_count || !g->acq_time) {
            launch_free(base);
            return launch_error(res, SIM_ERR_NOMEM, "out of memory for the launch");
        }
    }
    base->poison = s->cfg.schedule_random ? s->cfg.schedule_seed * 0x2545f4914f6cdd1dull + 1
                                          : 0x6770756c6561726eull; /* "gpulearn" */
    base->rng = s->cfg.schedule_seed;
    /* tracing */
    base->last_pc = -1;
    if (s->cfg.trace && s->cfg.trace->level != TRACE_OFF) {
        base->trace = s->cfg.trace;
        if (sim_trace_setup(base, kernel) < 0) {
            launch_free(base);
            return launch_error(res, SIM_ERR_NOMEM, "out of memory for the trace");
        }
        base->trace_mem = base->trace->level >= TRACE_MEMORY;
    }
    /* residency: the blocks that run at once, SIM_RESIDENT_SMS SMs' worth
     * (sim_blocks_per_sm); a random schedule picks between 2 and that many */
    const unsigned per_sm = sim_blocks_per_sm(dm, base->nthreads, shared),
                   nsm = (unsigned)dm->sm_count < SIM_RESIDENT_SMS ? (unsigned)dm->sm_count
                                                                   : SIM_RESIDENT_SMS;
    unsigned nres = per_sm * nsm;
    if (s->cfg.schedule_random && nres > 2)
        nres = 2 + rng_below(&base->rng, nres - 1);
    else if (!s->cfg.schedule_random && nres > SIM_DETERMINISTIC_PER_SM * nsm)
        nres = SIM_DETERMINISTIC_PER_SM * nsm;
    if (nres > nblocks)
        nres = (unsigned)nblocks;
    /* a cluster's CTAs are resident together (co-scheduled, as on the GPU): whole
     * clusters of slots, at least one however large it is */
    const unsigned cn = base->cl_n;
    const uint64_t nunits = nblocks / cn; /* what the schedule orders: clusters */
    nres = nres / cn * cn;
    if (nres < cn)
        nres = cn;
    /* the memory budget: as many resident blocks as fit, at least one (cluster) */
    if (s->cfg.memory_limit && resident_budget(base, cn, &nres, res) != 0) {
        launch_free(base);
        return SIM_ERR_LAUNCH;
    }
    /* on worker threads when that is provably the same run (sim_par.c) */
    res->threads = 1;
    if (par_eligible(base, nblocks) && par_launch(base, nblocks)) {
        launch_free(base);
        return SIM_OK;
    }
    base->place = place_new(s, dm, per_sm, nsm, nres);
    if (!base->place) {
        launch_free(base);
        return launch_error(res, SIM_ERR_NOMEM, "out of memory for the launch");
    }
    base->nwarpid = base->place->nslots;
    sim_ctx *cs = calloc(nres, sizeof *cs);
    unsigned *worder = s->cfg.schedule_random ? calloc(base->nwarps, sizeof *worder) : NULL;
    uint32_t *border =
        s->cfg.schedule_random && nunits <= (1u << 24) ? calloc(nunits, sizeof *border) : NULL;
    int ok = cs && (!s->cfg.schedule_random || worder);
    for (unsigned k = 0; ok && k < nres; k++) {
        cs[k] = *base;
        cs[k].slot = k;
        cs[k].sm = k / base->place->per_sm;
        cs[k].smid = base->place->sm[cs[k].sm].id;
        cs[k].cl_ctx = &cs[k / cn * cn];
        ok = ctx_alloc_block(&cs[k]) == 0;
    }
    if (!ok) {
        for (unsigned k = 0; cs && k < nres; k++)
            ctx_free_block(&cs[k]);
        free(cs);
        free(worder);
        free(border);
        launch_free(base);
        return launch_error(res, SIM_ERR_NOMEM, "out of memory for the launch");
    }
    /* blocks (clusters): linear order (x fastest), or a random permutation (Fisher-Yates;
     * past 2^24 an affine permutation i -> (a*i + b) mod n with a coprime to n) */
    uint64_t pa = 1, pb = 0;
    if (border) {
        for (uint64_t i = 0; i < nunits; i++)
            border[i] = (uint32_t)i;
        for (uint64_t i = nunits; i > 1; i--) {
            uint64_t j = rng_next(&base->rng) % i;
            uint32_t tmp = border[i - 1];
            border[i - 1] = border[j];
            border[j] = tmp;
        }
    } else if (s->cfg.schedule_random) {
        pb = rng_next(&base->rng) % nunits;
        do {
            pa = rng_next(&base->rng) % nunits | 1;
        } while (gcd64(pa, nunits) != 1);
    }
    /* The resident blocks take turns (block_turn), in slot order, or in a random order
     * with a random number of turns each; a finished block's slot starts the next block.
     * The counters that belong to the launch (steps, clock, printf, the random stream)
     * live in base between turns. */
    uint64_t next = 0;
    unsigned live = 0;
    uint8_t *busy = calloc(nres, 1);
    unsigned *sorder = calloc(nres, sizeof *sorder);
    st = busy && sorder ? SIM_OK : SIM_ERR_NOMEM;
#define UNIT_AT(i) (border ? border[i] : (uint64_t)(((unsigned __int128)pa * (i) + pb) % nunits))
#define BLOCK_AT(i, r) (cn == 1 ? UNIT_AT(i) : cluster_block(base, UNIT_AT(i), (r)))
#define SWAP_IN(c)                                                                                 \
    ((c)->steps = base->steps, (c)->clock_check = base->clock_check,                               \
     (c)->printf_cap = base->printf_cap, (c)->printf_seen = base->printf_seen,                     \
     (c)->rng = base->rng, (c)->mwrites = base->mwrites)
#define SWAP_OUT(c)                                                                                \
    (base->steps = (c)->steps, base->clock_check = (c)->clock_check,                               \
     base->printf_cap = (c)->printf_cap, base->printf_seen = (c)->printf_seen,                     \
     base->rng = (c)->rng, base->mwrites = (c)->mwrites)
    for (unsigned k = 0; st == SIM_OK && k < nres && next < nunits; k++) {
        SWAP_IN(&cs[k]);
        block_start(&cs[k], BLOCK_AT(next, k % cn));
        SWAP_OUT(&cs[k]);
        if (k % cn == cn - 1)
            next++;
        busy[k] = 1;
        live++;
    }
    while (st == SIM_OK && live) {
        for (unsigned k = 0; k < nres; k++)
            sorder[k] = k;
        if (s->cfg.schedule_random)
            for (unsigned k = nres; k > 1; k--) {
                unsigned j = rng_below(&base->rng, k), tmp = sorder[k - 1];
                sorder[k - 1] = sorder[j];
                sorder[j] = tmp;
            }
        for (unsigned i = 0; i < nres && st == SIM_OK; i++) {
            sim_ctx *c = &cs[sorder[i]];
            if (busy[sorder[i]] != 1) /* free, or done while its cluster runs on */
                continue;
            SWAP_IN(c);
            unsigned turns = s->cfg.schedule_random ? 1 + rng_below(&c->rng, 4) : 1;
            int r = 1;
            for (unsigned t = 0; t < turns && r > 0; t++)
                r = block_turn(c, worder);
            if (r > 0 && c->stuck == c->mwrites + 1 &&
                launch_stuck(c, cs, busy, nres, nunits - next))
                r = -1;
            sim_trace_flush(c);
            if (r < 0) {
                st = SIM_ERR_FAULT;
            } else if (r == 0) {
                block_end(c);
                if (cn == 1 && next < nunits) {
                    block_start(c, BLOCK_AT(next, 0));
                    next++;
                } else if (cn == 1) {
                    busy[sorder[i]] = 0, live--;
                } else {
                    /* a cluster's slots take the next cluster once all its CTAs are done
                     * (until then their shared memory stays reachable) */
                    const unsigned g = sorder[i] / cn * cn;
                    unsigned done = 0;
                    busy[sorder[i]] = 2;
                    for (unsigned k = g; k < g + cn; k++)
                        done += busy[k] == 2;
                    SWAP_OUT(c);
                    for (unsigned k = g; done == cn && k < g + cn; k++) {
                        if (next < nunits) {
                            SWAP_IN(&cs[k]);
                            block_start(&cs[k], BLOCK_AT(next, k - g));
                            SWAP_OUT(&cs[k]);
                            busy[k] = 1;
                        } else {
                            busy[k] = 0, live--;
                        }
                    }
                    if (done == cn && next < nunits)
                        next++;
                    SWAP_IN(c);
                }
            }
            SWAP_OUT(c);
        }
    }
    /* blocks the launch stopped in */
    for (unsigned k = 0; busy && k < nres; k++)
        if (busy[k] == 1) {
            SWAP_IN(&cs[k]);
            block_end(&cs[k]);
        }
#undef BLOCK_AT
#undef UNIT_AT
#undef SWAP_IN
#undef SWAP_OUT
    if (res->fault.kind != SIM_FAULT_NONE)
        fault_finding(base);
    for (unsigned k = 0; k < nres; k++)
        ctx_free_block(&cs[k]);
    free(busy);
    free(sorder);
    free(cs);
    free(worder);
    free(border);
    launch_free(base);
    return st;
}
