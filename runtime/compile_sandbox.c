/* compile_sandbox.c — compiling untrusted source (gl_compile_opts.sandbox): a sandboxed
 * child (gl_sandbox_spawn) confined by Landlock to the compilers, the headers and a copy
 * of the submission's bytes in its private folder, run as user nobody when started as
 * root, within the compile limits. The learner's path is never opened here: the bytes
 * were read once (gl_read_submission), and only the copy is compiled. */
#include "runtime/compile_internal.h"

#include "runtime/program.h"
#include "runtime/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the sandboxed child compiles with and may read (the paths its read list names). */
typedef struct sandbox_args {
    const char *path; /* the submission's name, as the caller gave it (never opened) */
    const char *src;  /* its bytes */
    size_t len;
    const char *tmp; /* the child's private folder */
    const gl_compile_opts *opts;
    char copy[PATH_MAX];    /* tmp/src/<its base name>: what is compiled */
    char prelude[PATH_MAX]; /* the prelude's folder, or its copy in tmp (run as root) */
    char cuda[PATH_MAX], cuda_real[PATH_MAX], nvrtc_dir[PATH_MAX], nvrtc_real[PATH_MAX];
    char ptxas[PATH_MAX]; /* ptxas (gl_compile_find_ptxas), which counts the registers */
    char nvcc[PATH_MAX], clang[PATH_MAX]; /* the compilers found, which may lie outside
                                             the toolkit (a wrapper script on PATH) */
    char rtinc[PATH_MAX]; /* a whole program's (opts->program): cudart's include folder,
                             or its copy in tmp (run as root) */
} sandbox_args;

/* The child's prepare hook (gl_sandbox_opts.prepare): writes the submission's bytes to
 * tmp/src/<base name> and, run as root, copies the prelude into tmp/prelude (user
 * nobody may not read it where it is, under /root), and finds the CUDA Toolkit's and
 * NVRTC's folders, ptxas, nvcc and clang for the read list. */
static gl_status prepare(void *ctx, gl_error *e)
{
    sandbox_args *a = ctx;
    if (gl_compile_find_prelude(a->prelude, sizeof a->prelude)) {
        char *slash = strrchr(a->prelude, '/');
        if (slash)
            *slash = '\0';
    }
    const char *home = getenv("CUDA_HOME");
    snprintf(a->cuda, sizeof a->cuda, "%s", home && *home ? home : "/usr/local/cuda");
    if (!realpath(a->cuda, a->cuda_real))
        a->cuda_real[0] = '\0';
    /* the folder of the libnvrtc this process loads (and its real path): NVRTC loads its
     * builtins library from there while it compiles, wherever the toolkit lives */
    if (cc_nvrtc_dir(a->nvrtc_dir, sizeof a->nvrtc_dir) && !realpath(a->nvrtc_dir, a->nvrtc_real))
        a->nvrtc_real[0] = '\0';
    gl_compile_find_tools(a->nvcc, a->clang, a->ptxas);
    char src[PATH_MAX], pre[PATH_MAX];
    const char *base = strrchr(a->path, '/') ? strrchr(a->path, '/') + 1 : a->path;
    if (snprintf(src, sizeof src, "%s/src", a->tmp) >= (int)sizeof src ||
        snprintf(a->copy, sizeof a->copy, "%s/%s", src, *base ? base : "kernel.cu") >=
            (int)sizeof a->copy ||
        snprintf(pre, sizeof pre, "%s/prelude", a->tmp) >= (int)sizeof pre)
        return gl_fail(e, GL_ERR_TOOL, "%s: the path is too long", a->path);
    if (mkdir(src, 0755) != 0 || gl_write_new(a->copy, a->src, a->len) != 0)
        return gl_fail(e, GL_ERR_TOOL, "cannot copy %s into the sandbox's folder %s: %s", a->path,
                       a->tmp, strerror(errno));
    char rtlib[PATH_MAX], rt[PATH_MAX];
    if (!a->opts->program ||
        !gl_program_runtime_paths(rtlib, sizeof rtlib, a->rtinc, sizeof a->rtinc))
        a->rtinc[0] = '\0';
    if (geteuid() == 0 && *a->rtinc) {
        if (snprintf(rt, sizeof rt, "%s/cudart", a->tmp) >= (int)sizeof rt ||
            gl_copy_tree(a->rtinc, rt) != 0)
            return gl_fail(e, GL_ERR_TOOL,
                           "cannot copy gpulearn's CUDA runtime headers %s into the sandbox's "
                           "folder: %s",
                           a->rtinc, strerror(errno));
        snprintf(a->rtinc, sizeof a->rtinc, "%s", rt);
        setenv("GPULEARN_CUDART_INCLUDE", rt, 1);
    }
    if (geteuid() == 0 && *a->prelude) {
        if (gl_copy_tree(a->prelude, pre) != 0)
            return gl_fail(e, GL_ERR_TOOL,
                           "cannot copy the prelude %s into the sandbox's folder: %s", a->prelude,
                           strerror(errno));
        snprintf(a->prelude, sizeof a->prelude, "%s", pre);
        setenv("GPULEARN_PRELUDE_DIR", pre, 1);
    }
    return GL_OK;
}

/* The sandboxed child's body: compiles the copy, sends the result (compiler, command,
 * status and message, PTX, log, diagnostics) and exits. */
static void sandboxed_child(int fd, void *arg)
{
    sandbox_args *a = arg;
    gl_error e = {0};
    gl_compiled c = {0};
    gl_compile_opts o = *a->opts;
    o.sandbox = 0;
    o.no_cache = 1;
    o.source = NULL;
    gl_status st = gl_compile_cuda(a->copy, &o, &c, &e);
    /* messages, diagnostics and the PTX's line info name the submission as the caller
     * did, not its copy */
    cc_rename_source(a->copy, a->path, &c, &e);
    int ok = gl_child_send(fd, CC_MSG_USED, (uint32_t)c.used, NULL, 0) == 0 &&
             cc_send(fd, CC_MSG_COMMAND, 0, c.command) == 0 &&
             cc_send(fd, CC_MSG_ERROR, (uint32_t)st, e.msg) == 0 &&
             cc_send(fd, CC_MSG_PTX, 0, c.ptx) == 0 && cc_send(fd, CC_MSG_LOG, 0, c.log) == 0 &&
             cc_send(fd, CC_MSG_REGS, c.regs != NULL, c.regs) == 0 &&
             cc_send(fd, CC_MSG_REGS_WHY, 0, c.regs_why) == 0 &&
             gl_child_send(fd, CC_MSG_DIAGS, 0, c.diags, (size_t)c.ndiags * sizeof *c.diags) == 0 &&
             gl_child_send(fd, CC_MSG_DONE, (uint32_t)st, NULL, 0) == 0;
    _exit(ok ? 0 : 1);
}

gl_status cc_sandbox_start(const char *path, const gl_compile_opts *opts, cc_sandbox_job *job,
                           gl_error *err)
{
    memset(job, 0, sizeof *job);
    job->ch.pid = -1;
    job->ch.fd = -1;
    snprintf(job->path, sizeof job->path, "%s", path);
    if (!gl_sandbox_available())
        return gl_fail(err, GL_ERR_TOOL,
                       "cannot compile %s in a sandbox: the kernel offers no "
                       "Landlock (Linux 5.13 or later with landlock in its LSM list)",
                       path);
    /* the bytes to compile: the caller's (read once), else read here, once */
    char *own = NULL;
    size_t len = opts->source ? strlen(opts->source) : 0;
    if (!opts->source && !(own = gl_read_submission(path, &len, err)))
        return err ? err->status : GL_ERR_INPUT;
    sandbox_args *a = calloc(1, sizeof *a);
    char *const tmp = job->tmp;
    if (!a || gl_tmpdir_make(tmp, sizeof job->tmp, "cc") != 0) {
        const int e = errno;
        free(own);
        free(a);
        return a ? gl_fail(err, GL_ERR_TOOL, "cannot make a temporary folder: %s", strerror(e))
                 : gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    a->path = path, a->src = own ? own : opts->source, a->len = len, a->tmp = tmp, a->opts = opts;
    const char *const read[] = {"/usr/local/cuda", a->cuda,      a->cuda_real,  a->prelude,
                                a->copy,           a->nvrtc_dir, a->nvrtc_real, a->ptxas,
                                a->rtinc,          a->nvcc,      a->clang};
    const gl_sandbox_opts so = {.dir = tmp,
                                .read = read,
                                .nread = (int)(sizeof read / sizeof read[0]),
                                .prepare = prepare,
                                .ctx = a,
                                .data_bytes = GL_COMPILE_DATA_BYTES,
                                .cpu_s = GL_COMPILE_CPU_S};
    /* killed as a group with what it starts, and with the grader */
    const int started = gl_sandbox_spawn(&job->ch, &so, sandboxed_child, a);
    const int spawn_errno = errno;
    free(own);
    free(a);
    if (started != 0) {
        gl_tmpdir_remove(tmp);
        return started == GL_CHILD_ERR_PIPE
                   ? gl_fail(err, GL_ERR_TOOL, "cannot create a pipe: %s", strerror(spawn_errno))
                   : gl_fail(err, GL_ERR_TOOL, "cannot fork: %s", strerror(spawn_errno));
    }
    job->deadline = gl_child_now() + GL_COMPILE_WALL_S;
    job->started = 1;
    return GL_OK;
}

gl_status cc_sandbox_finish(cc_sandbox_job *job, gl_compiled *out, gl_error *err)
{
    if (!job->started)
        return GL_OK;
    job->started = 0;
    const char *const path = job->path;
    /* the result within the wall-clock limit */
    cc_reply rep;
    const gl_msg_rc got = cc_receive(job->ch.fd, job->deadline, &rep);
    gl_child_exit ex;
    gl_child_stop(&job->ch, GL_CHILD_FOREVER, &ex); /* whatever it started and left behind */
    gl_tmpdir_remove(job->tmp);
    gl_status st;
    if (got == GL_MSG_TIMEOUT) {
        st = gl_fail(err, GL_ERR_COMPILE, "%s: the compiler ran longer than %d s and was stopped",
                     path, GL_COMPILE_WALL_S);
    } else if (rep.sandbox_error) {
        st = gl_fail(err, GL_ERR_TOOL, "cannot compile %s in the sandbox: %s", path, rep.msg);
    } else if (got != GL_MSG_OK) {
        st = gl_fail(err, GL_ERR_COMPILE,
                     "%s: the compiler stopped (%s): the source needs too "
                     "much compile time or memory (limits: %d s of CPU, %llu GiB)",
                     path, ex.signal ? strsignal(ex.signal) : "no result", GL_COMPILE_CPU_S,
                     GL_COMPILE_DATA_BYTES >> 30);
    } else {
        st = (gl_status)rep.done;
        out->used = (gl_compiler)rep.used;
        out->diags = rep.diags, rep.diags = NULL;
        out->ndiags = rep.ndiags;
        snprintf(out->command, sizeof out->command, "%s", rep.command);
        if (st != GL_OK)
            gl_fail(err, st, "%s", rep.msg);
        else {
            out->ptx = rep.ptx, rep.ptx = NULL;
            out->regs = rep.regs, rep.regs = NULL;
            snprintf(out->regs_why, sizeof out->regs_why, "%s", rep.regs_why);
            if (*rep.log)
                out->log = rep.log, rep.log = NULL;
        }
    }
    cc_reply_free(&rep);
    return st;
}
