/* test_lessons.c — every shipped lesson loads, every step's kernel runs on the simulator,
 * every exercise's reference passes its checks and its starter fails them; the lesson 1
 * grader reports what went wrong in plain words. Runs from the repo root. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/grade.h"
#include "runtime/lesson.h"

static gl_lesson *lessons;
static int nlessons;

static void setup(void)
{
    setenv("GPULEARN_LESSONS", "lessons", 1);
    setenv("GPULEARN_NO_GPU", "1", 1);
    gl_error err = {0};
    ck_assert_msg(lesson_list(&lessons, &nlessons, &err) == GL_OK, "%s", err.msg);
}

static void teardown(void)
{
    lesson_list_free(lessons, nlessons);
}

START_TEST(test_shipped_lessons_load_in_order)
{
    static const char *const ids[] = {"gpu",        "threads",    "indexing", "warps",
                                      "divergence", "coalescing", "shared",   "sync",
                                      "atomics",    "reduction",  "scan"};
    ck_assert_int_ge(nlessons, 11);
    for (int i = 0; i < 11; i++) {
        ck_assert_int_eq(lessons[i].number, i);
        ck_assert_str_eq(lessons[i].id, ids[i]);
        ck_assert_int_ge(lessons[i].nsteps, i ? 3 : 1);
        ck_assert_int_le(lessons[i].nsteps, 7);
        if (i > 0) {
            ck_assert_ptr_nonnull(lessons[i].exercise);
            ck_assert_int_ge(lessons[i].exercise->nhints, 2);
            ck_assert_int_le(lessons[i].exercise->nhints, 3);
        }
    }
    ck_assert_int_eq(lessons[0].number, 0);
    ck_assert_str_eq(lessons[0].id, "gpu");
    ck_assert_int_eq(lessons[1].number, 1);
    ck_assert_str_eq(lessons[1].id, "threads");
    ck_assert_ptr_null(lessons[0].exercise);
    ck_assert_ptr_nonnull(lessons[1].exercise);
    ck_assert_int_ge(lessons[1].exercise->nhints, 2);
}
END_TEST

START_TEST(test_every_step_kernel_runs_on_the_simulator)
{
    for (int i = 0; i < nlessons; i++)
        for (int s = 0; s < lessons[i].nsteps; s++) {
            if (!lessons[i].steps[s].launch)
                continue;
            gl_spec spec;
            gl_error err = {0};
            ck_assert_msg(lesson_step_spec(&lessons[i], s, &spec, &err) == GL_OK, "%s", err.msg);
            gl_run_opts opts = {.backend = GL_BACKEND_SIM};
            gl_run_result res;
            gl_status st = gl_run_spec(&spec, &opts, &res, &err);
            ck_assert_msg(st == GL_OK, "lesson %d step %d: %s", lessons[i].number, s + 1, err.msg);
            gl_run_result_free(&res);
            spec_free(&spec);
        }
}
END_TEST

START_TEST(test_lesson1_hello_prints_one_line_per_thread)
{
    gl_spec spec;
    gl_error err = {0};
    ck_assert_int_eq(lesson_step_spec(&lessons[1], 0, &spec, &err), GL_OK);
    gl_run_opts opts = {.backend = GL_BACKEND_SIM};
    gl_run_result res;
    ck_assert_msg(gl_run_spec(&spec, &opts, &res, &err) == GL_OK, "%s", err.msg);
    ck_assert_ptr_nonnull(strstr(res.stdout_text, "block 0, thread 0: global index 0\n"));
    ck_assert_ptr_nonnull(strstr(res.stdout_text, "block 1, thread 3: global index 7\n"));
    int lines = 0;
    for (const char *p = res.stdout_text; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 8);
    gl_run_result_free(&res);
    spec_free(&spec);
}
END_TEST

/* `gpulearn lint` on every shipped lesson: schema, files, steps run, the reference
 * passes every check and the starter fails one (make check lints every lesson). */
START_TEST(test_every_shipped_lesson_lints_clean)
{
    for (int i = 0; i < nlessons; i++)
        ck_assert_msg(grade_lint(lessons[i].dir, stdout) == 0, "lesson %d does not lint clean",
                      lessons[i].number);
}
END_TEST

START_TEST(test_lesson1_starter_report_names_the_out_of_bounds_store)
{
    gl_grade_report rep;
    gl_error err = {0};
    ck_assert_int_eq(grade_exercise(&lessons[1], NULL, NULL, &rep, &err), GL_OK);
    /* compiles, the two declared checks, then the five every exercise gets */
    ck_assert_int_eq(rep.nchecks, 8);
    ck_assert_str_eq(rep.checks[0].name, "compiles");
    ck_assert(rep.checks[0].passed);
    ck_assert_str_eq(rep.checks[2].name, "no_out_of_bounds");
    ck_assert(!rep.checks[2].passed);
    /* n = 1: one block of 128 threads; thread 1 is the first without an element. */
    ck_assert_msg(strstr(rep.checks[2].detail, "n = 1: ") != NULL, "%s", rep.checks[2].detail);
    ck_assert_msg(strstr(rep.checks[2].detail, "exercise.cu:7: block (0,0,0) thread (1,0,0)"), "%s",
                  rep.checks[2].detail);
    /* n = 128 is a multiple of the block: no fault there. */
    ck_assert_msg(strstr(rep.checks[2].detail, "n = 128:") == NULL, "%s", rep.checks[2].detail);
    grade_report_free(&rep);
}
END_TEST

START_TEST(test_wrong_answer_reports_first_differing_index)
{
    char path[] = "/tmp/gl_wrongXXXXXX.cu";
    int fd = mkstemps(path, 3);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("extern \"C\" __global__ void vec_add(const float *a, const float *b, float *c, "
          "int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n - 1)\n        c[i] = a[i] + b[i];\n}\n",
          f);
    fclose(f);
    gl_grade_report rep;
    gl_error err = {0};
    ck_assert_int_eq(grade_exercise(&lessons[1], path, NULL, &rep, &err), GL_OK);
    ck_assert(!rep.passed);
    ck_assert(!rep.checks[1].passed);
    ck_assert(rep.checks[2].passed);
    /* n = 1: c[0] was never written (0.0); the reference wrote a[0] + b[0]. */
    ck_assert_msg(strstr(rep.checks[1].detail, "n = 1: c[0] is 0, expected ") != NULL, "%s",
                  rep.checks[1].detail);
    ck_assert_msg(strstr(rep.checks[1].detail, "n = 33: c[32] is 0, expected ") != NULL, "%s",
                  rep.checks[1].detail);
    grade_report_free(&rep);
    remove(path);
}
END_TEST

START_TEST(test_lesson_find_by_number_id_and_folder)
{
    const char *names[] = {"1", "01", "threads", "01-threads", "lessons/01-threads"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        gl_lesson l;
        gl_error err = {0};
        ck_assert_msg(lesson_find(names[i], &l, &err) == GL_OK, "%s: %s", names[i], err.msg);
        ck_assert_str_eq(l.id, "threads");
        lesson_free(&l);
    }
    gl_lesson l;
    gl_error err = {0};
    ck_assert_int_eq(lesson_find("nope", &l, &err), GL_ERR_USAGE);
    ck_assert_str_eq(err.msg, "no lesson 'nope' (gpulearn list shows them)");
}
END_TEST

/* Lessons 14 and 15 grade floats within the tolerances README "Writing a lesson" derives:
 * 1e-6 for softmax (outputs in [0, 1]), 1e-5 for attention (|O| <= 1). */
START_TEST(test_softmax_and_attention_grade_within_documented_tolerances)
{
    const struct {
        const char *name, *id, *output;
        double tolerance;
    } want[] = {{"14", "softmax", "y", 1e-6}, {"15", "attention", "O", 1e-5}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        gl_lesson l;
        gl_error err = {0};
        ck_assert_msg(lesson_find(want[i].name, &l, &err) == GL_OK, "%s", err.msg);
        ck_assert_str_eq(l.id, want[i].id);
        ck_assert_ptr_nonnull(l.exercise);
        const gl_check *k = NULL;
        for (int c = 0; c < l.exercise->nchecks; c++)
            if (l.exercise->checks[c].kind == GL_CHECK_MATCHES_REFERENCE)
                k = &l.exercise->checks[c];
        ck_assert_ptr_nonnull(k);
        ck_assert(k->tolerance == want[i].tolerance);
        ck_assert_int_eq(k->noutputs, 1);
        ck_assert_str_eq(k->outputs[0], want[i].output);
        lesson_free(&l);
    }
}
END_TEST

static Suite *lessons_suite(void)
{
    Suite *s = suite_create("lessons");
    TCase *tc = tcase_create("shipped");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_shipped_lessons_load_in_order);
    tcase_add_test(tc, test_every_step_kernel_runs_on_the_simulator);
    tcase_add_test(tc, test_lesson1_hello_prints_one_line_per_thread);
    tcase_add_test(tc, test_every_shipped_lesson_lints_clean);
    tcase_add_test(tc, test_lesson1_starter_report_names_the_out_of_bounds_store);
    tcase_add_test(tc, test_wrong_answer_reports_first_differing_index);
    tcase_add_test(tc, test_lesson_find_by_number_id_and_folder);
    tcase_add_test(tc, test_softmax_and_attention_grade_within_documented_tolerances);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lessons_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
