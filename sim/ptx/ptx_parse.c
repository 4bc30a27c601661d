/* ptx_parse.c — PTX text to the decoded module of ptx.h (PTX ISA §4–§11).
 *
 * One pass over the tokens builds functions, symbols and instructions; branch labels
 * are resolved at the end of each function. Errors are collected as
 * "name:line:col: message" lines and parsing goes on, so one run reports them all.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/mma.h"
#include "sim/ptx/ptx_dwarf.h"
#include "sim/ptx/ptx.h"

/* ------------------------------------------------------------ small helpers */

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        /* Out of memory while parsing: nothing sensible to recover; keep the old block
         * and let the caller see a failed grow through the size it asked for. */
        return NULL;
    }
    return q;
}

#define GROW(arr, n, cap)                                                                          \
    do {                                                                                           \
        if ((n) >= (cap)) {                                                                        \
            size_t nc_ = (cap) ? (size_t)(cap)*2 : 16;                                             \
            void *np_ = xrealloc((arr), nc_ * sizeof *(arr));                                      \
            if (!np_) {                                                                            \
                P->oom = 1;                                                                        \
                break;                                                                             \
            }                                                                                      \
            (arr) = np_;                                                                           \
            (cap) = (int)nc_;                                                                      \
        }                                                                                          \
    } while (0)

static char *xstrndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* A string -> int map (open addressing) used only while parsing. */
typedef struct smap {
    char **keys;
    int *vals;
    size_t cap, n;
} smap;

static uint64_t hash_str(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static void smap_free(smap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static int smap_get(const smap *m, const char *k, size_t n, int *val)
{
    if (!m->cap)
        return 0;
    size_t i = hash_str(k, n) & (m->cap - 1);
    while (m->keys[i]) {
        if (strlen(m->keys[i]) == n && memcmp(m->keys[i], k, n) == 0) {
            *val = m->vals[i];
            return 1;
        }
        i = (i + 1) & (m->cap - 1);
    }
    return 0;
}

static int smap_put(smap *m, const char *k, size_t n, int val)
{
    if ((m->n + 1) * 2 > m->cap) {
        smap old = *m;
        size_t nc = old.cap ? old.cap * 2 : 64;
        m->keys = calloc(nc, sizeof *m->keys);
        m->vals = calloc(nc, sizeof *m->vals);
        if (!m->keys || !m->vals) {
            free(m->keys);
            free(m->vals);
            *m = old;
            return 0;
        }
        m->cap = nc;
        m->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i]) {
                smap_put(m, old.keys[i], strlen(old.keys[i]), old.vals[i]);
                free(old.keys[i]);
            }
        free(old.keys);
        free(old.vals);
    }
    size_t i = hash_str(k, n) & (m->cap - 1);
    while (m->keys[i]) {
        if (strlen(m->keys[i]) == n && memcmp(m->keys[i], k, n) == 0) {
            m->vals[i] = val;
            return 1;
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = xstrndup(k, n);
    if (!m->keys[i])
        return 0;
    m->vals[i] = val;
    m->n++;
    return 1;
}

/* ------------------------------------------------------------ parser state */

typedef struct fixup {
    int pc;
    char *label;
    int line, col;
    int blk; /* the block the branch is in: its label is looked up from there outwards */
} fixup;

/* What a name of the current function means now, saved when a block's declaration hides
 * it and put back at the block's '}' (scope_close). */
typedef struct scope_saved {
    char *name;
    int blk;                /* the block whose declaration hid it */
    int reg, sym, decl_blk; /* the register slot, symbol and declaring block (-1: none) */
} scope_saved;

typedef struct parser {
    ptx_lexer lx;
    ptx_tok t;
    const char *name;
    char *diag;
    size_t dlen, dcap;
    int nerr, unsupported, oom;
    /* per diagnostic line: its source line (.loc), named once the module's .file
     * directives are known (NVRTC and nvcc write them after the code): diag_finish */
    struct diag_src {
        size_t off;       /* the line's start in diag */
        int sf, sl, line; /* .file index and line, PTX line */
    } * dsrc;
    int ndsrc, dsrccap;
    ptx_module *m;
    int ccap, fcap, scap, vcap, callcap, filecap, shvcap, rlcap;
    smap gsyms; /* module scope: name -> sym index */
    /* current function */
    int fn;
    smap regs, lsyms, labels;
    /* Scopes (PTX ISA §9.7.12.1 {}: "any variable declared within a scope is not
     * available outside the scope"), as ptxas reads them: block 0 is the function's
     * body with its parameters, each '{' opens a block inside the current one. Registers
     * and variables (regs, lsyms) share one name space per block: a name is declared
     * once per block, before its uses, and hides an outer one until the block's '}'
     * (NVRTC's __syncthreads_or writes `{ .reg .pred %p1; ... }` in kernels with their
     * own %p1). Labels are visible in their whole block and the blocks inside it
     * (forward branches), and may be defined again in another block: labels is keyed
     * "<block>:<name>" and resolved at the function's end (end_func). */
    int blk;         /* the current block */
    int *blk_parent; /* [block]: the block it is in (-1 for block 0) */
    int nblk, blkcap;
    smap decl_blk;       /* register or variable name -> block of the declaration that
                               regs/lsyms hold for it now */
    scope_saved *shadow; /* what inner declarations hid, innermost last */
    int nshadow, shadowcap;
    struct decl_pos {
        int line, col;
    } * regpos, *sympos, *retpos; /* where each register slot, symbol and return parameter
                                     of the function being read was declared */
    int regposcap, symposcap, retposcap;
    struct label_def {
        int pc, line, col;
    } * labeldefs; /* the function's labels (labels' values index it) */
    int nlabel, labelcap;
    ptx_binding *binds; /* ptx_parse_bindings: every name resolved, in text order */
    int nbinds, bindcap, record;
    smap all_labels;        /* every function's labels, for the DWARF's code addresses */
    ptx_dwarf_sec secs[16]; /* the module's .section blocks (ptx_dwarf.h) */
    int nsecs;
    fixup *fix;
    int nfix, fixcap;
    /* brx.idx (PTX ISA §9.7.12.4): the function's `L: .branchtargets a, b, ...` lists
     * (label L, the targets' names) and the brx.idx naming them, resolved at its end */
    struct btlist {
        char *name;
        char **labels;
        int n, line, col;
    } * bt;
    int nbt, btcap;
    fixup *bfix; /* pc: the brx.idx; label: its list's name */
    int nbfix, bfixcap, btabcap;
    /* the function's `L: .callprototype (ret) _ (params);` declarations (PTX ISA §11.3.3),
     * which indirect calls name: their parameter counts */
    struct proto {
        char *name;
        int nparams, nrets;
    } * protos;
    int nproto, protocap;
    int last_label_pc; /* where the last label was defined, for .branchtargets */
    char *last_label;
    int cur_file, cur_line;
    int ptx_version; /* the module's .version as 10 major + minor (80 for 8.0); 0 unknown */
    smap mnems;      /* full mnemonic -> index into ptx_module.mnems */
    int mnemcap;
} parser;

/* The index of mnemonic s[0..n) in the module's table of full mnemonics (ptx_insn.mnem),
 * added if new; 0 when the table is full or memory ran out. */
static uint16_t intern_mnemonic(parser *P, const char *s, size_t n)
{
    ptx_module *m = P->m;
    int idx;
    if (smap_get(&P->mnems, s, n, &idx))
        return (uint16_t)idx;
    if (m->nmnems == 0) { /* [0]: none */
        GROW(m->mnems, m->nmnems, P->mnemcap);
        if (P->oom)
            return 0;
        m->mnems[m->nmnems++] = NULL;
    }
    if (m->nmnems > 0xffff)
        return 0;
    GROW(m->mnems, m->nmnems, P->mnemcap);
    char *d = P->oom ? NULL : xstrndup(s, n);
    if (!d || !smap_put(&P->mnems, s, n, m->nmnems)) {
        free(d);
        P->oom = 1;
        return 0;
    }
    m->mnems[m->nmnems] = d;
    return (uint16_t)m->nmnems++;
}

static void diag(parser *P, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void vdiag_src(parser *P, int line, int col, int src_file, int src_line, const char *fmt,
                      va_list ap) __attribute__((format(printf, 6, 0)));
/* Adds "name:line:col: message" to the diagnostics; inside a function body whose line
 * info (.loc) names a source line, "file:line: message (PTX line N)" instead, so that an
 * error in compiled CUDA names the learner's line (src_file/src_line: that source line
 * for a diagnostic after the body, 0 for the current .loc). */
static void vdiag_src(parser *P, int line, int col, int src_file, int src_line, const char *fmt,
                      va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    char head[600];
    if (!src_line && P->fn >= 0) {
        src_file = P->cur_file;
        src_line = P->cur_line;
    }
    if (src_line > 0 && src_file > 0) {
        if (P->ndsrc == P->dsrccap) {
            int nc = P->dsrccap ? 2 * P->dsrccap : 8;
            struct diag_src *d = realloc(P->dsrc, (size_t)nc * sizeof *d);
            if (!d) {
                P->oom = 1;
                return;
            }
            P->dsrc = d;
            P->dsrccap = nc;
        }
        P->dsrc[P->ndsrc++] = (struct diag_src){P->dlen, src_file, src_line, line};
    }
    int n = snprintf(head, sizeof head, "%s:%d:%d: %s\n", P->name, line, col, msg);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof head)
        n = (int)sizeof head - 1;
    if (P->dlen + (size_t)n + 1 > P->dcap) {
        size_t nc = (P->dcap + (size_t)n + 1) * 2;
        char *d = realloc(P->diag, nc);
        if (!d) {
            P->oom = 1;
            return;
        }
        P->diag = d;
        P->dcap = nc;
    }
    memcpy(P->diag + P->dlen, head, (size_t)n + 1);
    P->dlen += (size_t)n;
    P->nerr++;
}
static void diag_src(parser *P, int line, int col, int src_file, int src_line, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void diag_src(parser *P, int line, int col, int src_file, int src_line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag_src(P, line, col, src_file, src_line, fmt, ap);
    va_end(ap);
}
static void diag(parser *P, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag_src(P, line, col, 0, 0, fmt, ap);
    va_end(ap);
}

static void next(parser *P)
{
    if (!ptx_lex_next(&P->lx, &P->t))
        diag(P, P->t.line, P->t.col, "unexpected character '%c'", *P->t.p);
}

static int is_punct(const parser *P, char c)
{
    return P->t.kind == PTX_TOK_PUNCT && *P->t.p == c;
}
static int is_ident(const parser *P, const char *s)
{
    return P->t.kind == PTX_TOK_IDENT && P->t.len == strlen(s) && memcmp(P->t.p, s, P->t.len) == 0;
}
static int accept(parser *P, char c)
{
    if (is_punct(P, c)) {
        next(P);
        return 1;
    }
    return 0;
}
static int expect(parser *P, char c)
{
    if (accept(P, c))
        return 1;
    diag(P, P->t.line, P->t.col, "expected '%c' but found '%.*s'", c, (int)P->t.len, P->t.p);
    return 0;
}

/* Skips to just past the next ';' (or to a '}' that closes the enclosing block / EOF) to
 * resynchronise after an error. Braces opened within the statement (vector operands
 * such as {%r1, %r2}) are skipped with it. */
static void skip_stmt(parser *P)
{
    int depth = 0;
    while (P->t.kind != PTX_TOK_EOF && !is_punct(P, ';') && !(depth == 0 && is_punct(P, '}'))) {
        depth += is_punct(P, '{') - is_punct(P, '}');
        next(P);
    }
    accept(P, ';');
}

static int tok_eq(const ptx_tok *t, const char *s)
{
    return t->len == strlen(s) && memcmp(t->p, s, t->len) == 0;
}

/* A type suffix name (without the dot) -> ptx_type, or PTX_T_NONE. */
static ptx_type type_of(const char *s, size_t n)
{
    static const struct {
        const char *s;
        ptx_type t;
    } tab[] = {
        {"b8", PTX_T_B8},         {"b16", PTX_T_B16},   {"b32", PTX_T_B32},
        {"b64", PTX_T_B64},       {"u8", PTX_T_U8},     {"u16", PTX_T_U16},
        {"u32", PTX_T_U32},       {"u64", PTX_T_U64},   {"s8", PTX_T_S8},
        {"s16", PTX_T_S16},       {"s32", PTX_T_S32},   {"s64", PTX_T_S64},
        {"f16", PTX_T_F16},       {"f32", PTX_T_F32},   {"f64", PTX_T_F64},
        {"pred", PTX_T_PRED},     {"bf16", PTX_T_BF16}, {"f16x2", PTX_T_F16X2},
        {"bf16x2", PTX_T_BF16X2}, {"b128", PTX_T_B128},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strlen(tab[i].s) == n && memcmp(tab[i].s, s, n) == 0)
            return tab[i].t;
    return PTX_T_NONE;
}

/* ------------------------------------------------------------ module building */

static int add_sym(parser *P, int kind, int64_t value)
{
    ptx_module *m = P->m;
    GROW(m->syms, m->nsyms, P->scap);
    GROW(P->sympos, m->nsyms, P->symposcap);
    if (P->oom)
        return -1;
    P->sympos[m->nsyms] = (struct decl_pos){0, 0};
    m->syms[m->nsyms].kind = (uint8_t)kind;
    m->syms[m->nsyms].owned = 0; /* realloc'ed memory: set every field */
    m->syms[m->nsyms].value = value;
    return m->nsyms++;
}

/* The symbol name s[0..n) means here: the function's (-1 in lsyms: none in this scope,
 * see scope_declare), else the module's; -1 when none. */
static int find_sym(parser *P, const char *s, size_t n)
{
    int v;
    if (P->fn >= 0 && smap_get(&P->lsyms, s, n, &v) && v >= 0)
        return v;
    if (smap_get(&P->gsyms, s, n, &v))
        return v;
    return -1;
}

static unsigned align_up(unsigned x, unsigned a)
{
    return a ? (x + a - 1) / a * a : x;
}

static int parse_uint(parser *P, uint64_t *v)
{
    if (P->t.kind != PTX_TOK_INT) {
        diag(P, P->t.line, P->t.col, "expected a number but found '%.*s'", (int)P->t.len, P->t.p);
        return 0;
    }
    *v = P->t.ival;
    next(P);
    return 1;
}

/* Declaration attributes shared by variables and parameters:
 * [.align N] [.vN] [.ptr] [.space] .type name [N]... */
typedef struct decl {
    ptx_type type;
    unsigned align, vec;
    size_t count; /* elements (1 for scalars); 0 for `[]` */
    int unsized;
    const char *name;
    size_t nlen;
    int line, col;
} decl;

static int parse_decl(parser *P, decl *d)
{
    memset(d, 0, sizeof *d);
    d->vec = 1;
    d->count = 1;
    for (;;) {
        if (P->t.kind != PTX_TOK_IDENT || P->t.p[0] != '.')
            break;
        if (is_ident(P, ".align")) {
            uint64_t a;
            next(P);
            if (!parse_uint(P, &a))
                return 0;
            d->align = (unsigned)a;
        } else if (is_ident(P, ".v2") || is_ident(P, ".v4")) {
            d->vec = P->t.p[2] - '0';
            next(P);
        } else if (is_ident(P, ".ptr") || is_ident(P, ".global") || is_ident(P, ".shared") ||
                   is_ident(P, ".const") || is_ident(P, ".local")) {
            next(P);
        } else {
            ptx_type t = type_of(P->t.p + 1, P->t.len - 1);
            if (t == PTX_T_NONE) {
                diag(P, P->t.line, P->t.col, "unknown declaration attribute '%.*s'", (int)P->t.len,
                     P->t.p);
                return 0;
            }
            d->type = t;
            next(P);
        }
    }
    if (d->type == PTX_T_NONE) {
        diag(P, P->t.line, P->t.col, "declaration without a type");
        return 0;
    }
    if (P->t.kind != PTX_TOK_IDENT) {
        diag(P, P->t.line, P->t.col, "expected a name but found '%.*s'", (int)P->t.len, P->t.p);
        return 0;
    }
    d->name = P->t.p;
    d->nlen = P->t.len;
    d->line = P->t.line;
    d->col = P->t.col;
    next(P);
    while (accept(P, '[')) {
        if (accept(P, ']')) {
            d->unsized = 1;
            d->count = 0;
            continue;
        }
        uint64_t n;
        if (!parse_uint(P, &n))
            return 0;
        d->count *= (size_t)n;
        if (!expect(P, ']'))
            return 0;
    }
    unsigned esize = PTX_TSIZE(d->type) * d->vec;
    if (!d->align)
        d->align = esize;
    return 1;
}

static size_t decl_size(const decl *d)
{
    return (size_t)PTX_TSIZE(d->type) * d->vec * d->count;
}

/* The value of a numeric token as a double (0f/0d literals are bit patterns). */
static double tk_double(const ptx_tok *tk)
{
    if (tk->kind == PTX_TOK_INT)
        return (double)tk->ival;
    if (tk->fbits == 32) {
        uint32_t u = (uint32_t)tk->ival;
        float f;
        memcpy(&f, &u, 4);
        return (double)f;
    }
    if (tk->fbits == 64) {
        double d;
        memcpy(&d, &tk->ival, 8);
        return d;
    }
    return tk->fval;
}

/* Writes an initializer value of type t at dst. */
static void put_init(unsigned char *dst, ptx_type t, const ptx_tok *tk, int neg)
{
    uint64_t bits;
    unsigned sz = PTX_TSIZE(t);
    if (PTX_TCLASS(t) == PTX_TC_F) {
        double v = tk_double(tk);
        if (neg)
            v = -v;
        if (sz == 4) {
            float f = (float)v;
            uint32_t u;
            memcpy(&u, &f, 4);
            bits = u;
        } else {
            memcpy(&bits, &v, 8);
        }
    } else {
        bits = tk->ival;
        if (neg)
            bits = (uint64_t)0 - bits;
    }
    memcpy(dst, &bits, sz); /* little-endian host assumed (x86-64, aarch64) */
}

static void parse_init(parser *P, const decl *d, unsigned char *buf, size_t size)
{
    size_t esz = PTX_TSIZE(d->type), pos = 0;
    int depth = 0;
    do {
        if (accept(P, '{')) {
            depth++;
            continue;
        }
        if (accept(P, '}')) {
            depth--;
            if (depth > 0)
                accept(P, ',');
            continue;
        }
        int fs =
            P->t.kind == PTX_TOK_IDENT && PTX_TSIZE(d->type) == 8 && PTX_TCLASS(d->type) != PTX_TC_F
                ? find_sym(P, P->t.p, P->t.len)
                : -1;
        if (fs >= 0 && P->m->syms[fs].kind == PTX_SYM_FUNC) {
            /* a function's address (a table of function pointers: `.u64 t[2] = {f, g}`) */
            const uint64_t a = PTX_FUNC_ADDR(P->m->syms[fs].value);
            P->m->funcs[P->m->syms[fs].value].addr_taken = 1;
            if (pos + esz <= size)
                memcpy(buf + pos, &a, 8);
            pos += esz;
            next(P);
            if (depth > 0)
                accept(P, ',');
            continue;
        }
        int neg = accept(P, '-');
        if (P->t.kind != PTX_TOK_INT && P->t.kind != PTX_TOK_FLOAT) {
            diag(P, P->t.line, P->t.col,
                 "unsupported initializer '%.*s' (only numbers and function names are "
                 "supported)",
                 (int)P->t.len, P->t.p);
            P->unsupported = 1;
            skip_stmt(P);
            return;
        }
        if (pos + esz <= size)
            put_init(buf + pos, d->type, &P->t, neg);
        pos += esz;
        next(P);
        if (depth > 0)
            accept(P, ',');
    } while (depth > 0 && P->t.kind != PTX_TOK_EOF);
}

static void var_declare(parser *P, const char *k, size_t n, int line, int col, int sym);

/* A variable declaration after its state space: module scope or inside a function. */
static void parse_var(parser *P, sim_space space, int is_extern)
{
    decl d;
    if (!parse_decl(P, &d)) {
        skip_stmt(P);
        return;
    }
    ptx_module *m = P->m;
    size_t size = decl_size(&d);
    int sym = -1;
    int in_fn = P->fn >= 0;
    ptx_func *f = in_fn ? &m->funcs[P->fn] : NULL;
    if (space == SIM_SPACE_GLOBAL || space == SIM_SPACE_CONST) {
        GROW(m->vars, m->nvars, P->vcap);
        if (P->oom)
            return;
        ptx_var *v = &m->vars[m->nvars];
        memset(v, 0, sizeof *v);
        v->name = xstrndup(d.name, d.nlen);
        v->is_const = space == SIM_SPACE_CONST;
        v->align = d.align;
        v->size = size;
        if (accept(P, '=')) {
            v->init = calloc(1, size ? size : 1);
            if (v->init)
                parse_init(P, &d, v->init, size);
        }
        sym = add_sym(P, PTX_SYM_GLOBAL, m->nvars);
        m->nvars++;
    } else if (space == SIM_SPACE_SHARED) {
        if (is_extern || d.unsized) {
            sym = add_sym(P, PTX_SYM_DYNSHARED, d.align);
        } else if (in_fn && f->is_entry) {
            f->shared_size = align_up(f->shared_size, d.align);
            sym = add_sym(P, PTX_SYM_SHARED, f->shared_size);
            if (sym >= 0)
                m->syms[sym].owned = 1; /* shifted past module shared at the end */
            f->shared_size += (unsigned)size;
        } else {
            m->module_shared = align_up(m->module_shared, d.align);
            sym = add_sym(P, PTX_SYM_SHARED, m->module_shared);
            m->module_shared += (unsigned)size;
        }
        if (sym >= 0) { /* its name, for messages (sim_shared_name) */
            GROW(m->shvars, m->nshvars, P->shvcap);
            if (P->oom)
                return;
            m->shvars[m->nshvars++] =
                (ptx_shvar){xstrndup(d.name, d.nlen), sym, in_fn && f->is_entry ? P->fn : -1,
                            m->syms[sym].kind == PTX_SYM_DYNSHARED ? 0 : size};
        }
    } else if (space == SIM_SPACE_LOCAL) {
        if (!in_fn) {
            diag(P, d.line, d.col, "module-scope .local variables are not supported");
            P->unsupported = 1;
        } else {
            f->local_size = align_up(f->local_size, d.align);
            sym = add_sym(P, PTX_SYM_LOCAL, f->local_size);
            f->local_size += (unsigned)size;
        }
    } else if (space == SIM_SPACE_PARAM) {
        if (!in_fn) {
            diag(P, d.line, d.col, ".param outside a function");
        } else {
            f->frame_size = align_up(f->frame_size, d.align);
            sym = add_sym(P, PTX_SYM_FPARAM, f->frame_size);
            f->frame_size += (unsigned)size;
        }
    }
    if (sym >= 0) {
        if (in_fn) /* every variable of a function is scoped by its block (scope_declare) */
            var_declare(P, d.name, d.nlen, d.line, d.col, sym);
        else
            smap_put(&P->gsyms, d.name, d.nlen, sym);
    }
    if (!expect(P, ';'))
        skip_stmt(P);
}

/* A new register slot of f named nm[0..nl) of type ty; returns the slot, or -1 when
 * memory ran out (a diagnostic is recorded). */
static int reg_new(parser *P, ptx_func *f, const char *nm, size_t nl, int ty)
{
    if (f->nregs >= f->reginfo_cap) {
        int cap = f->reginfo_cap ? f->reginfo_cap * 2 : 16;
        ptx_reginfo *ri = realloc(f->reginfo, (size_t)cap * sizeof *ri);
        if (!ri) {
            diag(P, P->t.line, P->t.col, "out of memory");
            return -1;
        }
        f->reginfo = ri;
        f->reginfo_cap = cap;
    }
    GROW(P->regpos, f->nregs, P->regposcap);
    if (P->oom)
        return -1;
    P->regpos[f->nregs] = (struct decl_pos){0, 0};
    ptx_reginfo *r = &f->reginfo[f->nregs];
    size_t n = nl < sizeof r->name - 1 ? nl : sizeof r->name - 1;
    memcpy(r->name, nm, n);
    r->name[n] = 0;
    r->type = (uint8_t)ty;
    return f->nregs++;
}

/* The register slot of name k[0..n) in the current scope; 0 when none is declared. */
static int regs_get(const parser *P, const char *k, size_t n, int *slot)
{
    return smap_get(&P->regs, k, n, slot) && *slot >= 0;
}

/* Records that the name at P->t was resolved to the declaration at pos (ptx_parse_bindings
 * only). */
static void bind_record(parser *P, int kind, const struct decl_pos *pos)
{
    if (!P->record)
        return;
    GROW(P->binds, P->nbinds, P->bindcap);
    if (P->oom)
        return;
    P->binds[P->nbinds++] =
        (ptx_binding){P->t.line, P->t.col, pos ? pos->line : 0, pos ? pos->col : 0, kind};
}

/* regs_get for the name at P->t, recorded as a use of that register. */
static int regs_bind(parser *P, int *slot)
{
    if (!regs_get(P, P->t.p, P->t.len, slot))
        return 0;
    bind_record(P, PTX_BIND_REG, &P->regpos[*slot]);
    return 1;
}

/* find_sym for the name at P->t, recorded as a use of that variable or parameter. */
static int sym_bind(parser *P)
{
    int s = find_sym(P, P->t.p, P->t.len);
    if (s >= 0 && P->m->syms[s].kind != PTX_SYM_FUNC)
        bind_record(P, PTX_BIND_VAR, &P->sympos[s]);
    return s;
}

/* Opens a `{ }` block inside the current one. */
static void scope_open(parser *P)
{
    GROW(P->blk_parent, P->nblk, P->blkcap);
    if (P->oom)
        return;
    P->blk_parent[P->nblk] = P->blk;
    P->blk = P->nblk++;
}

/* Whether the current block declared name k[0..n) already, as a register, variable or
 * label: an error at line:col then, as ptxas says ("Duplicate definition"). */
static int scope_redeclared(parser *P, const char *k, size_t n, int line, int col)
{
    int b, v;
    if (smap_get(&P->decl_blk, k, n, &b) && b == P->blk) {
        diag(P, line, col, "'%.*s' is declared twice in the same block", (int)n, k);
        return 1;
    }
    char key[1024];
    int kl = snprintf(key, sizeof key, "%d:%.*s", P->blk, (int)n, k);
    if (kl > 0 && (size_t)kl < sizeof key && smap_get(&P->labels, key, (size_t)kl, &v)) {
        diag(P, line, col, "'%.*s' is declared as a label and again in the same block", (int)n, k);
        return 1;
    }
    return 0;
}

/* Declares name k[0..n), new to the current block, as register slot reg or symbol sym
 * (the other -1): it hides what the name meant in outer blocks until this block's '}'. */
static void scope_declare(parser *P, const char *k, size_t n, int reg, int sym)
{
    int b = -1, v;
    smap_get(&P->decl_blk, k, n, &b);
    if (P->blk > 0) {
        GROW(P->shadow, P->nshadow, P->shadowcap);
        char *name = P->oom ? NULL : xstrndup(k, n);
        if (!name) {
            P->oom = 1;
            return;
        }
        scope_saved *sv = &P->shadow[P->nshadow++];
        *sv = (scope_saved){name, P->blk, -1, -1, b};
        if (smap_get(&P->regs, k, n, &v))
            sv->reg = v;
        if (smap_get(&P->lsyms, k, n, &v))
            sv->sym = v;
    }
    int ok = smap_put(&P->decl_blk, k, n, P->blk);
    if (reg >= 0 || smap_get(&P->regs, k, n, &v))
        ok &= smap_put(&P->regs, k, n, reg);
    if (sym >= 0 || smap_get(&P->lsyms, k, n, &v))
        ok &= smap_put(&P->lsyms, k, n, sym);
    if (!ok)
        P->oom = 1;
}

/* Closes the current block: the names it declared mean again what they meant before. */
static void scope_close(parser *P)
{
    while (P->nshadow > 0 && P->shadow[P->nshadow - 1].blk == P->blk) {
        scope_saved *sv = &P->shadow[--P->nshadow];
        size_t n = strlen(sv->name);
        smap_put(&P->regs, sv->name, n, sv->reg);
        smap_put(&P->lsyms, sv->name, n, sv->sym);
        smap_put(&P->decl_blk, sv->name, n, sv->decl_blk);
        free(sv->name);
    }
    if (P->blk > 0)
        P->blk = P->blk_parent[P->blk];
}

/* Declares register name k[0..n) of type rty, written at line:col, in the current block
 * (scope_declare). */
static void reg_declare(parser *P, ptx_func *f, const char *k, size_t n, ptx_type rty, int line,
                        int col)
{
    if (scope_redeclared(P, k, n, line, col))
        return;
    const int slot = reg_new(P, f, k, n, rty);
    if (slot < 0)
        return;
    P->regpos[slot] = (struct decl_pos){line, col};
    scope_declare(P, k, n, slot, -1);
}

/* Declares variable or parameter k[0..n) at line:col as symbol sym of the current
 * function, in the current block (scope_declare). */
static void var_declare(parser *P, const char *k, size_t n, int line, int col, int sym)
{
    P->sympos[sym] = (struct decl_pos){line, col};
    if (!scope_redeclared(P, k, n, line, col))
        scope_declare(P, k, n, -1, sym);
}

/* .reg .type %name, %name<N>, ... ; */
static void parse_reg(parser *P)
{
    next(P);
    int is_vec = 0;
    ptx_type rty = PTX_T_NONE;
    if (is_ident(P, ".v2") || is_ident(P, ".v4")) {
        is_vec = 1;
        next(P);
    }
    if (P->t.kind != PTX_TOK_IDENT || P->t.p[0] != '.' ||
        (rty = type_of(P->t.p + 1, P->t.len - 1)) == PTX_T_NONE) {
        diag(P, P->t.line, P->t.col, "expected a register type but found '%.*s'", (int)P->t.len,
             P->t.p);
        skip_stmt(P);
        return;
    }
    if (is_vec) {
        diag(P, P->t.line, P->t.col, "vector registers are not supported");
        P->unsupported = 1;
    }
    next(P);
    ptx_func *f = &P->m->funcs[P->fn];
    do {
        if (P->t.kind != PTX_TOK_IDENT) {
            diag(P, P->t.line, P->t.col, "expected a register name");
            skip_stmt(P);
            return;
        }
        const char *nm = P->t.p;
        size_t nl = P->t.len;
        const int dline = P->t.line, dcol = P->t.col;
        next(P);
        if (accept(P, '<')) {
            uint64_t n = 0;
            int nline = P->t.line, ncol = P->t.col;
            parse_uint(P, &n);
            expect(P, '>');
            if (n >= (uint64_t)PTX_NOREG - (uint64_t)f->nregs) { /* before the loop: a huge
                                                                  count must not run it */
                diag(P, nline, ncol, "too many registers in one function (%llu)",
                     (unsigned long long)n);
                n = 0;
            }
            char buf[160];
            for (uint64_t i = 0; i < n && nl < 120; i++) {
                int k = snprintf(buf, sizeof buf, "%.*s%llu", (int)nl, nm, (unsigned long long)i);
                const int before = f->nregs;
                reg_declare(P, f, buf, (size_t)k, rty, dline, dcol);
                if (rty == PTX_T_B128 && f->nregs > before) /* its high half */
                    reg_new(P, f, buf, (size_t)k, PTX_T_B64);
            }
        } else {
            const int before = f->nregs;
            reg_declare(P, f, nm, nl, rty, dline, dcol);
            if (rty == PTX_T_B128 && f->nregs > before)
                reg_new(P, f, nm, nl, PTX_T_B64);
        }
        if (f->nregs >= (int)PTX_NOREG) {
            diag(P, P->t.line, P->t.col, "too many registers in one function");
            f->nregs = 0;
        }
    } while (accept(P, ','));
    expect(P, ';');
}

/* ------------------------------------------------------------ instructions */

static const struct {
    const char *name;
    int id;
} sreg_tab[] = {
    {"%tid.x", PTX_SREG_TID_X},
    {"%tid.y", PTX_SREG_TID_Y},
    {"%tid.z", PTX_SREG_TID_Z},
    {"%ntid.x", PTX_SREG_NTID_X},
    {"%ntid.y", PTX_SREG_NTID_Y},
    {"%ntid.z", PTX_SREG_NTID_Z},
    {"%ctaid.x", PTX_SREG_CTAID_X},
    {"%ctaid.y", PTX_SREG_CTAID_Y},
    {"%ctaid.z", PTX_SREG_CTAID_Z},
    {"%nctaid.x", PTX_SREG_NCTAID_X},
    {"%nctaid.y", PTX_SREG_NCTAID_Y},
    {"%nctaid.z", PTX_SREG_NCTAID_Z},
    {"%laneid", PTX_SREG_LANEID},
    {"%warpid", PTX_SREG_WARPID},
    {"%nwarpid", PTX_SREG_NWARPID},
    {"%smid", PTX_SREG_SMID},
    {"%nsmid", PTX_SREG_NSMID},
    {"%clock", PTX_SREG_CLOCK},
    {"%clock64", PTX_SREG_CLOCK64},
    {"%lanemask_eq", PTX_SREG_LANEMASK_EQ},
    {"%gridid", PTX_SREG_GRIDID},
    {"%lanemask_le", PTX_SREG_LANEMASK_LE},
    {"%lanemask_lt", PTX_SREG_LANEMASK_LT},
    {"%lanemask_ge", PTX_SREG_LANEMASK_GE},
    {"%lanemask_gt", PTX_SREG_LANEMASK_GT},
    {"%globaltimer", PTX_SREG_GLOBALTIMER},
    {"%globaltimer_lo", PTX_SREG_GLOBALTIMER_LO},
    {"%globaltimer_hi", PTX_SREG_GLOBALTIMER_HI},
    {"%dynamic_smem_size", PTX_SREG_DYNAMIC_SMEM_SIZE},
    {"%total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE},
    {"WARP_SZ", PTX_SREG_WARPSZ},
    {"%clock_hi", PTX_SREG_CLOCK_HI},
    {"%clusterid.x", PTX_SREG_CLUSTERID_X},
    {"%clusterid.y", PTX_SREG_CLUSTERID_Y},
    {"%clusterid.z", PTX_SREG_CLUSTERID_Z},
    {"%nclusterid.x", PTX_SREG_NCLUSTERID_X},
    {"%nclusterid.y", PTX_SREG_NCLUSTERID_Y},
    {"%nclusterid.z", PTX_SREG_NCLUSTERID_Z},
    {"%cluster_ctaid.x", PTX_SREG_CLUSTER_CTAID_X},
    {"%cluster_ctaid.y", PTX_SREG_CLUSTER_CTAID_Y},
    {"%cluster_ctaid.z", PTX_SREG_CLUSTER_CTAID_Z},
    {"%cluster_nctaid.x", PTX_SREG_CLUSTER_NCTAID_X},
    {"%cluster_nctaid.y", PTX_SREG_CLUSTER_NCTAID_Y},
    {"%cluster_nctaid.z", PTX_SREG_CLUSTER_NCTAID_Z},
    {"%cluster_ctarank", PTX_SREG_CLUSTER_CTARANK},
    {"%cluster_nctarank", PTX_SREG_CLUSTER_NCTARANK},
    {"%is_explicit_cluster", PTX_SREG_IS_EXPLICIT_CLUSTER},
    {"%reserved_smem_offset_begin", PTX_SREG_RESERVED_SMEM_BEGIN},
    {"%reserved_smem_offset_end", PTX_SREG_RESERVED_SMEM_END},
    {"%reserved_smem_offset_cap", PTX_SREG_RESERVED_SMEM_CAP},
    {"%reserved_smem_offset_0", PTX_SREG_RESERVED_SMEM_0},
    {"%reserved_smem_offset_1", PTX_SREG_RESERVED_SMEM_1},
};

/* n for a token %envreg<n> (PTX ISA §10 %envreg<32>: %envreg0 .. %envreg31), else -1. */
static int envreg_index(const ptx_tok *tk)
{
    if (tk->len < 8 || tk->len > 9 || memcmp(tk->p, "%envreg", 7) != 0)
        return -1;
    int n = 0;
    for (size_t i = 7; i < tk->len; i++) {
        if (tk->p[i] < '0' || tk->p[i] > '9')
            return -1;
        n = n * 10 + (tk->p[i] - '0');
    }
    return (tk->len == 9 && tk->p[7] == '0') || n > 31 ? -1 : n;
}

/* Converts a literal to the bits of an immediate of type t. */
static uint64_t imm_bits(const ptx_tok *tk, ptx_type t, int neg)
{
    unsigned char buf[8] = {0};
    ptx_type tt = t;
    if (PTX_TCLASS(t) == PTX_TC_F && PTX_TSIZE(t) == 2)
        tt = PTX_T_B16;
    if (PTX_TCLASS(t) == PTX_TC_F || tk->kind == PTX_TOK_FLOAT) {
        if (PTX_TCLASS(tt) != PTX_TC_F)
            tt = (tk->fbits == 32 || (tk->fbits == 0 && PTX_TSIZE(t) == 4)) ? PTX_T_F32 : PTX_T_F64;
        put_init(buf, tt, tk, neg);
        uint64_t v;
        memcpy(&v, buf, 8);
        return v;
    }
    return neg ? (uint64_t)0 - tk->ival : tk->ival;
}

static int lookup_reg(parser *P, uint16_t *slot)
{
    int v;
    if (!regs_bind(P, &v)) {
        diag(P, P->t.line, P->t.col, "unknown register '%.*s'", (int)P->t.len, P->t.p);
        return 0;
    }
    *slot = (uint16_t)v;
    return 1;
}

static void add_fixup(parser *P, int pc)
{
    GROW(P->fix, P->nfix, P->fixcap);
    if (P->oom)
        return;
    P->fix[P->nfix].pc = pc;
    P->fix[P->nfix].label = xstrndup(P->t.p, P->t.len);
    P->fix[P->nfix].line = P->t.line;
    P->fix[P->nfix].col = P->t.col;
    P->fix[P->nfix].blk = P->blk;
    P->nfix++;
}

/* Parses one operand into *o. imm_t: the type literals are converted to. */
static int parse_operand(parser *P, ptx_insn *in, ptx_operand *o, ptx_type imm_t)
{
    memset(o, 0, sizeof *o);
    o->reg = PTX_NOREG;
    o->sym = -1;
    if (is_punct(P, '!')) { /* negated predicate source: vote, setp's c, selp */
        next(P);
        if (P->t.kind != PTX_TOK_IDENT || P->t.p[0] != '%') {
            diag(P, P->t.line, P->t.col, "expected a predicate register after '!'");
            return 0;
        }
        o->kind = PTX_OPK_REG;
        o->sub = 1;
        if (!lookup_reg(P, &o->reg))
            return 0;
        next(P);
        return 1;
    }
    if (P->t.kind == PTX_TOK_IDENT && tok_eq(&P->t, "_")) {
        /* the sink `_` (PTX ISA §9.7.13.15 mbarrier state, §9.7.13.12 elect.sync d): a
         * destination nothing is written to; `_|p` keeps the second one */
        next(P);
        if (is_punct(P, '|')) {
            next(P);
            o->kind = PTX_OPK_REG;
            o->sub = 2;
            uint16_t q = PTX_NOREG;
            if (P->t.kind != PTX_TOK_IDENT || !lookup_reg(P, &q)) {
                diag(P, P->t.line, P->t.col, "expected a register after '|'");
                return 0;
            }
            o->imm = q;
            next(P);
        }
        return 1;
    }
    if (P->t.kind == PTX_TOK_IDENT && (P->t.p[0] == '%' || tok_eq(&P->t, "WARP_SZ"))) {
        for (size_t i = 0; i < sizeof sreg_tab / sizeof sreg_tab[0]; i++)
            if (tok_eq(&P->t, sreg_tab[i].name)) {
                o->kind = PTX_OPK_SREG;
                o->sub = (uint8_t)sreg_tab[i].id;
                next(P);
                return 1;
            }
        const int env = envreg_index(&P->t);
        if (env >= 0) {
            o->kind = PTX_OPK_SREG;
            o->sub = (uint8_t)(PTX_SREG_ENVREG0 + env);
            next(P);
            return 1;
        }
        o->kind = PTX_OPK_REG;
        if (!lookup_reg(P, &o->reg))
            return 0;
        next(P);
        if (is_punct(P, '|')) { /* d|p: a second destination (setp, shfl, match.all) */
            next(P);
            uint16_t q = PTX_NOREG;
            if (P->t.kind == PTX_TOK_IDENT && tok_eq(&P->t, "_")) {
                /* sink */
            } else if (P->t.kind != PTX_TOK_IDENT || !lookup_reg(P, &q)) {
                diag(P, P->t.line, P->t.col, "expected a register after '|'");
                return 0;
            }
            next(P);
            o->sub = 2;
            o->imm = q;
        }
        return 1;
    }
    if (P->t.kind == PTX_TOK_INT || P->t.kind == PTX_TOK_FLOAT || is_punct(P, '-')) {
        int neg = accept(P, '-');
        if (P->t.kind != PTX_TOK_INT && P->t.kind != PTX_TOK_FLOAT) {
            diag(P, P->t.line, P->t.col, "expected a number after '-'");
            return 0;
        }
        o->kind = PTX_OPK_IMM;
        o->imm = imm_bits(&P->t, imm_t, neg);
        next(P);
        return 1;
    }
    if (accept(P, '[')) {
        o->kind = PTX_OPK_ADDR;
        int have = 0, ignored;
        while (!is_punct(P, ']') && P->t.kind != PTX_TOK_EOF) {
            int neg = 0;
            if (have) {
                if (accept(P, '-'))
                    neg = 1;
                else if (!expect(P, '+'))
                    return 0;
                else if (accept(P, '-')) /* `[%r5+-4]`, as nvcc writes it */
                    neg = 1;
            } else if (accept(P, '-')) {
                neg = 1;
            }
            if (P->t.kind == PTX_TOK_INT) {
                o->imm += neg ? (uint64_t)0 - P->t.ival : P->t.ival;
            } else if (P->t.kind == PTX_TOK_IDENT &&
                       (P->t.p[0] == '%' || regs_get(P, P->t.p, P->t.len, &ignored))) {
                /* a register; names without '%' are legal too (`.reg .u64 g;` in an
                 * inline-asm block, PTX ISA §4.4 identifiers) */
                if (o->reg != PTX_NOREG || !lookup_reg(P, &o->reg)) {
                    diag(P, P->t.line, P->t.col, "bad address expression");
                    return 0;
                }
            } else if (P->t.kind == PTX_TOK_IDENT) {
                int s = sym_bind(P);
                if (s < 0 || o->sym >= 0) {
                    diag(P, P->t.line, P->t.col, "unknown symbol '%.*s' in address", (int)P->t.len,
                         P->t.p);
                    return 0;
                }
                o->sym = s;
            } else {
                diag(P, P->t.line, P->t.col, "bad address expression at '%.*s'", (int)P->t.len,
                     P->t.p);
                return 0;
            }
            next(P);
            have = 1;
        }
        return expect(P, ']');
    }
    if (accept(P, '{')) {
        o->kind = PTX_OPK_VEC;
        int n = 0;
        do {
            uint16_t r = PTX_NOREG;
            int rs;
            if (P->t.kind == PTX_TOK_IDENT && tok_eq(&P->t, "_")) {
                /* sink */
            } else if (P->t.kind == PTX_TOK_IDENT && P->t.p[0] == '%') {
                if (!lookup_reg(P, &r))
                    return 0;
            } else if (P->t.kind == PTX_TOK_IDENT && regs_bind(P, &rs)) {
                r = (uint16_t)rs; /* named without '%' (inline asm) */
            } else if (P->t.kind == PTX_TOK_INT && P->t.ival == 0) {
                /* a zero element of a pack (cuda_fp16's `mov.b32 %f1, {0, %rs1}`):
                 * packs as 0, like a sink */
            } else {
                diag(P, P->t.line, P->t.col, "unsupported vector element '%.*s' (registers only)",
                     (int)P->t.len, P->t.p);
                P->unsupported = 1;
                return 0;
            }
            next(P);
            if (n < 4)
                o->imm |= (uint64_t)r << (16 * n);
            n++;
        } while (accept(P, ','));
        if (n != 2 && n != 4) {
            diag(P, P->t.line, P->t.col, "vector operand of %d elements", n);
            return 0;
        }
        o->sub = (uint8_t)n;
        return expect(P, '}');
    }
    if (P->t.kind == PTX_TOK_IDENT) {
        int rs;
        if (in->op != PTX_OP_bra && regs_bind(P, &rs)) {
            /* a register named without '%' (inline asm: `{ .reg .pred p; ... }`) */
            o->kind = PTX_OPK_REG;
            o->reg = (uint16_t)rs;
            next(P);
            if (is_punct(P, '|')) {
                next(P);
                uint16_t q = PTX_NOREG;
                if (P->t.kind != PTX_TOK_IDENT || !lookup_reg(P, &q))
                    return 0;
                next(P);
                o->sub = 2;
                o->imm = q;
            }
            return 1;
        }
        if (in->op == PTX_OP_bra) {
            o->kind = PTX_OPK_NONE;
            add_fixup(P, P->m->ncode);
            next(P);
            return 1;
        }
        int s = sym_bind(P);
        if (s < 0) {
            diag(P, P->t.line, P->t.col, "unknown symbol '%.*s'", (int)P->t.len, P->t.p);
            return 0;
        }
        o->kind = PTX_OPK_SYM;
        o->sym = s;
        if (P->m->syms[s].kind == PTX_SYM_FUNC) /* a function's address (PTX_FUNC_ADDR) */
            P->m->funcs[P->m->syms[s].value].addr_taken = 1;
        next(P);
        return 1;
    }
    diag(P, P->t.line, P->t.col, "unexpected '%.*s' in operands", (int)P->t.len, P->t.p);
    return 0;
}

/* call[.uni] [(ret),] func[, (args...)][, proto]; */
static int parse_call(parser *P, ptx_insn *in, int line, int col)
{
    ptx_module *m = P->m;
    ptx_call c;
    memset(&c, 0, sizeof c);
    c.ret_off = -1;
    if (accept(P, '(')) {
        if (P->t.kind == PTX_TOK_IDENT) {
            int s = sym_bind(P);
            if (s < 0 || m->syms[s].kind != PTX_SYM_FPARAM) {
                diag(P, P->t.line, P->t.col, "call return '%.*s' is not a .param", (int)P->t.len,
                     P->t.p);
                return 0;
            }
            c.ret_off = (int)m->syms[s].value;
            next(P);
        }
        if (!expect(P, ')') || !expect(P, ','))
            return 0;
    }
    c.fptr = -1;
    c.line = line; /* a callee without a body is reported at the end (finish_module) */
    c.col = col;
    int rs;
    if (P->t.kind == PTX_TOK_IDENT && regs_bind(P, &rs)) {
        /* indirect (PTX ISA §9.7.12.5: `call (ret), fptr, (args), proto;`): the register
         * holds a function's address; the callee is known when the call runs */
        c.callee = -1;
        c.fptr = rs;
    } else {
        int s = P->t.kind == PTX_TOK_IDENT ? find_sym(P, P->t.p, P->t.len) : -1;
        if (s < 0 || m->syms[s].kind != PTX_SYM_FUNC) {
            diag(P, P->t.line, P->t.col, "call of unknown function '%.*s'", (int)P->t.len, P->t.p);
            return 0;
        }
        c.callee = (int)m->syms[s].value;
    }
    const ptx_func *callee = c.callee >= 0 ? &m->funcs[c.callee] : NULL;
    next(P);
    int proto = -1;
    if (accept(P, ',')) {
        if (accept(P, '(')) {
            while (!is_punct(P, ')') && P->t.kind != PTX_TOK_EOF) {
                int a = P->t.kind == PTX_TOK_IDENT ? sym_bind(P) : -1;
                if (a < 0 || m->syms[a].kind != PTX_SYM_FPARAM) {
                    diag(P, P->t.line, P->t.col, "call argument '%.*s' is not a .param",
                         (int)P->t.len, P->t.p);
                    return 0;
                }
                if (c.nargs >= 8) {
                    diag(P, P->t.line, P->t.col, "more than 8 call arguments");
                    P->unsupported = 1;
                    return 0;
                }
                c.arg_off[c.nargs++] = (int)m->syms[a].value;
                next(P);
                if (!accept(P, ','))
                    break;
            }
            if (!expect(P, ')'))
                return 0;
        }
        if (accept(P, ',')) { /* the prototype (PTX ISA §11.3.3 .callprototype) */
            for (int i = 0; i < P->nproto && proto < 0; i++)
                if (tok_eq(&P->t, P->protos[i].name))
                    proto = i;
            if (!callee && proto < 0) {
                diag(P, P->t.line, P->t.col, "'%.*s' names no .callprototype", (int)P->t.len,
                     P->t.p);
                return 0;
            }
            next(P);
        }
    }
    if (!callee) {
        if (proto < 0) {
            diag(P, line, col, "an indirect call needs a .callprototype (PTX ISA §9.7.12.5)");
            return 0;
        }
        const struct proto *pr = &P->protos[proto];
        if (c.nargs != pr->nparams || (c.ret_off >= 0) != (pr->nrets > 0)) {
            diag(P, line, col,
                 "indirect call with %d arguments%s; its .callprototype '%s' has %d%s", c.nargs,
                 c.ret_off >= 0 ? " and a return value" : "", pr->name, pr->nparams,
                 pr->nrets ? " and a return value" : "");
            return 0;
        }
        c.nrets = pr->nrets;
    } else if (c.nargs != callee->nparams && !callee->is_extern) {
        diag(P, line, col, "call of '%s' with %d arguments; it takes %d", callee->name, c.nargs,
             callee->nparams);
        return 0;
    }
    GROW(m->calls, m->ncalls, P->callcap);
    if (P->oom)
        return 0;
    m->calls[m->ncalls] = c;
    in->target = m->ncalls++;
    return 1;
}

static int mod_space(const char *s, size_t n)
{
    static const char *names[] = {"generic", "global", "shared", "local", "const", "param"};
    for (int i = 0; i < 6; i++)
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
            return i;
    return -1;
}

static int lookup_mod(const char *const *names, int count, const char *s, size_t n)
{
    for (int i = 0; i < count; i++)
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
            return i + 1;
    return 0;
}

/* Whether the mnemonic token contains s. */
static int has_sub(const ptx_tok *mt, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= mt->len; i++)
        if (memcmp(mt->p + i, s, n) == 0)
            return 1;
    return 0;
}

/* The SIMD video instructions (PTX ISA §9.7.16.2), contiguous in ptx_ops.def. */
static int is_video(int op)
{
    return op >= PTX_OP_vadd2 && op <= PTX_OP_vset4;
}

/* The scalar video instructions (PTX ISA §9.7.18.1), contiguous in ptx_ops.def. */
static int is_svideo(int op)
{
    return op >= PTX_OP_vadd && op <= PTX_OP_vset;
}

/* Decodes a scalar video instruction's modifiers (PTX ISA §9.7.18.1):
 * vop.dtype.atype.btype{.sat}{.op2}, vshl/vshr.dtype.atype.u32{.sat}.mode{.op2},
 * vmad.dtype.atype.btype{.po}{.sat}{.scale}, vset.atype.btype.cmp{.op2}; each type .u32 or
 * .s32. The selectors and negations come with the operands (svideo_sel). */
static int decode_svideo(parser *P, ptx_insn *in, const ptx_tok *mt)
{
    static const char *const cmp6[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    static const char *const op2s[] = {"add", "min", "max"};
    const int vset = in->op == PTX_OP_vset, vsh = in->op == PTX_OP_vshl || in->op == PTX_OP_vshr;
    const int vmad = in->op == PTX_OP_vmad;
    uint8_t ty[3];
    int nt = 0, mode = 0, k;
    uint32_t tg = 0;
    const char *p = memchr(mt->p, '.', mt->len), *end = mt->p + mt->len;
    while (p && p < end) {
        const char *q = p + 1, *e = memchr(q, '.', (size_t)(end - q));
        if (!e)
            e = end;
        const size_t n = (size_t)(e - q);
        ptx_type t = type_of(q, n);
        if ((t == PTX_T_U32 || t == PTX_T_S32) && nt < 3)
            ty[nt++] = (uint8_t)t;
        else if (n == 3 && !memcmp(q, "sat", 3) && !vset)
            in->flags |= PTX_F_SAT;
        else if (!vmad && !PTX_SV_OP2(tg) && (k = lookup_mod(op2s, 3, q, n)))
            tg |= (uint32_t)k << 9;
        else if (vset && !in->cmp && (k = lookup_mod(cmp6, 6, q, n)))
            in->cmp = (uint8_t)k;
        else if (vsh && !mode &&
                 ((n == 5 && !memcmp(q, "clamp", 5)) || (n == 4 && !memcmp(q, "wrap", 4))))
            mode = q[0] == 'c' ? 2 : 1;
        else if (vmad && !PTX_SV_SCALE(tg) && n == 4 && (!memcmp(q, "shr7", 4)))
            tg |= 1u << 12;
        else if (vmad && !PTX_SV_SCALE(tg) && n == 5 && !memcmp(q, "shr15", 5))
            tg |= 2u << 12;
        else if (vmad && n == 2 && !memcmp(q, "po", 2))
            tg |= PTX_SV_PO;
        else {
            diag(P, mt->line, mt->col, "unsupported modifier '.%.*s' in '%.*s'", (int)n, q,
                 (int)mt->len, mt->p);
            P->unsupported = 1;
            return 0;
        }
        p = e;
    }
    if (nt != (vset ? 2 : 3) || (vsh && ty[2] != PTX_T_U32) || (vset && !in->cmp) ||
        (vsh && !mode)) {
        diag(P, mt->line, mt->col, "'%.*s' needs %s (PTX ISA §9.7.18.1)", (int)mt->len, mt->p,
             vset  ? ".atype.btype and a comparison (.eq .ne .lt .le .gt .ge)"
             : vsh ? ".dtype.atype.u32 and .clamp or .wrap"
                   : ".dtype.atype.btype, each .u32 or .s32");
        return 0;
    }
    if (mode == 2)
        in->flags |= PTX_F_CLAMP;
    in->type = vset ? PTX_T_U32 : ty[0];
    in->type2 = ty[vset ? 0 : 1];
    if (ty[vset ? 1 : 2] == PTX_T_S32)
        tg |= PTX_SV_BSIGNED;
    in->target = (int32_t)tg;
    in->vec = 1;
    return 1;
}

/* The selector written after operand k of a scalar video instruction (d.b0, a.h1: .b0-.b3
 * .h0 .h1, PTX ISA §9.7.18.1), into in->target. */
static int svideo_sel(parser *P, ptx_insn *in, const ptx_tok *mt, int k, const char *s, size_t n,
                      int line, int col)
{
    int v = 0;
    if (n == 2 && s[0] == 'b' && s[1] >= '0' && s[1] <= '3')
        v = 1 + (s[1] - '0');
    else if (n == 2 && s[0] == 'h' && (s[1] == '0' || s[1] == '1'))
        v = 5 + (s[1] - '0');
    if (!v || k > 2 || (k == 0 && in->op == PTX_OP_vmad)) {
        diag(P, line, col,
             "'%.*s': bad selector '.%.*s' on operand %d (PTX ISA §9.7.18.1: .b0-.b3, "
             ".h0, .h1 on d, a and b)",
             (int)mt->len, mt->p, (int)n, s, k);
        return 0;
    }
    const unsigned shift = k == 0 ? 6 : k == 1 ? 0 : 3;
    in->target = (int32_t)(((uint32_t)in->target & ~(7u << shift)) | ((uint32_t)v << shift));
    return 1;
}

/* Checks a video instruction's types (vt[0..ntypes)) and packs the defaults of its
 * selectors and mask with .add (vadd) into in->target (ptx.h PTX_V_*):
 * vop4.dtype.atype.btype{.sat}/.add, vset4.atype.btype.cmp{.add}; each type .u32/.s32,
 * .asel defaults to .b3210 (.h10), .bsel to .b7654 (.h32), .mask to .b3210 (.h10). */
static int decode_video(parser *P, ptx_insn *in, const ptx_tok *mt, const uint8_t *vt, int ntypes,
                        int vadd)
{
    const int vset = in->op == PTX_OP_vset2 || in->op == PTX_OP_vset4;
    const int want = vset ? 2 : 3;
    const unsigned lanes = in->op >= PTX_OP_vadd4 ? 4 : 2;
    int ok = ntypes == want;
    for (int i = 0; ok && i < want; i++)
        ok = vt[i] == PTX_T_U32 || vt[i] == PTX_T_S32;
    if (!ok) {
        diag(P, mt->line, mt->col, "'%.*s' needs %s, each .u32 or .s32", (int)mt->len, mt->p,
             vset ? ".atype.btype" : ".dtype.atype.btype");
        return 0;
    }
    if (vset && !in->cmp) {
        diag(P, mt->line, mt->col, "'%.*s' needs a comparison (.eq .ne .lt .le .gt .ge)",
             (int)mt->len, mt->p);
        return 0;
    }
    if ((in->flags & PTX_F_SAT) && (vadd || vset)) {
        diag(P, mt->line, mt->col, "'%.*s': .sat %s", (int)mt->len, mt->p,
             vset ? "is not a modifier of vset" : "cannot be used with .add");
        return 0;
    }
    in->vec = (uint8_t)lanes;
    in->type = vset ? PTX_T_U32 : vt[0];
    in->type2 = vt[vset ? 0 : 1];
    uint32_t tg = (((1u << lanes) - 1) << 24) | (vadd ? PTX_V_ADD : 0) |
                  (vt[want - 1] == PTX_T_S32 ? PTX_V_BSIGNED : 0);
    for (unsigned i = 0; i < lanes; i++)
        tg |= (i << (3 * i)) | ((lanes + i) << (12 + 3 * i));
    in->target = (int32_t)tg;
    return 1;
}

/* Applies the selector written after operand k of a video instruction (`%r1.b3210`):
 * k 0 the mask (.b0 ... .b3210 or .h0 .h1 .h10: lanes, highest first, each once), k 1
 * and 2 .asel/.bsel (.bxyzw, x..w in 0-7, or .hxy, x, y in 0-3: the element of {b, a}
 * for lanes 3..0 or 1..0). PTX ISA §9.7.16.2. */
static int video_sel(parser *P, ptx_insn *in, const ptx_tok *mt, int k, const char *s, size_t n,
                     int line, int col)
{
    const unsigned lanes = in->vec;
    const char letter = lanes == 4 ? 'b' : 'h';
    uint32_t tg = (uint32_t)in->target;
    int ok = n >= 2 && s[0] == letter && k <= 2;
    if (ok && k == 0) { /* mask */
        unsigned m = 0, prev = 4;
        for (size_t i = 1; ok && i < n; i++) {
            unsigned l = (unsigned)(s[i] - '0');
            ok = s[i] >= '0' && l < lanes && l < prev;
            m |= ok ? 1u << l : 0;
            prev = l;
        }
        tg = (tg & ~(15u << 24)) | (m << 24);
    } else if (ok) { /* asel / bsel */
        const unsigned shift = k == 1 ? 0 : 12;
        ok = n == 1 + lanes;
        for (unsigned i = 0; ok && i < lanes; i++) {
            unsigned e = (unsigned)(s[n - 1 - i] - '0');
            ok = s[n - 1 - i] >= '0' && e < 2 * lanes;
            tg = (tg & ~(7u << (shift + 3 * i))) | (e << (shift + 3 * i));
        }
    }
    if (!ok) {
        diag(P, line, col, "'%.*s': bad %s '.%.*s' (PTX ISA: %s)", (int)mt->len, mt->p,
             k == 0   ? "mask"
             : k == 1 ? "a selector"
             : k == 2 ? "b selector"
                      : "selector",
             (int)n, s,
             k == 0   ? (lanes == 4 ? ".b0 ... .b3210" : ".h0, .h1 or .h10")
             : k <= 2 ? (lanes == 4 ? ".bxyzw, x..w in 0-7" : ".hxy, x and y in 0-3")
                      : "c takes none");
        return 0;
    }
    in->target = (int32_t)tg;
    return 1;
}

/* A modifier of cp.async (PTX ISA §9.7.9.25) or mbarrier (§9.7.13.15) q[0..n) that
 * sets the form (ptx_insn.cmp, PTX_CPA_* / PTX_MBAR_*) or a bop bit; 0 for any other. */
static int async_mod(ptx_insn *in, const char *q, size_t n)
{
    static const struct {
        const char *name;
        uint8_t op, form, bop;
    } tab[] = {
        {"commit_group", PTX_OP_cp, PTX_CPA_COMMIT, 0},
        {"wait_group", PTX_OP_cp, PTX_CPA_WAIT_GROUP, 0},
        {"wait_all", PTX_OP_cp, PTX_CPA_WAIT_ALL, 0},
        {"mbarrier", PTX_OP_cp, PTX_CPA_MBAR_ARRIVE, 0},
        {"arrive", PTX_OP_cp, 0, 0},
        {"noinc", PTX_OP_cp, 0, PTX_MBAR_NOINC},
        {"bulk", PTX_OP_cp, 0, PTX_CPA_BULK},
        {"mbarrier::complete_tx::bytes", PTX_OP_cp, 0, PTX_CPA_BULK_MBAR},
        {"bulk_group", PTX_OP_cp, 0, 0},
        {"prefetch", PTX_OP_cp, PTX_CPA_PREFETCH, 0},
        {"reduce", PTX_OP_cp, 0, PTX_CPA_REDUCE},
        {"read", PTX_OP_cp, 0, 0}, /* wait_group.read: the simulator's copies end at once */
        {"shared::cluster", PTX_OP_cp, 0, 0},
        {"init", PTX_OP_mbarrier, PTX_MBAR_INIT, 0},
        {"arrive", PTX_OP_mbarrier, PTX_MBAR_ARRIVE, 0},
        {"arrive_drop", PTX_OP_mbarrier, PTX_MBAR_ARRIVE_DROP, 0},
        {"complete_tx", PTX_OP_mbarrier, PTX_MBAR_COMPLETE_TX, 0},
        {"test_wait", PTX_OP_mbarrier, PTX_MBAR_TEST_WAIT, 0},
        {"try_wait", PTX_OP_mbarrier, PTX_MBAR_TRY_WAIT, 0},
        {"pending_count", PTX_OP_mbarrier, PTX_MBAR_PENDING_COUNT, 0},
        {"inval", PTX_OP_mbarrier, PTX_MBAR_INVAL, 0},
        {"parity", PTX_OP_mbarrier, 0, PTX_MBAR_PARITY},
        {"noComplete", PTX_OP_mbarrier, 0, 0},
    };
    if (in->op == PTX_OP_mbarrier && n == 9 && !memcmp(q, "expect_tx", 9)) {
        /* arrive.expect_tx: the arrive also expects bytes; alone: mbarrier.expect_tx */
        if (in->cmp == PTX_MBAR_ARRIVE || in->cmp == PTX_MBAR_ARRIVE_DROP)
            in->bop |= PTX_MBAR_TX;
        else
            in->cmp = PTX_MBAR_EXPECT_TX;
        return 1;
    }
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (tab[i].op == in->op && strlen(tab[i].name) == n && !memcmp(tab[i].name, q, n)) {
            if (tab[i].form)
                in->cmp = tab[i].form;
            in->bop |= tab[i].bop;
            return 1;
        }
    return 0;
}

/* A tensor-core instruction's mnemonic (PTX ISA §9.7.14): mma_decode's descriptor goes
 * to in->target (mma_pack), the state space to in->space. */
static int decode_mma(parser *P, ptx_insn *in, const ptx_tok *mt)
{
    static const uint8_t ops[] = {0,
                                  PTX_OP_mma,
                                  PTX_OP_wmma_load,
                                  PTX_OP_wmma_store,
                                  PTX_OP_wmma_mma,
                                  PTX_OP_ldmatrix,
                                  PTX_OP_stmatrix,
                                  PTX_OP_movmatrix};
    mma_desc d;
    int space;
    char err[160];
    if (!mma_decode(mt->p, mt->len, &d, &space, err, sizeof err)) {
        diag(P, mt->line, mt->col, "unsupported instruction '%.*s': %s", (int)mt->len, mt->p, err);
        P->unsupported = 1;
        return 0;
    }
    if ((d.kind == MMA_K_LDMATRIX || d.kind == MMA_K_STMATRIX) && space != 2) {
        diag(P, mt->line, mt->col, "'%.*s' needs .shared", (int)mt->len, mt->p);
        return 0;
    }
    in->op = ops[d.kind];
    in->vec = 1;
    in->type = PTX_T_B32;
    in->space = (uint8_t)(space == 1   ? SIM_SPACE_GLOBAL
                          : space == 2 ? SIM_SPACE_SHARED
                                       : SIM_SPACE_GENERIC);
    in->target = (int32_t)mma_pack(&d);
    in->cmp = d.sparse; /* the selector joins it in parse_mma_operands */
    return 1;
}

/* A register list `{%r1, %r2, ...}` of a tensor-core instruction (the '{' is current)
 * into *o (PTX_OPK_RLIST, its slots appended to ptx_module.rlist). */
static int parse_rlist(parser *P, ptx_operand *o)
{
    ptx_module *m = P->m;
    memset(o, 0, sizeof *o);
    o->kind = PTX_OPK_RLIST;
    o->reg = PTX_NOREG;
    o->sym = -1;
    o->imm = (uint64_t)m->nrlist;
    next(P);
    int n = 0, rs;
    do {
        uint16_t r = PTX_NOREG;
        if (P->t.kind == PTX_TOK_IDENT && tok_eq(&P->t, "_")) {
            /* sink */
        } else if (P->t.kind == PTX_TOK_IDENT && P->t.p[0] == '%') {
            if (!lookup_reg(P, &r))
                return 0;
        } else if (P->t.kind == PTX_TOK_IDENT && regs_bind(P, &rs)) {
            r = (uint16_t)rs;
        } else {
            diag(P, P->t.line, P->t.col, "expected a register in the list, found '%.*s'",
                 (int)P->t.len, P->t.p);
            return 0;
        }
        next(P);
        GROW(m->rlist, m->nrlist, P->rlcap);
        if (P->oom)
            return 0;
        m->rlist[m->nrlist++] = r;
        n++;
    } while (accept(P, ','));
    if (n > 32) {
        diag(P, P->t.line, P->t.col, "register list of %d registers", n);
        return 0;
    }
    o->sub = (uint8_t)n;
    return expect(P, '}');
}

int ptx_mma_desc(const ptx_insn *in, mma_desc *d)
{
    uint8_t kind;
    switch ((ptx_op)in->op) {
    case PTX_OP_mma: kind = MMA_K_MMA; break;
    case PTX_OP_wmma_load: kind = MMA_K_WLOAD; break;
    case PTX_OP_wmma_store: kind = MMA_K_WSTORE; break;
    case PTX_OP_wmma_mma: kind = MMA_K_WMMA; break;
    case PTX_OP_ldmatrix: kind = MMA_K_LDMATRIX; break;
    case PTX_OP_stmatrix: kind = MMA_K_STMATRIX; break;
    case PTX_OP_movmatrix: kind = MMA_K_MOVMATRIX; break;
    default: return 0;
    }
    d->kind = kind;
    mma_unpack((uint32_t)in->target, d); /* keeps d->kind */
    if (kind == MMA_K_MMA) {
        d->sparse = in->cmp & 3;
        d->sel = (uint8_t)(in->cmp >> 2);
    }
    return 1;
}

/* mma.sp's metadata register and sparsity selector (PTX ISA §9.7.14.6.5), after its four
 * lists (the ',' consumed): the register's slot goes to ptx_module.rlist right after the C
 * list's (o[3]; the lists are appended in order), the selector to in->cmp's bits 2-3. */
static int parse_mma_sp_tail(parser *P, ptx_insn *in, const ptx_tok *mt, mma_desc *d)
{
    ptx_operand e, f;
    if (!parse_operand(P, in, &e, PTX_T_B32))
        return 0;
    if (e.kind != PTX_OPK_REG) {
        diag(P, mt->line, mt->col, "'%.*s': the metadata (operand 4) must be a .b32 register",
             (int)mt->len, mt->p);
        return 0;
    }
    if (!expect(P, ',') || !parse_operand(P, in, &f, PTX_T_U32))
        return 0;
    if (f.kind != PTX_OPK_IMM || f.imm >= (uint64_t)mma_sp_selectors(d)) {
        diag(P, mt->line, mt->col,
             "'%.*s': the sparsity selector (operand 5) must be an integer constant 0 ... %d "
             "(PTX ISA §9.7.14.6.5)",
             (int)mt->len, mt->p, mma_sp_selectors(d) - 1);
        return 0;
    }
    ptx_module *m = P->m;
    GROW(m->rlist, m->nrlist, P->rlcap);
    if (P->oom)
        return 0;
    m->rlist[m->nrlist++] = e.reg;
    in->cmp = (uint8_t)(in->cmp | f.imm << 2);
    in->nopnd = 4;
    return 1;
}

/* The operands of a tensor-core instruction (ptx_ops.def): register lists, the address,
 * wmma's optional stride; the list lengths checked against mma_nregs. */
static int parse_mma_operands(parser *P, ptx_insn *in, const ptx_tok *mt)
{
    mma_desc d;
    ptx_mma_desc(in, &d);
    /* what each operand is: 'L' list of matrix (index), 'A' address, 'S' stride, 'R' reg */
    const int wf = d.frag == MMA_C ? (d.kind == MMA_K_WSTORE ? MMA_D : MMA_C) : d.frag;
    struct {
        char what;
        int which;
    } want[4] = {{0, 0}};
    int nwant = 4, nmin = 4;
    switch (d.kind) {
    case MMA_K_MMA:
    case MMA_K_WMMA:
        want[0].what = want[1].what = want[2].what = want[3].what = 'L';
        want[0].which = MMA_D, want[1].which = MMA_A, want[2].which = MMA_B;
        want[3].which = MMA_C;
        break;
    case MMA_K_WLOAD:
        want[0].what = 'L', want[0].which = wf, want[1].what = 'A', want[2].what = 'S';
        nwant = 3, nmin = 2;
        break;
    case MMA_K_WSTORE:
        want[0].what = 'A', want[1].what = 'L', want[1].which = wf, want[2].what = 'S';
        nwant = 3, nmin = 2;
        break;
    case MMA_K_LDMATRIX:
        want[0].what = 'L', want[0].which = MMA_D, want[1].what = 'A';
        nwant = nmin = 2;
        break;
    case MMA_K_STMATRIX:
        want[0].what = 'A', want[1].what = 'L', want[1].which = MMA_D;
        nwant = nmin = 2;
        break;
    default:
        want[0].what = want[1].what = 'R';
        nwant = nmin = 2;
        break;
    }
    int n = 0;
    while (!is_punct(P, ';') && P->t.kind != PTX_TOK_EOF) {
        if (n == nwant) {
            diag(P, P->t.line, P->t.col, "too many operands");
            return 0;
        }
        ptx_operand *o = &in->o[n];
        const char w = want[n].what;
        if (w == 'L') {
            if (!is_punct(P, '{')) {
                diag(P, P->t.line, P->t.col, "'%.*s': operand %d must be a register list {...}",
                     (int)mt->len, mt->p, n);
                return 0;
            }
            if (!parse_rlist(P, o))
                return 0;
            const int need = mma_nregs(&d, want[n].which);
            if (o->sub != need) {
                diag(P, mt->line, mt->col, "'%.*s': operand %d needs %d registers, found %d",
                     (int)mt->len, mt->p, n, need, o->sub);
                return 0;
            }
        } else {
            if (!parse_operand(P, in, o, PTX_T_U32))
                return 0;
            if ((w == 'A') != (o->kind == PTX_OPK_ADDR) ||
                (w == 'S' && o->kind != PTX_OPK_REG && o->kind != PTX_OPK_IMM) ||
                (w == 'R' && o->kind != PTX_OPK_REG)) {
                diag(P, mt->line, mt->col, "'%.*s': bad operand %d", (int)mt->len, mt->p, n);
                return 0;
            }
        }
        n++;
        if (!accept(P, ','))
            break;
        if (n == 4 && d.sparse)
            return parse_mma_sp_tail(P, in, mt, &d);
    }
    if (n < nmin) {
        diag(P, mt->line, mt->col, "'%.*s' takes %d operands, found %d", (int)mt->len, mt->p, nmin,
             n);
        return 0;
    }
    in->nopnd = (uint8_t)n;
    return 1;
}

/* barrier.cluster.arrive{.release,.relaxed}{.aligned} / barrier.cluster.wait{.acquire}
 * {.aligned} (PTX ISA §9.7.13.2): op barrier_cluster, the form in cmp. */
static int decode_barrier_cluster(parser *P, ptx_insn *in, const ptx_tok *mt)
{
    in->op = PTX_OP_barrier_cluster;
    in->type = PTX_T_B32;
    in->vec = 1;
    const char *p = mt->p + 7, *end = mt->p + mt->len;
    while (p < end) {
        const char *q = p + 1, *e = memchr(q, '.', (size_t)(end - q));
        if (!e)
            e = end;
        const size_t n = (size_t)(e - q);
        if (n == 6 && !memcmp(q, "arrive", 6) && !in->cmp)
            in->cmp = PTX_BARC_ARRIVE;
        else if (n == 4 && !memcmp(q, "wait", 4) && !in->cmp)
            in->cmp = PTX_BARC_WAIT;
        else if (n == 7 && !memcmp(q, "relaxed", 7) && in->cmp == PTX_BARC_ARRIVE)
            in->bop = PTX_BARC_RELAXED;
        else if (!((n == 7 && !memcmp(q, "cluster", 7)) || (n == 7 && !memcmp(q, "aligned", 7)) ||
                   (n == 7 && !memcmp(q, "release", 7) && in->cmp == PTX_BARC_ARRIVE) ||
                   (n == 7 && !memcmp(q, "acquire", 7) && in->cmp == PTX_BARC_WAIT))) {
            diag(P, mt->line, mt->col, "unsupported modifier '.%.*s' in '%.*s'", (int)n, q,
                 (int)mt->len, mt->p);
            P->unsupported = 1;
            return 0;
        }
        p = e;
    }
    if (!in->cmp) {
        diag(P, mt->line, mt->col, "'%.*s' needs .arrive or .wait", (int)mt->len, mt->p);
        return 0;
    }
    return 1;
}

/* Why a cvt's modifiers do not fit its types, or NULL (PTX ISA §9.7.9.21 cvt: "Rounding
 * modifier is mandatory", "Integer Notes", "Floating Point Notes", the .ftz, .sat, .relu
 * and .satfinite rules and the syntax's forms), as ptxas 13.0 -arch=sm_90 reads them:
 * where ptxas accepts more than the text (a rounding on .bf16 to a wider float, none
 * between .f16 and .bf16), so does this; tests/isa/cvt.txt lists forms it refuses. */
static const char *cvt_form_error(const ptx_insn *in)
{
    const int dt = in->type, st = in->type2, rnd = in->rnd;
    const int relu = (in->bop & PTX_RELU) != 0, satf = (in->bop & PTX_CVT_SATFINITE) != 0;
    const int sat = (in->flags & PTX_F_SAT) != 0, ftz = (in->flags & PTX_F_FTZ) != 0;
    const int frnd = rnd >= PTX_RND_RN && rnd <= PTX_RND_RP;
    const int irnd = rnd >= PTX_RND_RNI && rnd <= PTX_RND_RPI;
    const int rn_rz = rnd == PTX_RND_RN || rnd == PTX_RND_RZ;
    if (in->cmp) { /* .tf32, .e4m3x2/.e5m2x2 (checked by the caller) */
        if (ftz || sat)
            return ".ftz and .sat do not apply to .tf32, .e4m3x2 or .e5m2x2";
        if (in->cmp == PTX_CVT_TF32)
            return rnd == PTX_RND_RNA && relu ? ".relu cannot be combined with .rna"
                   : rnd != PTX_RND_RNA && satf
                       ? "cvt.rn/.rz.satfinite.tf32.f32 needs sm_100 (PTX ISA 8.6)"
                       : NULL;
        if (in->cmp >= PTX_CVT_FROM_E4M3X2 && satf)
            return ".satfinite does not apply to .f16x2 from .e4m3x2/.e5m2x2";
        return rnd != PTX_RND_RN && in->cmp >= PTX_CVT_FROM_E4M3X2 ? "the rounding is .rn" : NULL;
    }
    if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2)
        return st != PTX_T_F32 ? "the source of .f16x2/.bf16x2 is two .f32"
               : !rn_rz        ? "to .f16x2/.bf16x2 the rounding is .rn or .rz"
               : ftz || sat    ? ".ftz and .sat do not apply to .f16x2/.bf16x2"
                               : NULL;
    const int dtc = PTX_TCLASS(dt), stc = PTX_TCLASS(st);
    const int dfl = dtc == PTX_TC_F || dtc == PTX_TC_BF, sfl = stc == PTX_TC_F || stc == PTX_TC_BF;
    if ((!dfl && dtc != PTX_TC_U && dtc != PTX_TC_S) ||
        (!sfl && stc != PTX_TC_U && stc != PTX_TC_S))
        return "the types are .u8-.u64, .s8-.s64, .f16, .bf16, .f32 and .f64";
    if ((relu || satf) && !(st == PTX_T_F32 && (dt == PTX_T_F16 || dt == PTX_T_BF16)))
        return ".relu and .satfinite are for .f16/.bf16 from .f32";
    if ((relu || satf) && !rn_rz)
        return "with .relu or .satfinite the rounding is .rn or .rz";
    if ((relu || satf) && (sat || ftz))
        return ".relu and .satfinite cannot be combined with .sat or .ftz";
    if (ftz && dt != PTX_T_F32 && st != PTX_T_F32)
        return ".ftz applies only where .dtype or .atype is .f32";
    if (sat && dt == PTX_T_BF16)
        return ".sat does not apply to a .bf16 destination";
    if (!dfl && !sfl) { /* integer to integer */
        if (rnd)
            return "a rounding modifier is illegal between integer types";
        if (ftz)
            return ".ftz does not apply between integer types";
        const unsigned ds = PTX_TSIZE(dt), ss = PTX_TSIZE(st);
        const int dsg = dtc == PTX_TC_S, ssg = stc == PTX_TC_S;
        const int superset = ssg ? dsg && ds >= ss : dsg ? ds > ss : ds >= ss;
        return sat && superset ? ".sat is illegal where the destination holds every source value"
                               : NULL;
    }
    if (!dfl) /* float to integer */
        return !irnd                     ? "float to integer needs .rni, .rzi, .rmi or .rpi"
               : sat && st == PTX_T_BF16 ? ".sat does not apply to a .bf16 source"
               : ftz && st != PTX_T_F32  ? ".ftz applies only to an .f32 source"
                                         : NULL;
    if (!sfl) /* integer to float */
        return frnd ? NULL : "integer to float needs .rn, .rz, .rm or .rp";
    if (dt == st) /* an integral value in the same format, or none */
        return frnd ? "between equal float types the rounding is .rni, .rzi, .rmi or .rpi" : NULL;
    if (irnd)
        return "integer rounding applies only between equal float types";
    const int dbits = dt == PTX_T_BF16 ? 8 : dt == PTX_T_F16 ? 11 : dt == PTX_T_F32 ? 24 : 53;
    const int sbits = st == PTX_T_BF16 ? 8 : st == PTX_T_F16 ? 11 : st == PTX_T_F32 ? 24 : 53;
    const int half_pair = PTX_TSIZE(dt) == 2 && PTX_TSIZE(st) == 2; /* f16 <-> bf16 */
    if (!half_pair && dbits < sbits && !frnd)
        return "a narrowing float conversion needs .rn, .rz, .rm or .rp";
    if (dbits > sbits && PTX_TSIZE(dt) > PTX_TSIZE(st) && frnd && st != PTX_T_BF16)
        return "a widening float conversion takes no rounding modifier";
    return NULL;
}

/* Splits the mnemonic into op and modifiers (PTX ISA §9.7: instruction syntax). */
static int decode_mnemonic(parser *P, ptx_insn *in, const ptx_tok *mt)
{
    static const char *const rnd_names[] = {"rn",  "rz",  "rm",  "rp", "rni",
                                            "rzi", "rmi", "rpi", "rna"};
    static const char *const cmp_names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                            "lo",  "ls",  "hi",  "hs",  "equ", "neu",
                                            "ltu", "leu", "gtu", "geu", "num", "nan"};
    static const char *const atom_names[] = {"add", "min",  "max", "and", "or",
                                             "xor", "exch", "cas", "inc", "dec"};
    static const char *const ignored[] = {
        "sync", "aligned", "relaxed", "acquire", "release", "acq_rel", "sc",    "sys",  "gpu",
        "cta",  "ca",      "cg",      "cs",      "lu",      "cv",      "wb",    "wt",   "L1",
        "L2",   "noftz",   "weak",    "mmio",    "cluster", "proxy",   "async", "alias"};
    static const char *const shfl_names[] = {"up", "down", "bfly", "idx"};
    static const char *const vote_names[] = {"all", "any", "uni", "ballot"};
    static const char *const match_names[] = {"any", "all"};
    static const char *const prmt_names[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    static const char *const shf_names[] = {"l", "r"};
    static const char *const testp_names[] = {"finite",     "infinite", "number",
                                              "notanumber", "normal",   "subnormal"};
    static const char *const bop_names[] = {"and", "or", "xor"};
    const char *s = mt->p, *end = mt->p + mt->len;
    const char *dot = memchr(s, '.', mt->len);
    size_t blen = dot ? (size_t)(dot - s) : mt->len;
    if (blen >= 4 && blen <= 8 && s[0] == 'v') {
        const int vop = ptx_op_lookup(s, blen);
        if (is_svideo(vop)) {
            in->op = (uint8_t)vop;
            return decode_svideo(P, in, mt);
        }
    }
    if ((blen == 3 && !memcmp(s, "mma", 3)) || (blen == 4 && !memcmp(s, "wmma", 4)) ||
        (blen == 8 && (!memcmp(s, "ldmatrix", 8) || !memcmp(s, "stmatrix", 8))) ||
        (blen == 9 && !memcmp(s, "movmatrix", 9)))
        return decode_mma(P, in, mt);
    if (blen == 7 && !memcmp(s, "barrier", 7) && has_sub(mt, ".cluster"))
        return decode_barrier_cluster(P, in, mt);
    int op = ptx_op_lookup(s, blen);
    if (op < 0) {
        diag(P, mt->line, mt->col, "unsupported instruction '%.*s'", (int)mt->len, mt->p);
        P->unsupported = 1;
        return 0;
    }
    in->op = (uint8_t)op;
    in->vec = 1;
    int ntypes = 0, vadd = 0;
    uint8_t vt[3] = {0, 0, 0}; /* a video instruction's .dtype.atype.btype */
    const char *p = dot;
    while (p && p < end) {
        const char *q = p + 1;
        const char *e = memchr(q, '.', (size_t)(end - q));
        if (!e)
            e = end;
        size_t n = (size_t)(e - q);
        ptx_type t = type_of(q, n);
        int k;
        if (t != PTX_T_NONE) {
            if (ntypes < 3)
                vt[ntypes] = (uint8_t)t;
            if (ntypes == 0)
                in->type = (uint8_t)t;
            else
                in->type2 = (uint8_t)t;
            ntypes++;
        } else if (op == PTX_OP_cp && (in->bop & PTX_CPA_REDUCE) && !in->rnd &&
                   (k = lookup_mod(atom_names, 10, q, n))) {
            in->rnd = (uint8_t)k; /* cp.reduce's operation */
        } else if ((op == PTX_OP_cp || op == PTX_OP_mbarrier) && async_mod(in, q, n)) {
            /* cp.async / mbarrier forms (async_mod) */
        } else if ((op == PTX_OP_setp || op == PTX_OP_set) &&
                   (k = lookup_mod(cmp_names, 18, q, n)) && !in->cmp) {
            in->cmp = (uint8_t)k;
        } else if ((op == PTX_OP_vset2 || op == PTX_OP_vset4) &&
                   (k = lookup_mod(cmp_names, 6, q, n)) && !in->cmp) {
            in->cmp = (uint8_t)k; /* vset: .eq .ne .lt .le .gt .ge only */
        } else if (is_video(op) && n == 3 && !memcmp(q, "add", 3) && !vadd) {
            vadd = 1; /* secondary accumulate (PTX ISA §9.7.16.2) */
        } else if (is_video(op) && !(n == 3 && !memcmp(q, "sat", 3))) {
            diag(P, mt->line, mt->col, "unsupported modifier '.%.*s' in '%.*s'", (int)n, q,
                 (int)mt->len, mt->p);
            P->unsupported = 1;
            return 0;
        } else if ((op == PTX_OP_atom || op == PTX_OP_red || op == PTX_OP_redux ||
                    op == PTX_OP_red_async) &&
                   (k = lookup_mod(atom_names, 10, q, n)) && !in->cmp) {
            in->cmp = (uint8_t)k;
        } else if ((op == PTX_OP_setp || op == PTX_OP_set) && in->cmp &&
                   (k = lookup_mod(bop_names, 3, q, n)) && !in->bop) {
            in->bop = (uint8_t)k;
        } else if (op == PTX_OP_shfl && (k = lookup_mod(shfl_names, 4, q, n)) && !in->cmp) {
            in->cmp = (uint8_t)k;
        } else if (op == PTX_OP_vote && (k = lookup_mod(vote_names, 4, q, n)) && !in->cmp) {
            in->cmp = (uint8_t)k;
        } else if (op == PTX_OP_match && (k = lookup_mod(match_names, 2, q, n)) && !in->cmp) {
            in->cmp = (uint8_t)k;
        } else if (op == PTX_OP_prmt && (k = lookup_mod(prmt_names, 6, q, n)) && !in->cmp) {
            in->cmp = (uint8_t)k;
        } else if (op == PTX_OP_shf && (k = lookup_mod(shf_names, 2, q, n)) && !in->cmp) {
            in->cmp = (uint8_t)k;
        } else if (op == PTX_OP_shf && n == 4 && !memcmp(q, "wrap", 4)) {
            /* the default */
        } else if ((op == PTX_OP_shf || op == PTX_OP_bmsk || op == PTX_OP_szext) && n == 5 &&
                   !memcmp(q, "clamp", 5)) {
            in->flags |= PTX_F_CLAMP;
            in->cmp = op == PTX_OP_shf ? in->cmp : 1; /* bmsk, szext: a mode was given */
        } else if ((op == PTX_OP_bmsk || op == PTX_OP_szext) && n == 4 && !memcmp(q, "wrap", 4)) {
            in->cmp = 1;
        } else if (op == PTX_OP_createpolicy && !in->cmp &&
                   ((n == 10 && !memcmp(q, "fractional", 10)) ||
                    (n == 5 && !memcmp(q, "range", 5)) || (n == 3 && !memcmp(q, "cvt", 3)))) {
            in->cmp = (uint8_t)(q[0] == 'f' ? 1 : q[0] == 'r' ? 2 : 3); /* §9.7.9.18 forms */
        } else if (op == PTX_OP_griddepcontrol && !in->cmp &&
                   ((n == 17 && !memcmp(q, "launch_dependents", 17)) ||
                    (n == 4 && !memcmp(q, "wait", 4)))) {
            in->cmp = (uint8_t)(q[0] == 'w' ? 2 : 1);
        } else if ((op == PTX_OP_st || op == PTX_OP_red) && n == 5 && !memcmp(q, "async", 5)) {
            op = op == PTX_OP_st ? PTX_OP_st_async : PTX_OP_red_async;
            in->op = (uint8_t)op;
        } else if ((op == PTX_OP_st_async || op == PTX_OP_red_async) && n == 28 &&
                   !memcmp(q, "mbarrier::complete_tx::bytes", 28)) {
            /* the completion mechanism, the only one on sm_90 */
        } else if (op == PTX_OP_brx && n == 3 && !memcmp(q, "idx", 3) && !in->cmp) {
            in->cmp = 1;
            in->type = PTX_T_U32; /* the index */
        } else if (op == PTX_OP_pmevent && n == 4 && !memcmp(q, "mask", 4)) {
            /* pmevent.mask a: several events at once */
        } else if (op == PTX_OP_lop3 && !in->bop && (k = lookup_mod(bop_names, 2, q, n))) {
            in->bop = (uint8_t)k; /* lop3.and / lop3.or: d|p, ..., q (PTX ISA §9.7.8.6) */
        } else if ((op == PTX_OP_min || op == PTX_OP_max) &&
                   ((n == 7 && !memcmp(q, "xorsign", 7)) || (n == 3 && !memcmp(q, "abs", 3)))) {
            in->bop |= PTX_XORSIGN_ABS; /* checked below: both or neither */
        } else if (op == PTX_OP_fma && n == 3 && !memcmp(q, "oob", 3)) {
            in->bop |= PTX_OOB;
        } else if (op == PTX_OP_fence && n == 13 && !memcmp(q, "mbarrier_init", 13)) {
            /* fence.mbarrier_init.release.cluster (PTX ISA §9.7.13.4): orders earlier
             * mbarrier.init, which the simulator makes visible at once */
        } else if ((op == PTX_OP_ld || op == PTX_OP_st) && n == 14 &&
                   !memcmp(q, "L2::cache_hint", 14)) {
            /* a createpolicy policy as the last operand (PTX ISA §9.7.9.8): a hint */
        } else if (op == PTX_OP_testp && (k = lookup_mod(testp_names, 6, q, n)) && !in->cmp) {
            in->cmp = (uint8_t)k;
        } else if ((op == PTX_OP_bar || op == PTX_OP_barrier) && n == 6 &&
                   !memcmp(q, "arrive", 6) && !in->cmp) {
            in->cmp = PTX_BAR_ARRIVE; /* PTX ISA §9.7.13.1: arrive without waiting */
        } else if ((op == PTX_OP_bar || op == PTX_OP_barrier) && n == 3 && !memcmp(q, "red", 3) &&
                   !in->cmp) {
            in->cmp = PTX_BAR_RED;
        } else if ((op == PTX_OP_bar || op == PTX_OP_barrier) && in->cmp == PTX_BAR_RED &&
                   !in->bop && (k = lookup_mod(bop_names, 2, q, n))) {
            in->bop = (uint8_t)k; /* bar.red.and / .or */
        } else if ((op == PTX_OP_bar || op == PTX_OP_barrier) && in->cmp == PTX_BAR_RED &&
                   !in->bop && n == 4 && !memcmp(q, "popc", 4)) {
            in->bop = PTX_BAR_POPC;
        } else if ((op == PTX_OP_bar || op == PTX_OP_barrier) && n == 3 && !memcmp(q, "all", 3)) {
            /* barrier.red...all (PTX 8.x spelling of the CTA-wide form): the default */
        } else if (op == PTX_OP_bar && n == 4 && !memcmp(q, "warp", 4)) {
            op = PTX_OP_bar_warp;
            in->op = (uint8_t)op;
        } else if (n == 3 && !memcmp(q, "NaN", 3)) {
            in->flags |= PTX_F_NAN;
        } else if (n == 2 && !memcmp(q, "cc", 2) &&
                   (op == PTX_OP_add || op == PTX_OP_sub || op == PTX_OP_mad || op == PTX_OP_addc ||
                    op == PTX_OP_subc || op == PTX_OP_madc)) {
            in->flags |= PTX_F_CC; /* carry-out (PTX ISA §9.7.2) */
        } else if ((op == PTX_OP_membar || op == PTX_OP_fence) && n == 2 && !memcmp(q, "gl", 2)) {
            /* membar.gl: device scope */
        } else if ((k = mod_space(q, n)) >= 0) {
            in->space = (uint8_t)k;
        } else if (n == 11 && !memcmp(q, "shared::cta", 11)) {
            in->space = SIM_SPACE_SHARED;
        } else if (n == 15 && !memcmp(q, "shared::cluster", 15)) {
            /* a CTA's own shared addresses are valid .shared::cluster addresses too
             * (PTX ISA §5.1.5.1); other CTAs' are in sim_internal.h's cluster window */
            in->space = SIM_SPACE_SHARED;
        } else if (n > 4 && (!memcmp(q, "L1::", 4) || !memcmp(q, "L2::", 4)) &&
                   !(n == 14 && !memcmp(q, "L2::cache_hint", 14))) {
            /* cache eviction and prefetch-size hints: no effect in the simulator */
        } else if (op == PTX_OP_cvt && ntypes < 2 && !in->cmp &&
                   ((n == 4 && !memcmp(q, "tf32", 4)) ||
                    (n == 6 && (!memcmp(q, "e4m3x2", 6) || !memcmp(q, "e5m2x2", 6))))) {
            /* a type no register has (PTX ISA §9.7.9.21): in cmp, its register's in type */
            const int code = q[0] == 't'   ? PTX_CVT_TF32
                             : q[1] == '4' ? PTX_CVT_TO_E4M3X2
                                           : PTX_CVT_TO_E5M2X2;
            if (ntypes == 0) {
                in->cmp = (uint8_t)code;
                in->type = code == PTX_CVT_TF32 ? PTX_T_B32 : PTX_T_B16;
            } else {
                in->cmp = code == PTX_CVT_TF32 ? 0xff : (uint8_t)(code + 2); /* 0xff: none */
                in->type2 = PTX_T_B16;
            }
            ntypes++;
        } else if (op == PTX_OP_cvt && n == 4 && !memcmp(q, "pack", 4) && !ntypes) {
            op = PTX_OP_cvt_pack;
            in->op = (uint8_t)op;
        } else if (op == PTX_OP_cvt_pack && !ntypes && n == 2 && (q[0] == 'u' || q[0] == 's') &&
                   (q[1] == '4' || q[1] == '2')) {
            in->cmp = (uint8_t)(q[1] - '0'); /* the sub-byte types (sm_75) */
            in->bop = q[0] == 's';
            in->type = PTX_T_B32;
            ntypes++;
        } else if (op == PTX_OP_cvt && n == 9 && !memcmp(q, "satfinite", 9)) {
            in->bop |= PTX_CVT_SATFINITE;
        } else if ((op == PTX_OP_cvt || op == PTX_OP_fma || op == PTX_OP_min || op == PTX_OP_max) &&
                   n == 4 && !memcmp(q, "relu", 4)) {
            in->bop |= PTX_RELU;
        } else if ((op == PTX_OP_add || op == PTX_OP_min || op == PTX_OP_max) && n == 5 &&
                   (!memcmp(q, "u16x2", 5) || !memcmp(q, "s16x2", 5))) {
            in->type = q[0] == 'u' ? PTX_T_U16X2 : PTX_T_S16X2; /* sm_90 (§9.7.1.1) */
        } else if ((k = lookup_mod(rnd_names, 9, q, n))) {
            in->rnd = (uint8_t)k;
        } else if (n == 2 && q[0] == 'v' && (q[1] == '2' || q[1] == '4')) {
            in->vec = (uint8_t)(q[1] - '0');
        } else if (n == 2 && !memcmp(q, "hi", 2)) {
            in->flags |= PTX_F_HI;
        } else if (n == 2 && !memcmp(q, "lo", 2)) {
            in->flags |= PTX_F_LO;
        } else if (n == 4 && !memcmp(q, "wide", 4)) {
            in->flags |= PTX_F_WIDE;
        } else if ((n == 3 && !memcmp(q, "sat", 3)) || (n == 6 && !memcmp(q, "satfinite", 6))) {
            in->flags |= PTX_F_SAT;
        } else if (n == 3 && !memcmp(q, "ftz", 3)) {
            in->flags |= PTX_F_FTZ;
        } else if (n == 6 && !memcmp(q, "approx", 6)) {
            in->flags |= PTX_F_APPROX;
        } else if (n == 4 && !memcmp(q, "full", 4)) {
            in->flags |= PTX_F_FULL;
        } else if (n == 3 && !memcmp(q, "uni", 3)) {
            in->flags |= PTX_F_UNI;
        } else if ((op == PTX_OP_membar || op == PTX_OP_fence) && n == 3 && !memcmp(q, "cta", 3)) {
            in->bop = PTX_MEM_CTA; /* block scope: orders nothing between blocks */
        } else if ((op == PTX_OP_st || op == PTX_OP_atom || op == PTX_OP_red) &&
                   ((n == 7 && !memcmp(q, "release", 7)) || (n == 7 && !memcmp(q, "acq_rel", 7)) ||
                    (n == 2 && !memcmp(q, "sc", 2)))) {
            /* a release (PTX ISA §8.4 "Memory Consistency Model"): the global-memory
             * race detector orders the block's earlier accesses before it */
            in->bop = PTX_MEM_RELEASE;
            if (op == PTX_OP_st)
                in->flags |= PTX_F_VOLATILE;
        } else if ((n == 8 && !memcmp(q, "volatile", 8)) ||
                   ((op == PTX_OP_ld || op == PTX_OP_st) &&
                    ((n == 7 && !memcmp(q, "relaxed", 7)) || (n == 7 && !memcmp(q, "acquire", 7)) ||
                     (n == 7 && !memcmp(q, "release", 7)) || (n == 2 && !memcmp(q, "sc", 2))))) {
            /* volatile, and the strong (memory-model) forms: loads the simulator treats
             * as polling memory for forward progress (sim_warp_step) */
            in->flags |= PTX_F_VOLATILE;
            if (n != 8 && in->bop != PTX_MEM_RELEASE)
                in->bop = PTX_MEM_STRONG; /* strong: not a data race with atomics */
        } else if (n == 2 && !memcmp(q, "to", 2)) {
            in->flags |= PTX_F_TO;
        } else if (n == 2 && !memcmp(q, "nc", 2)) {
            in->flags |= PTX_F_NC;
        } else if (n == 8 && !memcmp(q, "shiftamt", 8)) {
            in->flags |= PTX_F_SHIFTAMT;
        } else if (lookup_mod(ignored, (int)(sizeof ignored / sizeof ignored[0]), q, n)) {
            /* ordering, scope and cache hints: no effect in a sequential simulator */
        } else {
            diag(P, mt->line, mt->col, "unsupported modifier '.%.*s' in '%.*s'", (int)n, q,
                 (int)mt->len, mt->p);
            P->unsupported = 1;
            return 0;
        }
        p = e;
    }
    if ((op == PTX_OP_bar || op == PTX_OP_barrier) && in->cmp == PTX_BAR_RED &&
        (!in->bop || (in->bop == PTX_BAR_POPC ? in->type != PTX_T_U32 : in->type != PTX_T_PRED))) {
        diag(P, mt->line, mt->col, "'%.*s': bar.red needs .popc.u32, .and.pred or .or.pred",
             (int)mt->len, mt->p);
        return 0;
    }
    if (op == PTX_OP_cp) {
        if (!in->cmp)
            in->cmp = PTX_CPA_COPY; /* cp.async.ca/.cg.shared.global */
        if (!has_sub(mt, ".async")) {
            diag(P, mt->line, mt->col, "unsupported instruction '%.*s'", (int)mt->len, mt->p);
            P->unsupported = 1;
            return 0;
        }
        in->space = SIM_SPACE_SHARED; /* the destination's */
        if (in->bop & PTX_CPA_REDUCE) {
            const int et = in->type;
            if (!in->rnd || !(in->bop & PTX_CPA_BULK) ||
                !(et == PTX_T_B32 || et == PTX_T_U32 || et == PTX_T_S32 || et == PTX_T_B64 ||
                  et == PTX_T_U64 || et == PTX_T_S64 || et == PTX_T_F32 || et == PTX_T_F64)) {
                diag(P, mt->line, mt->col,
                     "'%.*s': cp.reduce.async.bulk needs an operation and a 32- or 64-bit type "
                     "(.f16/.bf16 are not simulated)",
                     (int)mt->len, mt->p);
                P->unsupported = 1;
                return 0;
            }
            in->type2 = (uint8_t)et;
        }
        in->type = PTX_T_B32;
    }
    if (op == PTX_OP_mbarrier && !in->cmp) {
        diag(P, mt->line, mt->col, "unsupported instruction '%.*s'", (int)mt->len, mt->p);
        P->unsupported = 1;
        return 0;
    }
    if (op == PTX_OP_mbarrier && in->type == PTX_T_NONE)
        in->type = PTX_T_B64;
    if (op == PTX_OP_elect)
        in->type = PTX_T_B32;
    if (is_video(op))
        return decode_video(P, in, mt, vt, ntypes, vadd);
    if (op == PTX_OP_cvt_pack) {
        const ptx_type ct = (ptx_type)in->type;
        if (!in->cmp && (ct == PTX_T_U8 || ct == PTX_T_S8 || ct == PTX_T_U16 || ct == PTX_T_S16)) {
            in->cmp = (uint8_t)(PTX_TSIZE(ct) * 8);
            in->bop = PTX_TCLASS(ct) == PTX_TC_S;
        }
        if (!in->cmp || !(in->flags & PTX_F_SAT) || ntypes != (in->cmp == 16 ? 2 : 3)) {
            diag(P, mt->line, mt->col,
                 "'%.*s': cvt.pack.sat.{u16,s16}.s32 or cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 "
                 "(PTX ISA §9.7.9.22)",
                 (int)mt->len, mt->p);
            return 0;
        }
        in->type = PTX_T_B32;
        in->type2 = PTX_T_S32;
    }
    if (op == PTX_OP_cvt && in->cmp) {
        const int c = in->cmp, t2 = in->type2;
        const int ok =
            c == PTX_CVT_TF32        ? t2 == PTX_T_F32 && (in->rnd == PTX_RND_RNA ||
                                                    in->rnd == PTX_RND_RN || in->rnd == PTX_RND_RZ)
            : c <= PTX_CVT_TO_E5M2X2 ? (t2 == PTX_T_F32 || t2 == PTX_T_F16X2) &&
                                           in->rnd == PTX_RND_RN && (in->bop & PTX_CVT_SATFINITE)
                                     : in->type == PTX_T_F16X2 && c != 0xff;
        if (!ok) {
            diag(P, mt->line, mt->col,
                 "'%.*s': the forms are cvt.{rna,rn,rz}{.satfinite}.tf32.f32, "
                 "cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2} and "
                 "cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} (PTX ISA §9.7.9.21)",
                 (int)mt->len, mt->p);
            P->unsupported = 1;
            return 0;
        }
    } else if (in->rnd == PTX_RND_RNA) {
        diag(P, mt->line, mt->col, "'%.*s': .rna is only for cvt.rna.tf32.f32", (int)mt->len,
             mt->p);
        return 0;
    }
    if (op == PTX_OP_cvt && ntypes != 2) {
        diag(P, mt->line, mt->col, "cvt needs two types");
        return 0;
    }
    const char *cvt_why = op == PTX_OP_cvt ? cvt_form_error(in) : NULL;
    if (cvt_why) {
        diag(P, mt->line, mt->col, "'%.*s': %s (PTX ISA §9.7.9.21 cvt)", (int)mt->len, mt->p,
             cvt_why);
        return 0;
    }
    if ((op == PTX_OP_st_async || op == PTX_OP_red_async) && !has_sub(mt, ".shared::cluster") &&
        !has_sub(mt, ".mbarrier::complete_tx::bytes")) {
        diag(P, mt->line, mt->col,
             "'%.*s': only the sm_90 form (.shared::cluster with .mbarrier::complete_tx::bytes) "
             "is supported",
             (int)mt->len, mt->p);
        P->unsupported = 1;
        return 0;
    }
    if (op == PTX_OP_st_async || op == PTX_OP_red_async)
        in->space = SIM_SPACE_SHARED;
    if ((op == PTX_OP_atom || op == PTX_OP_red || op == PTX_OP_red_async) && !in->cmp) {
        diag(P, mt->line, mt->col, "unsupported atomic '%.*s'", (int)mt->len, mt->p);
        P->unsupported = 1;
        return 0;
    }
    if ((op == PTX_OP_setp || op == PTX_OP_set) && !in->cmp) {
        diag(P, mt->line, mt->col, "comparison operator missing in '%.*s'", (int)mt->len, mt->p);
        return 0;
    }
    if (op == PTX_OP_set && ntypes == 2) {
        /* set.CmpOp.dtype.stype: keep the compared type in type2 */
    } else if (op == PTX_OP_setp) {
        in->type2 = in->type;
    }
    if (op == PTX_OP_shfl && !in->cmp) {
        diag(P, mt->line, mt->col, "shfl needs a mode (.up/.down/.bfly/.idx) in '%.*s'",
             (int)mt->len, mt->p);
        return 0;
    }
    if ((op == PTX_OP_vote || op == PTX_OP_match || op == PTX_OP_redux) && !in->cmp) {
        diag(P, mt->line, mt->col, "'%.*s' needs a mode", (int)mt->len, mt->p);
        return 0;
    }
    if ((op == PTX_OP_shfl || op == PTX_OP_vote) && !has_sub(mt, ".sync")) {
        diag(P, mt->line, mt->col,
             "unsupported instruction '%.*s': only the .sync form (sm_70+) is supported",
             (int)mt->len, mt->p);
        P->unsupported = 1;
        return 0;
    }
    if (op == PTX_OP_vote && in->cmp != PTX_VOTE_BALLOT)
        in->type = PTX_T_PRED;
    if ((op == PTX_OP_bar_warp || op == PTX_OP_activemask || op == PTX_OP_nanosleep ||
         op == PTX_OP_applypriority || op == PTX_OP_discard || op == PTX_OP_griddepcontrol ||
         op == PTX_OP_pmevent) &&
        in->type == PTX_T_NONE)
        in->type = PTX_T_B32;
    if (op == PTX_OP_shf && !in->cmp) {
        diag(P, mt->line, mt->col, "shf needs .l or .r in '%.*s'", (int)mt->len, mt->p);
        return 0;
    }
    if (in->type == PTX_T_B128) {
        if (!(op == PTX_OP_mov || op == PTX_OP_ld || op == PTX_OP_ldu || op == PTX_OP_st ||
              (op == PTX_OP_atom && (in->cmp == PTX_ATOM_EXCH || in->cmp == PTX_ATOM_CAS))) ||
            in->vec != 1) {
            diag(P, mt->line, mt->col,
                 "'%.*s': .b128 is simulated for mov, ld, ldu, st and "
                 "atom.exch/.cas only",
                 (int)mt->len, mt->p);
            P->unsupported = 1;
            return 0;
        }
        in->type = PTX_T_B64; /* on the register's two slots (parse_insn) */
        in->vec = 2;
    }
    if (op == PTX_OP_brx && !in->cmp) {
        diag(P, mt->line, mt->col, "'%.*s': brx needs .idx", (int)mt->len, mt->p);
        return 0;
    }
    if ((op == PTX_OP_bmsk || op == PTX_OP_szext) && !in->cmp) {
        diag(P, mt->line, mt->col, "'%.*s' needs .clamp or .wrap", (int)mt->len, mt->p);
        return 0;
    }
    if ((op == PTX_OP_createpolicy || op == PTX_OP_griddepcontrol) && !in->cmp) {
        diag(P, mt->line, mt->col, "'%.*s' needs a form (PTX ISA %s)", (int)mt->len, mt->p,
             op == PTX_OP_createpolicy ? "§9.7.9.18: .fractional, .range or .cvt"
                                       : "§9.7.13.13: .launch_dependents or .wait");
        return 0;
    }
    if ((in->bop & PTX_XORSIGN_ABS) && (op == PTX_OP_min || op == PTX_OP_max) &&
        !(has_sub(mt, ".xorsign") && has_sub(mt, ".abs"))) {
        diag(P, mt->line, mt->col,
             "'%.*s': .xorsign and .abs go together (the three-input .abs form is sm_100)",
             (int)mt->len, mt->p);
        P->unsupported = 1;
        return 0;
    }
    if (op == PTX_OP_testp && !in->cmp) {
        diag(P, mt->line, mt->col, "testp needs a property in '%.*s'", (int)mt->len, mt->p);
        return 0;
    }
    /* Instructions newer than the module's .version: ptxas refuses them ("Feature 'elect'
     * requires PTX ISA .version 8.0 or later", checked with CUDA 13's ptxas on an H200),
     * so the simulator does too. PTX ISA "PTX ISA Notes" of elect.sync and mbarrier
     * (expect_tx, complete_tx: 8.0) and cvt (.satfinite to .f16/.bf16/.tf32 from .f32: 8.1). */
    int need = 0;
    if (op == PTX_OP_elect ||
        (op == PTX_OP_mbarrier && (in->cmp == PTX_MBAR_EXPECT_TX ||
                                   in->cmp == PTX_MBAR_COMPLETE_TX || (in->bop & PTX_MBAR_TX))))
        need = 80;
    else if (op == PTX_OP_cvt && (in->bop & PTX_CVT_SATFINITE) && in->type2 == PTX_T_F32 &&
             (in->type == PTX_T_F16 || in->type == PTX_T_BF16 || in->type == PTX_T_F16X2 ||
              in->type == PTX_T_BF16X2 || in->cmp == PTX_CVT_TF32))
        need = 81;
    if (need && P->ptx_version && P->ptx_version < need) {
        diag(P, mt->line, mt->col,
             "'%.*s' needs PTX ISA .version %d.%d or later, and this PTX is .version %d.%d: "
             "ptxas refuses it (clang 14 writes 7.x; NVRTC and nvcc write a version that has it)",
             (int)mt->len, mt->p, need / 10, need % 10, P->ptx_version / 10, P->ptx_version % 10);
        return 0;
    }
    return 1;
}

static void parse_insn(parser *P, int guard, int gneg)
{
    ptx_module *m = P->m;
    ptx_tok mt = P->t;
    ptx_insn in;
    memset(&in, 0, sizeof in);
    in.guard = (uint16_t)guard;
    if (gneg)
        in.flags |= PTX_F_GUARD_NEG;
    in.ptx_line = mt.line;
    in.src_line = P->cur_line;
    in.src_file = (int16_t)P->cur_file;
    in.func = (int16_t)P->fn;
    in.target = -1;
    next(P);
    if (!decode_mnemonic(P, &in, &mt)) {
        skip_stmt(P);
        return;
    }
    in.mnem = intern_mnemonic(P, mt.p, mt.len);
    if (in.op == PTX_OP_call) {
        if (!parse_call(P, &in, mt.line, mt.col)) {
            skip_stmt(P);
            return;
        }
    } else if (PTX_IS_MMA(in.op)) {
        if (!parse_mma_operands(P, &in, &mt)) {
            skip_stmt(P);
            return;
        }
    } else {
        int n = 0;
        while (!is_punct(P, ';') && P->t.kind != PTX_TOK_EOF) {
            if (n == 4 && (in.op == PTX_OP_bfi || in.op == PTX_OP_lop3 || in.op == PTX_OP_shfl)) {
                /* the fifth operand lives in target/o4kind (ptx.h) */
                ptx_operand o5;
                if (!parse_operand(P, &in, &o5, PTX_T_U32)) {
                    skip_stmt(P);
                    return;
                }
                if (in.op == PTX_OP_lop3 && in.bop) {
                    /* lop3.BoolOp d|p, a, b, c, immLut, q: immLut to cmp, q fifth */
                    const uint64_t lut = o5.imm;
                    if (o5.kind != PTX_OPK_IMM || !expect(P, ',') ||
                        !parse_operand(P, &in, &o5, PTX_T_PRED)) {
                        diag(P, mt.line, mt.col, "'%.*s' takes d|p, a, b, c, immLut, q",
                             (int)mt.len, mt.p);
                        skip_stmt(P);
                        return;
                    }
                    in.cmp = (uint8_t)lut;
                }
                if (o5.kind == PTX_OPK_REG) {
                    in.o4kind = PTX_OPK_REG;
                    in.target = o5.reg;
                } else if (o5.kind == PTX_OPK_IMM) {
                    in.o4kind = PTX_OPK_IMM;
                    in.target = (int32_t)(uint32_t)o5.imm;
                } else {
                    diag(P, mt.line, mt.col, "bad fifth operand of '%.*s'", (int)mt.len, mt.p);
                    skip_stmt(P);
                    return;
                }
                n++;
                break;
            }
            if (n >= 4) {
                diag(P, P->t.line, P->t.col, "too many operands");
                skip_stmt(P);
                return;
            }
            ptx_type it = (ptx_type)in.type;
            if ((in.op == PTX_OP_cvt || in.op == PTX_OP_set) && n >= 1)
                it = (ptx_type)in.type2;
            if ((in.op == PTX_OP_selp && n == 3) ||
                ((in.op == PTX_OP_setp || in.op == PTX_OP_set) && n == 3))
                it = PTX_T_PRED;
            if ((in.op == PTX_OP_shl || in.op == PTX_OP_shr || in.op == PTX_OP_shf ||
                 in.op == PTX_OP_bfe || in.op == PTX_OP_bfi || in.op == PTX_OP_shfl ||
                 in.op == PTX_OP_prmt || in.op == PTX_OP_bmsk || in.op == PTX_OP_szext) &&
                n >= 2)
                it = PTX_T_U32;
            if ((in.op == PTX_OP_vote || in.op == PTX_OP_match || in.op == PTX_OP_redux) && n == 2)
                it = PTX_T_U32;
            if (in.op == PTX_OP_slct && n == 3)
                it = (ptx_type)in.type2;
            if ((in.op == PTX_OP_mul24 || in.op == PTX_OP_mad24 || in.op == PTX_OP_bfind ||
                 in.op == PTX_OP_clz || in.op == PTX_OP_popc || in.op == PTX_OP_brev) &&
                n >= 1)
                it = (ptx_type)in.type;
            if (in.op == PTX_OP_testp && n == 1)
                it = (ptx_type)in.type;
            if (in.op == PTX_OP_createpolicy && n >= 1)
                it = in.cmp == 1 ? PTX_T_F32 : PTX_T_U32;
            /* a video instruction's `%r1.b3210`: the register, then its selector */
            const char *sel = NULL;
            size_t seln = 0;
            int sline = P->t.line, scol = P->t.col;
            if (in.op == PTX_OP_brx && n == 1 && P->t.kind == PTX_TOK_IDENT) {
                GROW(P->bfix, P->nbfix, P->bfixcap); /* the list, resolved by resolve_brx */
                if (P->oom) {
                    skip_stmt(P);
                    return;
                }
                P->bfix[P->nbfix].pc = m->ncode;
                P->bfix[P->nbfix].label = xstrndup(P->t.p, P->t.len);
                P->bfix[P->nbfix].line = P->t.line;
                P->bfix[P->nbfix].col = P->t.col;
                P->bfix[P->nbfix].blk = P->blk;
                P->nbfix++;
                next(P);
                n++;
                break;
            }
            if (in.op == PTX_OP_vmad && n >= 1 && is_punct(P, '-')) {
                next(P); /* vmad's {-}a, {-}b, {-}c */
                in.target = (int32_t)((uint32_t)in.target | (PTX_SV_NEG_A << (n - 1)));
            }
            if ((is_video(in.op) || is_svideo(in.op)) && P->t.kind == PTX_TOK_IDENT &&
                P->t.len > 1) {
                const char *dot = memchr(P->t.p + 1, '.', P->t.len - 1);
                if (dot) {
                    sel = dot + 1;
                    seln = (size_t)(P->t.p + P->t.len - sel);
                    P->t.len = (size_t)(dot - P->t.p);
                }
            }
            if (!parse_operand(P, &in, &in.o[n], it) ||
                (sel && is_video(in.op) && !video_sel(P, &in, &mt, n, sel, seln, sline, scol)) ||
                (sel && is_svideo(in.op) && !svideo_sel(P, &in, &mt, n, sel, seln, sline, scol))) {
                skip_stmt(P);
                return;
            }
            if ((is_video(in.op) || (is_svideo(in.op) && n < 3)) && in.o[n].kind != PTX_OPK_REG) {
                /* as ptxas ("Incorrect video selector for operand N", CUDA 13, H100) */
                diag(P, sline, scol, "'%.*s': operand %d must be a register", (int)mt.len, mt.p, n);
                skip_stmt(P);
                return;
            }
            n++;
            if (!accept(P, ','))
                break;
            if (is_punct(P, ';')) {
                diag(P, P->t.line, P->t.col, "expected an operand after ','");
                skip_stmt(P);
                return;
            }
        }
        in.nopnd = (uint8_t)n;
        if (has_sub(&mt, ".b128")) /* a .b128 register: the vector of its two slots */
            for (int i = 0; i < n; i++)
                if (in.o[i].kind == PTX_OPK_REG && in.o[i].reg + 1u < PTX_NOREG &&
                    (int)in.o[i].reg < m->funcs[P->fn].nregs &&
                    m->funcs[P->fn].reginfo[in.o[i].reg].type == PTX_T_B128) {
                    in.o[i].kind = PTX_OPK_VEC;
                    in.o[i].sub = 2;
                    in.o[i].imm = (uint64_t)in.o[i].reg | ((uint64_t)(in.o[i].reg + 1u) << 16);
                    in.o[i].reg = PTX_NOREG;
                }
        /* cvt to a signed integer narrower than a 64-bit destination register: the result
         * is sign-extended to the register's width (PTX ISA §9.7.9.21 Notes), marked
         * with .wide, which cvt has not */
        if (in.op == PTX_OP_cvt && !in.cmp && PTX_TCLASS(in.type) == PTX_TC_S &&
            PTX_TSIZE(in.type) < 8 && n >= 1 && in.o[0].kind == PTX_OPK_REG &&
            (int)in.o[0].reg < m->funcs[P->fn].nregs &&
            PTX_TSIZE(m->funcs[P->fn].reginfo[in.o[0].reg].type) == 8)
            in.flags |= PTX_F_WIDE;
        int want = ptx_op_table[in.op].nopnd; /* ptx_ops.def, or by the modifiers: */
        if (in.op == PTX_OP_bar || in.op == PTX_OP_barrier)
            want = in.cmp == PTX_BAR_RED      ? ((n == 3 || n == 4) ? n : 3)
                   : in.cmp == PTX_BAR_ARRIVE ? 2
                   : (n == 1 || n == 2)       ? n
                                              : 1;
        if (in.op == PTX_OP_atom)
            want = in.cmp == PTX_ATOM_CAS ? 4 : 3;
        if (in.op == PTX_OP_cvt && (in.cmp == PTX_CVT_TO_E4M3X2 || in.cmp == PTX_CVT_TO_E5M2X2))
            want = in.type2 == PTX_T_F32 ? 3 : 2; /* d, a, b from two f32 */
        if (in.op == PTX_OP_alloca)
            want = n == 3 ? 3 : 2;
        if (in.op == PTX_OP_cvt_pack)
            want = in.cmp == 16 ? 3 : 4;
        if (is_svideo(in.op) && in.op != PTX_OP_vmad)
            want = PTX_SV_OP2(in.target) || PTX_SV_DSEL(in.target) ? 4 : 3;
        if (in.op == PTX_OP_setp || in.op == PTX_OP_set)
            want = in.bop ? 4 : 3;
        if (in.op == PTX_OP_vote && n == 2)
            want = 2; /* vote without membermask is pre-Volta; rejected by has_sub */
        if (in.op == PTX_OP_bar_warp && n == 0)
            want = 0;
        if (in.op == PTX_OP_mad && (in.flags & PTX_F_CC))
            want = 4;
        if (in.op == PTX_OP_cvt && !in.cmp && (in.type == PTX_T_F16X2 || in.type == PTX_T_BF16X2))
            want = 3;
        if ((in.op == PTX_OP_ld || in.op == PTX_OP_st) && has_sub(&mt, ".L2::cache_hint"))
            want++; /* the cache policy */
        if (in.op == PTX_OP_lop3 && in.bop)
            want = 5; /* d|p, a, b, c; immLut in cmp, q fifth */
        if (in.op == PTX_OP_createpolicy)
            want = in.cmp == 2 ? 4 : in.cmp == 3 ? 2 : (n == 1 ? 1 : 2);
        if (in.op == PTX_OP_cp && in.cmp == PTX_CPA_PREFETCH)
            want = 2;
        else if (in.op == PTX_OP_cp)
            want = in.cmp == PTX_CPA_COPY          ? (n == 4 ? 4 : 3)
                   : in.cmp == PTX_CPA_WAIT_GROUP  ? 1
                   : in.cmp == PTX_CPA_MBAR_ARRIVE ? 1
                                                   : 0;
        if (in.op == PTX_OP_mbarrier)
            want = in.cmp == PTX_MBAR_INVAL ? 1
                   : in.cmp == PTX_MBAR_ARRIVE || in.cmp == PTX_MBAR_ARRIVE_DROP
                       ? ((in.bop & PTX_MBAR_TX) ? 3
                          : n == 3               ? 3
                                                 : 2)
                   : in.cmp == PTX_MBAR_TEST_WAIT || in.cmp == PTX_MBAR_TRY_WAIT ? (n == 4 ? 4 : 3)
                                                                                 : 2;
        if (n != want) {
            diag(P, mt.line, mt.col, "'%.*s' takes %d operands, found %d", (int)mt.len, mt.p, want,
                 n);
            skip_stmt(P);
            return;
        }
        if ((in.op == PTX_OP_bar || in.op == PTX_OP_barrier) && in.cmp == PTX_BAR_RED &&
            n == 3) { /* bar.red d, a, c: no thread count */
            in.o[3] = in.o[2];
            memset(&in.o[2], 0, sizeof in.o[2]);
        }
        int writes =
            !(in.op == PTX_OP_st || in.op == PTX_OP_red ||
              ((in.op == PTX_OP_bar || in.op == PTX_OP_barrier) && in.cmp != PTX_BAR_RED) ||
              in.op == PTX_OP_bra || in.op == PTX_OP_brx || in.op == PTX_OP_prefetch ||
              in.op == PTX_OP_prefetchu || in.op == PTX_OP_bar_warp || in.op == PTX_OP_nanosleep ||
              in.op == PTX_OP_cp || in.op == PTX_OP_mbarrier || in.op == PTX_OP_applypriority ||
              in.op == PTX_OP_discard || in.op == PTX_OP_pmevent || in.op == PTX_OP_stackrestore ||
              in.op == PTX_OP_st_async || in.op == PTX_OP_red_async || n == 0);
        if (in.o[0].kind == PTX_OPK_REG && in.o[0].sub == 1) {
            diag(P, mt.line, mt.col, "'%.*s': a destination cannot be negated", (int)mt.len, mt.p);
            skip_stmt(P);
            return;
        }
        if (in.o[0].sub == 2 && in.o[0].kind == PTX_OPK_REG &&
            !(in.op == PTX_OP_setp || in.op == PTX_OP_shfl || in.op == PTX_OP_match ||
              in.op == PTX_OP_elect || (in.op == PTX_OP_lop3 && in.bop))) {
            diag(P, mt.line, mt.col, "'%.*s' has one destination, not d|p", (int)mt.len, mt.p);
            skip_stmt(P);
            return;
        }
        if (in.flags & PTX_F_CC || in.op == PTX_OP_addc || in.op == PTX_OP_subc ||
            in.op == PTX_OP_madc) {
            /* the carry flag: one hidden register per function (PTX ISA §9.7.2) */
            int slot;
            if (!regs_get(P, "%%cc", 4, &slot)) {
                slot = reg_new(P, &m->funcs[P->fn], "%cc", 3, PTX_T_B32);
                if (slot >= 0)
                    smap_put(&P->regs, "%%cc", 4, slot);
            }
            in.target = slot;
        }
        int vec_ok = in.op == PTX_OP_ld || in.op == PTX_OP_ldu || in.op == PTX_OP_mov ||
                     (in.op == PTX_OP_atom && in.vec == 2); /* atom .b128 */
        if (writes && !(in.o[0].kind == PTX_OPK_REG || (vec_ok && in.o[0].kind == PTX_OPK_VEC))) {
            diag(P, mt.line, mt.col, "'%.*s' needs a register as its destination", (int)mt.len,
                 mt.p);
            skip_stmt(P);
            return;
        }
        if ((in.op == PTX_OP_ld || in.op == PTX_OP_ldu) && in.o[1].kind != PTX_OPK_ADDR) {
            diag(P, mt.line, mt.col, "'%.*s' needs an address operand [..]", (int)mt.len, mt.p);
            skip_stmt(P);
            return;
        }
        if ((in.op == PTX_OP_st || in.op == PTX_OP_red) && in.o[0].kind != PTX_OPK_ADDR) {
            diag(P, mt.line, mt.col, "'%.*s' needs an address operand [..]", (int)mt.len, mt.p);
            skip_stmt(P);
            return;
        }
        if (in.op == PTX_OP_atom && in.o[1].kind != PTX_OPK_ADDR) {
            diag(P, mt.line, mt.col, "'%.*s' needs an address operand [..]", (int)mt.len, mt.p);
            skip_stmt(P);
            return;
        }
        if ((in.o[0].kind == PTX_OPK_VEC && in.o[0].sub != in.vec && in.op != PTX_OP_mov) ||
            (in.o[1].kind == PTX_OPK_VEC && in.o[1].sub != in.vec && in.op != PTX_OP_mov)) {
            diag(P, mt.line, mt.col, "vector operand does not match '%.*s'", (int)mt.len, mt.p);
            skip_stmt(P);
            return;
        }
        if (in.type == PTX_T_NONE && in.op != PTX_OP_bra && in.op != PTX_OP_ret &&
            in.op != PTX_OP_exit && in.op != PTX_OP_bar && in.op != PTX_OP_barrier &&
            in.op != PTX_OP_membar && in.op != PTX_OP_fence && in.op != PTX_OP_trap &&
            in.op != PTX_OP_brkpt && in.op != PTX_OP_prefetch && in.op != PTX_OP_prefetchu &&
            in.op != PTX_OP_isspacep) {
            diag(P, mt.line, mt.col, "'%.*s' has no type", (int)mt.len, mt.p);
            skip_stmt(P);
            return;
        }
    }
    /* ptxas reads a special register only as the source of mov or cvt ("Special register
     * argument not allowed for instruction 'add'"); WARP_SZ is a constant */
    const int nop = in.nopnd < 4 ? in.nopnd : 4; /* o[4]: the rest are in rlist */
    for (int i = 0; in.op != PTX_OP_mov && in.op != PTX_OP_cvt && i < nop; i++)
        if (in.o[i].kind == PTX_OPK_SREG && in.o[i].sub != PTX_SREG_WARPSZ) {
            diag(P, mt.line, mt.col,
                 "'%.*s' cannot take a special register as an operand: read it into a "
                 "register with mov first (ptxas: \"Special register argument not allowed\")",
                 (int)mt.len, mt.p);
            skip_stmt(P);
            return;
        }
    if (!expect(P, ';'))
        skip_stmt(P);
    GROW(m->code, m->ncode, P->ccap);
    if (P->oom)
        return;
    m->code[m->ncode++] = in;
}

/* ------------------------------------------------------------ functions */

static void begin_func(parser *P, int fi)
{
    P->fn = fi;
    smap_free(&P->regs);
    while (P->nshadow > 0)
        free(P->shadow[--P->nshadow].name);
    smap_free(&P->decl_blk);
    P->nblk = 0;
    P->blk = -1;
    scope_open(P); /* block 0: the body and the parameters */
    smap_free(&P->lsyms);
    smap_free(&P->labels);
    P->nlabel = 0;
    P->nfix = 0;
}

/* The label `name` seen from block blk: defined in blk or a block around it (scope_open);
 * its index in labeldefs, or -1. */
static int label_find(const parser *P, int blk, const char *name)
{
    char key[1024];
    for (int b = blk; b >= 0; b = P->blk_parent[b]) {
        int li, kl = snprintf(key, sizeof key, "%d:%s", b, name);
        if (kl >= 0 && (size_t)kl < sizeof key && smap_get(&P->labels, key, (size_t)kl, &li))
            return li;
    }
    return -1;
}

static void resolve_brx(parser *P);

static void end_func(parser *P)
{
    ptx_module *m = P->m;
    ptx_func *f = &m->funcs[P->fn];
    resolve_brx(P);
    for (int i = 0; i < P->nfix; i++) {
        /* the label of the branch's block, else of the blocks around it (scope_open) */
        const int li = label_find(P, P->fix[i].blk, P->fix[i].label);
        if (li < 0) {
            diag(P, P->fix[i].line, P->fix[i].col, "unknown label '%s'", P->fix[i].label);
        } else {
            m->code[P->fix[i].pc].target = P->labeldefs[li].pc;
            if (P->record) {
                GROW(P->binds, P->nbinds, P->bindcap);
                if (!P->oom)
                    P->binds[P->nbinds++] =
                        (ptx_binding){P->fix[i].line, P->fix[i].col, P->labeldefs[li].line,
                                      P->labeldefs[li].col, PTX_BIND_LABEL};
            }
        }
        free(P->fix[i].label);
    }
    P->nfix = 0;
    f->end_pc = m->ncode;
    /* A function that falls off its end returns (PTX ISA §9.7.12.x ret). */
    if (f->entry_pc == m->ncode || m->code[m->ncode - 1].op != PTX_OP_ret) {
        ptx_insn in;
        memset(&in, 0, sizeof in);
        in.op = PTX_OP_ret;
        in.guard = PTX_NOREG;
        in.func = (int16_t)P->fn;
        in.target = -1;
        in.ptx_line = P->t.line;
        in.src_line = P->cur_line;
        in.src_file = (int16_t)P->cur_file;
        GROW(m->code, m->ncode, P->ccap);
        if (!P->oom)
            m->code[m->ncode++] = in;
        f->end_pc = m->ncode;
    }
    f->frame_size = align_up(f->frame_size, 8);
    f->local_size = align_up(f->local_size, 16);
    P->fn = -1;
}

/* `L: .branchtargets a, b, ...;` (PTX ISA §11.3.1): the list brx.idx names by L. */
static void parse_branchtargets(parser *P)
{
    const int line = P->t.line, col = P->t.col;
    next(P);
    if (!P->last_label || P->last_label_pc != P->m->ncode) {
        diag(P, line, col, ".branchtargets needs a label before it");
        skip_stmt(P);
        return;
    }
    GROW(P->bt, P->nbt, P->btcap);
    if (P->oom)
        return;
    struct btlist *b = &P->bt[P->nbt++];
    memset(b, 0, sizeof *b);
    b->name = xstrndup(P->last_label, strlen(P->last_label));
    b->line = line;
    b->col = col;
    int cap = 0;
    while (P->t.kind == PTX_TOK_IDENT) {
        GROW(b->labels, b->n, cap);
        if (P->oom)
            return;
        b->labels[b->n++] = xstrndup(P->t.p, P->t.len);
        next(P);
        if (!accept(P, ','))
            break;
    }
    if (!b->n)
        diag(P, line, col, ".branchtargets lists no label");
    expect(P, ';');
}

/* The parameter list of a .callprototype, `(.param .b32 _, .param .align 8 .b8 _[16])`
 * or `()`: the number of parameters, or -1 (a diagnostic given). */
static int proto_params(parser *P)
{
    if (!expect(P, '('))
        return -1;
    int n = 0, depth = 0, item = 0;
    while (P->t.kind != PTX_TOK_EOF && !(depth == 0 && is_punct(P, ')'))) {
        if (is_punct(P, '[') || is_punct(P, '('))
            depth++;
        else if (is_punct(P, ']') || is_punct(P, ')'))
            depth--;
        else if (depth == 0 && is_punct(P, ',')) {
            n += item;
            item = 0;
        } else if (is_punct(P, ';')) {
            diag(P, P->t.line, P->t.col, "unterminated .callprototype parameter list");
            return -1;
        } else
            item = 1;
        next(P);
    }
    expect(P, ')');
    return n + item;
}

/* `L: .callprototype [(.param ret)] _ (params);` (PTX ISA §11.3.3): a prototype indirect
 * calls name by L; recorded with its parameter counts until the function's end. */
static void parse_callprototype(parser *P)
{
    const int line = P->t.line, col = P->t.col;
    next(P);
    if (!P->last_label || P->last_label_pc != P->m->ncode) {
        diag(P, line, col, ".callprototype needs a label before it");
        skip_stmt(P);
        return;
    }
    int nrets = 0;
    if (is_punct(P, '(')) {
        nrets = proto_params(P);
        if (nrets > 1) {
            diag(P, line, col, ".callprototype with %d return parameters (PTX allows one)", nrets);
            nrets = -1;
        }
    }
    if (nrets < 0 || !tok_eq(&P->t, "_")) {
        if (nrets >= 0)
            diag(P, P->t.line, P->t.col, "expected '_' in .callprototype, not '%.*s'",
                 (int)P->t.len, P->t.p);
        skip_stmt(P);
        return;
    }
    next(P);
    const int nparams = proto_params(P);
    if (nparams < 0) {
        skip_stmt(P);
        return;
    }
    GROW(P->protos, P->nproto, P->protocap);
    if (P->oom)
        return;
    P->protos[P->nproto++] =
        (struct proto){xstrndup(P->last_label, strlen(P->last_label)), nparams, nrets};
    expect(P, ';');
}

/* Resolves the function's brx.idx lists into ptx_module.btab (at its end). */
static void resolve_brx(parser *P)
{
    ptx_module *m = P->m;
    for (int i = 0; i < P->nbfix; i++) {
        const fixup *f = &P->bfix[i];
        const struct btlist *b = NULL;
        for (int j = 0; j < P->nbt && !b; j++)
            if (!strcmp(P->bt[j].name, f->label))
                b = &P->bt[j];
        if (!b) {
            diag(P, f->line, f->col, "'%s' names no .branchtargets list", f->label);
            continue;
        }
        m->code[f->pc].target = m->nbtab;
        m->code[f->pc].o[1].imm = (uint64_t)b->n;
        for (int k = 0; k < b->n; k++) {
            const int li = label_find(P, f->blk, b->labels[k]);
            if (li < 0)
                diag(P, b->line, b->col, "unknown label '%s'", b->labels[k]);
            const int pc = li < 0 ? 0 : P->labeldefs[li].pc;
            GROW(m->btab, m->nbtab, P->btabcap);
            if (P->oom)
                return;
            m->btab[m->nbtab++] = pc;
        }
    }
    for (int i = 0; i < P->nbfix; i++)
        free(P->bfix[i].label);
    P->nbfix = 0;
    for (int j = 0; j < P->nbt; j++) {
        for (int k = 0; k < P->bt[j].n; k++)
            free(P->bt[j].labels[k]);
        free(P->bt[j].labels);
        free(P->bt[j].name);
    }
    P->nbt = 0;
    for (int i = 0; i < P->nproto; i++)
        free(P->protos[i].name);
    P->nproto = 0;
}

/* Label lt at the next instruction, in the current block: visible in the whole block
 * and the blocks inside it (end_func resolves branches). Defined twice in one block, or
 * named like a register or variable of the block, is an error (ptxas: "Duplicate
 * definition of label"). */
static void label_define(parser *P, const ptx_tok *lt)
{
    char key[1024];
    int kl = snprintf(key, sizeof key, "%d:%.*s", P->blk, (int)lt->len, lt->p);
    int v;
    if (kl < 0 || (size_t)kl >= sizeof key) {
        diag(P, lt->line, lt->col, "label name too long");
        return;
    }
    if (smap_get(&P->labels, key, (size_t)kl, &v)) {
        diag(P, lt->line, lt->col, "label '%.*s' defined twice in the same block", (int)lt->len,
             lt->p);
        return;
    }
    if (smap_get(&P->decl_blk, lt->p, lt->len, &v) && v == P->blk) {
        diag(P, lt->line, lt->col, "'%.*s' is declared in this block and again as a label",
             (int)lt->len, lt->p);
        return;
    }
    GROW(P->labeldefs, P->nlabel, P->labelcap);
    if (P->oom)
        return;
    P->labeldefs[P->nlabel] = (struct label_def){P->m->ncode, lt->line, lt->col};
    if (!smap_put(&P->labels, key, (size_t)kl, P->nlabel++))
        P->oom = 1;
}

static void parse_body(parser *P)
{
    ptx_module *m = P->m;
    int depth = 1;
    while (depth > 0 && P->t.kind != PTX_TOK_EOF && !P->oom) {
        if (accept(P, '{')) {
            depth++;
            scope_open(P);
            continue;
        }
        if (accept(P, '}')) {
            if (depth > 1)
                scope_close(P);
            depth--;
            continue;
        }
        if (accept(P, ';'))
            continue;
        if (P->t.kind == PTX_TOK_IDENT && P->t.p[0] == '.') {
            if (is_ident(P, ".reg")) {
                parse_reg(P);
            } else if (is_ident(P, ".loc")) {
                int line = P->t.line;
                next(P);
                uint64_t f = 0, l = 0, c = 0;
                parse_uint(P, &f);
                parse_uint(P, &l);
                if (P->t.kind == PTX_TOK_INT)
                    parse_uint(P, &c);
                if (l != 0) {
                    P->cur_file = (int)f;
                    P->cur_line = (int)l;
                }
                while (P->t.line == line && P->t.kind != PTX_TOK_EOF)
                    next(P);
            } else if (is_ident(P, ".pragma")) {
                skip_stmt(P);
            } else if (is_ident(P, ".branchtargets")) {
                parse_branchtargets(P);
            } else if (is_ident(P, ".callprototype")) {
                parse_callprototype(P);
            } else if (is_ident(P, ".local")) {
                next(P);
                parse_var(P, SIM_SPACE_LOCAL, 0);
            } else if (is_ident(P, ".shared")) {
                next(P);
                parse_var(P, SIM_SPACE_SHARED, 0);
            } else if (is_ident(P, ".param")) {
                next(P);
                parse_var(P, SIM_SPACE_PARAM, 0);
            } else if (is_ident(P, ".global")) {
                next(P);
                parse_var(P, SIM_SPACE_GLOBAL, 0);
            } else if (is_ident(P, ".const")) {
                next(P);
                parse_var(P, SIM_SPACE_CONST, 0);
            } else if (is_ident(P, ".extern")) {
                /* external linkage is for module scope (PTX ISA §11.6.1 .extern; ptxas
                 * reads `.extern` in a function as a syntax error) */
                diag(P, P->t.line, P->t.col,
                     ".extern declarations belong at module scope, not in a function");
                skip_stmt(P);
            } else {
                diag(P, P->t.line, P->t.col, "unsupported directive '%.*s'", (int)P->t.len, P->t.p);
                P->unsupported = 1;
                skip_stmt(P);
            }
            continue;
        }
        if (accept(P, '@')) {
            int neg = accept(P, '!');
            uint16_t g = PTX_NOREG;
            if (P->t.kind != PTX_TOK_IDENT || !lookup_reg(P, &g)) {
                skip_stmt(P);
                continue;
            }
            next(P);
            parse_insn(P, g, neg);
            continue;
        }
        if (P->t.kind == PTX_TOK_IDENT) {
            /* label? */
            ptx_lexer save = P->lx;
            ptx_tok lt = P->t, nt;
            ptx_lex_next(&P->lx, &nt);
            P->lx = save;
            if (nt.kind == PTX_TOK_PUNCT && *nt.p == ':') {
                label_define(P, &lt);
                smap_put(&P->all_labels, lt.p, lt.len, m->ncode);
                free(P->last_label);
                P->last_label = xstrndup(lt.p, lt.len);
                P->last_label_pc = m->ncode;
                next(P);
                next(P);
                continue;
            }
            parse_insn(P, PTX_NOREG, 0);
            continue;
        }
        diag(P, P->t.line, P->t.col, "unexpected '%.*s'", (int)P->t.len, P->t.p);
        skip_stmt(P);
    }
}

/* ( .param ... , .param ... ) into params[]; is_kernel lays them into the kernel
 * parameter buffer, else into the frame starting at *frame. */
static void parse_params(parser *P, ptx_param **out, int *count, unsigned *frame, int is_kernel,
                         int fi)
{
    ptx_module *m = P->m;
    int cap = 0;
    if (!expect(P, '('))
        return;
    while (!is_punct(P, ')') && P->t.kind != PTX_TOK_EOF) {
        if (!is_ident(P, ".param") && !is_ident(P, ".reg")) {
            diag(P, P->t.line, P->t.col, "expected .param but found '%.*s'", (int)P->t.len, P->t.p);
            while (!is_punct(P, ')') && P->t.kind != PTX_TOK_EOF)
                next(P);
            break;
        }
        if (is_ident(P, ".reg")) {
            diag(P, P->t.line, P->t.col, ".reg parameters are not supported");
            P->unsupported = 1;
        }
        next(P);
        decl d;
        if (!parse_decl(P, &d)) {
            while (!is_punct(P, ')') && P->t.kind != PTX_TOK_EOF)
                next(P);
            break;
        }
        GROW(*out, *count, cap);
        if (P->oom)
            return;
        ptx_param *pp = &(*out)[*count];
        memset(pp, 0, sizeof *pp);
        snprintf(pp->name, sizeof pp->name, "%.*s", (int)d.nlen, d.name);
        pp->size = (unsigned)decl_size(&d);
        pp->align = d.align ? d.align : 1;
        *frame = align_up(*frame, pp->align);
        pp->offset = *frame;
        *frame += pp->size;
        (*count)++;
        if (fi >= 0) {
            int s = add_sym(P, is_kernel ? PTX_SYM_KPARAM : PTX_SYM_FPARAM, pp->offset);
            (void)m;
            if (s >= 0)
                var_declare(P, d.name, d.nlen, d.line, d.col, s);
        } else {
            GROW(P->retpos, *count - 1, P->retposcap); /* a .func's return parameters */
            if (P->oom)
                return;
            P->retpos[*count - 1] = (struct decl_pos){d.line, d.col};
        }
        if (!accept(P, ','))
            break;
    }
    expect(P, ')');
}

static int find_or_add_func(parser *P, const ptx_tok *nt)
{
    ptx_module *m = P->m;
    int s = find_sym(P, nt->p, nt->len);
    if (s >= 0 && m->syms[s].kind == PTX_SYM_FUNC)
        return (int)m->syms[s].value;
    GROW(m->funcs, m->nfuncs, P->fcap);
    if (P->oom)
        return -1;
    ptx_func *f = &m->funcs[m->nfuncs];
    memset(f, 0, sizeof *f);
    f->name = xstrndup(nt->p, nt->len);
    f->entry_pc = -1;
    s = add_sym(P, PTX_SYM_FUNC, m->nfuncs);
    smap_put(&P->gsyms, nt->p, nt->len, s);
    return m->nfuncs++;
}

static void parse_function(parser *P, int is_entry, int is_extern)
{
    ptx_module *m = P->m;
    next(P); /* .entry / .func */
    /* return parameters of a .func come before the name; parse them into a scratch
     * list, then attach. */
    ptx_param *rets = NULL;
    int nrets = 0;
    unsigned frame = 0;
    begin_func(P, -1);
    if (!is_entry && is_punct(P, '('))
        parse_params(P, &rets, &nrets, &frame, 0, -1);
    if (P->t.kind != PTX_TOK_IDENT) {
        diag(P, P->t.line, P->t.col, "expected a function name");
        free(rets);
        skip_stmt(P);
        return;
    }
    ptx_tok nt = P->t;
    next(P);
    int fi = find_or_add_func(P, &nt);
    if (fi < 0) {
        free(rets);
        return;
    }
    begin_func(P, fi);
    ptx_func *f = &m->funcs[fi];
    int redefinition = f->entry_pc >= 0;
    f->is_entry = is_entry;
    free(f->rets);
    free(f->params);
    f->rets = rets;
    f->nrets = nrets;
    f->params = NULL;
    f->nparams = 0;
    f->frame_size = 0;
    f->local_size = 0;
    f->nregs = 0;
    f->shared_size = 0;
    /* return params are frame symbols at their offsets */
    for (int i = 0; i < nrets; i++) {
        int s = add_sym(P, PTX_SYM_FPARAM, rets[i].offset);
        if (s >= 0)
            var_declare(P, rets[i].name, strlen(rets[i].name), P->retpos[i].line, P->retpos[i].col,
                        s);
    }
    if (is_punct(P, '(')) {
        unsigned kframe = 0;
        parse_params(P, &f->params, &f->nparams, is_entry ? &kframe : &frame, is_entry, fi);
        f = &m->funcs[fi];
        if (is_entry)
            f->kparam_size = kframe;
    }
    f->frame_size = frame;
    /* performance directives (.maxntid 256, 1, 1 / .noreturn / ...); the cluster ones
     * (PTX ISA §11.4: .reqnctapercluster x, y, z and .explicitcluster) are kept */
    while (P->t.kind == PTX_TOK_IDENT && P->t.p[0] == '.') {
        const int req = P->t.len == 18 && !memcmp(P->t.p, ".reqnctapercluster", 18);
        if ((P->t.len == 16 && !memcmp(P->t.p, ".explicitcluster", 16)) || req)
            f->explicit_cluster = 1;
        next(P);
        for (int k = 0; P->t.kind == PTX_TOK_INT || is_punct(P, ','); next(P))
            if (req && P->t.kind == PTX_TOK_INT && k < 3)
                f->cluster[k++] = (unsigned)P->t.ival;
        if (req)
            for (int k = 0; k < 3; k++)
                f->cluster[k] = f->cluster[k] ? f->cluster[k] : 1;
    }
    if (accept(P, ';')) {
        f->is_extern = 1;
        if (!strcmp(f->name, "vprintf"))
            f->builtin = PTX_BUILTIN_VPRINTF;
        else if (!strcmp(f->name, "__assertfail"))
            f->builtin = PTX_BUILTIN_ASSERTFAIL;
        P->fn = -1;
        return;
    }
    (void)is_extern;
    if (redefinition)
        diag(P, nt.line, nt.col, "function '%s' defined twice", f->name);
    if (!expect(P, '{')) {
        skip_stmt(P);
        P->fn = -1;
        return;
    }
    f->is_extern = 0;
    f->entry_pc = m->ncode;
    parse_body(P);
    end_func(P);
}

static void parse_module(parser *P)
{
    next(P);
    while (P->t.kind != PTX_TOK_EOF && !P->oom) {
        if (accept(P, ';'))
            continue;
        if (P->t.kind != PTX_TOK_IDENT || P->t.p[0] != '.') {
            diag(P, P->t.line, P->t.col, "unexpected '%.*s' at module scope", (int)P->t.len,
                 P->t.p);
            skip_stmt(P);
            if (accept(P, '}'))
                continue;
            continue;
        }
        int line = P->t.line;
        if (is_ident(P, ".version") || is_ident(P, ".target") || is_ident(P, ".address_size")) {
            int is_as = is_ident(P, ".address_size"), is_version = is_ident(P, ".version");
            next(P);
            if (is_version) { /* "8.0": the token's text, whatever kind the lexer made it */
                int major = 0, minor = 0;
                char v[16];
                snprintf(v, sizeof v, "%.*s", (int)(P->t.len < 15 ? P->t.len : 15), P->t.p);
                if (sscanf(v, "%d.%d", &major, &minor) == 2 && major > 0 && minor >= 0 &&
                    minor < 10)
                    P->m->ptx_version = P->ptx_version = major * 10 + minor;
            } else if (!is_as && P->t.kind == PTX_TOK_IDENT && P->t.len > 3 &&
                       !memcmp(P->t.p, "sm_", 3)) { /* .target sm_90a, ... */
                int sm = 0;
                for (size_t i = 3; i < P->t.len && P->t.p[i] >= '0' && P->t.p[i] <= '9'; i++)
                    sm = sm * 10 + (P->t.p[i] - '0');
                if (sm < 10000)
                    P->m->target_sm = sm;
            }
            if (is_as && P->t.kind == PTX_TOK_INT && P->t.ival != 64) {
                diag(P, P->t.line, P->t.col, "only .address_size 64 is supported");
                P->unsupported = 1;
            }
            while (P->t.line == line && P->t.kind != PTX_TOK_EOF)
                next(P);
        } else if (is_ident(P, ".file")) {
            next(P);
            uint64_t idx = 0;
            if (!parse_uint(P, &idx) || P->t.kind != PTX_TOK_STRING) {
                skip_stmt(P);
                continue;
            }
            ptx_module *m = P->m;
            if (idx < 100000) {
                if ((int)idx >= m->nfiles) {
                    char **nf = realloc(m->files, (idx + 1) * sizeof *nf);
                    if (!nf) {
                        P->oom = 1;
                        return;
                    }
                    for (int i = m->nfiles; i <= (int)idx; i++)
                        nf[i] = NULL;
                    m->files = nf;
                    m->nfiles = (int)idx + 1;
                }
                free(m->files[idx]);
                m->files[idx] = xstrndup(P->t.p + 1, P->t.len >= 2 ? P->t.len - 2 : 0);
            }
            while (P->t.line == line && P->t.kind != PTX_TOK_EOF)
                next(P);
        } else if (is_ident(P, ".section")) {
            /* DWARF (a debug build's .debug_info ...): kept as text for ptx_dwarf_read */
            next(P);
            ptx_tok nm = P->t;
            while (!is_punct(P, '{') && P->t.kind != PTX_TOK_EOF)
                next(P);
            const char *body = P->t.kind != PTX_TOK_EOF ? P->t.p + 1 : NULL, *body_end = NULL;
            int depth = 0;
            do {
                if (is_punct(P, '{'))
                    depth++;
                else if (is_punct(P, '}') && --depth == 0)
                    body_end = P->t.p;
                next(P);
            } while (depth > 0 && P->t.kind != PTX_TOK_EOF);
            if (nm.kind == PTX_TOK_IDENT && body && body_end && body_end >= body &&
                P->nsecs < (int)(sizeof P->secs / sizeof P->secs[0]))
                P->secs[P->nsecs++] =
                    (ptx_dwarf_sec){nm.p, nm.len, body, (size_t)(body_end - body)};
        } else if (is_ident(P, ".pragma")) {
            skip_stmt(P);
        } else {
            int is_extern = 0;
            while (is_ident(P, ".visible") || is_ident(P, ".extern") || is_ident(P, ".weak") ||
                   is_ident(P, ".common")) {
                if (is_ident(P, ".extern"))
                    is_extern = 1;
                next(P);
            }
            if (is_ident(P, ".entry") || is_ident(P, ".func")) {
                parse_function(P, is_ident(P, ".entry"), is_extern);
            } else if (is_ident(P, ".global")) {
                next(P);
                parse_var(P, SIM_SPACE_GLOBAL, is_extern);
            } else if (is_ident(P, ".const")) {
                next(P);
                parse_var(P, SIM_SPACE_CONST, is_extern);
            } else if (is_ident(P, ".shared")) {
                next(P);
                parse_var(P, SIM_SPACE_SHARED, is_extern);
            } else {
                diag(P, P->t.line, P->t.col, "unsupported directive '%.*s'", (int)P->t.len, P->t.p);
                P->unsupported = 1;
                skip_stmt(P);
            }
        }
    }
}

/* Whether function f can reach itself through calls (DFS over the call graph; state:
 * 0 unvisited, 1 on the stack, 2 done). An indirect call may reach every function
 * whose address is taken. */
static int reaches_cycle(const ptx_module *m, int f, unsigned char *state)
{
    if (state[f] == 1)
        return 1;
    if (state[f] == 2)
        return 0;
    state[f] = 1;
    const ptx_func *fn = &m->funcs[f];
    for (int pc = fn->entry_pc; pc >= 0 && pc < fn->end_pc; pc++) {
        if (m->code[pc].op != PTX_OP_call || m->code[pc].target < 0 ||
            m->code[pc].target >= m->ncalls)
            continue;
        const int callee = m->calls[m->code[pc].target].callee;
        if (callee >= 0 && reaches_cycle(m, callee, state))
            return 1;
        for (int g = 0; callee < 0 && g < m->nfuncs; g++)
            if (m->funcs[g].addr_taken && reaches_cycle(m, g, state))
                return 1;
    }
    state[f] = 2;
    return 0;
}

static void finish_module(parser *P)
{
    ptx_module *m = P->m;
    /* calls of functions that were only declared (a prototype may come before the
     * body, as nvcc -G writes them) and that the simulator does not provide */
    for (int i = 0; i < m->ncalls; i++) {
        if (m->calls[i].callee < 0)
            continue; /* indirect: checked when it runs (sim_do_call) */
        const ptx_func *cf = &m->funcs[m->calls[i].callee];
        if (cf->entry_pc < 0 && cf->builtin == PTX_BUILTIN_NONE) {
            int sf = 0, sl = 0; /* the call's source line */
            for (int pc = 0; pc < m->ncode; pc++)
                if (m->code[pc].op == PTX_OP_call && m->code[pc].target == i) {
                    sf = m->code[pc].src_file;
                    sl = m->code[pc].src_line;
                    break;
                }
            diag_src(P, m->calls[i].line, m->calls[i].col, sf, sl,
                     "unsupported instruction: call of external function '%s'", cf->name);
            P->unsupported = 1;
        }
    }
    /* Recursion (PTX ISA §9.7.12.x call; `nvcc -G` and recursive device functions):
     * the simulator sizes each thread's register, parameter and local stacks from
     * sum_*; with a cycle in the call graph, leave room for PTX_MAX_CALL_DEPTH frames
     * of the largest function. */
    int recursive = 0;
    unsigned char *state = calloc((size_t)m->nfuncs + 1, 1);
    if (state) {
        for (int i = 0; i < m->nfuncs && !recursive; i++)
            recursive = reaches_cycle(m, i, state);
        free(state);
    }
    for (int i = 0; i < m->nfuncs; i++) {
        ptx_func *f = &m->funcs[i];
        unsigned fs = f->frame_size, ls = f->local_size;
        unsigned nr = (unsigned)f->nregs;
        f->reg_base = (int)m->sum_regs;
        m->sum_frame += fs;
        m->sum_local += ls;
        m->sum_regs += nr;
        if (fs > m->max_frame)
            m->max_frame = fs;
        if (ls > m->max_local)
            m->max_local = ls;
        if (nr > m->max_regs)
            m->max_regs = nr;
    }
    if (recursive) {
        m->sum_frame += m->max_frame * PTX_MAX_CALL_DEPTH;
        m->sum_local += m->max_local * PTX_MAX_CALL_DEPTH;
        m->sum_regs += m->max_regs * PTX_MAX_CALL_DEPTH;
    }
    /* entry-owned shared offsets were counted from 0: shift them past module shared */
    unsigned base = align_up(m->module_shared, 16);
    for (int i = 0; i < m->nsyms; i++)
        if (m->syms[i].owned)
            m->syms[i].value += base;
    for (int i = 0; i < m->nfuncs; i++) {
        ptx_func *f = &m->funcs[i];
        if (f->is_entry) {
            f->shared_size = align_up(m->module_shared, 16) + f->shared_size;
            f->dynshared_off = align_up(f->shared_size, 16);
        }
    }
}

/* Rewrites each diagnostic line that has a source line whose .file is known to
 * "file:line: message (PTX line N)", the file by its base name as in sim_where. */
static void diag_finish(parser *P)
{
    const ptx_module *m = P->m;
    if (!P->diag || !P->ndsrc)
        return;
    size_t cap = P->dlen + 1;
    for (int i = 0; i < P->ndsrc; i++)
        if (P->dsrc[i].sf < m->nfiles && m->files[P->dsrc[i].sf])
            cap += strlen(m->files[P->dsrc[i].sf]) + 48;
    char *out = malloc(cap);
    if (!out)
        return; /* keep the PTX-line form */
    size_t at = 0, len = 0;
    for (int i = 0; i < P->ndsrc; i++) {
        const struct diag_src *d = &P->dsrc[i];
        if (d->sf >= m->nfiles || !m->files[d->sf])
            continue;
        const char *ln = P->diag + d->off, *eol = strchr(ln, '\n');
        if (!eol)
            continue;
        /* the message: after "name:line:col: " */
        const char *msg = ln + strlen(P->name);
        for (int k = 0; k < 3 && msg < eol; k++) {
            const char *c = memchr(msg, ':', (size_t)(eol - msg));
            msg = c ? c + 1 : eol;
        }
        msg += msg < eol && *msg == ' ';
        memcpy(out + len, P->diag + at, d->off - at);
        len += d->off - at;
        const char *file = m->files[d->sf], *slash = strrchr(file, '/');
        int n = snprintf(out + len, cap - len, "%s:%d: %.*s (PTX line %d)\n",
                         slash ? slash + 1 : file, d->sl, (int)(eol - msg), msg, d->line);
        if (n < 0 || (size_t)n >= cap - len) {
            free(out);
            return;
        }
        len += (size_t)n;
        at = (size_t)(eol - P->diag) + 1;
    }
    memcpy(out + len, P->diag + at, P->dlen - at + 1);
    len += P->dlen - at;
    free(P->diag);
    P->diag = out;
    P->dlen = len;
}

static int label_pc(void *ctx, const char *name, size_t len)
{
    int pc;
    return smap_get(&((parser *)ctx)->all_labels, name, len, &pc) ? pc : -1;
}

/* Source variable names from a debug build's DWARF (ptx_dwarf.h) into m->srcvars. Bad
 * or missing DWARF leaves none: names are a help, never a reason to reject the PTX. */
static void read_dwarf(parser *P)
{
    if (!P->nsecs || P->oom || P->nerr)
        return;
    ptx_srcvar *v = NULL;
    int n = 0;
    char err[160];
    int rc = ptx_dwarf_read(P->secs, P->nsecs, label_pc, P, &v, &n, err, sizeof err);
    if (rc == -2)
        P->oom = 1;
    if (rc == 0) {
        P->m->srcvars = v;
        P->m->nsrcvars = n;
    }
}

static uint64_t next_module_id = 1;

/* ptx_parse; with binds, ptx_parse_bindings. */
static sim_status parse_text(const char *text, size_t len, const char *name, ptx_module_t **out,
                             char **diag_out, ptx_binding **binds, int *nbinds)
{
    *out = NULL;
    if (diag_out)
        *diag_out = NULL;
    if (binds)
        *binds = NULL, *nbinds = 0;
    parser Pv;
    parser *P = &Pv;
    memset(P, 0, sizeof *P);
    P->record = binds != NULL;
    P->name = name ? name : "<ptx>";
    P->fn = -1;
    P->m = calloc(1, sizeof *P->m);
    if (!P->m)
        return SIM_ERR_NOMEM;
    P->m->id = __atomic_fetch_add(&next_module_id, 1, __ATOMIC_RELAXED);
    P->m->name = xstrndup(P->name, strlen(P->name));
    ptx_lex_init(&P->lx, text, len);
    parse_module(P);
    read_dwarf(P);
    smap_free(&P->all_labels);
    smap_free(&P->regs);
    smap_free(&P->lsyms);
    smap_free(&P->labels);
    smap_free(&P->gsyms);
    while (P->nshadow > 0)
        free(P->shadow[--P->nshadow].name);
    free(P->shadow);
    smap_free(&P->decl_blk);
    free(P->blk_parent);
    free(P->regpos);
    free(P->sympos);
    free(P->retpos);
    free(P->labeldefs);
    smap_free(&P->mnems);
    for (int i = 0; i < P->nfix; i++)
        free(P->fix[i].label);
    free(P->fix);
    resolve_brx(P); /* frees what an unfinished function left */
    free(P->bfix);
    free(P->bt);
    free(P->protos);
    free(P->last_label);
    finish_module(P);
    sim_status st = SIM_OK;
    if (P->oom)
        st = SIM_ERR_NOMEM;
    else if (P->unsupported)
        st = SIM_ERR_UNSUPPORTED;
    else if (P->nerr)
        st = SIM_ERR_PARSE;
    if (st != SIM_OK) {
        diag_finish(P);
        free(P->dsrc);
        free(P->binds);
        ptx_module_free(P->m);
        if (diag_out)
            *diag_out = P->diag;
        else
            free(P->diag);
        return st;
    }
    free(P->diag);
    free(P->dsrc);
    if (binds)
        *binds = P->binds, *nbinds = P->nbinds;
    *out = P->m;
    return SIM_OK;
}

sim_status ptx_parse(const char *text, size_t len, const char *name, ptx_module_t **out,
                     char **diag_out)
{
    return parse_text(text, len, name, out, diag_out, NULL, NULL);
}

/* See ptx.h. */
sim_status ptx_parse_bindings(const char *text, size_t len, const char *name, ptx_module_t **out,
                              char **diag, ptx_binding **binds, int *nbinds)
{
    return parse_text(text, len, name, out, diag, binds, nbinds);
}

void ptx_module_free(ptx_module_t *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nfuncs; i++) {
        free(m->funcs[i].name);
        free(m->funcs[i].params);
        free(m->funcs[i].rets);
        free(m->funcs[i].reginfo);
    }
    for (int i = 0; i < m->nvars; i++) {
        free(m->vars[i].name);
        free(m->vars[i].init);
    }
    for (int i = 0; i < m->nfiles; i++)
        free(m->files[i]);
    free(m->files);
    for (int i = 0; i < m->nshvars; i++)
        free(m->shvars[i].name);
    free(m->shvars);
    for (int i = 0; i < m->nmnems; i++)
        free(m->mnems[i]);
    free(m->mnems);
    free(m->funcs);
    free(m->vars);
    free(m->syms);
    free(m->calls);
    free(m->rlist);
    free(m->btab);
    free(m->srcvars);
    free(m->code);
    free(m->name);
    free(m);
}

int ptx_entry_count(const ptx_module_t *m)
{
    int n = 0;
    for (int i = 0; i < m->nfuncs; i++)
        n += m->funcs[i].is_entry && m->funcs[i].entry_pc >= 0;
    return n;
}

const char *ptx_entry_name(const ptx_module_t *m, int i)
{
    for (int k = 0; k < m->nfuncs; k++)
        if (m->funcs[k].is_entry && m->funcs[k].entry_pc >= 0 && i-- == 0)
            return m->funcs[k].name;
    return NULL;
}

unsigned ptx_entry_shared_bytes(const ptx_module_t *m, const char *kernel)
{
    for (int k = 0; k < m->nfuncs; k++) {
        const ptx_func *f = &m->funcs[k];
        if (f->is_entry && f->entry_pc >= 0 && strcmp(f->name, kernel) == 0)
            return f->shared_size;
    }
    return 0;
}

sim_status ptx_entry_params(const ptx_module_t *m, const char *kernel, ptx_param_info *params,
                            int max, int *count)
{
    for (int k = 0; k < m->nfuncs; k++) {
        const ptx_func *f = &m->funcs[k];
        if (!f->is_entry || f->entry_pc < 0 || strcmp(f->name, kernel) != 0)
            continue;
        for (int i = 0; i < f->nparams && i < max; i++) {
            memcpy(params[i].name, f->params[i].name, sizeof params[i].name);
            params[i].size = f->params[i].size;
            params[i].align = f->params[i].align;
        }
        if (count)
            *count = f->nparams;
        return SIM_OK;
    }
    if (count)
        *count = 0;
    return SIM_ERR_NOT_FOUND;
}

const char *ptx_source_file(const ptx_module_t *m, int file)
{
    if (!m || file <= 0 || file >= m->nfiles)
        return NULL;
    return m->files[file];
}
