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
 * the processes it may start; run as root, the caller first becomes user nobody
 * (gl_sandbox_drop_root).
 *
 * Why Landlock and not a namespace sandbox (bubblewrap): it needs no setuid helper and no
 * user namespaces (often disabled for unprivileged users), applies to the forked
 * compiler process as it is, without re-executing gpulearn, and is a kernel facility
 * every current distribution kernel ships. What it does not bound (CPU time, memory,
 * wall time) the caller bounds with setrlimit and a wall-clock limit. */
#ifndef GL_SANDBOX_H
#define GL_SANDBOX_H

#include <sys/types.h>

#include "runtime/gl.h"

/* The Landlock ABI version the kernel offers (1 or more), 0 when it offers none (an old
 * kernel, or Landlock not enabled in its LSM list). */
int gl_sandbox_available(void);

/* How many processes a sandboxed process may start beyond those its user runs already
 * (RLIMIT_NPROC; nvcc starts about 6). */
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

/* Run as root (effective uid 0): becomes user nobody (its ids from /etc/passwd, else
 * GL_SANDBOX_NOBODY) with no supplementary groups, for good. Otherwise does nothing.
 * GL_ERR_TOOL when the ids cannot be changed. */
gl_status gl_sandbox_drop_root(gl_error *err);

/* The ids gl_sandbox_drop_root becomes: user nobody's, else GL_SANDBOX_NOBODY. */
void gl_sandbox_nobody(uid_t *uid, gid_t *gid);

#endif
