/* gl.c — status codes, error messages and whole-file I/O shared by runtime/. */
#include "runtime/gl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
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

/* Reads the regular file open at fd (closed here) whole: see gl_read_file. */
static char *read_fd(int fd, const char *path, size_t *len, gl_error *err)
{
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

char *gl_read_file(const char *path, size_t *len, gl_error *err)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below) */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(errno));
        return NULL;
    }
    return read_fd(fd, path, len, err);
}

char *gl_read_submission(const char *path, size_t *len, gl_error *err)
{
    /* O_NOCTTY: a terminal device is refused below, never made ours */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY);
    if (fd < 0) {
        if (errno == ELOOP) /* O_NOFOLLOW met a link: no file is read through one */
            gl_fail(err, GL_ERR_INPUT,
                    "%s: is a symbolic link: grading follows none (give the file itself)", path);
        else
            gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink != 1) {
        close(fd);
        gl_fail(err, GL_ERR_INPUT,
                "%s: has %llu hard links: grading reads a file with one link only (a hard link "
                "can name any file of its file system; give a copy)",
                path, (unsigned long long)st.st_nlink);
        return NULL;
    }
    return read_fd(fd, path, len, err);
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

int gl_parse_bytes(const char *s, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    const double v = s && *s ? strtod(s, &end) : -1;
    if (errno || !end || end == s || v != v)
        return -1;
    while (*end == ' ')
        end++;
    double scale = 1;
    const char units[] = "kmgt";
    const char *u = *end ? strchr(units, *end | 0x20) : NULL;
    if (u) {
        for (const char *p = units; p <= u; p++)
            scale *= 1024;
        end++;
        if ((end[0] | 0x20) == 'i' && (end[1] | 0x20) == 'b')
            end += 2;
        else if ((end[0] | 0x20) == 'b')
            end++;
    } else if ((*end | 0x20) == 'b') {
        end++;
    }
    const double bytes = v * scale;
    if (*end || !(bytes >= 1) || bytes > 0x1p60)
        return -1;
    *out = (uint64_t)bytes;
    return 0;
}

void gl_format_bytes(char *buf, size_t len, uint64_t n)
{
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB"};
    if (n < 1024) {
        snprintf(buf, len, "%llu bytes", (unsigned long long)n);
        return;
    }
    int u = 0;
    double v = (double)n / 1024;
    while (v >= 1024 && u < 3)
        v /= 1024, u++;
    snprintf(buf, len, v == (double)(uint64_t)v ? "%.0f %s" : "%.1f %s", v, unit[u]);
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

/* A new file "PATH.tmp.PID.N" beside path, opened for writing with O_CREAT | O_EXCL |
 * extra_flags and mode: its descriptor, and its name in *tmp (malloc'd, caller frees,
 * also on failure); -1 with errno (ENOMEM: no name). */
static int open_temp_beside(const char *path, int extra_flags, mode_t mode, char **tmp)
{
    static unsigned counter;
    const size_t tn = strlen(path) + 48;
    if (!(*tmp = malloc(tn))) {
        errno = ENOMEM;
        return -1;
    }
    int fd = -1;
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        snprintf(*tmp, tn, "%s.tmp.%ld.%u", path, (long)getpid(), counter++);
        fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | extra_flags, mode);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    return fd;
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
    char *tmp = NULL;
    /* 0666 so the process umask applies, as it would to a plain fopen. */
    int fd = open_temp_beside(path, 0, 0666, &tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return e == ENOMEM ? gl_fail(err, GL_ERR_NOMEM, "%s: out of memory", path)
                           : gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(e));
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

/* ------------------------------------------------------------------ temporary folders */

/* Removes the entry `name` of the folder open at `at` and, for a folder, everything under it
 * (depth levels at most), by descriptor: a link is removed, never followed, and a folder
 * swapped for a link meanwhile is not entered (O_NOFOLLOW). */
static void remove_at(int at, const char *name, int depth)
{
    if (unlinkat(at, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
        return;
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *e;
    while (depth > 0 && (e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            remove_at(dirfd(d), e->d_name, depth - 1);
    closedir(d);
    unlinkat(at, name, AT_REMOVEDIR);
}

/* The folders this process made and holds locked: path and the locked descriptor. */
static struct {
    char path[4096];
    int fd;
} held[32];

/* $TMPDIR, or /tmp. */
static const char *tmp_root(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

/* Removes the temporary folders in root that a gpulearn now gone left: see gl_tmpdir_make. */
static void sweep_stale(const char *root)
{
    int rfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = rfd >= 0 ? fdopendir(rfd) : NULL;
    if (!d) {
        if (rfd >= 0)
            close(rfd);
        return;
    }
    const uid_t me = geteuid();
    const time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *rest = strncmp(e->d_name, "gpulearn-cc-", 12) == 0    ? e->d_name + 12
                           : strncmp(e->d_name, "gpulearn-run-", 13) == 0 ? e->d_name + 13
                                                                          : NULL;
        if (!rest)
            continue;
        int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            continue;
        /* the owner named in it ("<pid>-XXXXXX"; none in an older gpulearn's) is gone */
        char *end = NULL;
        const long pid = strtol(rest, &end, 10);
        const int gone =
            end && *end == '-' && pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
        /* ours, or as root, also one handed to a sandbox's user (another user's folder
         * cannot be opened: mode 0700) */
        if (fstat(fd, &st) == 0 && (st.st_uid == me || me == 0) &&
            (gone || now - st.st_mtime >= GL_TMPDIR_STALE_S) && flock(fd, LOCK_EX | LOCK_NB) == 0)
            remove_at(dirfd(d), e->d_name, 64);
        close(fd);
    }
    closedir(d);
}

int gl_tmpdir_make(char *dir, size_t n, const char *kind)
{
    static int swept;
    const char *root = tmp_root();
    if (!swept) {
        swept = 1;
        sweep_stale(root);
    }
    int w = snprintf(dir, n, "%s/gpulearn-%s-%ld-XXXXXX", root, kind, (long)getpid());
    if (w <= 0 || (size_t)w >= n) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (!mkdtemp(dir))
        return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        fd = -1;
    }
    for (size_t i = 0; fd >= 0 && i < sizeof held / sizeof held[0]; i++)
        if (!held[i].path[0] && strlen(dir) < sizeof held[i].path) {
            snprintf(held[i].path, sizeof held[i].path, "%s", dir);
            held[i].fd = fd;
            return 0;
        }
    /* not held (no descriptor left): it still works; a later sweep takes it once this
     * process is gone */
    if (fd >= 0)
        close(fd);
    return 0;
}

void gl_tmpdir_remove(const char *dir)
{
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (!slash)
        return;
    *slash = '\0';
    int pfd = open(*parent ? parent : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pfd >= 0) {
        remove_at(pfd, slash + 1, 64);
        close(pfd);
    }
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++)
        if (held[i].path[0] && strcmp(held[i].path, dir) == 0) {
            close(held[i].fd);
            held[i].path[0] = '\0';
        }
}

gl_status gl_write_report(const char *path, const void *data, size_t len, gl_error *err)
{
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return gl_fail(err, GL_ERR_INPUT,
                       "%s: %s: a report is written to a regular file only, never through a "
                       "link or into a device",
                       path,
                       S_ISLNK(st.st_mode)   ? "is a symbolic link"
                       : S_ISDIR(st.st_mode) ? "is a folder"
                                             : "is not a regular file");
    char *tmp = NULL;
    int fd = open_temp_beside(path, O_NOFOLLOW, 0644, &tmp);
    int e = errno;
    if (fd >= 0) {
        e = 0;
        if (gl_write_all(fd, data, len) != 0 || fsync(fd) != 0)
            e = errno;
        if (close(fd) != 0 && !e)
            e = errno;
        if (!e && rename(tmp, path) != 0)
            e = errno;
        if (e)
            unlink(tmp);
    }
    free(tmp);
    return e ? gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(e)) : GL_OK;
}

/* ------------------------------------------------------------------ untrusted text */

int gl_utf8_next(const char *str, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    const unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    int n;
    uint32_t v, min;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2, v = c & 0x1f, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, v = c & 0x0f, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, v = c & 0x07, min = 0x10000;
    else
        return 0; /* a continuation byte, an overlong lead (C0, C1) or past U+10FFFF */
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) /* also the NUL at the end */
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return n;
}

/* Whether code point cp is shown escaped (gl_escape_term). */
static int term_hidden(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
           (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Appends n bytes to out[cap] at *len (counted past cap, written while they fit). */
static void put_n(char *out, size_t cap, size_t *len, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++, (*len)++)
        if (*len + 1 < cap)
            out[*len] = s[i];
}

size_t gl_escape_term(char *out, size_t n, const char *s, unsigned flags)
{
    size_t len = 0;
    for (const char *p = s ? s : ""; *p;) {
        const unsigned char c = (unsigned char)*p;
        uint32_t cp = 0;
        const int k = gl_utf8_next(p, &cp);
        char esc[16];
        if (k == 0) {
            snprintf(esc, sizeof esc, "\\x%02x", c);
        } else if ((c == '\n' || c == '\t') && (flags & GL_ESC_LINES)) {
            put_n(out, n, &len, p++, 1);
            continue;
        } else if (c == '\n' || c == '\t' || c == '\r') {
            snprintf(esc, sizeof esc, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\%03o", c);
        } else if (term_hidden(cp)) {
            snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
        } else {
            put_n(out, n, &len, p, (size_t)k);
            p += k;
            continue;
        }
        put_n(out, n, &len, esc, strlen(esc));
        p += k ? k : 1;
    }
    if (n)
        out[len < n ? len : n - 1] = '\0';
    return len;
}

void gl_fputs_term(FILE *f, const char *s, unsigned flags)
{
    char buf[1024];
    const char *p = s ? s : "";
    while (*p) {
        /* a piece at a time, cut between whole UTF-8 sequences */
        size_t take = 0;
        while (p[take] && take < 200) {
            uint32_t cp;
            const int k = gl_utf8_next(p + take, &cp);
            take += k ? (size_t)k : 1;
        }
        char piece[256];
        memcpy(piece, p, take);
        piece[take] = '\0';
        gl_escape_term(buf, sizeof buf, piece, flags);
        fputs(buf, f);
        p += take;
    }
}

char *gl_utf8_clean(const char *s)
{
    if (!s)
        return NULL;
    size_t cap = strlen(s) * 3 + 1, len = 0; /* a byte becomes at most 3 (U+FFFD) */
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (const char *p = s; *p;) {
        uint32_t cp;
        const int k = gl_utf8_next(p, &cp);
        if (k) {
            memcpy(out + len, p, (size_t)k);
            len += (size_t)k, p += k;
        } else {
            memcpy(out + len, "\xef\xbf\xbd", 3);
            len += 3, p++;
        }
    }
    out[len] = '\0';
    return out;
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

int gl_write_new(const char *dst, const void *data, size_t len)
{
    int fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    int ok = gl_write_all(fd, data, len) == 0;
    const int e = errno;
    ok &= close(fd) == 0;
    if (!ok)
        errno = e;
    return ok ? 0 : -1;
}

/* gl_copy_tree's source and destination roots (nftw passes no context; only
 * single-threaded sandboxed children call it). */
static struct {
    const char *src, *dst;
} tree;

static int copy_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)ftw;
    char to[PATH_MAX];
    if (snprintf(to, sizeof to, "%s%s", tree.dst, p + strlen(tree.src)) >= (int)sizeof to)
        return -1;
    if (flag == FTW_D)
        return mkdir(to, 0755);
    if (flag == FTW_F && S_ISREG(st->st_mode)) {
        gl_error ignored;
        size_t len = 0;
        char *data = gl_read_file(p, &len, &ignored);
        int rc = data ? gl_write_new(to, data, len) : -1;
        free(data);
        return rc;
    }
    return 0; /* links and the rest are not copied */
}

int gl_copy_tree(const char *src, const char *dst)
{
    tree.src = src, tree.dst = dst;
    return nftw(src, copy_entry, 16, FTW_PHYS);
}
