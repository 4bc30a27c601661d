/* pane.h — what the files that draw the frame share (pane.c, pane_text.c, pane_source.c,
 * pane_result.c, frame.c, frame_demo.c, frame_help.c): wrapped text lines, the frame's
 * windows, click regions, and each pane's drawing. Private to tui/; the views of the
 * map's slot use app.h's view_put family instead. */
#ifndef GL_TUI_PANE_H
#define GL_TUI_PANE_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "tui/app.h"

#define PLAIN 0 /* no attribute (A_NORMAL is unsigned) */

/* The frame's least size (else "terminal too small") and the size from which the lesson
 * page puts the text, source, view and Result side by side. */
enum { MIN_COLS = 60, MIN_ROWS = 16, WIDE_COLS = 140, WIDE_ROWS = 32 };

/* v clamped to [lo, hi] (lo when hi < lo). */
static inline int pane_clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? (hi < lo ? lo : hi) : v;
}

/* ------------------------------------------------------------------ pane.c */

/* Bytes of the longest prefix of s[0..n) that fits in maxcols display columns;
 * *cols (may be NULL) gets its width. Invalid bytes count as one column each. */
size_t pane_fit(const char *s, size_t n, int maxcols, int *cols);

/* One display line of wrapped text, in attribute attr. */
typedef struct tline {
    char *s;
    int attr;
} tline;

/* A list of display lines (wrapped text), rebuilt each frame. */
typedef struct tlines {
    tline *v;
    int n, cap;
} tlines;

/* Appends s[0..n) as one line (dropped when out of memory). */
void tl_add(tlines *L, const char *s, size_t n, int attr);
/* Word-wraps text to width columns: '\n' ends a paragraph, long words are cut. */
void tl_wrap(tlines *L, const char *text, int width, int attr);
/* tl_wrap of the formatted text (cut at 4 KiB). */
void tl_printf(tlines *L, int width, int attr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Frees the lines; L is empty after. */
void tl_free(tlines *L);
/* Draws lines [top, top+rows) of L at (y, x); returns the clamped top. */
int tl_draw(WINDOW *win, const tlines *L, int top, int y, int x, int rows, int cols);

/* The frame's windows, one per slot. */
enum {
    PANE_TITLE,
    PANE_STATUS,
    PANE_FULL,
    PANE_TEXT,
    PANE_SOURCE,
    PANE_MAP,
    PANE_RESULT,
    PANE_HELP,
    PANE__N
};
/* The window of a slot at this geometry (recreated when the geometry changed), blank;
 * NULL when curses cannot make it. */
WINDOW *pane_win(int slot, int y, int x, int h, int w);
/* A framed pane: pane_win with the border and its title. */
WINDOW *pane_framed(int slot, int y, int x, int h, int w, const char *title);
/* The slot's window as last made (NULL: none). */
WINDOW *pane_slot(int slot);
/* Marks win for the next doupdate (NULL: nothing). */
void pane_show(WINDOW *win);

/* Adds a clickable region of this frame: row y, columns [x0, x1). */
void pane_hit_add(int y, int x0, int x1, view_hit_kind kind, int index);
/* Forgets the last frame's click regions (a new frame begins). */
void pane_hits_clear(void);

/* The file name of path without its folders ("" for NULL). */
const char *pane_base_name(const char *path);

/* ------------------------------------------------------------- pane_text.c */

/* The step's (or the exercise's) text wrapped to cols columns. */
void pane_text_lines(const app *a, int cols, tlines *out);
/* The text pane (win, h x w, framed): the text from a->text_top; m gets its lines. */
void pane_text_draw(const app *a, WINDOW *win, int h, int w, struct view_metrics *m);
/* Lesson 0's device pane: what the back end found (name, memory, peaks) or why not. */
void pane_device_draw(const app *a, WINDOW *win, int h, int w);

/* ----------------------------------------------------------- pane_source.c */

/* Draws source lines from top into rows x w at (y, x) of win (gutter with line numbers,
 * highlighting, marked lines and their messages; big: the demo's wider gutter); returns
 * the rows drawn. */
int pane_source_region(const app *a, WINDOW *win, int y, int x, int rows, int w, int top, bool big);
/* The source pane (win, h x w, framed) from a->src_top; m gets its rows. */
void pane_source_draw(const app *a, WINDOW *win, int h, int w, struct view_metrics *m);
/* Rows the whole source takes at width w (the pane's gutter; _big: the demo's). */
int pane_source_rows(const app *a, int w);
int pane_source_rows_big(const app *a, int w);
/* Columns the source's longest line takes with the gutter and frame. */
int pane_source_width(const app *a);

/* ----------------------------------------------------------- pane_result.c */

/* The last run's Result as lines of cols columns (what ran where, checks, outputs,
 * counts, the comparison with the previous run). */
void pane_result_run_lines(const app *a, tlines *L, int cols);
/* The Result pane (win, h x w, framed): the run's, or the last grading's report, from
 * a->res_top; m gets its lines. */
void pane_result_draw(const app *a, WINDOW *win, int h, int w, struct view_metrics *m);

/* ----------------------------------------------------------------- frame.c */

/* A one-row bar across the screen at row y (slot's window): left text, right text
 * right-aligned (dropped when both do not fit). */
void frame_bar(int slot, int y, int attr, const char *left, const char *right);
/* The busy spinner's glyph for now (UTF-8 braille, or ASCII). */
const char *frame_spinner(void);
/* The step chips (" 1 2 3 Ex ") right-aligned at right_edge of row y, not left of
 * min_x; the current step highlighted, seen steps marked, each clickable. */
void frame_step_chips(const app *a, WINDOW *win, int y, int right_edge, int attr, int min_x);

/* ------------------------------------------------------------ frame_demo.c */

/* The demo's bottom line: what is happening and the few keys a presenter needs. */
void frame_demo_status(const app *a);
/* The demo's page (gpulearn demo): the step's text big, its source and view below. */
void frame_demo_draw(const app *a, struct view_metrics *m);

/* ------------------------------------------------------------ frame_help.c */

/* The help overlay over the frame, from the key table; m gets its lines. */
void frame_help_draw(const app *a, struct view_metrics *m);

#endif
