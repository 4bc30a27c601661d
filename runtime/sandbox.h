/* sandbox.h — confining a process that handles untrusted code (a learner's kernel being
 * compiled for grading) with Landlock, the Linux security module for unprivileged
 * access control (Linux 5.13+; kernel documentation "Landlock: unprivileged access
 * control"). After gl_sandbox_restrict the calling process and every process it starts
 * may read, list and execute files only under the trees it names and write only under
 * the ones it names: an #include of a lesson's solution, of /proc/self/environ or of
 * /etc/passwd fails to open, so no byte of such a file reaches a report.
 *
 * Why Landlock and not a namespace sandbox (bubblewrap): it needs no setuid helper and no
 * user namespaces (often disabled for unprivileged users), applies to the forked
 * compiler process as it is, without re-executing gpulearn, and is a kernel facility
 * every current distribution kernel ships. What it does not bound (CPU time, memory,
 * processes) the caller bounds with setrlimit and a wall-clock limit. */
#ifndef GL_SANDBOX_H
#define GL_SANDBOX_H

#include "runtime/gl.h"

/* The Landlock ABI version the kernel offers (1 or more), 0 when it offers none (an old
 * kernel, or Landlock not enabled in its LSM list). */
int gl_sandbox_available(void);

/* Restricts the calling process for good: read[0..nread) are trees (or single files) it
 * may read, list and execute; write[0..nwrite) trees it may also create, write and
 * remove files in. Paths that do not exist are skipped. Sets no_new_privs. GL_ERR_TOOL
 * with the reason when Landlock is unavailable or a rule cannot be made (the process is
 * then not restricted). */
gl_status gl_sandbox_restrict(const char *const *read, int nread, const char *const *write,
                              int nwrite, gl_error *err);

#endif
