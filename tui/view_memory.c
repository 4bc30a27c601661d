/* view_memory.c — the memory view: one warp's global request (ld, st, atomics, cp.async's
 * read, a bulk copy's pieces), lane -> 32-byte sector -> 128-byte line, sectors per
 * request (the metric of trace/analysis.h, CUDA C++ Best Practices Guide §10.2.1
 * "Coalesced Access to Global Memory"), and the launch's sectors by kind of access. */
#include <inttypes.h>
#include <stdio.h>

#include "tui/view_common.h"

/* ------------------------------------------------------------------ memory */

void view_memory_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                      int w)
{
    (void)self;
    const trace_event *e = view_current_request(a, t);
    if (!e) {
        view_put(win, y, x, w, "the selected warp made no global memory request",
                 term_attr(TC_DIM));
        view_put(win, y + 1, x, w, "( ) selects another warp; 2 shows the warp timeline",
                 term_attr(TC_DIM));
        return;
    }
    const uint64_t *ad = trace_event_addrs(t, e);
    uint32_t b;
    unsigned sw, sl;
    tv_selected(a, &b, &sw, &sl);
    view_request_heading(win, a, t, e, y, x, w);
    /* distinct sectors in order of address */
    uint64_t sec[WARP * 2];
    int ns = 0;
    for (int l = 0; l < WARP; l++) {
        if (!((e->mask >> l) & 1u))
            continue;
        uint64_t lo = ad[l] / 32, hi = (ad[l] + (e->width ? e->width : 1) - 1) / 32;
        for (uint64_t s = lo; s <= hi && ns < WARP * 2; s++) {
            bool seen = false;
            for (int k = 0; k < ns; k++)
                seen |= sec[k] == s;
            if (!seen)
                sec[ns++] = s;
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
    int lx = w >= 44   ? view_put(win, r, x, w, "lane>sector ", PLAIN)
             : w >= 38 ? view_put(win, r, x, w, "lanes ", PLAIN)
                       : 0;
    for (int l = 0; l < WARP && lx + l < w; l++) {
        if (!((e->mask >> l) & 1u)) {
            view_glyph(win, r, x + lx + l, term_glyph()->dot, term_attr(TC_DIM));
            continue;
        }
        int k = 0;
        while (k < ns && sec[k] != ad[l] / 32)
            k++;
        char c[2] = {k < 10 ? (char)('0' + k) : k < 36 ? (char)('a' + k - 10) : '+', 0};
        int at = term_has_color() ? term_palette_attr(k % pal) : 0;
        if (l == (int)sl && e->block == b && e->warp == sw)
            at = term_attr(TC_MAPSEL);
        view_put(win, r, x + lx + l, 1, c, at);
    }
    r++;
    unsigned sectors = gl_request_sectors(ad, e->mask, e->width);
    unsigned bytes = (unsigned)view_popc(e->mask) * e->width;
    unsigned ideal = (bytes + 31) / 32;
    char buf[256];
    const char *verdict = sectors <= ideal       ? "coalesced"
                          : sectors <= ideal + 1 ? "one sector more than ideal (misaligned)"
                                                 : "not coalesced";
    if (w >= 56)
        snprintf(buf, sizeof buf, "%u sector%s for %u bytes (ideal %u): %s", sectors,
                 sectors == 1 ? "" : "s", bytes, ideal, verdict);
    else
        snprintf(buf, sizeof buf, "%u sector%s, ideal %u: %s", sectors, sectors == 1 ? "" : "s",
                 ideal,
                 sectors <= ideal       ? "coalesced"
                 : sectors <= ideal + 1 ? "misaligned"
                                        : "not coalesced");
    view_put(win, r++, x, w, buf,
             sectors <= ideal       ? term_attr(TC_GOOD)
             : sectors <= ideal + 1 ? term_attr(TC_WARN)
                                    : term_attr(TC_BAD));
    /* the selected thread's lane in this request (what the trace has for a thread) */
    if (e->block == b && e->warp == sw && r < y + h - 2 && !trace_event_is_bulk(t, e)) {
        if ((e->mask >> sl) & 1u) {
            char elem[96];
            if (e->space == TRACE_SPACE_GLOBAL && view_buffer_elem(a, ad[sl], elem, sizeof elem))
                snprintf(buf, sizeof buf, "lane %u %s %s: sector %" PRIu64 " of its line", sl,
                         e->op == TRACE_LOAD    ? "reads"
                         : e->op == TRACE_STORE ? "writes"
                                                : "updates",
                         elem, ad[sl] / 32 % 4);
            else
                snprintf(buf, sizeof buf, "lane %u @0x%" PRIx64 " sector %" PRIu64 " of its line",
                         sl, ad[sl], ad[sl] / 32 % 4);
        } else
            snprintf(buf, sizeof buf, "lane %u: inactive in this instruction", sl);
        view_put(win, r++, x, w, buf, term_attr(TC_MAPSEL));
    }
    /* one row per 128-byte line: its four sectors, with the lanes in each */
    const gl_metrics *m = a->run.metrics;
    const bool summary = m && m->level >= TRACE_MEMORY; /* a last row: the launch's sectors */
    int rows_left = h - (r - y) - (summary && h - (r - y) > 2);
    int nlines = 0;
    for (int i = 0; i < ns; i++)
        if (i == 0 || sec[i] / 4 != sec[i - 1] / 4)
            nlines++;
    snprintf(buf, sizeof buf, "%d line%s of 128 B:", nlines, nlines == 1 ? "" : "s");
    if (rows_left > 0)
        view_put(win, r++, x, w, buf, term_attr(TC_HEADING)), rows_left--;
    int shown = 0, avail = rows_left;
    for (int i = 0; i < ns && rows_left > 0;) {
        uint64_t line = sec[i] / 4;
        if (shown == avail - 1 && nlines - shown > 1) {
            snprintf(buf, sizeof buf, "... %d more lines", nlines - shown);
            view_put(win, r++, x, w, buf, term_attr(TC_DIM));
            break;
        }
        if (w >= 40)
            snprintf(buf, sizeof buf, "%09" PRIx64 " ", (uint64_t)(line * 128 & 0xfffffffffull));
        else
            snprintf(buf, sizeof buf, "%06" PRIx64 " ", (uint64_t)(line * 128 & 0xffffffull));
        int cx = view_put(win, r, x, w, buf, term_attr(TC_DIM));
        for (int s = 0; s < 4 && cx + 7 <= w; s++) {
            uint64_t sid = line * 4 + (uint64_t)s;
            int k = 0;
            while (k < ns && sec[k] != sid)
                k++;
            int lanes = 0;
            for (int l = 0; l < WARP; l++)
                if (((e->mask >> l) & 1u) && ad[l] / 32 == sid)
                    lanes++;
            if (k < ns)
                snprintf(buf, sizeof buf, "[%c:%2d]",
                         k < 10   ? '0' + k
                         : k < 36 ? 'a' + k - 10
                                  : '+',
                         lanes);
            else
                snprintf(buf, sizeof buf, "[    ]");
            cx += view_put(win, r, x + cx, w - cx, buf,
                           k < ns && term_has_color() ? term_palette_attr(k % pal)
                                                      : term_attr(TC_DIM));
            cx++;
        }
        r++, rows_left--, shown++;
        while (i < ns && sec[i] / 4 == line)
            i++;
    }
    /* the launch's global sectors by kind of access (its metrics: every request) */
    if (summary && r < y + h) {
        const gl_counts *c = &m->total;
        if (w >= 60)
            snprintf(buf, sizeof buf,
                     "launch: %" PRIu64 " sectors: ld %" PRIu64 " st %" PRIu64 " cp.async %" PRIu64
                     " atomic %" PRIu64 " bulk %" PRIu64 "%s",
                     gl_global_sectors(c), c->gld_sectors, c->gst_sectors, c->ldgsts_sectors,
                     c->global_atom_sectors + c->global_red_sectors,
                     c->bulk_ld_sectors + c->bulk_st_sectors, m->incomplete ? " (incomplete)" : "");
        else
            snprintf(buf, sizeof buf, "launch: %" PRIu64 " global sectors%s", gl_global_sectors(c),
                     m->incomplete ? " (incomplete)" : "");
        view_put(win, r, x, w, buf, term_attr(TC_DIM));
    }
}

/* Heading, lanes, verdict, selected lane, lines header, one row per line. */
int view_memory_height(const app *a, int w)
{
    (void)w;
    const trace_t *t = view_trace(a);
    const trace_event *e = t ? view_current_request(a, t) : NULL;
    int nlines = 0;
    if (e) {
        const uint64_t *ad = trace_event_addrs(t, e);
        uint64_t seen[WARP];
        for (int l = 0; l < WARP; l++) {
            if (!((e->mask >> l) & 1u))
                continue;
            bool dup = false;
            for (int k = 0; k < nlines; k++)
                dup |= seen[k] == ad[l] / 128;
            if (!dup)
                seen[nlines++] = ad[l] / 128;
        }
    }
    return 8 + (nlines > 1 ? nlines : 1); /* and the launch's sectors by kind */
}
