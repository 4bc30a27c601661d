/* view_barriers.c — the barrier view: per warp of the selected block, running /
 * waiting over time, each barrier's release (PTX ISA §9.7.13.4 bar.sync). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui/view_common.h"

/* ---------------------------------------------------------------- barriers */

void view_barriers_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x,
                        int h, int w)
{
    (void)self;
    uint32_t b;
    unsigned sw, sl;
    tv_selected(a, &b, &sw, &sl);
    unsigned wpb = view_warps_per_block(t);
    /* the block's time span */
    uint64_t t0 = UINT64_MAX, t1 = 0;
    int nrel = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b)
            continue;
        if (e->time < t0)
            t0 = e->time;
        if (e->time > t1)
            t1 = e->time;
        nrel += e->kind == TRACE_EV_BAR_RELEASE;
    }
    char buf[300];
    if (t->truncated && w >= 60) /* the stored events are the launch's first ones only */
        snprintf(buf, sizeof buf, "block %u: %d barrier%s in the first %zu events (trace cut)", b,
                 nrel, nrel == 1 ? "" : "s", t->nevents);
    else if (t->truncated)
        snprintf(buf, sizeof buf, "block %u: %d barrier%s (trace cut)", b, nrel,
                 nrel == 1 ? "" : "s");
    else
        snprintf(buf, sizeof buf, "block %u: %d barrier%s, warps over time", b, nrel,
                 nrel == 1 ? "" : "s");
    view_put(win, y, x, w, buf, t->truncated ? term_attr(TC_WARN) : term_attr(TC_HEADING));
    const char *run = view_utf8() ? "\u2500" : "-", *wait = view_utf8() ? "\u00b7" : ".",
               *rel = view_utf8() ? "\u2502" : "|";
    snprintf(buf, sizeof buf, "%s issuing  %s waiting at a barrier  %s released", run, wait, rel);
    view_put(win, y + 1, x, w, buf, term_attr(TC_DIM));
    if (t0 == UINT64_MAX)
        return;
    int lw = 5, cols = w - lw - 1;
    if (cols < 8)
        return;
    double span = (double)(t1 - t0 + 1);
#define COL(tm) ((int)((double)((tm)-t0) * cols / span))
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    uint64_t now = pos > 0 ? t->events[pos - 1].time : t0;
    int rows = (int)wpb < h - 5 ? (int)wpb : h - 5;
    if (rows < 1)
        rows = 1;
    unsigned wfirst = sw >= (unsigned)rows ? sw - (unsigned)rows + 1 : 0;
    int *arrive = calloc(wpb, sizeof *arrive);
    if (!arrive)
        return;
    for (int r = 0; r < rows && wfirst + (unsigned)r < wpb; r++) {
        unsigned wi = wfirst + (unsigned)r;
        snprintf(buf, sizeof buf, "w%-3u", wi);
        view_put(win, y + 2 + r, x, lw, buf, wi == sw ? term_attr(TC_MAPSEL) : term_attr(TC_DIM));
    }
    for (unsigned k = 0; k < wpb; k++)
        arrive[k] = -1;
    for (size_t i = 0; i < pos; i++) { /* first what issued, then the waits over it */
        const trace_event *e = &t->events[i];
        if (e->block == b && e->kind == TRACE_EV_ISSUE && e->warp >= wfirst &&
            e->warp < wfirst + (unsigned)rows)
            view_glyph(win, y + 2 + (int)(e->warp - wfirst), x + lw + COL(e->time), run,
                       term_attr(TC_GOOD));
    }
    for (size_t i = 0; i < pos; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b)
            continue;
        if (e->kind == TRACE_EV_BAR_ARRIVE && e->warp < wpb)
            arrive[e->warp] = COL(e->time);
        else if (e->kind == TRACE_EV_BAR_RELEASE) {
            int c = COL(e->time);
            for (unsigned k = wfirst; k < wpb && k < wfirst + (unsigned)rows; k++) {
                for (int q = arrive[k] + 1; arrive[k] >= 0 && q < c; q++)
                    view_glyph(win, y + 2 + (int)(k - wfirst), x + lw + q, wait,
                               term_attr(TC_WARN));
                view_glyph(win, y + 2 + (int)(k - wfirst), x + lw + c, rel, term_attr(TC_HEADING));
                arrive[k] = -1;
            }
        }
    }
    /* still waiting at the cursor */
    int cnow = COL(now);
    for (unsigned k = wfirst; k < wpb && k < wfirst + (unsigned)rows; k++)
        for (int q = arrive[k] + 1; arrive[k] >= 0 && q <= cnow && q < cols; q++)
            view_glyph(win, y + 2 + (int)(k - wfirst), x + lw + q, wait, term_attr(TC_BAD));
    free(arrive);
#undef COL
    int r = y + 2 + rows;
    /* the barriers: line, release time */
    int shown = 0;
    for (size_t i = 0; i < t->nevents && r < y + h - 1 && shown < 4; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_BAR_RELEASE || e->block != b)
            continue;
        int line = view_line_of_pc(t, e->pc);
        snprintf(buf, sizeof buf, "%s t=%" PRIu64 " line %d %s", i < pos ? "released" : "later   ",
                 e->time, line, view_src_text(a, line));
        view_put(win, r++, x, w, buf, i < pos ? PLAIN : term_attr(TC_DIM));
        shown++;
    }
}

int view_barriers_height(const app *a, int w)
{
    (void)w;
    const trace_t *t = view_trace(a);
    return t ? 8 + (int)(view_warps_per_block(t) < 12 ? view_warps_per_block(t) : 12) : 8;
}
