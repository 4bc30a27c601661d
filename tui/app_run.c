/* app_run.c — runs and gradings: starting jobs and collecting their results (app.c has the overview). */
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
#include "runtime/pool.h"
#include "trace/trace.h"
#include "tui/app_int.h"
#include "tui/editor.h"
#include "tui/term.h"
#include "tui/view.h"
#include "tui/tui.h"

/* ------------------------------------------------------------ jobs */

void app_scroll_source_to(app *a, int line)
{
    a->src_top = line - 1 - a->metrics.src_rows / 3;
    if (a->src_top < 0)
        a->src_top = 0;
}

/* A program step (lesson.json "program"): its file, with its "args", on the program
 * screen (tui_program_within), as `gpulearn PROG.cu` shows it; q comes back here. */
static handler_result run_program_step(app *a, const gl_step *step)
{
    char argv0[256];
    const char *base = strrchr(step->kernel, '/'), *dot;
    base = base ? base + 1 : step->kernel;
    dot = strrchr(base, '.');
    snprintf(argv0, sizeof argv0, "./%.*s", (int)(dot ? dot - base : (long)strlen(base)), base);
    char **argv = calloc((size_t)step->nargs + 2, sizeof *argv);
    if (!argv) {
        app_set_flash(a, "out of memory");
        return H_REDRAW;
    }
    argv[0] = argv0;
    for (int i = 0; i < step->nargs; i++)
        argv[i + 1] = step->args[i];
    const char *src[] = {step->kernel};
    tui_program_opts o = {.build = {.sources = src, .nsources = 1, .arch = a->opts.arch},
                          .argv = argv};
    if (tui_program_within(&o) != 0)
        app_set_flash(a, "cannot create a temporary folder for the program");
    free(argv);
    return H_REDRAW;
}

/* Starts the current step's launch in a worker. */
handler_result app_start_run(app *a)
{
    const gl_step *step = app_on_exercise(a) ? NULL : app_cur_step(a);
    if (step && step->program)
        return app_busy(a) ? H_HANDLED : run_program_step(a, step);
    if (!a->have_spec) {
        app_set_flash(a, a->spec_error[0] ? "this step's launch spec has an error"
                                          : "nothing to run on this step");
        return H_REDRAW;
    }
    if (app_busy(a))
        return H_HANDLED;
    /* the launch of the back end that runs it: a speed step's gpu_launch on a GPU only */
    char why[512];
    if (!app_step_respec(a, a->opts.backend, why, sizeof why)) {
        app_set_flash(a, why);
        return H_REDRAW;
    }
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
    a->res_full = false; /* a run's pictures are in the other panes */
    snprintf(a->start_kernel, sizeof a->start_kernel, "%s",
             a->other_kernel && a->spec.kernel ? a->spec.kernel : "");
    char msg[256];
    if (app_on_exercise(a)) {
        /* the learner's kernel, then the reference at the same size and inputs; the
         * lesson's first run measures the default size first (job_start_exercise) */
        int64_t n = a->ex_pick > 0 ? a->ex_pick : a->ex_default;
        if (!job_start_exercise(&a->job, a->lesson, a->spec.source, n, &o, msg, sizeof msg)) {
            app_set_flash(a, msg);
            return H_REDRAW;
        }
        if (n > 0)
            snprintf(a->busy_msg, sizeof a->busy_msg, "running %.90s and the reference at n = %lld",
                     app_base_name(a->spec.source), (long long)n);
        else
            snprintf(a->busy_msg, sizeof a->busy_msg,
                     "timing the reference to choose n, then running %.90s",
                     app_base_name(a->spec.source));
        return H_REDRAW;
    }
    if (!job_start_run(&a->job, &a->spec, &o, msg, sizeof msg)) {
        app_set_flash(a, msg);
        return H_REDRAW;
    }
    snprintf(a->busy_msg, sizeof a->busy_msg, "compiling and running %s",
             app_base_name(a->spec.source));
    return H_REDRAW;
}
/* N: the registers view names source variables: runs use the debug build (-G), the
 * only build whose DWARF records where variables live; N again goes back to the
 * optimised build every other count is of. Re-runs the step when it has run. */
handler_result app_act_names(app *a)
{
    if (app_busy(a))
        return H_HANDLED;
    a->names_build = !a->names_build;
    app_set_flash(a,
                  a->names_build
                      ? "source variable names: runs use the debug build (-G, the code as written)"
                      : "runs use the optimised build again (no source variable names)");
    if (a->have_run && a->have_spec)
        return app_start_run(a);
    return H_REDRAW;
}

/* After a GPU fault: the same launch on the simulator, whose checkers show where. */
handler_result app_rerun_sim(app *a)
{
    if (!a->have_run || a->run.backend == GL_BACKEND_SIM) {
        app_set_flash(a, a->have_run ? "this run was on the simulator already"
                                     : "S replays a GPU run on the simulator");
        return H_REDRAW;
    }
    gl_backend_kind keep = a->opts.backend;
    const bool resized = app_cur_step(a) && app_cur_step(a)->gpu_launch && !app_on_exercise(a);
    a->opts.backend = GL_BACKEND_SIM;
    handler_result r = app_start_run(a);
    a->opts.backend = keep;
    a->replayed_on_sim = true;
    if (resized && a->spec_where == GL_BACKEND_SIM)
        app_set_flash(a, "replayed on the simulator at the step's own size (the GPU ran its "
                         "gpu_launch)");
    return r;
}

handler_result app_start_grade(app *a)
{
    if (app_busy(a))
        return H_HANDLED;
    const char *sub = a->ex_path[0] ? a->ex_path : NULL;
    char why[256];
    const int workers = gl_pool_workers(NULL, why, sizeof why); /* GPULEARN_JOBS, the cores */
    gl_grade_opts o = {.backend = a->opts.backend,
                       .compile = {.arch = a->opts.arch, .arch_origin = "--arch"},
                       .jobs = workers > 0 ? workers : gl_pool_cores()};
    char msg[256];
    if (!job_start_grade(&a->job, a->lesson, sub, &o, msg, sizeof msg)) {
        app_set_flash(a, msg);
        return H_REDRAW;
    }
    /* a long file name is cut to fit the status line */
    snprintf(a->busy_msg, sizeof a->busy_msg, "grading %.120s on every size",
             sub ? app_base_name(sub) : "the starter");
    return H_REDRAW;
}

/* Re-enters the exercise at app_exercise_n (a new size: spec, map, initial buffers),
 * keeping where the learner was looking. Drops the last run. */
void app_exercise_reenter(app *a)
{
    int src_top = a->src_top, text_top = a->text_top, mode = map_colouring();
    app_view view = a->view;
    app_step_enter(a, a->step);
    a->src_top = src_top;
    a->text_top = text_top;
    map_colouring_keep(mode);
    a->view = view;
}

/* What an exercise run brought besides the learner's run: the default size (when it
 * was measured), the spec at the size it ran at, the reference's output. */
static void exercise_took(app *a, gl_exercise_result *ex)
{
    if (ex->nsizes > 0 && ex->n > 0) {
        a->ex_default = ex->n;
        for (int i = 0; i < a->ex_nsizes; i++)
            for (int k = 0; k < ex->nsizes; k++)
                if (ex->sizes[k] == a->ex_sizes[i])
                    a->ex_secs[i] = ex->secs[k];
    }
    if (ex->n > 0 && ex->n != a->spec_n)
        app_exercise_reenter(a);
    a->ref_n = ex->n;
    a->ref_status = ex->ref_status;
    snprintf(a->ref_error, sizeof a->ref_error, "%s", ex->ref_error);
    a->ref_buffers = ex->ref_buffers;
    a->ref_nargs = ex->ref_nargs;
    ex->ref_buffers = NULL;
    ex->ref_nargs = 0;
}

void app_finish_job(app *a)
{
    job_kind kind = a->job.kind;
    if (kind == JOB_RUN || kind == JOB_EXERCISE) {
        /* collected first: an exercise run at a new size rebuilds the step (which drops
         * the last run) before this one is kept */
        char errmsg[sizeof a->run_error];
        char *chatter = NULL;
        gl_status st;
        gl_run_result res;
        gl_exercise_result ex = {.cmp.first_arg = -1};
        if (kind == JOB_EXERCISE) {
            job_finish_exercise(&a->job, &st, &res, errmsg, sizeof errmsg, &chatter, &ex);
            exercise_took(a, &ex);
        } else {
            job_finish_run(&a->job, &st, &res, errmsg, sizeof errmsg, &chatter);
        }
        app_keep_baseline(a);
        if (a->have_run)
            app_run_result_free(&a->run);
        free(a->run_chatter);
        a->run_names = a->start_names;
        memcpy(a->run_kernel, a->start_kernel, sizeof a->run_kernel);
        a->run = res;
        a->run_status = st;
        a->run_chatter = chatter;
        memcpy(a->run_error, errmsg, sizeof a->run_error);
        a->have_run = true;
        a->run_gen++;
        /* what it did, for the next run's comparison (the elements it changed) */
        a->have_work = a->have_spec && a->run_status == GL_OK &&
                       a->run.fault.kind == GL_FAULT_NONE && a->run.buffers;
        if (a->have_work)
            gl_compare_work_of(&a->spec, a->init_buffers, a->run.buffers, a->run.nargs,
                               &a->run_work);
        view_roofline_record(a);
        a->res_top = 0;
        a->ndiags = 0;
        if (a->run_status == GL_ERR_COMPILE)
            app_compile_diags(a, a->run.diags, a->run.ndiags);
        else
            app_add_findings(a);
        if (a->run.fault.kind == GL_FAULT_DEADLOCK) {
            /* every barrier the stuck warps wait at, not just the first */
            int lines[8], n = tv_deadlock_lines(a, lines, 8);
            for (int i = 0; i < n; i++)
                app_add_diag(a, lines[i], true,
                             "deadlock: warps wait here, others at another barrier");
            qsort(a->diags, (size_t)a->ndiags, sizeof a->diags[0], app_diag_cmp);
        }
        if (a->ndiags)
            app_scroll_source_to(a, a->diags[0].line);
        else if (a->run.fault.kind != GL_FAULT_NONE && a->run.fault.src_line > 0)
            app_scroll_source_to(a, a->run.fault.src_line);
        /* a memory fault: select the faulting thread in the map (its index and values) */
        if ((a->run.fault.kind == GL_FAULT_OUT_OF_BOUNDS ||
             a->run.fault.kind == GL_FAULT_MISALIGNED) &&
            a->have_spec && a->run.fault.block[0] < a->spec.grid[0] &&
            a->run.fault.block[1] < a->spec.grid[1] && a->run.fault.block[2] < a->spec.grid[2] &&
            a->run.fault.thread[0] < a->spec.block[0] &&
            a->run.fault.thread[1] < a->spec.block[1] &&
            a->run.fault.thread[2] < a->spec.block[2]) {
            memcpy(a->sel_block, a->run.fault.block, sizeof a->sel_block);
            memcpy(a->sel_thread, a->run.fault.thread, sizeof a->sel_thread);
            a->sel_on = true;
        }
        app_probe_backend(a);
        /* "no NVIDIA driver found ...: running on the simulator" once, not after every run */
        a->note_repeat = a->run.note[0] && strcmp(a->run.note, a->last_note) == 0;
        app_msgcpy(a->last_note, sizeof a->last_note, a->run.note);
        a->tpos = tv_initial_pos(a);
        /* the exercise: its output against the reference's, when the run was of the
         * spec shown */
        if (kind == JOB_EXERCISE) {
            const bool shown = a->have_spec && ex.cmp.done && a->ref_n == a->spec_n;
            a->cmp = shown ? ex.cmp : (gl_exercise_cmp){.first_arg = -1};
        }
        view_reset(VIEW_BUFFERS);
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
        if (kind == JOB_EXERCISE && a->run_status == GL_OK && a->run.fault.kind != GL_FAULT_GPU &&
            a->cmp.done) {
            if (a->cmp.differ)
                snprintf(msg, sizeof msg,
                         "output differs from the reference at %zu of %zu elements (n = %lld)",
                         a->cmp.differ, a->cmp.elements, (long long)a->cmp.n);
            else
                snprintf(msg, sizeof msg, "output matches the reference for n = %lld%s",
                         (long long)a->cmp.n,
                         a->run.nerrors ? ", but the checkers found errors: see Result" : "");
            app_set_flash(a, msg);
        } else if (kind == JOB_EXERCISE && a->run_status == GL_OK && a->ref_status != GL_OK) {
            app_set_flash(a, "ran; the reference could not run: see Result");
        } else if (a->run_status == GL_OK && a->run.fault.kind == GL_FAULT_GPU)
            app_set_flash(a, "the kernel failed on the GPU: press S to re-run it on the simulator, "
                             "which shows where");
        else if (a->run_status == GL_OK && a->run.nerrors > 0)
            app_set_flash(a, "ran, but the checkers found errors: see Result");
        else if (a->run_status == GL_OK && a->run.nwarnings > 0)
            app_set_flash(a, "ran, with warnings: see Result");
        else
            app_set_flash(a, a->run_status == GL_OK ? "ran"
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
        a->res_full = true; /* the report in one screen (Enter: back to the panes) */
        a->ndiags = 0;
        if (a->grade_status == GL_OK && !a->grade.compiled) {
            app_compile_diags(a, a->grade.diags, a->grade.ndiags);
            if (a->ndiags)
                app_scroll_source_to(a, a->diags[0].line);
        }
        if (a->grade_status == GL_OK && a->grade.passed)
            app_progress_passed(a);
        app_set_flash(a, a->grade_status != GL_OK ? "grading could not run"
                         : a->grade.passed        ? "passed!"
                                                  : "not yet: see the checks");
    }
    if (a->opts.demo && a->opts.auto_seconds > 0)
        a->auto_next = job_now() + a->opts.auto_seconds;
}

handler_result app_cancel(app *a)
{
    if (!app_busy(a))
        return H_IGNORED;
    bool grading = a->job.kind == JOB_GRADE;
    job_cancel(&a->job);
    app_set_flash(a, grading ? "grading cancelled" : "run cancelled");
    return H_REDRAW;
}
