/* app.c — the TUI's state and its one input loop. Input handlers (app_keys.c, with
 * the one key table) return HANDLED | REDRAW | QUIT flags (htop's HandlerResult) and the
 * loop acts on them; the help overlay is generated from the same table.
 *
 * Runs and gradings happen in a worker process (job.h, app_run.c): the loop keeps
 * reading keys while one is under way, Ctrl-C / Esc / c cancel it, and the result is
 * collected when the worker finishes. The learner's editor runs with the terminal handed
 * over (term_suspend/term_resume); on return the kernel is recompiled and re-run.
 *
 * Split by concern: app.c state queries, status helpers, progress, the input loop
 * (tui_run) and demo mode; app_step.c the open lesson and its step; app_run.c runs and
 * gradings; app_keys.c the input handlers and the key table. */
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
                 a->replayed_on_sim ? " (last run replayed on the simulator)"
                                    : " (last run fell back to the simulator)");
}

/* Copies a message, cut to fit dst (always NUL-terminated). */
void app_msgcpy(char *dst, size_t n, const char *src)
{
    size_t len = strlen(src);
    if (len >= n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* A message longer than the status bar holds is cut (app_msgcpy: no format-truncation
 * warning from a caller's longer buffer). */
void app_set_flash(app *a, const char *msg)
{
    app_msgcpy(a->flash, sizeof a->flash, msg);
}

const char *app_base_name(const char *path)
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
    if (workspace_progress_load(&a->progress, &a->nprogress, a->progress_warning,
                                sizeof a->progress_warning, &err) != GL_OK) {
        a->progress = NULL;
        a->nprogress = 0;
    }
    workspace_last_lesson(a->last_lesson, sizeof a->last_lesson);
}

/* Records the current step as seen and as the learner's last position (written when
 * either changes). */
void app_progress_step(app *a)
{
    if (!a->lesson || !a->lesson->id || a->opts.demo || a->step >= 32)
        return;
    const gl_lesson_progress *p = app_progress(a, a->lesson);
    if (p && (p->steps_seen >> a->step) & 1u && p->last_step == a->step &&
        strcmp(a->last_lesson, a->lesson->id) == 0)
        return;
    gl_error err = {0};
    if (workspace_mark_step(a->lesson->id, a->step, &err) == GL_OK)
        progress_reload(a);
}

void app_progress_passed(app *a)
{
    if (!a->lesson || !a->lesson->id || a->opts.demo)
        return;
    gl_error err = {0};
    if (workspace_mark_passed(a->lesson->id, &err) == GL_OK)
        progress_reload(a);
}

/* ------------------------------------------------------------------ main */

static void app_free(app *a)
{
    job_cancel(&a->job);
    app_lesson_close(a);
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
        app_msgcpy(a.list_error + used, sizeof a.list_error - used, err.msg);
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
        app_lesson_open(&a, start, true);
    } else if (a.last_lesson[0]) { /* the list opens at the lesson seen last */
        for (int i = 0; i < a.nlessons; i++)
            if (a.lessons[i].id && strcmp(a.lessons[i].id, a.last_lesson) == 0)
                a.list_sel = i;
    }
    if (opts->demo && opts->auto_seconds > 0)
        a.auto_next = job_now() + opts->auto_seconds;
    view_draw(&a, &a.metrics);
    app_probe_backend(&a);
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
                r = app_cancel(&a); /* Ctrl-C cancels the run instead of quitting */
            } else if (term_quit_signal() == SIGINT && job_now() - a.ctrlc_at > 3.0) {
                /* a reflex Ctrl-C with nothing to cancel: ask for a second one */
                term_take_interrupt();
                a.ctrlc_at = job_now();
                app_set_flash(&a,
                              "press Ctrl-C again to quit (q quits too); your edits and progress "
                              "are saved");
                r = H_REDRAW;
            } else {
                sig = term_quit_signal();
                break;
            }
        }
        if (ch != ERR) {
            a.flash[0] = '\0';
            r |= app_dispatch(&a, ch);
            if (r & H_QUIT)
                break;
        }
        if (a.job.kind != JOB_NONE && job_poll(&a.job)) {
            app_finish_job(&a);
            r |= H_REDRAW;
        }
        if (app_play_tick(&a))
            r |= H_REDRAW;
        if (auto_due(&a)) {
            a.auto_next = job_now() + a.opts.auto_seconds;
            r |= app_demo_advance(&a);
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
