/* compile.c — CUDA C to PTX with whichever compiler this machine has: NVRTC (loaded with
 * dlopen, so gpulearn never links against the CUDA Toolkit), then nvcc, then clang's
 * NVPTX back end with our prelude (runtime/prelude/gpulearn_prelude.h) standing in for the
 * CUDA headers. Every compiler is asked for line info, and its diagnostics are rewritten
 * to one form, "path:line:col: error: message", with the path as the caller gave it. */
#define _GNU_SOURCE /* dladdr */
#include "runtime/compile.h"
#include "sim/sim.h"

#include "runtime/arch.h"
#include "runtime/cache.h"
#include "runtime/child.h"
#include "runtime/sandbox.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef GL_HAVE_CUDA_H
#include <nvrtc.h>
#endif

extern char **environ;

#ifndef GL_PRELUDE_DIR
#define GL_PRELUDE_DIR "runtime/prelude"
#endif
#define PRELUDE_NAME "gpulearn_prelude.h"

/* Part of every cache key: a new gpulearn release never reuses an older one's PTX. */
#ifdef GL_VERSION
#define GL_CACHE_VERSION GL_VERSION " cache 3"
#else
#define GL_CACHE_VERSION "cache 3"
#endif

const char *gl_compiler_name(gl_compiler c)
{
    switch (c) {
    case GL_CC_AUTO: return "auto";
    case GL_CC_NVRTC: return "nvrtc";
    case GL_CC_NVCC: return "nvcc";
    case GL_CC_CLANG: return "clang";
    }
    return "?";
}

void gl_compiled_free(gl_compiled *c)
{
    if (!c)
        return;
    free(c->ptx);
    free(c->log);
    free(c->diags);
    c->ptx = NULL;
    c->log = NULL;
    c->diags = NULL;
    c->ndiags = 0;
}

/* ------------------------------------------------------------------ growable string */

typedef struct strbuf {
    char *s;
    size_t len, cap;
    int oom;
} strbuf;

static void sb_putn(strbuf *b, const char *s, size_t n)
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

static void sb_puts(strbuf *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

/* The built string (caller frees; "" when nothing was put), or NULL when out of memory. */
static char *sb_take(strbuf *b)
{
    if (!b->s && !b->oom)
        sb_puts(b, "");
    if (b->oom) {
        free(b->s);
        b->s = NULL;
    }
    return b->s;
}

static void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(strbuf *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_putn(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
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

/* Rewrites every `.file N "name"` of the PTX that names the learner's file `path` (the
 * same file, by any name) to `as`, so that line info (and simulator faults) say
 * "kernel.cu:5", not a temporary, absolute or sandbox copy's name. PTX ISA §11.1.3
 * (.file). Returns a new string (caller frees) or NULL (no memory). */
static char *ptx_fix_file_names(const char *ptx, const char *path, const char *as)
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
                sb_putn(&b, p, (size_t)(open + 1 - p));
                for (const char *c = as; *c; c++) {
                    if (*c == '"' || *c == '\\')
                        sb_putn(&b, "\\", 1);
                    sb_putn(&b, c, 1);
                }
                sb_putn(&b, close, n - (size_t)(close - p));
                p += n;
                continue;
            }
        }
        sb_putn(&b, p, n);
        p += n;
    }
    return sb_take(&b);
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

/* Whether the .loc whose operands after the file index start at r (up to end) has an
 * inlined_at naming a file marked in header[nf]. */
static int inlined_into_header(const char *r, const char *end, const unsigned char *header, int nf)
{
    for (const char *x = r; x + 10 <= end; x++)
        if (memcmp(x, "inlined_at", 10) == 0) {
            const char *at = x + 10;
            const long f2 = read_num(&at, end);
            return f2 > 0 && f2 < nf && header[f2];
        }
    return 0;
}

/* Line info of code inlined from toolchain headers, given to the learner's line that
 * used it, as NVRTC gives it: a `.loc` in such a header (PTX ISA §11.1.4 .loc) becomes
 * its `inlined_at` location when that is outside the toolchain's headers (nvcc's
 * atomicAdd, __shfl_sync); without one (clang, whose NVPTX back end writes none: its
 * threadIdx and blockIdx reads), the next location in the learner's code, the statement
 * the value is for; with neither, a comment. A `.loc` of the learner's code inlined into
 * a header's (a functor CUB calls) keeps its own line and loses its inlined_at, which
 * names a location rewritten away. Lines keep their numbers (PTX lines in messages).
 * Returns a new string (caller frees) or NULL (no memory). */
static char *ptx_fix_locs(const char *ptx, const char *path)
{
    enum { NF = 256 };
    unsigned char header[NF] = {0}; /* .file index -> a toolchain header */
    int any = 0;
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
                    header[idx] = 1, any = 1;
            }
        }
        p = eol ? eol + 1 : end;
    }
    strbuf b = {0};
    for (const char *p = ptx; *p;) {
        const char *eol = strchr(p, '\n');
        const char *end = eol ? eol + 1 : p + strlen(p), *q;
        const char *r = any ? directive(p, end, ".loc", &q) : NULL;
        const long f = r ? read_num(&r, end) : -1;
        if (f > 0 && f < NF && header[f]) {
            const char *at = NULL;
            for (const char *x = r; x + 10 <= end; x++)
                if (memcmp(x, "inlined_at", 10) == 0) {
                    at = x + 10;
                    break;
                }
            long f2 = at ? read_num(&at, end) : -1, l2 = at ? read_num(&at, end) : -1;
            long c2 = at ? read_num(&at, end) : -1;
            if (!at)
                next_user_loc(end, header, NF, &f2, &l2, &c2);
            const int nl = end[-1] == '\n';
            if (f2 > 0 && f2 < NF && !header[f2] && l2 > 0) {
                sb_printf(&b, "\t.loc\t%ld %ld %ld", f2, l2, c2 > 0 ? c2 : 0);
            } else {
                sb_puts(&b, "\t// ");
                sb_putn(&b, q, (size_t)(end - q) - (size_t)nl);
            }
            sb_puts(&b, "\n");
        } else if (f > 0 && any && inlined_into_header(r, end, header, NF)) {
            /* the learner's code (a functor, a lambda) inlined into a header's: it counts
             * on its own line; its inlined_at names a header location rewritten above,
             * which ptxas rejects ("must be used in a preceding .loc directive") */
            const long l = read_num(&r, end), c = read_num(&r, end);
            sb_printf(&b, "\t.loc\t%ld %ld %ld\n", f, l, c > 0 ? c : 0);
        } else {
            sb_putn(&b, p, (size_t)(end - p));
        }
        p = end;
    }
    return sb_take(&b);
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
            sb_putn(&pending, l->s, l->n);
            sb_puts(&pending, "\n");
            continue;
        }
        if (diag_header(l, &file, &flen, &ln, &col, &rest)) {
            const char *end = l->s + l->n;
            const char *colon = memchr(rest, ':', (size_t)(end - rest));
            size_t sevlen = colon ? (size_t)(colon - rest) : 0;
            int is_note = sevlen >= 4 && memcmp(rest, "note", 4) == 0;
            int is_error =
                colon && (mem_has(rest, sevlen, "error") || mem_has(rest, sevlen, "fatal"));
            if (!is_note || !cur)
                cur = is_error ? errs : warns;
            if (col == 0 && i + 2 < nlines) { /* nvcc: "  source" then "  ^" */
                int at = caret_index(lines[i + 2].s, lines[i + 2].n);
                if (at >= 2)
                    col = at - 1;
            }
            sb_putn(cur, pending.s ? pending.s : "", pending.len);
            pending.len = 0;
            char name[PATH_MAX];
            int ours = 0;
            if (flen < sizeof name) {
                memcpy(name, file, flen);
                name[flen] = '\0';
                ours = same_file(name, path);
            }
            if (ours)
                sb_puts(cur, path);
            else
                sb_putn(cur, file, flen);
            sb_printf(cur, ":%ld:%ld: ", ln, col ? col : 1);
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
                    sb_puts(cur, "fatal error");
                else
                    sb_putn(cur, rest, word);
                sb_puts(cur, ":");
                const char *msg = colon + 1;
                sb_putn(cur, msg, (size_t)(end - msg));
                if (hash) {
                    sb_puts(cur, " [");
                    sb_putn(cur, hash, sevlen - (size_t)(hash - rest));
                    sb_puts(cur, "]");
                }
            } else {
                sb_putn(cur, rest, (size_t)(end - rest));
            }
            sb_puts(cur, "\n");
            continue;
        }
        /* Not a header: context of the current diagnostic, or a driver message such as
         * "nvcc fatal   : ..." / "clang: error: ..." (an error without a place). */
        int driver_error = mem_has(l->s, l->n, "error") || mem_has(l->s, l->n, "fatal");
        if (!cur || (driver_error && l->s[0] != ' '))
            cur = driver_error ? errs : warns;
        sb_putn(cur, l->s, l->n);
        sb_puts(cur, "\n");
    }
    free(pending.s);
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
static gl_status compile_failed(const char *log, const char *path, const char *tool,
                                gl_compiled *out, gl_error *err)
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
static void keep_warnings(const char *log, const char *path, gl_compiled *out)
{
    if (!log || !*log)
        return;
    strbuf errs = {0}, warns = {0};
    diag_list diags = {0};
    diag_rewrite(log, path, &errs, &warns, &diags);
    keep_diags(&diags, out);
    if (errs.len)
        sb_putn(&warns, errs.s, errs.len);
    free(errs.s);
    if (warns.oom || !warns.len) {
        free(warns.s);
        return;
    }
    out->log = warns.s;
}

/* ------------------------------------------------------------------ architecture */

/* "compute_75" / "sm_75" / "75" / "7.5" -> the number part in num (digits and an
 * optional letter suffix such as "90a"). Returns 0 when arch is not of that form. */
static int arch_number(const char *arch, char *num, size_t n)
{
    if (strchr(arch, '.')) { /* "8.0" */
        int sm = gl_arch_sm(arch);
        return sm && snprintf(num, n, "%d", sm) < (int)n;
    }
    const char *p = arch;
    if (strncmp(p, "compute_", 8) == 0)
        p += 8;
    else if (strncmp(p, "sm_", 3) == 0)
        p += 3;
    size_t len = strlen(p);
    if (len == 0 || len >= n || p[0] < '1' || p[0] > '9')
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((p[i] >= '0' && p[i] <= '9') || (i == len - 1 && p[i] >= 'a' && p[i] <= 'z')))
            return 0;
    memcpy(num, p, len + 1);
    return 1;
}

/* ------------------------------------------------------------------ running tools */

/* Searches PATH for an executable called `name`; fills buf. Returns 1 if found. */
static int find_on_path(const char *name, char *buf, size_t n)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        int w = len ? snprintf(buf, n, "%.*s/%s", (int)len, path, name)
                    : snprintf(buf, n, "./%s", name);
        if (w > 0 && (size_t)w < n && access(buf, X_OK) == 0) {
            struct stat st;
            if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
                return 1;
        }
        path += len + (colon ? 1 : 0);
    }
    return 0;
}

/* A temporary folder for one compilation, removed with everything in it. */
static int tmpdir_make(char *dir, size_t n)
{
    const char *t = getenv("TMPDIR");
    if (!t || !*t)
        t = "/tmp";
    int w = snprintf(dir, n, "%s/gpulearn-cc-XXXXXX", t);
    return w > 0 && (size_t)w < n && mkdtemp(dir) ? 0 : -1;
}

static int remove_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(p);
    return 0;
}

/* Removes dir and everything under it (links are removed, not followed). */
static void tmpdir_remove(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The limits of every compiler process (compile.h): CPU time and, outside
 * AddressSanitizer builds (whose shadow memory is one huge mapping), data memory. A
 * gl_child_opts setup hook (the child's own process group, killed with it, and SIGKILL
 * when its parent dies are gl_child's); ctx unused. */
static void compile_limits(void *ctx)
{
    (void)ctx;
    const struct rlimit cpu = {GL_COMPILE_CPU_S, GL_COMPILE_CPU_S};
    setrlimit(RLIMIT_CPU, &cpu);
#ifndef __SANITIZE_ADDRESS__
    const struct rlimit data = {GL_COMPILE_DATA_BYTES, GL_COMPILE_DATA_BYTES};
    setrlimit(RLIMIT_DATA, &data);
#endif
}

/* tool_run's setup hook: compile_limits, stdin from /dev/null, stdout and stderr into
 * the log (ctx: its int fd). */
static void tool_setup(void *ctx)
{
    compile_limits(NULL);
    const int log = *(const int *)ctx;
    const int in = open("/dev/null", O_RDONLY);
    if (in < 0 || dup2(in, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0)
        _exit(127);
}

/* Runs argv (argv[0] a path, no shell) with stdin from /dev/null and stdout+stderr into
 * logpath, under compile_limits; past GL_COMPILE_WALL_S seconds its process group is
 * killed. Returns the exit status, or -1 when it could not start, died of a signal or
 * ran too long (why says which). */
static int tool_run(char *const argv[], const char *logpath, char *why, size_t whylen)
{
    int log = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (log < 0) {
        snprintf(why, whylen, "%.900s: %s", logpath, strerror(errno));
        return -1;
    }
    const gl_child_opts o = {.setup = tool_setup, .setup_ctx = &log};
    gl_child ch;
    const int started = gl_child_exec(&ch, &o, argv), e = errno;
    close(log);
    if (started != 0) {
        snprintf(why, whylen, "%s: fork: %s", argv[0], strerror(e));
        return -1;
    }
    gl_child_exit ex;
    const int w = gl_child_wait(&ch, gl_child_now() + GL_COMPILE_WALL_S, &ex);
    if (w < 0) {
        snprintf(why, whylen, "%s: waitpid: %s", argv[0], strerror(errno));
        return -1;
    }
    if (w == 0) {
        gl_child_stop(&ch, GL_CHILD_FOREVER, NULL);
        snprintf(why, whylen,
                 "%s: still compiling after %d s: stopped (a macro or "
                 "template that expands without end?)",
                 argv[0], GL_COMPILE_WALL_S);
        return -1;
    }
    if (ex.exited) {
        if (ex.code == 127)
            snprintf(why, whylen, "%s: could not be started (exit status 127)", argv[0]);
        return ex.code;
    }
    snprintf(why, whylen, "%s: killed by signal %d%s", argv[0], ex.signal,
             ex.signal == SIGXCPU
                 ? " (its CPU-time limit: a macro or template that expands without end?)"
                 : "");
    return -1;
}

/* Joins argv into out->command, replacing tmp (the temporary folder) with "$TMP". */
static void set_command(gl_compiled *out, char *const argv[], const char *tmp)
{
    strbuf b = {0};
    size_t tlen = tmp ? strlen(tmp) : 0;
    for (int i = 0; argv[i]; i++) {
        if (i)
            sb_puts(&b, " ");
        if (tlen && strncmp(argv[i], tmp, tlen) == 0) {
            sb_puts(&b, "$TMP");
            sb_puts(&b, argv[i] + tlen);
        } else {
            sb_puts(&b, argv[i]);
        }
    }
    snprintf(out->command, sizeof out->command, "%s", b.s ? b.s : "");
    free(b.s);
}

/* Outcome of one compiler: ok, a compile error (report it), or the tool itself is not
 * there / did not work (try the next one in AUTO mode). */
typedef enum try_result { TRY_OK, TRY_COMPILE_ERROR, TRY_UNAVAILABLE } try_result;

/* Runs an external compiler (nvcc or clang) whose argv writes PTX to ptxpath; the common
 * part of try_nvcc and try_clang. */
static try_result run_external(char *const argv[], const char *tmp, const char *ptxpath,
                               const char *path, const char *tool, gl_compiled *out, char *why,
                               size_t whylen, gl_error *err)
{
    char logpath[PATH_MAX];
    snprintf(logpath, sizeof logpath, "%s/log.txt", tmp);
    set_command(out, argv, tmp);
    int rc = tool_run(argv, logpath, why, whylen);
    if (rc < 0 || rc == 127)
        return TRY_UNAVAILABLE;
    gl_error ignored;
    char *log = gl_read_file(logpath, NULL, &ignored);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (rc != 0 && (!log || !strstr(log, base))) {
        /* Not a word about the learner's file: the tool itself failed (nvcc without a
         * host compiler: "nvcc fatal : Failed to preprocess host compiler properties"). */
        size_t n = log ? strcspn(log, "\n") : 0;
        snprintf(why, whylen, "%s failed (exit status %d)%s%.*s", tool, rc, n ? ": " : "",
                 (int)(n < 400 ? n : 400), log ? log : "");
        free(log);
        return TRY_UNAVAILABLE;
    }
    if (rc != 0) {
        compile_failed(log, path, tool, out, err);
        free(log);
        return TRY_COMPILE_ERROR;
    }
    char *ptx = gl_read_file(ptxpath, NULL, &ignored);
    if (!ptx) {
        snprintf(why, whylen, "%s exited 0 but wrote no PTX", tool);
        free(log);
        return TRY_UNAVAILABLE;
    }
    keep_warnings(log, path, out);
    free(log);
    out->ptx = ptx;
    return TRY_OK;
}

/* ------------------------------------------------------------------ nvcc */

/* Finds nvcc: PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin. */
int gl_find_nvcc(char *buf, size_t n)
{
    if (find_on_path("nvcc", buf, n))
        return 1;
    const char *home = getenv("CUDA_HOME");
    if (home && *home && snprintf(buf, n, "%s/bin/nvcc", home) < (int)n && access(buf, X_OK) == 0)
        return 1;
    snprintf(buf, n, "/usr/local/cuda/bin/nvcc");
    return access(buf, X_OK) == 0;
}

static try_result try_nvcc(const char *path, const char *archnum, int debug, gl_compiled *out,
                           char *why, size_t whylen, gl_error *err)
{
    char nvcc[PATH_MAX], tmp[PATH_MAX], ptxpath[PATH_MAX + 16], arch[64];
    if (!gl_find_nvcc(nvcc, sizeof nvcc)) {
        snprintf(why, whylen, "nvcc: not on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin");
        return TRY_UNAVAILABLE;
    }
    if (tmpdir_make(tmp, sizeof tmp) != 0) {
        snprintf(why, whylen, "nvcc: cannot create a temporary folder: %s", strerror(errno));
        return TRY_UNAVAILABLE;
    }
    snprintf(ptxpath, sizeof ptxpath, "%s/kernel.ptx", tmp);
    snprintf(arch, sizeof arch, "-arch=compute_%s", archnum);
    /* --expt-relaxed-constexpr: constexpr host functions (std::min, std::numeric_limits)
     * in device code, as clang allows them and NVRTC's headers (prelude/nvrtc) give them */
    char *argv[] = {nvcc,
                    "-ptx",
                    arch,
                    debug ? "-G" : "-lineinfo",
                    "--expt-relaxed-constexpr",
                    "-o",
                    ptxpath,
                    "-x",
                    "cu",
                    (char *)path,
                    NULL};
    try_result r = run_external(argv, tmp, ptxpath, path, "nvcc", out, why, whylen, err);
    tmpdir_remove(tmp);
    return r;
}

/* ------------------------------------------------------------------ clang */

/* Finds the prelude: $GPULEARN_PRELUDE_DIR, the source tree's runtime/prelude
 * (GL_PRELUDE_DIR), then <exe>/../share/gpulearn/prelude for installs. */
int gl_find_prelude(char *buf, size_t n)
{
    const char *env = getenv("GPULEARN_PRELUDE_DIR");
    if (env && *env) {
        snprintf(buf, n, "%s/" PRELUDE_NAME, env);
        return access(buf, R_OK) == 0;
    }
    if (snprintf(buf, n, "%s/" PRELUDE_NAME, GL_PRELUDE_DIR) < (int)n && access(buf, R_OK) == 0)
        return 1;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if (snprintf(buf, n, "%s/../share/gpulearn/prelude/" PRELUDE_NAME, exe) < (int)n &&
                access(buf, R_OK) == 0)
                return 1;
        }
    }
    return 0;
}

/* The headers shipped beside the prelude (prelude: its path): <its folder>/include,
 * holding cooperative_groups.h and cooperative_groups/ (reduce.h, scan.h, details/). */
static void prelude_include_dir(const char *prelude, char *buf, size_t n)
{
    const char *slash = strrchr(prelude, '/');
    snprintf(buf, n, "%.*s/include", slash ? (int)(slash - prelude) : 1, slash ? prelude : ".");
}

/* Hashes every file under folder dir into the key: its path below dir and its bytes, in
 * name order, into subfolders up to depth levels down; dot files (editors' temporary
 * files) are left out. The prelude's folders (include/ for clang, nvrtc/ for NVRTC) are
 * hashed whole, so that a header added to them or changed invalidates cached PTX. */
static void key_tree(gl_sha256 *h, const char *dir, const char *rel, int depth)
{
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s%s%s", dir, *rel ? "/" : "", rel);
    struct dirent **ents = NULL;
    const int n = scandir(path, &ents, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        char sub[PATH_MAX], file[3 * PATH_MAX];
        struct stat sb;
        if (name[0] == '.' ||
            (size_t)snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", name) >= sizeof sub)
            sub[0] = 0;
        snprintf(file, sizeof file, "%s/%s", dir, sub);
        if (sub[0] && stat(file, &sb) == 0) {
            if (S_ISDIR(sb.st_mode) && depth > 0) {
                key_tree(h, dir, sub, depth - 1);
            } else if (S_ISREG(sb.st_mode)) {
                size_t len = 0;
                gl_error ignored;
                char *text = gl_read_file(file, &len, &ignored);
                gl_sha256_field(h, sub, text ? text : "", len);
                free(text);
            }
        }
        free(ents[i]);
    }
    free(ents);
}

/* Finds clang: "clang" on PATH, then clang-19 down to clang-14. */
static int find_clang(char *buf, size_t n)
{
    if (find_on_path("clang", buf, n))
        return 1;
    for (int v = 19; v >= 14; v--) {
        char name[32];
        snprintf(name, sizeof name, "clang-%d", v);
        if (find_on_path(name, buf, n))
            return 1;
    }
    return 0;
}

static try_result try_clang(const char *path, const char *archnum, int debug, gl_compiled *out,
                            char *why, size_t whylen, gl_error *err)
{
    char clang[PATH_MAX], prelude[PATH_MAX], tmp[PATH_MAX], ptxpath[PATH_MAX + 16], arch[64],
        incdir[PATH_MAX + 16];
    if (!find_clang(clang, sizeof clang)) {
        snprintf(why, whylen, "clang: not on PATH (clang, clang-14 ... clang-19)");
        return TRY_UNAVAILABLE;
    }
    if (!gl_find_prelude(prelude, sizeof prelude)) {
        snprintf(why, whylen,
                 "clang: %s not found (set GPULEARN_PRELUDE_DIR to the folder holding it)",
                 PRELUDE_NAME);
        return TRY_UNAVAILABLE;
    }
    if (tmpdir_make(tmp, sizeof tmp) != 0) {
        snprintf(why, whylen, "clang: cannot create a temporary folder: %s", strerror(errno));
        return TRY_UNAVAILABLE;
    }
    snprintf(ptxpath, sizeof ptxpath, "%s/kernel.ptx", tmp);
    snprintf(arch, sizeof arch, "--cuda-gpu-arch=sm_%s", archnum);
    /* the prelude's include/ (cooperative_groups.h), searched before the system's */
    prelude_include_dir(prelude, incdir, sizeof incdir);
    char *argv[] = {clang, "--cuda-device-only", "-nocudainc", "-nocudalib", arch,
                    "-Wno-unknown-cuda-version", "-S", debug ? "-O0" : "-O2", "-gline-tables-only",
                    "-fno-color-diagnostics",
                    /* a null dereference stays an access (which the simulator reports),
                     * not undefined behaviour that -O2 deletes with the code around it;
                     * NVRTC and nvcc make it a trap */
                    "-fno-delete-null-pointer-checks", "-include", prelude, "-isystem", incdir,
                    "-x", "cuda", "-o", ptxpath, (char *)path, NULL};
    try_result r = run_external(argv, tmp, ptxpath, path, "clang", out, why, whylen, err);
    tmpdir_remove(tmp);
    return r;
}

/* clang knows the GPU targets of its release (clang 14: up to sm_86) and stops with
 * "unsupported CUDA gpu architecture" for newer ones. PTX is forward compatible (PTX ISA
 * §12 "Release Notes"/"PTX Module Directives": code for sm_86 runs on later GPUs), so
 * clang compiles for the newest modelled target it knows below the one asked for, and
 * the log says so where the target was asked for (note = 1); a kernel that needs the
 * newer target fails to compile there, with a message naming the feature and clang's
 * limit (gl_compile_cuda). *fallback gets the target compiled for (0: none of them). */
/* What clang says of a target it does not know. */
#define CLANG_NO_TARGET "unsupported CUDA gpu architecture"

static try_result try_clang_older(const char *path, const char *archnum, int debug, int note,
                                  gl_compiled *out, char *why, size_t whylen, gl_error *err,
                                  int *fallback)
{
    const int want = gl_arch_sm(archnum);
    try_result r = TRY_COMPILE_ERROR;
    *fallback = 0;
    for (int i = sim_device_count() - 1; i >= 0; i--) {
        const sim_device_model *d = sim_device_at(i);
        const int sm = d->compute_major * 10 + d->compute_minor;
        if (sm >= want)
            continue;
        char num[16];
        snprintf(num, sizeof num, "%d", sm);
        gl_error e = {0};
        why[0] = '\0';
        r = try_clang(path, num, debug, out, why, whylen, &e);
        if (r != TRY_OK && (strstr(e.msg, CLANG_NO_TARGET) || strstr(why, CLANG_NO_TARGET)))
            continue;
        *fallback = sm;
        if (err)
            *err = e;
        if (r == TRY_OK && note) {
            char noteline[300];
            snprintf(noteline, sizeof noteline,
                     "gpulearn: note: this clang knows GPU targets up to sm_%d: compiled for "
                     "sm_%d instead of sm_%s (its PTX runs on sm_%s too; --compiler nvrtc or "
                     "nvcc compile for sm_%s itself)\n",
                     sm, sm, archnum, archnum, archnum);
            size_t nl = strlen(noteline), ll = out->log ? strlen(out->log) : 0;
            char *log = malloc(nl + ll + 1);
            if (log) {
                memcpy(log, noteline, nl);
                memcpy(log + nl, out->log ? out->log : "", ll + 1);
                free(out->log);
                out->log = log;
            }
        }
        return r;
    }
    return r;
}

/* A compile error caused by a feature the target lacks gets a first noteline that names it
 * and the first target that has it. sm: the target compiled for; want: the one asked
 * for (they differ where clang knows no newer target, see try_clang_older). */
static void explain_target(gl_error *err, const char *path, int sm, int want, const char *origin)
{
    const gl_arch_feature *f = err ? gl_arch_feature_in(err->msg, sm) : NULL;
    if (!f)
        return;
    char head[512];
    if (sm < want && f->first_sm <= want)
        snprintf(head, sizeof head,
                 "%s: %s needs sm_%d or newer; this clang compiles for at most sm_%d (this run "
                 "targets sm_%d (%s)): use --compiler nvrtc or nvcc\n",
                 gl_display_path(path), f->name, f->first_sm, sm, want,
                 origin ? origin : "the default");
    else
        snprintf(head, sizeof head, "%s: %s needs sm_%d or newer; this run targets sm_%d (%s)\n",
                 gl_display_path(path), f->name, f->first_sm, sm, origin ? origin : "the default");
    char msg[sizeof err->msg];
    size_t hl = strlen(head), ml = strlen(err->msg);
    if (hl + ml >= sizeof msg)
        ml = sizeof msg - 1 - hl;
    memcpy(msg, head, hl);
    memcpy(msg + hl, err->msg, ml);
    msg[hl + ml] = '\0';
    memcpy(err->msg, msg, sizeof msg);
}

/* ------------------------------------------------------------------ NVRTC */

/* A compiling child (try_nvrtc's, compile_sandboxed's) sends its result back in
 * messages (child.h), one per field, the last CC_MSG_DONE. */
enum {
    CC_MSG_WHY = 1, /* payload: why the compiler is unavailable (try_nvrtc) */
    CC_MSG_ERROR,   /* arg: gl_status; payload: the error message */
    CC_MSG_COMMAND, /* payload: the command line */
    CC_MSG_PTX,     /* payload: the PTX */
    CC_MSG_LOG,     /* payload: the compiler's messages */
    CC_MSG_USED,    /* arg: the gl_compiler that compiled (compile_sandboxed) */
    CC_MSG_DIAGS,   /* payload: the gl_diag records, as bytes (same binary both ends) */
    CC_MSG_DONE,    /* arg: try_result (try_nvrtc) or gl_status (compile_sandboxed) */
};

/* The most bytes one message may announce (4 GiB). */
#define CC_MSG_MAX (UINT64_C(1) << 32)

/* Sends a string field (NULL: empty). 0 or -1. */
static int cc_send(int fd, uint32_t type, uint32_t arg, const char *s)
{
    return gl_msg_send(fd, type, arg, s, s ? strlen(s) : 0);
}

/* What a compiling child sent: the arguments of CC_MSG_DONE, _ERROR and _USED and the
 * string fields (malloc'd, "" when not sent). */
typedef struct cc_reply {
    uint32_t done, status, used;
    char *why, *msg, *command, *ptx, *log;
    gl_diag *diags; /* CC_MSG_DIAGS (malloc'd), or NULL */
    int ndiags;
} cc_reply;

static void cc_reply_free(cc_reply *r)
{
    free(r->why), free(r->msg), free(r->command), free(r->ptx), free(r->log), free(r->diags);
    memset(r, 0, sizeof *r);
}

/* Receives a compiling child's messages until CC_MSG_DONE, before deadline
 * (gl_child_now seconds). GL_MSG_OK with *r filled in (free with cc_reply_free in every
 * case), else why not (GL_MSG_ERROR for a message of a type it does not know). */
static gl_msg_rc cc_receive(int fd, double deadline, cc_reply *r)
{
    memset(r, 0, sizeof *r);
    gl_msg_in in = {0};
    gl_msg_rc rc = GL_MSG_OK;
    int done = 0;
    while (!done && (rc = gl_msg_recv(fd, &in, CC_MSG_MAX, deadline)) == GL_MSG_OK) {
        char **field = NULL;
        switch (in.h.type) {
        case CC_MSG_WHY: field = &r->why; break;
        case CC_MSG_ERROR: field = &r->msg, r->status = in.h.arg; break;
        case CC_MSG_COMMAND: field = &r->command; break;
        case CC_MSG_PTX: field = &r->ptx; break;
        case CC_MSG_LOG: field = &r->log; break;
        case CC_MSG_USED: r->used = in.h.arg; break;
        case CC_MSG_DIAGS:
            if (in.h.len % sizeof *r->diags != 0 || in.h.len / sizeof *r->diags > INT_MAX) {
                rc = GL_MSG_ERROR;
                break;
            }
            free(r->diags);
            r->ndiags = (int)(in.h.len / sizeof *r->diags);
            r->diags = (gl_diag *)(void *)gl_msg_in_take(&in);
            for (int i = 0; r->diags && i < r->ndiags; i++) { /* NUL-terminated strings */
                r->diags[i].file[sizeof r->diags[i].file - 1] = '\0';
                r->diags[i].text[sizeof r->diags[i].text - 1] = '\0';
            }
            if (!r->diags)
                r->ndiags = 0;
            break;
        case CC_MSG_DONE: r->done = in.h.arg, done = 1; break;
        default: rc = GL_MSG_ERROR; break;
        }
        if (rc != GL_MSG_OK)
            break;
        if (field) {
            free(*field);
            *field = gl_msg_in_take(&in);
        }
    }
    gl_msg_in_free(&in);
    char **fields[] = {&r->why, &r->msg, &r->command, &r->ptx, &r->log};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!*fields[i] && !(*fields[i] = strdup("")))
            rc = GL_MSG_ERROR;
    return rc;
}

#ifdef GL_HAVE_CUDA_H
/* The NVRTC entry points we use (NVRTC User Guide §3, "Compilation"). */
#define NVRTC_SYMBOLS(X)                                                                           \
    X(nvrtcGetErrorString)                                                                         \
    X(nvrtcCreateProgram)                                                                          \
    X(nvrtcDestroyProgram)                                                                         \
    X(nvrtcCompileProgram)                                                                         \
    X(nvrtcGetPTXSize)                                                                             \
    X(nvrtcGetPTX)                                                                                 \
    X(nvrtcGetProgramLogSize)                                                                      \
    X(nvrtcGetProgramLog)                                                                          \
    X(nvrtcVersion)

/* libnvrtc, loaded once on first use and kept for the life of the process. */
static struct {
    int tried;
    void *handle;
    char why[1024];
    char soname[512];
#define X(name) __typeof__(&name) p_##name;
    NVRTC_SYMBOLS(X)
#undef X
} nvrtc;

/* dlopen's libnvrtc: $CUDA_HOME/lib64, /usr/local/cuda/lib64, then the loader's path
 * (.so.13, .so.12, .so). Returns 1 when every symbol resolved; nvrtc.why says why not. */
/* Where nvrtc_load looks for libnvrtc, in order: $CUDA_HOME/lib64/libnvrtc.so,
 * /usr/local/cuda/lib64/libnvrtc.so, then the loader's search for the sonames.
 * Returns the number of candidates written to cands. */
static int nvrtc_candidates(char cands[5][512])
{
    int nc = 0;
    const char *home = getenv("CUDA_HOME");
    if (home && *home)
        snprintf(cands[nc++], sizeof cands[0], "%.480s/lib64/libnvrtc.so", home);
    snprintf(cands[nc++], sizeof cands[0], "/usr/local/cuda/lib64/libnvrtc.so");
    snprintf(cands[nc++], sizeof cands[0], "libnvrtc.so.13");
    snprintf(cands[nc++], sizeof cands[0], "libnvrtc.so.12");
    snprintf(cands[nc++], sizeof cands[0], "libnvrtc.so");
    return nc;
}

/* The file nvrtc_load would load first when it is one of the absolute candidates that
 * exists: 1 with its path in buf. 0 when the loader's search would decide (or there is
 * no library): only loading it tells then. */
static int nvrtc_file(char *buf, size_t n)
{
    if (nvrtc.tried)
        return nvrtc.handle && nvrtc.soname[0] == '/' &&
               snprintf(buf, n, "%s", nvrtc.soname) < (int)n;
    char cands[5][512];
    const int nc = nvrtc_candidates(cands);
    for (int i = 0; i < nc && cands[i][0] == '/'; i++)
        if (access(cands[i], R_OK) == 0)
            return snprintf(buf, n, "%s", cands[i]) < (int)n;
    return 0;
}

static int nvrtc_load(void)
{
    if (nvrtc.tried)
        return nvrtc.handle != NULL;
    nvrtc.tried = 1;
    char cands[5][512];
    const int nc = nvrtc_candidates(cands);
    const char *first_err = NULL;
    char first[512] = "";
    for (int i = 0; i < nc && !nvrtc.handle; i++) {
        nvrtc.handle = dlopen(cands[i], RTLD_NOW | RTLD_LOCAL);
        if (nvrtc.handle) {
            memcpy(nvrtc.soname, cands[i], sizeof nvrtc.soname);
        } else if (!first_err) {
            first_err = dlerror();
            snprintf(first, sizeof first, "%.500s", first_err ? first_err : cands[i]);
        }
    }
    if (!nvrtc.handle) {
        snprintf(nvrtc.why, sizeof nvrtc.why, "nvrtc: libnvrtc.so not found (%s)", first);
        return 0;
    }
#define resolve(name)                                                                              \
    do {                                                                                           \
        nvrtc.p_##name = (__typeof__(nvrtc.p_##name))dlsym(nvrtc.handle, #name);                   \
        if (!nvrtc.p_##name) {                                                                     \
            snprintf(nvrtc.why, sizeof nvrtc.why, "nvrtc: %.512s has no %s", nvrtc.soname, #name); \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)
#define X(name) resolve(name);
    NVRTC_SYMBOLS(X)
#undef X
#undef resolve
    return 1;
fail:
    dlclose(nvrtc.handle);
    nvrtc.handle = NULL;
    return 0;
}

/* <prelude folder>/nvrtc (runtime/prelude/nvrtc: stdio.h, stdint.h, math.h, ... for
 * NVRTC, which has none). Returns 1 with buf set, 0 when the prelude is not found. */
static int nvrtc_libc_dir(char *buf, size_t n)
{
    char prelude[PATH_MAX];
    if (!gl_find_prelude(prelude, sizeof prelude))
        return 0;
    const char *slash = strrchr(prelude, '/');
    snprintf(buf, n, "%.*s/nvrtc", slash ? (int)(slash - prelude) : 1, slash ? prelude : ".");
    return access(buf, R_OK) == 0;
}

/* The CUDA Toolkit's include directory, where cuda_fp16.h and cuda_bf16.h live, for
 * NVRTC's --include-path (NVRTC has no default search path for them: "could not open
 * source file cuda_fp16.h (no directories in search list)"; nvcc adds it itself):
 * $CUDA_HOME/include, the include/ beside the libnvrtc loaded, /usr/local/cuda/include.
 * Returns 1 with buf set, 0 when none has cuda_fp16.h. */
static int nvrtc_include_dir(char *buf, size_t n)
{
    char cands[3][600];
    int nc = 0;
    const char *home = getenv("CUDA_HOME");
    if (home && *home)
        snprintf(cands[nc++], sizeof cands[0], "%.500s/include", home);
    const char *slash = strrchr(nvrtc.soname, '/');
    if (slash) /* <root>/lib64/libnvrtc.so -> <root>/lib64/../include */
        snprintf(cands[nc++], sizeof cands[0], "%.*s/../include", (int)(slash - nvrtc.soname),
                 nvrtc.soname);
    snprintf(cands[nc++], sizeof cands[0], "/usr/local/cuda/include");
    for (int i = 0; i < nc; i++) {
        char probe[640];
        snprintf(probe, sizeof probe, "%.580s/cuda_fp16.h", cands[i]);
        size_t len = strlen(cands[i]);
        if (access(probe, R_OK) == 0 && len < n) {
            memcpy(buf, cands[i], len + 1);
            return 1;
        }
    }
    return 0;
}

static try_result nvrtc_compile_here(const char *path, const char *archnum, int debug,
                                     const char *src, gl_compiled *out, char *why, size_t whylen,
                                     gl_error *err)
{
    if (!nvrtc_load()) {
        snprintf(why, whylen, "%s", nvrtc.why);
        return TRY_UNAVAILABLE;
    }
    char arch[64];
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%s", archnum);
    char incdir[600], incopt[640] = "", cccl[660], ccclopt[700] = "";
    if (nvrtc_include_dir(incdir, sizeof incdir)) {
        snprintf(incopt, sizeof incopt, "--include-path=%s", incdir);
        /* CUDA 13 moved libcu++, CUB and Thrust (CCCL) to include/cccl, which nvcc
         * searches itself: cooperative_groups.h includes <cuda/std/type_traits> */
        snprintf(cccl, sizeof cccl, "%s/cccl/cuda/std", incdir);
        if (access(cccl, R_OK) == 0)
            snprintf(ccclopt, sizeof ccclopt, "--include-path=%s/cccl", incdir);
    }
    /* the C library headers NVRTC lacks (prelude/nvrtc), searched last */
    char libc[PATH_MAX + 16], libcopt[PATH_MAX + 32] = "";
    if (nvrtc_libc_dir(libc, sizeof libc))
        snprintf(libcopt, sizeof libcopt, "--include-path=%s", libc);
    const char *options[6] = {arch, debug ? "-G" : "-lineinfo"};
    int noptions = 2;
    if (incopt[0])
        options[noptions++] = incopt;
    if (ccclopt[0])
        options[noptions++] = ccclopt;
    if (libcopt[0]) {
        options[noptions++] = libcopt;
        /* nvcc includes the CUDA runtime headers, and with them math.h, in every .cu
         * file: INFINITY, NAN and M_PI need no #include there, nor here */
        options[noptions++] = "--pre-include=math.h";
    }
    snprintf(out->command, sizeof out->command, "nvrtc %s %s %.100s%s%.100s%s%.100s%s (%.100s)",
             options[0], options[1], incopt, ccclopt[0] ? " " : "", ccclopt, libcopt[0] ? " " : "",
             libcopt, libcopt[0] ? " --pre-include=math.h" : "", nvrtc.soname);

    nvrtcProgram prog;
    /* The program name is the path, so diagnostics and .file carry it. */
    nvrtcResult r = nvrtc.p_nvrtcCreateProgram(&prog, src, path, 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        snprintf(why, whylen, "nvrtc: nvrtcCreateProgram: %s", nvrtc.p_nvrtcGetErrorString(r));
        return TRY_UNAVAILABLE;
    }
    try_result result = TRY_UNAVAILABLE;
    char *log = NULL;
    nvrtcResult rc = nvrtc.p_nvrtcCompileProgram(prog, noptions, options);
    size_t logsize = 0;
    if (nvrtc.p_nvrtcGetProgramLogSize(prog, &logsize) == NVRTC_SUCCESS && logsize > 1) {
        log = malloc(logsize + 1);
        if (log && nvrtc.p_nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
            log[logsize] = '\0';
        else {
            free(log);
            log = NULL;
        }
    }
    if (rc == NVRTC_ERROR_COMPILATION) {
        compile_failed(log, path, "nvrtc", out, err);
        result = TRY_COMPILE_ERROR;
    } else if (rc != NVRTC_SUCCESS) {
        snprintf(why, whylen, "nvrtc: nvrtcCompileProgram: %s%s%.300s",
                 nvrtc.p_nvrtcGetErrorString(rc), log ? ": " : "", log ? log : "");
    } else {
        size_t n = 0;
        if (nvrtc.p_nvrtcGetPTXSize(prog, &n) == NVRTC_SUCCESS && n > 0 &&
            (out->ptx = malloc(n + 1)) != NULL &&
            nvrtc.p_nvrtcGetPTX(prog, out->ptx) == NVRTC_SUCCESS) {
            out->ptx[n] = '\0';
            keep_warnings(log, path, out);
            result = TRY_OK;
        } else {
            free(out->ptx);
            out->ptx = NULL;
            snprintf(why, whylen, "nvrtc: nvrtcGetPTX failed");
        }
    }
    free(log);
    nvrtc.p_nvrtcDestroyProgram(&prog);
    return result;
}

/* NVRTC runs in a child process. libnvrtc (CUDA 13) may load libcuda and call cuInit;
 * a process that initialised CUDA cannot fork a working GPU worker (cuInit then fails
 * with CUDA_ERROR_NOT_INITIALIZED in the child, seen on an H200 with driver 580), and
 * the parent must stay CUDA-free (runtime/worker.h). The child compiles and sends back
 * the result, the messages and the PTX. */
typedef struct nvrtc_args {
    const char *path, *archnum, *src;
    int debug;
} nvrtc_args;

/* try_nvrtc's child (a gl_child body): compiles and sends the result, the messages and
 * the PTX. */
static void nvrtc_child(int fd, void *arg)
{
    const nvrtc_args *a = arg;
    gl_compiled c = {0};
    gl_error e = {0};
    char w[1024] = "";
    try_result r = nvrtc_compile_here(a->path, a->archnum, a->debug, a->src, &c, w, sizeof w, &e);
    int ok = cc_send(fd, CC_MSG_WHY, 0, w) == 0 &&
             cc_send(fd, CC_MSG_ERROR, (uint32_t)e.status, e.msg) == 0 &&
             cc_send(fd, CC_MSG_COMMAND, 0, c.command) == 0 &&
             cc_send(fd, CC_MSG_PTX, 0, c.ptx) == 0 && cc_send(fd, CC_MSG_LOG, 0, c.log) == 0 &&
             gl_msg_send(fd, CC_MSG_DIAGS, 0, c.diags, (size_t)c.ndiags * sizeof *c.diags) == 0 &&
             gl_msg_send(fd, CC_MSG_DONE, (uint32_t)r, NULL, 0) == 0;
    _exit(ok ? 0 : 1);
}

static try_result try_nvrtc(const char *path, const char *archnum, int debug, const char *src,
                            gl_compiled *out, char *why, size_t whylen, gl_error *err)
{
    nvrtc_args a = {path, archnum, src, debug};
    const gl_child_opts o = {
        .setup = compile_limits}; /* its CPU time bounds a compile that never ends */
    gl_child ch;
    if (gl_child_spawn(&ch, &o, nvrtc_child, &a) != 0)
        return nvrtc_compile_here(path, archnum, debug, src, out, why, whylen, err);
    cc_reply rep;
    const int ok = cc_receive(ch.fd, GL_CHILD_FOREVER, &rep) == GL_MSG_OK;
    gl_child_exit ex;
    gl_child_close(&ch);
    gl_child_wait(&ch, GL_CHILD_FOREVER, &ex);
    try_result r = TRY_UNAVAILABLE;
    if (!ok) {
        snprintf(why, whylen, "nvrtc: the compiler process failed (%s)",
                 ex.signal ? strsignal(ex.signal) : "no result");
    } else {
        r = (try_result)rep.done;
        snprintf(why, whylen, "%s", rep.why);
        snprintf(out->command, sizeof out->command, "%s", rep.command);
        if (r == TRY_COMPILE_ERROR)
            gl_fail(err, (gl_status)rep.status, "%s", rep.msg);
        if (r == TRY_OK)
            out->ptx = rep.ptx, rep.ptx = NULL;
        if (*rep.log)
            out->log = rep.log, rep.log = NULL;
        out->diags = rep.diags, rep.diags = NULL;
        out->ndiags = rep.ndiags;
    }
    cc_reply_free(&rep);
    return r;
}
#else
static try_result try_nvrtc(const char *path, const char *archnum, int debug, const char *src,
                            gl_compiled *out, char *why, size_t whylen, gl_error *err)
{
    (void)path, (void)archnum, (void)debug, (void)src, (void)out, (void)err;
    snprintf(why, whylen, "nvrtc: gpulearn was built without nvrtc.h (CUDA Toolkit)");
    return TRY_UNAVAILABLE;
}
#endif

/* ------------------------------------------------------------------ cache key */

/* The options each compiler is run with, as try_nvrtc/try_nvcc/try_clang pass them
 * (compute_N / sm_N stand for the architecture, which is hashed separately). Part of the
 * cache key: change this string whenever those options change. */
static const char cache_options[] =
    "nvrtc: --gpu-architecture=compute_N -lineinfo --include-path=CUDA/include | "
    "nvcc: -ptx -arch=compute_N -lineinfo --expt-relaxed-constexpr -x cu | "
    "clang: --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_N "
    "-Wno-unknown-cuda-version -S -O2 -gline-tables-only -fno-color-diagnostics "
    "-fno-delete-null-pointer-checks -include gpulearn_prelude.h -isystem PRELUDE/include -x cuda "
    "| "
    "nvrtc: --include-path=CUDA/include/cccl when there --include-path=PRELUDE/nvrtc "
    "--pre-include=math.h | "
    "debug: -G for -lineinfo (nvrtc, nvcc), -O0 for -O2 (clang) | "
    "file names rewritten to the path as given";

/* Whether the source #includes a file of its own ("..."), whose bytes the key would
 * not see. */
static int has_quoted_include(const char *src)
{
    for (const char *p = src; (p = strchr(p, '#')) != NULL; p++) {
        const char *q = p + 1;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, "include", 7) != 0)
            continue;
        q += 7;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '"')
            return 1;
    }
    return 0;
}

/* Computes the cache key of compiling src (the bytes of `path`) for `want` and archnum:
 * the source and its path, gpulearn's version, the options, and the name and version of
 * every compiler `want` could end up running (AUTO: each one installed, in order), with
 * the prelude's bytes when clang is among them. Returns 0, or -1 when this compilation
 * must not be cached. */
static int cache_key(const char *path, const char *src, gl_compiler want, const char *archnum,
                     int debug, char key[65])
{
    if (has_quoted_include(src))
        return -1;
    gl_sha256 h;
    gl_sha256_init(&h);
    gl_sha256_field(&h, "gpulearn", GL_CACHE_VERSION, strlen(GL_CACHE_VERSION));
    gl_sha256_field(&h, "path", path, strlen(path));
    gl_sha256_field(&h, "source", src, strlen(src));
    gl_sha256_field(&h, "want", gl_compiler_name(want), strlen(gl_compiler_name(want)));
    gl_sha256_field(&h, "arch", archnum, strlen(archnum));
    gl_sha256_field(&h, "debug", debug ? "-G" : "", debug ? 2 : 0);
    gl_sha256_field(&h, "options", cache_options, sizeof cache_options - 1);
    char buf[PATH_MAX];
#ifdef GL_HAVE_CUDA_H
    if (want == GL_CC_AUTO || want == GL_CC_NVRTC) {
        /* the library's identity, as for nvcc and clang, without loading it: a PTX taken
         * from the cache then never costs the dlopen of libnvrtc (about 100 MB); only
         * a library found by the loader's own search is loaded to ask its version */
        char lib[600];
        int known = nvrtc_file(lib, sizeof lib);
        if (known)
            gl_sha256_file_id(&h, "nvrtc", lib);
        else if (nvrtc_load()) {
            int major = 0, minor = 0;
            nvrtc.p_nvrtcVersion(&major, &minor);
            char id[600];
            int n = snprintf(id, sizeof id, "%d.%d %s", major, minor, nvrtc.soname);
            gl_sha256_field(&h, "nvrtc", id, (size_t)n < sizeof id ? (size_t)n : sizeof id - 1);
        }
        char dir[PATH_MAX + 16];
        if ((known || nvrtc.handle) && nvrtc_libc_dir(dir, sizeof dir))
            key_tree(&h, dir, "", 8);
    }
#endif
    if ((want == GL_CC_AUTO || want == GL_CC_NVCC) && gl_find_nvcc(buf, sizeof buf))
        gl_sha256_file_id(&h, "nvcc", buf);
    if (want == GL_CC_AUTO || want == GL_CC_CLANG) {
        if (find_clang(buf, sizeof buf))
            gl_sha256_file_id(&h, "clang", buf);
        gl_error ignored;
        size_t n = 0;
        char *prelude = gl_find_prelude(buf, sizeof buf) ? gl_read_file(buf, &n, &ignored) : NULL;
        gl_sha256_field(&h, "prelude", prelude ? prelude : "", n);
        free(prelude);
        char inc[PATH_MAX + 16];
        prelude_include_dir(buf, inc, sizeof inc);
        key_tree(&h, inc, "", 8);
    }
    gl_sha256_hex(&h, key);
    return 0;
}

/* Fills out from a cache hit. Returns 1 on a hit. */
static int cache_lookup(const char *key, gl_compiled *out, char *evicted, size_t n)
{
    gl_cache_entry e;
    if (!gl_cache_get(key, &e)) {
        snprintf(evicted, n, "%s", e.evicted);
        return 0;
    }
    static const gl_compiler all[] = {GL_CC_NVRTC, GL_CC_NVCC, GL_CC_CLANG};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(e.compiler, gl_compiler_name(all[i])) == 0) {
            out->used = all[i];
            out->ptx = e.ptx;
            out->log = e.log;
            snprintf(out->command, sizeof out->command, "%s", e.command);
            out->cached = 1;
            return 1;
        }
    gl_cache_entry_free(&e);
    return 0;
}

/* ------------------------------------------------------------------ entry point */

/* See compile.h. AUTO tries NVRTC, nvcc, clang in that order and stops at the first that
 * runs (a compile error from NVRTC is reported, not retried with nvcc). On failure *out
 * owns no memory; out->used and out->command say what ran. */
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
        sb_printf(&b, "%.*s%s", (int)(hit - s), s, to);
    }
    sb_puts(&b, s);
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

/* What compile_sandboxed hands its child. */
typedef struct sandbox_args {
    const char *path, *real, *tmp;
    const gl_compile_opts *opts;
} sandbox_args;

/* The child of compile_sandboxed (a gl_child body, under compile_limits): confines
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
#ifdef GL_HAVE_CUDA_H
    Dl_info info;
    if (nvrtc_load() && dladdr((void *)nvrtc.p_nvrtcVersion, &info) && info.dli_fname) {
        snprintf(nvrtc_dir, sizeof nvrtc_dir, "%s", info.dli_fname);
        char *slash = strrchr(nvrtc_dir, '/');
        if (slash)
            *slash = '\0';
        else
            nvrtc_dir[0] = '\0';
        if (!nvrtc_dir[0] || !realpath(nvrtc_dir, nvrtc_real))
            nvrtc_real[0] = '\0';
    }
#endif
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
        char *ptx = c.ptx ? ptx_fix_file_names(c.ptx, copy, path) : NULL;
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
static gl_status compile_sandboxed(const char *path, const gl_compile_opts *opts, gl_compiled *out,
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
    if (tmpdir_make(tmp, sizeof tmp) != 0)
        return gl_fail(err, GL_ERR_TOOL, "cannot make a temporary folder: %s", strerror(errno));
    sandbox_args a = {path, real, tmp, opts};
    /* killed as a group with what it starts, and with the grader */
    const gl_child_opts o = {.setup = compile_limits};
    gl_child ch;
    const int started = gl_child_spawn(&ch, &o, sandboxed_child, &a);
    if (started != 0) {
        const int e = errno;
        tmpdir_remove(tmp);
        return started == GL_CHILD_ERR_PIPE
                   ? gl_fail(err, GL_ERR_TOOL, "cannot create a pipe: %s", strerror(e))
                   : gl_fail(err, GL_ERR_TOOL, "cannot fork: %s", strerror(e));
    }
    /* the result within the wall-clock limit */
    cc_reply rep;
    const gl_msg_rc got = cc_receive(ch.fd, gl_child_now() + GL_COMPILE_WALL_S, &rep);
    gl_child_exit ex;
    gl_child_stop(&ch, GL_CHILD_FOREVER, &ex); /* whatever it started and left behind */
    tmpdir_remove(tmp);
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

gl_status gl_compile_cuda(const char *path, const gl_compile_opts *opts, gl_compiled *out,
                          gl_error *err)
{
    gl_compile_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    memset(out, 0, sizeof *out);
    if (opts->sandbox)
        return compile_sandboxed(path, opts, out, err);

    gl_compiler want = opts->compiler;
    if ((int)want < GL_CC_AUTO || want > GL_CC_CLANG)
        return gl_fail(err, GL_ERR_USAGE, "unknown compiler %d", (int)want);
    const char *env = getenv("GPULEARN_COMPILER");
    if (want == GL_CC_AUTO && env && *env && strcmp(env, "auto") != 0) {
        if (strcmp(env, "nvrtc") == 0)
            want = GL_CC_NVRTC;
        else if (strcmp(env, "nvcc") == 0)
            want = GL_CC_NVCC;
        else if (strcmp(env, "clang") == 0)
            want = GL_CC_CLANG;
        else
            return gl_fail(err, GL_ERR_USAGE,
                           "GPULEARN_COMPILER=%s: unknown compiler (nvrtc, nvcc, clang or "
                           "auto)",
                           env);
    }
    char archnum[16];
    /* default: the simulator's default device profile (sim_device) */
    char defarch[32];
    snprintf(defarch, sizeof defarch, "%s", sim_device()->name);
    const char *arch = opts->arch && *opts->arch ? opts->arch : defarch;
    if (!arch_number(arch, archnum, sizeof archnum))
        return gl_fail(err, GL_ERR_USAGE,
                       "%s: not a GPU architecture (expected e.g. sm_75, compute_75, 75 or 7.5)",
                       arch);

    char *src = gl_read_file(path, NULL, err);
    if (!src)
        return GL_ERR_INPUT;

    char key[65];
    int cacheable = !opts->no_cache && cache_key(path, src, want, archnum, opts->debug, key) == 0;
    char evicted[4200] = "";
    if (cacheable && cache_lookup(key, out, evicted, sizeof evicted)) {
        free(src);
        if (opts->verbose)
            fprintf(stderr, "gpulearn: %s: %s (cached)\n", gl_compiler_name(out->used),
                    out->command);
        return GL_OK;
    }

    static const gl_compiler order[] = {GL_CC_NVRTC, GL_CC_NVCC, GL_CC_CLANG};
    strbuf whys = {0};
    try_result r = TRY_UNAVAILABLE;
    int compiled_sm = gl_arch_sm(archnum); /* the target compiled for (try_clang_older) */
    for (size_t i = 0; i < sizeof order / sizeof order[0] && r == TRY_UNAVAILABLE; i++) {
        gl_compiler c = order[i];
        if (want != GL_CC_AUTO && want != c)
            continue;
        char why[1024] = "";
        gl_error cerr = {0};
        out->used = c;
        if (c == GL_CC_NVRTC)
            r = try_nvrtc(path, archnum, opts->debug, src, out, why, sizeof why, &cerr);
        else if (c == GL_CC_NVCC)
            r = try_nvcc(path, archnum, opts->debug, out, why, sizeof why, &cerr);
        else {
            r = try_clang(path, archnum, opts->debug, out, why, sizeof why, &cerr);
            if (r != TRY_OK &&
                (strstr(cerr.msg, CLANG_NO_TARGET) || strstr(why, CLANG_NO_TARGET))) {
                int older = 0;
                const int asked = opts->arch && *opts->arch;
                try_result o = try_clang_older(path, archnum, opts->debug, asked, out, why,
                                               sizeof why, &cerr, &older);
                if (older)
                    r = o, compiled_sm = older;
            }
        }
        if (opts->verbose && r != TRY_UNAVAILABLE)
            fprintf(stderr, "gpulearn: %s: %s\n", gl_compiler_name(c), out->command);
        if (r == TRY_COMPILE_ERROR && err) {
            *err = cerr;
            explain_target(err, path, compiled_sm, gl_arch_sm(archnum), opts->arch_origin);
        }
        if (r == TRY_UNAVAILABLE) {
            if (opts->verbose)
                fprintf(stderr, "gpulearn: %s\n", why);
            sb_printf(&whys, "\n  %s", why);
            out->command[0] = '\0';
            gl_compiled_free(out);
        }
    }
    free(src);

    if (r == TRY_UNAVAILABLE) {
        out->used = want;
        if (want == GL_CC_AUTO)
            gl_fail(err, GL_ERR_TOOL,
                    "no CUDA compiler found: install clang (`apt-get install clang`) or the "
                    "CUDA Toolkit (nvcc and NVRTC; set CUDA_HOME if it is not in "
                    "/usr/local/cuda)%s",
                    whys.s ? whys.s : "");
        else
            gl_fail(err, GL_ERR_TOOL, "%s is not available:%s\n  install %s",
                    gl_compiler_name(want), whys.s ? whys.s : "",
                    want == GL_CC_CLANG ? "clang (`apt-get install clang`)"
                    : want == GL_CC_NVCC
                        ? "the CUDA Toolkit (set CUDA_HOME if it is not in /usr/local/cuda) "
                          "and a host C++ compiler for nvcc (`apt-get install g++`)"
                        : "the CUDA Toolkit (set CUDA_HOME if it is not in /usr/local/cuda)");
        free(whys.s);
        return GL_ERR_TOOL;
    }
    free(whys.s);
    if (r == TRY_COMPILE_ERROR) {
        /* the PTX and log go; command, used and the diagnostics stay */
        gl_diag *diags = out->diags;
        const int ndiags = out->ndiags;
        out->diags = NULL;
        gl_compiled_free(out);
        out->diags = diags;
        out->ndiags = ndiags;
        return GL_ERR_COMPILE;
    }

    char *fixed = ptx_fix_file_names(out->ptx, path, path);
    char *located = fixed ? ptx_fix_locs(fixed, path) : NULL;
    free(fixed);
    if (!located) {
        gl_compiled_free(out);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    free(out->ptx);
    out->ptx = located;
    if (cacheable) {
        gl_cache_entry e = {.ptx = out->ptx, .log = out->log};
        snprintf(e.compiler, sizeof e.compiler, "%s", gl_compiler_name(out->used));
        snprintf(e.command, sizeof e.command, "%s", out->command);
        gl_error cerr = {0};
        if (gl_cache_put(key, &e, &cerr) != GL_OK && opts->verbose)
            fprintf(stderr, "gpulearn: not cached: %s\n", cerr.msg);
    }
    if (evicted[0]) { /* with the compiler's warnings (not cached with them) */
        char note[4400];
        snprintf(note, sizeof note,
                 "gpulearn: warning: the compilation cache entry %s was damaged: removed it "
                 "and compiled again\n",
                 evicted);
        size_t nl = strlen(note), ll = out->log ? strlen(out->log) : 0;
        char *log = malloc(nl + ll + 1);
        if (log) {
            memcpy(log, note, nl);
            memcpy(log + nl, out->log ? out->log : "", ll + 1);
            free(out->log);
            out->log = log;
        }
    }
    return GL_OK;
}
