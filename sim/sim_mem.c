/* sim_mem.c — simulated memory: global allocations and host copies (sim_malloc,
 * sim_memcpy_*), and every access of a kernel (PTX ISA §6.4 state spaces, generic
 * addressing): sim_mem for one thread, sim_mem_warp and the row accessors for a warp,
 * with memcheck (bounds and alignment) and the checkers' per-access work inlined from
 * sim_mem.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sim/exec_cluster.h"
#include "sim/sim_mem.h"

/* memset through a pointer the compiler cannot see through: malloc followed by a
 * memset of zeros is otherwise folded into calloc (GCC -O2), which maps no page, and the
 * launch then pays each page's first touch (two faults on worker threads: sim_par.c reads
 * a line before its first write, mapping the zero page, then writes it). */
static void *(*volatile eager_memset)(void *, int, size_t) = memset;

/* Below this, sim_zmap's memory comes from the heap (calloc, or malloc and memset). */
#define ZMAP_MIN ((size_t)2 << 20)

void *sim_zmap(size_t n, int hot)
{
    if (n < ZMAP_MIN) {
        if (!hot)
            return calloc(1, n ? n : 1);
        void *p = malloc(n ? n : 1);
        return p ? eager_memset(p, 0, n ? n : 1) : NULL;
    }
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    (void)madvise(p, n, MADV_HUGEPAGE);
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels answer EINVAL */
#endif
    if (hot && madvise(p, n, MADV_POPULATE_WRITE) != 0)
        eager_memset(p, 0, n);
    return p;
}

void sim_zunmap(void *p, size_t n)
{
    if (!p)
        return;
    if (n < ZMAP_MIN)
        free(p);
    else
        munmap(p, n);
}

/* Allocates `bytes` at an `align`-aligned address: zeros and every byte unwritten
 * (fill NULL, init 0), zeros and every byte written (fill NULL, init 1), or what
 * fill(ctx, data, bytes) writes (it must write every byte) and every byte written. Each
 * page of the data and of the initcheck bitmap is touched once. */
static sim_status alloc_global(sim_t *s, size_t bytes, const char *label, uint64_t align,
                               sim_fill_fn fill, void *ctx, int init, uint64_t *dptr)
{
    if (align < 256)
        align = 256;
    uint64_t base = (s->next + align - 1) / align * align;
    if (bytes > SIM_SHARED_WIN - base - 4096)
        return SIM_ERR_NOMEM;
    /* the memory budget, before anything is allocated */
    if (s->cfg.memory_limit &&
        (s->mem_used > s->cfg.memory_limit || bytes > s->cfg.memory_limit - s->mem_used))
        return SIM_ERR_NOMEM;
    if (s->nallocs == s->cap) {
        int nc = s->cap ? s->cap * 2 : 16;
        sim_alloc *na = realloc(s->allocs, (size_t)nc * sizeof *na);
        if (!na)
            return SIM_ERR_NOMEM;
        s->allocs = na;
        s->cap = nc;
    }
    /* zeros: up to 256 MiB written now, which maps the pages (as cudaMalloc commits
     * device memory) so that a launch does not pay for first touches; calloc keeps huge
     * allocations lazy. fill writes every byte itself. */
    const int eager = bytes <= ((size_t)1 << 28);
    const int lazy_data = !fill && !eager, lazy_bits = !init && !eager;
    const size_t nbits = bytes / 8 + 1;
    unsigned char *data = lazy_data ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
    unsigned char *written = lazy_bits ? calloc(1, nbits) : malloc(nbits);
    if (!data || !written) {
        free(data);
        free(written);
        return SIM_ERR_NOMEM;
    }
    if (fill)
        fill(ctx, data, bytes);
    else if (!lazy_data)
        eager_memset(data, 0, bytes ? bytes : 1);
    if (init) { /* bits [0, bytes) set, the rest of the last byte clear */
        memset(written, 0xff, bytes / 8);
        written[bytes / 8] = (unsigned char)((1u << (bytes & 7)) - 1);
    } else if (!lazy_bits) {
        eager_memset(written, 0, nbits);
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
    s->mem_used += bytes;
    *dptr = base;
    return SIM_OK;
}

uint64_t sim_memory_used(const sim_t *s)
{
    return s->mem_used;
}

sim_status sim_alloc_global(sim_t *s, size_t bytes, const char *label, uint64_t align,
                            uint64_t *dptr)
{
    return alloc_global(s, bytes, label, align, NULL, NULL, 0, dptr);
}

sim_status sim_malloc(sim_t *s, size_t bytes, const char *label, uint64_t *dptr)
{
    return alloc_global(s, bytes, label, 256, NULL, NULL, 0, dptr);
}

sim_status sim_malloc_init(sim_t *s, size_t bytes, const char *label, sim_fill_fn fill, void *ctx,
                           uint64_t *dptr)
{
    return alloc_global(s, bytes, label, 256, fill, ctx, 1, dptr);
}

/* The allocation holding [addr, addr+size), or NULL. *hint: the index of the last one
 * found (a lookup cache: sim.last for the host's calls, sim_ctx.alloc_hint for a
 * block context's, so that worker threads share no written word). */
static sim_alloc *find_alloc(sim_t *s, int *hint, uint64_t addr, size_t size)
{
    const int last = *hint;
    if (last < s->nallocs) {
        sim_alloc *a = &s->allocs[last];
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
    *hint = found;
    return a;
}

/* Frees one allocation's host memory (malloc'd or mapped) and its checkers' shadows. */
void sim_alloc_release(sim_alloc *a)
{
    if (a->mapped && a->data)
        munmap(a->data, a->size ? a->size : 1);
    else
        free(a->data);
    free(a->written);
    sim_gsh_free(a);
    a->data = NULL;
    a->written = NULL;
}

sim_status sim_malloc_mapped(sim_t *s, size_t bytes, const char *label, uint64_t *dptr)
{
    uint64_t base;
    sim_status st = alloc_global(s, 0, label, 4096, NULL, NULL, 1, &base);
    if (st != SIM_OK)
        return st;
    sim_alloc *a = &s->allocs[s->nallocs - 1];
    void *want = (void *)(uintptr_t)base;
    void *p = mmap(want, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    unsigned char *written = malloc(bytes / 8 + 1);
    if (p == MAP_FAILED || p != want || !written) {
        if (p != MAP_FAILED)
            munmap(p, bytes ? bytes : 1);
        free(written);
        sim_alloc_release(a);
        s->nallocs--;
        s->next = base;
        return SIM_ERR_NOMEM;
    }
    memset(written, 0xff, bytes / 8 + 1);
    free(a->data);
    free(a->written);
    a->data = p;
    a->written = written;
    a->mapped = 1;
    a->size = bytes;
    s->next = base + bytes + 256;
    s->mem_used += bytes;
    *dptr = base;
    return SIM_OK;
}

sim_status sim_mfree(sim_t *s, uint64_t dptr)
{
    sim_alloc *a = find_alloc(s, &s->last, dptr, 0);
    if (!a || a->base != dptr)
        return SIM_ERR_NOT_FOUND;
    const int i = (int)(a - s->allocs);
    s->mem_used -= a->size;
    sim_alloc_release(a);
    memmove(&s->allocs[i], &s->allocs[i + 1], (size_t)(s->nallocs - i - 1) * sizeof *a);
    s->nallocs--;
    s->last = 0;
    return SIM_OK;
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
    sim_alloc *a = find_alloc(s, &s->last, dst, bytes);
    if (!a)
        return SIM_ERR_LAUNCH;
    if (bytes)
        memcpy(a->data + (dst - a->base), src, bytes);
    mark_written(a, dst - a->base, bytes, 1);
    return SIM_OK;
}

sim_status sim_set_written(sim_t *s, uint64_t dptr, size_t bytes, int written)
{
    sim_alloc *a = find_alloc(s, &s->last, dptr, bytes);
    if (!a)
        return SIM_ERR_LAUNCH;
    mark_written(a, dptr - a->base, bytes, written);
    return SIM_OK;
}

sim_status sim_memcpy_dtoh(sim_t *s, void *dst, uint64_t src, size_t bytes)
{
    sim_alloc *a = find_alloc(s, &s->last, src, bytes);
    if (!a)
        return SIM_ERR_LAUNCH;
    if (bytes)
        memcpy(dst, a->data + (src - a->base), bytes);
    return SIM_OK;
}

void *sim_release_data(sim_t *s, uint64_t dptr)
{
    sim_alloc *a = find_alloc(s, &s->last, dptr, 0);
    if (!a || a->base != dptr)
        return NULL;
    void *data = a->data;
    a->data = NULL;
    return data;
}

/* sim_mem for every access but the common load of a kernel parameter (below). */
/* Racecheck of thread t's access to shared bytes [a, a+size) by instruction in (kind: 0
 * load, 1 store, 2 atomic): the strong forms of ld/st checked as such (race_one's ops 3
 * and 4), then the ordering that a release and an acquire give (sim_race_acquired). */
static void shared_race(sim_ctx *c, unsigned t, uint64_t a, unsigned size, int kind,
                        const ptx_insn *in)
{
    const int strong = (in->op == PTX_OP_ld || in->op == PTX_OP_st) &&
                       (in->bop & (PTX_MEM_STRONG | PTX_MEM_RELEASE)) != 0;
    sim_race_check(c, t, a, size, strong && kind == 0 ? 3 : strong && kind == 1 ? 4 : kind, in);
    if (kind == 2 || (strong && kind == 0))
        sim_race_acquired(c, t, a, size);
    if (kind != 0 && in->bop == PTX_MEM_RELEASE &&
        (in->op == PTX_OP_st || in->op == PTX_OP_atom || in->op == PTX_OP_red))
        sim_race_released(c, t, a);
}

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
                         "misaligned %s of %u bytes at %s address 0x%llx", sim_kind_name(kind),
                         size, sim_space_name(space), (unsigned long long)addr);
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
    sim_alloc_near near; /* global and const: the allocation next to a bad address */
    near.bytes = 0;
    switch (sp) {
    case SIM_SPACE_GLOBAL:
    case SIM_SPACE_CONST: {
        sim_alloc *al = find_alloc(c->s, &c->alloc_hint, a, size);
        if (al) {
            int shared = 0; /* a word other blocks read too (sim_par_claim) */
            if (c->par && sp == SIM_SPACE_GLOBAL) {
                shared = sim_par_claim(c, al, a - al->base, size, kind);
                if (shared < 0) {
                    sim_fault_at(c, t, in, SIM_FAULT_UNSUPPORTED,
                                 "blocks share global memory: the launch runs on one thread");
                    return NULL;
                }
            } else if ((c->checks & SIM_CHECK_INIT) && sp == SIM_SPACE_GLOBAL) {
                sim_global_init_check(c, t, al, a, size, kind, in);
            }
            if (c->grace && sp == SIM_SPACE_GLOBAL && !shared)
                grace_check(c, t, al, a, size, kind, in);
            if (c->trace_mem)
                mreq_add(c, t, sp, a, size, kind, in);
            return al->data + (a - al->base);
        }
        sim_describe_global(c->s, a, size, why, sizeof why, &near);
        break;
    }
    case SIM_SPACE_SHARED:
        if (a >> SIM_DSMEM_SHIFT) /* another CTA of the cluster (exec_cluster.c) */
            return sim_cluster_mem(c, t, space, addr, a, size, kind, in);
        if (a <= c->shared_size && size <= c->shared_size - a) {
            if (c->checks & SIM_CHECK_RACE)
                shared_race(c, t, a, size, kind, in);
            if (c->checks & SIM_CHECK_INIT) {
                /* an atomic reads the word before it writes it */
                if (kind != 1 && memchr(c->shared_written + a, 0, size))
                    sim_report_uninit(c, t, in, SIM_SPACE_SHARED, a, size,
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
        uint64_t top = c->lbase[t] + (uint64_t)c->m->funcs[in->func].local_size + c->ldyn[t];
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
                     "out-of-bounds %s of %u bytes %s %s address 0x%llx: %s", sim_kind_name(kind),
                     size, kind == 0 ? "from" : "to", sim_space_name(sp), (unsigned long long)addr,
                     why);
        sim_fault *f = &c->res->fault;
        f->space = (sim_space)sp;
        f->is_store = kind;
        f->address = addr;
        f->size = size;
        if (near.bytes)
            f->near = near;
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
                sim_race_check(c, t, a, 4, op, in);
        }
        if (sinit) {
            unsigned char *sw = written + a;
            if (op == 0) {
                uint32_t u;
                memcpy(&u, sw, 4);
                if (u != 0x01010101u)
                    sim_report_uninit(c, t, in, SIM_SPACE_SHARED, a, 4,
                                      "never stored by this block");
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
        sim_alloc *al = find_alloc(c->s, &c->alloc_hint, addr[l0], size);
        if (!al)
            return 0;
        const uint64_t lo = al->base, span = al->size - size; /* size <= al->size */
        if (amin < lo || amax - lo > span)                    /* every lane inside al */
            return 0;
        /* on a worker thread (c->par) the ownership claims run initcheck */
        const int init = (c->checks & SIM_CHECK_INIT) && !c->par, tmem = c->trace_mem;
        unsigned char *const data = al->data;
        /* a full warp's unit-stride request: one range (the caller fills the other
         * lanes' pointers if it needs them) */
        if (stride == 0 && (ptr[0] = sim_global_row(c, base, addr[0], size, kind, in)))
            return 2;
        uint32_t gl = em; /* the lanes the global race detector checks */
        if (c->par) {
            int halted;
            gl &= ~sim_par_claim_lanes(c, al, em, addr, size, kind, &halted);
            if (halted)
                return 0; /* sim_mem reports it */
        }
        if (c->grace) {
            if (half == 3 && gl == UINT32_MAX) /* two half-warp rows */
                grace_rows(c, al, base, addr[0], addr[16], addr, size, kind, in);
            else
                grace_lanes(c, al, base, gl, addr, 0, size, kind, in);
        }
        if (half) {
            /* two half-warps, each one range or one address (shared_halves' patterns and
             * two unit-stride rows): the initcheck bits of the two ranges (a load with a
             * byte never written takes the per-lane loop, which reports it) */
            const uint64_t o0 = addr[0] - lo, o16 = addr[16] - lo;
            const uint64_t nb = half == 2 ? size : 16 * (uint64_t)size;
            if (!init || kind != 0 ||
                (sim_bits_all_set(al->written, o0, nb) && sim_bits_all_set(al->written, o16, nb))) {
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
                 * load) or being written (a store); else sim_global_init_check */
                const uint64_t o = a - lo;
                if ((o & 7) + size <= 8) {
                    unsigned char *wb = &al->written[o >> 3];
                    const unsigned char bits = (unsigned char)(((1u << size) - 1) << (o & 7));
                    if (kind != 0)
                        *wb |= bits;
                    else if ((*wb & bits) != bits)
                        sim_global_init_check(c, base + l, al, a, size, kind, in);
                } else {
                    sim_global_init_check(c, base + l, al, a, size, kind, in);
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
                sim_race_check(c, t, a, size, kind, in);
        }
        if (sinit) {
            unsigned char *sw = c->shared_written + a;
            if (kind == 0) {
                uint32_t u = 0;
                if (size == 4)
                    memcpy(&u, sw, 4);
                if (size == 4 ? u != 0x01010101u : memchr(sw, 0, size) != NULL)
                    sim_report_uninit(c, t, in, SIM_SPACE_SHARED, a, size,
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
    sim_alloc *al = find_alloc(c->s, &c->alloc_hint, a, n);
    if (!al)
        return NULL;
    const uint64_t o = a - al->base;
    if (c->par) {
        /* on a worker thread: the claims run initcheck; words other blocks read too
         * take sim_mem_warp's lanes (the race detector leaves them alone) */
        const int r = sim_par_claim(c, al, o, n, kind);
        if (r < 0 || (r && c->grace && al->size <= SIM_GRACE_MAX_BYTES))
            return NULL;
    } else if (c->checks & SIM_CHECK_INIT) {
        if (kind != 0)
            mark_written(al, o, n, 1);
        else if (!sim_bits_all_set(al->written, o, n))
            return NULL; /* a byte never written: the per-lane loop reports it */
    }
    if (c->grace)
        grace_rows(c, al, base, a, a + 16 * (uint64_t)size, NULL, size, kind, in);
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
