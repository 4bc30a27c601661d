/* views.c — draws every pane from the app state. Each frame: werase and redraw every
 * window, wnoutrefresh each, one doupdate (curses sends only what changed, so there
 * is no flicker; kilo's editorRefreshScreen does the same with an append buffer). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <wchar.h>

#include "runtime/cublas.h"
#include "tui/app.h"
#include "tui/term.h"
#include "tui/view.h"

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
            if (w < 0)
                w = 1;
        }
        if (c + w > maxcols)
            break;
        c += w;
        i += k;
    }
    if (cols)
        *cols = c;
    return i;
}

/* Writes s at (y, x), cut to maxcols columns. Returns the columns written. */
static int put(WINDOW *win, int y, int x, int maxcols, const char *s, int attr)
{
    if (maxcols <= 0 || !s)
        return 0;
    int cols;
    size_t n = mb_fit(s, strlen(s), maxcols, &cols);
    wattron(win, attr);
    mvwaddnstr(win, y, x, s, (int)n);
    wattroff(win, attr);
    return cols;
}

int view_put(WINDOW *win, int y, int x, int maxcols, const char *s, int attr)
{
    return put(win, y, x, maxcols, s, attr);
}

size_t view_wrap_cut(const char **s, size_t *left, int maxcols, bool last)
{
    int cols;
    size_t fit = mb_fit(*s, *left, maxcols, &cols);
    if (fit < *left && !last) { /* break at the last space that fits */
        size_t b = fit;
        while (b > 0 && (*s)[b] != ' ')
            b--;
        if (b > 0)
            fit = b;
    }
    if (fit == 0)
        fit = 1;
    *s += fit, *left -= fit;
    while (*left > 0 && **s == ' ')
        (*s)++, (*left)--;
    return fit;
}

int view_put_wrap(WINDOW *win, int y, int x, int maxcols, int maxrows, const char *s, int attr)
{
    if (maxcols <= 0 || maxrows <= 0 || !s)
        return 0;
    int rows = 0;
    size_t left = strlen(s);
    while (left > 0 && rows < maxrows) {
        const char *row = s;
        const size_t fit = view_wrap_cut(&s, &left, maxcols, rows + 1 == maxrows);
        wattron(win, attr);
        mvwaddnstr(win, y + rows, x, row, (int)fit);
        wattroff(win, attr);
        rows++;
    }
    return rows;
}

int view_wrap_rows(const char *s, int maxcols)
{
    if (maxcols <= 0 || !s)
        return 0;
    int rows = 0;
    size_t left = strlen(s);
    while (left > 0) {
        view_wrap_cut(&s, &left, maxcols, false);
        rows++;
    }
    return rows;
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
        if (!v)
            return;
        L->v = v, L->cap = cap;
    }
    char *copy = malloc(n + 1);
    if (!copy)
        return;
    memcpy(copy, s, n);
    copy[n] = '\0';
    L->v[L->n++] = (tline){copy, attr};
}

/* Word-wraps text to width columns: '\n' ends a paragraph, long words are cut. */
static void tl_wrap(tlines *L, const char *text, int width, int attr)
{
    if (width < 4)
        width = 4;
    if (!text)
        return;
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, '\n');
        size_t plen = end ? (size_t)(end - p) : strlen(p);
        if (plen == 0)
            tl_add(L, "", 0, attr);
        while (plen > 0) {
            int cols;
            size_t fit = mb_fit(p, plen, width, &cols);
            if (fit >= plen) {
                tl_add(L, p, plen, attr);
                break;
            }
            size_t cut = fit;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = fit ? fit : 1; /* a word longer than the line */
            tl_add(L, p, cut, attr);
            while (cut < plen && p[cut] == ' ')
                cut++;
            p += cut, plen -= cut;
        }
        if (!end)
            break;
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
    for (int i = 0; i < L->n; i++)
        free(L->v[i].s);
    free(L->v);
    L->v = NULL, L->n = L->cap = 0;
}

/* Draws lines [top, top+rows) of L at (y, x); returns the clamped top. */
static int tl_draw(WINDOW *win, const tlines *L, int top, int y, int x, int rows, int cols)
{
    if (top > L->n - rows)
        top = L->n - rows;
    if (top < 0)
        top = 0;
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
    if (!win)
        win = newwin(h, w, y, x);
    g_win[slot] = win;
    if (win) {
        wbkgdset(win, ' ' | PLAIN);
        werase(win);
    }
    return win;
}

/* ------------------------------------------------------------ hit regions */

/* Clickable regions of the last frame, in screen coordinates. */
typedef struct hit_region {
    int y, x0, x1; /* row, columns [x0, x1) */
    view_hit_kind kind;
    int index;
} hit_region;
enum { MAX_HITS = 256 };
static hit_region g_hits[MAX_HITS];
static int g_nhits;

static void hit_add(int y, int x0, int x1, view_hit_kind kind, int index)
{
    if (g_nhits < MAX_HITS)
        g_hits[g_nhits++] = (hit_region){y, x0, x1, kind, index};
}

view_hit view_hit_test(int y, int x)
{
    view_hit h;
    memset(&h, 0, sizeof h);
    for (int i = 0; i < g_nhits; i++)
        if (g_hits[i].y == y && x >= g_hits[i].x0 && x < g_hits[i].x1) {
            h.kind = g_hits[i].kind;
            h.index = g_hits[i].index;
            return h;
        }
    if (map_hit(y, x, h.block, h.thread))
        h.kind = HIT_THREAD;
    return h;
}

static void pane_show(WINDOW *win)
{
    if (!win)
        return;
    touchwin(win);
    wnoutrefresh(win);
}

void view_free(void)
{
    for (int i = 0; i < W__N; i++)
        if (g_win[i])
            delwin(g_win[i]), g_win[i] = NULL;
}

void view_box(WINDOW *win, int y, int x, int h, int w, const char *label)
{
    const term_glyphs *g = term_glyph();
    if (h < 2 || w < 2)
        return;
    wattron(win, term_attr(TC_BORDER));
    mvwaddstr(win, y, x, g->tl);
    for (int i = 1; i < w - 1; i++)
        waddstr(win, g->h);
    waddstr(win, g->tr);
    for (int r = 1; r < h - 1; r++) {
        mvwaddstr(win, y + r, x, g->v);
        mvwaddstr(win, y + r, x + w - 1, g->v);
    }
    mvwaddstr(win, y + h - 1, x, g->bl);
    for (int i = 1; i < w - 1; i++)
        waddstr(win, g->h);
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
    if (win)
        view_box(win, 0, 0, h, w, title);
    return win;
}

static const char *base_name(const char *path)
{
    if (!path)
        return "";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---------------------------------------------------------------- bars */

static void draw_bar(int slot, int y, int attr, const char *left, const char *right)
{
    WINDOW *win = pane_win(slot, y, 0, 1, COLS);
    if (!win)
        return;
    wbkgdset(win, ' ' | attr);
    werase(win);
    int rw = 0, lw = 0;
    mb_fit(left, strlen(left), COLS, &lw);
    if (right && *right) {
        mb_fit(right, strlen(right), COLS, &rw);
        if (lw + rw + 4 < COLS)
            put(win, 0, COLS - rw - 1, rw, right, attr);
        else
            rw = 0; /* the left part matters more */
    }
    put(win, 0, 1, COLS - rw - 3, left, attr);
    pane_show(win);
}

static void draw_demo_status(const app *a);

static const char *spinner(void)
{
    static const char *utf8[] = {"\u280b", "\u2819", "\u2839", "\u2838", "\u283c",
                                 "\u2834", "\u2826", "\u2827", "\u2807", "\u280f"};
    static const char *ascii[] = {"|", "/", "-", "\\"};
    long t = (long)(job_now() * 10);
    if (strcmp(term_glyph()->h, "-") == 0)
        return ascii[t % 4];
    return utf8[t % 10];
}

static void draw_status(const app *a)
{
    char backend[300], left[700];
    app_backend_label(a, backend, sizeof backend);
    if (a->confirm == CONFIRM_RESET) {
        draw_bar(W_STATUS, LINES - 1, term_attr(TC_WARN) | A_REVERSE,
                 "Restore the starter? Your version is kept as a .bak file. (y/n)", "");
        return;
    }
    if (app_busy(a)) {
        snprintf(left, sizeof left, "%s %s%s %.0f s", spinner(), a->busy_msg,
                 term_glyph()->ellipsis, job_now() - a->job.started);
        draw_bar(W_STATUS, LINES - 1, term_attr(TC_STATUS), left,
                 a->flash[0] ? a->flash : "Ctrl-C/Esc: cancel");
        return;
    }
    const char *right = a->flash[0] ? a->flash : "?:help  q:quit";
    /* N (the debug build) changes every count: the status line says so while it is on */
    char names[64] = "";
    if (a->screen == SCREEN_LESSON && a->names_build)
        snprintf(names, sizeof names, "%s N: debug build -G", term_glyph()->dot);
    /* the help keys stay: a narrow terminal first loses the back end's explanation
     * ("simulator (no GPU found)" -> "simulator"), then the back end */
    for (int pass = 0; pass < 3; pass++) {
        char *paren = strstr(backend, " (");
        if (pass == 1 && paren)
            *paren = '\0';
        if (pass == 2)
            backend[0] = '\0';
        const char *sep = backend[0] ? term_glyph()->dot : "";
        if (a->screen == SCREEN_LESSON && a->lesson)
            snprintf(left, sizeof left, "lesson %d %s step %d/%d%s%s %s %s", a->lesson->number,
                     term_glyph()->dot, a->step + 1, app_nsteps(a), names[0] ? " " : "", names, sep,
                     backend);
        else
            snprintf(left, sizeof left, "%d lesson%s %s %s", a->nlessons,
                     a->nlessons == 1 ? "" : "s", sep, backend);
        int lw, rw;
        mb_fit(left, strlen(left), 1 << 20, &lw);
        mb_fit(right, strlen(right), 1 << 20, &rw);
        if (lw + rw + 4 < COLS)
            break;
    }
    if (a->flash[0]) { /* a message matters more than the back end's name */
        if (a->screen == SCREEN_LESSON && a->lesson)
            snprintf(left, sizeof left, "lesson %d %s step %d/%d%s%s", a->lesson->number,
                     term_glyph()->dot, a->step + 1, app_nsteps(a), names[0] ? " " : "", names);
        else
            left[0] = '\0';
        int lw, rw;
        mb_fit(left, strlen(left), 1 << 20, &lw);
        mb_fit(right, strlen(right), 1 << 20, &rw);
        if (lw + rw + 4 >= COLS) { /* the message alone, after N's mark */
            char both[400];
            snprintf(both, sizeof both, "%s%s%.300s", names[0] ? "N -G " : "",
                     names[0] ? term_glyph()->dot : "", right);
            draw_bar(W_STATUS, LINES - 1, term_attr(TC_STATUS), both, "");
            return;
        }
    }
    draw_bar(W_STATUS, LINES - 1, term_attr(TC_STATUS), left, right);
}

void view_busy_tick(const app *a)
{
    if (LINES < 12 || COLS < 40)
        return;
    if (a->opts.demo)
        draw_demo_status(a);
    else
        draw_status(a);
    doupdate();
}

/* The step bar: " 1 2 3 4 Ex " with the current step highlighted and seen steps
 * marked; each chip is clickable. Drawn right-aligned in the title bar. */
static void draw_step_chips(const app *a, WINDOW *win, int y, int right_edge, int attr, int min_x)
{
    int n = app_nsteps(a);
    if (n <= 0)
        return;
    const gl_lesson_progress *p = app_progress(a, a->lesson);
    int width = 0;
    for (int i = 0; i < n; i++)
        width += (a->lesson->exercise && i == n - 1) ? 4 : (i + 1 >= 10 ? 3 : 2) + 1;
    int x = right_edge - width;
    if (x < min_x)
        return;
    int bx, by;
    getbegyx(win, by, bx);
    for (int i = 0; i < n; i++) {
        char chip[8];
        bool ex = a->lesson->exercise && i == n - 1;
        snprintf(chip, sizeof chip, ex ? " Ex" : " %d", i + 1);
        bool seen = p && i < 32 && ((p->steps_seen >> i) & 1u);
        int cattr = attr;
        if (i == a->step)
            cattr = term_attr(TC_SELECTED) | A_BOLD | A_REVERSE;
        else if (!seen && !a->opts.demo)
            cattr = attr | A_DIM;
        int w = (int)strlen(chip);
        put(win, y, x, w, chip, cattr);
        hit_add(by + y, bx + x, bx + x + w + 1, HIT_STEP, i);
        x += w;
        if (i == a->step)
            put(win, y, x, 1, " ", cattr);
        x += 1;
    }
}

static void draw_title(const app *a)
{
    char left[512];
    if (a->screen == SCREEN_LESSON && a->lesson)
        snprintf(left, sizeof left, "gpulearn %s Lesson %d: %s",
                 strcmp(term_glyph()->h, "-") ? "\u2014" : "-", a->lesson->number,
                 a->lesson->title ? a->lesson->title : "");
    else
        snprintf(left, sizeof left, "gpulearn %s learn CUDA by running it",
                 strcmp(term_glyph()->h, "-") ? "\u2014" : "-");
    draw_bar(W_TITLE, 0, term_attr(TC_TITLE), left, "");
    if (a->screen == SCREEN_LESSON && a->lesson && g_win[W_TITLE]) {
        int lw;
        mb_fit(left, strlen(left), COLS, &lw);
        draw_step_chips(a, g_win[W_TITLE], 0, COLS - 1, term_attr(TC_TITLE), lw + 3);
        wnoutrefresh(g_win[W_TITLE]);
    }
}

/* ------------------------------------------------------------ lesson list */

static void draw_list(const app *a, int y, int h)
{
    WINDOW *win = pane(W_FULL, y, 0, h, COLS, "Lessons");
    if (!win)
        return;
    int rows = h - 2, cols = COLS - 4;
    if (a->list_error[0]) {
        tlines L = {0};
        tl_wrap(&L, a->list_error, cols, term_attr(TC_BAD));
        tl_draw(win, &L, 0, 1, 2, rows, cols);
        tl_free(&L);
        pane_show(win);
        return;
    }
    if (a->nlessons == 0)
        put(win, 1, 2, cols, "No lessons found.", term_attr(TC_WARN));
    int title_w = 0;
    for (int i = 0; i < a->nlessons; i++) {
        int w;
        const char *t = a->lessons[i].title ? a->lessons[i].title : "";
        mb_fit(t, strlen(t), 60, &w);
        if (w > title_w)
            title_w = w;
    }
    /* narrow screens: summaries go under the list (selected lesson only) */
    bool detail = COLS < 140 && a->nlessons + 6 <= rows;
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
        int by, bx;
        getbegyx(win, by, bx);
        hit_add(by + 1 + r, bx + 1, bx + COLS - 1, HIT_LESSON, i);
        x += put(win, 1 + r, x, cols, num, sel ? attr : term_attr(TC_HEADING)) + 2;
        int tw = put(win, 1 + r, x, COLS - 2 - x, l->title ? l->title : "",
                     l->broken && !sel ? term_attr(TC_BAD) : (int)(attr | A_BOLD));
        x += (title_w > tw ? title_w : tw) + 2;
        /* progress: a tick once the exercise passed, else steps seen */
        const gl_lesson_progress *pg = app_progress(a, l);
        int total = l->nsteps + (l->exercise ? 1 : 0);
        char mark[32] = "";
        bool passed = pg && pg->passed;
        if (passed)
            snprintf(mark, sizeof mark, "%s",
                     strcmp(term_glyph()->h, "-") ? "\u2713 passed" : "ok passed");
        else if (pg && app_steps_seen(a, l) > 0)
            snprintf(mark, sizeof mark, "%d/%d seen", app_steps_seen(a, l), total);
        if (x + 11 < COLS - 3)
            put(win, 1 + r, x, 10, mark,
                sel      ? attr
                : passed ? term_attr(TC_GOOD)
                         : term_attr(TC_DIM));
        x += 12;
        if (x < COLS - 3 && !detail)
            put(win, 1 + r, x, COLS - 2 - x, l->summary ? l->summary : "",
                sel ? attr : term_attr(TC_DIM));
    }
    /* Under the list, when there is room: the selected lesson's summary in full. */
    if (detail && a->list_sel >= 0 && a->list_sel < a->nlessons) {
        const gl_lesson *l = &a->lessons[a->list_sel];
        int y0 = a->nlessons + 2;
        wattron(win, term_attr(TC_BORDER));
        for (int i = 1; i < COLS - 1; i++)
            mvwaddstr(win, y0, i, term_glyph()->h);
        wattroff(win, term_attr(TC_BORDER));
        tlines L = {0};
        tl_printf(&L, cols, term_attr(TC_HEADING), "%d %s %s", l->number, term_glyph()->dot,
                  l->title ? l->title : "");
        if (l->broken)
            tl_wrap(&L, l->broken, cols, term_attr(TC_BAD));
        tl_wrap(&L, l->summary ? l->summary : "", cols, PLAIN);
        const gl_lesson_progress *pg = app_progress(a, l);
        int total = l->nsteps + (l->exercise ? 1 : 0);
        tl_printf(&L, cols, term_attr(TC_DIM), "%d step%s%s %s %d of %d seen%s%s", l->nsteps,
                  l->nsteps == 1 ? "" : "s", l->exercise ? " and an exercise" : "",
                  term_glyph()->dot, pg ? app_steps_seen(a, l) : 0, total,
                  pg && pg->passed ? " " : "", pg && pg->passed ? "- exercise passed" : "");
        tl_draw(win, &L, 0, y0 + 1, 2, rows - y0, cols);
        tl_free(&L);
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
        if (a->opts.demo)
            tl_printf(&L, cols, term_attr(TC_DIM), "Starter: %s", base_name(ex->starter));
        else if (a->ex_path[0])
            tl_printf(&L, cols, term_attr(TC_DIM),
                      "Your copy: %s %s e edits it, g grades it, R restores the starter",
                      gl_display_path(a->ex_path), term_glyph()->dot);
        else
            tl_printf(&L, cols, term_attr(TC_BAD), "%s",
                      a->ex_error[0] ? a->ex_error : "no copy of the exercise");
        for (int i = 0; i < a->hints_shown && i < ex->nhints; i++) {
            tl_add(&L, "", 0, 0);
            tl_printf(&L, cols, term_attr(TC_WARN), "Hint %d: %s", i + 1, ex->hints[i]);
        }
        if (a->hints_shown < ex->nhints)
            tl_printf(&L, cols, term_attr(TC_DIM), "h: show a hint (%d left)",
                      ex->nhints - a->hints_shown);
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
    if (top + h - 2 < L.n)
        put(win, h - 1, w - 14, 11, " PgDn more ", term_attr(TC_DIM));
    tl_free(&L);
}

static bool fault_in_source(const app *a, int *line)
{
    if (!a->have_run || a->run.fault.kind == GL_FAULT_NONE || a->run.fault.src_line <= 0)
        return false;
    const char *file = a->run.fault.src_file;
    if (file[0] && a->src.path && strcmp(base_name(file), base_name(a->src.path)) != 0)
        return false;
    *line = a->run.fault.src_line;
    return true;
}

/* ----------------------------------------------------------- CUDA C highlighting */

static bool word_in(const char *w, size_t n, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && memcmp(list[i], w, n) == 0)
            return true;
    return false;
}

static const char *const k_kw[] = {"if",
                                   "else",
                                   "for",
                                   "while",
                                   "do",
                                   "return",
                                   "break",
                                   "continue",
                                   "switch",
                                   "case",
                                   "default",
                                   "goto",
                                   "sizeof",
                                   "struct",
                                   "union",
                                   "enum",
                                   "typedef",
                                   "const",
                                   "volatile",
                                   "static",
                                   "extern",
                                   "inline",
                                   "__forceinline__",
                                   "template",
                                   "typename",
                                   "namespace",
                                   "using",
                                   "constexpr",
                                   "auto",
                                   "__global__",
                                   "__device__",
                                   "__host__",
                                   "__shared__",
                                   "__constant__",
                                   "__managed__",
                                   "__restrict__",
                                   "__launch_bounds__",
                                   "__noinline__",
                                   "true",
                                   "false",
                                   "nullptr",
                                   NULL};
static const char *const k_types[] = {
    "void",     "char",    "short",    "int",      "long",     "float",   "double",
    "unsigned", "signed",  "bool",     "size_t",   "int8_t",   "int16_t", "int32_t",
    "int64_t",  "uint8_t", "uint16_t", "uint32_t", "uint64_t", "dim3",    "float2",
    "float3",   "float4",  "int2",     "int3",     "int4",     "uint2",   "uint3",
    "uint4",    "double2", "half",     "__half",   "__half2",  NULL};
static const char *const k_builtins[] = {"threadIdx",
                                         "blockIdx",
                                         "blockDim",
                                         "gridDim",
                                         "warpSize",
                                         "__syncthreads",
                                         "__syncwarp",
                                         "__syncthreads_count",
                                         "__syncthreads_and",
                                         "__syncthreads_or",
                                         "__threadfence",
                                         "__threadfence_block",
                                         "atomicAdd",
                                         "atomicSub",
                                         "atomicExch",
                                         "atomicMin",
                                         "atomicMax",
                                         "atomicInc",
                                         "atomicDec",
                                         "atomicCAS",
                                         "atomicAnd",
                                         "atomicOr",
                                         "atomicXor",
                                         "__shfl_sync",
                                         "__shfl_up_sync",
                                         "__shfl_down_sync",
                                         "__shfl_xor_sync",
                                         "__ballot_sync",
                                         "__any_sync",
                                         "__all_sync",
                                         "__activemask",
                                         "__popc",
                                         "__clz",
                                         "__ffs",
                                         "__ldg",
                                         "printf",
                                         "assert",
                                         "min",
                                         "max",
                                         "sqrtf",
                                         "expf",
                                         "fabsf",
                                         "fmaf",
                                         NULL};

void view_code_attrs(const char *line, int *attrs, bool *in_comment)
{
    size_t n = strlen(line), i = 0;
    bool preproc = false;
    {
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t'))
            k++;
        preproc = !*in_comment && k < n && line[k] == '#';
    }
    while (i < n) {
        if (*in_comment) {
            size_t s0 = i;
            while (i < n && !(line[i] == '*' && i + 1 < n && line[i + 1] == '/'))
                i++;
            if (i < n)
                i += 2, *in_comment = false;
            for (size_t k = s0; k < i; k++)
                attrs[k] = term_attr(TC_CODE_COMMENT);
            continue;
        }
        char c = line[i];
        if (c == '/' && i + 1 < n && line[i + 1] == '/') {
            for (size_t k = i; k < n; k++)
                attrs[k] = term_attr(TC_CODE_COMMENT);
            return;
        }
        if (c == '/' && i + 1 < n && line[i + 1] == '*') {
            *in_comment = true;
            attrs[i] = attrs[i + 1] = term_attr(TC_CODE_COMMENT);
            i += 2;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t s0 = i++;
            while (i < n && line[i] != c)
                i += (line[i] == '\\' && i + 1 < n) ? 2 : 1;
            if (i < n)
                i++;
            for (size_t k = s0; k < i && k < n; k++)
                attrs[k] = term_attr(TC_CODE_STRING);
            continue;
        }
        if ((c >= '0' && c <= '9') ||
            (c == '.' && i + 1 < n && line[i + 1] >= '0' && line[i + 1] <= '9')) {
            size_t s0 = i;
            while (i < n && (isalnum((unsigned char)line[i]) || line[i] == '.' ||
                             ((line[i] == '+' || line[i] == '-') &&
                              (line[i - 1] == 'e' || line[i - 1] == 'E'))))
                i++;
            for (size_t k = s0; k < i; k++)
                attrs[k] = term_attr(TC_CODE_NUMBER);
            continue;
        }
        if (isalpha((unsigned char)c) || c == '_') {
            size_t s0 = i;
            while (i < n && (isalnum((unsigned char)line[i]) || line[i] == '_'))
                i++;
            int at = preproc ? term_attr(TC_CODE_PREPROC) : PLAIN;
            if (!preproc) {
                if (word_in(line + s0, i - s0, k_kw))
                    at = term_attr(TC_CODE_KW);
                else if (word_in(line + s0, i - s0, k_types))
                    at = term_attr(TC_CODE_TYPE);
                else if (word_in(line + s0, i - s0, k_builtins))
                    at = term_attr(TC_CODE_BUILTIN);
            }
            for (size_t k = s0; k < i; k++)
                attrs[k] = at;
            continue;
        }
        attrs[i++] = preproc ? term_attr(TC_CODE_PREPROC) : PLAIN;
    }
}

/* Draws bytes [from, to) of line at (y, x) with the attributes in attrs (or `over`
 * for every byte when over != -1). Returns the columns drawn. */
static int draw_attr_run(WINDOW *win, int y, int x, const char *line, const int *attrs, size_t from,
                         size_t to, int over)
{
    int cols = 0;
    wmove(win, y, x);
    size_t i = from;
    while (i < to) {
        int at = over != -1 ? over : attrs[i];
        size_t j = i + 1;
        while (j < to && (over != -1 || attrs[j] == at))
            j++;
        int c;
        mb_fit(line + i, j - i, 1 << 20, &c);
        wattron(win, at);
        waddnstr(win, line + i, (int)(j - i));
        wattroff(win, at);
        cols += c;
        i = j;
    }
    return cols;
}

/* Block-comment state at the start of line `upto` (0-based). */
static bool comment_state_before(const app *a, int upto)
{
    bool inc = false;
    int scratch[512];
    for (int i = 0; i < upto && i < a->src.nlines; i++) {
        size_t n = strlen(a->src.lines[i]);
        int *attrs = n <= 512 ? scratch : malloc(n * sizeof *attrs);
        if (!attrs)
            continue;
        view_code_attrs(a->src.lines[i], attrs, &inc);
        if (attrs != scratch)
            free(attrs);
    }
    return inc;
}

/* Rows source line li (0-based) takes in draw_source_region at width w: its wrapped
 * rows and its diagnostic's. Mirrors the wrapping there. */
static int line_rows(const app *a, int li, int w, bool big_gutter)
{
    int digits = 1;
    for (int n = a->src.nlines; n >= 10; n /= 10)
        digits++;
    if (digits > 9)
        digits = 9;
    int textw = w - digits - (big_gutter ? 3 : 2);
    if (textw < 8)
        textw = 8;
    const char *line = a->src.lines[li];
    size_t n = strlen(line), pos = 0;
    int indent = 0;
    while (line[indent] == ' ')
        indent++;
    if (indent > textw / 2)
        indent = textw / 2;
    int rows = 0;
    bool first = true;
    do {
        int avail = first ? textw : textw - indent - 2;
        if (avail < 4)
            avail = 4;
        size_t take = mb_fit(line + pos, n - pos, avail, NULL);
        if (take < n - pos) {
            size_t cut = take;
            while (cut > 0 && line[pos + cut] != ' ')
                cut--;
            if (cut > (size_t)avail / 3)
                take = cut + 1;
        }
        if (take == 0 && pos < n)
            take = 1;
        pos += take;
        rows++;
        first = false;
    } while (pos < n);
    const app_diag *dg = app_diag_at(a, li + 1);
    if (dg) {
        tlines M = {0};
        char msg[300];
        snprintf(msg, sizeof msg, "%*s%s", dg->col > 1 && dg->col < textw / 2 ? dg->col - 1 : 0, "",
                 dg->msg);
        tl_wrap(&M, msg, textw, PLAIN);
        rows += M.n;
        tl_free(&M);
    }
    return rows;
}

/* The source with highlighting, soft-wrapped to the width (continuation rows are
 * indented under the code), compile errors marked in the gutter with their message
 * on the rows below, and the fault line highlighted. Region (y, x, rows, w). Returns
 * the number of source lines fully shown. */
static int draw_source_region(const app *a, WINDOW *win, int y, int x, int rows, int w, int top,
                              bool big_gutter)
{
    int digits = 1;
    for (int n = a->src.nlines; n >= 10; n /= 10)
        digits++;
    if (digits > 9)
        digits = 9;
    int gutter = digits + (big_gutter ? 3 : 2);
    int textw = w - gutter;
    if (textw < 8)
        textw = 8;
    int fault_line = 0;
    bool fault = fault_in_source(a, &fault_line);
    bool inc = comment_state_before(a, top);
    int r = 0, shown = 0;
    /* time travel: the line the selected warp is on at the cursor */
    int cur_line = (view_of(a->view)->flags & VIEW_F_RUN) && a->have_run ? tv_current_line(a) : 0;
    /* with the warp timeline: each line's share of active lanes, right-aligned */
    double *active = NULL;
    if (a->view == VIEW_WARPS && a->have_run && a->src.nlines > 0) {
        active = malloc((size_t)a->src.nlines * sizeof *active);
        if (active && warps_line_active(a, active, a->src.nlines) == 0)
            free(active), active = NULL;
        if (active)
            textw -= 5;
    }
    for (int li = top; li < a->src.nlines && r < rows; li++) {
        const char *line = a->src.lines[li];
        int ln = li + 1;
        const app_diag *dg = app_diag_at(a, ln);
        bool hl = fault && ln == fault_line;
        size_t n = strlen(line);
        int stackbuf[512];
        int *attrs = n <= 512 ? stackbuf : malloc((n + 1) * sizeof *attrs);
        if (!attrs)
            break;
        view_code_attrs(line, attrs, &inc);
        size_t pos = 0;
        int indent = 0;
        while (line[indent] == ' ')
            indent++;
        if (indent > textw / 2)
            indent = textw / 2;
        bool first = true;
        do {
            if (r >= rows)
                break;
            int avail = first ? textw : textw - indent - 2;
            if (avail < 4)
                avail = 4;
            size_t take = mb_fit(line + pos, n - pos, avail, NULL);
            if (take < n - pos) { /* break at a space when there is one */
                size_t cut = take;
                while (cut > 0 && line[pos + cut] != ' ')
                    cut--;
                if (cut > (size_t)avail / 3)
                    take = cut + 1;
            }
            if (take == 0 && pos < n)
                take = 1;
            if (hl) {
                wattron(win, term_attr(TC_FAULTLINE));
                mvwhline(win, y + r, x, ' ', w);
                wattroff(win, term_attr(TC_FAULTLINE));
            }
            char num[32];
            if (first)
                snprintf(num, sizeof num, "%*d%s", digits, ln % 1000000000,
                         dg ? (strcmp(term_glyph()->h, "-") ? "\u25b6" : ">") : " ");
            else
                snprintf(num, sizeof num, "%*s", digits + 1, "");
            int gattr = dg   ? term_attr(TC_ERRMARK)
                        : hl ? term_attr(TC_FAULTLINE)
                             : term_attr(TC_DIM);
            if (first && ln == cur_line) {
                snprintf(num, sizeof num, "%*d%s", digits, ln % 1000000000,
                         strcmp(term_glyph()->h, "-") ? "\u2192" : ">");
                gattr = term_attr(TC_SELECTED);
            }
            put(win, y + r, x, gutter, num, gattr);
            int cx = x + gutter + (first ? 0 : indent + 2);
            if (!first)
                put(win, y + r, cx - 2, 2, strcmp(term_glyph()->h, "-") ? "\u21aa " : "+ ",
                    term_attr(TC_DIM));
            draw_attr_run(win, y + r, cx, line, attrs, pos, pos + take,
                          hl ? term_attr(TC_FAULTLINE) : -1);
            if (first && active && active[li] >= 0) {
                char pct[8];
                snprintf(pct, sizeof pct, "%3.0f%%", 100.0 * active[li]);
                int pa = active[li] >= 0.999 ? term_attr(TC_DIM)
                         : active[li] >= 0.5 ? term_attr(TC_WARN)
                                             : term_attr(TC_BAD);
                put(win, y + r, x + w - 4, 4, pct, pa);
            }
            pos += take;
            r++;
            first = false;
        } while (pos < n);
        if (attrs != stackbuf)
            free(attrs);
        if (pos >= n)
            shown++;
        if (dg && r < rows) { /* the message under its line, wrapped */
            tlines M = {0};
            char msg[300];
            snprintf(msg, sizeof msg, "%*s%s", dg->col > 1 && dg->col < textw / 2 ? dg->col - 1 : 0,
                     "", dg->msg);
            tl_wrap(&M, msg, textw, term_attr(TC_BAD));
            for (int k = 0; k < M.n && r < rows; k++, r++) {
                put(win, y + r, x, gutter, "", PLAIN);
                put(win, y + r, x + gutter, textw, M.v[k].s,
                    dg->is_error ? term_attr(TC_BAD) : term_attr(TC_WARN));
            }
            tl_free(&M);
        }
    }
    free(active);
    return shown;
}

static void draw_source(const app *a, WINDOW *win, int h, int w, struct view_metrics *m)
{
    int rows = h - 2;
    if (!a->src.text) {
        m->src_rows = rows;
        put(win, 1, 2, w - 4, "(no kernel source)", term_attr(TC_DIM));
        return;
    }
    int top = a->src_top;
    if (top > a->src.nlines - 1)
        top = a->src.nlines - 1;
    if (top < 0)
        top = 0;
    /* no empty rows at the bottom while lines above the top are hidden */
    int below = 0;
    for (int i = top; i < a->src.nlines; i++)
        below += line_rows(a, i, w - 3, false);
    while (top > 0 && below + line_rows(a, top - 1, w - 3, false) <= rows)
        below += line_rows(a, --top, w - 3, false);
    int shown = draw_source_region(a, win, 1, 1, rows, w - 3, top, false);
    m->src_rows = shown > 0 ? shown : 1;
    int fault_line = 0;
    char msg[96];
    if (a->ndiags && a->diags[0].is_finding) {
        snprintf(msg, sizeof msg, " checkers: line%s", a->ndiags == 1 ? "" : "s");
        for (int i = 0; i < a->ndiags && strlen(msg) < 60; i++)
            snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s %d", i ? "," : "",
                     a->diags[i].line);
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " ");
        put(win, h - 1, 2, w - 4, msg,
            a->diags[0].is_error ? term_attr(TC_BAD) : term_attr(TC_WARN));
    } else if (a->ndiags) {
        snprintf(msg, sizeof msg, " %d compile error%s: line %d:%d ", a->ndiags,
                 a->ndiags == 1 ? "" : "s", a->diags[0].line, a->diags[0].col);
        put(win, h - 1, 2, w - 4, msg, term_attr(TC_BAD));
    } else if (fault_in_source(a, &fault_line)) {
        snprintf(msg, sizeof msg, " fault at line %d ", fault_line);
        put(win, h - 1, 2, w - 4, msg, term_attr(TC_BAD));
    } else if (top + shown < a->src.nlines || top > 0) {
        put(win, h - 1, 2, w - 4, " Up/Down scroll ", term_attr(TC_DIM));
    }
}

/* Rows the source takes when wrapped to w columns (gutter included), with the rows of
 * its compile errors' messages. */
static int source_rows_needed(const app *a, int w)
{
    int rows = 0;
    for (int i = 0; i < a->src.nlines; i++)
        rows += line_rows(a, i, w, false);
    return rows;
}

static int source_rows_needed_big(const app *a, int w)
{
    int rows = 0;
    for (int i = 0; i < a->src.nlines; i++)
        rows += line_rows(a, i, w, true);
    return rows;
}

/* Columns the source wants: gutter, its longest line, borders. */
static int source_natural_width(const app *a)
{
    int longest = 0;
    for (int i = 0; i < a->src.nlines; i++) {
        int c;
        mb_fit(a->src.lines[i], strlen(a->src.lines[i]), 400, &c);
        if (c > longest)
            longest = c;
    }
    int digits = 1;
    for (int n = a->src.nlines; n >= 10; n /= 10)
        digits++;
    return longest + digits + 2 + 3;
}

/* The exercise's size: "n = 4099, the default: the largest graded size (1 31 ...) whose
 * reference run took under 1 s on the simulator (0.004 s); z picks another". */
static void exercise_size_lines(const app *a, tlines *L, int cols)
{
    char sizes[256] = "";
    size_t used = 0;
    for (int i = 0; i < a->ex_nsizes && used + 24 < sizeof sizes; i++)
        used += (size_t)snprintf(sizes + used, sizeof sizes - used, "%s%lld", i ? " " : "",
                                 (long long)a->ex_sizes[i]);
    double secs = -1;
    char slow[96] = ""; /* the first size that took too long */
    for (int i = 0; i < a->ex_nsizes; i++) {
        if (a->ex_sizes[i] == a->ex_default)
            secs = a->ex_secs[i];
        if (a->ex_sizes[i] > a->ex_default && a->ex_secs[i] >= 0 && !slow[0])
            snprintf(slow, sizeof slow, "; %lld took %.1f s", (long long)a->ex_sizes[i],
                     a->ex_secs[i]);
    }
    int64_t n = a->have_run && a->ref_n > 0 ? a->ref_n : app_exercise_n(a);
    if (a->ex_pick > 0 && a->ex_pick != a->ex_default)
        tl_printf(L, cols, term_attr(TC_DIM), "n = %lld, picked with z from the graded sizes %s%s",
                  (long long)n, sizes,
                  a->ex_default > 0 ? "" : " (the default is not measured yet)");
    else if (a->ex_default > 0 && secs >= 0)
        tl_printf(L, cols, term_attr(TC_DIM),
                  "n = %lld, the default: the largest of the graded sizes %s whose reference run "
                  "took under %.0f s "
                  "on the simulator (%.3f s%s); z picks another",
                  (long long)n, sizes, JOB_SIZE_SECONDS, secs, slow);
    else if (a->ex_default > 0)
        tl_printf(L, cols, term_attr(TC_DIM),
                  "n = %lld, the default (graded sizes %s); z picks another", (long long)n, sizes);
}

/* The exercise's output against the reference's (app.c's exercise_compare). */
static void comparison_lines(const app *a, tlines *L, int cols)
{
    const struct app_ref_cmp *c = &a->cmp;
    if (c->done && c->differ == 0)
        tl_printf(L, cols, term_attr(TC_GOOD), "output matches the reference for n = %lld",
                  (long long)c->n);
    else if (c->done) {
        char tol[64] = "";
        if (c->tolerance > 0)
            snprintf(tol, sizeof tol, " by more than the tolerance %g", c->tolerance);
        tl_printf(L, cols, term_attr(TC_BAD),
                  "output differs from the reference for n = %lld at %zu of %zu elements%s%s",
                  (long long)c->n, c->differ, c->elements, tol,
                  a->view == VIEW_BUFFERS ? " (side by side above)" : " (7 shows them)");
    } else if (a->ref_status != GL_OK && a->ref_error[0]) {
        tl_printf(L, cols, term_attr(TC_BAD),
                  "the reference could not run at n = %lld:", (long long)a->ref_n);
        tl_wrap(L, a->ref_error, cols, term_attr(TC_BAD));
    } else if (a->run_status != GL_OK && a->run_status != GL_ERR_COMPILE)
        tl_printf(L, cols, term_attr(TC_DIM),
                  "output not compared with the reference: the kernel did not finish");
    exercise_size_lines(a, L, cols);
}

/* "a -> b (-33%)" for a counter that changed. */
static int change_text(char *buf, size_t n, const char *what, double before, double after,
                       int decimals)
{
    if (before == after)
        return 0;
    char pct[32] = "";
    if (before != 0)
        snprintf(pct, sizeof pct, " (%+.0f%%)", (after - before) / before * 100.0);
    return snprintf(buf, n, "%s %.*f -> %.*f%s", what, decimals, before, decimals, after, pct);
}

/* The run against the previous run of the same step (Nsight Compute's baseline): time on
 * the GPU, else warp instructions, and the memory metrics that changed. Nothing when
 * there is no such run, or nothing changed. */
static void baseline_lines(const app *a, tlines *L, int cols)
{
    const struct app_baseline *b = &a->baseline;
    if (!b->valid || b->lesson != a->lesson || b->step != a->step || a->run_status != GL_OK ||
        a->run.fault.kind != GL_FAULT_NONE || (int)a->run.backend != b->backend ||
        b->n != (app_on_exercise(a) ? a->spec_n : 0) || b->names != a->run_names)
        return; /* the debug build (N) runs other code: its counts compare with its own */
    char parts[4][160];
    int np = 0;
    if (b->backend == GL_BACKEND_GPU && b->ms > 0 && a->run.elapsed_ms > 0) {
        if (change_text(parts[np], sizeof parts[np], "time (ms)", b->ms, a->run.elapsed_ms, 3))
            np++;
    } else if (change_text(parts[np], sizeof parts[np], "warp instructions", (double)b->warp_insns,
                           (double)a->run.stats.warp_instructions, 0))
        np++;
    if (b->has_counts && a->run.metrics) {
        const gl_counts *p = &b->c, *c = &a->run.metrics->total;
        const double spr0 = gl_global_sectors_per_request(p),
                     spr1 = gl_global_sectors_per_request(c);
        if (spr0 > 0 && spr1 > 0 &&
            change_text(parts[np], sizeof parts[np], "global sectors/request", spr0, spr1, 1))
            np++;
        if (np < 4 &&
            change_text(parts[np], sizeof parts[np], "shared wavefronts",
                        (double)gl_shared_wavefronts(p), (double)gl_shared_wavefronts(c), 0))
            np++;
        if (np < 4 && change_text(parts[np], sizeof parts[np], "divergent branches",
                                  (double)p->divergent_branches, (double)c->divergent_branches, 0))
            np++;
    }
    /* whether the two runs did the same work (f runs another kernel, maybe in another
     * launch): say so before comparing their counts */
    char work[600] = "";
    const bool same =
        !b->has_work || !a->have_work || gl_work_same(&b->work, &a->run_work, work, sizeof work);
    if (work[0])
        tl_wrap(L, work, cols, same ? term_attr(TC_DIM) : term_attr(TC_WARN));
    if (np == 0) {
        tl_printf(L, cols, term_attr(TC_DIM), "the same counts as your previous run");
        return;
    }
    char line[720];
    const bool other = b->has_work && a->have_work && strcmp(b->work.kernel, a->run_work.kernel);
    int used = snprintf(line, sizeof line, "than your previous run%s%.120s%s:", other ? " (" : "",
                        other ? b->work.kernel : "", other ? ")" : "");
    for (int i = 0; i < np && used < (int)sizeof line; i++)
        used += snprintf(line + used, sizeof line - (size_t)used, "%s %s", i ? ";" : "", parts[i]);
    tl_wrap(L, line, cols, term_attr(TC_HEADING));
}

/* Theoretical and (estimated) achieved occupancy of the run's launch in one wrapped line
 * (gl_occupancy_describe): "occupancy: 100% theoretical (limit: threads), about 12%
 * achieved on the 4 SMs with work: 128 of 132 SMs idle"; on the simulator it says the
 * figures are its model's, with the registers per thread ptxas counted for the target,
 * or that they are upper bounds when nothing counted them (no CUDA Toolkit). */
static void occupancy_lines(const app *a, tlines *L, int cols)
{
    const gl_occupancy *o = &a->run.occupancy;
    if (!o->valid)
        return;
    char line[400];
    gl_occupancy_describe(o, a->run.backend == GL_BACKEND_SIM, line, sizeof line);
    tl_printf(L, cols, term_attr(TC_DIM), "%s", line);
}

/* Whether the last run changed pointer argument i's buffer: against the copy from before
 * the launch, else (a buffer past 64 MiB) the run's work; true when neither says. */
static bool run_buffer_changed(const app *a, int i)
{
    if (a->init_buffers && a->init_buffers[i].data)
        return memcmp(a->init_buffers[i].data, a->run.buffers[i].data, a->run.buffers[i].bytes) !=
               0;
    for (int b = 0; a->have_work && b < a->run_work.nbuf; b++)
        if (strcmp(a->run_work.buf[b].name, a->spec.args[i].name) == 0 &&
            a->run_work.buf[b].changed != SIZE_MAX)
            return a->run_work.buf[b].changed > 0;
    return true;
}

static void build_run_lines(const app *a, tlines *L, int cols)
{
    char backend[300];
    if (a->have_run) {
        if (a->run.backend == GL_BACKEND_GPU)
            snprintf(backend, sizeof backend, "ran on %s",
                     a->backend_known && !a->device.is_simulator ? a->device.name : "the GPU");
        else
            snprintf(backend, sizeof backend,
                     a->replayed_on_sim ? "replayed on the simulator" : "ran on the simulator");
        char extra[160] = "";
        if (a->run_kernel[0]) { /* f ran another kernel of the file */
            const size_t used = strlen(backend);
            snprintf(backend + used, sizeof backend - used, ": %.120s", a->run_kernel);
        }
        if (a->run.backend == GL_BACKEND_GPU && a->run.elapsed_ms > 0) {
            /* with the bytes the launch moves (the spec's bytes_moved): the bandwidth it
             * reached, and its share of the device's peak */
            const double gbs = a->have_spec && a->spec.bytes_moved > 0
                                   ? a->spec.bytes_moved / (a->run.elapsed_ms * 1e6)
                                   : 0,
                         peak = a->backend_known && !a->device.is_simulator
                                    ? a->device.peak_bandwidth_gbs
                                    : 0;
            const double gflops =
                a->have_spec && a->spec.flops > 0 ? a->spec.flops / (a->run.elapsed_ms * 1e6) : 0;
            if (gflops > 0) /* a compute-bound kernel: FLOP/s says more than bytes */
                snprintf(extra, sizeof extra, " in %.3f ms: %.0f GFLOP/s", a->run.elapsed_ms,
                         gflops);
            else if (gbs > 0 && peak > 0)
                snprintf(extra, sizeof extra,
                         " in %.3f ms: %.0f GB/s, %.0f%% of the %.0f GB/s peak", a->run.elapsed_ms,
                         gbs, 100 * gbs / peak, peak);
            else if (gbs > 0)
                snprintf(extra, sizeof extra, " in %.3f ms: %.0f GB/s", a->run.elapsed_ms, gbs);
            else
                snprintf(extra, sizeof extra, " in %.3f ms", a->run.elapsed_ms);
        } else if (a->run.stats.warp_instructions)
            snprintf(extra, sizeof extra, " (%llu warp instructions)",
                     (unsigned long long)a->run.stats.warp_instructions);
        if (a->run_status == GL_ERR_COMPILE)
            tl_printf(L, cols, term_attr(TC_BAD), "it did not compile%s",
                      a->ndiags ? " (the errors are marked in the source):" : ":");
        else
            tl_printf(L, cols, a->run_status == GL_OK ? term_attr(TC_GOOD) : term_attr(TC_BAD),
                      "%s%s%s", backend, extra, a->run_status == GL_OK ? "" : " - failed");
        if (a->run_status == GL_OK && a->run.timing.library.asked) { /* cuBLAS or CUB beside it */
            char lib[400];
            const double ms = a->have_spec ? a->run.elapsed_ms : 0;
            gl_library_line(&a->run.timing.library,
                            ms > 0 && a->spec.flops > 0 ? a->spec.flops / (ms * 1e6) : 0,
                            ms > 0 && a->spec.bytes_moved > 0 ? a->spec.bytes_moved / (ms * 1e6)
                                                              : 0,
                            lib, sizeof lib);
            tl_wrap(L, lib, cols, PLAIN);
        }
        baseline_lines(a, L, cols);
        if (app_on_exercise(a) && a->run_status == GL_OK)
            comparison_lines(a, L, cols);
        if (a->run_status != GL_OK && a->run_status != GL_ERR_COMPILE) {
            tl_wrap(L, a->run_error[0] ? a->run_error : "the run failed", cols, term_attr(TC_BAD));
            if (app_on_exercise(a))
                comparison_lines(a, L, cols);
        } else if (a->run_status == GL_ERR_COMPILE)
            tl_wrap(L, a->run_error, cols, PLAIN);
        /* what the simulator's checkers found (racecheck, memcheck, synccheck, initcheck) */
        if (a->run.nfindings > 0) {
            tl_printf(L, cols, a->run.nerrors ? term_attr(TC_BAD) : term_attr(TC_WARN),
                      "the checkers found %d error%s and %d warning%s (marked in the source):",
                      a->run.nerrors, a->run.nerrors == 1 ? "" : "s", a->run.nwarnings,
                      a->run.nwarnings == 1 ? "" : "s");
            for (int i = 0; i < a->run.nfindings; i++) {
                const gl_finding *f = &a->run.findings[i];
                char cnt[48] = "";
                if (f->count > 1)
                    snprintf(cnt, sizeof cnt, " (seen %llu times)", (unsigned long long)f->count);
                /* the message starts with its kind's name already: not twice */
                const char *name = app_finding_name((int)f->kind);
                const int named = strncmp(f->message, name, strlen(name)) == 0;
                tl_printf(L, cols, f->is_error ? term_attr(TC_BAD) : term_attr(TC_WARN),
                          "%s %s%s%s%s", term_glyph()->dot, named ? "" : name, named ? "" : ": ",
                          f->message, cnt);
            }
            if (a->run.findings_dropped)
                tl_printf(L, cols, term_attr(TC_DIM), "(%d more not shown)",
                          a->run.findings_dropped);
        }
        const char *out = a->run.stdout_text;
        if (out && *out) {
            int n = 0;
            for (const char *p = out; *p; p++)
                n += *p == '\n';
            if (out[strlen(out) - 1] != '\n')
                n++;
            tl_printf(L, cols, term_attr(TC_HEADING), "printf output (%d line%s):", n,
                      n == 1 ? "" : "s");
            const char *p = out;
            while (*p) {
                const char *e = strchr(p, '\n');
                size_t len = e ? (size_t)(e - p) : strlen(p);
                char *line = strndup(p, len);
                if (line)
                    tl_wrap(L, line, cols, PLAIN), free(line);
                if (!e)
                    break;
                p = e + 1;
            }
        }
        /* after the kernel's own output, which a small terminal shows first */
        if (a->run_status == GL_OK)
            occupancy_lines(a, L, cols);
        if (a->have_spec && a->run.buffers) {
            /* buffers the kernel changed first: those are its outputs */
            bool header = false;
            for (int pass = 0; pass < 2; pass++)
                for (int i = 0; i < a->spec.nargs && i < a->run.nargs; i++) {
                    const gl_arg *arg = &a->spec.args[i];
                    if (!arg->is_ptr || !a->run.buffers[i].data)
                        continue;
                    bool changed = run_buffer_changed(a, i);
                    if (changed != (pass == 0))
                        continue;
                    if (!header)
                        tl_add(L, "buffers after the run:", 22, term_attr(TC_HEADING)),
                            header = true;
                    char buf[1024];
                    int n = snprintf(buf, sizeof buf, "%s[0..%zu)%s =", arg->name, arg->len,
                                     changed ? "" : " (unchanged)");
                    size_t shown = 0;
                    for (size_t k = 0; k < arg->len && n < cols - 12 && n < (int)sizeof buf - 40;
                         k++, shown++) {
                        gl_value v = gl_buffer_get(a->run.buffers[i].data, arg->type, k);
                        if (gl_type_is_float(arg->type))
                            n += snprintf(buf + n, sizeof buf - (size_t)n, " %g", v.f);
                        else if (gl_type_is_signed(arg->type))
                            n += snprintf(buf + n, sizeof buf - (size_t)n, " %lld", (long long)v.i);
                        else
                            n += snprintf(buf + n, sizeof buf - (size_t)n, " %llu",
                                          (unsigned long long)v.u);
                    }
                    if (shown < arg->len)
                        snprintf(buf + n, sizeof buf - (size_t)n, " %s", term_glyph()->ellipsis);
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
    if (a->have_run && a->run.note[0] && !a->note_repeat)
        tl_wrap(L, a->run.note, cols, term_attr(TC_DIM));
}

/* Word-wraps text to width columns with every line indented by `indent` spaces. */
static void tl_wrap_indent(tlines *L, const char *text, int width, int indent, int attr)
{
    tlines W = {0};
    tl_wrap(&W, text, width - indent, attr);
    for (int i = 0; i < W.n; i++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%*s%s", indent, "", W.v[i].s);
        tl_add(L, buf, strlen(buf), W.v[i].attr);
    }
    tl_free(&W);
}

/* A copy of s with every occurrence of path replaced by its file name (caller frees);
 * NULL when path is empty or out of memory. */
static char *path_to_name(const char *s, const char *path)
{
    const size_t pl = path ? strlen(path) : 0;
    if (pl == 0)
        return NULL;
    const char *name = base_name(path);
    char *out = malloc(strlen(s) + 1), *o = out;
    if (!out)
        return NULL;
    while (*s) {
        if (strncmp(s, path, pl) == 0) {
            o += sprintf(o, "%s", name);
            s += pl;
        } else {
            *o++ = *s++;
        }
    }
    *o = '\0';
    return out;
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
    /* failures first (what to fix), then the checks that could not run, then passes;
     * checks that did not fail and say the same (or nothing) share one entry */
    bool done[256] = {false};
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < r->nchecks && i < 256; i++) {
            const gl_check_result *c = &r->checks[i];
            int rank = c->passed ? 2 : c->not_run ? 1 : 0;
            if (rank != pass || done[i])
                continue;
            char names[1024];
            size_t used = (size_t)snprintf(names, sizeof names, "%s", c->name);
            for (int j = i + 1; rank > 0 && j < r->nchecks && j < 256; j++) {
                const gl_check_result *o = &r->checks[j];
                if ((o->passed ? 2 : o->not_run ? 1 : 0) != rank || strcmp(o->detail, c->detail))
                    continue;
                done[j] = true;
                if (used < sizeof names)
                    used += (size_t)snprintf(names + used, sizeof names - used, ", %s", o->name);
            }
            const int attr = rank == 2   ? term_attr(TC_GOOD)
                             : rank == 1 ? term_attr(TC_WARN)
                                         : term_attr(TC_BAD);
            if (rank == 2 && c->detail[0] && !strchr(c->detail, '\n')) {
                /* a pass on one line with what it checked, the rest indented */
                char *d = path_to_name(c->detail, a->ex_path);
                const char *det = d ? d : c->detail;
                const size_t n = strlen(names) + strlen(det) + 16;
                char *line = malloc(n);
                if (line) {
                    snprintf(line, n, "PASS %s: %s", names, det);
                    tlines W = {0};
                    tl_wrap(&W, line, cols, attr);
                    const char *rest = line + (W.n ? strlen(W.v[0].s) : strlen(line));
                    while (*rest == ' ')
                        rest++;
                    if (W.n)
                        tl_add(L, W.v[0].s, strlen(W.v[0].s), attr);
                    if (*rest)
                        tl_wrap_indent(L, rest, cols, 5, PLAIN);
                    tl_free(&W);
                    free(line);
                }
                free(d);
                continue;
            }
            tl_printf(L, cols, attr, "%s %s",
                      rank == 2   ? "PASS"
                      : rank == 1 ? "NOT RUN"
                                  : "FAIL",
                      names);
            if (c->detail[0]) {
                /* the learner's copy by its file name (its folder is in the text pane) */
                char *d = path_to_name(c->detail, a->ex_path);
                tl_wrap_indent(L, d ? d : c->detail, cols, 5, PLAIN);
                free(d);
            }
        }
}

static void draw_result(const app *a, WINDOW *win, int h, int w, struct view_metrics *m)
{
    tlines L = {0};
    int cols = w - 4;
    if (app_on_exercise(a) && a->have_grade) {
        build_grade_lines(a, &L, cols);
        if (a->have_run)
            tl_add(&L, "", 0, 0);
    }
    if (!app_on_exercise(a) || a->have_run)
        build_run_lines(a, &L, cols);
    else if (!a->have_grade) {
        char msg[200];
        if (a->ex_pick > 0 || a->ex_default > 0)
            snprintf(msg, sizeof msg,
                     "press g to grade your kernel; r runs it and the reference at n = %lld and "
                     "compares them (z: another size)",
                     (long long)app_exercise_n(a));
        else
            snprintf(msg, sizeof msg,
                     "press g to grade your kernel; r runs it and the reference at the largest "
                     "graded size that runs within a second and compares them (z: another size)");
        tl_wrap(&L, msg, cols, term_attr(TC_DIM));
        if (a->spec_error[0])
            tl_wrap(&L, a->spec_error, cols, term_attr(TC_BAD));
    }
    m->res_lines = L.n;
    m->res_rows = h - 2;
    int top = tl_draw(win, &L, a->res_top, 1, 2, h - 2, cols);
    if (top + h - 2 < L.n)
        put(win, h - 1, w - 34, 32,
            a->res_full ? " J/K or Up/Down: more " : " Enter: all  J/K scroll: more ",
            term_attr(TC_DIM));
    tl_free(&L);
}

static void fmt_bytes(char *buf, size_t len, size_t b)
{
    if (b == 0)
        snprintf(buf, len, "-");
    else if (b >= (1ull << 30))
        snprintf(buf, len, "%.1f GiB", (double)b / (1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(buf, len, "%.1f MiB", (double)b / (1ull << 20));
    else if (b >= 1024)
        snprintf(buf, len, "%zu KiB", b / 1024);
    else
        snprintf(buf, len, "%zu bytes", b);
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
        struct {
            const char *label;
            char value[320];
        } rows[24];
        int n = 0;
#define ROW(lbl, ...)                                                                              \
    (rows[n].label = (lbl), snprintf(rows[n].value, sizeof rows[n].value, __VA_ARGS__), n++)
#define NUM(x) ((x) ? (snprintf(v, sizeof v, "%d", (x)), v) : "-")
        ROW("device", "%s%s", d->name, d->is_simulator ? " (simulated)" : "");
        ROW("compute capability", "%d.%d", d->compute_major, d->compute_minor);
        ROW("streaming multiprocessors", "%s", NUM(d->sm_count));
        ROW("warp size", "%s threads", NUM(d->warp_size));
        ROW("max threads per block", "%s", NUM(d->max_threads_per_block));
        ROW("max threads per SM", "%s", NUM(d->max_threads_per_sm));
        ROW("max block size", "%d x %d x %d", d->max_block_dim[0], d->max_block_dim[1],
            d->max_block_dim[2]);
        ROW("max grid size", "%d x %d x %d", d->max_grid_dim[0], d->max_grid_dim[1],
            d->max_grid_dim[2]);
        ROW("registers per block", "%s", NUM(d->regs_per_block));
        fmt_bytes(k1, sizeof k1, d->shared_bytes_per_block);
        fmt_bytes(k2, sizeof k2, d->shared_bytes_per_sm);
        ROW("shared memory per block", "%s", k1);
        ROW("shared memory per SM", "%s", k2);
        fmt_bytes(k1, sizeof k1, d->global_bytes);
        fmt_bytes(k2, sizeof k2, d->l2_bytes);
        ROW("global memory", "%s", k1);
        ROW("L2 cache", "%s", k2);
        if (d->clock_khz)
            ROW("SM clock", "%.0f MHz", d->clock_khz / 1000.0);
        else
            ROW("SM clock", "-");
        if (d->mem_clock_khz)
            ROW("memory clock", "%.0f MHz", d->mem_clock_khz / 1000.0);
        else
            ROW("memory clock", "-");
        if (d->mem_bus_bits)
            ROW("memory bus", "%d bits", d->mem_bus_bits);
        else
            ROW("memory bus", "-");
        if (d->peak_bandwidth_gbs > 0)
            ROW("peak memory bandwidth", "%.0f GB/s", d->peak_bandwidth_gbs);
        else
            ROW("peak memory bandwidth", "-");
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
    if (app_on_exercise(a))
        snprintf(step_title, sizeof step_title, "Exercise");
    else
        snprintf(step_title, sizeof step_title, "Step %d/%d", a->step + 1, app_nsteps(a));
    snprintf(src_title, sizeof src_title, "%s", has_src ? base_name(a->src.path) : "kernel");
    if (app_on_exercise(a) && a->show_reference && has_src)
        snprintf(src_title, sizeof src_title, "reference solution: %.200s %s o your copy",
                 base_name(a->src.path), term_glyph()->dot);
    else if (app_on_exercise(a) && a->ex_path[0] && has_src)
        snprintf(src_title, sizeof src_title, "your copy: %.200s %s e edit %s g grade",
                 base_name(a->src.path), term_glyph()->dot, term_glyph()->dot);
    char res_title[96] = "Result";
    if (app_on_exercise(a) && (a->ex_pick > 0 || a->ex_default > 0))
        snprintf(res_title, sizeof res_title, "Result / grade %s n = %lld %s z size",
                 term_glyph()->dot,
                 (long long)(a->have_run && a->ref_n > 0 ? a->ref_n : app_exercise_n(a)),
                 term_glyph()->dot);
    else if (app_on_exercise(a))
        snprintf(res_title, sizeof res_title, "Result / grade %s n = auto %s z size",
                 term_glyph()->dot, term_glyph()->dot);

    if (device) {
        int th = h * 2 / 5 > 6 ? h * 2 / 5 : 6;
        if (COLS >= 120) {
            int lw = COLS * 2 / 5;
            WINDOW *t = pane(W_TEXT, y, 0, h, lw, step_title);
            if (t)
                draw_text(a, t, h, lw, m), pane_show(t);
            WINDOW *d = pane(W_FULL, y, lw, h, COLS - lw, "Device");
            if (d)
                draw_device(a, d, h, COLS - lw), pane_show(d);
        } else {
            WINDOW *t = pane(W_TEXT, y, 0, th, COLS, step_title);
            if (t)
                draw_text(a, t, th, COLS, m), pane_show(t);
            WINDOW *d = pane(W_FULL, y + th, 0, h - th, COLS, "Device");
            if (d)
                draw_device(a, d, h - th, COLS), pane_show(d);
        }
        return;
    }
    if (a->res_full && has_result) { /* the Result on the whole page */
        char full[160];
        snprintf(full, sizeof full, "%s %s Enter: back to the panes", res_title, term_glyph()->dot);
        WINDOW *r = pane(W_RESULT, y, 0, h, COLS, full);
        if (r)
            draw_result(a, r, h, COLS, m), pane_show(r);
        return;
    }
    if (!has_src && !has_result) {
        WINDOW *t = pane(W_TEXT, y, 0, h, COLS, step_title);
        if (t)
            draw_text(a, t, h, COLS, m), pane_show(t);
        return;
    }
    bool wide = COLS >= WIDE_COLS && h >= WIDE_ROWS - 2;
    if (wide) {
        int lw = COLS * 9 / 20;
        /* the text and the map take what they need (up to 40% / 55%), the source and
         * the result the rest */
        tlines need;
        text_lines(a, lw - 4, &need);
        int th = clampi(need.n + 2, 6, h * 2 / 5);
        tl_free(&need);
        int mh = has_map ? clampi(view_slot_height(a, COLS - lw - 4) + 2, 12, h * 11 / 20) : 0;
        WINDOW *t = pane(W_TEXT, y, 0, th, lw, step_title);
        if (t)
            draw_text(a, t, th, lw, m), pane_show(t);
        WINDOW *s = pane(W_SOURCE, y + th, 0, h - th, lw, src_title);
        if (s)
            draw_source(a, s, h - th, lw, m), pane_show(s);
        if (has_map) {
            char stl[96];
            WINDOW *mp = pane(W_MAP, y, lw, mh, COLS - lw, view_slot_title(a, stl, sizeof stl));
            if (mp)
                view_slot_draw(mp, a, 1, 2, mh - 2, COLS - lw - 4, m), pane_show(mp);
        }
        WINDOW *r = pane(W_RESULT, y + mh, lw, h - mh, COLS - lw, res_title);
        if (r)
            draw_result(a, r, h - mh, COLS - lw, m), pane_show(r);
        return;
    }
    /* Narrow layout: the text gets the rows it needs (up to 45%), the source/map row
     * what the kernel needs, the result the rest (at least 6 rows). */
    tlines need;
    text_lines(a, COLS - 4, &need);
    /* Once the step has run, the result matters more than the text. */
    int th = clampi(need.n + 2, 5, a->have_run || a->have_grade ? h / 4 : h * 45 / 100);
    tl_free(&need);
    /* Source and map side by side: the map gets what it needs (its natural width,
     * at most 45%), the source the rest; a source that needs less gives it back. */
    int sw = COLS;
    /* On the exercise, when both do not fit side by side, the slot shows the source
     * (what the learner works on); m (map focus) shows the map there instead. */
    if (has_map && has_src && app_on_exercise(a) && a->view == VIEW_MAP &&
        source_natural_width(a) + map_natural_width(a) > COLS) {
        /* (the exercise: see above) */
        if (a->map_focus)
            has_src = false;
        else
            has_map = false;
    }
    if (has_map && has_src) {
        /* the trace views need room: 55% (the source wraps) */
        const tui_view *v = view_of(a->view);
        bool wide_view =
            (v->flags & VIEW_F_WIDE) || ((v->flags & VIEW_F_WIDE_EX) && app_on_exercise(a));
        int maxw = wide_view ? COLS / 2 : COLS * 45 / 100;
        int mapw = clampi(v->natural_width ? v->natural_width(a) : maxw, 30, maxw);
        sw = COLS - mapw;
        int want = source_natural_width(a);
        if (want < sw && COLS - want <= COLS * 60 / 100)
            sw = want;
        if (sw < COLS / 3 && !(v->flags & VIEW_F_TRACE))
            sw = COLS / 3;
    } else if (has_map) {
        sw = 0;
    }
    int rmin = has_result ? 6 : 0;
    int need_rows = has_src && sw > 0 ? source_rows_needed(a, sw - 3) : 6;
    if (has_map) {
        int mrows = view_slot_height(a, COLS - sw - 4);
        if (mrows > need_rows)
            need_rows = mrows;
    }
    int mh = has_result ? clampi(need_rows + 2, 8, h - th - rmin) : h - th;
    int rh = h - th - mh;
    WINDOW *t = pane(W_TEXT, y, 0, th, COLS, step_title);
    if (t)
        draw_text(a, t, th, COLS, m), pane_show(t);
    if (has_src && sw > 0) {
        WINDOW *s = pane(W_SOURCE, y + th, 0, mh, sw, src_title);
        if (s)
            draw_source(a, s, mh, sw, m), pane_show(s);
    }
    if (has_map) {
        char stl[96];
        WINDOW *mp = pane(W_MAP, y + th, sw, mh, COLS - sw, view_slot_title(a, stl, sizeof stl));
        if (mp)
            view_slot_draw(mp, a, 1, 2, mh - 2, COLS - sw - 4, m), pane_show(mp);
    }
    if (rh > 0) {
        WINDOW *r = pane(W_RESULT, y + th + mh, 0, rh, COLS, res_title);
        if (r)
            draw_result(a, r, rh, COLS, m), pane_show(r);
    }
}

/* ------------------------------------------------------------------ demo */

/* The demo's bottom line: what is happening and the few keys a presenter needs. */
static void draw_demo_status(const app *a)
{
    char left[400], right[200];
    if (app_busy(a))
        snprintf(left, sizeof left, "%s %s%s %.0f s   (Esc cancels)", spinner(), a->busy_msg,
                 term_glyph()->ellipsis, job_now() - a->job.started);
    else if (a->flash[0])
        snprintf(left, sizeof left, "%s", a->flash);
    else if (a->have_spec && !a->have_run && !app_on_exercise(a))
        snprintf(left, sizeof left, "Space: run the kernel");
    else
        snprintf(left, sizeof left, "%s",
                 a->step + 1 < app_nsteps(a) ? "Space: next step" : "end of the lesson");
    if (a->auto_next)
        snprintf(right, sizeof right, "auto %.0f s %s ?:keys q:quit", a->opts.auto_seconds,
                 term_glyph()->dot);
    else
        snprintf(right, sizeof right, "%s%s",
                 COLS >= 80 && a->have_run && a->run.trace ? "P:play  " : "",
                 COLS >= 70 ? "p:back  a:auto  ?:keys  q:quit" : "?:keys q:quit");
    draw_bar(W_STATUS, LINES - 1, term_attr(TC_DIM), left, right);
}

/* Projector layout: no borders, a large title, the text in wide margins, then the
 * kernel and the thread map side by side (stacked when narrow), the result last. */
static void draw_demo(const app *a, struct view_metrics *m)
{
    WINDOW *win = pane_win(W_FULL, 0, 0, LINES - 1, COLS);
    if (!win)
        return;
    int H = LINES - 1;
    int mx = COLS >= 160 ? COLS / 10 : COLS >= 110 ? COLS / 16 : 2;
    int width = COLS - 2 * mx;
    const gl_step *st = app_cur_step(a);
    /* header: lesson, step chips */
    char head[300];
    snprintf(head, sizeof head, "Lesson %d %s %s", a->lesson->number, term_glyph()->dot,
             a->lesson->title ? a->lesson->title : "");
    int hw = put(win, 0, mx, width, head, term_attr(TC_DIM));
    draw_step_chips(a, win, 0, COLS - mx, term_attr(TC_DIM), mx + hw + 2);
    /* title, centred, underlined by a rule */
    const char *title = st ? (st->title ? st->title : "")
                           : (a->lesson->exercise->title ? a->lesson->exercise->title : "Exercise");
    int big = LINES >= 40 && COLS >= 150;
    int y = big ? 3 : 2;
    int tw;
    mb_fit(title, strlen(title), width, &tw);
    put(win, y, (COLS - tw) / 2, width, title, term_attr(TC_HEADING) | A_BOLD);
    wattron(win, term_attr(TC_BORDER));
    for (int i = 0; i < tw; i++)
        mvwaddstr(win, y + 1, (COLS - tw) / 2 + i, term_glyph()->h);
    wattroff(win, term_attr(TC_BORDER));
    y += big ? 3 : 2;
    /* text */
    int textw = width < 110 ? width : 110;
    if (big && textw > 100)
        textw = 100;
    tlines L = {0};
    const char *text = st ? st->text : a->lesson->exercise->text;
    tl_wrap(&L, text ? text : "", textw, PLAIN);
    bool device = st && st->view && strcmp(st->view, "device") == 0;
    bool has_src = a->src.text != NULL, has_map = a->have_spec;
    int rest = H - y;
    /* once the step ran, its result matters more than the text (already read) */
    int text_rows = (has_src || has_map || device)
                        ? clampi(L.n, 1, a->have_run ? rest / 5 : rest * 2 / 5)
                        : rest;
    m->text_lines = L.n;
    m->text_rows = text_rows;
    int ttop = tl_draw(win, &L, a->text_top, y, (COLS - textw) / 2, text_rows, textw);
    if (ttop + text_rows < L.n)
        put(win, y + text_rows - 1, (COLS + textw) / 2 + 1, 3, term_glyph()->ellipsis,
            term_attr(TC_DIM));
    tl_free(&L);
    y += text_rows + 1;
    rest = H - y;
    if (rest < 3)
        return;
    if (device) {
        pane_show(win); /* first: the device window lies on top of it */
        WINDOW *d = pane_win(W_MAP, y, mx, rest, width);
        if (d)
            draw_device(a, d, rest + 1, width), pane_show(d);
        return;
    }
    if (!has_src && !has_map) {
        pane_show(win);
        return;
    }
    /* result rows: what the run printed or produced, under the kernel and map */
    tlines R = {0};
    if (a->have_run)
        build_run_lines(a, &R, width);
    int rrows = a->have_run ? clampi(R.n, 1, rest / 2) : 0;
    int crows = rest - rrows - (rrows ? 1 : 0);
    /* kernel | map */
    int gap = 4;
    int sw = has_src ? source_natural_width(a) : 0;
    bool stacked = has_src && has_map && width - sw - gap < 30 && crows >= 14;
    if (has_src && has_map && !stacked) {
        int maxs = width * 55 / 100;
        if (sw > maxs)
            sw = maxs;
        if (width - sw - gap < 30)
            sw = width - gap - 30;
        if (sw < width / 3)
            sw = width / 3;
    } else if (has_src) {
        sw = width;
    }
    /* content rows: what the source and the map need, not more (the result follows) */
    {
        int need_src =
            has_src ? 1 + source_rows_needed_big(a, has_map && !stacked ? sw : width) : 0;
        int need_map =
            has_map ? view_slot_height(a, has_src && !stacked ? width - sw - gap : width) : 0;
        if (has_map && need_map < 9)
            need_map = 9;
        int need = stacked ? need_src + need_map + 1 : (need_src > need_map ? need_src : need_map);
        if (need < crows)
            crows = need;
        if (a->have_run)
            rrows = clampi(R.n, 1, rest - crows - 1);
    }
    int sy = y, srows = crows;
    if (stacked)
        srows = crows / 2;
    if (has_src) {
        char lbl[300];
        snprintf(lbl, sizeof lbl, "%s", base_name(a->src.path));
        put(win, sy, mx, sw, lbl, term_attr(TC_DIM) | A_BOLD);
        int top = a->src_top;
        if (top > a->src.nlines - 1)
            top = a->src.nlines - 1;
        if (top < 0)
            top = 0;
        m->src_rows = draw_source_region(a, win, sy + 1, mx, srows - 1, sw, top, true);
    }
    if (has_map) {
        int mxx = has_src && !stacked ? mx + sw + gap : mx;
        int my = stacked ? sy + srows + 1 : sy;
        int mh = stacked ? crows - srows - 1 : crows;
        int mw = has_src && !stacked ? width - sw - gap : width;
        if (mh >= 3) {
            WINDOW *mp = pane_win(W_MAP, my, mxx, mh, mw);
            if (mp)
                view_slot_draw(mp, a, 0, 0, mh, mw, m), pane_show(mp);
        }
    }
    if (rrows) {
        int ry = y + crows + 1;
        m->res_lines = R.n;
        m->res_rows = rrows;
        tl_draw(win, &R, a->res_top, ry, mx, rrows, width);
    }
    tl_free(&R);
    /* the map window sits on top of the full window: show the full one first */
    touchwin(win);
    wnoutrefresh(win);
    if (has_map && g_win[W_MAP])
        pane_show(g_win[W_MAP]);
}

/* The help overlay, generated from app.c's key table: one column, two when the
 * terminal is wide enough and one does not fit; Up/Down scroll what does not fit. */
/* One display row of the help overlay: a key (or "" on a description's continuation
 * row) and the part of its description that fits. */
typedef struct help_row {
    const char *keys;
    const char *text;
    size_t len;
} help_row;

/* Splits each help line's description into rows of at most width columns, at spaces
 * (a word longer than width is cut). Returns the number of rows (at most max). */
static int help_rows(const app_help_line *lines, int n, int width, help_row *out, int max)
{
    int nr = 0;
    for (int i = 0; i < n && nr < max; i++) {
        const char *p = lines[i].help;
        size_t left = strlen(p);
        const char *keys = lines[i].keys;
        do {
            int cols;
            size_t fit = mb_fit(p, left, width, &cols);
            if (fit < left) { /* break at the last space that fits */
                size_t b = fit;
                while (b > 0 && p[b] != ' ')
                    b--;
                if (b > 0)
                    fit = b;
            }
            out[nr++] = (help_row){keys, p, fit};
            keys = "";
            p += fit;
            left -= fit;
            while (left > 0 && *p == ' ')
                p++, left--;
        } while (left > 0 && nr < max);
    }
    return nr;
}

static void draw_help(const app *a, struct view_metrics *m)
{
    app_help_line lines[64];
    int n = app_help_lines(a, lines, 64);
    int kw = 0, hw = 0;
    for (int i = 0; i < n; i++) {
        int w;
        mb_fit(lines[i].keys, strlen(lines[i].keys), 40, &w);
        if (w > kw)
            kw = w;
        mb_fit(lines[i].help, strlen(lines[i].help), 80, &w);
        if (w > hw)
            hw = w;
    }
    int colw = kw + 3 + hw;
    int ncol = (n + 4 > LINES - 2 && COLS - 8 >= 2 * colw + 8) ? 2 : 1;
    int w = ncol * colw + (ncol - 1) * 4 + 6;
    if (w > COLS - 4)
        w = COLS - 4;
    /* descriptions wider than the box wrap onto rows of their own (one column only: two
     * columns are laid out only where every description fits) */
    const int textw = ncol == 1 ? w - 3 - kw - 3 - 2 : hw;
    help_row rows_all[192];
    int nrows = help_rows(lines, n, textw > 8 ? textw : 8, rows_all, 192);
    int per_col = (nrows + ncol - 1) / ncol;
    if (ncol == 2) /* keep a line's rows in one column: they never wrap there */
        per_col = (n + 1) / 2;
    int h = per_col + 4 < LINES - 2 ? per_col + 4 : LINES - 2;
    int rows = h - 4;
    int top = a->help_top;
    if (top > per_col - rows)
        top = per_col - rows;
    if (top < 0)
        top = 0;
    m->help_lines = per_col;
    m->help_rows = rows;
    WINDOW *win = pane(W_HELP, (LINES - h) / 2, (COLS - w) / 2, h, w, "Help: keys");
    if (!win)
        return;
    for (int c = 0; c < ncol; c++) {
        int x = 3 + c * (colw + 4);
        for (int r = 0; r < rows; r++) {
            int i = c * per_col + top + r;
            if (i >= nrows || top + r >= per_col)
                break;
            char text[512];
            snprintf(text, sizeof text, "%.*s", (int)rows_all[i].len, rows_all[i].text);
            put(win, 2 + r, x, kw, rows_all[i].keys, term_attr(TC_KEY));
            put(win, 2 + r, x + kw + 3, w - x - kw - 5, text, PLAIN);
        }
    }
    const char *foot = top + rows < per_col ? " Down: more  ? or Esc closes this "
                       : top > 0            ? " Up: back  ? or Esc closes this "
                                            : " ? or Esc closes this ";
    put(win, h - 1, 3, w - 6, foot, term_attr(TC_DIM));
    pane_show(win);
}

void view_draw(const app *a, struct view_metrics *m)
{
    memset(m, 0, sizeof *m);
    bool demo = a->opts.demo && a->screen == SCREEN_LESSON;
    if (demo ? (LINES < 12 || COLS < 40) : (LINES < MIN_ROWS || COLS < MIN_COLS)) {
        view_free();
        werase(stdscr);
        char msg[128];
        snprintf(msg, sizeof msg, "terminal too small (%dx%d); need at least %dx%d", COLS, LINES,
                 demo ? 40 : MIN_COLS, demo ? 12 : MIN_ROWS);
        int len = (int)strlen(msg);
        mvwaddnstr(stdscr, LINES / 2, len < COLS ? (COLS - len) / 2 : 0, msg, COLS);
        if (LINES > 2)
            mvwaddnstr(stdscr, LINES / 2 + 1, COLS > 10 ? (COLS - 10) / 2 : 0, "q: quit", COLS);
        touchwin(stdscr);
        wnoutrefresh(stdscr);
        doupdate();
        return;
    }
    g_nhits = 0;
    /* stdscr underneath: blank, so nothing stale shows between panes */
    werase(stdscr);
    wnoutrefresh(stdscr);
    if (a->opts.demo && a->screen == SCREEN_LESSON && a->lesson) {
        draw_demo(a, m);
        draw_demo_status(a);
        if (a->confirm == CONFIRM_NONE && a->help)
            draw_help(a, m);
        doupdate();
        return;
    }
    draw_title(a);
    if (a->screen == SCREEN_LESSON && a->lesson)
        draw_lesson(a, 1, LINES - 2, m);
    else
        draw_list(a, 1, LINES - 2);
    draw_status(a);
    if (a->help)
        draw_help(a, m);
    doupdate();
}
