/* exercise.h — the exercise use case of `r` on an exercise (the TUI runs it in its
 * worker, tui/job.c): the learner's kernel at one of the graded sizes with the lesson's
 * own inputs, then the hidden reference at the same size with the same inputs, and the
 * two outputs compared as the grader's matches_reference check compares them (its
 * outputs, its tolerance: grade.h's pieces). The size, when the caller has none yet, is
 * chosen once by timing the reference: the largest graded size it runs within
 * GL_EXERCISE_SIZE_SECONDS on the simulator. */
#ifndef GL_EXERCISE_H
#define GL_EXERCISE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/backend.h"
#include "runtime/lesson.h"

/* The most graded sizes an exercise run measures. */
enum { GL_EXERCISE_MAX_SIZES = 64 };

/* A reference run slower than this (seconds on the simulator, traced as the run is)
 * marks its size as too slow to be the exercise's default size. */
#define GL_EXERCISE_SIZE_SECONDS 1.0

/* The learner's outputs against the reference's, as matches_reference judges them. */
typedef struct gl_exercise_cmp {
    int done; /* 1: compared (both ran at n and every output is there) */
    int64_t n;
    double tolerance;        /* floats (the check's; 0 = bit-exact) */
    size_t elements, differ; /* output elements compared, and those that differ */
    int first_arg;           /* the first output that differs (-1: none) */
    size_t first;            /* its first differing element */
} gl_exercise_cmp;

/* What an exercise run brings back besides the learner's run. Free with
 * exercise_result_free. */
typedef struct gl_exercise_result {
    int64_t n; /* the size both kernels ran at */
    /* measured (the run was asked to choose n): the graded sizes ascending and the
     * seconds the reference took at each on the simulator; -1 for sizes not run (a
     * smaller one took GL_EXERCISE_SIZE_SECONDS or more) */
    int nsizes;
    int64_t sizes[GL_EXERCISE_MAX_SIZES];
    double secs[GL_EXERCISE_MAX_SIZES];
    gl_status ref_status; /* GL_OK: ref_buffers hold the reference's output */
    char ref_error[2048];
    gl_buffer *ref_buffers; /* one per argument, or NULL */
    int ref_nargs;
    gl_exercise_cmp cmp;
} gl_exercise_result;

/* Runs `source` as the exercise of l at size n with the lesson's own input seeds
 * (lesson_exercise_spec, seed offset 0) and opts, then the reference on the simulator
 * at the same n with the same inputs and the exercise's step limit, and compares them
 * (ex->cmp). n <= 0: n is chosen first by timing the reference at every graded size
 * (grade_sizes) from the smallest up with opts' tracing: the largest that ran within
 * GL_EXERCISE_SIZE_SECONDS (else the smallest); that run's output is the reference's.
 * Returns the learner's run as gl_run_spec does (*res initialised in every case: free
 * with gl_run_result_free); *ex is initialised in every case, its reference's failure
 * in ex->ref_status and ref_error. */
gl_status exercise_run(const gl_lesson *l, const char *source, int64_t n, const gl_run_opts *opts,
                       gl_run_result *res, gl_error *err, gl_exercise_result *ex);

/* Compares res's outputs at spec (the exercise's launch at ex->n) with ex->ref_buffers
 * into ex->cmp: matches_reference's outputs (grade_reference_check) with its tolerance,
 * each element as grade_values_equal judges it. cmp.done stays 0 when either side has
 * no output to compare. */
void exercise_compare(const gl_exercise *e, const gl_spec *spec, const gl_run_result *res,
                      gl_exercise_result *ex);

/* Frees ex's reference buffers and zeroes *ex. */
void exercise_result_free(gl_exercise_result *ex);

#endif
