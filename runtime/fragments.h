/* fragments.h — which lane holds which element of a tensor-core instruction's matrices
 * (PTX ISA §9.7.14 "Warp Level Matrix Multiply-Accumulate Instructions"), for the TUI's
 * fragment view: for one instruction of a run's PTX (mma.sync, wmma.load/store/mma,
 * ldmatrix, stmatrix, movmatrix), each matrix as a grid whose cells name the lane,
 * register and half that hold the element. The positions come from the simulator's own
 * layout functions (sim/mma.h), the ones its executor uses, so the picture is what ran.
 *
 * Values: when the run's trace recorded register values (TRACE_EV_REG, the simulator),
 * gl_fragments_values finds each lane's registers of a matrix around the instruction and
 * gl_fragments_format decodes an element (f16, bf16, f32, ...). */
#ifndef GL_FRAGMENTS_H
#define GL_FRAGMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

enum {
    GL_FRAG_MAX_MATS = 4,  /* matrices of one instruction (A, B, C, D; ldmatrix .x4) */
    GL_FRAG_MAX_REGS = 16, /* registers of one lane's fragment of one matrix */
};

/* What a tensor-core instruction is. */
typedef enum gl_frag_kind {
    GL_FRAG_NONE = 0,   /* not a tensor-core instruction */
    GL_FRAG_MMA,        /* mma.sync.aligned (§9.7.14.5) */
    GL_FRAG_WMMA_LOAD,  /* wmma.load.{a,b,c} (§9.7.14.4.2) */
    GL_FRAG_WMMA_STORE, /* wmma.store.d (§9.7.14.4.3) */
    GL_FRAG_WMMA_MMA,   /* wmma.mma (§9.7.14.4.4) */
    GL_FRAG_LDMATRIX,   /* ldmatrix (§9.7.14.5.15) */
    GL_FRAG_STMATRIX,   /* stmatrix (§9.7.14.5.16) */
    GL_FRAG_MOVMATRIX,  /* movmatrix (§9.7.14.5.17) */
} gl_frag_kind;

/* Who holds one element: lane (-1: no lane, a cell of a shape no layout covers), its
 * register in the matrix's operand list and the element in the register (0: the low
 * bits); copies counts the other registers of the same lane holding it too (wmma's f16
 * A and B fragments, sim/mma.h mma_frag_pos). */
typedef struct gl_frag_cell {
    int8_t lane;
    uint8_t reg;
    uint8_t elem;
    uint8_t copies;
} gl_frag_cell;

/* One matrix of the instruction. */
typedef struct gl_frag_mat {
    char name[4];                    /* "A", "B", "C", "D"; ldmatrix/stmatrix "m0" ... "m3" */
    char type[8];                    /* element type: "f16", "bf16", "f32", "s32", "b16" ... */
    int rows, cols;                  /* A: M x K, B: K x N, C and D: M x N; ldmatrix 8 x 8 */
    int elem_bits;                   /* bits of one element (64: f64) */
    int per_reg;                     /* elements per register (1 for 32- and 64-bit ones) */
    int nregs;                       /* registers per lane in the operand list */
    int written;                     /* 1: the instruction writes it (D, wmma.load, ldmatrix) */
    int trace_reg[GL_FRAG_MAX_REGS]; /* trace.regs index of register r, -1 for a sink `_` */
    int8_t addr_lane[8];             /* ldmatrix/stmatrix: the lane giving row i's address */
    gl_frag_cell *cells;             /* rows * cols, row-major (malloc'd) */
} gl_frag_mat;

/* A tensor-core instruction's fragments. */
typedef struct gl_frags {
    gl_frag_kind kind;
    char what[128]; /* the instruction's mnemonic as written ("mma.sync.aligned.m16n8k16
                       .row.col.f32.f16.f16.f32") */
    int m, n, k;    /* the shape (8 x 8 for ldmatrix/stmatrix/movmatrix) */
    int row_major_a, row_major_b; /* .row (1) or .col (0) of A and B (wmma: the loaded
                                     matrix's layout) */
    int quad_pair; /* mma.m8n8k4 .f16: four quad-pairs, each with its own matrices; the
                      cells show quad-pair 0's lanes (0-3, 16-19) */
    int trans;     /* ldmatrix/stmatrix .trans */
    int nmats;
    gl_frag_mat mat[GL_FRAG_MAX_MATS];
} gl_frags;

/* Whether trace instruction ti is a tensor-core instruction whose registers hold matrix
 * fragments (mma, wmma.load/.store/.mma, ldmatrix, stmatrix, movmatrix: its
 * TRACE_INSN_FRAGMENTS fact); 0 for NULL. */
int gl_fragments_is_tensor(const trace_insn *ti);

/* Describes instruction pc (the trace's pc: an index into the module's code) of the
 * PTX text ptx (the run's gl_run_result.ptx). Returns 1 and fills *f (free with
 * gl_fragments_free); 0 (f zeroed) when pc is not a tensor-core instruction, the text does
 * not parse or memory runs out. The parsed module of the last text asked for is kept. */
int gl_fragments_of(const char *ptx, int pc, gl_frags *f);
void gl_fragments_free(gl_frags *f);

/* The registers of matrix mt of the 32 lanes of warp `warp` of block `block` at the
 * instruction whose TRACE_EV_ISSUE is t->events[issue]: a matrix the instruction writes
 * as it left them (its TRACE_EV_REG events after the issue), the others as they were
 * before it (their last write before the issue). vals[lane][r]. Returns the mask of
 * registers r found (bit r); 0 when the trace recorded no register values. */
uint32_t gl_fragments_values(const gl_frag_mat *mt, const trace_t *t, size_t issue,
                             uint64_t vals[32][GL_FRAG_MAX_REGS]);

/* Element `elem` of a register holding `reg` as text in at most n bytes: f16, bf16,
 * tf32, f32 and f64 as %g with up to `digits` significant digits, integers in decimal,
 * b16 (ldmatrix) decoded as f16, the fp8 types (e4m3, e5m2) as their values. */
void gl_fragments_format(const gl_frag_mat *mt, uint64_t reg, int elem, int digits, char *buf,
                         size_t n);

#endif
