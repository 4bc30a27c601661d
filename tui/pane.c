/* pane.c — what the frame's panes are drawn with: text cut and wrapped to display columns
 * (UTF-8 aware), lists of wrapped lines, the frame's windows and their boxes, and the
 * click regions of the last frame. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/pane.h"
#include "tui/term.h"
#include "tui/view.h"

/* ------------------------------------------------------------- text helpers */

/* Bytes of the longest prefix of s[0..n) that fits in maxcols display columns;
 * *cols gets its width. Invalid bytes count as one column each. */
size_t pane_fit(const char *s, size_t n, int maxcols, int *cols)
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
    size_t n = pane_fit(s, strlen(s), maxcols, &cols);
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
    size_t fit = pane_fit(*s, *left, maxcols, &cols);
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

void tl_add(tlines *L, const char *s, size_t n, int attr)
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
void tl_wrap(tlines *L, const char *text, int width, int attr)
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
            size_t fit = pane_fit(p, plen, width, &cols);
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

void tl_printf(tlines *L, int width, int attr, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tl_wrap(L, buf, width, attr);
}

void tl_free(tlines *L)
{
    for (int i = 0; i < L->n; i++)
        free(L->v[i].s);
    free(L->v);
    L->v = NULL, L->n = L->cap = 0;
}

/* Draws lines [top, top+rows) of L at (y, x); returns the clamped top. */
int tl_draw(WINDOW *win, const tlines *L, int top, int y, int x, int rows, int cols)
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

static WINDOW *g_win[PANE__N];

/* The window for a slot at this geometry (recreated when the geometry changed). */
WINDOW *pane_win(int slot, int y, int x, int h, int w)
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

void pane_hit_add(int y, int x0, int x1, view_hit_kind kind, int index)
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

void pane_show(WINDOW *win)
{
    if (!win)
        return;
    touchwin(win);
    wnoutrefresh(win);
}

void view_free(void)
{
    for (int i = 0; i < PANE__N; i++)
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
WINDOW *pane_framed(int slot, int y, int x, int h, int w, const char *title)
{
    WINDOW *win = pane_win(slot, y, x, h, w);
    if (win)
        view_box(win, 0, 0, h, w, title);
    return win;
}

const char *pane_base_name(const char *path)
{
    if (!path)
        return "";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

WINDOW *pane_slot(int slot)
{
    return g_win[slot];
}

void pane_hits_clear(void)
{
    g_nhits = 0;
}
