/* lesson.h — lesson format v1 (lessons/NN-slug/lesson.json); see README "Writing a
 * lesson". A lesson is content only: text, kernels, launch specs, an exercise. */
#ifndef GL_LESSON_H
#define GL_LESSON_H

#include "runtime/gl.h"
#include "runtime/spec.h"

struct cJSON;

/* One step: text a learner reads in under a minute, optionally a kernel, its launch
 * and the view that makes the point visible. */
typedef struct gl_step {
    char *title;
    char *text;
    char *kernel;          /* path of the step's .cu (resolved), or NULL for text-only */
    char *view;            /* "text", "device", "grid_map", "buffers" */
    char *map_value;       /* grid_map colouring: "global_index", "block", "thread",
                              "warp", "lane", or "buffer:NAME" (that buffer's element
                              at the thread's global index). NULL = "global_index" */
    struct cJSON *launch;  /* launch spec object (owned), or NULL */
} gl_step;

/* One automated check of an exercise. */
typedef enum gl_check_kind {
    GL_CHECK_MATCHES_REFERENCE, /* outputs equal the reference's on every size */
    GL_CHECK_NO_FAULT,          /* no out-of-bounds/misaligned access, no deadlock */
} gl_check_kind;

typedef struct gl_check {
    gl_check_kind kind;
    char *name;            /* as written in lesson.json ("matches_reference") */
    int64_t *sizes;        /* values of n to run with; NULL = the exercise's sizes */
    int nsizes;
    char **outputs;        /* buffers compared; NULL = every pointer argument */
    int noutputs;
    double tolerance;      /* max |expected - actual| for floats (0 = bit-exact) */
} gl_check;

typedef struct gl_exercise {
    char *title;
    char *text;
    char *starter;         /* resolved path of the starter kernel */
    char *reference;       /* resolved path of the hidden reference solution */
    struct cJSON *launch;  /* launch spec whose numbers may use "n" (owned) */
    int64_t *sizes;        /* default sizes n */
    int nsizes;
    gl_check *checks;
    int nchecks;
    char **hints;
    int nhints;
} gl_exercise;

typedef struct gl_lesson {
    char *dir;             /* the lesson's folder */
    char *id;              /* short id ("threads") */
    int number;            /* from the folder name NN-slug */
    char *title;
    char *summary;
    gl_step *steps;
    int nsteps;
    gl_exercise *exercise; /* NULL when the lesson has none (lesson 0) */
} gl_lesson;

/* The folder holding the lessons: $GPULEARN_LESSONS, else <exe>/../share/gpulearn/lessons,
 * else the source tree's lessons/ (GL_LESSONS_DIR). */
const char *lesson_root(void);

/* Loads dir/lesson.json. GL_ERR_INPUT naming "dir/lesson.json: field: problem". */
gl_status lesson_load(const char *dir, gl_lesson *out, gl_error *err);
void lesson_free(gl_lesson *l);

/* Loads every lesson under lesson_root(), sorted by number. Caller frees each and the
 * array (lesson_list_free). */
gl_status lesson_list(gl_lesson **out, int *count, gl_error *err);
void lesson_list_free(gl_lesson *ls, int count);

/* Finds a lesson by number ("1", "01"), id ("threads"), folder name ("01-threads") or
 * path to a lesson folder. GL_ERR_USAGE "no lesson 'x' (gpulearn list shows them)". */
gl_status lesson_find(const char *name, gl_lesson *out, gl_error *err);

/* The launch spec of step i (source = the step's kernel unless the spec names one). */
gl_status lesson_step_spec(const gl_lesson *l, int step, gl_spec *out, gl_error *err);

/* The exercise's launch spec at size n, with "random" seeds offset by seed_offset so
 * each size gets different inputs; source = source_path. */
gl_status lesson_exercise_spec(const gl_lesson *l, int64_t n, uint64_t seed_offset,
                               const char *source_path, gl_spec *out, gl_error *err);

#endif
