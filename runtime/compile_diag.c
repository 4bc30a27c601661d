/* compile_diag.c — what the compilers print, made one form: their diagnostics rewritten
 * as "path:line:col: severity: message" with the path as the caller gave it, and parsed
 * once into gl_diag records; the PTX's .file names and .loc lines fixed to name the
 * learner's file. */
#include "runtime/compile_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ growable string */

void cc_sb_putn(strbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void cc_sb_puts(strbuf *b, const char *s)
{
    cc_sb_putn(b, s, strlen(s));
}

/* The built string (caller frees; "" when nothing was put), or NULL when out of memory. */
char *cc_sb_take(strbuf *b)
{
    if (!b->s && !b->oom)
        cc_sb_puts(b, "");
    if (b->oom) {
        free(b->s);
        b->s = NULL;
    }
    return b->s;
}

void cc_sb_printf(strbuf *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        cc_sb_putn(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* ------------------------------------------------------------------ file names */

/* Whether the name a compiler printed (`name`, maybe absolute) is the caller's `path`. */
static int same_file(const char *name, const char *path)
{
    if (strcmp(name, path) == 0)
        return 1;
    struct stat a, b;
    return stat(name, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/* s with every `from` replaced by `to` (malloc'd; NULL when s is NULL or memory ran out). */
static char *replace_all(const char *s, const char *from, const char *to)
{
    if (!s)
        return NULL;
    strbuf b = {0};
    const size_t n = strlen(from);
    for (const char *hit; n && (hit = strstr(s, from)); s = hit + n)
        cc_sb_printf(&b, "%.*s%s", (int)(hit - s), s, to);
    cc_sb_puts(&b, s);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s ? b.s : strdup("");
}

void cc_rename_source(const char *copy, const char *as, gl_compiled *c, gl_error *e)
{
    /* the copy's name as messages may print it: whole, or relative to the current
     * folder (gl_display_path) */
    const char *forms[2] = {copy, gl_display_path(copy)};
    for (int f = 0; f < (forms[1] != forms[0] ? 2 : 1); f++) {
        char *msg = replace_all(e->msg, forms[f], as), *log = replace_all(c->log, forms[f], as),
             *cmd = replace_all(c->command, forms[f], as);
        if (msg)
            snprintf(e->msg, sizeof e->msg, "%s", msg);
        if (cmd)
            snprintf(c->command, sizeof c->command, "%s", cmd);
        if (log) {
            free(c->log);
            c->log = log;
        }
        free(msg), free(cmd);
    }
    for (int i = 0; i < c->ndiags; i++)
        if (strcmp(c->diags[i].file, copy) == 0 ||
            strcmp(c->diags[i].file, gl_display_path(copy)) == 0)
            snprintf(c->diags[i].file, sizeof c->diags[i].file, "%s", as);
    char *ptx = c->ptx ? cc_ptx_fix_file_names(c->ptx, copy, as) : NULL;
    if (ptx) {
        free(c->ptx);
        c->ptx = ptx;
    }
}

/* Rewrites every `.file N "name"` of the PTX that names the learner's file `path` (the
 * same file, by any name) to `as`, so that line info (and simulator faults) say
 * "kernel.cu:5", not a temporary, absolute or sandbox copy's name. PTX ISA §11.1.3
 * (.file). Returns a new string (caller frees) or NULL (no memory). */
char *cc_ptx_fix_file_names(const char *ptx, const char *path, const char *as)
{
    strbuf b = {0};
    const char *p = ptx;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);
        const char *q = p;
        while (q < p + n && (*q == ' ' || *q == '\t'))
            q++;
        const char *open = NULL, *close = NULL;
        if (strncmp(q, ".file", 5) == 0 && (q[5] == ' ' || q[5] == '\t')) {
            open = memchr(q, '"', n - (size_t)(q - p));
            if (open)
                close = memchr(open + 1, '"', n - (size_t)(open + 1 - p));
        }
        if (open && close) {
            char name[PATH_MAX];
            size_t len = (size_t)(close - open - 1);
            if (len < sizeof name) {
                memcpy(name, open + 1, len);
                name[len] = '\0';
            }
            if (len < sizeof name && same_file(name, path)) {
                cc_sb_putn(&b, p, (size_t)(open + 1 - p));
                for (const char *c = as; *c; c++) {
                    if (*c == '"' || *c == '\\')
                        cc_sb_putn(&b, "\\", 1);
                    cc_sb_putn(&b, c, 1);
                }
                cc_sb_putn(&b, close, n - (size_t)(close - p));
                p += n;
                continue;
            }
        }
        cc_sb_putn(&b, p, n);
        p += n;
    }
    return cc_sb_take(&b);
}

/* Whether `.file` name `name` is a toolchain header: gpulearn's prelude, or a file in an
 * include directory (the CUDA Toolkit's, clang's). */
static int toolchain_header(const char *name)
{
    const char *slash = strrchr(name, '/');
    return strcmp(slash ? slash + 1 : name, PRELUDE_NAME) == 0 || strstr(name, "/include/");
}

/* Reads a decimal number at *s (after blanks), advancing *s. Returns -1 when none. */
static long read_num(const char **s, const char *end)
{
    while (*s < end && (**s == ' ' || **s == '\t'))
        (*s)++;
    if (*s >= end || **s < '0' || **s > '9')
        return -1;
    long v = 0;
    while (*s < end && **s >= '0' && **s <= '9' && v < 100000000)
        v = v * 10 + (*(*s)++ - '0');
    return v;
}

/* The text after directive `name` (".file", ".loc") when the line [p, end) starts with
 * it (after blanks) followed by a blank, else NULL; *at gets the directive's start. */
static const char *directive(const char *p, const char *end, const char *name, const char **at)
{
    const size_t n = strlen(name);
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    *at = p;
    if ((size_t)(end - p) <= n || strncmp(p, name, n) != 0 || (p[n] != ' ' && p[n] != '\t'))
        return NULL;
    return p + n;
}

/* The next `.loc F L C` from p on, within the function (up to a line that starts with
 * '}'), whose file is not a toolchain header (header[F] == 0) and whose line is not 0:
 * sets *f, *l and *c, else leaves them. */
static void next_user_loc(const char *p, const unsigned char *header, long nf, long *f, long *l,
                          long *c)
{
    while (*p && *p != '}') {
        const char *eol = strchr(p, '\n');
        const char *end = eol ? eol : p + strlen(p), *at;
        const char *q = directive(p, end, ".loc", &at);
        if (q) {
            const long f2 = read_num(&q, end), l2 = read_num(&q, end), c2 = read_num(&q, end);
            if (f2 > 0 && f2 < nf && !header[f2] && l2 > 0) {
                *f = f2, *l = l2, *c = c2;
                return;
            }
        }
        p = eol ? eol + 1 : end;
    }
}

/* A source location F L C of a `.loc` packed in 64 bits (file 8 bits, line and column
 * 28 bits each); 0 is no location. */
static uint64_t loc_key(long f, long l, long c)
{
    return (uint64_t)f << 56 | (uint64_t)(l & 0xfffffff) << 28 | (uint64_t)(c & 0xfffffff);
}

/* Where each location a `.loc` used resolved to (the learner's location, or 0 for none),
 * the latest use of a location winning: what an `inlined_at` naming it means, as ptxas
 * reads it ("must be used in a preceding .loc directive"). Open addressing. */
typedef struct loc_map {
    uint64_t *keys, *vals; /* keys 0: an empty slot */
    size_t cap, n;         /* cap a power of two, n < cap / 2 */
    int oom;
} loc_map;

static uint64_t *loc_slot(uint64_t *keys, size_t cap, uint64_t k)
{
    size_t i = (size_t)((k * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
    while (keys[i] && keys[i] != k)
        i = (i + 1) & (cap - 1);
    return &keys[i];
}

static void loc_put(loc_map *m, uint64_t k, uint64_t v)
{
    if (!k || m->oom)
        return;
    if (2 * (m->n + 1) > m->cap) {
        const size_t cap = m->cap ? 2 * m->cap : 256;
        uint64_t *keys = calloc(cap, sizeof *keys), *vals = calloc(cap, sizeof *vals);
        if (!keys || !vals) {
            free(keys), free(vals);
            m->oom = 1;
            return;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                uint64_t *s = loc_slot(keys, cap, m->keys[i]);
                *s = m->keys[i];
                vals[s - keys] = m->vals[i];
            }
        free(m->keys), free(m->vals);
        m->keys = keys, m->vals = vals, m->cap = cap;
    }
    uint64_t *s = loc_slot(m->keys, m->cap, k);
    m->n += !*s;
    *s = k;
    m->vals[s - m->keys] = v;
}

static uint64_t loc_get(const loc_map *m, uint64_t k)
{
    if (!m->cap)
        return 0;
    const uint64_t *s = loc_slot(m->keys, m->cap, k);
    return *s ? m->vals[s - m->keys] : 0;
}

/* The `inlined_at F L C` operands of the .loc whose text after the file index starts at
 * r (up to end): 1 with *f, *l, *c set, else 0. */
static int inlined_at(const char *r, const char *end, long *f, long *l, long *c)
{
    for (const char *x = r; x + 10 <= end; x++)
        if (memcmp(x, "inlined_at", 10) == 0) {
            const char *at = x + 10;
            *f = read_num(&at, end), *l = read_num(&at, end), *c = read_num(&at, end);
            return *f > 0 && *l >= 0;
        }
    return 0;
}

/* Appends the line `\t.loc F L C<rest>` for packed location k. */
static void put_loc(strbuf *b, uint64_t k, const char *rest)
{
    cc_sb_printf(b, "\t.loc\t%ld %ld %ld%s\n", (long)(k >> 56), (long)(k >> 28 & 0xfffffff),
                 (long)(k & 0xfffffff), rest);
}

/* Whether the line [p, end) is the comment `marker` NVVM and LLVM write around an inline
 * asm statement's instructions ("// begin inline asm", "// end inline asm"). */
static int asm_marker(const char *p, const char *end, const char *marker)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const size_t n = strlen(marker);
    return (size_t)(end - p) >= n && memcmp(p, marker, n) == 0;
}

/* Line info of code inlined from toolchain headers, given to the learner's line that
 * used it, as NVRTC gives it: a `.loc` in such a header (PTX ISA §11.1.4 .loc) becomes
 * the innermost frame of its `inlined_at` chain that lies outside the toolchain's headers
 * (nvcc's atomicAdd, __shfl_sync; CUB's and libcu++'s functions nested many levels deep,
 * whose `inlined_at` names another header location: the location a preceding `.loc` used
 * resolved to); without one (clang, whose NVPTX back end writes none: its threadIdx and
 * blockIdx reads), the next location in the learner's code, the statement the value is
 * for; with neither, a comment. A `.loc` of the learner's code inlined into a header's (a
 * functor CUB calls) keeps its own line and loses its inlined_at, which names a location
 * rewritten away. The instructions of an inline asm statement in a function of the
 * learner's that was inlined (a cp.async or mbarrier wrapper) count on the line that
 * called that function: NVVM writes no `.loc` for an asm statement, so its instructions
 * would keep the line of whichever operand was computed last. Lines keep their numbers
 * (PTX lines in messages). Returns a new string (caller frees) or NULL (no memory). */
char *cc_ptx_fix_locs(const char *ptx, const char *path)
{
    enum { NF = 256 };
    unsigned char header[NF] = {0}; /* .file index -> a toolchain header */
    for (const char *p = ptx; *p;) {
        const char *eol = strchr(p, '\n');
        const char *end = eol ? eol : p + strlen(p), *at;
        const char *q = directive(p, end, ".file", &at);
        if (q) {
            const long idx = read_num(&q, end);
            const char *open = memchr(q, '"', (size_t)(end - q));
            const char *close = open ? memchr(open + 1, '"', (size_t)(end - open - 1)) : NULL;
            char name[PATH_MAX];
            const size_t len = close ? (size_t)(close - open - 1) : 0;
            if (idx > 0 && idx < NF && close && len < sizeof name) {
                memcpy(name, open + 1, len);
                name[len] = '\0';
                if (strcmp(name, path) != 0 && toolchain_header(name))
                    header[idx] = 1;
            }
        }
        p = eol ? eol + 1 : end;
    }
    strbuf b = {0};
    loc_map map = {0};
    /* the learner's location the instructions are on now, and the call of the inlined
     * function of the learner's that they belong to (0: none) */
    uint64_t cur = 0, call = 0;
    int in_asm = 0; /* inside an asm statement moved to `call` */
    for (const char *p = ptx; *p;) {
        const char *eol = strchr(p, '\n');
        const char *end = eol ? eol + 1 : p + strlen(p), *q;
        const char *r = directive(p, end, ".loc", &q);
        const long f = r ? read_num(&r, end) : -1;
        const char *ops = r; /* after the file index */
        const long l = r ? read_num(&r, end) : -1, c = r ? read_num(&r, end) : -1;
        long f2 = -1, l2 = -1, c2 = -1;
        const int has_at = f > 0 && inlined_at(ops, end, &f2, &l2, &c2);
        const int user_at = has_at && f2 < NF && !header[f2];
        if (f > 0 && f < NF && header[f]) {
            /* a header's line: the learner's frame it is inlined into */
            uint64_t to = 0;
            if (has_at && f2 > 0 && f2 < NF)
                to = user_at ? (l2 > 0 ? loc_key(f2, l2, c2 > 0 ? c2 : 0) : 0)
                             : loc_get(&map, loc_key(f2, l2, c2));
            if (!has_at) {
                long uf = -1, ul = -1, uc = -1;
                next_user_loc(end, header, NF, &uf, &ul, &uc);
                if (uf > 0 && ul > 0)
                    to = loc_key(uf, ul, uc > 0 ? uc : 0);
            }
            loc_put(&map, loc_key(f, l, c), to);
            const int nl = end[-1] == '\n';
            if (to) {
                put_loc(&b, to, "");
                cur = to, call = 0;
            } else {
                cc_sb_puts(&b, "\t// ");
                cc_sb_putn(&b, q, (size_t)(end - q) - (size_t)nl);
                cc_sb_puts(&b, "\n");
            }
        } else if (f > 0 && f < NF) {
            /* the learner's line; inlined into a function of the learner's, or into a
             * header's (a functor CUB calls: its inlined_at names a header location
             * rewritten above, which ptxas rejects, "must be used in a preceding .loc
             * directive", so it goes) */
            if (l > 0) {
                cur = loc_key(f, l, c > 0 ? c : 0);
                loc_put(&map, loc_key(f, l, c), cur);
                call = user_at && l2 > 0 ? loc_key(f2, l2, c2 > 0 ? c2 : 0) : 0;
            }
            if (has_at && !user_at)
                cc_sb_printf(&b, "\t.loc\t%ld %ld %ld\n", f, l, c > 0 ? c : 0);
            else
                cc_sb_putn(&b, p, (size_t)(end - p));
        } else if (!in_asm && call && asm_marker(p, end, "// begin inline asm")) {
            put_loc(&b, call, "\t// begin inline asm");
            in_asm = 1;
        } else if (in_asm && asm_marker(p, end, "// end inline asm")) {
            put_loc(&b, cur, "\t// end inline asm");
            in_asm = 0;
        } else {
            if (*p == '}' && !in_asm) /* a function's end */
                cur = call = 0;
            cc_sb_putn(&b, p, (size_t)(end - p));
        }
        p = end;
    }
    free(map.keys), free(map.vals);
    if (map.oom) {
        free(b.s);
        return NULL;
    }
    return cc_sb_take(&b);
}

/* ------------------------------------------------------------------ diagnostics */

/* Whether `s` (up to n bytes) is a caret line: blanks and one '^'. Returns the '^' index
 * or -1. */
static int caret_index(const char *s, size_t n)
{
    int at = -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '^' && at < 0)
            at = (int)i;
        else if (s[i] != ' ' && s[i] != '\t' && s[i] != '~' && s[i] != '\r')
            return -1;
    }
    return at;
}

/* Whether the n bytes at s contain the string w. */
static int mem_has(const char *s, size_t n, const char *w)
{
    size_t wl = strlen(w);
    for (size_t i = 0; i + wl <= n; i++)
        if (memcmp(s + i, w, wl) == 0)
            return 1;
    return 0;
}

/* One line of a compiler's output, split from the log. */
typedef struct line {
    const char *s;
    size_t n;
} line;

/* Parses a diagnostic header. nvcc/NVRTC: "file(12): error: msg" (no column; the
 * caret line two lines below gives it); clang: "file:12:5: error: msg". Fills file (as a
 * pointer and length), line, col (0 if unknown) and rest (the text after "N: " / "): ").
 * Returns 1 if the line is a header. */
static int diag_header(const line *l, const char **file, size_t *file_len, long *lineno, long *col,
                       const char **rest)
{
    const char *s = l->s, *end = l->s + l->n;
    for (const char *p = s; p < end; p++) {
        if (*p == '(' && p > s) { /* nvcc: file(12): */
            const char *d = p + 1;
            long v = 0;
            while (d < end && *d >= '0' && *d <= '9')
                v = v * 10 + (*d++ - '0');
            if (d > p + 1 && d + 2 < end && d[0] == ')' && d[1] == ':' && d[2] == ' ') {
                *file = s;
                *file_len = (size_t)(p - s);
                *lineno = v;
                *col = 0;
                *rest = d + 3;
                return 1;
            }
        }
        if (*p == ':' && p > s) { /* clang: file:12:5: */
            const char *d = p + 1;
            long v = 0, c = 0;
            while (d < end && *d >= '0' && *d <= '9')
                v = v * 10 + (*d++ - '0');
            if (d == p + 1 || d >= end || *d != ':')
                continue;
            const char *e = ++d;
            while (e < end && *e >= '0' && *e <= '9')
                c = c * 10 + (*e++ - '0');
            if (e > d && e + 1 < end && e[0] == ':' && e[1] == ' ') {
                *file = s;
                *file_len = (size_t)(p - s);
                *lineno = v;
                *col = c;
                *rest = e + 2;
                return 1;
            }
        }
    }
    return 0;
}

/* A growing array of parsed diagnostics (gl_compiled.diags). */
typedef struct diag_list {
    gl_diag *d;
    int n, cap;
    int oom;
} diag_list;

/* Appends one diagnostic: file (flen bytes), lineno, col, the severity word (sevlen bytes
 * at sev: "error", "fatal error", "catastrophic error", "warning", "remark", "note"),
 * the message (mlen bytes at msg, leading blanks skipped) and nvcc's number ("#20-D",
 * hlen bytes at hash, or NULL), appended as " [#20-D]". */
static void diag_add(diag_list *l, const char *file, size_t flen, long lineno, long col,
                     const char *sev, size_t sevlen, const char *msg, size_t mlen, const char *hash,
                     size_t hlen)
{
    if (!l || l->oom)
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        gl_diag *d = realloc(l->d, (size_t)cap * sizeof *d);
        if (!d) {
            l->oom = 1;
            return;
        }
        l->d = d;
        l->cap = cap;
    }
    gl_diag *g = &l->d[l->n++];
    memset(g, 0, sizeof *g);
    snprintf(g->file, sizeof g->file, "%.*s", (int)flen, file);
    g->line = (int)lineno;
    g->col = col > 0 ? (int)col : 1;
    g->severity = mem_has(sev, sevlen, "error") || mem_has(sev, sevlen, "fatal") ? GL_DIAG_ERROR
                  : sevlen >= 4 && memcmp(sev, "note", 4) == 0                   ? GL_DIAG_NOTE
                                                                                 : GL_DIAG_WARNING;
    while (mlen > 0 && *msg == ' ')
        msg++, mlen--;
    snprintf(g->text, sizeof g->text, "%.*s%s%.*s%s", (int)mlen, msg, hash ? " [" : "",
             hash ? (int)hlen : 0, hash ? hash : "", hash ? "]" : "");
}

/* A warning the learner's code did not cause: libcu++'s <cuda/std/cmath> defines INFINITY
 * and NAN for NVRTC (as numeric_limits calls) over the prelude's math.h, which NVRTC
 * includes first (--pre-include), with the same values. */
static int prelude_artefact(const line *l)
{
    return mem_has(l->s, l->n, "nvrtc/math.h") &&
           (mem_has(l->s, l->n, "redefinition of macro \"INFINITY\"") ||
            mem_has(l->s, l->n, "redefinition of macro \"NAN\""));
}

/* Rewrites a compiler's log into "path:line:col: severity: message" diagnostics, each
 * followed by its context lines (source line, caret, notes). Errors go to errs, warnings
 * and remarks to warns. Summary lines ("2 errors generated") are dropped. Every
 * diagnostic with a place is also parsed into diags (may be NULL), in the log's order,
 * with the same file name, line, column and severity as the text. */
static void diag_rewrite(const char *log, const char *path, strbuf *errs, strbuf *warns,
                         diag_list *diags)
{
    if (!log)
        return;
    size_t nlines = 0, cap = 64;
    line *lines = malloc(cap * sizeof *lines);
    if (!lines) {
        errs->oom = 1;
        return;
    }
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        if (nlines == cap) {
            line *nl = realloc(lines, 2 * cap * sizeof *lines);
            if (!nl) {
                free(lines);
                errs->oom = 1;
                return;
            }
            lines = nl;
            cap *= 2;
        }
        lines[nlines++] = (line){p, n};
        p += eol ? n + 1 : n;
    }

    strbuf *cur = NULL;   /* bucket of the current diagnostic */
    strbuf pending = {0}; /* "In file included from" lines, for the next diagnostic */
    strbuf dropped = {0}; /* the prelude's own diagnostics (prelude_artefact) */
    for (size_t i = 0; i < nlines; i++) {
        const line *l = &lines[i];
        const char *file, *rest;
        size_t flen;
        long ln, col;
        if (l->n == 0 || strncmp(l->s, "Remark: The warnings can be suppressed", 38) == 0)
            continue;
        if (mem_has(l->s, l->n, " detected in the compilation of") ||
            (l->n > 10 && memcmp(l->s + l->n - 10, "generated.", 10) == 0) ||
            mem_has(l->s, l->n, " generated when compiling for "))
            continue;
        if (strncmp(l->s, "In file included from ", 22) == 0) {
            cc_sb_putn(&pending, l->s, l->n);
            cc_sb_puts(&pending, "\n");
            continue;
        }
        if (diag_header(l, &file, &flen, &ln, &col, &rest)) {
            const char *end = l->s + l->n;
            const char *colon = memchr(rest, ':', (size_t)(end - rest));
            size_t sevlen = colon ? (size_t)(colon - rest) : 0;
            int is_note = sevlen >= 4 && memcmp(rest, "note", 4) == 0;
            int is_error =
                colon && (mem_has(rest, sevlen, "error") || mem_has(rest, sevlen, "fatal"));
            if (!is_error && prelude_artefact(l)) {
                cur = &dropped; /* with its context lines */
                pending.len = 0;
                continue;
            }
            if (!is_note || !cur)
                cur = is_error ? errs : warns;
            if (col == 0 && i + 2 < nlines) { /* nvcc: "  source" then "  ^" */
                int at = caret_index(lines[i + 2].s, lines[i + 2].n);
                if (at >= 2)
                    col = at - 1;
            }
            cc_sb_putn(cur, pending.s ? pending.s : "", pending.len);
            pending.len = 0;
            char name[PATH_MAX];
            int ours = 0;
            if (flen < sizeof name) {
                memcpy(name, file, flen);
                name[flen] = '\0';
                ours = same_file(name, path);
            }
            if (ours)
                cc_sb_puts(cur, path);
            else
                cc_sb_putn(cur, file, flen);
            cc_sb_printf(cur, ":%ld:%ld: ", ln, col ? col : 1);
            if (colon && sevlen > 0) {
                const char *h = memchr(rest, '#', sevlen);
                size_t w = h ? (size_t)(h - rest) : sevlen;
                while (w > 0 && rest[w - 1] == ' ')
                    w--;
                diag_add(diags, ours ? path : file, ours ? strlen(path) : flen, ln, col, rest, w,
                         colon + 1, (size_t)(end - colon - 1), h,
                         h ? sevlen - (size_t)(h - rest) : 0);
            }
            if (colon && sevlen > 0) {
                /* "warning #177-D: msg" -> "warning: msg [#177-D]";
                 * "catastrophic error: msg" -> "fatal error: msg" */
                const char *hash = memchr(rest, '#', sevlen);
                size_t word = hash ? (size_t)(hash - rest) : sevlen;
                while (word > 0 && rest[word - 1] == ' ')
                    word--;
                if (word == 18 && memcmp(rest, "catastrophic error", 18) == 0)
                    cc_sb_puts(cur, "fatal error");
                else
                    cc_sb_putn(cur, rest, word);
                cc_sb_puts(cur, ":");
                const char *msg = colon + 1;
                cc_sb_putn(cur, msg, (size_t)(end - msg));
                if (hash) {
                    cc_sb_puts(cur, " [");
                    cc_sb_putn(cur, hash, sevlen - (size_t)(hash - rest));
                    cc_sb_puts(cur, "]");
                }
            } else {
                cc_sb_putn(cur, rest, (size_t)(end - rest));
            }
            cc_sb_puts(cur, "\n");
            continue;
        }
        /* Not a header: context of the current diagnostic, or a driver message such as
         * "nvcc fatal   : ..." / "clang: error: ..." (an error without a place). */
        int driver_error = mem_has(l->s, l->n, "error") || mem_has(l->s, l->n, "fatal");
        if (!cur || (driver_error && l->s[0] != ' '))
            cur = driver_error ? errs : warns;
        cc_sb_putn(cur, l->s, l->n);
        cc_sb_puts(cur, "\n");
    }
    free(pending.s);
    free(dropped.s);
    free(lines);
}

/* Moves a parsed list into out->diags (none when memory ran out). */
static void keep_diags(diag_list *l, gl_compiled *out)
{
    free(out->diags);
    out->diags = l->oom ? NULL : l->d;
    out->ndiags = l->oom ? 0 : l->n;
    if (l->oom)
        free(l->d);
    memset(l, 0, sizeof *l);
}

/* Sets err to GL_ERR_COMPILE with the errors of `log` (or the whole log when no line
 * parsed as an error), cut at a line boundary to fit err->msg. Warnings go to out->log
 * (malloc'd, may stay NULL), every diagnostic to out->diags. */
gl_status cc_compile_failed(const char *log, const char *path, const char *tool, gl_compiled *out,
                            gl_error *err)
{
    strbuf errs = {0}, warns = {0};
    diag_list diags = {0};
    diag_rewrite(log, path, &errs, &warns, &diags);
    keep_diags(&diags, out);
    char **warn_log = &out->log;
    if (warns.len && !warns.oom) {
        free(*warn_log);
        *warn_log = warns.s;
        warns.s = NULL;
    }
    free(warns.s);
    const char *text = errs.len && !errs.oom ? errs.s : (log && *log ? log : NULL);
    if (!text) {
        free(errs.s);
        return gl_fail(err, GL_ERR_COMPILE, "%s: %s failed without a message", path, tool);
    }
    size_t len = strlen(text);
    const size_t room = sizeof err->msg - 64;
    if (len > room) {
        len = room;
        while (len > 0 && text[len - 1] != '\n')
            len--;
    }
    while (len > 0 && text[len - 1] == '\n')
        len--;
    gl_fail(err, GL_ERR_COMPILE, "%.*s%s", (int)len, text,
            len < strlen(text) && strlen(text) - len > 1 ? "\n(more errors not shown)" : "");
    free(errs.s);
    return GL_ERR_COMPILE;
}

/* Rewrites a successful compilation's log into out->log (NULL when empty) and its
 * diagnostics into out->diags. */
void cc_keep_warnings(const char *log, const char *path, gl_compiled *out)
{
    if (!log || !*log)
        return;
    strbuf errs = {0}, warns = {0};
    diag_list diags = {0};
    diag_rewrite(log, path, &errs, &warns, &diags);
    keep_diags(&diags, out);
    if (errs.len)
        cc_sb_putn(&warns, errs.s, errs.len);
    free(errs.s);
    if (warns.oom || !warns.len) {
        free(warns.s);
        return;
    }
    out->log = warns.s;
}

/* See compile_internal.h. */
void cc_explain_library(gl_error *err, const char *path, int clang)
{
    if (!err)
        return;
    const char *m = err->msg;
    char head[600];
    if (!clang && ((strstr(m, "is not allowed in JIT mode") &&
                    (strstr(m, "/cub/") || strstr(m, "/thrust/"))) ||
                   strstr(m, "namespace \"cub\" has no member \"Device") ||
                   (strstr(m, "must be a class or namespace name") && strstr(m, "cub::Device")))) {
        snprintf(head, sizeof head,
                 "%s: CUB's device-wide algorithms (cub/device/..., cub::DeviceReduce and the "
                 "rest) and Thrust are host code that launches kernels, which NVRTC does not "
                 "compile: NVRTC takes CUB's block-, warp- and thread-level primitives "
                 "(<cub/cub.cuh>, or their own headers such as <cub/block/block_reduce.cuh>)\n",
                 gl_display_path(path));
    } else if (clang && strstr(m, "file not found") &&
               (strstr(m, "'cub/") || strstr(m, "'cuda/") || strstr(m, "'thrust/") ||
                strstr(m, "'nv/"))) {
        snprintf(head, sizeof head,
                 "%s: CUB and libcu++ (<cub/...>, <cuda/...>) are not available with clang: "
                 "they come with the CUDA Toolkit (include/cccl) and need its CUDA headers, "
                 "while gpulearn's clang compiles against its own prelude; NVRTC and nvcc "
                 "compile them\n",
                 gl_display_path(path));
    } else {
        return;
    }
    char msg[sizeof err->msg];
    size_t hl = strlen(head), ml = strlen(m);
    if (hl + ml >= sizeof msg)
        ml = sizeof msg - 1 - hl;
    memcpy(msg, head, hl);
    memcpy(msg + hl, m, ml);
    msg[hl + ml] = '\0';
    memcpy(err->msg, msg, sizeof msg);
}

void cc_log_prepend(gl_compiled *out, const char *note)
{
    const size_t nl = strlen(note), ll = out->log ? strlen(out->log) : 0;
    char *log = malloc(nl + ll + 1);
    if (!log)
        return;
    memcpy(log, note, nl);
    memcpy(log + nl, out->log ? out->log : "", ll + 1);
    free(out->log);
    out->log = log;
}
