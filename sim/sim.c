/* sim.c — simulator instance, simulated memory, launches and CTA scheduling.
 *
 * Blocks run concurrently, as on a GPU: a wave of resident blocks (sim_resident_blocks:
 * the modelled SMs times what one SM holds, at most SIM_DETERMINISTIC_RESIDENT in the
 * deterministic schedule) takes turns, one round each in slot order,
 * and a block that finishes hands its slot to the next block in linear order (x
 * fastest). Within a round, warps are issued in index order, one warp instruction
 * each (sim_warp_step in sim_exec.c).
 * Barriers (PTX ISA §9.7.13.x bar/barrier): a thread that executes bar.sync waits;
 * when no warp of the CTA can issue, the waiting threads are released if every
 * non-exited thread waits at the same barrier id, as on Volta and later GPUs (verified
 * on an H200: tests/cli/bar_divergent.golden.json); otherwise the CTA is deadlocked.
 * sim_config.barrier_strict makes it stricter, like compute-sanitizer's synccheck:
 * every thread must wait at the same bar.sync, and exited threads make a deadlock.
 *
 * sim_config.schedule_random: 2 to that many resident blocks, in a seeded random order,
 * taking 1..4 rounds per turn in a random order of slots; in each round the block's
 * warps in a random order, each issuing a random burst of 1..8 instructions; and the
 * lanes of a diverged warp in a random order (sim_exec.c random_group).
 *
 * Checkers (findings in sim_result; sim_mem runs them on every access):
 *  - memcheck: out-of-bounds and misaligned accesses in every space end the launch.
 *    Local memory is bounded by the thread's stack: its frames up to the end of the
 *    current function's .local data.
 *  - initcheck: global allocations keep one bit per byte written (sim_memcpy_htod or a
 *    kernel store/atomic); shared memory one byte per byte, per block. Loads of unwritten
 *    bytes are warnings.
 *  - racecheck: a shadow per shared byte holds the last writer and the readers since,
 *    tagged with the block's barrier epoch (incremented at each release), so hazards
 *    between threads with no barrier between them are found without clearing anything.
 *    Different warps, or lanes of one warp with no __syncwarp between (a race under
 *    independent thread scheduling): an error. Atomics are checked against plain
 *    accesses of other threads, not against each other.
 *  - global racecheck (grace_*): a shadow per global word holds the last store or
 *    atomic and one read since, tagged with the launch, block, warp, barrier epoch and
 *    the block's release count; a store and another access not both strong, from
 *    different blocks or from different warps in one barrier interval, are an error
 *    unless a release (fence) of the first block and a later acquire (atomic, strong
 *    load) of the second order them (PTX ISA §8, "Memory Consistency Model").
 *  - synccheck: a release where threads waited at different bar.sync instructions is a
 *    warning; a barrier that can never be released is the deadlock fault.
 * Tracing (sim_config.trace): sim_trace_issue is the one hook in the interpreter;
 * memory requests are gathered lane by lane in sim_mem and emitted at the next issue.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sim/ptx_dwarf.h"
#include "sim/exec_async.h"
#include "sim/sim_internal.h"

static void gsh_free(sim_alloc *al);

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

#define SIM_DEFAULT_MAX_FINDINGS 100

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

/* The word shadows of racecheck (sim_ctx.wshadow, see race_check): struct sim_shadow's
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

static struct sim_wshadow *wshadow_new(size_t n)
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

static void wshadow_free(struct sim_wshadow *S)
{
    if (S)
        free(S->mem);
    free(S);
}

/* Word k's shadow as a struct sim_shadow (wshadow_get) and back (wshadow_set). */
static void wshadow_get(const struct sim_wshadow *S, uint64_t k, struct sim_shadow *o)
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

static void wshadow_set(struct sim_wshadow *S, uint64_t k, const struct sim_shadow *i)
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

static const sim_device_model device_model = {
    .name = "gpulearn SIMT simulator",
    .sm_count = 4,
    .warp_size = 32,
    .max_threads_per_block = 1024,
    .max_block_dim = {1024, 1024, 64},
    .max_grid_dim = {2147483647u, 65535u, 65535u},
    .shared_bytes_per_block = 48 * 1024,
    .shared_bytes_per_block_optin = 163 * 1024,
    .compute_major = 8,
    .compute_minor = 0,
    .max_threads_per_sm = 2048,
    .max_blocks_per_sm = 32,
    .shared_bytes_per_sm = 164 * 1024,
};

const sim_device_model *sim_device(void)
{
    return &device_model;
}

/* The deterministic schedule interleaves at most this many blocks (2 per modelled SM):
 * enough for blocks to overlap as on a GPU, and few enough contexts that their
 * registers stay in the host's caches (make bench: 16 interleaved blocks cost scan and
 * sgemm 15-30 %). Random schedules go up to sim_resident_blocks. */
#define SIM_DETERMINISTIC_RESIDENT 8u

/* Blocks of `threads` threads (rounded up to whole warps) and `shared_bytes` of shared
 * memory each that the modelled device holds at once: sm_count times what one SM's
 * thread, block and shared-memory limits allow (at least one per SM). The simulator
 * interleaves up to 8 of them (2 per SM) in its deterministic schedule and 2 to all of
 * them in random schedules, as a GPU runs a wave of resident blocks at once. */
static unsigned sim_resident_blocks(unsigned threads, size_t shared_bytes)
{
    const sim_device_model *d = &device_model;
    const unsigned warps = (threads + 31) / 32;
    unsigned per_sm = (unsigned)d->max_blocks_per_sm;
    if (warps && (unsigned)d->max_threads_per_sm / (warps * 32) < per_sm)
        per_sm = (unsigned)d->max_threads_per_sm / (warps * 32);
    if (shared_bytes && d->shared_bytes_per_sm / shared_bytes < per_sm)
        per_sm = (unsigned)(d->shared_bytes_per_sm / shared_bytes);
    return (per_sm ? per_sm : 1) * (unsigned)d->sm_count;
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
    for (int i = 0; i < s->nallocs; i++) {
        free(s->allocs[i].data);
        free(s->allocs[i].written);
        gsh_free(&s->allocs[i]);
    }
    free(s->allocs);
    free(s->var_addr);
    free(s->fast);
    free(s);
}

static sim_status alloc_global(sim_t *s, size_t bytes, const char *label, uint64_t align,
                               uint64_t *dptr)
{
    if (align < 256)
        align = 256;
    uint64_t base = (s->next + align - 1) / align * align;
    if (bytes > SIM_SHARED_WIN - base - 4096)
        return SIM_ERR_NOMEM;
    if (s->nallocs == s->cap) {
        int nc = s->cap ? s->cap * 2 : 16;
        sim_alloc *na = realloc(s->allocs, (size_t)nc * sizeof *na);
        if (!na)
            return SIM_ERR_NOMEM;
        s->allocs = na;
        s->cap = nc;
    }
    /* zeros; up to 256 MiB written now, which maps the pages (as cudaMalloc commits
     * device memory) so that a launch does not pay for first touches; calloc keeps huge
     * allocations lazy */
    const int eager = bytes <= ((size_t)1 << 28);
    unsigned char *data = eager ? malloc(bytes ? bytes : 1) : calloc(1, bytes ? bytes : 1);
    unsigned char *written = eager ? malloc(bytes / 8 + 1) : calloc(1, bytes / 8 + 1);
    if (!data || !written) {
        free(data);
        free(written);
        return SIM_ERR_NOMEM;
    }
    if (eager) {
        memset(data, 0, bytes ? bytes : 1);
        memset(written, 0, bytes / 8 + 1);
    }
    sim_alloc *a = &s->allocs[s->nallocs++];
    memset(a, 0, sizeof *a);
    a->base = base;
    a->size = bytes;
    a->data = data;
    a->written = written;
    snprintf(a->label, sizeof a->label, "%s", label ? label : "");
    /* an unmapped gap of at least 256 bytes after every allocation */
    s->next = base + bytes + 256;
    *dptr = base;
    return SIM_OK;
}

sim_status sim_malloc(sim_t *s, size_t bytes, const char *label, uint64_t *dptr)
{
    return alloc_global(s, bytes, label, 256, dptr);
}

/* The allocation holding [addr, addr+size), or NULL. */
static sim_alloc *find_alloc(sim_t *s, uint64_t addr, size_t size)
{
    if (s->last < s->nallocs) {
        sim_alloc *a = &s->allocs[s->last];
        if (addr >= a->base && addr - a->base <= a->size && size <= a->size - (addr - a->base))
            return a;
    }
    int lo = 0, hi = s->nallocs - 1, found = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (s->allocs[mid].base <= addr) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (found < 0)
        return NULL;
    sim_alloc *a = &s->allocs[found];
    if (addr - a->base > a->size || size > a->size - (addr - a->base))
        return NULL;
    s->last = found;
    return a;
}

/* Sets or clears the initcheck bits of bytes [off, off+n) of allocation a. */
static void mark_written(sim_alloc *a, uint64_t off, size_t n, int on)
{
    uint64_t i = off, end = off + n;
    for (; i < end && (i & 7); i++)
        a->written[i >> 3] = on ? a->written[i >> 3] | (unsigned char)(1u << (i & 7))
                                : a->written[i >> 3] & (unsigned char)~(1u << (i & 7));
    if (end - i >= 8) {
        memset(a->written + (i >> 3), on ? 0xff : 0, (end - i) >> 3);
        i += (end - i) & ~(uint64_t)7;
    }
    for (; i < end; i++)
        a->written[i >> 3] = on ? a->written[i >> 3] | (unsigned char)(1u << (i & 7))
                                : a->written[i >> 3] & (unsigned char)~(1u << (i & 7));
}

sim_status sim_memcpy_htod(sim_t *s, uint64_t dst, const void *src, size_t bytes)
{
    sim_alloc *a = find_alloc(s, dst, bytes);
    if (!a)
        return SIM_ERR_LAUNCH;
    if (bytes)
        memcpy(a->data + (dst - a->base), src, bytes);
    mark_written(a, dst - a->base, bytes, 1);
    return SIM_OK;
}

sim_status sim_set_written(sim_t *s, uint64_t dptr, size_t bytes, int written)
{
    sim_alloc *a = find_alloc(s, dptr, bytes);
    if (!a)
        return SIM_ERR_LAUNCH;
    mark_written(a, dptr - a->base, bytes, written);
    return SIM_OK;
}

sim_status sim_memcpy_dtoh(sim_t *s, void *dst, uint64_t src, size_t bytes)
{
    sim_alloc *a = find_alloc(s, src, bytes);
    if (!a)
        return SIM_ERR_LAUNCH;
    if (bytes)
        memcpy(dst, a->data + (src - a->base), bytes);
    return SIM_OK;
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

/* ------------------------------------------------------------------ faults */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

void sim_where(const sim_ctx *c, const ptx_insn *in, char *buf, size_t n)
{
    const char *f = ptx_source_file(c->m, in->src_file);
    if (f && in->src_line > 0)
        snprintf(buf, n, "%s:%d (PTX line %d)", base_name(f), in->src_line, in->ptx_line);
    else
        snprintf(buf, n, "PTX line %d", in->ptx_line);
}

static void thread_idx(const sim_ctx *c, unsigned t, unsigned out[3])
{
    out[0] = t % c->block[0];
    out[1] = (t / c->block[0]) % c->block[1];
    out[2] = t / (c->block[0] * c->block[1]);
}

void sim_warps_state(const sim_ctx *c, char *buf, size_t n)
{
    buf[0] = '\0';
    if (c->nwarps < 2)
        return;
    size_t used =
        (size_t)snprintf(buf, n, "; warps of block (%u,%u,%u):", c->bid[0], c->bid[1], c->bid[2]);
    unsigned named = 0, exited = 0, more = 0;
    for (unsigned w = 0; w < c->nwarps && used < n; w++) {
        const unsigned base = w * 32, nl = c->nthreads - base < 32 ? c->nthreads - base : 32;
        int at_bar = -1, running = -1, live = 0;
        for (unsigned l = 0; l < nl; l++) {
            const unsigned t = base + l;
            if (c->state[t] == SIM_T_EXIT)
                continue;
            live = 1;
            if (c->state[t] == SIM_T_BAR && at_bar < 0)
                at_bar = c->bar_pc[t];
            else if (c->state[t] == SIM_T_RUN && running < 0)
                running = (int)c->pc[t];
        }
        if (!live) {
            exited++;
            continue;
        }
        if (named == 6) {
            more++;
            continue;
        }
        char where[200];
        const int pc = running >= 0 ? (c->loop_pc[w] >= 0 ? c->loop_pc[w] : running) : at_bar;
        sim_where(c, &c->code[pc], where, sizeof where);
        used += (size_t)snprintf(buf + used, n - used, "%s %u %s %s", named ? "," : "", w,
                                 running >= 0 && at_bar >= 0 ? "has lanes at a barrier and loops at"
                                 : running >= 0              ? "loops at"
                                                             : "waits at the barrier at",
                                 where);
        named++;
    }
    if (more && used < n)
        used += (size_t)snprintf(buf + used, n - used, ", %u more", more);
    if (exited && used < n)
        snprintf(buf + used, n - used, "%s %u exited", named || more ? "," : "", exited);
}

void sim_fault_at(sim_ctx *c, unsigned t, const ptx_insn *in, sim_fault_kind kind, const char *fmt,
                  ...)
{
    if (c->faulted)
        return;
    c->faulted = 1;
    sim_fault *f = &c->res->fault;
    f->kind = kind;
    memcpy(f->block, c->bid, sizeof f->block);
    thread_idx(c, t, f->thread);
    if (in) {
        f->ptx_line = in->ptx_line;
        f->src_file = ptx_source_file(c->m, in->src_file);
        f->src_line = in->src_line;
    }
    /* The message says what happened; where (block, thread, lines) is in the fields. */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
}

static const char *space_name(int space)
{
    static const char *n[] = {"generic", "global", "shared", "local", "const", "param"};
    return space >= 0 && space < 6 ? n[space] : "?";
}

static const char *kind_name(int kind)
{
    return kind == 1 ? "store" : kind == 2 ? "atomic" : "load";
}

/* Describes where a bad global address lies relative to the nearest allocation. */
static void describe_global(sim_t *s, uint64_t addr, unsigned size, char *buf, size_t n)
{
    /* the nearest allocation before addr and the nearest after it; an index past the end
     * of a buffer is named from that buffer while it is within the buffer's own length
     * past it (x[i + 100] of a 64-element x), even when the next allocation is nearer */
    const sim_alloc *prev = NULL, *next = NULL;
    uint64_t dprev = UINT64_MAX, dnext = UINT64_MAX;
    for (int i = 0; i < s->nallocs; i++) {
        const sim_alloc *a = &s->allocs[i];
        uint64_t end = a->base + a->size;
        if (addr >= a->base && addr < end) { /* straddles the end */
            snprintf(buf, n, "the last %u bytes lie past the end of '%s' (%zu bytes)",
                     (unsigned)(addr + size - end), a->label, a->size);
            return;
        }
        if (addr >= end && addr - end < dprev) {
            dprev = addr - end;
            prev = a;
        } else if (addr < a->base && a->base - addr < dnext) {
            dnext = a->base - addr;
            next = a;
        }
    }
    const int use_prev = prev && (dprev <= prev->size || dprev <= dnext);
    const uint64_t dist = use_prev ? dprev : dnext;
    const sim_alloc *best = use_prev ? prev : next;
    if (!best || dist > (1u << 20))
        snprintf(buf, n, "not inside any allocation%s", addr < 4096 ? " (a null pointer?)" : "");
    else if (use_prev)
        snprintf(buf, n, "%llu bytes past the end of '%s' (%zu bytes)", (unsigned long long)dist,
                 best->label, best->size);
    else
        snprintf(buf, n, "%llu bytes before the start of '%s' (%zu bytes)",
                 (unsigned long long)dist, best->label, best->size);
}

/* ------------------------------------------------------------------ findings */

/* The source name of a .shared variable from its PTX name: NVRTC, nvcc and clang name
 * a block-scope `__shared__ float s[64]` of kernel k as an Itanium C++ ABI local name,
 * _ZZ<k's encoding>E1s (maybe followed by _<n>); other names are as declared. */
static void shared_source_name(const char *ptx, char *buf, size_t n)
{
    if (strncmp(ptx, "_ZZ", 3) == 0)
        for (const char *e = ptx + strlen(ptx) - 1; e > ptx + 3; e--) {
            if (*e != 'E' || e[1] < '1' || e[1] > '9')
                continue;
            char *end;
            const long len = strtol(e + 1, &end, 10);
            const size_t rest = strlen(end);
            if (len > 0 && (size_t)len <= rest && (rest == (size_t)len || end[len] == '_')) {
                snprintf(buf, n, "%.*s", (int)len, end);
                return;
            }
        }
    snprintf(buf, n, "%s", ptx);
}

void sim_shared_name(const sim_ctx *c, uint64_t off, unsigned size, char *buf, size_t n)
{
    buf[0] = '\0';
    const ptx_module *m = c->m;
    const int entry = (int)(c->entry - m->funcs);
    for (int i = 0; i < m->nshvars; i++) {
        const ptx_shvar *v = &m->shvars[i];
        if ((v->func >= 0 && v->func != entry) || !v->name)
            continue;
        const ptx_sym *s = &m->syms[v->sym];
        const uint64_t base = s->kind == PTX_SYM_DYNSHARED ? c->dynshared_off : (uint64_t)s->value;
        const uint64_t end = s->kind == PTX_SYM_DYNSHARED ? c->shared_size : base + v->size;
        if (off < base || off >= end)
            continue;
        char name[64];
        shared_source_name(v->name, name, sizeof name);
        const uint64_t d = off - base;
        if (v->size && v->size == size && d == 0)
            snprintf(buf, n, "%s", name); /* a scalar */
        else if (size && d % size == 0)
            snprintf(buf, n, "%s[%llu]", name, (unsigned long long)(d / size));
        else
            snprintf(buf, n, "%s+%llu", name, (unsigned long long)d);
        return;
    }
}

static void fill_access(const sim_ctx *c, sim_access *a, unsigned t, int32_t pc, int op)
{
    memset(a, 0, sizeof *a);
    a->op = op;
    memcpy(a->block, c->bid, sizeof a->block);
    thread_idx(c, t, a->thread);
    if (pc >= 0) {
        const ptx_insn *in = &c->code[pc];
        a->ptx_line = in->ptx_line;
        a->src_file = ptx_source_file(c->m, in->src_file);
        a->src_line = in->src_line;
    }
}

/* Records a finding, or counts it when one of the same kind already names the same
 * lines (and hazard). Returns the new finding to fill in (its message), or NULL when it
 * was merged or dropped. */
static sim_finding *add_finding(sim_ctx *c, sim_finding_kind kind, int is_error, sim_space sp,
                                uint64_t addr, unsigned size, sim_hazard hz, unsigned t, int32_t pc,
                                int op, int other_t, int32_t other_pc, int other_op)
{
    sim_result *r = c->res;
    if (is_error)
        r->nerrors++;
    else
        r->nwarnings++;
    int ptx_line = pc >= 0 ? c->code[pc].ptx_line : 0;
    int optx_line = other_pc >= 0 ? c->code[other_pc].ptx_line : 0;
    for (int i = 0; i < r->nfindings; i++) {
        sim_finding *f = &r->findings[i];
        if (f->kind == kind && f->hazard == hz && f->access.ptx_line == ptx_line &&
            f->other.ptx_line == optx_line) {
            f->count++;
            return NULL;
        }
    }
    int max = c->s->cfg.max_findings > 0 ? c->s->cfg.max_findings : SIM_DEFAULT_MAX_FINDINGS;
    if (r->nfindings >= max) {
        r->findings_dropped++;
        return NULL;
    }
    if (!r->findings) {
        r->findings = calloc((size_t)max, sizeof *r->findings);
        if (!r->findings) {
            r->findings_dropped++;
            return NULL;
        }
    }
    sim_finding *f = &r->findings[r->nfindings++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->is_error = is_error;
    f->space = sp;
    f->address = addr;
    f->size = size;
    f->hazard = hz;
    f->count = 1;
    fill_access(c, &f->access, t, pc, op);
    if (other_t >= 0)
        fill_access(c, &f->other, (unsigned)other_t, other_pc, other_op);
    if (sp == SIM_SPACE_SHARED)
        sim_shared_name(c, addr, size, f->var, sizeof f->var);
    return f;
}

/* "thread (x,y,z) of block (x,y,z)" */
static void who(const sim_ctx *c, unsigned t, char *buf, size_t n)
{
    unsigned th[3];
    thread_idx(c, t, th);
    snprintf(buf, n, "thread (%u,%u,%u) of block (%u,%u,%u)", th[0], th[1], th[2], c->bid[0],
             c->bid[1], c->bid[2]);
}

static const char *op_verb(int op, int past)
{
    if (op == 1)
        return past ? "wrote" : "writes";
    if (op == 2)
        return past ? "updated atomically" : "updates atomically";
    return past ? "read" : "reads";
}

/* ------------------------------------------------------------------ racecheck */

static const char *hazard_name(sim_hazard h)
{
    return h == SIM_HAZ_RAW   ? "read after write"
           : h == SIM_HAZ_WAR ? "write after read"
                              : "write after write";
}

static __attribute__((cold, noinline)) void report_race(sim_ctx *c, unsigned t, const ptx_insn *in,
                                                        int op, uint64_t addr, unsigned size,
                                                        sim_hazard hz, unsigned ot, int32_t opc,
                                                        int oop)
{
    int32_t pc = (int32_t)(in - c->code);
    int same_warp = t / 32 == ot / 32;
    /* an error inside one warp too: independent thread scheduling (Volta+, CUDA C++
     * Programming Guide "Independent Thread Scheduling") lets its lanes run in any
     * order, so lockstep code without __syncwarp() is wrong on today's GPUs */
    sim_finding *f = add_finding(c, same_warp ? SIM_FIND_WARP_RACE : SIM_FIND_RACE, 1,
                                 SIM_SPACE_SHARED, addr, size, hz, t, pc, op, (int)ot, opc, oop);
    if (!f)
        return;
    char a[200], b[200], wa[80], wb[80], at[120];
    sim_where(c, in, a, sizeof a);
    sim_where(c, &c->code[opc], b, sizeof b);
    who(c, t, wa, sizeof wa);
    who(c, ot, wb, sizeof wb);
    if (f->var[0]) /* "s[63] (shared offset 0xfc)" */
        snprintf(at, sizeof at, "of %s (shared offset 0x%llx)", f->var, (unsigned long long)addr);
    else
        snprintf(at, sizeof at, "at shared offset 0x%llx", (unsigned long long)addr);
    if (!same_warp)
        snprintf(f->message, sizeof f->message,
                 "shared-memory race (%s hazard): %s (warp %u) %s %u bytes %s at %s, which %s "
                 "(warp %u) %s at %s, with no __syncthreads() between them",
                 hazard_name(hz), wa, t / 32, op_verb(op, 0), size, at, a, wb, ot / 32,
                 op_verb(oop, 1), b);
    else
        snprintf(f->message, sizeof f->message,
                 "race under independent thread scheduling (%s hazard inside warp %u): %s "
                 "(lane %u) %s %u bytes %s at %s, which lane %u %s at %s, with no "
                 "__syncwarp() between them; it works only while the warp runs in lockstep, "
                 "which Volta and later GPUs do not promise",
                 hazard_name(hz), t / 32, wa, t % 32, op_verb(op, 0), size, at, a, ot % 32,
                 op_verb(oop, 1), b);
}

/* Checks and records, in one shadow sh (a shared byte, or a whole word whose shadows
 * agree), an access of thread t of warp w (its __syncwarp count ws, at pc = in; E the
 * current epoch) to shared bytes [a, a+size). op: 0 load, 1 store, 2 atomic (atomics
 * are checked against plain accesses of other threads, not against each other, and are
 * not recorded). Reports only when !reported (one report per access); returns whether
 * the access has been reported. */
/* The body of race_one and race_word, SH_(field) naming the shadow's field. */
#define RACE_ONE_BODY                                                                              \
    if (!reported) {                                                                               \
        int ot = -1; /* the earlier access this one conflicts with */                              \
        int32_t opc = 0;                                                                           \
        int oop = 0;                                                                               \
        sim_hazard hz = SIM_HAZ_NONE;                                                              \
        if (SH_(w_epoch) == E && SH_(w_tid) != t &&                                                \
            !(SH_(w_tid) / 32u == w && SH_(w_wsync) != ws)) {                                      \
            ot = SH_(w_tid);                                                                       \
            opc = SH_(w_pc);                                                                       \
            oop = 1;                                                                               \
            hz = op == 0 ? SIM_HAZ_RAW : SIM_HAZ_WAW;                                              \
        } else if (op != 0 && SH_(r_epoch) == E) {                                                 \
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
            report_race(c, t, in, op, a, size, hz, (unsigned)ot, opc, oop);                        \
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
static void race_check(sim_ctx *c, unsigned t, uint64_t a, unsigned size, int op,
                       const ptx_insn *in)
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

void sim_check_warp_sync(sim_ctx *c, unsigned w)
{
    if (c->wsync)
        c->wsync[w]++;
}

/* ------------------------------------------------------------------ initcheck */

/* Whether the n bits from bit o of the initcheck bitmap b are all set. */
static int bits_all_set(const unsigned char *b, uint64_t o, uint64_t n)
{
    uint64_t i = o;
    const uint64_t end = o + n;
    for (; i < end && (i & 7); i++)
        if (!((b[i >> 3] >> (i & 7)) & 1))
            return 0;
    for (; i + 64 <= end; i += 64) {
        uint64_t v;
        memcpy(&v, b + (i >> 3), 8);
        if (v != UINT64_MAX)
            return 0;
    }
    for (; i + 8 <= end; i += 8)
        if (b[i >> 3] != 0xff)
            return 0;
    for (; i < end; i++)
        if (!((b[i >> 3] >> (i & 7)) & 1))
            return 0;
    return 1;
}

static int all_written(const unsigned char *bits, uint64_t off, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        if (!(bits[(off + i) >> 3] & (1u << ((off + i) & 7))))
            return 0;
    return 1;
}

static __attribute__((cold, noinline)) void report_uninit(sim_ctx *c, unsigned t,
                                                          const ptx_insn *in, sim_space sp,
                                                          uint64_t addr, unsigned size,
                                                          const char *what)
{
    int32_t pc = (int32_t)(in - c->code);
    sim_finding *f =
        add_finding(c, SIM_FIND_UNINIT_READ, 0, sp, addr, size, SIM_HAZ_NONE, t, pc, 0, -1, -1, 0);
    if (!f)
        return;
    char where[200], wa[80];
    sim_where(c, in, where, sizeof where);
    who(c, t, wa, sizeof wa);
    snprintf(f->message, sizeof f->message,
             "read of uninitialised memory: %s reads %u bytes at %s address 0x%llx (%s) at "
             "%s, but nothing wrote them: %s",
             wa, size, sp == SIM_SPACE_SHARED ? "shared" : "global", (unsigned long long)addr, what,
             where,
             sp == SIM_SPACE_SHARED
                 ? "shared memory starts with arbitrary values on a GPU (the simulator fills "
                   "it with a poison pattern)"
                 : "it was neither copied from the host nor stored by a kernel");
}

static void global_init_check(sim_ctx *c, unsigned t, sim_alloc *al, uint64_t a, unsigned size,
                              int kind, const ptx_insn *in)
{
    uint64_t off = a - al->base;
    if ((off & 7) + size <= 8) { /* the common case: all bits in one byte */
        unsigned char bits = (unsigned char)(((1u << size) - 1) << (off & 7));
        if (kind == 1 || (al->written[off >> 3] & bits) == bits) {
            al->written[off >> 3] |= bits;
            return;
        }
    }
    /* a load, or an atomic (it reads the word before it writes it) */
    if (kind != 1 && !all_written(al->written, off, size)) {
        char what[120];
        snprintf(what, sizeof what, "byte offset %llu of '%s'", (unsigned long long)off, al->label);
        report_uninit(c, t, in, SIM_SPACE_GLOBAL, a, size, what);
    }
    if (kind != 0)
        for (unsigned i = 0; i < size; i++)
            al->written[(off + i) >> 3] |= (unsigned char)(1u << ((off + i) & 7));
}

/* ------------------------------------------------------- global-memory races */

/* A record's block field: the launch's tag (sim_grace.tag) in bits 23..31, the linear
 * block + 1 in bits 0..22; a record of another launch, or 0, is empty. */
#define GRACE_KEY(c) (((c)->grace->tag << 23) | ((c)->block_linear + 1))
static inline int grace_live(const sim_ctx *c, uint32_t b)
{
    return b != 0 && b >> 23 == c->grace->tag;
}

/* A zeroed shadow of n words: anonymous pages, as transparent huge pages where the
 * kernel offers them (the shadow is 8 bytes per byte checked: with 4 KiB pages, faulting
 * it in costs more than checking the accesses). NULL without memory. */
static sim_gword *gsh_alloc(size_t n)
{
    const size_t bytes = n * sizeof(sim_gword);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= ((size_t)2 << 20))
        (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

static void gsh_free(sim_alloc *al)
{
    if (al->gsh)
        munmap(al->gsh, ((al->size + 3) / 4 ? (al->size + 3) / 4 : 1) * sizeof(sim_gword));
    al->gsh = NULL;
}

/* Allocation al's race shadow; NULL without memory or over SIM_GRACE_MAX_BYTES (the
 * allocation goes unchecked). Records carry their launch's tag, so a new launch finds
 * the old ones empty without clearing them; the shadow is cleared only when the 9-bit
 * tag may have come round since its last use (every 512 launches). */
static sim_gword *grace_shadow(sim_ctx *c, sim_alloc *al)
{
    const size_t words = (al->size + 3) / 4;
    if (al->size > SIM_GRACE_MAX_BYTES)
        return NULL;
    if (!al->gsh) {
        al->gsh = gsh_alloc(words ? words : 1);
    } else if (al->gsh_launch >> 9 != c->s->launches >> 9) {
        memset(al->gsh, 0, words * sizeof *al->gsh);
    }
    al->gsh_launch = c->s->launches;
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
    sim_finding *f = add_finding(c, SIM_FIND_GLOBAL_RACE, 1, SIM_SPACE_GLOBAL, a, size, hz, t,
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
    who(c, t, here, sizeof here);
    const unsigned *ot = f->other.thread, *obk = f->other.block;
    const int same_block = ob == c->block_linear;
    snprintf(f->message, sizeof f->message,
             "global-memory race (%s hazard): %s (warp %u) %s %u bytes at byte offset %llu "
             "of '%s' at %s, which thread (%u,%u,%u) of block (%u,%u,%u) (warp %u) %s at %s, "
             "%s",
             hazard_name(hz), here, t / 32, op_verb(op, 0), size,
             (unsigned long long)(a - al->base), al->label, wa, ot[0], ot[1], ot[2], obk[0], obk[1],
             obk[2], x->tid / 32u, op_verb(oop, 1), wb,
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
static __attribute__((noinline)) void grace_check_sh(sim_ctx *c, sim_gword *sh, unsigned t,
                                                     sim_alloc *al, uint64_t a, unsigned size,
                                                     int op, const ptx_insn *in)
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

/* grace_check_sh for the lanes whose accesses need it, after the common case inline: a
 * plain load or store of one aligned word (or two) whose word holds no live store of
 * another warp (for a store, no live read of another warp either), which records it
 * without a look at ordering. lanes: n accesses of `size` bytes, lane l's at a[l] (or
 * a0 + l * size when a is NULL) by thread base + l, where lanes says. */
static inline __attribute__((always_inline)) void
grace_lanes(sim_ctx *c, sim_alloc *al, unsigned base, uint32_t lanes, const uint64_t *addr,
            uint64_t a0, unsigned size, int op, const ptx_insn *in)
{
    sim_gword *const sh =
        al->gsh && al->gsh_launch == c->s->launches ? al->gsh : grace_shadow(c, al);
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
                        /* a read of another block stays (grace_check_sh would replace
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
        grace_check_sh(c, sh, base + l, al, a, size, op, in);
    }
}

/* grace_lanes for one thread's access. */
static void grace_check(sim_ctx *c, unsigned t, sim_alloc *al, uint64_t a, unsigned size, int op,
                        const ptx_insn *in)
{
    grace_lanes(c, al, t & ~31u, 1u << (t & 31), NULL, a - (uint64_t)(t & 31) * size, size, op, in);
}

/* ------------------------------------------------------------------ tracing */

/* ld, ldu, st, atom, red: the ops of a memory request (their trace classes, ptx_ops.def) */
static int is_mem_op(int op)
{
    const int k = op < PTX_OP_COUNT ? ptx_op_table[op].cls : TRACE_CLASS_OTHER;
    return k == TRACE_CLASS_LOAD || k == TRACE_CLASS_STORE || k == TRACE_CLASS_ATOMIC;
}

/* Makes instruction in (warp w) the pending memory request, with no lanes yet, unless it
 * already is. */
static void mreq_begin(sim_ctx *c, unsigned w, int sp, unsigned size, int kind, const ptx_insn *in)
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
static void mreq_add(sim_ctx *c, unsigned t, int sp, uint64_t a, unsigned size, int kind,
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
static void mreq_warp(sim_ctx *c, unsigned base, uint32_t em, int sp, const uint64_t *addr,
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
static void mreq_row(sim_ctx *c, unsigned base, int sp, uint64_t a, unsigned size, int kind,
                     const ptx_insn *in)
{
    if (!is_mem_op(in->op))
        return;
    mreq_begin(c, base / 32, sp, size, kind, in);
    c->mreq_mask = UINT32_MAX;
    for (unsigned l = 0; l < 32; l++)
        c->mreq_addr[l] = a + (uint64_t)l * size;
}

/* The register slots instruction in writes (its destinations), at most 4 in out;
 * returns how many. No registers for stores, branches, barriers (bar.red's result
 * arrives at the release, after the issue: not recorded) and the like. */
static int insn_dests(const ptx_insn *in, uint16_t out[4])
{
    switch (in->op) {
    case PTX_OP_st:
    case PTX_OP_red:
    case PTX_OP_bar:
    case PTX_OP_barrier:
    case PTX_OP_bra:
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
    uint16_t dst[4];
    int nd = insn_dests(in, dst);
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
static void trace_flush(sim_ctx *c)
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

void sim_trace_issue(sim_ctx *c, unsigned w, uint32_t pc, uint32_t mask, uint32_t pred)
{
    trace_flush(c);
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

static void trace_block(sim_ctx *c, int kind)
{
    if (!c->trace)
        return;
    trace_flush(c);
    trace_event ev = {0};
    ev.kind = (uint8_t)kind;
    ev.block = c->block_linear;
    ev.aux = c->slot % (uint32_t)sim_device()->sm_count;
    ev.pc = -1;
    ev.time = c->steps;
    trace_append(c->trace, &ev, NULL);
}

static void type_suffix(int ty, char *buf, size_t n)
{
    static const char cls[] = {'b', 'u', 's', 'f', 0};
    int tc = PTX_TCLASS(ty) >> 4;
    if (ty == PTX_T_NONE || tc > 3)
        buf[0] = 0;
    else
        snprintf(buf, n, ".%c%u", cls[tc], PTX_TSIZE(ty) * 8);
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
        const char *name = in->op < PTX_OP_COUNT ? ptx_op_table[in->op].name : "?";
        ti[pc].src_line = in->src_line;
        ti[pc].src_file = (int16_t)in->src_file;
        ti[pc].ptx_line = in->ptx_line;
        ti[pc].cls = in->op < PTX_OP_COUNT ? ptx_op_table[in->op].cls : TRACE_CLASS_OTHER;
        ti[pc].is_float = PTX_TCLASS(in->type) == PTX_TC_F;
        char ty[8];
        type_suffix(in->type, ty, sizeof ty);
        const char *sp = is_mem_op(in->op) && in->space != SIM_SPACE_GENERIC
                             ? trace_space_name(in->space)
                             : NULL;
        snprintf(ti[pc].mnemonic, sizeof ti[pc].mnemonic, "%s%s%s%s", name, sp ? "." : "",
                 sp ? sp : "", ty);
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

static int trace_setup(sim_ctx *c, const char *kernel)
{
    if (trace_begin_launch(c->trace, kernel, c->grid, c->block) < 0)
        return -1;
    return sim_trace_describe(c->m, c->trace);
}

/* sim_mem for every access but the common load of a kernel parameter (below). */
static __attribute__((noinline)) void *mem_checked(sim_ctx *c, unsigned t, int space, uint64_t addr,
                                                   unsigned size, int kind, const ptx_insn *in)
{
    uint64_t a = addr;
    int sp = space;
    if (sp == SIM_SPACE_GENERIC) {
        if (a >= SIM_SHARED_WIN && a - SIM_SHARED_WIN < SIM_WIN_SIZE) {
            sp = SIM_SPACE_SHARED;
            a -= SIM_SHARED_WIN;
        } else if (a >= SIM_LOCAL_WIN && a - SIM_LOCAL_WIN < SIM_WIN_SIZE) {
            sp = SIM_SPACE_LOCAL;
            a -= SIM_LOCAL_WIN;
        } else {
            sp = SIM_SPACE_GLOBAL;
        }
    }
    if (size > 1 && (addr & (size - 1)) != 0) {
        if (!c->faulted) {
            sim_fault_at(c, t, in, SIM_FAULT_MISALIGNED,
                         "misaligned %s of %u bytes at %s address 0x%llx", kind_name(kind), size,
                         space_name(space), (unsigned long long)addr);
            sim_fault *f = &c->res->fault;
            f->space = (sim_space)sp;
            f->is_store = kind;
            f->address = addr;
            f->size = size;
        }
        return NULL;
    }
    char why[200];
    why[0] = 0;
    switch (sp) {
    case SIM_SPACE_GLOBAL:
    case SIM_SPACE_CONST: {
        sim_alloc *al = find_alloc(c->s, a, size);
        if (al) {
            if ((c->checks & SIM_CHECK_INIT) && sp == SIM_SPACE_GLOBAL)
                global_init_check(c, t, al, a, size, kind, in);
            if (c->grace && sp == SIM_SPACE_GLOBAL)
                grace_check(c, t, al, a, size, kind, in);
            if (c->trace_mem)
                mreq_add(c, t, sp, a, size, kind, in);
            return al->data + (a - al->base);
        }
        describe_global(c->s, a, size, why, sizeof why);
        break;
    }
    case SIM_SPACE_SHARED:
        if (a <= c->shared_size && size <= c->shared_size - a) {
            if (c->checks & SIM_CHECK_RACE)
                race_check(c, t, a, size, kind, in);
            if (c->checks & SIM_CHECK_INIT) {
                /* an atomic reads the word before it writes it */
                if (kind != 1 && memchr(c->shared_written + a, 0, size))
                    report_uninit(c, t, in, SIM_SPACE_SHARED, a, size,
                                  "never stored by this block");
                if (kind != 0)
                    memset(c->shared_written + a, 1, size);
            }
            if (c->trace_mem)
                mreq_add(c, t, sp, a, size, kind, in);
            return c->shared + a;
        }
        snprintf(why, sizeof why, "outside the block's %zu bytes of shared memory", c->shared_size);
        break;
    case SIM_SPACE_LOCAL: {
        /* the thread's stack: its frames up to the end of the current function's */
        uint64_t top = c->lbase[t] + (uint64_t)c->m->funcs[in->func].local_size;
        if (top > c->localcap)
            top = c->localcap;
        if (a <= top && size <= top - a) {
            if (c->trace_mem)
                mreq_add(c, t, sp, a, size, kind, in);
            return c->local + (size_t)t * c->localcap + a;
        }
        snprintf(why, sizeof why,
                 "outside the thread's %llu bytes of local memory (its local arrays and "
                 "spilled variables)",
                 (unsigned long long)top);
        break;
    }
    case SIM_SPACE_PARAM:
        if (a >= SIM_PARAM_FRAME) {
            uint64_t o = a - SIM_PARAM_FRAME;
            if (o <= c->paramcap && size <= c->paramcap - o)
                return c->params + (size_t)t * c->paramcap + o;
            snprintf(why, sizeof why, "outside the parameter frames");
        } else if (kind != 0) {
            snprintf(why, sizeof why, "kernel parameters are read-only");
        } else if (a <= c->kparam_size && size <= c->kparam_size - a) {
            return c->kparams + a;
        } else {
            snprintf(why, sizeof why, "outside the %zu bytes of kernel parameters", c->kparam_size);
        }
        break;
    default: snprintf(why, sizeof why, "unknown state space");
    }
    if (!c->faulted) {
        sim_fault_at(c, t, in, SIM_FAULT_OUT_OF_BOUNDS,
                     "out-of-bounds %s of %u bytes %s %s address 0x%llx: %s", kind_name(kind), size,
                     kind == 0 ? "from" : "to", space_name(sp), (unsigned long long)addr, why);
        sim_fault *f = &c->res->fault;
        f->space = (sim_space)sp;
        f->is_store = kind;
        f->address = addr;
        f->size = size;
    }
    return NULL;
}

void *sim_mem(sim_ctx *c, unsigned t, int space, uint64_t addr, unsigned size, int kind,
              const ptx_insn *in)
{
    /* a load of an aligned kernel parameter inside the parameters (ld.param, once per
     * warp): what mem_checked returns for it, without its frame */
    if (space == SIM_SPACE_PARAM && kind == 0 && addr <= c->kparam_size &&
        size <= c->kparam_size - addr && (size <= 1 || (addr & (size - 1)) == 0))
        return c->kparams + addr;
    return mem_checked(c, t, space, addr, size, kind, in);
}

/* The shared-memory lanes of sim_mem_warp for the common request: a plain load (op 0)
 * or store (op 1) of one aligned word per lane, no memory trace; race and sinit say
 * which checkers are on. Constant arguments give a loop without their branches; it does
 * exactly what the general loop in sim_mem_warp does for these requests. */
static inline __attribute__((always_inline)) void
shared_words(sim_ctx *c, unsigned base, uint32_t em, const uint64_t *addr, uint64_t off,
             const ptx_insn *in, unsigned char **ptr, const int op, const int race, const int sinit)
{
    const uint8_t *const same = c->shadow_same;
    uint32_t *const wmem = race ? c->wshadow->mem : NULL;
    unsigned char *const shm = c->shared, *const written = c->shared_written;
    const unsigned w = base / 32;
    const uint16_t ws = race ? c->wsync[w] : 0;
    const uint32_t E = c->epoch;
    const int32_t pc = (int32_t)(in - c->code);
    for (uint32_t m = em; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m), t = base + l;
        const uint64_t a = addr[l] - off;
        if (race) {
            if (same[a >> 2])
                race_word(c, wmem, a >> 2, t, w, ws, E, pc, op, in, a, 4, 0);
            else
                race_check(c, t, a, 4, op, in);
        }
        if (sinit) {
            unsigned char *sw = written + a;
            if (op == 0) {
                uint32_t u;
                memcpy(&u, sw, 4);
                if (u != 0x01010101u)
                    report_uninit(c, t, in, SIM_SPACE_SHARED, a, 4, "never stored by this block");
            } else {
                memcpy(sw, &(const uint32_t){0x01010101u}, 4);
            }
        }
        ptr[l] = shm + a;
    }
}

/* race_one's updates of one word's shadow (P: its fields, WSH(M, w_epoch, k)) by a
 * load of the lanes g of warp w (threads base + lane; ws its __syncwarp count, E the
 * epoch, pc the instruction), in lane order, when none of them can report (no write of
 * the word in this epoch): they come to this closed form. */
static inline __attribute__((always_inline)) void load_word(uint32_t *const P, const uint32_t g,
                                                            const unsigned base, const unsigned w,
                                                            const uint16_t ws, const uint32_t E,
                                                            const uint32_t pc)
{
#define F_(f) P[WSF_##f * 4]
    if (F_(r_epoch) != E) {
        /* the first lane becomes the epoch's first reader; each later one (same
         * warp, another thread) becomes the other reader in its warp: the last */
        F_(r_epoch) = E;
        F_(r_tid) = base + (unsigned)__builtin_ctz(g);
        F_(r_pc) = pc;
        F_(r_wsync) = ws;
        F_(rx_tid) = 0xffff;
        if (g & (g - 1)) {
            F_(ro_tid) = base + 31 - (unsigned)__builtin_clz(g);
            F_(ro_pc) = pc;
            F_(ro_wsync) = ws;
        } else {
            F_(ro_tid) = 0xffff;
        }
    } else {
        /* the first reader R stays: R itself refreshes r_pc and r_wsync; each other
         * lane becomes the reader in another warp than R's (rx) or the other one in
         * R's warp (ro): the last */
        const uint32_t R = F_(r_tid);
        uint32_t rest = g;
        if (R - base < 32 && ((g >> (R - base)) & 1)) {
            F_(r_pc) = pc;
            F_(r_wsync) = ws;
            rest &= ~(1u << (R - base));
        }
        if (rest) {
            const uint32_t t = base + 31 - (unsigned)__builtin_clz(rest);
            if (R / 32u != w) {
                F_(rx_tid) = t;
                F_(rx_pc) = pc;
            } else {
                F_(ro_tid) = t;
                F_(ro_pc) = pc;
                F_(ro_wsync) = ws;
            }
        }
    }
#undef F_
}

/* shared_words for a load (op 0) with racecheck on, in the common case where no lane
 * can report: every word read has its shadow in c->wshadow (shadow_same), none was
 * written in this epoch (race_one reports a load only against a write of the epoch),
 * and with initcheck (sinit) all its bytes were stored. Every lane's address must be
 * 4-byte aligned; the bounds are checked here (each lane inside the shared memory, as
 * sim_mem_warp requires). The lanes are grouped by word, the words within 64 of word
 * k0: race_one's updates of one word by its lanes in lane order come to a closed form
 * (see below), made once per word. Returns 0, having changed no state, when a word lies
 * outside that window or the shared memory, or fails the test (the caller then goes on
 * as without this path). */
static inline __attribute__((always_inline)) int
shared_loads(sim_ctx *c, unsigned base, uint32_t em, const uint64_t *addr, uint64_t off,
             uint64_t k0, const ptx_insn *in, unsigned char **ptr, const int sinit)
{
    uint32_t lanes[64] = {0}; /* per word from k0: its lanes */
    uint8_t words[32];        /* the words read (from k0), in first-lane order */
    unsigned n = 0;
    uint64_t out = 0; /* a lane's word outside the window: bit 6 up set */
    unsigned char *const shm = c->shared;
#define GROUP_LANE(L)                                                                              \
    do {                                                                                           \
        const uint64_t a = addr[L] - off, s = (a >> 2) - k0;                                       \
        out |= s;                                                                                  \
        if (s < 64) {                                                                              \
            if (!lanes[s])                                                                         \
                words[n++] = (uint8_t)s;                                                           \
            lanes[s] |= 1u << (L);                                                                 \
        }                                                                                          \
        ptr[L] = shm + a;                                                                          \
    } while (0)
    if (em == UINT32_MAX) {
        for (unsigned l = 0; l < 32; l++)
            GROUP_LANE(l);
    } else {
        for (uint32_t m = em; m; m &= m - 1)
            GROUP_LANE((unsigned)__builtin_ctz(m));
    }
#undef GROUP_LANE
    if (out >= 64)
        return 0;
    const uint64_t words_in = c->shared_size / 4; /* whole words inside the memory */
    const uint8_t *const same = c->shadow_same;
    uint32_t *const M = c->wshadow->mem;
    const unsigned char *const written = c->shared_written;
    const uint32_t E = c->epoch;
    for (unsigned i = 0; i < n; i++) {
        const uint64_t k = k0 + words[i];
        if (k >= words_in || !same[k] || *WSH(M, w_epoch, k) == E)
            return 0;
        if (sinit) {
            uint32_t u;
            memcpy(&u, written + 4 * k, 4);
            if (u != 0x01010101u)
                return 0;
        }
    }
    const unsigned w = base / 32;
    const uint16_t ws = c->wsync[w];
    const uint32_t pc = (uint32_t)(in - c->code);
    for (unsigned i = 0; i < n; i++)
        load_word(WSH(M, w_epoch, k0 + words[i]), lanes[words[i]], base, w, ws, E, pc);
    return 1;
}

/* Whether the n bytes at p (a multiple of 16) all hold v: 16 bytes per vector. */
static inline __attribute__((always_inline)) int bytes_all(const uint8_t *p, unsigned n, uint8_t v)
{
    typedef uint64_t u64x2 __attribute__((vector_size(16)));
    const uint64_t w = 0x0101010101010101ull * v;
    const u64x2 want = {w, w};
    u64x2 diff = {0, 0};
    _Pragma("GCC unroll 8") for (unsigned i = 0; i < n; i += 16)
    {
        u64x2 x;
        memcpy(&x, p + i, sizeof x);
        diff |= x ^ want;
    }
    return (diff[0] | diff[1]) == 0;
}

/* Sets the 128 bytes at p to 1 (initcheck: a warp's 32 words stored). */
static inline void fill_ones(uint8_t *p)
{
    typedef uint8_t u8x16 __attribute__((vector_size(16)));
    const u8x16 one = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    _Pragma("GCC unroll 8") for (unsigned i = 0; i < 128; i += 16) memcpy(p + i, &one, sizeof one);
}

/* Four consecutive word shadows' values of one field (shared_range). */
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

/* racecheck of a warp's plain load (op 0) or store (op 1) of one word per lane, lane l of
 * the lanes em (l0 <= l <= l1) accessing word kf + l - l0, every word's shadow_same flag
 * set: race_word on each word's shadow in lane order, as shared_words does. The words are
 * distinct, so when no lane conflicts with an earlier access (race_one's tests, on four
 * words at a time) the lanes' updates are independent and are made four words at a time
 * too, in the blocks of four words that hold them; the words of other lanes (V) keep
 * their shadows. mode 0: a full warp, kf a multiple of 4 (eight blocks); 1: a full warp,
 * kf not one (nine blocks); 2: the lanes em, l0 their first and l1 their last. */
static const sim_wm wm_bits4[16] = {
    /* bit e of the index set: element e all ones */
    {0, 0, 0, 0},   {-1, 0, 0, 0},   {0, -1, 0, 0},   {-1, -1, 0, 0},
    {0, 0, -1, 0},  {-1, 0, -1, 0},  {0, -1, -1, 0},  {-1, -1, -1, 0},
    {0, 0, 0, -1},  {-1, 0, 0, -1},  {0, -1, 0, -1},  {-1, -1, 0, -1},
    {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1},
};
static inline __attribute__((always_inline)) void
shared_range_at(sim_ctx *c, unsigned base, uint32_t em, unsigned l0, unsigned l1, uint64_t kf,
                const ptx_insn *in, const int op, const int mode)
{
    uint32_t *const S = c->wshadow->mem;
    const int mis = mode != 0; /* V is needed */
    const unsigned r = mis ? (unsigned)(kf & 3) : 0;
    const unsigned nblk = mode == 0   ? 8
                          : mode == 1 ? 9
                                      : (unsigned)(((kf + l1 - l0) >> 2) - (kf >> 2) + 1);
    const uint64_t kb = kf - r;                                /* the first block */
    uint32_t *const S0 = S + (kb >> 2) * (4 * SIM_WSH_FIELDS); /* its shadows */
    /* field f of block j's four words */
#define BF(f, j) (S0 + (size_t)(j) * (4 * SIM_WSH_FIELDS) + WSF_##f * 4)
    const unsigned w = base / 32;
    const uint16_t ws = c->wsync[w];
    const uint32_t E = c->epoch;
    const int32_t pc = (int32_t)(in - c->code);
    const sim_wv Ev = WV(E), Wv = WV(w), WSv = WV(ws), NONE = WV(0xffffu);
    const sim_wv PCv = WV((uint32_t)pc);
    /* block j's words: lanes 4 * j - r + l0 + {0, 1, 2, 3} (LN), those that are lanes of
     * em (V; the shift is at most 34: the last block holds lane l1's word) */
#define LN(j) (WV(4 * (j)-r + l0) + (sim_wv){0, 1, 2, 3})
#define V(j)                                                                                       \
    (mode == 0   ? (sim_wm){-1, -1, -1, -1}                                                        \
     : mode == 1 ? (sim_wm)(LN(j) < WV(32))                                                        \
                 : wm_bits4[(((uint64_t)em << 3) >> (4 * (j)-r + l0 + 3)) & 15])
    /* live fields: a write in this epoch (any store or load may conflict with it), a
     * read in this epoch (a store may conflict with it; a load updates it) */
    sim_wm wlive = {0, 0, 0, 0}, rlive = {0, 0, 0, 0};
    _Pragma("GCC unroll 9") for (unsigned j = 0; j < nblk; j++)
    {
        wlive |= V(j) & (wv_ld(BF(w_epoch, j)) == Ev);
        rlive |= V(j) & (wv_ld(BF(r_epoch, j)) == Ev);
    }
    const int any_w = wm_bits(wlive) != 0, any_r = wm_bits(rlive) != 0;
    if (any_w || (op == 1 && any_r)) {
        sim_wm bad = {0, 0, 0, 0};
        for (unsigned j = 0; j < nblk; j++) {
            const sim_wv tv = WV(base) + LN(j);
            sim_wm b = {0, 0, 0, 0};
            if (any_w) {
                const sim_wv wt = wv_ld(BF(w_tid, j));
                b = (wv_ld(BF(w_epoch, j)) == Ev) & (wt != tv) &
                    ~(((wt >> 5) == Wv) & (wv_ld(BF(w_wsync, j)) != WSv));
            }
            if (op == 1 && any_r) {
                const sim_wv rt = wv_ld(BF(r_tid, j)), rot = wv_ld(BF(ro_tid, j));
                b |= (wv_ld(BF(r_epoch, j)) == Ev) &
                     (((rt >> 5) != Wv) | (wv_ld(BF(rx_tid, j)) != NONE) |
                      ((rt != tv) & (wv_ld(BF(r_wsync, j)) == WSv)) |
                      ((rot != NONE) & (rot != tv) & (wv_ld(BF(ro_wsync, j)) == WSv)));
            }
            bad |= V(j) & b;
        }
        if (wm_bits(bad)) {
            /* a lane reports: each lane in order, as race_one would */
            for (uint32_t m = em; m; m &= m - 1) {
                const unsigned l = (unsigned)__builtin_ctz(m);
                const uint64_t k = kf + l - l0;
                race_word(c, S, k, base + l, w, ws, E, pc, op, in, 4 * k, 4, 0);
            }
            return;
        }
    }
    /* m ? x : the field's value (the words of other lanes keep theirs) */
#define ST(f, m, x) wv_st(BF(f, j), WV_SEL((m), (x), wv_ld(BF(f, j))))
    if (op == 0 && !any_r) {
        /* every lane the first reader of its word in this epoch (race_one's load) */
        _Pragma("GCC unroll 9") for (unsigned j = 0; j < nblk; j++)
        {
            const sim_wv tv = WV(base) + LN(j);
            if (!mis) {
                wv_st(BF(r_epoch, j), Ev);
                wv_st(BF(r_tid, j), tv);
                wv_st(BF(r_pc, j), PCv);
                wv_st(BF(r_wsync, j), WSv);
                wv_st(BF(rx_tid, j), NONE);
                wv_st(BF(ro_tid, j), NONE);
                continue;
            }
            const sim_wm v = V(j);
            ST(r_epoch, v, Ev);
            ST(r_tid, v, tv);
            ST(r_pc, v, PCv);
            ST(r_wsync, v, WSv);
            ST(rx_tid, v, NONE);
            ST(ro_tid, v, NONE);
        }
        return;
    }
    for (unsigned j = 0; j < nblk; j++) {
        const sim_wv tv = WV(base) + LN(j);
        const sim_wm v = V(j);
        if (op == 1) { /* race_one's store: the last writer, no readers */
            if (!mis) {
                wv_st(BF(w_epoch, j), Ev);
                wv_st(BF(w_tid, j), tv);
                wv_st(BF(w_pc, j), PCv);
                wv_st(BF(w_wsync, j), WSv);
                wv_st(BF(r_epoch, j), WV(0));
                continue;
            }
            ST(w_epoch, v, Ev);
            ST(w_tid, v, tv);
            ST(w_pc, v, PCv);
            ST(w_wsync, v, WSv);
            ST(r_epoch, v, WV(0));
            continue;
        }
        /* race_one's load: A the first reader of the epoch, B the first again, C one
         * in another warp than the first, D another in the first's warp */
        const sim_wv rt = wv_ld(BF(r_tid, j));
        const sim_wm A = v & (wv_ld(BF(r_epoch, j)) != Ev);
        const sim_wm B = v & ~A & (rt == tv);
        const sim_wm C = v & ~A & ~B & ((rt >> 5) != Wv);
        const sim_wm D = v & ~A & ~B & ~C;
        if (!mis) {
            /* the common blocks: every word's lane another reader than the first, in
             * another warp (C: only rx changes) or in the first's (D: only ro) */
            if (wm_bits(C) == 15) {
                wv_st(BF(rx_tid, j), tv);
                wv_st(BF(rx_pc, j), PCv);
                continue;
            }
            if (wm_bits(D) == 15) {
                wv_st(BF(ro_tid, j), tv);
                wv_st(BF(ro_pc, j), PCv);
                wv_st(BF(ro_wsync, j), WSv);
                continue;
            }
        }
        ST(r_epoch, v, Ev);
        wv_st(BF(r_tid, j), WV_SEL(A, tv, rt));
        ST(r_pc, A | B, PCv);
        ST(r_wsync, A | B, WSv);
        ST(rx_tid, A | C, WV_SEL(A, NONE, tv));
        ST(rx_pc, C, PCv);
        ST(ro_tid, A | D, WV_SEL(A, NONE, tv));
        ST(ro_pc, D, PCv);
        ST(ro_wsync, D, WSv);
    }
#undef ST
#undef V
#undef LN
#undef BF
}

/* shared_range_at for a full warp's 32 words from shared byte a0 (a multiple of 4). */
static inline __attribute__((always_inline)) void
shared_range(sim_ctx *c, unsigned base, uint64_t a0, const ptx_insn *in, const int op)
{
    if ((a0 >> 2) & 3)
        shared_range_at(c, base, UINT32_MAX, 0, 31, a0 >> 2, in, op, 1);
    else
        shared_range_at(c, base, UINT32_MAX, 0, 31, a0 >> 2, in, op, 0);
}

/* Whether the n bytes at p all hold v. */
static int bytes_all_n(const uint8_t *p, size_t n, uint8_t v)
{
    const uint64_t want = 0x0101010101010101ull * v;
    uint64_t d = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        d |= x ^ want;
    }
    for (; i < n; i++)
        d |= (uint64_t)(p[i] ^ v);
    return d == 0;
}

/* Lane l's pointer for a full warp's two half-warps (sim_mem_warp's half): lanes 0-15
 * from p, lanes 16-31 from p2, each half one range of `size` bytes per lane (half 1, 3)
 * or one address (half 2); two lanes per vector store. */
typedef uint64_t sim_u64x2 __attribute__((vector_size(16)));
static inline __attribute__((always_inline)) void fill_halves(unsigned char **ptr,
                                                              const unsigned char *p,
                                                              const unsigned char *p2,
                                                              const int half, const unsigned size)
{
    const uint64_t u = (uint64_t)(uintptr_t)p, u2 = (uint64_t)(uintptr_t)p2;
    const uint64_t st = half == 2 ? 0 : size;
    sim_u64x2 v = {u, u + st}, v2 = {u2, u2 + st};
    const sim_u64x2 step = {2 * st, 2 * st};
    _Pragma("GCC unroll 8") for (unsigned l = 0; l < 16; l += 2)
    {
        memcpy(ptr + l, &v, sizeof v);
        memcpy(ptr + l + 16, &v2, sizeof v2);
        v += step;
        v2 += step;
    }
}

/* A full warp's load (op 0) of one aligned word per lane, no memory trace, in one of two
 * patterns of its half-warps (a 16-wide tile read by a 16x16 block: row As[ty][k] and
 * column Bs[k][tx]), addr already checked for them and for alignment (sim_mem_warp):
 * half 1, both half-warps read the 16 consecutive words from addr[0] (lanes l and l + 16
 * read the word addr[0] + 4 * (l % 16)); half 2, lanes 0-15 read the word addr[0] and
 * lanes 16-31 the word addr[16]. What shared_loads (race) or shared_words (no race) does
 * for them, in the case where no lane can report: every word inside the shared memory,
 * with racecheck its shadow in c->wshadow (shadow_same) and no write of it in this
 * epoch, with initcheck (sinit) every byte stored. Returns 0, having changed no state,
 * otherwise (the caller goes on as without this path). */
static inline __attribute__((always_inline)) int
shared_halves(sim_ctx *c, unsigned base, const uint64_t *addr, uint64_t off, const ptx_insn *in,
              unsigned char **ptr, const int half, const int race, const int sinit)
{
    const uint64_t a0 = addr[0], a16 = addr[16], ssz = c->shared_size;
    if (a0 < off || a16 < off)
        return 0;
    const uint64_t s0 = a0 - off, s16 = a16 - off;
    const unsigned nb = half == 1 ? 64 : 4; /* bytes from s0 (and from s16) */
    if (s0 > ssz || nb > ssz - s0 || (half == 2 && (s16 > ssz || 4 > ssz - s16)))
        return 0;
    const unsigned char *const written = c->shared_written;
    if (sinit) {
        if (half == 1 && !bytes_all(written + s0, 64, 1))
            return 0;
        if (half == 2) {
            uint32_t u, u2;
            memcpy(&u, written + s0, 4);
            memcpy(&u2, written + s16, 4);
            if ((u ^ 0x01010101u) | (u2 ^ 0x01010101u))
                return 0;
        }
    }
    unsigned char *const shm = c->shared;
    if (!race) {
        fill_halves(ptr, shm + s0, shm + s16, half, 4);
        return 1;
    }
    const uint8_t *const same = c->shadow_same;
    uint32_t *const S = c->wshadow->mem;
    const uint32_t E = c->epoch;
    const uint64_t k0 = s0 >> 2, k16 = s16 >> 2;
    const unsigned w = base / 32;
    const uint16_t ws = c->wsync[w];
    const uint32_t pc = (uint32_t)(in - c->code);
    if (half == 2) {
        if (!same[k0] || !same[k16] || *WSH(S, w_epoch, k0) == E || *WSH(S, w_epoch, k16) == E)
            return 0;
        if (k0 == k16) {
            load_word(WSH(S, w_epoch, k0), UINT32_MAX, base, w, ws, E, pc);
        } else {
            load_word(WSH(S, w_epoch, k0), 0x0000ffffu, base, w, ws, E, pc);
            load_word(WSH(S, w_epoch, k16), 0xffff0000u, base, w, ws, E, pc);
        }
        fill_halves(ptr, shm + s0, shm + s16, 2, 4);
        return 1;
    }
    if (!bytes_all(same + k0, 16, 1))
        return 0;
    if (k0 & 3) {
        /* the words straddle blocks of four: one at a time */
        for (unsigned i = 0; i < 16; i++)
            if (*WSH(S, w_epoch, k0 + i) == E)
                return 0;
        for (unsigned i = 0; i < 16; i++)
            load_word(WSH(S, w_epoch, k0 + i), (1u << i) | (1u << (i + 16)), base, w, ws, E, pc);
        fill_halves(ptr, shm + s0, shm + s0, 1, 4);
        return 1;
    }
    const sim_wv Ev = WV(E), Wv = WV(w), WSv = WV(ws), NONE = WV(0xffffu), PCv = WV(pc);
    uint32_t *const S0 = WSH(S, w_epoch, k0); /* the blocks of four words from k0 */
    /* field f of the four words from k0 + i (i a multiple of 4) */
#define BF(f, i) (S0 + (size_t)((i) / 4) * (4 * SIM_WSH_FIELDS) + WSF_##f * 4)
    /* wlive: a word written in this epoch; notx: one whose first reader of the epoch
     * (if any) is in this warp */
    sim_wm wlive = {0, 0, 0, 0}, notx = {0, 0, 0, 0};
    _Pragma("GCC unroll 4") for (unsigned i = 0; i < 16; i += 4)
    {
        wlive |= wv_ld(BF(w_epoch, i)) == Ev;
        notx |= (wv_ld(BF(r_epoch, i)) != Ev) | ((wv_ld(BF(r_tid, i)) >> 5) == Wv);
    }
    if (wm_bits(wlive))
        return 0;
    if (!wm_bits(notx)) {
        /* every word read before in this epoch, first by another warp: lane i + 16
         * becomes each word's reader in another warp (X below) */
        for (unsigned i = 0; i < 16; i += 4) {
            const sim_wv L = {base + i + 16, base + i + 17, base + i + 18, base + i + 19};
            wv_st(BF(rx_tid, i), L);
            wv_st(BF(rx_pc, i), PCv);
        }
        fill_halves(ptr, shm + s0, shm + s0, 1, 4);
        return 1;
    }
    /* load_word on four words at a time: word k0 + i has the lanes i (F) and i + 16 (L);
     * A: no reader yet in this epoch; else R (the first reader) stays, and the other
     * lane (T: F when R is L, else L) becomes rx (R in another warp) or ro (X, Y) */
    for (unsigned i = 0; i < 16; i += 4) {
        const sim_wv F = {base + i, base + i + 1, base + i + 2, base + i + 3};
        const sim_wv L = F + WV(16);
        const sim_wv R = wv_ld(BF(r_tid, i));
        const sim_wm A = wv_ld(BF(r_epoch, i)) != Ev;
        const sim_wm RL = ~A & (R == L);
        const sim_wm inR = ~A & ((R == F) | (R == L));
        const sim_wm X = ~A & ((R >> 5) != Wv);
        const sim_wm Y = ~A & ~X;
        const sim_wv T = WV_SEL(RL, F, L);
        wv_st(BF(r_epoch, i), Ev);
        wv_st(BF(r_tid, i), WV_SEL(A, F, R));
        wv_st(BF(r_pc, i), WV_SEL(A | inR, PCv, wv_ld(BF(r_pc, i))));
        wv_st(BF(r_wsync, i), WV_SEL(A | inR, WSv, wv_ld(BF(r_wsync, i))));
        wv_st(BF(rx_tid, i), WV_SEL(A, NONE, WV_SEL(X, T, wv_ld(BF(rx_tid, i)))));
        wv_st(BF(rx_pc, i), WV_SEL(X, PCv, wv_ld(BF(rx_pc, i))));
        wv_st(BF(ro_tid, i), WV_SEL(A, L, WV_SEL(Y, T, wv_ld(BF(ro_tid, i)))));
        wv_st(BF(ro_pc, i), WV_SEL(A | Y, PCv, wv_ld(BF(ro_pc, i))));
        wv_st(BF(ro_wsync, i), WV_SEL(A | Y, WSv, wv_ld(BF(ro_wsync, i))));
    }
#undef BF
    fill_halves(ptr, shm + s0, shm + s0, 1, 4);
    return 1;
}

/* How a full warp's 32 addresses differ from lane l's a + l * step (l < 16) and lane
 * 16 + l's b + l * step: 0 when they match, two lanes per vector. Not inlined, so that
 * its loads stay in registers (sim_mem_warp's other paths read the lanes again). */
static __attribute__((noinline)) uint64_t halves_off(const uint64_t *addr, uint64_t a, uint64_t b,
                                                     uint64_t step)
{
    typedef uint64_t u64x2 __attribute__((vector_size(16)));
    u64x2 acc = {0, 0}, wa = {a, a + step}, wb = {b, b + step};
    const u64x2 st = {2 * step, 2 * step};
    _Pragma("GCC unroll 8") for (unsigned l = 0; l < 16; l += 2)
    {
        u64x2 v, v2;
        memcpy(&v, addr + l, sizeof v);
        memcpy(&v2, addr + l + 16, sizeof v2);
        acc |= (v ^ wa) | (v2 ^ wb);
        wa += st;
        wb += st;
    }
    return acc[0] | acc[1];
}

/* Warp-level fast path of sim_mem (see sim_internal.h): the common case of a warp's
 * request, every lane's access aligned and inside one global allocation or inside the
 * CTA's shared memory, with one allocation lookup for the warp. Nothing is changed
 * until every lane is known to pass; then the checkers and the trace see the lanes in
 * lane order, exactly as per-lane sim_mem calls would. */
int sim_mem_warp(sim_ctx *c, unsigned base, uint32_t em, int space, const uint64_t *addr,
                 unsigned size, int kind, const ptx_insn *in, unsigned char **ptr)
{
    if (!em)
        return 1;
    const unsigned l0 = (unsigned)__builtin_ctz(em);
    /* one pass: the lanes' address bits (alignment) and their smallest and largest
     * address (bounds, checked once for the warp) */
    uint64_t orv = 0, amin = UINT64_MAX, amax = 0, stride = 1;
    int minmax = 0; /* amin and amax still to be found (a full warp's lanes) */
    /* half: a full warp's two half-warps each one range from lanes 0 and 16, the same
     * one (1) or two (3), or each one address (2); pstride: part of a warp, its lanes'
     * addresses unit-stride from lane l0's */
    int half = 0, pstride = 0;
    if (em == UINT32_MAX) {
        /* stride: 0 when lane l's address is lane 0's + l * size for every lane (two
         * lanes per vector); then lane 0's address has the lanes' alignment (size a
         * power of two) and lanes 0 and 31 the smallest and largest address (no wrap) */
        typedef uint64_t u64x2 __attribute__((vector_size(16)));
        const uint64_t a0 = addr[0], sz = size, b = addr[16];
        /* lanes 1, 16 and 31 tell which patterns to test: a power-of-two size keeps the
         * alignment of lanes 0 and 16 in every lane; no range wraps */
        const int pow2 = (size & (size - 1)) == 0;
        if (pow2 && addr[1] == a0 + sz && a0 <= UINT64_MAX - 31 * sz) {
            if (addr[31] == a0 + 31 * sz && b == a0 + 16 * sz)
                stride = halves_off(addr, a0, a0 + 16 * sz, sz);
            /* two unit-stride half-warps, lane 16 from b */
            if (stride != 0 && b <= UINT64_MAX - 31 * sz && halves_off(addr, a0, b, sz) == 0)
                half = b == a0 ? 1 : 3;
        } else if (pow2 && addr[1] == a0 && a0 <= UINT64_MAX - 31 * sz &&
                   b <= UINT64_MAX - 31 * sz && halves_off(addr, a0, b, 0) == 0) {
            half = 2; /* two broadcasts: lanes 0-15 read a0, lanes 16-31 b */
        }
        if (stride == 0) {
            orv = a0;
            amin = a0;
            amax = a0 + 31 * sz;
        } else if (half) {
            /* the lanes' address bits are lanes 0 and 16's; their range is known */
            orv = a0 | b;
            amin = a0 < b ? a0 : b;
            amax = (a0 > b ? a0 : b) + (half == 2 ? 0 : 15 * sz);
        } else {
            /* the lanes' address bits; their smallest and largest address only when a
             * path below needs them (minmax) */
            u64x2 ov = {0, 0};
            _Pragma("GCC unroll 16") for (unsigned l = 0; l < 32; l += 2)
            {
                u64x2 v;
                memcpy(&v, addr + l, sizeof v);
                ov |= v;
            }
            orv = ov[0] | ov[1];
            minmax = 1;
        }
    } else {
        /* dev: 0 when lane l's address is lane l0's + (l - l0) * size for every lane */
        const uint64_t a_l0 = addr[l0];
        uint64_t dev = 0;
        for (uint32_t m = em; m; m &= m - 1) {
            const unsigned l = (unsigned)__builtin_ctz(m);
            const uint64_t a = addr[l];
            orv |= a;
            amin = a < amin ? a : amin;
            amax = a > amax ? a : amax;
            dev |= a ^ (a_l0 + (uint64_t)(l - l0) * size);
        }
        pstride = dev == 0;
    }
    if (size > 1 && (orv & (size - 1)) != 0)
        return 0; /* misaligned: sim_mem reports it for the right lane */
    int sp = space;
    uint64_t off = 0; /* generic address - state-space address */
    if (sp == SIM_SPACE_GENERIC) {
        const uint64_t a0 = addr[l0];
        if (a0 >= SIM_SHARED_WIN && a0 - SIM_SHARED_WIN < SIM_WIN_SIZE) {
            sp = SIM_SPACE_SHARED;
            off = SIM_SHARED_WIN;
        } else if (a0 >= SIM_LOCAL_WIN && a0 - SIM_LOCAL_WIN < SIM_WIN_SIZE) {
            return 0;
        } else {
            sp = SIM_SPACE_GLOBAL;
        }
        /* every lane in the same window */
        for (uint32_t m = em; m; m &= m - 1) {
            const uint64_t a = addr[__builtin_ctz(m)];
            const int sh = a >= SIM_SHARED_WIN && a - SIM_SHARED_WIN < SIM_WIN_SIZE;
            const int lo = a >= SIM_LOCAL_WIN && a - SIM_LOCAL_WIN < SIM_WIN_SIZE;
            if (lo || sh != (sp == SIM_SPACE_SHARED))
                return 0;
        }
    }
/* a fast path's success: with a memory trace (tmem), the lanes' addresses as sim_mem
 * would record them */
#define DONE(R)                                                                                    \
    do {                                                                                           \
        if (tmem)                                                                                  \
            mreq_warp(c, base, em, sp, addr, off, size, kind, in);                                 \
        return (R);                                                                                \
    } while (0)
#define WARP_MINMAX()                                                                              \
    do {                                                                                           \
        for (unsigned l = 0; l < 32; l++) {                                                        \
            const uint64_t a = addr[l];                                                            \
            amin = a < amin ? a : amin;                                                            \
            amax = a > amax ? a : amax;                                                            \
        }                                                                                          \
        minmax = 0;                                                                                \
    } while (0)
    if (sp == SIM_SPACE_GLOBAL) {
        if (minmax)
            WARP_MINMAX();
        sim_alloc *al = find_alloc(c->s, addr[l0], size);
        if (!al)
            return 0;
        const uint64_t lo = al->base, span = al->size - size; /* size <= al->size */
        if (amin < lo || amax - lo > span)                    /* every lane inside al */
            return 0;
        const int init = (c->checks & SIM_CHECK_INIT) != 0, tmem = c->trace_mem;
        unsigned char *const data = al->data;
        /* a full warp's unit-stride request: one range (the caller fills the other
         * lanes' pointers if it needs them) */
        if (stride == 0 && (ptr[0] = sim_global_row(c, base, addr[0], size, kind, in)))
            return 2;
        if (c->grace)
            grace_lanes(c, al, base, em, addr, 0, size, kind, in);
        if (half) {
            /* two half-warps, each one range or one address (shared_halves' patterns and
             * two unit-stride rows): the initcheck bits of the two ranges (a load with a
             * byte never written takes the per-lane loop, which reports it) */
            const uint64_t o0 = addr[0] - lo, o16 = addr[16] - lo;
            const uint64_t nb = half == 2 ? size : 16 * (uint64_t)size;
            if (!init || kind != 0 ||
                (bits_all_set(al->written, o0, nb) && bits_all_set(al->written, o16, nb))) {
                if (init && kind != 0) {
                    mark_written(al, o0, nb, 1);
                    mark_written(al, o16, nb, 1);
                }
                fill_halves(ptr, data + o0, data + o16, half == 2 ? 2 : 3, size);
                DONE(1);
            }
        }
        if (!init && !tmem) {
            for (uint32_t m = em; m; m &= m - 1) {
                const unsigned l = (unsigned)__builtin_ctz(m);
                ptr[l] = data + (addr[l] - lo);
            }
            return 1;
        }
        for (uint32_t m = em; m; m &= m - 1) {
            const unsigned l = (unsigned)__builtin_ctz(m);
            const uint64_t a = addr[l];
            if (init) {
                /* the common case inline: all bits in one byte, already written (a
                 * load) or being written (a store); else global_init_check */
                const uint64_t o = a - lo;
                if ((o & 7) + size <= 8) {
                    unsigned char *wb = &al->written[o >> 3];
                    const unsigned char bits = (unsigned char)(((1u << size) - 1) << (o & 7));
                    if (kind != 0)
                        *wb |= bits;
                    else if ((*wb & bits) != bits)
                        global_init_check(c, base + l, al, a, size, kind, in);
                } else {
                    global_init_check(c, base + l, al, a, size, kind, in);
                }
            }
            if (tmem)
                mreq_add(c, base + l, sp, a, size, kind, in);
            ptr[l] = data + (a - lo);
        }
        return 1;
    }
    if (sp != SIM_SPACE_SHARED)
        return 0;
    const int race = (c->checks & SIM_CHECK_RACE) != 0, sinit = (c->checks & SIM_CHECK_INIT) != 0;
    const int tmem = c->trace_mem;
#define SHARED_HALVES(H, RACE, SINIT) shared_halves(c, base, addr, off, in, ptr, H, RACE, SINIT)
    if ((half == 1 || half == 2) && size == 4 && kind == 0 &&
        (half == 1 ? (race ? (sinit ? SHARED_HALVES(1, 1, 1) : SHARED_HALVES(1, 1, 0))
                           : (sinit ? SHARED_HALVES(1, 0, 1) : SHARED_HALVES(1, 0, 0)))
                   : (race ? (sinit ? SHARED_HALVES(2, 1, 1) : SHARED_HALVES(2, 1, 0))
                           : (sinit ? SHARED_HALVES(2, 0, 1) : SHARED_HALVES(2, 0, 0)))))
        DONE(half == 1 ? 3 : 4);
#undef SHARED_HALVES
    if (minmax) {
        /* a full warp's words not one range (a tile's column, scattered words): a load
         * around lane 0's word needs no smallest and largest address */
        const uint64_t kl = (addr[0] - off) >> 2, k0 = kl >= 32 ? kl - 32 : 0;
        if (size == 4 && kind == 0 && race && addr[0] >= off &&
            (sinit ? shared_loads(c, base, em, addr, off, k0, in, ptr, 1)
                   : shared_loads(c, base, em, addr, off, k0, in, ptr, 0)))
            DONE(1);
        WARP_MINMAX();
    }
#undef WARP_MINMAX
    const uint64_t ssz = c->shared_size;
    if (amin < off || amin - off > ssz || amax - off > ssz || size > ssz - (amax - off))
        return 0; /* every lane inside the shared memory */
    /* a full warp's unit-stride words (the caller fills the other lanes' pointers if it
     * needs them) */
    if (size == 4 && (kind == 0 || kind == 1) && stride == 0 &&
        (ptr[0] = sim_shared_row(c, base, addr[0] - off, kind, in)))
        return 2;
    if (size == 4 && (kind == 0 || kind == 1) && pstride) {
        /* part of a warp, unit-stride words (lane l: word kf + l - l0), the span of words
         * from lane l0's to lane l1's with its shadows in c->wshadow and, for a load,
         * every byte written: shared_range_at on the lanes' words */
        const unsigned l1 = 31 - (unsigned)__builtin_clz(em);
        const uint64_t kf = (addr[l0] - off) >> 2, n = l1 - l0 + 1;
        if ((!race || bytes_all_n(c->shadow_same + kf, n, 1)) &&
            (!sinit || kind == 1 || bytes_all_n(c->shared_written + 4 * kf, 4 * n, 1))) {
            if (race) {
                if (kind == 0)
                    shared_range_at(c, base, em, l0, l1, kf, in, 0, 2);
                else
                    shared_range_at(c, base, em, l0, l1, kf, in, 1, 2);
            }
            unsigned char *const shm = c->shared, *const written = c->shared_written;
            for (uint32_t m = em; m; m &= m - 1) {
                const unsigned l = (unsigned)__builtin_ctz(m);
                const uint64_t a = 4 * (kf + l - l0);
                if (sinit && kind == 1)
                    memcpy(written + a, &(const uint32_t){0x01010101u}, 4);
                ptr[l] = shm + a;
            }
            DONE(1);
        }
    }
    if (size == 4 && (kind == 0 || kind == 1)) {
#define SHARED_WORDS(OP, RACE, SINIT) shared_words(c, base, em, addr, off, in, ptr, OP, RACE, SINIT)
        if (kind == 0) {
            const uint64_t k0 = (amin - off) >> 2;
            if (race && (sinit ? shared_loads(c, base, em, addr, off, k0, in, ptr, 1)
                               : shared_loads(c, base, em, addr, off, k0, in, ptr, 0)))
                DONE(1);
            if (race)
                sinit ? SHARED_WORDS(0, 1, 1) : SHARED_WORDS(0, 1, 0);
            else
                sinit ? SHARED_WORDS(0, 0, 1) : SHARED_WORDS(0, 0, 0);
        } else {
            if (race)
                sinit ? SHARED_WORDS(1, 1, 1) : SHARED_WORDS(1, 1, 0);
            else
                sinit ? SHARED_WORDS(1, 0, 1) : SHARED_WORDS(1, 0, 0);
        }
#undef SHARED_WORDS
        DONE(1);
    }
#undef DONE
    const uint8_t *const same = c->shadow_same;
    uint32_t *const wmem = c->wshadow ? c->wshadow->mem : NULL;
    unsigned char *const shm = c->shared;
    const unsigned w = base / 32;
    const uint16_t ws = c->wsync ? c->wsync[w] : 0;
    const uint32_t E = c->epoch;
    const int32_t pc = (int32_t)(in - c->code);
    for (uint32_t m = em; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m), t = base + l;
        const uint64_t a = addr[l] - off;
        if (race) {
            /* the common case inline: a whole word whose shadow bytes agree */
            if (size == 4 && kind != 2 && same && same[a >> 2])
                race_word(c, wmem, a >> 2, t, w, ws, E, pc, kind, in, a, 4, 0);
            else
                race_check(c, t, a, size, kind, in);
        }
        if (sinit) {
            unsigned char *sw = c->shared_written + a;
            if (kind == 0) {
                uint32_t u = 0;
                if (size == 4)
                    memcpy(&u, sw, 4);
                if (size == 4 ? u != 0x01010101u : memchr(sw, 0, size) != NULL)
                    report_uninit(c, t, in, SIM_SPACE_SHARED, a, size,
                                  "never stored by this block");
            } else if (size == 4) {
                memcpy(sw, &(const uint32_t){0x01010101u}, 4);
            } else {
                memset(sw, 1, size);
            }
        }
        if (tmem)
            mreq_add(c, t, sp, a, size, kind, in);
        ptr[l] = shm + a;
    }
    return 1;
}

/* sim_mem_warp's common global request, found without the lanes' addresses: see
 * sim_internal.h. */
unsigned char *sim_global_row(sim_ctx *c, unsigned base, uint64_t a, unsigned size, int kind,
                              const ptx_insn *in)
{
    const uint64_t n = 32 * (uint64_t)size;
    if ((a & (size - 1)) != 0 || a > UINT64_MAX - n)
        return NULL; /* misaligned, or the range wraps: sim_mem_warp and sim_mem decide */
    sim_alloc *al = find_alloc(c->s, a, n);
    if (!al)
        return NULL;
    const uint64_t o = a - al->base;
    if (c->checks & SIM_CHECK_INIT) {
        if (kind != 0)
            mark_written(al, o, n, 1);
        else if (!bits_all_set(al->written, o, n))
            return NULL; /* a byte never written: the per-lane loop reports it */
    }
    if (c->grace)
        grace_lanes(c, al, base, UINT32_MAX, NULL, a, size, kind, in);
    if (c->trace_mem)
        mreq_row(c, base, SIM_SPACE_GLOBAL, a, size, kind, in);
    return al->data + o;
}

/* sim_mem_warp's common shared-memory request of words, found without the lanes'
 * addresses: see sim_internal.h. */
unsigned char *sim_shared_row(sim_ctx *c, unsigned base, uint64_t a, int kind, const ptx_insn *in)
{
    const uint64_t ssz = c->shared_size;
    if ((a & 3) != 0 || a > ssz || ssz - a < 128)
        return NULL; /* misaligned or out of bounds: sim_mem_warp and sim_mem decide */
    const int race = (c->checks & SIM_CHECK_RACE) != 0;
    const int sinit = (c->checks & SIM_CHECK_INIT) != 0;
    if ((race && !bytes_all(c->shadow_same + (a >> 2), 32, 1)) ||
        (sinit && kind == 0 && !bytes_all(c->shared_written + a, 128, 1)))
        return NULL; /* a word's shadows apart, or a byte never written: per lane */
    if (race)
        kind == 0 ? shared_range(c, base, a, in, 0) : shared_range(c, base, a, in, 1);
    if (sinit && kind == 1)
        fill_ones(c->shared_written + a);
    if (c->trace_mem)
        mreq_row(c, base, SIM_SPACE_SHARED, a, 4, kind, in);
    return c->shared + a;
}

/* ------------------------------------------------------------------ launch */

/* Instantiates the module's .global/.const variables in s (once per module). */
static sim_status load_module_vars(sim_t *s, const ptx_module *m)
{
    if (s->mod_id == m->id)
        return SIM_OK;
    uint64_t *va = calloc((size_t)m->nvars + 1, sizeof *va);
    if (!va)
        return SIM_ERR_NOMEM;
    for (int i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        sim_status st = alloc_global(s, v->size, v->name, v->align, &va[i]);
        if (st != SIM_OK) {
            free(va);
            return st;
        }
        if (v->init)
            sim_memcpy_htod(s, va[i], v->init, v->size);
        sim_set_written(s, va[i], v->size, 1); /* module variables start as zeros */
    }
    free(s->var_addr);
    s->var_addr = va;
    s->nvars = m->nvars;
    s->mod_id = m->id;
    return SIM_OK;
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

/* Allocates the state of the block that context c runs (threads, warps, shared memory,
 * checker shadows), sized by the launch-wide fields already in c. 0, or -1 on no
 * memory (ctx_free_block then frees what was allocated). */
static int ctx_alloc_block(sim_ctx *c)
{
    const size_t n = c->nthreads, shared = c->shared_size;
    c->pc = calloc(n, sizeof *c->pc);
    c->state = calloc(n, 1);
    c->depth = calloc(n, 1);
    c->rbase = calloc(n, sizeof *c->rbase);
    c->pbase = calloc(n, sizeof *c->pbase);
    c->lbase = calloc(n, sizeof *c->lbase);
    c->bar_pc = calloc(n, sizeof *c->bar_pc);
    c->frames = calloc(n * SIM_MAX_DEPTH, sizeof *c->frames);
    c->regs = calloc((size_t)c->nwarps * 32 * c->regcap, sizeof *c->regs);
    c->params = calloc(n, c->paramcap);
    c->local = calloc(n, c->localcap);
    c->loop_pc = calloc(c->nwarps, sizeof *c->loop_pc);
    c->shared = calloc(1, shared ? shared : 1);
    c->wsync = calloc(c->nwarps, sizeof *c->wsync);
    c->shadow = NULL;
    c->shadow_same = NULL;
    c->wshadow = NULL;
    c->shared_written = NULL;
    if (c->checks & SIM_CHECK_RACE) {
        /* whole words, so that a word's four shadow bytes always exist */
        const size_t words = (shared + 3) / 4 + 1;
        c->shadow = calloc(words * 4, sizeof *c->shadow);
        c->shadow_same = calloc(words, 1);
        c->wshadow = wshadow_new(words);
    }
    if (c->checks & SIM_CHECK_INIT)
        c->shared_written = calloc(1, shared ? shared : 1);
    if (!c->pc || !c->state || !c->depth || !c->rbase || !c->pbase || !c->lbase || !c->bar_pc ||
        !c->frames || !c->regs || !c->params || !c->local || !c->loop_pc || !c->shared ||
        !c->wsync ||
        ((c->checks & SIM_CHECK_RACE) && (!c->shadow || !c->shadow_same || !c->wshadow)) ||
        ((c->checks & SIM_CHECK_INIT) && !c->shared_written))
        return -1;
    return 0;
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
        sim_finding *f = add_finding(c, SIM_FIND_DIVERGENT_BARRIER, 0, SIM_SPACE_GENERIC, 0, 0,
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
        who(c, ex - 1, who_ex, sizeof who_ex);
        sim_finding *f = add_finding(c, SIM_FIND_EXITED_BARRIER, 0, SIM_SPACE_GENERIC, 0, 0,
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
        trace_flush(c);
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
static int resolve_barrier(sim_ctx *c)
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
        if (busy[k] && &cs[k] != c) {
            if (cs[k].stuck != now)
                return 0;
            others++;
        }
    unsigned w = 0, t = 0;
    while (w < c->nwarps && c->spin_flag[w] != now)
        w++;
    if (w == c->nwarps)
        return 0; /* every warp at a barrier: resolve_barrier reports it */
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
    memset(c->depth, 0, nt);
    memset(c->rbase, 0, nt * sizeof *c->rbase);
    memset(c->pbase, 0, nt * sizeof *c->pbase);
    memset(c->lbase, 0, nt * sizeof *c->lbase);
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
    memset(c->wconv, 0, sizeof c->wconv);
    /* independent thread scheduling: no yields, spins or polls yet (sim_warp_step) */
    for (unsigned w = 0; w < c->nwarps && w < SIM_ITS_WARPS; w++) {
        c->its_block[w] = c->block_linear + 1;
        c->its_yield[w] = 0;
        c->its_spin[w] = 0;
        c->its_syncmem[w] = 0;
    }
    if (c->shadow_same) /* a new epoch below: no shadow field is live (race_check) */
        memset(c->shadow_same, 1, (c->shared_size + 3) / 4 + 1);
    /* Registers, local and shared memory start as poison, as on a GPU they hold
     * whatever was there (ARCHITECTURE.md "Never kinder than hardware"), one stream per
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
    trace_block(c, TRACE_EV_BLOCK_START);
}

/* One turn of the block resident in c. Deterministic (order NULL): one round, every
 * warp one instruction in index order. Random: the warps in a fresh random order, each
 * issuing a random burst of 1..8 instructions. A turn in which no warp could issue
 * resolves the block's barriers (resolve_barrier). Returns 1 while the block has work
 * left, 0 once every thread exited, -1 when it faulted (deadlock included). */
static int block_turn(sim_ctx *c, unsigned *order)
{
    int progressed = 0;
    if (!order) {
        progressed = sim_warp_round(c);
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
    return progressed ? 1 : resolve_barrier(c);
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
                 base_name(ft->src_file), ft->src_line, ft->block[0], ft->block[1], ft->block[2],
                 ft->thread[0], ft->thread[1], ft->thread[2], ft->message);
    else
        snprintf(f->message, sizeof f->message,
                 "PTX line %d: block (%u,%u,%u) thread (%u,%u,%u): %s", ft->ptx_line, ft->block[0],
                 ft->block[1], ft->block[2], ft->thread[0], ft->thread[1], ft->thread[2],
                 ft->message);
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
    const sim_device_model *dm = sim_device();
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
     * 48 KiB; with dynamic shared memory a block may opt in to more (compute capability
     * 8.0: 163 KiB in all), which gpulearn does for every launch that asks for it */
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
                 "limit of %zu bytes (%zu KiB) a block of compute capability %d.%d may use",
                 shared, f->shared_size, dynamic_shared, dm->shared_bytes_per_block_optin,
                 dm->shared_bytes_per_block_optin >> 10, dm->compute_major, dm->compute_minor);
        return SIM_ERR_LAUNCH;
    }
    sim_status st = load_module_vars(s, m);
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
    base->regcap = (size_t)m->sum_regs + 1;
    base->paramcap = (size_t)m->sum_frame + 64;
    base->localcap = (size_t)m->sum_local + 16;
    base->shared_size = shared;
    base->dynshared_off = f->dynshared_off;
    base->kparam_size = f->kparam_size;
    base->step_limit = s->cfg.step_limit ? s->cfg.step_limit : (1ull << 32);
    base->deadline = s->cfg.time_limit_s > 0 ? sim_now() + s->cfg.time_limit_s : 0;
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
        if (trace_setup(base, kernel) < 0) {
            launch_free(base);
            return launch_error(res, SIM_ERR_NOMEM, "out of memory for the trace");
        }
        base->trace_mem = base->trace->level >= TRACE_MEMORY;
    }
    /* residency: the blocks that run at once (sim_resident_blocks); a random schedule
     * picks between 2 and that many */
    unsigned nres = sim_resident_blocks(base->nthreads, shared);
    if (s->cfg.schedule_random && nres > 2)
        nres = 2 + rng_below(&base->rng, nres - 1);
    else if (nres > SIM_DETERMINISTIC_RESIDENT)
        nres = SIM_DETERMINISTIC_RESIDENT;
    if (nres > nblocks)
        nres = (unsigned)nblocks;
    sim_ctx *cs = calloc(nres, sizeof *cs);
    unsigned *worder = s->cfg.schedule_random ? calloc(base->nwarps, sizeof *worder) : NULL;
    uint32_t *border =
        s->cfg.schedule_random && nblocks <= (1u << 24) ? calloc(nblocks, sizeof *border) : NULL;
    int ok = cs && (!s->cfg.schedule_random || worder);
    for (unsigned k = 0; ok && k < nres; k++) {
        cs[k] = *base;
        cs[k].slot = k;
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
    /* blocks: linear order (x fastest), or a random permutation (Fisher-Yates; past
     * 2^24 blocks an affine permutation i -> (a*i + b) mod n with a coprime to n) */
    uint64_t pa = 1, pb = 0;
    if (border) {
        for (uint64_t i = 0; i < nblocks; i++)
            border[i] = (uint32_t)i;
        for (uint64_t i = nblocks; i > 1; i--) {
            uint64_t j = rng_next(&base->rng) % i;
            uint32_t tmp = border[i - 1];
            border[i - 1] = border[j];
            border[j] = tmp;
        }
    } else if (s->cfg.schedule_random) {
        pb = rng_next(&base->rng) % nblocks;
        do {
            pa = rng_next(&base->rng) % nblocks | 1;
        } while (gcd64(pa, nblocks) != 1);
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
#define BLOCK_AT(i) (border ? border[i] : (uint64_t)(((unsigned __int128)pa * (i) + pb) % nblocks))
#define SWAP_IN(c)                                                                                 \
    ((c)->steps = base->steps, (c)->clock_check = base->clock_check,                               \
     (c)->printf_cap = base->printf_cap, (c)->printf_seen = base->printf_seen,                     \
     (c)->rng = base->rng, (c)->mwrites = base->mwrites)
#define SWAP_OUT(c)                                                                                \
    (base->steps = (c)->steps, base->clock_check = (c)->clock_check,                               \
     base->printf_cap = (c)->printf_cap, base->printf_seen = (c)->printf_seen,                     \
     base->rng = (c)->rng, base->mwrites = (c)->mwrites)
    for (unsigned k = 0; st == SIM_OK && k < nres && next < nblocks; k++) {
        SWAP_IN(&cs[k]);
        block_start(&cs[k], BLOCK_AT(next));
        SWAP_OUT(&cs[k]);
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
            if (!busy[sorder[i]])
                continue;
            SWAP_IN(c);
            unsigned turns = s->cfg.schedule_random ? 1 + rng_below(&c->rng, 4) : 1;
            int r = 1;
            for (unsigned t = 0; t < turns && r > 0; t++)
                r = block_turn(c, worder);
            if (r > 0 && c->stuck == c->mwrites + 1 &&
                launch_stuck(c, cs, busy, nres, nblocks - next))
                r = -1;
            trace_flush(c);
            if (r < 0) {
                st = SIM_ERR_FAULT;
            } else if (r == 0) {
                trace_block(c, TRACE_EV_BLOCK_END);
                if (next < nblocks)
                    block_start(c, BLOCK_AT(next++));
                else
                    busy[sorder[i]] = 0, live--;
            }
            SWAP_OUT(c);
        }
    }
    /* blocks the launch stopped in */
    for (unsigned k = 0; busy && k < nres; k++)
        if (busy[k]) {
            SWAP_IN(&cs[k]);
            trace_block(&cs[k], TRACE_EV_BLOCK_END);
        }
#undef BLOCK_AT
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
