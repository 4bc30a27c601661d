/* cublas.h — NVIDIA's cuBLAS beside a lesson's kernel. A launch spec's
 * "reference_library": {"sgemm": [M, N, K]} makes the GPU worker run cuBLAS's SGEMM on
 * matrices of those sizes after the kernel, so that the Result can say how far the kernel
 * is from the library. libcublas is loaded with dlopen, like the driver: where it is
 * absent the comparison is skipped with a message and nothing else changes. */
#ifndef GL_CUBLAS_H
#define GL_CUBLAS_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/backend.h"

/* Timed cublasSgemm_v2 calls after the warm-up ones. */
#define GL_CUBLAS_REPS 10
#define GL_CUBLAS_WARMUP 2

/* Loads libcublas ($GPULEARN_LIBCUBLAS, else libcublas.so.13, .12, .11, libcublas.so)
 * and resolves cublasCreate_v2, cublasSetStream_v2, cublasSgemm_v2 and
 * cublasDestroy_v2. Returns the dlopen handle (the caller dlcloses it) with the name
 * that loaded in name[len], or NULL with why in name ("libcublas not found (tried
 * libcublas.so.13, ...)"). Needs no GPU. */
void *gl_cublas_open(char *name, size_t len);

/* In the GPU worker (g open, its context current): row-major C = A B for an M x K A and
 * a K x N B of floats, as cuBLAS's column-major C^T = B^T A^T on the default stream, with
 * small integer inputs so that two corners of C can be checked exactly: cublasSgemm_v2,
 * or with f16 = 1 cublasGemmEx with FP32 A, B and C and CUBLAS_COMPUTE_32F_FAST_16F (the
 * products on the tensor cores in FP16, summed in FP32: cuBLAS Library User Guide,
 * "cublasGemmEx" and "cublasComputeType_t"), what a tensor-core kernel that stages FP32
 * inputs as half does. GL_CUBLAS_WARMUP
 * untimed calls, then GL_CUBLAS_REPS calls each timed by gpu_time_calls; out->ms is their
 * median. Every outcome is a value in *out (ran 0 and note saying why: libcublas absent,
 * a cuBLAS status, device memory); nothing is returned. */
void gl_cublas_sgemm(gpu_t *g, const int64_t mnk[3], int f16, gl_library_run *out);

/* One line for the Result and `gpulearn run` about the library beside the kernel:
 * "cuBLAS: 14210 GFLOP/s in 0.019 ms (cublasSgemm_v2 ...), yours is 31% of it" (compared
 * by kernel_gflops), "CUB: 2900 GB/s in 0.023 ms (cub::DeviceReduce::Sum, ...), yours is
 * 107% of it" (compared by kernel_gbs; a rate of 0 leaves the comparison out), or the
 * note saying why it was skipped. */
void gl_cublas_library_line(const gl_library_run *lib, double kernel_gflops, double kernel_gbs,
                            char *buf, size_t len);

#endif
