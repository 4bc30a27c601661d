/* instrument.c — PTX instrumentation for GPU traces, and decoding of the trace buffer
 * (instrument.h). The parsed module (sim/ptx/ptx.h) says what to record and at which
 * PTX line; the instrumentation is inserted into the original text there rather than
 * printed from the module, which drops what ptxas still needs (debug sections, .loc,
 * .pragma, cache and memory-order modifiers the simulator ignores) and would need a
 * printer for every op. */
#include "runtime/instrument.h"

#include "sim/mma.h"
#include "sim/ptx/ptx.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ growable text */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_addn(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 4096;
        while (nc < b->n + n + 1)
            nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void sb_puts(sbuf *b, const char *s)
{
    sb_addn(b, s, strlen(s));
}

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        sb_addn(b, tmp, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->oom = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_addn(b, big, (size_t)n);
    free(big);
}

static uint64_t align_up(uint64_t v, unsigned a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

/* ------------------------------------------------------------------ text layout */

/* Where a function sits in the text: what the parsed module (sim/ptx/ptx.h) does not keep,
 * since it has each instruction's line but not the parentheses and braces around them.
 * Offsets are bytes into the PTX text; -1 when absent. */
typedef struct fn_text {
    const char *name;
    size_t nlen;
    int is_entry;
    long params_close; /* the ')' closing an entry's parameter list */
    int has_params;    /* that list declares at least one .param */
    long body_open;    /* just past the body's '{'; -1 for a declaration */
    long body_close;   /* the body's closing '}' */
    long first_stmt;   /* the body's first label or instruction */
} fn_text;

/* The layout of a whole module's text, read with the simulator's lexer (ptx_lex_next),
 * so that comments and strings are skipped exactly as the parser skips them. */
typedef struct layout {
    fn_text *fns;
    int nfns, capfns;
    long *stmt_at; /* per line (1-based): the first instruction starting on it, -1 none */
    int *nstmt;    /* per line: instructions starting on it */
    int nlines;
    long decl_at;           /* start of the line after .address_size (else .target): where module
                     variables may be declared */
    const char **modshared; /* names of module-scope .shared variables */
    size_t *modshared_len;
    int nmodshared, capmodshared;
    int oom;
} layout;

static void layout_free(layout *ly)
{
    free(ly->fns);
    free(ly->stmt_at);
    free(ly->nstmt);
    free(ly->modshared);
    free(ly->modshared_len);
}

static int tok_is(const ptx_tok *t, const char *s)
{
    return t->kind == PTX_TOK_IDENT && t->len == strlen(s) && memcmp(t->p, s, t->len) == 0;
}

static int punct_is(const ptx_tok *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && *t->p == c;
}

/* Skips to the token closing the bracket `t` opens ('(' or '{'), which *t becomes. */
static void skip_balanced(ptx_lexer *lx, ptx_tok *t)
{
    char open = *t->p, close = open == '(' ? ')' : '}';
    int depth = 0;
    do {
        if (punct_is(t, open))
            depth++;
        else if (punct_is(t, close))
            depth--;
        if (depth == 0)
            return;
        ptx_lex_next(lx, t);
    } while (t->kind != PTX_TOK_EOF);
}

/* Reads a function body after its '{': where each instruction and the first label or
 * instruction start (a statement starts after a block's '{' or '}', a ';' or a label's
 * ':'; `.loc` and `.file` end at the end of their line, PTX ISA §11.4), and the closing
 * '}'. */
static void lex_body(ptx_lexer *lx, const char *ptx, fn_text *fn, layout *ly)
{
    ptx_tok t;
    int depth = 1, at_start = 1, loc_line = 0, in_vec = 0;
    for (;;) {
        ptx_lex_next(lx, &t);
        if (t.kind == PTX_TOK_EOF)
            return;
        long off = (long)(t.p - ptx);
        if (loc_line) {
            if (t.line == loc_line)
                continue;
            loc_line = 0;
            at_start = 1;
        }
        if (!at_start && (punct_is(&t, '{') || (in_vec && punct_is(&t, '}')))) {
            in_vec = punct_is(&t, '{'); /* a vector operand {%r1, %r2} */
            continue;
        }
        if (punct_is(&t, '{') || punct_is(&t, '}') || punct_is(&t, ';')) {
            depth += punct_is(&t, '{') - punct_is(&t, '}');
            at_start = 1;
            if (depth == 0) {
                fn->body_close = off;
                return;
            }
            continue;
        }
        if (!at_start)
            continue;
        at_start = 0;
        if (t.kind == PTX_TOK_IDENT && t.p[0] == '.') { /* a directive */
            if (tok_is(&t, ".loc") || tok_is(&t, ".file"))
                loc_line = t.line;
            continue;
        }
        ptx_lexer peek = *lx;
        ptx_tok nt;
        ptx_lex_next(&peek, &nt);
        if (fn->first_stmt < 0)
            fn->first_stmt = off;
        if (t.kind == PTX_TOK_IDENT && punct_is(&nt, ':')) { /* a label */
            *lx = peek;
            at_start = 1;
            continue;
        }
        if (t.line >= 1 && t.line <= ly->nlines) {
            if (ly->stmt_at[t.line] < 0)
                ly->stmt_at[t.line] = off;
            ly->nstmt[t.line]++;
        }
    }
}

/* Reads a function's header from `.entry`/`.func` (*t) to its body or its ';'. */
static void lex_function(ptx_lexer *lx, ptx_tok *t, const char *ptx, layout *ly)
{
    fn_text fn = {.is_entry = tok_is(t, ".entry"),
                  .params_close = -1,
                  .body_open = -1,
                  .body_close = -1,
                  .first_stmt = -1};
    ptx_lex_next(lx, t);
    if (!fn.is_entry && punct_is(t, '(')) { /* a .func's return parameters */
        skip_balanced(lx, t);
        ptx_lex_next(lx, t);
    }
    if (t->kind != PTX_TOK_IDENT)
        return;
    fn.name = t->p;
    fn.nlen = t->len;
    ptx_lex_next(lx, t);
    if (punct_is(t, '(')) {
        int depth = 0;
        for (; t->kind != PTX_TOK_EOF; ptx_lex_next(lx, t)) {
            depth += punct_is(t, '(') - punct_is(t, ')');
            fn.has_params |= tok_is(t, ".param");
            if (depth == 0)
                break;
        }
        fn.params_close = (long)(t->p - ptx);
        ptx_lex_next(lx, t);
    }
    while (t->kind != PTX_TOK_EOF && !punct_is(t, '{') && !punct_is(t, ';'))
        ptx_lex_next(lx, t); /* performance directives: .maxntid, .reqntid, ... */
    if (punct_is(t, '{')) {
        fn.body_open = (long)(t->p - ptx) + 1;
        lex_body(lx, ptx, &fn, ly);
    }
    if (ly->nfns == ly->capfns) {
        int nc = ly->capfns ? 2 * ly->capfns : 8;
        fn_text *np = realloc(ly->fns, (size_t)nc * sizeof *np);
        if (!np) {
            ly->oom = 1;
            return;
        }
        ly->fns = np;
        ly->capfns = nc;
    }
    ly->fns[ly->nfns++] = fn;
}

/* Records the name of a module-scope .shared variable. */
static void add_modshared(layout *ly, const ptx_tok *t)
{
    if (ly->nmodshared == ly->capmodshared) {
        int nc = ly->capmodshared ? 2 * ly->capmodshared : 16;
        const char **np = realloc(ly->modshared, (size_t)nc * sizeof *np);
        size_t *nl = np ? realloc(ly->modshared_len, (size_t)nc * sizeof *nl) : NULL;
        if (np)
            ly->modshared = np;
        if (!np || !nl) {
            ly->oom = 1;
            return;
        }
        ly->modshared_len = nl;
        ly->capmodshared = nc;
    }
    ly->modshared[ly->nmodshared] = t->p;
    ly->modshared_len[ly->nmodshared++] = t->len;
}

/* Reads the layout of the whole text. 0, or -1 on no memory. */
static int lex_layout(const char *ptx, size_t len, layout *ly)
{
    memset(ly, 0, sizeof *ly);
    ly->decl_at = -1;
    ly->nlines = 1;
    for (size_t i = 0; i < len; i++)
        ly->nlines += ptx[i] == '\n';
    ly->stmt_at = malloc(((size_t)ly->nlines + 2) * sizeof *ly->stmt_at);
    ly->nstmt = calloc((size_t)ly->nlines + 2, sizeof *ly->nstmt);
    if (!ly->stmt_at || !ly->nstmt)
        return -1;
    for (int i = 0; i <= ly->nlines + 1; i++)
        ly->stmt_at[i] = -1;
    ptx_lexer lx;
    ptx_lex_init(&lx, ptx, len);
    ptx_tok t;
    int decl_line = 0, shared_stmt = 0;
    for (ptx_lex_next(&lx, &t); t.kind != PTX_TOK_EOF && !ly->oom; ptx_lex_next(&lx, &t)) {
        if (tok_is(&t, ".entry") || tok_is(&t, ".func")) {
            lex_function(&lx, &t, ptx, ly);
            shared_stmt = 0;
        } else if (tok_is(&t, ".address_size") || (tok_is(&t, ".target") && !decl_line)) {
            decl_line = t.line;
        } else if (tok_is(&t, ".shared")) {
            shared_stmt = 1;
        } else if (shared_stmt && t.kind == PTX_TOK_IDENT && t.p[0] != '.') {
            add_modshared(ly, &t);
            shared_stmt = 0;
        } else if (punct_is(&t, '{')) { /* an initializer or a debug section */
            skip_balanced(&lx, &t);
        } else if (punct_is(&t, ';')) {
            shared_stmt = 0;
        }
    }
    if (decl_line) {
        const char *nl = ptx;
        for (int l = 0; l < decl_line && nl; l++) {
            nl = memchr(nl, '\n', len - (size_t)(nl - ptx));
            nl = nl ? nl + 1 : NULL;
        }
        ly->decl_at = nl ? (long)(nl - ptx) : (long)len;
    }
    return ly->oom ? -1 : 0;
}

static const fn_text *layout_find(const layout *ly, const char *name, int is_entry)
{
    size_t n = strlen(name);
    for (int i = 0; i < ly->nfns; i++)
        if (ly->fns[i].is_entry == is_entry && ly->fns[i].body_open >= 0 && ly->fns[i].nlen == n &&
            memcmp(ly->fns[i].name, name, n) == 0)
            return &ly->fns[i];
    return NULL;
}

/* ------------------------------------------------------------------ edits */

/* Text inserted into the original PTX: each edit puts text[at, at+n) before byte off;
 * edits at one offset keep the order they were made in. */
typedef struct edit {
    size_t off, at, n;
    int seq;
} edit;

typedef struct edits {
    sbuf text;
    edit *e;
    int n, cap;
    int oom;
} edits;

/* Records the text written to ed->text since `start` as an edit at off. */
static void edit_add(edits *ed, size_t off, size_t start)
{
    if (ed->n == ed->cap) {
        int nc = ed->cap ? 2 * ed->cap : 64;
        edit *np = realloc(ed->e, (size_t)nc * sizeof *np);
        if (!np) {
            ed->oom = 1;
            return;
        }
        ed->e = np;
        ed->cap = nc;
    }
    ed->e[ed->n] = (edit){off, start, ed->text.n - start, ed->n};
    ed->n++;
}

/* Where to insert lines before the statement at off: the start of its line when only
 * blanks precede it there (else off itself, after a newline written into ed). */
static size_t stmt_point(const char *ptx, size_t off, edits *ed)
{
    size_t ls = off;
    while (ls > 0 && ptx[ls - 1] != '\n')
        ls--;
    for (size_t i = ls; i < off; i++)
        if (ptx[i] != ' ' && ptx[i] != '\t' && ptx[i] != '\r') {
            sb_puts(&ed->text, "\n");
            return off;
        }
    return ls;
}

static int edit_cmp(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->seq - y->seq;
}

/* The original text with the edits applied (malloc'd), or NULL on no memory. */
static char *edits_apply(edits *ed, const char *ptx, size_t len)
{
    qsort(ed->e, (size_t)ed->n, sizeof *ed->e, edit_cmp);
    sbuf out = {0};
    size_t from = 0;
    for (int i = 0; i < ed->n; i++) {
        sb_addn(&out, ptx + from, ed->e[i].off - from);
        sb_addn(&out, ed->text.p + ed->e[i].at, ed->e[i].n);
        from = ed->e[i].off;
    }
    sb_addn(&out, ptx + from, len - from);
    if (out.oom) {
        free(out.p);
        return NULL;
    }
    return out.p;
}

/* ------------------------------------------------------------------ emission */

/* Registers every instrumentation site uses (declared once in the entry). */
static const char regs_decl[] =
    "\t.reg .pred %glx_g, %glx_q, %glx_ps, %glx_pl, %glx_off;\n"
    "\t.reg .b32 %glx_t, %glx_u, %glx_v, %glx_lane, %glx_ltid, %glx_warp, %glx_blk, "
    "%glx_nthr, %glx_act, %glx_m, %glx_ldr, %glx_idx, %glx_sp, %glx_a32;\n"
    "\t.reg .b64 %glx_buf, %glx_cap, %glx_recs, %glx_loff, %glx_cnt, %glx_c, %glx_r, "
    "%glx_p, %glx_a, %glx_nw, %glx_wc, %glx_gw;\n";

/* One thread writes a block record of `kind` (pc -1, mask 0). */
/* Reserves a record for the one thread executing it: %glx_c = its index. GPU mode: an
 * atomic on the header's counter; simulator mode: the warp's own counter with plain
 * loads and stores (an atomic in a loop would make the simulator treat the loop as a
 * spin loop and change how the warp reconverges), index = n * warps + global warp. */
static void emit_reserve_one(sbuf *b, int sim_mode, const char *guard)
{
    if (!sim_mode) {
        sb_printf(b, "\t%satom.global.add.u64 %%glx_c, [%%glx_buf], 1;\n", guard);
        return;
    }
    sb_printf(b,
              "\t%sld.global.u32 %%glx_v, [%%glx_wc];\n"
              "\t%sadd.u32 %%glx_u, %%glx_v, 1;\n"
              "\t%sst.global.u32 [%%glx_wc], %%glx_u;\n"
              "\t%scvt.u64.u32 %%glx_c, %%glx_v;\n"
              "\t%smad.lo.u64 %%glx_c, %%glx_c, %%glx_nw, %%glx_gw;\n",
              guard, guard, guard, guard, guard);
}

static void emit_block_record(sbuf *b, int sim_mode, int kind, int label)
{
    emit_reserve_one(b, sim_mode, "");
    sb_printf(b,
              "\tsetp.ge.u64 %%glx_q, %%glx_c, %%glx_cap;\n"
              "\t@%%glx_q bra $__glx_x%d;\n"
              "\tmul.lo.u64 %%glx_r, %%glx_c, %u;\n"
              "\tadd.s64 %%glx_r, %%glx_r, %%glx_recs;\n"
              "\tmov.u32 %%glx_t, %d;\n"
              "\tst.global.u32 [%%glx_r], %%glx_t;\n"
              "\tmov.u32 %%glx_t, -1;\n"
              "\tst.global.u32 [%%glx_r+4], %%glx_t;\n"
              "\tst.global.u32 [%%glx_r+8], %%glx_blk;\n"
              "\tst.global.u32 [%%glx_r+12], %%glx_warp;\n"
              "\tmov.u32 %%glx_t, %%smid;\n"
              "\tst.global.u32 [%%glx_r+24], %%glx_t;\n"
              "\tmov.u64 %%glx_c, %%globaltimer;\n"
              "\tst.global.u64 [%%glx_r+32], %%glx_c;\n"
              "$__glx_x%d:\n",
              label, GL_ITRACE_RECORD_BYTES, kind, label);
}

/* The entry's prologue (is_entry: buffer from the extra .param, published in
 * __glx_trace_ptr for called functions, then the block-start record) or a called
 * function's (the buffer from __glx_trace_ptr; %glx_off when there is none: the
 * function was called from a kernel that is not traced). Both compute the thread's
 * lane, warp and block. */
static void emit_prologue(sbuf *b, int sim_mode, int is_entry, int *label)
{
    int l = (*label)++;
    sb_puts(b, "\t// gpulearn trace: prologue\n");
    if (is_entry)
        sb_puts(b, "\tld.param.u64 %glx_buf, [__glx_trace];\n"
                   "\tcvta.to.global.u64 %glx_buf, %glx_buf;\n"
                   "\tst.global.u64 [__glx_trace_ptr], %glx_buf;\n");
    else
        sb_printf(b,
                  "\tld.global.u64 %%glx_buf, [__glx_trace_ptr];\n"
                  "\tsetp.eq.u64 %%glx_off, %%glx_buf, 0;\n"
                  "\t@%%glx_off bra $__glx_f%d;\n",
                  l);
    sb_printf(b,
              "\tld.global.u64 %%glx_cap, [%%glx_buf+8];\n"
              "\tld.global.u64 %%glx_c, [%%glx_buf+16];\n"
              "\tadd.s64 %%glx_recs, %%glx_buf, %%glx_c;\n"
              "\tmov.u32 %%glx_lane, %%laneid;\n"
              "\tmul.wide.u32 %%glx_loff, %%glx_lane, 8;\n"
              "\tmov.u32 %%glx_t, %%tid.z;\n"
              "\tmov.u32 %%glx_u, %%ntid.y;\n"
              "\tmov.u32 %%glx_v, %%tid.y;\n"
              "\tmad.lo.u32 %%glx_t, %%glx_t, %%glx_u, %%glx_v;\n"
              "\tmov.u32 %%glx_u, %%ntid.x;\n"
              "\tmov.u32 %%glx_v, %%tid.x;\n"
              "\tmad.lo.u32 %%glx_ltid, %%glx_t, %%glx_u, %%glx_v;\n"
              "\tshr.u32 %%glx_warp, %%glx_ltid, 5;\n"
              "\tmov.u32 %%glx_t, %%ctaid.z;\n"
              "\tmov.u32 %%glx_u, %%nctaid.y;\n"
              "\tmov.u32 %%glx_v, %%ctaid.y;\n"
              "\tmad.lo.u32 %%glx_t, %%glx_t, %%glx_u, %%glx_v;\n"
              "\tmov.u32 %%glx_u, %%nctaid.x;\n"
              "\tmov.u32 %%glx_v, %%ctaid.x;\n"
              "\tmad.lo.u32 %%glx_blk, %%glx_t, %%glx_u, %%glx_v;\n"
              "\tmov.u32 %%glx_nthr, %%ntid.x;\n"
              "\tmov.u32 %%glx_u, %%ntid.y;\n"
              "\tmul.lo.u32 %%glx_nthr, %%glx_nthr, %%glx_u;\n"
              "\tmov.u32 %%glx_u, %%ntid.z;\n"
              "\tmul.lo.u32 %%glx_nthr, %%glx_nthr, %%glx_u;\n"
              "\tmul.wide.u32 %%glx_c, %%glx_blk, 4;\n"
              "\tadd.s64 %%glx_cnt, %%glx_buf, %%glx_c;\n"
              "\tadd.s64 %%glx_cnt, %%glx_cnt, %u;\n"
              "\tld.global.u64 %%glx_nw, [%%glx_buf+232];\n"
              "\tld.global.u64 %%glx_c, [%%glx_buf+240];\n"
              "\tcvt.u64.u32 %%glx_gw, %%glx_warp;\n"
              "\tld.global.u64 %%glx_p, [%%glx_buf+248];\n"
              "\tcvt.u64.u32 %%glx_a, %%glx_blk;\n"
              "\tmad.lo.u64 %%glx_gw, %%glx_a, %%glx_p, %%glx_gw;\n"
              "\tshl.b64 %%glx_p, %%glx_gw, 2;\n"
              "\tadd.s64 %%glx_wc, %%glx_buf, %%glx_c;\n"
              "\tadd.s64 %%glx_wc, %%glx_wc, %%glx_p;\n",
              GL_ITRACE_HEADER_BYTES);
    if (!is_entry) {
        sb_printf(b, "$__glx_f%d:\n", l);
        return;
    }
    sb_printf(b,
              "\tsetp.ne.u32 %%glx_q, %%glx_ltid, 0;\n"
              "\t@%%glx_q bra $__glx_f%d;\n",
              l);
    emit_block_record(b, sim_mode, GL_ITRACE_BLOCK_START, (*label)++);
    sb_printf(b, "$__glx_f%d:\n", l);
}

/* The last thread of the block to get here writes the block-end record; in block 0 it
 * also fills the header's table of shared-variable addresses (here, where every
 * declaration precedes it in the text). */
static void emit_block_end(sbuf *b, int sim_mode, const gl_ishared_sym *sh, int nsh, int *label)
{
    int l = (*label)++;
    sb_printf(b,
              "\tatom.global.add.u32 %%glx_t, [%%glx_cnt], 1;\n"
              "\tadd.u32 %%glx_t, %%glx_t, 1;\n"
              "\tsetp.ne.u32 %%glx_q, %%glx_t, %%glx_nthr;\n"
              "\t@%%glx_q bra $__glx_e%d;\n"
              "\tsetp.ne.u32 %%glx_q, %%glx_blk, 0;\n"
              "\t@%%glx_q bra $__glx_y%d;\n",
              l, l);
    for (int i = 0; i < nsh; i++)
        sb_printf(b,
                  "\tmov.u64 %%glx_c, %s;\n"
                  "\tst.global.u64 [%%glx_buf+%d], %%glx_c;\n",
                  sh[i].name, 32 + 8 * i);
    sb_printf(b, "$__glx_y%d:\n", l);
    emit_block_record(b, sim_mode, GL_ITRACE_BLOCK_END, (*label)++);
    sb_printf(b, "$__glx_e%d:\n", l);
}

/* A memory instruction to record, as the parsed module describes it. */
typedef struct memsite {
    const char *guard; /* predicate register, NULL when unguarded */
    int guard_neg;
    int space; /* TRACE_SPACE_*, 0 generic */
    int op;    /* trace_mem_op */
    unsigned width;
    const char *base_reg; /* the address register, or NULL */
    unsigned base_size;   /* its size in bytes */
    const char *base_sym; /* the variable addressed, or NULL */
    long long off;        /* the address's immediate (the whole address without a base) */
    unsigned lanes;       /* only lanes below this give an address (ldmatrix/stmatrix .x1,
                             .x2: 8, 16); 0: every lane */
    const char *nz_reg;   /* only lanes where this register is not 0 give an address
                             (cp.async's src-size: 0 reads nothing), or NULL */
    unsigned nz_size;     /* its size in bytes (4 or 8) */
} memsite;

/* Emits the per-warp memory record code for instruction `pc` (before it). -1 when the
 * address cannot be evaluated (a register neither 32 nor 64 bits wide). */
static int emit_mem(sbuf *b, int sim_mode, int in_func, const memsite *m, int pc, int *label)
{
    if ((m->base_reg && m->base_size != 8 && m->base_size != 4) ||
        (m->nz_reg && m->nz_size != 8 && m->nz_size != 4))
        return -1;
    int l = (*label)++;
    if (in_func)
        sb_printf(b, "\t@%%glx_off bra $__glx_s%d;\n", l);
    /* guard */
    if (!m->guard)
        sb_puts(b, "\tsetp.eq.u32 %glx_g, %glx_lane, %glx_lane;\n");
    else
        sb_printf(b, "\t%s.pred %%glx_g, %s;\n", m->guard_neg ? "not" : "mov", m->guard);
    if (m->lanes) /* ldmatrix.x1/.x2: lanes 0 .. 8 num - 1 give the rows' addresses */
        sb_printf(b, "\tsetp.lt.and.u32 %%glx_g, %%glx_lane, %u, %%glx_g;\n", m->lanes);
    if (m->nz_reg) /* cp.async with src-size 0: nothing read */
        sb_printf(b, "\tsetp.ne.and.u%u %%glx_g, %s, 0, %%glx_g;\n", m->nz_size * 8, m->nz_reg);
    /* address, evaluated as the instruction does */
    if (m->base_reg && m->base_size == 8)
        sb_printf(b, "\tadd.s64 %%glx_a, %s, %lld;\n", m->base_reg, m->off);
    else if (m->base_reg)
        sb_printf(b,
                  "\tadd.s32 %%glx_a32, %s, %lld;\n"
                  "\tcvt.u64.u32 %%glx_a, %%glx_a32;\n",
                  m->base_reg, m->off);
    else if (m->base_sym)
        sb_printf(b, "\tmov.u64 %%glx_a, %s;\n\tadd.s64 %%glx_a, %%glx_a, %lld;\n", m->base_sym,
                  m->off);
    else
        sb_printf(b, "\tmov.u64 %%glx_a, %lld;\n", m->off);
    /* space: generic addresses resolved like the simulator's windows */
    if (m->space == 0)
        sb_puts(b, "\tisspacep.shared %glx_ps, %glx_a;\n"
                   "\tisspacep.local %glx_pl, %glx_a;\n"
                   "\t@%glx_ps cvta.to.shared.u64 %glx_a, %glx_a;\n"
                   "\t@%glx_pl cvta.to.local.u64 %glx_a, %glx_a;\n"
                   "\tselp.u32 %glx_sp, 2, 1, %glx_ps;\n"
                   "\t@%glx_pl mov.u32 %glx_sp, 3;\n");
    else
        sb_printf(b, "\tmov.u32 %%glx_sp, %d;\n", m->space);
    sb_printf(b,
              "\tactivemask.b32 %%glx_act;\n"
              "\tvote.sync.ballot.b32 %%glx_m, %%glx_g, %%glx_act;\n"
              "\tsetp.eq.u32 %%glx_q, %%glx_m, 0;\n"
              "\t@%%glx_q bra $__glx_s%d;\n"
              "\tneg.s32 %%glx_t, %%glx_m;\n"
              "\tand.b32 %%glx_t, %%glx_t, %%glx_m;\n"
              "\tbfind.u32 %%glx_ldr, %%glx_t;\n"
              "\tmov.u32 %%glx_idx, -1;\n"
              "\tsetp.eq.u32 %%glx_q, %%glx_lane, %%glx_ldr;\n",
              l);
    emit_reserve_one(b, sim_mode, "@%glx_q ");
    sb_printf(b,
              "\t@%%glx_q setp.lt.u64 %%glx_q, %%glx_c, %%glx_cap;\n"
              "\t@%%glx_q cvt.u32.u64 %%glx_idx, %%glx_c;\n"
              "\tshfl.sync.idx.b32 %%glx_idx, %%glx_idx, %%glx_ldr, 31, %%glx_act;\n"
              "\tsetp.eq.u32 %%glx_q, %%glx_idx, -1;\n"
              "\t@%%glx_q bra $__glx_s%d;\n"
              "\tmul.wide.u32 %%glx_r, %%glx_idx, %u;\n"
              "\tadd.s64 %%glx_r, %%glx_r, %%glx_recs;\n"
              "\tadd.s64 %%glx_p, %%glx_r, %%glx_loff;\n"
              "\t@%%glx_g st.global.u64 [%%glx_p+64], %%glx_a;\n"
              "\tsetp.ne.u32 %%glx_q, %%glx_lane, %%glx_ldr;\n"
              "\t@%%glx_q bra $__glx_s%d;\n"
              "\tmov.u32 %%glx_t, %d;\n"
              "\tst.global.u32 [%%glx_r], %%glx_t;\n"
              "\tmov.u32 %%glx_t, %d;\n"
              "\tst.global.u32 [%%glx_r+4], %%glx_t;\n"
              "\tst.global.u32 [%%glx_r+8], %%glx_blk;\n"
              "\tst.global.u32 [%%glx_r+12], %%glx_warp;\n"
              "\tst.global.u32 [%%glx_r+16], %%glx_m;\n"
              "\tor.b32 %%glx_t, %%glx_sp, %u;\n"
              "\tst.global.u32 [%%glx_r+20], %%glx_t;\n"
              "\tmov.u32 %%glx_t, %%smid;\n"
              "\tst.global.u32 [%%glx_r+24], %%glx_t;\n"
              "\tmov.u64 %%glx_c, %%globaltimer;\n"
              "\tst.global.u64 [%%glx_r+32], %%glx_c;\n"
              "$__glx_s%d:\n",
              l, GL_ITRACE_RECORD_BYTES, l, GL_ITRACE_MEM, pc,
              ((unsigned)m->op << 8) | ((m->width > 255 ? 255u : m->width) << 16), l);
    return 0;
}

void gl_instrumented_free(gl_instrumented *ins)
{
    if (!ins)
        return;
    free(ins->ptx);
    memset(ins, 0, sizeof *ins);
}

/* A register's name as declared in function f, NULL when unknown (or possibly cut
 * short: ptx_reginfo keeps 30 characters). */
static const char *reg_name(const ptx_module *m, int f, unsigned slot)
{
    const ptx_func *fn = &m->funcs[f];
    if (slot == PTX_NOREG || (int)slot >= fn->nregs || !fn->reginfo)
        return NULL;
    const char *n = fn->reginfo[slot].name;
    return n[0] && strlen(n) < sizeof fn->reginfo[slot].name - 1 ? n : NULL;
}

/* The address operand a of instruction pc of function f into *ms (base register or
 * variable, offset): 1, or -1 when it cannot be named here (a .local variable or a
 * register name cut short), 0 when it is no address. */
static int describe_addr(const ptx_module *m, int f, const ptx_operand *a, memsite *ms)
{
    if (a->kind != PTX_OPK_ADDR)
        return 0;
    ms->off = (long long)a->imm;
    if (a->reg != PTX_NOREG) {
        ms->base_reg = reg_name(m, f, a->reg);
        ms->base_size = ms->base_reg ? PTX_TSIZE(m->funcs[f].reginfo[a->reg].type) : 0;
        return ms->base_reg ? 1 : -1;
    }
    if (a->sym < 0)
        return 1;
    const ptx_sym *y = &m->syms[a->sym];
    if (y->kind == PTX_SYM_GLOBAL)
        ms->base_sym = m->vars[y->value].name;
    for (int i = 0; i < m->nshvars && !ms->base_sym; i++)
        if (m->shvars[i].sym == a->sym)
            ms->base_sym = m->shvars[i].name;
    return ms->base_sym ? 1 : -1;
}

/* cp.async [dst], [src], cp-size{, src-size} (PTX ISA §9.7.9.25.3) as the two requests
 * the simulator traces (trace.h MEM): part 0 the global read of the lanes whose
 * src-size is not 0, part 1 the shared write. 0 when there is nothing to record (a
 * src-size of immediate 0, or a cp-size that is no immediate). */
static int describe_copy(const ptx_module *m, int f, const ptx_insn *in, int part, memsite *ms)
{
    if (in->o[2].kind != PTX_OPK_IMM)
        return 0;
    ms->width = (unsigned)in->o[2].imm;
    ms->space = part ? TRACE_SPACE_SHARED : TRACE_SPACE_GLOBAL;
    ms->op = part ? TRACE_STORE : TRACE_LOAD;
    if (!part && in->nopnd > 3) {
        const ptx_operand *sz = &in->o[3];
        if (sz->kind == PTX_OPK_IMM && sz->imm == 0)
            return 0;
        if (sz->kind == PTX_OPK_REG) {
            ms->nz_reg = reg_name(m, f, sz->reg);
            ms->nz_size = ms->nz_reg ? PTX_TSIZE(m->funcs[f].reginfo[sz->reg].type) : 0;
            if (!ms->nz_reg)
                return -1;
        }
    }
    return describe_addr(m, f, &in->o[part ? 0 : 1], ms);
}

/* The requests instruction in makes that are recorded (trace.h MEM): 2 for cp.async, 1
 * for the other memory instructions; cp.async.bulk's (an operand's length of bytes)
 * and wmma.load/store's (many addresses per lane, in a layout the PTX ISA leaves
 * opaque) are not. */
static int mem_parts(const ptx_insn *in)
{
    if (in->op == PTX_OP_cp)
        return in->cmp == PTX_CPA_COPY && !(in->bop & PTX_CPA_BULK) ? 2 : 0;
    return 1;
}

/* Describes part `part` of instruction pc of function f as a memory access to record;
 * 0 when it is none (not ld/ldu/st/atom/red/ldmatrix/stmatrix/cp.async, or on
 * .const/.param), -1 when it is one whose address cannot be named here (a .local
 * variable or a register name cut short). */
static int describe_mem(const ptx_module *m, int f, int pc, int part, memsite *ms)
{
    const ptx_insn *in = &m->code[pc];
    memset(ms, 0, sizeof *ms);
    if (part >= mem_parts(in))
        return 0;
    if (in->op == PTX_OP_cp) {
        const int r = describe_copy(m, f, in, part, ms);
        if (r <= 0)
            return r;
    } else {
        switch (ptx_op_table[in->op].cls) { /* sim/ptx/ptx_ops.def */
        case TRACE_CLASS_LOAD: ms->op = TRACE_LOAD; break;
        case TRACE_CLASS_STORE: ms->op = TRACE_STORE; break;
        case TRACE_CLASS_ATOMIC: ms->op = TRACE_ATOMIC; break;
        default: return 0;
        }
        switch (in->space) {
        case SIM_SPACE_GENERIC: ms->space = 0; break;
        case SIM_SPACE_GLOBAL: ms->space = TRACE_SPACE_GLOBAL; break;
        case SIM_SPACE_SHARED: ms->space = TRACE_SPACE_SHARED; break;
        case SIM_SPACE_LOCAL: ms->space = TRACE_SPACE_LOCAL; break;
        default: return 0;
        }
        unsigned tsize = PTX_TSIZE(in->type);
        if (!tsize || in->op == PTX_OP_wmma_load || in->op == PTX_OP_wmma_store)
            return 0; /* (wmma: mem_parts) */
        ms->width = ms->op == TRACE_ATOMIC ? tsize : tsize * (in->vec ? in->vec : 1);
        if (in->op == PTX_OP_ldmatrix || in->op == PTX_OP_stmatrix) {
            /* one 16-byte matrix row per lane address, from lanes 0 .. 8 num - 1 (PTX ISA
             * §9.7.14.5.15) */
            mma_desc d;
            ptx_mma_desc(in, &d);
            ms->width = 16;
            ms->lanes = d.num < 4 ? 8u * (unsigned)d.num : 0;
        }
        /* the address operand: o[0] of st/red/stmatrix, o[1] of ld/ldu/atom/ldmatrix
         * (ptx.h) */
        const ptx_operand *a =
            in->op == PTX_OP_st || in->op == PTX_OP_red || in->op == PTX_OP_stmatrix ? &in->o[0]
                                                                                     : &in->o[1];
        const int r = describe_addr(m, f, a, ms);
        if (r <= 0)
            return r;
    }
    if (in->guard != PTX_NOREG) {
        ms->guard = reg_name(m, f, in->guard);
        ms->guard_neg = (in->flags & PTX_F_GUARD_NEG) != 0;
        if (!ms->guard)
            return -1;
    }
    return 1;
}

/* The .shared variables entry e can name, where the simulator places them (the parsed
 * module's offsets): module-scope ones and the entry's own, in declaration order. */
static void shared_table(const ptx_module *m, int e, const layout *ly, gl_instrumented *out)
{
    for (int i = 0; i < m->nshvars && out->nsyms < GL_ITRACE_MAX_SHARED_SYMS; i++) {
        const ptx_shvar *v = &m->shvars[i];
        int visible = v->func == e;
        size_t n = strlen(v->name);
        for (int k = 0; k < ly->nmodshared && !visible && v->func < 0; k++)
            visible = ly->modshared_len[k] == n && memcmp(ly->modshared[k], v->name, n) == 0;
        if (!visible || n >= sizeof out->syms[0].name)
            continue;
        gl_ishared_sym *y = &out->syms[out->nsyms++];
        memcpy(y->name, v->name, n + 1);
        y->sim_offset = m->syms[v->sym].kind == PTX_SYM_DYNSHARED ? m->funcs[e].dynshared_off
                                                                  : (uint64_t)m->syms[v->sym].value;
        y->size = v->size;
    }
}

/* Edits instrumenting function f (the entry when is_entry) whose text is ft. */
static gl_status instrument_function(const char *ptx, const ptx_module *m, int f, const fn_text *ft,
                                     const layout *ly, int sim_mode, int is_entry, int *label,
                                     gl_instrumented *out, edits *ed, gl_error *err)
{
    const ptx_func *fn = &m->funcs[f];
    size_t start = ed->text.n, open = (size_t)ft->body_open;
    if (ptx[open] == '\n')
        open++; /* the declarations start the next line */
    else
        sb_puts(&ed->text, "\n");
    sb_puts(&ed->text, regs_decl);
    edit_add(ed, open, start);
    start = ed->text.n;
    size_t at =
        stmt_point(ptx, (size_t)(ft->first_stmt >= 0 ? ft->first_stmt : ft->body_close), ed);
    emit_prologue(&ed->text, sim_mode, is_entry, label);
    edit_add(ed, at, start);
    if (out->pc_first < 0 || fn->entry_pc < out->pc_first)
        out->pc_first = fn->entry_pc;
    if (fn->end_pc - 1 > out->pc_last)
        out->pc_last = fn->end_pc - 1;
    int ret_line = 0;
    for (int pc = fn->entry_pc; pc < fn->end_pc; pc++) {
        const ptx_insn *in = &m->code[pc];
        int line = in->ptx_line;
        memsite ms[2];
        int mem[2] = {describe_mem(m, f, pc, 0, &ms[0]), describe_mem(m, f, pc, 1, &ms[1])};
        int ret = is_entry && (in->op == PTX_OP_ret || in->op == PTX_OP_exit) && line != ret_line;
        if (!mem[0] && !mem[1] && !ret)
            continue;
        /* the parser adds a `ret` where a function falls off its end, at the line of the
         * token after its '}': more instructions on that line than the text has */
        int on_line = 0;
        for (int k = fn->entry_pc; k < fn->end_pc; k++)
            on_line += m->code[k].ptx_line == line;
        long off = line >= 1 && line <= ly->nlines ? ly->stmt_at[line] : -1;
        if (ret && pc == fn->end_pc - 1 && (off < 0 || on_line > ly->nstmt[line]))
            off = ft->body_close;
        if (off < 0)
            return gl_fail(err, GL_ERR_INPUT, "cannot instrument: no instruction at PTX line %d",
                           line);
        start = ed->text.n;
        at = stmt_point(ptx, (size_t)off, ed);
        for (int k = 0; k < 2; k++) /* cp.async: the global read, then the shared write */
            if (mem[k] < 0 ||
                (mem[k] > 0 && emit_mem(&ed->text, sim_mode, !is_entry, &ms[k], pc, label) < 0))
                out->nskipped++;
            else if (mem[k] > 0)
                out->nmem++;
        if (ret) {
            ret_line = line; /* one block end for a line */
            const char *g = in->guard != PTX_NOREG ? reg_name(m, f, in->guard) : NULL;
            if (in->guard != PTX_NOREG && !g)
                return gl_fail(err, GL_ERR_INPUT,
                               "cannot instrument: the guard of PTX line %d is not named", line);
            int r = (*label)++;
            if (g) /* `@p ret`: the block end only where p holds */
                sb_printf(&ed->text, "\t@%s%s bra $__glx_r%d;\n",
                          in->flags & PTX_F_GUARD_NEG ? "" : "!", g, r);
            emit_block_end(&ed->text, sim_mode, out->syms, out->nsyms, label);
            if (g)
                sb_printf(&ed->text, "$__glx_r%d:\n", r);
        }
        edit_add(ed, at, start);
    }
    return GL_OK;
}

gl_status gl_instrument_module(const char *ptx, const ptx_module_t *m, const char *kernel,
                               int sim_mode, gl_instrumented *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    out->sim_mode = sim_mode;
    out->pc_first = -1;
    out->pc_last = -2;
    snprintf(out->kernel, sizeof out->kernel, "%s", kernel);
    int e = -1;
    for (int i = 0; i < m->nfuncs && e < 0; i++)
        if (m->funcs[i].is_entry && m->funcs[i].entry_pc >= 0 &&
            strcmp(m->funcs[i].name, kernel) == 0)
            e = i;
    if (e < 0)
        return gl_fail(err, GL_ERR_INPUT, "cannot instrument: no .entry '%s' in the PTX", kernel);
    size_t len = strlen(ptx);
    layout ly;
    edits ed = {0};
    gl_status st = GL_OK;
    if (lex_layout(ptx, len, &ly) < 0) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory instrumenting PTX");
        goto done;
    }
    const fn_text *et = layout_find(&ly, kernel, 1);
    if (!et || et->body_close < 0) {
        st = gl_fail(err, GL_ERR_INPUT, "cannot instrument: no body for '%s'", kernel);
        goto done;
    }
    if (et->params_close < 0) {
        st = gl_fail(err, GL_ERR_INPUT, "cannot instrument: no parameter list for '%s'", kernel);
        goto done;
    }
    if (ly.decl_at < 0) {
        st = gl_fail(err, GL_ERR_INPUT, "cannot instrument: no .target directive");
        goto done;
    }
    shared_table(m, e, &ly, out);
    /* the buffer: a trailing kernel parameter, published to functions in a variable */
    size_t start = ed.text.n;
    sb_puts(&ed.text, "\n.global .align 8 .u64 __glx_trace_ptr;\n");
    edit_add(&ed, (size_t)ly.decl_at, start);
    start = ed.text.n;
    if (et->has_params)
        sb_puts(&ed.text, ",\n\t.param .u64 __glx_trace");
    else
        sb_puts(&ed.text, ".param .u64 __glx_trace");
    edit_add(&ed, (size_t)et->params_close, start);
    /* the entry, then the bodies of the module's .func definitions */
    int label = 0;
    st = instrument_function(ptx, m, e, et, &ly, sim_mode, 1, &label, out, &ed, err);
    for (int f = 0; f < m->nfuncs && st == GL_OK; f++) {
        if (m->funcs[f].is_entry || m->funcs[f].entry_pc < 0)
            continue;
        const fn_text *ft = layout_find(&ly, m->funcs[f].name, 0);
        if (!ft || ft->body_close < 0)
            st =
                gl_fail(err, GL_ERR_INPUT, "cannot instrument: no body for '%s'", m->funcs[f].name);
        else
            st = instrument_function(ptx, m, f, ft, &ly, sim_mode, 0, &label, out, &ed, err);
    }
    if (st != GL_OK)
        goto done;
    out->ptx = ed.text.oom || ed.oom ? NULL : edits_apply(&ed, ptx, len);
    if (!out->ptx)
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory instrumenting PTX");
done:
    layout_free(&ly);
    free(ed.text.p);
    free(ed.e);
    return st;
}

gl_status gl_instrument_ptx(const char *ptx, const char *kernel, int sim_mode, gl_instrumented *out,
                            gl_error *err)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    if (ptx_parse(ptx, strlen(ptx), "kernel.ptx", &m, &diag) != SIM_OK) {
        memset(out, 0, sizeof *out);
        gl_status st = gl_fail(err, GL_ERR_INPUT, "cannot instrument: %s",
                               diag ? diag : "PTX could not be parsed");
        free(diag);
        return st;
    }
    free(diag);
    gl_status st = gl_instrument_module(ptx, m, kernel, sim_mode, out, err);
    ptx_module_free(m);
    return st;
}

/* ------------------------------------------------------------------ the buffer */

/* Header fields (byte offsets): 0 record counter (GPU mode), 8 capacity in records,
 * 16 offset of the records, 24 magic, 32.. shared-variable addresses (8 bytes each),
 * 232 warps in the grid, 240 offset of the per-warp counters (simulator mode), 248
 * warps per block. Then the per-block u32 counters of threads that reached `ret`, the
 * per-warp u32 record counters, and the records. */
static uint64_t warp_counters_offset(uint64_t nblocks)
{
    return align_up(GL_ITRACE_HEADER_BYTES + nblocks * 4, 64);
}

static uint64_t records_offset(uint64_t nblocks, unsigned warps_per_block)
{
    return align_up(warp_counters_offset(nblocks) + nblocks * warps_per_block * 4, 64);
}

size_t gl_instrument_trace_bytes(uint64_t nblocks, unsigned warps_per_block, uint64_t records)
{
    return (size_t)(records_offset(nblocks, warps_per_block) + records * GL_ITRACE_RECORD_BYTES);
}

void gl_instrument_trace_init(void *buf, uint64_t nblocks, unsigned warps_per_block,
                              uint64_t records)
{
    uint64_t h[4] = {0, records, records_offset(nblocks, warps_per_block), GL_ITRACE_MAGIC};
    memcpy(buf, h, sizeof h);
    uint64_t t[3] = {nblocks * warps_per_block, warp_counters_offset(nblocks), warps_per_block};
    memcpy((unsigned char *)buf + 232, t, sizeof t);
}

static uint32_t rd32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t rd64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

typedef struct keyed {
    uint64_t time;
    size_t index;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Orders the stored events by time (ties keep record order); memory events keep their
 * lane addresses (aux indexes trace.addrs). On no memory the order stays as recorded. */
static void sort_by_time(trace_t *t)
{
    if (t->nevents < 2)
        return;
    keyed *k = malloc((t->nevents + 1) * sizeof *k);
    trace_event *ev = malloc((t->nevents + 1) * sizeof *ev);
    if (k && ev) {
        for (size_t i = 0; i < t->nevents; i++)
            k[i] = (keyed){t->events[i].time, i};
        qsort(k, t->nevents, sizeof *k, keyed_cmp);
        for (size_t i = 0; i < t->nevents; i++)
            ev[i] = t->events[k[i].index];
        memcpy(t->events, ev, t->nevents * sizeof *ev);
    }
    free(k);
    free(ev);
}

int gl_instrument_trace_decode(const void *buf, size_t bytes, const gl_instrumented *ins,
                               const ptx_module_t *orig, const unsigned grid[3],
                               const unsigned block[3], trace_t *t, uint64_t *lost)
{
    if (lost)
        *lost = 0;
    const unsigned char *p = buf;
    if (bytes < GL_ITRACE_HEADER_BYTES || rd64(p + 24) != GL_ITRACE_MAGIC)
        return -1;
    uint64_t count = rd64(p), cap = rd64(p + 8), roff = rd64(p + 16);
    /* the worker sends only the records written (GPU mode) */
    uint64_t avail = roff <= bytes ? (bytes - roff) / GL_ITRACE_RECORD_BYTES : 0;
    if (roff > bytes || (ins->sim_mode ? cap : (count < cap ? count : cap)) > avail)
        return -1;
    if (trace_begin_launch(t, ins->kernel, grid, block) < 0 || sim_trace_describe(orig, t) < 0)
        return -1;
    uint64_t gpu_sym[GL_ITRACE_MAX_SHARED_SYMS];
    for (int i = 0; i < ins->nsyms; i++)
        gpu_sym[i] = rd64(p + 32 + 8 * (size_t)i);
    uint64_t total = count;
    if (ins->sim_mode) {
        /* per-warp counters: records are at n * warps + warp, unwritten ones are 0 */
        uint64_t nw = rd64(p + 232), woff = rd64(p + 240);
        if (woff > bytes || nw > (bytes - woff) / 4)
            return -1;
        total = 0;
        for (uint64_t w = 0; w < nw; w++)
            total += rd32(p + woff + 4 * w);
        count = cap;
    }
    uint64_t n = count < cap ? count : cap, written = 0;
    for (uint64_t r = 0; r < n; r++) {
        const unsigned char *q = p + roff + r * GL_ITRACE_RECORD_BYTES;
        uint32_t kind = rd32(q);
        trace_event ev = {0};
        ev.block = rd32(q + 8);
        ev.time = rd64(q + 32);
        if (kind == GL_ITRACE_BLOCK_START || kind == GL_ITRACE_BLOCK_END || kind == GL_ITRACE_MEM)
            written++;
        if (kind == GL_ITRACE_BLOCK_START || kind == GL_ITRACE_BLOCK_END) {
            ev.kind = kind == GL_ITRACE_BLOCK_START ? TRACE_EV_BLOCK_START : TRACE_EV_BLOCK_END;
            ev.pc = -1;
            ev.aux = rd32(q + 24);
            if (trace_append(t, &ev, NULL) < 0)
                return -1;
            continue;
        }
        if (kind != GL_ITRACE_MEM)
            continue; /* not written: a record reserved by a warp that then faulted */
        uint32_t info = rd32(q + 20);
        ev.kind = TRACE_EV_MEM;
        ev.pc = (int32_t)rd32(q + 4);
        ev.warp = (uint16_t)rd32(q + 12);
        ev.mask = rd32(q + 16);
        ev.space = (uint8_t)(info & 0xff);
        ev.op = (uint8_t)((info >> 8) & 0xff);
        ev.width = (uint8_t)((info >> 16) & 0xff);
        uint64_t a[32];
        for (int lane = 0; lane < 32; lane++) {
            a[lane] = (ev.mask >> lane) & 1 ? rd64(q + 64 + 8 * (size_t)lane) : 0;
            if (!((ev.mask >> lane) & 1) || ev.space != TRACE_SPACE_SHARED)
                continue;
            int best = -1;
            for (int i = 0; i < ins->nsyms; i++)
                if (gpu_sym[i] <= a[lane] &&
                    (ins->syms[i].size == 0 || a[lane] - gpu_sym[i] < ins->syms[i].size) &&
                    (best < 0 || gpu_sym[i] > gpu_sym[best]))
                    best = i;
            if (best >= 0)
                a[lane] = ins->syms[best].sim_offset + (a[lane] - gpu_sym[best]);
        }
        if (trace_append(t, &ev, a) < 0)
            return -1;
    }
    if (total > written) {
        t->truncated = 1;
        t->dropped += total - written;
        if (lost)
            *lost = total - written;
    }
    if (!ins->sim_mode)
        sort_by_time(t);
    return 0;
}
