/* cache.c — the compiled-PTX cache (see cache.h) and the SHA-256 that keys it. */
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

/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* FIPS 180-4 §6.2.2: one 512-bit block. */
static void sha_block(gl_sha256 *s, const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4], f = s->h[5],
             g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 =
            h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
    s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

void gl_sha256_init(gl_sha256 *s)
{
    static const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memset(s, 0, sizeof *s);
    memcpy(s->h, H0, sizeof H0);
}

void gl_sha256_update(gl_sha256 *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    s->bytes += len;
    while (len > 0) {
        size_t take = 64 - s->used < len ? 64 - s->used : len;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        len -= take;
        if (s->used == 64) {
            sha_block(s, s->block);
            s->used = 0;
        }
    }
}

void gl_sha256_field(gl_sha256 *s, const char *name, const void *data, size_t len)
{
    char head[96];
    int n = snprintf(head, sizeof head, "%s:%zu:", name, len);
    gl_sha256_update(s, head, (size_t)n < sizeof head ? (size_t)n : sizeof head - 1);
    if (len)
        gl_sha256_update(s, data, len);
}

void gl_sha256_hex(gl_sha256 *s, char hex[65])
{
    uint64_t bits = s->bytes * 8;
    unsigned char pad[72] = {0x80};
    size_t padlen = (s->used < 56 ? 56 : 120) - s->used;
    for (int i = 0; i < 8; i++)
        pad[padlen + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
    gl_sha256_update(s, pad, padlen + 8);
    for (int i = 0; i < 8; i++)
        snprintf(hex + 8 * i, 9, "%08x", s->h[i]);
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

void gl_sha256_file_id(gl_sha256 *h, const char *name, const char *path)
{
    struct stat st;
    char id[PATH_MAX + 128];
    if (stat(path, &st) != 0)
        memset(&st, 0, sizeof st);
    int n = snprintf(id, sizeof id, "%s %lld %lld.%09ld", path, (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
    gl_sha256_field(h, name, id, (size_t)n < sizeof id ? (size_t)n : sizeof id - 1);
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
    gl_sha256 h;
    gl_sha256_init(&h);
    const char *log = e->log, *regs = e->regs;
    gl_sha256_field(&h, "log", log ? log : "", log ? strlen(log) : 0);
    gl_sha256_field(&h, "regs", regs ? regs : "", regs ? strlen(regs) : 0);
    gl_sha256_field(&h, "regs_why", e->regs_why, strlen(e->regs_why));
    gl_sha256_field(&h, "ptx", ptx, strlen(ptx));
    gl_sha256_hex(&h, hex);
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
