/* lesson.h — lesson format v1 (lessons/NN-slug/lesson.json); see README "Writing a
 * lesson". A lesson is content only: text, kernels, launch specs, an exercise. */
#ifndef GL_LESSON_H
#define GL_LESSON_H

#include "runtime/backend.h"
#include "runtime/expect.h"
#include "runtime/gl.h"
#include "runtime/spec.h"

struct cJSON;

/* One step: text a learner reads in under a minute, optionally a kernel, its launch
 * and the view that makes the point visible. */
typedef struct gl_step {
    char *title;
    char *text;
    char *kernel;             /* path of the step's .cu (resolved), or NULL for text-only */
    char *view;               /* "text", "device", "grid_map", "buffers"; and views the TUI
                              adds later (until then it shows the grid map): "warps",
                              "memory", "banks", "barriers", "atomics", "tree",
                              "registers", "roofline" */
    char *map_value;          /* grid_map colouring: "global_index", "block", "thread",
                              "warp", "lane", or "buffer:NAME" (that buffer's element
                              at the thread's global index). NULL = "global_index" */
    struct cJSON *launch;     /* launch spec object (owned), or NULL */
    char *arch;               /* optional "arch" of the step (canonical "sm_80"), or NULL: the
                             lesson's; a launch's own "arch" comes first */
    struct cJSON *gpu_launch; /* "gpu_launch" (owned), or NULL: the launch's changes for a
                                 GPU (lesson_step_spec_for) */
    gl_expect *expect;        /* "expect": the claims of the text about the run, checked by
                                 gpulearn lint (runtime/expect.h); nexpect of them */
    int nexpect;
    struct cJSON *kernels; /* "kernels" (owned), or NULL: per other kernel of the
                                 step's file, the launch changes it runs with (grid,
                                 block, args' len...; lesson_step_spec_for) */
    int program;           /* 1: kernel is a whole program (lesson.json "program" in place
                              of "kernel"): `gpulearn run` runs it; no launch */
    char **args;           /* a program step's "args" (its command-line arguments), nargs */
    int nargs;
    int status; /* a program step's "status": the exit status it ends with (0 default; 1
                   for a step whose point is an error its checks catch) */
} gl_step;

/* One run of a program exercise: the arguments and stdin both programs get. An argument
 * "{seed}" is the grading's seed, so that inputs a program draws from it change with
 * every grading, as kernel exercises' random inputs do. */
typedef struct gl_program_case {
    char **args; /* nargs of them */
    int nargs;
    char *stdin_text; /* "stdin", or NULL: empty */
} gl_program_case;

/* A program exercise's "program": the learner writes a whole program (README "Writing a
 * lesson"), graded by its output against the reference program's, its exit status and
 * every launch's checkers (runtime/grade_program.c). */
typedef struct gl_program_exercise {
    gl_program_case *runs; /* "runs" (default: one run without arguments), nruns */
    int nruns;
    double tolerance; /* "tolerance": numbers in stdout may differ from the reference's by
                         this much (absolute); 0: stdout byte for byte */
    double timeout_s; /* "timeout": seconds of wall time per run (default 30) */
} gl_program_exercise;

/* One automated check of an exercise ("kind" in lesson.json). */
typedef enum gl_check_kind {
    GL_CHECK_MATCHES_REFERENCE, /* "matches_reference": outputs equal the reference's */
    GL_CHECK_NO_FAULT,          /* "no_out_of_bounds": no out-of-bounds/misaligned access */
    GL_CHECK_NO_RACES,          /* "no_races": no shared/global hazard between threads
                                   without a barrier between them (racecheck) */
    GL_CHECK_NO_DEADLOCK,       /* "no_deadlock": every barrier released, no barrier
                                   misuse (synccheck) */
    GL_CHECK_TIME_LIMIT,        /* "time_limit": finishes within max_steps warp
                                   instructions (an endless loop fails here) */
    GL_CHECK_METRIC,            /* a metric threshold: "branch_efficiency",
                                   "sector_efficiency" (min), "sectors_per_request",
                                   "bank_conflicts",
                                   "global_atomics", "global_loads_per_output",
                                   "additions", "float_additions" (max); see
                                   trace/analysis.h; "theoretical_occupancy" (min,
                                   percent: gl_run_occupancy_of on the graded profile);
                                   "tensor_core_share" (min, percent of the check's
                                   "product"), "work_distribution" (max, against the
                                   reference's blocks), "pipeline_overlap" (min, waits
                                   that leave a copy in flight); README lists them */
    GL_CHECK_NO_UNINIT,         /* "no_uninitialized_reads": no load of memory nothing
                                   wrote (initcheck: shared memory, or global memory
                                   neither copied in, initialised by the spec nor
                                   stored) */
    GL_CHECK_RANDOM_SCHEDULE,   /* "random_schedule": the outputs still match and no
                                   fault or race appears under `seeds` seeded random
                                   warp/block schedules */
} gl_check_kind;

typedef struct gl_check {
    gl_check_kind kind;
    char *name;     /* as written in lesson.json ("matches_reference") */
    int64_t *sizes; /* values of n to run with; NULL = the exercise's sizes */
    int nsizes;
    char **outputs; /* buffers compared; NULL = every pointer argument */
    int noutputs;
    double tolerance; /* max |expected - actual| for floats (0 = bit-exact) */
    char *metric;     /* GL_CHECK_METRIC: the metric's name (= name) */
    double min, max;  /* GL_CHECK_METRIC: bounds; has_min/has_max say which apply */
    int has_min, has_max;
    uint64_t max_steps; /* GL_CHECK_TIME_LIMIT: warp instructions per launch */
    int seeds;          /* GL_CHECK_RANDOM_SCHEDULE: schedules tried (default 3) */
    char *product;      /* "tensor_core_share": the multiply-adds of the exercise's
                           matrix product (M x N x K), an expression over n */
    int implicit;       /* not in lesson.json: added because every exercise is
                              checked for it (lesson.c add_implicit_checks) */
} gl_check;

/* One entry of an exercise's "points" (README "Writing a lesson"): what the check named
 * `check` (as its report names it: "matches_reference", "kernel.no_races") is worth
 * when it passes. */
typedef struct gl_points {
    char *check;
    int points; /* 0 to 1000 */
} gl_points;

typedef struct gl_exercise {
    char *title;
    char *text;
    char *starter;        /* resolved path of the starter kernel */
    char *reference;      /* resolved path of the hidden reference solution */
    struct cJSON *launch; /* launch spec whose numbers may use "n" (owned) */
    int64_t *sizes;       /* default sizes n */
    int nsizes;
    gl_check *checks;
    int nchecks;
    char **hints;
    int nhints;
    uint64_t step_limit;          /* "step_limit": warp instructions one graded launch may
                              issue before it counts as an endless loop (0 = default) */
    uint64_t memory_limit;        /* "memory_limit": bytes of simulated memory one graded launch
                              may hold (gl_run_opts.memory_limit; 0 = GL_MEMORY_LIMIT_GRADE) */
    gl_program_exercise *program; /* "program": starter and reference are whole programs;
                                     then launch, sizes and checks (all or none) grade the
                                     kernel the launch names inside them. NULL: a kernel
                                     exercise */
    gl_points *points;            /* "points", npoints of them (lesson_check_points) */
    int npoints;
} gl_exercise;

typedef struct gl_lesson {
    char *dir;     /* the lesson's folder */
    char *id;      /* short id ("threads") */
    int number;    /* from the folder name NN-slug */
    char label[8]; /* the folder name's number as a learner types it: its digits without
                      leading zeros and the letters after them ("1", "12", "0b" for
                      00b-first-program, the lesson after 0 and before 1) */
    char *title;
    char *summary;
    char *arch; /* optional top-level "arch" (canonical "sm_80"): the target of every step
                   and of the exercise that names none, or NULL (runtime/arch.h) */
    gl_step *steps;
    int nsteps;
    gl_exercise *exercise; /* NULL when the lesson has none (lesson 0) */
    char *broken;          /* lesson_list only: why dir/lesson.json did not load (then
                              id is the folder name, title says "broken", no steps) */
} gl_lesson;

/* The folder holding the lessons: $GPULEARN_LESSONS, else <exe>/../share/gpulearn/lessons,
 * else the source tree's lessons/ (GL_LESSONS_DIR). */
const char *lesson_root(void);

/* Loads dir/lesson.json. GL_ERR_INPUT naming "dir/lesson.json: field: problem". */
gl_status lesson_load(const char *dir, gl_lesson *out, gl_error *err);

/* lesson_load on text[0..len) as the contents of dir/lesson.json (files it names are
 * looked up under dir). Same errors; on error out holds nothing to free. */
gl_status lesson_parse(const char *text, size_t len, const char *dir, gl_lesson *out,
                       gl_error *err);
void lesson_free(gl_lesson *l);

/* Loads every lesson under lesson_root(), sorted by number. A lesson that does not load
 * is listed all the same, with its error in broken, so that one bad lesson.json hides no
 * other. Caller frees each and the array (lesson_list_free). */
gl_status lesson_list(gl_lesson **out, int *count, gl_error *err);
void lesson_list_free(gl_lesson *ls, int count);

/* Finds a lesson by number ("1", "01"), label ("0b", "00b"), id ("threads"), folder name
 * ("01-threads") or path to a lesson folder (a number shared by lessons 0 and 0b is
 * lesson 0's). GL_ERR_USAGE "no lesson 'x' (gpulearn list shows them)". */
gl_status lesson_find(const char *name, gl_lesson *out, gl_error *err);

/* The launch spec of step i (source = the step's kernel unless the spec names one). */
gl_status lesson_step_spec(const gl_lesson *l, int step, gl_spec *out, gl_error *err);

/* The launch spec kernel `kernel` of step i's file runs with on `where` (README
 * "Writing a lesson"): the step's launch; on GL_BACKEND_GPU its "gpu_launch" applied (a
 * size that keeps a GPU busy: each key replaces the launch's, each entry of its "args"
 * the keys of the argument it names); for another kernel of the file than the step's
 * (the TUI's f; kernel NULL: the step's own) its entry of the step's "kernels", then on a
 * GPU its entry of the gpu_launch's "kernels", so that each kernel computes the whole
 * output at either size. Callers pass the back end that will run it (the TUI's probed
 * device). GL_ERR_INPUT naming "dir/lesson.json: steps[i].launch with gpu_launch with
 * kernels.NAME" when the result is not a valid spec. */
gl_status lesson_step_spec_for(const gl_lesson *l, int step, const char *kernel,
                               gl_backend_kind where, gl_spec *out, gl_error *err);

/* The kernel step s launches (its launch's "kernel"), "" when it has none. */
const char *lesson_step_kernel_name(const gl_step *s);

/* The target the exercise names: its launch's "arch", else the lesson's, else NULL. */
const char *lesson_exercise_arch(const gl_lesson *l);

/* The exercise's launch spec at size n, with "random" seeds offset by seed_offset so
 * each size gets different inputs; source = source_path. */
gl_status lesson_exercise_spec(const gl_lesson *l, int64_t n, uint64_t seed_offset,
                               const char *source_path, gl_spec *out, gl_error *err);

/* Which inputs an exercise spec's "random" arguments get: the lesson's random draws;
 * adversarial ones inside each argument's declared [min, max] (the grader runs them at
 * the largest size): every element max, every element min (negative where the range
 * allows), or draws from the lowest quarter of the range (many duplicates); and the
 * sets the lesson declares (README "Writing a lesson"): GL_INPUTS_DECLARED + j gives
 * each argument whose init has an "adversarial" list its entry j (a "random" class with
 * its range, by default the element type's whole range: spec.h gl_random_class), the
 * other arguments their random draws. */
typedef enum gl_inputs {
    GL_INPUTS_RANDOM = 0,
    GL_INPUTS_ALL_MAX,
    GL_INPUTS_ALL_MIN,
    GL_INPUTS_FEW_VALUES,
    GL_INPUTS_DECLARED, /* + j, j < lesson_exercise_declared_inputs */
} gl_inputs;

/* The most entries one argument's "adversarial" list may hold. */
#define GL_INPUTS_MAX_DECLARED 8

/* How many declared input sets the exercise has: the longest "adversarial" list of its
 * arguments (0 when none). */
int lesson_exercise_declared_inputs(const gl_lesson *l);

/* The words a report puts after a size for `variant`: "" for the random draws,
 * " with every input the largest allowed", ..., for a declared set each argument's
 * entry: " with keys differing only in bits 0-7, 8-15, 16-23, 24-31, or bit 31 (one
 * range per part of keys)". Cut to len bytes. */
void lesson_exercise_inputs_label(const gl_lesson *l, gl_inputs variant, char *buf, size_t len);

/* lesson_exercise_spec with the inputs of `variant`. */
gl_status lesson_exercise_spec_variant(const gl_lesson *l, int64_t n, uint64_t seed_offset,
                                       gl_inputs variant, const char *source_path, gl_spec *out,
                                       gl_error *err);

/* Whether the exercise's launch has an argument with "random" inputs (else the
 * adversarial variants would repeat the same run). */
int lesson_exercise_has_random(const gl_lesson *l);

/* The value of check k's "product" at size n (lesson_load validated it), 0 when it
 * has none. */
int64_t lesson_check_product(const gl_check *k, int64_t n);

/* The points the check named `check` in e's report is worth when it passes: its entry
 * of the exercise's "points", else 1. */
int lesson_check_points(const gl_exercise *e, const char *check);

/* The metric check names lesson.json accepts, NULL-terminated (for lint and docs). */
extern const char *const lesson_metric_names[];

#endif
