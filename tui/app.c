/* app.c — the TUI's state, its one input loop and its one key table. Input handlers
 * return HANDLED | REDRAW | QUIT flags (htop's HandlerResult) and the loop acts on
 * them; the help overlay is generated from the same table. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/term.h"
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
    if (!a->lesson) return 0;
    return a->lesson->nsteps + (a->lesson->exercise ? 1 : 0);
}

const gl_step *app_cur_step(const app *a)
{
    if (!a->lesson || a->step < 0 || a->step >= a->lesson->nsteps) return NULL;
    return &a->lesson->steps[a->step];
}

void app_backend_label(const app *a, char *buf, size_t len)
{
    if (a->opts.backend == GL_BACKEND_SIM) snprintf(buf, len, "simulator");
    else if (!a->backend_known) snprintf(buf, len, "looking for a GPU...");
    else if (a->device_error[0]) snprintf(buf, len, "no GPU back end (see lesson 0)");
    else if (a->device.is_simulator) snprintf(buf, len, "simulator (no GPU found)");
    else snprintf(buf, len, "GPU: %s", a->device.name);
    if (a->have_run && a->run.backend == GL_BACKEND_SIM && a->backend_known && !a->device.is_simulator &&
        a->opts.backend != GL_BACKEND_SIM)
        snprintf(buf + strlen(buf), len - strlen(buf), " (last run fell back to the simulator)");
}

/* Copies a message, cut to fit dst (always NUL-terminated). */
static void msgcpy(char *dst, size_t n, const char *src)
{
    size_t len = strlen(src);
    if (len >= n) len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

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
    if (!path) return;
    gl_error err = {0};
    char *raw = gl_read_file(path, NULL, &err);
    s->path = strdup(path);
    if (!raw) {
        s->text = strdup(err.msg[0] ? err.msg : "cannot read the kernel source");
        if (!s->text) return;
        s->lines = malloc(sizeof *s->lines);
        if (s->lines) s->lines[0] = s->text, s->nlines = 1;
        return;
    }
    size_t tabs = 0, nl = 1;
    for (const char *p = raw; *p; p++) tabs += *p == '\t', nl += *p == '\n';
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
            do *o++ = ' ', col++;
            while (col % 4);
        } else if (*p == '\n') {
            *o++ = '\0', col = 0;
            if (p[1]) s->lines[s->nlines++] = o;
        } else if (*p != '\r') {
            *o++ = *p, col++;
        }
    }
    *o = '\0';
    free(raw);
}

/* Drops everything derived from the current step (spec, source, run, grade). */
static void step_clear(app *a)
{
    if (a->init_buffers) spec_buffers_free(a->init_buffers, a->spec.nargs), a->init_buffers = NULL;
    if (a->have_spec) spec_free(&a->spec);
    a->have_spec = false;
    memset(&a->spec, 0, sizeof a->spec);
    a->spec_error[0] = '\0';
    source_free(&a->src);
    if (a->have_run) gl_run_result_free(&a->run);
    a->have_run = false;
    free(a->run_chatter);
    a->run_chatter = NULL;
    a->run_error[0] = '\0';
    if (a->have_grade) grade_report_free(&a->grade);
    a->have_grade = false;
    a->grade_error[0] = '\0';
    a->nmodes = a->mode = 0;
    a->text_top = a->src_top = a->res_top = 0;
}

static void build_modes(app *a, const char *map_value)
{
    static const struct { const char *name; map_kind kind; } fixed[] = {
        {"global_index", MAP_GLOBAL_INDEX}, {"block", MAP_BLOCK}, {"thread", MAP_THREAD},
        {"warp", MAP_WARP},                 {"lane", MAP_LANE},
    };
    a->nmodes = 0;
    a->mode = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        a->modes[a->nmodes++] = (map_mode){fixed[i].kind, -1};
        if (map_value && strcmp(map_value, fixed[i].name) == 0) a->mode = a->nmodes - 1;
    }
    for (int i = 0; i < a->spec.nargs && a->nmodes < APP_MAX_MODES; i++) {
        if (!a->spec.args[i].is_ptr) continue;
        a->modes[a->nmodes++] = (map_mode){MAP_BUFFER, i};
        if (map_value && strncmp(map_value, "buffer:", 7) == 0 && strcmp(map_value + 7, a->spec.args[i].name) == 0)
            a->mode = a->nmodes - 1;
    }
}

/* Enters step i of the open lesson (nsteps = the exercise): loads its launch spec,
 * kernel source and initial buffers. Problems become messages in the panes. */
static void step_enter(app *a, int i)
{
    step_clear(a);
    a->step = i;
    gl_error err = {0};
    const char *source = NULL, *map_value = NULL;
    gl_status st = GL_OK;
    bool want_spec = false;
    if (app_on_exercise(a)) {
        const gl_exercise *ex = a->lesson->exercise;
        source = ex->starter;
        if (ex->launch) {
            want_spec = true;
            int64_t n = ex->nsizes > 0 ? ex->sizes[0] : 1000;
            st = lesson_exercise_spec(a->lesson, n, 0, ex->starter, &a->spec, &err);
        }
    } else {
        const gl_step *step = app_cur_step(a);
        source = step->kernel;
        map_value = step->map_value;
        if (step->launch) {
            want_spec = true;
            st = lesson_step_spec(a->lesson, i, &a->spec, &err);
        }
    }
    if (want_spec) {
        if (st == GL_OK) {
            a->have_spec = true;
            if (!source) source = a->spec.source;
            uint64_t bytes = 0;
            for (int k = 0; k < a->spec.nargs; k++)
                if (a->spec.args[k].is_ptr) bytes += a->spec.args[k].len * gl_type_size(a->spec.args[k].type);
            if (bytes <= (64u << 20) && spec_buffers_new(&a->spec, &a->init_buffers, &err) != GL_OK)
                a->init_buffers = NULL;
            build_modes(a, map_value);
        } else {
            memset(&a->spec, 0, sizeof a->spec);
            msgcpy(a->spec_error, sizeof a->spec_error, err.msg);
        }
    }
    source_load(&a->src, source);
}

static void lesson_close(app *a)
{
    step_clear(a);
    a->lesson = NULL;
    a->screen = SCREEN_LIST;
    a->hints_shown = 0;
}

static void lesson_open(app *a, gl_lesson *l)
{
    lesson_close(a);
    a->lesson = l;
    a->screen = SCREEN_LESSON;
    step_enter(a, 0);
}

/* Decides the back end once: gl_device_query with the chosen kind. */
static void probe_backend(app *a)
{
    if (a->backend_known) return;
    gl_error err = {0};
    term_quiet_begin();
    gl_status st = gl_device_query(a->opts.backend, &a->device, a->device_note, sizeof a->device_note, &err);
    free(term_quiet_end());
    if (st != GL_OK) msgcpy(a->device_error, sizeof a->device_error, err.msg);
    a->backend_known = true;
}

/* --------------------------------------------------------------- actions */

static void set_flash(app *a, const char *msg) { snprintf(a->flash, sizeof a->flash, "%s", msg); }

static handler_result act_quit(app *a)
{
    (void)a;
    return H_QUIT;
}

static handler_result act_help(app *a)
{
    a->help = !a->help;
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
    if (rows < 1) rows = 1;
    if (a->list_sel >= a->nlessons) a->list_sel = a->nlessons - 1;
    if (a->list_sel < 0) a->list_sel = 0;
    if (a->list_top > a->list_sel) a->list_top = a->list_sel;
    if (a->list_sel >= a->list_top + rows) a->list_top = a->list_sel - rows + 1;
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
    if (a->nlessons == 0) return H_HANDLED;
    lesson_open(a, &a->lessons[a->list_sel]);
    return H_REDRAW;
}

static handler_result act_back(app *a)
{
    if (a->lesson) {
        for (int i = 0; i < a->nlessons; i++)
            if (a->lesson == &a->lessons[i]) a->list_sel = i;
    }
    lesson_close(a);
    list_clamp(a);
    return H_REDRAW;
}

static handler_result act_next(app *a)
{
    if (a->step + 1 >= app_nsteps(a)) {
        set_flash(a, "last step");
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
    if (!a->have_spec) {
        set_flash(a, a->spec_error[0] ? "this step's launch spec has an error" : "nothing to run on this step");
        return H_REDRAW;
    }
    view_busy("compiling and running the kernel...");
    if (a->have_run) gl_run_result_free(&a->run);
    free(a->run_chatter);
    gl_run_opts o = {.backend = a->opts.backend};
    gl_error err = {0};
    term_quiet_begin();
    a->run_status = gl_run_spec(&a->spec, &o, &a->run, &err);
    a->run_chatter = term_quiet_end();
    a->have_run = true;
    snprintf(a->run_error, sizeof a->run_error, "%s", a->run_status == GL_OK ? "" : err.msg);
    a->res_top = 0;
    if (a->run.fault.kind != SIM_FAULT_NONE && a->run.fault.src_line > 0) {
        a->src_top = a->run.fault.src_line - 1 - a->metrics.src_rows / 2;
        if (a->src_top < 0) a->src_top = 0;
    }
    probe_backend(a);
    set_flash(a, a->run_status == GL_OK ? "ran" : "the run failed: see Result");
    return H_REDRAW;
}

static handler_result act_grade(app *a)
{
    if (!a->lesson->exercise) {
        set_flash(a, "this lesson has no exercise");
        return H_REDRAW;
    }
    if (!app_on_exercise(a)) step_enter(a, a->lesson->nsteps);
    view_busy("grading: running your kernel and the reference on several sizes...");
    if (a->have_grade) grade_report_free(&a->grade);
    gl_grade_opts o = {.backend = a->opts.backend};
    gl_error err = {0};
    term_quiet_begin();
    a->grade_status = grade_exercise(a->lesson, NULL, &o, &a->grade, &err);
    free(term_quiet_end());
    a->have_grade = true;
    snprintf(a->grade_error, sizeof a->grade_error, "%s", a->grade_status == GL_OK ? "" : err.msg);
    a->res_top = 0;
    set_flash(a, a->grade_status != GL_OK ? "grading could not run" : a->grade.passed ? "passed!" : "not yet: see the checks");
    return H_REDRAW;
}

static handler_result act_hint(app *a)
{
    if (!app_on_exercise(a)) {
        set_flash(a, a->lesson->exercise ? "hints are on the exercise (the last step)" : "no hints in this lesson");
        return H_REDRAW;
    }
    if (a->hints_shown < a->lesson->exercise->nhints) a->hints_shown++;
    else set_flash(a, "no more hints");
    a->text_top = 1 << 20; /* scroll to the hint just shown (clamped when drawn) */
    return H_REDRAW;
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

static handler_result act_map_next(app *a) { return act_map(a, 1); }
static handler_result act_map_prev(app *a) { return act_map(a, -1); }

static int clamp_top(int top, int lines, int rows)
{
    if (top > lines - rows) top = lines - rows;
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

/* ------------------------------------------------------------- key table */

enum { ON_LIST = 1, ON_LESSON = 2, ON_ALL = ON_LIST | ON_LESSON };
enum { KEY_ESC = 27, KEY_DEL = 127, KEY_CTRL_H = 8, MAX_KEYS = 4 };

/* One binding: where it applies, its keys (0-terminated), how the help names them
 * (NULL: not listed) and what it does. */
typedef struct key_binding {
    int where;
    int keys[MAX_KEYS];
    const char *names;
    const char *help;
    handler_result (*fn)(app *a);
} key_binding;

static const key_binding k_keys[] = {
    {ON_LIST, {KEY_UP, 'k'}, "Up / k", "previous lesson", act_list_up},
    {ON_LIST, {KEY_DOWN, 'j'}, "Down / j", "next lesson", act_list_down},
    {ON_LIST, {'\n', '\r', KEY_ENTER}, "Enter", "open the lesson", act_open},
    {ON_LESSON, {'n', KEY_RIGHT}, "n / Right", "next step", act_next},
    {ON_LESSON, {'p', KEY_LEFT}, "p / Left", "previous step", act_prev},
    {ON_LESSON, {'r'}, "r", "run this step's kernel", act_run},
    {ON_LESSON, {'g'}, "g", "grade the exercise (your kernel file)", act_grade},
    {ON_LESSON, {'h'}, "h", "reveal the next hint (exercise)", act_hint},
    {ON_LESSON, {'\t'}, "Tab", "change what the thread map's colours show", act_map_next},
    {ON_LESSON, {KEY_BTAB}, "Shift-Tab", "previous map colouring", act_map_prev},
    {ON_LESSON, {KEY_UP, 'k'}, "Up / k", "scroll the kernel source up", act_src_up},
    {ON_LESSON, {KEY_DOWN, 'j'}, "Down / j", "scroll the kernel source down", act_src_down},
    {ON_LESSON, {KEY_PPAGE}, "PgUp", "scroll the text up", act_text_up},
    {ON_LESSON, {KEY_NPAGE, ' '}, "PgDn / Space", "scroll the text down", act_text_down},
    {ON_LESSON, {'K'}, "K", "scroll the result up", act_res_up},
    {ON_LESSON, {'J'}, "J", "scroll the result down", act_res_down},
    {ON_LESSON, {KEY_ESC, KEY_BACKSPACE, KEY_DEL, KEY_CTRL_H}, "Esc / Backspace", "back to the lesson list", act_back},
    {ON_ALL, {'?'}, "?", "show or hide this help", act_help},
    {ON_ALL, {'q', 'Q'}, "q", "quit", act_quit},
    {ON_ALL, {KEY_RESIZE}, NULL, NULL, act_resize},
};
enum { NKEYS = sizeof k_keys / sizeof k_keys[0] };

static int where_now(const app *a) { return a->screen == SCREEN_LESSON ? ON_LESSON : ON_LIST; }

int app_help_lines(const app *a, app_help_line *out, int max)
{
    int n = 0;
    for (int i = 0; i < NKEYS && n < max; i++)
        if ((k_keys[i].where & where_now(a)) && k_keys[i].names)
            out[n++] = (app_help_line){k_keys[i].names, k_keys[i].help};
    return n;
}

static handler_result dispatch(app *a, int ch)
{
    if (a->help && (ch == '?' || ch == KEY_ESC)) {
        a->help = false;
        return H_REDRAW;
    }
    bool too_small = LINES < 16 || COLS < 60;
    if (too_small && ch != 'q' && ch != 'Q' && ch != KEY_RESIZE) return H_IGNORED;
    handler_result r = H_IGNORED;
    for (int i = 0; i < NKEYS && r == H_IGNORED; i++) {
        if (!(k_keys[i].where & where_now(a))) continue;
        for (int k = 0; k < MAX_KEYS && k_keys[i].keys[k]; k++)
            if (k_keys[i].keys[k] == ch) {
                r = k_keys[i].fn(a) | H_HANDLED;
                break;
            }
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
    lesson_close(a);
    if (a->have_found) lesson_free(&a->found);
    if (a->lessons) lesson_list_free(a->lessons, a->nlessons);
}

static bool same_lesson(const gl_lesson *x, const gl_lesson *y)
{
    return x->number == y->number && x->id && y->id && strcmp(x->id, y->id) == 0;
}

int tui_run(const tui_opts *opts)
{
    static app a; /* large (error buffers); one TUI per process */
    memset(&a, 0, sizeof a);
    a.opts = *opts;
    gl_error err = {0};
    if (lesson_list(&a.lessons, &a.nlessons, &err) != GL_OK) {
        snprintf(a.list_error, sizeof a.list_error, "cannot list the lessons in %.200s:", lesson_root());
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
    char msg[512];
    if (!term_init(msg, sizeof msg)) {
        fprintf(stderr, "gpulearn: %s\n", msg);
        app_free(&a);
        return 2;
    }
    wtimeout(stdscr, 250); /* wake up now and then to notice SIGINT/SIGTERM */
    if (start) lesson_open(&a, start);
    view_draw(&a, &a.metrics);
    probe_backend(&a);
    view_draw(&a, &a.metrics);
    for (;;) {
        int ch = wgetch(stdscr);
        if (term_quit_signal()) break;
        if (ch == ERR) continue;
        a.flash[0] = '\0';
        handler_result r = dispatch(&a, ch);
        if (r & H_QUIT) break;
        if (r & (H_REDRAW | H_HANDLED) || a.flash[0]) view_draw(&a, &a.metrics);
    }
    int sig = term_quit_signal();
    view_free();
    term_end();
    app_free(&a);
    return (sig && sig != SIGINT) ? 128 + sig : 0;
}
