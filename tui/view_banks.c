/* view_banks.c — the bank view: one shared request, lanes per bank, distinct words per
 * bank = wavefronts (CUDA C++ Programming Guide §16.4.3 "Shared Memory", 32 banks of 4
 * bytes). */
#include <stdio.h>

#include "tui/view_common.h"

/* ------------------------------------------------------------------- banks */

void view_banks_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                     int w)
{
    (void)self;
    const trace_event *e = view_current_request(a, t);
    if (!e) {
        view_put(win, y, x, w, "the selected warp made no shared-memory request",
                 term_attr(TC_DIM));
        view_put(win, y + 1, x, w, "( ) selects another warp", term_attr(TC_DIM));
        return;
    }
    const uint64_t *ad = trace_event_addrs(t, e);
    view_request_heading(win, a, t, e, y, x, w);
    /* distinct 4-byte words per bank */
    uint64_t words[32][WARP];
    int nw[32] = {0};
    uint32_t lanes_of[32] = {0};
    unsigned width = e->width ? e->width : 4;
    for (int l = 0; l < WARP; l++) {
        if (!((e->mask >> l) & 1u))
            continue;
        for (unsigned off = 0; off < width; off += 4) {
            uint64_t wd = (ad[l] + off) / 4;
            int bk = (int)(wd % 32);
            lanes_of[bk] |= 1u << l;
            bool seen = false;
            for (int k = 0; k < nw[bk]; k++)
                seen |= words[bk][k] == wd;
            if (!seen && nw[bk] < WARP)
                words[bk][nw[bk]++] = wd;
        }
    }
    int maxd = 0;
    for (int k = 0; k < 32; k++)
        maxd = nw[k] > maxd ? nw[k] : maxd;
    unsigned groups = 0, wf = gl_request_wavefronts(ad, e->mask, e->width, &groups);
    int r = y + 2;
    char buf[256];
    if (wf <= groups)
        snprintf(buf, sizeof buf, "%u wavefront%s (ideal %u): no conflict", wf, wf == 1 ? "" : "s",
                 groups);
    else if (w >= 44)
        snprintf(buf, sizeof buf, "%u wavefronts (ideal %u): %d-way bank conflict", wf, groups,
                 maxd);
    else
        snprintf(buf, sizeof buf, "%u wavefronts, ideal %u: conflict", wf, groups);
    view_put(win, r++, x, w, buf, wf > groups ? term_attr(TC_BAD) : term_attr(TC_GOOD));
    int bx = w >= 38 ? 6 : w > 32 ? w - 32 : 0;
    if (bx >= 4)
        view_put(win, r, x, w, bx >= 6 ? "bank" : "bk", term_attr(TC_DIM));
    for (int k = 0; k < 32 && bx + k < w; k++) {
        char c[2] = {(char)('0' + k % 10), 0};
        view_put(win, r, x + bx + k, 1, c, k % 10 == 0 ? term_attr(TC_HEADING) : term_attr(TC_DIM));
    }
    r++;
    /* a row per word a bank must deliver (every wavefront shown), then the legend and the
     * conflicting banks where there is room: the legend goes first when rows are short */
    const int avail = y + h - r; /* rows left below the bank numbers */
    int bars = maxd <= avail - 1 ? maxd : avail - 1;
    if (bars < 1)
        bars = 1;
    const bool legend = avail >= bars + 2;
    for (int d = bars; d >= 1; d--, r++) {
        snprintf(buf, sizeof buf, "%3d", d);
        if (bx >= 4)
            view_put(win, r, x, 4, buf, term_attr(TC_DIM));
        for (int k = 0; k < 32 && bx + k < w; k++) {
            if (nw[k] >= d)
                view_glyph(win, r, x + bx + k, view_block_glyph(),
                           nw[k] > 1 ? term_attr(TC_BAD) : term_attr(TC_GOOD));
        }
    }
    if (legend)
        view_put(win, r++, x, w,
                 w >= 44 ? "(rows: distinct words a bank must deliver)"
                         : "(rows: words a bank delivers)",
                 term_attr(TC_DIM));
    /* the conflicting banks with their lanes */
    for (int k = 0; k < 32 && r < y + h; k++) {
        if (nw[k] <= 1)
            continue;
        int n = snprintf(buf, sizeof buf, "bank %2d: %d words, lanes", k, nw[k]);
        for (int l = 0; l < WARP && n < (int)sizeof buf - 8; l++)
            if ((lanes_of[k] >> l) & 1u)
                n += snprintf(buf + n, sizeof buf - (size_t)n, " %d", l);
        view_put(win, r++, x, w, buf, term_attr(TC_WARN));
    }
    /* per line: wavefronts per request (the effect of padding shows as 1.0) */
    const gl_metrics *m = a->run.metrics;
    for (int i = 0; m && i < m->nlines && r < y + h - 1; i++) {
        const gl_counts *c = &m->lines[i].c;
        /* every kind of shared request: ld/st, ldmatrix/stmatrix, cp.async's writes */
        uint64_t req = c->shld_requests + c->shst_requests + c->ldsm_requests + c->stsm_requests +
                       c->ldgsts_requests,
                 wv = gl_shared_wavefronts(c);
        if (!req || m->lines[i].src_line <= 0)
            continue;
        snprintf(buf, sizeof buf, "line %d: %.2f wavefronts/request", m->lines[i].src_line,
                 (double)wv / (double)req);
        view_put(win, r++, x, w, buf, wv > req ? term_attr(TC_WARN) : term_attr(TC_DIM));
    }
}

int view_banks_height(const app *a, int w)
{
    (void)a, (void)w;
    return 14;
}
