/* grade.c — grading an exercise against its hidden reference (see grade.h). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/grade.h"

/* Warp instructions one graded launch may issue before it counts as an endless loop.
 * Lesson kernels need a tiny fraction of this. */
#define GRADE_STEP_LIMIT (UINT64_C(1) << 26)

void grade_report_free(gl_grade_report *r)
{
    if (!r)
        return;
    free(r->compile_log);
    free(r->checks);
    memset(r, 0, sizeof *r);
}

/* One size's runs: the reference's (on the simulator) and the submission's. */
typedef struct size_run {
    int64_t n;
    gl_spec spec;         /* the submission's spec at this n (args, for comparing) */
    gl_run_result expect; /* reference */
    gl_run_result got;    /* submission, on the simulator (memory checks need it) */
    gl_status status;     /* of the submission's run */
    char error[4096];     /* its error message, if any */
    int on_gpu;           /* --backend gpu: the submission also ran on the GPU */
    gl_run_result got_gpu;
    gl_status gpu_status;
    char gpu_error[4096];
} size_run;

static void add_detail(gl_check_result *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void add_detail(gl_check_result *c, const char *fmt, ...)
{
    size_t used = strlen(c->detail);
    if (used + 1 >= sizeof c->detail)
        return;
    if (used)
        c->detail[used++] = '\n', c->detail[used] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->detail + used, sizeof c->detail - used, fmt, ap);
    va_end(ap);
}

static void format_value(char *buf, size_t len, gl_type t, gl_value v)
{
    if (t == GL_F32 || t == GL_F64)
        snprintf(buf, len, "%.9g", v.f);
    else if (gl_type_is_signed(t))
        snprintf(buf, len, "%lld", (long long)v.i);
    else
        snprintf(buf, len, "%llu", (unsigned long long)v.u);
}

static int values_equal(gl_type t, gl_value a, gl_value b, double tol)
{
    if (t == GL_F32 || t == GL_F64) {
        if (isnan(a.f) || isnan(b.f))
            return isnan(a.f) && isnan(b.f);
        if (tol == 0)
            return a.f == b.f && signbit(a.f) == signbit(b.f);
        return fabs(a.f - b.f) <= tol;
    }
    return a.u == b.u;
}

static int is_output(const gl_check *k, const char *name)
{
    if (!k->outputs)
        return 1;
    for (int i = 0; i < k->noutputs; i++)
        if (strcmp(k->outputs[i], name) == 0)
            return 1;
    return 0;
}

static int uses_size(const gl_check *k, const gl_exercise *e, int64_t n)
{
    const int64_t *s = k->sizes ? k->sizes : e->sizes;
    int count = k->sizes ? k->nsizes : e->nsizes;
    for (int i = 0; i < count; i++)
        if (s[i] == n)
            return 1;
    return 0;
}

/* Compares the submission's outputs with the reference's at one size. */
static int compare_outputs(const gl_check *k, const size_run *r, const gl_run_result *got,
                           const char *where, gl_check_result *c)
{
    int ok = 1;
    for (int a = 0; a < r->spec.nargs; a++) {
        const gl_arg *arg = &r->spec.args[a];
        if (!arg->is_ptr || !is_output(k, arg->name))
            continue;
        size_t first = SIZE_MAX, wrong = 0;
        for (size_t i = 0; i < arg->len; i++) {
            gl_value want = gl_buffer_get(r->expect.buffers[a].data, arg->type, i);
            gl_value have = gl_buffer_get(got->buffers[a].data, arg->type, i);
            if (!values_equal(arg->type, want, have, k->tolerance)) {
                if (first == SIZE_MAX)
                    first = i;
                wrong++;
            }
        }
        if (wrong) {
            char w[64], g[64];
            format_value(w, sizeof w, arg->type,
                         gl_buffer_get(r->expect.buffers[a].data, arg->type, first));
            format_value(g, sizeof g, arg->type,
                         gl_buffer_get(got->buffers[a].data, arg->type, first));
            add_detail(c, "n = %lld%s: %s[%zu] is %s, expected %s (%zu of %zu elements differ)",
                       (long long)r->n, where, arg->name, first, g, w, wrong, arg->len);
            ok = 0;
        }
    }
    return ok;
}

static int is_memory_fault(const sim_fault *f)
{
    return f->kind == SIM_FAULT_OUT_OF_BOUNDS || f->kind == SIM_FAULT_MISALIGNED;
}

/* Sizes whose failure is described in full; the rest are only counted. */
#define GRADE_DETAILED_SIZES 3

static void run_check(const gl_exercise *e, const gl_check *k, const size_run *runs, int nruns,
                      gl_check_result *c)
{
    snprintf(c->name, sizeof c->name, "%s", k->name);
    c->passed = 1;
    int failed = 0;
    char more[256] = "";
    for (int i = 0; i < nruns; i++) {
        const size_run *r = &runs[i];
        if (!uses_size(k, e, r->n))
            continue;
        int ok = 1;
        gl_check_result scratch = {0};
        gl_check_result *out = failed < GRADE_DETAILED_SIZES ? c : &scratch;
        if (k->kind == GL_CHECK_NO_FAULT) {
            if (is_memory_fault(&r->got.fault)) {
                ok = 0;
                add_detail(out, "n = %lld: %s", (long long)r->n, r->error);
            }
        } else if (r->status != GL_OK) {
            ok = 0;
            add_detail(out, "n = %lld: the kernel did not finish: %s", (long long)r->n, r->error);
        } else {
            ok = compare_outputs(k, r, &r->got, "", out);
        }
        if (ok && k->kind == GL_CHECK_MATCHES_REFERENCE && r->on_gpu) {
            if (r->gpu_status != GL_OK) {
                ok = 0;
                add_detail(out, "n = %lld, on the GPU: %s", (long long)r->n, r->gpu_error);
            } else {
                ok = compare_outputs(k, r, &r->got_gpu, ", on the GPU", out);
            }
        }
        if (!ok) {
            if (failed >= GRADE_DETAILED_SIZES)
                snprintf(more + strlen(more), sizeof more - strlen(more), "%s%lld",
                         failed > GRADE_DETAILED_SIZES ? ", " : "", (long long)r->n);
            failed++;
            c->passed = 0;
        }
    }
    if (failed > GRADE_DETAILED_SIZES)
        add_detail(c, "also fails for n = %s", more);
    if (c->passed) {
        char sizes[256] = "";
        size_t used = 0;
        for (int i = 0; i < nruns && used < sizeof sizes - 24; i++)
            if (uses_size(k, e, runs[i].n))
                used += (size_t)snprintf(sizes + used, sizeof sizes - used, "%s%lld",
                                         used ? ", " : "", (long long)runs[i].n);
        add_detail(c, k->kind == GL_CHECK_NO_FAULT
                          ? "no out-of-bounds or misaligned access for n = %s"
                          : "output matches the reference for n = %s",
                   sizes);
    } else if (k->kind == GL_CHECK_NO_FAULT) {
        add_detail(c, "A thread accessed memory outside its buffer. When n is not a "
                      "multiple of the block size, the last block has threads whose "
                      "index is >= n: they must not touch the arrays.");
    }
}

/* Every distinct size any check uses, in the order they first appear. */
static int collect_sizes(const gl_exercise *e, int64_t *out, int max)
{
    int n = 0;
    for (int c = -1; c < e->nchecks; c++) {
        const int64_t *s = c < 0 ? e->sizes : e->checks[c].sizes;
        int count = c < 0 ? e->nsizes : e->checks[c].nsizes;
        for (int i = 0; s && i < count && n < max; i++) {
            int dup = 0;
            for (int j = 0; j < n; j++)
                dup |= out[j] == s[i];
            if (!dup)
                out[n++] = s[i];
        }
    }
    return n;
}

gl_status grade_exercise(const gl_lesson *l, const char *submission, const gl_grade_opts *opts,
                         gl_grade_report *rep, gl_error *err)
{
    memset(rep, 0, sizeof *rep);
    gl_grade_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    const gl_exercise *e = l->exercise;
    if (!e)
        return gl_fail(err, GL_ERR_INPUT, "lesson '%s' has no exercise to grade", l->id);
    snprintf(rep->lesson, sizeof rep->lesson, "%s", l->id);
    snprintf(rep->submission, sizeof rep->submission, "%s",
             gl_display_path(submission ? submission : e->starter));
    gl_backend_kind backend = opts->backend == GL_BACKEND_GPU ? GL_BACKEND_GPU : GL_BACKEND_SIM;
    snprintf(rep->backend, sizeof rep->backend, "%s", gl_backend_name(backend));

    if (backend == GL_BACKEND_GPU) {
        gl_device_info info;
        char note[256];
        gl_status gs = gl_device_query(GL_BACKEND_GPU, &info, note, sizeof note, err);
        if (gs != GL_OK)
            return gs;
    }
    char *sub_path = strdup(rep->submission);
    gl_compiled ref = {0}, sub = {0};
    size_run *runs = NULL;
    int nruns = 0;
    gl_status st = gl_compile_cuda(e->reference, &opts->compile, &ref, err);
    if (st != GL_OK) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        st = gl_fail(err, GL_ERR_INPUT, "%s: the reference solution does not compile:\n%s",
                     l->dir, msg);
        goto done;
    }

    rep->nchecks = e->nchecks + 1;
    rep->checks = calloc((size_t)rep->nchecks, sizeof *rep->checks);
    if (!rep->checks) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    gl_check_result *compiles = &rep->checks[0];
    snprintf(compiles->name, sizeof compiles->name, "compiles");
    gl_error cerr = {0};
    if (gl_compile_cuda(sub_path, &opts->compile, &sub, &cerr) != GL_OK) {
        if (cerr.status != GL_ERR_COMPILE) {
            st = gl_fail(err, cerr.status, "%s", cerr.msg);
            goto done;
        }
        rep->compile_log = strdup(cerr.msg);
        snprintf(compiles->detail, sizeof compiles->detail, "%.2000s", cerr.msg);
        for (int i = 0; i < e->nchecks; i++) {
            snprintf(rep->checks[i + 1].name, sizeof rep->checks[i + 1].name, "%s",
                     e->checks[i].name);
            snprintf(rep->checks[i + 1].detail, sizeof rep->checks[i + 1].detail,
                     "not run: the kernel does not compile");
        }
        goto done;
    }
    rep->compiled = 1;
    compiles->passed = 1;
    snprintf(compiles->detail, sizeof compiles->detail, "compiled with %s",
             gl_compiler_name(sub.used));

    int64_t sizes[64];
    int nsizes = collect_sizes(e, sizes, 64);
    runs = calloc((size_t)nsizes, sizeof *runs);
    if (!runs) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < nsizes; i++, nruns++) {
        size_run *r = &runs[i];
        r->n = sizes[i];
        gl_spec ref_spec;
        st = lesson_exercise_spec(l, r->n, (uint64_t)i, e->reference, &ref_spec, err);
        if (st != GL_OK)
            goto done;
        gl_run_opts ro = {.backend = GL_BACKEND_SIM, .step_limit = GRADE_STEP_LIMIT};
        gl_error rerr = {0};
        gl_status rs = gl_run_ptx(&ref_spec, ref.ptx, &ro, &r->expect, &rerr);
        spec_free(&ref_spec);
        if (rs != GL_OK) {
            st = gl_fail(err, GL_ERR_INPUT, "%s: the reference solution fails at n = %lld: %s",
                         l->dir, (long long)r->n, rerr.msg);
            nruns++;
            goto done;
        }
        st = lesson_exercise_spec(l, r->n, (uint64_t)i, sub_path, &r->spec, err);
        if (st != GL_OK) {
            nruns++;
            goto done;
        }
        /* The simulator always runs the submission: only it sees out-of-bounds
         * accesses that a GPU lets pass. */
        gl_run_opts so = {.backend = GL_BACKEND_SIM, .step_limit = GRADE_STEP_LIMIT};
        gl_error serr = {0};
        r->status = gl_run_ptx(&r->spec, sub.ptx, &so, &r->got, &serr);
        if (r->status != GL_OK)
            snprintf(r->error, sizeof r->error, "%s", serr.msg);
        if (r->status == GL_ERR_INPUT) {
            st = gl_fail(err, r->status, "%s", serr.msg);
            nruns++;
            goto done;
        }
        /* On the GPU only a kernel the simulator ran cleanly: a faulting one could
         * corrupt GPU memory or hang. */
        if (backend == GL_BACKEND_GPU && r->status == GL_OK) {
            gl_run_opts go = {.backend = GL_BACKEND_GPU};
            gl_error gerr = {0};
            r->on_gpu = 1;
            r->gpu_status = gl_run_ptx(&r->spec, sub.ptx, &go, &r->got_gpu, &gerr);
            if (r->gpu_status != GL_OK)
                snprintf(r->gpu_error, sizeof r->gpu_error, "%s", gerr.msg);
            if (r->gpu_status == GL_ERR_NODEVICE) {
                st = gl_fail(err, r->gpu_status, "%s", gerr.msg);
                nruns++;
                goto done;
            }
        }
    }
    for (int i = 0; i < e->nchecks; i++)
        run_check(e, &e->checks[i], runs, nruns, &rep->checks[i + 1]);
    rep->passed = 1;
    for (int i = 0; i < rep->nchecks; i++)
        rep->passed &= rep->checks[i].passed;

done:
    for (int i = 0; i < nruns; i++) {
        spec_free(&runs[i].spec);
        gl_run_result_free(&runs[i].expect);
        gl_run_result_free(&runs[i].got);
        gl_run_result_free(&runs[i].got_gpu);
    }
    free(runs);
    gl_compiled_free(&ref);
    gl_compiled_free(&sub);
    free(sub_path);
    return st;
}

void grade_report_write_text(FILE *f, const gl_grade_report *r)
{
    int passed = 0;
    fprintf(f, "Grading %s for lesson '%s' (on the %s)\n", r->submission, r->lesson,
            strcmp(r->backend, "gpu") == 0 ? "GPU and the simulator" : "simulator");
    for (int i = 0; i < r->nchecks; i++) {
        const gl_check_result *c = &r->checks[i];
        passed += c->passed;
        fprintf(f, "  %s  %s\n", c->passed ? "PASS" : "FAIL", c->name);
        const char *line = c->detail;
        while (*line) {
            const char *nl = strchr(line, '\n');
            int len = nl ? (int)(nl - line) : (int)strlen(line);
            fprintf(f, "        %.*s\n", len, line);
            line += len + (nl ? 1 : 0);
        }
    }
    fprintf(f, "%s: %d of %d checks passed\n", r->passed ? "PASSED" : "FAILED", passed,
            r->nchecks);
}

void grade_report_write_json(FILE *f, const gl_grade_report *r)
{
    cJSON *js = cJSON_CreateObject();
    cJSON_AddStringToObject(js, "lesson", r->lesson);
    cJSON_AddStringToObject(js, "submission", r->submission);
    cJSON_AddStringToObject(js, "backend", r->backend);
    cJSON_AddBoolToObject(js, "passed", r->passed);
    cJSON_AddBoolToObject(js, "compiled", r->compiled);
    cJSON *checks = cJSON_AddArrayToObject(js, "checks");
    for (int i = 0; i < r->nchecks; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", r->checks[i].name);
        cJSON_AddBoolToObject(c, "passed", r->checks[i].passed);
        cJSON_AddStringToObject(c, "detail", r->checks[i].detail);
        cJSON_AddItemToArray(checks, c);
    }
    char *text = cJSON_Print(js);
    if (text)
        fprintf(f, "%s\n", text);
    free(text);
    cJSON_Delete(js);
}
