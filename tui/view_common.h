/* view_common.h — what the view files (view_*.c) share: each view's entry points for
 * the view table (view_table.c) and the helpers several views use (view_common.c).
 * Private to the view files. */
#ifndef GL_TUI_VIEW_COMMON_H
#define GL_TUI_VIEW_COMMON_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"
#include "tui/app.h"
#include "tui/term.h"
#include "tui/view.h"

enum { WARP = 32, PLAIN = 0 };

/* ------------------------------------------------------ the views' entry points */
/* Each *_draw draws its view for the table's view_slot_draw (tui_view.draw says with
 * what); each *_height gives the rows it would like at width w. */

void view_map_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                   struct view_metrics *m);
int view_map_height(const app *a, int w);
void view_warps_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                     struct view_metrics *m);
int view_warps_height(const app *a, int w);
void view_memory_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                      struct view_metrics *m);
int view_memory_height(const app *a, int w);
void view_banks_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                     struct view_metrics *m);
int view_banks_height(const app *a, int w);
void view_barriers_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                        struct view_metrics *m);
int view_barriers_height(const app *a, int w);
void view_atomics_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                       struct view_metrics *m);
int view_atomics_height(const app *a, int w);
void view_buffers_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                       struct view_metrics *m);
int view_buffers_height(const app *a, int w);
void view_tree_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                    struct view_metrics *m);
int view_tree_height(const app *a, int w);
void view_error_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                     struct view_metrics *m);
int view_error_height(const app *a, int w);
void view_regs_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                    struct view_metrics *m);
int view_regs_height(const app *a, int w);
void view_roofline_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                        struct view_metrics *m);
int view_roofline_height(const app *a, int w);
void view_fragments_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                         struct view_metrics *m);
int view_fragments_height(const app *a, int w);

/* ------------------------------------------------------------------ helpers */

/* Bits set in m (active lanes of a mask). */
int view_popc(uint32_t m);
/* The last run's trace, NULL when there is no run (or it recorded none). */
const trace_t *view_trace(const app *a);
/* One glyph (possibly several bytes) at (y, x) in attribute attr. */
void view_glyph(WINDOW *win, int y, int x, const char *g, int attr);
/* Whether the terminal draws UTF-8 glyphs (term.h's glyph set is not the ASCII one). */
bool view_utf8(void);
/* A full block: U+2588, or "#" in ASCII. */
const char *view_block_glyph(void);
/* The source text of line `line` (1-based) of the shown source, trimmed ("" if none). */
const char *view_src_text(const app *a, int line);
/* The source line of instruction pc of t (0 if none). */
int view_line_of_pc(const trace_t *t, int32_t pc);
/* The memory views' current request of the selected warp: the last one before the
 * cursor, else the first after it; NULL if none. */
const trace_event *view_current_request(const app *a, const trace_t *t);
/* Two lines at (y, x) about request e: who made it, its instruction and width, then
 * its source line. */
void view_request_heading(WINDOW *win, const app *a, const trace_t *t, const trace_event *e, int y,
                          int x, int w);
/* Per warp of block b among the first `upto` events: the pc of the barrier it waits at
 * (an arrival not followed by a release of its block), -1 if not waiting. out[wpb]. */
void view_waiting_at(const trace_t *t, size_t upto, uint32_t b, int32_t *out, unsigned wpb);
/* Warps per block of t's launch. */
unsigned view_warps_per_block(const trace_t *t);
/* A global address as the spec's buffer and element into buf, "hist[17]" ("hist[17]+2"
 * inside an element); false (buf untouched) when no buffer of the run holds it. */
bool view_buffer_elem(const app *a, uint64_t addr, char *buf, size_t n);

#endif
