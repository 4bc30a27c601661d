/* gl.h — status codes and the error struct shared by every runtime/ boundary. */
#ifndef GL_GL_H
#define GL_GL_H

#include <stddef.h> /* size_t */
#include <stdint.h> /* uint64_t */

/* Status at runtime/ boundaries. gl_exit_code() maps each to ARCHITECTURE.md's exit
 * codes: 0 ok, 1 the kernel or the check failed, 2 bad usage or bad input files. */
typedef enum gl_status {
    GL_OK = 0,
    GL_ERR_USAGE,       /* bad command line                                  -> 2 */
    GL_ERR_INPUT,       /* bad spec / lesson file, unreadable file           -> 2 */
    GL_ERR_COMPILE,     /* the learner's CUDA C (or its inline PTX) does not compile -> 1 */
    GL_ERR_UNSUPPORTED, /* PTX the simulator does not implement              -> 1 */
    GL_ERR_LAUNCH,      /* illegal launch configuration                      -> 2 */
    GL_ERR_FAULT,       /* kernel fault: out of bounds, deadlock, step limit -> 1 */
    GL_ERR_CHECK,       /* a grading check failed                            -> 1 */
    GL_ERR_NODEVICE,    /* no NVIDIA driver / GPU                            -> 1 */
    GL_ERR_CUDA,        /* a CUDA driver call failed (message has its name)  -> 1 */
    GL_ERR_TOOL,        /* no compiler found, a tool failed to start         -> 1 */
    GL_ERR_NOMEM,       /* out of memory                                     -> 1 */
} gl_status;

/* Details of a failure, owned by the caller. msg is one or more complete lines
 * formatted as "file:line: message" where a place is known (no "gpulearn: " prefix). */
typedef struct gl_error {
    gl_status status;
    char msg[4096];
} gl_error;

/* Sets err (if non-NULL) to status and a printf-formatted message; returns status. */
gl_status gl_fail(gl_error *err, gl_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Exit code for a status (0, 1 or 2). */
int gl_exit_code(gl_status s);

/* The largest file gl_read_file reads: 64 MiB. */
#define GL_READ_MAX_BYTES ((uint64_t)64 << 20)

/* Reads a whole regular file of at most GL_READ_MAX_BYTES (NUL-terminated; *len may be
 * NULL). Returns NULL and sets err (GL_ERR_INPUT, "path: why") on failure: a device,
 * FIFO or socket (/dev/zero, a named pipe: refused at once, never read or waited on), a
 * folder, or a larger file. Caller frees. */
char *gl_read_file(const char *path, size_t *len, gl_error *err);

/* Writes data to path atomically when path is (or will be) a regular file: a temporary
 * file in the same folder, fsync, rename. A symbolic link is followed, so the file it
 * names is replaced and the link stays; a device, FIFO or socket (/dev/null, a pipe) is
 * written in place, never replaced. GL_ERR_INPUT with the reason on failure. */
gl_status gl_write_file_atomic(const char *path, const void *data, size_t len, gl_error *err);

/* Writes all len bytes to fd, retrying short writes and EINTR; 0, or -1 with errno. */
int gl_write_all(int fd, const void *data, size_t len);

/* 1 when paths a and b name the same existing file (same device and inode). */
int gl_same_file(const char *a, const char *b);

/* path shortened for messages: relative to the current directory when it lies inside
 * it ("lessons/01-threads/exercise.cu"), else unchanged. Points into path. */
const char *gl_display_path(const char *path);

#endif
