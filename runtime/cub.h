/* cub.h — NVIDIA's CUB beside a lesson's kernel. A launch spec's "reference_library":
 * {"cub_reduce_sum": [n]} or {"cub_exclusive_sum": [n]} makes a GPU run time CUB's
 * cub::DeviceReduce::Sum or cub::DeviceScan::ExclusiveSum of n ints after the kernel,
 * so that the Result can say how far the kernel is from the library (the last steps of
 * lessons 9 and 10). CUB is a header library: gpulearn builds
 * runtime/prelude/reference/cub_ref.cu with nvcc into a shared library once per nvcc
 * version and target, cached under the PTX cache; without nvcc the comparison is
 * skipped with a message and nothing else changes. */
#ifndef GL_CUB_H
#define GL_CUB_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/backend.h"
#include "runtime/spec.h"

/* Timed calls after the warm-up ones. */
#define GL_CUB_REPS 10
#define GL_CUB_WARMUP 2

/* The CUB library for SM sm (90 for sm_90): its path in path[len] (built with nvcc
 * when not cached: up to a minute the first time). Returns 1, or 0 with why in
 * why[whylen] ("nvcc not found ...", "nvcc failed: ..."). Needs no GPU. */
int gl_cub_prepare(int sm, char *path, size_t len, char *why, size_t whylen);

/* In the GPU worker (g open, its context current): op on n ints (all 1, so the results
 * are checked exactly) with the library at so_path, GL_CUB_WARMUP untimed calls then
 * GL_CUB_REPS timed ones; out->ms is their median, out->gbs the bytes the routine must
 * move (4 n for a sum, 8 n for a scan) over it. Every outcome is a value in *out (ran 0
 * and note saying why); nothing is returned. */
void gl_cub_run(gpu_t *g, const char *so_path, gl_cub_op op, int64_t n, gl_library_run *out);

#endif
