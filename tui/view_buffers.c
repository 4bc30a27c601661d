/* view_buffers.c — the buffers view: on the exercise, the output against the
 * reference's at the same size and inputs, side by side (index, expected, actual)
 * around each difference, as the grader compares them (grade_values_equal, within the
 * check's tolerance); on other steps each buffer against its values before the launch,
 * bit for bit (gl_compare_count_changed), the buffers the kernel changed first, from the first
 * changed element. Both scroll with [ ] when they do not fit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/compare.h"
#include "tui/view_common.h"

/* ----------------------------------------------------------------- buffers */

/* Whether element k differs bit for bit between x and y (the kernel changed it). */
static bool elem_changed(const gl_arg *arg, const void *x, const void *y, size_t k)
{
    const size_t es = spec_type_size(arg->type);
    return memcmp((const char *)x + k * es, (const char *)y + k * es, es) != 0;
}

static int fmt_value(char *buf, size_t len, const gl_arg *arg, const void *data, size_t k)
{
    gl_value v = spec_buffer_get(data, arg->type, k);
    if (spec_type_is_float(arg->type))
        return snprintf(buf, len, "%g", v.f);
    if (spec_type_is_signed(arg->type))
        return snprintf(buf, len, "%lld", (long long)v.i);
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
    return grade_values_equal(arg->type, spec_buffer_get(a->ref_buffers[i].data, arg->type, k),
                              spec_buffer_get(a->run.buffers[i].data, arg->type, k),
                              a->cmp.tolerance);
}

/* Walks the table (a->cmp.done): rows [skip, skip + max) into out; returns how many rows
 * the table has. */
static size_t cmp_rows(const app *a, size_t skip, cmp_row *out, size_t max)
{
    const gl_check *k = grade_reference_check(a->lesson->exercise, a->cmp.n);
    size_t row = 0;
#define EMIT(kind_, i_, index_, count_)                                                            \
    do {                                                                                           \
        if (row >= skip && row - skip < max)                                                       \
            out[row - skip] = (cmp_row){kind_, i_, index_, count_};                                \
        row++;                                                                                     \
    } while (0)
    for (int i = 0; i < a->spec.nargs; i++) {
        const gl_arg *arg = &a->spec.args[i];
        if (!arg->is_ptr || !grade_is_output(k, arg->name))
            continue;
        size_t n = arg->len;
        size_t ndiff = grade_count_diffs(arg->type, n, a->ref_buffers[i].data,
                                         a->run.buffers[i].data, a->cmp.tolerance, NULL);
        EMIT(CMP_HEAD, i, 0, ndiff);
        size_t done = 0; /* elements [0, done) are shown or folded */
        while (ndiff && done < n) {
            size_t d = done;
            while (d < n && cmp_equal(a, arg, i, d))
                d++;
            if (d == n)
                break;
            size_t from = d > done + CMP_CONTEXT ? d - CMP_CONTEXT : done;
            if (from > done)
                EMIT(CMP_GAP, i, done, from - done);
            size_t to = d + CMP_CONTEXT + 1 < n ? d + CMP_CONTEXT + 1 : n; /* exclusive */
            for (size_t e = from; e < to; e++) {
                if (e > d && !cmp_equal(a, arg, i, e))
                    to = e + CMP_CONTEXT + 1 < n ? e + CMP_CONTEXT + 1 : n;
                EMIT(CMP_ELEM, i, e, 0);
            }
            done = to;
        }
        if (ndiff && done < n)
            EMIT(CMP_GAP, i, done, n - done);
    }
#undef EMIT
    return row;
}

static void draw_comparison(WINDOW *win, const app *a, view_buffers_state *st, int y, int x, int h,
                            int w)
{
    char buf[512];
    /* as the grader compares: bit-exact, or floats within the check's tolerance */
    if (a->cmp.tolerance > 0)
        snprintf(buf, sizeof buf, "n = %lld: reference vs yours, within %g", (long long)a->cmp.n,
                 a->cmp.tolerance);
    else
        snprintf(buf, sizeof buf, "n = %lld: reference vs yours, exact", (long long)a->cmp.n);
    const int hr = view_put_wrap(win, y, x, w, h >= 6 ? 2 : 1, buf, term_attr(TC_HEADING));
    y += hr - 1, h -= hr - 1; /* the rest as below a one-row heading */
    if (h < 3)
        return;
    /* columns: marker, index, expected, actual */
    const gl_arg *widest = NULL;
    for (int i = 0; i < a->spec.nargs; i++)
        if (a->spec.args[i].is_ptr && (!widest || a->spec.args[i].len > widest->len))
            widest = &a->spec.args[i];
    int iw = 5;
    for (size_t v = widest && widest->len > 0 ? widest->len - 1 : 0; v >= 100000; v /= 10)
        iw++;
    int vw = (w - 4 - iw) / 2;
    if (vw > 16)
        vw = 16; /* "%.9g" of a float: at most 15 columns */
    if (vw < 6)
        vw = 6;
    snprintf(buf, sizeof buf, "  %*s %*s %*s", iw, "index", vw, "expected", vw, "actual");
    view_put(win, y + 1, x, w, buf, term_attr(TC_DIM));
    size_t total = cmp_rows(a, 0, NULL, 0);
    int rows = h - 2;
    if ((size_t)rows < total)
        rows--; /* the last line says how to scroll */
    if (rows < 1)
        rows = 1;
    int top = st->top;
    if ((size_t)top + (size_t)rows > total)
        top = total > (size_t)rows ? (int)(total - (size_t)rows) : 0;
    st->lines = (int)total, st->rows = rows;
    cmp_row *r = calloc((size_t)rows, sizeof *r);
    if (!r)
        return;
    size_t got = total - (size_t)top < (size_t)rows ? total - (size_t)top : (size_t)rows;
    cmp_rows(a, (size_t)top, r, got);
    const char *ne = view_utf8() ? "\u2260" : "!";
    for (size_t k = 0; k < got; k++) {
        const gl_arg *arg = &a->spec.args[r[k].arg];
        int ry = y + 2 + (int)k;
        if (r[k].kind == CMP_HEAD) {
            if (r[k].count && a->cmp.tolerance > 0)
                snprintf(buf, sizeof buf, "%s: %zu of %zu differ by more than %g", arg->name,
                         r[k].count, arg->len, a->cmp.tolerance);
            else if (r[k].count)
                snprintf(buf, sizeof buf, "%s: %zu of %zu differ", arg->name, r[k].count, arg->len);
            else
                snprintf(buf, sizeof buf, "%s: all %zu match", arg->name, arg->len);
            view_put(win, ry, x, w, buf, r[k].count ? term_attr(TC_BAD) : term_attr(TC_GOOD));
        } else if (r[k].kind == CMP_GAP) {
            snprintf(buf, sizeof buf, "  %*s %zu equal (%zu..%zu)", iw, term_glyph()->ellipsis,
                     r[k].count, r[k].index, r[k].index + r[k].count - 1);
            view_put(win, ry, x, w, buf, term_attr(TC_DIM));
        } else {
            char ev[64], gv[64];
            gl_value e = spec_buffer_get(a->ref_buffers[r[k].arg].data, arg->type, r[k].index);
            gl_value g = spec_buffer_get(a->run.buffers[r[k].arg].data, arg->type, r[k].index);
            grade_format_value(ev, sizeof ev, arg->type, e);
            grade_format_value(gv, sizeof gv, arg->type, g);
            bool same = grade_values_equal(arg->type, e, g, a->cmp.tolerance);
            snprintf(buf, sizeof buf, "  %*zu %*s %*s", iw, r[k].index, vw, ev, vw, gv);
            view_put(win, ry, x, w, buf, same ? PLAIN : term_attr(TC_BAD));
            if (!same)
                view_put(win, ry, x, 1, ne, term_attr(TC_BAD));
        }
    }
    free(r);
    if ((size_t)rows < total) {
        snprintf(buf, sizeof buf, "[ ] scroll: %d-%zu of %zu rows", top + 1, (size_t)top + got,
                 total);
        view_put(win, y + h - 1, x, w, buf, term_attr(TC_DIM));
    }
}

/* Rows the comparison would like (at most 20). */
static int comparison_height(const app *a)
{
    if (!a->cmp.done)
        return 12;
    size_t total = cmp_rows(a, 0, NULL, 0) + 2;
    return total < 20 ? (int)total : 20;
}

/* ------------------------------------------ each buffer against its start */

/* One row of the before/after list: a line of text (a buffer's heading, wrapped; a
 * matrix's caption), a matrix row, or a row of a 1D buffer's values from `index`. */
typedef enum brow_kind { BR_TEXT, BR_MROW, BR_VROW } brow_kind;
typedef struct brow {
    brow_kind kind;
    int arg;
    size_t index;    /* BR_MROW: the matrix row; BR_VROW: its first element */
    size_t count;    /* BR_VROW: elements on the row */
    size_t c0;       /* BR_MROW: first column shown */
    int cw, lw, fit; /* BR_MROW: column width, label width, columns shown */
    int attr;
    char text[200]; /* BR_TEXT */
} brow;

/* Rows of a matrix shown per buffer (from its first changed row), and of a 1D buffer. */
enum { MATRIX_ROWS = 8, VALUE_ROWS = 2 };

typedef struct blist {
    brow *v;
    int n, cap;
} blist;

static brow *brow_add(blist *L, brow_kind kind, int arg, int attr)
{
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 32;
        brow *v = realloc(L->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        L->v = v, L->cap = cap;
    }
    brow *r = &L->v[L->n++];
    memset(r, 0, sizeof *r);
    r->kind = kind, r->arg = arg, r->attr = attr;
    return r;
}

/* Adds s as text rows wrapped to w columns (at most 3). */
static void brow_text(blist *L, const char *s, int w, int attr)
{
    size_t left = strlen(s);
    for (int k = 0; k < 3 && left && w > 0; k++) {
        brow *r = brow_add(L, BR_TEXT, -1, attr);
        if (!r)
            return;
        const char *row = s;
        const size_t fit = view_wrap_cut(&s, &left, w, false);
        snprintf(r->text, sizeof r->text, "%.*s", (int)fit, row);
    }
}

/* Why the exercise's run has no comparison, or NULL when it has one. */
static const char *cmp_missing(const app *a)
{
    if (a->cmp.done)
        return NULL;
    if (a->run_status != GL_OK)
        return "the run did not finish: nothing to compare with the reference";
    if (a->ref_status != GL_OK)
        return "the reference could not run (see Result): nothing to compare";
    return "no reference output to compare with";
}

/* A pointer argument's buffer before (NULL when there is no copy: a step's buffers past
 * 64 MiB) and after the run, and what changed: *ndiff elements, the first at *first (n
 * when none); without a copy, the counts the run's work took from the spec's inits
 * (app.run_work). false when neither says. */
static bool arg_changes_uncached(const app *a, int i, const void **before, size_t *ndiff,
                                 size_t *first)
{
    const gl_arg *arg = &a->spec.args[i];
    const gl_buffer *got = &a->run.buffers[i];
    const gl_buffer *exp = a->init_buffers ? &a->init_buffers[i] : NULL;
    const size_t n = arg->len, bytes = n * spec_type_size(arg->type);
    const bool can = exp && exp->data && exp->bytes >= bytes && got->bytes >= bytes;
    *before = can ? exp->data : NULL;
    *first = n;
    *ndiff = 0;
    if (can) {
        *ndiff = gl_compare_count_changed(arg->type, n, exp->data, got->data, first);
        return true;
    }
    for (int b = 0; a->have_work && b < a->run_work.nbuf; b++)
        if (strcmp(a->run_work.buf[b].name, arg->name) == 0 &&
            a->run_work.buf[b].changed != SIZE_MAX) {
            *ndiff = a->run_work.buf[b].changed;
            *first = a->run_work.buf[b].first;
            return true;
        }
    return false;
}

/* arg_changes_uncached, remembered per run (app.run_gen): a frame asks for each buffer
 * several times, and a buffer may hold millions of elements. */
static bool arg_changes(const app *a, int i, const void **before, size_t *ndiff, size_t *first)
{
    static struct {
        unsigned gen;
        const app *a;
        bool known[APP_MAX_ARGS], can[APP_MAX_ARGS];
        size_t ndiff[APP_MAX_ARGS], first[APP_MAX_ARGS];
    } c;
    if (i >= APP_MAX_ARGS)
        return arg_changes_uncached(a, i, before, ndiff, first);
    if (c.gen != a->run_gen || c.a != a) {
        memset(&c, 0, sizeof c);
        c.gen = a->run_gen, c.a = a;
    }
    const gl_buffer *exp = a->init_buffers ? &a->init_buffers[i] : NULL;
    if (!c.known[i]) {
        c.can[i] = arg_changes_uncached(a, i, before, &c.ndiff[i], &c.first[i]);
        c.known[i] = true;
    }
    *before = c.can[i] && exp && exp->data ? exp->data : NULL;
    *ndiff = c.ndiff[i];
    *first = c.first[i];
    return c.can[i];
}

/* The buffers before and after the run as rows at width w: first a line per buffer,
 * those the kernel changed first ("out: the kernel changed 37 of 40 elements, first
 * [1]"), then each one's values from its first change (a matrix: rows of it). */
static void build_before_after(const app *a, int w, blist *L)
{
    char buf[512];
    if (app_on_exercise(a))
        brow_text(L, cmp_missing(a), w, term_attr(TC_DIM));
    brow_text(L, "changed by the kernel (bits):", w, term_attr(TC_HEADING));
    /* the order: changed buffers, then the rest (in argument order within each) */
    int order[APP_MAX_ARGS], norder = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < a->spec.nargs && i < a->run.nargs && norder < APP_MAX_ARGS; i++) {
            if (!a->spec.args[i].is_ptr || !a->run.buffers[i].data)
                continue;
            const void *before;
            size_t ndiff, first;
            const bool can = arg_changes(a, i, &before, &ndiff, &first);
            if ((pass == 0) == (can && ndiff > 0))
                order[norder++] = i;
        }
    for (int o = 0; o < norder; o++) {
        const gl_arg *arg = &a->spec.args[order[o]];
        const void *before;
        size_t ndiff, first, n = arg->len;
        const bool can = arg_changes(a, order[o], &before, &ndiff, &first);
        if (!can)
            snprintf(buf, sizeof buf, "%s[%zu]: no copy from before the launch to compare with",
                     arg->name, n);
        else if (ndiff == 0)
            snprintf(buf, sizeof buf, "%s[%zu]: unchanged", arg->name, n);
        else if (ndiff == n && n == 1)
            snprintf(buf, sizeof buf, "%s: its one element changed", arg->name);
        else if (ndiff == n)
            snprintf(buf, sizeof buf, "%s: all %zu elements changed", arg->name, n);
        else if (snprintf(buf, sizeof buf, "%s: %zu of %zu changed, first [%zu]", arg->name, ndiff,
                          n, first) > w) /* the values below start at the first anyway */
            snprintf(buf, sizeof buf, "%s: %zu of %zu changed", arg->name, ndiff, n);
        /* (an element written with the value it held did not change) */
        brow_text(L, buf, w, can && ndiff ? term_attr(TC_GOOD) : term_attr(TC_DIM));
    }
    for (int o = 0; o < norder; o++) {
        const int i = order[o];
        const gl_arg *arg = &a->spec.args[i];
        const void *got = a->run.buffers[i].data, *before;
        size_t ndiff, first, n = arg->len;
        const bool can = arg_changes(a, i, &before, &ndiff, &first);
        if (arg->rows > 1 && arg->cols > 0) { /* a matrix (the spec's "shape"): rows of it */
            /* from the first changed row, as many columns as fit (from the first
             * changed one when they do not all) */
            const size_t r0 = can && ndiff ? first / arg->cols : 0;
            int cw = 1;
            char v[64];
            for (size_t k = r0 * arg->cols; k < n && k < (r0 + MATRIX_ROWS) * arg->cols; k++) {
                int vl = fmt_value(v, sizeof v, arg, got, k);
                if (vl > cw)
                    cw = vl;
            }
            snprintf(buf, sizeof buf, "[%zu]", arg->rows - 1);
            const int lw = (int)strlen(buf) + 1;
            const int fit = (w - lw) / (cw + 1) > 0 ? (w - lw) / (cw + 1) : 1;
            size_t c0 = 0;
            if ((size_t)fit < arg->cols && can && ndiff && first % arg->cols >= (size_t)fit)
                c0 = first % arg->cols;
            snprintf(buf, sizeof buf, "%s %zux%zu: rows %zu-%zu, cols %zu-%zu", arg->name,
                     arg->rows, arg->cols, r0,
                     r0 + MATRIX_ROWS < arg->rows ? r0 + MATRIX_ROWS - 1 : arg->rows - 1, c0,
                     c0 + (size_t)fit < arg->cols ? c0 + (size_t)fit - 1 : arg->cols - 1);
            brow_text(L, buf, w, term_attr(TC_HEADING));
            for (size_t row = r0; row < arg->rows && row < r0 + MATRIX_ROWS; row++) {
                brow *r = brow_add(L, BR_MROW, i, PLAIN);
                if (!r)
                    return;
                r->index = row, r->c0 = c0, r->cw = cw, r->lw = lw, r->fit = fit;
            }
            continue;
        }
        /* the values from the first change on (changed ones bright) */
        size_t from = can && ndiff ? first : 0;
        snprintf(buf, sizeof buf, "%s from [%zu]:", arg->name, from);
        brow_text(L, buf, w, term_attr(TC_HEADING));
        for (int row = 0; row < VALUE_ROWS && from < n; row++) {
            int cx = snprintf(buf, sizeof buf, "[%zu]", from) + 1;
            size_t k = from;
            while (k < n) {
                char v[64];
                int vl = fmt_value(v, sizeof v, arg, got, k);
                if (cx + vl >= w)
                    break;
                cx += vl + 1;
                k++;
            }
            if (k == from)
                k++; /* one value at least */
            brow *r = brow_add(L, BR_VROW, i, PLAIN);
            if (!r)
                return;
            r->index = from, r->count = k - from;
            from = k;
        }
    }
}

/* Draws row r of the before/after list at (y, x). */
static void draw_brow(WINDOW *win, const app *a, const brow *r, int y, int x, int w)
{
    if (r->kind == BR_TEXT) {
        view_put(win, y, x, w, r->text, r->attr);
        return;
    }
    const gl_arg *arg = &a->spec.args[r->arg];
    const void *got = a->run.buffers[r->arg].data;
    const gl_buffer *exp = a->init_buffers ? &a->init_buffers[r->arg] : NULL;
    const bool can = exp && exp->data && exp->bytes >= arg->len * spec_type_size(arg->type);
    char buf[64], v[64];
    if (r->kind == BR_MROW) {
        snprintf(buf, sizeof buf, "[%zu]", r->index);
        view_put(win, y, x, r->lw, buf, term_attr(TC_DIM));
        for (size_t col = r->c0; col < arg->cols && col < r->c0 + (size_t)r->fit; col++) {
            const size_t k = r->index * arg->cols + col;
            int vl = fmt_value(v, sizeof v, arg, got, k);
            bool diff = can && elem_changed(arg, got, exp->data, k);
            view_put(win, y, x + r->lw + (int)(col - r->c0) * (r->cw + 1) + (r->cw - vl), vl, v,
                     diff ? term_attr(TC_HEADING) : PLAIN);
        }
        return;
    }
    int cx = snprintf(buf, sizeof buf, "[%zu]", r->index);
    view_put(win, y, x, w, buf, term_attr(TC_DIM));
    cx++;
    for (size_t k = r->index; k < r->index + r->count && cx < w; k++) {
        int vl = fmt_value(v, sizeof v, arg, got, k);
        bool diff = can && elem_changed(arg, got, exp->data, k);
        view_put(win, y, x + cx, w - cx, v, diff ? term_attr(TC_HEADING) : PLAIN);
        cx += vl + 1;
    }
}

void view_buffers_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                       int w)
{
    view_buffers_state *st = self;
    (void)t;
    if (app_on_exercise(a) && a->cmp.done) {
        draw_comparison(win, a, st, y, x, h, w);
        return;
    }
    blist L = {0};
    build_before_after(a, w, &L);
    int rows = h;
    if (L.n > h)
        rows--; /* the last line says how to scroll */
    if (rows < 1)
        rows = 1;
    int top = st->top;
    if (top > L.n - rows)
        top = L.n - rows;
    if (top < 0)
        top = 0;
    st->lines = L.n, st->rows = rows;
    for (int k = 0; k < rows && top + k < L.n; k++)
        draw_brow(win, a, &L.v[top + k], y + k, x, w);
    if (L.n > rows) {
        char buf[96];
        snprintf(buf, sizeof buf, "[ ] scroll: rows %d-%d of %d", top + 1,
                 top + rows < L.n ? top + rows : L.n, L.n);
        view_put(win, y + h - 1, x, w, buf, term_attr(TC_DIM));
    }
    free(L.v);
}

int view_buffers_height(const app *a, int w)
{
    if (app_on_exercise(a) && a->have_run && a->cmp.done)
        return comparison_height(a);
    if (!a->have_run || !a->run.buffers)
        return 12;
    blist L = {0};
    build_before_after(a, w, &L);
    const int n = L.n;
    free(L.v);
    return n < 20 ? (n > 6 ? n : 6) : 20;
}

bool view_buffers_key(void *self, const app *a, int ch)
{
    view_buffers_state *st = self;
    if ((ch != '[' && ch != ']') || !a->have_run)
        return false;
    /* a page: the rows shown but one, between the first and the last page */
    const int lines = st->lines, rows = st->rows;
    int top = st->top + (ch == ']' ? 1 : -1) * (rows > 1 ? rows - 1 : 1);
    if (top > lines - rows)
        top = lines - rows;
    st->top = top < 0 ? 0 : top;
    return true;
}

void view_buffers_reset(void *self)
{
    ((view_buffers_state *)self)->top = 0;
}
