/* compile_internal.h — private to runtime/compile*.c: what the compiler driver
 * (compile.c) shares with its parts: the diagnostics rewriting (compile_diag.c), nvcc and
 * clang (compile_cli.c), NVRTC (compile_nvrtc.c) and the sandboxed compilation
 * (compile_sandbox.c). */
#ifndef GL_COMPILE_INTERNAL_H
#define GL_COMPILE_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/cache.h"
#include "runtime/child.h"
#include "runtime/compile.h"

/* The prelude clang includes in place of the CUDA headers (runtime/prelude). */
#define PRELUDE_NAME "gpulearn_prelude.h"

/* ------------------------------------------------------------------ compile_diag.c */

/* A growable string; zero-initialise. On out of memory oom is set and puts stop. */
typedef struct strbuf {
    char *s;
    size_t len, cap;
    int oom;
} strbuf;

void cc_sb_putn(strbuf *b, const char *s, size_t n);
void cc_sb_puts(strbuf *b, const char *s);
/* The built string (caller frees; "" when nothing was put), or NULL when out of memory. */
char *cc_sb_take(strbuf *b);
/* Appends printf-formatted text (up to 1 KiB). */
void cc_sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The PTX with the .file entries that name `path` (as the compiler wrote it) renamed to
 * `as` (malloc'd; NULL when out of memory). */
char *cc_ptx_fix_file_names(const char *ptx, const char *path, const char *as);
/* A compilation of `copy` (a private copy of the learner's source) renamed to name the
 * source `as`: the error message, the log, the command, the diagnostics' files and the
 * PTX's .file entries (each kept as it is when memory runs out). */
void cc_rename_source(const char *copy, const char *as, gl_compiled *c, gl_error *e);
/* The PTX with the .loc lines inside toolchain headers moved to the user's line that
 * called them (malloc'd; NULL when out of memory). */
char *cc_ptx_fix_locs(const char *ptx, const char *path);
/* Sets err to GL_ERR_COMPILE with the errors of a compiler's log, rewritten as
 * "path:line:col: error: ..."; warnings into out->log, every message into out->diags. */
gl_status cc_compile_failed(const char *log, const char *path, const char *tool, gl_compiled *out,
                            gl_error *err);
/* A successful compilation's log rewritten into out->log and out->diags. */
void cc_keep_warnings(const char *log, const char *path, gl_compiled *out);
/* Puts gpulearn's note (a line ending in '\n') before out->log (kept as it is when memory
 * runs out). */
void cc_log_prepend(gl_compiled *out, const char *note);
/* A compile error caused by a CUDA library the compiler cannot use gets a first line that
 * says so: under NVRTC (clang: 0), CUB's device-wide algorithms and Thrust, which are
 * host code; under clang (1), CUB and libcu++, which need the CUDA Toolkit's headers
 * (clang compiles against gpulearn's prelude: CCCL 3.0 also needs PTX ISA 7.6, which it
 * assumes of clang 16 and later only).
 * path: the learner's file. */
void cc_explain_library(gl_error *err, const char *path, int clang);

/* ------------------------------------------------------------------ compile_cli.c */

/* Outcome of one compiler: ok, a compile error (report it), or the tool itself is not
 * there / did not work (try the next one in AUTO mode). */
typedef enum try_result { TRY_OK, TRY_COMPILE_ERROR, TRY_UNAVAILABLE } try_result;

/* What clang says of a target it does not know. */
#define CLANG_NO_TARGET "unsupported CUDA gpu architecture"

/* A gl_child_opts setup hook: the CPU-time and data limits of every compiler process
 * (GL_COMPILE_CPU_S, GL_COMPILE_DATA_BYTES); ctx unused. */
void cc_compile_limits(void *ctx);
/* nvcc / clang compile path for sm_<archnum> (debug: -G / -O0) into out; why says why a
 * compiler is unavailable, err holds a compile error. program (clang): path is a whole
 * program (gl_compile_opts.program): cudart's cuda_runtime.h is included first, as the
 * program's own build does (nvcc has the Toolkit's). */
try_result cc_try_nvcc(const char *path, const char *archnum, int debug, gl_compiled *out,
                       char *why, size_t whylen, gl_error *err);
try_result cc_try_clang(const char *path, const char *archnum, int debug, int program,
                        gl_compiled *out, char *why, size_t whylen, gl_error *err);
/* clang for the newest modelled target below archnum that it knows (*fallback: which;
 * note: say so in the log). */
try_result cc_try_clang_older(const char *path, const char *archnum, int debug, int program,
                              int note, gl_compiled *out, char *why, size_t whylen, gl_error *err,
                              int *fallback);
/* Prefixes a compile error caused by a feature target sm lacks with a line naming it. */
void cc_explain_target(gl_error *err, const char *path, int sm, int want, const char *origin);

/* ptxas (gl_compile_find_ptxas) compiles ptx for sm_<archnum> into a cubin in a private folder,
 * under the compile limits; out->regs gets its register table (runtime/cubin.h), or stays
 * NULL with out->regs_why saying why (no ptxas, ptxas failed). Where there is no ptxas,
 * NVRTC counts them while it compiles (compile_nvrtc.c), and this is not called. */
void cc_count_regs(const char *ptx, const char *archnum, gl_compiled *out);

/* ------------------------------------------------------------------ compile_nvrtc.c */

/* NVRTC (dlopen'd, in a child process) compiles src (the bytes of path). */
try_result cc_try_nvrtc(const char *path, const char *archnum, int debug, const char *src,
                        gl_compiled *out, char *why, size_t whylen, gl_error *err);
/* Adds libnvrtc's identity and its C headers (prelude/nvrtc) to a cache key. */
void cc_nvrtc_key(gl_cache_sha256 *h);
/* The folder of the libnvrtc this process loads: 1 with it in buf, else 0. */
int cc_nvrtc_dir(char *buf, size_t n);

/* ------------------------------------------------------------------ compile_sandbox.c */

/* A compilation in the sandbox (gl_compile_opts.sandbox), started by cc_sandbox_start
 * and collected by cc_sandbox_finish: a sandboxed child that runs beside the caller. */
typedef struct cc_sandbox_job {
    gl_child ch;
    char tmp[PATH_MAX];  /* the child's private folder */
    char path[PATH_MAX]; /* the source's name, for messages */
    double deadline;     /* gl_child_now() past which it is stopped (GL_COMPILE_WALL_S) */
    int started;         /* a child runs, for cc_sandbox_finish to collect */
} cc_sandbox_job;

/* Starts compiling path (opts->source's bytes, else the file's, read once here) in a
 * sandboxed child: GL_OK with job started, or GL_ERR_TOOL (no Landlock, no fork, no
 * temporary folder), GL_ERR_NOMEM or the read's error, with nothing started. */
gl_status cc_sandbox_start(const char *path, const gl_compile_opts *opts, cc_sandbox_job *job,
                           gl_error *err);

/* Waits for job's child (within its wall-clock limit: past it, the child and all it
 * started are killed) and gives its result as gl_compile_cuda does; GL_OK and nothing in
 * out for a job that did not start. */
gl_status cc_sandbox_finish(cc_sandbox_job *job, gl_compiled *out, gl_error *err);

/* ------------------------------------------------------------------ compile.c */

/* A compiling child (cc_try_nvrtc's, cc_sandbox_start's) sends its result back in
 * messages (child.h), one per field, the last CC_MSG_DONE. */
enum {
    CC_MSG_WHY = 1,  /* payload: why the compiler is unavailable (cc_try_nvrtc) */
    CC_MSG_ERROR,    /* arg: gl_status; payload: the error message */
    CC_MSG_COMMAND,  /* payload: the command line */
    CC_MSG_PTX,      /* payload: the PTX */
    CC_MSG_LOG,      /* payload: the compiler's messages */
    CC_MSG_USED,     /* arg: the gl_compiler that compiled (cc_sandbox_start) */
    CC_MSG_DIAGS,    /* payload: the gl_diag records, as bytes (same binary both ends) */
    CC_MSG_REGS,     /* arg: 1 when there is a register table; payload: it (gl_compiled.regs) */
    CC_MSG_REGS_WHY, /* payload: gl_compiled.regs_why */
    CC_MSG_DONE,     /* arg: try_result (cc_try_nvrtc) or gl_status (cc_sandbox_start) */
};

/* The most bytes one message may announce (4 GiB). */
#define CC_MSG_MAX (UINT64_C(1) << 32)

/* What a compiling child sent: the arguments of CC_MSG_DONE, _ERROR and _USED and the
 * string fields (malloc'd, "" when not sent). */
typedef struct cc_reply {
    uint32_t done, status, used;
    int sandbox_error; /* the sandboxed child could not confine itself: msg says why
                          (GL_SANDBOX_MSG_ERROR) */
    char *why, *msg, *command, *ptx, *log, *regs_why;
    char *regs;     /* CC_MSG_REGS with arg 1, or NULL */
    gl_diag *diags; /* CC_MSG_DIAGS (malloc'd), or NULL */
    int ndiags;
} cc_reply;
/* Sends a string field (NULL: empty): 0 or -1. */
int cc_send(int fd, uint32_t type, uint32_t arg, const char *s);
void cc_reply_free(cc_reply *r);
/* Receives a compiling child's messages until CC_MSG_DONE, before deadline. */
gl_msg_rc cc_receive(int fd, double deadline, cc_reply *r);
/* Hash into a cache key: every file under dir/rel (depth levels down); an executable's
 * identity is gl_cache_sha256_file_id (cache.h). */
void cc_key_tree(gl_cache_sha256 *h, const char *dir, const char *rel, int depth);

#endif
