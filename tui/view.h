/* view.h — the views of the map's slot (keys 1-9 and 0, v cycles: the thread map, the
 * warp timeline and the trace views, one file each, tui/view_*.c) and what the app*.c
 * files and the frame (frame.c) ask of them: drawing and sizing the slot, time travel
 * over the last run's trace, the map's threads and values. Private to tui/. */
#ifndef GL_TUI_VIEW_H
#define GL_TUI_VIEW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/app.h"

/* ------------------------------------------------------------ view_table.c */

/* What sets a view apart, for the code that is not its own (tui_view.flags). */
enum {
    VIEW_F_RUN = 1,      /* shows the last run: before one, choosing it says r runs the
                             kernel; the source pane marks the cursor's line */
    VIEW_F_TRACE = 2,    /* a trace view: "press r" / "no trace" until there is a trace,
                             then it draws above the time line (a row of its own); the
                             layout gives it room beside the source (else a third is kept) */
    VIEW_F_WHOLE = 4,    /* a trace view that draws the whole slot once there is a run */
    VIEW_F_SIM = 8,      /* needs the simulator's trace (a GPU trace has memory requests
                             and blocks only) */
    VIEW_F_WIDE = 16,    /* beside the source it takes half the width (else 45%) */
    VIEW_F_WIDE_EX = 32, /* likewise, on the exercise only */
    VIEW_F_BARRIER = 64, /* playback (P) steps by barrier, else by instruction */
};

/* One view of the map's slot: a row of the view table (indexed by app_view). Like htop's
 * Panel, a view owns its state (a cursor, a scroll, a zoom, what it derived from the last
 * run): the row points at it and hands it to the view's functions as self; the app keeps
 * the lesson, the step and the run, which every view reads. */
typedef struct tui_view {
    app_view id;       /* its row */
    const char *name;  /* "memory": flash messages, the pane title, a step's "view" */
    char key;          /* the number key that shows it */
    const char *help;  /* what the help overlay calls it after its key */
    const char *title; /* the pane title; NULL: "KEY NAME (v: next view)" */
    unsigned flags;    /* VIEW_F_* */
    int space;         /* TRACE_SPACE_* of the requests it shows: . , step over those
                             (else instructions) and it opens after the costliest; 0 none */
    /* Draws it into (y, x, h, w) of win from the last run's trace t (NULL: none yet; a
     * trace view draws above the time line and only once there is a trace, unless
     * VIEW_F_WHOLE); self is its state (a scrolled table keeps its rows there). */
    void (*draw)(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                 int w);
    /* Rows it would like at width w. */
    int (*natural_height)(const app *a, int w);
    /* Columns it would like; NULL: all the layout gives a view. */
    int (*natural_width)(const app *a);
    void *state; /* the view's own state (view_common.h: view_NAME_state), NULL: none */
    /* Puts its state back as a step opens it (NULL: nothing to put back). */
    void (*reset)(void *self);
    /* Its own keys while it is shown ([ ] x M): true when it took ch (the frame needs
     * redrawing), false when ch does nothing here (NULL: it has none). */
    bool (*on_key)(void *self, const app *a, int ch);
} tui_view;

/* The row of view v. */
const tui_view *view_of(app_view v);
/* The view number key ch shows, NULL if none. */
const tui_view *view_of_key(int ch);
/* The view a lesson step's "view" names ("memory"); the thread map for others. */
app_view view_of_step(const char *name);
/* The view after v (v cycles through the table). */
app_view view_next(app_view v);
/* Draws the current view (a->view) into (y, x, h, w) of win; m (may be NULL) gets the
 * rows of a scrolled table. */
void view_slot_draw(WINDOW *win, const app *a, int y, int x, int h, int w);
/* Rows the current view would like at width w. */
int view_slot_height(const app *a, int w);
/* Hands key ch to the current view (tui_view.on_key); false when it does not take it. */
bool view_slot_key(const app *a, int ch);
/* Puts view v's state back (tui_view.reset): its cursor, scroll and zoom as it opens. */
void view_reset(app_view v);
/* view_reset of every view: a step was entered. */
void view_reset_all(void);
/* The current view's pane title into buf; returns buf. */
const char *view_slot_title(const app *a, char *buf, size_t len);
/* The help overlay's lines for the view keys ("1-5", "views: 1 threads 2 warps ..."),
 * from the table, into out[0..max); returns how many. The strings stay valid until the
 * next call. */
int view_help_lines(app_help_line *out, int max);

/* ---------------------------------------------------------- view_roofline.c */

/* Adds the last run to the session's points on the roofline (its state): a run that
 * finished and whose FLOPs and bytes are known. Called once per finished run. */
void view_roofline_record(const app *a);

/* ----------------------------------------------------------- view_common.c */

/* The selected warp: linear block index, warp within the block, lane (the map's
 * selected thread, else block 0 thread 0). */
void tv_selected(const app *a, uint32_t *block, unsigned *warp, unsigned *lane);
/* Units of time travel. */
typedef enum tv_unit {
    TV_INSN,    /* one warp instruction of the selected warp (in memory / bank views: one
                   memory request of the kind shown) */
    TV_BARRIER, /* one barrier release of the selected block */
} tv_unit;
/* Where the cursor goes stepping one unit forward (dir 1) or back (-1) from a->tpos;
 * returns a->tpos when there is nothing further (and sets *moved false). */
size_t tv_step_pos(const app *a, tv_unit unit, int dir, bool *moved);
/* Where a view opens: memory and bank views just after the selected warp's costliest
 * request of their kind (most sectors / wavefronts; the first of those), the others
 * at the trace's end. */
size_t tv_initial_pos(const app *a);
/* The source line the selected warp was on at the cursor (its last issued
 * instruction), 0 if none. */
int tv_current_line(const app *a);

/* -------------------------------------------------------- view_fragments.c */

/* Where the cursor goes to stand just after the selected warp's next (dir 1) or previous
 * (-1) tensor-core instruction (mma, wmma, ldmatrix, stmatrix, movmatrix) and its
 * register writes; a->tpos (and *moved false) when there is none. */
size_t tv_tensor_pos(const app *a, int dir, bool *moved);
/* Just after the selected warp's first tensor-core instruction (the trace's end when
 * it ran none): where the fragment view opens. */
size_t tv_tensor_first(const app *a);

/* ------------------------------------------------------------ view_error.c */

/* The distinct source lines warps of the first stuck block wait at when the trace
 * ends (a deadlock's barriers), at most max; returns how many. */
int tv_deadlock_lines(const app *a, int *lines, int max);
/* Whether the last run has something VIEW_ERROR draws (a fault or an error finding). */
bool tv_has_error_picture(const app *a);

/* -------------------------------------------------------------- view_map.c */

/* Map colourings Tab cycles through: the fixed ones, then one per pointer argument. */
typedef enum map_kind {
    MAP_GLOBAL_INDEX,
    MAP_BLOCK,
    MAP_THREAD,
    MAP_WARP,
    MAP_LANE,
    MAP_SM, /* the SM the thread's block ran on (the last run's BLOCK_START events:
                     %smid on the GPU and on the simulator) */
    MAP_BUFFER,
} map_kind;

typedef struct map_mode {
    map_kind kind;
    int arg; /* MAP_BUFFER: index into the spec's args */
} map_mode;

enum { MAP_MAX_MODES = 16 };

/* The step's spec was loaded (a->spec): the map's colourings for it, the fixed ones then
 * one per pointer argument (at most MAP_MAX_MODES), showing the one map_value names
 * ("block", "buffer:NAME"; NULL or another: the global index). */
void map_colourings(const app *a, const char *map_value);
/* No colourings: the step was left. */
void map_colourings_clear(void);
/* The colouring shown (its index). */
int map_colouring(void);
/* Shows colouring i again when the list has one (a new spec for the same step, keeping
 * what the learner was looking at: a buffer's is at the same place). */
void map_colouring_keep(int i);
/* Tab (d 1) / Shift-Tab (-1): the next or previous colouring; false when there is none
 * (no map on this step). */
bool map_colouring_next(int d);

/* The spec argument whose buffer holds global address addr in the last run, with the
 * element (*elem) and the byte within it (*rem, may be NULL); -1 when no buffer does or
 * the run recorded no buffer addresses (gl_run_result.dptr). */
int map_buffer_at(const app *a, uint64_t addr, uint64_t *elem, uint64_t *rem);
/* Value of thread (block b, thread t) under mode m; returns false when there is no
 * value. MAP_BUFFER: the element the thread wrote in the last run (else read; from the
 * trace's memory requests), or its global index before a run of a 1D launch; none when
 * it touched no element or the index is past the buffer. *is_float says how to print it. */
bool map_value(const app *a, const map_mode *m, const unsigned b[3], const unsigned t[3],
               double *out, bool *is_float);
/* The thread drawn at screen cell (y, x) by the last view_map_draw; false if none. */
bool map_hit(int y, int x, unsigned b[3], unsigned t[3]);
/* Columns the map would like (its natural width) for the current spec and mode. */
int map_natural_width(const app *a);

/* ------------------------------------------------------------ view_warps.c */

/* Share of lanes active per source line of the last run's trace: out[line - 1] in
 * [0, 1], or -1 for lines that issued nothing. Returns the lines with a value. */
int warps_line_active(const app *a, double *out, int nlines);

#endif
