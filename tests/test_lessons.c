/* test_lessons.c — every shipped lesson loads in order (0b between 0 and 1, without
 * moving a learner's saved progress), every step's kernel runs on the simulator
 * and what its text states about the run holds ("expect"), every exercise's reference
 * passes its checks and its starter fails them; the lesson 1 grader reports what went
 * wrong in plain words; expect entries that contradict a run fail lint, malformed ones do
 * not load; "gpu_launch" applies on a GPU only. Runs from the repo root. */
#include <check.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/grade.h"
#include "runtime/lesson.h"
#include "runtime/workspace.h"

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

/* The shipped lesson with id `id` (the test fails when there is none). */
static gl_lesson *by_id(const char *id)
{
    for (int i = 0; i < nlessons; i++)
        if (strcmp(lessons[i].id, id) == 0)
            return &lessons[i];
    ck_abort_msg("no lesson '%s'", id);
    return NULL;
}

/* Lessons come in the order of their folders' names: 0, then 0b (00b-first-program,
 * "Your first CUDA program"), then 1, 2, ...; the label is the number a learner types. */
START_TEST(test_shipped_lessons_load_in_order)
{
    static const char *const ids[] = {"gpu",   "first-program", "threads",    "indexing",
                                      "warps", "divergence",    "coalescing", "shared",
                                      "sync",  "atomics",       "reduction",  "scan"};
    static const char *const labels[] = {"0", "0b", "1", "2", "3", "4",
                                         "5", "6",  "7", "8", "9", "10"};
    static const int numbers[] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    ck_assert_int_ge(nlessons, 12);
    for (int i = 0; i < 12; i++) {
        ck_assert_int_eq(lessons[i].number, numbers[i]);
        ck_assert_str_eq(lessons[i].id, ids[i]);
        ck_assert_str_eq(lessons[i].label, labels[i]);
        ck_assert_int_ge(lessons[i].nsteps, i ? 3 : 1);
        ck_assert_int_le(lessons[i].nsteps, 7);
        if (i > 0) {
            ck_assert_ptr_nonnull(lessons[i].exercise);
            ck_assert_int_ge(lessons[i].exercise->nhints, 2);
            ck_assert_int_le(lessons[i].exercise->nhints, 3);
        }
    }
    ck_assert_ptr_null(lessons[0].exercise);
    /* 0b: every step a whole program, the exercise one too, its kernel graded as well */
    const gl_lesson *p = &lessons[1];
    for (int s = 0; s < p->nsteps; s++) {
        ck_assert(p->steps[s].program);
        ck_assert_ptr_null(p->steps[s].launch);
    }
    ck_assert_int_eq(p->steps[2].status, 1); /* the 1025-thread launch stops check.cu */
    ck_assert_ptr_nonnull(p->exercise->program);
    ck_assert_int_eq(p->exercise->program->nruns, 2);
    ck_assert_str_eq(p->exercise->program->runs[1].args[1], "{seed}");
    ck_assert_ptr_nonnull(p->exercise->launch);
}
END_TEST

/* A learner's progress (progress.json, keyed by lesson id) of a version without lesson 0b
 * is the same after it: each lesson keeps its steps, its pass and its exercise copy, the
 * last lesson seen is still the one reopened, and 0b starts with nothing. */
START_TEST(test_adding_a_lesson_keeps_saved_progress)
{
    char root[] = "/tmp/gl_progressXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    setenv("XDG_DATA_HOME", root, 1);
    char dir[64], path[128];
    snprintf(dir, sizeof dir, "%s/gpulearn", root);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    snprintf(path, sizeof path, "%s/progress.json", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"format\": 1, \"last_lesson\": \"indexing\", \"lessons\": {"
          "\"gpu\": {\"steps_seen\": 7, \"last_step\": 2}, "
          "\"threads\": {\"steps_seen\": 63, \"last_step\": 5, \"passed\": true}, "
          "\"indexing\": {\"steps_seen\": 3, \"last_step\": 1}}}\n",
          f);
    fclose(f);
    gl_lesson_progress *pr = NULL;
    int n = 0;
    gl_error err = {0};
    ck_assert_int_eq(workspace_progress_load(&pr, &n, NULL, 0, &err), GL_OK);
    static const struct {
        const char *id;
        unsigned seen;
        int last;
        bool passed;
    } want[] = {{"gpu", 7, 2, false},
                {"first-program", 0, -1, false},
                {"threads", 63, 5, true},
                {"indexing", 3, 1, false}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        const gl_lesson *l = by_id(want[w].id);
        const gl_lesson_progress *got = NULL;
        for (int k = 0; k < n; k++)
            if (strcmp(pr[k].id, l->id) == 0)
                got = &pr[k];
        ck_assert_msg((got ? got->steps_seen : 0) == want[w].seen, "%s", want[w].id);
        ck_assert_int_eq(got ? got->last_step : -1, want[w].last);
        ck_assert_int_eq(got ? got->passed : false, want[w].passed);
    }
    char last[64];
    ck_assert(workspace_last_lesson(last, sizeof last));
    ck_assert_str_eq(last, "indexing");
    /* the exercise copies are named by lesson id: 1's stays where it was */
    char copy[PATH_MAX], want_copy[PATH_MAX];
    ck_assert_int_eq(workspace_exercise_path(by_id("threads"), copy, sizeof copy, &err), GL_OK);
    snprintf(want_copy, sizeof want_copy, "%s/threads/exercise.cu", dir);
    ck_assert_str_eq(copy, want_copy);
    free(pr);
    unsetenv("XDG_DATA_HOME");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A step's "program" and an exercise's "program" are validated with their place. */
START_TEST(test_program_steps_and_exercises_are_validated_with_their_place)
{
    static const struct {
        const char *keys, *msg;
    } cases[] = {
        {"\"steps\": [{\"title\": \"a\", \"text\": \"b\", \"program\": \"lesson.json\"}]",
         "D/lesson.json: steps[0].program: must name a .cu file (a whole CUDA program)"},
        {"\"steps\": [{\"title\": \"a\", \"text\": \"b\", \"program\": \"alloc.cu\", "
         "\"launch\": {}}]",
         "D/lesson.json: steps[0].launch: a step with a \"program\" has no launch"},
        {"\"steps\": [{\"title\": \"a\", \"text\": \"b\", \"program\": \"alloc.cu\", "
         "\"status\": 256}]",
         "D/lesson.json: steps[0].status: must be an exit status from 0 to 255"},
        {"\"steps\": [{\"title\": \"a\", \"text\": \"b\", \"args\": [\"1\"]}]",
         "D/lesson.json: steps[0]: \"args\" and \"status\" belong to a step with a \"program\""},
        {"\"steps\": [{\"title\": \"a\", \"text\": \"b\", \"program\": \"alloc.cu\", "
         "\"args\": [1]}]",
         "D/lesson.json: steps[0].args: must be an array of strings"},
        {"\"steps\": [{\"title\": \"a\", \"text\": \"b\"}], \"exercise\": {\"text\": \"t\", "
         "\"starter\": \"exercise.cu\", \"reference\": \"solution.cu\", \"program\": {}, "
         "\"sizes\": [1]}",
         "D/lesson.json: exercise: a program exercise has \"launch\", \"sizes\" and \"checks\""},
        {"\"steps\": [{\"title\": \"a\", \"text\": \"b\"}], \"exercise\": {\"text\": \"t\", "
         "\"starter\": \"exercise.cu\", \"reference\": \"solution.cu\", \"program\": "
         "{\"runs\": []}}",
         "D/lesson.json: exercise.program.runs: must be an array of 1 to 16 runs"},
        {"\"steps\": [{\"title\": \"a\", \"text\": \"b\"}], \"exercise\": {\"text\": \"t\", "
         "\"starter\": \"exercise.cu\", \"reference\": \"solution.cu\", \"program\": "
         "{\"runs\": [{\"argv\": []}]}}",
         "D/lesson.json: exercise.program.runs[0].argv: unknown key"},
        {"\"steps\": [{\"title\": \"a\", \"text\": \"b\"}], \"exercise\": {\"text\": \"t\", "
         "\"starter\": \"exercise.cu\", \"reference\": \"solution.cu\", \"program\": "
         "{\"tolerance\": -1}}",
         "D/lesson.json: exercise.program.tolerance: must be a number from 0 to"},
    };
    const char *d = "lessons/00b-first-program";
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "{\"format\": 1, \"id\": \"x\", \"title\": \"t\", \"summary\": \"s\", %s}",
                 cases[i].keys);
        gl_lesson l;
        gl_error err = {0};
        ck_assert_int_eq(lesson_parse(text, strlen(text), d, &l, &err), GL_ERR_INPUT);
        char full[600]; /* "D" stands for the folder */
        snprintf(full, sizeof full, "%s%s", d, cases[i].msg + 1);
        ck_assert_msg(strncmp(err.msg, full, strlen(full)) == 0, "%s\nnot: %s", err.msg, full);
    }
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
    ck_assert_int_eq(lesson_step_spec(by_id("threads"), 0, &spec, &err), GL_OK);
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
    ck_assert_int_eq(grade_exercise(by_id("threads"), NULL, NULL, &rep, &err), GL_OK);
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
    ck_assert_int_eq(grade_exercise(by_id("threads"), path, NULL, &rep, &err), GL_OK);
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
    /* 0b: by its label (with or without the leading zero), id and folder; 0 is lesson 0 */
    const char *first[] = {"0b", "00b", "first-program", "00b-first-program"};
    for (size_t i = 0; i < sizeof first / sizeof *first; i++) {
        gl_lesson l;
        gl_error err = {0};
        ck_assert_msg(lesson_find(first[i], &l, &err) == GL_OK, "%s: %s", first[i], err.msg);
        ck_assert_str_eq(l.id, "first-program");
        lesson_free(&l);
    }
    gl_lesson l;
    gl_error err = {0};
    ck_assert_int_eq(lesson_find("0", &l, &err), GL_OK);
    ck_assert_str_eq(l.id, "gpu");
    lesson_free(&l);
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

static int cmp_u32(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

/* Lesson 16's steps on the simulator, against counts and orders computed here from the
 * same inputs: the plain bins[d]++ of step 1 loses updates and racecheck reports it;
 * global atomics (step 2) and privatised bins (step 3) count every key of digit d; the
 * split by bit 0 (step 4) is the stable partition; the block radix sort (step 5) is
 * qsort's order. */
START_TEST(test_sorting_steps_lose_updates_then_count_and_sort_exactly)
{
    gl_lesson l;
    gl_error err = {0};
    ck_assert_msg(lesson_find("16", &l, &err) == GL_OK, "%s", err.msg);
    ck_assert_str_eq(l.id, "sorting");
    gl_spec spec[5];
    gl_run_result res[5];
    for (int s = 0; s < 5; s++) {
        ck_assert_msg(lesson_step_spec(&l, s, &spec[s], &err) == GL_OK, "%s", err.msg);
        gl_run_opts opts = {.backend = GL_BACKEND_SIM};
        ck_assert_msg(gl_run_spec(&spec[s], &opts, &res[s], &err) == GL_OK, "step %d: %s", s + 1,
                      err.msg);
    }
    /* steps 1-3: hist_*(keys, bins, n = 2048, shift = 0) */
    const unsigned *keys = res[1].buffers[0].data;
    int want[16] = {0}, lost = 2048;
    for (int i = 0; i < 2048; i++)
        want[keys[i] & 15]++;
    for (int b = 0; b < 16; b++) {
        ck_assert_int_eq(((const int *)res[1].buffers[1].data)[b], want[b]);
        ck_assert_int_eq(((const int *)res[2].buffers[1].data)[b], want[b]);
        lost -= ((const int *)res[0].buffers[1].data)[b];
    }
    ck_assert_int_gt(lost, 0);
    ck_assert_int_gt(res[0].nerrors, 0);
    ck_assert_int_eq(res[1].nerrors + res[2].nerrors, 0);
    /* step 4: split_bit(keys, vals = 0..255, keys_out, vals_out, bit = 0) */
    const unsigned *k4 = res[3].buffers[0].data, *k4_out = res[3].buffers[2].data;
    const int *v4_out = res[3].buffers[3].data;
    int pos = 0;
    for (int one = 0; one < 2; one++)
        for (int i = 0; i < 256; i++)
            if ((int)(k4[i] & 1) == one) {
                ck_assert_uint_eq(k4_out[pos], k4[i]);
                ck_assert_int_eq(v4_out[pos++], i);
            }
    /* step 5: radix_sort_block(keys, keys_out), 256 keys */
    unsigned sorted[256];
    memcpy(sorted, res[4].buffers[0].data, sizeof sorted);
    qsort(sorted, 256, sizeof *sorted, cmp_u32);
    ck_assert_mem_eq(res[4].buffers[1].data, sorted, sizeof sorted);
    ck_assert_int_eq(res[3].nerrors + res[4].nerrors, 0);
    for (int s = 0; s < 5; s++) {
        gl_run_result_free(&res[s]);
        spec_free(&spec[s]);
    }
    lesson_free(&l);
}
END_TEST

/* The whole of what grade_lint wrote for dir, and its problem count (caller frees). */
static char *lint_output(const char *dir, int *problems)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    *problems = grade_lint(dir, f);
    fclose(f);
    return buf;
}

/* A step's "expect" entries are checked against its run: tests/fixtures/lessons/90-expect
 * states four claims its run contradicts (a buffer element, a metric, "no finding", another
 * kernel's output) beside four that hold; lint names each wrong one with its place, what
 * the run shows and what the entry expected, and counts the GPU entries it could not
 * check. */
START_TEST(test_expect_entries_that_contradict_the_run_fail_lint)
{
    const char *dir = "tests/fixtures/lessons/90-expect";
    int problems = 0;
    char *out = lint_output(dir, &problems);
    ck_assert_msg(problems == 4, "%d problems:\n%s", problems, out);
    static const char *const want[] = {
        "90-expect/lesson.json: steps[0].expect[1]: out[3] is 3; expected 4 (the simulator)\n",
        "90-expect/lesson.json: steps[0].expect[3]: global_atomics is 0; expected at least 1 "
        "(the simulator)\n",
        "90-expect/lesson.json: steps[0].expect[5]: the run has a finding: global-memory race",
        "90-expect/lesson.json: steps[0].expect[6]: fill_twice's 'out' differs from the step "
        "kernel's by up to 63; expected at most 0 (the simulator)\n",
        "90-expect: SKIP: 4 GPU expect entries not checked: no GPU here\n",
        "90-expect: FAILED: 4 problems\n"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(out, want[i]), "no \"%s\" in:\n%s", want[i], out);
    for (int j = 0; j < 9; j++) { /* the entries that hold are not named */
        char place[32];
        snprintf(place, sizeof place, "expect[%d]", j);
        ck_assert_msg((j == 1 || j == 3 || j == 5 || j == 6) == (strstr(out, place) != NULL),
                      "%s:\n%s", place, out);
    }
    free(out);
}
END_TEST

/* A malformed "expect" entry or "gpu_launch" makes the lesson fail to load, naming
 * dir/lesson.json, the step, the entry and the problem. */
START_TEST(test_expect_and_gpu_launch_are_validated_with_their_place)
{
    static const struct {
        const char *step_keys, *msg;
    } cases[] = {
        {"\"expect\": [{\"buffer\": \"nope\", \"equals\": 1}]",
         "d/lesson.json: steps[0].expect[0]: the launch has no pointer argument named 'nope'"},
        {"\"expect\": [{\"buffer\": \"out\", \"equals\": 1}, {\"buffer\": \"out\"}]",
         "d/lesson.json: steps[0].expect[1]: a buffer entry needs a test: equals, min, max, sum, "
         "iota, sorted or diff"},
        {"\"expect\": [{\"equals\": 1}]",
         "d/lesson.json: steps[0].expect[0]: needs a subject: \"buffer\", \"stdout_lines\", "
         "\"stdout_contains\", \"metric\", \"finding\" or \"measure\""},
        {"\"expect\": [{\"metric\": \"branch_efficiency\", \"equal\": 1}]",
         "d/lesson.json: steps[0].expect[0]: unknown key \"equal\""},
        {"\"expect\": [{\"metric\": \"speed\", \"min\": 1}]",
         "d/lesson.json: steps[0].expect[0]: metric must be a metric's name"},
        {"\"expect\": [{\"finding\": \"race\", \"on\": \"gpu\"}]",
         "d/lesson.json: steps[0].expect[0]: metrics and findings come from the simulator's "
         "run: on must be \"sim\""},
        {"\"expect\": [{\"measure\": \"gbs\", \"min\": 1, \"on\": \"both\"}]",
         "d/lesson.json: steps[0].expect[0]: a measure is a GPU's: on must be \"gpu\""},
        {"\"expect\": [{\"buffer\": \"out\", \"index\": 64, \"equals\": 1}]",
         "d/lesson.json: steps[0].expect[0]: index must be an element of the buffer"},
        {"\"expect\": [{\"buffer\": \"out\", \"diff\": {\"max\": 0}}]",
         "d/lesson.json: steps[0].expect[0]: diff compares another \"kernel\"'s run"},
        {"\"expect\": [{\"measure\": \"library_pct\", \"min\": 90}]",
         "d/lesson.json: steps[0].expect[0]: library_pct needs the launch's "
         "\"reference_library\""},
        {"\"expect\": {\"buffer\": \"out\"}", "d/lesson.json: steps[0].expect: must be an array"},
        {"\"gpu_launch\": {\"args\": {\"in\": {\"len\": 9}}}",
         "d/lesson.json: steps[0].gpu_launch.args.in: names no argument of the step's launch"},
        {"\"gpu_launch\": {\"args\": [{\"name\": \"out\", \"len\": 9}]}",
         "d/lesson.json: steps[0].gpu_launch.args: must be an object: argument name ->"},
        {"\"gpu_launch\": {\"args\": {\"out\": {\"value\": 9}}}",
         "d/lesson.json: steps[0].gpu_launch.args.out.value: unknown key"},
        {"\"gpu_launch\": {\"kernels\": {\"k\": {\"grid\": [2]}}}",
         "d/lesson.json: steps[0].gpu_launch.kernels.k: is the step's own kernel"},
        {"\"gpu_launch\": {\"kernel\": \"other\"}",
         "d/lesson.json: steps[0].gpu_launch.kernel: unknown key"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "{\"format\": 1, \"id\": \"x\", \"title\": \"t\", \"summary\": \"s\", \"steps\": "
                 "[{\"title\": \"a\", \"text\": \"b\", \"launch\": {\"source\": \"k.cu\", "
                 "\"kernel\": \"k\", \"grid\": [1], \"block\": [64], \"args\": [{\"name\": "
                 "\"out\", \"type\": \"i32*\", \"len\": 64}]}, %s}]}",
                 cases[i].step_keys);
        gl_lesson l;
        gl_error err = {0};
        ck_assert_int_eq(lesson_parse(text, strlen(text), "d", &l, &err), GL_ERR_INPUT);
        ck_assert_msg(strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)) == 0, "%s\nnot: %s",
                      err.msg, cases[i].msg);
    }
}
END_TEST

/* "gpu_launch" changes a step's launch for a GPU only: lesson 12's "how fast" step runs
 * 256^3 on the simulator and 4096^3, beside cuBLAS at 4096^3, on a GPU. */
START_TEST(test_gpu_launch_applies_on_a_gpu_only)
{
    gl_lesson l;
    gl_error err = {0};
    ck_assert_msg(lesson_find("12", &l, &err) == GL_OK, "%s", err.msg);
    gl_spec sim, gpu;
    ck_assert_msg(lesson_step_spec_for(&l, 3, NULL, GL_BACKEND_SIM, &sim, &err) == GL_OK, "%s",
                  err.msg);
    ck_assert_msg(lesson_step_spec_for(&l, 3, NULL, GL_BACKEND_GPU, &gpu, &err) == GL_OK, "%s",
                  err.msg);
    ck_assert_str_eq(sim.kernel, "matmul_regtile");
    ck_assert_str_eq(gpu.kernel, "matmul_regtile");
    ck_assert_uint_eq(sim.grid[0], 4);
    ck_assert_uint_eq(gpu.grid[0], 64);
    ck_assert_uint_eq(gpu.grid[1], 64);
    ck_assert_uint_eq(gpu.block[0], 16); /* untouched */
    ck_assert(gpu.flops == 137438953472.0);
    ck_assert_int_eq(gpu.ref_sgemm[0], 4096);
    ck_assert_int_eq(sim.ref_sgemm[0], 256);
    const int a = spec_find_arg(&gpu, "A"), m = spec_find_arg(&gpu, "M");
    ck_assert_uint_eq(gpu.args[a].len, 4096u * 4096u);
    ck_assert_uint_eq(gpu.args[a].rows, 4096);
    ck_assert(gpu.args[a].init.kind == GL_INIT_RANDOM); /* kept from the launch */
    ck_assert_int_eq(gpu.args[m].value.i, 4096);
    ck_assert_int_eq(sim.args[m].value.i, 256);
    spec_free(&sim);
    spec_free(&gpu);
    /* a step without one runs its launch on a GPU too */
    ck_assert_msg(lesson_step_spec_for(&l, 0, NULL, GL_BACKEND_GPU, &gpu, &err) == GL_OK, "%s",
                  err.msg);
    ck_assert_uint_eq(gpu.grid[0], 4);
    spec_free(&gpu);
    lesson_free(&l);
}
END_TEST

/* An exercise's "adversarial" sets reach its launch as declared: set j gives each
 * argument with an entry j that entry's class, by default over the element type's whole
 * range, and every other argument its random draws; the values are spec_rng.c's, exactly
 * (computed independently from its documentation for n = 8), and the report's words say
 * which set ran. */
START_TEST(test_declared_input_sets_are_generated_as_declared)
{
    static const char text[] =
        "{\"format\": 1, \"id\": \"x\", \"title\": \"t\", \"summary\": \"s\", "
        "\"steps\": [{\"title\": \"a\", \"text\": \"b\"}], "
        "\"exercise\": {\"title\": \"e\", \"text\": \"t\", \"starter\": \"exercise.cu\", "
        "\"reference\": \"solution.cu\", \"sizes\": [8], "
        "\"checks\": [{\"kind\": \"matches_reference\"}], \"launch\": {\"kernel\": \"vec_add\", "
        "\"grid\": [1], \"block\": [32], \"args\": ["
        "{\"name\": \"k\", \"type\": \"u8*\", \"len\": \"n\", \"init\": {\"random\": {\"seed\": 7, "
        "\"min\": 0, \"max\": 9}, \"adversarial\": [{\"class\": \"full_range\"}, "
        "{\"class\": \"bit_ranges\"}]}},"
        "{\"name\": \"x\", \"type\": \"f32*\", \"len\": \"n\", \"init\": {\"random\": {\"seed\": "
        "9, "
        "\"min\": -1, \"max\": 1}, \"adversarial\": [{\"class\": \"full_range\", \"min\": -16, "
        "\"max\": 16, \"quantum\": 0.25}]}},"
        "{\"name\": \"v\", \"type\": \"i32*\", \"len\": \"n\", \"init\": {\"random\": {\"seed\": "
        "3, "
        "\"min\": -5, \"max\": 5}}},"
        "{\"name\": \"n\", \"type\": \"i32\", \"value\": \"n\"}]}}}";
    gl_lesson l;
    gl_error err = {0};
    ck_assert_msg(lesson_parse(text, strlen(text), "lessons/01-threads", &l, &err) == GL_OK, "%s",
                  err.msg);
    ck_assert_int_eq(lesson_exercise_declared_inputs(&l), 2);
    static const uint8_t want_k[2][8] = {{28, 203, 17, 254, 105, 44, 48, 248},
                                         {203, 213, 28, 13, 145, 145, 17, 17}};
    static const float want_x[8] = {1.5f, 0.0f, -2.25f, 0.75f, -2.25f, -0.25f, 3.0f, 1.5f};
    static const int32_t want_v[8] = {-1, 4, 1, 1, -5, 4, -4, -2};
    static const char *const want_label[2] = {
        " with k across the whole range of u8 (its extremes included); x over every binade of "
        "[-16, 16] in multiples of 2^-2",
        " with k differing only in bits 0-7, or bit 7 (one range per part of k)"};
    gl_buffer *random_draws = NULL;
    for (int v = GL_INPUTS_RANDOM; v < GL_INPUTS_DECLARED + 2; v++) {
        if (v > GL_INPUTS_RANDOM && v < GL_INPUTS_DECLARED)
            continue;
        gl_spec s;
        gl_buffer *b;
        ck_assert_msg(lesson_exercise_spec_variant(&l, 8, 0, (gl_inputs)v, l.exercise->starter, &s,
                                                   &err) == GL_OK,
                      "%s", err.msg);
        ck_assert_int_eq(spec_buffers_new(&s, &b, &err), GL_OK);
        if (v == GL_INPUTS_RANDOM) {
            random_draws = b;
            spec_free(&s);
            continue;
        }
        const int j = v - GL_INPUTS_DECLARED;
        ck_assert(memcmp(b[0].data, want_k[j], 8) == 0);
        if (j == 0) { /* x's full_range, +0 and not -0 at 1 */
            ck_assert(memcmp(b[1].data, want_x, sizeof want_x) == 0);
        } else { /* x has no set 1: its random draws */
            ck_assert(memcmp(b[1].data, random_draws[1].data, sizeof want_x) == 0);
        }
        ck_assert(memcmp(b[2].data, want_v, sizeof want_v) == 0); /* v: always random */
        ck_assert(memcmp(b[2].data, random_draws[2].data, sizeof want_v) == 0);
        char label[256];
        lesson_exercise_inputs_label(&l, (gl_inputs)v, label, sizeof label);
        ck_assert_str_eq(label, want_label[j]);
        spec_buffers_free(b, s.nargs);
        spec_free(&s);
    }
    spec_buffers_free(random_draws, 4);
    lesson_free(&l);

    /* malformed lists fail to load, naming the place */
    static const struct {
        const char *from, *to, *msg;
    } bad[] = {
        {"{\"random\": {\"seed\": 3, \"min\": -5, \"max\": 5}}",
         "{\"fill\": 1, \"adversarial\": [{\"class\": \"full_range\"}]}",
         "exercise.launch.args[2].init.adversarial: only an argument with \"random\" inputs "
         "takes adversarial ones"},
        {"{\"class\": \"bit_ranges\"}", "{\"class\": \"bits\"}",
         "exercise.launch.args[0].init.adversarial[1].class: must be"},
        {"{\"class\": \"bit_ranges\"}", "{\"class\": \"bit_ranges\", \"seed\": 4}",
         "exercise.launch.args[0].init.adversarial[1].seed: unknown key"},
        {"\"quantum\": 0.25", "\"quantum\": 0.3",
         "exercise.launch (n = 8) with adversarial[0]: args[1].init.random.quantum: must be a "
         "power of two"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char t[sizeof text + 128];
        const char *at = strstr(text, bad[i].from);
        ck_assert_ptr_nonnull(at);
        snprintf(t, sizeof t, "%.*s%s%s", (int)(at - text), text, bad[i].to,
                 at + strlen(bad[i].from));
        ck_assert_int_eq(lesson_parse(t, strlen(t), "lessons/01-threads", &l, &err), GL_ERR_INPUT);
        ck_assert_msg(strstr(err.msg, bad[i].msg), "%s\nnot: %s", err.msg, bad[i].msg);
    }
}
END_TEST

/* "points" per check: the named checks get theirs, every other check of the report 1
 * (the implicit ones and "compiles" too); a name that is no check of the exercise, or a
 * value that is no whole number from 0 to 1000, is refused with its place. */
START_TEST(test_points_name_real_checks_and_default_to_one)
{
    static const char text[] =
        "{\"format\": 1, \"id\": \"x\", \"title\": \"t\", \"summary\": \"s\", "
        "\"steps\": [{\"title\": \"a\", \"text\": \"b\"}], "
        "\"exercise\": {\"title\": \"e\", \"text\": \"t\", \"starter\": \"exercise.cu\", "
        "\"reference\": \"solution.cu\", \"sizes\": [8], "
        "\"checks\": [{\"kind\": \"matches_reference\"}], \"launch\": {\"kernel\": \"vec_add\", "
        "\"grid\": [1], \"block\": [32], \"args\": [{\"name\": \"n\", \"type\": \"i32\", "
        "\"value\": \"n\"}]}, \"points\": {\"matches_reference\": 6, \"no_races\": 2, "
        "\"compiles\": 0}}}";
    gl_lesson l;
    gl_error err = {0};
    ck_assert_msg(lesson_parse(text, strlen(text), "lessons/01-threads", &l, &err) == GL_OK, "%s",
                  err.msg);
    ck_assert_int_eq(lesson_check_points(l.exercise, "matches_reference"), 6);
    ck_assert_int_eq(lesson_check_points(l.exercise, "no_races"), 2);
    ck_assert_int_eq(lesson_check_points(l.exercise, "compiles"), 0);
    ck_assert_int_eq(lesson_check_points(l.exercise, "no_out_of_bounds"), 1);
    lesson_free(&l);
    static const struct {
        const char *from, *to, *msg;
    } bad[] = {
        {"\"no_races\": 2", "\"no_race\": 2",
         "lessons/01-threads/lesson.json: exercise.points.no_race: no check of this exercise is "
         "named so (its checks: compiles, matches_reference, no_out_of_bounds, no_races, "
         "no_deadlock, no_uninitialized_reads, time_limit, random_schedule)"},
        {"\"no_races\": 2", "\"no_races\": 2.5",
         "exercise.points.no_races: must be a whole number of points from 0 to 1000"},
        {"\"no_races\": 2", "\"no_races\": -1", "exercise.points.no_races: must be a whole"},
        {"\"no_races\": 2", "\"no_races\": \"2\"", "exercise.points.no_races: must be a whole"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char t[sizeof text + 128];
        const char *at = strstr(text, bad[i].from);
        ck_assert_ptr_nonnull(at);
        snprintf(t, sizeof t, "%.*s%s%s", (int)(at - text), text, bad[i].to,
                 at + strlen(bad[i].from));
        ck_assert_int_eq(lesson_parse(t, strlen(t), "lessons/01-threads", &l, &err), GL_ERR_INPUT);
        ck_assert_msg(strstr(err.msg, bad[i].msg), "%s\nnot: %s", err.msg, bad[i].msg);
    }
}
END_TEST

/* Every shipped exercise states its adversarial inputs: each argument with random
 * inputs lists them ("adversarial", [] where its declared range is all the valid input),
 * and at least one exercise in two goes past the declared range. */
START_TEST(test_every_exercise_declares_its_adversarial_inputs)
{
    int exercises = 0, declared = 0;
    for (int i = 0; i < nlessons; i++) {
        const gl_exercise *e = lessons[i].exercise;
        if (!e)
            continue;
        exercises++;
        declared += lesson_exercise_declared_inputs(&lessons[i]) > 0;
        const cJSON *arg;
        cJSON_ArrayForEach(arg, cJSON_GetObjectItemCaseSensitive(e->launch, "args"))
        {
            const cJSON *init = cJSON_GetObjectItemCaseSensitive(arg, "init");
            if (cJSON_GetObjectItemCaseSensitive(init, "random"))
                ck_assert_msg(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(init, "adversarial")),
                              "%s: exercise argument %s has random inputs and no adversarial list",
                              lessons[i].dir,
                              cJSON_GetObjectItemCaseSensitive(arg, "name")->valuestring);
        }
    }
    ck_assert_int_ge(exercises, 18);
    ck_assert_int_ge(2 * declared, exercises);
}
END_TEST

static Suite *lessons_suite(void)
{
    Suite *s = suite_create("lessons");
    TCase *tc = tcase_create("shipped");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_shipped_lessons_load_in_order);
    tcase_add_test(tc, test_adding_a_lesson_keeps_saved_progress);
    tcase_add_test(tc, test_program_steps_and_exercises_are_validated_with_their_place);
    tcase_add_test(tc, test_every_step_kernel_runs_on_the_simulator);
    tcase_add_test(tc, test_lesson1_hello_prints_one_line_per_thread);
    tcase_add_test(tc, test_every_shipped_lesson_lints_clean);
    tcase_add_test(tc, test_lesson1_starter_report_names_the_out_of_bounds_store);
    tcase_add_test(tc, test_wrong_answer_reports_first_differing_index);
    tcase_add_test(tc, test_lesson_find_by_number_id_and_folder);
    tcase_add_test(tc, test_softmax_and_attention_grade_within_documented_tolerances);
    tcase_add_test(tc, test_sorting_steps_lose_updates_then_count_and_sort_exactly);
    tcase_add_test(tc, test_expect_entries_that_contradict_the_run_fail_lint);
    tcase_add_test(tc, test_expect_and_gpu_launch_are_validated_with_their_place);
    tcase_add_test(tc, test_gpu_launch_applies_on_a_gpu_only);
    tcase_add_test(tc, test_declared_input_sets_are_generated_as_declared);
    tcase_add_test(tc, test_every_exercise_declares_its_adversarial_inputs);
    tcase_add_test(tc, test_points_name_real_checks_and_default_to_one);
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
