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

/* ------------------------------------------------------- the views' own state */
/* What a view keeps between frames and no other code needs (htop's Panel): one of each
 * in the view table (view_table.c), whose row points at it (tui_view.state); the view's
 * functions get it as self. */

/* The buffers view (7): the first row shown (on the exercise: of its comparison with
 * the reference); [ ] move it a page. */
typedef struct view_buffers_state {
    int top;
    int lines, rows; /* the rows the last frame had to show and showed (for [ ]) */
} view_buffers_state;
bool view_buffers_key(void *self, const app *a, int ch);
void view_buffers_reset(void *self);

/* The tree view (8): the first element shown (values), or the cursor's element (zoomed
 * out, x: every element as a compressed strip); [ ] move it a page. */
typedef struct view_tree_state {
    int col;
    bool zoom;
    int elems, page; /* the last frame's shared elements; elements per page (for [ ]) */
} view_tree_state;
bool view_tree_key(void *self, const app *a, int ch);
void view_tree_reset(void *self);

/* The fragment view (F): the matrix shown (A, B, C, D of an mma; M cycles), modulo the
 * instruction's matrices. */
typedef struct view_frags_state {
    int mat;
} view_frags_state;
bool view_fragments_key(void *self, const app *a, int ch);
void view_fragments_reset(void *self);

/* Where a roofline point's bytes came from (view_roofline.c). */
typedef enum view_roof_bytes {
    ROOF_BYTES_DRAM,    /* the DRAM model over every global request (trace/dram.h) */
    ROOF_BYTES_SECTORS, /* global sectors x 32: no model (its L2 unknown) */
    ROOF_BYTES_SPEC,    /* the launch's "bytes_moved" */
} view_roof_bytes;

/* A run placed on the roofline view (view_roofline.c): its arithmetic intensity is
 * flops / bytes; gflops is what it reached on a GPU (0: not timed, the simulator). A
 * point is drawn only on the roofline of its own lesson and device. */
typedef struct view_roof_point {
    char kernel[64];
    char lesson[64];       /* the lesson's id ("" none) */
    char device[80];       /* the device it modelled or ran on (gl_peaks.device) */
    double flops;          /* FLOPs counted in the trace, else the launch's "flops" */
    double declared;       /* the launch's "flops" (0: none) */
    double kind[GL_ROOFS]; /* the counted FLOPs of each kind (all 0 when none were) */
    int roof;              /* gl_roof it is judged against */
    bool roof_from_insns;  /* chosen from the kernel's instructions (no counts) */
    double bytes;          /* of DRAM traffic, or as bytes_from says */
    view_roof_bytes bytes_from;
    uint64_t l2_bytes;   /* the L2 the DRAM model held */
    double sector_bytes; /* global sectors x 32: what the SMs asked of the L2 */
    bool cut;            /* the counts come from a cut trace (a lower bound) */
    double gflops;
    unsigned gen; /* the run's app.run_gen: the current run's point is drawn bright */
} view_roof_point;
enum { VIEW_MAX_ROOF = 16 };
/* The roofline view (L): the session's runs on it, oldest first (view_roofline_record). */
typedef struct view_roofline_state {
    view_roof_point pt[VIEW_MAX_ROOF];
    int n;
} view_roofline_state;

/* Where the last view_map_draw put each thread's cell, in screen coordinates (clicks). */
typedef struct view_map_cell {
    int y, x, w;
    unsigned b[3], t[3];
} view_map_cell;
/* The thread map (1): its colourings for the step (map_colourings), where it drew each
 * thread (map_hit), and what it derived from the last run, cached by its trace and
 * app.run_gen (a new trace may reuse the old address): the element of each buffer each
 * thread touched, and the SM each block ran on. */
typedef struct view_map_state {
    map_mode modes[MAP_MAX_MODES]; /* the colourings Tab cycles through */
    int nmodes, mode;              /* how many; the one shown */
    view_map_cell *cells;
    int ncells, cells_cap;
    struct {
        const trace_t *trace;
        unsigned gen;
        int64_t *el;                /* [arg * n + global linear thread id]; -1 none */
        uint64_t n;                 /* threads */
        bool written[APP_MAX_ARGS]; /* arg was stored to (else only loaded) */
    } elems;
    struct {
        const trace_t *trace;
        unsigned gen;
        int32_t *sm; /* per linear block; -1 not recorded */
        uint64_t n;  /* blocks */
        int hi;      /* the highest SM */
    } sms;
} view_map_state;

/* ------------------------------------------------------ the views' entry points */
/* Each *_draw draws its view for the table's view_slot_draw (tui_view.draw says with
 * what); each *_height gives the rows it would like at width w. */

void view_map_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                   int w);
int view_map_height(const app *a, int w);
void view_warps_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                     int w);
int view_warps_height(const app *a, int w);
void view_memory_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                      int w);
int view_memory_height(const app *a, int w);
void view_banks_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                     int w);
int view_banks_height(const app *a, int w);
void view_barriers_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x,
                        int h, int w);
int view_barriers_height(const app *a, int w);
void view_atomics_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                       int w);
int view_atomics_height(const app *a, int w);
void view_buffers_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                       int w);
int view_buffers_height(const app *a, int w);
void view_tree_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                    int w);
int view_tree_height(const app *a, int w);
void view_error_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                     int w);
int view_error_height(const app *a, int w);
void view_regs_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                    int w);
int view_regs_height(const app *a, int w);
void view_roofline_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x,
                        int h, int w);
int view_roofline_height(const app *a, int w);
void view_fragments_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x,
                         int h, int w);
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
