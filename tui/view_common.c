/* view_common.c — what several views share: the selected warp, time travel over the
 * last run's trace (where . , < > move the cursor a->tpos), glyphs, source lines,
 * the memory views' current request and heading, barrier waits, buffer elements. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace/analysis.h"
#include "tui/view_common.h"

int view_popc(uint32_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

const trace_t *view_trace(const app *a)
{
    return a->have_run ? a->run.trace : NULL;
}

void tv_selected(const app *a, uint32_t *block, unsigned *warp, unsigned *lane)
{
    *block = 0, *warp = 0, *lane = 0;
    if (!a->sel_on || !a->have_spec)
        return;
    const gl_spec *s = &a->spec;
    uint64_t lb = a->sel_block[0] + (uint64_t)a->sel_block[1] * s->grid[0] +
                  (uint64_t)a->sel_block[2] * s->grid[0] * s->grid[1];
    uint64_t lt = a->sel_thread[0] + (uint64_t)a->sel_thread[1] * s->block[0] +
                  (uint64_t)a->sel_thread[2] * s->block[0] * s->block[1];
    *block = (uint32_t)lb;
    *warp = (unsigned)(lt / WARP);
    *lane = (unsigned)(lt % WARP);
}

/* Whether event e is one the current view steps over with TV_INSN: the selected warp's
 * requests of the view's space, else its instructions. */
static bool insn_match(const app *a, const trace_event *e, uint32_t b, unsigned w)
{
    if (e->block != b || e->warp != w)
        return false;
    int space = view_of(a->view)->space;
    if (space)
        return e->kind == TRACE_EV_MEM && e->space == space;
    return e->kind == TRACE_EV_ISSUE;
}

static bool unit_match(const app *a, tv_unit u, const trace_event *e, uint32_t b, unsigned w)
{
    if (u == TV_BARRIER)
        return e->kind == TRACE_EV_BAR_RELEASE && e->block == b;
    return insn_match(a, e, b, w);
}

size_t tv_step_pos(const app *a, tv_unit unit, int dir, bool *moved)
{
    const trace_t *t = view_trace(a);
    *moved = false;
    if (!t)
        return a->tpos;
    uint32_t b;
    unsigned w, l;
    tv_selected(a, &b, &w, &l);
    size_t n = t->nevents, pos = a->tpos > n ? n : a->tpos;
    if (dir > 0) {
        for (size_t i = pos; i < n; i++)
            if (unit_match(a, unit, &t->events[i], b, w)) {
                *moved = true;
                return i + 1;
            }
        return pos;
    }
    /* back: the event before the current one (the last matching one before pos) */
    size_t cur = pos;
    while (cur > 0 && !unit_match(a, unit, &t->events[cur - 1], b, w))
        cur--;
    if (cur == 0)
        return pos;
    for (size_t i = cur - 1; i > 0; i--)
        if (unit_match(a, unit, &t->events[i - 1], b, w)) {
            *moved = true;
            return i;
        }
    *moved = pos != 0;
    return 0;
}

size_t tv_initial_pos(const app *a)
{
    const trace_t *t = view_trace(a);
    if (!t)
        return 0;
    int space = view_of(a->view)->space;
    if (space) {
        uint32_t b;
        unsigned w, l;
        tv_selected(a, &b, &w, &l);
        /* the costliest request (most sectors / wavefronts), the first of those */
        size_t best = SIZE_MAX;
        unsigned cost = 0;
        for (size_t i = 0; i < t->nevents; i++) {
            const trace_event *e = &t->events[i];
            if (!insn_match(a, e, b, w))
                continue;
            const uint64_t *ad = trace_event_addrs(t, e);
            unsigned g, c = space == TRACE_SPACE_GLOBAL
                                ? gl_request_sectors(ad, e->mask, e->width)
                                : gl_request_wavefronts(ad, e->mask, e->width, &g);
            if (best == SIZE_MAX || c > cost)
                best = i, cost = c;
        }
        if (best != SIZE_MAX)
            return best + 1;
    }
    if (a->view == VIEW_FRAGS)
        return tv_tensor_first(a);
    return t->nevents;
}

int tv_current_line(const app *a)
{
    const trace_t *t = view_trace(a);
    if (!t)
        return 0;
    uint32_t b;
    unsigned w, l;
    tv_selected(a, &b, &w, &l);
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    for (size_t i = pos; i > 0; i--) {
        const trace_event *e = &t->events[i - 1];
        if ((e->kind == TRACE_EV_ISSUE || e->kind == TRACE_EV_MEM) && e->block == b &&
            e->warp == w && e->pc >= 0 && e->pc < t->ninsns)
            return t->insns[e->pc].src_line;
    }
    return 0;
}

/* ------------------------------------------------------------- drawing aids */

/* One glyph (possibly several bytes) at (y, x). */
void view_glyph(WINDOW *win, int y, int x, const char *g, int attr)
{
    if (attr)
        wattron(win, attr);
    mvwaddstr(win, y, x, g);
    if (attr)
        wattroff(win, attr);
}

bool view_utf8(void)
{
    return strcmp(term_glyph()->h, "-") != 0;
}
const char *view_block_glyph(void)
{
    return view_utf8() ? "\u2588" : "#";
}

/* The source text of line `line`, trimmed ("" if none). */
const char *view_src_text(const app *a, int line)
{
    if (line < 1 || line > a->src.nlines)
        return "";
    const char *s = a->src.lines[line - 1];
    while (*s == ' ')
        s++;
    return s;
}

int view_line_of_pc(const trace_t *t, int32_t pc)
{
    return pc >= 0 && pc < t->ninsns ? t->insns[pc].src_line : 0;
}

/* The current request of the selected warp for the memory views: the last one before
 * the cursor, else the first after it; NULL if none. */
const trace_event *view_current_request(const app *a, const trace_t *t)
{
    uint32_t b;
    unsigned w, l;
    tv_selected(a, &b, &w, &l);
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    for (size_t i = pos; i > 0; i--)
        if (insn_match(a, &t->events[i - 1], b, w))
            return &t->events[i - 1];
    for (size_t i = pos; i < t->nevents; i++)
        if (insn_match(a, &t->events[i], b, w))
            return &t->events[i];
    return NULL;
}

void view_request_heading(WINDOW *win, const app *a, const trace_t *t, const trace_event *e, int y,
                          int x, int w)
{
    char buf[300];
    int line = view_line_of_pc(t, e->pc);
    const char *mn = e->pc >= 0 && e->pc < t->ninsns ? t->insns[e->pc].mnemonic : "?";
    /* a cp.async.bulk event holds 16-byte pieces of one lane's copy, not lanes (trace.h) */
    const bool bulk = e->pc >= 0 && e->pc < t->ninsns && (t->insns[e->pc].flags & TRACE_INSN_BULK);
    if (w >= 56)
        snprintf(buf, sizeof buf, "b%u w%u line %d: %s, %u B x %d %s", e->block, e->warp, line, mn,
                 e->width, view_popc(e->mask), bulk ? "pieces of one copy" : "lanes");
    else
        snprintf(buf, sizeof buf, "b%u w%u L%d %s %uBx%d%s", e->block, e->warp, line, mn, e->width,
                 view_popc(e->mask), bulk ? " pieces" : "");
    view_put(win, y, x, w, buf, term_attr(TC_HEADING));
    view_put(win, y + 1, x, w, view_src_text(a, line), term_attr(TC_DIM));
}

/* Per warp of block b: where it waits at the end of the trace (pc of an arrival not
 * followed by a release of its block), -1 if not waiting. out[wpb]. */
void view_waiting_at(const trace_t *t, size_t upto, uint32_t b, int32_t *out, unsigned wpb)
{
    for (unsigned i = 0; i < wpb; i++)
        out[i] = -1;
    for (size_t i = 0; i < upto; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b)
            continue;
        if (e->kind == TRACE_EV_BAR_ARRIVE && e->warp < wpb)
            out[e->warp] = e->pc;
        else if (e->kind == TRACE_EV_BAR_RELEASE)
            for (unsigned k = 0; k < wpb; k++)
                out[k] = -1;
    }
}

unsigned view_warps_per_block(const trace_t *t)
{
    uint64_t T = (uint64_t)t->block[0] * t->block[1] * t->block[2];
    return t->nwarps_per_block ? t->nwarps_per_block : (unsigned)((T + WARP - 1) / WARP);
}

/* A global address as the spec's buffer and element, "hist[17]" ("hist[17]+2" inside an
 * element), from the run's buffer addresses (gl_run_result.dptr). false: in no buffer,
 * or the run has none (buf untouched). */
bool view_buffer_elem(const app *a, uint64_t addr, char *buf, size_t n)
{
    uint64_t elem, rem;
    int i = map_buffer_at(a, addr, &elem, &rem);
    if (i < 0)
        return false;
    const char *name = a->spec.args[i].name ? a->spec.args[i].name : "?";
    if (rem)
        snprintf(buf, n, "%s[%" PRIu64 "]+%" PRIu64, name, elem, rem);
    else
        snprintf(buf, n, "%s[%" PRIu64 "]", name, elem);
    return true;
}
