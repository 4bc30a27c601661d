/* view_map.c — the grid/block/thread map: a few blocks drawn as boxes of cells, one cell
 * per thread, coloured by a per-thread value (CUDA C++ Programming Guide §5.2 "Thread
 * Hierarchy": threads of a block indexed by threadIdx, x fastest; warps are 32
 * consecutive linear thread ids, §7.1 "SIMT Architecture"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/view_common.h"

/* The map's own state: the view table's row holds it (the map's functions that other
 * files call, map_hit and map_value, have no self). */
static view_map_state *map_state(void)
{
    return view_of(VIEW_MAP)->state;
}

static void map_thread_info(const app *a, const unsigned b[3], const unsigned t[3], char *buf,
                            size_t len);

static uint64_t threads_per_block(const gl_spec *s)
{
    return (uint64_t)s->block[0] * s->block[1] * s->block[2];
}

static uint64_t block_count(const gl_spec *s)
{
    return (uint64_t)s->grid[0] * s->grid[1] * s->grid[2];
}

static uint64_t linear_block(const gl_spec *s, const unsigned b[3])
{
    return b[0] + (uint64_t)b[1] * s->grid[0] + (uint64_t)b[2] * s->grid[0] * s->grid[1];
}

static uint64_t linear_thread(const gl_spec *s, const unsigned t[3])
{
    return t[0] + (uint64_t)t[1] * s->block[0] + (uint64_t)t[2] * s->block[0] * s->block[1];
}

/* The buffer a MAP_BUFFER mode reads: after the last run, else the initial values. */
static const void *mode_buffer(const app *a, const map_mode *m, size_t *len, gl_type *type)
{
    if (!a->have_spec || m->arg < 0 || m->arg >= a->spec.nargs)
        return NULL;
    const gl_arg *arg = &a->spec.args[m->arg];
    const void *data = NULL;
    if (a->have_run && a->run.buffers && m->arg < a->run.nargs)
        data = a->run.buffers[m->arg].data;
    else if (a->init_buffers)
        data = a->init_buffers[m->arg].data;
    *len = arg->len;
    *type = arg->type;
    return data;
}

int map_buffer_at(const app *a, uint64_t addr, uint64_t *elem, uint64_t *rem)
{
    const gl_run_result *r = &a->run;
    if (!a->have_spec || !a->have_run || !r->dptr || !r->buffers || r->nargs != a->spec.nargs)
        return -1;
    for (int i = 0; i < r->nargs; i++) {
        uint64_t base = r->dptr[i];
        if (!base || addr < base || addr - base >= r->buffers[i].bytes)
            continue;
        uint64_t es = spec_type_size(a->spec.args[i].type);
        if (es == 0)
            es = 1;
        *elem = (addr - base) / es;
        if (rem)
            *rem = (addr - base) % es;
        return i;
    }
    return -1;
}

/* The element of each pointer argument each thread of the last run touched, from the
 * trace's global memory requests: the last one it stored to (store or atomic), else the
 * last one it loaded; -1 for none. elems[arg * nthreads + global linear thread id].
 * Cached per run (app.run_gen); NULL when the run has no memory trace or the grid is
 * too large. */
static const int64_t *thread_elems(const app *a, uint64_t *nthreads, const bool **written)
{
    view_map_state *S = map_state();
    const trace_t *t = view_trace(a);
    const gl_spec *s = &a->spec;
    if (!t || t->level < TRACE_MEMORY || !a->run.dptr)
        return NULL;
    if (t != S->elems.trace || a->run_gen != S->elems.gen) {
        free(S->elems.el);
        S->elems.el = NULL;
        S->elems.trace = NULL;
        S->elems.gen = a->run_gen;
        uint64_t T = threads_per_block(s);
        const uint64_t n = S->elems.n = block_count(s) * T;
        bool *arg_written = S->elems.written;
        memset(S->elems.written, 0, sizeof S->elems.written);
        if (n == 0 || s->nargs > APP_MAX_ARGS || (uint64_t)s->nargs * n > (UINT64_C(1) << 24))
            return NULL;
        int64_t *el = S->elems.el = malloc((size_t)(s->nargs * n) * sizeof *el);
        uint8_t *wrote = calloc((size_t)(s->nargs * n), 1);
        if (!el || !wrote) {
            free(el), free(wrote);
            S->elems.el = NULL;
            return NULL;
        }
        for (uint64_t i = 0; i < (uint64_t)s->nargs * n; i++)
            el[i] = -1;
        for (size_t i = 0; i < t->nevents; i++) {
            const trace_event *e = &t->events[i];
            if (e->kind != TRACE_EV_MEM || e->space != TRACE_SPACE_GLOBAL ||
                trace_event_is_bulk(t, e)) /* a bulk copy's pieces are not lanes */
                continue;
            const uint64_t *ad = trace_event_addrs(t, e);
            bool store = e->op != TRACE_LOAD;
            for (int l = 0; l < WARP; l++) {
                if (!((e->mask >> l) & 1u))
                    continue;
                uint64_t th = (uint64_t)e->block * T + (uint64_t)e->warp * WARP + (uint64_t)l, elem;
                int arg = map_buffer_at(a, ad[l], &elem, NULL);
                if (arg < 0 || th >= n)
                    continue;
                size_t k = (size_t)arg * n + th;
                if (store || !wrote[k])
                    el[k] = (int64_t)elem;
                wrote[k] |= store;
                arg_written[arg] |= store;
            }
        }
        free(wrote);
        S->elems.trace = t;
    }
    *nthreads = S->elems.n;
    if (written)
        *written = S->elems.written;
    return S->elems.el;
}

/* The element of buffer `arg` that thread (b, t) shows: the one it touched in the last
 * run (thread_elems); before a run, or when the run has no memory trace, its global
 * linear index for a 1D launch and none (-1) otherwise. */
static int64_t thread_elem(const app *a, int arg, const unsigned b[3], const unsigned t[3])
{
    const gl_spec *s = &a->spec;
    uint64_t global = linear_block(s, b) * threads_per_block(s) + linear_thread(s, t), n;
    const int64_t *el = thread_elems(a, &n, NULL);
    if (el)
        return global < n ? el[(size_t)arg * n + global] : -1;
    bool launch1d = s->grid[1] == 1 && s->grid[2] == 1 && s->block[1] == 1 && s->block[2] == 1;
    return launch1d ? (int64_t)global : -1;
}

/* The SM each block of the last run started on, from its trace's BLOCK_START events
 * (-1: not recorded); cached per run (app.run_gen). NULL when the run has no trace. */
static const int32_t *block_sms(const app *a, uint64_t *nblocks, int *max_sm)
{
    view_map_state *S = map_state();
    const trace_t *t = view_trace(a);
    if (!t)
        return NULL;
    if (t != S->sms.trace || a->run_gen != S->sms.gen) {
        free(S->sms.sm);
        const uint64_t n = S->sms.n = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
        int32_t *sm = S->sms.sm = n && n < (1u << 24) ? malloc(n * sizeof *sm) : NULL;
        S->sms.hi = 0;
        S->sms.trace = sm ? t : NULL;
        S->sms.gen = a->run_gen;
        if (!sm)
            return NULL;
        for (uint64_t i = 0; i < n; i++)
            sm[i] = -1;
        for (size_t i = 0; i < t->nevents; i++) {
            const trace_event *e = &t->events[i];
            if (e->kind != TRACE_EV_BLOCK_START || e->block >= n || sm[e->block] >= 0)
                continue;
            sm[e->block] = (int32_t)e->aux;
            if ((int)e->aux > S->sms.hi)
                S->sms.hi = (int)e->aux;
        }
    }
    *nblocks = S->sms.n;
    *max_sm = S->sms.hi;
    return S->sms.sm;
}

bool map_value(const app *a, const map_mode *m, const unsigned b[3], const unsigned t[3],
               double *out, bool *is_float)
{
    const gl_spec *s = &a->spec;
    uint64_t lb = linear_block(s, b), lt = linear_thread(s, t);
    uint64_t global = lb * threads_per_block(s) + lt;
    *is_float = false;
    switch (m->kind) {
    case MAP_GLOBAL_INDEX: *out = (double)global; return true;
    case MAP_BLOCK: *out = (double)lb; return true;
    case MAP_THREAD: *out = (double)lt; return true;
    case MAP_WARP: *out = (double)(lt / WARP); return true;
    case MAP_LANE: *out = (double)(lt % WARP); return true;
    case MAP_SM: {
        uint64_t n;
        int hi;
        const int32_t *sm = block_sms(a, &n, &hi);
        if (!sm || lb >= n || sm[lb] < 0)
            return false;
        *out = (double)sm[lb];
        return true;
    }
    case MAP_BUFFER: {
        size_t len;
        gl_type type;
        const void *data = mode_buffer(a, m, &len, &type);
        int64_t e = data ? thread_elem(a, m->arg, b, t) : -1;
        if (e < 0 || (uint64_t)e >= len)
            return false;
        gl_value v = spec_buffer_get(data, type, (size_t)e);
        *is_float = spec_type_is_float(type);
        if (*is_float)
            *out = v.f;
        else if (spec_type_is_signed(type))
            *out = (double)v.i;
        else
            *out = (double)v.u;
        return true;
    }
    }
    return false;
}

/* A short description of the mode for the legend ("blockIdx.x", "c[global index]"). */
static void map_mode_label(const app *a, const map_mode *m, char *buf, size_t len)
{
    const gl_spec *s = &a->spec;
    bool grid1d = s->grid[1] == 1 && s->grid[2] == 1;
    bool block1d = s->block[1] == 1 && s->block[2] == 1;
    switch (m->kind) {
    case MAP_GLOBAL_INDEX:
        snprintf(buf, len, "%s",
                 (grid1d && block1d) ? "global index = blockIdx.x*blockDim.x + threadIdx.x"
                                     : "global linear thread index");
        return;
    case MAP_BLOCK:
        snprintf(buf, len, "%s", grid1d ? "blockIdx.x" : "block id (x + y*gridDim.x + ...)");
        return;
    case MAP_THREAD:
        snprintf(buf, len, "%s",
                 block1d ? "threadIdx.x" : "thread id in block (x + y*blockDim.x + ...)");
        return;
    case MAP_WARP: snprintf(buf, len, "warp in block (thread id / 32)"); return;
    case MAP_LANE: snprintf(buf, len, "lane (thread id %% 32)"); return;
    case MAP_SM:
        if (!a->have_run || !a->run.trace)
            snprintf(buf, len, "SM the block ran on (%s)",
                     a->have_run ? "this run recorded none" : "r runs");
        else if (a->run.backend == GL_BACKEND_SIM)
            snprintf(buf, len, "SM (simulated %%smid)");
        else
            snprintf(buf, len, "SM the block ran on (%%smid)");
        return;
    case MAP_BUFFER: {
        const char *name = (m->arg >= 0 && m->arg < s->nargs) ? s->args[m->arg].name : "?";
        uint64_t n;
        const bool *written;
        if (thread_elems(a, &n, &written))
            snprintf(buf, len, "%s[element it %s]", name, written[m->arg] ? "wrote" : "read");
        else if (grid1d && block1d)
            snprintf(buf, len, "%s[global index]%s", name,
                     a->have_run ? "" : " (initial values; r runs)");
        else
            snprintf(buf, len, "%s[element it wrote] (r runs)", name);
        return;
    }
    }
    snprintf(buf, len, "?");
}

/* How values become palette entries: categorical (value mod palette) or ranges. */
typedef struct colouring {
    bool categorical;
    bool is_float;
    double lo, hi; /* value range */
    double width;  /* range bucket width */
    int nb;        /* buckets used */
    int text_w;    /* columns the widest value needs */
} colouring;

static void fmt_value(double v, bool is_float, char *buf, size_t len)
{
    if (!is_float)
        snprintf(buf, len, "%.0f", v);
    else if (isnan(v))
        snprintf(buf, len, "nan");
    else
        snprintf(buf, len, "%.3g", v);
}

static int text_width(double v, bool is_float)
{
    char tmp[64];
    fmt_value(v, is_float, tmp, sizeof tmp);
    return (int)strlen(tmp);
}

static colouring make_colouring(const app *a, const map_mode *m)
{
    const gl_spec *s = &a->spec;
    int pal = term_palette_size();
    colouring c = {.categorical = true, .lo = 0, .hi = 0, .width = 1, .nb = pal};
    uint64_t T = threads_per_block(s), B = block_count(s);
    switch (m->kind) {
    case MAP_GLOBAL_INDEX:
        c.hi = (double)(B * T - 1);
        c.categorical = false;
        break;
    case MAP_BLOCK: c.hi = (double)(B - 1); break;
    case MAP_THREAD: c.hi = (double)(T - 1); break;
    case MAP_WARP: c.hi = (double)((T - 1) / WARP); break;
    case MAP_LANE: c.hi = (double)((T < WARP ? T : WARP) - 1); break;
    case MAP_SM: {
        uint64_t n;
        int hi = 0;
        block_sms(a, &n, &hi);
        c.hi = hi;
        break;
    }
    case MAP_BUFFER: {
        size_t len;
        gl_type type;
        const void *data = mode_buffer(a, m, &len, &type);
        c.categorical = false;
        c.is_float = spec_type_is_float(type);
        uint64_t n = B * T < len ? B * T : len;
        bool any = false, all_int = true;
        for (uint64_t i = 0; data && i < n && i < (1u << 22); i++) {
            gl_value v = spec_buffer_get(data, type, (size_t)i);
            double d = c.is_float ? v.f : spec_type_is_signed(type) ? (double)v.i : (double)v.u;
            if (isnan(d))
                continue;
            if (!any || d < c.lo)
                c.lo = d;
            if (!any || d > c.hi)
                c.hi = d;
            if (d != floor(d) || isinf(d))
                all_int = false;
            any = true;
        }
        if (all_int && isfinite(c.lo) && isfinite(c.hi) && c.hi - c.lo + 1 <= pal) {
            c.categorical = true; /* few distinct integers: one colour each */
            c.is_float = false;
        }
        if (!isfinite(c.lo))
            c.lo = -1e300;
        if (!isfinite(c.hi))
            c.hi = 1e300;
        int w1 = text_width(c.lo, c.is_float), w2 = text_width(c.hi, c.is_float);
        c.text_w = w1 > w2 ? w1 : w2;
        if (c.is_float)
            c.text_w = c.text_w < 5 ? c.text_w : 5;
        break;
    }
    }
    if (m->kind != MAP_BUFFER)
        c.text_w = text_width(c.hi, false);
    if (!c.categorical) {
        double span = c.hi - c.lo;
        if (!c.is_float) {
            c.width = ceil((span + 1) / pal);
            if (c.width < 1)
                c.width = 1;
            c.nb = (int)ceil((span + 1) / c.width);
        } else {
            c.width = span > 0 ? span / pal : 1;
            c.nb = span > 0 ? pal : 1;
        }
    } else if (m->kind == MAP_BUFFER) {
        c.nb = (int)(c.hi - c.lo + 1);
    }
    return c;
}

static int colour_index(const colouring *c, const map_mode *m, double v)
{
    int pal = term_palette_size();
    if (c->categorical) {
        long long k = (long long)(m->kind == MAP_BUFFER ? v - c->lo : v);
        return (int)(((k % pal) + pal) % pal);
    }
    if (isnan(v))
        return 0;
    int k = (int)floor((v - c->lo) / c->width);
    if (k < 0)
        k = 0;
    if (k >= c->nb)
        k = c->nb - 1;
    return k % pal;
}

/* Draws one palette swatch with text at (y, x); returns columns used. */
static int swatch(WINDOW *win, int y, int x, int maxx, int idx, const char *text)
{
    int n = (int)strlen(text) + 2;
    if (x + n > maxx)
        return -1;
    wattron(win, term_palette_attr(idx));
    mvwprintw(win, y, x, " %s ", text);
    wattroff(win, term_palette_attr(idx));
    return n + 1;
}

static void draw_legend(WINDOW *win, const app *a, const map_mode *m, const colouring *c, int y,
                        int x, int w)
{
    char label[160];
    map_mode_label(a, m, label, sizeof label);
    if ((int)strlen(label) > w - 9) { /* too wide: the name, without its formula (an
                                          explanation in parentheses stays) */
        char *cut = strstr(label, " = ");
        if (!cut)
            cut = strstr(label, " (x + ");
        if (cut && cut > label)
            *cut = '\0';
    }
    view_put(win, y, x, w, "colour = ", term_attr(TC_HEADING));
    view_put(win, y, x + 9, w - 9, label, 0);
    int pal = term_palette_size(), cx = x, maxx = x + w;
    /* the swatches' texts: one value each (categorical) or a range each */
    char texts[64][80];
    int n = 0;
    const int categorical_n =
        c->categorical ? (int)(c->hi - (m->kind == MAP_BUFFER ? c->lo : 0) + 1) : 0;
    if (c->categorical) {
        for (int i = 0; i < categorical_n && i < pal && n < 64; i++, n++)
            fmt_value((m->kind == MAP_BUFFER ? c->lo : 0) + i, false, texts[n], sizeof texts[n]);
    } else {
        for (int i = 0; i < c->nb && n < 64; i++, n++) {
            double lo = c->lo + i * c->width;
            double hi = c->is_float ? lo + c->width : lo + c->width - 1;
            if (!c->is_float && hi > c->hi)
                hi = c->hi;
            if (c->is_float && i == c->nb - 1)
                hi = c->hi; /* the last range ends at the largest value */
            char l1[32], l2[32];
            fmt_value(lo, c->is_float, l1, sizeof l1);
            fmt_value(hi, c->is_float, l2, sizeof l2);
            if (!c->is_float && lo == hi)
                snprintf(texts[n], sizeof texts[n], "%s", l1);
            else
                snprintf(texts[n], sizeof texts[n], "%s-%s", l1, l2);
        }
    }
    /* all of them where they fit; else the first ones, "…" and always the last, so that
     * the legend reaches the largest value */
    int need = 0;
    for (int i = 0; i < n; i++)
        need += (int)strlen(texts[i]) + 3;
    const int last_w = n > 0 ? (int)strlen(texts[n - 1]) + 3 : 0;
    const int ew = strcmp(term_glyph()->ellipsis, "...") == 0 ? 3 : 1; /* its columns */
    const int room = need <= w ? maxx : maxx - last_w - ew - 1;
    int i = 0;
    for (; i < n - (need <= w ? 0 : 1); i++) {
        int used = swatch(win, y + 1, cx, room, i % pal, texts[i]);
        if (used < 0)
            break;
        cx += used;
    }
    if (i < n) { /* some left out: the last one after an ellipsis */
        if (i < n - 1) {
            mvwaddstr(win, y + 1, cx, term_glyph()->ellipsis);
            cx += ew + 1;
        }
        if (swatch(win, y + 1, cx, maxx, (n - 1) % pal, texts[n - 1]) > 0)
            cx += last_w;
    }
    if (categorical_n > pal && cx + 22 <= maxx)
        mvwprintw(win, y + 1, cx, "(colours repeat every %d)", pal);
}

/* Thread of cell (row r, column col) of a block drawn rows x cols; false if none. */
static bool thread_at(const gl_spec *s, bool block1d, int r, int col, unsigned t[3])
{
    if (block1d) {
        uint64_t lt = (uint64_t)r * WARP + (uint64_t)col;
        if (lt >= s->block[0])
            return false;
        t[0] = (unsigned)lt, t[1] = 0, t[2] = 0;
    } else {
        t[0] = (unsigned)col;
        t[1] = (unsigned)r % s->block[1];
        t[2] = (unsigned)r / s->block[1];
    }
    return true;
}

/* Records where the map drew thread (b, t): a cell of w columns at (cy, cx) of win. */
static void cell_record(WINDOW *win, int cy, int cx, int w, const unsigned b[3],
                        const unsigned t[3])
{
    view_map_state *S = map_state();
    if (S->ncells == S->cells_cap) {
        int cap = S->cells_cap ? S->cells_cap * 2 : 1024;
        if (cap > (1 << 20))
            return;
        view_map_cell *p = realloc(S->cells, (size_t)cap * sizeof *p);
        if (!p)
            return;
        S->cells = p, S->cells_cap = cap;
    }
    int by, bx;
    getbegyx(win, by, bx);
    view_map_cell *c = &S->cells[S->ncells++];
    c->y = by + cy, c->x = bx + cx, c->w = w;
    memcpy(c->b, b, sizeof c->b);
    memcpy(c->t, t, sizeof c->t);
}

bool map_hit(int y, int x, unsigned b[3], unsigned t[3])
{
    const view_map_state *S = map_state();
    for (int i = 0; i < S->ncells; i++)
        if (S->cells[i].y == y && x >= S->cells[i].x && x < S->cells[i].x + S->cells[i].w) {
            memcpy(b, S->cells[i].b, sizeof S->cells[i].b);
            memcpy(t, S->cells[i].t, sizeof S->cells[i].t);
            return true;
        }
    return false;
}

static bool is_selected(const app *a, const unsigned b[3], const unsigned t[3])
{
    return a->sel_on && memcmp(a->sel_block, b, sizeof a->sel_block) == 0 &&
           memcmp(a->sel_thread, t, sizeof a->sel_thread) == 0;
}

/* Draws one thread's cell (cw columns, the last a gap when cw > 1). */
static void draw_cell(WINDOW *win, const app *a, const map_mode *m, const colouring *c,
                      const unsigned b[3], const unsigned t[3], int cy, int cx, int cw,
                      bool show_text)
{
    cell_record(win, cy, cx, cw, b, t);
    bool sel = is_selected(a, b, t);
    double v;
    bool is_float;
    if (!map_value(a, m, b, t, &v, &is_float)) {
        int at = sel ? term_attr(TC_MAPSEL) : term_attr(TC_DIM);
        wattron(win, at);
        mvwaddstr(win, cy, cx + (cw > 1 ? cw - 2 : 0), term_glyph()->dot);
        wattroff(win, at);
        return;
    }
    int idx = colour_index(c, m, v);
    int cell = cw > 1 ? cw - 1 : 1;
    char text[64], padded[80];
    if (show_text)
        fmt_value(v, is_float && !c->categorical, text, sizeof text);
    else if (!term_has_color())
        snprintf(text, sizeof text, "%c", term_palette_char(idx));
    else
        text[0] = '\0';
    if (sel && !show_text)
        snprintf(text, sizeof text, "%s", "@");
    snprintf(padded, sizeof padded, "%*s", cell, text);
    int at = sel ? term_attr(TC_MAPSEL) : term_palette_attr(idx);
    wattron(win, at);
    mvwaddnstr(win, cy, cx, padded, cell);
    wattroff(win, at);
}

static void block_of(const gl_spec *s, uint64_t bi, unsigned b[3])
{
    b[0] = (unsigned)(bi % s->grid[0]);
    b[1] = (unsigned)((bi / s->grid[0]) % s->grid[1]);
    b[2] = (unsigned)(bi / ((uint64_t)s->grid[0] * s->grid[1]));
}

static void block_label(const gl_spec *s, const unsigned b[3], bool short_form, char *buf,
                        size_t len)
{
    bool grid1d = s->grid[1] == 1 && s->grid[2] == 1;
    if (grid1d)
        snprintf(buf, len, short_form ? "%u" : "block %u", b[0]);
    else
        snprintf(buf, len, short_form ? "%u,%u,%u" : "block (%u,%u,%u)", b[0], b[1], b[2]);
}

/* The widest cell (value + gap, else 2, else 1 column) with which `cols` cells and
 * `extra` columns fit in w. */
static int pick_cell_width(int cols, int extra, int text_w, int w)
{
    const int cands[3] = {text_w + 1, 2, 1};
    for (int i = 0; i < 3; i++)
        if (cols * cands[i] - (cands[i] > 1) + extra <= w)
            return cands[i];
    return 1;
}

static void draw_more(WINDOW *win, int y, int x, int w, uint64_t more)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s %llu more block%s", term_glyph()->ellipsis,
             (unsigned long long)more, more == 1 ? "" : "s");
    view_put(win, y, x, w, buf, term_attr(TC_DIM));
}

/* The grid map of the current spec; the selected thread (a->sel_on) is marked and
 * described on the last lines. */
void view_map_draw(WINDOW *win, const app *a, void *self, const trace_t *trace, int y, int x, int h,
                   int w)
{
    (void)trace;
    view_map_state *S = self;
    S->ncells = 0;
    if (!a->have_spec || h < 3 || w < 12)
        return;
    const gl_spec *s = &a->spec;
    const map_mode *m = &S->modes[S->mode];
    colouring c = make_colouring(a, m);
    draw_legend(win, a, m, &c, y, x, w);
    if (h >= 6) { /* the last lines describe the selected thread */
        char info[1024];
        if (a->sel_on) {
            /* pack the " | "-separated parts into lines of w columns */
            map_thread_info(a, a->sel_block, a->sel_thread, info, sizeof info);
            if (h - 5 < 2 && (int)strlen(info) > w) { /* one short line: shorter names */
                char tmp[1024];
                size_t o = 0;
                for (const char *p = info; *p && o + 8 < sizeof tmp;) {
                    if (strncmp(p, "blockIdx.x=", 11) == 0)
                        o += (size_t)snprintf(tmp + o, sizeof tmp - o, "b"), p += 11;
                    else if (strncmp(p, "threadIdx.x=", 12) == 0)
                        o += (size_t)snprintf(tmp + o, sizeof tmp - o, "t"), p += 12;
                    else if (strncmp(p, " | ", 3) == 0)
                        tmp[o++] = ' ', p += 3;
                    else
                        tmp[o++] = *p++;
                }
                tmp[o] = '\0';
                snprintf(info, sizeof info, "%s", tmp);
            }
            char lines[4][512];
            int nl = 0, maxl = h - 5 < 1 ? 1 : h - 5 > 4 ? 4 : h - 5;
            lines[0][0] = '\0';
            for (char *part = strtok(info, "|"); part && nl < maxl; part = strtok(NULL, "|")) {
                while (*part == ' ')
                    part++;
                size_t pl = strlen(part);
                while (pl && part[pl - 1] == ' ')
                    part[--pl] = '\0';
                size_t cur = strlen(lines[nl]);
                if (cur && cur + 3 + pl > (size_t)w) {
                    if (nl + 1 >= maxl)
                        break;
                    lines[++nl][0] = '\0';
                    cur = 0;
                }
                /* a part wider than the pane wraps at its spaces */
                while (pl > (size_t)w - cur && nl + 1 < maxl) {
                    size_t cut = (size_t)w - cur;
                    while (cut > 0 && part[cut] != ' ')
                        cut--;
                    if (cut == 0)
                        break;
                    snprintf(lines[nl] + cur, sizeof lines[nl] - cur, "%.*s", (int)cut, part);
                    part += cut + 1, pl -= cut + 1;
                    lines[++nl][0] = '\0';
                    cur = 0;
                }
                snprintf(lines[nl] + cur, sizeof lines[nl] - cur, "%s%s", cur ? " | " : "", part);
            }
            nl++;
            h -= nl;
            wattron(win, term_attr(TC_HEADING));
            for (int i = 0; i < nl; i++)
                mvwaddnstr(win, y + h + i, x, lines[i], w);
            wattroff(win, term_attr(TC_HEADING));
        } else {
            h--;
            wattron(win, term_attr(TC_DIM));
            mvwaddnstr(win, y + h, x, a->opts.demo ? "" : "m or click: pick a thread", w);
            wattroff(win, term_attr(TC_DIM));
        }
    }

    uint64_t T = threads_per_block(s), B = block_count(s);
    bool block1d = s->block[1] == 1 && s->block[2] == 1,
         grid1d = s->grid[1] == 1 && s->grid[2] == 1;
    int cols = block1d ? (int)(s->block[0] < WARP ? s->block[0] : WARP) : (int)s->block[0];
    int rows = block1d ? (int)((s->block[0] + WARP - 1) / WARP) : (int)(s->block[1] * s->block[2]);

    int top = y + 2;
    if (h >= 9) { /* room for the shape line */
        char shape[200];
        /* the shape, its explanation where there is room; never a cut number */
        if (snprintf(shape, sizeof shape, "grid (%u,%u,%u) x block (%u,%u,%u) = %llu threads%s",
                     s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2],
                     (unsigned long long)(B * T),
                     block1d ? (T > WARP ? "; a row = a warp" : "")
                             : "; rows = threadIdx.y, columns = threadIdx.x") > w)
            snprintf(shape, sizeof shape, "grid (%u,%u,%u) x block (%u,%u,%u): %llu", s->grid[0],
                     s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2],
                     (unsigned long long)(B * T));
        wattron(win, term_attr(TC_DIM));
        mvwaddnstr(win, top, x, shape, w);
        wattroff(win, term_attr(TC_DIM));
        top++;
    }
    int avail_h = y + h - top;
    if (avail_h < 1)
        return;
    const term_glyphs *g = term_glyph();

    /* Boxes: each block a bordered box of rows x cols cells. */
    int cw = pick_cell_width(cols, 2, c.text_w, w);
    int shown_cols = cols, inner_w = cols * cw - (cw > 1);
    if (inner_w + 2 > w) {
        shown_cols = (w - 2 + (cw > 1)) / cw;
        inner_w = shown_cols * cw - (cw > 1);
    }
    int box_w = inner_w + 2;
    { /* widen narrow boxes to fit "block N" when there is room */
        char label[64];
        block_label(s, (unsigned[3]){s->grid[0] - 1, s->grid[1] - 1, s->grid[2] - 1}, false, label,
                    sizeof label);
        int want = (int)strlen(label) + 6;
        if (box_w < want && want <= w)
            box_w = want;
    }
    int per_row = (w + 1) / (box_w + 1);
    if (per_row < 1)
        per_row = 1;
    int box_rows_fit = avail_h / (rows + 2);
    uint64_t box_cap = (uint64_t)per_row * (uint64_t)box_rows_fit;

    /* One-row blocks that do not all fit as boxes: one line per block instead
     * ("block 3 [cells]"), which shows far more of the grid. */
    if (rows == 1 && box_cap < B) {
        char label[64];
        const unsigned *last = (unsigned[3]){s->grid[0] - 1, s->grid[1] - 1, s->grid[2] - 1};
        block_label(s, last, false, label, sizeof label);
        int long_w = (int)strlen(label) + 1;
        block_label(s, last, true, label, sizeof label);
        int short_w = (int)strlen(label) + 1;
        /* the values with a long label, with a short one, else colours only */
        bool short_labels = false;
        int lw = long_w, ccw = c.text_w + 1;
        if (long_w + cols * ccw - 1 > w) {
            if (short_w + cols * ccw - 1 <= w)
                short_labels = true, lw = short_w;
            else
                ccw = pick_cell_width(cols, long_w, c.text_w, w);
        }
        int line_w = lw + cols * ccw;
        int per_line = (w + 2) / (line_w + 2);
        if (per_line < 1)
            per_line = 1;
        int lines = (uint64_t)per_line * (uint64_t)avail_h >= B ? avail_h : avail_h - 1;
        if (lines < 1)
            lines = 1;
        uint64_t nshow = (uint64_t)per_line * (uint64_t)lines;
        if (nshow > B)
            nshow = B;
        for (uint64_t bi = 0; bi < nshow; bi++) {
            unsigned b[3], t[3];
            block_of(s, bi, b);
            block_label(s, b, short_labels, label, sizeof label);
            int ly = top + (int)(bi / (uint64_t)per_line),
                lx = x + (int)(bi % (uint64_t)per_line) * (line_w + 2);
            wattron(win, term_attr(TC_DIM));
            mvwaddnstr(win, ly, lx, label, w);
            wattroff(win, term_attr(TC_DIM));
            for (int col = 0; col < cols && lx + lw + col * ccw < x + w; col++)
                if (thread_at(s, block1d, 0, col, t))
                    draw_cell(win, a, m, &c, b, t, ly, lx + lw + col * ccw, ccw,
                              ccw == c.text_w + 1);
        }
        if (nshow < B)
            draw_more(win, top + lines, x, w, B - nshow);
        return;
    }

    int shown_rows = rows;
    if (box_rows_fit < 1)
        shown_rows = avail_h - 3 > 0 ? avail_h - 3 : (avail_h - 2 > 0 ? avail_h - 2 : 0);
    if (shown_rows <= 0)
        return;
    int box_h = shown_rows + 2;
    /* Blocks laid out by blockIdx: a 1D grid wraps its blocks into rows; a 2D or 3D grid
     * puts blockIdx.x across and blockIdx.y down (z planes one under the other), as the
     * threads inside a block are. The rows and columns that fit start where they show
     * the selected thread's block. */
    uint64_t bcols, brows;
    if (grid1d)
        bcols = (uint64_t)per_row, brows = (B + bcols - 1) / bcols;
    else
        bcols = s->grid[0] < (unsigned)per_row ? s->grid[0] : (uint64_t)per_row,
        brows = (uint64_t)s->grid[1] * s->grid[2];
    uint64_t fit = (uint64_t)(avail_h / box_h);
    bool all_cols = grid1d || bcols == s->grid[0];
    /* "… N more blocks" goes beside the last row of boxes when there is room to their
     * right, else on a line of its own under them */
    int more_w = 14; /* "… N more blocks": 14 columns and N's digits */
    for (uint64_t v = B; v; v /= 10)
        more_w++;
    bool more_beside = (int)bcols * (box_w + 1) + more_w <= w;
    if ((fit < brows || !all_cols) && !more_beside && (avail_h - 1) / box_h >= 1)
        fit = (uint64_t)((avail_h - 1) / box_h);
    if (fit < 1)
        fit = 1;
    uint64_t shown_brows = brows < fit ? brows : fit, brow0 = 0, bcol0 = 0;
    if (a->sel_on) {
        uint64_t sel_r = grid1d ? a->sel_block[0] / bcols
                                : a->sel_block[1] + (uint64_t)a->sel_block[2] * s->grid[1];
        uint64_t sel_c = grid1d ? 0 : a->sel_block[0];
        if (sel_r >= shown_brows)
            brow0 = sel_r - shown_brows + 1;
        if (sel_c >= bcols)
            bcol0 = sel_c - bcols + 1;
    }
    bool show_text = cw == c.text_w + 1;
    /* rows cut off: start at the one that holds the selected thread */
    int row0 = 0;
    if (a->sel_on && shown_rows < rows) {
        int sel_row = block1d ? (int)(linear_thread(s, a->sel_thread) / WARP)
                              : (int)(a->sel_thread[1] + a->sel_thread[2] * s->block[1]);
        if (sel_row >= shown_rows)
            row0 = sel_row - shown_rows + 1;
    }
    uint64_t nshow = 0;
    for (uint64_t br = 0; br < shown_brows; br++)
        for (uint64_t bc = 0; bc < bcols; bc++) {
            unsigned b[3], t[3];
            if (grid1d) {
                uint64_t bi = (brow0 + br) * bcols + bc;
                if (bi >= B)
                    break;
                block_of(s, bi, b);
            } else {
                uint64_t r = brow0 + br;
                b[0] = (unsigned)(bcol0 + bc), b[1] = (unsigned)(r % s->grid[1]),
                b[2] = (unsigned)(r / s->grid[1]);
            }
            nshow++;
            int by = top + (int)br * box_h;
            int bx = x + (int)bc * (box_w + 1);
            char label[64];
            block_label(s, b, false, label, sizeof label);
            if ((int)strlen(label) + 2 > box_w - 4) { /* too narrow: the short form */
                block_label(s, b, true, label, sizeof label);
                if ((int)strlen(label) + 2 > box_w - 4)
                    label[0] = '\0';
            }
            view_box(win, by, bx, box_h, box_w, label);
            for (int r = 0; r < shown_rows; r++) {
                for (int col = 0; col < shown_cols; col++)
                    if (thread_at(s, block1d, r + row0, col, t))
                        draw_cell(win, a, m, &c, b, t, by + 1 + r, bx + 1 + col * cw, cw,
                                  show_text);
                if (shown_cols < cols)
                    mvwaddstr(win, by + 1 + r, bx + box_w - 1, g->ellipsis);
            }
            if (shown_rows < rows)
                mvwaddstr(win, by + box_h - 1, bx + 2, g->ellipsis);
        }
    if (nshow < B) {
        if (more_beside)
            draw_more(win, top + (int)shown_brows * box_h - 1, x + (int)bcols * (box_w + 1),
                      w - (int)bcols * (box_w + 1), B - nshow);
        else if (top + (int)shown_brows * box_h < y + h)
            draw_more(win, top + (int)shown_brows * box_h, x, w, B - nshow);
    }
}

/* The distinct elements of buffer `arg` thread `global` stored to in the last run (else
 * loaded from, when it stored to none), in trace order: up to max in out; returns how
 * many there are (0 when it touched none or the run has no memory trace). */
static int thread_touches(const app *a, int arg, uint64_t global, int64_t *out, int max)
{
    const trace_t *t = view_trace(a);
    if (!t || t->level < TRACE_MEMORY)
        return 0;
    uint64_t T = threads_per_block(&a->spec);
    uint32_t blk = (uint32_t)(global / T);
    unsigned warp = (unsigned)(global % T / WARP), lane = (unsigned)(global % T % WARP);
    int counts[2] = {0, 0};
    int64_t seen[2][64];
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_MEM || e->space != TRACE_SPACE_GLOBAL || e->block != blk ||
            e->warp != warp || !((e->mask >> lane) & 1u) || trace_event_is_bulk(t, e))
            continue;
        uint64_t elem;
        if (map_buffer_at(a, trace_event_addrs(t, e)[lane], &elem, NULL) != arg)
            continue;
        int k = e->op != TRACE_LOAD;
        bool dup = false;
        for (int j = 0; j < counts[k] && j < 64 && !dup; j++)
            dup = seen[k][j] == (int64_t)elem;
        if (dup)
            continue;
        if (counts[k] < 64)
            seen[k][counts[k]] = (int64_t)elem;
        counts[k]++;
    }
    int k = counts[1] ? 1 : 0;
    for (int j = 0; j < counts[k] && j < max && j < 64; j++)
        out[j] = seen[k][j];
    return counts[k];
}

/* Describes thread (b, t): "block (1,0,0) thread (5,0,0) | global 13 | warp 0 lane 5 |
 * in=13 out=169" (values of every pointer argument at the global index). */
static void map_thread_info(const app *a, const unsigned b[3], const unsigned t[3], char *buf,
                            size_t len)
{
    const gl_spec *s = &a->spec;
    uint64_t lt = linear_thread(s, t);
    uint64_t global = linear_block(s, b) * threads_per_block(s) + lt;
    bool grid1d = s->grid[1] == 1 && s->grid[2] == 1,
         block1d = s->block[1] == 1 && s->block[2] == 1;
    int n;
    if (grid1d && block1d)
        n = snprintf(buf, len, "blockIdx.x=%u threadIdx.x=%u | i=%llu", b[0], t[0],
                     (unsigned long long)global);
    else {
        n = snprintf(buf, len, "blockIdx=(%u,%u,%u) threadIdx=(%u,%u,%u) | x=%llu y=%llu", b[0],
                     b[1], b[2], t[0], t[1], t[2], (unsigned long long)b[0] * s->block[0] + t[0],
                     (unsigned long long)b[1] * s->block[1] + t[1]);
        if (s->grid[2] > 1 || s->block[2] > 1)
            n += snprintf(buf + n, len - (size_t)n, " z=%llu",
                          (unsigned long long)b[2] * s->block[2] + t[2]);
    }
    /* the element of each buffer the thread wrote (else read), with its value */
    uint64_t nth;
    bool traced = thread_elems(a, &nth, NULL) != NULL;
    for (int i = 0; i < s->nargs && n > 0 && (size_t)n < len; i++) {
        if (!s->args[i].is_ptr)
            continue;
        map_mode mm = {MAP_BUFFER, i};
        double v;
        bool is_float;
        int64_t e = thread_elem(a, i, b, t);
        if (e < 0) {
            if (traced)
                n += snprintf(buf + n, len - (size_t)n, " | %s: untouched", s->args[i].name);
            continue;
        }
        if (!map_value(a, &mm, b, t, &v, &is_float)) {
            n += snprintf(buf + n, len - (size_t)n, " | %s[%lld]: past its end (%zu element%s)",
                          s->args[i].name, (long long)e, s->args[i].len,
                          s->args[i].len == 1 ? "" : "s");
            continue;
        }
        char val[64];
        if (is_float && !isnan(v))
            snprintf(val, sizeof val, "%g", v);
        else
            fmt_value(v, is_float, val, sizeof val);
        int64_t list[4];
        int cnt = traced ? thread_touches(a, i, global, list, 4) : 0;
        if (cnt > 1) { /* a grid-stride loop: its elements, the value of the last */
            n += snprintf(buf + n, len - (size_t)n, " | %s[", s->args[i].name);
            for (int j = 0; j < cnt && j < 3 && n > 0 && (size_t)n < len; j++)
                n += snprintf(buf + n, len - (size_t)n, "%s%lld", j ? "," : "", (long long)list[j]);
            if (n > 0 && (size_t)n < len)
                n += snprintf(buf + n, len - (size_t)n, "%s]: [%lld]=%s", cnt > 3 ? ",..." : "",
                              (long long)e, val);
        } else {
            n += snprintf(buf + n, len - (size_t)n, " | %s[%lld]=%s", s->args[i].name, (long long)e,
                          val);
        }
    }
    if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " | warp %llu lane %llu",
                 (unsigned long long)(lt / WARP), (unsigned long long)(lt % WARP));
}

int map_natural_width(const app *a)
{
    if (!a->have_spec || map_state()->nmodes == 0)
        return 0;
    const gl_spec *s = &a->spec;
    colouring c = make_colouring(a, &map_state()->modes[map_state()->mode]);
    bool block1d = s->block[1] == 1 && s->block[2] == 1;
    int cols = block1d ? (int)(s->block[0] < WARP ? s->block[0] : WARP) : (int)s->block[0];
    int rows = block1d ? (int)((s->block[0] + WARP - 1) / WARP) : (int)(s->block[1] * s->block[2]);
    uint64_t B = block_count(s);
    int cw = c.text_w + 1;
    int box = cols * cw + 1;
    if (box > 48)
        box = cols * 2 + 1;
    if (box > 48)
        box = cols + 2;
    if (box < 14)
        box = 14;
    int per_row = rows == 1 ? 1 : (B >= 2 ? 2 : 1);
    if (rows > 1 && (s->grid[1] > 1 || s->grid[2] > 1)) /* a row of blocks is blockIdx.x */
        per_row = s->grid[0] < 3 ? (int)s->grid[0] : 3;
    if (rows == 1 && box < 20 && B > 2)
        per_row = 2;
    return per_row * (box + 1) + 4;
}

/* Legend, shape line, blocks, info line. */
int view_map_height(const app *a, int w)
{
    if (!a->have_spec || map_state()->nmodes == 0)
        return 0;
    const gl_spec *s = &a->spec;
    colouring c = make_colouring(a, &map_state()->modes[map_state()->mode]);
    bool block1d = s->block[1] == 1 && s->block[2] == 1;
    int cols = block1d ? (int)(s->block[0] < WARP ? s->block[0] : WARP) : (int)s->block[0];
    int rows = block1d ? (int)((s->block[0] + WARP - 1) / WARP) : (int)(s->block[1] * s->block[2]);
    uint64_t B = block_count(s);
    int cw = pick_cell_width(cols, 2, c.text_w, w);
    int box_w = cols * cw - (cw > 1) + 2;
    if (box_w < 14)
        box_w = 14;
    uint64_t per_row = (uint64_t)((w + 1) / (box_w + 1));
    if (per_row < 1)
        per_row = 1;
    uint64_t box_rows = (B + per_row - 1) / per_row;
    if (s->grid[1] > 1 || s->grid[2] > 1)
        box_rows = (uint64_t)s->grid[1] * s->grid[2]; /* by blockIdx.y */
    if (rows == 1)
        box_rows = (B + per_row - 1) / per_row, rows = -1; /* one line per block */
    uint64_t h = 4 + box_rows * (uint64_t)(rows + 2);
    return h > 200 ? 200 : (int)h;
}

void map_colourings(const app *a, const char *map_value)
{
    static const struct {
        const char *name;
        map_kind kind;
    } fixed[] = {
        {"global_index", MAP_GLOBAL_INDEX},
        {"block", MAP_BLOCK},
        {"thread", MAP_THREAD},
        {"warp", MAP_WARP},
        {"lane", MAP_LANE},
        {"sm", MAP_SM},
    };
    view_map_state *S = map_state();
    S->nmodes = 0;
    S->mode = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        S->modes[S->nmodes++] = (map_mode){fixed[i].kind, -1};
        if (map_value && strcmp(map_value, fixed[i].name) == 0)
            S->mode = S->nmodes - 1;
    }
    for (int i = 0; i < a->spec.nargs && S->nmodes < MAP_MAX_MODES; i++) {
        if (!a->spec.args[i].is_ptr)
            continue;
        S->modes[S->nmodes++] = (map_mode){MAP_BUFFER, i};
        if (map_value && strncmp(map_value, "buffer:", 7) == 0 &&
            strcmp(map_value + 7, a->spec.args[i].name) == 0)
            S->mode = S->nmodes - 1;
    }
}

void map_colourings_clear(void)
{
    map_state()->nmodes = map_state()->mode = 0;
}

int map_colouring(void)
{
    return map_state()->mode;
}

void map_colouring_keep(int i)
{
    view_map_state *S = map_state();
    if (i < S->nmodes)
        S->mode = i;
}

bool map_colouring_next(int d)
{
    view_map_state *S = map_state();
    if (S->nmodes == 0)
        return false;
    S->mode = (S->mode + d + S->nmodes) % S->nmodes;
    return true;
}
