/* test_scope_sweep.c — every kernel gpulearn ships or tests (the .cu files of lessons/, at
 * their lessons' targets, of tests/grade/ at their lessons' exercises' targets, and of
 * tests/corpus/ at their specs' targets) is
 * compiled by every compiler present (NVRTC, nvcc, clang; a missing one prints SKIP), and
 * each name an instruction of the PTX uses must be bound by the parser to the
 * declaration of the innermost block that declares it (PTX ISA §9.7.12.1 {}: registers
 * and variables declared before their use, labels anywhere in their block), as a scope
 * walk of its own over the PTX text finds it: ptx_parse_bindings' list against the
 * walk's, name by name. A difference fails naming the file, the compiler, the PTX line
 * and the name; so does a parse error about declarations or unknown names (the compilers'
 * PTX is valid). Run from the repository root.
 *
 * Time: the compilations dominate (about 0.1 s of CPU each for NVRTC and clang, 0.25 s
 * for nvcc). They run in SWEEP_JOBS processes (default 2) and go through the PTX cache,
 * which tests/corpus.sh shares (the corpus with each compiler, the same keys). nvcc,
 * whose front end is NVRTC's, compiles the lessons and the corpus but not tests/grade's
 * 300 submissions unless SWEEP_NVCC=all: about 50 s on 2 idle cores with all three
 * compilers, half of it without a Toolkit (clang only, as in CI). SWEEP_COMPILERS=clang
 * (a comma list) limits the compilers, SWEEP_ONLY=text the files to paths holding it;
 * SWEEP_DEBUG=1 sweeps the debug builds grading makes (-G; clang -O0) instead. */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/compile.h"
#include "runtime/lesson.h"
#include "runtime/spec.h"
#include "sim/ptx/ptx.h"
#include "sim/sim.h"

/* ------------------------------------------------------------------ the scope walk */

/* A token of the PTX text: kind 'i' identifier, 'd' directive (.reg, .b32, .x), 'n'
 * number, 's' string, or the punctuation character itself. */
typedef struct wtok {
    int kind, line, col;
    const char *p;
    int len;
} wtok;

static int ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static int ident_char(int c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

/* The tokens of text[0..len), comments and blanks left out; *n of them (caller frees). */
static wtok *tokenize(const char *text, size_t len, int *n)
{
    int cap = 1024, cnt = 0, line = 1;
    wtok *t = malloc((size_t)cap * sizeof *t);
    const char *s = text, *end = text + len, *line_start = text;
    while (s < end && t) {
        if (*s == '\n') {
            line++;
            line_start = ++s;
            continue;
        }
        if (*s == ' ' || *s == '\t' || *s == '\r') {
            s++;
            continue;
        }
        if (s + 1 < end && s[0] == '/' && s[1] == '/') {
            while (s < end && *s != '\n')
                s++;
            continue;
        }
        if (s + 1 < end && s[0] == '/' && s[1] == '*') {
            for (s += 2; s + 1 < end && !(s[0] == '*' && s[1] == '/'); s++)
                if (*s == '\n')
                    line++, line_start = s + 1;
            s += 2;
            continue;
        }
        wtok k = {0, line, (int)(s - line_start) + 1, s, 1};
        if (ident_start((unsigned char)*s)) {
            k.kind = 'i';
            while (s + k.len < end && ident_char((unsigned char)s[k.len]))
                k.len++;
        } else if (*s == '.' && s + 1 < end && ident_char((unsigned char)s[1])) {
            k.kind = 'd';
            while (s + k.len < end && ident_char((unsigned char)s[k.len]))
                k.len++;
        } else if (*s >= '0' && *s <= '9') {
            k.kind = 'n';
            while (s + k.len < end && (ident_char((unsigned char)s[k.len]) || s[k.len] == '.'))
                k.len++;
        } else if (*s == '"') {
            k.kind = 's';
            while (s + k.len < end && s[k.len] != '"' && s[k.len] != '\n')
                k.len++;
            k.len++;
        } else {
            k.kind = (unsigned char)*s;
        }
        if (cnt == cap) {
            cap *= 2;
            wtok *nt = realloc(t, (size_t)cap * sizeof *t);
            if (!nt) {
                free(t);
                return NULL;
            }
            t = nt;
        }
        t[cnt++] = k;
        s += k.len;
    }
    *n = cnt;
    return t;
}

static int tok_is(const wtok *k, const char *s)
{
    return (int)strlen(s) == k->len && memcmp(k->p, s, (size_t)k->len) == 0;
}

/* A declaration the walk has seen: name (its own copy), place, block, the declaration of
 * the same name it hides (index or -1). */
typedef struct wdecl {
    char *name;
    int line, col, blk, kind, hides;
} wdecl;

/* Names -> their innermost visible declaration (index into decls), open addressing. */
typedef struct wmap {
    char **keys;
    int *vals;
    size_t cap;
} wmap;

static size_t wmap_slot(const wmap *m, const char *k, size_t n)
{
    size_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * 1099511628211ull;
    size_t i = h & (m->cap - 1);
    while (m->keys[i] && !(strlen(m->keys[i]) == n && memcmp(m->keys[i], k, n) == 0))
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int wmap_get(const wmap *m, const char *k, size_t n)
{
    if (!m->cap)
        return -1;
    size_t i = wmap_slot(m, k, n);
    return m->keys[i] ? m->vals[i] : -1;
}

static void wmap_put(wmap *m, const char *k, size_t n, int v, size_t *used)
{
    if (2 * (*used + 1) > m->cap) {
        wmap old = *m;
        m->cap = old.cap ? 2 * old.cap : 256;
        m->keys = calloc(m->cap, sizeof *m->keys);
        m->vals = calloc(m->cap, sizeof *m->vals);
        *used = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i]) {
                size_t j = wmap_slot(m, old.keys[i], strlen(old.keys[i]));
                m->keys[j] = old.keys[i];
                m->vals[j] = old.vals[i];
                (*used)++;
            }
        free(old.keys);
        free(old.vals);
    }
    size_t i = wmap_slot(m, k, n);
    if (!m->keys[i]) {
        m->keys[i] = strndup(k, n);
        (*used)++;
    }
    m->vals[i] = v;
}

static void wmap_free(wmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* What the walk expects at one use: the declaration's place, the kind and the name. */
typedef struct wuse {
    int line, col, decl_line, decl_col, kind;
    const char *name;
    int len;
} wuse;

typedef struct walk {
    wdecl *decls;
    int ndecls, declcap;
    wmap names; /* register and variable names */
    size_t nnames;
    wmap labels; /* "<block>:<label>" -> index into decls */
    size_t nlabels;
    int *parent; /* [block] */
    int nblk, blkcap;
    wuse *uses;
    int nuses, usecap;
} walk;

static void walk_declare(walk *w, const wtok *k, const char *name, size_t n, int blk, int kind)
{
    if (w->ndecls == w->declcap) {
        w->declcap = w->declcap ? 2 * w->declcap : 256;
        w->decls = realloc(w->decls, (size_t)w->declcap * sizeof *w->decls);
    }
    int prev = wmap_get(&w->names, name, n);
    w->decls[w->ndecls] = (wdecl){strndup(name, n), k->line, k->col, blk, kind, prev};
    wmap_put(&w->names, name, n, w->ndecls++, &w->nnames);
}

static void walk_use(walk *w, const wtok *k, const wdecl *d, int kind)
{
    if (w->nuses == w->usecap) {
        w->usecap = w->usecap ? 2 * w->usecap : 1024;
        w->uses = realloc(w->uses, (size_t)w->usecap * sizeof *w->uses);
    }
    w->uses[w->nuses++] = (wuse){k->line, k->col, d->line, d->col, kind, k->p, k->len};
}

/* Closes block blk: its declarations (the last ones) stop hiding the outer ones. */
static void walk_close(walk *w, int blk)
{
    while (w->ndecls > 0 && w->decls[w->ndecls - 1].blk == blk) {
        wdecl *d = &w->decls[--w->ndecls];
        wmap_put(&w->names, d->name, strlen(d->name), d->hides, &w->nnames);
        free(d->name);
    }
}

static int walk_new_block(walk *w, int parent)
{
    if (w->nblk == w->blkcap) {
        w->blkcap = w->blkcap ? 2 * w->blkcap : 64;
        w->parent = realloc(w->parent, (size_t)w->blkcap * sizeof *w->parent);
    }
    w->parent[w->nblk] = parent;
    return w->nblk++;
}

/* Declares the names of the declaration statement t[i..j) (.reg: every name, `%r<N>` as
 * %r0 .. %rN-1; a variable or parameter: its name) in block blk. */
static void walk_decl_stmt(walk *w, const wtok *t, int i, int j, int blk)
{
    const int is_reg = tok_is(&t[i], ".reg");
    for (int k = i + 1; k < j; k++) {
        if (t[k].kind != 'i')
            continue;
        if (is_reg && k + 3 < j && t[k + 1].kind == '<' && t[k + 2].kind == 'n') {
            long cnt = strtol(t[k + 2].p, NULL, 10);
            char buf[160];
            for (long r = 0; r < cnt && t[k].len < 120; r++) {
                int bl = snprintf(buf, sizeof buf, "%.*s%ld", t[k].len, t[k].p, r);
                walk_declare(w, &t[k], buf, (size_t)bl, blk, PTX_BIND_REG);
            }
        } else {
            walk_declare(w, &t[k], t[k].p, (size_t)t[k].len, blk,
                         is_reg ? PTX_BIND_REG : PTX_BIND_VAR);
        }
        if (!is_reg)
            return; /* one variable per statement; its initializer names no locals */
        while (k < j && t[k].kind != ',')
            k++;
    }
}

/* The label `name` as seen from block blk: its definition (decls index) or -1. */
static int walk_label(const walk *w, const wtok *k, int blk)
{
    char key[1024];
    for (int b = blk; b >= 0; b = w->parent[b]) {
        int kl = snprintf(key, sizeof key, "%d:%.*s", b, k->len, k->p);
        int v = kl > 0 && kl < (int)sizeof key ? wmap_get(&w->labels, key, (size_t)kl) : -1;
        if (v >= 0)
            return v;
    }
    return -1;
}

/* One function body t[*pos ..] (after its '{') with its parameters pdecl[0..npar) in
 * block 0: the uses of every declared name into w->uses. *pos ends after the '}'. */
static void walk_function(walk *w, const wtok *t, int n, int *pos, const int *params, int npar)
{
    wdecl *labeldefs = NULL;
    int nlabeldefs = 0;
    /* pass 1: the blocks and their labels */
    w->nblk = 0;
    int first_blk = walk_new_block(w, -1), blk = first_blk, depth = 1, start = 1, i;
    for (i = *pos; i < n && depth > 0; i++) {
        if (start && t[i].kind == '{') {
            blk = walk_new_block(w, blk), depth++;
        } else if (start && t[i].kind == '}') {
            blk = w->parent[blk], depth--;
        } else if (t[i].kind == ';') {
            start = 1;
        } else if (start && t[i].kind == 'd' && tok_is(&t[i], ".loc")) {
            while (i + 1 < n && t[i + 1].line == t[i].line)
                i++;
        } else if (start && t[i].kind == 'i' && i + 1 < n && t[i + 1].kind == ':') {
            char key[1024];
            int kl = snprintf(key, sizeof key, "%d:%.*s", blk, t[i].len, t[i].p);
            labeldefs = realloc(labeldefs, (size_t)(nlabeldefs + 1) * sizeof *labeldefs);
            labeldefs[nlabeldefs] = (wdecl){NULL, t[i].line, t[i].col, blk, PTX_BIND_LABEL, -1};
            if (kl > 0 && kl < (int)sizeof key)
                wmap_put(&w->labels, key, (size_t)kl, nlabeldefs, &w->nlabels);
            nlabeldefs++;
            i++;
        } else {
            start = 0;
        }
    }
    /* pass 2: declarations in order, and every use */
    blk = first_blk, depth = 1, start = 1;
    int nblk = 1;
    for (int p = 0; p < npar; p++)
        walk_declare(w, &t[params[p]], t[params[p]].p, (size_t)t[params[p]].len, 0, PTX_BIND_VAR);
    for (i = *pos; i < n && depth > 0; i++) {
        if (start && t[i].kind == '{') {
            blk = nblk++, depth++;
            continue;
        }
        if (start && t[i].kind == '}') {
            walk_close(w, blk);
            blk = w->parent[blk], depth--;
            continue;
        }
        if (t[i].kind == ';')
            continue;
        if (t[i].kind == 'd' && tok_is(&t[i], ".loc")) {
            while (i + 1 < n && t[i + 1].line == t[i].line)
                i++;
            continue;
        }
        if (t[i].kind == 'i' && i + 1 < n && t[i + 1].kind == ':') {
            i++;
            continue;
        }
        int j = i; /* the statement t[i..j) */
        while (j < n && t[j].kind != ';')
            j++;
        if (t[i].kind == 'd') {
            if (tok_is(&t[i], ".reg") || tok_is(&t[i], ".local") || tok_is(&t[i], ".shared") ||
                tok_is(&t[i], ".param") || tok_is(&t[i], ".global") || tok_is(&t[i], ".const"))
                walk_decl_stmt(w, t, i, j, blk);
            i = j;
            continue;
        }
        int op = i;
        if (t[op].kind == '@')
            op += t[op + 1].kind == '!' ? 3 : 2;
        const int is_bra =
            op < j && t[op].kind == 'i' && (tok_is(&t[op], "bra") || tok_is(&t[op], "brx"));
        for (int k = i; k < j; k++) {
            if (t[k].kind != 'i' || k == op)
                continue;
            int d = wmap_get(&w->names, t[k].p, (size_t)t[k].len);
            if (d >= 0) {
                walk_use(w, &t[k], &w->decls[d], w->decls[d].kind);
            } else if (is_bra && k > op) {
                int l = walk_label(w, &t[k], blk);
                if (l >= 0)
                    walk_use(w, &t[k], &labeldefs[l], PTX_BIND_LABEL);
            }
        }
        i = j;
    }
    walk_close(w, 0);
    free(labeldefs);
    wmap_free(&w->labels);
    w->nlabels = 0;
    *pos = i;
}

/* The parameter names of the list t[*pos] == '(' .. ')' into params (token indexes);
 * *pos ends after the ')'. */
static void walk_params(const wtok *t, int n, int *pos, int *params, int *npar, int max)
{
    int i = *pos + 1, first = 1;
    for (; i < n && t[i].kind != ')'; i++) {
        if (t[i].kind == ',')
            first = 1;
        else if (t[i].kind == 'i' && first && *npar < max)
            params[(*npar)++] = i, first = 0;
    }
    *pos = i + 1;
}

/* The scope walk of a whole module: every use of a declared name, in text order. */
static void walk_module(walk *w, const char *text, size_t len)
{
    int n = 0;
    wtok *t = tokenize(text, len, &n);
    int params[256], npar = 0;
    for (int i = 0; t && i < n;) {
        if (t[i].kind == 'd' && (tok_is(&t[i], ".entry") || tok_is(&t[i], ".func"))) {
            npar = 0;
            i++;
            if (i < n && t[i].kind == '(') /* a .func's return parameters */
                walk_params(t, n, &i, params, &npar, 256);
            i++; /* the name */
            if (i < n && t[i].kind == '(')
                walk_params(t, n, &i, params, &npar, 256);
            while (i < n && t[i].kind != '{' && t[i].kind != ';')
                i++;
            if (i < n && t[i].kind == '{') {
                i++;
                walk_function(w, t, n, &i, params, npar);
            }
            continue;
        }
        if (t[i].kind == '{') { /* .section's debug data, an initializer: skip */
            int depth = 0;
            do
                depth += t[i].kind == '{' ? 1 : t[i].kind == '}' ? -1 : 0;
            while (++i < n && depth > 0);
            continue;
        }
        i++;
    }
    free(t);
}

static void walk_free(walk *w)
{
    for (int i = 0; i < w->ndecls; i++)
        free(w->decls[i].name);
    free(w->decls);
    wmap_free(&w->names);
    wmap_free(&w->labels);
    free(w->parent);
    free(w->uses);
}

/* ------------------------------------------------------------------ the sweep */

static int by_place(const void *a, const void *b)
{
    const ptx_binding *x = a, *y = b;
    return x->line != y->line ? (x->line > y->line) - (x->line < y->line)
                              : (x->col > y->col) - (x->col < y->col);
}

static const char *const kind_names[] = {"register", "variable", "label"};

/* Compares the parser's bindings of one PTX text with the walk's; appends a line per
 * difference to out (at most 5). Returns the number of differences. */
static int compare(const char *what, const char *text, ptx_binding *b, int nb, FILE *out,
                   long *compared)
{
    walk w = {0};
    walk_module(&w, text, strlen(text));
    if (nb > 1) /* a module without names has no bindings: b may be NULL */
        qsort(b, (size_t)nb, sizeof *b, by_place);
    int bad = 0, k = 0;
    for (int i = 0; i < nb; i++) {
        while (k < w.nuses && (w.uses[k].line < b[i].line ||
                               (w.uses[k].line == b[i].line && w.uses[k].col < b[i].col)))
            k++;
        const wuse *u = k < w.nuses && w.uses[k].line == b[i].line && w.uses[k].col == b[i].col
                            ? &w.uses[k]
                            : NULL;
        const int module_scope = b[i].kind == PTX_BIND_VAR && b[i].decl_line == 0;
        *compared += u != NULL;
        if (u ? u->decl_line == b[i].decl_line && u->decl_col == b[i].decl_col &&
                    u->kind == b[i].kind
              : module_scope)
            continue;
        if (bad++ < 5) {
            if (u)
                fprintf(out,
                        "%s: PTX line %d: '%.*s' is the %s declared on line %d (col %d), the "
                        "innermost block's, but the simulator reads the %s declared on line %d "
                        "(col %d)\n",
                        what, b[i].line, u->len, u->name, kind_names[u->kind], u->decl_line,
                        u->decl_col, kind_names[b[i].kind], b[i].decl_line, b[i].decl_col);
            else
                fprintf(out,
                        "%s: PTX line %d col %d: the simulator reads the %s declared on line %d "
                        "(col %d), which no block around it declares\n",
                        what, b[i].line, b[i].col, kind_names[b[i].kind], b[i].decl_line,
                        b[i].decl_col);
        }
    }
    walk_free(&w);
    return bad;
}

typedef struct unit {
    char path[512];
    char real[PATH_MAX]; /* the file, however path names it */
    char arch[16];
} unit;

static unit *units;
static int nunits, unitcap;

/* Adds path at target arch unless the file is there at that target already (a corpus
 * spec's "../corpus/x.cu" is tests/corpus/x.cu). */
static void add_unit(const char *path, const char *arch)
{
    char real[PATH_MAX];
    if (!realpath(path, real))
        snprintf(real, sizeof real, "%s", path);
    for (int i = 0; i < nunits; i++)
        if (!strcmp(units[i].real, real) && !strcmp(units[i].arch, arch ? arch : ""))
            return;
    if (nunits == unitcap) {
        unitcap = unitcap ? 2 * unitcap : 256;
        units = realloc(units, (size_t)unitcap * sizeof *units);
    }
    snprintf(units[nunits].path, sizeof units[nunits].path, "%s", path);
    snprintf(units[nunits].real, sizeof units[nunits].real, "%s", real);
    snprintf(units[nunits].arch, sizeof units[nunits].arch, "%s", arch ? arch : "");
    nunits++;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Every .cu under dir (recursively), at target arch. */
static void add_dir(const char *dir, const char *arch)
{
    struct dirent **names = NULL;
    int nn = scandir(dir, &names, NULL, alphasort);
    for (int i = 0; i < nn; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (names[i]->d_type == DT_DIR && names[i]->d_name[0] != '.')
            add_dir(path, arch);
        else if (ends_with(names[i]->d_name, ".cu"))
            add_unit(path, arch);
        free(names[i]);
    }
    free(names);
}

/* The lessons' files at their lessons' targets, tests/grade's at their lessons', the
 * corpus' kernels at their specs'. */
static void collect(void)
{
    struct dirent **names = NULL;
    int nn = scandir("lessons", &names, NULL, alphasort);
    for (int i = 0; i < nn; i++) {
        char dir[512], gdir[512];
        snprintf(dir, sizeof dir, "lessons/%s", names[i]->d_name);
        snprintf(gdir, sizeof gdir, "tests/grade/%s", names[i]->d_name);
        gl_lesson l;
        gl_error err = {0};
        if (names[i]->d_name[0] != '.' && lesson_load(dir, &l, &err) == GL_OK) {
            add_dir(dir, l.arch);
            add_dir(gdir, lesson_exercise_arch(&l));
            lesson_free(&l);
        }
        free(names[i]);
    }
    free(names);
    add_dir("tests/grade", NULL); /* the rest (batch/) */
    nn = scandir("tests/corpus", &names, NULL, alphasort);
    for (int i = 0; i < nn; i++) {
        char path[512];
        snprintf(path, sizeof path, "tests/corpus/%s", names[i]->d_name);
        gl_spec sp;
        gl_error err = {0};
        if (ends_with(path, ".json") && !ends_with(path, ".golden.json") &&
            spec_load_file(path, &sp, &err) == GL_OK) {
            add_unit(sp.source, sp.arch);
            spec_free(&sp);
        }
        free(names[i]);
    }
    free(names);
    add_dir("tests/corpus", NULL); /* kernels no spec names */
}

/* Sweeps units i = w, w + jobs, ... with compiler c; writes the differences and notes
 * to out, and last "SWEPT <kernels> <names compared>". Returns the number of
 * differences. */
static int sweep(gl_compiler c, int w, int jobs, FILE *out)
{
    int bad = 0, kernels = 0;
    long compared = 0;
    const char *only = getenv("SWEEP_ONLY");
    const int nvcc_all = getenv("SWEEP_NVCC") && !strcmp(getenv("SWEEP_NVCC"), "all");
    for (int i = w; i < nunits; i += jobs) {
        if ((only && !strstr(units[i].path, only)) ||
            (c == GL_CC_NVCC && !nvcc_all && !strncmp(units[i].path, "tests/grade/", 12)))
            continue;
        kernels++;
        gl_compile_opts o = {.compiler = c,
                             .arch = units[i].arch[0] ? units[i].arch : NULL,
                             .debug = getenv("SWEEP_DEBUG") != NULL};
        gl_compiled cc;
        gl_error err = {0};
        char what[600];
        snprintf(what, sizeof what, "%s (%s%s%s)", units[i].path, gl_compiler_name(c),
                 units[i].arch[0] ? ", " : "", units[i].arch);
        gl_status st = gl_compile_cuda(units[i].path, &o, &cc, &err);
        if (st == GL_ERR_TOOL) {
            fprintf(out, "SKIP %s: not available\n", gl_compiler_name(c));
            return bad;
        }
        if (st != GL_OK) { /* what c cannot compile (a corpus .skip says why), counted */
            fprintf(out, "NOCOMPILE\n");
            continue;
        }
        ptx_module_t *m = NULL;
        char *diag = NULL;
        ptx_binding *b = NULL;
        int nb = 0;
        if (ptx_parse_bindings(cc.ptx, strlen(cc.ptx), units[i].path, &m, &diag, &b, &nb) !=
            SIM_OK) {
            const char *scope_errs[] = {"declared twice", "defined twice",  "unknown register",
                                        "unknown label",  "unknown symbol", "as a label"};
            int scope = 0;
            for (size_t k = 0; k < sizeof scope_errs / sizeof scope_errs[0]; k++)
                scope |= diag && strstr(diag, scope_errs[k]) != NULL;
            const char *nl = diag ? strchr(diag, '\n') : NULL;
            fprintf(out, "%s %s: does not parse: %.*s\n", scope ? "FAIL" : "NOTE", what,
                    diag ? (int)(nl ? nl - diag : (long)strlen(diag)) : 0, diag ? diag : "");
            bad += scope;
        } else {
            bad += compare(what, cc.ptx, b, nb, out, &compared);
        }
        free(diag);
        free(b);
        ptx_module_free(m);
        gl_compiled_free(&cc);
    }
    fprintf(out, "SWEPT %d %ld\n", kernels, compared);
    return bad;
}

START_TEST(test_every_kernels_names_resolve_to_the_innermost_declaration)
{
    collect();
    ck_assert_int_ge(nunits, 100);
    int jobs = getenv("SWEEP_JOBS") ? atoi(getenv("SWEEP_JOBS")) : 2;
    jobs = jobs < 1 ? 1 : jobs > 16 ? 16 : jobs;
    const char *only = getenv("SWEEP_COMPILERS");
    const gl_compiler all[] = {GL_CC_NVRTC, GL_CC_NVCC, GL_CC_CLANG};
    int bad = 0;
    for (size_t c = 0; c < sizeof all / sizeof all[0]; c++) {
        const char *name = gl_compiler_name(all[c]);
        if (only && !strstr(only, name)) {
            printf("SKIP %s: not in SWEEP_COMPILERS=%s\n", name, only);
            continue;
        }
        FILE *outs[16];
        pid_t pids[16];
        for (int w = 0; w < jobs; w++) {
            outs[w] = tmpfile();
            ck_assert_ptr_nonnull(outs[w]);
            fflush(NULL);
            pids[w] = fork();
            ck_assert_int_ge(pids[w], 0);
            if (pids[w] == 0) {
                int n = sweep(all[c], w, jobs, outs[w]);
                fclose(outs[w]);
                _exit(n > 100 ? 100 : n);
            }
        }
        int skipped = 0, kernels = 0, nocompile = 0;
        long compared = 0;
        for (int w = 0; w < jobs; w++) {
            int status = 0;
            ck_assert_int_eq(waitpid(pids[w], &status, 0), pids[w]);
            ck_assert_msg(WIFEXITED(status), "%s sweep %d crashed", name, w);
            bad += WEXITSTATUS(status);
            rewind(outs[w]);
            char line[2048];
            int k;
            long nm;
            while (fgets(line, sizeof line, outs[w])) {
                if (sscanf(line, "SWEPT %d %ld", &k, &nm) == 2)
                    kernels += k, compared += nm;
                else if (!strcmp(line, "NOCOMPILE\n"))
                    nocompile++;
                else if (strncmp(line, "SKIP", 4) || !skipped++)
                    fputs(line, stdout);
            }
            fclose(outs[w]);
        }
        if (!skipped)
            printf("%s: %d kernels (%d of them do not compile with it), %ld names compared%s\n",
                   name, kernels, nocompile, compared,
                   all[c] == GL_CC_NVCC &&
                           !(getenv("SWEEP_NVCC") && !strcmp(getenv("SWEEP_NVCC"), "all"))
                       ? " (not tests/grade's: SWEEP_NVCC=all)"
                       : "");
    }
    fflush(stdout);
    ck_assert_msg(bad == 0,
                  "%d names the simulator binds to another declaration than the "
                  "innermost block's (listed above)",
                  bad);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("scope_sweep");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 1800); /* a loaded machine; each compile has its own limit */
    tcase_add_test(tc, test_every_kernels_names_resolve_to_the_innermost_declaration);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
