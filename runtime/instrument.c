/* instrument.c — PTX instrumentation for GPU traces, and decoding of the trace buffer
 * (instrument.h). The rewriting is textual, line by line; the simulator's parser numbers
 * the original instructions (sim_trace_describe gives each PC's PTX line). */
#include "runtime/instrument.h"

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

/* ------------------------------------------------------------------ line scanning */

typedef struct line {
    const char *s; /* start (not NUL-terminated) */
    size_t n;      /* length without the newline */
} line;

static const char *skip_ws(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    return s;
}

/* Whether [s,e) starts with word w followed by a non-identifier character. */
static int starts_word(const char *s, const char *e, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(e - s) < n || memcmp(s, w, n) != 0)
        return 0;
    return s + n == e || !(isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '$');
}

static int is_ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

/* Net brace depth change of a line, ignoring comments and strings. */
static int brace_delta(const line *l)
{
    int d = 0, in_str = 0;
    for (size_t i = 0; i < l->n; i++) {
        char c = l->s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
            continue;
        }
        if (c == '"')
            in_str = 1;
        else if (c == '/' && i + 1 < l->n && l->s[i + 1] == '/')
            break;
        else if (c == '{')
            d++;
        else if (c == '}')
            d--;
    }
    return d;
}

/* Size in bytes of a PTX type name (without the dot), 0 if not a type. */
static unsigned type_size(const char *t, size_t n)
{
    static const struct {
        const char *name;
        unsigned size;
    } ty[] = {
        {"b8", 1},   {"u8", 1},  {"s8", 1},  {"b16", 2}, {"u16", 2},   {"s16", 2},   {"f16", 2},
        {"bf16", 2}, {"b32", 4}, {"u32", 4}, {"s32", 4}, {"f32", 4},   {"f16x2", 4}, {"bf16x2", 4},
        {"b64", 8},  {"u64", 8}, {"s64", 8}, {"f64", 8}, {"b128", 16}, {"pred", 1},
    };
    for (size_t i = 0; i < sizeof ty / sizeof *ty; i++)
        if (strlen(ty[i].name) == n && memcmp(ty[i].name, t, n) == 0)
            return ty[i].size;
    return 0;
}

/* A declared register (or register family "%r<N>"): name without <N>, size, family. */
typedef struct regdecl {
    char name[64];
    unsigned size;
    int family;
} regdecl;

typedef struct ctx {
    regdecl *regs;
    int nregs, capregs;
    gl_instrumented *out;
} ctx;

/* Records the registers of a `.reg .TYPE a, b<N>, c;` line. */
static void parse_reg_decl(ctx *c, const char *s, const char *e)
{
    s = skip_ws(s, e);
    if (!starts_word(s, e, ".reg"))
        return;
    s += 4;
    unsigned size = 0;
    while (s < e) {
        s = skip_ws(s, e);
        if (s >= e || *s != '.')
            break;
        const char *w = ++s;
        while (s < e && (isalnum((unsigned char)*s) || *s == '_'))
            s++;
        unsigned ts = type_size(w, (size_t)(s - w));
        if (ts)
            size = ts;
    }
    while (s < e && *s != ';') {
        s = skip_ws(s, e);
        if (s < e && *s == ',') {
            s++;
            continue;
        }
        const char *w = s;
        while (s < e && *s != ',' && *s != ';' && *s != '<' && *s != ' ' && *s != '\t')
            s++;
        size_t n = (size_t)(s - w);
        int family = 0;
        if (s < e && *s == '<') {
            family = 1;
            while (s < e && *s != '>')
                s++;
            if (s < e)
                s++;
        }
        if (n == 0 || n >= 64) {
            if (s < e && *s != ';' && *s != ',')
                s++;
            continue;
        }
        if (c->nregs == c->capregs) {
            int nc = c->capregs ? c->capregs * 2 : 64;
            regdecl *np = realloc(c->regs, (size_t)nc * sizeof *np);
            if (!np)
                return;
            c->regs = np;
            c->capregs = nc;
        }
        regdecl *r = &c->regs[c->nregs++];
        memcpy(r->name, w, n);
        r->name[n] = 0;
        r->size = size;
        r->family = family;
    }
}

/* Size in bytes of register `name`, 0 unknown. */
static unsigned reg_size(const ctx *c, const char *name)
{
    for (int i = 0; i < c->nregs; i++)
        if (!c->regs[i].family && strcmp(c->regs[i].name, name) == 0)
            return c->regs[i].size;
    size_t n = strlen(name);
    while (n > 0 && isdigit((unsigned char)name[n - 1]))
        n--;
    for (int i = 0; i < c->nregs; i++)
        if (c->regs[i].family && strlen(c->regs[i].name) == n &&
            memcmp(c->regs[i].name, name, n) == 0)
            return c->regs[i].size;
    return 0;
}

/* Records a `.shared` declaration (module scope or the entry's own) for the shared
 * address table, laid out as the simulator lays it out (sim/ptx_parse.c). */
typedef struct shdecl {
    char name[128];
    unsigned align;
    uint64_t size;
    int is_extern, in_entry;
} shdecl;

static int parse_shared_decl(const char *s, const char *e, int in_entry, shdecl *d)
{
    memset(d, 0, sizeof *d);
    d->in_entry = in_entry;
    s = skip_ws(s, e);
    if (starts_word(s, e, ".extern")) {
        d->is_extern = 1;
        s = skip_ws(s + 7, e);
    }
    if (!starts_word(s, e, ".shared"))
        return 0;
    s += 7;
    unsigned tsize = 1;
    while (s < e) {
        s = skip_ws(s, e);
        if (s >= e || *s != '.')
            break;
        const char *w = ++s;
        while (s < e && (isalnum((unsigned char)*s) || *s == '_' || *s == ':'))
            s++;
        size_t n = (size_t)(s - w);
        if (n == 5 && memcmp(w, "align", 5) == 0) {
            s = skip_ws(s, e);
            d->align = (unsigned)strtoul(s, NULL, 0);
            while (s < e && isdigit((unsigned char)*s))
                s++;
        } else if (type_size(w, n)) {
            tsize = type_size(w, n);
        }
    }
    const char *w = s;
    while (s < e && (isalnum((unsigned char)*s) || *s == '_' || *s == '$'))
        s++;
    size_t n = (size_t)(s - w);
    if (n == 0 || n >= sizeof d->name)
        return 0;
    memcpy(d->name, w, n);
    d->name[n] = 0;
    if (!d->align)
        d->align = tsize;
    uint64_t count = 1;
    int unsized = 0;
    while (s < e && *s == '[') {
        s++;
        if (s < e && *s == ']') {
            unsized = 1;
            s++;
            continue;
        }
        count *= strtoull(s, NULL, 0);
        while (s < e && *s != ']')
            s++;
        if (s < e)
            s++;
    }
    if (unsized)
        d->is_extern = 1;
    d->size = d->is_extern ? 0 : count * tsize;
    return 1;
}

static uint64_t align_up(uint64_t v, unsigned a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
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
    sb_addn(b, "\t// gpulearn trace: prologue\n", 29);
    if (is_entry)
        sb_addn(b,
                "\tld.param.u64 %glx_buf, [__glx_trace];\n"
                "\tcvta.to.global.u64 %glx_buf, %glx_buf;\n"
                "\tst.global.u64 [__glx_trace_ptr], %glx_buf;\n",
                strlen("\tld.param.u64 %glx_buf, [__glx_trace];\n"
                       "\tcvta.to.global.u64 %glx_buf, %glx_buf;\n"
                       "\tst.global.u64 [__glx_trace_ptr], %glx_buf;\n"));
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
static void emit_block_end(sbuf *b, int sim_mode, const shdecl *sh, int nsh, int *label)
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

/* A parsed memory instruction line. */
typedef struct memline {
    char guard[64];
    int guard_neg;
    int space; /* TRACE_SPACE_*, 0 generic, -1 not traced (.param, .const) */
    int op;    /* trace_mem_op */
    unsigned width;
    char base[128]; /* register, symbol or number */
    long long off;
} memline;

/* Parses `[@[!]%p] op.mods operands;` into m. 0 when it is not a traceable access. */
static int parse_memline(const line *l, memline *m)
{
    memset(m, 0, sizeof *m);
    const char *s = l->s, *e = l->s + l->n;
    s = skip_ws(s, e);
    if (s < e && *s == '@') {
        s++;
        if (s < e && *s == '!') {
            m->guard_neg = 1;
            s++;
        }
        const char *w = s;
        while (s < e && *s != ' ' && *s != '\t')
            s++;
        size_t n = (size_t)(s - w);
        if (n == 0 || n >= sizeof m->guard)
            return 0;
        memcpy(m->guard, w, n);
        s = skip_ws(s, e);
    }
    const char *op = s;
    while (s < e && *s != ' ' && *s != '\t')
        s++;
    const char *ope = s;
    const char *dot = memchr(op, '.', (size_t)(ope - op));
    const char *name_end = dot ? dot : ope;
    size_t nn = (size_t)(name_end - op);
    switch (ptx_op_class(op, nn)) { /* ld/ldu, st, atom/red (sim/ptx_ops.def) */
    case TRACE_CLASS_LOAD: m->op = TRACE_LOAD; break;
    case TRACE_CLASS_STORE: m->op = TRACE_STORE; break;
    case TRACE_CLASS_ATOMIC: m->op = TRACE_ATOMIC; break;
    default: return 0;
    }
    unsigned vec = 1, tsize = 0;
    m->space = 0;
    for (const char *p = name_end; p < ope;) {
        const char *w = ++p;
        while (p < ope && *p != '.')
            p++;
        size_t n = (size_t)(p - w);
        const char *colons = memchr(w, ':', n);
        size_t base_n = colons ? (size_t)(colons - w) : n;
        if (base_n == 6 && memcmp(w, "global", 6) == 0)
            m->space = TRACE_SPACE_GLOBAL;
        else if (base_n == 6 && memcmp(w, "shared", 6) == 0)
            m->space = TRACE_SPACE_SHARED;
        else if (base_n == 5 && memcmp(w, "local", 5) == 0)
            m->space = TRACE_SPACE_LOCAL;
        else if ((base_n == 5 && memcmp(w, "const", 5) == 0) ||
                 (base_n == 5 && memcmp(w, "param", 5) == 0))
            m->space = -1;
        else if (n == 2 && w[0] == 'v' && (w[1] == '2' || w[1] == '4' || w[1] == '8'))
            vec = (unsigned)(w[1] - '0');
        else if (type_size(w, n))
            tsize = type_size(w, n);
    }
    if (m->space < 0 || !tsize)
        return 0;
    m->width = m->op == TRACE_ATOMIC ? tsize : tsize * vec;
    if ((nn == 8 && (!memcmp(op, "ldmatrix", 8) || !memcmp(op, "stmatrix", 8))))
        m->width = 16; /* one 16-byte matrix row per lane address (PTX ISA §9.7.14.5.15) */
    const char *lb = memchr(ope, '[', (size_t)(e - ope));
    const char *rb = lb ? memchr(lb, ']', (size_t)(e - lb)) : NULL;
    if (!lb || !rb)
        return 0;
    char a[256];
    size_t an = 0;
    for (const char *p = lb + 1; p < rb && an + 1 < sizeof a; p++)
        if (*p != ' ' && *p != '\t')
            a[an++] = *p;
    a[an] = 0;
    if (!an)
        return 0;
    size_t bn = 1;
    while (bn < an && a[bn] != '+' && a[bn] != '-')
        bn++;
    if (bn >= sizeof m->base)
        return 0;
    memcpy(m->base, a, bn);
    m->base[bn] = 0;
    if (bn < an) {
        const char *p = a + bn;
        int neg = *p == '-';
        p++;
        if (*p == '-') {
            neg = !neg;
            p++;
        } else if (*p == '+') {
            p++;
        }
        char *end = NULL;
        unsigned long long v = strtoull(p, &end, 0);
        if (!end || *end)
            return 0;
        m->off = neg ? -(long long)v : (long long)v;
    }
    return 1;
}

/* Emits the per-warp memory record code for instruction `pc` (before it). */
static int emit_mem(sbuf *b, int sim_mode, int in_func, const ctx *c, const memline *m, int pc,
                    int *label)
{
    int l = (*label)++;
    if (in_func)
        sb_printf(b, "\t@%%glx_off bra $__glx_s%d;\n", l);
    /* guard */
    if (!m->guard[0])
        sb_addn(b, "\tsetp.eq.u32 %glx_g, %glx_lane, %glx_lane;\n", 43);
    else
        sb_printf(b, "\t%s.pred %%glx_g, %s;\n", m->guard_neg ? "not" : "mov", m->guard);
    /* address, evaluated as the instruction does */
    if (m->base[0] == '%') {
        unsigned rs = reg_size(c, m->base);
        if (rs == 8)
            sb_printf(b, "\tadd.s64 %%glx_a, %s, %lld;\n", m->base, m->off);
        else if (rs == 4)
            sb_printf(b,
                      "\tadd.s32 %%glx_a32, %s, %lld;\n"
                      "\tcvt.u64.u32 %%glx_a, %%glx_a32;\n",
                      m->base, m->off);
        else
            return -1;
    } else if (isdigit((unsigned char)m->base[0])) {
        sb_printf(b, "\tmov.u64 %%glx_a, %s;\n\tadd.s64 %%glx_a, %%glx_a, %lld;\n", m->base,
                  m->off);
    } else {
        sb_printf(b, "\tmov.u64 %%glx_a, %s;\n\tadd.s64 %%glx_a, %%glx_a, %lld;\n", m->base,
                  m->off);
    }
    /* space: generic addresses resolved like the simulator's windows */
    if (m->space == 0)
        sb_addn(b,
                "\tisspacep.shared %glx_ps, %glx_a;\n"
                "\tisspacep.local %glx_pl, %glx_a;\n"
                "\t@%glx_ps cvta.to.shared.u64 %glx_a, %glx_a;\n"
                "\t@%glx_pl cvta.to.local.u64 %glx_a, %glx_a;\n"
                "\tselp.u32 %glx_sp, 2, 1, %glx_ps;\n"
                "\t@%glx_pl mov.u32 %glx_sp, 3;\n",
                strlen("\tisspacep.shared %glx_ps, %glx_a;\n"
                       "\tisspacep.local %glx_pl, %glx_a;\n"
                       "\t@%glx_ps cvta.to.shared.u64 %glx_a, %glx_a;\n"
                       "\t@%glx_pl cvta.to.local.u64 %glx_a, %glx_a;\n"
                       "\tselp.u32 %glx_sp, 2, 1, %glx_ps;\n"
                       "\t@%glx_pl mov.u32 %glx_sp, 3;\n"));
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

/* Whether the line is a `ret`/`exit` instruction; fills its guard. */
static int is_ret(const line *l, char *guard, size_t glen, int *neg)
{
    const char *s = skip_ws(l->s, l->s + l->n), *e = l->s + l->n;
    guard[0] = 0;
    *neg = 0;
    if (s < e && *s == '@') {
        s++;
        if (s < e && *s == '!') {
            *neg = 1;
            s++;
        }
        const char *w = s;
        while (s < e && *s != ' ' && *s != '\t')
            s++;
        size_t n = (size_t)(s - w);
        if (!n || n >= glen)
            return 0;
        memcpy(guard, w, n);
        guard[n] = 0;
        s = skip_ws(s, e);
    }
    const char *w = s;
    while (s < e && (isalnum((unsigned char)*s) || *s == '.'))
        s++;
    size_t n = (size_t)(s - w);
    return (n == 3 && memcmp(w, "ret", 3) == 0) || (n == 7 && memcmp(w, "ret.uni", 7) == 0) ||
           (n == 4 && memcmp(w, "exit", 4) == 0);
}

void gl_instrumented_free(gl_instrumented *ins)
{
    if (!ins)
        return;
    free(ins->ptx);
    memset(ins, 0, sizeof *ins);
}

gl_status gl_instrument_ptx(const char *ptx, const char *kernel, int sim_mode, gl_instrumented *out,
                            gl_error *err)
{
    memset(out, 0, sizeof *out);
    out->sim_mode = sim_mode;
    snprintf(out->kernel, sizeof out->kernel, "%s", kernel);
    /* number the original instructions */
    ptx_module_t *mod = NULL;
    char *diag = NULL;
    if (ptx_parse(ptx, strlen(ptx), "kernel.ptx", &mod, &diag) != SIM_OK) {
        gl_status st = gl_fail(err, GL_ERR_INPUT, "cannot instrument: %s",
                               diag ? diag : "PTX could not be parsed");
        free(diag);
        return st;
    }
    free(diag);
    trace_t *tt = trace_new(TRACE_OFF, 0);
    if (!tt || sim_trace_describe(mod, tt) < 0) {
        trace_free(tt);
        ptx_module_free(mod);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory instrumenting PTX");
    }
    ptx_module_free(mod);

    /* lines */
    size_t len = strlen(ptx);
    int nlines = 1;
    for (size_t i = 0; i < len; i++)
        nlines += ptx[i] == '\n';
    line *L = calloc((size_t)nlines + 1, sizeof *L);
    int *pc_of = malloc(((size_t)nlines + 2) * sizeof *pc_of);
    ctx c = {.out = out};
    sbuf b = {0};
    shdecl sh[GL_ITRACE_MAX_SHARED_SYMS];
    int nsh = 0;
    int nf = 0, capf = 0;
    int(*fb)[2] = NULL; /* .func bodies: [open line, close line] */
    gl_status st = GL_OK;
    if (!L || !pc_of) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory instrumenting PTX");
        goto done;
    }
    {
        int k = 0;
        const char *s = ptx;
        for (size_t i = 0; i <= len; i++)
            if (i == len || ptx[i] == '\n') {
                L[k].s = s;
                L[k].n = (size_t)(ptx + i - s);
                k++;
                s = ptx + i + 1;
            }
        nlines = k;
    }
    for (int i = 0; i <= nlines + 1; i++)
        pc_of[i] = -1;
    for (int pc = tt->ninsns - 1; pc >= 0; pc--) {
        int pl = tt->insns[pc].ptx_line;
        if (pl >= 1 && pl <= nlines)
            pc_of[pl] = pc;
    }

    /* find the entry: header line, the ')' closing its parameters, body lines */
    int entry_line = -1;
    for (int i = 0; i < nlines && entry_line < 0; i++) {
        const char *s = L[i].s, *e = s + L[i].n;
        for (const char *p = s; p + 6 <= e; p++)
            if (memcmp(p, ".entry", 6) == 0 && (p + 6 == e || !is_ident_char(p[6]))) {
                const char *q = skip_ws(p + 6, e);
                size_t kn = strlen(kernel);
                if ((size_t)(e - q) >= kn && memcmp(q, kernel, kn) == 0 &&
                    (q + kn == e || !is_ident_char(q[kn])))
                    entry_line = i;
                break;
            }
    }
    if (entry_line < 0) {
        st = gl_fail(err, GL_ERR_INPUT, "cannot instrument: no .entry '%s' in the PTX", kernel);
        goto done;
    }
    int close_line = -1;
    size_t close_col = 0;
    int has_params = 0;
    int seen_open = 0;
    for (int i = entry_line; i < nlines && close_line < 0; i++) {
        size_t from = 0;
        if (i == entry_line) {
            const char *p = strstr(L[i].s, ".entry");
            from = (size_t)(p - L[i].s);
        }
        for (size_t j = from; j < L[i].n; j++) {
            char ch = L[i].s[j];
            if (ch == '(')
                seen_open = 1;
            else if (ch == ')' && seen_open) {
                close_line = i;
                close_col = j;
                break;
            } else if (seen_open && ch == '.' && j + 6 <= L[i].n &&
                       memcmp(L[i].s + j, ".param", 6) == 0)
                has_params = 1;
            else if (ch == '{' && !seen_open)
                break;
        }
    }
    if (close_line < 0) {
        st = gl_fail(err, GL_ERR_INPUT, "cannot instrument: no parameter list for '%s'", kernel);
        goto done;
    }
    int body_open = -1, body_close = -1;
    {
        int depth = 0;
        for (int i = close_line; i < nlines; i++) {
            int d = brace_delta(&L[i]);
            if (body_open < 0) {
                if (d > 0 || memchr(L[i].s, '{', L[i].n)) {
                    body_open = i;
                    depth = d;
                }
                continue;
            }
            depth += d;
            if (depth <= 0) {
                body_close = i;
                break;
            }
        }
    }
    if (body_open < 0 || body_close < 0) {
        st = gl_fail(err, GL_ERR_INPUT, "cannot instrument: no body for '%s'", kernel);
        goto done;
    }
    /* bodies of the module's .func definitions (not declarations): instrumented too,
     * reaching the buffer through __glx_trace_ptr */
    {
        int depth = 0;
        for (int i = 0; i < nlines; i++) {
            int d0 = depth;
            depth += brace_delta(&L[i]);
            if (d0 != 0)
                continue;
            const char *s0 = L[i].s, *e0 = s0 + L[i].n;
            int is_func = 0;
            for (const char *p = s0; p + 5 <= e0; p++) {
                if (p[0] == '/' && p + 1 < e0 && p[1] == '/')
                    break;
                if (memcmp(p, ".func", 5) == 0 && (p + 5 == e0 || !is_ident_char(p[5])) &&
                    (p == s0 || !is_ident_char(p[-1]))) {
                    is_func = 1;
                    break;
                }
            }
            if (!is_func)
                continue;
            /* the header runs to the first '{' (a definition) or ';' (a declaration) */
            int open = -1;
            for (int k = i; k < nlines && open < 0; k++) {
                const char *q = memchr(L[k].s, '{', L[k].n), *sc = memchr(L[k].s, ';', L[k].n);
                if (sc && (!q || sc < q))
                    break;
                if (q)
                    open = k;
            }
            if (open < 0)
                continue;
            int dd = 0, close = -1;
            for (int k = open; k < nlines; k++) {
                dd += brace_delta(&L[k]);
                if (dd <= 0 && k > open) {
                    close = k;
                    break;
                }
            }
            if (close < 0)
                continue;
            if (nf == capf) {
                capf = capf ? capf * 2 : 8;
                int(*np)[2] = realloc(fb, (size_t)capf * sizeof *fb);
                if (!np)
                    break;
                fb = np;
            }
            fb[nf][0] = open;
            fb[nf][1] = close;
            nf++;
            i = close;
            depth = 0;
        }
    }
    /* registers of the entry and the functions */
    for (int k = 0; k < nf; k++)
        for (int i = fb[k][0] + 1; i < fb[k][1]; i++)
            parse_reg_decl(&c, L[i].s, L[i].s + L[i].n);
    {
        for (int i = 0; i < nlines; i++) {
            int in_entry = i > body_open && i < body_close;
            if (in_entry)
                parse_reg_decl(&c, L[i].s, L[i].s + L[i].n);
        }
    }
    /* the shared variables, where the simulator places them (sim/ptx_parse.c) */
    {
        shdecl all[GL_ITRACE_MAX_SHARED_SYMS];
        int nall = 0;
        int depth = 0;
        for (int i = 0; i < nlines && nall < GL_ITRACE_MAX_SHARED_SYMS; i++) {
            int in_entry = i > body_open && i < body_close;
            if ((depth == 0 || in_entry) &&
                parse_shared_decl(L[i].s, L[i].s + L[i].n, in_entry, &all[nall]))
                nall++;
            depth += brace_delta(&L[i]);
        }
        uint64_t modsz = 0, own = 0;
        out->nsyms = 0;
        uint64_t off[GL_ITRACE_MAX_SHARED_SYMS];
        for (int i = 0; i < nall; i++)
            if (!all[i].is_extern && !all[i].in_entry) {
                modsz = align_up(modsz, all[i].align);
                off[i] = modsz;
                modsz += all[i].size;
            }
        uint64_t base = align_up(modsz, 16);
        for (int i = 0; i < nall; i++)
            if (!all[i].is_extern && all[i].in_entry) {
                own = align_up(own, all[i].align);
                off[i] = base + own;
                own += all[i].size;
            }
        uint64_t dyn = align_up(base + own, 16);
        for (int i = 0; i < nall; i++) {
            if (all[i].is_extern)
                off[i] = dyn;
            gl_ishared_sym *y = &out->syms[out->nsyms++];
            memcpy(y->name, all[i].name, sizeof y->name);
            y->sim_offset = off[i];
            y->size = all[i].size;
            sh[i] = all[i];
        }
        nsh = nall;
    }

    /* the instrumented instructions (the PCs records can carry) */
    out->pc_first = -1;
    out->pc_last = -2;
    for (int i = 0; i < nlines; i++) {
        int pc = pc_of[i + 1];
        int in_fn = i > body_open && i < body_close;
        for (int k = 0; k < nf && !in_fn; k++)
            in_fn = i > fb[k][0] && i < fb[k][1];
        if (!in_fn)
            continue;
        if (pc < 0)
            continue;
        if (out->pc_first < 0 || pc < out->pc_first)
            out->pc_first = pc;
        if (pc > out->pc_last)
            out->pc_last = pc;
    }

    /* rewrite; the pointer variable goes after the module directives */
    int global_at = -1;
    for (int i = 0; i < nlines && global_at < 0; i++) {
        const char *q = skip_ws(L[i].s, L[i].s + L[i].n);
        if (starts_word(q, L[i].s + L[i].n, ".address_size"))
            global_at = i;
    }
    for (int i = 0; i < nlines && global_at < 0; i++) {
        const char *q = skip_ws(L[i].s, L[i].s + L[i].n);
        if (starts_word(q, L[i].s + L[i].n, ".target"))
            global_at = i;
    }
    if (global_at < 0) {
        st = gl_fail(err, GL_ERR_INPUT, "cannot instrument: no .target directive");
        goto done;
    }
    unsigned char *fprologue = calloc((size_t)nf + 1, 1);
    if (!fprologue) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory instrumenting PTX");
        goto done;
    }
    int label = 0, prologue_done = 0;
    for (int i = 0; i < nlines; i++) {
        const line *l = &L[i];
        int last = i == nlines - 1;
        if (i == close_line) {
            sb_addn(&b, l->s, close_col);
            sb_addn(&b, has_params ? ",\n\t.param .u64 __glx_trace\n" : ".param .u64 __glx_trace",
                    has_params ? 26 : 23);
            sb_addn(&b, l->s + close_col, l->n - close_col);
            if (!last)
                sb_addn(&b, "\n", 1);
            continue;
        }
        int in_body = i > body_open && i < body_close;
        int fk = -1;
        for (int k = 0; k < nf && !in_body && fk < 0; k++)
            if (i > fb[k][0] && i < fb[k][1])
                fk = k;
        if (fk >= 0) {
            const char *s = skip_ws(l->s, l->s + l->n);
            int stmt = s < l->s + l->n && *s != '.' && *s != '/' && *s != '{' && *s != '}';
            memline ml;
            int pc = pc_of[i + 1];
            if (stmt && !fprologue[fk]) { /* before the first label or instruction */
                emit_prologue(&b, sim_mode, 0, &label);
                fprologue[fk] = 1;
            }
            if (stmt && pc >= 0 && fprologue[fk] && parse_memline(l, &ml)) {
                if (emit_mem(&b, sim_mode, 1, &c, &ml, pc, &label) < 0)
                    out->nskipped++;
                else
                    out->nmem++;
            }
        }
        if (in_body) {
            const char *s = skip_ws(l->s, l->s + l->n);
            int stmt = s < l->s + l->n && *s != '.' && *s != '/' && *s != '{' && *s != '}';
            memline ml;
            int pc = pc_of[i + 1];
            if (stmt && !prologue_done) { /* before the first label or instruction */
                emit_prologue(&b, sim_mode, 1, &label);
                prologue_done = 1;
            }
            if (stmt && pc >= 0 && parse_memline(l, &ml)) {
                if (emit_mem(&b, sim_mode, 0, &c, &ml, pc, &label) < 0)
                    out->nskipped++;
                else
                    out->nmem++;
            }
            char guard[64];
            int neg;
            if (stmt && is_ret(l, guard, sizeof guard, &neg)) {
                if (guard[0]) {
                    int r = label++;
                    sb_printf(&b, "\t@%s%s bra $__glx_r%d;\n", neg ? "" : "!", guard, r);
                    emit_block_end(&b, sim_mode, sh, nsh, &label);
                    sb_printf(&b, "\tret;\n$__glx_r%d:\n", r);
                    continue;
                }
                emit_block_end(&b, sim_mode, sh, nsh, &label);
            }
        }
        sb_addn(&b, l->s, l->n);
        if (!last)
            sb_addn(&b, "\n", 1);
        int opens = i == body_open;
        for (int k = 0; k < nf && !opens; k++)
            opens = i == fb[k][0];
        if (opens)
            sb_addn(&b, regs_decl, strlen(regs_decl));
        if (i == global_at)
            sb_addn(&b, "\n.global .align 8 .u64 __glx_trace_ptr;\n",
                    strlen("\n.global .align 8 .u64 __glx_trace_ptr;\n"));
    }
    free(fprologue);
    if (b.oom) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory instrumenting PTX");
        goto done;
    }
    out->ptx = b.p;
    b.p = NULL;
done:
    free(fb);
    free(b.p);
    free(L);
    free(pc_of);
    free(c.regs);
    trace_free(tt);
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

size_t gl_itrace_bytes(uint64_t nblocks, unsigned warps_per_block, uint64_t records)
{
    return (size_t)(records_offset(nblocks, warps_per_block) + records * GL_ITRACE_RECORD_BYTES);
}

void gl_itrace_init(void *buf, uint64_t nblocks, unsigned warps_per_block, uint64_t records)
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

int gl_itrace_decode(const void *buf, size_t bytes, const gl_instrumented *ins,
                     const ptx_module_t *orig, const unsigned grid[3], const unsigned block[3],
                     trace_t *t)
{
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
    }
    if (!ins->sim_mode)
        sort_by_time(t);
    return 0;
}
