/* view_atomics.c — the atomics view: lane-level atomic operations per address, up to
 * the trace cursor; at the end of a trace that was cut, the whole launch's (its
 * metrics). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui/view_common.h"

/* ----------------------------------------------------------------- atomics */

typedef struct addr_count {
    uint64_t addr;
    int space;
    uint64_t n;
} addr_count;

static int by_count(const void *p, const void *q)
{
    const addr_count *x = p, *y = q;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The launch's atomics from its metrics (trace/analysis.h, streamed over every event,
 * so exact when the stored trace was cut): the busiest addresses into ac (*n of them),
 * the lane-level operations into *total and the distinct addresses into *naddr. 0 when
 * the run has no complete metrics. */
static int atomics_of_launch(const app *a, addr_count *ac, size_t cap, size_t *n, uint64_t *total,
                             uint64_t *naddr)
{
    const gl_metrics *m = a->run.metrics;
    if (!m || m->incomplete || m->level < TRACE_MEMORY)
        return 0;
    *total = m->total.global_atom_threads + m->total.shared_atom_threads;
    *naddr = m->natomic_addresses;
    *n = 0;
    for (int i = 0; i < m->ntop_atomics && *n < cap; i++)
        ac[(*n)++] = (addr_count){m->top_atomics[i].address, m->top_atomics[i].space,
                                  m->top_atomics[i].count};
    return 1;
}

void view_atomics_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                       int w)
{
    (void)self;
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    size_t cap = 4096, n = 0;
    addr_count *ac = malloc(cap * sizeof *ac);
    if (!ac)
        return;
    uint64_t total = 0, naddr = 0;
    char buf[256];
    /* At the end of a cut trace the stored events are the first ones only: the counts
     * are the launch's (its metrics saw every event), or said to be the first events'. */
    const bool cut = t->truncated && pos == t->nevents;
    bool launch = false; /* the counts are the whole launch's */
    if (cut && atomics_of_launch(a, ac, cap, &n, &total, &naddr)) {
        launch = true;
        snprintf(buf, sizeof buf, "%" PRIu64 " atomic%s%s on %" PRIu64 " address%s", total,
                 w >= 40 ? " op" : "", total == 1 ? "" : "s", naddr, naddr == 1 ? "" : "es");
    } else {
        for (size_t i = 0; i < pos; i++) {
            const trace_event *e = &t->events[i];
            if (e->kind != TRACE_EV_MEM || e->op != TRACE_ATOMIC)
                continue;
            const uint64_t *ad = trace_event_addrs(t, e);
            for (int l = 0; l < WARP; l++) {
                if (!((e->mask >> l) & 1u))
                    continue;
                total++;
                size_t k = 0;
                while (k < n && !(ac[k].addr == ad[l] && ac[k].space == e->space))
                    k++;
                if (k < n)
                    ac[k].n++;
                else if (n < cap)
                    ac[n++] = (addr_count){ad[l], e->space, 1};
            }
        }
        snprintf(buf, sizeof buf, "%" PRIu64 " atomic%s%s on %zu address%s%s", total,
                 w >= 40 ? " op" : "", total == 1 ? "" : "s", n, n == 1 ? "" : "es",
                 cut ? "" : " so far");
    }
    view_put(win, y, x, w, buf, term_attr(TC_HEADING));
    if (total == 0) {
        view_put(win, y + 1, x, w,
                 pos < t->nevents ? "none yet: End runs to the end"
                                  : "this kernel made no atomic operation",
                 term_attr(TC_DIM));
        free(ac);
        return;
    }
    /* buffer addresses: global ones are named by buffer and element where the run says
     * where its buffers were; others as +words from the lowest of them */
    char name[64];
    bool named = true;
    uint64_t lo = UINT64_MAX;
    for (size_t k = 0; k < n; k++) {
        if (ac[k].space == TRACE_SPACE_GLOBAL && view_buffer_elem(a, ac[k].addr, name, sizeof name))
            continue;
        named = false;
        lo = ac[k].addr < lo ? ac[k].addr : lo;
    }
    if (launch) /* what the first row counts: the launch, though its trace was cut */
        view_put(win, y + 1, x, w,
                 w >= 60 ? "in the whole launch (its trace was cut); busiest first:"
                         : "whole launch (trace cut)",
                 term_attr(TC_WARN));
    else if (cut) {
        snprintf(buf, sizeof buf,
                 w >= 60 ? "in the first %zu events only: the trace was cut" : "first %zu events",
                 t->nevents);
        view_put(win, y + 1, x, w, buf, term_attr(TC_WARN));
    } else
        view_put(
            win, y + 1, x, w,
            named
                ? (w >= 60 ? "busiest first, by buffer element; they serialise:" : "busiest first")
                : (w >= 60 ? "busiest first (+words from the lowest address); they serialise:"
                           : "busiest first, +words from the lowest"),
            term_attr(TC_DIM));
    qsort(ac, n, sizeof *ac, by_count);
    int lw = w >= 50 ? 20 : 13, bw = w - lw - 8;
    if (bw < 4)
        bw = 4;
    for (size_t k = 0; k < n && (int)k < h - 3; k++) {
        /* the buffer element, or the address and its offset from the lowest one in 4-byte
         * words */
        if (ac[k].space == TRACE_SPACE_GLOBAL && view_buffer_elem(a, ac[k].addr, name, sizeof name))
            snprintf(buf, sizeof buf, "gl %s", name);
        else if (w >= 50)
            snprintf(buf, sizeof buf, "%s +%-4" PRIu64 "%08" PRIx64,
                     ac[k].space == TRACE_SPACE_SHARED ? "sh" : "gl", (ac[k].addr - lo) / 4,
                     (uint64_t)(ac[k].addr & 0xffffffffull));
        else
            snprintf(buf, sizeof buf, "%s +%-4" PRIu64,
                     ac[k].space == TRACE_SPACE_SHARED ? "shared" : "global",
                     (ac[k].addr - lo) / 4);
        view_put(win, y + 2 + (int)k, x, lw, buf, term_attr(TC_DIM));
        int len = (int)((double)ac[k].n * bw / (double)ac[0].n);
        if (len < 1)
            len = 1;
        double heat = (double)ac[k].n / (double)ac[0].n;
        int at = heat > 0.66   ? term_attr(TC_BAD)
                 : heat > 0.33 ? term_attr(TC_WARN)
                               : term_attr(TC_GOOD);
        for (int q = 0; q < len; q++)
            view_glyph(win, y + 2 + (int)k, x + lw + q, view_block_glyph(), at);
        snprintf(buf, sizeof buf, " %" PRIu64, ac[k].n);
        view_put(win, y + 2 + (int)k, x + lw + len, w - lw - len, buf, PLAIN);
    }
    free(ac);
}

int view_atomics_height(const app *a, int w)
{
    (void)a, (void)w;
    return 12;
}
