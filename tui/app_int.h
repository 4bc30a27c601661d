/* app_int.h — what the app*.c files of the TUI share with each other (not the views):
 * the handlers' result flags and the functions one of them defines for another. */
#ifndef GL_TUI_APP_INT_H
#define GL_TUI_APP_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/app.h"

/* What an input handler did (htop's HandlerResult); the loop acts on the flags. */
typedef enum handler_result {
    H_IGNORED = 0,
    H_HANDLED = 1 << 0,
    H_REDRAW = 1 << 1,
    H_QUIT = 1 << 2,
} handler_result;

/* app.c */

/* Copies a message, cut to fit dst (always NUL-terminated). */
void app_msgcpy(char *dst, size_t n, const char *src);

/* A message longer than the status bar holds is cut (app_msgcpy: no format-truncation
 * warning from a caller's longer buffer). */
void app_set_flash(app *a, const char *msg);

/* The file name of path without its folders ("" for NULL). */
const char *app_base_name(const char *path);

/* Records the current step as seen and as the learner's last position (written when
 * either changes). */
void app_progress_step(app *a);

/* Records the open lesson's exercise as passed (not in demo mode). */
void app_progress_passed(app *a);

/* app_step.c */

/* Reads path into lines, tabs expanded to 4 columns. Missing file: a one-line note. */
void app_source_load(app_source *s, const char *path);

/* Marks the compiler's errors and warnings (diags, parsed by runtime/compile) that name
 * the shown source (same file name) in a->diags: the first message of each line. */
void app_compile_diags(app *a, const gl_diag *diags, int ndiags);

/* Marks source line `line` with a checker's message (is_finding); ignored for a line
 * marked already or past APP_MAX_DIAGS. */
void app_add_diag(app *a, int line, bool is_error, const char *msg);

/* qsort order of app_diag: by source line. */
int app_diag_cmp(const void *x, const void *y);

/* The checkers' findings of the last run, marked at their source lines: a race at
 * both accesses, naming the other line. */
void app_add_findings(app *a);

/* Frees a run result with its trace, metrics and findings (gl_run_result_free does
 * not free those yet; both calls are safe together: the second sees NULLs). */
void app_run_result_free(gl_run_result *r);

/* A run that finished, about to be dropped (a new run, an edit, leaving the step),
 * becomes the baseline the next run of its step is compared with. */
void app_keep_baseline(app *a);

/* Drops the results of the last run and grading (not the step itself); the run becomes
 * the baseline (app_keep_baseline). */
void app_results_clear(app *a);

/* The exercise's source as the learner works on it: their copy, made from the starter
 * the first time (demo mode shows the starter itself). */
const char *app_exercise_source(app *a);

/* A file with several kernels: start the source pane at the one this step launches
 * (with the comment lines just above it). */
void app_scroll_to_kernel(app *a);

/* Enters step i of the open lesson (nsteps = the exercise): loads its launch spec,
 * kernel source and initial buffers. Problems become messages in the panes. */
void app_step_enter(app *a, int i);

/* f: the step's launch for kernel `kernel` of its file (lesson_step_spec_for: the
 * lesson's per-kernel launch where it gives one) replaces the spec, the buffers before
 * the launch and the map's colourings; the last run is dropped (it becomes the
 * baseline). false, with msg, when that launch does not load. */
bool app_step_use_kernel(app *a, const char *kernel, char *msg, size_t len);

/* Rebuilds the step's spec (its kernel, or the one f chose) for a run on `where`
 * (GL_BACKEND_SIM, or anything else for the probed back end) when the step has a
 * "gpu_launch" and the spec was built for the other one, as app_step_use_kernel does:
 * S replays a GPU run on the simulator at the step's own size, and r after it goes back
 * to the GPU's. true when nothing needed doing; false, with msg, when it does not load. */
bool app_step_respec(app *a, gl_backend_kind where, char *msg, size_t len);

/* Closes the open lesson (its step, results and job). */
void app_lesson_close(app *a);

/* Opens lesson l: at its first step, or with resume at the step the learner saw last
 * in it (progress.json), saying so. */
void app_lesson_open(app *a, gl_lesson *l, bool resume);

/* Decides the back end once: gl_run_device_query with the chosen kind. */
void app_probe_backend(app *a);

/* app_run.c */

/* Scrolls the source pane so that 1-based line `line` shows. */
void app_scroll_source_to(app *a, int line);

/* Starts the current step's launch in a worker. */
handler_result app_start_run(app *a);

/* N: the registers view names source variables: runs use the debug build (-G), the
 * only build whose DWARF records where variables live; N again goes back to the
 * optimised build every other count is of. Re-runs the step when it has run. */
handler_result app_act_names(app *a);

/* After a GPU fault: the same launch on the simulator, whose checkers show where. */
handler_result app_rerun_sim(app *a);

/* g: grades the exercise in a worker (job_start_grade). */
handler_result app_start_grade(app *a);

/* Re-enters the exercise at app_exercise_n (a new size: spec, map, initial buffers),
 * keeping where the learner was looking. Drops the last run. */
void app_exercise_reenter(app *a);

/* Collects the finished job (a run, an exercise run or a grading) into the app's
 * state: results, marked lines, selected thread, view and status message. */
void app_finish_job(app *a);

/* Esc / c / Ctrl-C: cancels the job under way. */
handler_result app_cancel(app *a);

/* app_keys.c */

/* One playback step when due; stops at the end of the trace. */
bool app_play_tick(app *a);

/* Space in demo mode: run the step's kernel if it has one that has not run yet, else
 * go to the next step. */
handler_result app_demo_advance(app *a);

/* Handles one key (or mouse event) ch through the key table. */
handler_result app_dispatch(app *a, int ch);

#endif
