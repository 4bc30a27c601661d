/* analysis.h — metrics computed from a launch's trace (trace/trace.h), per kernel and per
 * CUDA source line, in Nsight Compute's vocabulary so that what a learner reads here
 * carries over to the real profiler (docs/architecture.md "Contracts").
 *
 * Only trace events and the trace's static instruction table are used, never back-end
 * internals, so a GPU trace gives the same numbers as a simulator trace.
 *
 * Definitions (the names in quotes are the keys of gl_metrics_write_json):
 *  - "smsp__inst_executed.sum": warp instructions issued (ISSUE events).
 *  - "smsp__thread_inst_executed.sum": the sum over issued warp instructions of the
 *    lanes at the instruction (before its guard predicate);
 *    "smsp__thread_inst_executed_pred_on.sum": only lanes whose guard is true.
 *  - "warp_execution_efficiency" (nvprof's name): the average active threads per warp
 *    instruction divided by 32 (thread_inst_executed / inst_executed / 32; Nsight
 *    reports the ratio before the /32 as
 *    smsp__thread_inst_executed_per_inst_executed.ratio). 1.0 = every lane busy; a warp
 *    split evenly by an if/else runs both halves at 0.5.
 *  - "branch_efficiency" (nvprof's name; Nsight Compute
 *    smsp__sass_average_branch_targets_threads_uniform.pct / 100): the share of warp
 *    branch instructions (bra) at which every active lane went the same way: 1 -
 *    "smsp__sass_branch_targets_threads_divergent.sum" / "smsp__sass_branch_targets.sum"
 *    (1.0 without branches). A divergent branch is a guarded bra whose guard is true for
 *    some of the lanes at it but not all. Unlike warp execution efficiency it does not
 *    fall when a kernel does less work in a warp (a redux.sync for a shuffle tree).
 *  - Global memory (MEM events, space global): a warp load/store instruction is one
 *    request; its sectors are the distinct 32-byte aligned sectors its active lanes
 *    touch (each lane [addr, addr+width)). Keys
 *    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
 *    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", the same with _op_st, and
 *    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio" (/_op_st).
 *    ld/ldu, wmma.load and vector (.v2/.v4: width 8 or 16 bytes per lane) accesses are
 *    _op_ld; st and wmma.store _op_st. Coalesced f32: 4 sectors per request; a stride
 *    of 32 floats: 32; float4: 16. The bytes the
 *    active lanes asked for ("smsp__sass_data_bytes_mem_global_op_ld.sum", _op_st) over
 *    the bytes of the sectors fetched is the share of each sector used,
 *    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct" (/_op_st): 100 for
 *    any fully used sectors, coalesced f32 and float4 alike; 12.5 for a stride of 32
 *    floats (Nsight Compute Profiling Guide, "Memory Workload Analysis").
 *  - cp.async (PTX ISA §9.7.9.25.3; SASS LDGSTS, global to shared without registers):
 *    its global read is "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum" (one per
 *    warp instruction), "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum",
 *    "smsp__sass_data_bytes_mem_global_op_ldgsts.sum" (cp-size bytes per lane whose
 *    src-size is not 0), not in _op_ld; its shared write is counted like a shared
 *    store: "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
 *    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum".
 *  - cp.async groups (PTX ISA §9.7.9.25.3): "gpulearn__inst_executed_async_wait.sum"
 *    (warp cp.async.wait_group / wait_all instructions) and
 *    "gpulearn__inst_executed_async_wait_overlapped.sum": those at which, for some lane,
 *    a committed group holding copies lands that was in flight while the lane read
 *    shared memory (ld.shared, ldmatrix, wmma.load): a copy overlapping the computation
 *    on an earlier tile. A wait right after the commit, before any such read, does not
 *    count, nor do empty groups. Each lane's newest 8 groups are tracked exactly
 *    (older ones merge).
 *  - cp.async.bulk (§9.7.9.25.4; the tensor memory accelerator, not the LSU pipe, so
 *    no Nsight LSU counter): "gpulearn__bulk_copies.sum" (copies, one per lane that
 *    issued one), "gpulearn__bulk_copy_sectors_global_op_ld.sum" / "_bytes_" (global
 *    to shared) and _op_st (shared to global).
 *  - Global atomics, split as Nsight Compute splits them: atom
 *    ("smsp__inst_executed_op_global_atom.sum",
 *    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum") and red (_global_red,
 *    _op_red: an atomic whose result is not used, PTX ISA §9.7.13.6).
 *  - gl_global_sectors() sums the global sectors of every kind above (ld, st, ldgsts,
 *    atom, red, bulk copies): what the kernel's global accesses touch, each warp
 *    request on its own. It is L1/L2 traffic, not DRAM bytes: sectors that several
 *    requests touch count once per request.
 *  - Shared memory: 32 banks of 4 bytes. A request is split into groups of lanes that
 *    move at most 128 bytes (all 32 lanes for widths up to 4 bytes, half-warps for 8,
 *    quarter-warps for 16); a group's wavefronts are the largest number of DISTINCT
 *    4-byte words any one bank must deliver (the same word to many lanes is a
 *    broadcast, not a conflict); bank conflicts = wavefronts - groups with active
 *    lanes. Keys "smsp__inst_executed_op_shared_ld.sum" (requests),
 *    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
 *    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", and _op_st.
 *    A conflict-free request is 1 wavefront; stride-2 f32 access is 2 (a 2-way
 *    conflict); padding the row removes it. ld.shared/st.shared and wmma on shared
 *    memory are _op_ld/_op_st; ldmatrix and stmatrix (PTX ISA §9.7.14.5.15-16: one
 *    16-byte row per lane address, groups of 8 lanes, so one 8x8 matrix is at best one
 *    wavefront) have their own: "smsp__inst_executed_op_ldsm.sum",
 *    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
 *    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", and _stsm.
 *  - Atomics: "smsp__inst_executed_op_global_atom.sum" / "_shared_atom.sum" (warp
 *    atom/red instructions), "gpulearn__thread_atomics_global.sum" / "_shared.sum"
 *    (lane-level operations), and the addresses with the most lane-level atomics
 *    ("atomic_addresses", top GL_METRICS_TOP_ATOMICS).
 *  - Local memory: "smsp__inst_executed_op_local_ld.sum" / "_st.sum".
 *  - Barriers: "gpulearn__barrier_arrivals.sum" (warp-level arrivals: a warp whose
 *    lanes arrive in two groups counts twice), "gpulearn__barrier_releases.sum",
 *    "gpulearn__barrier_wait_time.sum" (sum over arrivals of release time - arrival
 *    time, in trace time units: warp instructions issued on the simulator; a
 *    warp-cycle count on the GPU).
 *  - Arithmetic (lanes whose guard predicate is true, from the trace's instruction
 *    facts, trace.h trace_insn):
 *    "gpulearn__thread_inst_executed_add.sum": add/sub of any type, index and address
 *    arithmetic included; "gpulearn__thread_inst_executed_fadd.sum": float add/sub
 *    instructions only (the additions an fma or an atomic does are not among them);
 *    "gpulearn__thread_inst_executed_fma.sum": mad/fma of any type.
 *    Additions, whatever instruction does them (trace_insn.adds):
 *    "gpulearn__thread_additions.sum": per lane whose guard is true, one per element that
 *    add/sub/addc/subc, mad/fma/mad24/madc (with any operands: fma(1, v, s) is an
 *    addition) and atom/red .add compute (a packed .f16x2 pair 2, a .v4 red 4), index
 *    arithmetic included; "gpulearn__thread_additions_float.sum": those of float types,
 *    a float scan's or reduction's "additions performed" however it writes them.
 *  - Floating point, per PTX instruction and lane whose guard is true, as Nsight
 *    Compute's thread-instruction counters count SASS instructions:
 *    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum" (add/sub .f32), _fmul
 *    (mul .f32), _ffma (fma/mad .f32), _dadd/_dmul/_dfma (.f64), _hadd/_hmul/_hfma
 *    (.f16, .bf16 and their packed x2 forms, one per instruction as HADD2 is one).
 *    FLOPs: "gpulearn__flops_fp32.sum" = fadd + fmul + 2 x ffma (Nsight Compute's
 *    roofline), "gpulearn__flops_fp64.sum" likewise; "gpulearn__flops_fp16.sum" and
 *    _bf16 count every element (a packed x2 instruction is 2, or 4 for fma). div, rcp,
 *    sqrt and the .approx functions are not FLOPs here (the GPU runs div and the
 *    IEEE-rounded ones as FFMA sequences that PTX does not show);
 *    "gpulearn__thread_inst_executed_sfu.sum" counts the .approx ones (MUFU).
 *  - Tensor cores (PTX ISA §9.7.14): "gpulearn__inst_executed_mma.sum" (warp mma.sync
 *    and wmma.mma instructions) and their FLOPs by the type of A and B,
 *    "gpulearn__flops_tensor_f16.sum", _bf16, _tf32, _f64, _fp8 (e4m3/e5m2) and the
 *    integer operations "gpulearn__ops_tensor_int8.sum", _int4, _b1: 2 x M x N x K per
 *    warp instruction (an m16n8k16 is 4096; the quad-pair m8n8k4 .f16 four products of
 *    512), so each can be judged against its own roof.
 *  - DRAM (trace/dram.h's model of an L2 of gl_metrics.l2_bytes, only when that is set):
 *    "dram__bytes_read.sum": bytes of the global sectors the L2 did not hold when a load
 *    or atomic touched them (the first touch, and again after an eviction);
 *    "dram__bytes_write.sum": 32 per sector a store or atomic made dirty (each is written
 *    back once), counted at that store's line.
 * Keys with the gpulearn__ prefix have no Nsight Compute counterpart.
 */
#ifndef GL_ANALYSIS_H
#define GL_ANALYSIS_H

#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"

#define GL_METRICS_TOP_ATOMICS 10

/* Every counter: X(field, "json key"). The JSON writer and views iterate this list. */
#define GL_COUNTS_LIST(X)                                                                          \
    X(inst_executed, "smsp__inst_executed.sum")                                                    \
    X(thread_inst_executed, "smsp__thread_inst_executed.sum")                                      \
    X(thread_inst_pred_on, "smsp__thread_inst_executed_pred_on.sum")                               \
    X(branches, "smsp__sass_branch_targets.sum")                                                   \
    X(divergent_branches, "smsp__sass_branch_targets_threads_divergent.sum")                       \
    X(gld_requests, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")                             \
    X(gld_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")                               \
    X(gst_requests, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")                             \
    X(gst_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")                               \
    X(gld_bytes, "smsp__sass_data_bytes_mem_global_op_ld.sum")                                     \
    X(gst_bytes, "smsp__sass_data_bytes_mem_global_op_st.sum")                                     \
    X(ldgsts_requests, "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum")                      \
    X(ldgsts_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum")                        \
    X(ldgsts_bytes, "smsp__sass_data_bytes_mem_global_op_ldgsts.sum")                              \
    X(ldgsts_wavefronts, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum")     \
    X(ldgsts_bank_conflicts,                                                                       \
      "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum")                    \
    X(bulk_copies, "gpulearn__bulk_copies.sum")                                                    \
    X(bulk_ld_sectors, "gpulearn__bulk_copy_sectors_global_op_ld.sum")                             \
    X(bulk_ld_bytes, "gpulearn__bulk_copy_bytes_global_op_ld.sum")                                 \
    X(bulk_st_sectors, "gpulearn__bulk_copy_sectors_global_op_st.sum")                             \
    X(bulk_st_bytes, "gpulearn__bulk_copy_bytes_global_op_st.sum")                                 \
    X(shld_requests, "smsp__inst_executed_op_shared_ld.sum")                                       \
    X(shld_wavefronts, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")                     \
    X(shld_bank_conflicts, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")             \
    X(shst_requests, "smsp__inst_executed_op_shared_st.sum")                                       \
    X(shst_wavefronts, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")                     \
    X(shst_bank_conflicts, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")             \
    X(ldsm_requests, "smsp__inst_executed_op_ldsm.sum")                                            \
    X(ldsm_wavefronts, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum")         \
    X(ldsm_bank_conflicts, "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum") \
    X(stsm_requests, "smsp__inst_executed_op_stsm.sum")                                            \
    X(stsm_wavefronts, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum")         \
    X(stsm_bank_conflicts, "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum") \
    X(local_ld_requests, "smsp__inst_executed_op_local_ld.sum")                                    \
    X(local_st_requests, "smsp__inst_executed_op_local_st.sum")                                    \
    X(global_atom_requests, "smsp__inst_executed_op_global_atom.sum")                              \
    X(global_red_requests, "smsp__inst_executed_op_global_red.sum")                                \
    X(global_atom_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum")                     \
    X(global_red_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum")                       \
    X(shared_atom_requests, "smsp__inst_executed_op_shared_atom.sum")                              \
    X(global_atom_threads, "gpulearn__thread_atomics_global.sum")                                  \
    X(shared_atom_threads, "gpulearn__thread_atomics_shared.sum")                                  \
    X(thread_adds, "gpulearn__thread_inst_executed_add.sum")                                       \
    X(thread_fadds, "gpulearn__thread_inst_executed_fadd.sum")                                     \
    X(thread_fmas, "gpulearn__thread_inst_executed_fma.sum")                                       \
    X(additions, "gpulearn__thread_additions.sum")                                                 \
    X(float_additions, "gpulearn__thread_additions_float.sum")                                     \
    X(async_waits, "gpulearn__inst_executed_async_wait.sum")                                       \
    X(async_waits_overlapped, "gpulearn__inst_executed_async_wait_overlapped.sum")                 \
    X(thread_fadd, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum")                          \
    X(thread_fmul, "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum")                          \
    X(thread_ffma, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum")                          \
    X(thread_dadd, "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum")                          \
    X(thread_dmul, "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum")                          \
    X(thread_dfma, "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum")                          \
    X(thread_hadd, "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum")                          \
    X(thread_hmul, "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum")                          \
    X(thread_hfma, "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum")                          \
    X(thread_sfu, "gpulearn__thread_inst_executed_sfu.sum")                                        \
    X(flops_fp32, "gpulearn__flops_fp32.sum")                                                      \
    X(flops_fp64, "gpulearn__flops_fp64.sum")                                                      \
    X(flops_fp16, "gpulearn__flops_fp16.sum")                                                      \
    X(flops_bf16, "gpulearn__flops_bf16.sum")                                                      \
    X(tensor_insts, "gpulearn__inst_executed_mma.sum")                                             \
    X(flops_tensor_f16, "gpulearn__flops_tensor_f16.sum")                                          \
    X(flops_tensor_bf16, "gpulearn__flops_tensor_bf16.sum")                                        \
    X(flops_tensor_tf32, "gpulearn__flops_tensor_tf32.sum")                                        \
    X(flops_tensor_f64, "gpulearn__flops_tensor_f64.sum")                                          \
    X(flops_tensor_int8, "gpulearn__ops_tensor_int8.sum")                                          \
    X(flops_tensor_int4, "gpulearn__ops_tensor_int4.sum")                                          \
    X(flops_tensor_b1, "gpulearn__ops_tensor_b1.sum")                                              \
    X(flops_tensor_fp8, "gpulearn__flops_tensor_fp8.sum")                                          \
    X(barrier_arrivals, "gpulearn__barrier_arrivals.sum")                                          \
    X(barrier_releases, "gpulearn__barrier_releases.sum")                                          \
    X(barrier_wait_time, "gpulearn__barrier_wait_time.sum")                                        \
    X(dram_read_bytes, "dram__bytes_read.sum")                                                     \
    X(dram_write_bytes, "dram__bytes_write.sum")

/* Counters for a kernel or one source line (meanings above). */
typedef struct gl_counts {
#define GL_COUNTS_FIELD(f, key) uint64_t f;
    GL_COUNTS_LIST(GL_COUNTS_FIELD)
#undef GL_COUNTS_FIELD
} gl_counts;

/* The counters of one CUDA source line (file index into trace.files; line 0 gathers
 * instructions without line information). */
typedef struct gl_line_counts {
    int src_file;
    int src_line;
    gl_counts c;
} gl_line_counts;

/* A heavily used atomic address. */
typedef struct gl_atomic_addr {
    int space; /* TRACE_SPACE_GLOBAL or TRACE_SPACE_SHARED */
    uint64_t address;
    uint64_t count; /* lane-level atomics */
} gl_atomic_addr;

typedef struct gl_metrics_acc gl_metrics_acc; /* streaming state (private) */

/* Metrics of one launch. Free with gl_metrics_free. */
typedef struct gl_metrics {
    char kernel[128];
    gl_counts total;
    gl_line_counts *lines; /* sorted by (file, line); nlines entries */
    int nlines;
    gl_atomic_addr top_atomics[GL_METRICS_TOP_ATOMICS];
    int ntop_atomics;
    uint64_t natomic_addresses; /* distinct addresses (space, address) atomics updated */
    int level;                  /* trace_level the metrics came from: memory metrics are
                               zero below TRACE_MEMORY */
    int incomplete;             /* 1 when events were missing (a truncated trace analysed
                               without a sink) */
    gl_metrics_acc *acc;        /* streaming state while gl_metrics_sink is fed */
    char **files;               /* the trace's source file names by .file index (lines'
                               src_file; index 0 unused), nfiles of them, so that the
                               metrics name their files after the trace is freed */
    int nfiles;
    /* Set before streaming (gl_metrics_sink): the L2 of the device, bytes, that the DRAM
     * model holds (trace/dram.h); 0 = no model, the dram__ counters stay 0 (and so in
     * gl_metrics_from_trace, which starts from a zeroed m). */
    uint64_t l2_bytes;
    /* The most bytes one block wrote to global memory (st, atom, red, cp.async.bulk to
     * global: active lanes x width), the work-distribution check's measure. */
    uint64_t block_write_max;
} gl_metrics;

/* Derived ratios (0 when the denominator is 0). */
double gl_warp_execution_efficiency(const gl_counts *c); /* thread_inst / inst / 32 */
double gl_branch_efficiency(const gl_counts *c);         /* 1 - divergent / branches */
double gl_gld_sectors_per_request(const gl_counts *c);
/* Share of the fetched global sectors' bytes that the lanes asked for, loads and stores
 * together, in percent (0 without global requests). */
double gl_global_sector_efficiency(const gl_counts *c);
double gl_gst_sectors_per_request(const gl_counts *c);
/* Global sectors of every kind of access (ld, st, cp.async, atom, red, cp.async.bulk;
 * see above): the intensity a roofline can use where no DRAM byte count exists, labelled
 * as sectors. */
uint64_t gl_global_sectors(const gl_counts *c);
/* The bytes the lanes asked for from and to global memory, every kind of access:
 * ld + st + cp.async + bulk copies (atomics: the lanes' operand bytes are not counted;
 * their sectors are in gl_global_sectors). */
uint64_t gl_global_bytes(const gl_counts *c);
/* The bytes the lanes read from global memory, however they read them: ld (a .v4
 * access 16 per lane), cp.async (cp-size per lane whose src-size is not 0) and
 * cp.async.bulk; what "global loads per output" weighs, so that an int4 load or a
 * 16-byte cp.async counts as the four int loads it replaces. */
uint64_t gl_global_load_bytes(const gl_counts *c);
/* Sectors per request of the LSU's global loads, stores and cp.async reads together
 * (ld + st + ldgsts sectors / their requests); 0 without any. */
double gl_global_sectors_per_request(const gl_counts *c);
/* Shared-memory wavefronts and bank conflicts of every kind of access: ld/st.shared,
 * ldmatrix, stmatrix and cp.async's shared writes. */
uint64_t gl_shared_wavefronts(const gl_counts *c);
uint64_t gl_shared_bank_conflicts(const gl_counts *c);
/* FLOPs (or tensor integer operations) of kind k (trace.h TRACE_FLOP_*) in c; 0 for
 * TRACE_FLOP_NONE or an unknown kind. */
uint64_t gl_flops(const gl_counts *c, int k);

/* Streaming use: set trace.sink = gl_metrics_sink, trace.sink_ctx = m (a zeroed
 * gl_metrics) before the launch; after it, call gl_metrics_finish(m, trace). Exact even
 * when the stored trace was truncated. */
void gl_metrics_sink(void *ctx, const trace_t *t, const trace_event *ev, const uint64_t *addrs);
/* Builds lines and top_atomics from the streamed counters. 0, or -1 on no memory. */
int gl_metrics_finish(gl_metrics *m, const trace_t *t);

/* Computes m from the events stored in t (m is overwritten). 0, or -1 on no memory.
 * Sets m->incomplete when t->truncated. */
int gl_metrics_from_trace(const trace_t *t, gl_metrics *m);
void gl_metrics_free(gl_metrics *m);

/* Writes {"kernel", "trace_level", "incomplete", "definitions", "metrics": {key: n},
 * "lines": [{"file", "line", "metrics": {...}}], "atomic_addresses": [...]} with the
 * keys documented above ("file": the source file's name as the PTX's .file gives it, null
 * when unknown). Returns 0, or -1 on a write error. */
int gl_metrics_write_json(const gl_metrics *m, FILE *f);

/* Cost of one memory request, the same arithmetic the metrics use (for views that
 * show a single request): distinct 32-byte sectors of global lanes, and shared-memory
 * wavefronts. addrs: 32 lane addresses; mask: active lanes; width: bytes per lane. */
unsigned gl_request_sectors(const uint64_t *addrs, uint32_t mask, unsigned width);
unsigned gl_request_wavefronts(const uint64_t *addrs, uint32_t mask, unsigned width,
                               unsigned *groups);

#endif
