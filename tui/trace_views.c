/* trace_views.c — the views drawn from the last run's trace (trace/trace.h), time
 * travel over it, and errors as pictures:
 *  - memory: one warp's global request, lane -> 32-byte sector -> 128-byte line,
 *    sectors per request (the metric of trace/analysis.h, CUDA C++ Best Practices
 *    Guide §10.2.1 "Coalesced Access to Global Memory");
 *  - banks: one shared request, lanes per bank, distinct words per bank = wavefronts
 *    (CUDA C++ Programming Guide §16.4.3 "Shared Memory", 32 banks of 4 bytes);
 *  - barriers: per warp of the selected block, running / waiting over time, each
 *    barrier's release (PTX ISA §9.7.13.4 bar.sync);
 *  - atomics: lane-level atomic operations per address;
 *  - buffers: on the exercise, the output against the reference's at the same size
 *    and inputs, side by side (index, expected, actual) around each difference, as
 *    the grader compares them; on other steps each buffer against its values before
 *    the launch, the first changed index first;
 *  - tree: the block's shared memory after each barrier (snapshots), changed cells
 *    bright: a reduction or scan tree, one level per barrier epoch;
 *  - error: a race's two threads and lines, an out-of-bounds lane against the
 *    buffer's bounds, a deadlock's groups of warps waiting at different barriers;
 *  - registers: the selected thread's PTX registers at the cursor (TRACE_EV_REG
 *    events), those its warp's last instruction wrote highlighted with their old
 *    values.
 * The cursor a->tpos says which events have happened: every view shows the state at
 * that point. Only the trace, the findings and the fault are read. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analysis.h"
#include "trace/trace.h"
#include "tui/app.h"
#include "tui/term.h"

enum { WARP = 32, PLAIN = 0 };

static const char *const k_names[VIEW__COUNT] = {"threads", "warps", "memory", "banks", "barriers",
                                                 "atomics", "buffers", "tree", "error",
                                                 "registers"};

const char *tv_view_name(app_view v) { return v < VIEW__COUNT ? k_names[v] : "?"; }

app_view tv_view_of_step(const char *view)
{
    for (int i = 1; view && i < VIEW__COUNT; i++)
        if (strcmp(view, k_names[i]) == 0) return (app_view)i;
    return VIEW_MAP;
}

static int popc(uint32_t m)
{
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

static const trace_t *trace_of(const app *a) { return a->have_run ? a->run.trace : NULL; }

void tv_selected(const app *a, uint32_t *block, unsigned *warp, unsigned *lane)
{
    *block = 0, *warp = 0, *lane = 0;
    if (!a->sel_on || !a->have_spec) return;
    const gl_spec *s = &a->spec;
    uint64_t lb = a->sel_block[0] + (uint64_t)a->sel_block[1] * s->grid[0] +
                  (uint64_t)a->sel_block[2] * s->grid[0] * s->grid[1];
    uint64_t lt = a->sel_thread[0] + (uint64_t)a->sel_thread[1] * s->block[0] +
                  (uint64_t)a->sel_thread[2] * s->block[0] * s->block[1];
    *block = (uint32_t)lb;
    *warp = (unsigned)(lt / WARP);
    *lane = (unsigned)(lt % WARP);
}

/* Whether event e is one the current view steps over with TV_INSN. */
static bool insn_match(const app *a, const trace_event *e, uint32_t b, unsigned w)
{
    if (e->block != b || e->warp != w) return false;
    if (a->view == VIEW_MEMORY) return e->kind == TRACE_EV_MEM && e->space == TRACE_SPACE_GLOBAL;
    if (a->view == VIEW_BANKS) return e->kind == TRACE_EV_MEM && e->space == TRACE_SPACE_SHARED;
    return e->kind == TRACE_EV_ISSUE;
}

static bool unit_match(const app *a, tv_unit u, const trace_event *e, uint32_t b, unsigned w)
{
    if (u == TV_BARRIER) return e->kind == TRACE_EV_BAR_RELEASE && e->block == b;
    return insn_match(a, e, b, w);
}

size_t tv_step_pos(const app *a, tv_unit unit, int dir, bool *moved)
{
    const trace_t *t = trace_of(a);
    *moved = false;
    if (!t) return a->tpos;
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
    while (cur > 0 && !unit_match(a, unit, &t->events[cur - 1], b, w)) cur--;
    if (cur == 0) return pos;
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
    const trace_t *t = trace_of(a);
    if (!t) return 0;
    if (a->view == VIEW_MEMORY || a->view == VIEW_BANKS) {
        uint32_t b;
        unsigned w, l;
        tv_selected(a, &b, &w, &l);
        /* the costliest request (most sectors / wavefronts), the first of those */
        size_t best = SIZE_MAX;
        unsigned cost = 0;
        for (size_t i = 0; i < t->nevents; i++) {
            const trace_event *e = &t->events[i];
            if (!insn_match(a, e, b, w)) continue;
            unsigned g, c = a->view == VIEW_MEMORY ? gl_request_sectors(trace_event_addrs(t, e), e->mask, e->width)
                                                   : gl_request_wavefronts(trace_event_addrs(t, e), e->mask, e->width, &g);
            if (best == SIZE_MAX || c > cost) best = i, cost = c;
        }
        if (best != SIZE_MAX) return best + 1;
    }
    return t->nevents;
}

int tv_current_line(const app *a)
{
    const trace_t *t = trace_of(a);
    if (!t) return 0;
    uint32_t b;
    unsigned w, l;
    tv_selected(a, &b, &w, &l);
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    for (size_t i = pos; i > 0; i--) {
        const trace_event *e = &t->events[i - 1];
        if ((e->kind == TRACE_EV_ISSUE || e->kind == TRACE_EV_MEM) && e->block == b && e->warp == w && e->pc >= 0 &&
            e->pc < t->ninsns)
            return t->insns[e->pc].src_line;
    }
    return 0;
}

bool tv_has_error_picture(const app *a)
{
    if (!a->have_run) return false;
    if (a->run.fault.kind != SIM_FAULT_NONE) return true;
    for (int i = 0; i < a->run.nfindings; i++) {
        const sim_finding *f = &a->run.findings[i];
        /* barrier misuse is a warning in a run (legal PTX) and a failure in grading */
        if (f->is_error || f->kind == SIM_FIND_DIVERGENT_BARRIER || f->kind == SIM_FIND_EXITED_BARRIER)
            return true;
    }
    return false;
}

/* ------------------------------------------------------------- drawing aids */

static int put(WINDOW *win, int y, int x, int maxcols, const char *s, int attr)
{
    return view_put(win, y, x, maxcols, s, attr);
}

/* One glyph (possibly several bytes) at (y, x). */
static void glyph(WINDOW *win, int y, int x, const char *g, int attr)
{
    if (attr) wattron(win, attr);
    mvwaddstr(win, y, x, g);
    if (attr) wattroff(win, attr);
}

static bool utf8(void) { return strcmp(term_glyph()->h, "-") != 0; }
static const char *g_block(void) { return utf8() ? "\u2588" : "#"; }

/* The source text of line `line`, trimmed ("" if none). */
static const char *src_text(const app *a, int line)
{
    if (line < 1 || line > a->src.nlines) return "";
    const char *s = a->src.lines[line - 1];
    while (*s == ' ') s++;
    return s;
}

static int line_of_pc(const trace_t *t, int32_t pc)
{
    return pc >= 0 && pc < t->ninsns ? t->insns[pc].src_line : 0;
}

/* The status line at the bottom of every trace view: time, selection, keys. */
static bool buffer_elem(const app *a, uint64_t addr, char *buf, size_t n);

static void draw_time_line(WINDOW *win, const app *a, const trace_t *t, int y, int x, int w)
{
    uint32_t b;
    unsigned wp, l;
    tv_selected(a, &b, &wp, &l);
    char buf[256];
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    uint64_t time = pos > 0 ? t->events[pos - 1].time : 0;
    /* the cursor in words where there is room: how far the launch had run (warp
     * instructions issued) and which of the trace's events it stands after */
    if (w >= 96)
        snprintf(buf, sizeof buf, "after %" PRIu64 " warp instructions (event %zu of %zu): block %u warp %u lane %u"
                 "  . , step  < > barrier  ( ) warp", time, pos, t->nevents, b, wp, l);
    else if (w >= 60)
        snprintf(buf, sizeof buf, "after %" PRIu64 " warp instr. (event %zu of %zu) b%u w%u lane %u  .,<>()", time, pos,
                 t->nevents, b, wp, l);
    else
        snprintf(buf, sizeof buf, "t=%" PRIu64 " ev %zu/%zu b%u w%u l%u .,<>()", time, pos, t->nevents, b, wp, l);
    put(win, y, x, w, buf, term_attr(TC_DIM));
}

/* The current request of the selected warp for the memory views: the last one before
 * the cursor, else the first after it; NULL if none. */
static const trace_event *current_request(const app *a, const trace_t *t)
{
    uint32_t b;
    unsigned w, l;
    tv_selected(a, &b, &w, &l);
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    for (size_t i = pos; i > 0; i--)
        if (insn_match(a, &t->events[i - 1], b, w)) return &t->events[i - 1];
    for (size_t i = pos; i < t->nevents; i++)
        if (insn_match(a, &t->events[i], b, w)) return &t->events[i];
    return NULL;
}

static void request_heading(WINDOW *win, const app *a, const trace_t *t, const trace_event *e, int y, int x, int w)
{
    char buf[300];
    int line = line_of_pc(t, e->pc);
    const char *mn = e->pc >= 0 && e->pc < t->ninsns ? t->insns[e->pc].mnemonic : "?";
    if (w >= 56)
        snprintf(buf, sizeof buf, "b%u w%u line %d: %.20s, %u B x %d lanes", e->block, e->warp, line, mn, e->width,
                 popc(e->mask));
    else
        snprintf(buf, sizeof buf, "b%u w%u L%d %.20s %uBx%d", e->block, e->warp, line, mn, e->width, popc(e->mask));
    put(win, y, x, w, buf, term_attr(TC_HEADING));
    put(win, y + 1, x, w, src_text(a, line), term_attr(TC_DIM));
}

/* ------------------------------------------------------------------ memory */

static void draw_memory(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w)
{
    const trace_event *e = current_request(a, t);
    if (!e) {
        put(win, y, x, w, "the selected warp made no global memory request", term_attr(TC_DIM));
        put(win, y + 1, x, w, "( ) selects another warp; 2 shows the warp timeline", term_attr(TC_DIM));
        return;
    }
    const uint64_t *ad = trace_event_addrs(t, e);
    uint32_t b;
    unsigned sw, sl;
    tv_selected(a, &b, &sw, &sl);
    request_heading(win, a, t, e, y, x, w);
    /* distinct sectors in order of address */
    uint64_t sec[WARP * 2];
    int ns = 0;
    for (int l = 0; l < WARP; l++) {
        if (!((e->mask >> l) & 1u)) continue;
        uint64_t lo = ad[l] / 32, hi = (ad[l] + (e->width ? e->width : 1) - 1) / 32;
        for (uint64_t s = lo; s <= hi && ns < WARP * 2; s++) {
            bool seen = false;
            for (int k = 0; k < ns; k++) seen |= sec[k] == s;
            if (!seen) sec[ns++] = s;
        }
    }
    for (int i = 1; i < ns; i++) /* insertion sort */
        for (int k = i; k > 0 && sec[k - 1] > sec[k]; k--) {
            uint64_t tmp = sec[k];
            sec[k] = sec[k - 1], sec[k - 1] = tmp;
        }
    int pal = term_palette_size();
    /* lane -> sector row */
    int r = y + 2;
    int lx = w >= 44 ? put(win, r, x, w, "lane>sector ", PLAIN) : w >= 38 ? put(win, r, x, w, "lanes ", PLAIN) : 0;
    for (int l = 0; l < WARP && lx + l < w; l++) {
        if (!((e->mask >> l) & 1u)) {
            glyph(win, r, x + lx + l, term_glyph()->dot, term_attr(TC_DIM));
            continue;
        }
        int k = 0;
        while (k < ns && sec[k] != ad[l] / 32) k++;
        char c[2] = {k < 10 ? (char)('0' + k) : k < 36 ? (char)('a' + k - 10) : '+', 0};
        int at = term_has_color() ? term_palette_attr(k % pal) : 0;
        if (l == (int)sl && e->block == b && e->warp == sw) at = term_attr(TC_MAPSEL);
        put(win, r, x + lx + l, 1, c, at);
    }
    r++;
    unsigned sectors = gl_request_sectors(ad, e->mask, e->width);
    unsigned bytes = (unsigned)popc(e->mask) * e->width;
    unsigned ideal = (bytes + 31) / 32;
    char buf[256];
    const char *verdict = sectors <= ideal ? "coalesced" : sectors <= ideal + 1 ? "one sector more than ideal (misaligned)"
                                                                                : "not coalesced";
    if (w >= 56)
        snprintf(buf, sizeof buf, "%u sector%s for %u bytes (ideal %u): %s", sectors, sectors == 1 ? "" : "s", bytes,
                 ideal, verdict);
    else
        snprintf(buf, sizeof buf, "%u sector%s, ideal %u: %s", sectors, sectors == 1 ? "" : "s", ideal,
                 sectors <= ideal ? "coalesced" : sectors <= ideal + 1 ? "misaligned" : "not coalesced");
    put(win, r++, x, w, buf, sectors <= ideal ? term_attr(TC_GOOD) : sectors <= ideal + 1 ? term_attr(TC_WARN) : term_attr(TC_BAD));
    /* the selected thread's lane in this request (what the trace has for a thread) */
    if (e->block == b && e->warp == sw && r < y + h - 2) {
        if ((e->mask >> sl) & 1u)
        {
            char elem[96];
            if (e->space == TRACE_SPACE_GLOBAL && buffer_elem(a, ad[sl], elem, sizeof elem))
                snprintf(buf, sizeof buf, "lane %u %s %s: sector %" PRIu64 " of its line", sl,
                         e->op == TRACE_LOAD ? "reads" : e->op == TRACE_STORE ? "writes" : "updates", elem,
                         ad[sl] / 32 % 4);
            else
                snprintf(buf, sizeof buf, "lane %u @0x%" PRIx64 " sector %" PRIu64 " of its line", sl, ad[sl], ad[sl] / 32 % 4);
        }
        else
            snprintf(buf, sizeof buf, "lane %u: inactive in this instruction", sl);
        put(win, r++, x, w, buf, term_attr(TC_MAPSEL));
    }
    /* one row per 128-byte line: its four sectors, with the lanes in each */
    int rows_left = h - (r - y);
    int nlines = 0;
    for (int i = 0; i < ns; i++)
        if (i == 0 || sec[i] / 4 != sec[i - 1] / 4) nlines++;
    snprintf(buf, sizeof buf, "%d line%s of 128 B:", nlines, nlines == 1 ? "" : "s");
    if (rows_left > 0) put(win, r++, x, w, buf, term_attr(TC_HEADING)), rows_left--;
    int shown = 0, avail = rows_left;
    for (int i = 0; i < ns && rows_left > 0;) {
        uint64_t line = sec[i] / 4;
        if (shown == avail - 1 && nlines - shown > 1) {
            snprintf(buf, sizeof buf, "... %d more lines", nlines - shown);
            put(win, r++, x, w, buf, term_attr(TC_DIM));
            break;
        }
        if (w >= 40) snprintf(buf, sizeof buf, "%09" PRIx64 " ", (uint64_t)(line * 128 & 0xfffffffffull));
        else snprintf(buf, sizeof buf, "%06" PRIx64 " ", (uint64_t)(line * 128 & 0xffffffull));
        int cx = put(win, r, x, w, buf, term_attr(TC_DIM));
        for (int s = 0; s < 4 && cx + 7 <= w; s++) {
            uint64_t sid = line * 4 + (uint64_t)s;
            int k = 0;
            while (k < ns && sec[k] != sid) k++;
            int lanes = 0;
            for (int l = 0; l < WARP; l++)
                if (((e->mask >> l) & 1u) && ad[l] / 32 == sid) lanes++;
            if (k < ns) snprintf(buf, sizeof buf, "[%c:%2d]", k < 10 ? '0' + k : k < 36 ? 'a' + k - 10 : '+', lanes);
            else snprintf(buf, sizeof buf, "[    ]");
            cx += put(win, r, x + cx, w - cx, buf, k < ns && term_has_color() ? term_palette_attr(k % pal) : term_attr(TC_DIM));
            cx++;
        }
        r++, rows_left--, shown++;
        while (i < ns && sec[i] / 4 == line) i++;
    }
}

/* ------------------------------------------------------------------- banks */

static void draw_banks(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w)
{
    const trace_event *e = current_request(a, t);
    if (!e) {
        put(win, y, x, w, "the selected warp made no shared-memory request", term_attr(TC_DIM));
        put(win, y + 1, x, w, "( ) selects another warp", term_attr(TC_DIM));
        return;
    }
    const uint64_t *ad = trace_event_addrs(t, e);
    request_heading(win, a, t, e, y, x, w);
    /* distinct 4-byte words per bank */
    uint64_t words[32][WARP];
    int nw[32] = {0};
    uint32_t lanes_of[32] = {0};
    unsigned width = e->width ? e->width : 4;
    for (int l = 0; l < WARP; l++) {
        if (!((e->mask >> l) & 1u)) continue;
        for (unsigned off = 0; off < width; off += 4) {
            uint64_t wd = (ad[l] + off) / 4;
            int bk = (int)(wd % 32);
            lanes_of[bk] |= 1u << l;
            bool seen = false;
            for (int k = 0; k < nw[bk]; k++) seen |= words[bk][k] == wd;
            if (!seen && nw[bk] < WARP) words[bk][nw[bk]++] = wd;
        }
    }
    int maxd = 0;
    for (int k = 0; k < 32; k++) maxd = nw[k] > maxd ? nw[k] : maxd;
    unsigned groups = 0, wf = gl_request_wavefronts(ad, e->mask, e->width, &groups);
    int r = y + 2;
    char buf[256];
    if (wf <= groups) snprintf(buf, sizeof buf, "%u wavefront%s (ideal %u): no conflict", wf, wf == 1 ? "" : "s", groups);
    else if (w >= 44) snprintf(buf, sizeof buf, "%u wavefronts (ideal %u): %d-way bank conflict", wf, groups, maxd);
    else snprintf(buf, sizeof buf, "%u wavefronts, ideal %u: conflict", wf, groups);
    put(win, r++, x, w, buf, wf > groups ? term_attr(TC_BAD) : term_attr(TC_GOOD));
    int bx = w >= 38 ? 6 : w > 32 ? w - 32 : 0;
    if (bx >= 4) put(win, r, x, w, bx >= 6 ? "bank" : "bk", term_attr(TC_DIM));
    for (int k = 0; k < 32 && bx + k < w; k++) {
        char c[2] = {(char)('0' + k % 10), 0};
        put(win, r, x + bx + k, 1, c, k % 10 == 0 ? term_attr(TC_HEADING) : term_attr(TC_DIM));
    }
    r++;
    /* a row per word a bank must deliver (every wavefront shown), then the legend and the
     * conflicting banks where there is room: the legend goes first when rows are short */
    const int avail = y + h - r; /* rows left below the bank numbers */
    int bars = maxd <= avail - 1 ? maxd : avail - 1;
    if (bars < 1) bars = 1;
    const bool legend = avail >= bars + 2;
    for (int d = bars; d >= 1; d--, r++) {
        snprintf(buf, sizeof buf, "%3d", d);
        if (bx >= 4) put(win, r, x, 4, buf, term_attr(TC_DIM));
        for (int k = 0; k < 32 && bx + k < w; k++) {
            if (nw[k] >= d) glyph(win, r, x + bx + k, g_block(), nw[k] > 1 ? term_attr(TC_BAD) : term_attr(TC_GOOD));
        }
    }
    if (legend)
        put(win, r++, x, w, w >= 44 ? "(rows: distinct words a bank must deliver)" : "(rows: words a bank delivers)",
            term_attr(TC_DIM));
    /* the conflicting banks with their lanes */
    for (int k = 0; k < 32 && r < y + h; k++) {
        if (nw[k] <= 1) continue;
        int n = snprintf(buf, sizeof buf, "bank %2d: %d words, lanes", k, nw[k]);
        for (int l = 0; l < WARP && n < (int)sizeof buf - 8; l++)
            if ((lanes_of[k] >> l) & 1u) n += snprintf(buf + n, sizeof buf - (size_t)n, " %d", l);
        put(win, r++, x, w, buf, term_attr(TC_WARN));
    }
    /* per line: wavefronts per request (the effect of padding shows as 1.0) */
    const gl_metrics *m = a->run.metrics;
    for (int i = 0; m && i < m->nlines && r < y + h - 1; i++) {
        const gl_counts *c = &m->lines[i].c;
        uint64_t req = c->shld_requests + c->shst_requests, wv = c->shld_wavefronts + c->shst_wavefronts;
        if (!req || m->lines[i].src_line <= 0) continue;
        snprintf(buf, sizeof buf, "line %d: %.2f wavefronts/request", m->lines[i].src_line, (double)wv / (double)req);
        put(win, r++, x, w, buf, wv > req ? term_attr(TC_WARN) : term_attr(TC_DIM));
    }
}

/* ---------------------------------------------------------------- barriers */

/* Per warp of block b: where it waits at the end of the trace (pc of an arrival not
 * followed by a release of its block), -1 if not waiting. out[wpb]. */
static void waiting_at(const trace_t *t, size_t upto, uint32_t b, int32_t *out, unsigned wpb)
{
    for (unsigned i = 0; i < wpb; i++) out[i] = -1;
    for (size_t i = 0; i < upto; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b) continue;
        if (e->kind == TRACE_EV_BAR_ARRIVE && e->warp < wpb) out[e->warp] = e->pc;
        else if (e->kind == TRACE_EV_BAR_RELEASE)
            for (unsigned k = 0; k < wpb; k++) out[k] = -1;
    }
}

static unsigned warps_per_block(const trace_t *t)
{
    uint64_t T = (uint64_t)t->block[0] * t->block[1] * t->block[2];
    return t->nwarps_per_block ? t->nwarps_per_block : (unsigned)((T + WARP - 1) / WARP);
}

static void draw_barriers(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w)
{
    uint32_t b;
    unsigned sw, sl;
    tv_selected(a, &b, &sw, &sl);
    unsigned wpb = warps_per_block(t);
    /* the block's time span */
    uint64_t t0 = UINT64_MAX, t1 = 0;
    int nrel = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b) continue;
        if (e->time < t0) t0 = e->time;
        if (e->time > t1) t1 = e->time;
        nrel += e->kind == TRACE_EV_BAR_RELEASE;
    }
    char buf[300];
    snprintf(buf, sizeof buf, "block %u: %d barrier%s, warps over time", b, nrel, nrel == 1 ? "" : "s");
    put(win, y, x, w, buf, term_attr(TC_HEADING));
    const char *run = utf8() ? "\u2500" : "-", *wait = utf8() ? "\u00b7" : ".", *rel = utf8() ? "\u2502" : "|";
    snprintf(buf, sizeof buf, "%s issuing  %s waiting at a barrier  %s released", run, wait, rel);
    put(win, y + 1, x, w, buf, term_attr(TC_DIM));
    if (t0 == UINT64_MAX) return;
    int lw = 5, cols = w - lw - 1;
    if (cols < 8) return;
    double span = (double)(t1 - t0 + 1);
#define COL(tm) ((int)((double)((tm) - t0) * cols / span))
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    uint64_t now = pos > 0 ? t->events[pos - 1].time : t0;
    int rows = (int)wpb < h - 5 ? (int)wpb : h - 5;
    if (rows < 1) rows = 1;
    unsigned wfirst = sw >= (unsigned)rows ? sw - (unsigned)rows + 1 : 0;
    int *arrive = calloc(wpb, sizeof *arrive);
    if (!arrive) return;
    for (int r = 0; r < rows && wfirst + (unsigned)r < wpb; r++) {
        unsigned wi = wfirst + (unsigned)r;
        snprintf(buf, sizeof buf, "w%-3u", wi);
        put(win, y + 2 + r, x, lw, buf, wi == sw ? term_attr(TC_MAPSEL) : term_attr(TC_DIM));
    }
    for (unsigned k = 0; k < wpb; k++) arrive[k] = -1;
    for (size_t i = 0; i < pos; i++) { /* first what issued, then the waits over it */
        const trace_event *e = &t->events[i];
        if (e->block == b && e->kind == TRACE_EV_ISSUE && e->warp >= wfirst && e->warp < wfirst + (unsigned)rows)
            glyph(win, y + 2 + (int)(e->warp - wfirst), x + lw + COL(e->time), run, term_attr(TC_GOOD));
    }
    for (size_t i = 0; i < pos; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b) continue;
        if (e->kind == TRACE_EV_BAR_ARRIVE && e->warp < wpb)
            arrive[e->warp] = COL(e->time);
        else if (e->kind == TRACE_EV_BAR_RELEASE) {
            int c = COL(e->time);
            for (unsigned k = wfirst; k < wpb && k < wfirst + (unsigned)rows; k++) {
                for (int q = arrive[k] + 1; arrive[k] >= 0 && q < c; q++)
                    glyph(win, y + 2 + (int)(k - wfirst), x + lw + q, wait, term_attr(TC_WARN));
                glyph(win, y + 2 + (int)(k - wfirst), x + lw + c, rel, term_attr(TC_HEADING));
                arrive[k] = -1;
            }
        }
    }
    /* still waiting at the cursor */
    int cnow = COL(now);
    for (unsigned k = wfirst; k < wpb && k < wfirst + (unsigned)rows; k++)
        for (int q = arrive[k] + 1; arrive[k] >= 0 && q <= cnow && q < cols; q++)
            glyph(win, y + 2 + (int)(k - wfirst), x + lw + q, wait, term_attr(TC_BAD));
    free(arrive);
#undef COL
    int r = y + 2 + rows;
    /* the barriers: line, release time */
    int shown = 0;
    for (size_t i = 0; i < t->nevents && r < y + h - 1 && shown < 4; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_BAR_RELEASE || e->block != b) continue;
        int line = line_of_pc(t, e->pc);
        snprintf(buf, sizeof buf, "%s t=%" PRIu64 " line %d %s", i < pos ? "released" : "later   ", e->time, line,
                 src_text(a, line));
        put(win, r++, x, w, buf, i < pos ? PLAIN : term_attr(TC_DIM));
        shown++;
    }
}

/* ----------------------------------------------------------------- atomics */

typedef struct addr_count {
    uint64_t addr;
    int space;
    uint64_t n;
} addr_count;

static int by_count(const void *p, const void *q)
{
    const addr_count *x = p, *y = q;
    if (x->n != y->n) return x->n < y->n ? 1 : -1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* A global address as the spec's buffer and element, "hist[17]" ("hist[17]+2" inside an
 * element), from the run's buffer addresses (gl_run_result.dptr). false: in no buffer,
 * or the run has none (buf untouched). */
static bool buffer_elem(const app *a, uint64_t addr, char *buf, size_t n)
{
    uint64_t elem, rem;
    int i = map_buffer_at(a, addr, &elem, &rem);
    if (i < 0) return false;
    const char *name = a->spec.args[i].name ? a->spec.args[i].name : "?";
    if (rem) snprintf(buf, n, "%s[%" PRIu64 "]+%" PRIu64, name, elem, rem);
    else snprintf(buf, n, "%s[%" PRIu64 "]", name, elem);
    return true;
}

static void draw_atomics(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w)
{
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    size_t cap = 4096, n = 0;
    addr_count *ac = malloc(cap * sizeof *ac);
    if (!ac) return;
    uint64_t total = 0;
    for (size_t i = 0; i < pos; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_MEM || e->op != TRACE_ATOMIC) continue;
        const uint64_t *ad = trace_event_addrs(t, e);
        for (int l = 0; l < WARP; l++) {
            if (!((e->mask >> l) & 1u)) continue;
            total++;
            size_t k = 0;
            while (k < n && !(ac[k].addr == ad[l] && ac[k].space == e->space)) k++;
            if (k < n) ac[k].n++;
            else if (n < cap) ac[n++] = (addr_count){ad[l], e->space, 1};
        }
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%" PRIu64 " atomic op%s on %zu address%s so far", total, total == 1 ? "" : "s", n,
             n == 1 ? "" : "es");
    put(win, y, x, w, buf, term_attr(TC_HEADING));
    if (total == 0) {
        put(win, y + 1, x, w, pos < t->nevents ? "none yet: End runs to the end" : "this kernel made no atomic operation",
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
        if (ac[k].space == TRACE_SPACE_GLOBAL && buffer_elem(a, ac[k].addr, name, sizeof name)) continue;
        named = false;
        lo = ac[k].addr < lo ? ac[k].addr : lo;
    }
    put(win, y + 1, x, w,
        named ? (w >= 60 ? "busiest first, by buffer element; they serialise:" : "busiest first")
              : (w >= 60 ? "busiest first (+words from the lowest address); they serialise:"
                         : "busiest first, +words from the lowest"),
        term_attr(TC_DIM));
    qsort(ac, n, sizeof *ac, by_count);
    int lw = w >= 50 ? 20 : 13, bw = w - lw - 8;
    if (bw < 4) bw = 4;
    for (size_t k = 0; k < n && (int)k < h - 3; k++) {
        /* the buffer element, or the address and its offset from the lowest one in 4-byte
         * words */
        if (ac[k].space == TRACE_SPACE_GLOBAL && buffer_elem(a, ac[k].addr, name, sizeof name))
            snprintf(buf, sizeof buf, "gl %s", name);
        else if (w >= 50)
            snprintf(buf, sizeof buf, "%s +%-4" PRIu64 "%08" PRIx64, ac[k].space == TRACE_SPACE_SHARED ? "sh" : "gl",
                     (ac[k].addr - lo) / 4, (uint64_t)(ac[k].addr & 0xffffffffull));
        else
            snprintf(buf, sizeof buf, "%s +%-4" PRIu64, ac[k].space == TRACE_SPACE_SHARED ? "shared" : "global",
                     (ac[k].addr - lo) / 4);
        put(win, y + 2 + (int)k, x, lw, buf, term_attr(TC_DIM));
        int len = (int)((double)ac[k].n * bw / (double)ac[0].n);
        if (len < 1) len = 1;
        double heat = (double)ac[k].n / (double)ac[0].n;
        int at = heat > 0.66 ? term_attr(TC_BAD) : heat > 0.33 ? term_attr(TC_WARN) : term_attr(TC_GOOD);
        for (int q = 0; q < len; q++) glyph(win, y + 2 + (int)k, x + lw + q, g_block(), at);
        snprintf(buf, sizeof buf, " %" PRIu64, ac[k].n);
        put(win, y + 2 + (int)k, x + lw + len, w - lw - len, buf, PLAIN);
    }
    free(ac);
}

/* ----------------------------------------------------------------- buffers */

static bool value_eq(const gl_arg *arg, const void *x, const void *y, size_t k)
{
    gl_value u = gl_buffer_get(x, arg->type, k), v = gl_buffer_get(y, arg->type, k);
    if (gl_type_is_float(arg->type)) {
        double d = u.f - v.f;
        return (d < 0 ? -d : d) <= 1e-3 * (1 + (v.f < 0 ? -v.f : v.f));
    }
    return memcmp(&u, &v, sizeof u) == 0;
}

static int fmt_value(char *buf, size_t len, const gl_arg *arg, const void *data, size_t k)
{
    gl_value v = gl_buffer_get(data, arg->type, k);
    if (gl_type_is_float(arg->type)) return snprintf(buf, len, "%g", v.f);
    if (gl_type_is_signed(arg->type)) return snprintf(buf, len, "%lld", (long long)v.i);
    return snprintf(buf, len, "%llu", (unsigned long long)v.u);
}

/* ------------------------------------------- the exercise against the reference */

/* The comparison table of the exercise's buffers view: per output the grader compares,
 * a heading, then its elements around each difference (CMP_CONTEXT equal ones either
 * side); a run of equal elements between is one folded row. */
enum { CMP_CONTEXT = 1 };
typedef enum cmp_kind { CMP_HEAD, CMP_ELEM, CMP_GAP } cmp_kind;
typedef struct cmp_row {
    cmp_kind kind;
    int arg;
    size_t index; /* CMP_ELEM: the element; CMP_GAP: the first one folded */
    size_t count; /* CMP_HEAD: elements that differ; CMP_GAP: elements folded */
} cmp_row;

/* Whether element k of output arg i matches the reference (grade_values_equal). */
static bool cmp_equal(const app *a, const gl_arg *arg, int i, size_t k)
{
    return grade_values_equal(arg->type, gl_buffer_get(a->ref_buffers[i].data, arg->type, k),
                              gl_buffer_get(a->run.buffers[i].data, arg->type, k), a->cmp.tolerance);
}

/* Walks the table (a->cmp.done): rows [skip, skip + max) into out; returns how many rows
 * the table has. */
static size_t cmp_rows(const app *a, size_t skip, cmp_row *out, size_t max)
{
    const gl_check *k = grade_reference_check(a->lesson->exercise, a->cmp.n);
    size_t row = 0;
#define EMIT(kind_, i_, index_, count_)                                                      \
    do {                                                                                     \
        if (row >= skip && row - skip < max) out[row - skip] = (cmp_row){kind_, i_, index_, count_}; \
        row++;                                                                               \
    } while (0)
    for (int i = 0; i < a->spec.nargs; i++) {
        const gl_arg *arg = &a->spec.args[i];
        if (!arg->is_ptr || !grade_is_output(k, arg->name)) continue;
        size_t n = arg->len;
        size_t ndiff = grade_count_diffs(arg->type, n, a->ref_buffers[i].data, a->run.buffers[i].data,
                                         a->cmp.tolerance, NULL);
        EMIT(CMP_HEAD, i, 0, ndiff);
        size_t done = 0; /* elements [0, done) are shown or folded */
        while (ndiff && done < n) {
            size_t d = done;
            while (d < n && cmp_equal(a, arg, i, d)) d++;
            if (d == n) break;
            size_t from = d > done + CMP_CONTEXT ? d - CMP_CONTEXT : done;
            if (from > done) EMIT(CMP_GAP, i, done, from - done);
            size_t to = d + CMP_CONTEXT + 1 < n ? d + CMP_CONTEXT + 1 : n; /* exclusive */
            for (size_t e = from; e < to; e++) {
                if (e > d && !cmp_equal(a, arg, i, e)) to = e + CMP_CONTEXT + 1 < n ? e + CMP_CONTEXT + 1 : n;
                EMIT(CMP_ELEM, i, e, 0);
            }
            done = to;
        }
        if (ndiff && done < n) EMIT(CMP_GAP, i, done, n - done);
    }
#undef EMIT
    return row;
}

/* Why the exercise's run has no comparison, or NULL when it has one. */
static const char *cmp_missing(const app *a)
{
    if (a->cmp.done) return NULL;
    if (a->run_status != GL_OK) return "the run did not finish: nothing to compare with the reference";
    if (a->ref_status != GL_OK) return "the reference could not run (see Result): nothing to compare";
    return "no reference output to compare with";
}

static void draw_comparison(WINDOW *win, const app *a, int y, int x, int h, int w, struct view_metrics *m)
{
    char buf[512];
    snprintf(buf, sizeof buf, "n = %lld, the reference vs yours", (long long)a->cmp.n);
    put(win, y, x, w, buf, term_attr(TC_HEADING));
    if (h < 3) return;
    /* columns: marker, index, expected, actual */
    const gl_arg *widest = NULL;
    for (int i = 0; i < a->spec.nargs; i++)
        if (a->spec.args[i].is_ptr && (!widest || a->spec.args[i].len > widest->len)) widest = &a->spec.args[i];
    int iw = 5;
    for (size_t v = widest && widest->len > 0 ? widest->len - 1 : 0; v >= 100000; v /= 10) iw++;
    int vw = (w - 4 - iw) / 2;
    if (vw > 16) vw = 16; /* "%.9g" of a float: at most 15 columns */
    if (vw < 6) vw = 6;
    snprintf(buf, sizeof buf, "  %*s %*s %*s", iw, "index", vw, "expected", vw, "actual");
    put(win, y + 1, x, w, buf, term_attr(TC_DIM));
    size_t total = cmp_rows(a, 0, NULL, 0);
    int rows = h - 2;
    if ((size_t)rows < total) rows--; /* the last line says how to scroll */
    if (rows < 1) rows = 1;
    int top = a->cmp_top;
    if ((size_t)top + (size_t)rows > total) top = total > (size_t)rows ? (int)(total - (size_t)rows) : 0;
    if (m) m->cmp_lines = (int)total, m->cmp_rows = rows;
    cmp_row *r = calloc((size_t)rows, sizeof *r);
    if (!r) return;
    size_t got = total - (size_t)top < (size_t)rows ? total - (size_t)top : (size_t)rows;
    cmp_rows(a, (size_t)top, r, got);
    const char *ne = utf8() ? "\u2260" : "!";
    for (size_t k = 0; k < got; k++) {
        const gl_arg *arg = &a->spec.args[r[k].arg];
        int ry = y + 2 + (int)k;
        if (r[k].kind == CMP_HEAD) {
            if (r[k].count)
                snprintf(buf, sizeof buf, "%s: %zu of %zu differ", arg->name, r[k].count, arg->len);
            else
                snprintf(buf, sizeof buf, "%s: all %zu match", arg->name, arg->len);
            put(win, ry, x, w, buf, r[k].count ? term_attr(TC_BAD) : term_attr(TC_GOOD));
        } else if (r[k].kind == CMP_GAP) {
            snprintf(buf, sizeof buf, "  %*s %zu equal (%zu..%zu)", iw, term_glyph()->ellipsis, r[k].count, r[k].index,
                     r[k].index + r[k].count - 1);
            put(win, ry, x, w, buf, term_attr(TC_DIM));
        } else {
            char ev[64], gv[64];
            gl_value e = gl_buffer_get(a->ref_buffers[r[k].arg].data, arg->type, r[k].index);
            gl_value g = gl_buffer_get(a->run.buffers[r[k].arg].data, arg->type, r[k].index);
            grade_format_value(ev, sizeof ev, arg->type, e);
            grade_format_value(gv, sizeof gv, arg->type, g);
            bool same = grade_values_equal(arg->type, e, g, a->cmp.tolerance);
            snprintf(buf, sizeof buf, "  %*zu %*s %*s", iw, r[k].index, vw, ev, vw, gv);
            put(win, ry, x, w, buf, same ? PLAIN : term_attr(TC_BAD));
            if (!same) put(win, ry, x, 1, ne, term_attr(TC_BAD));
        }
    }
    free(r);
    if ((size_t)rows < total) {
        snprintf(buf, sizeof buf, "[ ] scroll: %d-%zu of %zu rows", top + 1, (size_t)top + got, total);
        put(win, y + h - 1, x, w, buf, term_attr(TC_DIM));
    }
}

/* Rows the comparison would like (at most 20). */
static int comparison_height(const app *a)
{
    if (!a->cmp.done) return 12;
    size_t total = cmp_rows(a, 0, NULL, 0) + 2;
    return total < 20 ? (int)total : 20;
}

static void draw_buffers(WINDOW *win, const app *a, int y, int x, int h, int w, struct view_metrics *m)
{
    if (app_on_exercise(a) && a->cmp.done) {
        draw_comparison(win, a, y, x, h, w, m);
        return;
    }
    int r = y;
    if (app_on_exercise(a)) put(win, r++, x, w, cmp_missing(a), term_attr(TC_DIM));
    put(win, r++, x, w, "against the values before the launch:", term_attr(TC_HEADING));
    char buf[512];
    for (int i = 0; i < a->spec.nargs && i < a->run.nargs && r < y + h; i++) {
        const gl_arg *arg = &a->spec.args[i];
        const gl_buffer *got = &a->run.buffers[i];
        const gl_buffer *exp = a->init_buffers ? &a->init_buffers[i] : NULL;
        if (!arg->is_ptr || !got->data) continue;
        size_t n = arg->len, ndiff = 0, first = n;
        bool can = exp && exp->data && exp->bytes == got->bytes;
        for (size_t k = 0; can && k < n; k++)
            if (!value_eq(arg, got->data, exp->data, k)) {
                if (first == n) first = k;
                ndiff++;
            }
        if (!can) snprintf(buf, sizeof buf, "%s[%zu]: nothing to compare with", arg->name, n);
        else if (ndiff == 0) snprintf(buf, sizeof buf, "%s[%zu]: unchanged", arg->name, n);
        else
            snprintf(buf, sizeof buf, "%s: the kernel changed %zu of %zu, first [%zu]", arg->name, ndiff, n, first);
        put(win, r++, x, w, buf, can && ndiff ? term_attr(TC_GOOD) : term_attr(TC_DIM));
        if (arg->rows > 1 && arg->cols > 0) { /* a matrix (the spec's "shape"): rows of it */
            /* from the first changed row; as many rows as a fair share of the pane, as
             * many columns as fit (from the first changed one when they do not all) */
            int left = 0;
            for (int k = i + 1; k < a->spec.nargs; k++) left += a->spec.args[k].is_ptr;
            int nrows = (y + h - r) / (left + 1) - 1;
            if (nrows < 1) nrows = 1;
            const size_t r0 = can && ndiff ? first / arg->cols : 0;
            int cw = 1, lw;
            char v[64];
            for (size_t k = r0 * arg->cols; k < n && k < (r0 + (size_t)nrows) * arg->cols; k++) {
                int vl = fmt_value(v, sizeof v, arg, got->data, k);
                if (vl > cw) cw = vl;
            }
            snprintf(buf, sizeof buf, "[%zu]", arg->rows - 1);
            lw = (int)strlen(buf) + 1;
            const int fit = (w - lw) / (cw + 1) > 0 ? (w - lw) / (cw + 1) : 1;
            size_t c0 = 0;
            if ((size_t)fit < arg->cols && can && ndiff && first % arg->cols >= (size_t)fit) c0 = first % arg->cols;
            snprintf(buf, sizeof buf, "%zu x %zu, columns %zu..%zu of %zu:", arg->rows, arg->cols, c0,
                     c0 + (size_t)fit < arg->cols ? c0 + (size_t)fit - 1 : arg->cols - 1, arg->cols);
            if (r < y + h) put(win, r++, x, w, buf, term_attr(TC_DIM));
            for (size_t row = r0; row < arg->rows && row < r0 + (size_t)nrows && r < y + h; row++, r++) {
                snprintf(buf, sizeof buf, "[%zu]", row);
                put(win, r, x, lw, buf, term_attr(TC_DIM));
                for (size_t col = c0; col < arg->cols && col < c0 + (size_t)fit; col++) {
                    const size_t k = row * arg->cols + col;
                    int vl = fmt_value(v, sizeof v, arg, got->data, k);
                    bool diff = can && !value_eq(arg, got->data, exp->data, k);
                    put(win, r, x + lw + (int)(col - c0) * (cw + 1) + (cw - vl), vl, v,
                        diff ? term_attr(TC_HEADING) : PLAIN);
                }
            }
            continue;
        }
        /* the values from the first change on (changed ones bright) */
        size_t from = can && ndiff ? first : 0;
        for (int row = 0; row < 2 && r < y + h && from < n; row++, r++) {
            int cx = snprintf(buf, sizeof buf, "[%zu]", from);
            put(win, r, x, w, buf, term_attr(TC_DIM));
            cx++;
            while (from < n && cx < w) {
                char v[64];
                int vl = fmt_value(v, sizeof v, arg, got->data, from);
                if (cx + vl >= w) break;
                bool diff = can && !value_eq(arg, got->data, exp->data, from);
                put(win, r, x + cx, vl, v, diff ? term_attr(TC_HEADING) : PLAIN);
                cx += vl + 1;
                from++;
            }
        }
    }
}

/* -------------------------------------------------------------------- tree */

/* The shared array's element: from the first shared access instruction's mnemonic. */
static void shared_elem(const trace_t *t, unsigned *size, bool *is_float)
{
    *size = 4, *is_float = false;
    for (int i = 0; i < t->ninsns; i++) {
        const char *m = t->insns[i].mnemonic;
        if (!strstr(m, ".shared")) continue;
        *is_float = t->insns[i].is_float;
        const char *d = strrchr(m, '.');
        if (d && (d[1] == 'f' || d[1] == 's' || d[1] == 'u' || d[1] == 'b')) {
            int bits = atoi(d + 2);
            if (bits == 64) *size = 8;
            else if (bits == 16) *size = 2;
            else if (bits == 8) *size = 1;
        }
        return;
    }
}

static double snap_value(const unsigned char *p, unsigned size, bool is_float)
{
    if (is_float && size == 8) { double d; memcpy(&d, p, 8); return d; }
    if (is_float) { float f; memcpy(&f, p, 4); return f; }
    if (size == 8) { int64_t v; memcpy(&v, p, 8); return (double)v; }
    if (size == 2) { int16_t v; memcpy(&v, p, 2); return v; }
    if (size == 1) return (signed char)p[0];
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The shared stores of block b between events from and to (one barrier epoch),
 * grouped by warp and instruction: "w1 line 14: lanes 0-15 wrote [0..30]". */
static void draw_epoch_writers(WINDOW *win, const app *a, const trace_t *t, uint32_t b, size_t from, size_t to,
                               unsigned es, int y, int x, int h, int w)
{
    if (h < 1) return;
    typedef struct grp { unsigned warp; int32_t pc; uint32_t lanes; uint64_t lo, hi; } grp;
    grp g[16];
    int ng = 0;
    for (size_t i = from; i < to && i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_MEM || e->block != b || e->space != TRACE_SPACE_SHARED || e->op == TRACE_LOAD) continue;
        const uint64_t *ad = trace_event_addrs(t, e);
        int k = 0;
        while (k < ng && !(g[k].warp == e->warp && g[k].pc == e->pc)) k++;
        if (k == ng) {
            if (ng == 16) continue;
            g[ng++] = (grp){e->warp, e->pc, 0, UINT64_MAX, 0};
        }
        for (int l = 0; l < WARP; l++) {
            if (!((e->mask >> l) & 1u)) continue;
            g[k].lanes |= 1u << l;
            uint64_t el = ad[l] / es;
            if (el < g[k].lo) g[k].lo = el;
            if (el > g[k].hi) g[k].hi = el;
        }
    }
    char buf[200];
    put(win, y, x, w, ng ? "written in this epoch (shared stores):" : "no shared store in this epoch", term_attr(TC_HEADING));
    for (int k = 0; k < ng && k + 1 < h; k++) {
        int lo = 0, hi = 31;
        while (lo < 32 && !((g[k].lanes >> lo) & 1u)) lo++;
        while (hi > 0 && !((g[k].lanes >> hi) & 1u)) hi--;
        int nl = popc(g[k].lanes);
        char who[40];
        if (nl == 1) snprintf(who, sizeof who, "lane %d", lo);
        else snprintf(who, sizeof who, "%d lanes (%d-%d)", nl, lo, hi);
        if (g[k].lo == g[k].hi)
            snprintf(buf, sizeof buf, "w%u line %d: %s wrote [%" PRIu64 "]", g[k].warp, line_of_pc(t, g[k].pc), who, g[k].lo);
        else
            snprintf(buf, sizeof buf, "w%u line %d: %s wrote [%" PRIu64 "..%" PRIu64 "]", g[k].warp, line_of_pc(t, g[k].pc),
                     who, g[k].lo, g[k].hi);
        put(win, y + 1 + k, x, w, buf, PLAIN);
    }
    (void)a;
}

/* The tree view: shared memory of the selected block after each barrier, one row per
 * barrier. Values of the elements from a->tree_col ([ ] page sideways), or, zoomed out
 * (x), every element as a strip of cells (each cell k elements: bright where one
 * changed at that barrier) with a cursor at a->tree_col whose values are listed below. */
static void draw_tree(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w, struct view_metrics *m)
{
    uint32_t b;
    unsigned sw, sl;
    tv_selected(a, &b, &sw, &sl);
    if (t->nsnaps == 0) {
        put(win, y, x, w, "no shared-memory snapshots: this kernel has no barrier", term_attr(TC_DIM));
        put(win, y + 1, x, w, "(or uses no shared memory)", term_attr(TC_DIM));
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
        if (e->kind != TRACE_EV_BAR_RELEASE || e->block != b || e->aux == UINT32_MAX || e->aux >= t->nsnaps) continue;
        total++;
        if (i >= pos) continue;
        if (n == MAXR) memmove(idx, idx + 1, (MAXR - 1) * sizeof *idx), memmove(at, at + 1, (MAXR - 1) * sizeof *at), n--;
        at[n] = i;
        idx[n++] = e->aux;
    }
    int cw = fl ? 7 : 5, lw = 6;
    int ncols = (w - lw) / cw;
    if (ncols < 1) ncols = 1;
    char buf[256];
    uint32_t elems = 0;
    for (size_t i = 0; i < t->nsnaps; i++) /* the block's shared memory, in elements */
        if (t->snaps[i].size / es > elems) elems = t->snaps[i].size / es;
    /* zoomed out: k elements per cell, as few as let every element fit */
    const int strip = w - lw > 1 ? w - lw : 1;
    const uint32_t k = a->tree_zoom ? (elems + (uint32_t)strip - 1) / (uint32_t)strip : 1;
    const int zoom = a->tree_zoom && elems > 0;
    int first = a->tree_col < 0 ? 0 : a->tree_col;
    if (!zoom && elems > 0 && (uint32_t)first + (uint32_t)ncols > elems)
        first = elems > (uint32_t)ncols ? (int)(elems - (uint32_t)ncols) : 0;
    if (zoom && (uint32_t)first >= elems) first = (int)elems - 1;
    m->tree_elems = (int)elems;
    m->tree_cols = zoom ? (int)k : ncols;
    const bool narrow = w < 48; /* shorter words: the lines stay whole at 80x24 */
    snprintf(buf, sizeof buf, narrow ? "block %u, barrier %d/%d: shared" : "block %u after barrier %d/%d: shared memory",
             b, n, total);
    put(win, y, x, w, buf, term_attr(TC_HEADING));
    const int last = zoom ? first : (int)((uint32_t)first + (uint32_t)ncols < elems ? (uint32_t)first + (uint32_t)ncols
                                                                                      : elems) - 1;
    if (zoom)
        snprintf(buf, sizeof buf, narrow ? "all %u, %u/cell, cursor [%d] ([ ] x)"
                                         : "all %u, %u per cell; cursor [%d] ([ ] move, x: values)", elems, k, first);
    else if (elems > (uint32_t)ncols)
        snprintf(buf, sizeof buf, narrow ? "[%d..%d] of %u; [ ] pages, x: all"
                                         : "[%d..%d] of %u ([ ] sideways, x: all); bright: changed", first, last, elems);
    else
        snprintf(buf, sizeof buf, "[%d..%d] of %u, one row per barrier; bright: changed", first, last, elems);
    put(win, y + 1, x, w, buf, term_attr(TC_DIM));
    if (n == 0) {
        put(win, y + 2, x, w, "> steps to the first barrier", term_attr(TC_DIM));
        return;
    }
    /* who wrote what in the last epoch shown (between the two last barriers); zoomed
     * out, the cursor's values instead */
    int who_rows = h >= 9 ? (h >= 16 ? 4 : 2) : 0;
    if (zoom && who_rows == 0 && h >= 5) who_rows = 1;
    int rows = h - 2 - who_rows;
    int start = n > rows ? n - rows : 0;
    for (int r = start; r < n; r++) {
        const trace_snapshot *s = &t->snaps[idx[r]];
        const trace_snapshot *p = r > 0 ? &t->snaps[idx[r - 1]] : NULL;
        int line = line_of_pc(t, s->pc);
        const int row = y + 2 + r - start;
        snprintf(buf, sizeof buf, "L%-4d", line);
        put(win, row, x, lw, buf, r == n - 1 ? term_attr(TC_SELECTED) : term_attr(TC_DIM));
        if (zoom) {
            for (int c = 0; c < strip && (uint64_t)c * k < s->size / es; c++) {
                bool changed = false;
                for (uint32_t e = (uint32_t)c * k; e < (uint32_t)(c + 1) * k && !changed; e++) {
                    size_t off = (size_t)e * es;
                    changed = p && off + es <= p->size && off + es <= s->size &&
                              memcmp(t->snap_bytes + s->offset + off, t->snap_bytes + p->offset + off, es) != 0;
                }
                const bool cur = (uint32_t)first / k == (uint32_t)c;
                int cell_at = changed ? term_attr(TC_GOOD) | (int)A_BOLD : term_attr(TC_DIM);
                if (cur) cell_at |= (int)A_REVERSE;
                put(win, row, x + lw + c, 1, changed ? term_glyph()->cell : term_glyph()->dot, cell_at);
            }
            continue;
        }
        for (int c = 0; c < ncols && (uint32_t)(first + c) < s->size / es; c++) {
            size_t off = (size_t)(first + c) * es;
            double v = snap_value(t->snap_bytes + s->offset + off, es, fl);
            bool changed = p && off + es <= p->size &&
                           memcmp(t->snap_bytes + s->offset + off, t->snap_bytes + p->offset + off, es) != 0;
            if (fl) snprintf(buf, sizeof buf, "%*.*g", cw - 1, 4, v);
            else snprintf(buf, sizeof buf, "%*.0f", cw - 1, v);
            put(win, row, x + lw + c * cw, cw, buf, changed ? term_attr(TC_GOOD) | A_BOLD : PLAIN);
        }
    }
    if (zoom && who_rows > 0) {
        /* the cursor's cell: its elements' values after the last barrier shown */
        const trace_snapshot *s = &t->snaps[idx[n - 1]];
        const uint32_t c0 = (uint32_t)first / k * k;
        int used = snprintf(buf, sizeof buf, narrow ? "[%u..%u]:" : "[%u..%u] after the last barrier:", c0, c0 + k - 1);
        for (uint32_t e = c0; e < c0 + k && (size_t)(e + 1) * es <= s->size && used < (int)sizeof buf - 24; e++) {
            double v = snap_value(t->snap_bytes + s->offset + (size_t)e * es, es, fl);
            used += fl ? snprintf(buf + used, sizeof buf - (size_t)used, " %.4g", v)
                       : snprintf(buf + used, sizeof buf - (size_t)used, " %.0f", v);
        }
        put(win, y + 2 + (n - start), x, w, buf, PLAIN);
        return;
    }
    if (who_rows > 0) draw_epoch_writers(win, a, t, b, n >= 2 ? at[n - 2] + 1 : 0, at[n - 1], es, y + 2 + (n - start), x,
                                         y + h - (y + 2 + (n - start)), w);
}

/* ------------------------------------------------------------------- error */

/* Who did an access: block, thread, warp and lane, and its source line. Two rows, or
 * three when narrow. Returns the rows used. */
/* One access of a race: who (thread, block, warp and lane) and the source line, in at
 * most `rows` rows from y. Returns the rows used. */
static int thread_box(WINDOW *win, const app *a, const sim_access *ac, const char *what, int y, int x, int w, int rows,
                      int attr)
{
    char buf[400];
    unsigned T0 = a->spec.block[0], T1 = a->spec.block[1];
    unsigned lt = ac->thread[0] + ac->thread[1] * T0 + ac->thread[2] * T0 * T1;
    int r = 0;
    if (rows < 0) { /* compact (few rows): who on one row, the block left to the caller */
        snprintf(buf, sizeof buf, "%s: thread (%u,%u,%u) w%u lane %u", what, ac->thread[0], ac->thread[1],
                 ac->thread[2], lt / WARP, lt % WARP);
        if ((int)strlen(buf) > w)
            snprintf(buf, sizeof buf, "%s: (%u,%u,%u) w%u lane %u", what, ac->thread[0], ac->thread[1], ac->thread[2],
                     lt / WARP, lt % WARP);
        if ((int)strlen(buf) > w) /* "A: (63,0,0) w1 lane 31" */
            snprintf(buf, sizeof buf, "%c: (%u,%u,%u) w%u lane %u", what[0], ac->thread[0], ac->thread[1],
                     ac->thread[2], lt / WARP, lt % WARP);
        put(win, y + r++, x, w, buf, attr);
        if (-rows > 1) {
            snprintf(buf, sizeof buf, "  line %d: %s", ac->src_line, src_text(a, ac->src_line));
            put(win, y + r++, x, w, buf, PLAIN);
        }
        return r;
    }
    if (w >= 64) {
        snprintf(buf, sizeof buf, "%s: block (%u,%u,%u) thread (%u,%u,%u) = warp %u lane %u", what, ac->block[0],
                 ac->block[1], ac->block[2], ac->thread[0], ac->thread[1], ac->thread[2], lt / WARP, lt % WARP);
        if (r < rows) put(win, y + r++, x, w, buf, attr);
    } else {
        snprintf(buf, sizeof buf, "%s: thread (%u,%u,%u)", what, ac->thread[0], ac->thread[1], ac->thread[2]);
        if (r < rows) put(win, y + r++, x, w, buf, attr);
        /* warp and lane first: a narrow pane cuts the block, not them */
        snprintf(buf, sizeof buf, "  warp %u lane %u, block (%u,%u,%u)", lt / WARP, lt % WARP, ac->block[0], ac->block[1],
                 ac->block[2]);
        if (r < rows) put(win, y + r++, x, w, buf, attr);
    }
    snprintf(buf, sizeof buf, "  line %d: %s", ac->src_line, src_text(a, ac->src_line));
    if (r < rows) put(win, y + r++, x, w, buf, PLAIN);
    return r;
}

/* The warps of a block as rows of lanes, threads p and q marked. */
static void lanes_picture(WINDOW *win, const app *a, const sim_access *p, const sim_access *q, int y, int x, int h, int w)
{
    unsigned T0 = a->spec.block[0], T1 = a->spec.block[1];
    uint64_t T = (uint64_t)T0 * T1 * a->spec.block[2];
    unsigned lp = p->thread[0] + p->thread[1] * T0 + p->thread[2] * T0 * T1;
    unsigned lq = q ? q->thread[0] + q->thread[1] * T0 + q->thread[2] * T0 * T1 : UINT32_MAX;
    unsigned wpb = (unsigned)((T + WARP - 1) / WARP);
    unsigned wp = lp / WARP, wq = q ? lq / WARP : wp;
    int r = 0;
    /* a narrow pane keeps all 32 lanes with a shorter label, "w12  ", "w12", "12", or
     * none (the rows are in warp order; the accesses' lines above name their warps) */
    const int lw = w >= WARP + 5 ? 5 : w >= WARP + 3 ? 3 : w >= WARP + 2 ? 2 : 0;
    for (unsigned wi = 0; wi < wpb && r < h; wi++) {
        if (wpb > (unsigned)h && wi != wp && wi != wq) continue;
        char lbl[16];
        if (lw >= 3) snprintf(lbl, sizeof lbl, "w%-3u", wi);
        else snprintf(lbl, sizeof lbl, "%u", wi);
        if (lw > 0) put(win, y + r, x, lw, lbl, term_attr(TC_DIM));
        /* fewer columns than lanes: the row starts late enough to show its marked lanes,
         * an ellipsis standing for the lanes left out */
        const int cols = w - lw;
        unsigned first = 0, hi = 0;
        if (wi == wp) hi = lp % WARP;
        if (q && wi == wq && lq % WARP > hi) hi = lq % WARP;
        if (cols < WARP && (int)hi >= cols) first = hi - (unsigned)cols + 2;
        for (unsigned l = first; l < WARP && lw + (int)(l - first) < w; l++) {
            uint64_t id = (uint64_t)wi * WARP + l;
            if (id >= T) break;
            const char *g = term_glyph()->dot;
            int at = term_attr(TC_DIM);
            if (id == lp) g = "A", at = term_attr(TC_BAD) | A_REVERSE;
            else if (id == lq) g = "B", at = term_attr(TC_WARN) | A_REVERSE;
            if (first > 0 && l == first && id != lp && id != lq) g = term_glyph()->ellipsis;
            glyph(win, y + r, x + lw + (int)(l - first), g, at);
        }
        r++;
    }
}

/* "N bytes past the end of 'c' (4000 bytes)" in a fault message. */
static bool parse_bounds(const char *msg, unsigned long long *dist, bool *after, char *name, size_t nlen,
                         unsigned long long *size)
{
    const char *p = strstr(msg, " bytes past the end of '");
    *after = true;
    if (!p) p = strstr(msg, " bytes before the start of '"), *after = false;
    if (!p) return false;
    const char *d = p;
    while (d > msg && d[-1] >= '0' && d[-1] <= '9') d--;
    *dist = strtoull(d, NULL, 10);
    const char *q = strchr(p, '\'') + 1, *e = strchr(q, '\'');
    if (!e) return false;
    snprintf(name, nlen, "%.*s", (int)(e - q), q);
    const char *s = strchr(e, '(');
    if (!s) return false;
    *size = strtoull(s + 1, NULL, 10);
    return true;
}

static void draw_oob(WINDOW *win, const app *a, int y, int x, int h, int w)
{
    const sim_fault *f = &a->run.fault;
    char buf[600];
    sim_access ac = {0};
    ac.op = f->is_store;
    memcpy(ac.thread, f->thread, sizeof ac.thread);
    memcpy(ac.block, f->block, sizeof ac.block);
    ac.src_line = f->src_line;
    put(win, y, x, w, f->kind == SIM_FAULT_MISALIGNED ? "misaligned access" : "out-of-bounds access", term_attr(TC_BAD) | A_BOLD);
    int r = y + 1 + thread_box(win, a, &ac, f->is_store == 1 ? "store by" : f->is_store == 2 ? "atomic by" : "load by", y + 1,
                               x, w, h - 1, term_attr(TC_BAD));
    unsigned long long dist = 0, size = 0;
    bool after = true;
    char name[128];
    if (parse_bounds(f->message, &dist, &after, name, sizeof name, &size) && r + 3 < y + h) {
        /* the bar: the allocation, then the gap and the access past it */
        int bw = w - 2 < 60 ? w - 2 : 60;
        unsigned long long span = size + dist + f->size;
        int alloc = (int)((double)size * bw / (double)span);
        if (alloc < 4) alloc = 4;
        if (alloc > bw - 3) alloc = bw - 3;
        snprintf(buf, sizeof buf, "'%s': %llu bytes%s", name, size, after ? "" : " (the access is before it)");
        put(win, r++, x, w, buf, term_attr(TC_HEADING));
        if (after) {
            for (int i = 0; i < alloc; i++) glyph(win, r, x + i, g_block(), term_attr(TC_GOOD));
            int gap = dist > 0 ? 1 : 0;
            for (int i = 0; i < gap; i++) glyph(win, r, x + alloc + i, term_glyph()->dot, term_attr(TC_DIM));
            glyph(win, r, x + alloc + gap, "X", term_attr(TC_BAD) | A_REVERSE);
            r++;
            if (alloc + gap + 12 <= w) snprintf(buf, sizeof buf, "0%*s^ byte %llu", alloc + gap - 1, "", size + dist);
            else snprintf(buf, sizeof buf, "0%*sbyte %llu ^", alloc + gap - 11 > 0 ? alloc + gap - 11 : 0, "", size + dist);
            put(win, r++, x, w, buf, term_attr(TC_DIM));
        } else {
            glyph(win, r, x, "X", term_attr(TC_BAD) | A_REVERSE);
            for (int i = 0; i < alloc; i++) glyph(win, r, x + 2 + i, g_block(), term_attr(TC_GOOD));
            r++;
        }
        snprintf(buf, sizeof buf, "%u-byte %s, %llu B %s", f->size, f->is_store == 1 ? "store" : "load", dist,
                 after ? "past the end" : "before the start");
        put(win, r++, x, w, buf, term_attr(TC_BAD));
        if (size && f->size) {
            snprintf(buf, sizeof buf, "element [%llu] of %llu (0..%llu)", after ? (size + dist) / f->size : 0,
                     size / f->size, size / f->size - 1);
            if (after) put(win, r++, x, w, buf, PLAIN);
        }
    } else {
        put(win, r++, x, w, f->message, PLAIN);
    }
    if (r + 1 < y + h) lanes_picture(win, a, &ac, NULL, r + 1, x, y + h - r - 1, w);
}

int tv_deadlock_lines(const app *a, int *lines, int max)
{
    const trace_t *t = trace_of(a);
    if (!t) return 0;
    unsigned wpb = warps_per_block(t);
    int32_t *at = malloc(wpb * sizeof *at);
    if (!at) return 0;
    uint64_t B = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
    int n = 0;
    for (uint32_t b = 0; b < B && n == 0; b++) {
        waiting_at(t, t->nevents, b, at, wpb);
        for (unsigned k = 0; k < wpb && n < max; k++) {
            int line = at[k] >= 0 ? line_of_pc(t, at[k]) : 0;
            bool seen = line <= 0;
            for (int q = 0; q < n; q++) seen |= lines[q] == line;
            if (!seen) lines[n++] = line;
        }
    }
    free(at);
    return n;
}

static void draw_deadlock(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w)
{
    put(win, y, x, w, "deadlock: warps wait at different barriers", term_attr(TC_BAD) | A_BOLD);
    int r = y + 1;
    char buf[400];
    if (!t) {
        put(win, r, x, w, a->run.fault.message, PLAIN);
        return;
    }
    unsigned wpb = warps_per_block(t);
    int32_t *at = malloc(wpb * sizeof *at);
    if (!at) return;
    uint64_t B = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
    for (uint32_t b = 0; b < B && r < y + h; b++) {
        waiting_at(t, t->nevents, b, at, wpb);
        bool any = false;
        for (unsigned k = 0; k < wpb; k++) any |= at[k] >= 0;
        if (!any) continue;
        snprintf(buf, sizeof buf, "block %u:", b);
        put(win, r++, x, w, buf, term_attr(TC_HEADING));
        /* group warps by the line they wait at; the others have finished */
        bool done[1024] = {false};
        for (unsigned k = 0; k < wpb && k < 1024 && r < y + h; k++) {
            if (done[k]) continue;
            int line = at[k] >= 0 ? line_of_pc(t, at[k]) : -1;
            int n = snprintf(buf, sizeof buf, "  warp");
            for (unsigned q = k; q < wpb && q < 1024 && n < (int)sizeof buf - 16; q++) {
                int lq = at[q] >= 0 ? line_of_pc(t, at[q]) : -1;
                if (lq == line) done[q] = true, n += snprintf(buf + n, sizeof buf - (size_t)n, "%s %u", q > k ? "," : "", q);
            }
            if (line >= 0) snprintf(buf + n, sizeof buf - (size_t)n, ": wait at line %d %s", line, src_text(a, line));
            else snprintf(buf + n, sizeof buf - (size_t)n, ": finished (never reach it)");
            put(win, r++, x, w, buf, line >= 0 ? term_attr(TC_WARN) : term_attr(TC_DIM));
        }
        break; /* the first stuck block is the picture */
    }
    free(at);
    if (r < y + h) put(win, r, x, w, a->run.fault.message, term_attr(TC_DIM));
}

/* Barrier misuse (synccheck): in the finding's block, the lines of the barriers each
 * warp arrived at, and the warps that arrived at fewer barriers than the others (they
 * exited, or went another way). */
static void draw_barrier_misuse(WINDOW *win, const trace_t *t, const sim_finding *fi, int y, int x, int h, int w)
{
    const char *head = fi->kind == SIM_FIND_EXITED_BARRIER ? "barrier skipped by threads that exited"
                                                           : "threads waited at different __syncthreads()";
    int r = y;
    if ((int)strlen(head) <= w) {
        put(win, r++, x, w, head, term_attr(TC_BAD) | A_BOLD);
    } else { /* two rows, split at the last space that fits */
        int cut = w;
        while (cut > 0 && head[cut] != ' ') cut--;
        if (cut <= 0) cut = w;
        char first[96];
        snprintf(first, sizeof first, "%.*s", cut, head);
        put(win, r++, x, w, first, term_attr(TC_BAD) | A_BOLD);
        if (r < y + h) put(win, r++, x, w, head + cut + (head[cut] == ' '), term_attr(TC_BAD) | A_BOLD);
    }
    if (!t) {
        put(win, r, x, w, fi->message, PLAIN);
        return;
    }
    const unsigned wpb = warps_per_block(t) < 1024 ? warps_per_block(t) : 1024;
    const uint32_t b = fi->access.block[0] + fi->access.block[1] * t->grid[0] +
                       fi->access.block[2] * t->grid[0] * t->grid[1];
    unsigned arrivals[1024] = {0}, most = 0;
    char lines[1024][48];
    for (unsigned k = 0; k < wpb; k++) lines[k][0] = '\0';
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b || e->kind != TRACE_EV_BAR_ARRIVE || e->warp >= wpb) continue;
        arrivals[e->warp]++;
        char l[16];
        snprintf(l, sizeof l, " %d", line_of_pc(t, e->pc));
        if (!strstr(lines[e->warp], l) && strlen(lines[e->warp]) + strlen(l) < sizeof lines[0])
            strcat(lines[e->warp], l);
    }
    for (unsigned k = 0; k < wpb; k++) most = arrivals[k] > most ? arrivals[k] : most;
    char buf[400];
    snprintf(buf, sizeof buf, "block (%u,%u,%u), the barriers each warp reached (lines):", fi->access.block[0],
             fi->access.block[1], fi->access.block[2]);
    put(win, r++, x, w, buf, term_attr(TC_HEADING));
    for (unsigned k = 0; k < wpb && r < y + h - 1; k++) {
        snprintf(buf, sizeof buf, "  warp %u: %s%s", k, lines[k][0] ? lines[k] + 1 : "none",
                 arrivals[k] < most ? (fi->kind == SIM_FIND_EXITED_BARRIER ? "  (exited before the others' barrier)"
                                                                           : "  (fewer than the others)")
                                    : "");
        put(win, r++, x, w, buf, arrivals[k] < most ? term_attr(TC_WARN) : PLAIN);
    }
    if (r < y + h)
        put(win, r, x, w, "__syncthreads() needs a condition that is the same for the whole block", term_attr(TC_DIM));
}

static void draw_error(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w)
{
    if (!tv_has_error_picture(a)) {
        put(win, y, x, w, a->have_run ? "no error in this run: nothing to picture" : "no run yet", term_attr(TC_GOOD));
        put(win, y + 1, x, w, "races, out-of-bounds accesses and deadlocks open here", term_attr(TC_DIM));
        return;
    }
    const sim_fault *f = &a->run.fault;
    if (f->kind == SIM_FAULT_OUT_OF_BOUNDS || f->kind == SIM_FAULT_MISALIGNED) {
        draw_oob(win, a, y, x, h, w);
        return;
    }
    for (int i = 0; i < a->run.nfindings; i++) {
        const sim_finding *fi = &a->run.findings[i];
        if (fi->kind == SIM_FIND_DEADLOCK) {
            draw_deadlock(win, a, t, y, x, h, w);
            return;
        }
    }
    for (int i = 0; i < a->run.nfindings; i++) {
        const sim_finding *fi = &a->run.findings[i];
        if (!fi->is_error ||
            (fi->kind != SIM_FIND_RACE && fi->kind != SIM_FIND_WARP_RACE && fi->kind != SIM_FIND_GLOBAL_RACE))
            continue;
        char buf[300];
        static const char *const haz[] = {"", "read after write", "write after read", "write after write"};
        char elem[96];
        const int named = fi->space == SIM_SPACE_SHARED ? snprintf(elem, sizeof elem, "%s", fi->var) > 0
                                                        : buffer_elem(a, fi->address, elem, sizeof elem);
        if (named && w >= 50)
            snprintf(buf, sizeof buf, "race on %s (%s, %s)", elem, fi->space == SIM_SPACE_SHARED ? "shared" : "global",
                     fi->hazard <= SIM_HAZ_WAW ? haz[fi->hazard] : "");
        else if (named)
            snprintf(buf, sizeof buf, "race on %s", elem);
        else if (w >= 50)
            snprintf(buf, sizeof buf, "race on %s bytes at 0x%" PRIx64 " (%s)", fi->space == SIM_SPACE_SHARED ? "shared" : "global",
                     fi->address, fi->hazard <= SIM_HAZ_WAW ? haz[fi->hazard] : "");
        else
            snprintf(buf, sizeof buf, "race on %s 0x%" PRIx64, fi->space == SIM_SPACE_SHARED ? "shared" : "global", fi->address);
        put(win, y, x, w, buf, term_attr(TC_BAD) | A_BOLD);
        const char *opn[] = {"A reads", "A writes", "A atomic"};
        const char *opm[] = {"B reads", "B writes", "B atomic"};
        int r = y + 1;
        const int other_block = memcmp(fi->access.block, fi->other.block, sizeof fi->access.block) != 0;
        /* rows: the heading, two accesses of 3 (2 wide), the verdict, a lane row per warp;
         * short of rows, each access takes 2 (who; its line), the blocks on one row */
        const unsigned T0 = a->spec.block[0], T1 = a->spec.block[1];
        const unsigned la = fi->other.thread[0] + fi->other.thread[1] * T0 + fi->other.thread[2] * T0 * T1;
        const unsigned lb = fi->access.thread[0] + fi->access.thread[1] * T0 + fi->access.thread[2] * T0 * T1;
        const int lane_rows = la / WARP == lb / WARP ? 1 : 2;
        const int full_rows = 1 + 2 * (w >= 64 ? 2 : 3) + 1 + lane_rows;
        if (h >= full_rows) {
            r += thread_box(win, a, &fi->other, opn[fi->other.op >= 0 && fi->other.op < 3 ? fi->other.op : 0], r, x, w,
                            y + h - r, term_attr(TC_BAD));
            r += thread_box(win, a, &fi->access, opm[fi->access.op >= 0 && fi->access.op < 3 ? fi->access.op : 0], r, x,
                            w, y + h - r, term_attr(TC_WARN));
        } else {
            const int lines = h >= 1 + 4 + 1 + lane_rows ? 2 : 1;
            r += thread_box(win, a, &fi->other, opn[fi->other.op >= 0 && fi->other.op < 3 ? fi->other.op : 0], r, x, w,
                            -lines, term_attr(TC_BAD));
            r += thread_box(win, a, &fi->access, opm[fi->access.op >= 0 && fi->access.op < 3 ? fi->access.op : 0], r, x,
                            w, -lines, term_attr(TC_WARN));
            if (other_block && r < y + h) {
                snprintf(buf, sizeof buf, "blocks: A (%u,%u,%u), B (%u,%u,%u)", fi->other.block[0], fi->other.block[1],
                         fi->other.block[2], fi->access.block[0], fi->access.block[1], fi->access.block[2]);
                put(win, r++, x, w, buf, PLAIN);
            }
        }
        if (r < y + h)
            put(win, r++, x, w,
                fi->kind == SIM_FIND_WARP_RACE ? (w >= 28 ? "and no __syncwarp() between" : "no __syncwarp() between")
                : other_block ? (w >= 52 ? "and nothing orders them: blocks run at the same time"
                                         : "nothing orders the blocks")
                : w >= 30     ? "and no __syncthreads() between"
                              : "no __syncthreads() between",
                term_attr(TC_DIM));
        if (y + h - r >= 1) lanes_picture(win, a, &fi->other, &fi->access, r, x, y + h - r, w);
        return;
    }
    for (int i = 0; i < a->run.nfindings; i++) {
        const sim_finding *fi = &a->run.findings[i];
        if (fi->kind == SIM_FIND_DIVERGENT_BARRIER || fi->kind == SIM_FIND_EXITED_BARRIER) {
            draw_barrier_misuse(win, t, fi, y, x, h, w);
            return;
        }
    }
    put(win, y, x, w, f->kind != SIM_FAULT_NONE ? f->message : a->run.findings[0].message, term_attr(TC_BAD));
}

/* --------------------------------------------------------------- registers */

/* A register value as PTX declares it: pred true/false, floats %g, integers in
 * decimal (32-bit ones with the top bit set as negative), 64-bit values past 2^32
 * (addresses) in hex. */
static void fmt_reg(char *buf, size_t n, const trace_reg *r, uint64_t v)
{
    if (r->size < 8) v &= (UINT64_C(1) << (r->size * 8)) - 1;
    if (r->cls == TRACE_REG_PRED) {
        snprintf(buf, n, "%s", (v & 1) ? "true" : "false");
    } else if (r->cls == TRACE_REG_F && r->size == 4) {
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, sizeof f);
        snprintf(buf, n, "%.7g", (double)f);
    } else if (r->cls == TRACE_REG_F && r->size == 8) {
        double d;
        memcpy(&d, &v, sizeof d);
        snprintf(buf, n, "%.10g", d);
    } else if (r->cls == TRACE_REG_S || (r->size == 4 && v >= 0x80000000u)) {
        /* .s32, and .b32/.u32 with the top bit set: CUDA C's ints are mostly signed
         * (nvcc declares every 32-bit integer register .b32) */
        int64_t sv = r->size < 8 && (v >> (r->size * 8 - 1)) & 1 ? (int64_t)(v - (UINT64_C(1) << (r->size * 8)))
                                                                  : (int64_t)v;
        snprintf(buf, n, "%" PRId64, sv);
    } else if (r->size == 8 && v > UINT32_MAX) {
        snprintf(buf, n, "0x%" PRIx64, v);
    } else if (r->cls == TRACE_REG_B && r->size == 2) {
        snprintf(buf, n, "0x%04" PRIx64, v); /* .b16 / .f16: bits */
    } else {
        snprintf(buf, n, "%" PRIu64, v);
    }
}

/* The shuffle s (TRACE_EV_SHFL) in words and as lanes: the rule every lane followed
 * when there is one ("lane l reads lane l + 16"), the lanes that kept their own value,
 * the source of each lane as a row of lanes (the source's lane number mod 10, "=" for
 * its own value, "·" not taking part), and what the selected lane `sel` read. At most h
 * rows from y; returns the rows used. */
static int shfl_picture(WINDOW *win, const trace_t *t, const trace_event *s, unsigned sel, int y, int x, int h, int w)
{
    const uint64_t *v = trace_event_values(t, s);
    int delta = 0, xr = 0, bcast = -1;
    bool is_delta = true, is_xor = true, is_bcast = true, first = true;
    uint32_t kept = 0;
    for (unsigned l = 0; l < WARP; l++) {
        if (!((s->mask >> l) & 1u)) continue;
        if (v[l] >= 32) {
            kept |= 1u << l;
            continue;
        }
        const int src = (int)v[l];
        if (first) delta = src - (int)l, xr = src ^ (int)l, bcast = src, first = false;
        is_delta &= src - (int)l == delta;
        is_xor &= (src ^ (int)l) == xr;
        is_bcast &= src == bcast;
    }
    char buf[200];
    int r = 0;
    const bool nw = w < 40; /* narrow: shorter words, whole lines */
    if (first) snprintf(buf, sizeof buf, "shuffle: every lane kept its own value");
    else if (is_bcast && popc(s->mask & ~kept) > 1)
        snprintf(buf, sizeof buf, nw ? "shfl: all read lane %d" : "shuffle: every lane reads lane %d", bcast);
    else if (is_delta && delta > 0)
        snprintf(buf, sizeof buf, nw ? "shfl: l reads l + %d (down)" : "shuffle: lane l reads lane l + %d (down)", delta);
    else if (is_delta && delta < 0)
        snprintf(buf, sizeof buf, nw ? "shfl: l reads l - %d (up)" : "shuffle: lane l reads lane l - %d (up)", -delta);
    else if (is_xor && xr)
        snprintf(buf, sizeof buf, nw ? "shfl: l reads l xor %d" : "shuffle: lane l reads lane l xor %d (butterfly)", xr);
    else snprintf(buf, sizeof buf, nw ? "shfl: lanes read other lanes" : "shuffle: each lane reads the lane shown below it");
    if (r < h) put(win, y + r++, x, w, buf, term_attr(TC_HEADING));
    if (kept && r < h) {
        int lo = __builtin_ctz(kept), hi = 31 - __builtin_clz(kept);
        if (popc(kept) == hi - lo + 1)
            snprintf(buf, sizeof buf, nw ? "lanes %d-%d keep their value" : "lanes %d-%d: out of range, keep their own value",
                     lo, hi);
        else snprintf(buf, sizeof buf, nw ? "%d lanes keep their value" : "%d lanes out of range keep their own value (=)",
                      popc(kept));
        put(win, y + r++, x, w, buf, term_attr(TC_DIM));
    }
    if (r < h && w >= WARP + 6) { /* the sources, one cell per lane */
        put(win, y + r, x, 6, "from ", term_attr(TC_DIM));
        for (unsigned l = 0; l < WARP; l++) {
            char c[4];
            int at = l == sel ? term_attr(TC_MAPSEL) : PLAIN;
            if (!((s->mask >> l) & 1u)) snprintf(c, sizeof c, "%s", term_glyph()->dot), at = term_attr(TC_DIM);
            else if (v[l] >= 32) snprintf(c, sizeof c, "=");
            else snprintf(c, sizeof c, "%d", (int)(v[l] % 10));
            glyph(win, y + r, x + 6 + (int)l, c, at);
        }
        r++;
    }
    if (r < h && ((s->mask >> sel) & 1u)) {
        if (v[sel] >= 32) snprintf(buf, sizeof buf, "lane %u kept its own value", sel);
        else snprintf(buf, sizeof buf, "lane %u read lane %d", sel, (int)v[sel]);
        put(win, y + r++, x, w, buf, term_attr(TC_MAPSEL));
    }
    return r;
}

/* The vote v (TRACE_EV_VOTE) in words and as lanes: how many lanes voted true, the rule
 * of its mode and the result every lane got (PTX ISA §9.7.13.x vote.sync; a ballot's
 * result is the mask of true votes), then one cell per lane (1 true, 0 false, a dot for
 * a lane that did not vote) with the selected lane l marked. Draws at most h rows;
 * returns the rows drawn. */
static int vote_picture(WINDOW *win, const trace_event *v, unsigned l, int y, int x, int h, int w)
{
    const uint32_t voted = v->mask, yes = v->aux & v->mask;
    const int n = popc(voted), k = popc(yes);
    char head[80], rule[80], buf[200];
    const char *fn = v->barrier == TRACE_VOTE_ANY ? "__any_sync" : v->barrier == TRACE_VOTE_ALL ? "__all_sync" : "__uni_sync";
    int got;
    switch (v->barrier) {
    case TRACE_VOTE_ANY: got = k > 0, snprintf(rule, sizeof rule, "%s", got ? "some did" : "none did"); break;
    case TRACE_VOTE_ALL: got = k == n, snprintf(rule, sizeof rule, "%s", got ? "all did" : "not all did"); break;
    default: got = k == 0 || k == n, snprintf(rule, sizeof rule, "%s", got ? "all the same" : "votes differ"); break;
    }
    if (v->barrier == TRACE_VOTE_BALLOT) {
        snprintf(head, sizeof head, w >= 44 ? "ballot: %d lanes voted true (0x%08x)" : "ballot: %d true (0x%08x)", k, yes);
        rule[0] = 0;
    } else {
        snprintf(head, sizeof head, "%s: %d of %d voted true", fn, k, n);
        const size_t len = strlen(rule);
        snprintf(rule + len, sizeof rule - len, " -> every lane gets %d", got);
    }
    int row = 0;
    if (h <= 0) return 0;
    snprintf(buf, sizeof buf, "%s: %s", head, rule);
    if (rule[0] && (int)strlen(buf) <= w) {
        put(win, y + row++, x, w, buf, term_attr(TC_HEADING));
    } else { /* narrow: the rule on a line of its own */
        put(win, y + row++, x, w, head, term_attr(TC_HEADING));
        if (rule[0] && row < h) put(win, y + row++, x, w, rule, term_attr(TC_HEADING));
    }
    if (row < h && w >= WARP) { /* lane 0 first, with a label where it fits */
        const int lx = w >= WARP + 6 ? 6 : 0;
        if (lx) put(win, y + row, x, 6, "lanes ", term_attr(TC_DIM));
        for (unsigned j = 0; j < WARP; j++) {
            const bool in = (voted >> j) & 1u, t = (yes >> j) & 1u;
            glyph(win, y + row, x + lx + (int)j, !in ? "." : t ? "1" : "0",
                  j == l ? term_attr(TC_MAPSEL) : t ? term_attr(TC_GOOD) : term_attr(TC_DIM));
        }
        row++;
    }
    return row;
}

/* The source variable register r holds after the instruction at pc ran (DWARF ranges
 * say where a variable is before an instruction: the next one's, pc + 1, first; then
 * pc's own), or NULL: a compiler temporary, or no debug build. */
static const trace_var *var_of(const trace_t *t, int r, int32_t pc)
{
    if (pc < 0) return NULL;
    for (int pass = 0; pass < 2; pass++) {
        const int32_t at = pass == 0 ? pc + 1 : pc;
        for (int i = 0; i < t->nvars; i++)
            if (t->vars[i].reg == r && t->vars[i].pc_lo <= at && at < t->vars[i].pc_hi) return &t->vars[i];
    }
    return NULL;
}

/* Whether the identifier `name` occurs in the source line s (as a whole word). */
static bool line_mentions(const char *s, const char *name)
{
    const size_t n = strlen(name);
    if (!n) return false;
    for (const char *p = strstr(s, name); p; p = strstr(p + 1, name)) {
        const bool before = p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        const bool after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after) return true;
    }
    return false;
}

static void draw_regs(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w)
{
    uint32_t b;
    unsigned wp, l;
    tv_selected(a, &b, &wp, &l);
    char buf[300];
    if (!t->regs || t->nregs == 0) {
        put(win, y, x, w, "no register values in this trace", term_attr(TC_DIM));
        put(win, y + 1, x, w, "the simulator records them (the GPU cannot): run with the simulator back end",
            term_attr(TC_DIM));
        return;
    }
    int nr = t->nregs;
    uint64_t *val = calloc((size_t)nr, sizeof *val), *old = calloc((size_t)nr, sizeof *old);
    unsigned char *st = calloc((size_t)nr, 1); /* bit 0 ever written, 1 written by now, 2 just now, 3 had old */
    if (!val || !old || !st) {
        free(val), free(old), free(st);
        return;
    }
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    /* the cursor's last instruction's memory, printf and register events follow its
     * issue: they have happened too */
    size_t end = pos;
    while (end < t->nevents && end > 0 &&
           (t->events[end].kind == TRACE_EV_MEM || t->events[end].kind == TRACE_EV_PRINTF ||
            t->events[end].kind == TRACE_EV_REG || t->events[end].kind == TRACE_EV_SHFL ||
            t->events[end].kind == TRACE_EV_VOTE))
        end++;
    size_t last_issue = SIZE_MAX;
    bool lane_ran = false;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b || e->warp != wp) continue;
        if (e->kind == TRACE_EV_ISSUE && i < end) {
            last_issue = i;
            lane_ran = (e->aux >> l) & 1u;
            for (int r = 0; r < nr; r++) st[r] &= (unsigned char)~4u;
        }
        if (e->kind != TRACE_EV_REG || !((e->mask >> l) & 1u) || e->barrier >= nr) continue;
        st[e->barrier] |= 1;
        if (i >= end) continue;
        if (st[e->barrier] & 2) old[e->barrier] = val[e->barrier], st[e->barrier] |= 8;
        else st[e->barrier] &= (unsigned char)~8u;
        val[e->barrier] = trace_event_values(t, e)[l];
        st[e->barrier] |= 2 | 4;
    }
    /* heading: the thread and the instruction its warp issued last */
    const gl_spec *sp = &a->spec;
    unsigned lt = wp * WARP + l, tx = lt % sp->block[0], ty = lt / sp->block[0] % sp->block[1],
             tz = lt / (sp->block[0] * sp->block[1]);
    unsigned bx = b % sp->grid[0], by = b / sp->grid[0] % sp->grid[1], bz = b / (sp->grid[0] * sp->grid[1]);
    if (w >= 56)
        snprintf(buf, sizeof buf, "thread (%u,%u,%u) of block (%u,%u,%u): warp %u lane %u", tx, ty, tz, bx, by, bz, wp, l);
    else
        snprintf(buf, sizeof buf, "t(%u,%u,%u) b(%u,%u,%u) w%u lane %u", tx, ty, tz, bx, by, bz, wp, l);
    put(win, y, x, w, buf, term_attr(TC_HEADING));
    int row = y + 1;
    if (last_issue == SIZE_MAX) {
        put(win, row++, x, w, pos == 0 ? "nothing ran yet (. steps)" : "its warp has issued nothing yet",
            term_attr(TC_DIM));
    } else {
        const trace_event *e = &t->events[last_issue];
        int line = line_of_pc(t, e->pc);
        const char *mn = e->pc >= 0 && e->pc < t->ninsns ? t->insns[e->pc].mnemonic : "?";
        if (!((e->mask >> l) & 1u))
            snprintf(buf, sizeof buf, "line %d %s: lane inactive (on another path)", line, mn);
        else if (!lane_ran)
            snprintf(buf, sizeof buf, "line %d %s: guard false, lane skipped", line, mn);
        else
            snprintf(buf, sizeof buf, "line %d %s: %s", line, mn, src_text(a, line));
        put(win, row++, x, w, buf, lane_ran ? PLAIN : term_attr(TC_WARN));
    }
    const int32_t cur_pc = last_issue != SIZE_MAX ? t->events[last_issue].pc : -1;
    /* the source line's variables and their values (a debug build's names, N) */
    if (row < y + h && cur_pc >= 0 && t->nvars > 0) {
        const char *line = src_text(a, line_of_pc(t, cur_pc));
        int n = snprintf(buf, sizeof buf, "on this line:");
        bool any = false;
        for (int r = 0; r < nr && n < (int)sizeof buf - 80; r++) {
            const trace_var *v = var_of(t, r, cur_pc);
            if (!v || !(st[r] & 2) || !line_mentions(line, v->name)) continue;
            char val_s[40];
            fmt_reg(val_s, sizeof val_s, &t->regs[r], val[r]);
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s %s = %s", any ? "," : "", v->name, val_s);
            any = true;
        }
        if (any) put(win, row++, x, w, buf, term_attr(TC_HEADING));
    }
    /* what the last instruction changed, with the old values */
    if (row < y + h && last_issue != SIZE_MAX && lane_ran) {
        int n = snprintf(buf, sizeof buf, "wrote:");
        bool any = false;
        for (int r = 0; r < nr && n < (int)sizeof buf - 60; r++) {
            if (!(st[r] & 4)) continue;
            char v[40], o[40];
            fmt_reg(v, sizeof v, &t->regs[r], val[r]);
            if (st[r] & 8) fmt_reg(o, sizeof o, &t->regs[r], old[r]);
            const trace_var *sv = var_of(t, r, cur_pc);
            char nm[80];
            if (sv) snprintf(nm, sizeof nm, "%s (%s)", sv->name, t->regs[r].name);
            else snprintf(nm, sizeof nm, "%s", t->regs[r].name);
            n += snprintf(buf + n, sizeof buf - (size_t)n, " %s = %s%s%s%s", nm, v, st[r] & 8 ? " (was " : "",
                          st[r] & 8 ? o : "", st[r] & 8 ? ")" : "");
            any = true;
        }
        if (!any) snprintf(buf + n, sizeof buf - (size_t)n, " no register (a store, branch or barrier)");
        put(win, row++, x, w, buf, term_attr(TC_GOOD));
    }
    /* a shuffle: which lane each lane read (the picture of shfl.sync) */
    if (last_issue != SIZE_MAX && row + 2 < y + h) {
        const trace_event *s = NULL;
        for (size_t i = last_issue + 1; i < t->nevents && i < last_issue + 8; i++) {
            const trace_event *e = &t->events[i];
            if (e->block != b || e->warp != wp) continue;
            if (e->kind == TRACE_EV_ISSUE) break;
            if (e->kind == TRACE_EV_SHFL) s = e;
        }
        if (s) row += shfl_picture(win, t, s, l, row, x, y + h - row, w);
    }
    /* a vote (__all_sync, __any_sync, __uni_sync, __ballot_sync): how each lane voted and
     * what every lane got */
    if (last_issue != SIZE_MAX && row + 1 < y + h) {
        const trace_event *v = NULL;
        for (size_t i = last_issue + 1; i < t->nevents && i < last_issue + 8; i++) {
            const trace_event *e = &t->events[i];
            if (e->block != b || e->warp != wp) continue;
            if (e->kind == TRACE_EV_ISSUE) break;
            if (e->kind == TRACE_EV_VOTE) v = e;
        }
        if (v) row += vote_picture(win, v, l, row, x, y + h - row, w);
    }
    /* the registers this thread writes at some point, in declaration order: predicates
     * flowed on lines of their own ("%p1 F"), the others in columns */
    int namew = 3, shown = 0, total = 0, cx = x;
    /* a register holding a source variable now is labelled with it: "i %r1" */
    char(*label)[64] = calloc((size_t)nr, sizeof *label);
    if (!label) {
        free(val), free(old), free(st);
        return;
    }
    for (int r = 0; r < nr; r++) {
        if (!(st[r] & 1)) continue;
        total++;
        const trace_var *sv = var_of(t, r, cur_pc);
        if (sv) snprintf(label[r], sizeof label[r], "%.20s %s", sv->name, t->regs[r].name);
        else snprintf(label[r], sizeof label[r], "%s", t->regs[r].name);
        int len = (int)strlen(label[r]);
        if (t->regs[r].cls != TRACE_REG_PRED && len > namew) namew = len < (sv ? 24 : 16) ? len : (sv ? 24 : 16);
    }
    const char *unset = utf8() ? "\u00b7" : ".";
    for (int r = 0; r < nr && row < y + h; r++) {
        if (!(st[r] & 1) || t->regs[r].cls != TRACE_REG_PRED) continue;
        bool now = (st[r] & 4) != 0 && lane_ran;
        snprintf(buf, sizeof buf, "%s%s %s", now ? ">" : " ", label[r],
                 !(st[r] & 2) ? unset : (val[r] & 1) ? "T" : "F");
        int len = (int)strlen(label[r]) + 3;
        if (cx > x && cx + len > x + w) cx = x, row++;
        if (row >= y + h) break;
        put(win, row, cx, x + w - cx, buf, now ? (int)(term_attr(TC_GOOD) | A_BOLD) : (st[r] & 2) ? PLAIN : (int)term_attr(TC_DIM));
        cx += len + 1;
        shown++;
    }
    if (cx > x) row++;
    int cellw = namew + 16, cols = (w + 1) / (cellw + 1) > 0 ? (w + 1) / (cellw + 1) : 1, k = 0;
    for (int r = 0; r < nr && row < y + h; r++) {
        if (!(st[r] & 1) || t->regs[r].cls == TRACE_REG_PRED) continue;
        const trace_reg *R = &t->regs[r];
        char v[40];
        if (st[r] & 2) fmt_reg(v, sizeof v, R, val[r]);
        else snprintf(v, sizeof v, "%s", unset);
        bool now = (st[r] & 4) != 0 && lane_ran;
        int attr = now ? (int)(term_attr(TC_GOOD) | A_BOLD) : (st[r] & 2) ? PLAIN : (int)term_attr(TC_DIM);
        snprintf(buf, sizeof buf, "%s%-*.*s %s", now ? ">" : " ", namew, namew, label[r], v);
        put(win, row, x + (k % cols) * (cellw + 1), cellw, buf, attr);
        shown++;
        if (++k % cols == 0) row++;
    }
    if (k % cols) row++;
    if (row < y + h && shown < total) {
        snprintf(buf, sizeof buf, "(%d more registers: a taller terminal shows them)", total - shown);
        put(win, row++, x, w, buf, term_attr(TC_DIM));
    }
    if (row < y + h && total == 0)
        put(win, row++, x, w, "this thread wrote no register in the trace", term_attr(TC_DIM));
    if (row < y + h && a->run_names)
        put(win, row++, x, w,
            t->nvars ? (w >= 60 ? "N: names from the debug build (-G), its code as written, not optimised"
                                : "N: names from the debug build (-G)")
                     : w >= 60 ? "N: this compiler recorded no variable locations (clang keeps locals in memory)"
                               : "N: the compiler recorded no variable locations",
            term_attr(TC_DIM));
    else if (row < y + h)
        put(win, row++, x, w, w >= 50 ? "N: source variable names (runs the debug build, -G)" : "N: source variable names (-G)",
            term_attr(TC_DIM));
    free(label);
    free(val), free(old), free(st);
}

/* ------------------------------------------------------------------ entry */

void tv_draw(WINDOW *win, const app *a, int y, int x, int h, int w, struct view_metrics *m)
{
    if (h < 3 || w < 16) return;
    const trace_t *t = trace_of(a);
    if (a->view == VIEW_BUFFERS && a->have_run && a->have_spec) {
        draw_buffers(win, a, y, x, h, w, m);
        return;
    }
    if (a->view == VIEW_ERROR && a->have_run) {
        draw_error(win, a, t, y, x, h, w);
        return;
    }
    if (!t || t->nevents == 0) {
        put(win, y, x, w, !a->have_run ? "press r: this view shows what the kernel did"
                          : a->run.backend != GL_BACKEND_SIM ? "no trace of this GPU run: S replays it on the simulator"
                                                             : "no trace of this run", term_attr(TC_DIM));
        put(win, y + 1, x, w, "1 thread map, 2 warps, v next view, ? help", term_attr(TC_DIM));
        return;
    }
    if (a->run.backend != GL_BACKEND_SIM &&
        (a->view == VIEW_BARRIERS || a->view == VIEW_TREE || a->view == VIEW_REGS)) {
        /* GPU traces hold memory requests and block starts/ends (runtime/instrument.h) */
        put(win, y, x, w, "the GPU's trace has memory requests and blocks only", term_attr(TC_DIM));
        put(win, y + 1, x, w, "S replays this launch on the simulator, which records this view", term_attr(TC_DIM));
        return;
    }
    int ch = h - 1;
    switch (a->view) {
    case VIEW_MEMORY: draw_memory(win, a, t, y, x, ch, w); break;
    case VIEW_BANKS: draw_banks(win, a, t, y, x, ch, w); break;
    case VIEW_BARRIERS: draw_barriers(win, a, t, y, x, ch, w); break;
    case VIEW_ATOMICS: draw_atomics(win, a, t, y, x, ch, w); break;
    case VIEW_TREE: draw_tree(win, a, t, y, x, ch, w, m); break;
    case VIEW_REGS: draw_regs(win, a, t, y, x, ch, w); break;
    default: break;
    }
    draw_time_line(win, a, t, y + h - 1, x, w);
}

int tv_natural_height(const app *a)
{
    const trace_t *t = trace_of(a);
    switch (a->view) {
    case VIEW_MEMORY: {
        /* heading, lanes, verdict, selected lane, lines header, one row per line */
        const trace_event *e = t ? current_request(a, t) : NULL;
        int nlines = 0;
        if (e) {
            const uint64_t *ad = trace_event_addrs(t, e);
            uint64_t seen[WARP];
            for (int l = 0; l < WARP; l++) {
                if (!((e->mask >> l) & 1u)) continue;
                bool dup = false;
                for (int k = 0; k < nlines; k++) dup |= seen[k] == ad[l] / 128;
                if (!dup) seen[nlines++] = ad[l] / 128;
            }
        }
        return 7 + (nlines > 1 ? nlines : 1);
    }
    case VIEW_BANKS: return 14;
    case VIEW_BARRIERS: return t ? 8 + (int)(warps_per_block(t) < 12 ? warps_per_block(t) : 12) : 8;
    case VIEW_TREE: return 20;
    case VIEW_ERROR: return 14;
    case VIEW_BUFFERS: return app_on_exercise(a) && a->have_run ? comparison_height(a) : 12;
    case VIEW_REGS: {
        /* heading, instruction, two columns of registers, "wrote:", time line */
        int n = 0;
        for (int r = 0; t && r < t->nregs; r++) n++;
        int rows = n > 0 ? (n + 1) / 2 : 1;
        return 5 + (rows < 14 ? rows : 14);
    }
    default: return 12;
    }
}
