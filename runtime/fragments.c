/* fragments.c — the fragment layouts of a tensor-core instruction of a run, from the
 * simulator's layout functions (sim/mma.h), and the values its trace recorded. */
#include "runtime/fragments.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/mma.h"
#include "sim/ptx/ptx.h"
#include "sim/sim.h"

int gl_fragments_is_tensor(const trace_insn *ti)
{
    return ti && (ti->flags & TRACE_INSN_FRAGMENTS) != 0;
}

/* The last module parsed (the view asks for the same run's PTX on every frame). */
static struct {
    ptx_module_t *m;
    char *text;
} g_cache;

static const ptx_module *module_of(const char *ptx)
{
    if (g_cache.m && strcmp(g_cache.text, ptx) == 0)
        return g_cache.m;
    ptx_module_free(g_cache.m);
    free(g_cache.text);
    g_cache.m = NULL;
    g_cache.text = NULL;
    char *diag = NULL;
    ptx_module_t *m = NULL;
    sim_status st = ptx_parse(ptx, strlen(ptx), "kernel.ptx", &m, &diag);
    free(diag);
    char *copy = st == SIM_OK ? strdup(ptx) : NULL;
    if (!copy) {
        ptx_module_free(m);
        return NULL;
    }
    g_cache.m = m;
    g_cache.text = copy;
    return m;
}

static const char *type_name(int t)
{
    static const char *const names[] = {
        [MMA_T_NONE] = "?",  [MMA_T_F16] = "f16",   [MMA_T_BF16] = "bf16", [MMA_T_TF32] = "tf32",
        [MMA_T_F32] = "f32", [MMA_T_F64] = "f64",   [MMA_T_S8] = "s8",     [MMA_T_U8] = "u8",
        [MMA_T_S4] = "s4",   [MMA_T_U4] = "u4",     [MMA_T_B1] = "b1",     [MMA_T_S32] = "s32",
        [MMA_T_B16] = "b16", [MMA_T_E4M3] = "e4m3", [MMA_T_E5M2] = "e5m2"};
    return t >= 0 && t < (int)(sizeof names / sizeof names[0]) && names[t] ? names[t] : "?";
}

/* Fills matrix `which` (MMA_A ... MMA_D) of d from the list operand o of in. */
static int fill_mat(gl_frag_mat *mt, const mma_desc *d, int which, const ptx_module *m,
                    const ptx_insn *in, const ptx_operand *o, int written)
{
    static const char *const names[] = {"A", "B", "C", "D"};
    snprintf(mt->name, sizeof mt->name, "%s", names[which]);
    snprintf(mt->type, sizeof mt->type, "%s",
             type_name(which == MMA_A   ? d->atype
                       : which == MMA_B ? d->btype
                       : which == MMA_C ? d->ctype
                                        : d->dtype));
    mt->rows = which == MMA_B ? d->k : d->m;
    mt->cols = which == MMA_A ? d->k : d->n;
    mt->elem_bits = (int)mma_elem_bits(d, which);
    mt->per_reg = mt->elem_bits >= 32 ? 1 : 32 / mt->elem_bits;
    mt->nregs = mma_nregs(d, which);
    if (mt->nregs > GL_FRAG_MAX_REGS)
        mt->nregs = GL_FRAG_MAX_REGS;
    mt->written = written;
    memset(mt->addr_lane, -1, sizeof mt->addr_lane);
    const int base = m->funcs[in->func].reg_base;
    for (int r = 0; r < mt->nregs; r++) {
        uint16_t s = o->kind == PTX_OPK_RLIST && r < o->sub ? m->rlist[o->imm + r] : PTX_NOREG;
        mt->trace_reg[r] = s == PTX_NOREG ? -1 : base + s;
    }
    mt->cells = malloc((size_t)mt->rows * (size_t)mt->cols * sizeof *mt->cells);
    if (!mt->cells)
        return 0;
    for (int i = 0; i < mt->rows * mt->cols; i++)
        mt->cells[i] = (gl_frag_cell){-1, 0, 0, 0};
    for (unsigned l = 0; l < 32; l++)
        for (int r = 0; r < mt->nregs; r++)
            for (int j = 0; j < mt->per_reg; j++) {
                int row, col;
                mma_frag_pos(d, which, l, r, j, &row, &col);
                if (row < 0 || row >= mt->rows || col < 0 || col >= mt->cols)
                    continue;
                gl_frag_cell *c = &mt->cells[row * mt->cols + col];
                if (c->lane < 0)
                    *c = (gl_frag_cell){(int8_t)l, (uint8_t)r, (uint8_t)j, 0};
                else if (c->lane == (int)l)
                    c->copies++;
            }
    return 1;
}

/* Matrix i of ldmatrix/stmatrix (or movmatrix's source, i 0, and destination, i 1):
 * register `reg` of each lane, 8 x 8 .b16. */
static int fill_ldm(gl_frag_mat *mt, const char *name, int trans, int reg, int with_addr, int treg,
                    int written)
{
    snprintf(mt->name, sizeof mt->name, "%s", name);
    snprintf(mt->type, sizeof mt->type, "b16");
    mt->rows = mt->cols = 8;
    mt->elem_bits = 16;
    mt->per_reg = 2;
    mt->nregs = 1;
    mt->written = written;
    mt->trace_reg[0] = treg;
    memset(mt->addr_lane, -1, sizeof mt->addr_lane);
    for (int row = 0; with_addr && row < 8; row++)
        mt->addr_lane[row] = (int8_t)mma_ldm_row_lane(reg, row);
    mt->cells = malloc(64 * sizeof *mt->cells);
    if (!mt->cells)
        return 0;
    for (unsigned l = 0; l < 32; l++)
        for (int j = 0; j < 2; j++) {
            int row, col;
            mma_ldm_pos(trans, l, j, &row, &col);
            mt->cells[row * 8 + col] = (gl_frag_cell){(int8_t)l, 0, (uint8_t)j, 0};
        }
    return 1;
}

int gl_fragments_of(const char *ptx, int pc, gl_frags *f)
{
    memset(f, 0, sizeof *f);
    const ptx_module *m = ptx ? module_of(ptx) : NULL;
    if (!m || pc < 0 || pc >= m->ncode)
        return 0;
    const ptx_insn *in = &m->code[pc];
    mma_desc d;
    gl_frag_kind kind;
    switch (in->op) {
    case PTX_OP_mma: kind = GL_FRAG_MMA; break;
    case PTX_OP_wmma_load: kind = GL_FRAG_WMMA_LOAD; break;
    case PTX_OP_wmma_store: kind = GL_FRAG_WMMA_STORE; break;
    case PTX_OP_wmma_mma: kind = GL_FRAG_WMMA_MMA; break;
    case PTX_OP_ldmatrix: kind = GL_FRAG_LDMATRIX; break;
    case PTX_OP_stmatrix: kind = GL_FRAG_STMATRIX; break;
    case PTX_OP_movmatrix: kind = GL_FRAG_MOVMATRIX; break;
    default: return 0;
    }
    ptx_mma_desc(in, &d);
    f->kind = kind;
    snprintf(f->what, sizeof f->what, "%s", ptx_insn_mnemonic(m, in));
    f->m = d.m, f->n = d.n, f->k = d.k;
    f->row_major_a = d.arow, f->row_major_b = d.brow;
    f->trans = d.trans;
    f->quad_pair = mma_quad_pair(&d);
    const int base = m->funcs[in->func].reg_base;
    int ok = 1;
    switch (kind) {
    case GL_FRAG_MMA:
    case GL_FRAG_WMMA_MMA:
        f->nmats = 4;
        /* mma.sp: A's registers hold the compressed M x K/2 (sim/mma.h mma_sp_dense) */
        const mma_desc da = d.sparse ? mma_sp_dense(&d) : d;
        ok = fill_mat(&f->mat[0], &da, MMA_A, m, in, &in->o[1], 0) &&
             fill_mat(&f->mat[1], &d, MMA_B, m, in, &in->o[2], 0) &&
             fill_mat(&f->mat[2], &d, MMA_C, m, in, &in->o[3], 0) &&
             fill_mat(&f->mat[3], &d, MMA_D, m, in, &in->o[0], 1);
        break;
    case GL_FRAG_WMMA_LOAD:
        f->nmats = 1;
        ok = fill_mat(&f->mat[0], &d, d.frag, m, in, &in->o[0], 1);
        break;
    case GL_FRAG_WMMA_STORE:
        f->nmats = 1;
        ok = fill_mat(&f->mat[0], &d, MMA_D, m, in, &in->o[1], 0);
        break;
    case GL_FRAG_LDMATRIX:
    case GL_FRAG_STMATRIX: {
        const ptx_operand *o = &in->o[kind == GL_FRAG_LDMATRIX ? 0 : 1];
        f->nmats = d.num < GL_FRAG_MAX_MATS ? d.num : GL_FRAG_MAX_MATS;
        for (int i = 0; ok && i < f->nmats; i++) {
            const char nm[4] = {'m', (char)('0' + i), 0, 0};
            uint16_t s = o->kind == PTX_OPK_RLIST && i < o->sub ? m->rlist[o->imm + i] : PTX_NOREG;
            ok = fill_ldm(&f->mat[i], nm, d.trans, i, 1, s == PTX_NOREG ? -1 : base + s,
                          kind == GL_FRAG_LDMATRIX);
        }
        break;
    }
    default: /* movmatrix: source, then its transpose */
        f->m = f->n = 8;
        f->nmats = 2;
        ok = fill_ldm(&f->mat[0], "A", 0, 0, 0, base + in->o[1].reg, 0) &&
             fill_ldm(&f->mat[1], "D", 1, 0, 0, base + in->o[0].reg, 1);
        break;
    }
    if (!ok) {
        gl_fragments_free(f);
        return 0;
    }
    return 1;
}

void gl_fragments_free(gl_frags *f)
{
    for (int i = 0; i < GL_FRAG_MAX_MATS; i++)
        free(f->mat[i].cells);
    memset(f, 0, sizeof *f);
}

uint32_t gl_fragments_values(const gl_frag_mat *mt, const trace_t *t, size_t issue,
                             uint64_t vals[32][GL_FRAG_MAX_REGS])
{
    memset(vals, 0, sizeof(uint64_t) * 32 * GL_FRAG_MAX_REGS);
    if (!t || !t->regs || issue >= t->nevents || t->events[issue].kind != TRACE_EV_ISSUE)
        return 0;
    const trace_event *is = &t->events[issue];
    uint32_t found = 0;
    for (int r = 0; r < mt->nregs; r++) {
        if (mt->trace_reg[r] < 0)
            continue;
        const trace_event *hit = NULL;
        if (mt->written) { /* this instruction's own REG events, up to the warp's next issue */
            for (size_t i = issue + 1; i < t->nevents; i++) {
                const trace_event *e = &t->events[i];
                if (e->block != is->block || e->warp != is->warp)
                    continue;
                if (e->kind == TRACE_EV_ISSUE)
                    break;
                if (e->kind == TRACE_EV_REG && e->barrier == mt->trace_reg[r])
                    hit = e;
            }
        } else {
            for (size_t i = issue; i > 0 && !hit; i--) {
                const trace_event *e = &t->events[i - 1];
                if (e->kind == TRACE_EV_REG && e->block == is->block && e->warp == is->warp &&
                    e->barrier == mt->trace_reg[r])
                    hit = e;
            }
        }
        if (!hit)
            continue;
        const uint64_t *v = trace_event_values(t, hit);
        for (int l = 0; l < 32; l++)
            vals[l][r] = v[l];
        found |= 1u << r;
    }
    return found;
}

/* An IEEE-like binary float of `ebits` exponent and `mbits` fraction bits (f16, bf16,
 * the fp8 types). e4m3 has no infinity: S.1111.111 is its NaN. */
static double small_float(uint32_t v, int ebits, int mbits, int e4m3)
{
    const int sign = (v >> (ebits + mbits)) & 1, bias = (1 << (ebits - 1)) - 1;
    const uint32_t e = (v >> mbits) & ((1u << ebits) - 1), fr = v & ((1u << mbits) - 1);
    const uint32_t emax = (1u << ebits) - 1, frmax = (1u << mbits) - 1;
    double x;
    if (e == 0)
        x = ldexp((double)fr, 1 - bias - mbits);
    else if (e == emax && !e4m3)
        x = fr ? NAN : INFINITY;
    else if (e == emax && fr == frmax)
        x = NAN;
    else
        x = ldexp((double)(fr | 1u << mbits), (int)e - bias - mbits);
    return sign ? -x : x;
}

void gl_fragments_format(const gl_frag_mat *mt, uint64_t reg, int elem, int digits, char *buf,
                         size_t n)
{
    const int b = mt->elem_bits;
    const uint64_t v = b >= 64 ? reg : (reg >> (elem * b)) & ((UINT64_C(1) << b) - 1);
    const char *t = mt->type;
    double x;
    if (!strcmp(t, "f16") || !strcmp(t, "b16"))
        x = small_float((uint32_t)v, 5, 10, 0);
    else if (!strcmp(t, "bf16"))
        x = small_float((uint32_t)v, 8, 7, 0);
    else if (!strcmp(t, "e4m3"))
        x = small_float((uint32_t)v, 4, 3, 1);
    else if (!strcmp(t, "e5m2"))
        x = small_float((uint32_t)v, 5, 2, 0);
    else if (!strcmp(t, "f32") || !strcmp(t, "tf32")) {
        float fl;
        uint32_t u = (uint32_t)v;
        memcpy(&fl, &u, sizeof fl);
        x = fl;
    } else if (!strcmp(t, "f64")) {
        memcpy(&x, &v, sizeof x);
    } else if (!strcmp(t, "s32") || !strcmp(t, "s8") || !strcmp(t, "s4")) {
        const int64_t s = (v >> (b - 1)) & 1 ? (int64_t)v - ((int64_t)1 << b) : (int64_t)v;
        snprintf(buf, n, "%lld", (long long)s);
        return;
    } else {
        snprintf(buf, n, "%llu", (unsigned long long)v);
        return;
    }
    snprintf(buf, n, "%.*g", digits, x);
}
