/* app_keys.c — the input handlers, the key table (the help overlay is made from it) and dispatch (app.c has the overview). */
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
        app_set_flash(
            a, "this lesson does not load: its lesson.json has an error (shown below the list)");
        return H_REDRAW;
    }
    app_lesson_open(a, &a->lessons[a->list_sel], true);
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
    app_lesson_close(a);
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
            app_lesson_open(a, &a->lessons[next], false);
            a->list_sel = next;
            char msg[200];
            snprintf(msg, sizeof msg, "lesson %s: %.160s", a->lesson->label,
                     a->lesson->title ? a->lesson->title : "");
            app_set_flash(a, msg);
            return H_REDRAW;
        }
        app_set_flash(a, cur >= 0 && next >= a->nlessons && !a->opts.demo
                             ? "last step of the last lesson"
                             : "last step");
        a->auto_next = 0;
        return H_REDRAW;
    }
    app_step_enter(a, a->step + 1);
    return H_REDRAW;
}

static handler_result act_prev(app *a)
{
    if (a->step == 0) {
        app_set_flash(a, "first step");
        return H_REDRAW;
    }
    app_step_enter(a, a->step - 1);
    return H_REDRAW;
}

static handler_result act_run(app *a)
{
    a->replayed_on_sim = false;
    return app_start_run(a);
}

/* f: run the next kernel of the step's file that the step's launch can run (as many
 * parameters as it has arguments), in the order of the file, with its own launch where
 * the lesson gives one (a step's "kernels": each computes the whole output); the step's
 * own kernel comes round again. The kernels are read from the PTX of the last run. */
static handler_result act_kernel_next(app *a)
{
    if (app_on_exercise(a) || !a->have_spec) {
        app_set_flash(a, app_on_exercise(a) ? "the exercise runs its own kernel"
                                            : "this step runs no kernel");
        return H_REDRAW;
    }
    if (app_busy(a))
        return H_HANDLED;
    if (!a->have_run || !a->run.ptx || !*a->run.ptx) {
        app_set_flash(a, "press r first: f then runs the file's other kernels");
        return H_REDRAW;
    }
    char **names;
    int *np;
    const int n = gl_run_ptx_kernels(a->run.ptx, &names, &np);
    if (n <= 0) {
        app_set_flash(a, "no kernel found in the last run's PTX");
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
    char msg[512]; /* app_set_flash cuts it to the flash */
    if (pick < 0) {
        snprintf(msg, sizeof msg,
                 "%s has no other kernel with %d parameters (this step's launch passes %d)",
                 app_base_name(a->spec.source), a->spec.nargs, a->spec.nargs);
        app_set_flash(a, msg);
        gl_run_ptx_kernels_free(names, np, n);
        return H_REDRAW;
    }
    char k[128];
    snprintf(k, sizeof k, "%s", names[pick]);
    int ord = 0;
    for (int i = 0; i <= pick; i++)
        ord += np[i] == a->spec.nargs;
    gl_run_ptx_kernels_free(names, np, n);
    char file[96];
    snprintf(file, sizeof file, "%s", app_base_name(a->spec.source));
    if (!app_step_use_kernel(a, k, msg, sizeof msg)) {
        app_set_flash(a, msg);
        return H_REDRAW;
    }
    const gl_spec *s = &a->spec;
    snprintf(msg, sizeof msg, "kernel %d of %d in %s: %s, %u x %u x %u blocks of %u (f: the next)",
             ord, fits, file, k, s->grid[0], s->grid[1], s->grid[2],
             s->block[0] * s->block[1] * s->block[2]);
    app_scroll_to_kernel(a);
    a->replayed_on_sim = false;
    handler_result r = app_start_run(a);
    app_set_flash(a, msg);
    return r;
}

static handler_result act_grade(app *a)
{
    if (!a->lesson->exercise) {
        app_set_flash(a, "this lesson has no exercise");
        return H_REDRAW;
    }
    if (!app_on_exercise(a))
        app_step_enter(a, a->lesson->nsteps);
    return app_start_grade(a);
}

static handler_result act_hint(app *a)
{
    if (!app_on_exercise(a)) {
        app_set_flash(a, a->lesson->exercise ? "hints are on the exercise (the last step)"
                                             : "no hints in this lesson");
        return H_REDRAW;
    }
    if (a->hints_shown < a->lesson->exercise->nhints)
        a->hints_shown++;
    else
        app_set_flash(a, "no more hints");
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
        app_set_flash(a, "this lesson has no exercise to edit");
        return H_REDRAW;
    }
    if (a->opts.demo)
        return H_IGNORED;
    if (!app_on_exercise(a))
        app_step_enter(a, a->lesson->nsteps);
    if (!a->ex_path[0]) {
        app_set_flash(a, "no copy of the exercise to edit (see the text)");
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
            app_set_flash(a, msg);
            return H_REDRAW;
        }
        status = 0; /* saved: re-run, as after an editor that exited 0 */
    } else {
        status = run_editor(editor, a->ex_path);
    }
    app_source_load(&a->src, a->ex_path);
    a->show_reference = false;
    app_results_clear(a);
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
            app_scroll_source_to(a, line + 1);
    }
    free(before);
    char msg[256];
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 127 ||
        WEXITSTATUS(status) == 126) {
        snprintf(msg, sizeof msg, "could not start the editor '%.200s' (set $EDITOR)", editor);
        app_set_flash(a, msg);
        return H_REDRAW;
    }
    if (WEXITSTATUS(status) != 0) {
        snprintf(msg, sizeof msg, "the editor exited with status %d: not re-running",
                 WEXITSTATUS(status));
        app_set_flash(a, msg);
        return H_REDRAW;
    }
    return app_start_run(a);
}

static handler_result act_reset(app *a)
{
    if (!a->lesson->exercise || a->opts.demo) {
        app_set_flash(a, "this lesson has no exercise");
        return H_REDRAW;
    }
    if (!app_on_exercise(a))
        app_step_enter(a, a->lesson->nsteps);
    a->confirm = CONFIRM_RESET;
    return H_REDRAW;
}

static handler_result confirm_answer(app *a, int ch)
{
    app_confirm c = a->confirm;
    a->confirm = CONFIRM_NONE;
    if (ch != 'y' && ch != 'Y') {
        app_set_flash(a, "kept your version");
        return H_REDRAW;
    }
    if (c == CONFIRM_RESET) {
        gl_error err = {0};
        char bak[PATH_MAX + 16];
        if (workspace_reset(a->lesson, bak, sizeof bak, &err) != GL_OK) {
            char msg[256];
            snprintf(msg, sizeof msg, "could not restore: %.200s", err.msg);
            app_set_flash(a, msg);
            return H_REDRAW;
        }
        int step = a->step;
        app_step_enter(a, step);
        char msg[256];
        if (bak[0])
            snprintf(msg, sizeof msg, "restored the starter (your version is in %.180s)",
                     app_base_name(bak));
        else
            snprintf(msg, sizeof msg, "your copy is already the starter");
        app_set_flash(a, msg);
    }
    return H_REDRAW;
}

/* z / Z: the next / previous graded size for r on the exercise. */
static handler_result exercise_size(app *a, int d)
{
    if (!app_on_exercise(a) || !a->lesson->exercise->launch) {
        app_set_flash(a,
                      a->lesson->exercise
                          ? "z picks the size the exercise runs at: on the exercise (the last step)"
                          : "this lesson has no exercise");
        return H_REDRAW;
    }
    if (app_busy(a)) {
        app_set_flash(a, "busy: the size changes once the run ends (Ctrl-C, Esc or c cancels it)");
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
    app_exercise_reenter(a);
    char msg[200], def[64] = "not measured yet";
    if (a->ex_default > 0)
        snprintf(def, sizeof def, "%lld", (long long)a->ex_default);
    snprintf(msg, sizeof msg, "n = %lld (graded size %d of %d; the default is %s): r runs it",
             (long long)a->ex_pick, i + 1, a->ex_nsizes, def);
    app_set_flash(a, msg);
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

/* A pane's first shown line: at most lines - rows, at least 0. */
static int clamp_top(int top, int lines, int rows)
{
    if (top > lines - rows)
        top = lines - rows;
    return top < 0 ? 0 : top;
}

/* [ / ]: the view's own scroll: the buffers view a page (on the exercise its comparison
 * with the reference), the tree view sideways. */
static handler_result cmp_scroll(app *a, int ch)
{
    if (!view_slot_key(a, ch))
        app_set_flash(a, "[ ] scroll the buffers view (7, after r) and the tree view (8)");
    return H_REDRAW;
}
/* o on a passed exercise: the source pane shows the lesson's reference solution, or
 * the learner's copy again. */
static handler_result act_reference(app *a)
{
    if (!app_on_exercise(a) || !a->lesson->exercise->reference) {
        app_set_flash(a, "o shows the exercise's reference solution, once you passed it");
        return H_REDRAW;
    }
    const gl_lesson_progress *p = app_progress(a, a->lesson);
    if (!a->show_reference && !(p && p->passed)) {
        app_set_flash(
            a, "pass the exercise first (g grades your copy): then o shows the reference solution");
        return H_REDRAW;
    }
    a->show_reference = !a->show_reference;
    a->res_full = false; /* the source pane shows it */
    app_source_load(&a->src,
                    a->show_reference ? a->lesson->exercise->reference : app_exercise_source(a));
    app_scroll_to_kernel(a);
    app_set_flash(a, a->show_reference ? "the reference solution (o: back to your copy)"
                                       : "your copy");
    return H_REDRAW;
}

static handler_result act_tree_zoom(app *a)
{
    if (!view_slot_key(a, 'x'))
        app_set_flash(a, "x zooms the tree view (8) out to all of shared memory");
    return H_REDRAW;
}
static handler_result act_cmp_up(app *a)
{
    return cmp_scroll(a, '[');
}
static handler_result act_cmp_down(app *a)
{
    return cmp_scroll(a, ']');
}

static handler_result act_map(app *a, int d)
{
    if (!map_colouring_next(d))
        app_set_flash(a, "no thread map on this step");
    return H_REDRAW;
}

static handler_result act_warps(app *a)
{
    if (!a->have_spec) {
        app_set_flash(a, "no kernel launch on this step");
        return H_REDRAW;
    }
    a->view = a->view == VIEW_WARPS ? VIEW_MAP : VIEW_WARPS;
    a->res_full = false;
    if (a->view == VIEW_WARPS && !a->have_run)
        app_set_flash(a, "r runs the kernel: the timeline shows what each warp issued");
    return H_REDRAW;
}

/* ------------------------------------------------------ views and time travel */

static handler_result set_view(app *a, app_view v)
{
    if (!a->have_spec) {
        app_set_flash(a, "no kernel launch on this step");
        return H_REDRAW;
    }
    const tui_view *tv = view_of(v);
    a->view = v;
    a->res_full = false; /* the view is in the panes */
    if (tv->space || v == VIEW_FRAGS)
        a->tpos = tv_initial_pos(a);
    char msg[160];
    if (!a->have_run && (tv->flags & VIEW_F_RUN))
        snprintf(msg, sizeof msg, "%s view: r runs the kernel and records what it did", tv->name);
    else
        snprintf(msg, sizeof msg, "%s view", tv->name);
    app_set_flash(a, msg);
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
        app_set_flash(a, a->have_run ? "this run has no trace to step through"
                                     : "r runs the kernel first: then step through what it did");
        return H_REDRAW;
    }
    bool moved = false;
    a->tpos = tv_step_pos(a, unit, dir, &moved);
    int line = tv_current_line(a);
    if (line > 0 && (line <= a->src_top || line > a->src_top + a->metrics.src_rows))
        app_scroll_source_to(a, line);
    if (!moved)
        app_set_flash(a, dir > 0 ? (unit == TV_BARRIER ? "no later barrier in this block"
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
        app_set_flash(a, "playback paused (P resumes)");
        return H_REDRAW;
    }
    const trace_t *t = a->have_run ? a->run.trace : NULL;
    if (!t || t->nevents == 0) {
        app_set_flash(a, a->have_run ? "this run has no trace to play"
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
    app_set_flash(a, msg);
    return H_REDRAW;
}

/* One playback step when due; stops at the end of the trace. */
bool app_play_tick(app *a)
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
        app_set_flash(a, "playback: end of the launch");
        return true;
    }
    a->tpos = pos;
    int line = tv_current_line(a);
    if (line > 0 && (line <= a->src_top || line > a->src_top + a->metrics.src_rows))
        app_scroll_source_to(a, line);
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
    app_set_flash(a, msg);
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

/* M: the fragment view's next matrix (A, B, C, D of an mma; ldmatrix's m0 ... m3). */
static handler_result act_frag_mat(app *a)
{
    if (!view_slot_key(a, 'M'))
        return set_view(a, VIEW_FRAGS);
    return H_REDRAW;
}

/* t / T: the selected warp's next / previous tensor-core instruction. */
static handler_result tensor_move(app *a, int dir)
{
    if (!a->have_run || !a->run.trace)
        return time_move(a, TV_INSN, dir); /* says what is missing */
    bool moved;
    a->tpos = tv_tensor_pos(a, dir, &moved);
    view_reset(VIEW_FRAGS);
    if (!moved)
        app_set_flash(a, dir > 0 ? "no later tensor-core instruction in this warp"
                                 : "no earlier tensor-core instruction in this warp");
    return H_REDRAW;
}
static handler_result act_tensor_next(app *a)
{
    return tensor_move(a, 1);
}
static handler_result act_tensor_prev(app *a)
{
    return tensor_move(a, -1);
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
    app_set_flash(a, "start of the launch");
    return H_REDRAW;
}

static handler_result act_time_end(app *a)
{
    if (!a->have_run || !a->run.trace)
        return time_move(a, TV_INSN, 1);
    a->tpos = a->run.trace->nevents;
    app_set_flash(a, "end of the launch");
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

static handler_result act_res_up(app *a);
static handler_result act_res_down(app *a);

static handler_result act_src_up(app *a)
{
    if (a->res_full) /* the whole page is the Result: arrows scroll it */
        return act_res_up(a);
    a->src_top = clamp_top(a->src_top - 1, a->src.nlines, a->metrics.src_rows);
    return H_REDRAW;
}

static handler_result act_src_down(app *a)
{
    if (a->res_full)
        return act_res_down(a);
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

/* Enter: the result pane on the whole page (a grade report in one screen), or back. */
static handler_result act_res_full(app *a)
{
    if (!a->have_spec && !app_on_exercise(a)) {
        app_set_flash(a, "this step has no Result to show");
        return H_REDRAW;
    }
    a->res_full = !a->res_full;
    a->res_top = 0;
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
        app_set_flash(a, "no thread map on this step");
        return H_REDRAW;
    }
    a->map_focus = !a->map_focus;
    if (a->map_focus && !a->sel_on)
        select_move(a, 0, 0);
    app_set_flash(a, a->map_focus ? "map: arrows pick a thread, [ ] change block, m or Esc leaves"
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
handler_result app_demo_advance(app *a)
{
    if (app_busy(a))
        return H_HANDLED;
    if (a->have_spec && !a->have_run && !app_on_exercise(a))
        return app_start_run(a);
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
    app_set_flash(a, msg);
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
    app_set_flash(a, msg);
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
     app_cancel},
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
     app_demo_advance},
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
     "run the next kernel of this step's file (with its own launch where the lesson gives one)",
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
     app_act_names},
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
    {ON_LESSON | ON_DEMO,
     {'M'},
     "M",
     "fragment view (F): the next matrix of the instruction (A, B, C, D)",
     act_frag_mat},
    {ON_LESSON | ON_DEMO,
     {'t'},
     "t / T",
     "the selected warp's next / previous tensor-core instruction (mma, wmma, ldmatrix)",
     act_tensor_next},
    {ON_LESSON | ON_DEMO, {'T'}, NULL, NULL, act_tensor_prev},
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
     app_rerun_sim},
    {ON_LESSON, {KEY_UP, 'k'}, "Up / k", "scroll the kernel source up", act_src_up},
    {ON_LESSON, {KEY_DOWN, 'j'}, "Down / j", "scroll the kernel source down", act_src_down},
    {ON_LESSON, {KEY_PPAGE}, "PgUp", "scroll the text up", act_text_up},
    {ON_LESSON, {KEY_NPAGE, ' '}, "PgDn / Space", "scroll the text down", act_text_down},
    {ON_LESSON,
     {'['},
     "[ / ]",
     "scroll: the buffers view (7) a page; the tree view (8) sideways",
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
    {ON_LESSON,
     {'\n', '\r', KEY_ENTER},
     "Enter",
     "the Result on the whole page (a grade report) / back",
     act_res_full},
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
            app_step_enter(a, h.index);
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

handler_result app_dispatch(app *a, int ch)
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
        app_set_flash(a, "busy: Ctrl-C, Esc or c cancels");
        r = H_REDRAW;
    }
    if (a->help && r != H_IGNORED && ch != '?' && ch != KEY_RESIZE) {
        a->help = false; /* any other action closes the overlay */
        r |= H_REDRAW;
    }
    return r;
}
