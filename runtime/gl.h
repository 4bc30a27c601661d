/* gl.h — status codes and the error struct shared by every runtime/ boundary. */
#ifndef GL_GL_H
#define GL_GL_H

#include <stddef.h> /* size_t */
#include <stdint.h> /* uint64_t */
#include <stdio.h>  /* FILE */

/* Status at runtime/ boundaries. gl_exit_code() maps each to an exit code
 * (docs/architecture.md "Contracts"): 0 ok, 1 the kernel or the check failed, 2 bad usage or bad input files. */
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

/* Reads a file a learner handed in (a submission) once, so that what is checked is what
 * is compiled: opened with O_NOFOLLOW (a symbolic link is refused), then the descriptor's
 * fstat must show a regular file with one link (a hard link can name any file of its file
 * system, the hidden reference's too), of at most GL_READ_MAX_BYTES, read from that same
 * descriptor. Nothing re-opens path afterwards: callers compile these bytes (a copy in a
 * private folder, gl_compile_opts.source). NUL-terminated, caller frees; NULL with
 * GL_ERR_INPUT ("path: is a symbolic link ...") in err. */
char *gl_read_submission(const char *path, size_t *len, gl_error *err);

/* Writes data to path atomically when path is (or will be) a regular file: a temporary
 * file in the same folder, fsync, rename. A symbolic link is followed, so the file it
 * names is replaced and the link stays; a device, FIFO or socket (/dev/null, a pipe) is
 * written in place, never replaced. GL_ERR_INPUT with the reason on failure. */
gl_status gl_write_file_atomic(const char *path, const void *data, size_t len, gl_error *err);

/* Writes a report (the grader's CSV and JSON) to path without ever writing through a
 * link planted there: refused (GL_ERR_INPUT) when path exists and is not a regular file
 * (a symbolic link, a folder, a device); else the bytes go to a new file beside it
 * (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0644 less the umask), which is renamed over path:
 * rename replaces a link that appears meanwhile, it never follows it. */
gl_status gl_write_report(const char *path, const void *data, size_t len, gl_error *err);

/* Writes all len bytes to fd, retrying short writes and EINTR; 0, or -1 with errno. */
int gl_write_all(int fd, const void *data, size_t len);

/* Writes len bytes to a new file dst (mode 0644; never over an existing file or through
 * a link): 0, or -1 with errno. */
int gl_write_new(const char *dst, const void *data, size_t len);

/* Copies the folders and regular files under src (a folder, or one file) to dst, which
 * must not exist; links and the rest are not copied. Not thread-safe (nftw): for a
 * sandboxed child's prepare step. 0, or -1 with errno. */
int gl_copy_tree(const char *src, const char *dst);

/* A private temporary folder, $TMPDIR/gpulearn-<kind>-<pid>-XXXXXX (mode 0700; kind "cc"
 * for a compilation, "run" for a sandboxed run), into dir[n]. This process holds a lock
 * on it (flock) until gl_tmpdir_remove, so that another gpulearn can tell it is in use.
 * The first call in a process removes the folders of that pattern that a killed gpulearn
 * left behind: unlocked, and its owner (the pid in the name) gone or, for a name without
 * one, older than GL_TMPDIR_STALE_S seconds; its own user's, and run as root, also those
 * of the sandboxes' user nobody. 0, or -1 with errno. */
int gl_tmpdir_make(char *dir, size_t n, const char *kind);
/* Removes dir (made by gl_tmpdir_make) and everything in it, links removed and never
 * followed, and lets its lock go. */
void gl_tmpdir_remove(const char *dir);
/* How old an unlocked temporary folder without an owner in its name (an older gpulearn's)
 * must be before a sweep removes it, seconds. */
#define GL_TMPDIR_STALE_S 3600

/* A size in bytes as a person writes it: a whole or decimal number with an optional unit
 * K, M, G, T (powers of 1024; "KiB", "MB", "g" too; no unit: bytes): "2G", "512MiB",
 * "1.5g", "1048576". 0 with *out set, or -1 (not a size, or under one byte or over
 * 2^60). */
int gl_parse_bytes(const char *s, uint64_t *out);
/* n bytes for messages into buf: "16 GiB", "1.5 MiB", "300 bytes". */
void gl_format_bytes(char *buf, size_t len, uint64_t n);

/* 1 when paths a and b name the same existing file (same device and inode). */
int gl_same_file(const char *a, const char *b);

/* Text that came from a submission (file names, source lines, device printf output,
 * compiler messages) made safe to print on a terminal: nothing in it can move the cursor,
 * retitle or clear the screen, or forge a line. Control characters are shown as C
 * escapes in text: "\n", "\t", "\r", ESC as "\033" and the others as three octal
 * digits ("\007", DEL "\177"); a byte that is not part of valid UTF-8 as "\xff"; the C1
 * controls (U+0080-U+009F, which some terminals obey as escape sequences) and the
 * bidirectional overrides and isolates ("Trojan Source", U+202A-U+202E, U+2066-U+2069,
 * U+200E, U+200F, U+061C) as "\u202e". Everything else is copied. */
enum {
    GL_ESC_LINES = 1, /* multi-line text: '\n' and '\t' stay as they are */
};
/* Writes s escaped (flags: GL_ESC_*) to out[n], cut to fit (NUL-terminated); returns the
 * length it needed, as snprintf. */
size_t gl_escape_term(char *out, size_t n, const char *s, unsigned flags);
/* Writes s escaped (flags: GL_ESC_*) to f. */
void gl_fputs_term(FILE *f, const char *s, unsigned flags);

/* A copy of s that is valid UTF-8 (for JSON and XML): every byte that is not part of a
 * valid UTF-8 sequence (RFC 3629: no overlong forms, no surrogates) is replaced by U+FFFD,
 * the replacement character. NULL stays NULL; NULL too when out of memory. Caller frees. */
char *gl_utf8_clean(const char *s);

/* Decodes the UTF-8 sequence at s: its length (1-4) with the code point in *cp, or 0 when
 * s does not start a valid sequence (the first byte is then to be replaced). *s must not
 * be the terminating NUL. */
int gl_utf8_next(const char *s, uint32_t *cp);

/* path shortened for messages: relative to the current directory when it lies inside
 * it ("lessons/01-threads/exercise.cu"), else unchanged. Points into path. */
const char *gl_display_path(const char *path);

#endif
