/* program_sandbox.c — a whole program as untrusted code (program.h): its build in a
 * sandboxed child over copies of its sources, and its run in one (gl_sandbox_spawn with
 * .program: no new processes, no sockets, files only in its scratch folder, CPU, memory,
 * file and output limits), its output captured or passed on up to a limit, and why it
 * stopped said in one sentence (docs/architecture.md "Whole programs"). */
#define _GNU_SOURCE /* close_range */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/child.h"
#include "runtime/program.h"
#include "runtime/sandbox.h"

/* The build child's one message: arg its gl_status, payload "exe\0message". */
#define PS_MSG_BUILT 0x444c4950u

/* ------------------------------------------------------------------ build */

/* What the sandboxed build child compiles (on the parent's stack: the fork copies it). */
typedef struct build_args {
    const gl_program_opts *o;
    const char *dir;
    char **text; /* each source's bytes, read once by the parent */
    size_t *len;
    const char **base;  /* each source's name in dir/src */
    char lib[PATH_MAX]; /* gpulearn's runtime archive, include folder and prelude: where */
    char inc[PATH_MAX]; /* they are, or (run as root) their copies in dir/rt, for user */
    char pre[PATH_MAX]; /* nobody */
    char cuda[PATH_MAX], cuda_real[PATH_MAX];
    char nvcc[PATH_MAX], clang[PATH_MAX], ptxas[PATH_MAX]; /* the compilers found, which
                                   may lie outside the toolkit (a wrapper script on PATH) */
} build_args;

/* The build child's prepare hook: the sources' bytes into dir/src and, run as root, the
 * runtime's files into dir/rt (user nobody may not read them where they are). */
static gl_status build_prepare(void *ctx, gl_error *e)
{
    build_args *a = ctx;
    char src[PATH_MAX], to[PATH_MAX + 512];
    snprintf(src, sizeof src, "%s/src", a->dir);
    if (mkdir(src, 0755) != 0)
        return gl_fail(e, GL_ERR_TOOL, "%s: %s", src, strerror(errno));
    for (int i = 0; i < a->o->nsources; i++) {
        snprintf(to, sizeof to, "%s/%s", src, a->base[i]);
        if (gl_write_new(to, a->text[i], a->len[i]) != 0)
            return gl_fail(e, GL_ERR_INPUT, "%s: cannot copy it into the sandbox's folder: %s",
                           a->o->sources[i], strerror(errno));
    }
    if (geteuid() != 0)
        return GL_OK;
    /* src is the program's working folder when it runs (program.h): user nobody's */
    uid_t uid;
    gid_t gid;
    gl_sandbox_nobody(&uid, &gid);
    if (a->o->sandbox && chown(src, uid, gid) != 0)
        return gl_fail(e, GL_ERR_TOOL, "%s: %s", src, strerror(errno));
    char rt[PATH_MAX + 8];
    snprintf(rt, sizeof rt, "%s/rt", a->dir);
    if (mkdir(rt, 0755) != 0)
        return gl_fail(e, GL_ERR_TOOL, "%s: %s", rt, strerror(errno));
    char *const paths[] = {a->lib, a->inc, a->pre};
    static const char *const names[] = {"libgpulearn_cudart.a", "include", "prelude"};
    static const char *const envs[] = {"GPULEARN_CUDART_LIB", "GPULEARN_CUDART_INCLUDE",
                                       "GPULEARN_PRELUDE_DIR"};
    for (int i = 0; i < 3; i++) {
        if (!*paths[i])
            continue;
        snprintf(to, sizeof to, "%s/%s", rt, names[i]);
        if (gl_copy_tree(paths[i], to) != 0)
            return gl_fail(e, GL_ERR_TOOL, "cannot copy %s into the sandbox's folder: %s", paths[i],
                           strerror(errno));
        if (snprintf(paths[i], PATH_MAX, "%s", to) >= PATH_MAX)
            return gl_fail(e, GL_ERR_TOOL, "%s: the path is too long", to);
        setenv(envs[i], to, 1);
    }
    return GL_OK;
}

/* The build child's body: compiles the copies (from dir/src, so that messages name the
 * files as the learner named them, without folders), the compilers' messages into
 * dir/build.log; sends the result. */
static void build_body(int fd, void *arg)
{
    build_args *a = arg;
    char log[PATH_MAX + 16], exe[PATH_MAX + 16] = "";
    snprintf(log, sizeof log, "%s/build.log", a->dir);
    const int lfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    gl_error e = {0};
    gl_status st = GL_OK;
    if (lfd < 0 || dup2(lfd, 2) < 0 || chdir("src") != 0)
        st = gl_fail(&e, GL_ERR_TOOL, "cannot set up the build in %s: %s", a->dir, strerror(errno));
    if (st == GL_OK) {
        gl_program_opts o = *a->o;
        o.sources = a->base;
        o.sandbox = 0;
        /* no build cache for untrusted code: its folder is new each time (never a hit),
         * and no submission's build may become an entry another build could take */
        setenv("GPULEARN_NO_CACHE", "1", 1);
        st = gl_program_build(&o, a->dir, exe, sizeof exe, &e);
    }
    fflush(stderr);
    char msg[PATH_MAX + sizeof e.msg + 32];
    const int n = snprintf(msg, sizeof msg, "%s%c%s", exe, 0, e.msg);
    _exit(gl_child_send(fd, PS_MSG_BUILT, (uint32_t)st, msg, (size_t)n + 1) == 0 ? 0 : 1);
}

/* The build child's body without the sandbox (o->sandbox 0): the prepare step, then the
 * build, in dir. */
static void build_plain(int fd, void *arg)
{
    build_args *a = arg;
    gl_error e = {0};
    gl_status st = chdir(a->dir) == 0 ? build_prepare(a, &e)
                                      : gl_fail(&e, GL_ERR_TOOL, "%s: %s", a->dir, strerror(errno));
    if (st != GL_OK) {
        gl_child_send(fd, GL_SANDBOX_MSG_ERROR, (uint32_t)st, e.msg, strlen(e.msg));
        _exit(126);
    }
    build_body(fd, arg);
}

/* The folder an "-I DIR" / "-IDIR" flag names, or NULL. */
static const char *include_dir(const gl_program_opts *o, int k)
{
    const char *f = o->cflags[k];
    if (strcmp(f, "-I") == 0)
        return k + 1 < o->ncflags ? o->cflags[k + 1] : NULL;
    return strncmp(f, "-I", 2) == 0 ? f + 2 : NULL;
}

gl_status gl_program_build_untrusted(const gl_program_opts *o, const char *dir, char *exe,
                                     size_t exelen, char **log, gl_error *err)
{
    *log = NULL;
    if (o->sandbox && !gl_sandbox_available())
        return gl_fail(err, GL_ERR_TOOL,
                       "cannot build the program in a sandbox: the kernel offers no Landlock "
                       "(Linux 5.13 or later with landlock in its LSM list)");
    build_args *a = calloc(1, sizeof *a);
    char **text = calloc((size_t)o->nsources + 1, sizeof *text);
    size_t *len = calloc((size_t)o->nsources + 1, sizeof *len);
    const char **base = calloc((size_t)o->nsources + 1, sizeof *base);
    enum { NFIXED = 9 }; /* the read list's fixed paths, below, before the -I folders */
    const char **read = calloc((size_t)o->ncflags + NFIXED, sizeof *read);
    gl_status st =
        a && text && len && base && read ? GL_OK : gl_fail(err, GL_ERR_NOMEM, "out of memory");
    /* each source read once (never through a link), named by its base name */
    for (int i = 0; st == GL_OK && i < o->nsources; i++) {
        const char *slash = strrchr(o->sources[i], '/');
        base[i] = slash ? slash + 1 : o->sources[i];
        for (int j = 0; j < i && st == GL_OK; j++)
            if (strcmp(base[i], base[j]) == 0)
                st = gl_fail(err, GL_ERR_USAGE, "%s and %s have the same name", o->sources[j],
                             o->sources[i]);
        if (st == GL_OK && i == 0 && o->source) {
            if ((text[0] = malloc(o->source_len + 1))) {
                memcpy(text[0], o->source, o->source_len);
                text[0][o->source_len] = '\0';
                len[0] = o->source_len;
            } else {
                st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
            }
        } else if (st == GL_OK && !(text[i] = gl_read_submission(o->sources[i], &len[i], err))) {
            st = err ? err->status : GL_ERR_INPUT;
        }
    }
    int nread = 0;
    if (st == GL_OK) {
        a->o = o, a->dir = dir, a->text = text, a->len = len, a->base = base;
        if (!gl_program_runtime_paths(a->lib, sizeof a->lib, a->inc, sizeof a->inc))
            a->lib[0] = a->inc[0] = '\0';
        if (gl_compile_find_prelude(a->pre, sizeof a->pre)) {
            char *slash = strrchr(a->pre, '/');
            if (slash)
                *slash = '\0';
        }
        const char *home = getenv("CUDA_HOME");
        snprintf(a->cuda, sizeof a->cuda, "%s", home && *home ? home : "/usr/local/cuda");
        if (!realpath(a->cuda, a->cuda_real))
            a->cuda_real[0] = '\0';
        gl_compile_find_tools(a->nvcc, a->clang, a->ptxas);
        const char *fixed[NFIXED] = {a->lib,       a->inc,  a->pre,   "/usr/local/cuda", a->cuda,
                                     a->cuda_real, a->nvcc, a->clang, a->ptxas};
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            read[nread++] = fixed[i];
        for (int k = 0; k < o->ncflags; k++)
            if (include_dir(o, k))
                read[nread++] = include_dir(o, k);
    }
    gl_child ch = {.pid = -1, .fd = -1};
    if (st == GL_OK) {
        const gl_sandbox_opts so = {.dir = dir,
                                    .read = read,
                                    .nread = nread,
                                    .prepare = build_prepare,
                                    .ctx = a,
                                    .data_bytes = GL_COMPILE_DATA_BYTES,
                                    .cpu_s = GL_COMPILE_CPU_S};
        if ((o->sandbox ? gl_sandbox_spawn(&ch, &so, build_body, a)
                        : gl_child_spawn(&ch, NULL, build_plain, a)) != 0)
            st = gl_fail(err, GL_ERR_TOOL, "cannot start the sandboxed build: %s", strerror(errno));
    }
    if (st == GL_OK) {
        gl_child_msg in = {0};
        const double deadline = gl_child_now() + GL_COMPILE_WALL_S;
        gl_msg_rc rc;
        while ((rc = gl_child_recv(ch.fd, &in, 1 << 20, deadline)) == GL_MSG_TIMEOUT &&
               gl_child_now() < deadline)
            ;
        gl_child_exit ex = {0};
        gl_child_stop(&ch, GL_CHILD_FOREVER, &ex);
        char path[PATH_MAX + 16];
        snprintf(path, sizeof path, "%s/build.log", dir);
        *log = gl_read_file(path, NULL, NULL);
        if (rc == GL_MSG_OK && in.h.type == GL_SANDBOX_MSG_ERROR)
            st = gl_fail(err, GL_ERR_TOOL, "cannot build the program%s: %s",
                         o->sandbox ? " in the sandbox" : "", in.data);
        else if (rc == GL_MSG_OK && in.h.type == PS_MSG_BUILT) {
            st = (gl_status)in.h.arg;
            snprintf(exe, exelen, "%s", in.data);
            if (st != GL_OK)
                gl_fail(err, st, "%s", in.data + strlen(in.data) + 1);
        } else if (rc == GL_MSG_TIMEOUT)
            st = gl_fail(err, GL_ERR_COMPILE,
                         "the program's build ran longer than %d s and was stopped",
                         GL_COMPILE_WALL_S);
        else
            st = gl_fail(err, GL_ERR_COMPILE,
                         "the program's build stopped (%s): it needs too much compile time or "
                         "memory (limits: %d s of CPU, %llu GiB)",
                         ex.signal ? strsignal(ex.signal) : "no result", GL_COMPILE_CPU_S,
                         GL_COMPILE_DATA_BYTES >> 30);
        gl_child_msg_free(&in);
    }
    for (int i = 0; text && i < o->nsources; i++)
        free(text[i]);
    free(text), free(len), free(base), free(read), free(a);
    return st;
}

/* ------------------------------------------------------------------ run */

/* What the run's child needs (on the parent's stack: the fork copies it). */
typedef struct exec_args {
    const char *exe;
    char *const *argv;
    const gl_program_exec_opts *o;
    int in;      /* its stdin (a file or /dev/null), opened by the parent */
    int out[2];  /* stdout and stderr pipes: the child's ends */
    int keep[2]; /* the parent's ends, closed in the child */
    char record[PATH_MAX];
} exec_args;

/* The run child's body: stdin, stdout and stderr in place, the environment (in the
 * sandbox only gpulearn's settings, PATH and HOME/TMPDIR = its folder: nothing of the
 * learner's environment), every other descriptor closed, then the program. */
static void exec_body(int fd, void *arg)
{
    exec_args *a = arg;
    const gl_program_exec_opts *o = a->o;
    if (dup2(a->in, 0) < 0 || dup2(a->out[0], 1) < 0 || dup2(a->out[1], 2) < 0)
        _exit(127);
    (void)fd;
    /* its working folder: where its sources were built (dir/src), so that what cudart
     * reads of them (a buffer's variable name) and the records' file names are found
     * and read as the learner named them; else dir */
    if (o->dir && chdir(o->dir) == 0 && chdir("src") != 0 && errno != ENOENT)
        _exit(127);
    if (o->sandbox) {
        clearenv();
        setenv("PATH", "/usr/bin:/bin", 1);
        setenv("HOME", o->dir, 1);
        setenv("TMPDIR", o->dir, 1);
        setenv("GPULEARN_PROG_SANDBOX", "1", 1);
    }
    if (o->arch)
        setenv("GPULEARN_PROG_ARCH", o->arch, 1);
    if (o->schedule)
        setenv("GPULEARN_PROG_SCHEDULE", o->schedule, 1);
    if (o->record)
        setenv("GPULEARN_PROG_RECORD", o->record, 1);
    setenv("GPULEARN_PROG_NAME", a->argv[0], 1);
    char regs[PATH_MAX + 8]; /* the build's register table (program.c count_regs), if any */
    const char *slash = strrchr(a->exe, '/');
    snprintf(regs, sizeof regs, "%.*s/regs", slash ? (int)(slash - a->exe) : 1,
             slash ? a->exe : ".");
    if (access(regs, R_OK) == 0)
        setenv("GPULEARN_PROG_REGS", regs, 1);
    if (gl_program_sanitized()) /* the program's own leaks are not gpulearn's */
        setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
    signal(SIGPIPE, SIG_DFL);
    close_range(3, ~0u, 0);
    execv(a->exe, a->argv);
    dprintf(2, "gpulearn: cannot start %s: %s\n", a->argv[0], strerror(errno));
    _exit(127);
}

void gl_program_result_free(gl_program_result *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

/* Appends n bytes to a growing buffer (*buf, *len); -1 when out of memory. */
static int append(char **buf, size_t *len, const char *data, size_t n)
{
    char *b = realloc(*buf, *len + n + 1);
    if (!b)
        return -1;
    memcpy(b + *len, data, n);
    *len += n;
    b[*len] = '\0';
    *buf = b;
    return 0;
}

/* Why a program ended as ex says, as gpulearn tells it ("" when it exited by itself). */
static void explain(const char *name, const gl_child_exit *ex, const gl_program_exec_opts *o,
                    char *why, size_t n)
{
    why[0] = '\0';
    if (!ex->signal)
        return;
    char lim[32];
    switch (ex->signal) {
    case SIGSYS:
        snprintf(why, n,
                 "%s was stopped by the sandbox: it made a system call a sandboxed program may "
                 "not make (starting a process, opening a socket)",
                 name);
        break;
    case SIGXCPU:
        snprintf(why, n, "%s used more than %u s of CPU time (the sandbox's limit): stopped", name,
                 o->cpu_s ? o->cpu_s : GL_PROGRAM_CPU_S);
        break;
    case SIGXFSZ:
        gl_format_bytes(lim, sizeof lim, GL_PROGRAM_FILE_BYTES);
        snprintf(why, n, "%s wrote a file past %s (the sandbox's limit): stopped", name, lim);
        break;
    case SIGSEGV:
        snprintf(why, n,
                 "%s was killed by signal %d (%s): a host access to a bad address; a pointer "
                 "from cudaMalloc is device memory, which host code cannot dereference (copy "
                 "it with cudaMemcpy, or use cudaMallocManaged)",
                 name, ex->signal, strsignal(ex->signal));
        break;
    default:
        snprintf(why, n, "%s was killed by signal %d (%s)", name, ex->signal,
                 strsignal(ex->signal));
    }
}

int gl_program_exec(const char *exe, char *const argv[], const gl_program_exec_opts *o,
                    gl_program_result *res, gl_error *err)
{
    memset(res, 0, sizeof *res);
    if (o->sandbox && !gl_sandbox_available()) {
        gl_fail(err, GL_ERR_TOOL,
                "cannot run %s in a sandbox: the kernel offers no Landlock (Linux 5.13 or "
                "later with landlock in its LSM list)",
                argv[0]);
        return -1;
    }
    exec_args a = {.exe = exe, .argv = argv, .o = o, .in = -1, .out = {-1, -1}, .keep = {-1, -1}};
    int p1[2] = {-1, -1}, p2[2] = {-1, -1};
    char in_path[PATH_MAX + 16] = "/dev/null";
    if (o->stdin_text) {
        snprintf(in_path, sizeof in_path, "%s/stdin", o->dir);
        unlink(in_path);
        if (gl_write_new(in_path, o->stdin_text, strlen(o->stdin_text)) != 0) {
            gl_fail(err, GL_ERR_TOOL, "%s: %s", in_path, strerror(errno));
            return -1;
        }
    }
    /* passed through: the terminal's (or whatever gpulearn's) stdin */
    a.in = !o->stdin_text && !o->capture ? dup(0) : open(in_path, O_RDONLY | O_CLOEXEC);
    if (a.in < 0 || pipe2(p1, O_CLOEXEC) != 0 || pipe2(p2, O_CLOEXEC) != 0) {
        gl_fail(err, GL_ERR_TOOL, "cannot start %s: %s", argv[0], strerror(errno));
        for (int i = 0; i < 2; i++)
            if (p1[i] >= 0)
                close(p1[i]);
        if (a.in >= 0)
            close(a.in);
        return -1;
    }
    a.out[0] = p1[1], a.out[1] = p2[1], a.keep[0] = p1[0], a.keep[1] = p2[0];
    gl_child ch = {.pid = -1, .fd = -1};
    int started;
    if (o->sandbox) {
        const gl_sandbox_opts so = {.dir = o->dir,
                                    .address_space = o->memory ? o->memory : GL_PROGRAM_MEMORY,
                                    .cpu_s = o->cpu_s ? o->cpu_s : GL_PROGRAM_CPU_S,
                                    .file_bytes = GL_PROGRAM_FILE_BYTES,
                                    .program = 1};
        started = gl_sandbox_spawn(&ch, &so, exec_body, &a);
    } else {
        started = gl_child_spawn(&ch, NULL, exec_body, &a);
    }
    const int spawn_errno = errno;
    close(a.in), close(p1[1]), close(p2[1]);
    if (started != 0) {
        close(p1[0]), close(p2[0]);
        gl_fail(err, GL_ERR_TOOL, "cannot start %s: %s", argv[0], strerror(spawn_errno));
        return -1;
    }
    /* its output as it comes, within the limits; the sandbox's message if it could not
     * confine itself */
    const double deadline = o->timeout_s > 0 ? gl_child_now() + o->timeout_s : GL_CHILD_FOREVER;
    struct pollfd pf[3] = {{p1[0], POLLIN, 0}, {p2[0], POLLIN, 0}, {ch.fd, POLLIN, 0}};
    uint64_t total = 0;
    gl_child_msg msg = {0};
    char setup_error[512] = "";
    char buf[65536];
    while (pf[0].fd >= 0 || pf[1].fd >= 0) {
        const double left = deadline - gl_child_now();
        if (left <= 0) {
            res->timed_out = 1;
            break;
        }
        const int ms = deadline >= GL_CHILD_FOREVER ? -1 : (int)(left * 1000) + 1;
        if (poll(pf, 3, ms) < 0 && errno != EINTR)
            break;
        if (pf[2].fd >= 0 && pf[2].revents) {
            const gl_msg_rc rc = gl_child_recv(ch.fd, &msg, 4096, 0);
            if (rc == GL_MSG_OK && msg.h.type == GL_SANDBOX_MSG_ERROR)
                snprintf(setup_error, sizeof setup_error, "%s", msg.data);
            else if (rc != GL_MSG_OK && rc != GL_MSG_TIMEOUT)
                pf[2].fd = -1; /* the program started (close_range) or the child ended */
        }
        for (int i = 0; i < 2; i++) {
            if (pf[i].fd < 0 || !pf[i].revents)
                continue;
            const ssize_t k = read(pf[i].fd, buf, sizeof buf);
            if (k <= 0) {
                if (k < 0 && errno == EINTR)
                    continue;
                close(pf[i].fd);
                pf[i].fd = -1;
                continue;
            }
            size_t keep = (size_t)k;
            if (o->output_limit && total + keep > o->output_limit) {
                keep = (size_t)(o->output_limit - total);
                res->flooded = 1;
            }
            total += keep;
            if (o->capture) {
                if (append(i ? &res->err : &res->out, i ? &res->errlen : &res->outlen, buf, keep) !=
                    0)
                    res->flooded = 1;
            } else {
                (void)gl_write_all(i ? 2 : 1, buf, keep);
            }
            if (res->flooded)
                break;
        }
        if (res->flooded)
            break;
    }
    /* its end: it closed its output, so it ends now, or it is stopped at the deadline */
    gl_child_exit ex = {0};
    if (!res->timed_out && !res->flooded && gl_child_wait(&ch, deadline, &ex) == 0)
        res->timed_out = 1;
    if (res->timed_out || res->flooded)
        gl_child_stop(&ch, GL_CHILD_FOREVER, &ex);
    gl_child_close(&ch);
    for (int i = 0; i < 2; i++)
        if (pf[i].fd >= 0)
            close(pf[i].fd);
    gl_child_msg_free(&msg);
    if (o->capture) { /* never NULL: callers compare text */
        if (!res->out)
            append(&res->out, &res->outlen, "", 0);
        if (!res->err)
            append(&res->err, &res->errlen, "", 0);
    }
    if (setup_error[0]) {
        gl_fail(err, GL_ERR_TOOL, "cannot run %s in the sandbox: %s", argv[0], setup_error);
        return -1;
    }
    /* stopped by gpulearn or by the sandbox's limits: a program fault (1) */
    const int sandbox_stop =
        o->sandbox && (ex.signal == SIGSYS || ex.signal == SIGXCPU || ex.signal == SIGXFSZ);
    res->signal = res->timed_out || res->flooded ? 0 : ex.signal;
    res->status = res->timed_out || res->flooded || sandbox_stop ? 1
                  : ex.signal                                    ? 128 + ex.signal
                  : ex.exited                                    ? ex.code
                                                                 : 1;
    char lim[32];
    if (res->timed_out) {
        snprintf(res->why, sizeof res->why, "%s did not end within %g s (%s): stopped", argv[0],
                 o->timeout_s, o->timeout_origin ? o->timeout_origin : "--timeout");
    } else if (res->flooded) {
        gl_format_bytes(lim, sizeof lim, o->output_limit);
        snprintf(res->why, sizeof res->why,
                 "%s wrote more than %s to stdout and stderr (%s): stopped", argv[0], lim,
                 o->output_origin ? o->output_origin : "the sandbox's output limit");
    } else {
        explain(argv[0], &ex, o, res->why, sizeof res->why);
    }
    return 0;
}
