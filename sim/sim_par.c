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
 * Without a conflict, each block read only what no other block of the launch wrote, so
 * it ran exactly as in any interleaving, and the words each block wrote are its own:
 * memory ends the same. Initcheck: the bitmap of written bytes is not touched while the
 * workers run (two words share one of its bytes); a read of a byte is initialised when
 * the bitmap says so or the block itself wrote it (the word's m), which is what the
 * one-thread run finds, since no other block wrote it; the commit then sets the bitmap
 * bits of every m. Undo: the first write claim of a word saves its 4 bytes (orig), and
 * the words each worker claimed are kept as ranges (coalesced), so that a stopped run
 * puts every written word back.
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

/* The words a worker claimed for writing, as ranges of one allocation. */
struct par_range {
    int ai;          /* allocation index in sim.allocs */
    uint64_t w0, w1; /* words [w0, w1) */
};

struct par_log {
    struct par_range *r;
    size_t n, cap;
    int nomem;
};

struct sim_par {
    sim_t *s;
    int nallocs;
    int init;             /* initcheck is on */
    uint32_t **own;       /* per allocation: a state per word, or NULL (made on use) */
    unsigned char **orig; /* per allocation: each written word's bytes before it */
    struct par_log *logs; /* per worker */
    unsigned nworkers;
    int stop;             /* atomic: a worker found a conflict or must stop */
    pthread_mutex_t lock; /* making own/orig arrays */
};

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
    p->logs = calloc(nworkers, sizeof *p->logs);
    if (!p->own || !p->orig || !p->logs || pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p->own);
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
        free(p->own[i]);
        free(p->orig[i]);
    }
    for (unsigned w = 0; w < p->nworkers; w++)
        free(p->logs[w].r);
    free(p->own);
    free(p->orig);
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

/* Allocation ai's word states, made (with its undo bytes) on first use; NULL and the
 * launch halted when memory is short. */
static uint32_t *own_of(sim_par *p, int ai)
{
    uint32_t *o = __atomic_load_n(&p->own[ai], __ATOMIC_ACQUIRE);
    if (o)
        return o;
    pthread_mutex_lock(&p->lock);
    o = p->own[ai];
    if (!o) {
        const size_t words = (p->s->allocs[ai].size + 3) / 4 + 1;
        /* calloc maps large arrays lazily: pages of words never touched cost nothing */
        p->orig[ai] = calloc(words, 4);
        o = calloc(words, sizeof *o);
        if (!o || !p->orig[ai]) {
            free(o);
            free(p->orig[ai]);
            p->orig[ai] = NULL;
            o = NULL;
            sim_par_halt(p);
        } else {
            __atomic_store_n(&p->own[ai], o, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return o;
}

/* Records that worker w claimed word k of allocation ai for writing. */
static void log_word(sim_par *p, unsigned w, int ai, uint64_t k)
{
    struct par_log *L = &p->logs[w];
    if (L->n && L->r[L->n - 1].ai == ai && L->r[L->n - 1].w1 == k) {
        L->r[L->n - 1].w1 = k + 1;
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
    L->r[L->n++] = (struct par_range){ai, k, k + 1};
}

int sim_par_claim(sim_ctx *c, sim_alloc *al, uint64_t off, uint64_t n, int kind)
{
    sim_par *p = c->par;
    const int ai = (int)(al - p->s->allocs);
    uint32_t *own = own_of(p, ai);
    if (!own)
        return -1;
    const uint32_t me = (c->block_linear + 1u) << 6;
    const int reads = kind != 1, writes = kind != 0;
    int shared = 0;
    for (uint64_t k = off / 4, end = off + n; 4 * k < end; k++) {
        /* the bytes of word k the access covers */
        const uint64_t b0 = 4 * k < off ? off - 4 * k : 0, b1 = end - 4 * k < 4 ? end - 4 * k : 4;
        const uint32_t m = ((1u << b1) - 1) & ~((1u << b0) - 1);
        uint32_t st = __atomic_load_n(&own[k], __ATOMIC_RELAXED), old;
        for (;;) {
            old = st;
            uint32_t nst;
            const int mine = PAR_BLOCK(st) == me >> 6 && PAR_KIND(st) != PAR_MANY && st;
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
                if (writes && PAR_KIND(old) != PAR_W) {
                    /* the word's first write: it is this block's alone from now on */
                    memcpy(p->orig[ai] + 4 * k, al->data + 4 * k,
                           4 * k + 4 <= al->size ? 4 : al->size - 4 * k);
                    log_word(p, c->par_w, ai, k);
                }
                st = nst;
                break;
            }
        }
        if (PAR_KIND(st) == PAR_MANY)
            shared = 1;
        /* initcheck of what the access reads: the bitmap (unchanged while the workers
         * run) or this block's own writes */
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

/* Applies fn to every word the workers claimed for writing: (allocation, word). */
#define FOR_CLAIMED(p, body)                                                                       \
    for (unsigned w_ = 0; w_ < (p)->nworkers; w_++)                                                \
        for (size_t i_ = 0; i_ < (p)->logs[w_].n; i_++) {                                          \
            const struct par_range *r_ = &(p)->logs[w_].r[i_];                                     \
            sim_alloc *const al = &(p)->s->allocs[r_->ai];                                         \
            const uint32_t *const own = (p)->own[r_->ai];                                          \
            const unsigned char *const orig = (p)->orig[r_->ai];                                   \
            for (uint64_t k = r_->w0; k < r_->w1; k++) {                                           \
                body                                                                               \
            }                                                                                      \
        }

void sim_par_commit(sim_par *p)
{
    if (!p->init)
        return;
    FOR_CLAIMED(p, {
        (void)orig;
        const unsigned m = PAR_MASK(own[k]);
        for (unsigned i = 0; i < 4; i++)
            if ((m >> i) & 1)
                al->written[(4 * k + i) >> 3] |= (unsigned char)(1u << ((4 * k + i) & 7));
    })
}

void sim_par_rollback(sim_par *p)
{
    FOR_CLAIMED(p, {
        (void)own;
        memcpy(al->data + 4 * k, orig + 4 * k, 4 * k + 4 <= al->size ? 4 : al->size - 4 * k);
    })
}
#undef FOR_CLAIMED
