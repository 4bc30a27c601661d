/* compile_sandbox.c — compiling untrusted source (gl_compile_opts.sandbox): a child
 * process confined by Landlock to the compilers, the headers and the submission, run as
 * user nobody when started as root, within the compile limits. */
#include "runtime/compile_internal.h"

#include "runtime/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Copies the regular file src to dst (mode 0644) owned by uid:gid: 0, or -1 with the
 * reason in e when e is given (GL_ERR_INPUT when src cannot be read, as gl_read_file). */
static int copy_file(const char *src, const char *dst, uid_t uid, gid_t gid, gl_error *e)
{
    gl_error ignored;
    size_t len = 0;
    char *data = gl_read_file(src, &len, e ? e : &ignored);
    if (!data)
        return -1;
    int fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    int ok = fd >= 0 && gl_write_all(fd, data, len) == 0 && fchown(fd, uid, gid) == 0;
    if (fd >= 0)
        ok &= close(fd) == 0;
    if (!ok && e)
        gl_fail(e, GL_ERR_TOOL, "cannot copy %s into the sandbox's folder: %s", src,
                strerror(errno));
    free(data);
    return ok ? 0 : -1;
}

/* copy_tree's source and destination roots and owner (nftw passes no context; only the
 * single-threaded sandboxed child calls it). */
static struct {
    const char *src, *dst;
    uid_t uid;
    gid_t gid;
} tree;

static int copy_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)ftw;
    char to[PATH_MAX];
    if (snprintf(to, sizeof to, "%s%s", tree.dst, p + strlen(tree.src)) >= (int)sizeof to)
        return -1;
    if (flag == FTW_D)
        return mkdir(to, 0755) == 0 && chown(to, tree.uid, tree.gid) == 0 ? 0 : -1;
    if (flag == FTW_F && S_ISREG(st->st_mode))
        return copy_file(p, to, tree.uid, tree.gid, NULL);
    return 0; /* links and the rest are not copied */
}

/* Copies the folders and regular files under src to dst (which must not exist), owned by
 * uid:gid: 0 or -1. */
static int copy_tree(const char *src, const char *dst, uid_t uid, gid_t gid)
{
    tree.src = src, tree.dst = dst, tree.uid = uid, tree.gid = gid;
    return nftw(src, copy_entry, 16, FTW_PHYS);
}

/* s with every `from` replaced by `to` (malloc'd; NULL when s is NULL or memory ran out). */
static char *replace_all(const char *s, const char *from, const char *to)
{
    if (!s)
        return NULL;
    strbuf b = {0};
    const size_t n = strlen(from);
    for (const char *hit; n && (hit = strstr(s, from)); s = hit + n) {
        cc_sb_printf(&b, "%.*s%s", (int)(hit - s), s, to);
    }
    cc_sb_puts(&b, s);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s ? b.s : strdup("");
}

/* Run as root, the sandboxed child compiles as user nobody, who may not be able to read
 * the submission or the prelude where they are (under /root): it copies both into tmp
 * (tmp/src/<name>, tmp/prelude), hands tmp to nobody and drops root. copy gets the
 * submission's copy; prelude becomes the prelude's copy. GL_OK (and nothing done) when
 * not root; else an error in e: GL_ERR_INPUT when the submission cannot be read. */
static gl_status as_nobody(const char *real, const char *tmp, char *prelude, size_t prelude_len,
                           char *copy, size_t copy_len, gl_error *e)
{
    if (geteuid() != 0)
        return GL_OK;
    uid_t uid = GL_SANDBOX_NOBODY;
    gid_t gid = GL_SANDBOX_NOBODY;
    gl_sandbox_nobody(&uid, &gid);
    char src[PATH_MAX], pre[PATH_MAX];
    const char *base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
    if (snprintf(src, sizeof src, "%s/src", tmp) >= (int)sizeof src ||
        snprintf(copy, copy_len, "%s/%s", src, base) >= (int)copy_len ||
        snprintf(pre, sizeof pre, "%s/prelude", tmp) >= (int)sizeof pre) {
        return gl_fail(e, GL_ERR_TOOL, "%s: the path is too long", real);
    }
    if (chown(tmp, uid, gid) != 0 || mkdir(src, 0755) != 0 || chown(src, uid, gid) != 0)
        return gl_fail(e, GL_ERR_TOOL, "cannot prepare the sandbox's folder %s: %s", tmp,
                       strerror(errno));
    if (copy_file(real, copy, uid, gid, e) != 0)
        return e->status;
    if (*prelude) {
        if (copy_tree(prelude, pre, uid, gid) != 0)
            return gl_fail(e, GL_ERR_TOOL,
                           "cannot copy the prelude %s into the sandbox's "
                           "folder: %s",
                           prelude, strerror(errno));
        snprintf(prelude, prelude_len, "%s", pre);
        setenv("GPULEARN_PRELUDE_DIR", pre, 1);
    }
    return gl_sandbox_drop_root(e);
}

/* What cc_compile_sandboxed hands its child. */
typedef struct sandbox_args {
    const char *path, *real, *tmp;
    const gl_compile_opts *opts;
} sandbox_args;

/* The child of cc_compile_sandboxed (a gl_child body, under cc_compile_limits): confines
 * itself, compiles, sends the result (compiler, command, status and message, PTX, log)
 * and exits. */
static void sandboxed_child(int fd, void *arg)
{
    const sandbox_args *a = arg;
    const char *path = a->path, *real = a->real, *tmp = a->tmp;
    const gl_compile_opts *opts = a->opts;
    setenv("TMPDIR", tmp, 1);
    char prelude[PATH_MAX] = "", cuda[PATH_MAX] = "", cuda_real[PATH_MAX] = "";
    if (gl_find_prelude(prelude, sizeof prelude)) {
        char *slash = strrchr(prelude, '/');
        if (slash)
            *slash = '\0';
    }
    const char *home = getenv("CUDA_HOME");
    snprintf(cuda, sizeof cuda, "%s", home && *home ? home : "/usr/local/cuda");
    if (!realpath(cuda, cuda_real))
        cuda_real[0] = '\0';
    /* the folder of the libnvrtc this process loads (and its real path): NVRTC loads its
     * builtins library from there while it compiles, wherever the toolkit lives */
    char nvrtc_dir[PATH_MAX] = "", nvrtc_real[PATH_MAX] = "";
    if (cc_nvrtc_dir(nvrtc_dir, sizeof nvrtc_dir) && !realpath(nvrtc_dir, nvrtc_real))
        nvrtc_real[0] = '\0';
    gl_error e = {0};
    gl_compiled c = {0};
    char copy[PATH_MAX] = ""; /* run as root: the submission's copy that nobody compiles */
    gl_status st = as_nobody(real, tmp, prelude, sizeof prelude, copy, sizeof copy, &e);
    gl_child_rebind(); /* becoming nobody cleared the death signal */
    /* what compilers and the dynamic loader read; no /etc, /proc, /home, lessons */
    const char *const read[] = {"/usr/bin",
                                "/usr/lib",
                                "/usr/lib64",
                                "/usr/libexec",
                                "/usr/include",
                                "/bin",
                                "/lib",
                                "/lib64",
                                "/etc/ld.so.cache",
                                "/etc/alternatives",
                                "/dev/null",
                                "/dev/zero",
                                "/dev/urandom",
                                "/usr/local/cuda",
                                cuda,
                                cuda_real,
                                prelude,
                                *copy ? copy : real,
                                nvrtc_dir,
                                nvrtc_real};
    const char *const write[] = {tmp, "/dev/null"};
    if (st == GL_OK)
        st = gl_sandbox_restrict(read, (int)(sizeof read / sizeof read[0]), write, 2, &e);
    if (st == GL_OK) {
        gl_compile_opts o = *opts;
        o.sandbox = 0;
        o.no_cache = 1;
        st = gl_compile_cuda(*copy ? copy : path, &o, &c, &e);
    }
    if (*copy) { /* messages name the submission as the caller did, not its copy */
        char *msg = replace_all(e.msg, copy, path), *log = replace_all(c.log, copy, path),
             *cmd = replace_all(c.command, copy, path);
        if (msg)
            snprintf(e.msg, sizeof e.msg, "%s", msg);
        if (cmd)
            snprintf(c.command, sizeof c.command, "%s", cmd);
        if (log) {
            free(c.log);
            c.log = log;
        }
        free(msg), free(cmd);
        for (int i = 0; i < c.ndiags; i++)
            if (strcmp(c.diags[i].file, copy) == 0)
                snprintf(c.diags[i].file, sizeof c.diags[i].file, "%s", path);
        /* and so does the PTX's line info, so faults name it too */
        char *ptx = c.ptx ? cc_ptx_fix_file_names(c.ptx, copy, path) : NULL;
        if (ptx) {
            free(c.ptx);
            c.ptx = ptx;
        }
    }
    int ok = gl_msg_send(fd, CC_MSG_USED, (uint32_t)c.used, NULL, 0) == 0 &&
             cc_send(fd, CC_MSG_COMMAND, 0, c.command) == 0 &&
             cc_send(fd, CC_MSG_ERROR, (uint32_t)st, e.msg) == 0 &&
             cc_send(fd, CC_MSG_PTX, 0, c.ptx) == 0 && cc_send(fd, CC_MSG_LOG, 0, c.log) == 0 &&
             gl_msg_send(fd, CC_MSG_DIAGS, 0, c.diags, (size_t)c.ndiags * sizeof *c.diags) == 0 &&
             gl_msg_send(fd, CC_MSG_DONE, (uint32_t)st, NULL, 0) == 0;
    _exit(ok ? 0 : 1);
}

/* gl_compile_cuda with opts->sandbox: the compilation runs in sandboxed_child, which
 * the wall-clock limit kills with everything it started. */
gl_status cc_compile_sandboxed(const char *path, const gl_compile_opts *opts, gl_compiled *out,
                               gl_error *err)
{
    char real[PATH_MAX], tmp[PATH_MAX];
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) /* a link could name any file */
        return gl_fail(err, GL_ERR_INPUT,
                       "%s: is a symbolic link: grading follows none (give "
                       "the file itself)",
                       path);
    if (!realpath(path, real))
        return gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(errno));
    if (!gl_sandbox_available())
        return gl_fail(err, GL_ERR_TOOL,
                       "cannot compile %s in a sandbox: the kernel offers no "
                       "Landlock (Linux 5.13 or later with landlock in its LSM list)",
                       path);
    if (cc_tmpdir_make(tmp, sizeof tmp) != 0)
        return gl_fail(err, GL_ERR_TOOL, "cannot make a temporary folder: %s", strerror(errno));
    sandbox_args a = {path, real, tmp, opts};
    /* killed as a group with what it starts, and with the grader */
    const gl_child_opts o = {.setup = cc_compile_limits};
    gl_child ch;
    const int started = gl_child_spawn(&ch, &o, sandboxed_child, &a);
    if (started != 0) {
        const int e = errno;
        cc_tmpdir_remove(tmp);
        return started == GL_CHILD_ERR_PIPE
                   ? gl_fail(err, GL_ERR_TOOL, "cannot create a pipe: %s", strerror(e))
                   : gl_fail(err, GL_ERR_TOOL, "cannot fork: %s", strerror(e));
    }
    /* the result within the wall-clock limit */
    cc_reply rep;
    const gl_msg_rc got = cc_receive(ch.fd, gl_child_now() + GL_COMPILE_WALL_S, &rep);
    gl_child_exit ex;
    gl_child_stop(&ch, GL_CHILD_FOREVER, &ex); /* whatever it started and left behind */
    cc_tmpdir_remove(tmp);
    gl_status st;
    if (got == GL_MSG_TIMEOUT) {
        st = gl_fail(err, GL_ERR_COMPILE, "%s: the compiler ran longer than %d s and was stopped",
                     path, GL_COMPILE_WALL_S);
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
            if (*rep.log)
                out->log = rep.log, rep.log = NULL;
        }
    }
    cc_reply_free(&rep);
    return st;
}
