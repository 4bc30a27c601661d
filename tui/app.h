/* app.h — the TUI's state, shared by the app*.c files (loop, steps, runs, keys and
 * actions), the frame's files (pane.h: frame*.c, pane*.c) and the views (view.h).
 * Private to tui/. Views read this state and draw; only the app*.c files change it. */
#ifndef GL_TUI_APP_H
#define GL_TUI_APP_H

#include <curses.h>
#include <stdbool.h>

#include "runtime/backend.h"
#include "runtime/compare.h"
#include "runtime/grade.h"
#include "runtime/lesson.h"
#include "runtime/workspace.h"
#include "trace/analysis.h"
#include "tui/job.h"
#include "tui/tui.h"

typedef enum app_screen { SCREEN_LIST, SCREEN_LESSON } app_screen;

/* Pointer arguments the map follows through a trace (launches with more show none). */
enum { APP_MAX_ARGS = 64 };

/* What the map's slot shows (keys 1-9 and 0, v cycles): the thread map, the warp
 * timeline and the trace views, each a row of the view table (view.h) and a file
 * tui/view_NAME.c. Lesson steps name them in "view". */
typedef enum app_view {
    VIEW_MAP,      /* grid/block/thread map */
    VIEW_WARPS,    /* warp timeline (view_warps.c) */
    VIEW_MEMORY,   /* one global request: lanes -> 32-byte sectors, 128-byte lines */
    VIEW_BANKS,    /* one shared request: lanes -> 32 banks, conflicts, wavefronts */
    VIEW_BARRIERS, /* warps arriving at and waiting on each barrier of a block */
    VIEW_ATOMICS,  /* atomic operations per address */
    VIEW_BUFFERS,  /* buffers against the expected output, first difference first */
    VIEW_TREE,     /* shared memory per barrier epoch (reduction / scan trees) */
    VIEW_ERROR,    /* the picture of a race, an out-of-bounds access or a deadlock */
    VIEW_REGS,     /* the selected thread's registers at the cursor (key 0) */
    VIEW_ROOFLINE, /* the device's roofline with the session's runs on it (key L) */
    VIEW_FRAGS,    /* which lane holds which element of a tensor-core instruction (key F) */
    VIEW__COUNT
} app_view;

/* One compiler diagnostic placed on a source line ("k.cu:7:5: error: ..."). */
typedef struct app_diag {
    int line, col;   /* 1-based */
    bool is_error;   /* error (else warning) */
    bool is_finding; /* from the simulator's checkers (a race...), else the compiler */
    char msg[240];
} app_diag;

enum { APP_MAX_DIAGS = 32 };

/* A question waiting for y/n in the status bar. */
typedef enum app_confirm { CONFIRM_NONE, CONFIRM_RESET } app_confirm;

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
    int step;     /* 0..nsteps-1 steps, nsteps = the exercise (if any) */
    int text_top; /* first wrapped line shown in the text pane */
    int src_top;  /* first source line shown */

    /* per-step state, rebuilt on entering a step */
    gl_spec spec;
    bool have_spec;
    char spec_error[4096];
    app_source src;
    gl_buffer *init_buffers; /* buffers before running, for buffer:NAME maps */

    /* last run of this step */
    bool have_run;
    unsigned run_gen; /* counts finished runs: views cache what they derive from the
                             run's trace by it (a new trace may reuse the old address) */
    gl_status run_status;
    gl_run_result run;
    char run_error[4096];
    char *run_chatter;          /* anything the runtime wrote to stdout/stderr meanwhile */
    bool replayed_on_sim;       /* the last run was S: a GPU run replayed on the simulator */
    bool other_kernel;          /* f chose spec.kernel: not the one the step launches */
    gl_backend_kind spec_where; /* the back end the step's spec was built for: on a GPU
                                   a speed step's gpu_launch (lesson_step_spec_for) */
    char start_kernel[128];     /* the run under way's kernel when f chose it, else "" */
    char run_kernel[128];       /* the last run's (a->run), likewise */
    bool have_work;             /* run_work holds the last run's work (a run that finished) */
    gl_work run_work;           /* its kernel, launch and elements changed: the Result says
                               when the previous run did other work (gl_compare_work_same) */
    /* N: runs use the debug build (-G), whose DWARF names the registers' source
     * variables (no compiler records them for optimised code: README "Source variable
     * names"); its counts are of the code as written, compared only with its kind's */
    bool names_build; /* the next runs use it */
    bool run_names;   /* the last run (a->run) used it */
    bool start_names; /* the run under way uses it */

    /* the exercise: the learner's own copy (workspace_exercise_path) */
    char ex_path[1024]; /* "" when the copy could not be made (ex_error says why) */
    char ex_error[1024];
    app_diag diags[APP_MAX_DIAGS]; /* compile errors of the last run/grade, by line */
    int ndiags;

    /* a run or grading in a worker process (job.h); busy while job.kind != JOB_NONE */
    job job;
    char busy_msg[160];

    /* the selected thread in the map (click, or arrows after m) */
    bool sel_on;
    unsigned sel_block[3], sel_thread[3];
    bool map_focus; /* arrows move the selection instead of scrolling */
    app_view view;  /* what the map's slot shows (steps open on their "view") */
    /* time travel over the last run's trace: events [0, tpos) have happened; stepping
     * moves it (view_common.c computes where to) */
    size_t tpos;
    /* the exercise's size: r runs the learner's kernel and then the reference at one of
     * the graded sizes (grade_sizes, ascending), with the same inputs (exercise_run) */
    const gl_lesson *ex_lesson; /* the lesson the sizes below belong to */
    int64_t ex_sizes[GL_EXERCISE_MAX_SIZES];
    int ex_nsizes;
    int64_t ex_pick;    /* the size picked with z / Z; 0 = the default */
    int64_t ex_default; /* the default: the largest graded size whose reference run
                                     took under GL_EXERCISE_SIZE_SECONDS on the simulator, measured by
                                     the lesson's first r; 0 = not measured yet */
    double ex_secs
        [GL_EXERCISE_MAX_SIZES]; /* that measurement: seconds per ex_sizes[i], -1 = not run */
    int64_t spec_n;              /* the exercise: the n a->spec was built with */
    /* the reference's output for the last exercise run (same size, same inputs) */
    int64_t ref_n;
    gl_status ref_status;
    char ref_error[2048];
    gl_buffer *ref_buffers;
    int ref_nargs;
    /* the last exercise run against it, as the grader's matches_reference compares
     * (exercise_compare, in the run's worker) */
    gl_exercise_cmp cmp;

    app_confirm confirm; /* pending y/n question */

    /* progress (workspace.h), loaded at start and updated as it is recorded */
    gl_lesson_progress *progress;
    int nprogress;
    char progress_warning[512];
    char last_lesson[64]; /* progress: the lesson seen last ("" none) */

    /* trace playback (P): the cursor steps on its own, one unit (a barrier in the
     * barrier and tree views, else an instruction of the selected warp) per interval */
    double play_next;     /* monotonic time of the next playback step, 0 = stopped */
    double play_interval; /* seconds per unit (+ / - change it) */

    /* demo mode (gpulearn demo): big uncluttered layout, auto-advance */
    double auto_next; /* monotonic time of the next auto step, 0 = none */
    double ctrlc_at;  /* job_now() of a Ctrl-C with nothing running: a second one
                             within 3 s quits */
    bool auto_paused;

    /* last grading (exercise) */
    bool have_grade;
    gl_status grade_status;
    gl_grade_report grade;
    char grade_error[4096];
    int hints_shown;
    bool show_reference; /* exercise, once passed: the source pane shows the
                                     lesson's reference solution (o) */
    /* The previous run of the same step, for the Result's comparison with it (Nsight
     * Compute's baseline): kept when a run that finished is replaced by the next one. */
    struct app_baseline {
        bool valid;
        const gl_lesson *lesson;
        int step;
        int64_t n;           /* the exercise's size (0 on other steps) */
        int backend;         /* GL_BACKEND_GPU or GL_BACKEND_SIM */
        uint64_t warp_insns; /* simulator: warp instructions issued */
        double ms;           /* GPU: kernel time */
        bool has_counts;     /* the trace's counters (c) are there */
        gl_counts c;
        bool names; /* the debug build (N): compares only with its kind */
        bool has_work;
        gl_work work; /* its kernel, launch and elements changed (app.run_work) */
    } baseline;

    /* back end, decided once (device query) */
    bool backend_known;
    gl_device_info device;
    char device_note[512];
    char last_note[512]; /* the last run's note (why it ran where it ran), shown in full
                             once: a run with the same note leaves it out */
    bool note_repeat;    /* this run's note is the one already shown */
    char device_error[4096];

    bool help;
    int help_top;    /* first line shown in the help overlay */
    char flash[256]; /* one-off message in the status bar */
    int res_top;     /* first line shown in the result pane */
    bool res_full;   /* the result pane takes the lesson's whole page (Enter toggles; a
                        grading opens it so, a run closes it) */
    struct view_metrics {
        int text_lines, text_rows; /* wrapped lines of the text pane; rows shown */
        int src_rows;              /* source lines shown */
        int res_lines, res_rows;   /* result pane */
        int help_lines, help_rows; /* help overlay (per column) */
    } metrics;                     /* what the last frame drew, for scrolling limits */
} app;

/* One line of the help overlay: the keys and what they do (from app_keys.c's key table). */
typedef struct app_help_line {
    const char *keys;
    const char *help;
} app_help_line;
/* Fills out[0..max) with the bindings that apply on the current screen; returns how
 * many. */
int app_help_lines(const app *a, app_help_line *out, int max);

/* The size the exercise runs at now: the one picked with z, else the measured default,
 * else (not measured yet) the largest graded size. */
int64_t app_exercise_n(const app *a);

/* Whether the current step is the exercise. */
bool app_on_exercise(const app *a);
/* Number of steps including the exercise. */
int app_nsteps(const app *a);
/* The current step, or NULL on the exercise. */
const gl_step *app_cur_step(const app *a);
/* Progress of lesson l (NULL if none recorded). */
const gl_lesson_progress *app_progress(const app *a, const gl_lesson *l);
/* Number of steps of l seen (bits of steps_seen within app_nsteps). */
int app_steps_seen(const app *a, const gl_lesson *l);
/* Whether a run or grading is in progress. */
bool app_busy(const app *a);
/* A checker finding's kind in words ("race", "out-of-bounds access"). */
const char *app_finding_name(int kind);
/* The diagnostic on source line `line`, or NULL. */
const app_diag *app_diag_at(const app *a, int line);
/* "simulator (no GPU found)", "GPU: NVIDIA H100 ..." or "back end: not probed yet". */
void app_backend_label(const app *a, char *buf, size_t len);

/* ------------------------------------------ frame.c, pane.c, highlight.c */

/* Draws the whole frame for the current state (every pane, status bar, help overlay)
 * with wnoutrefresh on each window and a single doupdate; *m gets the sizes drawn. */
void view_draw(const app *a, struct view_metrics *m);
/* Redraws only the status bar while a run is under way (spinner, seconds, how to
 * cancel). */
void view_busy_tick(const app *a);
/* Frees the windows the views keep (on exit or before a full repaint). */
void view_free(void);
/* Writes s at (y, x) in attribute attr, cut to maxcols display columns (UTF-8 aware).
 * Returns the columns written. */
int view_put(WINDOW *win, int y, int x, int maxcols, const char *s, int attr);
/* Writes s at (y, x) word-wrapped to maxcols display columns, on at most maxrows rows
 * (the last row cut); returns the rows written. For a view's one-line messages, which
 * a narrow pane would otherwise cut. */
int view_put_wrap(WINDOW *win, int y, int x, int maxcols, int maxrows, const char *s, int attr);
/* Rows view_put_wrap needs for s at maxcols columns (with no limit on rows). */
int view_wrap_rows(const char *s, int maxcols);
/* One row of view_put_wrap's wrapping of *s (*left bytes) at maxcols columns: its bytes,
 * cut at the last space that fits unless `last` (the last row allowed: cut where the
 * columns end); *s and *left move past it and the spaces after it. */
size_t view_wrap_cut(const char **s, size_t *left, int maxcols, bool last);
/* Draws a box (border in term glyphs) with a label in its top border. */
void view_box(WINDOW *win, int y, int x, int h, int w, const char *label);

/* What is under screen cell (y, x), from the last frame drawn (mouse clicks). */
typedef enum view_hit_kind { HIT_NONE, HIT_LESSON, HIT_STEP, HIT_THREAD, HIT_SOURCE } view_hit_kind;
typedef struct view_hit {
    view_hit_kind kind;
    int index;                    /* HIT_LESSON: lesson; HIT_STEP: step; HIT_SOURCE: line */
    unsigned block[3], thread[3]; /* HIT_THREAD */
} view_hit;
view_hit view_hit_test(int y, int x);

/* The CUDA C highlighter's colouring: the attribute (term_attr of a TC_CODE_* role, or
 * 0 for plain text) of every byte of the NUL-terminated line (attrs[0..strlen(line))),
 * given whether the line starts inside a block comment; *in_comment gets the state at
 * its end. (Shared with the built-in editor.) */
void view_code_attrs(const char *line, int *attrs, bool *in_comment);

#endif
