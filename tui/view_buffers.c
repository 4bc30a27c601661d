/* view_buffers.c — the buffers view: on the exercise, the output against the
 * reference's at the same size and inputs, side by side (index, expected, actual)
 * around each difference, as the grader compares them; on other steps each buffer
 * against its values before the launch, the first changed index first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/view_common.h"

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
    if (gl_type_is_float(arg->type))
        return snprintf(buf, len, "%g", v.f);
    if (gl_type_is_signed(arg->type))
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
    return grade_values_equal(arg->type, gl_buffer_get(a->ref_buffers[i].data, arg->type, k),
                              gl_buffer_get(a->run.buffers[i].data, arg->type, k),
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

static void draw_comparison(WINDOW *win, const app *a, int y, int x, int h, int w,
                            struct view_metrics *m)
{
    char buf[512];
    snprintf(buf, sizeof buf, "n = %lld, the reference vs yours", (long long)a->cmp.n);
    view_put(win, y, x, w, buf, term_attr(TC_HEADING));
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
    int top = a->cmp_top;
    if ((size_t)top + (size_t)rows > total)
        top = total > (size_t)rows ? (int)(total - (size_t)rows) : 0;
    if (m)
        m->cmp_lines = (int)total, m->cmp_rows = rows;
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
            if (r[k].count)
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
            gl_value e = gl_buffer_get(a->ref_buffers[r[k].arg].data, arg->type, r[k].index);
            gl_value g = gl_buffer_get(a->run.buffers[r[k].arg].data, arg->type, r[k].index);
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

void view_buffers_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                       struct view_metrics *m)
{
    (void)t;
    if (app_on_exercise(a) && a->cmp.done) {
        draw_comparison(win, a, y, x, h, w, m);
        return;
    }
    int r = y;
    if (app_on_exercise(a))
        view_put(win, r++, x, w, cmp_missing(a), term_attr(TC_DIM));
    view_put(win, r++, x, w, "against the values before the launch:", term_attr(TC_HEADING));
    char buf[512];
    for (int i = 0; i < a->spec.nargs && i < a->run.nargs && r < y + h; i++) {
        const gl_arg *arg = &a->spec.args[i];
        const gl_buffer *got = &a->run.buffers[i];
        const gl_buffer *exp = a->init_buffers ? &a->init_buffers[i] : NULL;
        if (!arg->is_ptr || !got->data)
            continue;
        size_t n = arg->len, ndiff = 0, first = n;
        bool can = exp && exp->data && exp->bytes == got->bytes;
        for (size_t k = 0; can && k < n; k++)
            if (!value_eq(arg, got->data, exp->data, k)) {
                if (first == n)
                    first = k;
                ndiff++;
            }
        if (!can)
            snprintf(buf, sizeof buf, "%s[%zu]: nothing to compare with", arg->name, n);
        else if (ndiff == 0)
            snprintf(buf, sizeof buf, "%s[%zu]: unchanged", arg->name, n);
        else
            snprintf(buf, sizeof buf, "%s: the kernel changed %zu of %zu, first [%zu]", arg->name,
                     ndiff, n, first);
        view_put(win, r++, x, w, buf, can && ndiff ? term_attr(TC_GOOD) : term_attr(TC_DIM));
        if (arg->rows > 1 && arg->cols > 0) { /* a matrix (the spec's "shape"): rows of it */
            /* from the first changed row; as many rows as a fair share of the pane, as
             * many columns as fit (from the first changed one when they do not all) */
            int left = 0;
            for (int k = i + 1; k < a->spec.nargs; k++)
                left += a->spec.args[k].is_ptr;
            int nrows = (y + h - r) / (left + 1) - 1;
            if (nrows < 1)
                nrows = 1;
            const size_t r0 = can && ndiff ? first / arg->cols : 0;
            int cw = 1, lw;
            char v[64];
            for (size_t k = r0 * arg->cols; k < n && k < (r0 + (size_t)nrows) * arg->cols; k++) {
                int vl = fmt_value(v, sizeof v, arg, got->data, k);
                if (vl > cw)
                    cw = vl;
            }
            snprintf(buf, sizeof buf, "[%zu]", arg->rows - 1);
            lw = (int)strlen(buf) + 1;
            const int fit = (w - lw) / (cw + 1) > 0 ? (w - lw) / (cw + 1) : 1;
            size_t c0 = 0;
            if ((size_t)fit < arg->cols && can && ndiff && first % arg->cols >= (size_t)fit)
                c0 = first % arg->cols;
            snprintf(buf, sizeof buf, "%zu x %zu, columns %zu..%zu of %zu:", arg->rows, arg->cols,
                     c0, c0 + (size_t)fit < arg->cols ? c0 + (size_t)fit - 1 : arg->cols - 1,
                     arg->cols);
            if (r < y + h)
                view_put(win, r++, x, w, buf, term_attr(TC_DIM));
            for (size_t row = r0; row < arg->rows && row < r0 + (size_t)nrows && r < y + h;
                 row++, r++) {
                snprintf(buf, sizeof buf, "[%zu]", row);
                view_put(win, r, x, lw, buf, term_attr(TC_DIM));
                for (size_t col = c0; col < arg->cols && col < c0 + (size_t)fit; col++) {
                    const size_t k = row * arg->cols + col;
                    int vl = fmt_value(v, sizeof v, arg, got->data, k);
                    bool diff = can && !value_eq(arg, got->data, exp->data, k);
                    view_put(win, r, x + lw + (int)(col - c0) * (cw + 1) + (cw - vl), vl, v,
                             diff ? term_attr(TC_HEADING) : PLAIN);
                }
            }
            continue;
        }
        /* the values from the first change on (changed ones bright) */
        size_t from = can && ndiff ? first : 0;
        for (int row = 0; row < 2 && r < y + h && from < n; row++, r++) {
            int cx = snprintf(buf, sizeof buf, "[%zu]", from);
            view_put(win, r, x, w, buf, term_attr(TC_DIM));
            cx++;
            while (from < n && cx < w) {
                char v[64];
                int vl = fmt_value(v, sizeof v, arg, got->data, from);
                if (cx + vl >= w)
                    break;
                bool diff = can && !value_eq(arg, got->data, exp->data, from);
                view_put(win, r, x + cx, vl, v, diff ? term_attr(TC_HEADING) : PLAIN);
                cx += vl + 1;
                from++;
            }
        }
    }
}

int view_buffers_height(const app *a, int w)
{
    (void)w;
    return app_on_exercise(a) && a->have_run ? comparison_height(a) : 12;
}
