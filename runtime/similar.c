/* similar.c — copied work: a C/CUDA lexer that normalises, k-gram hashes, winnowing
 * (Schleimer, Wilkerson, Aiken, SIGMOD 2003), the ranking of pairs and their matching
 * regions. Why a lexer of our own and not libclang: docs/architecture.md "Copied work". */
#include "runtime/similar.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ the lexer */

/* Identifiers that are structure, not names: C11's and C++'s keywords, CUDA's qualifiers,
 * builtin variables and types, and the names of the standard library's math functions
 * that kernels call. Sorted (strcmp): bsearch. Any identifier starting with "__",
 * "atomic" or "cuda" is kept too (is_kept). */
static const char *const kept_words[] = {
    "asm",       "auto",     "blockDim", "blockIdx", "bool",    "break",     "case",
    "catch",     "ceil",     "ceilf",    "char",     "class",   "const",     "constexpr",
    "continue",  "cos",      "cosf",     "default",  "defined", "delete",    "dim3",
    "do",        "double",   "double2",  "else",     "enum",    "exp",       "expf",
    "extern",    "fabs",     "fabsf",    "false",    "float",   "float2",    "float3",
    "float4",    "floor",    "floorf",   "fmax",     "fmaxf",   "fmin",      "fminf",
    "for",       "goto",     "gridDim",  "half",     "half2",   "if",        "inline",
    "int",       "int2",     "int3",     "int4",     "log",     "logf",      "long",
    "malloc",    "max",      "memcpy",   "memset",   "min",     "namespace", "new",
    "nullptr",   "operator", "pow",      "powf",     "printf",  "private",   "public",
    "register",  "restrict", "return",   "rsqrtf",   "short",   "signed",    "sin",
    "sinf",      "size_t",   "sizeof",   "sqrt",     "sqrtf",   "static",    "static_cast",
    "std",       "struct",   "switch",   "tanh",     "tanhf",   "template",  "this",
    "threadIdx", "throw",    "true",     "try",      "typedef", "typename",  "uint2",
    "uint4",     "union",    "unsigned", "using",    "void",    "volatile",  "warpSize",
    "while",
};

static int cmp_word(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

/* Whether identifier s[0..n) keeps its own text. */
static int is_kept(const char *s, size_t n)
{
    char w[32];
    if (n >= sizeof w)
        return n > 2 && s[0] == '_' && s[1] == '_';
    memcpy(w, s, n);
    w[n] = '\0';
    if (strncmp(w, "__", 2) == 0 || strncmp(w, "atomic", 6) == 0 || strncmp(w, "cuda", 4) == 0)
        return 1;
    return bsearch(w, kept_words, sizeof kept_words / sizeof *kept_words, sizeof *kept_words,
                   cmp_word) != NULL;
}

/* Punctuators of more than one character, longest first (C11 §6.4.6, C++'s :: ->* .*). */
static const char *const puncts[] = {"<<=", ">>=", "...", "->*", "<=>", "::", "->", "++", "--",
                                     "<<",  ">>",  "<=",  ">=",  "==",  "!=", "&&", "||", "+=",
                                     "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", "##", ".*"};

static int ident_start(unsigned char c)
{
    return c == '_' || c == '$' || (unsigned)((c | 32) - 'a') < 26u || c >= 0x80;
}

static int ident_char(unsigned char c)
{
    return ident_start(c) || (unsigned)(c - '0') < 10u;
}

uint64_t similar_fnv1a(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

static const char *const class_names[] = {
    [GL_SIMILAR_IDENT] = "ID", [GL_SIMILAR_INT] = "INT",  [GL_SIMILAR_FLOAT] = "FLT",
    [GL_SIMILAR_STR] = "STR",  [GL_SIMILAR_CHAR] = "CHR", [GL_SIMILAR_HDR] = "HDR"};

const char *similar_token_norm(const char *src, const gl_similar_token *t, char *buf, size_t n)
{
    const char *p = src + t->off;
    if (t->cls == GL_SIMILAR_KEEP && p[0] == '#' && t->len > 1) { /* "#  define": "#define" */
        size_t sp = 1;
        while (sp < t->len && (p[sp] == ' ' || p[sp] == '\t'))
            sp++;
        snprintf(buf, n, "#%.*s", (int)(t->len - sp), p + sp);
    } else if (t->cls == GL_SIMILAR_KEEP)
        snprintf(buf, n, "%.*s", (int)t->len, p);
    else
        snprintf(buf, n, "%s", class_names[t->cls]);
    return buf;
}

/* The lexer's state over one buffer. */
typedef struct lexer {
    const char *s;
    size_t len, i;
    uint32_t line;
    gl_similar_token *toks;
    int n, cap;
} lexer;

static int emit(lexer *x, size_t start, uint32_t line, gl_similar_class cls)
{
    if (x->n == x->cap) {
        int cap = x->cap ? x->cap * 2 : 256;
        gl_similar_token *t = realloc(x->toks, (size_t)cap * sizeof *t);
        if (!t)
            return -1;
        x->toks = t, x->cap = cap;
    }
    gl_similar_token *t = &x->toks[x->n++];
    *t = (gl_similar_token){
        .off = (uint32_t)start, .len = (uint32_t)(x->i - start), .line = line, .cls = (uint8_t)cls};
    if (cls == GL_SIMILAR_KEEP && x->s[start] != '#') {
        t->id = similar_fnv1a(x->s + start, t->len);
    } else {
        char buf[64];
        t->id = similar_fnv1a(buf, strlen(similar_token_norm(x->s, t, buf, sizeof buf)));
    }
    return 0;
}

/* The byte at i + k, or 0 past the end. */
static unsigned char at(const lexer *x, size_t k)
{
    return x->i + k < x->len ? (unsigned char)x->s[x->i + k] : 0;
}

/* Skips a quoted literal whose opening quote q is at x->i; a newline ends an unterminated
 * one (not consumed). */
static void skip_quoted(lexer *x, char q)
{
    x->i++;
    while (x->i < x->len && x->s[x->i] != q && x->s[x->i] != '\n') {
        if (x->s[x->i] == '\\' && x->i + 1 < x->len && x->s[x->i + 1] != '\n')
            x->i++;
        x->i++;
    }
    if (x->i < x->len && x->s[x->i] == q)
        x->i++;
}

/* Skips a raw string R"delim( ... )delim" whose quote is at x->i (C++11 [lex.string]),
 * counting its lines; an unterminated one runs to the end. */
static void skip_raw(lexer *x)
{
    size_t d0 = ++x->i;
    while (x->i < x->len && x->s[x->i] != '(' && x->i - d0 < 16 && x->s[x->i] != '\n')
        x->i++;
    const size_t dlen = x->i - d0;
    for (; x->i < x->len; x->i++) {
        if (x->s[x->i] == '\n')
            x->line++;
        if (x->s[x->i] == ')' && x->i + 1 + dlen < x->len &&
            memcmp(x->s + x->i + 1, x->s + d0, dlen) == 0 && x->s[x->i + 1 + dlen] == '"') {
            x->i += dlen + 2;
            return;
        }
    }
}

int similar_tokenize(const char *src, size_t len, gl_similar_token **out)
{
    lexer x = {.s = src, .len = len, .line = 1};
    int bol = 1; /* nothing but white space since the line's start */
    *out = NULL;
    while (x.i < len) {
        const unsigned char c = (unsigned char)src[x.i];
        const size_t start = x.i;
        const uint32_t line = x.line;
        if (c == '\n') {
            x.line++, x.i++, bol = 1;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            x.i++;
            continue;
        }
        if (c == '\\' && at(&x, 1) == '\n') { /* a continued line */
            x.line++, x.i += 2;
            continue;
        }
        if (c == '/' && at(&x, 1) == '/') {
            while (x.i < len && src[x.i] != '\n')
                x.i++;
            continue;
        }
        if (c == '/' && at(&x, 1) == '*') {
            x.i += 2;
            while (x.i < len && !(src[x.i] == '*' && at(&x, 1) == '/'))
                x.line += src[x.i++] == '\n';
            x.i = x.i < len ? x.i + 2 : len;
            continue;
        }
        int rc = 0;
        if (c == '#' && bol) { /* a directive: "#" and its name one token */
            x.i++;
            while (x.i < len && (src[x.i] == ' ' || src[x.i] == '\t'))
                x.i++;
            const size_t name = x.i;
            while (x.i < len && ident_char((unsigned char)src[x.i]))
                x.i++;
            rc = emit(&x, start, line, GL_SIMILAR_KEEP);
            if (rc == 0 && x.i - name == 7 && memcmp(src + name, "include", 7) == 0) {
                const size_t h = x.i;
                while (x.i < len && src[x.i] != '\n')
                    x.i++;
                if (x.i > h)
                    rc = emit(&x, h, line, GL_SIMILAR_HDR);
            }
        } else if (ident_start(c)) {
            while (x.i < len && ident_char((unsigned char)src[x.i]))
                x.i++;
            const size_t n = x.i - start;
            const unsigned char q = at(&x, 0);
            /* an encoding prefix or R before a quote: a literal (C11 §6.4.5, C++ raw) */
            const int prefix =
                n <= 3 && (q == '"' || q == '\'') && strspn(src + start, "uUL8R") >= n &&
                (n == 1 || memcmp(src + start, "u8", 2) == 0 || src[start + n - 1] == 'R');
            if (prefix && src[x.i - 1] == 'R' && q == '"') {
                skip_raw(&x);
                rc = emit(&x, start, line, GL_SIMILAR_STR);
            } else if (prefix) {
                skip_quoted(&x, (char)q);
                rc = emit(&x, start, line, q == '"' ? GL_SIMILAR_STR : GL_SIMILAR_CHAR);
            } else {
                rc = emit(&x, start, line,
                          is_kept(src + start, n) ? GL_SIMILAR_KEEP : GL_SIMILAR_IDENT);
            }
        } else if ((unsigned)(c - '0') < 10u || (c == '.' && (unsigned)(at(&x, 1) - '0') < 10u)) {
            /* a preprocessing number (C11 §6.4.8): digits, letters, '.', '\'' and
             * exponent signs */
            const int hex = c == '0' && (at(&x, 1) | 32) == 'x';
            int flt = 0;
            while (x.i < len) {
                const unsigned char d = (unsigned char)src[x.i];
                const unsigned char e = d | 32;
                if ((e == 'e' && !hex) || (e == 'p' && hex)) {
                    flt = 1;
                    x.i++;
                    if (x.i < len && (src[x.i] == '+' || src[x.i] == '-'))
                        x.i++;
                } else if (d == '.') {
                    flt = 1, x.i++;
                } else if (ident_char(d) || (d == '\'' && ident_char(at(&x, 1)))) {
                    x.i++;
                } else {
                    break;
                }
            }
            if (!hex && (src[x.i - 1] | 32) == 'f')
                flt = 1;
            rc = emit(&x, start, line, flt ? GL_SIMILAR_FLOAT : GL_SIMILAR_INT);
        } else if (c == '"' || c == '\'') {
            skip_quoted(&x, (char)c);
            rc = emit(&x, start, line, c == '"' ? GL_SIMILAR_STR : GL_SIMILAR_CHAR);
        } else {
            size_t n = 1;
            for (size_t p = 0; p < sizeof puncts / sizeof *puncts; p++) {
                const size_t pl = strlen(puncts[p]);
                if (pl <= len - x.i && memcmp(src + x.i, puncts[p], pl) == 0) {
                    n = pl;
                    break;
                }
            }
            x.i += n;
            rc = emit(&x, start, line, GL_SIMILAR_KEEP);
        }
        if (rc) {
            free(x.toks);
            return -1;
        }
        bol = 0;
    }
    *out = x.toks;
    return x.n;
}

/* ------------------------------------------------------------------ fingerprints */

int similar_kgrams(const uint64_t *ids, int n, int k, uint64_t *out)
{
    if (k < 1 || n < k)
        return 0;
    const uint64_t B = 0x100000001b3ull;
    uint64_t top = 1; /* B^(k-1) */
    for (int i = 1; i < k; i++)
        top *= B;
    uint64_t h = 0;
    for (int i = 0; i < k; i++)
        h = h * B + ids[i];
    out[0] = h;
    for (int p = 1; p + k <= n; p++) {
        h = (h - ids[p - 1] * top) * B + ids[p + k - 1];
        out[p] = h;
    }
    return n - k + 1;
}

int similar_winnow(const uint64_t *h, int n, int w, gl_similar_fp *out)
{
    if (n <= 0)
        return 0;
    if (w > n)
        w = n;
    int nout = 0, sel = -1;
    for (int end = w - 1; end < n; end++) {
        const int first = end - w + 1;
        int m = end; /* the rightmost minimum */
        for (int i = end - 1; i >= first; i--)
            if (h[i] < h[m])
                m = i;
        /* robust: keep the previous selection while it is in the window and minimal */
        if (sel >= first && h[sel] == h[m])
            continue;
        sel = m;
        out[nout++] = (gl_similar_fp){h[m], m};
    }
    return nout;
}

/* ------------------------------------------------------------------ documents */

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int has_hash(const uint64_t *sorted, int n, uint64_t h)
{
    return n > 0 && bsearch(&h, sorted, (size_t)n, sizeof h, cmp_u64) != NULL;
}

/* Tokens and k-grams of d (d->text set). 0, or -1 when out of memory. */
static int doc_hash(gl_similar_doc *d)
{
    d->ntoks = similar_tokenize(d->text, d->len, &d->toks);
    if (d->ntoks < 0)
        return -1;
    uint64_t *ids = malloc(((size_t)d->ntoks + 1) * sizeof *ids);
    d->kgrams = malloc(((size_t)d->ntoks + 1) * sizeof *d->kgrams);
    d->based = calloc((size_t)d->ntoks + 1, 1);
    if (!ids || !d->kgrams || !d->based) {
        free(ids);
        return -1;
    }
    for (int i = 0; i < d->ntoks; i++)
        ids[i] = d->toks[i].id;
    d->nkgrams = similar_kgrams(ids, d->ntoks, GL_SIMILAR_K, d->kgrams);
    free(ids);
    return 0;
}

/* Winnows d, marks the tokens the base's k-grams cover and keeps the fingerprints that
 * are not the base's. 0, or -1 when out of memory. */
static int doc_fingerprint(gl_similar_doc *d, const uint64_t *base, int nbase)
{
    d->fps = malloc(((size_t)d->nkgrams + 1) * sizeof *d->fps);
    if (!d->fps)
        return -1;
    for (int p = 0; p < d->nkgrams; p++)
        if (has_hash(base, nbase, d->kgrams[p]))
            memset(d->based + p, 1, GL_SIMILAR_K);
    const int n = similar_winnow(d->kgrams, d->nkgrams, GL_SIMILAR_W, d->fps);
    d->nfps = 0;
    for (int i = 0; i < n; i++)
        if (!has_hash(base, nbase, d->fps[i].hash))
            d->fps[d->nfps++] = d->fps[i];
    return 0;
}

static int is_cu(const struct dirent *e)
{
    const size_t n = strlen(e->d_name);
    return e->d_name[0] != '.' && n > 3 && strcmp(e->d_name + n - 3, ".cu") == 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* A (hash, document) entry of the index over every submission's fingerprints. */
typedef struct posting {
    uint64_t hash;
    int doc;
} posting;

static int cmp_posting(const void *a, const void *b)
{
    const posting *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->doc > y->doc) - (x->doc < y->doc);
}

static int cmp_pair(const void *a, const void *b)
{
    const gl_similar_pair *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    if (x->shared != y->shared)
        return x->shared > y->shared ? -1 : 1;
    if (x->a != y->a)
        return x->a - y->a;
    return x->b - y->b;
}

/* The base files' k-gram hashes, sorted and distinct, into *out (caller frees). */
static gl_status base_hashes(const gl_similar_opts *o, uint64_t **out, int *nout, gl_error *err)
{
    uint64_t *all = NULL;
    int n = 0;
    for (int b = 0; b < o->nbase; b++) {
        gl_similar_doc d = {0};
        d.text = gl_read_file(o->base[b], &d.len, err);
        if (!d.text) {
            free(all);
            return GL_ERR_INPUT;
        }
        uint64_t *grown = NULL;
        if (doc_hash(&d) == 0)
            grown = realloc(all, ((size_t)n + (size_t)d.nkgrams + 1) * sizeof *all);
        if (grown) {
            all = grown;
            memcpy(all + n, d.kgrams, (size_t)d.nkgrams * sizeof *all);
            n += d.nkgrams;
        }
        free(d.text), free(d.toks), free(d.kgrams), free(d.based);
        if (!grown) {
            free(all);
            return gl_fail(err, GL_ERR_NOMEM, "out of memory");
        }
    }
    if (n)
        qsort(all, (size_t)n, sizeof *all, cmp_u64);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || all[m - 1] != all[i])
            all[m++] = all[i];
    *out = all, *nout = m;
    return GL_OK;
}

/* Removes from every document the fingerprints whose hash is in more than max documents
 * (max < 0: none) according to the sorted postings ps (one per document and hash).
 * Returns the number of hashes removed, or -1 when out of memory. */
static int drop_common(gl_similar_report *r, posting *ps, size_t nps, int max)
{
    uint64_t *common = NULL;
    int ncommon = 0;
    for (size_t i = 0, j; i < nps; i = j) {
        for (j = i; j < nps && ps[j].hash == ps[i].hash; j++)
            ;
        if (max >= 0 && (int)(j - i) > max) {
            uint64_t *c = realloc(common, ((size_t)ncommon + 1) * sizeof *c);
            if (!c) {
                free(common);
                return -1;
            }
            common = c;
            common[ncommon++] = ps[i].hash;
        }
    }
    for (int d = 0; d < r->ndocs; d++) {
        gl_similar_doc *doc = &r->docs[d];
        int k = 0;
        for (int i = 0; i < doc->nfps; i++)
            if (!has_hash(common, ncommon, doc->fps[i].hash))
                doc->fps[k++] = doc->fps[i];
        doc->nfps = k;
    }
    free(common);
    return ncommon;
}

gl_status similar_compare(const gl_similar_opts *o, gl_similar_report *r, gl_error *err)
{
    memset(r, 0, sizeof *r);
    r->max_common = o->max_common == 0  ? GL_SIMILAR_MAX_COMMON
                    : o->max_common < 0 ? -1
                                        : o->max_common;
    struct dirent **names = NULL;
    const int n = scandir(o->dir, &names, is_cu, by_name);
    if (n < 0)
        return gl_fail(err, GL_ERR_INPUT, "%s: cannot read the folder: %s", o->dir,
                       strerror(errno));
    gl_status st = GL_OK;
    if (n == 0)
        st = gl_fail(err, GL_ERR_INPUT,
                     "%s: no .cu files to compare (one submission per learner, each a .cu "
                     "file in the folder)",
                     o->dir);
    else if (n > GL_SIMILAR_MAX_FILES)
        st = gl_fail(err, GL_ERR_INPUT,
                     "%s: %d .cu files, more than the %d one comparison takes: split the "
                     "folder by exercise or section",
                     o->dir, n, GL_SIMILAR_MAX_FILES);
    else if (!(r->docs = calloc((size_t)n, sizeof *r->docs)))
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
    for (int i = 0; st == GL_OK && i < n; i++) {
        gl_similar_doc *d = &r->docs[r->ndocs++];
        if (!(d->name = strdup(names[i]->d_name))) {
            st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
            break;
        }
        char path[4096 + 256];
        snprintf(path, sizeof path, "%s/%s", o->dir, names[i]->d_name);
        gl_error rerr = {0};
        char why[200];
        d->text = gl_read_submission(path, &d->len, &rerr);
        if (!d->text) {
            /* the reason without the path (which quotes the name again) */
            const size_t pl = strlen(path);
            const int named = strncmp(rerr.msg, path, pl) == 0 && rerr.msg[pl] == ':';
            snprintf(why, sizeof why, "%.150s",
                     named ? rerr.msg + pl + 1 + (rerr.msg[pl + 1] == ' ') : rerr.msg);
        } else if (d->len > GL_SIMILAR_MAX_BYTES || d->len > UINT32_MAX) {
            snprintf(why, sizeof why, "larger than %zu KiB, not a submission of one exercise",
                     GL_SIMILAR_MAX_BYTES >> 10);
            free(d->text), d->text = NULL;
        }
        if (!d->text && !(d->skipped = strdup(why)))
            st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        else if (d->text && doc_hash(d) != 0)
            st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (st != GL_OK)
        return st;

    uint64_t *base = NULL;
    if ((st = base_hashes(o, &base, &r->nbase_hashes, err)) != GL_OK)
        return st;
    size_t nps = 0;
    for (int d = 0; d < r->ndocs; d++) {
        if (r->docs[d].text && doc_fingerprint(&r->docs[d], base, r->nbase_hashes) != 0) {
            free(base);
            return gl_fail(err, GL_ERR_NOMEM, "out of memory");
        }
        nps += (size_t)r->docs[d].nfps;
    }
    free(base);

    /* the index: one posting per document and distinct hash, sorted by hash */
    posting *ps = malloc((nps + 1) * sizeof *ps);
    if (!ps)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    size_t m = 0;
    for (int d = 0; d < r->ndocs; d++)
        for (int i = 0; i < r->docs[d].nfps; i++)
            ps[m++] = (posting){r->docs[d].fps[i].hash, d};
    qsort(ps, m, sizeof *ps, cmp_posting);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (u == 0 || ps[u - 1].hash != ps[i].hash || ps[u - 1].doc != ps[i].doc)
            ps[u++] = ps[i];
    if ((r->ncommon = drop_common(r, ps, u, r->max_common)) < 0) {
        free(ps);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    /* each document's distinct hashes (the index has one posting per document and hash),
     * the common ones left out */
    for (size_t i = 0, j; i < u; i = j) {
        for (j = i; j < u && ps[j].hash == ps[i].hash; j++)
            ;
        if (r->max_common < 0 || (int)(j - i) <= r->max_common)
            for (size_t k = i; k < j; k++)
                r->docs[ps[k].doc].nhashes++;
    }

    /* shared hashes per pair, counted over the index's hash groups (upper triangle) */
    const size_t nd = (size_t)r->ndocs;
    int *shared = calloc(nd * nd, sizeof *shared);
    if (!shared) {
        free(ps);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0, j; i < u; i = j) {
        for (j = i; j < u && ps[j].hash == ps[i].hash; j++)
            ;
        if (r->max_common >= 0 && (int)(j - i) > r->max_common)
            continue;
        for (size_t a = i; a < j; a++)
            for (size_t b = a + 1; b < j; b++)
                shared[(size_t)ps[a].doc * nd + (size_t)ps[b].doc]++;
    }
    free(ps);
    size_t npairs = 0;
    for (size_t a = 0; a < nd; a++)
        for (size_t b = a + 1; b < nd; b++)
            npairs += shared[a * nd + b] > 0;
    r->pairs = calloc(npairs + 1, sizeof *r->pairs);
    if (!r->pairs) {
        free(shared);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    for (size_t a = 0; a < nd; a++)
        for (size_t b = a + 1; b < nd; b++) {
            const int s = shared[a * nd + b];
            if (s == 0)
                continue;
            const int na = r->docs[a].nhashes, nb = r->docs[b].nhashes;
            gl_similar_pair *p = &r->pairs[r->npairs++];
            p->a = (int)a, p->b = (int)b, p->shared = s;
            p->score = (double)s / (na < nb ? na : nb);
        }
    free(shared);
    qsort(r->pairs, (size_t)r->npairs, sizeof *r->pairs, cmp_pair);
    return GL_OK;
}

/* ------------------------------------------------------------------ regions */

static int cmp_fp(const void *a, const void *b)
{
    const gl_similar_fp *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return x->pos - y->pos;
}

static int cmp_region_len(const void *a, const void *b)
{
    const gl_similar_region *x = a, *y = b;
    if (x->ntoks != y->ntoks)
        return y->ntoks - x->ntoks;
    if (x->a_tok != y->a_tok)
        return x->a_tok - y->a_tok;
    return x->b_tok - y->b_tok;
}

static int cmp_region_pos(const void *a, const void *b)
{
    const gl_similar_region *x = a, *y = b;
    return x->a_tok != y->a_tok ? x->a_tok - y->a_tok : x->b_tok - y->b_tok;
}

int similar_regions(const gl_similar_report *r, gl_similar_pair *p)
{
    const gl_similar_doc *A = &r->docs[p->a], *B = &r->docs[p->b];
    free(p->regions);
    p->regions = NULL, p->nregions = 0, p->matched = 0;
    /* seeds: every (position in a, position in b) of a hash both kept */
    size_t cap = 64, n = 0;
    gl_similar_region *t = malloc(cap * sizeof *t);
    if (!t)
        return -1;
    gl_similar_fp *bs = malloc(((size_t)B->nfps + 1) * sizeof *bs);
    if (!bs) {
        free(t);
        return -1;
    }
    memcpy(bs, B->fps, (size_t)B->nfps * sizeof *bs);
    qsort(bs, (size_t)B->nfps, sizeof *bs, cmp_fp);
    for (int i = 0; i < A->nfps; i++) {
        int lo = 0, hi = B->nfps; /* the first of b's fingerprints with this hash */
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (bs[mid].hash < A->fps[i].hash)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (int j = lo; j < B->nfps && bs[j].hash == A->fps[i].hash; j++) {
            int a0 = A->fps[i].pos, b0 = bs[j].pos, len = 0;
            /* a seed inside a tile of its diagonal made already adds nothing */
            int inside = 0;
            for (size_t q = n > 8 ? n - 8 : 0; q < n && !inside; q++)
                inside = t[q].a_tok - t[q].b_tok == a0 - b0 && a0 >= t[q].a_tok &&
                         a0 < t[q].a_tok + t[q].ntoks;
            if (inside)
                continue;
            while (len < GL_SIMILAR_K && A->toks[a0 + len].id == B->toks[b0 + len].id)
                len++;
            if (len < GL_SIMILAR_K)
                continue; /* a hash collision */
            /* the seed less the base's tokens at its ends, then extended over equal
             * tokens the base does not cover */
            while (len > 0 && (A->based[a0] || B->based[b0]))
                a0++, b0++, len--;
            while (len > 0 && (A->based[a0 + len - 1] || B->based[b0 + len - 1]))
                len--;
            if (len == 0)
                continue;
            while (a0 > 0 && b0 > 0 && A->toks[a0 - 1].id == B->toks[b0 - 1].id &&
                   !A->based[a0 - 1] && !B->based[b0 - 1])
                a0--, b0--, len++;
            while (a0 + len < A->ntoks && b0 + len < B->ntoks &&
                   A->toks[a0 + len].id == B->toks[b0 + len].id && !A->based[a0 + len] &&
                   !B->based[b0 + len])
                len++;
            if (n == cap) {
                gl_similar_region *g = realloc(t, 2 * cap * sizeof *t);
                if (!g) {
                    free(t), free(bs);
                    return -1;
                }
                t = g, cap *= 2;
            }
            t[n++] = (gl_similar_region){.a_tok = a0, .b_tok = b0, .ntoks = len};
        }
    }
    free(bs);
    /* the longest tiles first; one that overlaps a tile taken is left out */
    qsort(t, n, sizeof *t, cmp_region_len);
    unsigned char *ua = calloc((size_t)A->ntoks + 1, 1), *ub = calloc((size_t)B->ntoks + 1, 1);
    if (!ua || !ub) {
        free(ua), free(ub), free(t);
        return -1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        int clash = 0;
        for (int k = 0; k < t[i].ntoks && !clash; k++)
            clash = ua[t[i].a_tok + k] || ub[t[i].b_tok + k];
        if (clash)
            continue;
        memset(ua + t[i].a_tok, 1, (size_t)t[i].ntoks);
        memset(ub + t[i].b_tok, 1, (size_t)t[i].ntoks);
        gl_similar_region *g = &t[kept++];
        *g = t[i];
        g->a_first = (int)A->toks[g->a_tok].line;
        g->a_last = (int)A->toks[g->a_tok + g->ntoks - 1].line;
        g->b_first = (int)B->toks[g->b_tok].line;
        g->b_last = (int)B->toks[g->b_tok + g->ntoks - 1].line;
        p->matched += g->ntoks;
    }
    free(ua), free(ub);
    qsort(t, kept, sizeof *t, cmp_region_pos);
    /* tiles apart only by the base's tokens or a changed token, on lines that touch in
     * both files, are one region */
    size_t m = 0;
    for (size_t i = 0; i < kept; i++) {
        gl_similar_region *prev = m ? &t[m - 1] : NULL;
        if (prev && t[i].a_first <= prev->a_last + 1 && t[i].a_first >= prev->a_first &&
            t[i].b_first <= prev->b_last + 1 && t[i].b_first >= prev->b_first) {
            prev->a_last = t[i].a_last > prev->a_last ? t[i].a_last : prev->a_last;
            prev->b_last = t[i].b_last > prev->b_last ? t[i].b_last : prev->b_last;
            prev->ntoks += t[i].ntoks;
        } else {
            t[m++] = t[i];
        }
    }
    p->regions = t, p->nregions = (int)m;
    return 0;
}

void similar_report_free(gl_similar_report *r)
{
    for (int d = 0; d < r->ndocs; d++) {
        gl_similar_doc *doc = &r->docs[d];
        free(doc->name), free(doc->text), free(doc->skipped), free(doc->toks);
        free(doc->kgrams), free(doc->fps), free(doc->based);
    }
    for (int p = 0; p < r->npairs; p++)
        free(r->pairs[p].regions);
    free(r->docs), free(r->pairs);
    memset(r, 0, sizeof *r);
}
