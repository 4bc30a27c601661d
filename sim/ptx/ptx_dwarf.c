/* ptx_dwarf.c — source variable names from the DWARF sections of PTX (ptx_dwarf.h).
 *
 * Two steps: each section's `.bN` directives become bytes, with the label references
 * among them kept aside (a `.b32 .debug_abbrev` or `.b64 $L__tmp3` is a relocation, not
 * a number); then the compilation units of .debug_info are walked with their
 * abbreviations (DWARF 5 §7.5), keeping a stack of scopes' PC ranges, and every variable
 * or parameter whose location is a register becomes a ptx_srcvar. Every read is bounds
 * checked: malformed input is an error, never a read past the bytes. */
#include "sim/ptx/ptx_dwarf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/ptx.h"

/* A label reference at byte `off` of a section: label+addend. */
typedef struct reloc {
    size_t off;
    const char *label;
    size_t len;
    int64_t addend;
} reloc;

/* A label defined inside a section, at byte `off`. */
typedef struct deflabel {
    const char *label;
    size_t len;
    size_t off;
} deflabel;

/* One section as bytes. */
typedef struct secbytes {
    const char *name;
    size_t name_len;
    unsigned char *b;
    size_t n, cap;
    reloc *r;
    size_t nr, rcap;
    deflabel *d;
    size_t nd, dcap;
} secbytes;

enum { S_ABBREV, S_INFO, S_LOC, S_STR, NSEC };
static const char *const sec_names[NSEC] = {".debug_abbrev", ".debug_info", ".debug_loc",
                                            ".debug_str"};

typedef struct dw {
    secbytes s[NSEC];
    ptx_dwarf_label_fn label;
    void *ctx;
    char *err;
    size_t errlen;
    int failed; /* -1 malformed, -2 no memory */
    ptx_srcvar *out;
    int nout, cap;
} dw;

static int fail(dw *D, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(dw *D, const char *fmt, ...)
{
    if (!D->failed) {
        D->failed = -1;
        if (D->err && D->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(D->err, D->errlen, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

static int oom(dw *D)
{
    if (!D->failed) {
        D->failed = -2;
        if (D->err && D->errlen)
            snprintf(D->err, D->errlen, "out of memory");
    }
    return -2;
}

static int grow(dw *D, void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 256;
    while (nc < need)
        nc *= 2;
    void *np = realloc(*p, nc * sz);
    if (!np)
        return oom(D);
    *p = np;
    *cap = nc;
    return 0;
}

/* ------------------------------------------------------------ section text */

static int tok_is(const ptx_tok *t, const char *s)
{
    return t->kind == PTX_TOK_IDENT && t->len == strlen(s) && memcmp(t->p, s, t->len) == 0;
}

static int tok_punct(const ptx_tok *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && t->len >= 1 && *t->p == c;
}

/* Turns the text of section `in` into bytes and relocations (PTX ISA §11.1.2: only
 * `.b8`, `.b16`, `.b32`, `.b64` data with integers or label[+-integer], and labels). */
static int read_section(dw *D, const ptx_dwarf_sec *in, secbytes *s)
{
    ptx_lexer lx;
    ptx_lex_init(&lx, in->text, in->len);
    ptx_tok t, nt;
    int have = 0; /* t is a token pushed back */
    for (;;) {
        if (!have && !ptx_lex_next(&lx, &t))
            return fail(D, "%.*s: line %d: unexpected character", (int)in->name_len, in->name,
                        t.line);
        have = 0;
        if (t.kind == PTX_TOK_EOF)
            return 0;
        unsigned width = tok_is(&t, ".b8")    ? 1
                         : tok_is(&t, ".b16") ? 2
                         : tok_is(&t, ".b32") ? 4
                         : tok_is(&t, ".b64") ? 8
                                              : 0;
        if (!width && t.kind == PTX_TOK_IDENT) { /* a label definition */
            if (!ptx_lex_next(&lx, &nt) || !tok_punct(&nt, ':'))
                return fail(D, "%.*s: line %d: '%.*s' is not data", (int)in->name_len, in->name,
                            t.line, (int)(t.len > 40 ? 40 : t.len), t.p);
            if (grow(D, (void **)&s->d, &s->dcap, s->nd + 1, sizeof *s->d))
                return -2;
            s->d[s->nd++] = (deflabel){t.p, t.len, s->n};
            continue;
        }
        if (!width)
            return fail(D, "%.*s: line %d: expected .b8, .b16, .b32 or .b64", (int)in->name_len,
                        in->name, t.line);
        for (;;) {
            if (!ptx_lex_next(&lx, &t))
                return fail(D, "%.*s: line %d: unexpected character", (int)in->name_len, in->name,
                            t.line);
            int neg = 0;
            if (tok_punct(&t, '-')) {
                neg = 1;
                if (!ptx_lex_next(&lx, &t))
                    return fail(D, "%.*s: line %d: unexpected character", (int)in->name_len,
                                in->name, t.line);
            }
            uint64_t v = 0;
            if (t.kind == PTX_TOK_INT) {
                v = neg ? (uint64_t)0 - t.ival : t.ival;
                if (!ptx_lex_next(&lx, &nt))
                    return fail(D, "%.*s: line %d: unexpected character", (int)in->name_len,
                                in->name, nt.line);
            } else if (t.kind == PTX_TOK_IDENT && !neg && width >= 4) {
                reloc r = {s->n, t.p, t.len, 0};
                if (!ptx_lex_next(&lx, &nt))
                    return fail(D, "%.*s: line %d: unexpected character", (int)in->name_len,
                                in->name, nt.line);
                if (tok_punct(&nt, '+') || tok_punct(&nt, '-')) {
                    int sub = tok_punct(&nt, '-');
                    if (!ptx_lex_next(&lx, &nt) || nt.kind != PTX_TOK_INT || nt.ival > INT32_MAX)
                        return fail(D, "%.*s: line %d: bad label offset", (int)in->name_len,
                                    in->name, nt.line);
                    r.addend = sub ? -(int64_t)nt.ival : (int64_t)nt.ival;
                    if (!ptx_lex_next(&lx, &nt))
                        return fail(D, "%.*s: line %d: unexpected character", (int)in->name_len,
                                    in->name, nt.line);
                }
                if (grow(D, (void **)&s->r, &s->rcap, s->nr + 1, sizeof *s->r))
                    return -2;
                s->r[s->nr++] = r;
            } else {
                return fail(D, "%.*s: line %d: expected a number or a label", (int)in->name_len,
                            in->name, t.line);
            }
            if (grow(D, (void **)&s->b, &s->cap, s->n + width, 1))
                return -2;
            for (unsigned k = 0; k < width; k++) /* little-endian, as the target */
                s->b[s->n++] = (unsigned char)(v >> (8 * k));
            if (!tok_punct(&nt, ','))
                break;
        }
        t = nt;
        have = 1;
        if (tok_punct(&t, ';')) /* tolerated after a directive */
            have = 0;
    }
}

/* ------------------------------------------------------------------ reading */

/* A cursor over one section's bytes [off, end). */
typedef struct cur {
    dw *D;
    const secbytes *s;
    size_t off, end;
} cur;

static int need(cur *c, size_t n)
{
    if (c->D->failed)
        return -1;
    if (c->off > c->end || c->end - c->off < n)
        return fail(c->D, "%s: truncated at byte %zu", c->s->name ? c->s->name : "section", c->off);
    return 0;
}

static uint64_t rd_n(cur *c, unsigned n)
{
    if (need(c, n))
        return 0;
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++)
        v |= (uint64_t)c->s->b[c->off + k] << (8 * k);
    c->off += n;
    return v;
}

static uint64_t rd_uleb(cur *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (need(c, 1))
            return 0;
        unsigned char b = c->s->b[c->off++];
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
        if (shift > 70) {
            fail(c->D, "%s: LEB128 too long at byte %zu", c->s->name, c->off);
            return 0;
        }
    }
}

static void skip(cur *c, uint64_t n)
{
    if (n > SIZE_MAX || need(c, (size_t)n))
        return;
    c->off += (size_t)n;
}

/* The relocation at byte off of s, or NULL (relocations are in increasing order). */
static const reloc *reloc_at(const secbytes *s, size_t off)
{
    size_t lo = 0, hi = s->nr;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->r[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nr && s->r[lo].off == off ? &s->r[lo] : NULL;
}

/* The offset into a section that reference r means (".debug_abbrev", ".debug_loc+12",
 * or a label defined in a section), or -1. */
static int64_t section_offset(const dw *D, const reloc *r)
{
    for (int i = 0; i < NSEC; i++) {
        const secbytes *s = &D->s[i];
        if (r->len == strlen(sec_names[i]) && memcmp(r->label, sec_names[i], r->len) == 0)
            return r->addend;
        for (size_t k = 0; k < s->nd; k++)
            if (s->d[k].len == r->len && memcmp(s->d[k].label, r->label, r->len) == 0)
                return (int64_t)s->d[k].off + r->addend;
    }
    return -1;
}

/* An offset field of n bytes (a section offset): the number, or where its label is. */
static int64_t rd_offset(cur *c, unsigned n)
{
    const reloc *r = reloc_at(c->s, c->off);
    uint64_t v = rd_n(c, n);
    if (r)
        return section_offset(c->D, r);
    return v > INT64_MAX ? -1 : (int64_t)v;
}

/* An address field of n bytes: the PC of its code label, or -1 (a plain number has no
 * PC: PTX has no instruction addresses). *zero: it was the number 0. */
static int rd_pc(cur *c, unsigned n, int *zero)
{
    const reloc *r = reloc_at(c->s, c->off);
    uint64_t v = rd_n(c, n);
    if (zero)
        *zero = !r && v == 0;
    if (!r || r->addend != 0 || !c->D->label)
        return -1;
    return c->D->label(c->D->ctx, r->label, r->len);
}

/* ------------------------------------------------------------ abbreviations */

typedef struct abbrev {
    uint64_t code, tag;
    int children;
    size_t attr0, nattr; /* into the attribute arrays */
} abbrev;

typedef struct abbrevs {
    abbrev *a;
    size_t n, cap;
    uint64_t *name, *form;
    int64_t *implicit;
    size_t na, acap;
} abbrevs;

static void abbrevs_free(abbrevs *A)
{
    free(A->a);
    free(A->name);
    free(A->form);
    free(A->implicit);
    memset(A, 0, sizeof *A);
}

/* Reads the abbreviation table at off of .debug_abbrev (DWARF 5 §7.5.3). */
static int read_abbrevs(dw *D, int64_t off, abbrevs *A)
{
    const secbytes *s = &D->s[S_ABBREV];
    if (off < 0 || (uint64_t)off > s->n)
        return fail(D, ".debug_abbrev: offset %lld out of range", (long long)off);
    cur c = {D, s, (size_t)off, s->n};
    for (;;) {
        uint64_t code = rd_uleb(&c);
        if (D->failed)
            return -1;
        if (code == 0)
            return 0;
        abbrev ab = {code, rd_uleb(&c), 0, A->na, 0};
        ab.children = (int)rd_n(&c, 1);
        for (;;) {
            uint64_t name = rd_uleb(&c), form = rd_uleb(&c);
            int64_t imp = 0;
            if (form == 0x21) /* DW_FORM_implicit_const: the value is here */
                imp = (int64_t)rd_uleb(&c);
            if (D->failed)
                return -1;
            if (name == 0 && form == 0)
                break;
            if (grow(D, (void **)&A->name, &A->acap, A->na + 1, sizeof *A->name))
                return -2;
            /* the three arrays share acap: grow the other two to it */
            uint64_t *nf = realloc(A->form, A->acap * sizeof *nf);
            if (!nf)
                return oom(D);
            A->form = nf;
            int64_t *ni = realloc(A->implicit, A->acap * sizeof *ni);
            if (!ni)
                return oom(D);
            A->implicit = ni;
            A->name[A->na] = name, A->form[A->na] = form, A->implicit[A->na] = imp;
            A->na++;
            ab.nattr++;
        }
        if (grow(D, (void **)&A->a, &A->cap, A->n + 1, sizeof *A->a))
            return -2;
        A->a[A->n++] = ab;
    }
}

static const abbrev *find_abbrev(const abbrevs *A, uint64_t code)
{
    if (code >= 1 && code <= A->n && A->a[code - 1].code == code)
        return &A->a[code - 1];
    for (size_t i = 0; i < A->n; i++)
        if (A->a[i].code == code)
            return &A->a[i];
    return NULL;
}

/* ------------------------------------------------------------------ DIEs */

enum {
    TAG_FORMAL_PARAMETER = 0x05,
    TAG_LEXICAL_BLOCK = 0x0b,
    TAG_INLINED_SUBROUTINE = 0x1d,
    TAG_SUBPROGRAM = 0x2e,
    TAG_VARIABLE = 0x34,
    AT_LOCATION = 0x02,
    AT_NAME = 0x03,
    AT_LOW_PC = 0x11,
    AT_HIGH_PC = 0x12,
    AT_DECL_LINE = 0x3b,
    AT_ABSTRACT_ORIGIN = 0x31,
    OP_REGX = 0x90,
};

/* What one DIE says that matters here. */
typedef struct die {
    const unsigned char *name; /* NUL-terminated within its section, or NULL */
    size_t name_len;
    int64_t origin; /* .debug_info offset of DW_AT_abstract_origin, -1 none */
    int lo, hi;     /* PCs of low_pc / high_pc, -1 unknown */
    int64_t decl_line;
    int loc_kind; /* 0 none, 1 expression (loc_off/loc_len in .debug_info),
                                  2 list at loc_off of .debug_loc */
    size_t loc_off, loc_len;
} die;

/* A NUL-terminated string at off of section s: its bytes, or NULL when it runs past the
 * end. */
static const unsigned char *str_at(dw *D, const secbytes *s, int64_t off, size_t *len)
{
    if (off < 0 || (uint64_t)off >= s->n) {
        fail(D, "%s: string offset %lld out of range", s->name ? s->name : ".debug_str",
             (long long)off);
        return NULL;
    }
    const unsigned char *p = s->b + off, *z = memchr(p, 0, s->n - (size_t)off);
    if (!z) {
        fail(D, "%s: unterminated string", s->name ? s->name : ".debug_str");
        return NULL;
    }
    *len = (size_t)(z - p);
    return p;
}

/* Reads (or skips) one attribute value of `form` into the DIE (DWARF 5 §7.5.6).
 * cu_off: the unit's offset (for CU-relative references). */
static int read_attr(cur *c, die *d, uint64_t at, uint64_t form, int64_t implicit,
                     unsigned addr_size, int version, size_t cu_off, int depth)
{
    dw *D = c->D;
    uint64_t v = 0;
    switch (form) {
    case 0x01: /* addr */
        if (at == AT_LOW_PC || at == AT_HIGH_PC) {
            int pc = rd_pc(c, addr_size, NULL);
            if (at == AT_LOW_PC)
                d->lo = pc;
            else
                d->hi = pc;
        } else {
            skip(c, addr_size);
        }
        return D->failed;
    case 0x03: skip(c, rd_n(c, 2)); return D->failed; /* block2 */
    case 0x04: skip(c, rd_n(c, 4)); return D->failed; /* block4 */
    case 0x09:                                        /* block */
    case 0x18:                                        /* exprloc */
    case 0x0a: {                                      /* block1 */
        uint64_t n = form == 0x0a ? rd_n(c, 1) : rd_uleb(c);
        if (at == AT_LOCATION && !D->failed) {
            d->loc_kind = 1;
            d->loc_off = c->off;
            d->loc_len = n > SIZE_MAX ? SIZE_MAX : (size_t)n;
        }
        skip(c, n);
        return D->failed;
    }
    case 0x05: v = rd_n(c, 2); break; /* data2 */
    case 0x0b:
    case 0x11:
    case 0x0c: v = rd_n(c, 1); break; /* data1, ref1, flag */
    case 0x06:                        /* data4 */
    case 0x17: {                      /* sec_offset */
        if (at == AT_LOCATION && (form == 0x17 || version < 4)) {
            int64_t o = rd_offset(c, 4);
            if (version < 5 && o >= 0) /* DWARF 5 lists are .debug_loclists: not read */
                d->loc_kind = 2, d->loc_off = (size_t)o;
            return D->failed;
        }
        v = rd_n(c, 4);
        break;
    }
    case 0x12: v = rd_n(c, 2); break; /* ref2 */
    case 0x13: v = rd_n(c, 4); break; /* ref4 */
    case 0x07:
    case 0x14:
    case 0x20: v = rd_n(c, 8); break; /* data8, ref8, ref_sig8 */
    case 0x08: {                      /* string */
        size_t len = 0;
        const unsigned char *p =
            c->off < c->end ? memchr(c->s->b + c->off, 0, c->end - c->off) : NULL;
        if (!p)
            return fail(D, ".debug_info: unterminated string at byte %zu", c->off);
        len = (size_t)(p - (c->s->b + c->off));
        if (at == AT_NAME)
            d->name = c->s->b + c->off, d->name_len = len;
        c->off += len + 1;
        return 0;
    }
    case 0x0d: v = rd_uleb(c); break; /* sdata (the sign does not matter here) */
    case 0x0e:                        /* strp */
    case 0x1f: {                      /* line_strp: not read */
        int64_t o = rd_offset(c, 4);
        if (at == AT_NAME && form == 0x0e && !D->failed) {
            size_t len;
            const unsigned char *p = str_at(D, &D->s[S_STR], o, &len);
            if (p)
                d->name = p, d->name_len = len;
        }
        return D->failed;
    }
    case 0x0f:
    case 0x15: v = rd_uleb(c); break; /* udata, ref_udata */
    case 0x10:                        /* ref_addr: section offset */
        v = rd_n(c, version <= 2 ? addr_size : 4);
        if (at == AT_ABSTRACT_ORIGIN)
            d->origin = (int64_t)(v & INT64_MAX);
        return D->failed;
    case 0x16: { /* indirect */
        uint64_t f = rd_uleb(c);
        if (D->failed)
            return -1;
        if (depth > 2 || f == 0x16)
            return fail(D, ".debug_info: DW_FORM_indirect chain");
        return read_attr(c, d, at, f, implicit, addr_size, version, cu_off, depth + 1);
    }
    case 0x19: v = 1; break; /* flag_present */
    case 0x1a:
    case 0x1b:
    case 0x22:
    case 0x23: rd_uleb(c); return D->failed; /* strx, addrx, loclistx, rnglistx */
    case 0x1c:
    case 0x1d: rd_n(c, 4); return D->failed;  /* ref_sup4, strp_sup */
    case 0x1e: skip(c, 16); return D->failed; /* data16 */
    case 0x21: v = (uint64_t)implicit; break; /* implicit_const */
    case 0x25:
    case 0x29: rd_n(c, 1); return D->failed; /* strx1, addrx1 */
    case 0x26:
    case 0x2a: rd_n(c, 2); return D->failed; /* strx2, addrx2 */
    case 0x27:
    case 0x2b: rd_n(c, 3); return D->failed; /* strx3, addrx3 */
    case 0x28:
    case 0x2c: rd_n(c, 4); return D->failed; /* strx4, addrx4 */
    default:
        return fail(D, ".debug_info: unknown attribute form 0x%llx at byte %zu",
                    (unsigned long long)form, c->off);
    }
    if (D->failed)
        return -1;
    if (at == AT_DECL_LINE)
        d->decl_line = (int64_t)(v & INT32_MAX);
    else if (at == AT_ABSTRACT_ORIGIN && form >= 0x11 && form <= 0x15) /* CU-relative */
        d->origin = (int64_t)((cu_off + v) & INT64_MAX);
    /* high_pc as a constant is a length in bytes (DWARF 4): PTX has none; left unknown */
    return 0;
}

/* The PTX register a location expression names: DW_OP_regx whose operand is the name
 * in ASCII, most significant byte first. 0, or -1 when it names none. */
static int expr_reg(cur c, char reg[16])
{
    if (rd_n(&c, 1) != OP_REGX || c.D->failed)
        return -1;
    uint64_t v = rd_uleb(&c);
    if (c.D->failed)
        return -1;
    char buf[9];
    int n = 0;
    for (int k = 7; k >= 0; k--) {
        unsigned char ch = (unsigned char)(v >> (8 * k));
        if (!ch && !n)
            continue;
        if (ch < 0x21 || ch > 0x7e)
            return -1;
        buf[n++] = (char)ch;
    }
    if (n < 2 || buf[0] != '%')
        return -1;
    memcpy(reg, buf, (size_t)n);
    reg[n] = '\0';
    return 0;
}

static int emit(dw *D, const die *d, const unsigned char *name, size_t name_len, int is_param,
                const char *reg, int lo, int hi)
{
    if (lo < 0 || hi < lo || !name || !name_len)
        return 0;
    size_t need_n = (size_t)D->nout + 1;
    size_t cap = (size_t)D->cap;
    if (grow(D, (void **)&D->out, &cap, need_n, sizeof *D->out))
        return -2;
    D->cap = (int)cap;
    ptx_srcvar *v = &D->out[D->nout++];
    memset(v, 0, sizeof *v);
    size_t n = name_len < sizeof v->name - 1 ? name_len : sizeof v->name - 1;
    memcpy(v->name, name, n);
    snprintf(v->reg, sizeof v->reg, "%s", reg);
    v->pc_lo = lo;
    v->pc_hi = hi;
    v->decl_line = (int32_t)d->decl_line;
    v->is_param = (uint8_t)is_param;
    return 0;
}

/* A variable's records: one for an expression over its scope [lo, hi), one per entry of
 * its .debug_loc list (DWARF 2-4 §2.6.2: begin, end, 2-byte length, expression; a 0, 0
 * pair ends it; a base-address entry is skipped, as plain addresses mean nothing here). */
static int emit_locations(dw *D, const die *d, const unsigned char *name, size_t name_len,
                          int is_param, int lo, int hi, unsigned addr_size)
{
    char reg[16];
    if (d->loc_kind == 1) {
        cur e = {D, &D->s[S_INFO], d->loc_off, d->loc_off + d->loc_len};
        if (expr_reg(e, reg) == 0)
            return emit(D, d, name, name_len, is_param, reg, lo, hi);
        return D->failed;
    }
    const secbytes *s = &D->s[S_LOC];
    if (d->loc_off > s->n)
        return fail(D, ".debug_loc: offset %zu out of range", d->loc_off);
    cur c = {D, s, d->loc_off, s->n};
    for (int guard = 0; guard < 1 << 20; guard++) {
        int z0, z1;
        int b = rd_pc(&c, addr_size, &z0), e = rd_pc(&c, addr_size, &z1);
        if (D->failed)
            return -1;
        if (z0 && z1)
            return 0;
        uint64_t n = rd_n(&c, 2);
        if (D->failed)
            return -1;
        cur x = {D, s, c.off, c.off + (size_t)n};
        skip(&c, n);
        if (D->failed)
            return -1;
        if (b >= 0 && e >= b && expr_reg(x, reg) == 0 &&
            emit(D, d, name, name_len, is_param, reg, b, e))
            return -2;
    }
    return 0;
}

/* A variable named only through DW_AT_abstract_origin, resolved after its unit. */
typedef struct pending {
    die d;
    int is_param, lo, hi;
} pending;

/* A DIE's offset and name, for DW_AT_abstract_origin. */
typedef struct named {
    size_t off;
    const unsigned char *name;
    size_t len;
} named;

enum { MAX_DEPTH = 256 };

/* Walks one compilation unit's DIEs [c.off, c.end), after its header. */
static int read_unit(dw *D, cur c, size_t cu_off, int version, unsigned addr_size, const abbrevs *A)
{
    int scope_lo[MAX_DEPTH], scope_hi[MAX_DEPTH];
    int depth = 0;
    scope_lo[0] = scope_hi[0] = -1;
    pending *pend = NULL;
    size_t npend = 0, pcap = 0;
    named *nm = NULL;
    size_t nnm = 0, ncap = 0;
    int rc = 0;
    while (c.off < c.end && !D->failed) {
        size_t die_off = c.off;
        uint64_t code = rd_uleb(&c);
        if (D->failed)
            break;
        if (code == 0) {
            if (depth > 0)
                depth--;
            continue;
        }
        const abbrev *ab = find_abbrev(A, code);
        if (!ab) {
            fail(D, ".debug_info: unknown abbreviation code %llu at byte %zu",
                 (unsigned long long)code, die_off);
            break;
        }
        die d = {.origin = -1, .lo = -1, .hi = -1};
        for (size_t k = 0; k < ab->nattr && !D->failed; k++)
            read_attr(&c, &d, A->name[ab->attr0 + k], A->form[ab->attr0 + k],
                      A->implicit[ab->attr0 + k], addr_size, version, cu_off, 0);
        if (D->failed)
            break;
        int lo = scope_lo[depth < MAX_DEPTH ? depth : MAX_DEPTH - 1];
        int hi = scope_hi[depth < MAX_DEPTH ? depth : MAX_DEPTH - 1];
        if (d.name && (ab->tag == TAG_VARIABLE || ab->tag == TAG_FORMAL_PARAMETER ||
                       ab->tag == TAG_SUBPROGRAM)) {
            if (grow(D, (void **)&nm, &ncap, nnm + 1, sizeof *nm)) {
                rc = -2;
                break;
            }
            nm[nnm++] = (named){die_off, d.name, d.name_len};
        }
        if ((ab->tag == TAG_VARIABLE || ab->tag == TAG_FORMAL_PARAMETER) && d.loc_kind) {
            int is_param = ab->tag == TAG_FORMAL_PARAMETER;
            if (d.name) {
                if (emit_locations(D, &d, d.name, d.name_len, is_param, lo, hi, addr_size)) {
                    rc = D->failed;
                    break;
                }
            } else if (d.origin >= 0) {
                if (grow(D, (void **)&pend, &pcap, npend + 1, sizeof *pend)) {
                    rc = -2;
                    break;
                }
                pend[npend++] = (pending){d, is_param, lo, hi};
            }
        }
        if (ab->children) {
            int is_scope = ab->tag == TAG_SUBPROGRAM || ab->tag == TAG_LEXICAL_BLOCK ||
                           ab->tag == TAG_INLINED_SUBROUTINE;
            int nlo = lo, nhi = hi;
            if (is_scope && d.lo >= 0 && d.hi >= d.lo)
                nlo = d.lo, nhi = d.hi;
            depth++;
            if (depth < MAX_DEPTH)
                scope_lo[depth] = nlo, scope_hi[depth] = nhi;
        }
    }
    for (size_t i = 0; i < npend && !D->failed; i++) {
        for (size_t k = 0; k < nnm; k++)
            if ((int64_t)nm[k].off == pend[i].d.origin) {
                if (emit_locations(D, &pend[i].d, nm[k].name, nm[k].len, pend[i].is_param,
                                   pend[i].lo, pend[i].hi, addr_size))
                    rc = D->failed;
                break;
            }
    }
    free(pend);
    free(nm);
    return D->failed ? D->failed : rc;
}

/* Walks every unit of .debug_info (DWARF 5 §7.5.1.1 unit headers; versions 2 to 4 put
 * the abbreviation offset before the address size). */
static int read_info(dw *D)
{
    const secbytes *s = &D->s[S_INFO];
    cur c = {D, s, 0, s->n};
    while (c.off < s->n && !D->failed) {
        size_t cu_off = c.off;
        uint64_t len = rd_n(&c, 4);
        if (D->failed)
            return -1;
        if (len >= 0xfffffff0u)
            return fail(D, ".debug_info: 64-bit DWARF is not read");
        if (len > s->n - c.off)
            return fail(D, ".debug_info: unit at byte %zu runs past the section", cu_off);
        cur u = {D, s, c.off, c.off + (size_t)len};
        c.off += (size_t)len;
        int version = (int)rd_n(&u, 2);
        unsigned addr_size;
        int64_t abbrev_off;
        if (version >= 5) {
            rd_n(&u, 1); /* unit_type */
            addr_size = (unsigned)rd_n(&u, 1);
            abbrev_off = rd_offset(&u, 4);
        } else {
            abbrev_off = rd_offset(&u, 4);
            addr_size = (unsigned)rd_n(&u, 1);
        }
        if (D->failed)
            return -1;
        if (version < 2 || version > 5)
            return fail(D, ".debug_info: DWARF version %d", version);
        if (addr_size != 4 && addr_size != 8)
            return fail(D, ".debug_info: address size %u", addr_size);
        abbrevs A = {0};
        int rc = read_abbrevs(D, abbrev_off, &A);
        if (!rc)
            rc = read_unit(D, u, cu_off, version, addr_size, &A);
        abbrevs_free(&A);
        if (rc)
            return rc;
    }
    return D->failed;
}

int ptx_dwarf_read(const ptx_dwarf_sec *secs, int nsecs, ptx_dwarf_label_fn label, void *ctx,
                   ptx_srcvar **out, int *nout, char *err, size_t errlen)
{
    *out = NULL;
    *nout = 0;
    if (err && errlen)
        err[0] = '\0';
    dw D;
    memset(&D, 0, sizeof D);
    D.label = label, D.ctx = ctx, D.err = err, D.errlen = errlen;
    int have_info = 0;
    for (int i = 0; i < nsecs && !D.failed; i++)
        for (int k = 0; k < NSEC; k++) {
            if (secs[i].name_len != strlen(sec_names[k]) ||
                memcmp(secs[i].name, sec_names[k], secs[i].name_len))
                continue;
            secbytes *s = &D.s[k];
            if (s->name) { /* a second section of the same name: not what compilers write */
                fail(&D, "%s: more than one section", sec_names[k]);
                break;
            }
            s->name = sec_names[k];
            s->name_len = secs[i].name_len;
            read_section(&D, &secs[i], s);
            have_info |= k == S_INFO;
        }
    for (int k = 0; k < NSEC; k++)
        if (!D.s[k].name)
            D.s[k].name = sec_names[k];
    if (!D.failed && have_info)
        read_info(&D);
    for (int k = 0; k < NSEC; k++) {
        free(D.s[k].b);
        free(D.s[k].r);
        free(D.s[k].d);
    }
    if (D.failed) {
        free(D.out);
        return D.failed;
    }
    *out = D.out;
    *nout = D.nout;
    return 0;
}
