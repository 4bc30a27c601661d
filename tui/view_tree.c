/* view_tree.c — the tree view: the block's shared memory after each barrier
 * (snapshots), changed cells bright: a reduction or scan tree, one level per barrier
 * epoch. */
#include <inttypes.h>
#include <math.h>
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

/* A float element of size bytes: f64, f32 or f16. */
static double snap_float(const unsigned char *p, unsigned size)
{
    if (size == 8) {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    if (size == 2) { /* IEEE half: sign, 5 exponent bits, 10 fraction bits */
        const unsigned h = p[0] | (unsigned)p[1] << 8, e = (h >> 10) & 31, m = h & 1023;
        const double v = e == 0    ? ldexp(m, -24)
                         : e == 31 ? (m ? NAN : INFINITY)
                                   : ldexp(1024 + m, (int)e - 25);
        return h & 0x8000 ? -v : v;
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

/* Element p (size bytes) as text: floats to 4 digits; integers exactly, unsigned when
 * uns (see stored_unsigned), else signed. */
static int snap_text(char *buf, size_t len, const unsigned char *p, unsigned size, bool is_float,
                     bool uns)
{
    if (is_float)
        return snprintf(buf, len, "%.4g", snap_float(p, size));
    uint64_t u = 0;
    memcpy(&u, p, size); /* little-endian, as the trace's bytes */
    if (uns)
        return snprintf(buf, len, "%" PRIu64, u);
    if (size < 8 && (u >> (8 * size - 1)) & 1) /* sign-extend */
        u |= ~UINT64_C(0) << (8 * size);
    return snprintf(buf, len, "%" PRId64, (int64_t)u);
}

/* Whether the integers block b stored in shared memory (its shared stores and atomics
 * among events [0, upto)) are best shown unsigned, judged on snapshot s: the PTX does not
 * say (NVRTC stores an int with st.shared.u32), so they are unsigned when one of them
 * would be below -2^24 as a signed value (a key or a mask past 2^31, not a count or a
 * sum). Elements nothing stored (the simulator's poison, a GPU's leftovers) do not count. */
static bool stored_unsigned(const trace_t *t, uint32_t b, size_t upto, const trace_snapshot *s,
                            unsigned es, bool is_float)
{
    if (is_float || es < 4 || s->size < es)
        return false;
    const size_t nel = s->size / es;
    unsigned char *wrote = calloc(nel, 1);
    if (!wrote)
        return false;
    for (size_t i = 0; i < upto && i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_MEM || e->block != b || e->space != TRACE_SPACE_SHARED ||
            e->op == TRACE_LOAD)
            continue;
        const uint64_t *ad = trace_event_addrs(t, e);
        for (int l = 0; l < WARP; l++)
            for (uint64_t o = 0; (e->mask >> l) & 1u && o < e->width; o += es)
                if ((ad[l] + o) / es < nel)
                    wrote[(ad[l] + o) / es] = 1;
    }
    bool uns = false;
    for (size_t k = 0; k < nel && !uns; k++) {
        if (!wrote[k])
            continue;
        uint64_t u = 0;
        memcpy(&u, t->snap_bytes + s->offset + k * es, es);
        uns = es == 8 ? (int64_t)u < -(INT64_C(1) << 56) : (int32_t)u < -(1 << 24);
    }
    free(wrote);
    return uns;
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
 * barrier. Values of the elements from its column ([ ] page sideways), or, zoomed out
 * (x), every element as a strip of cells (each cell k elements: bright where one
 * changed at that barrier) with a cursor at that column whose values are listed below. */
void view_tree_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                    int w)
{
    view_tree_state *st = self;
    uint32_t b;
    unsigned sw, sl;
    tv_selected(a, &b, &sw, &sl);
    if (t->nsnaps == 0) {
        view_put_wrap(win, y, x, w, h,
                      "no shared-memory snapshots: this kernel has no barrier (or uses no shared "
                      "memory)",
                      term_attr(TC_DIM));
        return;
    }
    unsigned es;
    bool fl;
    shared_elem(t, &es, &fl);
    /* the snapshots of block b released before the cursor, via the release events */
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    enum { MAXR = 64 };
    uint32_t idx[MAXR];
    size_t at[MAXR];                  /* event index of each release */
    int n = 0, total = 0, before = 0; /* before: all released before the cursor */
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_BAR_RELEASE || e->block != b || e->aux == UINT32_MAX ||
            e->aux >= t->nsnaps)
            continue;
        total++;
        if (i >= pos)
            continue;
        before++;
        if (n == MAXR)
            memmove(idx, idx + 1, (MAXR - 1) * sizeof *idx),
                memmove(at, at + 1, (MAXR - 1) * sizeof *at), n--;
        at[n] = i;
        idx[n++] = e->aux;
    }
    /* rows: the last barriers before the cursor; when some do not fit, the first row says
     * how many earlier ones are not shown. Who wrote what in the last epoch shown goes
     * below (zoomed out, the cursor's values). */
    int who_rows = h >= 9 ? (h >= 16 ? 4 : 2) : 0;
    if (st->zoom && who_rows == 0 && h >= 5)
        who_rows = 1;
    int rows = h - 2 - who_rows;
    if (rows < 1)
        rows = 1;
    const bool cut = before > rows;
    const int start =
        n - (cut && rows > 1 ? rows - 1 : rows) > 0 ? n - (cut && rows > 1 ? rows - 1 : rows) : 0;
    /* columns as wide as the widest value of the rows shown, one space between */
    char buf[256];
    int lw = 6, cw = 2;
    const bool uns = n > 0 && stored_unsigned(t, b, at[n - 1], &t->snaps[idx[n - 1]], es, fl);
    for (int r = start; r < n; r++) {
        const trace_snapshot *sn = &t->snaps[idx[r]];
        for (uint32_t e = 0; (size_t)(e + 1) * es <= sn->size; e++) {
            int l = snap_text(buf, sizeof buf, t->snap_bytes + sn->offset + (size_t)e * es, es, fl,
                              uns);
            if (l + 1 > cw)
                cw = l + 1;
        }
    }
    if (cw > w - lw)
        cw = w - lw > 2 ? w - lw : 2;
    int ncols = (w - lw) / cw;
    if (ncols < 1)
        ncols = 1;
    uint32_t elems = 0;
    for (size_t i = 0; i < t->nsnaps; i++) /* the block's shared memory, in elements */
        if (t->snaps[i].size / es > elems)
            elems = t->snaps[i].size / es;
    /* zoomed out: k elements per cell, as few as let every element fit */
    const int strip = w - lw > 1 ? w - lw : 1;
    const uint32_t k = st->zoom ? (elems + (uint32_t)strip - 1) / (uint32_t)strip : 1;
    const int zoom = st->zoom && elems > 0;
    int first = st->col < 0 ? 0 : st->col;
    if (!zoom && elems > 0 && (uint32_t)first + (uint32_t)ncols > elems)
        first = elems > (uint32_t)ncols ? (int)(elems - (uint32_t)ncols) : 0;
    if (zoom && (uint32_t)first >= elems)
        first = (int)elems - 1;
    st->elems = (int)elems;
    st->page = zoom ? (int)k : ncols;
    const bool narrow = w < 48; /* shorter words: the lines stay whole at 80x24 */
    snprintf(buf, sizeof buf,
             narrow ? "block %u, barrier %d/%d: shared"
                    : "block %u after barrier %d/%d: shared memory",
             b, before, total);
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
    const int top = y + 2 + (start > 0 || before > n ? 1 : 0); /* the first barrier's row */
    if (top > y + 2) {
        snprintf(buf, sizeof buf, "%s %d more row%s above (< back)", view_utf8() ? "\u22ee" : ":",
                 before - (n - start), before - (n - start) == 1 ? "" : "s");
        view_put(win, y + 2, x, w, buf, term_attr(TC_DIM));
    }
    for (int r = start; r < n; r++) {
        const trace_snapshot *s = &t->snaps[idx[r]];
        const trace_snapshot *p = r > 0 ? &t->snaps[idx[r - 1]] : NULL;
        int line = view_line_of_pc(t, s->pc);
        const int row = top + r - start;
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
            bool changed =
                p && off + es <= p->size &&
                memcmp(t->snap_bytes + s->offset + off, t->snap_bytes + p->offset + off, es) != 0;
            char v[64];
            snap_text(v, sizeof v, t->snap_bytes + s->offset + off, es, fl, uns);
            snprintf(buf, sizeof buf, "%*s", cw - 1, v); /* right-aligned, a space before */
            view_put(win, row, x + lw + c * cw + 1, cw - 1, buf,
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
            char v[64];
            snap_text(v, sizeof v, t->snap_bytes + s->offset + (size_t)e * es, es, fl, uns);
            used += snprintf(buf + used, sizeof buf - (size_t)used, " %s", v);
        }
        view_put_wrap(win, top + (n - start), x, w, who_rows, buf, PLAIN);
        return;
    }
    if (who_rows > 0)
        draw_epoch_writers(win, a, t, b, n >= 2 ? at[n - 2] + 1 : 0, at[n - 1], es,
                           top + (n - start), x, y + h - (top + (n - start)), w);
}

int view_tree_height(const app *a, int w)
{
    (void)a, (void)w;
    return 20;
}

bool view_tree_key(void *self, const app *a, int ch)
{
    view_tree_state *st = self;
    (void)a;
    if (ch == 'x') {
        st->zoom = !st->zoom;
        return true;
    }
    if (ch != '[' && ch != ']')
        return false;
    /* sideways through shared memory: a page, or (zoomed out) the cursor */
    const int n = st->elems, page = st->page > 0 ? st->page : 1;
    if (n <= 0)
        return true;
    int c = st->col + (ch == ']' ? 1 : -1) * page;
    if (c > n - (st->zoom ? 1 : page))
        c = n - (st->zoom ? 1 : page);
    st->col = c < 0 ? 0 : c;
    return true;
}

void view_tree_reset(void *self)
{
    *(view_tree_state *)self = (view_tree_state){0};
}
