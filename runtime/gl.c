/* gl.c — status codes, error messages and whole-file I/O shared by runtime/. */
#include "runtime/gl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

gl_status gl_fail(gl_error *err, gl_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->status = status;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return status;
}

int gl_exit_code(gl_status s)
{
    switch (s) {
    case GL_OK: return 0;
    case GL_ERR_USAGE:
    case GL_ERR_INPUT:
    case GL_ERR_LAUNCH: return 2;
    case GL_ERR_COMPILE:
    case GL_ERR_UNSUPPORTED:
    case GL_ERR_FAULT:
    case GL_ERR_CHECK:
    case GL_ERR_NODEVICE:
    case GL_ERR_CUDA:
    case GL_ERR_TOOL:
    case GL_ERR_NOMEM: return 1;
    }
    return 1;
}

char *gl_read_file(const char *path, size_t *len, gl_error *err)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below) */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const int dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
        close(fd);
        if (dir)
            gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(EISDIR));
        else
            gl_fail(err, GL_ERR_INPUT,
                    "%s: not a regular file (a device, FIFO or socket): "
                    "gpulearn reads sources, specs and lessons from regular files only",
                    path);
        return NULL;
    }
    if ((uint64_t)st.st_size > GL_READ_MAX_BYTES) {
        close(fd);
        gl_fail(err, GL_ERR_INPUT,
                "%s: %lld bytes, over the limit of %llu MiB for a source, "
                "spec or lesson file",
                path, (long long)st.st_size, (unsigned long long)(GL_READ_MAX_BYTES >> 20));
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        goto nomem;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > GL_READ_MAX_BYTES) { /* it grew while we read */
                free(buf);
                close(fd);
                gl_fail(err, GL_ERR_INPUT, "%s: grew past the limit of %llu MiB while read", path,
                        (unsigned long long)(GL_READ_MAX_BYTES >> 20));
                return NULL;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb)
                goto nomem;
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            close(fd);
            gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(e));
            return NULL;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
nomem:
    free(buf);
    close(fd);
    gl_fail(err, GL_ERR_NOMEM, "%s: out of memory", path);
    return NULL;
}

/* The folder part of path ("." when it has none); caller frees. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

int gl_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int gl_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

gl_status gl_write_file_atomic(const char *path, const void *data, size_t len, gl_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* not a file to replace: write into it as it is (/dev/null, /dev/stdout, a FIFO) */
        if (S_ISDIR(st.st_mode))
            return gl_fail(err, GL_ERR_INPUT, "%s: is a folder", path);
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || gl_write_all(fd, data, len) != 0) {
            int e = errno;
            if (fd >= 0)
                close(fd);
            return gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(e));
        }
        return close(fd) == 0 ? GL_OK : gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(errno));
    }
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        /* replace the file the link names, not the link */
        char *target = realpath(path, NULL);
        if (target) {
            gl_status r = gl_write_file_atomic(target, data, len, err);
            free(target);
            return r;
        }
    }
    static unsigned counter;
    size_t tn = strlen(path) + 48;
    char *tmp = malloc(tn);
    if (!tmp)
        return gl_fail(err, GL_ERR_NOMEM, "%s: out of memory", path);
    int fd = -1;
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        snprintf(tmp, tn, "%s.tmp.%ld.%u", path, (long)getpid(), counter++);
        /* 0666 so the process umask applies, as it would to a plain fopen. */
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(e));
    }
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        (void)fchmod(fd, st.st_mode & 07777); /* keep an existing file's permissions */

    if (gl_write_all(fd, data, len) != 0)
        goto fail;
    if (fsync(fd) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) != 0)
        goto fail;
    free(tmp);
    /* Make the rename itself durable (best effort: not every file system allows it). */
    char *dir = dir_of(path);
    if (dir) {
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    return GL_OK;
fail : {
    int e = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    return gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(e));
}
}

const char *gl_display_path(const char *path)
{
    char cwd[4096];
    if (!path || path[0] != '/' || !getcwd(cwd, sizeof cwd))
        return path;
    size_t n = strlen(cwd);
    if (n > 1 && strncmp(path, cwd, n) == 0 && path[n] == '/' && path[n + 1])
        return path + n + 1;
    return path;
}
