/* compile.h — CUDA C to PTX: NVRTC (dlopen), then nvcc, then clang's NVPTX back end. */
#ifndef GL_COMPILE_H
#define GL_COMPILE_H

#include "runtime/gl.h"
#include "runtime/result.h"

typedef enum gl_compiler { GL_CC_AUTO, GL_CC_NVRTC, GL_CC_NVCC, GL_CC_CLANG } gl_compiler;

/* Name of a compiler ("nvrtc", "nvcc", "clang"; "auto"). */
const char *gl_compiler_name(gl_compiler c);

/* nvcc's path into buf[n]: PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin. Returns
 * 1, or 0 when there is none. */
int gl_compile_find_nvcc(char *buf, size_t n);

/* ptxas's path into buf[n]: $GPULEARN_PTXAS ("none": there is none), then PATH,
 * $CUDA_HOME/bin, /usr/local/cuda/bin. Returns 1, or 0 when there is none. */
int gl_compile_find_ptxas(char *buf, size_t n);

/* The clang prelude's path (gpulearn_prelude.h) into buf[n]: $GPULEARN_PRELUDE_DIR, the
 * source tree's runtime/prelude, then <exe>/../share/gpulearn/prelude for installs; the
 * files shipped beside it (include/, reference/) are in the same folder. Returns 1, or 0
 * when it is not found. */
int gl_compile_find_prelude(char *buf, size_t n);

/* clang's path into buf[n] ("clang" on PATH, then clang-19 down to clang-14). Returns 1, or 0
 * when there is none. */
int gl_compile_find_clang(char *buf, size_t n);

/* The nvcc, clang and ptxas a compilation would run (gl_compile_find_nvcc, _clang,
 * _ptxas) into nvcc, clang and ptxas (PATH_MAX bytes each; "" for one there is none of):
 * what a sandbox must let its compiler execute, since one found on PATH may lie outside
 * the toolkit (a wrapper script in /usr/local/bin). */
void gl_compile_find_tools(char *nvcc, char *clang, char *ptxas);

/* The include/ folder beside the prelude (path prelude, from gl_compile_find_prelude) into
 * buf[n]. */
void gl_compile_prelude_dir(const char *prelude, char *buf, size_t n);

/* Options of one compilation. Zero-initialise for defaults. */
typedef struct gl_compile_opts {
    gl_compiler compiler;    /* GL_CC_AUTO: NVRTC if libnvrtc loads, else nvcc on PATH or
                             in CUDA_HOME, else clang; env GPULEARN_COMPILER overrides */
    const char *arch;        /* target: "sm_90", "compute_90", "90" or "9.0" (the PTX's
                             .target); NULL: the simulator's default device profile
                             (sim_device: sm_90). clang compiles for the newest target it
                             knows below a newer one and says so in the log */
    const char *arch_origin; /* where arch came from, for messages ("--arch", "the spec's
                                \"arch\""); NULL: "the default" */
    int verbose;             /* print the compiler and options used to stderr */
    int debug;               /* a debug build: -G (NVRTC, nvcc: no optimisation, locals on
                             the stack) or -O0 (clang), so that checks see the code as
                             written, not as the optimiser moved it */
    /* Compilation cache: the PTX is kept in $XDG_CACHE_HOME/gpulearn, keyed by
     * the source, its path, the options and the compilers' versions (runtime/cache.h). */
    int no_cache; /* always compile; neither read nor write the cache */
    /* Untrusted source (a submission being graded): compile in a child process confined
     * by Landlock (runtime/sandbox.h) to the compilers, the system headers, the prelude
     * and the source file itself, with CPU-time, memory and wall-time limits; cached
     * apart from unsandboxed compilations (the parent reads and writes the cache).
     * GL_ERR_TOOL when the sandbox cannot be made (see gl_sandbox_available). */
    int sandbox;
    /* The source's bytes, read once by the caller (a submission: gl_read_submission), or
     * NULL: read from path. When set, path only names the source (in messages, line info
     * and the cache key) and is never opened: nvcc and clang compile a copy written to a
     * private folder (the sandbox's, with sandbox), NVRTC the bytes themselves. */
    const char *source;
    size_t source_len; /* bytes at source (it may hold a NUL; one follows them) */
    /* 1: the source is a whole program (host code beside its kernels, calling cudart's
     * API: a program exercise's kernel graded with a launch spec): compiled by nvcc
     * (the Toolkit's headers) or clang with cudart's cuda_runtime.h, never NVRTC, which
     * compiles no host code. */
    int program;
} gl_compile_opts;

/* Limits of a sandboxed compilation: CPU seconds, bytes of data memory, wall seconds. */
#define GL_COMPILE_CPU_S 60
#define GL_COMPILE_DATA_BYTES (3ull << 30)
#define GL_COMPILE_WALL_S 120

/* What a compilation produced. Free with gl_compiled_free. */
typedef struct gl_compiled {
    char *ptx;         /* PTX text, NUL-terminated */
    char *log;         /* warnings (compile errors go to err instead), may be NULL */
    gl_compiler used;  /* which compiler ran */
    char command[512]; /* the command line / options used, for --verbose and the TUI */
    int cached;        /* 1: taken from the compilation cache, no compiler ran */
    gl_diag *diags;    /* the compiler's messages with a place, parsed once, in its
                          order (errors, warnings, notes; malloc'd, or NULL): set on
                          GL_ERR_COMPILE too (then nothing else is), none on a cache hit */
    int ndiags;
    /* Registers per thread of each function, counted for the target: ptxas compiles the
     * PTX to a cubin for sm_<target> (as a GPU's driver compiles it; without ptxas, NVRTC
     * compiles the source for sm_<target> too) and runtime/cubin.h reads the table from
     * the cubin: "sm_75\n72 moving_sum\n..." (gl_cubin_regs_of looks one up).
     * NULL when not counted (no CUDA Toolkit on this machine, a debug build), regs_why
     * then says why: "no CUDA Toolkit (ptxas) to count them". */
    char *regs;
    char regs_why[256];
} gl_compiled;
void gl_compiled_free(gl_compiled *c);

/* Compiles the CUDA C file `path` to PTX with line info (-lineinfo), for opts->arch. A
 * compile error caused by a feature the target lacks starts with a line naming it and
 * the first target that has it ("k.cu: __reduce_add_sync needs sm_80 or newer; this run
 * targets sm_75 (--arch)").
 * Kernels may use threadIdx, blockIdx, blockDim, gridDim, __syncthreads, atomicAdd and
 * printf without includes (clang gets our prelude, runtime/prelude/gpulearn_prelude.h).
 * Errors: GL_ERR_INPUT (file unreadable), GL_ERR_COMPILE with the compiler's messages
 * rewritten as "path:line:col: error: ..." (path as given) in err and parsed into
 * out->diags (free out with gl_compiled_free in every case), GL_ERR_TOOL when no
 * compiler is available (the message says what to install).
 * A successful compilation is cached (see gl_compile_opts.no_cache); a cache hit sets
 * out->cached and out->used/command/log as they were. Sources that #include "files" are
 * never cached (their headers are not part of the key). GPULEARN_NO_CACHE=1 turns the
 * cache off. */
gl_status gl_compile_cuda(const char *path, const gl_compile_opts *opts, gl_compiled *out,
                          gl_error *err);

/* A compilation started by gl_compile_start and collected, once, by gl_compile_finish. */
typedef struct gl_compile_job gl_compile_job;

/* Starts gl_compile_cuda(path, opts): with opts->sandbox, a sandboxed child that compiles
 * beside the caller (so that several run at once: a grading's optimised and debug
 * builds), unless the cache holds its result (sandboxed compilations are cached apart
 * from the others, keyed the same way); otherwise the whole compilation, now. opts NULL:
 * the defaults. NULL when memory is short. */
gl_compile_job *gl_compile_start(const char *path, const gl_compile_opts *opts);

/* Waits for job and frees it: what gl_compile_cuda returns, with out (free it with
 * gl_compiled_free) and err as it fills them. */
gl_status gl_compile_finish(gl_compile_job *job, gl_compiled *out, gl_error *err);

#endif
