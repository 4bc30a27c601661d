/* view_fragments.c — the fragment view (key F): for the selected warp's tensor-core
 * instruction at the cursor (mma.sync, wmma, ldmatrix, stmatrix, movmatrix; PTX ISA
 * §9.7.14), one matrix (A, B, C or D: M cycles) as a grid whose cells show the lane that
 * holds each element, coloured by lane group (groupID = lane / 4), the selected lane's
 * cells highlighted (one character a lane, 0-9 a-v, where it is narrow); where there is room, its registers' values and the values grid.
 * The layouts come from runtime/fragments.h (the simulator's own). t / T step to the
 * warp's next / previous tensor-core instruction. */
#include <stdio.h>
#include <string.h>

#include "runtime/fragments.h"
#include "tui/view_common.h"

/* The colour of lane group g (0 ... 7). */
static int group_attr(int g)
{
    static const int pal[8] = {TC_CODE_KW,     TC_CODE_TYPE, TC_CODE_BUILTIN, TC_CODE_NUMBER,
                               TC_CODE_STRING, TC_GOOD,      TC_WARN,         TC_HEADING};
    return (int)term_attr(pal[g & 7]);
}

/* The selected warp's tensor-core issue event at cursor pos: its last one before pos, else its first after; SIZE_MAX when it issued none. */
static size_t current_issue(const app *a, const trace_t *t, size_t pos)
{
    uint32_t b;
    unsigned w, l;
    tv_selected(a, &b, &w, &l);
    size_t last = SIZE_MAX;
    if (pos > t->nevents)
        pos = t->nevents;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_ISSUE || e->block != b || e->warp != w || e->pc < 0 ||
            e->pc >= t->ninsns || !gl_fragments_is_tensor(&t->insns[e->pc]))
            continue;
        if (i >= pos)
            return last != SIZE_MAX ? last : i;
        last = i;
    }
    return last;
}

size_t tv_tensor_pos(const app *a, int dir, bool *moved)
{
    const trace_t *t = view_trace(a);
    *moved = false;
    if (!t)
        return a->tpos;
    uint32_t b;
    unsigned w, l;
    tv_selected(a, &b, &w, &l);
    const size_t cur = current_issue(a, t, a->tpos);
    if (cur == SIZE_MAX)
        return a->tpos;
    /* at the cursor's own instruction when the cursor is before the first one */
    if (dir > 0 && a->tpos <= cur) {
        *moved = true;
        return cur + 1;
    }
    for (size_t i = cur; dir > 0 ? i + 1 < t->nevents : i > 0;) {
        i = dir > 0 ? i + 1 : i - 1;
        const trace_event *e = &t->events[i];
        if (e->kind == TRACE_EV_ISSUE && e->block == b && e->warp == w && e->pc >= 0 &&
            e->pc < t->ninsns && gl_fragments_is_tensor(&t->insns[e->pc])) {
            *moved = true;
            return i + 1;
        }
    }
    return a->tpos;
}

size_t tv_tensor_first(const app *a)
{
    const trace_t *t = view_trace(a);
    if (!t)
        return 0;
    const size_t i = current_issue(a, t, 0);
    return i == SIZE_MAX ? t->nevents : i + 1;
}

/* The grid of matrix mt from (y, x), at most h rows and w columns: a header of column
 * numbers, then per row its number and one cell per element (the lane holding it, or its
 * value when vals is not NULL); the selected lane's cells highlighted; ldmatrix rows end
 * with the lane that gave their address. Returns the rows drawn. */
static int draw_grid(WINDOW *win, const gl_frag_mat *mt, unsigned sel,
                     const uint64_t (*vals)[GL_FRAG_MAX_REGS], int y, int x, int h, int w)
{
    const int lw = mt->rows > 10 ? 3 : 2; /* row labels */
    int cw = vals ? 6 : 3;
    if (!vals && lw + mt->cols * 3 > w)
        cw = 2;
    if (!vals && lw + mt->cols * 2 > w)
        cw = 1; /* narrow: no gaps (a cell of 1 or 2 columns shows one character a lane,
                   base 32: 0-9, a-v) */
    int ncols = (w - lw) / cw;
    if (ncols > mt->cols)
        ncols = mt->cols;
    if (ncols <= 0 || h <= 1)
        return 0;
    char buf[32];
    int r = 0;
    for (int c = 0; c < ncols; c++) {
        snprintf(buf, sizeof buf, "%*d", cw > 1 ? cw - 1 : 1, cw <= 2 ? c % 10 : c);
        view_put(win, y, x + lw + c * cw, cw, buf, term_attr(TC_DIM));
    }
    r++;
    const bool addr = mt->addr_lane[0] >= 0 && !vals;
    for (int row = 0; row < mt->rows && r < h; row++, r++) {
        snprintf(buf, sizeof buf, "%*d", lw - 1, row);
        view_put(win, y + r, x, lw, buf, term_attr(TC_DIM));
        for (int c = 0; c < ncols; c++) {
            const gl_frag_cell *e = &mt->cells[row * mt->cols + c];
            int at = e->lane < 0           ? (int)term_attr(TC_DIM)
                     : e->lane == (int)sel ? (int)(term_attr(TC_MAPSEL) | A_BOLD)
                     : vals                ? PLAIN
                                           : group_attr(e->lane / 4);
            if (e->lane < 0)
                snprintf(buf, sizeof buf, "%*s", cw - 1, ".");
            else if (vals) {
                char v[24];
                for (int d = 4; d >= 1; d--) /* the most digits that fit the cell */
                    if (gl_fragments_format(mt, vals[e->lane][e->reg], e->elem, d, v, sizeof v),
                        (int)strlen(v) <= cw - 1)
                        break;
                snprintf(buf, sizeof buf, "%*.*s", cw - 1, cw - 1, v);
            } else if (cw <= 2) /* one character a lane: 10-31 are a-v */
                snprintf(buf, sizeof buf, "%c", "0123456789abcdefghijklmnopqrstuv"[e->lane & 31]);
            else
                snprintf(buf, sizeof buf, "%*d", cw - 1, e->lane);
            view_put(win, y + r, x + lw + c * cw, cw > 1 ? cw - 1 : 1, buf, at);
        }
        const int ax = x + lw + ncols * cw;
        if (addr && row < 8 && ax + 8 <= x + w) {
            snprintf(buf, sizeof buf, "<lane %d", mt->addr_lane[row]);
            view_put(win, y + r, ax, x + w - ax, buf,
                     mt->addr_lane[row] == (int)sel ? (int)term_attr(TC_MAPSEL)
                                                    : (int)term_attr(TC_DIM));
        }
    }
    return r;
}

void view_fragments_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x,
                         int h, int w)
{
    const view_frags_state *st = self;
    uint32_t b;
    unsigned wp, sel;
    tv_selected(a, &b, &wp, &sel);
    const size_t is = current_issue(a, t, a->tpos);
    if (is == SIZE_MAX) {
        view_put(win, y, x, w, "this warp ran no tensor-core instruction", term_attr(TC_DIM));
        if (h > 1)
            view_put(win, y + 1, x, w, "(mma.sync, wmma, ldmatrix, stmatrix, movmatrix)",
                     term_attr(TC_DIM));
        return;
    }
    const trace_event *e = &t->events[is];
    gl_frags f;
    if (!gl_fragments_of(a->run.ptx, e->pc, &f)) {
        view_put(win, y, x, w, "cannot read this instruction's PTX", term_attr(TC_WARN));
        return;
    }
    const int mi = (st->mat % f.nmats + f.nmats) % f.nmats;
    const gl_frag_mat *mt = &f.mat[mi];
    const bool compact = h < 14 || w < 40;
    char buf[300];
    int row = y;
    /* the instruction, then the matrix with the keys */
    snprintf(buf, sizeof buf, "line %d %s", view_line_of_pc(t, e->pc), f.what);
    view_put(win, row++, x, w, buf, term_attr(TC_HEADING));
    int n = snprintf(buf, sizeof buf, "%s %dx%d %s", mt->name, mt->rows, mt->cols, mt->type);
    /* cells of one character (draw_grid) where two-digit lanes do not fit */
    const bool one_char = w < (mt->rows > 10 ? 3 : 2) + mt->cols * 3;
    if (one_char)
        n += snprintf(buf + n, sizeof buf - (size_t)n, ": lane (a-v = 10-31)");
    else if (f.kind == GL_FRAG_MMA || f.kind == GL_FRAG_WMMA_MMA || f.kind == GL_FRAG_WMMA_LOAD)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%s",
                      mt->name[0] == 'A'   ? (f.row_major_a ? " row-major" : " col-major")
                      : mt->name[0] == 'B' ? (f.row_major_b ? " row-major" : " col-major")
                                           : "");
    if (f.trans && !one_char)
        n += snprintf(buf + n, sizeof buf - (size_t)n, " .trans");
    if (!one_char)
        n += snprintf(buf + n, sizeof buf - (size_t)n, ": cell = lane");
    if (f.nmats > 1 && n < (int)sizeof buf - 40) {
        n += snprintf(buf + n, sizeof buf - (size_t)n, "  M:");
        for (int i = 0; i < f.nmats; i++)
            n +=
                snprintf(buf + n, sizeof buf - (size_t)n, i == mi ? " [%s]" : " %s", f.mat[i].name);
    }
    if (!compact && w >= n + 14)
        snprintf(buf + n, sizeof buf - (size_t)n, "  t/T: next/prev");
    view_put(win, row++, x, w, buf, PLAIN);
    if (f.quad_pair && row < y + h && !compact)
        view_put(win, row++, x, w,
                 "quad-pair 0 shown (lanes 0-3, 16-19); lanes 4p.. hold quad-pair p's own",
                 term_attr(TC_DIM));
    row += draw_grid(win, mt, sel, NULL, row, x, y + h - row, w);
    /* the selected lane's registers of this matrix, and the values grid */
    uint64_t vals[32][GL_FRAG_MAX_REGS];
    const uint32_t have = compact ? 0 : gl_fragments_values(mt, t, is, vals);
    if (have && row < y + h) {
        n = snprintf(buf, sizeof buf, "lane %u (%s):", sel, mt->written ? "after" : "before");
        for (int r = 0; r < mt->nregs && n < (int)sizeof buf - 40; r++) {
            if (!((have >> r) & 1u))
                continue;
            n += snprintf(buf + n, sizeof buf - (size_t)n, " %s[%d]=", mt->name, r);
            for (int j = 0; j < mt->per_reg && n < (int)sizeof buf - 20; j++) {
                char v[24];
                gl_fragments_format(mt, vals[sel][r], j, 4, v, sizeof v);
                n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s", j ? "," : "", v);
            }
        }
        view_put(win, row++, x, w, buf, term_attr(TC_MAPSEL));
        const bool all = have == (mt->nregs >= 32 ? ~0u : (1u << mt->nregs) - 1);
        if (all && row + 2 < y + h) {
            view_put(win, row++, x, w, "values:", term_attr(TC_DIM));
            row += draw_grid(win, mt, sel, (const uint64_t(*)[GL_FRAG_MAX_REGS])vals, row, x,
                             y + h - row, w);
        }
    } else if (!compact && row < y + h && !t->regs) {
        view_put(win, row++, x, w, "no register values in this trace", term_attr(TC_DIM));
    }
    gl_fragments_free(&f);
}

/* Heading, key line, a 16-row grid with its header, values line and grid. */
int view_fragments_height(const app *a, int w)
{
    (void)a, (void)w;
    return 2 + 17 + 2 + 17;
}

bool view_fragments_key(void *self, const app *a, int ch)
{
    (void)a;
    if (ch != 'M')
        return false;
    ((view_frags_state *)self)->mat++;
    return true;
}

void view_fragments_reset(void *self)
{
    ((view_frags_state *)self)->mat = 0;
}
