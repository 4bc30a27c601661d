/* view_tree.c — the tree view: the block's shared memory after each barrier
 * (snapshots), changed cells bright: a reduction or scan tree, one level per barrier
 * epoch. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/view_common.h"

/* -------------------------------------------------------------------- tree */

/* The shared array's element: the data type of the first instruction that accesses
 * shared memory by name (ld/st/atom .shared, trace_insn's facts). */
static void shared_elem(const trace_t *t, unsigned *size, bool *is_float)
{
    *size = 4, *is_float = false;
    for (int i = 0; i < t->ninsns; i++) {
        const trace_insn *ti = &t->insns[i];
        if (ti->src_space != TRACE_SPACE_SHARED && ti->dst_space != TRACE_SPACE_SHARED)
            continue;
        if (ti->cls != TRACE_CLASS_LOAD && ti->cls != TRACE_CLASS_STORE &&
            ti->cls != TRACE_CLASS_ATOMIC)
            continue;
        if (ti->flags & (TRACE_INSN_MATRIX | TRACE_INSN_WMMA))
            continue; /* matrix fragments, not the array's elements */
        *is_float = TRACE_TYPE_IS_FLOAT(ti->type);
        const unsigned bytes = TRACE_TYPE_BYTES(ti->type);
        if (bytes == 1 || bytes == 2 || bytes == 8)
            *size = bytes;
        return;
    }
}

static double snap_value(const unsigned char *p, unsigned size, bool is_float)
{
    if (is_float && size == 8) {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    if (is_float) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    if (size == 8) {
        int64_t v;
        memcpy(&v, p, 8);
        return (double)v;
    }
    if (size == 2) {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    if (size == 1)
        return (signed char)p[0];
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The shared stores of block b between events from and to (one barrier epoch),
 * grouped by warp and instruction: "w1 line 14: lanes 0-15 wrote [0..30]". */
static void draw_epoch_writers(WINDOW *win, const app *a, const trace_t *t, uint32_t b, size_t from,
                               size_t to, unsigned es, int y, int x, int h, int w)
{
    if (h < 1)
        return;
    typedef struct grp {
        unsigned warp;
        int32_t pc;
        uint32_t lanes;
        uint64_t lo, hi;
    } grp;
    grp g[16];
    int ng = 0;
    for (size_t i = from; i < to && i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_MEM || e->block != b || e->space != TRACE_SPACE_SHARED ||
            e->op == TRACE_LOAD)
            continue;
        const uint64_t *ad = trace_event_addrs(t, e);
        int k = 0;
        while (k < ng && !(g[k].warp == e->warp && g[k].pc == e->pc))
            k++;
        if (k == ng) {
            if (ng == 16)
                continue;
            g[ng++] = (grp){e->warp, e->pc, 0, UINT64_MAX, 0};
        }
        for (int l = 0; l < WARP; l++) {
            if (!((e->mask >> l) & 1u))
                continue;
            g[k].lanes |= 1u << l;
            uint64_t el = ad[l] / es;
            if (el < g[k].lo)
                g[k].lo = el;
            if (el > g[k].hi)
                g[k].hi = el;
        }
    }
    char buf[200];
    view_put(win, y, x, w,
             ng ? "written in this epoch (shared stores):" : "no shared store in this epoch",
             term_attr(TC_HEADING));
    for (int k = 0; k < ng && k + 1 < h; k++) {
        int lo = 0, hi = 31;
        while (lo < 32 && !((g[k].lanes >> lo) & 1u))
            lo++;
        while (hi > 0 && !((g[k].lanes >> hi) & 1u))
            hi--;
        int nl = view_popc(g[k].lanes);
        char who[40];
        if (nl == 1)
            snprintf(who, sizeof who, "lane %d", lo);
        else
            snprintf(who, sizeof who, "%d lanes (%d-%d)", nl, lo, hi);
        if (g[k].lo == g[k].hi)
            snprintf(buf, sizeof buf, "w%u line %d: %s wrote [%" PRIu64 "]", g[k].warp,
                     view_line_of_pc(t, g[k].pc), who, g[k].lo);
        else
            snprintf(buf, sizeof buf, "w%u line %d: %s wrote [%" PRIu64 "..%" PRIu64 "]", g[k].warp,
                     view_line_of_pc(t, g[k].pc), who, g[k].lo, g[k].hi);
        view_put(win, y + 1 + k, x, w, buf, PLAIN);
    }
    (void)a;
}

/* The tree view: shared memory of the selected block after each barrier, one row per
 * barrier. Values of the elements from a->tree_col ([ ] page sideways), or, zoomed out
 * (x), every element as a strip of cells (each cell k elements: bright where one
 * changed at that barrier) with a cursor at a->tree_col whose values are listed below. */
void view_tree_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                    struct view_metrics *m)
{
    uint32_t b;
    unsigned sw, sl;
    tv_selected(a, &b, &sw, &sl);
    if (t->nsnaps == 0) {
        view_put(win, y, x, w, "no shared-memory snapshots: this kernel has no barrier",
                 term_attr(TC_DIM));
        view_put(win, y + 1, x, w, "(or uses no shared memory)", term_attr(TC_DIM));
        return;
    }
    unsigned es;
    bool fl;
    shared_elem(t, &es, &fl);
    /* the snapshots of block b released before the cursor, via the release events */
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    enum { MAXR = 64 };
    uint32_t idx[MAXR];
    size_t at[MAXR]; /* event index of each release */
    int n = 0, total = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_BAR_RELEASE || e->block != b || e->aux == UINT32_MAX ||
            e->aux >= t->nsnaps)
            continue;
        total++;
        if (i >= pos)
            continue;
        if (n == MAXR)
            memmove(idx, idx + 1, (MAXR - 1) * sizeof *idx),
                memmove(at, at + 1, (MAXR - 1) * sizeof *at), n--;
        at[n] = i;
        idx[n++] = e->aux;
    }
    int cw = fl ? 7 : 5, lw = 6;
    int ncols = (w - lw) / cw;
    if (ncols < 1)
        ncols = 1;
    char buf[256];
    uint32_t elems = 0;
    for (size_t i = 0; i < t->nsnaps; i++) /* the block's shared memory, in elements */
        if (t->snaps[i].size / es > elems)
            elems = t->snaps[i].size / es;
    /* zoomed out: k elements per cell, as few as let every element fit */
    const int strip = w - lw > 1 ? w - lw : 1;
    const uint32_t k = a->tree_zoom ? (elems + (uint32_t)strip - 1) / (uint32_t)strip : 1;
    const int zoom = a->tree_zoom && elems > 0;
    int first = a->tree_col < 0 ? 0 : a->tree_col;
    if (!zoom && elems > 0 && (uint32_t)first + (uint32_t)ncols > elems)
        first = elems > (uint32_t)ncols ? (int)(elems - (uint32_t)ncols) : 0;
    if (zoom && (uint32_t)first >= elems)
        first = (int)elems - 1;
    m->tree_elems = (int)elems;
    m->tree_cols = zoom ? (int)k : ncols;
    const bool narrow = w < 48; /* shorter words: the lines stay whole at 80x24 */
    snprintf(buf, sizeof buf,
             narrow ? "block %u, barrier %d/%d: shared"
                    : "block %u after barrier %d/%d: shared memory",
             b, n, total);
    view_put(win, y, x, w, buf, term_attr(TC_HEADING));
    const int last =
        zoom ? first
             : (int)((uint32_t)first + (uint32_t)ncols < elems ? (uint32_t)first + (uint32_t)ncols
                                                               : elems) -
                   1;
    if (zoom)
        snprintf(buf, sizeof buf,
                 narrow ? "all %u, %u/cell, cursor [%d] ([ ] x)"
                        : "all %u, %u per cell; cursor [%d] ([ ] move, x: values)",
                 elems, k, first);
    else if (elems > (uint32_t)ncols)
        snprintf(buf, sizeof buf,
                 narrow ? "[%d..%d] of %u; [ ] pages, x: all"
                        : "[%d..%d] of %u ([ ] sideways, x: all); bright: changed",
                 first, last, elems);
    else
        snprintf(buf, sizeof buf, "[%d..%d] of %u, one row per barrier; bright: changed", first,
                 last, elems);
    view_put(win, y + 1, x, w, buf, term_attr(TC_DIM));
    if (n == 0) {
        view_put(win, y + 2, x, w, "> steps to the first barrier", term_attr(TC_DIM));
        return;
    }
    /* who wrote what in the last epoch shown (between the two last barriers); zoomed
     * out, the cursor's values instead */
    int who_rows = h >= 9 ? (h >= 16 ? 4 : 2) : 0;
    if (zoom && who_rows == 0 && h >= 5)
        who_rows = 1;
    int rows = h - 2 - who_rows;
    int start = n > rows ? n - rows : 0;
    for (int r = start; r < n; r++) {
        const trace_snapshot *s = &t->snaps[idx[r]];
        const trace_snapshot *p = r > 0 ? &t->snaps[idx[r - 1]] : NULL;
        int line = view_line_of_pc(t, s->pc);
        const int row = y + 2 + r - start;
        snprintf(buf, sizeof buf, "L%-4d", line);
        view_put(win, row, x, lw, buf, r == n - 1 ? term_attr(TC_SELECTED) : term_attr(TC_DIM));
        if (zoom) {
            for (int c = 0; c < strip && (uint64_t)c * k < s->size / es; c++) {
                bool changed = false;
                for (uint32_t e = (uint32_t)c * k; e < (uint32_t)(c + 1) * k && !changed; e++) {
                    size_t off = (size_t)e * es;
                    changed = p && off + es <= p->size && off + es <= s->size &&
                              memcmp(t->snap_bytes + s->offset + off,
                                     t->snap_bytes + p->offset + off, es) != 0;
                }
                const bool cur = (uint32_t)first / k == (uint32_t)c;
                int cell_at = changed ? term_attr(TC_GOOD) | (int)A_BOLD : term_attr(TC_DIM);
                if (cur)
                    cell_at |= (int)A_REVERSE;
                view_put(win, row, x + lw + c, 1, changed ? term_glyph()->cell : term_glyph()->dot,
                         cell_at);
            }
            continue;
        }
        for (int c = 0; c < ncols && (uint32_t)(first + c) < s->size / es; c++) {
            size_t off = (size_t)(first + c) * es;
            double v = snap_value(t->snap_bytes + s->offset + off, es, fl);
            bool changed =
                p && off + es <= p->size &&
                memcmp(t->snap_bytes + s->offset + off, t->snap_bytes + p->offset + off, es) != 0;
            if (fl)
                snprintf(buf, sizeof buf, "%*.*g", cw - 1, 4, v);
            else
                snprintf(buf, sizeof buf, "%*.0f", cw - 1, v);
            view_put(win, row, x + lw + c * cw, cw, buf,
                     changed ? term_attr(TC_GOOD) | A_BOLD : PLAIN);
        }
    }
    if (zoom && who_rows > 0) {
        /* the cursor's cell: its elements' values after the last barrier shown */
        const trace_snapshot *s = &t->snaps[idx[n - 1]];
        const uint32_t c0 = (uint32_t)first / k * k;
        int used =
            snprintf(buf, sizeof buf, narrow ? "[%u..%u]:" : "[%u..%u] after the last barrier:", c0,
                     c0 + k - 1);
        for (uint32_t e = c0;
             e < c0 + k && (size_t)(e + 1) * es <= s->size && used < (int)sizeof buf - 24; e++) {
            double v = snap_value(t->snap_bytes + s->offset + (size_t)e * es, es, fl);
            used += fl ? snprintf(buf + used, sizeof buf - (size_t)used, " %.4g", v)
                       : snprintf(buf + used, sizeof buf - (size_t)used, " %.0f", v);
        }
        view_put(win, y + 2 + (n - start), x, w, buf, PLAIN);
        return;
    }
    if (who_rows > 0)
        draw_epoch_writers(win, a, t, b, n >= 2 ? at[n - 2] + 1 : 0, at[n - 1], es,
                           y + 2 + (n - start), x, y + h - (y + 2 + (n - start)), w);
}

int view_tree_height(const app *a, int w)
{
    (void)a, (void)w;
    return 20;
}
