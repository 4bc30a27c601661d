/* view_warps.c — the warp timeline: one row per warp, one cell per warp instruction it
 * issued, in issue order, drawn by how many of the warp's 32 lanes were active (the
 * instruction's active mask, trace/trace.h TRACE_EV_ISSUE). A warp that diverges issues
 * both sides of a branch with part of its lanes each: more cells, thinner glyphs
 * (CUDA C++ Programming Guide §7.1 "SIMT Architecture"). The last warp of a block whose
 * size is not a multiple of 32 is partial: its missing lanes still take execution slots
 * ("Hardware Multithreading"), so it is drawn as partial and the legend says how many
 * lanes it has. Under the rows, the share of the 32 lanes active (Nsight Compute's
 * smsp__thread_inst_executed_per_inst_executed / 32), split into lanes idle because a
 * warp is partial and lanes idle because of divergence, and the same per source line.
 * Reads only the trace (and the metrics when the stored trace was cut). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analysis.h"
#include "trace/trace.h"
#include "tui/view_common.h"

static uint32_t tv_cur_block(const app *a)
{
    uint32_t b;
    unsigned w, l;
    tv_selected(a, &b, &w, &l);
    return b;
}

static unsigned tv_cur_warp(const app *a)
{
    uint32_t b;
    unsigned w, l;
    tv_selected(a, &b, &w, &l);
    return w;
}

/* Lanes that exist in warp w of a block of T threads. */
static int warp_lanes(uint64_t T, unsigned w)
{
    uint64_t first = (uint64_t)w * WARP;
    if (first >= T)
        return 0;
    return T - first >= WARP ? WARP : (int)(T - first);
}

/* Glyph and attribute for an instruction with `active` of the warp's 32 lanes. */
static void cell_style(int active, const char **glyph, int *attr)
{
    bool utf8 = view_utf8();
    const int lanes = WARP;
    if (active >= lanes)
        *glyph = utf8 ? "\u2588" : "#", *attr = term_attr(TC_GOOD);
    else if (active * 4 >= lanes * 3)
        *glyph = utf8 ? "\u2593" : "+", *attr = term_attr(TC_WARN);
    else if (active * 2 >= lanes)
        *glyph = utf8 ? "\u2592" : "=", *attr = term_attr(TC_WARN);
    else
        *glyph = utf8 ? "\u2591" : ".", *attr = term_attr(TC_BAD);
}

typedef struct line_eff {
    int line;
    double eff;
    uint64_t inst;
} line_eff;

static int eff_cmp(const void *x, const void *y)
{
    const line_eff *p = x, *q = y;
    if (p->eff != q->eff)
        return p->eff < q->eff ? -1 : 1;
    return p->line - q->line;
}

/* The warp timeline of the last run's trace. */
void view_warps_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                     int w)
{
    (void)self;
    if (h < 3 || w < 16)
        return;
    if (!t || t->nevents == 0 || a->run.backend != GL_BACKEND_SIM) {
        int r = view_put_wrap(win, y, x, w, h - 1,
                              !a->have_run ? "press r: the timeline shows what every warp issued"
                              : a->run.backend != GL_BACKEND_SIM
                                  ? "the GPU traces memory requests, not issues: S replays on the "
                                    "simulator"
                                  : "no trace of this run",
                              term_attr(TC_DIM));
        view_put(win, y + r, x, w, "w: back to the thread map", term_attr(TC_DIM));
        return;
    }
    uint64_t T = (uint64_t)t->block[0] * t->block[1] * t->block[2];
    uint64_t B = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
    unsigned wpb = t->nwarps_per_block ? t->nwarps_per_block : (unsigned)((T + WARP - 1) / WARP);
    uint64_t nwarps = B * wpb;

    /* legend */
    const char *g_full, *g_34, *g_12, *g_few;
    int at;
    cell_style(32, &g_full, &at);
    cell_style(24, &g_34, &at);
    cell_style(16, &g_12, &at);
    cell_style(1, &g_few, &at);
    char legend[256];
    int partial = (int)(T % WARP); /* lanes of each block's last warp, 0 if it is full */
    if (w >= 70)
        snprintf(legend, sizeof legend,
                 "one cell per warp instruction: %s all lanes %s >=3/4 %s >=1/2 %s fewer", g_full,
                 g_34, g_12, g_few);
    else if (w >= 40)
        snprintf(legend, sizeof legend, "lanes on: %s all %s 3/4 %s 1/2 %s less", g_full, g_34,
                 g_12, g_few);
    else
        snprintf(legend, sizeof legend, "lanes %s 32 %s 24+ %s 16+ %s fewer", g_full, g_34, g_12,
                 g_few);
    char title[160];
    if (a->tpos < t->nevents) /* stepping: where the cursor is */
        snprintf(title, sizeof title,
                 w >= 60 ? "after %llu warp instr. (event %zu of %zu): b%u w%u on line %d  . , step"
                         : "t=%llu ev %zu/%zu b%u w%u line %d  . ,",
                 (unsigned long long)(a->tpos ? t->events[a->tpos - 1].time : 0), a->tpos,
                 t->nevents, tv_cur_block(a), tv_cur_warp(a), tv_current_line(a));
    else if (partial) /* the partial warp, in words: its cells alone do not say why */
        snprintf(title, sizeof title,
                 w >= 50 ? "w%u of each block: %d of 32 lanes exist (a partial warp)"
                         : "w%u: %d of 32 lanes exist",
                 wpb - 1, partial);
    else
        snprintf(title, sizeof title, "%s",
                 w >= 50 ? "each warp's issued instructions, in order" : "warps x instructions");
    wattron(win, term_attr(TC_HEADING));
    mvwaddnstr(win, y, x, title, w);
    wattroff(win, term_attr(TC_HEADING));
    view_put(win, y + 1, x, w, legend, term_attr(TC_DIM));

    /* per-line efficiency under the rows: up to 5 lines, the least efficient first */
    /* From the trace: active lanes / lanes that exist in the warp, so that blocks
     * smaller than a warp are not counted as divergent. A cut trace falls back to the
     * metrics (streamed, exact; their definition divides by 32). */
    line_eff lines[64];
    int nl = 0;
    double kernel_eff = -1;
    const gl_metrics *m = a->run.metrics;
    int maxline = 0;
    for (int i = 0; i < t->ninsns; i++)
        if (t->insns[i].src_line > maxline)
            maxline = t->insns[i].src_line;
    uint64_t *act = (!t->truncated && maxline > 0 && maxline < 100000)
                        ? calloc((size_t)maxline + 1, 3 * sizeof *act)
                        : NULL;
    double idle_partial = -1, idle_divergent = -1;
    if (act) {
        uint64_t ta = 0, tl = 0, t32 = 0;
        for (size_t i = 0; i < t->nevents; i++) {
            const trace_event *ev = &t->events[i];
            if (ev->kind != TRACE_EV_ISSUE || ev->pc < 0 || ev->pc >= t->ninsns)
                continue;
            int ln = t->insns[ev->pc].src_line;
            int on = view_popc(ev->mask), lanes = warp_lanes(T, ev->warp);
            ta += (uint64_t)on, tl += (uint64_t)lanes, t32 += WARP;
            if (ln <= 0)
                continue;
            act[3 * (size_t)ln] += (uint64_t)on;
            act[3 * (size_t)ln + 1] += WARP;
            act[3 * (size_t)ln + 2]++;
        }
        kernel_eff = t32 ? (double)ta / (double)t32 : 1.0;
        idle_partial = t32 ? (double)(t32 - tl) / (double)t32 : 0.0;
        idle_divergent = t32 ? (double)(tl - ta) / (double)t32 : 0.0;
        for (int ln = 1; ln <= maxline && nl < 64; ln++)
            if (act[3 * (size_t)ln + 2])
                lines[nl++] =
                    (line_eff){ln, (double)act[3 * (size_t)ln] / (double)act[3 * (size_t)ln + 1],
                               act[3 * (size_t)ln + 2]};
        free(act);
    } else {
        for (int i = 0; m && i < m->nlines && nl < 64; i++) {
            const gl_line_counts *lc = &m->lines[i];
            if (lc->src_line <= 0 || lc->c.inst_executed == 0)
                continue;
            lines[nl++] =
                (line_eff){lc->src_line, gl_warp_execution_efficiency(&lc->c), lc->c.inst_executed};
        }
        if (m)
            kernel_eff = gl_warp_execution_efficiency(&m->total);
    }
    qsort(lines, (size_t)nl, sizeof lines[0], eff_cmp);
    /* rows: the warps first (the picture), at least half of them or 4; then a note for
     * warps not shown and a cut trace; the per-line table gets what is left (the source
     * pane's gutter gives the same shares), and what it does not take goes to the warps */
    const int avail = h - 2;
    const int eff_want = nl == 0 ? 0 : (nl < 5 ? nl : 5) + 2; /* its heading may take 2 */
    int rows = nwarps < (uint64_t)avail ? (int)nwarps : avail;
    if (rows > (avail / 2 > 4 ? avail / 2 : 4))
        rows = avail / 2 > 4 ? avail / 2 : 4;
    if (rows > avail)
        rows = avail;
    const int notes = (t->truncated ? 1 : 0) + (nwarps > (uint64_t)rows ? 1 : 0);
    int rest = avail - rows - notes;
    if (rest < 0)
        rows += rest, rest = 0;
    if (rows < 1)
        rows = 1;
    int eff_rows = rest >= 3 ? (rest < eff_want ? rest : eff_want) : 0;
    rest -= eff_rows;
    if (rest > 0 && nwarps > (uint64_t)rows) /* more warps where the table did not need it */
        rows += (uint64_t)rest < nwarps - (uint64_t)rows ? rest : (int)(nwarps - (uint64_t)rows);

    /* which warps: from the selected thread's warp when there is a selection */
    uint64_t first = 0;
    if (a->sel_on && a->have_spec) {
        const gl_spec *s = &a->spec;
        uint64_t lb = a->sel_block[0] + (uint64_t)a->sel_block[1] * s->grid[0] +
                      (uint64_t)a->sel_block[2] * s->grid[0] * s->grid[1];
        uint64_t lt = a->sel_thread[0] + (uint64_t)a->sel_thread[1] * s->block[0] +
                      (uint64_t)a->sel_thread[2] * s->block[0] * s->block[1];
        uint64_t sel = lb * wpb + lt / WARP;
        if (sel >= (uint64_t)rows)
            first = sel - (uint64_t)rows / 2;
    }
    if (first + (uint64_t)rows > nwarps)
        first = nwarps > (uint64_t)rows ? nwarps - (uint64_t)rows : 0;
    uint64_t shown = nwarps - first < (uint64_t)rows ? nwarps - first : (uint64_t)rows;

    char label[32];
    snprintf(label, sizeof label, "b%llu w%u ", (unsigned long long)(B - 1), wpb - 1);
    int lw = (int)strlen(label);
    int cols = w - lw - 8; /* room for "+N" at the end */
    if (cols < 4)
        cols = 4;
    uint64_t *count = calloc(shown ? shown : 1, sizeof *count);
    if (!count)
        return;
    for (uint64_t r = 0; r < shown; r++) {
        uint64_t gw = first + r;
        unsigned b = (unsigned)(gw / wpb), wi = (unsigned)(gw % wpb);
        bool sel = false;
        if (a->sel_on && a->have_spec) {
            const gl_spec *s = &a->spec;
            uint64_t lb = a->sel_block[0] + (uint64_t)a->sel_block[1] * s->grid[0] +
                          (uint64_t)a->sel_block[2] * s->grid[0] * s->grid[1];
            uint64_t lt = a->sel_thread[0] + (uint64_t)a->sel_thread[1] * s->block[0] +
                          (uint64_t)a->sel_thread[2] * s->block[0] * s->block[1];
            sel = lb == b && lt / WARP == wi;
        }
        snprintf(label, sizeof label, "b%u w%u", b, wi);
        int la = sel ? term_attr(TC_MAPSEL) : term_attr(TC_DIM);
        wattron(win, la);
        mvwaddnstr(win, y + 2 + (int)r, x, label, lw);
        wattroff(win, la);
    }
    /* time travel: instructions after the cursor (a->tpos) are dim, the selected
     * warp's last one before it is reversed */
    uint32_t sb;
    unsigned swp, sln;
    tv_selected(a, &sb, &swp, &sln);
    size_t cur = SIZE_MAX;
    for (size_t i = a->tpos < t->nevents ? a->tpos : t->nevents; i > 0 && a->tpos < t->nevents; i--)
        if (t->events[i - 1].kind == TRACE_EV_ISSUE && t->events[i - 1].block == sb &&
            t->events[i - 1].warp == swp) {
            cur = i - 1;
            break;
        }
    /* one pass over the events: each ISSUE event of a shown warp is its next cell */
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *ev = &t->events[i];
        if (ev->kind != TRACE_EV_ISSUE)
            continue;
        uint64_t gw = (uint64_t)ev->block * wpb + ev->warp;
        if (gw < first || gw >= first + shown)
            continue;
        uint64_t r = gw - first;
        if (count[r] < (uint64_t)cols) {
            const char *glyph;
            int attr;
            cell_style(view_popc(ev->mask), &glyph, &attr);
            if (i >= a->tpos)
                attr = term_attr(TC_DIM);
            else if (i == cur)
                attr |= A_REVERSE;
            wattron(win, attr);
            mvwaddstr(win, y + 2 + (int)r, x + lw + (int)count[r], glyph);
            wattroff(win, attr);
        }
        count[r]++;
    }
    for (uint64_t r = 0; r < shown; r++) {
        char more[32];
        if (count[r] > (uint64_t)cols)
            snprintf(more, sizeof more, " +%llu", (unsigned long long)(count[r] - (uint64_t)cols));
        else
            snprintf(more, sizeof more, " %llu", (unsigned long long)count[r]);
        wattron(win, term_attr(TC_DIM));
        mvwaddnstr(win, y + 2 + (int)r,
                   x + lw + (int)(count[r] < (uint64_t)cols ? count[r] : (uint64_t)cols), more, 8);
        wattroff(win, term_attr(TC_DIM));
    }
    free(count);
    int ny = y + 2 + (int)shown; /* the notes under the rows */
    if (nwarps > shown && ny < y + h - eff_rows) {
        char more[160];
        snprintf(
            more, sizeof more, "%s %llu of %llu warps shown from b%llu w%llu; ( ) select others",
            view_utf8() ? "\u22ee" : ":", (unsigned long long)shown, (unsigned long long)nwarps,
            (unsigned long long)(first / wpb), (unsigned long long)(first % wpb));
        view_put(win, ny++, x, w, more, term_attr(TC_DIM));
    }
    if (t->truncated && ny < y + h - eff_rows)
        view_put(win, ny, x, w, "trace cut: the cells show its first events only",
                 term_attr(TC_WARN));
    /* warp execution efficiency (active lanes) per line */
    if (eff_rows > 0) {
        int ey = y + h - eff_rows;
        char head[128], head2[96] = "";
        if (idle_partial > 0.0005) {
            int n = snprintf(head, sizeof head,
                             "active lanes: kernel %.0f%% of 32 (idle: %.0f%% partial warps, "
                             "%.0f%% divergence); per line:",
                             kernel_eff >= 0 ? 100.0 * kernel_eff : 0.0, 100.0 * idle_partial,
                             100.0 * idle_divergent);
            if (n > w) { /* two lines: the numbers matter more than the words */
                snprintf(head, sizeof head, "active lanes: kernel %.0f%% of 32",
                         kernel_eff >= 0 ? 100.0 * kernel_eff : 0.0);
                snprintf(head2, sizeof head2,
                         w >= 44 ? "idle: %.0f%% partial warps, %.0f%% divergence"
                                 : "idle: %.0f%% partial, %.0f%% divergent",
                         100.0 * idle_partial, 100.0 * idle_divergent);
            }
        } else {
            int n =
                snprintf(head, sizeof head, "active lanes: kernel %.0f%%; per line, lowest first:",
                         kernel_eff >= 0 ? 100.0 * kernel_eff : 0.0);
            if (n > w && eff_rows > 2) { /* two lines, not a cut one */
                snprintf(head, sizeof head, "active lanes: kernel %.0f%%",
                         kernel_eff >= 0 ? 100.0 * kernel_eff : 0.0);
                snprintf(head2, sizeof head2, "per line, lowest first:");
            }
        }
        wattron(win, term_attr(TC_HEADING));
        mvwaddnstr(win, ey, x, head, w);
        if (head2[0] && eff_rows > 1)
            mvwaddnstr(win, ++ey, x, head2, w), eff_rows--;
        wattroff(win, term_attr(TC_HEADING));
        for (int i = 0; i < nl && i < eff_rows - 1; i++) {
            char row[512];
            snprintf(row, sizeof row, "line %3d %4.0f%%  %s", lines[i].line, 100.0 * lines[i].eff,
                     view_src_text(a, lines[i].line));
            int ra = lines[i].eff >= 0.999 ? 0
                     : lines[i].eff >= 0.5 ? term_attr(TC_WARN)
                                           : term_attr(TC_BAD);
            wattron(win, ra);
            mvwaddnstr(win, ey + 1 + i, x, row, w);
            wattroff(win, ra);
        }
    }
}

int view_warps_height(const app *a, int w)
{
    (void)w;
    const trace_t *t = view_trace(a);
    if (!t)
        return 4;
    uint64_t T = (uint64_t)t->block[0] * t->block[1] * t->block[2];
    uint64_t B = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
    uint64_t nw = B * ((T + WARP - 1) / WARP);
    int lines = a->run.metrics ? (a->run.metrics->nlines < 5 ? a->run.metrics->nlines : 5) + 1 : 0;
    return 2 + (nw > 24 ? 24 : (int)nw) + lines;
}

int warps_line_active(const app *a, double *out, int nlines)
{
    for (int i = 0; i < nlines; i++)
        out[i] = -1;
    const trace_t *t = view_trace(a);
    if (!t || t->truncated || nlines <= 0)
        return 0;
    uint64_t *acc = calloc((size_t)nlines, 2 * sizeof *acc);
    if (!acc)
        return 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *ev = &t->events[i];
        if (ev->kind != TRACE_EV_ISSUE || ev->pc < 0 || ev->pc >= t->ninsns)
            continue;
        int ln = t->insns[ev->pc].src_line;
        if (ln <= 0 || ln > nlines)
            continue;
        acc[2 * (size_t)(ln - 1)] += (uint64_t)view_popc(ev->mask);
        acc[2 * (size_t)(ln - 1) + 1] += WARP;
    }
    int n = 0;
    for (int i = 0; i < nlines; i++)
        if (acc[2 * (size_t)i + 1])
            out[i] = (double)acc[2 * (size_t)i] / (double)acc[2 * (size_t)i + 1], n++;
    free(acc);
    return n;
}
