/* mma.c — tensor-core instruction semantics (mma.h): modifier decoding,
 * fragment layouts and the arithmetic of mma/wmma, PTX ISA §9.7.14. */
#include "sim/mma.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ packing */

static unsigned log2u(unsigned v)
{
    unsigned l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

/* m, n: log2 - 3 (2 bits); k: log2 - 2 (3 bits); four types (4 bits each); arow, brow,
 * frag (2), satfinite, bop_and, num (log2, 2 bits), trans. The kind comes from the op. */
uint32_t mma_pack(const mma_desc *d)
{
    uint32_t b = 0;
    b |= (log2u(d->m ? d->m : 8) - 3) & 3u;
    b |= ((log2u(d->n ? d->n : 8) - 3) & 3u) << 2;
    b |= ((log2u(d->k ? d->k : 4) - 2) & 7u) << 4;
    b |= (uint32_t)(d->atype & 15) << 7;
    b |= (uint32_t)(d->btype & 15) << 11;
    b |= (uint32_t)(d->ctype & 15) << 15;
    b |= (uint32_t)(d->dtype & 15) << 19;
    b |= (uint32_t)(d->arow & 1) << 23;
    b |= (uint32_t)(d->brow & 1) << 24;
    b |= (uint32_t)(d->frag & 3) << 25;
    b |= (uint32_t)(d->satfinite & 1) << 27;
    b |= (uint32_t)(d->bop_and & 1) << 28;
    b |= (log2u(d->num ? d->num : 1) & 3u) << 29;
    b |= (uint32_t)(d->trans & 1) << 31;
    return b;
}

void mma_unpack(uint32_t b, mma_desc *d)
{
    uint8_t kind = d->kind;
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->m = (uint8_t)(8u << (b & 3u));
    d->n = (uint8_t)(8u << ((b >> 2) & 3u));
    d->k = (uint16_t)(4u << ((b >> 4) & 7u));
    d->atype = (uint8_t)((b >> 7) & 15);
    d->btype = (uint8_t)((b >> 11) & 15);
    d->ctype = (uint8_t)((b >> 15) & 15);
    d->dtype = (uint8_t)((b >> 19) & 15);
    d->arow = (uint8_t)((b >> 23) & 1);
    d->brow = (uint8_t)((b >> 24) & 1);
    d->frag = (uint8_t)((b >> 25) & 3);
    d->satfinite = (uint8_t)((b >> 27) & 1);
    d->bop_and = (uint8_t)((b >> 28) & 1);
    d->num = (uint8_t)(1u << ((b >> 29) & 3u));
    d->trans = (uint8_t)(b >> 31);
}

/* ------------------------------------------------------------------ decoding */

static const char *const type_names[] = {"",   "f16", "bf16", "tf32", "f32", "f64",  "s8",  "u8",
                                         "s4", "u4",  "b1",   "s32",  "b16", "e4m3", "e5m2"};

static int is_word(const char *q, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(q, w, n) == 0;
}

/* "m16n8k16" -> 16, 8, 16; "m8n8" -> 8, 8, 0. Returns 0 when q is no shape. */
static int parse_shape(const char *q, size_t n, unsigned *m, unsigned *nn, unsigned *k)
{
    char buf[24];
    if (n == 0 || n >= sizeof buf || q[0] != 'm')
        return 0;
    memcpy(buf, q, n);
    buf[n] = 0;
    char tail = 0;
    *k = 0;
    if (sscanf(buf, "m%un%uk%u%c", m, nn, k, &tail) == 3)
        return 1;
    *k = 0;
    return sscanf(buf, "m%un%u%c", m, nn, &tail) == 2;
}

/* Whether (atype, m, n, k) is an mma.sync shape of PTX ISA §9.7.14.5.1 the simulator
 * implements. */
static int mma_shape_ok(int at, unsigned m, unsigned n, unsigned k)
{
    if (at == MMA_T_F16)
        return (m == 16 && n == 8 && (k == 8 || k == 16)) || (m == 8 && n == 8 && k == 4);
    if (at == MMA_T_BF16)
        return m == 16 && n == 8 && (k == 8 || k == 16);
    if (at == MMA_T_TF32)
        return m == 16 && n == 8 && (k == 4 || k == 8);
    if (at == MMA_T_F64) /* m16n8k4/k8/k16: sm_90 */
        return (m == 8 && n == 8 && k == 4) || (m == 16 && n == 8 && (k == 4 || k == 8 || k == 16));
    if (at == MMA_T_E4M3 || at == MMA_T_E5M2) /* sm_89 */
        return m == 16 && n == 8 && k == 32;
    const unsigned kb = at == MMA_T_S8 || at == MMA_T_U8   ? 16
                        : at == MMA_T_S4 || at == MMA_T_U4 ? 32
                        : at == MMA_T_B1                   ? 128
                                                           : 0;
    if (!kb)
        return 0;
    return (m == 8 && n == 8 && k == kb) || (m == 16 && n == 8 && (k == kb || k == 2 * kb));
}

/* The same for mma.sp (PTX ISA §9.7.14.6.1 "Sparse matrix storage"): twice the dense
 * K of m16n8. */
static int mma_sp_shape_ok(int at, unsigned m, unsigned n, unsigned k)
{
    if (m != 16 || n != 8)
        return 0;
    switch (at) {
    case MMA_T_F16:
    case MMA_T_BF16: return k == 16 || k == 32;
    case MMA_T_TF32: return k == 8 || k == 16;
    case MMA_T_S8:
    case MMA_T_U8: return k == 32 || k == 64;
    case MMA_T_S4:
    case MMA_T_U4: return k == 64 || k == 128;
    case MMA_T_E4M3:
    case MMA_T_E5M2: return k == 64;
    default: return 0;
    }
}

/* The same for wmma (PTX ISA §9.7.14.4.1 Table "Matrix shapes and types"). */
static int wmma_shape_ok(int at, unsigned m, unsigned n, unsigned k)
{
    const int big = (m == 16 && n == 16 && k == 16) || (m == 32 && n == 8 && k == 16) ||
                    (m == 8 && n == 32 && k == 16);
    switch (at) {
    case MMA_T_F16:
    case MMA_T_BF16:
    case MMA_T_S8:
    case MMA_T_U8: return big;
    case MMA_T_TF32: return m == 16 && n == 16 && k == 8;
    case MMA_T_F64: return m == 8 && n == 8 && k == 4;
    case MMA_T_S4:
    case MMA_T_U4: return m == 8 && n == 8 && k == 32;
    case MMA_T_B1: return m == 8 && n == 8 && k == 128;
    default: return 0;
    }
}

static int is_fp8(int t)
{
    return t == MMA_T_E4M3 || t == MMA_T_E5M2;
}

static int is_int_type(int t)
{
    return t == MMA_T_S8 || t == MMA_T_U8 || t == MMA_T_S4 || t == MMA_T_U4 || t == MMA_T_B1;
}

static unsigned type_bits(int t);

/* Whether the types of an mma/wmma.mma go together (PTX ISA §9.7.14.5.1 and §9.7.14.4.1
 * tables): integer A and B of one width (signedness may differ; b1 with b1) into s32;
 * f64 only with f64; f16 into f16 or f32; bf16 and tf32, A and B alike, into f32; fp8
 * (.e4m3 and .e5m2, mixed or not) into f32. */
static int types_ok(const mma_desc *d)
{
    const int at = d->atype, bt = d->btype;
    if (is_fp8(at) || is_fp8(bt))
        return is_fp8(at) && is_fp8(bt) && d->ctype == MMA_T_F32 && d->dtype == MMA_T_F32;
    if (is_int_type(at) || is_int_type(bt))
        return is_int_type(at) && is_int_type(bt) && type_bits(at) == type_bits(bt) &&
               d->ctype == MMA_T_S32 && d->dtype == MMA_T_S32;
    if (at != bt)
        return 0;
    if (at == MMA_T_F64)
        return d->ctype == MMA_T_F64 && d->dtype == MMA_T_F64;
    if (at == MMA_T_F16)
        return (d->ctype == MMA_T_F32 || d->ctype == MMA_T_F16) &&
               (d->dtype == MMA_T_F32 || d->dtype == MMA_T_F16);
    return (at == MMA_T_BF16 || at == MMA_T_TF32) && d->ctype == MMA_T_F32 && d->dtype == MMA_T_F32;
}

int mma_decode(const char *mn, size_t len, mma_desc *d, int *space, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    *space = 0;
    const char *end = mn + len, *p = memchr(mn, '.', len);
    const size_t blen = p ? (size_t)(p - mn) : len;
    int types[4], ntypes = 0, nlayout = 0, sub = 0;
    unsigned m = 0, n = 0, k = 0;
    if (is_word(mn, blen, "mma"))
        d->kind = MMA_K_MMA;
    else if (is_word(mn, blen, "wmma"))
        d->kind = 0; /* from the next modifier */
    else if (is_word(mn, blen, "ldmatrix"))
        d->kind = MMA_K_LDMATRIX;
    else if (is_word(mn, blen, "stmatrix"))
        d->kind = MMA_K_STMATRIX;
    else if (is_word(mn, blen, "movmatrix"))
        d->kind = MMA_K_MOVMATRIX;
    else {
        snprintf(err, errlen, "not a tensor-core instruction");
        return 0;
    }
    while (p && p < end) {
        const char *q = p + 1, *e = memchr(q, '.', (size_t)(end - q));
        if (!e)
            e = end;
        const size_t nq = (size_t)(e - q);
        int t = -1;
        for (int i = 1; i < (int)(sizeof type_names / sizeof type_names[0]); i++)
            if (is_word(q, nq, type_names[i]))
                t = i;
        if (d->kind == 0 && !sub) {
            if (is_word(q, nq, "load"))
                d->kind = MMA_K_WLOAD;
            else if (is_word(q, nq, "store"))
                d->kind = MMA_K_WSTORE;
            else if (is_word(q, nq, "mma"))
                d->kind = MMA_K_WMMA;
            else
                break;
            sub = d->kind != MMA_K_WMMA;
        } else if (sub == 1 && nq == 1 &&
                   (q[0] == 'a' || q[0] == 'b' || q[0] == 'c' || q[0] == 'd')) {
            if ((d->kind == MMA_K_WLOAD) != (q[0] != 'd'))
                break;
            d->frag = q[0] == 'a' ? MMA_A : q[0] == 'b' ? MMA_B : MMA_C;
            sub = 2;
        } else if (t > 0) {
            if (ntypes == 4)
                break;
            types[ntypes++] = t;
        } else if (d->kind == MMA_K_MMA && !d->sparse && p == mn + blen &&
                   (is_word(q, nq, "sp") || is_word(q, nq, "sp::ordered_metadata"))) {
            d->sparse = nq == 2 ? 1 : 2;
        } else if (is_word(q, nq, "sync") || is_word(q, nq, "aligned") || is_word(q, nq, "popc") ||
                   is_word(q, nq, "rn")) {
            /* required spellings; popc goes with .xor/.and; f64 rounds to nearest */
        } else if (is_word(q, nq, "row") || is_word(q, nq, "col")) {
            if (nlayout == 2)
                break;
            if (nlayout++ == 0)
                d->arow = q[0] == 'r';
            else
                d->brow = q[0] == 'r';
        } else if (parse_shape(q, nq, &m, &n, &k)) {
            /* checked below */
        } else if (is_word(q, nq, "satfinite")) {
            d->satfinite = 1;
        } else if (is_word(q, nq, "xor") || is_word(q, nq, "and")) {
            d->bop_and = q[0] == 'a';
        } else if (nq == 2 && q[0] == 'x' && (q[1] == '1' || q[1] == '2' || q[1] == '4')) {
            d->num = (uint8_t)(q[1] - '0');
        } else if (is_word(q, nq, "trans")) {
            d->trans = 1;
        } else if (is_word(q, nq, "global")) {
            *space = 1;
        } else if (is_word(q, nq, "shared") || is_word(q, nq, "shared::cta")) {
            *space = 2;
        } else {
            break;
        }
        p = e;
    }
    if (p && p < end) {
        const char *q = p + 1, *e = memchr(q, '.', (size_t)(end - q));
        snprintf(err, errlen, "unsupported modifier '.%.*s'", (int)((e ? e : end) - q), q);
        return 0;
    }
    d->m = (uint8_t)m;
    d->n = (uint8_t)n;
    d->k = (uint16_t)k;
    switch (d->kind) {
    case MMA_K_MMA:
        if (ntypes != 4 || nlayout != 2) {
            snprintf(err, errlen,
                     "mma.sync needs .row.col and four types (.dtype.atype.btype"
                     ".ctype)");
            return 0;
        }
        d->dtype = (uint8_t)types[0];
        d->atype = (uint8_t)types[1];
        d->btype = (uint8_t)types[2];
        d->ctype = (uint8_t)types[3];
        if (d->sparse && (!d->arow || d->brow)) {
            snprintf(err, errlen, "mma.sp needs .row.col (PTX ISA §9.7.14.6.5)");
            return 0;
        }
        if (!(d->sparse ? mma_sp_shape_ok : mma_shape_ok)(d->atype, m, n, k))
            goto bad_shape;
        break;
    case MMA_K_WMMA:
        if (nlayout != 2 || (ntypes != 2 && ntypes != 4)) {
            snprintf(err, errlen, "wmma.mma needs .alayout.blayout and two or four types");
            return 0;
        }
        d->dtype = (uint8_t)types[0];
        if (ntypes == 2) { /* .dtype.ctype: f16 inputs */
            d->atype = d->btype = MMA_T_F16;
            d->ctype = (uint8_t)types[1];
        } else {
            d->atype = (uint8_t)types[1];
            d->btype = (uint8_t)types[2];
            d->ctype = (uint8_t)types[3];
        }
        if (!wmma_shape_ok(d->atype, m, n, k))
            goto bad_shape;
        break;
    case MMA_K_WLOAD:
    case MMA_K_WSTORE:
        if (sub != 2 || nlayout != 1 || ntypes != 1) {
            snprintf(err, errlen,
                     "wmma.load/store needs a matrix (.a .b .c / .d), a layout "
                     "and one type");
            return 0;
        }
        if (d->frag == MMA_A)
            d->atype = (uint8_t)types[0];
        else if (d->frag == MMA_B)
            d->btype = (uint8_t)types[0];
        else
            d->ctype = d->dtype = (uint8_t)types[0];
        {
            /* the shape's input type: for .c/.d any that the shape allows */
            int at = d->frag == MMA_A ? d->atype : d->frag == MMA_B ? d->btype : MMA_T_F16;
            if (d->frag == MMA_C && d->ctype == MMA_T_F64)
                at = MMA_T_F64;
            else if (d->frag == MMA_C && d->ctype == MMA_T_S32)
                at = !(m == 8 && n == 8) ? MMA_T_S8 : k == 32 ? MMA_T_S4 : MMA_T_B1;
            else if (d->frag == MMA_C && k == 8)
                at = MMA_T_TF32;
            if (!wmma_shape_ok(at, m, n, k))
                goto bad_shape;
        }
        break;
    case MMA_K_LDMATRIX:
    case MMA_K_STMATRIX:
        if (m != 8 || n != 8 || k != 0 || !d->num || ntypes != 1 || types[0] != MMA_T_B16) {
            snprintf(err, errlen, "only the .m8n8 .x1/.x2/.x4 .b16 form is implemented");
            return 0;
        }
        d->dtype = MMA_T_B16;
        break;
    case MMA_K_MOVMATRIX:
        if (m != 8 || n != 8 || k != 0 || !d->trans || ntypes != 1 || types[0] != MMA_T_B16) {
            snprintf(err, errlen, "movmatrix needs .m8n8.trans.b16");
            return 0;
        }
        d->dtype = MMA_T_B16;
        d->num = 1;
        break;
    default: snprintf(err, errlen, "wmma needs .load, .store or .mma"); return 0;
    }
    if ((d->kind == MMA_K_MMA || d->kind == MMA_K_WMMA) && !types_ok(d)) {
        snprintf(err, errlen, "unsupported combination of types");
        return 0;
    }
    return 1;
bad_shape:
    snprintf(err, errlen, "unsupported shape .m%un%uk%u for these types", m, n, k);
    return 0;
}

/* ------------------------------------------------------------------ fragments */

static unsigned type_bits(int t)
{
    switch (t) {
    case MMA_T_F16:
    case MMA_T_BF16:
    case MMA_T_B16: return 16;
    case MMA_T_TF32:
    case MMA_T_F32:
    case MMA_T_S32: return 32;
    case MMA_T_F64: return 64;
    case MMA_T_S8:
    case MMA_T_U8:
    case MMA_T_E4M3:
    case MMA_T_E5M2: return 8;
    case MMA_T_S4:
    case MMA_T_U4: return 4;
    case MMA_T_B1: return 1;
    default: return 32;
    }
}

unsigned mma_elem_bits(const mma_desc *d, int which)
{
    return type_bits(which == MMA_A   ? d->atype
                     : which == MMA_B ? d->btype
                     : which == MMA_C ? d->ctype
                                      : d->dtype);
}

/* Elements per register (64-bit registers for f64). */
static unsigned epr(unsigned bits)
{
    return bits >= 32 ? 1 : 32 / bits;
}

/* Registers the layout needs for A or B (without wmma's f16 copies). */
static int unique_regs(const mma_desc *d, int which)
{
    const unsigned e = epr(mma_elem_bits(d, which));
    return (int)((which == MMA_A ? d->m : d->n) * d->k / (32 * e));
}

int mma_quad_pair(const mma_desc *d)
{
    return d->kind == MMA_K_MMA && d->m == 8 && d->k == 4 && d->atype == MMA_T_F16;
}

int mma_nregs(const mma_desc *d, int which)
{
    if (d->kind == MMA_K_LDMATRIX || d->kind == MMA_K_STMATRIX || d->kind == MMA_K_MOVMATRIX)
        return d->num;
    if (mma_quad_pair(d)) /* A, B: .f16x2 x 2; C, D: .f16x2 x 4 or .f32 x 8 */
        return which == MMA_A || which == MMA_B ? 2 : mma_elem_bits(d, which) == 16 ? 4 : 8;
    if (which == MMA_A || which == MMA_B) {
        const int t = which == MMA_A ? d->atype : d->btype;
        if (t == MMA_T_F16 && d->kind != MMA_K_MMA)
            return 8; /* wmma: .f16x2 x 8 for every shape (§9.7.14.4.1) */
        if (d->sparse && which == MMA_A) {
            const mma_desc dd = mma_sp_dense(d);
            return unique_regs(&dd, which);
        }
        return unique_regs(d, which);
    }
    const unsigned e = epr(mma_elem_bits(d, which));
    return (int)(d->m * d->n / 32 / e);
}

/* The quad-pair layouts (mma_quad_pair) of element i of the lane's list, PTX ISA
 * §9.7.14.5.1: t = %laneid % 4, hi = 4 for lanes 16 and up. */
static void quad_pair_pos(const mma_desc *d, int which, unsigned lane, int i, int *row, int *col)
{
    const int t = (int)(lane & 3), hi = lane >= 16 ? 4 : 0;
    if (which == MMA_A) {
        *row = d->arow ? t + hi : i + hi;
        *col = d->arow ? i : t;
    } else if (which == MMA_B) {
        *row = d->brow ? t : i;
        *col = d->brow ? i + hi : t + hi;
    } else if (mma_elem_bits(d, which) == 16) {
        *row = t + hi;
        *col = i;
    } else {
        *row = (int)(lane & 1) + (i & 2) + hi;
        *col = (int)(lane & 2) + (i & 1) + (i & 4);
    }
}

void mma_frag_pos(const mma_desc *d, int which, unsigned lane, int r, int j, int *row, int *col)
{
    const int g = (int)(lane >> 2), t = (int)(lane & 3);
    if (mma_quad_pair(d)) {
        quad_pair_pos(d, which, lane, r * (mma_elem_bits(d, which) == 16 ? 2 : 1) + j, row, col);
        return;
    }
    if (which == MMA_A || which == MMA_B) {
        const int e = (int)epr(mma_elem_bits(d, which));
        const int kh = d->k / (4 * e); /* register columns of k: 1 or 2 */
        r %= unique_regs(d, which);    /* wmma f16: the extra registers are copies */
        const int kk = t * e + j;
        if (which == MMA_A) {
            if (d->m >= 16) {
                const int per = 2 * kh, tile = r / per, rr = r % per;
                *row = tile * 16 + g + 8 * (rr & 1);
                *col = kk + (rr >> 1) * 4 * e;
            } else {
                *row = g;
                *col = kk + r * 4 * e;
            }
        } else {
            *row = kk + (r % kh) * 4 * e;
            *col = (r / kh) * 8 + g;
        }
        return;
    }
    const int ec = (int)epr(mma_elem_bits(d, which));
    const int i = r * ec + j, q = i >> 1;
    if (d->m >= 16) {
        const int rest = q >> 1, nt = d->n / 8;
        *row = (rest / nt) * 16 + (q & 1) * 8 + g;
        *col = (rest % nt) * 8 + 2 * t + (i & 1);
    } else {
        *row = g;
        *col = q * 8 + 2 * t + (i & 1);
    }
}

mma_desc mma_sp_dense(const mma_desc *d)
{
    mma_desc dd = *d;
    dd.k = (uint16_t)(d->k / 2);
    dd.sparse = 0;
    dd.sel = 0;
    return dd;
}

int mma_sp_chunk(const mma_desc *d)
{
    const unsigned bits = type_bits(d->atype);
    return bits == 32 ? 2 : bits == 4 ? 8 : 4;
}

/* Metadata bits of one row of A: a 4-bit field per chunk. */
static int sp_row_bits(const mma_desc *d)
{
    return 4 * d->k / mma_sp_chunk(d);
}

int mma_sp_selectors(const mma_desc *d)
{
    if (d->atype == MMA_T_F16) /* ptxas takes 0 ... 3 for k32 too */
        return 4;
    return sp_row_bits(d) == 16 ? 4 : 64 / sp_row_bits(d);
}

int mma_sp_selector_runs(const mma_desc *d)
{
    return d->sel < (sp_row_bits(d) == 16 ? 4 : 64 / sp_row_bits(d));
}

void mma_sp_meta_pos(const mma_desc *d, int row, int chunk, unsigned *lane, int *bit)
{
    /* the quad of lanes 4g ... 4g+3 holds the fields of rows g and g + 8: the nl of its
     * lanes from nl * sel on, 2 * row_bits bits in all */
    const int nl = 2 * sp_row_bits(d) / 32, g = row % 8, hi = row / 8;
    if (type_bits(d->atype) >= 16) {
        /* 16- and 32-bit types: lane i has chunks 4i ... 4i+3, row g in its low 16 bits
         * and row g + 8 in its high 16 */
        *lane = (unsigned)(4 * g + nl * d->sel + chunk / 4);
        *bit = 16 * hi + 4 * (chunk % 4);
    } else {
        /* 8- and 4-bit types: a lane holds one row's chunks 8i ... 8i+7: row g in lanes
         * 0 and 2 of the selected ones, row g + 8 in lanes 1 and 3 */
        *lane = (unsigned)(4 * g + nl * d->sel + hi + 2 * (chunk / 8));
        *bit = 4 * (chunk % 8);
    }
}

void mma_ldm_pos(int trans, unsigned lane, int j, int *row, int *col)
{
    const int r = (int)(lane / 4), c = 2 * (int)(lane % 4) + j;
    *row = trans ? c : r;
    *col = trans ? r : c;
}

/* ------------------------------------------------------------------ arithmetic */

/* Per input type (f16, bf16, tf32), from MMA-Sim's measurements (mma.h); fp8: measured
 * on an H100 (mma_fp8_order); on Ada (sm_89) assumed. */
static const mma_fp_model hopper_models[4] = {{16, 25}, {16, 25}, {8, 25}, {16, 25}};
static const mma_fp_model ampere_models[4] = {{8, 24}, {8, 24}, {4, 24}, {32, 13}};

mma_fp_model mma_model(int atype)
{
    const int idx = atype == MMA_T_BF16 ? 1 : atype == MMA_T_TF32 ? 2 : is_fp8(atype) ? 3 : 0;
    const char *env = getenv("GPULEARN_MMA_MODEL");
    const mma_fp_model *table = env && !strncmp(env, "ampere", 6) ? ampere_models : hopper_models;
    mma_fp_model md = table[idx];
    static const int names[4] = {MMA_T_F16, MMA_T_BF16, MMA_T_TF32, MMA_T_E4M3};
    const char *name = type_names[names[idx]];
    for (const char *p = env; p && *p;) {
        const size_t nl = strlen(name);
        int b, f;
        if (!strncmp(p, name, nl) && p[nl] == ':' && sscanf(p + nl + 1, "%d,%d", &b, &f) == 2 &&
            b >= 1 && b <= 32 && f >= 10 && f <= 40) {
            md.block = b;
            md.frac_bits = f;
        }
        p = strchr(p, ';');
        if (p)
            p++;
    }
    return md;
}

static double half_to_double(uint64_t h)
{
    const unsigned s = (unsigned)(h >> 15) & 1, e = (unsigned)(h >> 10) & 31, f = h & 1023;
    double v;
    if (e == 31)
        v = f ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)f, -24);
    else
        v = ldexp((double)(f | 1024), (int)e - 25);
    return s ? -v : v;
}

static float bits_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* An fp8 element as a double (PTX ISA §5.2.5.2 "Alternate Floating Point Data Formats"):
 * .e4m3 bias 7, no inf, S.1111.111 NaN; .e5m2 bias 15 with IEEE inf and NaN. */
static double fp8_to_double(int t, unsigned v)
{
    const int e4 = t == MMA_T_E4M3, fb = e4 ? 3 : 2, emax = e4 ? 15 : 31;
    const unsigned e = (v & 0x7f) >> fb, f = v & ((1u << fb) - 1);
    double x;
    if (e4 && e == 15 && f == 7)
        x = NAN;
    else if (!e4 && e == 31)
        x = f ? NAN : INFINITY;
    else if (e == 0)
        x = ldexp((double)f, (e4 ? -6 : -14) - fb);
    else
        x = ldexp((double)(f | 1u << fb), (int)e - (emax >> 1) - fb);
    return v & 0x80 ? -x : x;
}

/* An input element as a double (exact for every input type). tf32: the PTX ISA leaves
 * the 13 low significand bits of a .tf32 operand unused (§9.7.14.1); they are ignored. */
static double fp_in(int t, uint64_t v)
{
    switch (t) {
    case MMA_T_F16: return half_to_double(v & 0xffff);
    case MMA_T_BF16: return (double)bits_f32((uint32_t)(v & 0xffff) << 16);
    case MMA_T_TF32: return (double)bits_f32((uint32_t)v & 0xffffe000u);
    case MMA_T_F32: return (double)bits_f32((uint32_t)v);
    case MMA_T_E4M3:
    case MMA_T_E5M2: return fp8_to_double(t, (unsigned)(v & 0xff));
    default: {
        double x;
        memcpy(&x, &v, 8);
        return x;
    }
    }
}

static int64_t int_in(int t, uint64_t v)
{
    switch (t) {
    case MMA_T_S8: return (int8_t)(uint8_t)v;
    case MMA_T_U8: return (uint8_t)v;
    case MMA_T_S4: return (int64_t)((v & 15) ^ 8) - 8;
    case MMA_T_U4: return (int64_t)(v & 15);
    case MMA_T_B1: return (int64_t)(v & 1);
    default: return (int32_t)(uint32_t)v;
    }
}

/* x -> f16 bits, rounded to nearest even (subnormals on the 2^-24 grid, overflow to
 * inf); x is not NaN. */
static uint16_t half_rne(double x)
{
    const uint16_t s = signbit(x) ? 0x8000 : 0;
    const double a = fabs(x);
    if (isinf(a))
        return s | 0x7c00;
    if (a < ldexp(1.0, -14))
        return s | (uint16_t)nearbyint(a * 16777216.0); /* 1024 is the smallest normal */
    int e;
    double sig = nearbyint(frexp(a, &e) * 2048.0); /* a = sig 2^(e - 11), sig in [1024, 2048] */
    if (sig == 2048.0) {
        sig = 1024.0;
        e++;
    }
    if (e + 14 >= 31)
        return s | 0x7c00;
    return s | (uint16_t)(((unsigned)(e + 14) << 10) | ((unsigned)sig - 1024));
}

/* x -> f32 toward zero (subnormals on the 2^-149 grid; 2^128 and above: inf). */
static float f32_rz(double x)
{
    if (fabs(x) >= ldexp(1.0, 128))
        return x > 0 ? INFINITY : -INFINITY;
    float f = (float)x;
    if (fabs((double)f) > fabs(x))
        f = nextafterf(f, 0.0f);
    return f;
}

/* x = sig 2^e with sig in [1, 2), or below 1 at e = emin (the format's smallest normal
 * exponent: a subnormal); zero: sig 0, e -999 (MMA-Sim's extract_significand_exponent). */
static double sig_exp(double x, int emin, int *e)
{
    if (x == 0) {
        *e = -999;
        return 0;
    }
    int ex;
    double m = frexp(x, &ex) * 2;
    ex--;
    if (ex < emin) {
        m = ldexp(m, ex - emin);
        ex = emin;
    }
    *e = ex;
    return m;
}

static int emin_of(int t)
{
    /* bf16 and tf32 have f32's exponent range */
    return t == MMA_T_F16 || t == MMA_T_E5M2 ? -14 : t == MMA_T_E4M3 ? -6 : -126;
}

/* One fused addition (mma.h): c (already in D's type, value cv) plus the products
 * a[i] b[i] of types at and bt, i < n; the result in D's type (f16: 16-bit pattern; f32:
 * bits). */
static uint32_t fused(double cv, int dtype, int at, int bt, const double *a, const double *b, int n,
                      const mma_fp_model *md)
{
    double exact = cv; /* NaN and inf decide alone, as in double arithmetic */
    for (int i = 0; i < n; i++)
        exact += a[i] * b[i];
    if (isnan(exact))
        return dtype == MMA_T_F16 ? 0x7fffu : 0x7fffffffu;
    if (isinf(exact))
        return dtype == MMA_T_F16 ? (exact > 0 ? 0x7c00u : 0xfc00u)
                                  : (exact > 0 ? 0x7f800000u : 0xff800000u);
    double sig[33];
    int ex[33], emax = -999;
    sig[0] = sig_exp(cv, emin_of(dtype == MMA_T_F16 ? MMA_T_F16 : MMA_T_F32), &ex[0]);
    for (int i = 0; i < n; i++) {
        int ea, eb;
        const double sa = sig_exp(a[i], emin_of(at), &ea), sb = sig_exp(b[i], emin_of(bt), &eb);
        sig[i + 1] = sa * sb;
        ex[i + 1] = ea + eb;
    }
    for (int i = 0; i <= n; i++)
        emax = ex[i] > emax ? ex[i] : emax;
    double sum = 0; /* integers below 2^(frac_bits + 7): exact */
    for (int i = 0; i <= n; i++)
        sum += trunc(ldexp(sig[i], md->frac_bits + ex[i] - emax));
    const double x = ldexp(sum, emax - md->frac_bits);
    return dtype == MMA_T_F16 ? half_rne(x) : f32_bits(f32_rz(x));
}

/* The k order of an fp8 mma.m16n8k32 on an H100 (measured: corpus
 * mma_m16n8k32_{e4m3,e5m2_e4m3}_{exact,float}, fitted by tools/mma_fp8_model.py): it
 * computes as two m16n8k16 .f16 steps on the inputs converted to f16 (exact), the first
 * on bytes 0 and 1 of each A/B register (k % 4 < 2), the second on bytes 2 and 3; each
 * step one fused addition of the f16 model (16 products, 25 bits, f32 truncated) from 0,
 * then C added by one f32 addition rounded to nearest. Entry i is the i-th k. */
static int mma_fp8_order(int i)
{
    return i < 16 ? (i >> 1) * 4 + (i & 1) : ((i - 16) >> 1) * 4 + 2 + (i & 1);
}

/* D = A * B + C with fp8 A and B (mma_fp8_order), the f32 result's bits. */
static uint32_t fp8_dot(const mma_desc *d, const mma_fp_model *md, const uint64_t *A,
                        const uint64_t *B, int i, int j, double c)
{
    const int K = d->k, N = d->n;
    uint32_t acc = 0;
    for (int k0 = 0; k0 < K; k0 += md->block) {
        double a[32], b[32];
        int np = 0;
        for (int q = k0; q < K && q < k0 + md->block; q++, np++) {
            const int kk = mma_fp8_order(q);
            a[np] = fp_in(d->atype, A[i * K + kk]);
            b[np] = fp_in(d->btype, B[kk * N + j]);
        }
        /* the f16 copies' exponent range */
        acc = fused(bits_f32(acc), MMA_T_F32, MMA_T_F16, MMA_T_F16, a, b, np, md);
    }
    const float r = bits_f32(acc) + (float)c;
    return isnan(r) ? 0x7fffffffu : f32_bits(r);
}

void mma_compute_model(const mma_desc *d, const mma_fp_model *md, const uint64_t *A,
                       const uint64_t *B, const uint64_t *C, uint64_t *D)
{
    const int M = d->m, N = d->n, K = d->k;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            const uint64_t c = C[i * N + j];
            uint64_t *out = &D[i * N + j];
            if (is_int_type(d->atype)) {
                int64_t acc = (int32_t)(uint32_t)c;
                for (int kk = 0; kk < K; kk++) {
                    const uint64_t a = A[i * K + kk], b = B[kk * N + j];
                    if (d->atype == MMA_T_B1)
                        acc += (int64_t)((d->bop_and ? a & b : a ^ b) & 1);
                    else
                        acc += int_in(d->atype, a) * int_in(d->btype, b);
                }
                if (d->satfinite)
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                *out = (uint32_t)acc;
            } else if (is_fp8(d->atype)) {
                *out = fp8_dot(d, md, A, B, i, j, fp_in(MMA_T_F32, c));
            } else if (d->atype == MMA_T_F64) {
                double acc = fp_in(MMA_T_F64, c);
                for (int kk = 0; kk < K; kk++)
                    acc =
                        fma(fp_in(MMA_T_F64, A[i * K + kk]), fp_in(MMA_T_F64, B[kk * N + j]), acc);
                memcpy(out, &acc, 8);
            } else {
                /* C converted to D's type (MMA-Sim: C[i][j].to(d_type)), then block by
                 * block, each result in D's type */
                const double c0 = fp_in(d->ctype == MMA_T_F16 ? MMA_T_F16 : MMA_T_F32, c);
                uint32_t acc = d->dtype == MMA_T_F16 ? (isnan(c0) ? 0x7fffu : half_rne(c0))
                                                     : f32_bits((float)c0);
                for (int k0 = 0; k0 < K; k0 += md->block) {
                    double a[32], b[32];
                    int np = 0;
                    for (int kk = k0; kk < K && kk < k0 + md->block; kk++, np++) {
                        a[np] = fp_in(d->atype, A[i * K + kk]);
                        b[np] = fp_in(d->btype, B[kk * N + j]);
                    }
                    const double cv = fp_in(d->dtype == MMA_T_F16 ? MMA_T_F16 : MMA_T_F32, acc);
                    acc = fused(cv, d->dtype, d->atype, d->btype, a, b, np, md);
                }
                *out = acc;
            }
        }
}

/* mma.m8n8k4 .f16 (mma_quad_pair) as an H100 gives it (measured: corpus
 * mma_m8n8k4_f16_f32_rc_float and mma_m8n8k4_f16_f16_cr_float, fitted by
 * tools/mma_m8n8k4_model.py): not one fused addition but a chain of f32 fma, rounded to
 * nearest at each step, over k = 0 ... 3. With an f32 D the chain starts from 0 and C is
 * added last (one f32 addition); with an f16 D it starts from C and the f32 result is
 * rounded to f16 (nearest even). NaN results are the canonical NaN. */
static void quad_pair_compute(const mma_desc *d, const uint64_t *A, const uint64_t *B,
                              const uint64_t *C, uint64_t *D)
{
    const int f16d = d->dtype == MMA_T_F16, ct = d->ctype == MMA_T_F16 ? MMA_T_F16 : MMA_T_F32;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            const float c = (float)fp_in(ct, C[i * 8 + j]);
            float acc = f16d ? c : 0.0f;
            for (int kk = 0; kk < 4; kk++)
                acc = fmaf((float)fp_in(MMA_T_F16, A[i * 4 + kk]),
                           (float)fp_in(MMA_T_F16, B[kk * 8 + j]), acc);
            if (!f16d)
                acc += c;
            D[i * 8 + j] = f16d ? (isnan(acc) ? 0x7fffu : half_rne(acc))
                                : (isnan(acc) ? 0x7fffffffu : f32_bits(acc));
        }
}

void mma_compute(const mma_desc *d, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                 uint64_t *D)
{
    if (mma_quad_pair(d)) {
        quad_pair_compute(d, A, B, C, D);
        return;
    }
    mma_fp_model md = mma_model(d->atype);
    /* wmma.mma m16n16k8 .tf32 adds its 8 products in two fused additions of 4, as two
     * m16n8k4 steps (measured on an H100: corpus wmma_m16n16k8_tf32_rc_float, fitted by
     * tools/wmma_tf32_model.py), where mma.sync m16n8k8 .tf32 fuses all 8 */
    if (d->kind == MMA_K_WMMA && d->atype == MMA_T_TF32 && md.block > 4)
        md.block = 4;
    mma_compute_model(d, &md, A, B, C, D);
}
