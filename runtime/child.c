/* child.c — child processes and their messages (child.h). Plain POSIX, plus Linux's
 * PR_SET_PDEATHSIG. */
#include "runtime/child.h"
#include "runtime/gl.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

_Static_assert(sizeof(gl_msg_header) == 16, "the wire header is 16 bytes");

double gl_child_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ starting */

/* Children killed whose exit could not be waited for yet; reaped by later starts. */
static pid_t unreaped[16];

static void reap_old(void)
{
    for (size_t i = 0; i < sizeof unreaped / sizeof unreaped[0]; i++)
        if (unreaped[i] > 0 && waitpid(unreaped[i], NULL, WNOHANG) != 0)
            unreaped[i] = 0;
}

/* In a child bound to its parent: the pid of that parent; 0 elsewhere. */
static pid_t bound_parent;

void gl_child_rebind(void)
{
    if (bound_parent <= 0)
        return;
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive gpulearn */
#endif
    if (getppid() != bound_parent) /* the parent died before the line above */
        _exit(127);
}

/* In the child right after fork(): its group, its death signal, default handlers. */
static void child_start(const gl_child_opts *o, pid_t parent, int sigpipe)
{
    bound_parent = 0;
    if (!(o->flags & GL_CHILD_SHARE_GROUP)) {
        setpgid(0, 0); /* the parent does it too: no race with a kill before this ran */
        bound_parent = parent;
        gl_child_rebind();
    }
    /* The parent's handlers (the TUI restores the terminal on a fatal signal, a quit
     * signal sets its flag) are not the child's: a crash here is reported by the parent
     * from the exit status. */
    static const int reset[] = {SIGSEGV, SIGBUS,  SIGFPE, SIGILL,   SIGABRT, SIGTERM,
                                SIGINT,  SIGQUIT, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT};
    for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++)
        signal(reset[i], SIG_DFL);
    signal(SIGPIPE, sigpipe ? SIG_IGN : SIG_DFL);
    if (o->setup)
        o->setup(o->setup_ctx);
}

/* The parent's half of a start. */
static void parent_start(gl_child *c, const gl_child_opts *o, pid_t pid)
{
    c->pid = pid;
    c->own_group = !(o->flags & GL_CHILD_SHARE_GROUP);
    if (c->own_group)
        setpgid(pid, pid); /* EACCES once it exec'd: it did it itself then */
}

int gl_child_spawn(gl_child *c, const gl_child_opts *opts, void (*body)(int fd, void *arg),
                   void *arg)
{
    static const gl_child_opts none = {0};
    const gl_child_opts *o = opts ? opts : &none;
    c->pid = -1, c->fd = -1, c->own_group = 0;
    reap_old();
    int fds[2];
    if (pipe(fds) != 0)
        return GL_CHILD_ERR_PIPE;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL); /* or the child's buffers would be written twice */
    const pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        errno = e;
        return GL_CHILD_ERR_FORK;
    }
    if (pid == 0) {
        close(fds[0]);
        child_start(o, parent, 1);
        body(fds[1], arg);
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    parent_start(c, o, pid);
    c->fd = fds[0];
    return 0;
}

int gl_child_exec(gl_child *c, const gl_child_opts *opts, char *const argv[])
{
    static const gl_child_opts none = {0};
    const gl_child_opts *o = opts ? opts : &none;
    c->pid = -1, c->fd = -1, c->own_group = 0;
    reap_old();
    fflush(NULL);
    const pid_t parent = getpid(), pid = fork();
    if (pid < 0)
        return GL_CHILD_ERR_FORK;
    if (pid == 0) {
        child_start(o, parent, 0);
        execv(argv[0], argv);
        _exit(127);
    }
    parent_start(c, o, pid);
    return 0;
}

/* ------------------------------------------------------------------ ending */

void gl_child_decode(int status, gl_child_exit *ex)
{
    memset(ex, 0, sizeof *ex);
    ex->status = status;
    if (status == -1)
        return;
    if (WIFEXITED(status)) {
        ex->exited = 1;
        ex->code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        ex->signal = WTERMSIG(status);
    }
}

int gl_child_wait(gl_child *c, double deadline, gl_child_exit *ex)
{
    gl_child_exit ignored;
    if (!ex)
        ex = &ignored;
    gl_child_decode(-1, ex);
    if (c->pid <= 0)
        return -1;
    int status = 0;
    for (;;) {
        pid_t r = waitpid(c->pid, &status, deadline >= GL_CHILD_FOREVER ? 0 : WNOHANG);
        if (r == c->pid) {
            gl_child_decode(status, ex);
            c->pid = 0;
            return 1;
        }
        if (r < 0 && errno != EINTR) { /* ECHILD: a SIGCHLD handler elsewhere reaped it */
            c->pid = 0;
            return -1;
        }
        if (r == 0) {
            if (gl_child_now() >= deadline)
                return 0;
            struct timespec ts = {0, 5 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
}

void gl_child_kill(gl_child *c)
{
    if (c->pid <= 0)
        return;
    if (c->own_group)
        kill(-c->pid, SIGKILL); /* with whatever it started */
    kill(c->pid, SIGKILL);      /* also when it had not made its group yet */
}

int gl_child_stop(gl_child *c, double patience_s, gl_child_exit *ex)
{
    gl_child_close(c);
    gl_child_kill(c);
    pid_t pid = c->pid;
    double deadline =
        patience_s >= GL_CHILD_FOREVER ? GL_CHILD_FOREVER : gl_child_now() + patience_s;
    int r = gl_child_wait(c, deadline, ex);
    if (r == 0) {
        for (size_t i = 0; i < sizeof unreaped / sizeof unreaped[0]; i++)
            if (unreaped[i] <= 0) {
                unreaped[i] = pid;
                break;
            }
        c->pid = 0;
    }
    return r;
}

void gl_child_close(gl_child *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

/* ------------------------------------------------------------------ messages */

int gl_child_send_header(int fd, uint32_t type, uint32_t arg, uint64_t len)
{
    gl_msg_header h = {type, arg, len};
    return gl_write_all(fd, &h, sizeof h);
}

int gl_child_send(int fd, uint32_t type, uint32_t arg, const void *data, size_t len)
{
    if (gl_child_send_header(fd, type, arg, len) != 0)
        return -1;
    return len ? gl_write_all(fd, data, len) : 0;
}

/* Reads up to len bytes into buf (discarded when NULL) until the deadline; *got gets
 * how many. GL_MSG_OK once all len are in. */
static gl_msg_rc read_some(int fd, char *buf, size_t len, size_t *got, double deadline)
{
    char sink[4096];
    *got = 0;
    while (*got < len) {
        double left = deadline - gl_child_now();
        int timeout_ms = left <= 0 ? 0 : left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int pr = poll(&p, 1, timeout_ms);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0)
            return GL_MSG_ERROR;
        if (pr == 0) {
            if (left <= 0)
                return GL_MSG_TIMEOUT;
            continue; /* the loop re-checks the deadline */
        }
        size_t want = len - *got;
        if (!buf && want > sizeof sink)
            want = sizeof sink;
        ssize_t n = read(fd, buf ? buf + *got : sink, want);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (n < 0)
            return GL_MSG_ERROR;
        if (n == 0)
            return GL_MSG_EOF;
        *got += (size_t)n;
    }
    return GL_MSG_OK;
}

gl_msg_rc gl_child_recv_header(int fd, gl_msg_header *h, uint64_t max, double deadline)
{
    size_t got;
    gl_msg_rc r = read_some(fd, (char *)h, sizeof *h, &got, deadline);
    if (r == GL_MSG_OK && h->len > max)
        return GL_MSG_TOO_BIG;
    return r;
}

gl_msg_rc gl_child_recv_payload(int fd, void *buf, size_t len, double deadline)
{
    size_t got;
    return read_some(fd, buf, len, &got, deadline);
}

gl_msg_rc gl_child_recv(int fd, gl_child_msg *in, uint64_t max, double deadline)
{
    if (in->done)
        gl_child_msg_free(in);
    const size_t hsize = sizeof in->h;
    size_t got;
    if (in->got < hsize) {
        gl_msg_rc r = read_some(fd, (char *)&in->h + in->got, hsize - in->got, &got, deadline);
        in->got += got;
        if (r != GL_MSG_OK)
            return r;
        if (in->h.len > max || in->h.len >= SIZE_MAX)
            return GL_MSG_TOO_BIG;
        in->data = malloc((size_t)in->h.len + 1);
        if (!in->data) {
            errno = ENOMEM;
            return GL_MSG_ERROR;
        }
    }
    if (!in->data) /* a TOO_BIG or failed header before: nothing more to read */
        return in->h.len > max ? GL_MSG_TOO_BIG : GL_MSG_ERROR;
    size_t at = in->got - hsize, len = (size_t)in->h.len;
    gl_msg_rc r = read_some(fd, in->data + at, len - at, &got, deadline);
    in->got += got;
    if (r != GL_MSG_OK)
        return r;
    in->data[len] = '\0';
    in->done = 1;
    return GL_MSG_OK;
}

void gl_child_msg_free(gl_child_msg *in)
{
    free(in->data);
    memset(in, 0, sizeof *in);
}

char *gl_child_msg_take(gl_child_msg *in)
{
    char *d = in->data;
    in->data = NULL;
    gl_child_msg_free(in);
    return d;
}
