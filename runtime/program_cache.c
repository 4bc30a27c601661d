/* program_cache.c — the cache of whole programs' builds (program_cache.h). */
#include "runtime/program_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/cache.h"
#include "runtime/compile.h"

#ifndef GL_VERSION
#define GL_VERSION "0.0.0"
#endif

static const char magic[] = "gpulearn-program-cache 1\n";

/* The first `name` on $PATH into buf; 1 if found. */
static int on_path(const char *name, char *buf, size_t n)
{
    const char *path = getenv("PATH");
    while (path && *path) {
        const size_t len = strcspn(path, ":");
        if (len && snprintf(buf, n, "%.*s/%s", (int)len, path, name) < (int)n &&
            access(buf, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

/* Adds tool `name`'s identity (gl_cache_sha256_file_id) when found, else "" (then the build
 * uses another, or fails). */
static void tool_id(gl_cache_sha256 *h, const char *name, int found, const char *path)
{
    if (found)
        gl_cache_sha256_file_id(h, name, path);
    else
        gl_cache_sha256_field(h, name, "", 0);
}

int gl_program_cache_key(const gl_program_opts *o, const char *lib, const char *inc,
                         const char *sanlib, char key[65])
{
    char dir[4096], buf[PATH_MAX];
    if (gl_cache_dir(dir, sizeof dir) != 0 || (o->native && !o->arch))
        return -1;
    gl_cache_sha256 h;
    gl_cache_sha256_init(&h);
    gl_cache_sha256_field(&h, "magic", magic, sizeof magic - 1);
    gl_cache_sha256_field(&h, "version", GL_VERSION, strlen(GL_VERSION));
    /* the line tables name the sources relative to it; -I folders too */
    if (!getcwd(buf, sizeof buf))
        return -1;
    gl_cache_sha256_field(&h, "cwd", buf, strlen(buf));
    /* gpulearn's own build (its command lines) and gpulearn's CUDA runtime */
    ssize_t k = readlink("/proc/self/exe", buf, sizeof buf - 1);
    buf[k > 0 ? k : 0] = '\0';
    gl_cache_sha256_file_id(&h, "gpulearn", buf);
    gl_cache_sha256_file_id(&h, "cudart", lib);
    gl_cache_sha256_field(&h, "cudart-include", inc, strlen(inc));
    gl_cache_sha256_field(&h, "sanitizer", sanlib, strlen(sanlib));
    char opts[64];
    int n = snprintf(opts, sizeof opts, "native %d compiler %d", o->native, (int)o->compiler);
    gl_cache_sha256_field(&h, "opts", opts, (size_t)n);
    gl_cache_sha256_field(&h, "arch", o->arch ? o->arch : "", o->arch ? strlen(o->arch) : 0);
    for (int i = 0; i < o->ncflags; i++)
        gl_cache_sha256_field(&h, "flag", o->cflags[i], strlen(o->cflags[i]));
    /* the compilers: whichever the build picks (program.c), by identity */
    tool_id(&h, "clang", gl_compile_find_clang(buf, sizeof buf), buf);
    tool_id(&h, "nvcc", gl_compile_find_nvcc(buf, sizeof buf), buf);
    tool_id(&h, "ptxas", gl_compile_find_ptxas(buf, sizeof buf), buf);
    tool_id(&h, "prelude", gl_compile_find_prelude(buf, sizeof buf), buf);
    tool_id(&h, "g++", on_path("g++", buf, sizeof buf), buf); /* nvcc's host compiler */
    tool_id(&h, "gcc", on_path("gcc", buf, sizeof buf), buf);
    for (int i = 0; i < o->nsources; i++) {
        size_t len = 0;
        char *src = gl_read_file(o->sources[i], &len, NULL);
        if (!src)
            return -1;
        gl_cache_sha256_field(&h, "name", o->sources[i], strlen(o->sources[i]));
        gl_cache_sha256_field(&h, "source", src, len);
        free(src);
    }
    gl_cache_sha256_hex(&h, key);
    return 0;
}

/* The entry's path for key into buf; 0, or -1 when the cache is off. */
static int entry_path(const char *key, char *buf, size_t n)
{
    char dir[4096];
    if (gl_cache_dir(dir, sizeof dir) != 0)
        return -1;
    return snprintf(buf, n, "%s/%s.prog", dir, key) < (int)n ? 0 : -1;
}

/* The SHA-256 of a file's bytes into hex; 0, or -1 when it cannot be read. */
static int file_sum(const char *path, char hex[65])
{
    size_t len = 0;
    char *data = gl_read_file(path, &len, NULL);
    if (!data)
        return -1;
    gl_cache_sha256 h;
    gl_cache_sha256_init(&h);
    gl_cache_sha256_update(&h, data, len);
    gl_cache_sha256_hex(&h, hex);
    free(data);
    return 0;
}

/* Entry format (after the magic line and "sha256 HEX\n", HEX that of the rest):
 *   deps N\n  N lines "HEX PATH\n" (HEX: the SHA-256 of PATH's bytes when built)
 *   messages M\n <M bytes>  regs R\n <R bytes>  exe E\n <E bytes>
 * A line "word VALUE\n" at *p: the value (up to the newline) and its length, or NULL. */
static const char *line(const char **p, const char *end, const char *word, size_t *len)
{
    const size_t wl = strlen(word);
    if ((size_t)(end - *p) < wl + 1 || memcmp(*p, word, wl) != 0 || (*p)[wl] != ' ')
        return NULL;
    const char *v = *p + wl + 1, *nl = memchr(v, '\n', (size_t)(end - v));
    if (!nl)
        return NULL;
    *len = (size_t)(nl - v);
    *p = nl + 1;
    return v;
}

/* A count after `word` (at most max); -1 when absent or malformed. */
static long long count(const char **p, const char *end, const char *word, unsigned long long max)
{
    size_t len;
    const char *v = line(p, end, word, &len);
    if (!v || len == 0 || len > 19)
        return -1;
    unsigned long long n = 0;
    for (size_t i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9')
            return -1;
        n = n * 10 + (unsigned long long)(v[i] - '0');
    }
    return n <= max ? (long long)n : -1;
}

/* A counted blob "word N\n<N bytes>": its start into *data and length, or -1. */
static long long blob(const char **p, const char *end, const char *word, const char **data)
{
    long long n = count(p, end, word, (unsigned long long)(end - *p));
    if (n < 0 || n > end - *p)
        return -1;
    *data = *p;
    *p += n;
    return n;
}

/* Writes len bytes to path (created, mode); 0 or -1. */
static int write_new(const char *path, const char *data, size_t len, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    int ok = gl_write_all(fd, data, len) == 0;
    return close(fd) == 0 && ok ? 0 : -1;
}

int gl_program_cache_get(const char *key, const char *dir, char *exe, size_t exelen, int verbose)
{
    char path[4200];
    if (entry_path(key, path, sizeof path) != 0)
        return 0;
    size_t n = 0;
    char *text = gl_read_file(path, &n, NULL);
    if (!text) {
        if (verbose)
            fprintf(stderr, "gpulearn: the program's build is not in the cache (%s)\n", path);
        return 0;
    }
    const char *p = text, *end = text + n, *v, *msgs = NULL, *regs = NULL, *bin = NULL;
    const char *stale = NULL;
    size_t len;
    long long nmsgs = -1, nregs = -1, nbin = -1, ndeps;
    char sum[65];
    int ok = 0, damaged = 1;
    if (n < sizeof magic - 1 || memcmp(p, magic, sizeof magic - 1) != 0)
        goto out;
    p += sizeof magic - 1;
    if (!(v = line(&p, end, "sha256", &len)) || len != 64)
        goto out;
    gl_cache_sha256 h;
    gl_cache_sha256_init(&h);
    gl_cache_sha256_update(&h, p, (size_t)(end - p));
    gl_cache_sha256_hex(&h, sum);
    if (memcmp(sum, v, 64) != 0 || (ndeps = count(&p, end, "deps", 1u << 20)) < 0)
        goto out;
    const char *deps = p;
    for (long long i = 0; i < ndeps; i++) { /* the format first, then the files */
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl || nl - p < 66 || nl - p > 65 + PATH_MAX || p[64] != ' ')
            goto out;
        p = nl + 1;
    }
    const char *deps_end = p;
    if ((nmsgs = blob(&p, end, "messages", &msgs)) < 0 ||
        (nregs = blob(&p, end, "regs", &regs)) < 0 || (nbin = blob(&p, end, "exe", &bin)) <= 0 ||
        p != end)
        goto out;
    damaged = 0;
    for (const char *d = deps; d < deps_end && !stale;) {
        const char *nl = memchr(d, '\n', (size_t)(end - d));
        char dep[PATH_MAX], now[65];
        snprintf(dep, sizeof dep, "%.*s", (int)(nl - d - 65), d + 65);
        if (file_sum(dep, now) != 0 || memcmp(now, d, 64) != 0)
            stale = d + 65;
        d = nl + 1;
    }
    if (stale) {
        if (verbose)
            fprintf(stderr, "gpulearn: the program's cached build is out of date: %.*s changed\n",
                    (int)strcspn(stale, "\n"), stale);
        goto out;
    }
    char regpath[PATH_MAX + 8];
    snprintf(exe, exelen, "%s/prog", dir);
    snprintf(regpath, sizeof regpath, "%s/regs", dir);
    if (write_new(exe, bin, (size_t)nbin, 0700) != 0 ||
        (nregs > 0 && write_new(regpath, regs, (size_t)nregs, 0600) != 0)) {
        unlink(exe);
        unlink(regpath);
        goto out;
    }
    ok = 1;
    utimensat(AT_FDCWD, path, NULL, 0); /* recently used: kept longest */
    if (verbose)
        fprintf(stderr,
                "gpulearn: the program's build comes from the cache (%s): no compiler "
                "runs\n",
                path);
    if (nmsgs > 0)
        fwrite(msgs, 1, (size_t)nmsgs, stderr);
out:
    free(text);
    if (damaged) {
        /* a bad disk, a hand edit, a cut write by another tool: removed, never run */
        if (unlink(path) == 0)
            fprintf(stderr,
                    "gpulearn: warning: the program cache entry %s was damaged: removed it and "
                    "built again\n",
                    path);
    }
    return ok;
}

void gl_program_cache_log(const char *dir, const char *text)
{
    char path[PATH_MAX];
    if (!text || !*text || snprintf(path, sizeof path, "%s/messages", dir) >= (int)sizeof path)
        return;
    FILE *f = fopen(path, "a");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The files a build read, each once. */
typedef struct deplist {
    char **path;
    size_t n, cap;
} deplist;

/* The dependencies of one make rule file (the compilers' -MD output: "target: dep \
 * dep ...", a space in a name escaped "\ ") appended to out as "HEX PATH\n" lines,
 * skipping files in dir (the build's own) and those already listed. 0, or -1 when a
 * dependency cannot be read (then the build is not cached). */
static int add_deps(const char *dfile, const char *dir, FILE *out, deplist *l)
{
    char *text = gl_read_file(dfile, NULL, NULL);
    if (!text)
        return -1;
    const char *p = strchr(text, ':');
    const size_t dl = strlen(dir);
    int rc = 0;
    for (p = p ? p + 1 : ""; *p && rc == 0;) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            p++;
            continue;
        }
        if (*p == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
            p += p[1] == '\n' ? 2 : 3;
            continue;
        }
        char dep[PATH_MAX];
        size_t n = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if ((*p == '\\' && (p[1] == ' ' || p[1] == '#')) || (*p == '$' && p[1] == '$'))
                p++; /* make's escapes */
            else if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
                break;
            if (n + 1 >= sizeof dep) {
                rc = -1;
                break;
            }
            dep[n++] = *p++;
        }
        dep[n] = '\0';
        if (rc || !n || (strncmp(dep, dir, dl) == 0 && dep[dl] == '/'))
            continue;
        int dup = 0;
        for (size_t i = 0; i < l->n && !dup; i++)
            dup = strcmp(l->path[i], dep) == 0;
        char hex[65];
        if (dup)
            continue;
        if (l->n == l->cap) {
            char **more = realloc(l->path, (l->cap = l->cap ? 2 * l->cap : 256) * sizeof *more);
            if (!more) {
                rc = -1;
                break;
            }
            l->path = more;
        }
        if (file_sum(dep, hex) != 0 || !(l->path[l->n] = strdup(dep))) {
            rc = -1;
            break;
        }
        l->n++;
        fprintf(out, "%s %s\n", hex, dep);
    }
    free(text);
    return rc;
}

/* An entry of the cache folder, for trimming. */
typedef struct cached {
    char name[80];
    off_t size;
    struct timespec used;
} cached;

static int older(const void *a, const void *b)
{
    const struct timespec *x = &((const cached *)a)->used, *y = &((const cached *)b)->used;
    return x->tv_sec != y->tv_sec ? (x->tv_sec > y->tv_sec) - (x->tv_sec < y->tv_sec)
                                  : (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

/* Removes the least recently used `.prog` entries of the cache folder until they take at
 * most GL_PROGRAM_CACHE_BYTES. */
static void trim(const char *cachedir)
{
    DIR *d = opendir(cachedir);
    if (!d)
        return;
    cached *all = NULL;
    size_t n = 0, cap = 0;
    unsigned long long total = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const size_t len = strlen(e->d_name);
        struct stat st;
        if (len < 6 || len >= sizeof all->name || strcmp(e->d_name + len - 5, ".prog") != 0 ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            cached *more = realloc(all, (cap = cap ? 2 * cap : 64) * sizeof *all);
            if (!more)
                break;
            all = more;
        }
        memcpy(all[n].name, e->d_name, len + 1);
        all[n].size = st.st_size;
        all[n++].used = st.st_mtim;
        total += (unsigned long long)st.st_size;
    }
    if (total > GL_PROGRAM_CACHE_BYTES && n) {
        qsort(all, n, sizeof *all, older);
        for (size_t i = 0; i < n && total > GL_PROGRAM_CACHE_BYTES; i++)
            if (unlinkat(dirfd(d), all[i].name, 0) == 0)
                total -= (unsigned long long)all[i].size;
    }
    closedir(d);
    free(all);
}

void gl_program_cache_put(const char *key, const char *dir, int verbose)
{
    char path[4200], cachedir[4096], file[PATH_MAX + 300];
    if (entry_path(key, path, sizeof path) != 0 || gl_cache_dir(cachedir, sizeof cachedir) != 0)
        return;
    char *body = NULL;
    size_t bodylen = 0;
    FILE *m = open_memstream(&body, &bodylen);
    char *deps = NULL;
    size_t depslen = 0;
    FILE *dm = open_memstream(&deps, &depslen);
    deplist seen = {0};
    const char *why = NULL;
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!m || !dm || !d)
        why = "out of memory";
    while (!why && (e = readdir(d)) != NULL) {
        const size_t len = strlen(e->d_name);
        snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
        if (len > 2 && strcmp(e->d_name + len - 2, ".d") == 0 &&
            add_deps(file, dir, dm, &seen) != 0)
            why = "a file the compilers read cannot be read back";
    }
    if (d)
        closedir(d);
    if (dm && fclose(dm) != 0 && !why)
        why = "out of memory";
    const char *names[] = {"messages", "regs", "prog"}, *words[] = {"messages", "regs", "exe"};
    if (!why) {
        fprintf(m, "deps %zu\n", seen.n);
        fwrite(deps, 1, depslen, m);
    }
    for (int i = 0; i < 3 && !why; i++) {
        size_t len = 0;
        snprintf(file, sizeof file, "%s/%s", dir, names[i]);
        char *data = gl_read_file(file, &len, NULL);
        if (!data && i == 2)
            why = "the executable cannot be read (too large?)";
        fprintf(m, "%s %zu\n", words[i], data ? len : 0);
        if (data)
            fwrite(data, 1, len, m);
        free(data);
    }
    if (m && fclose(m) != 0 && !why)
        why = "out of memory";
    if (!why && bodylen > GL_READ_MAX_BYTES - 4096) /* what gl_program_cache_get reads */
        why = "the executable is too large";
    if (!why) {
        char sum[65];
        gl_cache_sha256 h;
        gl_cache_sha256_init(&h);
        gl_cache_sha256_update(&h, body, bodylen);
        gl_cache_sha256_hex(&h, sum);
        const size_t headlen = sizeof magic - 1 + 7 + 64 + 1;
        char *all = malloc(headlen + bodylen);
        gl_error err = {0};
        if (!all) {
            why = "out of memory";
        } else {
            snprintf(all, headlen + 1, "%ssha256 %s\n", magic, sum);
            memcpy(all + headlen, body, bodylen);
            gl_cache_jit_dir(file, sizeof file); /* creates the cache folder */
            if (gl_write_file_atomic(path, all, headlen + bodylen, &err) != GL_OK)
                why = "the cache folder cannot be written";
            free(all);
        }
    }
    if (why && verbose)
        fprintf(stderr, "gpulearn: the program's build is not cached: %s\n", why);
    for (size_t i = 0; i < seen.n; i++)
        free(seen.path[i]);
    free(seen.path);
    free(deps);
    free(body);
    if (!why)
        trim(cachedir);
}
