/* views.c — draws every pane from the app state. Each frame: werase and redraw every
 * window, wnoutrefresh each, one doupdate (curses sends only what changed, so there
 * is no flicker; kilo's editorRefreshScreen does the same with an append buffer). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/app.h"
#include "tui/term.h"

#define PLAIN 0 /* no attribute (A_NORMAL is unsigned) */

enum { MIN_COLS = 60, MIN_ROWS = 16, WIDE_COLS = 140, WIDE_ROWS = 32 };

/* ------------------------------------------------------------- text helpers */

/* Bytes of the longest prefix of s[0..n) that fits in maxcols display columns;
 * *cols gets its width. Invalid bytes count as one column each. */
static size_t mb_fit(const char *s, size_t n, int maxcols, int *cols)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t i = 0;
    int c = 0;
    while (i < n) {
        wchar_t wc;
        size_t k = mbrtowc(&wc, s + i, n - i, &st);
        int w = 1;
        if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
            k = 1;
            memset(&st, 0, sizeof st);
        } else {
            w = wcwidth(wc);
            if (w < 0) w = 1;
        }
        if (c + w > maxcols) break;
        c += w;
        i += k;
    }
    if (cols) *cols = c;
    return i;
}

/* Writes s at (y, x), cut to maxcols columns. Returns the columns written. */
static int put(WINDOW *win, int y, int x, int maxcols, const char *s, int attr)
{
    if (maxcols <= 0 || !s) return 0;
    int cols;
    size_t n = mb_fit(s, strlen(s), maxcols, &cols);
    wattron(win, attr);
    mvwaddnstr(win, y, x, s, (int)n);
    wattroff(win, attr);
    return cols;
}

typedef struct tline {
    char *s;
    int attr;
} tline;

/* A list of display lines (wrapped text), rebuilt each frame. */
typedef struct tlines {
    tline *v;
    int n, cap;
} tlines;

static void tl_add(tlines *L, const char *s, size_t n, int attr)
{
    if (L->n == L->cap) {
        int cap = L->cap ? L->cap * 2 : 32;
        tline *v = realloc(L->v, (size_t)cap * sizeof *v);
        if (!v) return;
        L->v = v, L->cap = cap;
    }
    char *copy = malloc(n + 1);
    if (!copy) return;
    memcpy(copy, s, n);
    copy[n] = '\0';
    L->v[L->n++] = (tline){copy, attr};
}

/* Word-wraps text to width columns: '\n' ends a paragraph, long words are cut. */
static void tl_wrap(tlines *L, const char *text, int width, int attr)
{
    if (width < 4) width = 4;
    if (!text) return;
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, '\n');
        size_t plen = end ? (size_t)(end - p) : strlen(p);
        if (plen == 0) tl_add(L, "", 0, attr);
        while (plen > 0) {
            int cols;
            size_t fit = mb_fit(p, plen, width, &cols);
            if (fit >= plen) {
                tl_add(L, p, plen, attr);
                break;
            }
            size_t cut = fit;
            while (cut > 0 && p[cut] != ' ') cut--;
            if (cut == 0) cut = fit ? fit : 1; /* a word longer than the line */
            tl_add(L, p, cut, attr);
            while (cut < plen && p[cut] == ' ') cut++;
            p += cut, plen -= cut;
        }
        if (!end) break;
        p = end + 1;
    }
}

static void tl_printf(tlines *L, int width, int attr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void tl_printf(tlines *L, int width, int attr, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tl_wrap(L, buf, width, attr);
}

static void tl_free(tlines *L)
{
    for (int i = 0; i < L->n; i++) free(L->v[i].s);
    free(L->v);
    L->v = NULL, L->n = L->cap = 0;
}

/* Draws lines [top, top+rows) of L at (y, x); returns the clamped top. */
static int tl_draw(WINDOW *win, const tlines *L, int top, int y, int x, int rows, int cols)
{
    if (top > L->n - rows) top = L->n - rows;
    if (top < 0) top = 0;
    for (int r = 0; r < rows && top + r < L->n; r++)
        put(win, y + r, x, cols, L->v[top + r].s, L->v[top + r].attr);
    return top;
}

/* --------------------------------------------------------------- windows */

enum { W_TITLE, W_STATUS, W_FULL, W_TEXT, W_SOURCE, W_MAP, W_RESULT, W_HELP, W__N };
static WINDOW *g_win[W__N];

/* The window for a slot at this geometry (recreated when the geometry changed). */
static WINDOW *pane_win(int slot, int y, int x, int h, int w)
{
    WINDOW *win = g_win[slot];
    if (win) {
        int cy, cx, ch, cw;
        getbegyx(win, cy, cx);
        getmaxyx(win, ch, cw);
        if (cy != y || cx != x || ch != h || cw != w) {
            delwin(win);
            win = NULL;
        }
    }
    if (!win) win = newwin(h, w, y, x);
    g_win[slot] = win;
    if (win) {
        wbkgdset(win, ' ' | PLAIN);
        werase(win);
    }
    return win;
}

static void pane_show(WINDOW *win)
{
    if (!win) return;
    touchwin(win);
    wnoutrefresh(win);
}

void view_free(void)
{
    for (int i = 0; i < W__N; i++)
        if (g_win[i]) delwin(g_win[i]), g_win[i] = NULL;
}

void view_box(WINDOW *win, int y, int x, int h, int w, const char *label)
{
    const term_glyphs *g = term_glyph();
    if (h < 2 || w < 2) return;
    wattron(win, term_attr(TC_BORDER));
    mvwaddstr(win, y, x, g->tl);
    for (int i = 1; i < w - 1; i++) waddstr(win, g->h);
    waddstr(win, g->tr);
    for (int r = 1; r < h - 1; r++) {
        mvwaddstr(win, y + r, x, g->v);
        mvwaddstr(win, y + r, x + w - 1, g->v);
    }
    mvwaddstr(win, y + h - 1, x, g->bl);
    for (int i = 1; i < w - 1; i++) waddstr(win, g->h);
    waddstr(win, g->br); /* ERR in a window's last cell (no room to advance); drawn */
    wattroff(win, term_attr(TC_BORDER));
    if (label && *label && w > 6) {
        char buf[256];
        snprintf(buf, sizeof buf, " %s ", label);
        put(win, y, x + 2, w - 4, buf, term_attr(TC_HEADING));
    }
}

/* A framed pane: the border with its title; returns the window. */
static WINDOW *pane(int slot, int y, int x, int h, int w, const char *title)
{
    WINDOW *win = pane_win(slot, y, x, h, w);
    if (win) view_box(win, 0, 0, h, w, title);
    return win;
}

static const char *base_name(const char *path)
{
    if (!path) return "";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---------------------------------------------------------------- bars */

static void draw_bar(int slot, int y, int attr, const char *left, const char *right)
{
    WINDOW *win = pane_win(slot, y, 0, 1, COLS);
    if (!win) return;
    wbkgdset(win, ' ' | attr);
    werase(win);
    int rw = 0, lw = 0;
    mb_fit(left, strlen(left), COLS, &lw);
    if (right && *right) {
        mb_fit(right, strlen(right), COLS, &rw);
        if (lw + rw + 4 < COLS) put(win, 0, COLS - rw - 1, rw, right, attr);
        else rw = 0; /* the left part matters more */
    }
    put(win, 0, 1, COLS - rw - 3, left, attr);
    pane_show(win);
}

static void draw_status(const app *a)
{
    char backend[300], left[700];
    app_backend_label(a, backend, sizeof backend);
    if (a->screen == SCREEN_LESSON && a->lesson) {
        snprintf(left, sizeof left, "lesson %d %s step %d/%d %s %s", a->lesson->number,
                 term_glyph()->dot, a->step + 1, app_nsteps(a), term_glyph()->dot, backend);
    } else {
        snprintf(left, sizeof left, "%d lesson%s %s %s", a->nlessons, a->nlessons == 1 ? "" : "s",
                 term_glyph()->dot, backend);
    }
    const char *right = a->flash[0] ? a->flash : "?:help  q:quit";
    draw_bar(W_STATUS, LINES - 1, term_attr(TC_STATUS), left, right);
}

static void draw_title(const app *a)
{
    char left[512];
    if (a->screen == SCREEN_LESSON && a->lesson)
        snprintf(left, sizeof left, "gpulearn %s Lesson %d: %s",
                 strcmp(term_glyph()->h, "-") ? "\u2014" : "-", a->lesson->number,
                 a->lesson->title ? a->lesson->title : "");
    else snprintf(left, sizeof left, "gpulearn %s learn CUDA by running it", strcmp(term_glyph()->h, "-") ? "\u2014" : "-");
    char right[64] = "";
    const gl_step *st = app_cur_step(a);
    if (a->screen == SCREEN_LESSON) snprintf(right, sizeof right, "%s", st ? (st->title ? st->title : "") : "Exercise");
    draw_bar(W_TITLE, 0, term_attr(TC_TITLE), left, right);
}

/* ------------------------------------------------------------ lesson list */

static void draw_list(const app *a, int y, int h)
{
    WINDOW *win = pane(W_FULL, y, 0, h, COLS, "Lessons");
    if (!win) return;
    int rows = h - 2, cols = COLS - 4;
    if (a->list_error[0]) {
        tlines L = {0};
        tl_wrap(&L, a->list_error, cols, term_attr(TC_BAD));
        tl_draw(win, &L, 0, 1, 2, rows, cols);
        tl_free(&L);
        pane_show(win);
        return;
    }
    if (a->nlessons == 0) put(win, 1, 2, cols, "No lessons found.", term_attr(TC_WARN));
    int title_w = 0;
    for (int i = 0; i < a->nlessons; i++) {
        int w;
        const char *t = a->lessons[i].title ? a->lessons[i].title : "";
        mb_fit(t, strlen(t), 60, &w);
        if (w > title_w) title_w = w;
    }
    for (int r = 0; r < rows && a->list_top + r < a->nlessons; r++) {
        int i = a->list_top + r;
        const gl_lesson *l = &a->lessons[i];
        bool sel = i == a->list_sel;
        int attr = sel ? term_attr(TC_SELECTED) : PLAIN;
        if (sel) {
            wattron(win, attr);
            mvwhline(win, 1 + r, 1, ' ', COLS - 2);
            wattroff(win, attr);
        }
        char num[16];
        snprintf(num, sizeof num, "%2d", l->number);
        int x = 2;
        x += put(win, 1 + r, x, cols, num, sel ? attr : term_attr(TC_HEADING)) + 2;
        int tw = put(win, 1 + r, x, COLS - 2 - x, l->title ? l->title : "", attr | A_BOLD);
        x += (title_w > tw ? title_w : tw) + 3;
        if (x < COLS - 3) put(win, 1 + r, x, COLS - 2 - x, l->summary ? l->summary : "", sel ? attr : term_attr(TC_DIM));
    }
    pane_show(win);
}

/* ------------------------------------------------------------ lesson panes */

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? (hi < lo ? lo : hi) : v;
}

/* The step's (or the exercise's) text wrapped to cols columns. */
static void text_lines(const app *a, int cols, tlines *out)
{
    tlines L = {0};
    if (app_on_exercise(a)) {
        const gl_exercise *ex = a->lesson->exercise;
        tl_wrap(&L, ex->title ? ex->title : "Exercise", cols, term_attr(TC_HEADING));
        tl_add(&L, "", 0, 0);
        tl_wrap(&L, ex->text, cols, PLAIN);
        tl_add(&L, "", 0, 0);
        tl_printf(&L, cols, term_attr(TC_DIM), "Your kernel: %s (g grades it)", ex->starter ? ex->starter : "?");
        for (int i = 0; i < a->hints_shown && i < ex->nhints; i++) {
            tl_add(&L, "", 0, 0);
            tl_printf(&L, cols, term_attr(TC_WARN), "Hint %d: %s", i + 1, ex->hints[i]);
        }
        if (a->hints_shown < ex->nhints)
            tl_printf(&L, cols, term_attr(TC_DIM), "h: show a hint (%d left)", ex->nhints - a->hints_shown);
    } else {
        const gl_step *st = app_cur_step(a);
        tl_wrap(&L, st && st->title ? st->title : "", cols, term_attr(TC_HEADING));
        tl_add(&L, "", 0, 0);
        tl_wrap(&L, st ? st->text : "", cols, PLAIN);
    }
    *out = L;
}

static void draw_text(const app *a, WINDOW *win, int h, int w, struct view_metrics *m)
{
    tlines L;
    int cols = w - 4;
    text_lines(a, cols, &L);
    m->text_lines = L.n;
    m->text_rows = h - 2;
    int top = tl_draw(win, &L, a->text_top, 1, 2, h - 2, cols);
    if (top + h - 2 < L.n) put(win, h - 1, w - 14, 11, " PgDn more ", term_attr(TC_DIM));
    tl_free(&L);
}

static bool fault_in_source(const app *a, int *line)
{
    if (!a->have_run || a->run.fault.kind == SIM_FAULT_NONE || a->run.fault.src_line <= 0) return false;
    if (a->run.fault.src_file && a->src.path &&
        strcmp(base_name(a->run.fault.src_file), base_name(a->src.path)) != 0)
        return false;
    *line = a->run.fault.src_line;
    return true;
}

static void draw_source(const app *a, WINDOW *win, int h, int w, struct view_metrics *m)
{
    int rows = h - 2;
    m->src_rows = rows;
    if (!a->src.text) {
        put(win, 1, 2, w - 4, "(no kernel source)", term_attr(TC_DIM));
        return;
    }
    int digits = 1;
    for (int n = a->src.nlines; n >= 10; n /= 10) digits++;
    int fault_line = 0;
    bool fault = fault_in_source(a, &fault_line);
    int top = a->src_top;
    if (top > a->src.nlines - rows) top = a->src.nlines - rows;
    if (top < 0) top = 0;
    for (int r = 0; r < rows && top + r < a->src.nlines; r++) {
        int ln = top + r + 1;
        char num[32];
        snprintf(num, sizeof num, "%*d ", digits > 9 ? 9 : digits, ln % 1000000000);
        bool hl = fault && ln == fault_line;
        if (hl) {
            wattron(win, term_attr(TC_FAULTLINE));
            mvwhline(win, 1 + r, 1, ' ', w - 2);
            wattroff(win, term_attr(TC_FAULTLINE));
        }
        int x = 1 + put(win, 1 + r, 1, w - 2, num, hl ? term_attr(TC_FAULTLINE) : term_attr(TC_DIM));
        put(win, 1 + r, x, w - 1 - x, a->src.lines[top + r], hl ? term_attr(TC_FAULTLINE) : PLAIN);
    }
    if (fault) {
        char msg[64];
        snprintf(msg, sizeof msg, " fault at line %d ", fault_line);
        put(win, h - 1, 2, w - 4, msg, term_attr(TC_BAD));
    } else if (top + rows < a->src.nlines) {
        put(win, h - 1, 2, w - 4, " Up/Down scroll ", term_attr(TC_DIM));
    }
}

static void build_run_lines(const app *a, tlines *L, int cols)
{
    char backend[300];
    if (a->have_run) {
        if (a->run.backend == GL_BACKEND_GPU)
            snprintf(backend, sizeof backend, "ran on %s", a->backend_known && !a->device.is_simulator ? a->device.name : "the GPU");
        else snprintf(backend, sizeof backend, "ran on the simulator");
        char extra[160] = "";
        if (a->run.backend == GL_BACKEND_GPU && a->run.elapsed_ms > 0)
            snprintf(extra, sizeof extra, " in %.3f ms", a->run.elapsed_ms);
        else if (a->run.stats.warp_instructions)
            snprintf(extra, sizeof extra, " (%llu warp instructions)", (unsigned long long)a->run.stats.warp_instructions);
        tl_printf(L, cols, a->run_status == GL_OK ? term_attr(TC_GOOD) : term_attr(TC_BAD), "%s%s%s", backend, extra,
                  a->run_status == GL_OK ? "" : " - failed");
        if (a->run_status != GL_OK) tl_wrap(L, a->run_error[0] ? a->run_error : "the run failed", cols, term_attr(TC_BAD));
        const char *out = a->run.stdout_text;
        if (out && *out) {
            int n = 0;
            for (const char *p = out; *p; p++) n += *p == '\n';
            if (out[strlen(out) - 1] != '\n') n++;
            tl_printf(L, cols, term_attr(TC_HEADING), "printf output (%d line%s):", n, n == 1 ? "" : "s");
            const char *p = out;
            while (*p) {
                const char *e = strchr(p, '\n');
                size_t len = e ? (size_t)(e - p) : strlen(p);
                char *line = strndup(p, len);
                if (line) tl_wrap(L, line, cols, PLAIN), free(line);
                if (!e) break;
                p = e + 1;
            }
        }
        if (a->have_spec && a->run.buffers) {
            /* buffers the kernel changed first: those are its outputs */
            bool header = false;
            for (int pass = 0; pass < 2; pass++)
                for (int i = 0; i < a->spec.nargs && i < a->run.nargs; i++) {
                    const gl_arg *arg = &a->spec.args[i];
                    if (!arg->is_ptr || !a->run.buffers[i].data) continue;
                    bool changed = !a->init_buffers || !a->init_buffers[i].data ||
                                   memcmp(a->init_buffers[i].data, a->run.buffers[i].data,
                                          a->run.buffers[i].bytes) != 0;
                    if (changed != (pass == 0)) continue;
                    if (!header) tl_add(L, "buffers after the run:", 22, term_attr(TC_HEADING)), header = true;
                    char buf[1024];
                    int n = snprintf(buf, sizeof buf, "%s[0..%zu)%s =", arg->name, arg->len, changed ? "" : " (unchanged)");
                    size_t shown = 0;
                    for (size_t k = 0; k < arg->len && n < cols - 12 && n < (int)sizeof buf - 40; k++, shown++) {
                        gl_value v = gl_buffer_get(a->run.buffers[i].data, arg->type, k);
                        if (gl_type_is_float(arg->type)) n += snprintf(buf + n, sizeof buf - (size_t)n, " %g", v.f);
                        else if (gl_type_is_signed(arg->type)) n += snprintf(buf + n, sizeof buf - (size_t)n, " %lld", (long long)v.i);
                        else n += snprintf(buf + n, sizeof buf - (size_t)n, " %llu", (unsigned long long)v.u);
                    }
                    if (shown < arg->len) snprintf(buf + n, sizeof buf - (size_t)n, " %s", term_glyph()->ellipsis);
                    tl_add(L, buf, strlen(buf), changed ? PLAIN : term_attr(TC_DIM));
                }
        }
        if (a->run_chatter) {
            tl_add(L, "output of the tools:", 20, term_attr(TC_DIM));
            tl_wrap(L, a->run_chatter, cols, term_attr(TC_DIM));
        }
    } else if (a->have_spec) {
        tl_wrap(L, "press r to run this kernel", cols, term_attr(TC_DIM));
    } else if (a->spec_error[0]) {
        tl_wrap(L, a->spec_error, cols, term_attr(TC_BAD));
    }
    /* Why it ran where it ran: last, after what the kernel did. */
    if (a->have_run && a->run.note[0]) tl_wrap(L, a->run.note, cols, term_attr(TC_DIM));
}

static void build_grade_lines(const app *a, tlines *L, int cols)
{
    if (a->grade_status != GL_OK) {
        tl_add(L, "grading could not run:", 22, term_attr(TC_BAD));
        tl_wrap(L, a->grade_error, cols, term_attr(TC_BAD));
        return;
    }
    const gl_grade_report *r = &a->grade;
    tl_printf(L, cols, r->passed ? term_attr(TC_GOOD) : term_attr(TC_BAD), "%s (graded on the %s)",
              r->passed ? "PASSED: every check passed" : "NOT YET: some checks failed",
              strcmp(r->backend, "gpu") == 0 ? "GPU" : "simulator");
    if (!r->compiled) {
        tl_add(L, "your kernel did not compile:", 28, term_attr(TC_BAD));
        tl_wrap(L, r->compile_log ? r->compile_log : "", cols, PLAIN);
    }
    for (int i = 0; i < r->nchecks; i++) {
        const gl_check_result *c = &r->checks[i];
        tl_printf(L, cols, c->passed ? term_attr(TC_GOOD) : term_attr(TC_BAD), "%s %s", c->passed ? "PASS" : "FAIL", c->name);
        if (c->detail[0]) tl_printf(L, cols, PLAIN, "     %s", c->detail);
    }
}

static void draw_result(const app *a, WINDOW *win, int h, int w, struct view_metrics *m)
{
    tlines L = {0};
    int cols = w - 4;
    if (app_on_exercise(a) && a->have_grade) {
        build_grade_lines(a, &L, cols);
        if (a->have_run) tl_add(&L, "", 0, 0);
    }
    if (!app_on_exercise(a) || a->have_run) build_run_lines(a, &L, cols);
    else if (!a->have_grade) {
        tl_wrap(&L, "press g to grade your kernel; r runs it once", cols, term_attr(TC_DIM));
        if (a->spec_error[0]) tl_wrap(&L, a->spec_error, cols, term_attr(TC_BAD));
    }
    m->res_lines = L.n;
    m->res_rows = h - 2;
    int top = tl_draw(win, &L, a->res_top, 1, 2, h - 2, cols);
    if (top + h - 2 < L.n) put(win, h - 1, w - 22, 20, " J/K scroll: more ", term_attr(TC_DIM));
    tl_free(&L);
}

static void fmt_bytes(char *buf, size_t len, size_t b)
{
    if (b == 0) snprintf(buf, len, "-");
    else if (b >= (1ull << 30)) snprintf(buf, len, "%.1f GiB", (double)b / (1ull << 30));
    else if (b >= (1ull << 20)) snprintf(buf, len, "%.1f MiB", (double)b / (1ull << 20));
    else if (b >= 1024) snprintf(buf, len, "%zu KiB", b / 1024);
    else snprintf(buf, len, "%zu bytes", b);
}

static void draw_device(const app *a, WINDOW *win, int h, int w)
{
    int cols = w - 4;
    tlines L = {0};
    if (!a->backend_known) {
        tl_wrap(&L, "querying the device...", cols, term_attr(TC_DIM));
    } else if (a->device_error[0]) {
        tl_wrap(&L, a->device_error, cols, term_attr(TC_BAD));
    } else {
        const gl_device_info *d = &a->device;
        char v[32], k1[48], k2[48];
        struct { const char *label; char value[320]; } rows[24];
        int n = 0;
#define ROW(lbl, ...) (rows[n].label = (lbl), snprintf(rows[n].value, sizeof rows[n].value, __VA_ARGS__), n++)
#define NUM(x) ((x) ? (snprintf(v, sizeof v, "%d", (x)), v) : "-")
        ROW("device", "%s%s", d->name, d->is_simulator ? " (simulated)" : "");
        ROW("compute capability", "%d.%d", d->compute_major, d->compute_minor);
        ROW("streaming multiprocessors", "%s", NUM(d->sm_count));
        ROW("warp size", "%s threads", NUM(d->warp_size));
        ROW("max threads per block", "%s", NUM(d->max_threads_per_block));
        ROW("max threads per SM", "%s", NUM(d->max_threads_per_sm));
        ROW("max block size", "%d x %d x %d", d->max_block_dim[0], d->max_block_dim[1], d->max_block_dim[2]);
        ROW("max grid size", "%d x %d x %d", d->max_grid_dim[0], d->max_grid_dim[1], d->max_grid_dim[2]);
        ROW("registers per block", "%s", NUM(d->regs_per_block));
        fmt_bytes(k1, sizeof k1, d->shared_bytes_per_block);
        fmt_bytes(k2, sizeof k2, d->shared_bytes_per_sm);
        ROW("shared memory per block", "%s", k1);
        ROW("shared memory per SM", "%s", k2);
        fmt_bytes(k1, sizeof k1, d->global_bytes);
        fmt_bytes(k2, sizeof k2, d->l2_bytes);
        ROW("global memory", "%s", k1);
        ROW("L2 cache", "%s", k2);
        if (d->clock_khz) ROW("SM clock", "%.0f MHz", d->clock_khz / 1000.0);
        else ROW("SM clock", "-");
        if (d->mem_clock_khz) ROW("memory clock", "%.0f MHz", d->mem_clock_khz / 1000.0);
        else ROW("memory clock", "-");
        if (d->mem_bus_bits) ROW("memory bus", "%d bits", d->mem_bus_bits);
        else ROW("memory bus", "-");
        if (d->peak_bandwidth_gbs > 0) ROW("peak memory bandwidth", "%.0f GB/s", d->peak_bandwidth_gbs);
        else ROW("peak memory bandwidth", "-");
        ROW("driver", "%s", d->driver[0] ? d->driver : "-");
#undef ROW
#undef NUM
        for (int i = 0; i < n; i++) {
            char line[256];
            snprintf(line, sizeof line, "%-26s %s", rows[i].label, rows[i].value);
            tl_add(&L, line, strlen(line), i == 0 ? term_attr(TC_HEADING) : PLAIN);
        }
        if (a->device_note[0]) {
            tl_add(&L, "", 0, 0);
            tl_wrap(&L, a->device_note, cols, term_attr(TC_WARN));
        }
    }
    tl_draw(win, &L, 0, 1, 2, h - 2, cols);
    tl_free(&L);
}

static void draw_lesson(const app *a, int y, int h, struct view_metrics *m)
{
    const gl_step *st = app_cur_step(a);
    bool device = st && st->view && strcmp(st->view, "device") == 0;
    bool has_src = a->src.text != NULL;
    bool has_map = a->have_spec;
    bool has_result = has_map || app_on_exercise(a);
    char step_title[64], src_title[300];
    if (app_on_exercise(a)) snprintf(step_title, sizeof step_title, "Exercise");
    else snprintf(step_title, sizeof step_title, "Step %d/%d", a->step + 1, app_nsteps(a));
    snprintf(src_title, sizeof src_title, "%s", has_src ? base_name(a->src.path) : "kernel");
    const char *res_title = app_on_exercise(a) ? "Result / grade" : "Result";

    if (device) {
        int th = h * 2 / 5 > 6 ? h * 2 / 5 : 6;
        if (COLS >= 120) {
            int lw = COLS * 2 / 5;
            WINDOW *t = pane(W_TEXT, y, 0, h, lw, step_title);
            if (t) draw_text(a, t, h, lw, m), pane_show(t);
            WINDOW *d = pane(W_FULL, y, lw, h, COLS - lw, "Device");
            if (d) draw_device(a, d, h, COLS - lw), pane_show(d);
        } else {
            WINDOW *t = pane(W_TEXT, y, 0, th, COLS, step_title);
            if (t) draw_text(a, t, th, COLS, m), pane_show(t);
            WINDOW *d = pane(W_FULL, y + th, 0, h - th, COLS, "Device");
            if (d) draw_device(a, d, h - th, COLS), pane_show(d);
        }
        return;
    }
    if (!has_src && !has_result) {
        WINDOW *t = pane(W_TEXT, y, 0, h, COLS, step_title);
        if (t) draw_text(a, t, h, COLS, m), pane_show(t);
        return;
    }
    bool wide = COLS >= WIDE_COLS && h >= WIDE_ROWS - 2;
    if (wide) {
        int lw = COLS * 9 / 20;
        int th = h * 2 / 5, mh = has_map ? h * 11 / 20 : 0;
        WINDOW *t = pane(W_TEXT, y, 0, th, lw, step_title);
        if (t) draw_text(a, t, th, lw, m), pane_show(t);
        WINDOW *s = pane(W_SOURCE, y + th, 0, h - th, lw, src_title);
        if (s) draw_source(a, s, h - th, lw, m), pane_show(s);
        if (has_map) {
            WINDOW *mp = pane(W_MAP, y, lw, mh, COLS - lw, "Threads");
            if (mp) map_draw(mp, a, 1, 2, mh - 2, COLS - lw - 4), pane_show(mp);
        }
        WINDOW *r = pane(W_RESULT, y + mh, lw, h - mh, COLS - lw, res_title);
        if (r) draw_result(a, r, h - mh, COLS - lw, m), pane_show(r);
        return;
    }
    /* Narrow layout: the text gets the rows it needs (up to 45%), the source/map row
     * what the kernel needs, the result the rest (at least 6 rows). */
    tlines need;
    text_lines(a, COLS - 4, &need);
    /* Once the step has run, the result matters more than the text. */
    int th = clampi(need.n + 2, 5, a->have_run ? h / 4 : h * 45 / 100);
    tl_free(&need);
    int rmin = has_result ? 6 : 0;
    int mh = has_result ? clampi((has_src ? a->src.nlines : 6) + 2, 8, h - th - rmin) : h - th;
    int rh = h - th - mh;
    WINDOW *t = pane(W_TEXT, y, 0, th, COLS, step_title);
    if (t) draw_text(a, t, th, COLS, m), pane_show(t);
    int sw = has_map ? (has_src ? COLS * 11 / 20 : 0) : COLS;
    if (has_src && sw > 0) {
        WINDOW *s = pane(W_SOURCE, y + th, 0, mh, sw, src_title);
        if (s) draw_source(a, s, mh, sw, m), pane_show(s);
    }
    if (has_map) {
        WINDOW *mp = pane(W_MAP, y + th, sw, mh, COLS - sw, "Threads");
        if (mp) map_draw(mp, a, 1, 2, mh - 2, COLS - sw - 4), pane_show(mp);
    }
    if (rh > 0) {
        WINDOW *r = pane(W_RESULT, y + th + mh, 0, rh, COLS, res_title);
        if (r) draw_result(a, r, rh, COLS, m), pane_show(r);
    }
}

static void draw_help(const app *a)
{
    app_help_line lines[64];
    int n = app_help_lines(a, lines, 64);
    int kw = 0;
    for (int i = 0; i < n; i++) {
        int w;
        mb_fit(lines[i].keys, strlen(lines[i].keys), 40, &w);
        if (w > kw) kw = w;
    }
    int w = COLS - 8 < 72 ? COLS - 8 : 72;
    int h = n + 4 < LINES - 2 ? n + 4 : LINES - 2;
    WINDOW *win = pane(W_HELP, (LINES - h) / 2, (COLS - w) / 2, h, w, "Help: keys");
    if (!win) return;
    for (int i = 0; i < n && i < h - 4; i++) {
        put(win, 2 + i, 3, kw, lines[i].keys, term_attr(TC_KEY));
        put(win, 2 + i, 3 + kw + 3, w - kw - 8, lines[i].help, PLAIN);
    }
    put(win, h - 1, 3, w - 6, " ? or Esc closes this ", term_attr(TC_DIM));
    pane_show(win);
}

void view_busy(const char *msg)
{
    if (LINES < MIN_ROWS || COLS < MIN_COLS) return;
    draw_bar(W_STATUS, LINES - 1, term_attr(TC_STATUS), msg, "");
    doupdate();
}

void view_draw(const app *a, struct view_metrics *m)
{
    memset(m, 0, sizeof *m);
    if (LINES < MIN_ROWS || COLS < MIN_COLS) {
        view_free();
        werase(stdscr);
        char msg[128];
        snprintf(msg, sizeof msg, "terminal too small (%dx%d); need at least %dx%d", COLS, LINES, MIN_COLS, MIN_ROWS);
        int len = (int)strlen(msg);
        mvwaddnstr(stdscr, LINES / 2, len < COLS ? (COLS - len) / 2 : 0, msg, COLS);
        if (LINES > 2) mvwaddnstr(stdscr, LINES / 2 + 1, COLS > 10 ? (COLS - 10) / 2 : 0, "q: quit", COLS);
        touchwin(stdscr);
        wnoutrefresh(stdscr);
        doupdate();
        return;
    }
    /* stdscr underneath: blank, so nothing stale shows between panes */
    werase(stdscr);
    wnoutrefresh(stdscr);
    draw_title(a);
    if (a->screen == SCREEN_LESSON && a->lesson) draw_lesson(a, 1, LINES - 2, m);
    else draw_list(a, 1, LINES - 2);
    draw_status(a);
    if (a->help) draw_help(a);
    doupdate();
}
