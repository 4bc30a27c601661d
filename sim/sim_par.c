/* sim_par.c — a launch's blocks on worker threads (sim_config.threads): the ownership of
 * global memory that proves the parallel run equal to the one-thread run, and the undo
 * of a run that could not be proved so (docs/architecture.md "Blocks on all cores").
 *
 * While the workers run (sim.c par_launch), every global access of a block claims the
 * 4-byte words it touches, per word one state (a uint32_t, compare-and-swap):
 *   0          untouched in this launch
 *   R(b)       read by block b only
 *   W(b) | m   written by block b (bytes m of the word, bits 2-5), and read by b only
 *   MANY       read by two blocks or more, written by none
 * A write by b of a word in R(c), W(c) or MANY (c != b), or a read by b of one in W(c),
 * is a conflict: the blocks communicate through memory, and the order they run in would
 * matter, so the launch stops and runs again on one thread. The verdict does not depend
 * on the order the workers ran the blocks in: a conflict exists iff some word is written
 * by one block and touched by another, whichever came first.
 *
 * Lines: a warp's unit-stride request covers whole 128-byte lines (32 words), which a
 * line state claims with one compare-and-swap: XR(b), XW(b) (every word of the line read,
 * or written whole, by b's full-line requests only), XMANY (full-line reads of several
 * blocks), or SPLIT (the word states hold the line's truth). Any other request to a
 * line first splits it: the thread that splits takes LOCK, writes the 32 word states the
 * line state stands for, then publishes SPLIT; others wait meanwhile.
 *
 * Without a conflict, each block read only what no other block of the launch wrote, so
 * it ran exactly as in any interleaving, and the words each block wrote are its own:
 * memory ends the same. Initcheck: the bitmap of written bytes is not touched while the
 * workers run (two words share one of its bytes); a read of a byte is initialised when
 * the bitmap says so or the block itself wrote it (the word's m, or its line in XW),
 * which is what the one-thread run finds, since no other block wrote it; the commit then
 * sets the bitmap bits of every byte written. Undo: the first write claim of a word or
 * line saves its bytes (orig), and the words each worker claimed are kept as ranges
 * (coalesced), so that a stopped run puts every written word back.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_mem.h"

#define PAR_R 1u
#define PAR_W 2u
#define PAR_MANY 3u
#define PAR_KIND(s) ((s)&3u)
#define PAR_MASK(s) (((s) >> 2) & 0xfu)
#define PAR_BLOCK(s) ((s) >> 6)
/* Line states: XR(b) = b << 6 | PAR_R, XW(b) = b << 6 | PAR_W, and: */
#define LINE_MANY 3u
#define LINE_SPLIT 7u
#define LINE_LOCK 11u
#define LINE_WORDS 32u

/* The words a worker claimed for writing, as ranges of one allocation. */
struct par_range {
    int ai;          /* allocation index in sim.allocs */
    uint64_t w0, w1; /* words [w0, w1) */
};

struct par_log {
    _Alignas(128) struct par_range *r; /* a cache line pair of its own: written by its
                                          worker alone */
    size_t n, cap;
    int nomem;
};

struct sim_par {
    sim_t *s;
    int nallocs;
    int init;             /* initcheck is on */
    uint32_t **own;       /* per allocation: a state per word, or NULL (made on use) */
    uint32_t **line;      /* per allocation: a state per 128-byte line */
    unsigned char **orig; /* per allocation: each written word's bytes before it */
    uint8_t **zline;      /* per allocation, per line: 1 when the line was written whole
                             first and held zeros before (orig not used: an output's pages
                             of undo bytes are never touched) */
    struct par_log *logs; /* per worker */
    unsigned nworkers;
    int stop;             /* atomic: a worker found a conflict or must stop */
    pthread_mutex_t lock; /* making own/orig arrays */
};

/* The words of allocation ai's word states: whole lines (a split line's word states are
 * all written), and one more line. */
static size_t own_words(const sim_par *p, int ai)
{
    return ((p->s->allocs[ai].size + 3) / 4 / LINE_WORDS + 1) * LINE_WORDS;
}

/* The bytes of allocation ai's line states. */
static size_t line_bytes(const sim_par *p, int ai)
{
    return (own_words(p, ai) / LINE_WORDS + 1) * sizeof(uint32_t);
}

sim_par *sim_par_new(sim_t *s, unsigned nworkers, int init)
{
    sim_par *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->s = s;
    p->nallocs = s->nallocs;
    p->init = init;
    p->nworkers = nworkers;
    p->own = calloc((size_t)s->nallocs + 1, sizeof *p->own);
    p->orig = calloc((size_t)s->nallocs + 1, sizeof *p->orig);
    p->zline = calloc((size_t)s->nallocs + 1, sizeof *p->zline);
    p->line = calloc((size_t)s->nallocs + 1, sizeof *p->line);
    p->logs = aligned_alloc(_Alignof(struct par_log), nworkers * sizeof *p->logs);
    if (p->logs)
        memset(p->logs, 0, nworkers * sizeof *p->logs);
    if (!p->own || !p->orig || !p->zline || !p->line || !p->logs ||
        pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p->own);
        free(p->line);
        free(p->orig);
        free(p->logs);
        free(p);
        return NULL;
    }
    return p;
}

void sim_par_free(sim_par *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nallocs; i++) {
        const size_t words = own_words(p, i);
        free(p->own[i]);
        sim_zunmap(p->orig[i], 4 * words);
        free(p->zline[i]);
        sim_zunmap(p->line[i], line_bytes(p, i));
    }
    for (unsigned w = 0; w < p->nworkers; w++)
        free(p->logs[w].r);
    free(p->own);
    free(p->orig);
    free(p->zline);
    free(p->line);
    free(p->logs);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void sim_par_halt(sim_par *p)
{
    __atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
}

int sim_par_halted(const sim_par *p)
{
    return __atomic_load_n(&p->stop, __ATOMIC_RELAXED);
}

/* Allocation ai's word states, made (with its line states and undo bytes) on first use;
 * NULL and the launch halted when memory is short. */
static uint32_t *own_of(sim_par *p, int ai)
{
    uint32_t *o = __atomic_load_n(&p->own[ai], __ATOMIC_ACQUIRE);
    if (o)
        return o;
    pthread_mutex_lock(&p->lock);
    o = p->own[ai];
    if (!o) {
        const size_t words = own_words(p, ai);
        /* undo bytes: written densely where they are (a huge page per 2 MiB of them);
         * line states: read before written, so mapped writable now; word states: calloc
         * maps large arrays lazily, so pages of words never touched cost nothing */
        p->orig[ai] = sim_zmap(4 * words, 0);
        p->line[ai] = sim_zmap(line_bytes(p, ai), 1);
        p->zline[ai] = calloc(words / LINE_WORDS + 1, 1);
        o = calloc(words, sizeof *o); /* touched only where lines split (split_line) */
        if (!o || !p->orig[ai] || !p->line[ai] || !p->zline[ai]) {
            free(o);
            sim_zunmap(p->orig[ai], 4 * words);
            sim_zunmap(p->line[ai], line_bytes(p, ai));
            free(p->zline[ai]);
            p->zline[ai] = NULL;
            p->orig[ai] = NULL;
            p->line[ai] = NULL;
            o = NULL;
            sim_par_halt(p);
        } else {
            __atomic_store_n(&p->own[ai], o, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return o;
}

/* Records that worker w claimed words [k0, k1) of allocation ai for writing. */
static void log_words(sim_par *p, unsigned w, int ai, uint64_t k0, uint64_t k1)
{
    struct par_log *L = &p->logs[w];
    if (L->n && L->r[L->n - 1].ai == ai && L->r[L->n - 1].w1 == k0) {
        L->r[L->n - 1].w1 = k1;
        return;
    }
    if (L->n == L->cap) {
        const size_t cap = L->cap ? 2 * L->cap : 256;
        struct par_range *r = realloc(L->r, cap * sizeof *r);
        if (!r) {
            L->nomem = 1;
            sim_par_halt(p);
            return;
        }
        L->r = r;
        L->cap = cap;
    }
    L->r[L->n++] = (struct par_range){ai, k0, k1};
}

/* Saves the bytes of words [k0, k1) of allocation ai (al) before their first write and
 * logs them for worker w; a whole line (k0 = 32 li) of zeros only as its zline flag. */
static void first_write(sim_par *p, unsigned w, int ai, const sim_alloc *al, uint64_t k0,
                        uint64_t k1)
{
    const uint64_t b0 = 4 * k0, b1 = 4 * k1 < al->size ? 4 * k1 : al->size;
    static const unsigned char zeros[4 * LINE_WORDS];
    if (k1 - k0 == LINE_WORDS && b1 - b0 == sizeof zeros &&
        memcmp(al->data + b0, zeros, sizeof zeros) == 0)
        p->zline[ai][k0 / LINE_WORDS] = 1;
    else
        memcpy(p->orig[ai] + b0, al->data + b0, b1 - b0);
    log_words(p, w, ai, k0, k1);
}

/* Whether bytes [o, o+n) of al are all marked written in the initcheck bitmap. */
static int bitmap_set(const sim_alloc *al, uint64_t o, uint64_t n)
{
    return sim_bits_all_set(al->written, o, n);
}

/* Claims bytes [off, end) of words [k0, k1) (one line's at most) word by word for the
 * block me (PAR_BLOCK form). Returns 0, 1 when a word is read by other blocks too, or
 * -1 after halting. */
static int claim_words(sim_ctx *c, sim_alloc *al, int ai, uint32_t *own, uint64_t off, uint64_t end,
                       int kind)
{
    sim_par *p = c->par;
    const uint32_t me = (c->block_linear + 1u) << 6;
    const int reads = kind != 1, writes = kind != 0;
    int shared = 0;
    for (uint64_t k = off / 4; 4 * k < end; k++) {
        /* the bytes of word k the access covers */
        const uint64_t b0 = 4 * k < off ? off - 4 * k : 0, b1 = end - 4 * k < 4 ? end - 4 * k : 4;
        const uint32_t m = ((1u << b1) - 1) & ~((1u << b0) - 1);
        uint32_t st = __atomic_load_n(&own[k], __ATOMIC_RELAXED), old;
        for (;;) {
            old = st;
            uint32_t nst;
            const int mine = st && PAR_KIND(st) != PAR_MANY && PAR_BLOCK(st) == me >> 6;
            if (writes) {
                if (st && !mine)
                    return sim_par_halt(p), -1;
                nst = me | PAR_W | (PAR_MASK(st) | m) << 2;
            } else if (!st) {
                nst = me | PAR_R;
            } else if (mine || PAR_KIND(st) == PAR_MANY) {
                nst = st;
            } else if (PAR_KIND(st) == PAR_R) {
                nst = PAR_MANY;
            } else {
                return sim_par_halt(p), -1; /* written by another block */
            }
            if (nst == st)
                break;
            if (__atomic_compare_exchange_n(&own[k], &st, nst, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) {
                if (writes && PAR_KIND(old) != PAR_W)
                    first_write(p, c->par_w, ai, al, k, k + 1); /* this block's alone now */
                st = nst;
                break;
            }
        }
        if (PAR_KIND(st) == PAR_MANY)
            shared = 1;
        /* initcheck of what the access reads: the bitmap (unchanged while the workers
         * run) or this block's own writes before */
        if (reads && p->init) {
            const unsigned own_m = PAR_KIND(old) == PAR_W ? PAR_MASK(old) : 0;
            for (unsigned i = b0; i < b1; i++)
                if (!((own_m >> i) & 1) &&
                    (4 * k + i >= al->size ||
                     !((al->written[(4 * k + i) >> 3] >> ((4 * k + i) & 7)) & 1)))
                    return sim_par_halt(p), -1; /* a finding: the one-thread run reports it */
        }
    }
    return shared;
}

/* Line li of allocation ai (state *L) for a request that does not cover it whole: makes
 * it SPLIT, its word states standing for what its line state said. 0, or -1 after
 * halting (a line another block wrote). */
static int split_line(sim_par *p, uint32_t *own, uint32_t *L, uint64_t li, uint32_t me)
{
    for (;;) {
        uint32_t l = __atomic_load_n(L, __ATOMIC_ACQUIRE);
        if (l == LINE_SPLIT)
            return 0;
        if (l == LINE_LOCK)
            continue; /* another thread is splitting it */
        if (PAR_KIND(l) == PAR_W && PAR_BLOCK(l) != me >> 6)
            return sim_par_halt(p), -1;
        if (!__atomic_compare_exchange_n(L, &l, LINE_LOCK, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            continue;
        /* the word states of an untouched line are written too (zeros): their page is
         * then mapped writable by a store, not first read (sim_zmap) */
        const uint32_t w = l == LINE_MANY ? PAR_MANY : PAR_KIND(l) == PAR_W ? l | 0xfu << 2 : l;
        for (uint64_t k = li * LINE_WORDS; k < (li + 1) * LINE_WORDS; k++)
            __atomic_store_n(&own[k], w, __ATOMIC_RELAXED);
        __atomic_store_n(L, LINE_SPLIT, __ATOMIC_RELEASE);
        return 0;
    }
}

/* Claims the whole line li (bytes [128 li, 128 li + 128) of al) for a full-line request of
 * block me. Returns 0, 1 when other blocks read it too, 2 when the line is SPLIT (the
 * caller claims its words), or -1 after halting. */
static int claim_line(sim_ctx *c, sim_alloc *al, int ai, uint32_t *L, uint64_t li, int kind)
{
    sim_par *p = c->par;
    const uint32_t me = (c->block_linear + 1u) << 6;
    const int reads = kind != 1, writes = kind != 0;
    for (;;) {
        uint32_t l = __atomic_load_n(L, __ATOMIC_ACQUIRE), nl;
        if (l == LINE_SPLIT)
            return 2;
        if (l == LINE_LOCK)
            continue;
        const int mine = l && l != LINE_MANY && PAR_BLOCK(l) == me >> 6;
        if (l && !mine && (writes || PAR_KIND(l) == PAR_W))
            return sim_par_halt(p), -1;
        if (writes)
            nl = me | PAR_W;
        else if (!l)
            nl = me | PAR_R;
        else if (mine || l == LINE_MANY)
            nl = l;
        else
            nl = LINE_MANY;
        /* what it reads: the bitmap, unless the block wrote the whole line before */
        if (reads && p->init && PAR_KIND(l) != PAR_W && !bitmap_set(al, li * 128, 128))
            return sim_par_halt(p), -1;
        if (nl == l)
            return nl == LINE_MANY;
        if (__atomic_compare_exchange_n(L, &l, nl, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            if (writes && PAR_KIND(l) != PAR_W)
                first_write(p, c->par_w, ai, al, li * LINE_WORDS, (li + 1) * LINE_WORDS);
            return nl == LINE_MANY;
        }
    }
}

int sim_par_claim(sim_ctx *c, sim_alloc *al, uint64_t off, uint64_t n, int kind)
{
    sim_par *p = c->par;
    const int ai = (int)(al - p->s->allocs);
    uint32_t *own = own_of(p, ai);
    if (!own)
        return -1;
    uint32_t *const line = p->line[ai];
    const uint32_t me = (c->block_linear + 1u) << 6;
    int shared = 0;
    const uint64_t end = off + n;
    for (uint64_t li = off / 128; 128 * li < end; li++) {
        const uint64_t l0 = 128 * li > off ? 128 * li : off,
                       l1 = 128 * li + 128 < end ? 128 * li + 128 : end;
        int r = 2;
        if (l0 == 128 * li && l1 == 128 * li + 128)
            r = claim_line(c, al, ai, &line[li], li, kind);
        else if (split_line(p, own, &line[li], li, me) < 0)
            r = -1;
        if (r == 2)
            r = claim_words(c, al, ai, own, l0, l1, kind);
        if (r < 0)
            return -1;
        shared |= r;
    }
    return shared;
}

uint32_t sim_par_claim_lanes(sim_ctx *c, sim_alloc *al, uint32_t em, const uint64_t *addr,
                             unsigned size, int kind, int *halted)
{
    sim_par *p = c->par;
    const int ai = (int)(al - p->s->allocs);
    const uint32_t *const own = __atomic_load_n(&p->own[ai], __ATOMIC_ACQUIRE);
    const uint32_t *const line = own ? p->line[ai] : NULL;
    const uint32_t me = (c->block_linear + 1u) << 6, full = me | PAR_W | 0xfu << 2;
    uint32_t shared = 0;
    *halted = 0;
    for (uint32_t m = em; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        const uint64_t off = addr[l] - al->base, k = off / 4;
        /* the common case: an aligned word of a split line already claimed as needed */
        if (own && size == 4 && !(off & 3) &&
            __atomic_load_n(&line[k / LINE_WORDS], __ATOMIC_ACQUIRE) == LINE_SPLIT) {
            const uint32_t st = __atomic_load_n(&own[k], __ATOMIC_RELAXED);
            if (kind == 1 ? st == full
                          : st == full || (kind == 0 && (st == PAR_MANY || st == (me | PAR_R)))) {
                /* a read's bytes: written by the block (the whole word), or in the bitmap */
                if (kind == 1 || st == full || !p->init ||
                    ((al->written[off >> 3] >> (off & 7)) & 0xfu) == 0xfu) {
                    if (st == PAR_MANY)
                        shared |= 1u << l;
                    continue;
                }
            }
        }
        const int r = sim_par_claim(c, al, off, size, kind);
        if (r < 0) {
            *halted = 1;
            return 0;
        }
        if (r)
            shared |= 1u << l;
    }
    return shared;
}

void sim_par_commit_log(sim_par *p, unsigned w)
{
    if (!p->init)
        return;
    for (size_t i = 0; i < p->logs[w].n; i++) {
        const struct par_range *r = &p->logs[w].r[i];
        sim_alloc *const al = &p->s->allocs[r->ai];
        const uint32_t *const own = p->own[r->ai], *const line = p->line[r->ai];
        for (uint64_t k = r->w0; k < r->w1;) {
            if (k % LINE_WORDS == 0) {
                uint64_t e = k; /* the run of whole lines from k written whole */
                while (e + LINE_WORDS <= r->w1 && line[e / LINE_WORDS] != LINE_SPLIT &&
                       PAR_KIND(line[e / LINE_WORDS]) == PAR_W)
                    e += LINE_WORDS;
                if (e > k) {
                    memset(al->written + 4 * k / 8, 0xff, 4 * (e - k) / 8);
                    k = e;
                    continue;
                }
            }
            const uint32_t l = line[k / LINE_WORDS];
            const unsigned m = l != LINE_SPLIT && PAR_KIND(l) == PAR_W ? 0xfu : PAR_MASK(own[k]);
            if (m)
                __atomic_fetch_or(&al->written[(4 * k) >> 3], (unsigned char)(m << ((4 * k) & 7)),
                                  __ATOMIC_RELAXED);
            k++;
        }
    }
}

void sim_par_rollback(sim_par *p)
{
    for (unsigned w = 0; w < p->nworkers; w++)
        for (size_t i = 0; i < p->logs[w].n; i++) {
            const struct par_range *r = &p->logs[w].r[i];
            sim_alloc *const al = &p->s->allocs[r->ai];
            for (uint64_t k = r->w0; k < r->w1; k++) {
                const uint64_t b0 = 4 * k, b1 = 4 * k + 4 < al->size ? 4 * k + 4 : al->size;
                if (p->zline[r->ai][k / LINE_WORDS])
                    memset(al->data + b0, 0, b1 - b0);
                else
                    memcpy(al->data + b0, p->orig[r->ai] + b0, b1 - b0);
            }
        }
}
