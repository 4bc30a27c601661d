/* instrument.h — GPU traces in the simulator's format: PTX
 * instrumentation, the device trace buffer it fills, and its decoding into a trace_t
 * (trace/trace.h) so that trace/analysis.h computes the same metrics from a GPU run as
 * from a simulator run.
 *
 * The instrumented kernel takes one extra trailing .param (u64: a pointer to the trace
 * buffer). The buffer is a header (GL_ITRACE_HEADER_BYTES), one u32 counter per block,
 * then fixed-size records (GL_ITRACE_RECORD_BYTES):
 *   - at block start, thread 0 of the block writes a block-start record (block, %smid,
 *     %globaltimer); the last thread of the block to reach `ret`/`exit` of the entry
 *     writes the block-end record;
 *   - before every ld/ldu/st/atom/red/ldmatrix/stmatrix on .global, .shared, .local or
 *     generic addresses (not .const/.param), each warp writes one memory record, and
 *     before every cp.async two, as the simulator traces it (trace/trace.h MEM): the
 *     global read of the lanes whose src-size is not 0, then the shared write: the lowest lane whose
 *     guard is true (vote.sync.ballot over the guard among activemask, PTX ISA §9.7.13
 *     vote, activemask) reserves a record with atom.global.add on the header's counter
 *     (GPU mode; see gl_instrument_ptx for the simulator's), broadcasts its index with
 *     shfl.sync.idx (§9.7.8.6), and every lane whose guard is true stores its address
 *     into slot[%laneid]. Generic addresses are classified like the simulator's
 *     windows (isspacep.shared / .local, §9.7.9 isspacep) and shared/local ones
 *     recorded as offsets in their window (§9.7.9 cvta.to).
 * Records past the capacity are not written but are counted, so the decoded trace is
 * marked truncated. Memory instructions in the module's .func bodies are recorded too:
 * the entry publishes the buffer in a module variable `.global .u64 __glx_trace_ptr`
 * that each function reads in its own prologue (a function called from another,
 * untraced kernel of the module finds 0 there and records nothing).
 * Limits: one memory instruction, ret or exit per line (as nvcc, NVRTC and clang emit
 * PTX); an access addressed by a .local variable's name is not recorded; at most
 * GL_ITRACE_MAX_SHARED_SYMS shared variables are translated; `.shared::cluster`
 * accesses (distributed shared memory) are recorded as shared with the address the
 * kernel computed (mapa's), while the simulator's own trace names another CTA's shared
 * memory by its cluster window: the two traces differ there; wmma.load/store (many
 * addresses per lane, in a fragment layout the PTX ISA leaves opaque) and cp.async.bulk
 * (a length of bytes in an operand) are not recorded: the simulator's trace has them.
 */
#ifndef GL_INSTRUMENT_H
#define GL_INSTRUMENT_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/gl.h"
#include "sim/sim.h"
#include "trace/trace.h"

/* Buffer layout. Header (byte offsets, u64 unless said): 0 records reserved (GPU mode),
 * 8 capacity in records, 16 offset of the records, 24 GL_ITRACE_MAGIC, 32 + 8*i the
 * address of shared variable i of gl_instrumented.syms (written by block 0), 232 warps
 * in the grid, 240 offset of the per-warp u32 counters (simulator mode), 248 warps per
 * block. A record: u32 kind at 0, pc 4 (-1 for block records), block 8, warp 12,
 * active mask 16, u32 at 20 = space | op << 8 | width << 16, %smid 24, %globaltimer
 * (u64) 32, the 32 lane addresses (u64) from 64. */
#define GL_ITRACE_HEADER_BYTES 256u
#define GL_ITRACE_RECORD_BYTES 320u
#define GL_ITRACE_MAGIC 0x474c5854u /* "GLXT" */
#define GL_ITRACE_MAX_SHARED_SYMS 24
#define GL_ITRACE_DEFAULT_RECORDS (256u * 1024) /* 80 MiB of records */

/* Record kinds (record byte 0..3). */
enum { GL_ITRACE_MEM = 1, GL_ITRACE_BLOCK_START = 2, GL_ITRACE_BLOCK_END = 3 };

/* One .shared variable the instrumented kernel can see: where the simulator places it
 * (its layout rules: module variables first, then the entry's own at a 16-byte aligned
 * base, extern/dynamic shared after both) so that GPU shared addresses, whose layout
 * ptxas chooses, can be translated into the simulator's offsets. */
typedef struct gl_ishared_sym {
    char name[128];
    uint64_t sim_offset; /* offset in the block's shared memory on the simulator */
    uint64_t size;       /* bytes; 0 for extern (dynamic) shared */
} gl_ishared_sym;

/* What instrumenting produced. Free with gl_instrumented_free. */
typedef struct gl_instrumented {
    char *ptx;        /* the instrumented PTX (malloc'd) */
    char kernel[256]; /* the entry instrumented */
    int nmem;         /* memory instructions instrumented */
    int nskipped;     /* memory instructions whose address could not be evaluated
                              (a base register of unknown width) and were left alone */
    gl_ishared_sym syms[GL_ITRACE_MAX_SHARED_SYMS];
    int nsyms;             /* the header's shared-address table holds these, in order */
    int sim_mode;          /* instrumented for the simulator (see gl_instrument_ptx) */
    int pc_first, pc_last; /* the instrumented instructions (the entry's and the
                              functions') in the original module, lowest and highest PC */
} gl_instrumented;
void gl_instrumented_free(gl_instrumented *ins);

/* Instruments entry `kernel` of `ptx` (text as nvcc, NVRTC or clang emit it), of which
 * m is the parse (ptx_parse of the same text). The parsed module decides what is
 * instrumented: the entry and every .func body, their memory instructions (op, space,
 * width, guard, address operand and register sizes), the entry's ret/exit, the shared
 * variables and the simulator's offsets for them. The instrumentation is inserted into
 * the original text before the lines the module gives, so every byte of the original
 * (.loc, debug sections, modifiers the simulator ignores) reaches ptxas unchanged; the
 * simulator's lexer finds what the module does not keep (parameter lists, braces).
 * Records carry the ORIGINAL instruction index, so a decoded trace uses the instruction
 * table sim_trace_describe gives for m. Returns GL_OK; GL_ERR_INPUT when the PTX has no
 * such entry or an instruction the text does not show where the module says (err says
 * why); GL_ERR_NOMEM.
 * sim_mode 0 (the GPU): a record is reserved with atom.global.add on one counter, so the
 * capacity is shared by every warp. sim_mode 1 (running instrumented PTX on the
 * simulator, as the tests do): each warp counts its own records with plain loads and
 * stores, record n of global warp w at n * warps + w (an atomic inside a loop makes the
 * simulator treat the loop as a spin loop and yield, which changes where divergent
 * lanes reconverge); the capacity is then shared out evenly between warps. */
gl_status gl_instrument_module(const char *ptx, const ptx_module_t *m, const char *kernel,
                               int sim_mode, gl_instrumented *out, gl_error *err);

/* gl_instrument_module for a text not parsed yet: parses it first (GL_ERR_INPUT when it
 * does not parse). */
gl_status gl_instrument_ptx(const char *ptx, const char *kernel, int sim_mode, gl_instrumented *out,
                            gl_error *err);

/* Bytes of a trace buffer for `nblocks` blocks of `warps_per_block` warps and
 * `records` records. */
size_t gl_instrument_trace_bytes(uint64_t nblocks, unsigned warps_per_block, uint64_t records);
/* Writes the header of a zeroed buffer of gl_instrument_trace_bytes(...) bytes. */
void gl_instrument_trace_init(void *buf, uint64_t nblocks, unsigned warps_per_block,
                              uint64_t records);

/* Decodes a trace buffer the instrumented kernel filled (buf, bytes: as copied back; in
 * GPU mode it may end after the last record written)
 * into t: trace_begin_launch(kernel, grid, block), the instruction table of the
 * ORIGINAL module `orig` (sim_trace_describe), then block start/end and memory events
 * in record order; GPU shared addresses are translated to the simulator's layout
 * with ins->syms. t->truncated is set and t->dropped counts the records that did not
 * fit, as do events past t's own cap (trace_append); *lost (may be NULL) gets the
 * records the kernel made that did not fit in the buffer alone, which a sink never saw.
 * time: %globaltimer in ns; GPU-mode traces are ordered by time (the sink, if set, saw
 * them in record order). 0, or -1 on a malformed buffer or no memory. */
int gl_instrument_trace_decode(const void *buf, size_t bytes, const gl_instrumented *ins,
                               const ptx_module_t *orig, const unsigned grid[3],
                               const unsigned block[3], trace_t *t, uint64_t *lost);

#endif
