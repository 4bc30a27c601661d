/* gpulearn_nvcc_sites.h — included before every source of a whole program that nvcc
 * builds against the Toolkit's headers (runtime/program.c build_nvcc, `-include`): the
 * calls whose messages name the caller's file:line pass it on, as clang's
 * cuda_runtime.h of gpulearn does (docs/architecture.md "Whole programs"). cudaMalloc,
 * cudaMallocManaged, cudaFree, cudaMemcpy, cudaMemset, cudaMemsetAsync and
 * cudaMemcpyAsync become calls of cudart's __gpulearn_ entry points with __FILE__ and
 * __LINE__; the names alone (a function pointer, a deleter) stay NVIDIA's functions.
 * C++ only (a .c file calls NVIDIA's functions). */
#ifndef GPULEARN_NVCC_SITES_H
#define GPULEARN_NVCC_SITES_H
#if defined(__cplusplus) && !defined(__CUDA_ARCH__)
#include <cuda_runtime.h>

extern "C" {
cudaError_t __gpulearn_cudaMalloc(void **devPtr, size_t size, const char *file, int line);
cudaError_t __gpulearn_cudaMallocManaged(void **devPtr, size_t size, unsigned int flags,
                                         const char *file, int line);
cudaError_t __gpulearn_cudaFree(void *devPtr, const char *file, int line);
cudaError_t __gpulearn_cudaMemcpy(void *dst, const void *src, size_t count,
                                  enum cudaMemcpyKind kind, const char *file, int line);
cudaError_t __gpulearn_cudaMemset(void *devPtr, int value, size_t count, const char *file,
                                  int line);
cudaError_t __gpulearn_cudaMemsetAsync(void *devPtr, int value, size_t count, const char *file,
                                       int line);
cudaError_t __gpulearn_cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                       enum cudaMemcpyKind kind, const char *file, int line);
}

/* the calls with the optional arguments NVIDIA's declarations give them, then file, line */
template <class T>
static inline cudaError_t __gpulearn_malloc(T **p, size_t size, const char *file, int line)
{
    return __gpulearn_cudaMalloc((void **)p, size, file, line);
}
template <class T>
static inline cudaError_t __gpulearn_managed(T **p, size_t size, const char *file, int line)
{
    return __gpulearn_cudaMallocManaged((void **)p, size, cudaMemAttachGlobal, file, line);
}
template <class T>
static inline cudaError_t __gpulearn_managed(T **p, size_t size, unsigned int flags,
                                             const char *file, int line)
{
    return __gpulearn_cudaMallocManaged((void **)p, size, flags, file, line);
}
static inline cudaError_t __gpulearn_memset_async(void *p, int value, size_t count,
                                                  const char *file, int line)
{
    return __gpulearn_cudaMemsetAsync(p, value, count, file, line);
}
static inline cudaError_t __gpulearn_memset_async(void *p, int value, size_t count,
                                                  cudaStream_t stream, const char *file, int line)
{
    (void)stream; /* streams run in order in gpulearn's runtime */
    return __gpulearn_cudaMemsetAsync(p, value, count, file, line);
}
static inline cudaError_t __gpulearn_memcpy_async(void *dst, const void *src, size_t count,
                                                  enum cudaMemcpyKind kind, const char *file,
                                                  int line)
{
    return __gpulearn_cudaMemcpyAsync(dst, src, count, kind, file, line);
}
static inline cudaError_t __gpulearn_memcpy_async(void *dst, const void *src, size_t count,
                                                  enum cudaMemcpyKind kind, cudaStream_t stream,
                                                  const char *file, int line)
{
    (void)stream;
    return __gpulearn_cudaMemcpyAsync(dst, src, count, kind, file, line);
}

#define cudaMalloc(...) __gpulearn_malloc(__VA_ARGS__, __FILE__, __LINE__)
#define cudaMallocManaged(...) __gpulearn_managed(__VA_ARGS__, __FILE__, __LINE__)
#define cudaFree(...) __gpulearn_cudaFree(__VA_ARGS__, __FILE__, __LINE__)
#define cudaMemcpy(...) __gpulearn_cudaMemcpy(__VA_ARGS__, __FILE__, __LINE__)
#define cudaMemset(...) __gpulearn_cudaMemset(__VA_ARGS__, __FILE__, __LINE__)
#define cudaMemsetAsync(...) __gpulearn_memset_async(__VA_ARGS__, __FILE__, __LINE__)
#define cudaMemcpyAsync(...) __gpulearn_memcpy_async(__VA_ARGS__, __FILE__, __LINE__)
#endif
#endif
