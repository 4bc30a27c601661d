/* child.h — every child process gpulearn starts, started one way.
 *
 * A child is a function (gl_child_spawn: it talks back over a pipe in length-prefixed
 * messages) or a program (gl_child_exec: no pipe). Unless asked otherwise it runs in a
 * process group of its own (terminal signals such as Ctrl-C reach only gpulearn, and
 * gl_child_kill stops it with everything it started) and is sent SIGKILL when gpulearn
 * dies (Linux PR_SET_PDEATHSIG). A caller's setup hook runs in the child before the
 * function or the program (rlimits, the sandbox, redirections).
 *
 * Messages (child -> parent; host byte order: both ends are the same binary): a header
 * {uint32 type, uint32 arg, uint64 len} and len payload bytes. What type and arg mean is
 * the caller's (worker.h lists the GPU worker's).
 *
 * Times: a deadline is an absolute time on gl_child_now()'s clock, in seconds;
 * GL_CHILD_FOREVER waits without limit. A deadline already past still takes what is
 * there without blocking. */
#ifndef GL_CHILD_H
#define GL_CHILD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A deadline that never comes. */
#define GL_CHILD_FOREVER 1e300

/* Seconds on a monotonic clock, for deadlines. */
double gl_child_now(void);

/* gl_child_opts.flags */
enum {
    /* Stay in the caller's process group and outlive it (a program that needs the
     * terminal in the foreground: the learner's editor). gl_child_kill then signals the
     * child alone. */
    GL_CHILD_SHARE_GROUP = 1,
};

/* How to start a child; a zero struct is the usual child. */
typedef struct gl_child_opts {
    int flags; /* GL_CHILD_* */
    /* In the child, after its group and death signal are set and before the function or
     * program runs; NULL for none. A failure it cannot go on from: _exit(127). */
    void (*setup)(void *ctx);
    void *setup_ctx;
} gl_child_opts;

/* A started child. pid > 0 until it is reaped; fd: the parent's (read) end of the
 * message pipe, -1 when there is none or it was closed. */
typedef struct gl_child {
    pid_t pid;
    int fd;
    int own_group; /* 1: pid leads a process group of its own */
} gl_child;

/* gl_child_spawn and gl_child_exec: 0, or one of these with errno set. */
enum { GL_CHILD_ERR_PIPE = -1, GL_CHILD_ERR_FORK = -2 };

/* Forks a child that runs opts->setup, then body(fd, arg) with fd the write end of the
 * message pipe, then _exit(0) (body may _exit with another code itself; exit() is never
 * called: the parent's atexit handlers and stdio buffers are not the child's). In the
 * child the parent's fatal-signal handlers are reset to SIG_DFL and SIGPIPE is ignored
 * (a send to a parent that gave up fails). Both ends of the pipe are close-on-exec.
 * stdio is flushed before the fork. opts may be NULL. Returns 0 with *c filled in, or
 * GL_CHILD_ERR_PIPE / GL_CHILD_ERR_FORK (errno says why; *c is then {-1, -1}). */
int gl_child_spawn(gl_child *c, const gl_child_opts *opts, void (*body)(int fd, void *arg),
                   void *arg);

/* Forks a child that runs opts->setup and then execv(argv[0], argv) (argv[0] a path,
 * no PATH search); it exits with 127 when the program cannot be started. Signals are
 * reset as for gl_child_spawn, SIGPIPE to SIG_DFL. No pipe: c->fd is -1. Returns 0, or
 * GL_CHILD_ERR_FORK with errno set. */
int gl_child_exec(gl_child *c, const gl_child_opts *opts, char *const argv[]);

/* How a child ended. */
typedef struct gl_child_exit {
    int exited; /* 1: it called exit/_exit; code is its status (0..255) */
    int code;
    int signal; /* > 0: killed by this signal */
    int status; /* the raw wait status, -1 when not known */
} gl_child_exit;

/* Decodes a wait status (from waitpid) into *ex; -1 means unknown (both 0). */
void gl_child_decode(int status, gl_child_exit *ex);

/* Waits for the child to end until deadline. Returns 1 when it was reaped (*ex filled,
 * c->pid then 0), 0 when it still runs at the deadline (nothing is done to it), -1 when
 * it is gone but its status is lost (reaped elsewhere: ex->status -1). ex may be NULL. */
int gl_child_wait(gl_child *c, double deadline, gl_child_exit *ex);

/* Sends SIGKILL to the child's process group (to the child alone with
 * GL_CHILD_SHARE_GROUP); nothing when it was reaped already. */
void gl_child_kill(gl_child *c);

/* gl_child_kill, then gl_child_wait up to patience_s seconds (GL_CHILD_FOREVER: until
 * it is gone). A child that outlives its patience (a process stuck in a driver call
 * takes a moment to die) is remembered and reaped by a later gl_child_spawn/exec.
 * Returns as gl_child_wait; closes c->fd. */
int gl_child_stop(gl_child *c, double patience_s, gl_child_exit *ex);

/* In a child started without GL_CHILD_SHARE_GROUP: sets its death signal again, which
 * the kernel clears when the process changes its user or group ids (the sandbox's drop
 * to nobody), and _exit(127) when the parent is gone already. Nothing elsewhere. */
void gl_child_rebind(void);

/* Closes the parent's end of the pipe (c->fd = -1). */
void gl_child_close(gl_child *c);

/* ----------------------------------------------------------------- messages */

/* The header of a message on the wire. */
typedef struct gl_msg_header {
    uint32_t type, arg;
    uint64_t len; /* payload bytes after the header */
} gl_msg_header;

/* Outcome of a receive. */
typedef enum gl_msg_rc {
    GL_MSG_OK = 0,
    GL_MSG_EOF,     /* the child closed the pipe (at or inside a message) */
    GL_MSG_TIMEOUT, /* the deadline passed first (what was read so far is kept) */
    GL_MSG_ERROR,   /* read/poll failed or no memory for the payload (errno set) */
    GL_MSG_TOO_BIG, /* the header announces more than the caller's maximum */
} gl_msg_rc;

/* Sends one message of len payload bytes (data may be NULL when len is 0), whole,
 * through partial writes and EINTR. 0, or -1 (errno set; EPIPE: the reader is gone). */
int gl_child_send(int fd, uint32_t type, uint32_t arg, const void *data, size_t len);

/* Sends only the header of a message whose len payload bytes the caller then writes
 * itself (gl_write_all), to stream a large payload without a copy. 0 or -1. */
int gl_child_send_header(int fd, uint32_t type, uint32_t arg, uint64_t len);

/* Receives a header, refusing one that announces more than max payload bytes
 * (GL_MSG_TOO_BIG, *h filled in). The payload is then read with gl_child_recv_payload. */
gl_msg_rc gl_child_recv_header(int fd, gl_msg_header *h, uint64_t max, double deadline);

/* Reads exactly len payload bytes into buf, or discards them when buf is NULL. */
gl_msg_rc gl_child_recv_payload(int fd, void *buf, size_t len, double deadline);

/* One whole message, received in as many calls as it takes (a user interface reads a
 * little at each turn of its loop). Zero-initialise; free with gl_child_msg_free. */
typedef struct gl_child_msg {
    gl_msg_header h;
    char *data; /* the payload, malloc'd, len + 1 bytes (NUL-terminated) once done */
    size_t got; /* bytes of header + payload read so far */
    int done;   /* 1: h and data hold a whole message */
} gl_child_msg;

/* Reads on into *in until it holds a whole message (GL_MSG_OK, in->done 1) or the
 * deadline passes (GL_MSG_TIMEOUT: call again to go on); GL_MSG_TOO_BIG when the header
 * announces more than max bytes (nothing more is read). After GL_MSG_OK the next call
 * starts the next message (the previous payload is freed). */
gl_msg_rc gl_child_recv(int fd, gl_child_msg *in, uint64_t max, double deadline);

/* Frees in->data and zeroes *in. */
void gl_child_msg_free(gl_child_msg *in);

/* Takes the payload (caller frees; NULL when none) out of a done *in, which is reset. */
char *gl_child_msg_take(gl_child_msg *in);

#endif
