/* app.c — the TUI's state, its one input loop and its one key table. Input handlers
 * return HANDLED | REDRAW | QUIT flags (htop's HandlerResult) and the loop acts on
 * them; the help overlay is generated from the same table.
 *
 * Runs and gradings happen in a worker process (job.h): the loop keeps reading keys
 * while one is under way, Ctrl-C / Esc / c cancel it, and the result is collected when
 * the worker finishes. The learner's editor runs with the terminal handed over
 * (term_suspend/term_resume); on return the kernel is recompiled and re-run. */
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
#include "tui/app.h"
#include "tui/editor.h"
#include "tui/term.h"
#include "tui/view.h"
#include "tui/tui.h"

typedef enum handler_result {
    H_IGNORED = 0,
    H_HANDLED = 1 << 0,
    H_REDRAW = 1 << 1,
    H_QUIT = 1 << 2,
} handler_result;

/* --------------------------------------------------------------- queries */

bool app_on_exercise(const app *a)
{
    return a->lesson && a->lesson->exercise && a->step == a->lesson->nsteps;
}

int app_nsteps(const app *a)
{
    if (!a->lesson)
        return 0;
    return a->lesson->nsteps + (a->lesson->exercise ? 1 : 0);
}

const gl_step *app_cur_step(const app *a)
{
    if (!a->lesson || a->step < 0 || a->step >= a->lesson->nsteps)
        return NULL;
    return &a->lesson->steps[a->step];
}

bool app_busy(const app *a)
{
    return a->job.kind != JOB_NONE;
}

int64_t app_exercise_n(const app *a)
{
    if (a->ex_pick > 0)
        return a->ex_pick;
    if (a->ex_default > 0)
        return a->ex_default;
    return a->ex_nsizes > 0 ? a->ex_sizes[a->ex_nsizes - 1] : 1000;
}

const gl_lesson_progress *app_progress(const app *a, const gl_lesson *l)
{
    for (int i = 0; l && l->id && i < a->nprogress; i++)
        if (strcmp(a->progress[i].id, l->id) == 0)
            return &a->progress[i];
    return NULL;
}

int app_steps_seen(const app *a, const gl_lesson *l)
{
    const gl_lesson_progress *p = app_progress(a, l);
    int n = 0, total = l->nsteps + (l->exercise ? 1 : 0);
    for (int i = 0; p && i < total && i < 32; i++)
        n += (p->steps_seen >> i) & 1u;
    return n;
}

const app_diag *app_diag_at(const app *a, int line)
{
    for (int i = 0; i < a->ndiags; i++)
        if (a->diags[i].line == line)
            return &a->diags[i];
    return NULL;
}

void app_backend_label(const app *a, char *buf, size_t len)
{
    if (a->opts.backend == GL_BACKEND_SIM)
        snprintf(buf, len, "simulator");
    else if (!a->backend_known)
        snprintf(buf, len, "looking for a GPU...");
    else if (a->device_error[0])
        snprintf(buf, len, "no GPU back end (see lesson 0)");
    else if (a->device.is_simulator)
        snprintf(buf, len, "simulator (no GPU found)");
    else
        snprintf(buf, len, "GPU: %s", a->device.name);
    if (a->have_run && a->run.backend == GL_BACKEND_SIM && a->backend_known &&
        !a->device.is_simulator && a->opts.backend != GL_BACKEND_SIM)
        snprintf(buf + strlen(buf), len - strlen(buf),
                 a->sim_replay ? " (last run replayed on the simulator)"
                               : " (last run fell back to the simulator)");
}

/* Copies a message, cut to fit dst (always NUL-terminated). */
static void msgcpy(char *dst, size_t n, const char *src)
{
    size_t len = strlen(src);
    if (len >= n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* A message longer than the status bar holds is cut (msgcpy: no format-truncation
 * warning from a caller's longer buffer). */
static void set_flash(app *a, const char *msg)
{
    msgcpy(a->flash, sizeof a->flash, msg);
}

static const char *base_name(const char *path)
{
    if (!path)
        return "";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ------------------------------------------------------------- progress */

static void progress_reload(app *a)
{
    free(a->progress);
    a->progress = NULL;
    a->nprogress = 0;
    gl_error err = {0};
    if (progress_load(&a->progress, &a->nprogress, a->progress_warning, sizeof a->progress_warning,
                      &err) != GL_OK) {
        a->progress = NULL;
        a->nprogress = 0;
    }
    progress_last_lesson(a->last_lesson, sizeof a->last_lesson);
}

/* Records the current step as seen and as the learner's last position (written when
 * either changes). */
static void progress_step(app *a)
{
    if (!a->lesson || !a->lesson->id || a->opts.demo || a->step >= 32)
        return;
    const gl_lesson_progress *p = app_progress(a, a->lesson);
    if (p && (p->steps_seen >> a->step) & 1u && p->last_step == a->step &&
        strcmp(a->last_lesson, a->lesson->id) == 0)
        return;
    gl_error err = {0};
    if (progress_mark_step(a->lesson->id, a->step, &err) == GL_OK)
        progress_reload(a);
}

static void progress_passed(app *a)
{
    if (!a->lesson || !a->lesson->id || a->opts.demo)
        return;
    gl_error err = {0};
    if (progress_mark_passed(a->lesson->id, &err) == GL_OK)
        progress_reload(a);
}

static int clamp_top(int top, int lines, int rows);

/* ------------------------------------------------------------ step state */

static void source_free(app_source *s)
{
    free(s->path);
    free(s->text);
    free(s->lines);
    memset(s, 0, sizeof *s);
}

/* Reads path into lines, tabs expanded to 4 columns. Missing file: a one-line note. */
static void source_load(app_source *s, const char *path)
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

/* Collects "path:line:col: error: msg" lines of a compiler's output that name the
 * shown source (same file name) into a->diags. */
static void parse_diags(app *a, const char *text)
{
    a->ndiags = 0;
    if (!text || !a->src.path)
        return;
    const char *want = base_name(a->src.path);
    const char *p = text;
    while (*p && a->ndiags < APP_MAX_DIAGS) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char line[1024];
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = '\0';
        /* find ":<digits>:" after the path */
        for (char *c = strchr(line, ':'); c; c = strchr(c + 1, ':')) {
            char *d = c + 1;
            if (!isdigit((unsigned char)*d))
                continue;
            long ln = strtol(d, &d, 10);
            if (*d != ':')
                continue;
            long col = 0;
            char *q = d + 1;
            if (isdigit((unsigned char)*q)) {
                col = strtol(q, &q, 10);
                if (*q != ':')
                    break;
                q++;
            }
            while (*q == ' ')
                q++;
            bool err = strncmp(q, "error", 5) == 0 || strncmp(q, "fatal error", 11) == 0;
            bool warn = strncmp(q, "warning", 7) == 0;
            if (!err && !warn)
                break;
            *c = '\0';
            if (strcmp(base_name(line), want) != 0)
                break;
            if (app_diag_at(a, (int)ln))
                break; /* the first message of a line */
            app_diag *g = &a->diags[a->ndiags++];
            memset(g, 0, sizeof *g);
            g->line = (int)ln;
            g->col = (int)col;
            g->is_error = err;
            snprintf(g->msg, sizeof g->msg, "%s", q);
            break;
        }
        if (!e)
            break;
        p = e + 1;
    }
}

/* Short name of a checker finding, for the source pane. */
const char *app_finding_name(int kind)
{
    switch (kind) {
    case SIM_FIND_OUT_OF_BOUNDS: return "out-of-bounds access";
    case SIM_FIND_MISALIGNED: return "misaligned access";
    case SIM_FIND_UNINIT_READ: return "read of uninitialised memory";
    case SIM_FIND_RACE: return "race";
    case SIM_FIND_WARP_RACE: return "race within a warp";
    case SIM_FIND_GLOBAL_RACE: return "global-memory race";
    case SIM_FIND_DIVERGENT_BARRIER: return "barrier in divergent code";
    case SIM_FIND_EXITED_BARRIER: return "barrier skipped by exited threads";
    case SIM_FIND_DEADLOCK: return "deadlock";
    case SIM_FIND_STEP_LIMIT: return "endless loop?";
    default: return "checker error";
    }
}

static void add_diag(app *a, int line, bool is_error, const char *msg)
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

static int diag_cmp(const void *x, const void *y)
{
    const app_diag *p = x, *q = y;
    return (p->line > q->line) - (p->line < q->line);
}

/* The checkers' findings of the last run, marked at their source lines: a race at
 * both accesses, naming the other line. */
static void add_findings(app *a)
{
    a->ndiags = 0;
    for (int i = 0; i < a->run.nfindings; i++) {
        const sim_finding *f = &a->run.findings[i];
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
            add_diag(a, l1, f->is_error, msg);
            snprintf(msg, sizeof msg, "%s: %s %s with line %d", f->is_error ? "error" : "warning",
                     name,
                     f->other.op == 1   ? "(this write)"
                     : f->other.op == 2 ? "(this atomic)"
                                        : "(this read)",
                     l1);
            add_diag(a, l2, f->is_error, msg);
        } else {
            snprintf(msg, sizeof msg, "%s: %s by thread (%u,%u,%u) of block (%u,%u,%u)",
                     f->is_error ? "error" : "warning", name, f->access.thread[0],
                     f->access.thread[1], f->access.thread[2], f->access.block[0],
                     f->access.block[1], f->access.block[2]);
            add_diag(a, l1, f->is_error, msg);
        }
    }
    qsort(a->diags, (size_t)a->ndiags, sizeof a->diags[0], diag_cmp);
}

/* Frees a run result with its trace, metrics and findings (gl_run_result_free does
 * not free those yet; both calls are safe together: the second sees NULLs). */
static void run_result_free(gl_run_result *r)
{
    gl_run_result_free_trace(r);
    gl_run_result_free(r);
}

/* Drops the results of the last run and grading (not the step itself). */
/* A run that finished, about to be dropped (a new run, an edit, leaving the step),
 * becomes the baseline the next run of its step is compared with. */
static void keep_baseline(app *a)
{
    if (!a->have_run || a->run_status != GL_OK || a->run.fault.kind != SIM_FAULT_NONE ||
        a->run.gpu_fault)
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
                                        a->run_names};
    if (a->run.metrics)
        a->baseline.c = a->run.metrics->total;
}

static void results_clear(app *a)
{
    keep_baseline(a);
    if (a->have_run)
        run_result_free(&a->run);
    a->have_run = false;
    a->play_next = 0;
    free(a->run_chatter);
    a->run_chatter = NULL;
    a->run_error[0] = '\0';
    a->fault_file[0] = '\0';
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
    a->cmp_top = 0;
    a->tree_col = 0;
    a->tree_zoom = false;
}

/* Drops everything derived from the current step (spec, source, run, grade). */
static void step_clear(app *a)
{
    if (app_busy(a)) /* leaving a step stops its run or grading: say so */
        set_flash(a, a->job.kind == JOB_GRADE ? "grading cancelled: you left the exercise"
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
    results_clear(a);
    a->nmodes = a->mode = 0;
    a->text_top = a->src_top = a->res_top = 0;
    a->sel_on = false;
    a->map_focus = false;
    a->view = VIEW_MAP;
    a->tpos = 0;
    a->spec_n = 0;
    a->confirm = CONFIRM_NONE;
}

static void build_modes(app *a, const char *map_value)
{
    static const struct {
        const char *name;
        map_kind kind;
    } fixed[] = {
        {"global_index", MAP_GLOBAL_INDEX},
        {"block", MAP_BLOCK},
        {"thread", MAP_THREAD},
        {"warp", MAP_WARP},
        {"lane", MAP_LANE},
        {"sm", MAP_SM},
    };
    a->nmodes = 0;
    a->mode = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        a->modes[a->nmodes++] = (map_mode){fixed[i].kind, -1};
        if (map_value && strcmp(map_value, fixed[i].name) == 0)
            a->mode = a->nmodes - 1;
    }
    for (int i = 0; i < a->spec.nargs && a->nmodes < APP_MAX_MODES; i++) {
        if (!a->spec.args[i].is_ptr)
            continue;
        a->modes[a->nmodes++] = (map_mode){MAP_BUFFER, i};
        if (map_value && strncmp(map_value, "buffer:", 7) == 0 &&
            strcmp(map_value + 7, a->spec.args[i].name) == 0)
            a->mode = a->nmodes - 1;
    }
}

/* The exercise's source as the learner works on it: their copy, made from the starter
 * the first time (demo mode shows the starter itself). */
static const char *exercise_source(app *a)
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
static void scroll_to_kernel(app *a)
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
    a->ex_nsizes = grade_sizes(a->lesson->exercise, a->ex_sizes, JOB_MAX_SIZES);
    qsort(a->ex_sizes, (size_t)a->ex_nsizes, sizeof a->ex_sizes[0], cmp_i64);
    a->ex_pick = a->ex_default = 0;
    for (int i = 0; i < JOB_MAX_SIZES; i++)
        a->ex_secs[i] = -1;
}

/* Enters step i of the open lesson (nsteps = the exercise): loads its launch spec,
 * kernel source and initial buffers. Problems become messages in the panes. */
static void step_enter(app *a, int i)
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
        source = exercise_source(a);
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
            st = lesson_step_spec(a->lesson, i, &a->spec, &err);
        }
    }
    if (want_spec) {
        a->other_kernel = false;
        if (st == GL_OK) {
            a->have_spec = true;
            if (!source)
                source = a->spec.source;
            uint64_t bytes = 0;
            for (int k = 0; k < a->spec.nargs; k++)
                if (a->spec.args[k].is_ptr)
                    bytes += a->spec.args[k].len * gl_type_size(a->spec.args[k].type);
            if (bytes <= (64u << 20) && spec_buffers_new(&a->spec, &a->init_buffers, &err) != GL_OK)
                a->init_buffers = NULL;
            build_modes(a, map_value);
        } else {
            memset(&a->spec, 0, sizeof a->spec);
            msgcpy(a->spec_error, sizeof a->spec_error, err.msg);
        }
    }
    source_load(&a->src, source);
    scroll_to_kernel(a);
    progress_step(a);
}

static void lesson_close(app *a)
{
    step_clear(a);
    a->lesson = NULL;
    a->screen = SCREEN_LIST;
    a->hints_shown = 0;
}

/* Opens lesson l: at its first step, or with resume at the step the learner saw last
 * in it (progress.json), saying so. */
static void lesson_open(app *a, gl_lesson *l, bool resume)
{
    lesson_close(a);
    a->lesson = l;
    a->screen = SCREEN_LESSON;
    const gl_lesson_progress *p = resume && !a->opts.demo ? app_progress(a, l) : NULL;
    const int at = p && p->last_step > 0 && p->last_step < app_nsteps(a) ? p->last_step : 0;
    step_enter(a, at);
    if (at > 0) {
        char msg[120];
        snprintf(msg, sizeof msg, "back at step %d of %d, where you left off (p: previous step)",
                 at + 1, app_nsteps(a));
        set_flash(a, msg);
    }
}

/* Decides the back end once: gl_device_query with the chosen kind. */
static void probe_backend(app *a)
{
    if (a->backend_known)
        return;
    gl_error err = {0};
    term_quiet_begin();
    gl_status st =
        gl_device_query(a->opts.backend, &a->device, a->device_note, sizeof a->device_note, &err);
    free(term_quiet_end());
    if (st != GL_OK)
        msgcpy(a->device_error, sizeof a->device_error, err.msg);
    a->backend_known = true;
}

/* ------------------------------------------------------------ jobs */

static void scroll_source_to(app *a, int line)
{
    a->src_top = line - 1 - a->metrics.src_rows / 3;
    if (a->src_top < 0)
        a->src_top = 0;
}

/* Starts the current step's launch in a worker. */
static handler_result start_run(app *a)
{
    if (!a->have_spec) {
        set_flash(a, a->spec_error[0] ? "this step's launch spec has an error"
                                      : "nothing to run on this step");
        return H_REDRAW;
    }
    if (app_busy(a))
        return H_HANDLED;
    /* the trace (warp timeline, memory requests with lane addresses, shared memory at
     * each barrier for the tree views) and metrics (per line) of the run */
    /* the limits of every launch (backend.h), with the exercise's own step limit on the
     * exercise, so that r and grade agree on what never finishes */
    uint64_t step_limit = app_on_exercise(a) && a->lesson && a->lesson->exercise
                              ? a->lesson->exercise->step_limit
                              : 0;
    gl_run_opts o = {.backend = a->opts.backend,
                     .step_limit = step_limit,
                     .trace_level = TRACE_MEMORY,
                     .trace_max_events = 1u << 18,
                     .snapshot_bytes = 1u << 20,
                     .metrics = 1,
                     .trace_regs = 1,
                     .gpu_trace = 1 /* GPU runs: memory requests and each block's SM */};
    o.compile.debug = a->names_build; /* N: source variable names (a debug build) */
    /* the target: --arch, else (the exercise's reference compiles with o) the lesson's;
     * a step's launch spec carries its own */
    o.compile.arch = a->opts.arch;
    o.compile.arch_origin = "--arch";
    if (!o.compile.arch && app_on_exercise(a) && a->lesson) {
        o.compile.arch = lesson_exercise_arch(a->lesson);
        o.compile.arch_origin = "\"arch\" of the lesson";
    }
    a->start_names = a->names_build;
    snprintf(a->start_kernel, sizeof a->start_kernel, "%s",
             a->other_kernel && a->spec.kernel ? a->spec.kernel : "");
    char msg[256];
    if (app_on_exercise(a)) {
        /* the learner's kernel, then the reference at the same size and inputs; the
         * lesson's first run measures the default size first (job_start_exercise) */
        int64_t n = a->ex_pick > 0 ? a->ex_pick : a->ex_default;
        if (!job_start_exercise(&a->job, a->lesson, a->spec.source, n, &o, msg, sizeof msg)) {
            set_flash(a, msg);
            return H_REDRAW;
        }
        if (n > 0)
            snprintf(a->busy_msg, sizeof a->busy_msg, "running %.90s and the reference at n = %lld",
                     base_name(a->spec.source), (long long)n);
        else
            snprintf(a->busy_msg, sizeof a->busy_msg,
                     "timing the reference to choose n, then running %.90s",
                     base_name(a->spec.source));
        return H_REDRAW;
    }
    if (!job_start_run(&a->job, &a->spec, &o, msg, sizeof msg)) {
        set_flash(a, msg);
        return H_REDRAW;
    }
    snprintf(a->busy_msg, sizeof a->busy_msg, "compiling and running %s",
             base_name(a->spec.source));
    return H_REDRAW;
}
/* N: the registers view names source variables: runs use the debug build (-G), the
 * only build whose DWARF records where variables live; N again goes back to the
 * optimised build every other count is of. Re-runs the step when it has run. */
static handler_result act_names(app *a)
{
    if (app_busy(a))
        return H_HANDLED;
    a->names_build = !a->names_build;
    set_flash(a, a->names_build
                     ? "source variable names: runs use the debug build (-G, the code as written)"
                     : "runs use the optimised build again (no source variable names)");
    if (a->have_run && a->have_spec)
        return start_run(a);
    return H_REDRAW;
}

/* After a GPU fault: the same launch on the simulator, whose checkers show where. */
static handler_result act_rerun_sim(app *a)
{
    if (!a->have_run || a->run.backend == GL_BACKEND_SIM) {
        set_flash(a, a->have_run ? "this run was on the simulator already"
                                 : "S replays a GPU run on the simulator");
        return H_REDRAW;
    }
    gl_backend_kind keep = a->opts.backend;
    a->opts.backend = GL_BACKEND_SIM;
    handler_result r = start_run(a);
    a->opts.backend = keep;
    a->sim_replay = true;
    return r;
}

static handler_result start_grade(app *a)
{
    if (app_busy(a))
        return H_HANDLED;
    const char *sub = a->ex_path[0] ? a->ex_path : NULL;
    gl_grade_opts o = {.backend = a->opts.backend,
                       .compile = {.arch = a->opts.arch, .arch_origin = "--arch"}};
    char msg[256];
    if (!job_start_grade(&a->job, a->lesson, sub, &o, msg, sizeof msg)) {
        set_flash(a, msg);
        return H_REDRAW;
    }
    /* a long file name is cut to fit the status line */
    snprintf(a->busy_msg, sizeof a->busy_msg, "grading %.120s on every size",
             sub ? base_name(sub) : "the starter");
    return H_REDRAW;
}

/* Re-enters the exercise at app_exercise_n (a new size: spec, map, initial buffers),
 * keeping where the learner was looking. Drops the last run. */
static void exercise_reenter(app *a)
{
    int src_top = a->src_top, text_top = a->text_top, mode = a->mode;
    app_view view = a->view;
    step_enter(a, a->step);
    a->src_top = src_top;
    a->text_top = text_top;
    if (mode < a->nmodes)
        a->mode = mode;
    a->view = view;
}

/* Compares the last exercise run's outputs with the reference's (a->cmp), as the
 * grader's matches_reference check does: its outputs, its tolerance. */
static void exercise_compare(app *a)
{
    struct app_ref_cmp *c = &a->cmp;
    memset(c, 0, sizeof *c);
    c->first_arg = -1;
    if (!a->have_run || a->run_status != GL_OK || !a->have_spec || !a->ref_buffers ||
        !a->run.buffers || a->ref_n != a->spec_n)
        return;
    const gl_check *k = grade_reference_check(a->lesson->exercise, a->ref_n);
    c->n = a->ref_n;
    c->tolerance = k ? k->tolerance : 0;
    for (int i = 0; i < a->spec.nargs; i++) {
        const gl_arg *arg = &a->spec.args[i];
        if (!arg->is_ptr || !grade_is_output(k, arg->name))
            continue;
        if (i >= a->run.nargs || i >= a->ref_nargs)
            return;
        const gl_buffer *got = &a->run.buffers[i], *exp = &a->ref_buffers[i];
        size_t bytes = arg->len * gl_type_size(arg->type);
        if (!got->data || !exp->data || got->bytes < bytes || exp->bytes < bytes)
            return;
        size_t first;
        size_t d =
            grade_count_diffs(arg->type, arg->len, exp->data, got->data, c->tolerance, &first);
        c->elements += arg->len;
        c->differ += d;
        if (d && c->first_arg < 0)
            c->first_arg = i, c->first = first;
    }
    c->done = true;
}

/* What an exercise run brought besides the learner's run: the default size (when it
 * was measured), the spec at the size it ran at, the reference's output. */
static void exercise_took(app *a, job_exercise *ex)
{
    if (ex->nsizes > 0 && ex->n > 0) {
        a->ex_default = ex->n;
        for (int i = 0; i < a->ex_nsizes; i++)
            for (int k = 0; k < ex->nsizes; k++)
                if (ex->sizes[k] == a->ex_sizes[i])
                    a->ex_secs[i] = ex->secs[k];
    }
    if (ex->n > 0 && ex->n != a->spec_n)
        exercise_reenter(a);
    a->ref_n = ex->n;
    a->ref_status = ex->ref_status;
    snprintf(a->ref_error, sizeof a->ref_error, "%s", ex->ref_error);
    a->ref_buffers = ex->ref_buffers;
    a->ref_nargs = ex->ref_nargs;
    ex->ref_buffers = NULL;
    ex->ref_nargs = 0;
}

static void finish_job(app *a)
{
    job_kind kind = a->job.kind;
    if (kind == JOB_RUN || kind == JOB_EXERCISE) {
        /* collected first: an exercise run at a new size rebuilds the step (which drops
         * the last run) before this one is kept */
        char errmsg[sizeof a->run_error];
        char ff[sizeof a->fault_file], *chatter = NULL;
        gl_status st;
        gl_run_result res;
        job_exercise ex;
        if (kind == JOB_EXERCISE) {
            job_finish_exercise(&a->job, &st, &res, errmsg, sizeof errmsg, &chatter, ff, sizeof ff,
                                &ex);
            exercise_took(a, &ex);
        } else {
            job_finish_run(&a->job, &st, &res, errmsg, sizeof errmsg, &chatter, ff, sizeof ff);
        }
        keep_baseline(a);
        if (a->have_run)
            run_result_free(&a->run);
        free(a->run_chatter);
        a->run_names = a->start_names;
        memcpy(a->run_kernel, a->start_kernel, sizeof a->run_kernel);
        a->run = res;
        a->run_status = st;
        a->run_chatter = chatter;
        memcpy(a->run_error, errmsg, sizeof a->run_error);
        memcpy(a->fault_file, ff, sizeof a->fault_file);
        a->have_run = true;
        a->run_gen++;
        a->res_top = 0;
        a->ndiags = 0;
        if (a->run_status == GL_ERR_COMPILE)
            parse_diags(a, a->run_error);
        else
            add_findings(a);
        if (a->run.fault.kind == SIM_FAULT_DEADLOCK) {
            /* every barrier the stuck warps wait at, not just the first */
            int lines[8], n = tv_deadlock_lines(a, lines, 8);
            for (int i = 0; i < n; i++)
                add_diag(a, lines[i], true, "deadlock: warps wait here, others at another barrier");
            qsort(a->diags, (size_t)a->ndiags, sizeof a->diags[0], diag_cmp);
        }
        if (a->ndiags)
            scroll_source_to(a, a->diags[0].line);
        else if (a->run.fault.kind != SIM_FAULT_NONE && a->run.fault.src_line > 0)
            scroll_source_to(a, a->run.fault.src_line);
        /* a memory fault: select the faulting thread in the map (its index and values) */
        if ((a->run.fault.kind == SIM_FAULT_OUT_OF_BOUNDS ||
             a->run.fault.kind == SIM_FAULT_MISALIGNED) &&
            a->have_spec && a->run.fault.block[0] < a->spec.grid[0] &&
            a->run.fault.block[1] < a->spec.grid[1] && a->run.fault.block[2] < a->spec.grid[2] &&
            a->run.fault.thread[0] < a->spec.block[0] &&
            a->run.fault.thread[1] < a->spec.block[1] &&
            a->run.fault.thread[2] < a->spec.block[2]) {
            memcpy(a->sel_block, a->run.fault.block, sizeof a->sel_block);
            memcpy(a->sel_thread, a->run.fault.thread, sizeof a->sel_thread);
            a->sel_on = true;
        }
        probe_backend(a);
        /* "no NVIDIA driver found ...: running on the simulator" once, not after every run */
        a->note_repeat = a->run.note[0] && strcmp(a->run.note, a->last_note) == 0;
        msgcpy(a->last_note, sizeof a->last_note, a->run.note);
        a->tpos = tv_initial_pos(a);
        /* the exercise: its output against the reference's */
        if (kind == JOB_EXERCISE)
            exercise_compare(a);
        a->cmp_top = 0;
        /* an exercise whose output differs opens on the comparison (the symptom; the
         * source pane marks the checkers' findings and 9 shows their picture); else an
         * error opens on its picture */
        if (a->cmp.done && a->cmp.differ)
            a->view = VIEW_BUFFERS;
        else if (tv_has_error_picture(a))
            a->view = VIEW_ERROR;
        else if (a->view == VIEW_ERROR)
            a->view = VIEW_MAP;
        char msg[200];
        if (kind == JOB_EXERCISE && a->run_status == GL_OK && !a->run.gpu_fault && a->cmp.done) {
            if (a->cmp.differ)
                snprintf(msg, sizeof msg,
                         "output differs from the reference at %zu of %zu elements (n = %lld)",
                         a->cmp.differ, a->cmp.elements, (long long)a->cmp.n);
            else
                snprintf(msg, sizeof msg, "output matches the reference for n = %lld%s",
                         (long long)a->cmp.n,
                         a->run.nerrors ? ", but the checkers found errors: see Result" : "");
            set_flash(a, msg);
        } else if (kind == JOB_EXERCISE && a->run_status == GL_OK && a->ref_status != GL_OK) {
            set_flash(a, "ran; the reference could not run: see Result");
        } else if (a->run_status == GL_OK && a->run.gpu_fault)
            set_flash(a, "the kernel failed on the GPU: press S to re-run it on the simulator, "
                         "which shows where");
        else if (a->run_status == GL_OK && a->run.nerrors > 0)
            set_flash(a, "ran, but the checkers found errors: see Result");
        else if (a->run_status == GL_OK && a->run.nwarnings > 0)
            set_flash(a, "ran, with warnings: see Result");
        else
            set_flash(a, a->run_status == GL_OK ? "ran"
                         : a->run_status == GL_ERR_COMPILE
                             ? "it did not compile: errors are marked in the source"
                             : "the run failed: see Result");
    } else if (kind == JOB_GRADE) {
        if (a->have_grade)
            grade_report_free(&a->grade);
        job_finish_grade(&a->job, &a->grade_status, &a->grade, a->grade_error,
                         sizeof a->grade_error);
        a->have_grade = true;
        a->res_top = 0;
        a->ndiags = 0;
        if (a->grade_status == GL_OK && !a->grade.compiled) {
            parse_diags(a, a->grade.compile_log);
            if (a->ndiags)
                scroll_source_to(a, a->diags[0].line);
        }
        if (a->grade_status == GL_OK && a->grade.passed)
            progress_passed(a);
        set_flash(a, a->grade_status != GL_OK ? "grading could not run"
                     : a->grade.passed        ? "passed!"
                                              : "not yet: see the checks");
    }
    if (a->opts.demo && a->opts.auto_seconds > 0)
        a->auto_next = job_now() + a->opts.auto_seconds;
}

static handler_result act_cancel(app *a)
{
    if (!app_busy(a))
        return H_IGNORED;
    bool grading = a->job.kind == JOB_GRADE;
    job_cancel(&a->job);
    set_flash(a, grading ? "grading cancelled" : "run cancelled");
    return H_REDRAW;
}

/* --------------------------------------------------------------- actions */

static handler_result act_quit(app *a)
{
    (void)a;
    return H_QUIT;
}

static handler_result act_help(app *a)
{
    a->help = !a->help;
    a->help_top = 0;
    return H_REDRAW;
}

static handler_result act_resize(app *a)
{
    (void)a;
    view_free(); /* every window is rebuilt at the new size */
    clearok(curscr, TRUE);
    return H_REDRAW;
}

static void list_clamp(app *a)
{
    int rows = LINES - 4;
    if (rows < 1)
        rows = 1;
    if (a->list_sel >= a->nlessons)
        a->list_sel = a->nlessons - 1;
    if (a->list_sel < 0)
        a->list_sel = 0;
    if (a->list_top > a->list_sel)
        a->list_top = a->list_sel;
    if (a->list_sel >= a->list_top + rows)
        a->list_top = a->list_sel - rows + 1;
}

static handler_result act_list_up(app *a)
{
    a->list_sel--;
    list_clamp(a);
    return H_REDRAW;
}

static handler_result act_list_down(app *a)
{
    a->list_sel++;
    list_clamp(a);
    return H_REDRAW;
}

static handler_result act_open(app *a)
{
    if (a->nlessons == 0)
        return H_HANDLED;
    if (a->lessons[a->list_sel].broken) { /* its error is under the list */
        set_flash(a,
                  "this lesson does not load: its lesson.json has an error (shown below the list)");
        return H_REDRAW;
    }
    lesson_open(a, &a->lessons[a->list_sel], true);
    return H_REDRAW;
}

static handler_result act_back(app *a)
{
    if (a->opts.demo)
        return H_QUIT;
    if (a->lesson) {
        for (int i = 0; i < a->nlessons; i++)
            if (a->lesson == &a->lessons[i])
                a->list_sel = i;
    }
    lesson_close(a);
    list_clamp(a);
    return H_REDRAW;
}

static handler_result act_next(app *a)
{
    if (a->step + 1 >= app_nsteps(a)) {
        /* the last step leads on to the next lesson that loads (not in a demo) */
        int cur = -1;
        for (int i = 0; i < a->nlessons; i++)
            if (a->lesson == &a->lessons[i])
                cur = i;
        int next = cur + 1;
        while (next > 0 && next < a->nlessons && a->lessons[next].broken)
            next++;
        if (!a->opts.demo && cur >= 0 && next < a->nlessons) {
            lesson_open(a, &a->lessons[next], false);
            a->list_sel = next;
            char msg[200];
            snprintf(msg, sizeof msg, "lesson %d: %.160s", a->lesson->number,
                     a->lesson->title ? a->lesson->title : "");
            set_flash(a, msg);
            return H_REDRAW;
        }
        set_flash(a, cur >= 0 && next >= a->nlessons && !a->opts.demo
                         ? "last step of the last lesson"
                         : "last step");
        a->auto_next = 0;
        return H_REDRAW;
    }
    step_enter(a, a->step + 1);
    return H_REDRAW;
}

static handler_result act_prev(app *a)
{
    if (a->step == 0) {
        set_flash(a, "first step");
        return H_REDRAW;
    }
    step_enter(a, a->step - 1);
    return H_REDRAW;
}

static handler_result act_run(app *a)
{
    a->sim_replay = false;
    return start_run(a);
}

/* f: run the next kernel of the step's file that the step's launch can run (as many
 * parameters as it has arguments), in the order of the file; the step's own kernel comes
 * round again. The kernels are read from the PTX of the last run. */
static handler_result act_kernel_next(app *a)
{
    if (app_on_exercise(a) || !a->have_spec) {
        set_flash(a, app_on_exercise(a) ? "the exercise runs its own kernel"
                                        : "this step runs no kernel");
        return H_REDRAW;
    }
    if (app_busy(a))
        return H_HANDLED;
    if (!a->have_run || !a->run.ptx || !*a->run.ptx) {
        set_flash(a, "press r first: f then runs the file's other kernels");
        return H_REDRAW;
    }
    char **names;
    int *np;
    const int n = gl_ptx_kernels(a->run.ptx, &names, &np);
    if (n <= 0) {
        set_flash(a, "no kernel found in the last run's PTX");
        return H_REDRAW;
    }
    int cur = -1, pick = -1, fits = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], a->spec.kernel) == 0)
            cur = i;
        fits += np[i] == a->spec.nargs;
    }
    for (int k = 1; k <= n && pick < 0; k++) {
        const int j = (cur + k) % n;
        if (j != cur && np[j] == a->spec.nargs)
            pick = j;
    }
    char msg[sizeof a->flash]; /* as long as the flash it lands in */
    if (pick < 0) {
        snprintf(msg, sizeof msg,
                 "%s has no other kernel with %d parameters (this step's launch passes %d)",
                 base_name(a->spec.source), a->spec.nargs, a->spec.nargs);
        set_flash(a, msg);
        gl_ptx_kernels_free(names, np, n);
        return H_REDRAW;
    }
    char *k = strdup(names[pick]);
    if (!k) {
        gl_ptx_kernels_free(names, np, n);
        return H_REDRAW;
    }
    int ord = 0;
    for (int i = 0; i <= pick; i++)
        ord += np[i] == a->spec.nargs;
    snprintf(msg, sizeof msg, "kernel %d of %d in %s: %s (f: the next)", ord, fits,
             base_name(a->spec.source), k);
    gl_ptx_kernels_free(names, np, n);
    free(a->spec.kernel);
    a->spec.kernel = k;
    a->other_kernel = true;
    scroll_to_kernel(a);
    a->sim_replay = false;
    handler_result r = start_run(a);
    set_flash(a, msg);
    return r;
}

static handler_result act_grade(app *a)
{
    if (!a->lesson->exercise) {
        set_flash(a, "this lesson has no exercise");
        return H_REDRAW;
    }
    if (!app_on_exercise(a))
        step_enter(a, a->lesson->nsteps);
    return start_grade(a);
}

static handler_result act_hint(app *a)
{
    if (!app_on_exercise(a)) {
        set_flash(a, a->lesson->exercise ? "hints are on the exercise (the last step)"
                                         : "no hints in this lesson");
        return H_REDRAW;
    }
    if (a->hints_shown < a->lesson->exercise->nhints)
        a->hints_shown++;
    else
        set_flash(a, "no more hints");
    a->text_top = 1 << 20; /* scroll to the hint just shown (clamped when drawn) */
    return H_REDRAW;
}

/* The learner's editor: $VISUAL, else $EDITOR. false when neither is set (or both are
 * empty): `e` then opens the built-in editor (editor.h), never a surprise vi. */
static bool find_editor(char *buf, size_t len)
{
    const char *vars[] = {"VISUAL", "EDITOR"};
    for (int i = 0; i < 2; i++) {
        const char *e = getenv(vars[i]);
        if (e && *e) {
            snprintf(buf, len, "%s", e);
            return true;
        }
    }
    return false;
}

/* Runs `editor file` with the terminal handed over; returns the wait status or -1. As
 * git does, the editor string may hold arguments ("code -w"): it is run by sh with the
 * file as "$1". */
static int run_editor(const char *editor, const char *file)
{
    char cmd[1200], sh[] = "/bin/sh", c[] = "-c", name[] = "sh", path[PATH_MAX];
    snprintf(cmd, sizeof cmd, "%s \"$1\"", editor);
    snprintf(path, sizeof path, "%s", file);
    char *const argv[] = {sh, c, cmd, name, path, NULL};
    /* it needs the terminal: it stays in gpulearn's (foreground) process group, and a
     * Ctrl-C reaches it with its default action (runtime/child resets the handlers) */
    const gl_child_opts o = {.flags = GL_CHILD_SHARE_GROUP};
    gl_child ch;
    gl_child_exit ex = {.status = -1};
    term_suspend();
    if (gl_child_exec(&ch, &o, argv) == 0)
        gl_child_wait(&ch, GL_CHILD_FOREVER, &ex);
    term_resume();
    term_take_interrupt(); /* a Ctrl-C meant for the editor does not quit gpulearn */
    return ex.status;
}

static handler_result act_edit(app *a)
{
    if (!a->lesson->exercise) {
        set_flash(a, "this lesson has no exercise to edit");
        return H_REDRAW;
    }
    if (a->opts.demo)
        return H_IGNORED;
    if (!app_on_exercise(a))
        step_enter(a, a->lesson->nsteps);
    if (!a->ex_path[0]) {
        set_flash(a, "no copy of the exercise to edit (see the text)");
        return H_REDRAW;
    }
    char editor[512];
    bool builtin = !find_editor(editor, sizeof editor);
    view_free();
    /* the text before the edit (its lines are NUL-separated in src.text) */
    size_t before_len = a->src.text && a->src.nlines > 0
                            ? (size_t)(a->src.lines[a->src.nlines - 1] - a->src.text) +
                                  strlen(a->src.lines[a->src.nlines - 1]) + 1
                            : 0;
    char *before = before_len ? malloc(before_len) : NULL;
    if (before)
        memcpy(before, a->src.text, before_len);
    int status = -1;
    if (builtin) {
        char emsg[sizeof a->flash];
        editor_result er = editor_run(a->ex_path, emsg, sizeof emsg);
        if (er != EDITOR_SAVED) { /* the file is as it was: keep the results, no re-run */
            free(before);
            char msg[sizeof a->flash];
            if (er == EDITOR_FAILED)
                snprintf(msg, sizeof msg, "cannot edit: %.200s", emsg);
            else
                snprintf(msg, sizeof msg, "not saved: nothing changed");
            set_flash(a, msg);
            return H_REDRAW;
        }
        status = 0; /* saved: re-run, as after an editor that exited 0 */
    } else {
        status = run_editor(editor, a->ex_path);
    }
    source_load(&a->src, a->ex_path);
    a->show_reference = false;
    results_clear(a);
    /* show the first line that changed */
    if (before && a->src.text) {
        int line = 0;
        const char *p = before;
        while (line < a->src.nlines && p < before + before_len &&
               strcmp(p, a->src.lines[line]) == 0) {
            p += strlen(p) + 1;
            line++;
        }
        if (line < a->src.nlines)
            scroll_source_to(a, line + 1);
    }
    free(before);
    char msg[256];
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 127 ||
        WEXITSTATUS(status) == 126) {
        snprintf(msg, sizeof msg, "could not start the editor '%.200s' (set $EDITOR)", editor);
        set_flash(a, msg);
        return H_REDRAW;
    }
    if (WEXITSTATUS(status) != 0) {
        snprintf(msg, sizeof msg, "the editor exited with status %d: not re-running",
                 WEXITSTATUS(status));
        set_flash(a, msg);
        return H_REDRAW;
    }
    return start_run(a);
}

static handler_result act_reset(app *a)
{
    if (!a->lesson->exercise || a->opts.demo) {
        set_flash(a, "this lesson has no exercise");
        return H_REDRAW;
    }
    if (!app_on_exercise(a))
        step_enter(a, a->lesson->nsteps);
    a->confirm = CONFIRM_RESET;
    return H_REDRAW;
}

static handler_result confirm_answer(app *a, int ch)
{
    app_confirm c = a->confirm;
    a->confirm = CONFIRM_NONE;
    if (ch != 'y' && ch != 'Y') {
        set_flash(a, "kept your version");
        return H_REDRAW;
    }
    if (c == CONFIRM_RESET) {
        gl_error err = {0};
        char bak[PATH_MAX + 16];
        if (workspace_reset(a->lesson, bak, sizeof bak, &err) != GL_OK) {
            char msg[256];
            snprintf(msg, sizeof msg, "could not restore: %.200s", err.msg);
            set_flash(a, msg);
            return H_REDRAW;
        }
        int step = a->step;
        step_enter(a, step);
        char msg[256];
        if (bak[0])
            snprintf(msg, sizeof msg, "restored the starter (your version is in %.180s)",
                     base_name(bak));
        else
            snprintf(msg, sizeof msg, "your copy is already the starter");
        set_flash(a, msg);
    }
    return H_REDRAW;
}

/* z / Z: the next / previous graded size for r on the exercise. */
static handler_result exercise_size(app *a, int d)
{
    if (!app_on_exercise(a) || !a->lesson->exercise->launch) {
        set_flash(a, a->lesson->exercise
                         ? "z picks the size the exercise runs at: on the exercise (the last step)"
                         : "this lesson has no exercise");
        return H_REDRAW;
    }
    if (app_busy(a)) {
        set_flash(a, "busy: the size changes once the run ends (Ctrl-C, Esc or c cancels it)");
        return H_REDRAW;
    }
    if (a->ex_nsizes == 0)
        return H_HANDLED;
    int64_t cur = app_exercise_n(a);
    int i = 0;
    while (i < a->ex_nsizes && a->ex_sizes[i] != cur)
        i++;
    if (i == a->ex_nsizes)
        i = d > 0 ? -1 : 0;
    i = (i + d + a->ex_nsizes) % a->ex_nsizes;
    a->ex_pick = a->ex_sizes[i];
    exercise_reenter(a);
    char msg[200], def[64] = "not measured yet";
    if (a->ex_default > 0)
        snprintf(def, sizeof def, "%lld", (long long)a->ex_default);
    snprintf(msg, sizeof msg, "n = %lld (graded size %d of %d; the default is %s): r runs it",
             (long long)a->ex_pick, i + 1, a->ex_nsizes, def);
    set_flash(a, msg);
    return H_REDRAW;
}
static handler_result act_size_next(app *a)
{
    return exercise_size(a, 1);
}
static handler_result act_size_prev(app *a)
{
    return exercise_size(a, -1);
}

/* [ / ]: scrolls the exercise's comparison (buffers view) a page. */
static handler_result cmp_scroll(app *a, int d)
{
    if (a->view == VIEW_TREE) { /* sideways through shared memory: a page, or the cursor */
        const int n = a->metrics.tree_elems,
                  page = a->metrics.tree_cols > 0 ? a->metrics.tree_cols : 1;
        if (n <= 0)
            return H_REDRAW;
        int c = a->tree_col + d * page;
        if (c > n - (a->tree_zoom ? 1 : page))
            c = n - (a->tree_zoom ? 1 : page);
        a->tree_col = c < 0 ? 0 : c;
        return H_REDRAW;
    }
    if (!app_on_exercise(a) || a->view != VIEW_BUFFERS || !a->cmp.done) {
        set_flash(a, "[ ] scroll the exercise's output against the reference (view 7, after r)");
        return H_REDRAW;
    }
    int page = a->metrics.cmp_rows > 1 ? a->metrics.cmp_rows - 1 : 1;
    a->cmp_top = clamp_top(a->cmp_top + d * page, a->metrics.cmp_lines, a->metrics.cmp_rows);
    return H_REDRAW;
}
/* o on a passed exercise: the source pane shows the lesson's reference solution, or
 * the learner's copy again. */
static handler_result act_reference(app *a)
{
    if (!app_on_exercise(a) || !a->lesson->exercise->reference) {
        set_flash(a, "o shows the exercise's reference solution, once you passed it");
        return H_REDRAW;
    }
    const gl_lesson_progress *p = app_progress(a, a->lesson);
    if (!a->show_reference && !(p && p->passed)) {
        set_flash(
            a, "pass the exercise first (g grades your copy): then o shows the reference solution");
        return H_REDRAW;
    }
    a->show_reference = !a->show_reference;
    source_load(&a->src, a->show_reference ? a->lesson->exercise->reference : exercise_source(a));
    scroll_to_kernel(a);
    set_flash(a, a->show_reference ? "the reference solution (o: back to your copy)" : "your copy");
    return H_REDRAW;
}

static handler_result act_tree_zoom(app *a)
{
    if (a->view != VIEW_TREE) {
        set_flash(a, "x zooms the tree view (8) out to all of shared memory");
        return H_REDRAW;
    }
    a->tree_zoom = !a->tree_zoom;
    return H_REDRAW;
}
static handler_result act_cmp_up(app *a)
{
    return cmp_scroll(a, -1);
}
static handler_result act_cmp_down(app *a)
{
    return cmp_scroll(a, 1);
}

static handler_result act_map(app *a, int d)
{
    if (a->nmodes == 0) {
        set_flash(a, "no thread map on this step");
        return H_REDRAW;
    }
    a->mode = (a->mode + d + a->nmodes) % a->nmodes;
    return H_REDRAW;
}

static handler_result act_warps(app *a)
{
    if (!a->have_spec) {
        set_flash(a, "no kernel launch on this step");
        return H_REDRAW;
    }
    a->view = a->view == VIEW_WARPS ? VIEW_MAP : VIEW_WARPS;
    if (a->view == VIEW_WARPS && !a->have_run)
        set_flash(a, "r runs the kernel: the timeline shows what each warp issued");
    return H_REDRAW;
}

/* ------------------------------------------------------ views and time travel */

static handler_result set_view(app *a, app_view v)
{
    if (!a->have_spec) {
        set_flash(a, "no kernel launch on this step");
        return H_REDRAW;
    }
    const tui_view *tv = view_of(v);
    a->view = v;
    if (tv->space)
        a->tpos = tv_initial_pos(a);
    char msg[160];
    if (!a->have_run && (tv->flags & VIEW_F_RUN))
        snprintf(msg, sizeof msg, "%s view: r runs the kernel and records what it did", tv->name);
    else
        snprintf(msg, sizeof msg, "%s view", tv->name);
    set_flash(a, msg);
    return H_REDRAW;
}

static handler_result act_view_next(app *a)
{
    return set_view(a, view_next(a->view));
}

static handler_result time_move(app *a, tv_unit unit, int dir)
{
    const trace_t *t = a->have_run ? a->run.trace : NULL;
    if (!t) {
        set_flash(a, a->have_run ? "this run has no trace to step through"
                                 : "r runs the kernel first: then step through what it did");
        return H_REDRAW;
    }
    bool moved = false;
    a->tpos = tv_step_pos(a, unit, dir, &moved);
    int line = tv_current_line(a);
    if (line > 0 && (line <= a->src_top || line > a->src_top + a->metrics.src_rows))
        scroll_source_to(a, line);
    if (!moved)
        set_flash(a, dir > 0 ? (unit == TV_BARRIER ? "no later barrier in this block"
                                                   : "the selected warp issues nothing later")
                             : (unit == TV_BARRIER ? "no earlier barrier in this block"
                                                   : "at the start of the selected warp"));
    return H_REDRAW;
}

/* The unit playback steps by: a barrier where the view is about barriers. */
static tv_unit play_unit(const app *a)
{
    return view_of(a->view)->flags & VIEW_F_BARRIER ? TV_BARRIER : TV_INSN;
}

static handler_result act_play(app *a)
{
    if (a->play_next) {
        a->play_next = 0;
        set_flash(a, "playback paused (P resumes)");
        return H_REDRAW;
    }
    const trace_t *t = a->have_run ? a->run.trace : NULL;
    if (!t || t->nevents == 0) {
        set_flash(a, a->have_run ? "this run has no trace to play"
                                 : "r runs the kernel first: then P plays what it did");
        return H_REDRAW;
    }
    bool moved = false;
    tv_step_pos(a, play_unit(a), 1, &moved);
    if (!moved)
        a->tpos = 0; /* at the end: play from the start */
    if (a->play_interval <= 0)
        a->play_interval = play_unit(a) == TV_BARRIER ? 1.0 : 0.4;
    a->play_next = job_now() + a->play_interval;
    char msg[96];
    snprintf(msg, sizeof msg, "playing: one %s every %.2g s (+ / - speed, P pauses)",
             play_unit(a) == TV_BARRIER ? "barrier" : "instruction", a->play_interval);
    set_flash(a, msg);
    return H_REDRAW;
}

/* One playback step when due; stops at the end of the trace. */
static bool play_tick(app *a)
{
    if (!a->play_next || job_now() < a->play_next || app_busy(a))
        return false;
    if (!a->have_run || !a->run.trace) {
        a->play_next = 0;
        return false;
    }
    bool moved = false;
    size_t pos = tv_step_pos(a, play_unit(a), 1, &moved);
    if (!moved) {
        a->play_next = 0;
        set_flash(a, "playback: end of the launch");
        return true;
    }
    a->tpos = pos;
    int line = tv_current_line(a);
    if (line > 0 && (line <= a->src_top || line > a->src_top + a->metrics.src_rows))
        scroll_source_to(a, line);
    a->play_next = job_now() + a->play_interval;
    return true;
}

static handler_result play_speed(app *a, double f)
{
    if (a->play_interval <= 0)
        a->play_interval = play_unit(a) == TV_BARRIER ? 1.0 : 0.4;
    a->play_interval *= f;
    if (a->play_interval < 0.05)
        a->play_interval = 0.05;
    if (a->play_interval > 10)
        a->play_interval = 10;
    if (a->play_next)
        a->play_next = job_now() + a->play_interval;
    char msg[96];
    snprintf(msg, sizeof msg, "playback: one step every %.2g s%s", a->play_interval,
             a->play_next ? "" : " (P plays)");
    set_flash(a, msg);
    return H_REDRAW;
}
static handler_result act_play_faster(app *a)
{
    return play_speed(a, 1 / 1.5);
}
static handler_result act_play_slower(app *a)
{
    return play_speed(a, 1.5);
}

static handler_result act_step_fwd(app *a)
{
    return time_move(a, TV_INSN, 1);
}
static handler_result act_step_back(app *a)
{
    return time_move(a, TV_INSN, -1);
}
static handler_result act_bar_fwd(app *a)
{
    return time_move(a, TV_BARRIER, 1);
}
static handler_result act_bar_back(app *a)
{
    return time_move(a, TV_BARRIER, -1);
}

static handler_result act_time_start(app *a)
{
    if (!a->have_run || !a->run.trace)
        return time_move(a, TV_INSN, -1);
    a->tpos = 0;
    set_flash(a, "start of the launch");
    return H_REDRAW;
}

static handler_result act_time_end(app *a)
{
    if (!a->have_run || !a->run.trace)
        return time_move(a, TV_INSN, 1);
    a->tpos = a->run.trace->nevents;
    set_flash(a, "end of the launch");
    return H_REDRAW;
}

static handler_result act_map_next(app *a)
{
    return act_map(a, 1);
}
static handler_result act_map_prev(app *a)
{
    return act_map(a, -1);
}

static int clamp_top(int top, int lines, int rows)
{
    if (top > lines - rows)
        top = lines - rows;
    return top < 0 ? 0 : top;
}

static handler_result act_src_up(app *a)
{
    a->src_top = clamp_top(a->src_top - 1, a->src.nlines, a->metrics.src_rows);
    return H_REDRAW;
}

static handler_result act_src_down(app *a)
{
    a->src_top = clamp_top(a->src_top + 1, a->src.nlines, a->metrics.src_rows);
    return H_REDRAW;
}

static handler_result act_text_up(app *a)
{
    int top = clamp_top(a->text_top, a->metrics.text_lines, a->metrics.text_rows);
    a->text_top = clamp_top(top - (a->metrics.text_rows > 2 ? a->metrics.text_rows - 1 : 1),
                            a->metrics.text_lines, a->metrics.text_rows);
    return H_REDRAW;
}

static handler_result act_text_down(app *a)
{
    a->text_top = clamp_top(a->text_top + (a->metrics.text_rows > 2 ? a->metrics.text_rows - 1 : 1),
                            a->metrics.text_lines, a->metrics.text_rows);
    return H_REDRAW;
}

static handler_result act_res_up(app *a)
{
    a->res_top = clamp_top(a->res_top - 1, a->metrics.res_lines, a->metrics.res_rows);
    return H_REDRAW;
}

static handler_result act_res_down(app *a)
{
    a->res_top = clamp_top(a->res_top + 1, a->metrics.res_lines, a->metrics.res_rows);
    return H_REDRAW;
}

/* --------------------------------------------------- thread selection */

/* Moves the selection by dt threads (linear id, crossing into neighbouring blocks) or
 * db blocks. */
static void select_move(app *a, long long dt, long long db)
{
    const gl_spec *s = &a->spec;
    long long T = (long long)s->block[0] * s->block[1] * s->block[2];
    long long B = (long long)s->grid[0] * s->grid[1] * s->grid[2];
    long long lb = a->sel_block[0] + (long long)a->sel_block[1] * s->grid[0] +
                   (long long)a->sel_block[2] * s->grid[0] * s->grid[1];
    long long lt = a->sel_thread[0] + (long long)a->sel_thread[1] * s->block[0] +
                   (long long)a->sel_thread[2] * s->block[0] * s->block[1];
    long long g = lb * T + lt + dt + db * T;
    if (g < 0)
        g = 0;
    if (g >= B * T)
        g = B * T - 1;
    lb = g / T, lt = g % T;
    a->sel_block[0] = (unsigned)(lb % s->grid[0]);
    a->sel_block[1] = (unsigned)((lb / s->grid[0]) % s->grid[1]);
    a->sel_block[2] = (unsigned)(lb / ((long long)s->grid[0] * s->grid[1]));
    a->sel_thread[0] = (unsigned)(lt % s->block[0]);
    a->sel_thread[1] = (unsigned)((lt / s->block[0]) % s->block[1]);
    a->sel_thread[2] = (unsigned)(lt / ((long long)s->block[0] * s->block[1]));
    a->sel_on = true;
}

static handler_result warp_move(app *a, int d)
{
    if (!a->have_spec)
        return H_IGNORED;
    if (!a->sel_on)
        select_move(a, 0, 0);
    select_move(a, 32LL * d, 0);
    if (view_of(a->view)->space)
        a->tpos = tv_initial_pos(a);
    return H_REDRAW;
}

static handler_result act_warp_prev(app *a)
{
    return warp_move(a, -1);
}
static handler_result act_warp_next(app *a)
{
    return warp_move(a, 1);
}

/* The previous / next thread (the registers view follows it). */
static handler_result thread_move(app *a, int d)
{
    if (!a->have_spec)
        return H_IGNORED;
    if (!a->sel_on)
        select_move(a, 0, 0);
    select_move(a, d, 0);
    return H_REDRAW;
}
static handler_result act_thread_prev(app *a)
{
    return thread_move(a, -1);
}
static handler_result act_thread_next(app *a)
{
    return thread_move(a, 1);
}

static handler_result act_map_focus(app *a)
{
    if (!a->have_spec) {
        set_flash(a, "no thread map on this step");
        return H_REDRAW;
    }
    a->map_focus = !a->map_focus;
    if (a->map_focus && !a->sel_on)
        select_move(a, 0, 0);
    set_flash(a, a->map_focus ? "map: arrows pick a thread, [ ] change block, m or Esc leaves"
                              : "source: arrows scroll");
    return H_REDRAW;
}

/* A row in the map: 32 threads (1D blocks) or blockDim.x (2D/3D blocks). */
static long long map_row(const app *a)
{
    bool block1d = a->spec.block[1] == 1 && a->spec.block[2] == 1;
    return block1d ? (a->spec.block[0] < 32 ? a->spec.block[0] : 32) : a->spec.block[0];
}

/* Moves the selection of a 2D or 3D block as the map draws it: dx threads across
 * (blockIdx.x * blockDim.x + threadIdx.x), dy rows down (threadIdx.y, then threadIdx.z
 * within a block; then blockIdx.y, then blockIdx.z), into the neighbouring block at an
 * edge and stopping at the grid's. 1D blocks move by linear id (a row is a warp). */
static void select_move_xy(app *a, long long dx, long long dy)
{
    const gl_spec *s = &a->spec;
    if (s->block[1] == 1 && s->block[2] == 1) {
        select_move(a, dx + dy * map_row(a), 0);
        return;
    }
    long long bx = s->block[0], rows = (long long)s->block[1] * s->block[2];
    long long X = (long long)a->sel_block[0] * bx + a->sel_thread[0] + dx;
    long long R = ((long long)a->sel_block[2] * s->grid[1] + a->sel_block[1]) * rows +
                  (long long)a->sel_thread[2] * s->block[1] + a->sel_thread[1] + dy;
    long long W = (long long)s->grid[0] * bx, H = (long long)s->grid[1] * s->grid[2] * rows;
    X = X < 0 ? 0 : X >= W ? W - 1 : X;
    R = R < 0 ? 0 : R >= H ? H - 1 : R;
    long long brow = R / rows, trow = R % rows;
    a->sel_block[0] = (unsigned)(X / bx), a->sel_thread[0] = (unsigned)(X % bx);
    a->sel_block[1] = (unsigned)(brow % s->grid[1]),
    a->sel_block[2] = (unsigned)(brow / s->grid[1]);
    a->sel_thread[1] = (unsigned)(trow % s->block[1]),
    a->sel_thread[2] = (unsigned)(trow / s->block[1]);
    a->sel_on = true;
}

static handler_result act_sel_left(app *a)
{
    select_move_xy(a, -1, 0);
    return H_REDRAW;
}
static handler_result act_sel_right(app *a)
{
    select_move_xy(a, 1, 0);
    return H_REDRAW;
}
static handler_result act_sel_up(app *a)
{
    select_move_xy(a, 0, -1);
    return H_REDRAW;
}
static handler_result act_sel_down(app *a)
{
    select_move_xy(a, 0, 1);
    return H_REDRAW;
}
static handler_result act_sel_pblock(app *a)
{
    select_move(a, 0, -1);
    return H_REDRAW;
}
static handler_result act_sel_nblock(app *a)
{
    select_move(a, 0, 1);
    return H_REDRAW;
}

static handler_result act_map_leave(app *a)
{
    a->map_focus = false;
    return H_REDRAW;
}

/* ------------------------------------------------------------ demo */

/* Space in demo mode: run the step's kernel if it has one that has not run yet, else
 * go to the next step. */
static handler_result act_demo_advance(app *a)
{
    if (app_busy(a))
        return H_HANDLED;
    if (a->have_spec && !a->have_run && !app_on_exercise(a))
        return start_run(a);
    return act_next(a);
}

static handler_result act_demo_auto(app *a)
{
    if (a->opts.auto_seconds <= 0)
        a->opts.auto_seconds = 8;
    a->auto_paused = !a->auto_paused && a->auto_next != 0;
    a->auto_next = a->auto_paused ? 0 : job_now() + a->opts.auto_seconds;
    char msg[96];
    snprintf(msg, sizeof msg,
             a->auto_paused ? "auto-advance paused (a resumes)" : "auto-advance every %.0f s",
             a->opts.auto_seconds);
    set_flash(a, msg);
    return H_REDRAW;
}

static handler_result demo_speed(app *a, double f)
{
    if (a->opts.auto_seconds <= 0)
        a->opts.auto_seconds = 8;
    a->opts.auto_seconds *= f;
    if (a->opts.auto_seconds < 1)
        a->opts.auto_seconds = 1;
    if (a->opts.auto_seconds > 120)
        a->opts.auto_seconds = 120;
    if (a->auto_next)
        a->auto_next = job_now() + a->opts.auto_seconds;
    char msg[96];
    snprintf(msg, sizeof msg, "auto-advance every %.0f s%s", a->opts.auto_seconds,
             a->auto_next ? "" : " (a starts it)");
    set_flash(a, msg);
    return H_REDRAW;
}

/* + / - in demo mode: the playback's speed while a trace plays, else auto-advance's. */
static handler_result act_demo_faster(app *a)
{
    return a->play_next ? act_play_faster(a) : demo_speed(a, 1 / 1.5);
}
static handler_result act_demo_slower(app *a)
{
    return a->play_next ? act_play_slower(a) : demo_speed(a, 1.5);
}

/* ------------------------------------------------------------- key table */

/* Where a binding applies: the lesson list, a lesson page, the map when it has the
 * focus (checked before ON_LESSON), demo mode (checked instead of ON_LESSON), and
 * while a run is under way. */
enum {
    ON_LIST = 1,
    ON_LESSON = 2,
    ON_MAP = 4,
    ON_DEMO = 8,
    ON_BUSY = 16,
    ON_ALL = ON_LIST | ON_LESSON | ON_DEMO
};
enum { KEY_ESC = 27, KEY_DEL = 127, KEY_CTRL_H = 8, MAX_KEYS = 4 };
/* A binding's keys: the view table's number keys (view.h); its help lines come from
 * there too. */
enum { KEY_VIEWS = -2 };

/* One binding: where it applies, its keys (0-terminated), how the help names them
 * (NULL: not listed) and what it does (NULL: KEY_VIEWS, set_view). */
typedef struct key_binding {
    int where;
    int keys[MAX_KEYS];
    const char *names;
    const char *help;
    handler_result (*fn)(app *a);
} key_binding;

static const key_binding k_keys[] = {
    {ON_BUSY,
     {KEY_ESC, 'c', 3},
     "Ctrl-C / Esc / c",
     "cancel the run or grading under way",
     act_cancel},
    {ON_LIST, {KEY_UP, 'k'}, "Up / k", "previous lesson", act_list_up},
    {ON_LIST, {KEY_DOWN, 'j'}, "Down / j", "next lesson", act_list_down},
    {ON_LIST, {'\n', '\r', KEY_ENTER}, "Enter / click", "open the lesson", act_open},
    {ON_MAP, {KEY_LEFT, 'h'}, "Left / Right", "map: previous / next thread", act_sel_left},
    {ON_MAP, {KEY_RIGHT, 'l'}, NULL, NULL, act_sel_right},
    {ON_MAP, {KEY_UP, 'k'}, "Up / Down", "map: the thread a row above / below", act_sel_up},
    {ON_MAP, {KEY_DOWN, 'j'}, NULL, NULL, act_sel_down},
    {ON_MAP, {'[', KEY_PPAGE}, "[ / ]", "map: same thread, previous / next block", act_sel_pblock},
    {ON_MAP, {']', KEY_NPAGE}, NULL, NULL, act_sel_nblock},
    {ON_MAP, {KEY_ESC, 'm'}, "m / Esc", "map: give the arrows back to the source", act_map_leave},
    {ON_DEMO,
     {' ', '\n', '\r', KEY_RIGHT},
     "Space / Enter / Right",
     "run this step's kernel, then the next step",
     act_demo_advance},
    {ON_DEMO, {'n', KEY_NPAGE}, "n / PgDn", "next step", act_next},
    {ON_DEMO,
     {'p', KEY_LEFT, KEY_PPAGE, KEY_BACKSPACE},
     "p / Left / PgUp",
     "previous step",
     act_prev},
    {ON_DEMO, {'a'}, "a", "start or pause auto-advance", act_demo_auto},
    {ON_DEMO,
     {'+', '='},
     "+ / -",
     "playback (while P plays) or auto-advance faster / slower",
     act_demo_faster},
    {ON_DEMO, {'-', '_'}, NULL, NULL, act_demo_slower},
    {ON_LESSON,
     {'n', KEY_RIGHT},
     "n / Right",
     "next step (at the last step: the next lesson)",
     act_next},
    {ON_LESSON, {'p', KEY_LEFT}, "p / Left", "previous step", act_prev},
    {ON_LESSON | ON_DEMO, {'r'}, "r", "run this step's kernel (Ctrl-C cancels)", act_run},
    {ON_LESSON | ON_DEMO,
     {'f'},
     "f",
     "run the next kernel of this step's file (same launch)",
     act_kernel_next},
    {ON_LESSON, {'e'}, "e", "edit your copy of the exercise, then re-run it", act_edit},
    {ON_LESSON, {'g'}, "g", "grade your copy of the exercise", act_grade},
    {ON_LESSON, {'R'}, "R", "restore the exercise's starter (asks first)", act_reset},
    {ON_LESSON, {'h'}, "h", "reveal the next hint (exercise)", act_hint},
    {ON_LESSON, {'z'}, "z / Z", "exercise: the next / previous graded size n for r", act_size_next},
    {ON_LESSON, {'Z'}, NULL, NULL, act_size_prev},
    {ON_LESSON | ON_DEMO, {'\t'}, "Tab", "change what the thread map's colours show", act_map_next},
    {ON_LESSON | ON_DEMO, {KEY_BTAB}, "Shift-Tab", "previous map colouring", act_map_prev},
    {ON_LESSON | ON_DEMO,
     {'m'},
     "m / click",
     "select a thread in the map (its index and values)",
     act_map_focus},
    {ON_LESSON | ON_DEMO,
     {'w'},
     "w",
     "warp timeline (what each warp issued) / thread map",
     act_warps},
    {ON_LESSON | ON_DEMO, {KEY_VIEWS}, NULL, NULL, NULL}, /* the view table's keys: set_view */
    {ON_LESSON | ON_DEMO,
     {'N'},
     "N",
     "registers view: source variable names (runs the debug build, -G) / off",
     act_names},
    {ON_LESSON | ON_DEMO, {'v'}, "v", "next view", act_view_next},
    {ON_LESSON | ON_DEMO,
     {'.'},
     ". / ,",
     "step the selected warp forward / back (the views' last line: "
     "t = warp instructions issued so far, ev = trace event n of all)",
     act_step_fwd},
    {ON_LESSON | ON_DEMO, {','}, NULL, NULL, act_step_back},
    {ON_LESSON | ON_DEMO,
     {'P'},
     "P",
     "play / pause the trace (the tree and barrier views by barrier)",
     act_play},
    {ON_LESSON, {'+', '='}, "+ / -", "playback faster / slower", act_play_faster},
    {ON_LESSON, {'-', '_'}, NULL, NULL, act_play_slower},
    {ON_LESSON | ON_DEMO, {'>'}, "> / <", "next / previous barrier of the block", act_bar_fwd},
    {ON_LESSON | ON_DEMO, {'<'}, NULL, NULL, act_bar_back},
    {ON_LESSON | ON_DEMO,
     {KEY_HOME, '^'},
     "Home / End",
     "jump to the launch's start / run to its end",
     act_time_start},
    {ON_LESSON | ON_DEMO, {KEY_END, '$'}, NULL, NULL, act_time_end},
    {ON_LESSON | ON_DEMO, {'('}, "( / )", "select the previous / next warp", act_warp_prev},
    {ON_LESSON | ON_DEMO, {')'}, NULL, NULL, act_warp_next},
    {ON_LESSON | ON_DEMO,
     {'{'},
     "{ / }",
     "select the previous / next thread (lane)",
     act_thread_prev},
    {ON_LESSON | ON_DEMO, {'}'}, NULL, NULL, act_thread_next},
    {ON_LESSON | ON_DEMO,
     {'S'},
     "S",
     "replay a GPU run on the simulator (faults, warps, registers)",
     act_rerun_sim},
    {ON_LESSON, {KEY_UP, 'k'}, "Up / k", "scroll the kernel source up", act_src_up},
    {ON_LESSON, {KEY_DOWN, 'j'}, "Down / j", "scroll the kernel source down", act_src_down},
    {ON_LESSON, {KEY_PPAGE}, "PgUp", "scroll the text up", act_text_up},
    {ON_LESSON, {KEY_NPAGE, ' '}, "PgDn / Space", "scroll the text down", act_text_down},
    {ON_LESSON,
     {'['},
     "[ / ]",
     "sideways: the tree view (8); your output against the reference (7)",
     act_cmp_up},
    {ON_LESSON,
     {'o'},
     "o",
     "exercise, once passed: the reference solution / your copy",
     act_reference},
    {ON_LESSON | ON_DEMO,
     {'x'},
     "x",
     "tree view (8): all of shared memory as a strip, [ ] move its cursor / back",
     act_tree_zoom},
    {ON_LESSON, {']'}, NULL, NULL, act_cmp_down},
    {ON_LESSON, {'K'}, "K", "scroll the result up", act_res_up},
    {ON_LESSON, {'J'}, "J", "scroll the result down", act_res_down},
    {ON_LESSON,
     {KEY_ESC, KEY_BACKSPACE, KEY_DEL, KEY_CTRL_H},
     "Esc / Backspace",
     "back to the lesson list",
     act_back},
    {ON_ALL, {'?'}, "?", "show or hide this help", act_help},
    {ON_ALL, {'q', 'Q'}, "q", "quit", act_quit},
    {ON_ALL, {KEY_RESIZE}, NULL, NULL, act_resize},
};
enum { NKEYS = sizeof k_keys / sizeof k_keys[0] };

/* The contexts that apply now, in the order they are searched. */
static int where_now(const app *a)
{
    if (a->screen != SCREEN_LESSON)
        return ON_LIST;
    int w = a->opts.demo ? ON_DEMO : ON_LESSON;
    if (a->map_focus)
        w |= ON_MAP;
    if (app_busy(a))
        w |= ON_BUSY;
    return w;
}

int app_help_lines(const app *a, app_help_line *out, int max)
{
    /* the page's keys first, then the map's, then those of a run under way */
    static const int order[] = {ON_LIST, ON_DEMO, ON_LESSON, ON_MAP, ON_BUSY};
    int n = 0, w = where_now(a) | ON_BUSY | (a->screen == SCREEN_LESSON ? ON_MAP : 0), seen = 0;
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
        int ctx = order[o] & w;
        if (!ctx)
            continue;
        for (int i = 0; i < NKEYS && n < max; i++)
            if (!(k_keys[i].where & ctx) || (k_keys[i].where & seen))
                continue;
            else if (k_keys[i].keys[0] == KEY_VIEWS)
                n += view_help_lines(out + n, max - n);
            else if (k_keys[i].names)
                out[n++] = (app_help_line){k_keys[i].names, k_keys[i].help};
        seen |= ctx;
    }
    return n;
}

/* A mouse click: a lesson in the list, a step in the step bar, a thread in the map. */
static handler_result on_mouse(app *a)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return H_IGNORED;
    if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
        return H_IGNORED;
    view_hit h = view_hit_test(ev.y, ev.x);
    switch (h.kind) {
    case HIT_LESSON:
        if (h.index < 0 || h.index >= a->nlessons)
            return H_IGNORED;
        a->list_sel = h.index;
        list_clamp(a);
        return act_open(a);
    case HIT_STEP:
        if (h.index < 0 || h.index >= app_nsteps(a) || app_busy(a))
            return H_IGNORED;
        if (h.index != a->step)
            step_enter(a, h.index);
        return H_REDRAW;
    case HIT_THREAD:
        memcpy(a->sel_block, h.block, sizeof a->sel_block);
        memcpy(a->sel_thread, h.thread, sizeof a->sel_thread);
        a->sel_on = true;
        return H_REDRAW;
    case HIT_SOURCE:
    case HIT_NONE: break;
    }
    return H_IGNORED;
}

static handler_result dispatch(app *a, int ch)
{
    if (a->help && (ch == '?' || ch == KEY_ESC)) {
        a->help = false;
        return H_REDRAW;
    }
    if (a->help && (ch == KEY_DOWN || ch == KEY_UP || ch == KEY_NPAGE || ch == KEY_PPAGE ||
                    ch == 'j' || ch == 'k')) {
        int d = (ch == KEY_DOWN || ch == 'j') ? 1
                : (ch == KEY_UP || ch == 'k') ? -1
                : ch == KEY_NPAGE             ? a->metrics.help_rows
                                              : -a->metrics.help_rows;
        a->help_top = clamp_top(a->help_top + d, a->metrics.help_lines, a->metrics.help_rows);
        return H_REDRAW;
    }
    bool too_small = LINES < 16 || COLS < 60;
    if (a->opts.demo)
        too_small = LINES < 12 || COLS < 40;
    if (too_small && ch != 'q' && ch != 'Q' && ch != KEY_RESIZE &&
        !(app_busy(a) && (ch == KEY_ESC || ch == 'c')))
        return H_IGNORED;
    if (a->confirm != CONFIRM_NONE && ch != KEY_RESIZE && ch != KEY_MOUSE)
        return confirm_answer(a, ch);
    if (ch == KEY_MOUSE)
        return on_mouse(a);
    int where = where_now(a);
    handler_result r = H_IGNORED;
    /* busy first, then the map, then the page */
    static const int order[] = {ON_BUSY, ON_MAP, ON_DEMO, ON_LESSON, ON_LIST};
    for (size_t o = 0; o < sizeof order / sizeof order[0] && r == H_IGNORED; o++) {
        if (!(where & order[o]))
            continue;
        for (int i = 0; i < NKEYS && r == H_IGNORED; i++) {
            if (!(k_keys[i].where & order[o]))
                continue;
            for (int k = 0; k < MAX_KEYS && k_keys[i].keys[k]; k++)
                if (k_keys[i].keys[k] == ch ||
                    (k_keys[i].keys[k] == KEY_VIEWS && view_of_key(ch))) {
                    r = k_keys[i].fn ? k_keys[i].fn(a) : set_view(a, view_of_key(ch)->id);
                    if (r != H_IGNORED)
                        r |= H_HANDLED;
                    break;
                }
        }
    }
    if (app_busy(a) && r == H_IGNORED && ch != KEY_RESIZE) {
        set_flash(a, "busy: Ctrl-C, Esc or c cancels");
        r = H_REDRAW;
    }
    if (a->help && r != H_IGNORED && ch != '?' && ch != KEY_RESIZE) {
        a->help = false; /* any other action closes the overlay */
        r |= H_REDRAW;
    }
    return r;
}

/* ------------------------------------------------------------------ main */

static void app_free(app *a)
{
    job_cancel(&a->job);
    lesson_close(a);
    if (a->have_found)
        lesson_free(&a->found);
    if (a->lessons)
        lesson_list_free(a->lessons, a->nlessons);
    free(a->progress);
    a->progress = NULL;
}

static bool same_lesson(const gl_lesson *x, const gl_lesson *y)
{
    return x->number == y->number && x->id && y->id && strcmp(x->id, y->id) == 0;
}

/* Demo auto-advance: due now? */
static bool auto_due(app *a)
{
    if (!a->opts.demo || a->auto_next == 0 || app_busy(a) || a->help || a->play_next)
        return false;
    return job_now() >= a->auto_next;
}

int tui_run(const tui_opts *opts)
{
    static app a; /* large (error buffers); one TUI per process */
    memset(&a, 0, sizeof a);
    a.opts = *opts;
    a.job.child.fd = -1;
    gl_error err = {0};
    if (lesson_list(&a.lessons, &a.nlessons, &err) != GL_OK) {
        snprintf(a.list_error, sizeof a.list_error,
                 "cannot list the lessons in %.200s:", lesson_root());
        size_t used = strlen(a.list_error);
        msgcpy(a.list_error + used, sizeof a.list_error - used, err.msg);
        a.lessons = NULL;
        a.nlessons = 0;
    }
    gl_lesson *start = NULL;
    if (opts->lesson) {
        if (lesson_find(opts->lesson, &a.found, &err) != GL_OK) {
            fprintf(stderr, "gpulearn: %s\n", err.msg);
            app_free(&a);
            return 2;
        }
        start = &a.found;
        a.have_found = true;
        for (int i = 0; i < a.nlessons; i++)
            if (same_lesson(&a.lessons[i], &a.found)) {
                start = &a.lessons[i];
                a.list_sel = i;
                lesson_free(&a.found);
                a.have_found = false;
                break;
            }
    }
    if (start && start->broken) { /* it has no steps to open: say why, as `gpulearn list` does */
        fprintf(stderr, "gpulearn: %s\n", start->broken);
        app_free(&a);
        return 2;
    }
    if (!opts->demo)
        progress_reload(&a);
    char msg[512];
    if (!term_init(msg, sizeof msg)) {
        fprintf(stderr, "gpulearn: %s\n", msg);
        app_free(&a);
        return 2;
    }
    if (start) {
        lesson_open(&a, start, true);
    } else if (a.last_lesson[0]) { /* the list opens at the lesson seen last */
        for (int i = 0; i < a.nlessons; i++)
            if (a.lessons[i].id && strcmp(a.lessons[i].id, a.last_lesson) == 0)
                a.list_sel = i;
    }
    if (opts->demo && opts->auto_seconds > 0)
        a.auto_next = job_now() + opts->auto_seconds;
    view_draw(&a, &a.metrics);
    probe_backend(&a);
    view_draw(&a, &a.metrics);
    int sig = 0;
    for (;;) {
        /* short waits while a job runs (spinner, collecting its output) or a demo
         * auto-advances; otherwise wake up now and then to notice signals */
        const int wait_ms = a.job.kind != JOB_NONE ? 80
                            : a.play_next          ? 40
                            : a.auto_next          ? 200
                                                   : 250;
        const int jfd = job_fd(&a.job);
        if (jfd >= 0) {
            /* wait for a key or the worker's result, whichever comes first: a 6 ms run
             * shows at once, not at the next 80 ms tick (keys ncurses has buffered
             * already are read below without waiting) */
            struct pollfd p[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
                                  {.fd = jfd, .events = POLLIN}};
            poll(p, 2, wait_ms);
            wtimeout(stdscr, 0);
        } else {
            wtimeout(stdscr, wait_ms);
        }
        int ch = wgetch(stdscr);
        handler_result r = H_IGNORED;
        if (term_quit_signal()) {
            if (app_busy(&a) && term_take_interrupt()) {
                a.flash[0] = '\0';
                r = act_cancel(&a); /* Ctrl-C cancels the run instead of quitting */
            } else if (term_quit_signal() == SIGINT && job_now() - a.ctrlc_at > 3.0) {
                /* a reflex Ctrl-C with nothing to cancel: ask for a second one */
                term_take_interrupt();
                a.ctrlc_at = job_now();
                set_flash(&a, "press Ctrl-C again to quit (q quits too); your edits and progress "
                              "are saved");
                r = H_REDRAW;
            } else {
                sig = term_quit_signal();
                break;
            }
        }
        if (ch != ERR) {
            a.flash[0] = '\0';
            r |= dispatch(&a, ch);
            if (r & H_QUIT)
                break;
        }
        if (a.job.kind != JOB_NONE && job_poll(&a.job)) {
            finish_job(&a);
            r |= H_REDRAW;
        }
        if (play_tick(&a))
            r |= H_REDRAW;
        if (auto_due(&a)) {
            a.auto_next = job_now() + a.opts.auto_seconds;
            r |= act_demo_advance(&a);
        }
        if (r & (H_REDRAW | H_HANDLED) || (ch != ERR && a.flash[0]))
            view_draw(&a, &a.metrics);
        else if (app_busy(&a))
            view_busy_tick(&a);
    }
    view_free();
    term_end();
    app_free(&a);
    return (sig && sig != SIGINT) ? 128 + sig : 0;
}

/* ------------------------------------------------------------------ demo */

int tui_demo_main(int argc, char **argv)
{
    tui_opts o = {.backend = GL_BACKEND_AUTO, .demo = true};
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        if ((strcmp(s, "--auto") == 0 || strcmp(s, "--backend") == 0) && i + 1 >= argc) {
            fprintf(stderr, "gpulearn: %s needs a value\n(gpulearn --help shows the usage)\n", s);
            return 2;
        }
        if (strcmp(s, "--auto") == 0) {
            char *end;
            o.auto_seconds = strtod(argv[++i], &end);
            if (*end || !(o.auto_seconds >= 1 && o.auto_seconds <= 3600)) {
                fprintf(stderr, "gpulearn: --auto takes seconds between 1 and 3600, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else if (strcmp(s, "--backend") == 0) {
            const char *v = argv[++i];
            if (strcmp(v, "auto") == 0)
                o.backend = GL_BACKEND_AUTO;
            else if (strcmp(v, "sim") == 0)
                o.backend = GL_BACKEND_SIM;
            else if (strcmp(v, "gpu") == 0)
                o.backend = GL_BACKEND_GPU;
            else {
                fprintf(stderr, "gpulearn: --backend must be auto, sim or gpu, not '%s'\n", v);
                return 2;
            }
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "gpulearn: unknown option '%s'\n(gpulearn --help shows the usage)\n",
                    s);
            return 2;
        } else if (!o.lesson) {
            o.lesson = s;
        } else {
            fprintf(stderr, "gpulearn: too many arguments ('%s')\n", s);
            return 2;
        }
    }
    if (!o.lesson) {
        fprintf(stderr, "gpulearn: demo needs a lesson: gpulearn demo LESSON [--auto SECONDS]\n");
        return 2;
    }
    return tui_run(&o);
}
