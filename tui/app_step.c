/* app_step.c — the open lesson and step: source, marked lines (diagnostics, findings), results (app.c has the overview). */
#include <ctype.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/child.h"
#include "trace/trace.h"
#include "tui/app_int.h"
#include "tui/editor.h"
#include "tui/term.h"
#include "tui/view.h"
#include "tui/tui.h"

/* ------------------------------------------------------------ step state */

static void source_free(app_source *s)
{
    free(s->path);
    free(s->text);
    free(s->lines);
    memset(s, 0, sizeof *s);
}

/* Reads path into lines, tabs expanded to 4 columns. Missing file: a one-line note. */
void app_source_load(app_source *s, const char *path)
{
    source_free(s);
    if (!path)
        return;
    gl_error err = {0};
    char *raw = gl_read_file(path, NULL, &err);
    s->path = strdup(path);
    if (!raw) {
        s->text = strdup(err.msg[0] ? err.msg : "cannot read the kernel source");
        if (!s->text)
            return;
        s->lines = malloc(sizeof *s->lines);
        if (s->lines)
            s->lines[0] = s->text, s->nlines = 1;
        return;
    }
    size_t tabs = 0, nl = 1;
    for (const char *p = raw; *p; p++)
        tabs += *p == '\t', nl += *p == '\n';
    s->text = malloc(strlen(raw) + tabs * 3 + 1);
    s->lines = malloc(nl * sizeof *s->lines);
    if (!s->text || !s->lines) {
        free(raw);
        source_free(s);
        return;
    }
    char *o = s->text;
    int col = 0;
    s->lines[s->nlines++] = o;
    for (const char *p = raw; *p; p++) {
        if (*p == '\t') {
            do
                *o++ = ' ', col++;
            while (col % 4);
        } else if (*p == '\n') {
            *o++ = '\0', col = 0;
            if (p[1])
                s->lines[s->nlines++] = o;
        } else if (*p != '\r') {
            *o++ = *p, col++;
        }
    }
    *o = '\0';
    free(raw);
}

/* Marks the compiler's errors and warnings (diags, parsed by runtime/compile) that name
 * the shown source (same file name) in a->diags: the first message of each line. */
void app_compile_diags(app *a, const gl_diag *diags, int ndiags)
{
    a->ndiags = 0;
    if (!a->src.path)
        return;
    const char *want = app_base_name(a->src.path);
    for (int i = 0; i < ndiags && a->ndiags < APP_MAX_DIAGS; i++) {
        const gl_diag *d = &diags[i];
        if (d->severity == GL_DIAG_NOTE || d->line <= 0 ||
            strcmp(app_base_name(d->file), want) != 0 || app_diag_at(a, d->line))
            continue;
        app_diag *g = &a->diags[a->ndiags++];
        memset(g, 0, sizeof *g);
        g->line = d->line;
        g->col = d->col;
        g->is_error = d->severity == GL_DIAG_ERROR;
        /* the message cut to what the pane's line holds */
        snprintf(g->msg, sizeof g->msg, "%.12s: %.200s", gl_result_severity_name(d->severity),
                 d->text);
    }
}

/* Short name of a checker finding, for the source pane. */
const char *app_finding_name(int kind)
{
    switch (kind) {
    case GL_FIND_OUT_OF_BOUNDS: return "out-of-bounds access";
    case GL_FIND_MISALIGNED: return "misaligned access";
    case GL_FIND_UNINIT_READ: return "read of uninitialised memory";
    case GL_FIND_RACE: return "race";
    case GL_FIND_WARP_RACE: return "race within a warp";
    case GL_FIND_GLOBAL_RACE: return "global-memory race";
    case GL_FIND_DIVERGENT_BARRIER: return "barrier in divergent code";
    case GL_FIND_EXITED_BARRIER: return "barrier skipped by exited threads";
    case GL_FIND_DEADLOCK: return "deadlock";
    case GL_FIND_STEP_LIMIT: return "endless loop?";
    default: return "checker error";
    }
}

void app_add_diag(app *a, int line, bool is_error, const char *msg)
{
    if (line <= 0 || a->ndiags >= APP_MAX_DIAGS || app_diag_at(a, line))
        return;
    app_diag *g = &a->diags[a->ndiags++];
    memset(g, 0, sizeof *g);
    g->line = line;
    g->is_error = is_error;
    g->is_finding = true;
    snprintf(g->msg, sizeof g->msg, "%s", msg);
}

int app_diag_cmp(const void *x, const void *y)
{
    const app_diag *p = x, *q = y;
    return (p->line > q->line) - (p->line < q->line);
}

/* The checkers' findings of the last run, marked at their source lines: a race at
 * both accesses, naming the other line. */
void app_add_findings(app *a)
{
    a->ndiags = 0;
    for (int i = 0; i < a->run.nfindings; i++) {
        const gl_finding *f = &a->run.findings[i];
        const char *name = app_finding_name((int)f->kind);
        char msg[240];
        int l1 = f->access.src_line, l2 = f->other.src_line;
        if (l2 > 0 && l2 != l1) {
            snprintf(msg, sizeof msg, "%s: %s %s with line %d", f->is_error ? "error" : "warning",
                     name,
                     f->access.op == 1   ? "(this write)"
                     : f->access.op == 2 ? "(this atomic)"
                                         : "(this read)",
                     l2);
            app_add_diag(a, l1, f->is_error, msg);
            snprintf(msg, sizeof msg, "%s: %s %s with line %d", f->is_error ? "error" : "warning",
                     name,
                     f->other.op == 1   ? "(this write)"
                     : f->other.op == 2 ? "(this atomic)"
                                        : "(this read)",
                     l1);
            app_add_diag(a, l2, f->is_error, msg);
        } else {
            snprintf(msg, sizeof msg, "%s: %s by thread (%u,%u,%u) of block (%u,%u,%u)",
                     f->is_error ? "error" : "warning", name, f->access.thread[0],
                     f->access.thread[1], f->access.thread[2], f->access.block[0],
                     f->access.block[1], f->access.block[2]);
            app_add_diag(a, l1, f->is_error, msg);
        }
    }
    qsort(a->diags, (size_t)a->ndiags, sizeof a->diags[0], app_diag_cmp);
}

/* Frees a run result with its trace, metrics and findings (gl_run_result_free does
 * not free those yet; both calls are safe together: the second sees NULLs). */
void app_run_result_free(gl_run_result *r)
{
    gl_run_result_free_trace(r);
    gl_run_result_free(r);
}

/* Drops the results of the last run and grading (not the step itself). */
/* A run that finished, about to be dropped (a new run, an edit, leaving the step),
 * becomes the baseline the next run of its step is compared with. */
void app_keep_baseline(app *a)
{
    if (!a->have_run || a->run_status != GL_OK || a->run.fault.kind != GL_FAULT_NONE)
        return;
    a->baseline = (struct app_baseline){true,
                                        a->lesson,
                                        a->step,
                                        app_on_exercise(a) ? a->spec_n : 0,
                                        (int)a->run.backend,
                                        a->run.stats.warp_instructions,
                                        a->run.elapsed_ms,
                                        a->run.metrics != NULL,
                                        {0},
                                        a->run_names,
                                        a->have_work,
                                        a->run_work};
    if (a->run.metrics)
        a->baseline.c = a->run.metrics->total;
}

void app_results_clear(app *a)
{
    app_keep_baseline(a);
    if (a->have_run)
        app_run_result_free(&a->run);
    a->have_run = false;
    a->have_work = false;
    a->play_next = 0;
    free(a->run_chatter);
    a->run_chatter = NULL;
    a->run_error[0] = '\0';
    if (a->have_grade)
        grade_report_free(&a->grade);
    a->have_grade = false;
    a->grade_error[0] = '\0';
    a->ndiags = 0;
    if (a->ref_buffers)
        spec_buffers_free(a->ref_buffers, a->ref_nargs);
    a->ref_buffers = NULL;
    a->ref_nargs = 0;
    a->ref_n = 0;
    a->ref_error[0] = '\0';
    memset(&a->cmp, 0, sizeof a->cmp);
    a->cmp.first_arg = -1;
    view_reset_all();
}

/* Drops everything derived from the current step (spec, source, run, grade). */
static void step_clear(app *a)
{
    if (app_busy(a)) /* leaving a step stops its run or grading: say so */
        app_set_flash(a, a->job.kind == JOB_GRADE ? "grading cancelled: you left the exercise"
                                                  : "run cancelled: you left its step");
    job_cancel(&a->job);
    if (a->init_buffers)
        spec_buffers_free(a->init_buffers, a->spec.nargs), a->init_buffers = NULL;
    if (a->have_spec)
        spec_free(&a->spec);
    a->have_spec = false;
    memset(&a->spec, 0, sizeof a->spec);
    a->spec_error[0] = '\0';
    source_free(&a->src);
    app_results_clear(a);
    map_colourings_clear();
    a->text_top = a->src_top = a->res_top = 0;
    a->res_full = false;
    a->sel_on = false;
    a->map_focus = false;
    a->view = VIEW_MAP;
    a->tpos = 0;
    a->spec_n = 0;
    a->confirm = CONFIRM_NONE;
}

/* a->spec was just loaded: the buffers before the launch (for the buffers view and
 * buffer:NAME maps; none past 64 MiB) and the map's colourings. */
static void spec_took(app *a, const char *map_value)
{
    gl_error err = {0};
    a->have_spec = true;
    uint64_t bytes = 0;
    for (int k = 0; k < a->spec.nargs; k++)
        if (a->spec.args[k].is_ptr)
            bytes += a->spec.args[k].len * spec_type_size(a->spec.args[k].type);
    if (bytes <= (64u << 20) && spec_buffers_new(&a->spec, &a->init_buffers, &err) != GL_OK)
        a->init_buffers = NULL;
    map_colourings(a, map_value);
}

/* The back end a run of the step now goes to, for its launch: a GPU when the probed one
 * is (a speed step then runs at its "gpu_launch"), else the simulator. */
static gl_backend_kind step_where(app *a)
{
    app_probe_backend(a);
    return a->opts.backend != GL_BACKEND_SIM && !a->device_error[0] && !a->device.is_simulator
               ? GL_BACKEND_GPU
               : GL_BACKEND_SIM;
}

/* The step's launch for kernel `kernel` of its file on `where` replaces the spec (see
 * app_step_use_kernel). */
static bool use_spec(app *a, const char *kernel, gl_backend_kind where, char *msg, size_t len)
{
    const gl_step *step = app_cur_step(a);
    gl_spec ns;
    gl_error err = {0};
    if (!step || lesson_step_spec_for(a->lesson, a->step, kernel, where, &ns, &err) != GL_OK) {
        snprintf(msg, len, "%s", step ? err.msg : "the exercise runs its own kernel");
        return false;
    }
    app_results_clear(a); /* the last run, of the other kernel, becomes the baseline */
    if (a->init_buffers)
        spec_buffers_free(a->init_buffers, a->spec.nargs), a->init_buffers = NULL;
    spec_free(&a->spec);
    a->spec = ns;
    a->spec_where = where;
    const int mode = map_colouring();
    spec_took(a, step->map_value);
    map_colouring_keep(mode); /* the same colouring (a buffer's is at the same place) */
    a->other_kernel = strcmp(a->spec.kernel, lesson_step_kernel_name(step)) != 0;
    /* a selected thread past the new grid or block: none */
    for (int d = 0; d < 3; d++)
        if (a->sel_block[d] >= a->spec.grid[d] || a->sel_thread[d] >= a->spec.block[d])
            a->sel_on = a->map_focus = false;
    a->tpos = 0;
    msg[0] = '\0';
    return true;
}

bool app_step_use_kernel(app *a, const char *kernel, char *msg, size_t len)
{
    return use_spec(a, kernel, a->spec_where, msg, len);
}

bool app_step_respec(app *a, gl_backend_kind where, char *msg, size_t len)
{
    msg[0] = '\0';
    if (where != GL_BACKEND_SIM)
        where = step_where(a);
    const gl_step *step = app_cur_step(a);
    if (app_on_exercise(a) || !step || !step->gpu_launch || !a->have_spec || where == a->spec_where)
        return true;
    return use_spec(a, a->other_kernel ? a->spec.kernel : NULL, where, msg, len);
}

/* The exercise's source as the learner works on it: their copy, made from the starter
 * the first time (demo mode shows the starter itself). */
const char *app_exercise_source(app *a)
{
    const gl_exercise *ex = a->lesson->exercise;
    a->ex_error[0] = '\0';
    if (a->opts.demo)
        return ex->starter;
    gl_error err = {0};
    if (workspace_exercise_path(a->lesson, a->ex_path, sizeof a->ex_path, &err) != GL_OK) {
        a->ex_path[0] = '\0';
        snprintf(a->ex_error, sizeof a->ex_error, "cannot make your copy of the exercise: %.900s",
                 err.msg);
        return ex->starter;
    }
    return a->ex_path;
}

/* A file with several kernels: start the source pane at the one this step launches
 * (with the comment lines just above it). */
void app_scroll_to_kernel(app *a)
{
    if (!a->have_spec || !a->spec.kernel || !a->src.lines)
        return;
    size_t kl = strlen(a->spec.kernel);
    for (int i = 0; i < a->src.nlines; i++) {
        const char *l = a->src.lines[i];
        const char *k = strstr(l, a->spec.kernel);
        if (!k || !strstr(l, "__global__"))
            continue;
        const char *after = k + kl;
        while (*after == ' ')
            after++;
        if (*after != '(' || (k > l && (isalnum((unsigned char)k[-1]) || k[-1] == '_')))
            continue;
        int top = i;
        while (top > 0 && top > i - 4) {
            const char *p = a->src.lines[top - 1];
            while (*p == ' ')
                p++;
            if (strncmp(p, "//", 2) != 0 && strncmp(p, "/*", 2) != 0 && *p != '*')
                break;
            top--;
        }
        /* a kernel near the top of the file: show the file from its start */
        a->src_top = top <= 6 ? 0 : top;
        return;
    }
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t p = *(const int64_t *)x, q = *(const int64_t *)y;
    return (p > q) - (p < q);
}

/* The open lesson's graded sizes for r on its exercise (once per lesson: the default
 * measured and the size picked stay while the TUI runs). */
static void exercise_sizes(app *a)
{
    if (a->ex_lesson == a->lesson)
        return;
    a->ex_lesson = a->lesson;
    a->ex_nsizes = grade_sizes(a->lesson->exercise, a->ex_sizes, GL_EXERCISE_MAX_SIZES);
    qsort(a->ex_sizes, (size_t)a->ex_nsizes, sizeof a->ex_sizes[0], cmp_i64);
    a->ex_pick = a->ex_default = 0;
    for (int i = 0; i < GL_EXERCISE_MAX_SIZES; i++)
        a->ex_secs[i] = -1;
}

/* Enters step i of the open lesson (nsteps = the exercise): loads its launch spec,
 * kernel source and initial buffers. Problems become messages in the panes. */
void app_step_enter(app *a, int i)
{
    step_clear(a);
    a->step = i;
    a->show_reference = false;
    gl_error err = {0};
    const char *source = NULL, *map_value = NULL;
    gl_status st = GL_OK;
    bool want_spec = false;
    if (app_on_exercise(a)) {
        const gl_exercise *ex = a->lesson->exercise;
        source = app_exercise_source(a);
        exercise_sizes(a);
        if (ex->launch) {
            want_spec = true;
            a->spec_n = app_exercise_n(a);
            st = lesson_exercise_spec(a->lesson, a->spec_n, 0, source, &a->spec, &err);
        }
    } else {
        const gl_step *step = app_cur_step(a);
        source = step->kernel;
        map_value = step->map_value;
        a->view = view_of_step(step->view);
        if (step->launch) {
            want_spec = true;
            /* on a GPU a speed step runs at its GPU size ("gpu_launch") */
            a->spec_where = step_where(a);
            st = lesson_step_spec_for(a->lesson, i, NULL, a->spec_where, &a->spec, &err);
        }
    }
    if (want_spec) {
        a->other_kernel = false;
        if (st == GL_OK) {
            if (!source)
                source = a->spec.source;
            spec_took(a, map_value);
        } else {
            memset(&a->spec, 0, sizeof a->spec);
            app_msgcpy(a->spec_error, sizeof a->spec_error, err.msg);
        }
    }
    app_source_load(&a->src, source);
    app_scroll_to_kernel(a);
    app_progress_step(a);
}

void app_lesson_close(app *a)
{
    step_clear(a);
    a->lesson = NULL;
    a->screen = SCREEN_LIST;
    a->hints_shown = 0;
}

/* Opens lesson l: at its first step, or with resume at the step the learner saw last
 * in it (progress.json), saying so. */
void app_lesson_open(app *a, gl_lesson *l, bool resume)
{
    /* N (the debug build) ends with its lesson: every count and picture a lesson's text
     * speaks of is of the optimised build, which another lesson's N would silently
     * change */
    const bool names_off = a->names_build && a->lesson != l;
    if (names_off)
        a->names_build = false;
    app_lesson_close(a);
    a->lesson = l;
    a->screen = SCREEN_LESSON;
    const gl_lesson_progress *p = resume && !a->opts.demo ? app_progress(a, l) : NULL;
    const int at = p && p->last_step > 0 && p->last_step < app_nsteps(a) ? p->last_step : 0;
    app_step_enter(a, at);
    if (at > 0) {
        char msg[120];
        snprintf(msg, sizeof msg, "back at step %d of %d, where you left off (p: previous step)",
                 at + 1, app_nsteps(a));
        app_set_flash(a, msg);
    }
    if (names_off)
        app_set_flash(a, "N is off: a new lesson runs the optimised build its counts are of");
}

/* Decides the back end once: gl_run_device_query with the chosen kind. */
void app_probe_backend(app *a)
{
    if (a->backend_known)
        return;
    gl_error err = {0};
    term_quiet_begin();
    gl_status st = gl_run_device_query(a->opts.backend, &a->device, a->device_note,
                                       sizeof a->device_note, &err);
    free(term_quiet_end());
    if (st != GL_OK)
        app_msgcpy(a->device_error, sizeof a->device_error, err.msg);
    a->backend_known = true;
}
