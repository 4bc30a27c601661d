/* exercise.c — `r` on an exercise: the learner's run, the reference's at the same size
 * and inputs, the grader's comparison (exercise.h). */
#include "runtime/exercise.h"

#include "runtime/child.h"
#include "runtime/grade.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void exercise_result_free(gl_exercise_result *ex)
{
    if (!ex)
        return;
    spec_buffers_free(ex->ref_buffers, ex->ref_nargs);
    memset(ex, 0, sizeof *ex);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* The exercise's reference at size n with the lesson's inputs: its buffers into ex (on
 * the simulator; ptx: already compiled, else compiled here). *secs (may be NULL) gets
 * the run's wall time, compiling excluded. */
static gl_status ref_run(const gl_lesson *l, int64_t n, const char *ptx, const gl_run_opts *opts,
                         gl_exercise_result *ex, double *secs)
{
    gl_spec spec;
    gl_error err = {0};
    gl_status st = lesson_exercise_spec(l, n, 0, l->exercise->reference, &spec, &err);
    if (st == GL_OK) {
        gl_run_result res;
        double t0 = gl_child_now();
        st = ptx ? gl_run_ptx(&spec, ptx, opts, &res, &err) : gl_run_spec(&spec, opts, &res, &err);
        if (secs)
            *secs = gl_child_now() - t0;
        if (st == GL_OK && res.buffers) {
            spec_buffers_free(ex->ref_buffers, ex->ref_nargs);
            ex->ref_buffers = res.buffers;
            ex->ref_nargs = res.nargs;
            res.buffers = NULL;
            res.nargs = 0;
        }
        gl_run_result_free(&res);
        spec_free(&spec);
    }
    ex->ref_status = st;
    if (st != GL_OK)
        snprintf(ex->ref_error, sizeof ex->ref_error, "%.2000s", err.msg);
    return st;
}

/* Chooses ex->n: the reference timed at each graded size, smallest first (see
 * exercise_run). */
static void choose_size(const gl_lesson *l, const gl_run_opts *opts, gl_exercise_result *ex)
{
    ex->nsizes = grade_sizes(l->exercise, ex->sizes, GL_EXERCISE_MAX_SIZES);
    qsort(ex->sizes, (size_t)ex->nsizes, sizeof ex->sizes[0], cmp_i64);
    for (int i = 0; i < ex->nsizes; i++)
        ex->secs[i] = -1;
    ex->n = ex->nsizes > 0 ? ex->sizes[0] : 1000;
    gl_compiled c = {0};
    gl_error err = {0};
    ex->ref_status = gl_compile_cuda(l->exercise->reference, &opts->compile, &c, &err);
    if (ex->ref_status != GL_OK) {
        snprintf(ex->ref_error, sizeof ex->ref_error, "%.2000s", err.msg);
        return;
    }
    gl_run_opts o = *opts;
    o.backend = GL_BACKEND_SIM;
    o.timeout_s = 2 * GL_EXERCISE_SIZE_SECONDS; /* a slower size is not chosen: no need
                                                   to finish it */
    gl_exercise_result scratch = {0};
    for (int i = 0; i < ex->nsizes; i++) {
        /* the smallest size's output is kept whatever its time: it is the fallback */
        gl_exercise_result *into = i == 0 ? ex : &scratch;
        /* a failure at a larger size (stopped at the time limit: too slow) is not
         * chosen; at the smallest, the reference fails: ex says why */
        if (ref_run(l, ex->sizes[i], c.ptx, &o, into, &ex->secs[i]) != GL_OK)
            break;
        if (ex->secs[i] >= GL_EXERCISE_SIZE_SECONDS)
            break;
        if (i > 0) { /* the largest size within the limit so far: its output is the reference's */
            spec_buffers_free(ex->ref_buffers, ex->ref_nargs);
            ex->ref_buffers = scratch.ref_buffers;
            ex->ref_nargs = scratch.ref_nargs;
            scratch.ref_buffers = NULL;
            scratch.ref_nargs = 0;
        }
        ex->n = ex->sizes[i];
    }
    exercise_result_free(&scratch);
    gl_compiled_free(&c);
}

void exercise_compare(const gl_exercise *e, const gl_spec *spec, const gl_run_result *res,
                      gl_exercise_result *ex)
{
    gl_exercise_cmp *c = &ex->cmp;
    memset(c, 0, sizeof *c);
    c->first_arg = -1;
    if (!ex->ref_buffers || !res->buffers)
        return;
    const gl_check *k = grade_reference_check(e, ex->n);
    c->n = ex->n;
    c->tolerance = k ? k->tolerance : 0;
    for (int i = 0; i < spec->nargs; i++) {
        const gl_arg *arg = &spec->args[i];
        if (!arg->is_ptr || !grade_is_output(k, arg->name))
            continue;
        if (i >= res->nargs || i >= ex->ref_nargs)
            return;
        const gl_buffer *got = &res->buffers[i], *exp = &ex->ref_buffers[i];
        size_t bytes = arg->len * spec_type_size(arg->type);
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
    c->done = 1;
}

gl_status exercise_run(const gl_lesson *l, const char *source, int64_t n, const gl_run_opts *opts,
                       gl_run_result *res, gl_error *err, gl_exercise_result *ex)
{
    memset(ex, 0, sizeof *ex);
    memset(res, 0, sizeof *res);
    ex->cmp.first_arg = -1;
    ex->n = n;
    if (n <= 0)
        choose_size(l, opts, ex);
    gl_spec spec;
    gl_status st = lesson_exercise_spec(l, ex->n, 0, source, &spec, err);
    const int have_spec = st == GL_OK;
    if (have_spec)
        st = gl_run_spec(&spec, opts, res, err);
    if (!ex->ref_buffers && ex->ref_status == GL_OK) {
        /* the grader's limits for the reference: the exercise's step limit */
        gl_run_opts ro = {
            .backend = GL_BACKEND_SIM, .compile = opts->compile, .step_limit = opts->step_limit};
        ref_run(l, ex->n, NULL, &ro, ex, NULL);
    }
    if (have_spec) {
        if (st == GL_OK)
            exercise_compare(l->exercise, &spec, res, ex);
        spec_free(&spec);
    }
    return st;
}
