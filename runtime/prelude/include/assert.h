/* assert.h — for clang's NVPTX back end without a CUDA Toolkit (the C library's assert.h
 * calls the host's __assert_fail). A false assert() calls __assertfail, as the CUDA
 * Toolkit's does: the GPU stops the kernel with cudaErrorAssert and the simulator with a
 * fault naming the condition (CUDA C++ Programming Guide "Assertion"). NDEBUG turns it
 * off. In a whole program's host code it is the C library's assert. */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
/* __host__ too, for a whole program's host code (`gpulearn run PROG.cu`): gpulearn's
 * CUDA runtime defines the host side as the C library's assert does (message, abort) */
extern "C" __host__ __device__ void __assertfail(const char *message, const char *file,
                                                 unsigned line, const char *function,
                                                 size_t char_size);
#define assert(e)                                                                          \
    ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char)))
#endif
