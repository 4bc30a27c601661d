/* test_compare.c — like with like: the elements a launch changed (bit for bit), whether
 * two launches did the same work (runtime/compare.h), a step's per-kernel launches
 * ("kernels", lesson_step_spec_for) and, for every shipped step whose text tells the
 * learner to press f, that each kernel f runs there computes the whole output. Runs from
 * the repository root. */
#include <check.h>
#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/backend.h"
#include "runtime/compare.h"
#include "runtime/lesson.h"
#include "tests/temp_cache.h"

/* ----------------------------------------------------------- changed elements */

START_TEST(test_changed_counts_every_bit_change_of_a_float)
{
    /* the buffers view used to call a change under about 1e-3 no change: a softmax's
     * outputs of 1e-6 over zeros were "unchanged" */
    const float before[6] = {0.0f, 1.0f, 1e-6f, 0.0f, NAN, 5.0f};
    float after[6] = {1e-6f, 1.0f + 1e-7f, 1e-6f, -0.0f, NAN, 5.0f};
    size_t first = 99;
    ck_assert_uint_eq(gl_compare_count_changed(GL_F32, 6, before, after, &first), 3);
    ck_assert_uint_eq(first, 0);
    ck_assert_uint_eq(gl_compare_count_changed(GL_F32, 6, before, before, &first), 0);
    ck_assert_uint_eq(first, 6);
    const int32_t a[3] = {1, 2, 3}, b[3] = {1, 2, 4};
    ck_assert_uint_eq(gl_compare_count_changed(GL_I32, 3, a, b, &first), 1);
    ck_assert_uint_eq(first, 2);
}
END_TEST

/* A gl_work with one output buffer "C" of len elements, changed of them. */
static gl_work work(const char *kernel, uint64_t blocks, uint64_t threads, size_t len,
                    size_t changed)
{
    gl_work w;
    memset(&w, 0, sizeof w);
    snprintf(w.kernel, sizeof w.kernel, "%s", kernel);
    w.blocks = blocks, w.threads = threads, w.flops = 33554432;
    w.nbuf = 2;
    snprintf(w.buf[0].name, sizeof w.buf[0].name, "A");
    w.buf[0].len = len, w.buf[0].changed = 0;
    snprintf(w.buf[1].name, sizeof w.buf[1].name, "C");
    w.buf[1].len = len, w.buf[1].changed = changed;
    return w;
}

START_TEST(test_work_same_says_which_buffer_differs)
{
    char why[400];
    const gl_work regtile = work("matmul_regtile", 16, 4096, 65536, 65536);
    /* lesson 12 step 4 before its per-kernel launches: naive on the register tile's grid */
    gl_work naive = work("matmul_naive", 16, 4096, 65536, 4096);
    ck_assert_int_eq(gl_compare_work_same(&regtile, &naive, why, sizeof why), 0);
    ck_assert_str_eq(why, "not the same work as the previous run: matmul_naive changed 4096 of "
                          "the 65536 elements of C, matmul_regtile 65536");
    /* with its own launch: the same work, in another shape */
    naive = work("matmul_naive", 256, 65536, 65536, 65536);
    ck_assert_int_eq(gl_compare_work_same(&regtile, &naive, why, sizeof why), 1);
    ck_assert_str_eq(why, "the same work as the previous run in another shape: matmul_naive ran "
                          "65536 threads in 256 blocks, matmul_regtile 4096 in 16, and each "
                          "changed 65536 of the 65536 elements of C");
    /* the same launch again: nothing to say */
    ck_assert_int_eq(gl_compare_work_same(&regtile, &regtile, why, sizeof why), 1);
    ck_assert_str_eq(why, "");
    /* another length, or other declared FLOPs */
    gl_work partial = work("reduce_grid_stride", 1056, 135168, 1056, 1056);
    gl_work vec = work("reduce_vectorized", 1056, 135168, 1056, 1);
    vec.buf[1].len = 1;
    ck_assert_int_eq(gl_compare_work_same(&vec, &partial, why, sizeof why), 0);
    ck_assert_str_eq(why, "not the same work as the previous run: C holds 1056 elements for "
                          "reduce_grid_stride, 1 for reduce_vectorized");
    naive.flops = 1;
    ck_assert_int_eq(gl_compare_work_same(&regtile, &naive, why, sizeof why), 0);
    ck_assert_ptr_nonnull(strstr(why, "the launch declares 1 FLOPs for matmul_naive, 33554432 "
                                      "for matmul_regtile (65536 threads in 256 blocks against "
                                      "4096 in 16)"));
    /* the same kernel twice */
    gl_work again = regtile;
    again.buf[1].changed = 10;
    ck_assert_int_eq(gl_compare_work_same(&regtile, &again, why, sizeof why), 0);
    ck_assert_str_eq(why, "not the same work as the previous run: it changed 10 of the 65536 "
                          "elements of C, the previous run 65536");
}
END_TEST

/* ---------------------------------------------------------- per-kernel launches */

static const char k_lesson[] =
    "{\"format\": 1, \"id\": \"mm\", \"title\": \"t\", \"summary\": \"s\", \"steps\": [{"
    "\"title\": \"t\", \"text\": \"x\", \"kernel\": \"matmul.cu\", %s"
    "\"launch\": {\"kernel\": \"matmul_regtile\", \"grid\": [1, 1, 1], \"block\": [16, 16, 1],"
    " \"flops\": 524288, \"args\": ["
    "{\"name\": \"A\", \"type\": \"f32*\", \"len\": 4096, \"init\": {\"fill\": 1}},"
    "{\"name\": \"B\", \"type\": \"f32*\", \"len\": 4096, \"init\": {\"fill\": 2}},"
    "{\"name\": \"C\", \"type\": \"f32*\", \"len\": 4096, \"shape\": [64, 64]},"
    "{\"name\": \"M\", \"type\": \"i32\", \"value\": 64}, {\"name\": \"N\", \"type\": \"i32\","
    " \"value\": 64}, {\"name\": \"K\", \"type\": \"i32\", \"value\": 64}]}}]}";

/* lesson_parse of k_lesson with `kernels` (text before "launch") in the step; the
 * status, and *l when it loaded. */
static gl_status parse(const char *kernels, gl_lesson *l, gl_error *err)
{
    char text[4096];
    snprintf(text, sizeof text, k_lesson, kernels);
    return lesson_parse(text, strlen(text), "lessons/12-matmul", l, err);
}

START_TEST(test_step_kernels_give_a_kernel_its_own_grid_and_lengths)
{
    gl_lesson l;
    gl_error err = {0};
    ck_assert_msg(parse("\"kernels\": {\"matmul_naive\": {\"grid\": [4, 4, 1], \"bytes_moved\": 9,"
                        " \"args\": {\"C\": {\"len\": 4096, \"shape\": [64, 64]}}},"
                        " \"matmul_tiled\": {\"block\": [16, 16, 1]}},",
                        &l, &err) == GL_OK,
                  "%s", err.msg);
    ck_assert_str_eq(lesson_step_kernel_name(&l.steps[0]), "matmul_regtile");
    gl_spec s;
    ck_assert_msg(lesson_step_spec_for(&l, 0, "matmul_naive", GL_BACKEND_SIM, &s, &err) == GL_OK,
                  "%s", err.msg);
    ck_assert_str_eq(s.kernel, "matmul_naive");
    ck_assert_uint_eq(s.grid[0], 4);
    ck_assert_uint_eq(s.grid[1], 4);
    ck_assert_uint_eq(s.block[0], 16);
    ck_assert_double_eq(s.bytes_moved, 9);
    ck_assert_double_eq(s.flops, 524288); /* not given: the step's */
    ck_assert_uint_eq(s.args[2].rows, 64);
    spec_free(&s);
    /* a kernel with no entry: the step's launch with its name */
    ck_assert_msg(lesson_step_spec_for(&l, 0, "other", GL_BACKEND_SIM, &s, &err) == GL_OK, "%s",
                  err.msg);
    ck_assert_str_eq(s.kernel, "other");
    ck_assert_uint_eq(s.grid[0], 1);
    spec_free(&s);
    /* the step's own kernel, or none: the step's launch */
    ck_assert_int_eq(lesson_step_spec_for(&l, 0, "matmul_regtile", GL_BACKEND_SIM, &s, &err),
                     GL_OK);
    ck_assert_str_eq(s.kernel, "matmul_regtile");
    spec_free(&s);
    ck_assert_int_eq(lesson_step_spec_for(&l, 0, NULL, GL_BACKEND_SIM, &s, &err), GL_OK);
    ck_assert_str_eq(s.kernel, "matmul_regtile");
    spec_free(&s);
    lesson_free(&l);
    /* a length the shape does not fit is the spec's error, naming the entry */
    ck_assert_int_eq(
        parse("\"kernels\": {\"matmul_naive\": {\"args\": {\"C\": {\"len\": 10}}}},", &l, &err),
        GL_OK);
    ck_assert_int_ne(lesson_step_spec_for(&l, 0, "matmul_naive", GL_BACKEND_SIM, &s, &err), GL_OK);
    ck_assert_msg(strstr(err.msg, "steps[0].launch with kernels.matmul_naive"), "%s", err.msg);
    lesson_free(&l);
}
END_TEST

START_TEST(test_step_kernels_errors_name_the_field)
{
    static const struct {
        const char *kernels, *msg;
    } cases[] = {
        {"\"kernels\": [1],", "steps[0].kernels: must be an object"},
        {"\"kernels\": {\"matmul_naive\": {\"grdi\": [1]}},",
         "steps[0].kernels.matmul_naive.grdi: unknown key"},
        {"\"kernels\": {\"matmul_regtile\": {\"grid\": [1]}},",
         "steps[0].kernels.matmul_regtile: is the step's own kernel"},
        {"\"kernels\": {\"matmul_naive\": 3},",
         "steps[0].kernels.matmul_naive: must be an object of changes to the step's launch"},
        {"\"kernels\": {\"matmul_naive\": {\"args\": {\"M\": {\"len\": 3}}}},",
         "steps[0].kernels.matmul_naive.args.M.len: unknown key"},
        {"\"kernels\": {\"matmul_naive\": {\"args\": {\"C\": {\"value\": 3}}}},",
         "steps[0].kernels.matmul_naive.args.C.value: unknown key"},
        {"\"kernels\": {\"matmul_naive\": {\"args\": {\"D\": {\"len\": 3}}}},",
         "steps[0].kernels.matmul_naive.args.D: names no argument of the step's launch"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gl_lesson l;
        gl_error err = {0};
        ck_assert_int_eq(parse(cases[i].kernels, &l, &err), GL_ERR_INPUT);
        ck_assert_msg(strstr(err.msg, cases[i].msg), "got '%s', want '%s'", err.msg, cases[i].msg);
    }
}
END_TEST

/* --------------------------------------------- every kernel f runs, whole output */

/* Whether the step's text tells the learner to press f ("f runs ...", "press f"). */
static int text_says_f(const char *text)
{
    regex_t re;
    ck_assert_int_eq(regcomp(&re, "(^|[^[:alnum:]_])(f runs|press f|f cannot)", REG_EXTENDED), 0);
    const int hit = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return hit;
}

/* Runs spec on the simulator, with the buffers outs[] names (one flag per argument; may
 * be NULL) filled with a value no kernel here writes, so that every element written counts
 * as changed; its work into *w. */
static void run_work(gl_spec *spec, const int *outs, const char *what, gl_run_result *res,
                     gl_work *w)
{
    for (int i = 0; outs && i < spec->nargs; i++)
        if (outs[i]) {
            gl_arg *a = &spec->args[i];
            free(a->init.values);
            memset(&a->init, 0, sizeof a->init);
            a->init.kind = GL_INIT_FILL;
            if (spec_type_is_float(a->type))
                a->init.a.f = -7777.5;
            else
                a->init.a.i = spec_type_size(a->type) >= 4 ? 0x7edcba98 : 77;
        }
    gl_error err = {0};
    /* the wall-time limit well above the default 10 s, which lesson 9's 131073-block
     * launch reached under AddressSanitizer on a loaded 2-core machine: this test checks
     * the output, not the time */
    gl_run_opts o = {.backend = GL_BACKEND_SIM, .timeout_s = 300};
    ck_assert_msg(gl_run_spec(spec, &o, res, &err) == GL_OK, "%s: %s", what, err.msg);
    ck_assert_msg(res->fault.kind == GL_FAULT_NONE, "%s: %s", what, res->fault.message);
    gl_compare_work_of(spec, NULL, res->buffers, res->nargs, w);
}

START_TEST(test_every_kernel_f_runs_computes_the_whole_output)
{
    setenv("GPULEARN_LESSONS", "lessons", 1);
    gl_lesson *ls;
    int n, steps = 0, kernels = 0;
    gl_error err = {0};
    ck_assert_msg(lesson_list(&ls, &n, &err) == GL_OK, "%s", err.msg);
    for (int li = 0; li < n; li++)
        for (int si = 0; si < ls[li].nsteps; si++) {
            const gl_step *st = &ls[li].steps[si];
            if (!st->launch || !text_says_f(st->text))
                continue;
            steps++;
            gl_spec own;
            ck_assert_msg(lesson_step_spec(&ls[li], si, &own, &err) == GL_OK, "%s", err.msg);
            char what[160];
            snprintf(what, sizeof what, "lesson %d step %d (%s)", ls[li].number, si + 1,
                     own.kernel);
            gl_run_result res;
            gl_work ow;
            run_work(&own, NULL, what, &res, &ow);
            char **names;
            int *np;
            const int nk = gl_run_ptx_kernels(res.ptx, &names, &np);
            ck_assert_int_gt(nk, 0);
            gl_run_result_free(&res);
            /* its outputs, then what it changed of them when they start as a sentinel */
            int outs[64] = {0};
            for (int b = 0, i = 0; i < own.nargs && i < 64; i++)
                if (own.args[i].is_ptr)
                    outs[i] = ow.buf[b++].changed > 0;
            run_work(&own, outs, what, &res, &ow);
            gl_run_result_free(&res);
            for (int k = 0; k < nk; k++) {
                if (np[k] != own.nargs || strcmp(names[k], own.kernel) == 0)
                    continue; /* f runs only kernels the step's arguments fit */
                gl_spec ks;
                ck_assert_msg(
                    lesson_step_spec_for(&ls[li], si, names[k], GL_BACKEND_SIM, &ks, &err) == GL_OK,
                    "%s: %s", what, err.msg);
                snprintf(what, sizeof what, "lesson %d step %d, f: %s", ls[li].number, si + 1,
                         names[k]);
                gl_work kw;
                run_work(&ks, outs, what, &res, &kw);
                /* each buffer the step's kernel writes, this one writes whole: every
                 * element, or as many as the step's kernel changed */
                for (int b = 0; b < ow.nbuf; b++) {
                    if (ow.buf[b].changed == 0)
                        continue;
                    ck_assert_int_eq(strcmp(kw.buf[b].name, ow.buf[b].name), 0);
                    ck_assert_msg(kw.buf[b].changed == kw.buf[b].len ||
                                      kw.buf[b].changed == ow.buf[b].changed,
                                  "%s changed %zu of the %zu elements of %s (the step's %s: %zu)",
                                  what, kw.buf[b].changed, kw.buf[b].len, kw.buf[b].name,
                                  own.kernel, ow.buf[b].changed);
                }
                kernels++;
                gl_run_result_free(&res);
                spec_free(&ks);
            }
            gl_run_ptx_kernels_free(names, np, nk);
            spec_free(&own);
        }
    /* lessons 9, 11, 12, 14, 15, 16 (two steps), 17 and 18 tell the learner to press f */
    ck_assert_int_ge(steps, 9);
    ck_assert_int_ge(kernels, 15);
    lesson_list_free(ls, n);
}
END_TEST

static Suite *compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("compare");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, test_changed_counts_every_bit_change_of_a_float);
    tcase_add_test(tc, test_work_same_says_which_buffer_differs);
    tcase_add_test(tc, test_step_kernels_give_a_kernel_its_own_grid_and_lengths);
    tcase_add_test(tc, test_step_kernels_errors_name_the_field);
    tcase_add_test(tc, test_every_kernel_f_runs_computes_the_whole_output);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    setenv("GPULEARN_NO_GPU", "1", 1);
    return temp_cache_run_suite(compare_suite());
}
