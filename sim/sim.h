/* sim.h — gpulearn's PTX front end and SIMT simulator: the public interface.
 *
 * sim/ knows nothing about lessons, launch specs or the TUI. Its interface mirrors the
 * CUDA driver API (load a module, allocate, copy, launch with kernelParams) so that the
 * runtime can drive the simulator and the GPU through one back-end interface.
 *
 * Ownership: what sim_new or ptx_parse returns is freed by the matching _free. Strings
 * returned through char ** are malloc'd and freed by the caller.
 */
#ifndef GL_SIM_H
#define GL_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "sim/kinds.h"
#include "trace/trace.h"

/* Status at every sim/ boundary. Details go into the out-parameters named per call. */
typedef enum sim_status {
    SIM_OK = 0,
    SIM_ERR_PARSE,       /* malformed PTX: diagnostics name line:column */
    SIM_ERR_UNSUPPORTED, /* a PTX instruction or directive the simulator lacks */
    SIM_ERR_NOT_FOUND,   /* no .entry of that name */
    SIM_ERR_LAUNCH,      /* bad launch configuration or parameters */
    SIM_ERR_FAULT,       /* the kernel faulted: see sim_fault */
    SIM_ERR_NOMEM,       /* host allocation failed or simulated memory exhausted */
} sim_status;

/* ---------------------------------------------------------------- PTX front end */

/* A parsed and decoded PTX module (opaque). */
typedef struct ptx_module ptx_module_t;

/* Parses PTX text (as emitted by nvcc, NVRTC or clang) into a decoded module.
 * name: the file name used in diagnostics. On error returns SIM_ERR_PARSE or
 * SIM_ERR_UNSUPPORTED, *out is NULL and *diag holds every error found, one per line,
 * as "name:line:col: message" (caller frees). On success *diag is NULL. */
sim_status ptx_parse(const char *text, size_t len, const char *name, ptx_module_t **out,
                     char **diag);
void ptx_module_free(ptx_module_t *m);

/* One .param of an .entry, in declaration order: size and alignment in bytes. */
typedef struct ptx_param_info {
    char name[64];
    unsigned size;  /* bytes: 1, 2, 4, 8, or the size of a .b8 array */
    unsigned align; /* bytes */
} ptx_param_info;

/* Number of .entry kernels in the module, and the i-th one's name (owned by m). */
int ptx_entry_count(const ptx_module_t *m);
const char *ptx_entry_name(const ptx_module_t *m, int i);

/* Fills params[0..max) with the parameters of entry `kernel`; *count gets the total.
 * Returns SIM_ERR_NOT_FOUND when there is no such entry. */
sim_status ptx_entry_params(const ptx_module_t *m, const char *kernel, ptx_param_info *params,
                            int max, int *count);

/* Bytes of static shared memory (`.shared` declarations of the module and of the
 * entry) a block of entry `kernel` uses; 0 when there is no such entry. */
unsigned ptx_entry_shared_bytes(const ptx_module_t *m, const char *kernel);

/* Source file named by `.file` index `file` in the module, or NULL. */
const char *ptx_source_file(const ptx_module_t *m, int file);

/* A PTX instruction, or a form of one, that some targets lack: the PTX ISA's "Target
 * ISA notes" (first_sm) and "PTX ISA notes" (first_ptx) of the instruction. The
 * simulator's op list (sim/ptx/ptx_ops.def) gives each op's oldest form; later forms
 * (types, shapes, modifiers) are listed after the ops. */
typedef struct ptx_feature {
    const char *name; /* "redux.sync", "cp.async.bulk", "mma with .bf16", "%cluster" */
    int first_sm;     /* the first target that has it: 80 for sm_80 */
    int first_ptx;    /* the first PTX ISA version, x 10: 70 for PTX ISA 7.0 */
} ptx_feature;

/* Every feature the simulator knows: ptx_feature_at(0 .. ptx_feature_count()-1). */
int ptx_feature_count(void);
const ptx_feature *ptx_feature_at(int i);

/* Where a module uses a feature (ptx_module_newer_feature). */
typedef struct ptx_feature_use {
    const ptx_feature *feature;
    int ptx_line;         /* the instruction's line in the PTX text, 1-based */
    const char *src_file; /* its CUDA source file from .loc (owned by the module), or NULL */
    int src_line;         /* its CUDA source line, 0 unknown */
} ptx_feature_use;

/* The first instruction of m, in the order of the text, whose form needs a target newer
 * than sm_<target_sm> (80 for sm_80): 1 with *use filled, 0 when every instruction
 * exists on that target. */
int ptx_module_newer_feature(const ptx_module_t *m, int target_sm, ptx_feature_use *use);

/* The SM number of the module's `.target sm_XY` directive (PTX ISA §11.3.2; 90 for
 * sm_90a), 0 when it has none. */
int ptx_module_target_sm(const ptx_module_t *m);
/* The same of PTX text not parsed (read with the PTX lexer, so a `.target` in a comment
 * or string does not count): the first `.target` directive's sm_XY, 0 when none. */
int ptx_text_target_sm(const char *text, size_t len);

/* ------------------------------------------------------------------- simulator */

/* The kinds of arithmetic with a roof of their own (kinds.h SIM_ROOF_LIST). */
typedef enum sim_roof {
#define SIM_ROOF_ENUM(n, v) SIM_ROOF_##n = v,
    SIM_ROOF_LIST(SIM_ROOF_ENUM) /* then their count: */
    SIM_ROOFS
#undef SIM_ROOF_ENUM
} sim_roof;

/* A device profile: the limits of one GPU generation that the simulator models (launch
 * limits, residency, shared memory) and that kernels compile for (compute_XY). Values
 * from the CUDA C++ Programming Guide, "Compute Capabilities", Table "Technical
 * Specifications per Compute Capability" (sim/device.c cites each). */
typedef struct sim_device_model {
    const char *name;                    /* the target: "sm_90" */
    const char *gpu;                     /* the GPU it is modelled on: "H100 SXM (Hopper)" */
    int compute_major, compute_minor;    /* compute capability: 9, 0 */
    int sm_count;                        /* SMs of that GPU (%nsmid; occupancy's waves) */
    int warp_size;                       /* 32 lanes */
    int max_threads_per_block;           /* 1024 */
    int max_block_dim[3];                /* 1024, 1024, 64 */
    unsigned max_grid_dim[3];            /* 2^31-1, 65535, 65535 */
    size_t shared_bytes_per_block;       /* 48 KiB: the most static shared memory, and the
                                            default for static + dynamic */
    size_t shared_bytes_per_block_optin; /* static + dynamic once a kernel opts in
                                            (cudaFuncAttributeMaxDynamicSharedMemorySize;
                                            gpulearn does past 48 KiB of dynamic) */
    /* Residency per SM: at most this many threads, blocks, warps, 32-bit registers and
     * bytes of shared memory. */
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int max_warps_per_sm;       /* also the warp slots of a modelled SM (%nwarpid) */
    int regs_per_sm;            /* 65536 */
    int regs_per_thread;        /* 255 */
    int reg_alloc_unit;         /* 256: registers are given to a warp in multiples of this */
    int sm_partitions;          /* 4: an SM's sub-partitions, each with a quarter of its
                                   registers; a warp's registers lie in one of them */
    size_t shared_bytes_per_sm; /* bytes */
    /* A block takes from the SM its static + dynamic shared memory plus
     * shared_reserved_per_block (the driver's, 1 KiB from sm_80 on: CUDA C++ Programming
     * Guide, "Shared Memory" of compute capability 8.x and 9.0), rounded up to
     * shared_alloc_unit bytes (256 on 7.x, 128 from 8.x on: the Toolkit's
     * cuda_occupancy.h, cudaOccSMemAllocationGranularity). */
    size_t shared_reserved_per_block;
    int shared_alloc_unit;
    size_t l2_bytes;  /* L2 cache of the named GPU, bytes */
    int sector_bytes; /* 32: the unit of a global memory transaction */
    /* The roofline of the named GPU (its data sheet): DRAM bandwidth, boost SM clock, and
     * for each kind of arithmetic with a roof of its own the FLOPs one SM does per clock
     * (dense; integer operations for int8): peak = SMs x flops_per_clk x clock, the
     * low-precision tensor kinds at tensor_clock_mhz (device.c checks each against its
     * data sheet). */
    int clock_mhz;                /* boost clock, MHz */
    int tensor_clock_mhz;         /* the clock the data sheet's f16, bf16, tf32, int8 and
                                    fp8 tensor figures assume: clock_mhz, but 1830 on an
                                    H100 SXM (1980 for FP32, FP64 and the FP64 tensor
                                    cores) */
    int flops_per_clk[SIM_ROOFS]; /* per SM and clock; 0: this GPU has no such unit */
    double dram_gbs;              /* DRAM bandwidth, GB/s (1e9 B/s) */
} sim_device_model;

/* The default profile (sm_90; static storage). */
const sim_device_model *sim_device(void);
/* The profile of a target written "sm_80", "compute_80", "80" or "8.0"; NULL when the
 * simulator has none for it. */
const sim_device_model *sim_device_find(const char *name);

/* Bytes of an SM's shared memory that a block declaring `bytes` (static + dynamic) takes:
 * bytes + reserved (the driver's reserve per block) rounded up to unit (the allocation
 * unit; 0: 1), as the Toolkit's cuda_occupancy.h computes it (sim_device_model). */
size_t sim_shared_taken(size_t bytes, size_t reserved, int unit);
/* The profiles, oldest first: sim_device_at(0 .. sim_device_count()-1); NULL outside. */
int sim_device_count(void);
const sim_device_model *sim_device_at(int i);
/* "sm_75, sm_80, sm_86, sm_89, sm_90" into buf (for messages listing the known ones). */
void sim_device_names(char *buf, size_t len);

typedef struct sim sim_t;

/* Knobs of one simulator instance. Zero-initialise for defaults. */
typedef struct sim_config {
    uint64_t step_limit; /* max warp instructions per launch; 0 = default (2^32) */
    /* Wall-clock limit of one launch, seconds (0 = none): past it the launch stops with
     * SIM_FAULT_STEP_LIMIT, like the step limit, naming the time. Checked every 2^16
     * warp instructions, so it may be overrun by that much. */
    double time_limit_s;
    /* Barrier semantics. 0 (default, as Volta and later GPUs behave; README "Simulator"):
     * a barrier is released once every non-exited thread of the CTA waits at the same
     * barrier id, so a bar.sync that only part of the block reaches completes when the
     * rest has exited. 1 (strict, like compute-sanitizer synccheck): released only when
     * every thread of the CTA waits at the same bar.sync instruction; threads that
     * exited while others wait make it a deadlock. */
    int barrier_strict;
    /* Trace of each launch (trace/trace.h), or NULL for none. Not owned: the caller
     * creates it with trace_new, sets its level (and sink), and reads it after
     * sim_launch; every launch starts it afresh (trace_begin_launch). */
    trace_t *trace;
    /* Scheduling (--schedule). 0 (default): deterministic, blocks in linear order,
     * warps round-robin one instruction each, 2 resident blocks per modelled SM. 1:
     * seeded random: blocks in a random order, and in each round the block's warps in a
     * random order, each issuing a random burst of 1..8 instructions; the resident
     * blocks per SM, the SMs' ids (%smid) and the warps' slots (%warpid) at random too.
     * The same seed gives the same run. */
    int schedule_random;
    uint64_t schedule_seed;
    /* Checkers to turn off (SIM_CHECK_* bits; 0 = every checker on). Out-of-bounds
     * and misaligned accesses are always checked. */
    unsigned checks_off;
    /* Most findings kept in sim_result.findings; 0 = default (100). */
    int max_findings;
    /* The device modelled (launch and shared-memory limits, residency, %nsmid); NULL:
     * sim_device(). Not owned (the profiles are static). */
    const sim_device_model *device;
    /* Thread block cluster shape of every launch (cudaLaunchKernelEx with
     * cudaLaunchAttributeClusterDimension; CUDA C++ Programming Guide "Thread Block
     * Clusters"), CTAs in x, y, z; 0s: the kernel's own (.reqnctapercluster), else none. */
    unsigned cluster[3];
    /* The execution tier (--sim-tier; SIM_TIER_*): the interpreter, the translating
     * tier (sim/jit.c: straight-line register-only blocks of converged warps and the
     * lockstep regions of a block compiled to host code; the interpreter runs everything
     * else, and the regions' loads and stores), or auto: the translating tier
     * for launches of SIM_JIT_AUTO_WARPS warps or more. Results, findings, traces and
     * statistics are the same on every tier. */
    int tier;
    /* Folder of the translating tier's compiled blocks (created if missing, its parent
     * must exist); NULL or "": the tier is off (the interpreter runs). Not owned. */
    const char *jit_dir;
    /* The memory budget: bytes of simulated memory the instance may hold at once, 0 for
     * no limit. It counts what a GPU would hold in device memory: the global allocations
     * (sim_malloc, the module's .global and .const variables) and, during a launch, the
     * local memory, registers, parameter space and shared memory of its resident blocks.
     * Checked before allocating, never by running out: sim_malloc past it returns
     * SIM_ERR_NOMEM with nothing allocated (sim_memory_used tells the caller what is
     * held); a launch whose module variables, or whose one resident block (a cluster's
     * blocks), do not fit returns SIM_ERR_LAUNCH with a message naming the sizes and the
     * limit; a launch runs fewer blocks at once when all that the device profile allows
     * do not fit. The checkers' shadows (host memory) are not counted. */
    uint64_t memory_limit;
    /* Worker threads a launch's blocks may run on (--sim-threads); 0 or 1: one. Results,
     * findings, statistics, faults and traces are the one-thread run's, byte for byte: a
     * launch runs on the workers only when nothing can tell (deterministic schedule, no
     * trace, no %clock/%smid/%warpid, no clusters), and it is run again on one thread when
     * its blocks turn out to share written memory, report a finding, fault or print
     * (sim_par.c; docs/architecture.md "Blocks on all cores"). */
    unsigned threads;
} sim_config;

/* Execution tiers (sim_config.tier). */
enum { SIM_TIER_AUTO, SIM_TIER_INTERP, SIM_TIER_JIT };
/* The smallest launch, in warps of the whole grid, that SIM_TIER_AUTO translates. The
 * tier saves up to about 30% of the interpreter's time (vec_add; sgemm, reduce and scan
 * 0-10%) and its first compile of a kernel costs 0.3-0.9 s (0.5-2 s on the GPU
 * machine's cores): vec_add repays it from about 2.5 million warps (bench/README.md
 * "Translating tier"). */
#define SIM_JIT_AUTO_WARPS (1ull << 21)

/* The C compiler runs of the translating tier in this process so far (each compiles
 * one module's blocks; a cached module is loaded without one). */
unsigned long sim_jit_compiles(void);

/* Checkers (sim_config.checks_off). */
enum {
    SIM_CHECK_RACE = 1u << 0,        /* shared-memory hazards between threads (racecheck) */
    SIM_CHECK_INIT = 1u << 1,        /* reads of never-written global or shared memory
                                   (initcheck) */
    SIM_CHECK_SYNC = 1u << 2,        /* barriers reached by part of a block (synccheck) */
    SIM_CHECK_GLOBAL_RACE = 1u << 3, /* global-memory hazards between blocks, or between
                                        warps of a block, that nothing orders
                                        (SIM_FIND_GLOBAL_RACE) */
};

/* A new simulator with empty global memory; cfg may be NULL. NULL on out of memory. */
sim_t *sim_new(const sim_config *cfg);
void sim_free(sim_t *s);

/* Allocates `bytes` of simulated global memory (zero-filled, 256-byte aligned, with an
 * unmapped gap after it so overruns fault). label names the allocation in fault
 * reports (e.g. the launch-spec argument "c"). */
sim_status sim_malloc(sim_t *s, size_t bytes, const char *label, uint64_t *dptr);
/* Bytes of simulated global memory s holds now (its allocations and module variables,
 * as sim_config.memory_limit counts them). */
uint64_t sim_memory_used(const sim_t *s);
/* Writes the initial contents of an allocation: every one of the `bytes` bytes at dst
 * (dst is malloc'd memory, not zeroed). ctx is sim_malloc_init's. */
typedef void (*sim_fill_fn)(void *ctx, void *dst, size_t bytes);
/* sim_malloc, then the contents written by fill(ctx, data, bytes) in place (or zeros
 * when fill is NULL) and every byte marked written for initcheck, as if copied in by
 * sim_memcpy_htod, without a host copy. SIM_ERR_NOMEM when out of memory. */
sim_status sim_malloc_init(sim_t *s, size_t bytes, const char *label, sim_fill_fn fill, void *ctx,
                           uint64_t *dptr);
/* Hands the host memory holding allocation dptr's bytes (dptr as sim_malloc returned it)
 * to the caller, who frees it with free(). The allocation must not be accessed after
 * that (no launch, no copy): for taking a launch's results just before sim_free. NULL if
 * dptr starts no allocation or its memory was already handed over. */
void *sim_release_data(sim_t *s, uint64_t dptr);
/* sim_malloc whose bytes the host process reaches at the same address: the allocation's
 * memory is mapped at host address *dptr (page-aligned, zero-filled, every byte counted
 * as written for initcheck, since host stores are not seen), as cudaMallocManaged's
 * unified memory is one pointer on the host and in kernels. SIM_ERR_NOMEM when out of
 * memory or when that host address range is taken. */
sim_status sim_malloc_mapped(sim_t *s, size_t bytes, const char *label, uint64_t *dptr);
/* Frees the allocation starting at dptr (cudaFree): later accesses to it fault as out of
 * bounds. SIM_ERR_NOT_FOUND if no allocation starts there. */
sim_status sim_mfree(sim_t *s, uint64_t dptr);
/* The device address and size of module m's .global or .const variable `name` in s
 * (instantiated with the module's other variables on first use, as a launch does; each
 * module's variables live as long as s). SIM_ERR_NOT_FOUND if m has none of that name. */
sim_status sim_var_address(sim_t *s, const ptx_module_t *m, const char *name, uint64_t *dptr,
                           size_t *bytes);
/* Copies between host memory and a simulated global allocation.
 * SIM_ERR_LAUNCH if the range is not inside one allocation. */
sim_status sim_memcpy_htod(sim_t *s, uint64_t dst, const void *src, size_t bytes);
sim_status sim_memcpy_dtoh(sim_t *s, void *dst, uint64_t src, size_t bytes);
/* initcheck: marks bytes [dptr, dptr+bytes) of one allocation as written (written=1) or
 * never written (0). sim_memcpy_htod marks what it copies; sim_malloc'd memory starts
 * unwritten (its bytes are zeros, but a load of them is a SIM_FIND_UNINIT_READ
 * warning). SIM_ERR_LAUNCH if the range is not inside one allocation. */
sim_status sim_set_written(sim_t *s, uint64_t dptr, size_t bytes, int written);

/* What went wrong in a launch, as a value (the process never aborts; kinds.h
 * SIM_FAULT_LIST says what each means). */
typedef enum sim_fault_kind {
#define SIM_FAULT_ENUM(n, v) SIM_FAULT_##n = v,
    SIM_FAULT_LIST(SIM_FAULT_ENUM)
#undef SIM_FAULT_ENUM
} sim_fault_kind;

/* A state space (PTX ISA §5.1; trace/trace.h TRACE_SPACE_LIST). */
typedef enum sim_space {
#define SIM_SPACE_ENUM(n, v) SIM_SPACE_##n = v,
    TRACE_SPACE_LIST(SIM_SPACE_ENUM)
#undef SIM_SPACE_ENUM
} sim_space;

/* A fault record: kind, where (block, thread, PTX line, CUDA source line) and, for
 * memory faults, the access. message is a complete human-readable sentence. */
/* The allocation an out-of-bounds global access lies next to (sim_fault.near): the one
 * whose end it passed, or the nearest after it, within 1 MiB. */
typedef struct sim_alloc_near {
    char name[64];     /* the allocation's label (sim_malloc_named: a buffer's argument name) */
    uint64_t bytes;    /* its size in bytes; 0: no allocation near (the rest unset) */
    uint64_t distance; /* bytes from its end to the access (after), or from the access to
                          its start */
    int after;         /* 1 past its end, 0 before its start */
} sim_alloc_near;

typedef struct sim_fault {
    sim_fault_kind kind;
    sim_space space;
    int is_store;         /* 1 store, 0 load, 2 atomic */
    uint64_t address;     /* faulting address (generic or space-relative as accessed) */
    unsigned size;        /* access size, bytes */
    unsigned block[3];    /* blockIdx of the faulting thread */
    unsigned thread[3];   /* threadIdx of the faulting thread */
    int ptx_line;         /* line in the PTX text, 1-based; 0 unknown */
    const char *src_file; /* from .file/.loc, or NULL (owned by the module) */
    int src_line;         /* from .loc, 0 unknown */
    char message[512];    /* e.g. "out-of-bounds store of 4 bytes at 0x... : 0 bytes
                               past the end of 'c' (4000 bytes)" */
    sim_alloc_near near;  /* SIM_FAULT_OUT_OF_BOUNDS in global memory: the allocation the
                             message names; near.bytes 0 otherwise */
} sim_fault;

/* A checker finding, reported like compute-sanitizer (kind, address, size, space,
 * block, thread, source line) and, for hazards, the other access too. Errors end the
 * launch only where noted; warnings never do. */
typedef enum sim_finding_kind {
#define SIM_FIND_ENUM(n, v) SIM_FIND_##n = v,
    SIM_FINDING_LIST(SIM_FIND_ENUM) /* kinds.h says what each means */
#undef SIM_FIND_ENUM
} sim_finding_kind;

/* A race's order (kinds.h SIM_HAZARD_LIST). */
typedef enum sim_hazard {
#define SIM_HAZ_ENUM(n, v) SIM_HAZ_##n = v,
    SIM_HAZARD_LIST(SIM_HAZ_ENUM)
#undef SIM_HAZ_ENUM
} sim_hazard;

/* One access of a finding. */
typedef struct sim_access {
    int op;               /* 0 load, 1 store, 2 atomic */
    unsigned thread[3];   /* threadIdx */
    unsigned block[3];    /* blockIdx */
    int ptx_line;         /* 0 unknown */
    const char *src_file; /* owned by the module, or NULL */
    int src_line;         /* 0 unknown */
} sim_access;

typedef struct sim_finding {
    sim_finding_kind kind;
    int is_error; /* 1 error, 0 warning */
    sim_space space;
    uint64_t address;   /* as accessed: global absolute, shared/local offsets */
    unsigned size;      /* bytes of the access */
    sim_hazard hazard;  /* races: which order */
    sim_access access;  /* the access that found it (the later one for races) */
    sim_access other;   /* races: the earlier access; zero otherwise */
    uint64_t count;     /* times seen (findings with the same kind and lines are
                              reported once and counted) */
    char message[1024]; /* a complete sentence for learners, naming both lines */
    char var[64];       /* shared accesses: the variable and element, "s[63]" (the
                              element counted in units of the access's width), "" when
                              no .shared variable holds the address */
    int other_async;    /* SIM_FIND_RACE: the earlier access is an asynchronous copy
                              (cp.async) into shared memory that had not completed when
                              the later one read its bytes (other: the thread that
                              issued it, at the cp.async's line) */
} sim_finding;

/* Counters collected during a launch (always on; cheap). */
typedef struct sim_stats {
    uint64_t warp_instructions;   /* warp-level instructions issued */
    uint64_t thread_instructions; /* sum of active lanes over issued instructions */
} sim_stats;

/* Device printf output kept per launch: 1 MiB, the size of a GPU's printf buffer by
 * default (CUDA C++ Programming Guide, "Formatted Output": cudaLimitPrintfFifoSize). */
#define SIM_PRINTF_MAX_BYTES ((size_t)1 << 20)

/* Result of sim_launch. Free with sim_result_free. */
typedef struct sim_result {
    sim_fault fault;  /* fault.kind == SIM_FAULT_NONE when the kernel completed */
    char *printf_out; /* device printf output, in issue order (malloc'd, may be NULL),
                         at most SIM_PRINTF_MAX_BYTES */
    size_t printf_len;
    size_t printf_dropped; /* bytes of printf output past SIM_PRINTF_MAX_BYTES, not kept
                              (a GPU drops what overflows its printf buffer too) */
    sim_stats stats;
    sim_finding *findings; /* errors and warnings in the order found (malloc'd) */
    int nfindings;
    int findings_dropped;   /* occurrences not kept: new findings past
                              sim_config.max_findings */
    int nerrors, nwarnings; /* occurrences of error / warning findings (merged and
                              dropped ones included); nerrors > 0 means the kernel is
                              wrong even when it completed */
    uint64_t jit_blocks;    /* translated blocks and regions run (sim_config.tier); not
                               a statistic of the kernel: 0 on the interpreter */
    uint64_t regions;       /* lockstep regions run (deterministic schedules, either
                               tier; exec_issue.c sim_region_turn): not a statistic of
                               the kernel */
    unsigned threads;       /* threads the launch's blocks ran on (sim_config.threads):
                               1 when it ran on one, or ran again on one after its
                               parallel run was halted; not a statistic of the kernel */
} sim_result;
void sim_result_free(sim_result *r);

/* Runs `kernel` of module m over grid x block threads, like cuLaunchKernel:
 * params[i] points at the value of the i-th .param (its size from ptx_entry_params).
 * dynamic_shared: bytes of `extern __shared__` memory per block.
 * Returns SIM_OK when the kernel ran to completion, SIM_ERR_FAULT with res->fault
 * filled in when it faulted (memory stays as the kernel left it), SIM_ERR_NOT_FOUND,
 * SIM_ERR_LAUNCH (block over 1024 threads, zero dimension; message in
 * res->fault.message) or SIM_ERR_NOMEM. res is always initialised.
 * Where a thread runs (PTX ISA §10.4-10.9): the resident blocks share a few modelled SMs,
 * several to an SM as occupancy allows; %smid is the block's SM (the trace's BLOCK_START
 * and BLOCK_END aux), below %nsmid = the profile's sm_count; %warpid the warp's slot on
 * its SM, below %nwarpid = the profile's max_warps_per_sm, unique among the SM's
 * resident warps and not the warp's index in its block (sim.c sim_place). */
sim_status sim_launch(sim_t *s, const ptx_module_t *m, const char *kernel, const unsigned grid[3],
                      const unsigned block[3], unsigned dynamic_shared, void **params,
                      sim_result *res);

/* Fills the trace's static instruction table (trace.h trace_insn: source line, class,
 * op facts and full mnemonic per PC, decoded from the module once) and file names from
 * a parsed module. The simulator does it at each
 * traced launch (after trace_begin_launch); the GPU back end calls it for the PTX it
 * instruments, so that events from both back ends refer to the same PCs. 0, or -1 on
 * no memory. */
int sim_trace_describe(const ptx_module_t *m, trace_t *t);

/* Checks the printf format strings of a PTX module's text (the byte arrays of a module
 * that calls vprintf) against what CUDA's device printf supports (CUDA C++ Programming
 * Guide, "Formatted Output": flags #0+- and space, width digits or '*', precision digits,
 * sizes h l ll, types cdiouxXpeEfgGaAs). Anything else takes the GPU's arguments out of
 * step: wrong output, CUDA_ERROR_ILLEGAL_ADDRESS, or a crash of the host process that
 * formats the output. The GPU back end calls it before loading PTX; the simulator faults
 * on the same formats when the printf runs. Returns 0, or -1 with the reason in why. */
int sim_printf_check_ptx(const char *ptx, char *why, size_t whylen);

#endif
