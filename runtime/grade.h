/* grade.h — grading an exercise: run the learner's kernel and the hidden reference on
 * every size with seeded random inputs, and apply the lesson's checks. */
#ifndef GL_GRADE_H
#define GL_GRADE_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/backend.h"
#include "runtime/lesson.h"

/* Verdict of one check. detail is plain language: what happened and where (source
 * line, block, thread, first differing index with expected and actual values). */
typedef struct gl_check_result {
    char name[64];
    int passed;
    int not_run; /* 1: could not be judged (the kernel did not compile, did not fit
                        the exercise or did not finish, and failed no size for this
                        check's own reason): reported as NOT RUN, counted as failed */
    /* 1 (with not_run): theoretical_occupancy could not be judged because nothing counted
     * registers per thread (no CUDA Toolkit) and the bound without them decides nothing */
    int regs_unknown;
    char detail[4096];
    int points; /* what the check is worth when it passes (lesson_check_points) */
} gl_check_result;

/* "pass", "fail" or "not_run": a check's verdict in JSON, JUnit and the batch CSV. */
const char *grade_check_status(const gl_check_result *c);

/* A whole grading. Free with grade_report_free. */
typedef struct gl_grade_report {
    char lesson[64];
    char submission[1024];
    char backend[8]; /* "sim", or "gpu": the submission also ran on the GPU */
    uint64_t seed;   /* the inputs' and random schedules' seed of this grading
                                (gl_grade_opts.seed repeats it) */
    int sandboxed;   /* the submission was compiled in the sandbox */
    int passed;      /* every check passed */
    int compiled;    /* 0: the submission did not compile (see compile_log) */
    char *compile_log;
    gl_diag *diags; /* compiled 0: the compiler's messages, parsed (gl_compiled.diags;
                       malloc'd, or NULL) */
    int ndiags;
    gl_check_result *checks;
    int nchecks;
} gl_grade_report;
void grade_report_free(gl_grade_report *r);

/* Sets every check's points from exercise e's "points" (lesson_check_points), by the
 * check's name: grade_exercise does, and `grade --batch` again on what a worker sent. */
void grade_report_set_points(gl_grade_report *r, const gl_exercise *e);

/* The points r's passed checks earn; *max (may be NULL) gets what all its checks are
 * worth. */
int grade_report_score(const gl_grade_report *r, int *max);

typedef struct gl_grade_opts {
    gl_backend_kind backend; /* SIM or AUTO: the simulator only. GPU: also on the GPU
                                (outputs must match there too); memory checks always
                                come from the simulator, which sees every access */
    gl_compile_opts compile;
    /* Random inputs and schedules change on every grading, so that a submission cannot
     * pass by writing the expected outputs: seed_given ? seed : a fresh seed (below
     * 2^32) is mixed into every "random" init and schedule, and reported. */
    int seed_given;
    uint64_t seed;
    /* The submission is compiled in a sandbox (gl_compile_opts.sandbox: it reads only
     * itself, the compilers, the system headers and the prelude) wherever the kernel
     * offers one (runtime/sandbox.h); no_sandbox = 1 compiles it like any file.
     * gl_grade_report.sandboxed says which happened. */
    int no_sandbox;
    /* The memory budget of every graded launch (gl_run_opts.memory_limit), bytes: 0 is
     * the exercise's "memory_limit", else GL_MEMORY_LIMIT_GRADE (2 GiB). The submission's
     * launches run in the sandbox with it (gl_run_opts.sandbox) where the compile does;
     * one past it fails the grade with the sizes named. */
    uint64_t memory_limit;
    /* The worker processes the grading's simulator runs go to (runtime/pool.h): <= 1
     * runs them here, one after the other; more runs up to that many at once, each in a
     * worker of its own (a submission's run still in its sandbox, started there), and
     * takes their results in the order one process makes them, so the report is the
     * same byte for byte (only a launch's wall-time limit, GL_TIMEOUT_DEFAULT_S, could
     * tell them apart, on a machine given more jobs than it has cores). */
    int jobs;
} gl_grade_opts;

/* A fresh grading seed below 2^32 (clock and process id); the environment's
 * GPULEARN_GRADE_SEED instead when it holds a whole number below 2^32. */
uint64_t grade_new_seed(void);

/* Grades `submission` (a .cu file; NULL = the exercise's starter) against lesson l.
 * Returns GL_OK when grading ran (rep->passed says the verdict), GL_ERR_INPUT if the
 * lesson has no exercise or its reference fails (a broken lesson), other errors when
 * grading could not run; on an error rep holds no checks (grade_report_free is then
 * optional). A submission that does not compile is a failed grade
 * (GL_OK, rep->compiled == 0), not an error. */
gl_status grade_exercise(const gl_lesson *l, const char *submission, const gl_grade_opts *opts,
                         gl_grade_report *rep, gl_error *err);

/* grade_exercise for a program exercise (gl_exercise.program; runtime/grade_program.c):
 * the submission's program built and run in the sandbox beside the reference program,
 * judged by "compiles", "output_matches_reference", "exit_status", "launches_clean" and
 * "no_leaks", then the kernel matrix's checks ("kernel.matches_reference", ...) when the exercise has a
 * launch. grade_exercise calls it; errors as grade_exercise's. */
gl_status grade_program_exercise(const gl_lesson *l, const char *submission,
                                 const gl_grade_opts *opts, gl_grade_report *rep, gl_error *err);

/* The names of the checks a grading of exercise e reports, in its report's order
 * ("compiles" first; a program exercise's own, then "kernel.compiles" and its kernel's),
 * into names (at most max); returns how many: `grade --batch`'s CSV columns. */
int grade_check_names(const gl_exercise *e, char (*names)[64], int max);

/* `gpulearn lint` of a program step (gl_step.program): the program builds, runs on the
 * simulator with the step's args and exits with its "status"; a step that exits 0 has
 * no faulting, refused or erroneous launch. Writes one line per problem to out; returns
 * how many. */
int grade_program_lint_step(const gl_lesson *l, int step, FILE *out);

/* The pieces of grading that the TUI's `r` on an exercise reuses to run the learner's
 * kernel at one graded size and compare it with the reference as the grader does. */

/* The sizes n grading runs an exercise at: exercise.sizes, then each check's own sizes,
 * each once, in that order. Writes at most max; returns how many. */
int grade_sizes(const gl_exercise *e, int64_t *out, int max);

/* The check whose outputs and tolerance judge "matches the reference" at size n: the
 * first matches_reference check that uses n, else the first one; NULL when the exercise
 * has none (then every pointer argument is compared bit for bit). */
const gl_check *grade_reference_check(const gl_exercise *e, int64_t n);

/* Whether check k compares the buffer named `name` (k NULL or without "outputs": every
 * pointer argument does). */
int grade_is_output(const gl_check *k, const char *name);

/* Whether actual equals expected as the grader judges it: integers bit for bit; floats
 * within tol (0: bit-exact, so -0.0 differs from 0.0); NaN equals only NaN. */
int grade_values_equal(gl_type t, gl_value expected, gl_value actual, double tol);

/* Counts the elements [0, len) of type t where actual differs from expected
 * (grade_values_equal with tol); *first (may be NULL) gets the first one, len if none. */
size_t grade_count_diffs(gl_type t, size_t len, const void *expected, const void *actual,
                         double tol, size_t *first);

/* Appends a printf-formatted line to check c's detail (a newline before it when the
 * detail has text), cut at the detail's size; nothing when it is full. */
void grade_add_detail(gl_check_result *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* v as the grader's messages write it: floats "%.9g" (an f32 reads back exactly),
 * integers in full. */
void grade_format_value(char *buf, size_t len, gl_type t, gl_value v);

/* Writes the report as text (for people) or JSON (for autograders). */
void grade_report_write_text(FILE *f, const gl_grade_report *r);
void grade_report_write_json(FILE *f, const gl_grade_report *r);
/* The JSON report as an object (what grade_report_write_json prints; `grade --batch`
 * puts it in its summary). Caller frees with cJSON_Delete; NULL when out of memory. */
struct cJSON *grade_report_to_json(const gl_grade_report *r);
/* JUnit XML (one <testsuite> "gpulearn.<lesson>", one <testcase> per check, a
 * <failure> with the detail for each failed check), for CI autograders. */
void grade_report_write_junit(FILE *f, const gl_grade_report *r);

/* Lints the lesson in folder dir (`gpulearn lint`): lesson.json against the schema and
 * its files (lesson_load), every step's launch runs on the simulator, a "buffer:NAME"
 * map names a pointer argument, and for the exercise: the reference passes every check,
 * the starter compiles and fails at least one, 2-3 hints. Writes one line per problem
 * ("dir/lesson.json: steps[2]: ...") and a closing verdict to out. Returns the number
 * of problems (0 = clean). */
int grade_lint(const char *dir, FILE *out);

#endif
