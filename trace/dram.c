/* dram.c — the L2/DRAM model of dram.h: an LRU list of resident sectors, found through
 * an open-addressing hash table (linear probing, deletion by backward shift). */
#include "trace/dram.h"

#include <stdlib.h>

#include "trace/trace.h"

#define NONE UINT32_MAX

/* A resident sector: its number (address / 32), its neighbours in recency order. */
typedef struct line {
    uint64_t sector;
    uint32_t newer, older; /* indexes into lines, NONE at the ends */
    uint32_t dirty;
} line;

struct gl_dram {
    uint32_t capacity; /* sectors the L2 holds */
    line *lines;       /* resident sectors, nlines of cap_lines */
    uint32_t nlines, cap_lines;
    uint32_t *slots;         /* hash table: index + 1 into lines, 0 = empty */
    uint32_t nslots;         /* a power of two, at least twice cap_lines */
    uint32_t newest, oldest; /* the recency list's ends */
    int nomem;
};

gl_dram *gl_dram_new(uint64_t l2_bytes)
{
    gl_dram *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    const uint64_t n = l2_bytes / 32;
    d->capacity = n == 0 ? 1 : n > UINT32_MAX / 4 ? UINT32_MAX / 4 : (uint32_t)n;
    d->newest = d->oldest = NONE;
    return d;
}

void gl_dram_free(gl_dram *d)
{
    if (!d)
        return;
    free(d->lines);
    free(d->slots);
    free(d);
}

int gl_dram_nomem(const gl_dram *d)
{
    return d->nomem;
}

static uint32_t hash(const gl_dram *d, uint64_t sector)
{
    return (uint32_t)((sector * 0x9e3779b97f4a7c15ull) >> 32) & (d->nslots - 1);
}

/* The slot holding sector, or the empty slot where it would go. */
static uint32_t slot_of(const gl_dram *d, uint64_t sector)
{
    uint32_t h = hash(d, sector);
    while (d->slots[h] && d->lines[d->slots[h] - 1].sector != sector)
        h = (h + 1) & (d->nslots - 1);
    return h;
}

/* Removes the entry at slot h, moving later entries of its probe run back. */
static void slot_remove(gl_dram *d, uint32_t h)
{
    const uint32_t mask = d->nslots - 1;
    uint32_t hole = h;
    for (uint32_t j = (h + 1) & mask; d->slots[j]; j = (j + 1) & mask) {
        const uint32_t home = hash(d, d->lines[d->slots[j] - 1].sector);
        /* j's entry may fill the hole when its home is not in (hole, j] cyclically */
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            d->slots[hole] = d->slots[j];
            hole = j;
        }
    }
    d->slots[hole] = 0;
}

/* Room for one more line: lines and slots grown (doubling, up to capacity). 0, or -1
 * on no memory. */
static int grow(gl_dram *d)
{
    if (d->nlines < d->cap_lines)
        return 0;
    uint32_t nc = d->cap_lines ? d->cap_lines * 2 : 1024;
    if (nc > d->capacity)
        nc = d->capacity;
    line *nl = realloc(d->lines, (size_t)nc * sizeof *nl);
    if (!nl)
        return -1;
    d->lines = nl;
    d->cap_lines = nc;
    uint32_t ns = 1;
    while (ns < 2 * nc)
        ns *= 2;
    if (ns == d->nslots)
        return 0;
    uint32_t *slots = calloc(ns, sizeof *slots);
    if (!slots)
        return -1;
    free(d->slots);
    d->slots = slots;
    d->nslots = ns;
    for (uint32_t i = 0; i < d->nlines; i++)
        d->slots[slot_of(d, d->lines[i].sector)] = i + 1;
    return 0;
}

static void unlink_line(gl_dram *d, uint32_t i)
{
    line *l = &d->lines[i];
    if (l->newer != NONE)
        d->lines[l->newer].older = l->older;
    else
        d->newest = l->older;
    if (l->older != NONE)
        d->lines[l->older].newer = l->newer;
    else
        d->oldest = l->newer;
}

static void push_newest(gl_dram *d, uint32_t i)
{
    line *l = &d->lines[i];
    l->newer = NONE;
    l->older = d->newest;
    if (d->newest != NONE)
        d->lines[d->newest].newer = i;
    else
        d->oldest = i;
    d->newest = i;
}

/* One sector touched: a read (load, atomic) and/or a write (store, atomic). */
static void touch(gl_dram *d, uint64_t sector, int reads, int writes, uint64_t *read,
                  uint64_t *written)
{
    uint32_t i = NONE;
    if (d->nslots) {
        const uint32_t h = slot_of(d, sector);
        if (d->slots[h])
            i = d->slots[h] - 1;
    }
    if (i != NONE) { /* resident: an L2 hit */
        unlink_line(d, i);
        push_newest(d, i);
    } else {
        if (reads)
            *read += 32;
        if (d->nlines == d->capacity) { /* evict the least recent (its write-back was
                                           counted when it became dirty) */
            i = d->oldest;
            unlink_line(d, i);
            slot_remove(d, slot_of(d, d->lines[i].sector));
        } else if (grow(d) < 0) {
            d->nomem = 1;
            *written += writes ? 32 : 0; /* not kept: written through */
            return;
        } else {
            i = d->nlines++;
        }
        d->lines[i] = (line){.sector = sector, .dirty = 0};
        d->slots[slot_of(d, sector)] = i + 1;
        push_newest(d, i);
    }
    if (writes && !d->lines[i].dirty) {
        d->lines[i].dirty = 1;
        *written += 32;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The distinct sectors among n gathered ones, touched in address order. */
static void touch_all(gl_dram *d, uint64_t *sec, unsigned n, int op, uint64_t *read,
                      uint64_t *written)
{
    qsort(sec, n, sizeof *sec, cmp_u64);
    for (unsigned k = 0; k < n; k++)
        if (k == 0 || sec[k] != sec[k - 1])
            touch(d, sec[k], op != TRACE_STORE, op != TRACE_LOAD, read, written);
}

void gl_dram_access(gl_dram *d, int op, const uint64_t *addrs, uint32_t mask, unsigned width,
                    uint64_t *read, uint64_t *written)
{
    uint64_t sec[64];
    unsigned n = 0;
    if (width == 0)
        width = 1;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint64_t a = addrs[__builtin_ctz(m)];
        for (uint64_t s = a / 32; s <= (a + width - 1) / 32; s++) {
            if (n == sizeof sec / sizeof *sec) { /* wide lanes: touch what is gathered */
                touch_all(d, sec, n, op, read, written);
                n = 0;
            }
            sec[n++] = s;
        }
    }
    touch_all(d, sec, n, op, read, written);
}
