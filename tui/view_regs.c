/* view_regs.c — the registers view: the selected thread's PTX registers at the
 * cursor (TRACE_EV_REG events), those its warp's last instruction wrote highlighted
 * with their old values. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/view_common.h"

/* --------------------------------------------------------------- registers */

/* A register value as PTX declares it: pred true/false, floats %g, integers in
 * decimal (32-bit ones with the top bit set as negative), 64-bit values past 2^32
 * (addresses) in hex. */
static void fmt_reg(char *buf, size_t n, const trace_reg *r, uint64_t v)
{
    if (r->size < 8)
        v &= (UINT64_C(1) << (r->size * 8)) - 1;
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
        int64_t sv = r->size < 8 && (v >> (r->size * 8 - 1)) & 1
                         ? (int64_t)(v - (UINT64_C(1) << (r->size * 8)))
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
static int shfl_picture(WINDOW *win, const trace_t *t, const trace_event *s, unsigned sel, int y,
                        int x, int h, int w)
{
    const uint64_t *v = trace_event_values(t, s);
    int delta = 0, xr = 0, bcast = -1;
    bool is_delta = true, is_xor = true, is_bcast = true, first = true;
    uint32_t kept = 0;
    for (unsigned l = 0; l < WARP; l++) {
        if (!((s->mask >> l) & 1u))
            continue;
        if (v[l] >= 32) {
            kept |= 1u << l;
            continue;
        }
        const int src = (int)v[l];
        if (first)
            delta = src - (int)l, xr = src ^ (int)l, bcast = src, first = false;
        is_delta &= src - (int)l == delta;
        is_xor &= (src ^ (int)l) == xr;
        is_bcast &= src == bcast;
    }
    char buf[200];
    int r = 0;
    const bool nw = w < 40; /* narrow: shorter words, whole lines */
    if (first)
        snprintf(buf, sizeof buf, "shuffle: every lane kept its own value");
    else if (is_bcast && view_popc(s->mask & ~kept) > 1)
        snprintf(buf, sizeof buf,
                 nw ? "shfl: all read lane %d" : "shuffle: every lane reads lane %d", bcast);
    else if (is_delta && delta > 0)
        snprintf(buf, sizeof buf,
                 nw ? "shfl: l reads l + %d (down)" : "shuffle: lane l reads lane l + %d (down)",
                 delta);
    else if (is_delta && delta < 0)
        snprintf(buf, sizeof buf,
                 nw ? "shfl: l reads l - %d (up)" : "shuffle: lane l reads lane l - %d (up)",
                 -delta);
    else if (is_xor && xr)
        snprintf(buf, sizeof buf,
                 nw ? "shfl: l reads l xor %d" : "shuffle: lane l reads lane l xor %d (butterfly)",
                 xr);
    else
        snprintf(buf, sizeof buf,
                 nw ? "shfl: lanes read other lanes"
                    : "shuffle: each lane reads the lane shown below it");
    if (r < h)
        view_put(win, y + r++, x, w, buf, term_attr(TC_HEADING));
    if (kept && r < h) {
        int lo = __builtin_ctz(kept), hi = 31 - __builtin_clz(kept);
        if (view_popc(kept) == hi - lo + 1)
            snprintf(buf, sizeof buf,
                     nw ? "lanes %d-%d keep their value"
                        : "lanes %d-%d: out of range, keep their own value",
                     lo, hi);
        else
            snprintf(buf, sizeof buf,
                     nw ? "%d lanes keep their value"
                        : "%d lanes out of range keep their own value (=)",
                     view_popc(kept));
        view_put(win, y + r++, x, w, buf, term_attr(TC_DIM));
    }
    if (r < h && w >= WARP + 6) { /* the sources, one cell per lane */
        view_put(win, y + r, x, 6, "from ", term_attr(TC_DIM));
        for (unsigned l = 0; l < WARP; l++) {
            char c[4];
            int at = l == sel ? term_attr(TC_MAPSEL) : PLAIN;
            if (!((s->mask >> l) & 1u))
                snprintf(c, sizeof c, "%s", term_glyph()->dot), at = term_attr(TC_DIM);
            else if (v[l] >= 32)
                snprintf(c, sizeof c, "=");
            else
                snprintf(c, sizeof c, "%d", (int)(v[l] % 10));
            view_glyph(win, y + r, x + 6 + (int)l, c, at);
        }
        r++;
    }
    if (r < h && ((s->mask >> sel) & 1u)) {
        if (v[sel] >= 32)
            snprintf(buf, sizeof buf, "lane %u kept its own value", sel);
        else
            snprintf(buf, sizeof buf, "lane %u read lane %d", sel, (int)v[sel]);
        view_put(win, y + r++, x, w, buf, term_attr(TC_MAPSEL));
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
    const int n = view_popc(voted), k = view_popc(yes);
    char head[80], rule[80], buf[200];
    const char *fn = v->barrier == TRACE_VOTE_ANY   ? "__any_sync"
                     : v->barrier == TRACE_VOTE_ALL ? "__all_sync"
                                                    : "__uni_sync";
    int got;
    switch (v->barrier) {
    case TRACE_VOTE_ANY:
        got = k > 0, snprintf(rule, sizeof rule, "%s", got ? "some did" : "none did");
        break;
    case TRACE_VOTE_ALL:
        got = k == n, snprintf(rule, sizeof rule, "%s", got ? "all did" : "not all did");
        break;
    default:
        got = k == 0 || k == n,
        snprintf(rule, sizeof rule, "%s", got ? "all the same" : "votes differ");
        break;
    }
    if (v->barrier == TRACE_VOTE_BALLOT) {
        snprintf(head, sizeof head,
                 w >= 44 ? "ballot: %d lanes voted true (0x%08x)" : "ballot: %d true (0x%08x)", k,
                 yes);
        rule[0] = 0;
    } else {
        snprintf(head, sizeof head, "%s: %d of %d voted true", fn, k, n);
        const size_t len = strlen(rule);
        snprintf(rule + len, sizeof rule - len, " -> every lane gets %d", got);
    }
    int row = 0;
    if (h <= 0)
        return 0;
    snprintf(buf, sizeof buf, "%s: %s", head, rule);
    if (rule[0] && (int)strlen(buf) <= w) {
        view_put(win, y + row++, x, w, buf, term_attr(TC_HEADING));
    } else { /* narrow: the rule on a line of its own */
        view_put(win, y + row++, x, w, head, term_attr(TC_HEADING));
        if (rule[0] && row < h)
            view_put(win, y + row++, x, w, rule, term_attr(TC_HEADING));
    }
    if (row < h && w >= WARP) { /* lane 0 first, with a label where it fits */
        const int lx = w >= WARP + 6 ? 6 : 0;
        if (lx)
            view_put(win, y + row, x, 6, "lanes ", term_attr(TC_DIM));
        for (unsigned j = 0; j < WARP; j++) {
            const bool in = (voted >> j) & 1u, t = (yes >> j) & 1u;
            view_glyph(win, y + row, x + lx + (int)j,
                       !in ? "."
                       : t ? "1"
                           : "0",
                       j == l ? term_attr(TC_MAPSEL)
                       : t    ? term_attr(TC_GOOD)
                              : term_attr(TC_DIM));
        }
        row++;
    }
    return row;
}

/* The source variable register r holds after the instruction at pc ran (DWARF ranges
 * say where a variable is before an instruction: the next one's, pc + 1, first; then
 * pc's own), or NULL: a compiler temporary, or no debug build. */
/* The last event of `kind` (a shuffle's or a vote's picture) that warp wp of block b
 * recorded after its issue event at index issue, before its next issue (looked for in the
 * next 7 events), or NULL. */
static const trace_event *issue_event(const trace_t *t, size_t issue, uint32_t b, unsigned wp,
                                      trace_kind kind)
{
    const trace_event *found = NULL;
    for (size_t i = issue + 1; i < t->nevents && i < issue + 8; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b || e->warp != wp)
            continue;
        if (e->kind == TRACE_EV_ISSUE)
            break;
        if (e->kind == kind)
            found = e;
    }
    return found;
}

static const trace_var *var_of(const trace_t *t, int r, int32_t pc)
{
    if (pc < 0)
        return NULL;
    for (int pass = 0; pass < 2; pass++) {
        const int32_t at = pass == 0 ? pc + 1 : pc;
        for (int i = 0; i < t->nvars; i++)
            if (t->vars[i].reg == r && t->vars[i].pc_lo <= at && at < t->vars[i].pc_hi)
                return &t->vars[i];
    }
    return NULL;
}

/* Whether the identifier `name` occurs in the source line s (as a whole word). */
static bool line_mentions(const char *s, const char *name)
{
    const size_t n = strlen(name);
    if (!n)
        return false;
    for (const char *p = strstr(s, name); p; p = strstr(p + 1, name)) {
        const bool before =
            p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        const bool after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return true;
    }
    return false;
}

void view_regs_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                    int w)
{
    (void)self;
    uint32_t b;
    unsigned wp, l;
    tv_selected(a, &b, &wp, &l);
    char buf[300];
    if (!t->regs || t->nregs == 0) {
        view_put(win, y, x, w, "no register values in this trace", term_attr(TC_DIM));
        view_put(win, y + 1, x, w,
                 "the simulator records them (the GPU cannot): run with the simulator back end",
                 term_attr(TC_DIM));
        return;
    }
    int nr = t->nregs;
    uint64_t *val = calloc((size_t)nr, sizeof *val), *old = calloc((size_t)nr, sizeof *old);
    unsigned char *st =
        calloc((size_t)nr, 1); /* bit 0 ever written, 1 written by now, 2 just now, 3 had old */
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
        if (e->block != b || e->warp != wp)
            continue;
        if (e->kind == TRACE_EV_ISSUE && i < end) {
            last_issue = i;
            lane_ran = (e->aux >> l) & 1u;
            for (int r = 0; r < nr; r++)
                st[r] &= (unsigned char)~4u;
        }
        if (e->kind != TRACE_EV_REG || !((e->mask >> l) & 1u) || e->barrier >= nr)
            continue;
        st[e->barrier] |= 1;
        if (i >= end)
            continue;
        if (st[e->barrier] & 2)
            old[e->barrier] = val[e->barrier], st[e->barrier] |= 8;
        else
            st[e->barrier] &= (unsigned char)~8u;
        val[e->barrier] = trace_event_values(t, e)[l];
        st[e->barrier] |= 2 | 4;
    }
    /* heading: the thread and the instruction its warp issued last */
    const gl_spec *sp = &a->spec;
    unsigned lt = wp * WARP + l, tx = lt % sp->block[0], ty = lt / sp->block[0] % sp->block[1],
             tz = lt / (sp->block[0] * sp->block[1]);
    unsigned bx = b % sp->grid[0], by = b / sp->grid[0] % sp->grid[1],
             bz = b / (sp->grid[0] * sp->grid[1]);
    if (w >= 56)
        snprintf(buf, sizeof buf, "thread (%u,%u,%u) of block (%u,%u,%u): warp %u lane %u", tx, ty,
                 tz, bx, by, bz, wp, l);
    else
        snprintf(buf, sizeof buf, "t(%u,%u,%u) b(%u,%u,%u) w%u lane %u", tx, ty, tz, bx, by, bz, wp,
                 l);
    view_put(win, y, x, w, buf, term_attr(TC_HEADING));
    int row = y + 1;
    if (last_issue == SIZE_MAX) {
        view_put(win, row++, x, w,
                 pos == 0 ? "nothing ran yet (. steps)" : "its warp has issued nothing yet",
                 term_attr(TC_DIM));
    } else {
        const trace_event *e = &t->events[last_issue];
        int line = view_line_of_pc(t, e->pc);
        const char *mn = e->pc >= 0 && e->pc < t->ninsns ? t->insns[e->pc].mnemonic : "?";
        if (!((e->mask >> l) & 1u))
            snprintf(buf, sizeof buf, "line %d %s: lane inactive (on another path)", line, mn);
        else if (!lane_ran)
            snprintf(buf, sizeof buf, "line %d %s: guard false, lane skipped", line, mn);
        else
            snprintf(buf, sizeof buf, "line %d %s: %s", line, mn, view_src_text(a, line));
        view_put(win, row++, x, w, buf, lane_ran ? PLAIN : term_attr(TC_WARN));
    }
    const int32_t cur_pc = last_issue != SIZE_MAX ? t->events[last_issue].pc : -1;
    /* the source line's variables and their values (a debug build's names, N) */
    if (row < y + h && cur_pc >= 0 && t->nvars > 0) {
        const char *line = view_src_text(a, view_line_of_pc(t, cur_pc));
        int n = snprintf(buf, sizeof buf, "on this line:");
        bool any = false;
        for (int r = 0; r < nr && n < (int)sizeof buf - 80; r++) {
            const trace_var *v = var_of(t, r, cur_pc);
            if (!v || !(st[r] & 2) || !line_mentions(line, v->name))
                continue;
            char val_s[40];
            fmt_reg(val_s, sizeof val_s, &t->regs[r], val[r]);
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s %s = %s", any ? "," : "", v->name,
                          val_s);
            any = true;
        }
        if (any)
            view_put(win, row++, x, w, buf, term_attr(TC_HEADING));
    }
    /* what the last instruction changed, with the old values */
    if (row < y + h && last_issue != SIZE_MAX && lane_ran) {
        int n = snprintf(buf, sizeof buf, "wrote:");
        bool any = false;
        for (int r = 0; r < nr && n < (int)sizeof buf - 60; r++) {
            if (!(st[r] & 4))
                continue;
            char v[40], o[40];
            fmt_reg(v, sizeof v, &t->regs[r], val[r]);
            if (st[r] & 8)
                fmt_reg(o, sizeof o, &t->regs[r], old[r]);
            const trace_var *sv = var_of(t, r, cur_pc);
            char nm[80];
            if (sv)
                snprintf(nm, sizeof nm, "%s (%s)", sv->name, t->regs[r].name);
            else
                snprintf(nm, sizeof nm, "%s", t->regs[r].name);
            n += snprintf(buf + n, sizeof buf - (size_t)n, " %s = %s%s%s%s", nm, v,
                          st[r] & 8 ? " (was " : "", st[r] & 8 ? o : "", st[r] & 8 ? ")" : "");
            any = true;
        }
        if (!any)
            snprintf(buf + n, sizeof buf - (size_t)n, " no register (a store, branch or barrier)");
        view_put(win, row++, x, w, buf, term_attr(TC_GOOD));
    }
    /* a shuffle: which lane each lane read (the picture of shfl.sync) */
    if (last_issue != SIZE_MAX && row + 2 < y + h) {
        const trace_event *s = issue_event(t, last_issue, b, wp, TRACE_EV_SHFL);
        if (s)
            row += shfl_picture(win, t, s, l, row, x, y + h - row, w);
    }
    /* a vote (__all_sync, __any_sync, __uni_sync, __ballot_sync): how each lane voted and
     * what every lane got */
    if (last_issue != SIZE_MAX && row + 1 < y + h) {
        const trace_event *v = issue_event(t, last_issue, b, wp, TRACE_EV_VOTE);
        if (v)
            row += vote_picture(win, v, l, row, x, y + h - row, w);
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
        if (!(st[r] & 1))
            continue;
        total++;
        const trace_var *sv = var_of(t, r, cur_pc);
        if (sv)
            snprintf(label[r], sizeof label[r], "%.20s %s", sv->name, t->regs[r].name);
        else
            snprintf(label[r], sizeof label[r], "%s", t->regs[r].name);
        int len = (int)strlen(label[r]);
        if (t->regs[r].cls != TRACE_REG_PRED && len > namew)
            namew = len < (sv ? 24 : 16) ? len : (sv ? 24 : 16);
    }
    const char *unset = view_utf8() ? "\u00b7" : ".";
    for (int r = 0; r < nr && row < y + h; r++) {
        if (!(st[r] & 1) || t->regs[r].cls != TRACE_REG_PRED)
            continue;
        bool now = (st[r] & 4) != 0 && lane_ran;
        snprintf(buf, sizeof buf, "%s%s %s", now ? ">" : " ", label[r],
                 !(st[r] & 2)   ? unset
                 : (val[r] & 1) ? "T"
                                : "F");
        int len = (int)strlen(label[r]) + 3;
        if (cx > x && cx + len > x + w)
            cx = x, row++;
        if (row >= y + h)
            break;
        view_put(win, row, cx, x + w - cx, buf,
                 now           ? (int)(term_attr(TC_GOOD) | A_BOLD)
                 : (st[r] & 2) ? PLAIN
                               : (int)term_attr(TC_DIM));
        cx += len + 1;
        shown++;
    }
    if (cx > x)
        row++;
    int cellw = namew + 16, cols = (w + 1) / (cellw + 1) > 0 ? (w + 1) / (cellw + 1) : 1, k = 0;
    for (int r = 0; r < nr && row < y + h; r++) {
        if (!(st[r] & 1) || t->regs[r].cls == TRACE_REG_PRED)
            continue;
        const trace_reg *R = &t->regs[r];
        char v[40];
        if (st[r] & 2)
            fmt_reg(v, sizeof v, R, val[r]);
        else
            snprintf(v, sizeof v, "%s", unset);
        bool now = (st[r] & 4) != 0 && lane_ran;
        int attr = now           ? (int)(term_attr(TC_GOOD) | A_BOLD)
                   : (st[r] & 2) ? PLAIN
                                 : (int)term_attr(TC_DIM);
        snprintf(buf, sizeof buf, "%s%-*.*s %s", now ? ">" : " ", namew, namew, label[r], v);
        view_put(win, row, x + (k % cols) * (cellw + 1), cellw, buf, attr);
        shown++;
        if (++k % cols == 0)
            row++;
    }
    if (k % cols)
        row++;
    if (row < y + h && shown < total) {
        snprintf(buf, sizeof buf, "(%d more registers: a taller terminal shows them)",
                 total - shown);
        view_put(win, row++, x, w, buf, term_attr(TC_DIM));
    }
    if (row < y + h && total == 0)
        view_put(win, row++, x, w, "this thread wrote no register in the trace", term_attr(TC_DIM));
    if (row < y + h && a->run_names)
        view_put(
            win, row++, x, w,
            t->nvars
                ? (w >= 60
                       ? "N: names from the debug build (-G), its code as written, not optimised"
                       : "N: names from the debug build (-G)")
            : w >= 60
                ? "N: this compiler recorded no variable locations (clang keeps locals in memory)"
                : "N: the compiler recorded no variable locations",
            term_attr(TC_DIM));
    else if (row < y + h)
        view_put(win, row++, x, w,
                 w >= 50 ? "N: source variable names (runs the debug build, -G)"
                         : "N: source variable names (-G)",
                 term_attr(TC_DIM));
    free(label);
    free(val), free(old), free(st);
}

/* Heading, instruction, two columns of registers, "wrote:", time line. */
int view_regs_height(const app *a, int w)
{
    (void)w;
    const trace_t *t = view_trace(a);
    int n = 0;
    for (int r = 0; t && r < t->nregs; r++)
        n++;
    int rows = n > 0 ? (n + 1) / 2 : 1;
    return 5 + (rows < 14 ? rows : 14);
}
