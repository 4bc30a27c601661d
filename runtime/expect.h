/* expect.h — a lesson step's "expect" entries: the numbers its text states about its run
 * (an output value, a metric, a checker's finding, a GPU measurement), written as checks
 * the run must satisfy, and `gpulearn lint`'s runs of each step that check them on the
 * simulator and, on a GPU, at the step's "gpu_launch" (README "Writing a lesson"). */
#ifndef GL_EXPECT_H
#define GL_EXPECT_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/gl.h"

struct cJSON;
struct gl_lesson;

/* Where an entry is checked ("on"): the simulator's run, the GPU's, or both. */
#define GL_EXPECT_ON_SIM 1u
#define GL_EXPECT_ON_GPU 2u

/* What an entry looks at: exactly one of these keys. */
typedef enum gl_expect_kind {
    GL_EXPECT_BUFFER,          /* "buffer": elements of a pointer argument after the run */
    GL_EXPECT_STDOUT_LINES,    /* "stdout_lines": N, the lines of device printf output */
    GL_EXPECT_STDOUT_CONTAINS, /* "stdout_contains": a text the printf output contains */
    GL_EXPECT_METRIC,          /* "metric": a metric of the run (trace/analysis.h names,
                                  or a short name of gl_expect_metric_names) */
    GL_EXPECT_FINDING,         /* "finding": a checker's finding, or "none" */
    GL_EXPECT_MEASURE,         /* "measure": a GPU measurement (gl_expect_measure_names) */
} gl_expect_kind;

/* One entry of a step's "expect" array, validated (gl_expect_parse). Every test given
 * must hold; a buffer's tests apply to each selected element unless they are of the
 * selection as a whole (sum, iota, sorted, diff). */
typedef struct gl_expect {
    gl_expect_kind kind;
    unsigned on;  /* GL_EXPECT_ON_* bits: "sim", "gpu" or "both"; by default buffers and
                     stdout both, metrics and findings sim, measures gpu */
    char *name;   /* the buffer, metric, finding kind, measure or stdout text */
    char *kernel; /* "kernel": another kernel of the step's file, run with the step's
                     launch (as the TUI's f does), or NULL: the step's kernel */
    char *device; /* "device": GPU entries apply only on a GPU whose name contains it */
    /* buffer selection: one element ("index": i or [row, col] of a "shape"d buffer) or
     * the elements [from, to) (default: all) */
    int64_t from, to; /* to = -1: the end */
    int64_t mod;      /* "mod": m > 0: test each integer element mod m; 0: none */
    /* tests */
    int has_equals;
    double equals;    /* "equals": a number, or NaN/infinity from "nan", "inf", "-inf" */
    char *equals_str; /* "equals" of metric "occupancy_limiter": "threads", ... */
    int has_min, has_max;
    double min, max;  /* "min", "max": bounds (inclusive) */
    double tolerance; /* "tolerance": |actual - expected| allowed by equals and sum */
    int has_sum;
    double sum; /* "sum": the selection's sum */
    int has_iota;
    double iota_start, iota_step; /* "iota": element k of the selection = start + k step */
    int sorted;                   /* "sorted": "ascending": non-decreasing */
    int has_diff;                 /* "diff": {"min", "max"}: the largest |difference|
                                     between the selection and the same elements of the
                                     step kernel's run (needs "kernel") */
    double diff_min, diff_max;
    char *gemm_a, *gemm_b; /* "gemm": ["A", "B"]: diff compares with the host's product of
                              those shaped buffers (in double) instead */
    int line;              /* metric: a line of the step's kernel file (per-line metrics); 0: all */
    double per;            /* metric: divided by "per": a buffer's len (> 0), the grid's blocks
                   ("block": -1), the launch's "flops" ("flops": -2), or 0: not divided */
    /* finding: "first" (only the first finding of the kind), "hazard" ("raw", "war",
     * "waw"), the threads of the reading and writing accesses, the element
     * ("bins[7]", "s[63]") */
    int first;
    int hazard; /* gl_hazard, 0: any */
    int has_reader, has_writer;
    unsigned reader[3], writer[3];
    char *element;
} gl_expect;

/* Parses `arr`, a step's "expect" array: *out (malloc'd, *n entries; free with
 * gl_expect_free) or GL_ERR_INPUT naming "file: steps[step].expect[j]: problem"
 * (an unknown key, a subject missing or doubled, a buffer the launch does not have, a
 * test that does not fit its subject, a measure marked for the simulator). launch is
 * the step's launch object (buffer names and shapes are checked against it). */
gl_status gl_expect_parse(const struct cJSON *arr, const struct cJSON *launch, const char *file,
                          int step, gl_expect **out, int *n, gl_error *err);
void gl_expect_free(gl_expect *e, int n);

/* The metric short names "metric" accepts besides trace/analysis.h's JSON keys,
 * NULL-terminated. */
extern const char *const gl_expect_metric_names[];
/* The GPU measurements "measure" accepts, NULL-terminated: "time_ms" (median of the
 * timed runs), "gbs", "gflops", "pct_of_peak" (of the device's bandwidth),
 * "library_pct" (yours as a share of cuBLAS or CUB, as the Result says it),
 * "time_ratio" (a "kernel"'s median time over the step kernel's). */
extern const char *const gl_expect_measure_names[];

/* How gl_expect_lint_step runs a step. */
typedef struct gl_expect_lint_opts {
    int no_sim;       /* 1: skip the simulator's run (gpulearn lint --speed) */
    int gpu;          /* a GPU works here (gl_expect_probe_gpu) */
    char device[256]; /* its name */
    int speed;        /* 1: on the GPU, time the step's kernel and every other kernel of its
                        file that takes the launch's arguments (those the TUI's f runs),
                        and print a table row for each (tools/gpu_speed.sh) */
} gl_expect_lint_opts;

/* Sets o->gpu and o->device: whether a GPU works here (GPULEARN_NO_GPU, no driver: no). */
void gl_expect_probe_gpu(gl_expect_lint_opts *o);

/* Runs step s of lesson l as `gpulearn lint` does and checks its expect entries: on the
 * simulator at the step's launch (the step's kernel must run; entries with "kernel" run
 * that kernel too), then, on a GPU (o->gpu), at the step's GPU launch
 * (lesson_step_spec_for), timed (median of 20 runs) when a measure asks for it. Without
 * a GPU it checks that the GPU launch builds, and *gpu_skipped (may be NULL) gets the
 * number of GPU entries left unchecked. Writes one line per problem to out
 * ("dir/lesson.json: steps[0].expect[1]: bins[7] is 8; expected 2 (the simulator)").
 * Returns the number of problems. */
int gl_expect_lint_step(const struct gl_lesson *l, int s, const gl_expect_lint_opts *o, FILE *out,
                        int *gpu_skipped);

#endif
