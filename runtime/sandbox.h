/* sandbox.h — confining a process that handles untrusted code (a learner's kernel being
 * compiled for grading) with Landlock, the Linux security module for unprivileged
 * access control (Linux 5.13+; kernel documentation "Landlock: unprivileged access
 * control"). After gl_sandbox_restrict the calling process and every process it starts
 * may read, list and execute files only under the trees it names and write only under
 * the ones it names: an #include of a lesson's solution, of /proc/self/environ or of
 * /etc/passwd fails to open, so no byte of such a file reaches a report.
 *
 * A seccomp filter (libseccomp) then denies every socket (no network) and the system
 * calls that reach other processes or the kernel's administration; RLIMIT_NPROC bounds
 * the tasks (processes and threads) it may start; run as root, the caller first becomes user nobody
 * (gl_sandbox_drop_root).
 *
 * Why Landlock and not a namespace sandbox (bubblewrap): it needs no setuid helper and no
 * user namespaces (often disabled for unprivileged users), applies to the forked
 * compiler process as it is, without re-executing gpulearn, and is a kernel facility
 * every current distribution kernel ships. What it does not bound (CPU time, memory,
 * wall time) the caller bounds with setrlimit and a wall-clock limit. */
#ifndef GL_SANDBOX_H
#define GL_SANDBOX_H

#include <stdint.h>
#include <sys/types.h>

#include "runtime/child.h"
#include "runtime/gl.h"

/* The Landlock ABI version the kernel offers (1 or more), 0 when it offers none (an old
 * kernel, or Landlock not enabled in its LSM list). */
int gl_sandbox_available(void);

/* How many tasks (processes and threads) a sandboxed process may start, per online
 * processor, beyond those its user runs already (RLIMIT_NPROC, which counts every thread
 * of the user's: nvcc starts about 6 processes, a program's simulator a thread per
 * processor; as many sandboxed children as processors may run at once as one user). */
#define GL_SANDBOX_PROCESSES 64

/* The user id (and group id) a root process becomes when /etc/passwd has no "nobody". */
#define GL_SANDBOX_NOBODY 65534

/* Restricts the calling process for good: read[0..nread) are trees (or single files) it
 * may read, list and execute; write[0..nwrite) trees it may also create, write and
 * remove files in. Paths that do not exist are skipped. Sets no_new_privs, the process
 * limit and the seccomp filter (sockets fail with EACCES). GL_ERR_TOOL with the reason
 * when Landlock is unavailable or a rule or the filter cannot be made (the process is
 * then not, or not fully, restricted: the caller must not go on). */
gl_status gl_sandbox_restrict(const char *const *read, int nread, const char *const *write,
                              int nwrite, gl_error *err);

/* gl_sandbox_restrict with the seccomp filter of a whole program's host code
 * (gl_sandbox_opts.program): no new processes, and a forbidden call raises SIGSYS. */
gl_status gl_sandbox_restrict_program(const char *const *read, int nread, const char *const *write,
                                      int nwrite, gl_error *err);

/* Run as root (effective uid 0): becomes user nobody (its ids from /etc/passwd, else
 * GL_SANDBOX_NOBODY) with no supplementary groups, for good. Otherwise does nothing.
 * GL_ERR_TOOL when the ids cannot be changed. */
gl_status gl_sandbox_drop_root(gl_error *err);

/* The ids gl_sandbox_drop_root becomes: user nobody's, else GL_SANDBOX_NOBODY. */
void gl_sandbox_nobody(uid_t *uid, gid_t *gid);

/* ------------------------------------------------------------ sandboxed children */

/* What a sandboxed child (gl_sandbox_spawn) may use. Every untrusted thing gpulearn runs
 * goes through it: a compilation of a submission (compile_sandbox.c), the simulation of
 * a submission's kernel (gl_run_opts.sandbox), and a learner's whole program, whose host
 * code would run in such a child (body: an exec of the program). */
typedef struct gl_sandbox_opts {
    /* Its private folder (gl_tmpdir_make): the one tree it may write, its TMPDIR and
     * working folder; handed to user nobody when it runs as root. */
    const char *dir;
    /* More trees (or files) it may read and execute, besides the system's (the
     * compilers' and the dynamic loader's: /usr, /lib, /bin, ...: gl_sandbox_spawn);
     * NULL or "" entries are skipped. */
    const char *const *read;
    int nread;
    /* In the child, after the limits are set and before it gives up root and confines
     * itself: copies into dir what user nobody could not read where it is, and fills in
     * the paths read[] points at. NULL: none. An error stops the child (reported). */
    gl_status (*prepare)(void *ctx, gl_error *err);
    void *ctx;
    uint64_t address_space; /* RLIMIT_AS, bytes (all its virtual memory: the net under a
                               memory budget); 0: none. Not set in AddressSanitizer
                               builds, whose shadow memory is one huge mapping */
    uint64_t data_bytes;    /* RLIMIT_DATA, bytes; 0: none (same exception) */
    unsigned cpu_s;         /* RLIMIT_CPU, seconds; 0: none */
    uint64_t file_bytes;    /* RLIMIT_FSIZE, bytes: the largest file it may write (past
                               it SIGXFSZ); 0: none */
    /* 1: a whole program's host code (docs/architecture.md "Whole programs"): besides the
     * filter's usual denials, it may start no process (fork, vfork, posix_spawn, clone
     * without CLONE_THREAD; threads are allowed), and a forbidden system call stops it
     * with SIGSYS (seccomp's trap) instead of failing with EACCES, so that gpulearn can
     * say what it tried (cudart's SIGSYS handler names the call). */
    int program;
} gl_sandbox_opts;

/* The message (child.h) a sandboxed child sends when it cannot confine itself, its
 * payload the reason; it then exits with 126 and body never runs. */
#define GL_SANDBOX_MSG_ERROR 0x58424e53u

/* Starts body(fd, arg) in a child (gl_child_spawn: its own process group, killed with
 * gpulearn, messages on fd) that first sets the limits (and a core size of 0), runs
 * o->prepare, becomes user nobody when run as root (gl_sandbox_drop_root), sets TMPDIR to
 * o->dir and restricts itself (gl_sandbox_restrict: read the system's trees and o->read,
 * write o->dir and /dev/null; no sockets). Returns as gl_child_spawn. */
int gl_sandbox_spawn(gl_child *c, const gl_sandbox_opts *o, void (*body)(int fd, void *arg),
                     void *arg);

#endif
