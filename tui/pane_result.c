/* pane_result.c — the Result pane's text: a run's (where it ran, its checks, outputs,
 * counts, the exercise's size and comparison with the reference, the comparison with
 * the previous run) and a grading's report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cublas.h"
#include "tui/pane.h"
#include "tui/term.h"
#include "tui/view.h"

static void exercise_size_lines(const app *a, tlines *L, int cols)
{
    char sizes[256] = "";
    size_t used = 0;
    for (int i = 0; i < a->ex_nsizes && used + 24 < sizeof sizes; i++)
        used += (size_t)snprintf(sizes + used, sizeof sizes - used, "%s%lld", i ? " " : "",
                                 (long long)a->ex_sizes[i]);
    double secs = -1;
    char slow[96] = ""; /* the first size that took too long */
    for (int i = 0; i < a->ex_nsizes; i++) {
        if (a->ex_sizes[i] == a->ex_default)
            secs = a->ex_secs[i];
        if (a->ex_sizes[i] > a->ex_default && a->ex_secs[i] >= 0 && !slow[0])
            snprintf(slow, sizeof slow, "; %lld took %.1f s", (long long)a->ex_sizes[i],
                     a->ex_secs[i]);
    }
    int64_t n = a->have_run && a->ref_n > 0 ? a->ref_n : app_exercise_n(a);
    if (a->ex_pick > 0 && a->ex_pick != a->ex_default)
        tl_printf(L, cols, term_attr(TC_DIM), "n = %lld, picked with z from the graded sizes %s%s",
                  (long long)n, sizes,
                  a->ex_default > 0 ? "" : " (the default is not measured yet)");
    else if (a->ex_default > 0 && secs >= 0)
        tl_printf(L, cols, term_attr(TC_DIM),
                  "n = %lld, the default: the largest of the graded sizes %s whose reference run "
                  "took under %.0f s "
                  "on the simulator (%.3f s%s); z picks another",
                  (long long)n, sizes, GL_EXERCISE_SIZE_SECONDS, secs, slow);
    else if (a->ex_default > 0)
        tl_printf(L, cols, term_attr(TC_DIM),
                  "n = %lld, the default (graded sizes %s); z picks another", (long long)n, sizes);
}

/* The exercise's output against the reference's (runtime/exercise.c's exercise_compare). */
static void comparison_lines(const app *a, tlines *L, int cols)
{
    const gl_exercise_cmp *c = &a->cmp;
    if (c->done && c->differ == 0)
        tl_printf(L, cols, term_attr(TC_GOOD), "output matches the reference for n = %lld",
                  (long long)c->n);
    else if (c->done) {
        char tol[64] = "";
        if (c->tolerance > 0)
            snprintf(tol, sizeof tol, " by more than the tolerance %g", c->tolerance);
        tl_printf(L, cols, term_attr(TC_BAD),
                  "output differs from the reference for n = %lld at %zu of %zu elements%s%s",
                  (long long)c->n, c->differ, c->elements, tol,
                  a->view == VIEW_BUFFERS ? " (side by side above)" : " (7 shows them)");
    } else if (a->ref_status != GL_OK && a->ref_error[0]) {
        tl_printf(L, cols, term_attr(TC_BAD),
                  "the reference could not run at n = %lld:", (long long)a->ref_n);
        tl_wrap(L, a->ref_error, cols, term_attr(TC_BAD));
    } else if (a->run_status != GL_OK && a->run_status != GL_ERR_COMPILE)
        tl_printf(L, cols, term_attr(TC_DIM),
                  "output not compared with the reference: the kernel did not finish");
    exercise_size_lines(a, L, cols);
}

/* "a -> b (-33%)" for a counter that changed. */
static int change_text(char *buf, size_t n, const char *what, double before, double after,
                       int decimals)
{
    if (before == after)
        return 0;
    char pct[32] = "";
    if (before != 0)
        snprintf(pct, sizeof pct, " (%+.0f%%)", (after - before) / before * 100.0);
    return snprintf(buf, n, "%s %.*f -> %.*f%s", what, decimals, before, decimals, after, pct);
}

/* The run against the previous run of the same step (Nsight Compute's baseline): time on
 * the GPU, else warp instructions, and the memory metrics that changed. Nothing when
 * there is no such run, or nothing changed. */
static void baseline_lines(const app *a, tlines *L, int cols)
{
    const struct app_baseline *b = &a->baseline;
    if (!b->valid || b->lesson != a->lesson || b->step != a->step || a->run_status != GL_OK ||
        a->run.fault.kind != GL_FAULT_NONE || (int)a->run.backend != b->backend ||
        b->n != (app_on_exercise(a) ? a->spec_n : 0) || b->names != a->run_names)
        return; /* the debug build (N) runs other code: its counts compare with its own */
    char parts[4][160];
    int np = 0;
    if (b->backend == GL_BACKEND_GPU && b->ms > 0 && a->run.elapsed_ms > 0) {
        if (change_text(parts[np], sizeof parts[np], "time (ms)", b->ms, a->run.elapsed_ms, 3))
            np++;
    } else if (change_text(parts[np], sizeof parts[np], "warp instructions", (double)b->warp_insns,
                           (double)a->run.stats.warp_instructions, 0))
        np++;
    if (b->has_counts && a->run.metrics) {
        const gl_counts *p = &b->c, *c = &a->run.metrics->total;
        const double spr0 = gl_global_sectors_per_request(p),
                     spr1 = gl_global_sectors_per_request(c);
        if (spr0 > 0 && spr1 > 0 &&
            change_text(parts[np], sizeof parts[np], "global sectors/request", spr0, spr1, 1))
            np++;
        if (np < 4 &&
            change_text(parts[np], sizeof parts[np], "shared wavefronts",
                        (double)gl_shared_wavefronts(p), (double)gl_shared_wavefronts(c), 0))
            np++;
        if (np < 4 && change_text(parts[np], sizeof parts[np], "divergent branches",
                                  (double)p->divergent_branches, (double)c->divergent_branches, 0))
            np++;
    }
    /* whether the two runs did the same work (f runs another kernel, maybe in another
     * launch): say so before comparing their counts */
    char work[600] = "";
    const bool same = !b->has_work || !a->have_work ||
                      gl_compare_work_same(&b->work, &a->run_work, work, sizeof work);
    if (work[0])
        tl_wrap(L, work, cols, same ? term_attr(TC_DIM) : term_attr(TC_WARN));
    if (np == 0) {
        tl_printf(L, cols, term_attr(TC_DIM), "the same counts as your previous run");
        return;
    }
    char line[720];
    const bool other = b->has_work && a->have_work && strcmp(b->work.kernel, a->run_work.kernel);
    int used = snprintf(line, sizeof line, "than your previous run%s%.120s%s:", other ? " (" : "",
                        other ? b->work.kernel : "", other ? ")" : "");
    for (int i = 0; i < np && used < (int)sizeof line; i++)
        used += snprintf(line + used, sizeof line - (size_t)used, "%s %s", i ? ";" : "", parts[i]);
    tl_wrap(L, line, cols, term_attr(TC_HEADING));
}

/* Theoretical and (estimated) achieved occupancy of the run's launch in one wrapped line
 * (gl_run_occupancy_describe): "occupancy: 100% theoretical (limit: threads), about 12%
 * achieved on the 4 SMs with work: 128 of 132 SMs idle"; on the simulator it says the
 * figures are its model's, with the registers per thread ptxas counted for the target,
 * or that they are upper bounds when nothing counted them (no CUDA Toolkit). */
static void occupancy_lines(const app *a, tlines *L, int cols)
{
    const gl_occupancy *o = &a->run.occupancy;
    if (!o->valid)
        return;
    char line[400];
    gl_run_occupancy_describe(o, a->run.backend == GL_BACKEND_SIM, line, sizeof line);
    tl_printf(L, cols, term_attr(TC_DIM), "%s", line);
}

/* Whether the last run changed pointer argument i's buffer: against the copy from before
 * the launch, else (a buffer past 64 MiB) the run's work; true when neither says. */
static bool run_buffer_changed(const app *a, int i)
{
    if (a->init_buffers && a->init_buffers[i].data)
        return memcmp(a->init_buffers[i].data, a->run.buffers[i].data, a->run.buffers[i].bytes) !=
               0;
    for (int b = 0; a->have_work && b < a->run_work.nbuf; b++)
        if (strcmp(a->run_work.buf[b].name, a->spec.args[i].name) == 0 &&
            a->run_work.buf[b].changed != SIZE_MAX)
            return a->run_work.buf[b].changed > 0;
    return true;
}

void pane_result_run_lines(const app *a, tlines *L, int cols)
{
    char backend[300];
    if (a->have_run) {
        if (a->run.backend == GL_BACKEND_GPU)
            snprintf(backend, sizeof backend, "ran on %s",
                     a->backend_known && !a->device.is_simulator ? a->device.name : "the GPU");
        else
            snprintf(backend, sizeof backend,
                     a->replayed_on_sim ? "replayed on the simulator" : "ran on the simulator");
        char extra[160] = "";
        if (a->run_kernel[0]) { /* f ran another kernel of the file */
            const size_t used = strlen(backend);
            snprintf(backend + used, sizeof backend - used, ": %.120s", a->run_kernel);
        }
        if (a->run.backend == GL_BACKEND_GPU && a->run.elapsed_ms > 0) {
            /* with the bytes the launch moves (the spec's bytes_moved): the bandwidth it
             * reached, and its share of the device's peak */
            const double gbs = a->have_spec && a->spec.bytes_moved > 0
                                   ? a->spec.bytes_moved / (a->run.elapsed_ms * 1e6)
                                   : 0,
                         peak = a->backend_known && !a->device.is_simulator
                                    ? a->device.peak_bandwidth_gbs
                                    : 0;
            const double gflops =
                a->have_spec && a->spec.flops > 0 ? a->spec.flops / (a->run.elapsed_ms * 1e6) : 0;
            if (gflops > 0) /* a compute-bound kernel: FLOP/s says more than bytes */
                snprintf(extra, sizeof extra, " in %.3f ms: %.0f GFLOP/s", a->run.elapsed_ms,
                         gflops);
            else if (gbs > 0 && peak > 0)
                snprintf(extra, sizeof extra,
                         " in %.3f ms: %.0f GB/s, %.0f%% of the %.0f GB/s peak", a->run.elapsed_ms,
                         gbs, 100 * gbs / peak, peak);
            else if (gbs > 0)
                snprintf(extra, sizeof extra, " in %.3f ms: %.0f GB/s", a->run.elapsed_ms, gbs);
            else
                snprintf(extra, sizeof extra, " in %.3f ms", a->run.elapsed_ms);
        } else if (a->run.stats.warp_instructions)
            snprintf(extra, sizeof extra, " (%llu warp instructions)",
                     (unsigned long long)a->run.stats.warp_instructions);
        if (a->run_status == GL_ERR_COMPILE)
            tl_printf(L, cols, term_attr(TC_BAD), "it did not compile%s",
                      a->ndiags ? " (the errors are marked in the source):" : ":");
        else
            tl_printf(L, cols, a->run_status == GL_OK ? term_attr(TC_GOOD) : term_attr(TC_BAD),
                      "%s%s%s", backend, extra, a->run_status == GL_OK ? "" : " - failed");
        if (a->run_status == GL_OK && a->run.timing.library.asked) { /* cuBLAS or CUB beside it */
            char lib[400];
            const double ms = a->have_spec ? a->run.elapsed_ms : 0;
            gl_cublas_library_line(
                &a->run.timing.library,
                ms > 0 && a->spec.flops > 0 ? a->spec.flops / (ms * 1e6) : 0,
                ms > 0 && a->spec.bytes_moved > 0 ? a->spec.bytes_moved / (ms * 1e6) : 0, lib,
                sizeof lib);
            tl_wrap(L, lib, cols, PLAIN);
        }
        baseline_lines(a, L, cols);
        if (app_on_exercise(a) && a->run_status == GL_OK)
            comparison_lines(a, L, cols);
        if (a->run_status != GL_OK && a->run_status != GL_ERR_COMPILE) {
            tl_wrap(L, a->run_error[0] ? a->run_error : "the run failed", cols, term_attr(TC_BAD));
            if (app_on_exercise(a))
                comparison_lines(a, L, cols);
        } else if (a->run_status == GL_ERR_COMPILE)
            tl_wrap(L, a->run_error, cols, PLAIN);
        /* what the simulator's checkers found (racecheck, memcheck, synccheck, initcheck) */
        if (a->run.nfindings > 0) {
            tl_printf(L, cols, a->run.nerrors ? term_attr(TC_BAD) : term_attr(TC_WARN),
                      "the checkers found %d error%s and %d warning%s (marked in the source):",
                      a->run.nerrors, a->run.nerrors == 1 ? "" : "s", a->run.nwarnings,
                      a->run.nwarnings == 1 ? "" : "s");
            for (int i = 0; i < a->run.nfindings; i++) {
                const gl_finding *f = &a->run.findings[i];
                char cnt[48] = "";
                if (f->count > 1)
                    snprintf(cnt, sizeof cnt, " (seen %llu times)", (unsigned long long)f->count);
                /* the message starts with its kind's name already: not twice */
                const char *name = app_finding_name((int)f->kind);
                const int named = strncmp(f->message, name, strlen(name)) == 0;
                tl_printf(L, cols, f->is_error ? term_attr(TC_BAD) : term_attr(TC_WARN),
                          "%s %s%s%s%s", term_glyph()->dot, named ? "" : name, named ? "" : ": ",
                          f->message, cnt);
            }
            if (a->run.findings_dropped)
                tl_printf(L, cols, term_attr(TC_DIM), "(%d more not shown)",
                          a->run.findings_dropped);
        }
        const char *out = a->run.stdout_text;
        if (out && *out) {
            int n = 0;
            for (const char *p = out; *p; p++)
                n += *p == '\n';
            if (out[strlen(out) - 1] != '\n')
                n++;
            tl_printf(L, cols, term_attr(TC_HEADING), "printf output (%d line%s):", n,
                      n == 1 ? "" : "s");
            const char *p = out;
            while (*p) {
                const char *e = strchr(p, '\n');
                size_t len = e ? (size_t)(e - p) : strlen(p);
                char *line = strndup(p, len);
                if (line)
                    tl_wrap(L, line, cols, PLAIN), free(line);
                if (!e)
                    break;
                p = e + 1;
            }
        }
        /* after the kernel's own output, which a small terminal shows first */
        if (a->run_status == GL_OK)
            occupancy_lines(a, L, cols);
        if (a->have_spec && a->run.buffers) {
            /* buffers the kernel changed first: those are its outputs */
            bool header = false;
            for (int pass = 0; pass < 2; pass++)
                for (int i = 0; i < a->spec.nargs && i < a->run.nargs; i++) {
                    const gl_arg *arg = &a->spec.args[i];
                    if (!arg->is_ptr || !a->run.buffers[i].data)
                        continue;
                    bool changed = run_buffer_changed(a, i);
                    if (changed != (pass == 0))
                        continue;
                    if (!header)
                        tl_add(L, "buffers after the run:", 22, term_attr(TC_HEADING)),
                            header = true;
                    char buf[1024];
                    int n = snprintf(buf, sizeof buf, "%s[0..%zu)%s =", arg->name, arg->len,
                                     changed ? "" : " (unchanged)");
                    size_t shown = 0;
                    for (size_t k = 0; k < arg->len && n < cols - 12 && n < (int)sizeof buf - 40;
                         k++, shown++) {
                        gl_value v = spec_buffer_get(a->run.buffers[i].data, arg->type, k);
                        if (spec_type_is_float(arg->type))
                            n += snprintf(buf + n, sizeof buf - (size_t)n, " %g", v.f);
                        else if (spec_type_is_signed(arg->type))
                            n += snprintf(buf + n, sizeof buf - (size_t)n, " %lld", (long long)v.i);
                        else
                            n += snprintf(buf + n, sizeof buf - (size_t)n, " %llu",
                                          (unsigned long long)v.u);
                    }
                    if (shown < arg->len)
                        snprintf(buf + n, sizeof buf - (size_t)n, " %s", term_glyph()->ellipsis);
                    tl_add(L, buf, strlen(buf), changed ? PLAIN : term_attr(TC_DIM));
                }
        }
        if (a->run_chatter) {
            tl_add(L, "output of the tools:", 20, term_attr(TC_DIM));
            tl_wrap(L, a->run_chatter, cols, term_attr(TC_DIM));
        }
    } else if (a->have_spec) {
        tl_wrap(L, "press r to run this kernel", cols, term_attr(TC_DIM));
    } else if (a->spec_error[0]) {
        tl_wrap(L, a->spec_error, cols, term_attr(TC_BAD));
    }
    /* Why it ran where it ran: last, after what the kernel did. */
    if (a->have_run && a->run.note[0] && !a->note_repeat)
        tl_wrap(L, a->run.note, cols, term_attr(TC_DIM));
}

/* Word-wraps text to width columns with every line indented by `indent` spaces. */
static void tl_wrap_indent(tlines *L, const char *text, int width, int indent, int attr)
{
    tlines W = {0};
    tl_wrap(&W, text, width - indent, attr);
    for (int i = 0; i < W.n; i++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%*s%s", indent, "", W.v[i].s);
        tl_add(L, buf, strlen(buf), W.v[i].attr);
    }
    tl_free(&W);
}

/* A copy of s with every occurrence of path replaced by its file name (caller frees);
 * NULL when path is empty or out of memory. */
static char *path_to_name(const char *s, const char *path)
{
    const size_t pl = path ? strlen(path) : 0;
    if (pl == 0)
        return NULL;
    const char *name = pane_base_name(path);
    char *out = malloc(strlen(s) + 1), *o = out;
    if (!out)
        return NULL;
    while (*s) {
        if (strncmp(s, path, pl) == 0) {
            o += sprintf(o, "%s", name);
            s += pl;
        } else {
            *o++ = *s++;
        }
    }
    *o = '\0';
    return out;
}

static void build_grade_lines(const app *a, tlines *L, int cols)
{
    if (a->grade_status != GL_OK) {
        tl_add(L, "grading could not run:", 22, term_attr(TC_BAD));
        tl_wrap(L, a->grade_error, cols, term_attr(TC_BAD));
        return;
    }
    const gl_grade_report *r = &a->grade;
    tl_printf(L, cols, r->passed ? term_attr(TC_GOOD) : term_attr(TC_BAD), "%s (graded on the %s)",
              r->passed ? "PASSED: every check passed" : "NOT YET: some checks failed",
              strcmp(r->backend, "gpu") == 0 ? "GPU" : "simulator");
    if (!r->compiled) {
        tl_add(L, "your kernel did not compile:", 28, term_attr(TC_BAD));
        tl_wrap(L, r->compile_log ? r->compile_log : "", cols, PLAIN);
    }
    /* failures first (what to fix), then the checks that could not run, then passes;
     * checks that did not fail and say the same (or nothing) share one entry */
    bool done[256] = {false};
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < r->nchecks && i < 256; i++) {
            const gl_check_result *c = &r->checks[i];
            int rank = c->passed ? 2 : c->not_run ? 1 : 0;
            if (rank != pass || done[i])
                continue;
            char names[1024];
            size_t used = (size_t)snprintf(names, sizeof names, "%s", c->name);
            for (int j = i + 1; rank > 0 && j < r->nchecks && j < 256; j++) {
                const gl_check_result *o = &r->checks[j];
                if ((o->passed ? 2 : o->not_run ? 1 : 0) != rank || strcmp(o->detail, c->detail))
                    continue;
                done[j] = true;
                if (used < sizeof names)
                    used += (size_t)snprintf(names + used, sizeof names - used, ", %s", o->name);
            }
            const int attr = rank == 2   ? term_attr(TC_GOOD)
                             : rank == 1 ? term_attr(TC_WARN)
                                         : term_attr(TC_BAD);
            if (rank == 2 && c->detail[0] && !strchr(c->detail, '\n')) {
                /* a pass on one line with what it checked, the rest indented */
                char *d = path_to_name(c->detail, a->ex_path);
                const char *det = d ? d : c->detail;
                const size_t n = strlen(names) + strlen(det) + 16;
                char *line = malloc(n);
                if (line) {
                    snprintf(line, n, "PASS %s: %s", names, det);
                    tlines W = {0};
                    tl_wrap(&W, line, cols, attr);
                    const char *rest = line + (W.n ? strlen(W.v[0].s) : strlen(line));
                    while (*rest == ' ')
                        rest++;
                    if (W.n)
                        tl_add(L, W.v[0].s, strlen(W.v[0].s), attr);
                    if (*rest)
                        tl_wrap_indent(L, rest, cols, 5, PLAIN);
                    tl_free(&W);
                    free(line);
                }
                free(d);
                continue;
            }
            tl_printf(L, cols, attr, "%s %s",
                      rank == 2   ? "PASS"
                      : rank == 1 ? "NOT RUN"
                                  : "FAIL",
                      names);
            if (c->detail[0]) {
                /* the learner's copy by its file name (its folder is in the text pane) */
                char *d = path_to_name(c->detail, a->ex_path);
                tl_wrap_indent(L, d ? d : c->detail, cols, 5, PLAIN);
                free(d);
            }
        }
}

void pane_result_draw(const app *a, WINDOW *win, int h, int w, struct view_metrics *m)
{
    tlines L = {0};
    int cols = w - 4;
    if (app_on_exercise(a) && a->have_grade) {
        build_grade_lines(a, &L, cols);
        if (a->have_run)
            tl_add(&L, "", 0, 0);
    }
    if (!app_on_exercise(a) || a->have_run)
        pane_result_run_lines(a, &L, cols);
    else if (!a->have_grade) {
        char msg[200];
        if (a->ex_pick > 0 || a->ex_default > 0)
            snprintf(msg, sizeof msg,
                     "press g to grade your kernel; r runs it and the reference at n = %lld and "
                     "compares them (z: another size)",
                     (long long)app_exercise_n(a));
        else
            snprintf(msg, sizeof msg,
                     "press g to grade your kernel; r runs it and the reference at the largest "
                     "graded size that runs within a second and compares them (z: another size)");
        tl_wrap(&L, msg, cols, term_attr(TC_DIM));
        if (a->spec_error[0])
            tl_wrap(&L, a->spec_error, cols, term_attr(TC_BAD));
    }
    m->res_lines = L.n;
    m->res_rows = h - 2;
    int top = tl_draw(win, &L, a->res_top, 1, 2, h - 2, cols);
    if (top + h - 2 < L.n)
        view_put(win, h - 1, w - 34, 32,
                 a->res_full ? " J/K or Up/Down: more " : " Enter: all  J/K scroll: more ",
                 term_attr(TC_DIM));
    tl_free(&L);
}
