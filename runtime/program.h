/* program.h — whole CUDA programs (`gpulearn run PROG.cu`): compiled with gpulearn's CUDA
 * runtime (cudart/) in place of NVIDIA's, then run as a child process whose kernels run
 * on the simulator in that process (docs/architecture.md "Whole programs"). */
#ifndef GL_PROGRAM_H
#define GL_PROGRAM_H

#include <stddef.h>

#include "runtime/compile.h"
#include "runtime/gl.h"

/* What to compile and how. */
typedef struct gl_program_opts {
    const char *const *sources; /* .cu (host and device code), .cpp/.cc/.c (host only) */
    int nsources;
    const char *const *cflags; /* -I DIR, -D NAME[=V] as given, each one argument */
    int ncflags;
    const char *arch;     /* the device profile, "sm_90"; NULL: the simulator's default */
    gl_compiler compiler; /* GL_CC_CLANG, GL_CC_NVCC, or GL_CC_AUTO: clang, else nvcc */
    int native;           /* --backend gpu: an ordinary nvcc build with NVIDIA's runtime, run
                             on the GPU (-arch=native, or arch's) */
    int verbose;          /* print each compiler command to stderr */
} gl_program_opts;

/* Compiles and links the program into an executable `dir`/prog (dir: a folder the caller
 * made and removes). With nvcc: the Toolkit's headers, the fat binary carrying PTX
 * (-gencode arch=compute_XX,code=compute_XX, uncompressed), linked with -cudart=none.
 * With clang in CUDA mode: each .cu's device code to PTX with the
 * prelude, embedded where clang's host object expects its GPU binary, the host code
 * against cudart/include's cuda_runtime.h, linked with libgpulearn_cudart.a. The
 * compilers' messages (file:line) go to stderr as they come. GL_ERR_COMPILE when the
 * program does not compile or calls a CUDA API gpulearn does not provide (err names the
 * functions), GL_ERR_TOOL when clang or gpulearn's runtime library is missing. */
gl_status gl_program_build(const gl_program_opts *o, const char *dir, char *exe, size_t exelen,
                           gl_error *err);

/* Runs the built program with argv (argv[0] its name) and the environment that sets its
 * runtime (GPULEARN_PROG_*: the device, the schedule "random:SEED" or NULL), stdin,
 * stdout and stderr passed through; timeout_s > 0 stops it after that many seconds.
 * Returns its exit status (0-255); killed by a signal, 128 + the signal, with a message
 * on stderr. -1 when it could not start (err set). */
int gl_program_run(const char *exe, char *const argv[], const char *arch, const char *schedule,
                   double timeout_s, gl_error *err);

#endif
