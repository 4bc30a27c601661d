/* app.h — the TUI's state, shared by app.c (loop, keys, actions), views.c (panes)
 * and map.c (the grid map). Private to tui/. Views read this state and draw; only
 * app.c changes it. */
#ifndef GL_TUI_APP_H
#define GL_TUI_APP_H

#include <curses.h>
#include <stdbool.h>

#include "runtime/backend.h"
#include "runtime/grade.h"
#include "runtime/lesson.h"
#include "tui/tui.h"

typedef enum app_screen { SCREEN_LIST, SCREEN_LESSON } app_screen;

/* Map colourings Tab cycles through: the fixed ones, then one per pointer argument. */
typedef enum map_kind {
    MAP_GLOBAL_INDEX, MAP_BLOCK, MAP_THREAD, MAP_WARP, MAP_LANE, MAP_BUFFER,
} map_kind;

typedef struct map_mode {
    map_kind kind;
    int arg;          /* MAP_BUFFER: index into the spec's args */
} map_mode;

enum { APP_MAX_MODES = 16 };

/* The kernel source shown in the source pane, split into lines (NUL-terminated,
 * pointing into text). */
typedef struct app_source {
    char *path;
    char *text;
    char **lines;
    int nlines;
} app_source;

typedef struct app {
    tui_opts opts;

    /* lesson list */
    gl_lesson *lessons;
    int nlessons;
    char list_error[4200];
    int list_sel, list_top;

    /* the open lesson: points into lessons[] or at found */
    app_screen screen;
    gl_lesson *lesson;
    gl_lesson found;
    bool have_found;
    int step;             /* 0..nsteps-1 steps, nsteps = the exercise (if any) */
    int text_top;         /* first wrapped line shown in the text pane */
    int src_top;          /* first source line shown */

    /* per-step state, rebuilt on entering a step */
    gl_spec spec;
    bool have_spec;
    char spec_error[4096];
    app_source src;
    map_mode modes[APP_MAX_MODES];
    int nmodes, mode;
    gl_buffer *init_buffers; /* buffers before running, for buffer:NAME maps */

    /* last run of this step */
    bool have_run;
    gl_status run_status;
    gl_run_result run;
    char run_error[4096];
    char *run_chatter;    /* anything the runtime wrote to stdout/stderr meanwhile */

    /* last grading (exercise) */
    bool have_grade;
    gl_status grade_status;
    gl_grade_report grade;
    char grade_error[4096];
    int hints_shown;

    /* back end, decided once (device query) */
    bool backend_known;
    gl_device_info device;
    char device_note[512];
    char device_error[4096];

    bool help;
    char flash[256];      /* one-off message in the status bar */
    int res_top;          /* first line shown in the result pane */
    struct view_metrics {
        int text_lines, text_rows;  /* wrapped lines of the text pane; rows shown */
        int src_rows;               /* source lines shown */
        int res_lines, res_rows;    /* result pane */
    } metrics;            /* what the last frame drew, for scrolling limits */
} app;

/* One line of the help overlay: the keys and what they do (from app.c's key table). */
typedef struct app_help_line {
    const char *keys;
    const char *help;
} app_help_line;
/* Fills out[0..max) with the bindings that apply on the current screen; returns how
 * many. */
int app_help_lines(const app *a, app_help_line *out, int max);

/* Whether the current step is the exercise. */
bool app_on_exercise(const app *a);
/* Number of steps including the exercise. */
int app_nsteps(const app *a);
/* The current step, or NULL on the exercise. */
const gl_step *app_cur_step(const app *a);
/* "simulator (no GPU found)", "GPU: NVIDIA H100 ..." or "back end: not probed yet". */
void app_backend_label(const app *a, char *buf, size_t len);

/* ----------------------------------------------------------------- views.c */

/* Draws the whole frame for the current state (every pane, status bar, help overlay)
 * with wnoutrefresh on each window and a single doupdate; *m gets the sizes drawn. */
void view_draw(const app *a, struct view_metrics *m);
/* Draws a one-line "busy" message in the status bar at once (before a slow call). */
void view_busy(const char *msg);
/* Frees the windows the views keep (on exit or before a full repaint). */
void view_free(void);
/* Draws a box (border in term glyphs) with a label in its top border. */
void view_box(WINDOW *win, int y, int x, int h, int w, const char *label);

/* ------------------------------------------------------------------- map.c */

/* Value of thread (block b, thread t) under mode m; returns false when there is no
 * value (a buffer index out of range). *is_float says how to print it. */
bool map_value(const app *a, const map_mode *m, const unsigned b[3], const unsigned t[3],
               double *out, bool *is_float);
/* A short description of the mode for the legend ("blockIdx.x", "c[global index]"). */
void map_mode_label(const app *a, const map_mode *m, char *buf, size_t len);
/* Draws the grid map of the current spec into w's rectangle (y, x, h, w). */
void map_draw(WINDOW *win, const app *a, int y, int x, int h, int w);

#endif
