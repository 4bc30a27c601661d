/* frame_help.c — the help overlay, generated from app_keys.c's key table. */
#include <stdio.h>
#include <string.h>

#include "tui/pane.h"
#include "tui/term.h"

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
            size_t fit = pane_fit(p, left, width, &cols);
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

void frame_help_draw(const app *a, struct view_metrics *m)
{
    app_help_line lines[64];
    int n = app_help_lines(a, lines, 64);
    int kw = 0, hw = 0;
    for (int i = 0; i < n; i++) {
        int w;
        pane_fit(lines[i].keys, strlen(lines[i].keys), 40, &w);
        if (w > kw)
            kw = w;
        pane_fit(lines[i].help, strlen(lines[i].help), 80, &w);
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
    WINDOW *win = pane_framed(PANE_HELP, (LINES - h) / 2, (COLS - w) / 2, h, w, "Help: keys");
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
            view_put(win, 2 + r, x, kw, rows_all[i].keys, term_attr(TC_KEY));
            view_put(win, 2 + r, x + kw + 3, w - x - kw - 5, text, PLAIN);
        }
    }
    const char *foot = top + rows < per_col ? " Down: more  ? or Esc closes this "
                       : top > 0            ? " Up: back  ? or Esc closes this "
                                            : " ? or Esc closes this ";
    view_put(win, h - 1, 3, w - 6, foot, term_attr(TC_DIM));
    pane_show(win);
}
