/* cache.c — the compiled-PTX cache (see cache.h) and the SHA-256 that keys it (nettle's). */
#include "runtime/cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/types.h>

/* ------------------------------------------------------------------ SHA-256 */

void gl_cache_sha256_init(gl_cache_sha256 *s)
{
    sha256_init(&s->ctx);
}

void gl_cache_sha256_update(gl_cache_sha256 *s, const void *data, size_t len)
{
    sha256_update(&s->ctx, len, data);
}

void gl_cache_sha256_field(gl_cache_sha256 *s, const char *name, const void *data, size_t len)
{
    char head[96];
    int n = snprintf(head, sizeof head, "%s:%zu:", name, len);
    gl_cache_sha256_update(s, head, (size_t)n < sizeof head ? (size_t)n : sizeof head - 1);
    if (len)
        gl_cache_sha256_update(s, data, len);
}

void gl_cache_sha256_hex(gl_cache_sha256 *s, char hex[65])
{
    static const char digit[] = "0123456789abcdef";
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(&s->ctx, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++) {
        hex[2 * i] = digit[d[i] >> 4];
        hex[2 * i + 1] = digit[d[i] & 15];
    }
    hex[64] = '\0';
}

/* ------------------------------------------------------------------ the cache */

static int cache_disabled(void)
{
    const char *e = getenv("GPULEARN_NO_CACHE");
    return e && *e && strcmp(e, "0") != 0;
}

/* The cache folder, $XDG_CACHE_HOME/gpulearn or $HOME/.cache/gpulearn (not created).
 * Returns 0, or -1 when neither variable is set, GPULEARN_NO_CACHE is set, or the path
 * does not fit. */
int gl_cache_dir(char *buf, size_t n)
{
    if (cache_disabled())
        return -1;
    const char *xdg = getenv("XDG_CACHE_HOME");
    int w;
    /* XDG Base Directory Specification: a relative $XDG_CACHE_HOME is invalid, ignore it. */
    if (xdg && xdg[0] == '/')
        w = snprintf(buf, n, "%s/gpulearn", xdg);
    else {
        const char *home = getenv("HOME");
        if (!home || !*home)
            return -1;
        w = snprintf(buf, n, "%s/.cache/gpulearn", home);
    }
    return w > 0 && (size_t)w < n ? 0 : -1;
}

void gl_cache_sha256_file_id(gl_cache_sha256 *h, const char *name, const char *path)
{
    struct stat st;
    char id[PATH_MAX + 128];
    if (stat(path, &st) != 0)
        memset(&st, 0, sizeof st);
    int n = snprintf(id, sizeof id, "%s %lld %lld.%09ld", path, (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
    gl_cache_sha256_field(h, name, id, (size_t)n < sizeof id ? (size_t)n : sizeof id - 1);
}

void gl_cache_entry_free(gl_cache_entry *e)
{
    if (!e)
        return;
    free(e->ptx);
    free(e->log);
    free(e->regs);
    e->ptx = e->log = e->regs = NULL;
}

static int valid_key(const char *key)
{
    size_t n = strlen(key);
    if (n != 64)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((key[i] >= '0' && key[i] <= '9') || (key[i] >= 'a' && key[i] <= 'f')))
            return 0;
    return 1;
}

/* Entry file format (text, one entry per file "<key>.ptx"):
 *   gpulearn-ptx-cache 3\n compiler NAME\n command TEXT\n regs_why TEXT\n sha256 HEX\n
 *   log N\n <N bytes> regs R\n <R bytes> ptx M\n <M bytes>
 * (HEX: entry_sum of the log, the register table, its regs_why and the PTX; R 0: no
 * table)
 * Reads "word value\n" at *p; returns the value (up to the newline) or NULL. */
static const char *field(const char **p, const char *end, const char *word, size_t *len)
{
    size_t wl = strlen(word);
    if ((size_t)(end - *p) < wl + 1 || memcmp(*p, word, wl) != 0 || (*p)[wl] != ' ')
        return NULL;
    const char *v = *p + wl + 1;
    const char *nl = memchr(v, '\n', (size_t)(end - v));
    if (!nl)
        return NULL;
    *len = (size_t)(nl - v);
    *p = nl + 1;
    return v;
}

/* A counted blob "word N\n<N bytes>": malloc'd NUL-terminated copy, or NULL. */
static char *blob(const char **p, const char *end, const char *word)
{
    size_t len;
    const char *v = field(p, end, word, &len);
    if (!v || len == 0 || len > 20)
        return NULL;
    char num[24];
    memcpy(num, v, len);
    num[len] = '\0';
    char *stop;
    errno = 0;
    unsigned long long n = strtoull(num, &stop, 10);
    if (errno || *stop || n > (unsigned long long)(end - *p))
        return NULL;
    char *out = malloc((size_t)n + 1);
    if (!out)
        return NULL;
    memcpy(out, *p, (size_t)n);
    out[n] = '\0';
    *p += n;
    return out;
}

/* The SHA-256 of an entry's log, register table and PTX, as stored in its "sha256"
 * line. */
static void entry_sum(const gl_cache_entry *e, const char *ptx, char hex[65])
{
    gl_cache_sha256 h;
    gl_cache_sha256_init(&h);
    const char *log = e->log, *regs = e->regs;
    gl_cache_sha256_field(&h, "log", log ? log : "", log ? strlen(log) : 0);
    gl_cache_sha256_field(&h, "regs", regs ? regs : "", regs ? strlen(regs) : 0);
    gl_cache_sha256_field(&h, "regs_why", e->regs_why, strlen(e->regs_why));
    gl_cache_sha256_field(&h, "ptx", ptx, strlen(ptx));
    gl_cache_sha256_hex(&h, hex);
}

int gl_cache_get(const char *key, gl_cache_entry *e)
{
    memset(e, 0, sizeof *e);
    char dir[4096], path[4200];
    if (!valid_key(key) || gl_cache_dir(dir, sizeof dir) != 0)
        return 0;
    snprintf(path, sizeof path, "%s/%s.ptx", dir, key);
    gl_error ignored;
    size_t n = 0;
    char *text = gl_read_file(path, &n, &ignored);
    if (!text)
        return 0;
    const char *p = text, *end = text + n;
    static const char magic[] = "gpulearn-ptx-cache 3\n";
    size_t len;
    const char *v;
    int ok = 0;
    char sum[65] = "";
    int outdated = 0; /* another version's entry: removed without a warning */
    if (n < sizeof magic - 1 || memcmp(p, magic, sizeof magic - 1) != 0) {
        outdated = n >= 19 && memcmp(p, magic, 19) == 0;
        goto out;
    }
    p += sizeof magic - 1;
    if (!(v = field(&p, end, "compiler", &len)) || len == 0 || len >= sizeof e->compiler)
        goto out;
    memcpy(e->compiler, v, len);
    if (!(v = field(&p, end, "command", &len)) || len >= sizeof e->command)
        goto out;
    memcpy(e->command, v, len);
    if (!(v = field(&p, end, "regs_why", &len)) || len >= sizeof e->regs_why)
        goto out;
    memcpy(e->regs_why, v, len);
    if (!(v = field(&p, end, "sha256", &len)) || len != 64)
        goto out;
    memcpy(sum, v, 64);
    if (strncmp(p, "log 0\n", 6) == 0)
        p += 6;
    else if (!(e->log = blob(&p, end, "log")))
        goto out;
    if (strncmp(p, "regs 0\n", 7) == 0)
        p += 7;
    else if (!(e->regs = blob(&p, end, "regs")))
        goto out;
    if (!(e->ptx = blob(&p, end, "ptx")) || p != end)
        goto out;
    char got[65];
    entry_sum(e, e->ptx, got);
    ok = strcmp(got, sum) == 0;
out:
    free(text);
    if (!ok) {
        /* damaged (a bad disk, a hand edit, an older format): removed, so that the next
         * compilation replaces it */
        gl_cache_entry_free(e);
        memset(e, 0, sizeof *e);
        if (unlink(path) == 0 && !outdated)
            snprintf(e->evicted, sizeof e->evicted, "%s", path);
    }
    return ok;
}

/* mkdir -p for the cache folder (0700: the learner's compiled code is theirs). */
static int make_dirs(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *s = tmp + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(tmp, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

gl_status gl_cache_put(const char *key, const gl_cache_entry *e, gl_error *err)
{
    char dir[4096], path[4200];
    if (!valid_key(key))
        return gl_fail(err, GL_ERR_INPUT, "cache: bad key");
    if (gl_cache_dir(dir, sizeof dir) != 0)
        return gl_fail(err, GL_ERR_INPUT, "cache: off (GPULEARN_NO_CACHE) or no $HOME");
    if (strchr(e->compiler, '\n') || strchr(e->command, '\n') || strchr(e->regs_why, '\n') ||
        !e->ptx)
        return gl_fail(err, GL_ERR_INPUT, "cache: entry not storable");
    if (make_dirs(dir) != 0)
        return gl_fail(err, GL_ERR_INPUT, "cache: %s: %s", dir, strerror(errno));
    char *data = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&data, &len);
    if (!m)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    size_t loglen = e->log ? strlen(e->log) : 0, ptxlen = strlen(e->ptx),
           regslen = e->regs ? strlen(e->regs) : 0;
    char sum[65];
    entry_sum(e, e->ptx, sum);
    fprintf(m, "gpulearn-ptx-cache 3\ncompiler %s\ncommand %s\nregs_why %s\nsha256 %s\nlog %zu\n",
            e->compiler, e->command, e->regs_why, sum, loglen);
    fwrite(e->log ? e->log : "", 1, loglen, m);
    fprintf(m, "regs %zu\n", regslen);
    fwrite(e->regs ? e->regs : "", 1, regslen, m);
    fprintf(m, "ptx %zu\n", ptxlen);
    fwrite(e->ptx, 1, ptxlen, m);
    if (fclose(m) != 0) {
        free(data);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    snprintf(path, sizeof path, "%s/%s.ptx", dir, key);
    gl_status st = gl_write_file_atomic(path, data, len, err);
    free(data);
    return st;
}

int gl_cache_jit_dir(char *buf, size_t n)
{
    char dir[4096];
    if (gl_cache_dir(dir, sizeof dir) != 0 || make_dirs(dir) != 0)
        return -1;
    const int w = snprintf(buf, n, "%s/jit", dir);
    return w > 0 && (size_t)w < n ? 0 : -1;
}
