/* compare.h — comparing a launch's buffers with what they held before it, and one launch's
 * work with another's: what the TUI's buffers view and Result show when they say a kernel
 * "changed" an element or compare a run with the previous one. The grader's comparison
 * with a reference (within a tolerance) is grade_count_diffs in runtime/grade.h. */
#ifndef GL_COMPARE_H
#define GL_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/spec.h"

/* Elements among len elements of type t whose bytes differ between before and after: an
 * element the launch changed, however little (a float 1e-9 away counts, and so does -0.0
 * over 0.0 or another NaN's bits). *first (may be NULL) gets the first one, len if none. */
size_t gl_compare_count_changed(gl_type t, size_t len, const void *before, const void *after,
                                size_t *first);

enum { GL_WORK_MAX_BUFFERS = 16 };

/* What one launch did, as far as comparing it with another launch needs. */
typedef struct gl_work {
    char kernel[128];
    uint64_t blocks, threads; /* the grid's blocks, and threads launched */
    double flops;             /* the spec's declared "flops", 0 when not declared */
    double bytes_moved;       /* the spec's declared "bytes_moved", 0 when not declared */
    int nbuf;                 /* pointer arguments recorded (the first GL_WORK_MAX_BUFFERS) */
    struct gl_work_buffer {
        char name[64];
        size_t len;     /* elements */
        size_t changed; /* elements the launch changed (gl_compare_count_changed); SIZE_MAX when
                           the buffer after the launch is missing */
        size_t first;   /* the first of them (len when none) */
    } buf[GL_WORK_MAX_BUFFERS];
} gl_work;

/* Fills w from spec s and its buffers after the launch (after[0..nafter), one per
 * argument, as gl_run_result.buffers). before: the buffers before the launch, one per
 * argument (spec_buffers_new), or NULL to make each from its init in turn
 * (spec_buffer_fill; a buffer that cannot be allocated counts as unknown). */
void gl_compare_work_of(const gl_spec *s, const gl_buffer *before, const gl_buffer *after,
                        int nafter, gl_work *w);

/* Whether launch `cur` did the same work as the launch `prev` before it: the same
 * declared flops and bytes_moved (where both declare them), the same pointer arguments
 * with the same lengths, and as many elements changed in each. buf (may be NULL) gets one
 * sentence: what differs ("not the same work as the previous run: matmul_naive changed
 * 4096 of the 65536 elements of C, matmul_regtile 65536"), or, for the same work from
 * launches of another shape, what each ran ("the same work as the previous run in
 * another shape: ..."); "" when the launches are alike. Returns 1 same, 0 not. */
int gl_compare_work_same(const gl_work *prev, const gl_work *cur, char *buf, size_t len);

#endif
