/* program.h — whole CUDA programs (`gpulearn run PROG.cu`): compiled with gpulearn's CUDA
 * runtime (cudart/) in place of NVIDIA's, then run as a child process whose kernels run
 * on the simulator in that process (docs/architecture.md "Whole programs"). */
#ifndef GL_PROGRAM_H
#define GL_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/compile.h"
#include "runtime/gl.h"
#include "runtime/result.h"

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
    int sandbox;          /* gl_program_build_untrusted: build in the sandbox (unused by
                             gl_program_build itself) */
    const char *source;   /* gl_program_build_untrusted: the bytes of sources[0], read once
                             by the caller (a submission also graded as a kernel), or NULL:
                             read there; source_len of them */
    size_t source_len;
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

/* The files of gpulearn's CUDA runtime a build uses: the archive (libgpulearn_cudart.a)
 * into lib and its include folder into inc; 1 when both are found. */
int gl_program_runtime_paths(char *lib, size_t liblen, char *inc, size_t inclen);

/* 1 in a sanitizer build (make MODE=asan/ubsan), whose programs link the sanitizer's
 * runtime: a program's own leaks are then not reported (ASAN_OPTIONS). */
int gl_program_sanitized(void);

/* ------------------------------------------------ untrusted programs (program_sandbox.c)
 *
 * A program a learner hands in for grading (or `gpulearn run --sandbox`) is untrusted
 * twice: its source reaches the compilers, and its host code runs natively. Both go
 * through the sandbox kernels' compiles and runs use (runtime/sandbox.h): its own
 * folder, the only one it may write (a file there at most GL_PROGRAM_FILE_BYTES); the
 * system's libraries and the compilers read-only, nothing of the learner's home; no
 * sockets; no new processes; CPU time, memory and wall time bounded; an environment
 * holding only gpulearn's settings; its output counted, and stopped past a limit. */

/* gl_program_build in a child on copies of the sources, each read once
 * (gl_read_submission: never through a link) and written to dir/src under its base
 * name; with o->sandbox the child is sandboxed (gl_sandbox_spawn: compile limits,
 * GL_COMPILE_WALL_S of wall time), so that the compilers read nothing else of the
 * learner's (-I folders apart). The compilers' messages go to *log (malloc'd, may be
 * NULL; caller frees), naming the files by their base names. Errors as
 * gl_program_build's, and GL_ERR_TOOL when no sandbox can be made (no Landlock). */
gl_status gl_program_build_untrusted(const gl_program_opts *o, const char *dir, char *exe,
                                     size_t exelen, char **log, gl_error *err);

/* Limits of a sandboxed program: CPU seconds (RLIMIT_CPU), bytes of address space
 * (RLIMIT_AS: the simulator's device memory of managed allocations included), the
 * largest file it may write in its folder (RLIMIT_FSIZE), and how much stdout and stderr
 * together `gpulearn run --sandbox` passes on and grading keeps. */
#define GL_PROGRAM_CPU_S 60
#define GL_PROGRAM_MEMORY (4ull << 30)
#define GL_PROGRAM_FILE_BYTES (64ull << 20)
#define GL_PROGRAM_OUTPUT_RUN (64ull << 20)
#define GL_PROGRAM_OUTPUT_GRADE (1ull << 20)

/* How gl_program_exec runs a program. */
typedef struct gl_program_exec_opts {
    const char *arch;           /* GPULEARN_PROG_ARCH: the device profile, or NULL */
    const char *schedule;       /* GPULEARN_PROG_SCHEDULE: "random:SEED", or NULL */
    const char *record;         /* GPULEARN_PROG_RECORD: the file cudart writes each launch's
                             record to, or NULL */
    double timeout_s;           /* wall-clock limit, seconds; 0: none */
    const char *timeout_origin; /* where it came from, for the message ("--timeout") */
    int sandbox;                /* 1: in the sandbox (gl_sandbox_opts.program) */
    const char *dir;            /* its folder: the sandbox's (the only one it may write,
                                   HOME and TMPDIR), where stdin_text is put; its working
                                   folder is dir/src where that exists (the sources of
                                   gl_program_build_untrusted), else dir */
    unsigned cpu_s;             /* sandbox: RLIMIT_CPU, seconds; 0: GL_PROGRAM_CPU_S */
    uint64_t memory;            /* sandbox: RLIMIT_AS, bytes; 0: GL_PROGRAM_MEMORY */
    const char *stdin_text;     /* its stdin, or NULL: empty (/dev/null) with capture, else
                               gpulearn's own */
    int capture;                /* 1: stdout and stderr into the result; 0: passed on to
                             gpulearn's own stdout and stderr as they come */
    uint64_t output_limit;      /* bytes of stdout and stderr together, past which it is
                              stopped (what came before is kept); 0: none */
    const char *output_origin;  /* where the limit came from, for the message */
} gl_program_exec_opts;

/* How a program ended and, with capture, what it wrote. */
typedef struct gl_program_result {
    int status;      /* its exit status (0-255); killed by a signal: 128 + the signal;
                      stopped by gpulearn (timeout, output flood) or the sandbox (a
                      forbidden call, the CPU or file limit): 1 */
    int signal;      /* > 0: killed by this signal (not gpulearn's kill) */
    int timed_out;   /* stopped at timeout_s */
    int flooded;     /* stopped past output_limit */
    char *out, *err; /* capture: its stdout and stderr, NUL-terminated (never NULL) */
    size_t outlen, errlen;
    char why[768]; /* gpulearn's sentence when it did not end by itself or was killed by a
                      signal (the limit or the signal named), "" when it exited */
} gl_program_result;
void gl_program_result_free(gl_program_result *r);

/* Runs the built program exe with argv (argv[0] its name in messages) as o says,
 * its stdout and stderr through pipes (no terminal): in a child of its own process
 * group, killed with gpulearn; in the sandbox with o->sandbox. Returns 0 when it ran
 * (*res says how it ended), -1 when it could not start or confine itself (err set). */
int gl_program_exec(const char *exe, char *const argv[], const gl_program_exec_opts *o,
                    gl_program_result *res, gl_error *err);

/* ---- launch records (docs/architecture.md "Whole programs", "Launch records") ----
 * gl_program_run's child inherits gpulearn's environment: set GPULEARN_PROG_RECORD to a
 * file (cudart appends one JSON line per launch and per host API call) and
 * GPULEARN_PROG_TRACE_DIR to a folder (cudart writes launch N's N.trace and
 * N.metrics.json there) before it to have them. */

/* One kernel launch of the program, as cudart recorded it. */
typedef struct gl_prog_launch {
    unsigned number;   /* 1, 2, ... in the order the program launched */
    char kernel[256];  /* as written in the source, "vectorAdd(float const*, ...)";
                              "" when the launched function was not a registered kernel */
    char mangled[256]; /* the PTX entry's name */
    unsigned grid[3], block[3];
    uint64_t shared;         /* dynamic shared memory, bytes */
    uint64_t site;           /* the launch's address in the executable, 0 unknown */
    char where[GL_FILE_MAX]; /* host source file of the launch (relative to the working
                              folder when under it), "" unknown */
    int where_line;          /* its line, 0 unknown */
    int launched;            /* 1: it ran on the simulator; 0: refused (error says why) */
    char error[48];          /* what the launch returned, "cudaSuccess" ... */
    gl_fault fault;          /* kind GL_FAULT_NONE: it completed */
    char fault_error[48];    /* a fault: what the next synchronising call returns */
    gl_finding *findings;    /* the checkers' findings, nfindings of them */
    int nfindings;
    int findings_dropped, nerrors, nwarnings; /* as sim_result counts them */
    gl_stats stats;
    uint64_t printf_bytes;             /* device printf output of the launch */
    double start_ns, end_ns;           /* the modelled device clock */
    double wall_start_ns, wall_end_ns; /* wall clock since cudart started */
} gl_prog_launch;

/* One host API call (cudaMalloc, cudaMemcpy, cudaLaunchKernel, ...). */
typedef struct gl_prog_call {
    char name[64];
    double start_ns, end_ns, wall_start_ns, wall_end_ns; /* as gl_prog_launch's */
} gl_prog_call;

/* A program run's records. */
typedef struct gl_prog_records {
    gl_prog_launch *launches;
    int nlaunches;
    gl_prog_call *calls;
    int ncalls;
    int bad_lines; /* lines that were not a whole record (a crash while one was written) */
} gl_prog_records;

/* Reads the record file path (missing: no records, GL_OK) into r. exe (NULL: none): the
 * program's executable, whose line table (clang -gline-tables-only, gcc -g1) gives each
 * launch site's file:line through addr2line (binutils or LLVM's; left unknown without
 * one). GL_ERR_NOMEM, or GL_ERR_INPUT when the file cannot be read. */
gl_status gl_program_records_read(const char *path, const char *exe, gl_prog_records *r,
                                  gl_error *err);
void gl_program_records_free(gl_prog_records *r);

/* Launch n's trace, read from trace_dir/N.trace (trace/trace_file.h: checked, as it
 * comes from the program's process) into *out (free it with trace_free). GL_ERR_INPUT
 * when it is missing or damaged (err says how). */
gl_status gl_program_launch_trace(const char *trace_dir, unsigned n, trace_t **out, gl_error *err);

/* `--trace-json`: the run's Chrome Trace Event JSON to out: process 0 the host's API
 * calls on the modelled device clock, process N launch N with the tracks its own trace
 * has (trace/perfetto.h: a block and its warps), from trace_dir/N.trace, its
 * warp-instruction clock stretched over the launch's modelled span. GL_ERR_INPUT when a
 * launch's trace is missing or unreadable, GL_ERR_NOMEM. */
gl_status gl_program_write_trace(const gl_prog_records *r, const char *trace_dir,
                                 const char *program, FILE *out, gl_error *err);

/* `--metrics-json`: {"program", "launches": {"N": metrics}} to out, each launch that ran's metrics
 * as `run SPEC.json --metrics-json` writes them (trace/analysis.h gl_metrics_write_json,
 * from trace_dir/N.metrics.json) with "launch", "kernel_name", "grid", "block" and
 * "where" added. GL_ERR_INPUT when one is missing, GL_ERR_NOMEM. */
gl_status gl_program_write_metrics(const gl_prog_records *r, const char *trace_dir,
                                   const char *program, FILE *out, gl_error *err);

#endif
