/* backend.h — one interface over the two back ends (the simulator and the GPU), and
 * the "run a launch spec" pipeline built on it: compile, load, allocate, copy, launch,
 * copy back. */
#ifndef GL_BACKEND_H
#define GL_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/compile.h"
#include "runtime/gl.h"
#include "runtime/result.h"
#include "runtime/spec.h"
#include "trace/trace.h"

/* A parsed PTX module (sim/sim.h), opaque here. */
typedef struct ptx_module ptx_module_t;

typedef enum gl_backend_kind { GL_BACKEND_AUTO, GL_BACKEND_SIM, GL_BACKEND_GPU } gl_backend_kind;
const char *gl_run_backend_name(gl_backend_kind k); /* "auto", "sim", "gpu" */

/* Properties of a device, real or modelled (lesson 0 and `gpulearn info`). */
typedef struct gl_device_info {
    char name[256];
    int is_simulator;
    int compute_major, compute_minor;
    int sm_count;
    int warp_size; /* lanes */
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_block_dim[3];
    int max_grid_dim[3];
    int regs_per_block;
    size_t shared_bytes_per_block;    /* default limit, bytes */
    size_t shared_bytes_per_sm;       /* bytes */
    size_t shared_reserved_per_block; /* bytes the driver adds to each block's shared
                                         memory (sim.h sim_device_model) */
    int shared_alloc_unit;            /* a block's shared memory is rounded up to this
                                         (bytes; 0: 1) */
    size_t global_bytes;              /* total global memory, bytes */
    size_t l2_bytes;
    int clock_khz; /* SM clock */
    int mem_clock_khz;
    int mem_bus_bits;
    double peak_bandwidth_gbs; /* 2 * mem_clock * bus_bits / 8, GB/s (1e9 B/s) */
    char driver[64];           /* driver version "13.0", or "" */
    /* GPU: device properties */
    int regs_per_sm;                     /* 32-bit registers per SM */
    int regs_per_thread;                 /* the most a thread may have: 255 */
    int reg_alloc_unit;                  /* a warp's registers come in multiples of
                                            this: 256 (0: 256) */
    int sm_partitions;                   /* an SM's sub-partitions, each with a share
                                            of its registers: 4 (0: 4) */
    int max_blocks_per_sm;               /* resident blocks per SM */
    size_t shared_bytes_per_block_optin; /* opt-in limit (cuFuncSetAttribute), bytes */
} gl_device_info;

/* The kinds of arithmetic with a roof of their own: sim/kinds.h's SIM_ROOF_LIST (the CUDA
 * cores' FP32, FP64 and FP16 (half2), the tensor cores' by input type, dense), then
 * their count. */
typedef enum gl_roof {
#define GL_ROOF_ENUM(n, v) GL_ROOF_##n = v,
    SIM_ROOF_LIST(GL_ROOF_ENUM) /* then their count: */
    GL_ROOFS
#undef GL_ROOF_ENUM
} gl_roof;

/* The roofline of the device a run modelled or ran on (gl_arch_peaks; README "In the
 * TUI", `L`). */
typedef struct gl_peaks {
    double gbs;              /* DRAM GB/s (1e9 B/s), 0 = unknown */
    double gflops[GL_ROOFS]; /* GFLOP/s of each kind (int8: G integer ops/s), dense; 0 =
                                 the device has no such unit, or unknown */
    uint64_t l2_bytes;       /* its L2, bytes (the DRAM model's, trace/dram.h), 0 unknown */
    char device[80];         /* "H100 SXM (Hopper), sm_90" or the GPU's name */
} gl_peaks;

/* ------------------------------------------------------------ GPU back end (gpu.c) */

/* Opaque GPU session: one context on device 0, driver loaded with dlopen. */
typedef struct gpu gpu_t;

/* Opens the GPU: dlopen("libcuda.so.1", or $GPULEARN_LIBCUDA), cuGetProcAddress at the
 * CUDA version built against, cuInit, device 0, its primary context. gpulearn calls it
 * only in the GPU worker process (runtime/worker.h): CUDA initialised in a process
 * before fork() is unusable in the child. GL_ERR_NODEVICE ("no NVIDIA driver
 * found (libcuda.so.1: ...)" / "no CUDA device") or GL_ERR_CUDA (CUDA's error name). */
gl_status gpu_open(gpu_t **out, gl_error *err);
void gpu_close(gpu_t *g);
gl_status gpu_device_info(gpu_t *g, gl_device_info *info, gl_error *err);
/* cuModuleLoadData on PTX text; errors include the JIT log. */
gl_status gpu_load_ptx(gpu_t *g, const char *ptx, gl_error *err);
gl_status gpu_malloc(gpu_t *g, size_t bytes, uint64_t *dptr, gl_error *err);
gl_status gpu_htod(gpu_t *g, uint64_t dst, const void *src, size_t bytes, gl_error *err);
gl_status gpu_dtoh(gpu_t *g, void *dst, uint64_t src, size_t bytes, gl_error *err);
/* Launches `kernel` of the loaded module and synchronises. Device printf output is
 * captured (malloc'd into *printf_out, caller frees) rather than left on stdout.
 * *elapsed_ms gets the kernel time from CUDA events (may be NULL). */
gl_status gpu_launch(gpu_t *g, const char *kernel, const unsigned grid[3], const unsigned block[3],
                     unsigned dynamic_shared, void **params, char **printf_out, double *elapsed_ms,
                     gl_error *err);
/* The thread block cluster shape (CTAs in x, y, z; 0s: none) of gpu_launch's later
 * launches, which then use cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
 * (CUDA Driver API §6.22). */
void gpu_set_cluster(gpu_t *g, const unsigned cluster[3]);
/* The occupancy inputs of `kernel` of the loaded module for blocks of `block` threads
 * with dynamic_shared bytes: occ = {registers per thread (CU_FUNC_ATTRIBUTE_NUM_REGS),
 * static shared bytes (CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES), resident blocks per SM
 * (cuOccupancyMaxActiveBlocksPerMultiprocessor: CUDA Driver API, Occupancy), SMs,
 * threads per SM}. Errors as gpu_launch. */
gl_status gpu_occupancy(gpu_t *g, const char *kernel, const unsigned block[3],
                        unsigned dynamic_shared, int occ[5], gl_error *err);
/* One launch timed by CUDA events recorded just before and after it on the default
 * stream (CUDA Driver API §6.19): *elapsed_ms, milliseconds (resolution about 0.5 us).
 * Before the start event, a read of twice the L2's size evicts what earlier work left
 * there (the inputs' copies leave dirty lines), so every timed run, the kernel's and a
 * library's alike, starts from the same cache state.
 * No printf capture (timing runs discard device printf). Errors as gpu_launch. */
gl_status gpu_time_launch(gpu_t *g, const char *kernel, const unsigned grid[3],
                          const unsigned block[3], unsigned dynamic_shared, void **params,
                          double *elapsed_ms, gl_error *err);

/* Times host calls that queue GPU work on the default stream (a library's, e.g.
 * cuBLAS): CUDA events recorded before and after fn(ctx, err) (CUDA Driver API §6.19),
 * *elapsed_ms in milliseconds; the L2 is scrubbed first, as for gpu_time_launch. fn's error is returned as it is. */
typedef gl_status (*gpu_call_fn)(void *ctx, gl_error *err);
gl_status gpu_time_calls(gpu_t *g, gpu_call_fn fn, void *ctx, double *elapsed_ms, gl_error *err);

/* A library's run of the same problem beside the kernel (the spec's
 * "reference_library": cuBLAS, runtime/cublas.h, or CUB, runtime/cub.h). */
typedef struct gl_library_run {
    int asked;      /* the spec asked for one */
    int ran;        /* 1: it ran and was timed */
    double ms;      /* median time of its timed calls, milliseconds (CUDA events) */
    double gflops;  /* SGEMM: 2 M N K / ms / 1e6; 0 for a memory-bound routine */
    double gbs;     /* CUB: the bytes it must read and write / ms / 1e6; 0 for SGEMM */
    char note[240]; /* what ran ("cuBLAS cublasSgemm_v2 (libcublas.so.13), 512 x 512 x
                       512") or why it did not ("skipped: libcublas not found ...") */
} gl_library_run;

/* Kernel timing of `gpulearn run --time`: CUDA events around the
 * uninstrumented kernel, after warm-up runs. Each timed run starts from the spec's
 * initial buffers (copied in again before it, outside the timed interval), so kernels
 * that accumulate (atomicAdd into an output) time the same work every run; the buffers
 * a run returns are those of the first, untimed run. */
typedef struct gl_timing {
    int reps, warmup; /* timed runs and warm-up runs; reps 0: not timed */
    double median_ms, min_ms, max_ms, q1_ms, q3_ms; /* kernel time, milliseconds */
    double bytes_moved;  /* declared in the spec ("bytes_moved"), else estimated */
    int bytes_estimated; /* 1: bytes_moved is the sum of the pointer buffers' sizes */
    double gbs;          /* achieved bandwidth: bytes_moved / median, GB/s (1e9 B/s) */
    double peak_gbs;     /* the device's theoretical bandwidth, 0 if unknown */
    double pct_of_peak;  /* 100 * gbs / peak_gbs, 0 if unknown */
    double flops;        /* declared in the spec ("flops"), 0 if not */
    double gflops;       /* flops / median / 1e9, 0 if not declared */
    char device[256];    /* the GPU's name */

    /* GPU runs of a spec with "reference_library", timed (--time) or not */
    gl_library_run library;
} gl_timing;

/* Fills t's bandwidth and FLOP/s from t->median_ms, the spec's declared "bytes_moved"
 * and "flops" (else the buffers' total size, marked estimated) and peak_gbs. */
void gl_run_timing_rates(const gl_spec *spec, double peak_gbs, gl_timing *t);

/* --------------------------------------------------------- running a spec (run.c) */

/* The limits of one launch when the caller sets none, the same for `gpulearn run`, the
 * TUI and the grader (`gpulearn --help` states them): wall time, on the GPU (the worker
 * is killed) and on the simulator (sim_config.time_limit_s); and, on the simulator, warp
 * instructions, a second guard that stops a launch at the same instruction on every
 * machine. An exercise may set a tighter step limit (lesson.json "step_limit"). */
#define GL_TIMEOUT_DEFAULT_S 10.0
#define GL_STEP_LIMIT_DEFAULT (UINT64_C(1) << 30)

/* The simulator's execution tier (--sim-tier): the interpreter, the translating tier
 * (straight-line blocks compiled to host code, cached under the PTX cache), or auto
 * (translating for large launches). Results are identical on every tier. */
typedef enum gl_sim_tier {
    GL_TIER_DEFAULT, /* GPULEARN_SIM_TIER (interp, jit or auto), else auto */
    GL_TIER_AUTO,
    GL_TIER_INTERP,
    GL_TIER_JIT,
} gl_sim_tier;

/* The tier named s ("interp", "jit", "auto"); GL_TIER_DEFAULT for another name. */
gl_sim_tier gl_run_sim_tier_parse(const char *s);

/* The largest --sim-threads gpulearn accepts. */
#define GL_SIM_THREADS_MAX 256
/* The worker threads named by s (--sim-threads, GPULEARN_SIM_THREADS): a whole number
 * from 1 to GL_SIM_THREADS_MAX; 0 for anything else. */
unsigned gl_run_sim_threads_parse(const char *s);

typedef struct gl_run_opts {
    gl_backend_kind backend; /* AUTO: the GPU when one works, else the simulator */
    gl_compile_opts compile;
    const char *source_override; /* compile this .cu instead of spec->source, or NULL */
    /* The simulator's occupancy: the registers per thread of the PTX's kernels counted
     * for the target (gl_compiled.regs, runtime/cubin.h's table; gl_run_spec sets it from
     * its compilation), or NULL with regs_why saying why they are not known (NULL: "not
     * counted"). A table counted for another target than the simulated one is not used. */
    const char *regs;
    const char *regs_why;
    uint64_t step_limit; /* simulator, warp instructions; 0 = GL_STEP_LIMIT_DEFAULT */
    double timeout_s;    /* wall-time limit of the kernel, seconds; 0 =
                                    GL_TIMEOUT_DEFAULT_S. The GPU worker running a kernel
                                    past it is killed; the simulator stops the launch
                                    with GL_FAULT_STEP_LIMIT */
    /* GPU: isolation, timing */
    int time_reps;   /* > 0: time the kernel over this many runs (--time) */
    int time_warmup; /* warm-up runs before the timed ones */
    /* GPU traces (runtime/instrument.h): gpu_trace = 1 with trace_level != OFF or
     * metrics on the GPU: an instrumented copy of the kernel runs once after the result
     * run (and after the timed runs, which use the uninstrumented kernel) and its trace
     * lands in res->trace / res->metrics like the simulator's: memory requests and block
     * start/end with SM id and %globaltimer, no issue/barrier/printf events (so
     * instruction counts and branch efficiency stay 0). 0 (default): GPU runs carry no
     * trace, as before. */
    int gpu_trace;
    size_t gpu_trace_records; /* capacity of the device trace buffer in records (320
                                    bytes each; a warp memory instruction or a block start
                                    or end is one); 0 = GL_ITRACE_DEFAULT_RECORDS (256 Ki);
                                    past it the trace is marked truncated */
    /* end GPU */
    /* trace, checkers, metrics */
    trace_level trace_level; /* simulator trace kept in res->trace: TRACE_OFF (none),
                                    TRACE_ISSUE or TRACE_MEMORY (trace/trace.h) */
    size_t trace_max_events; /* cap on stored events; 0 = default (1 Mi) */
    size_t snapshot_bytes;   /* shared-memory snapshots at each barrier release, cap
                                    on their total bytes; 0 = none */
    int trace_regs;          /* 1 (with trace_level != OFF): the simulator also records
                                    the register values each warp instruction wrote
                                    (TRACE_EV_REG, trace/trace.h); 32 values per
                                    destination, so keep launches small */
    int metrics;             /* 1: res->metrics from a memory-level trace, streamed
                                    (exact even when the stored trace is capped) */
    int schedule_random;     /* --schedule random:SEED (sim_config.schedule_random) */
    uint64_t schedule_seed;
    unsigned checks_off;      /* SIM_CHECK_* bits to turn off; 0 = every checker */
    int uninit_zero_buffers;  /* initcheck: buffers whose spec has no "init" count as
                                    never written (loads of them are warnings); default 0:
                                    they are zeros copied in, as on the GPU */
    trace_sink_fn trace_sink; /* simulator: also fed every event of a memory-level
                                    trace (made for it when none is asked for), after the
                                    metrics' sink; NULL: none. The grader counts its own
                                    figures with it */
    void *trace_sink_ctx;     /* trace_sink's ctx */
    /* end trace, checkers, metrics */
    unsigned sim_threads; /* worker threads of a simulated launch (--sim-threads,
                             sim_config.threads); 0: the environment's
                             GPULEARN_SIM_THREADS, else the cores (gl_pool_cores) */
    gl_sim_tier sim_tier; /* simulator tier (--sim-tier); GL_TIER_DEFAULT: the
                             environment's GPULEARN_SIM_TIER, else auto */
    /* The simulator's memory budget (sim_config.memory_limit), bytes: device memory
     * (the buffers, __device__ and __constant__ data) and the local, shared and register
     * memory of the resident blocks, checked before anything is allocated; 0:
     * gl_run_memory_limit_default(). A launch past it fails with GL_ERR_LAUNCH and a message
     * naming the sizes and the limit ("the kernel asks for 16 GiB of device memory ...;
     * the memory limit is 2 GiB"), never by running the machine out of memory. */
    uint64_t memory_limit;
    const char *memory_limit_origin; /* where memory_limit came from, for messages
                                        ("--memory-limit", "\"memory_limit\" of the lesson");
                                        NULL: the default's words */
    /* 1: the simulation runs in a sandboxed child (gl_sandbox_spawn: user nobody when
     * run as root, Landlock, no network, a CPU limit), whose address space (RLIMIT_AS) is
     * bounded a little above the budget as a net under it: how the grader runs a
     * submission's kernel. The result comes back as gl_run_sim's would, without a stored
     * trace (trace_level must be TRACE_OFF); trace_sink runs in the child, and the first
     * trace_sink_ctx_bytes bytes of its ctx (plain data) come back into the caller's.
     * GL_ERR_TOOL when the sandbox cannot be made. */
    int sandbox;
    size_t trace_sink_ctx_bytes;
} gl_run_opts;

/* The memory budget a run has when none is given (gl_run_opts.memory_limit 0): half of
 * the memory the system has available now (MemAvailable in /proc/meminfo), at least
 * 256 MiB; 4 GiB where that cannot be read. */
uint64_t gl_run_memory_limit_default(void);
/* The memory budget of a graded launch when neither the lesson ("memory_limit" of its
 * exercise) nor --memory-limit sets one: 2 GiB. */
#define GL_MEMORY_LIMIT_GRADE (UINT64_C(2) << 30)

/* The occupancy of a launch (CUDA C++ Programming Guide, "Occupancy Calculator";
 * Nsight Compute's launch__occupancy_limit_* and sm__warps_active.avg.pct_of_peak_
 * sustained_active). Theoretical: the resident blocks per SM the limits allow, as a
 * share of the SM's warps. Achieved is an estimate: blocks of equal length run in waves
 * of sm_count * blocks_per_sm; it is the share of the warp slots of the SMs with work
 * that hold a warp, averaged over the waves, as Nsight Compute averages over each SM's
 * active cycles: an SM with no block counts for nothing, so a grid of 4 blocks on 132
 * SMs can be 50% achieved with 128 SMs idle (gl_run_occupancy_describe says both). */
typedef struct gl_occupancy {
    int valid;           /* 0: not computed (the launch did not start) */
    int warps_per_block; /* a partial warp counts as one */
    int max_warps_per_sm;
    int sm_count;
    int blocks_per_sm;     /* the theoretical limit; 0 only when a block needs more
                              registers than an SM gives one block (a GPU refuses the
                              launch: "too many resources requested for launch") */
    char limiter[16];      /* what sets blocks_per_sm: "threads", "blocks", "shared
                                 memory" or "registers" */
    int regs_known;        /* 1: regs_per_thread is the kernel's count for the target */
    int regs_per_thread;   /* the GPU driver's (CU_FUNC_ATTRIBUTE_NUM_REGS), or on the
                              simulator ptxas's for the modelled target (gl_compiled.regs);
                              0 when not known */
    char regs_why[160];    /* why registers are not known, when not: "no CUDA Toolkit
                              (ptxas) to count them" */
    int bound;             /* 1: registers are not known and nothing else counted them, so
                              theoretical (and achieved) are upper bounds: "at most" */
    unsigned shared_bytes; /* per block: static + dynamic */
    double theoretical;    /* 0..1 */
    double achieved;       /* 0..1, the estimate above */
    uint64_t waves;
    int sms_used;    /* SMs with a block in the first wave */
    uint64_t blocks; /* blocks of the launch */
} gl_occupancy;

/* Fills *o for a launch of grid x block threads with shared_bytes of shared memory per
 * block on device d. regs: registers per thread, or -1 when not known (o->bound then,
 * unless blocks_per_sm_known). The register limit is the CUDA Occupancy Calculator's
 * (cuda_occupancy.h cudaOccMaxBlocksPerSMRegsLimit; Nsight Compute's "Block Limit
 * Registers"): a warp gets regs x 32 rounded up to d->reg_alloc_unit, in one of the SM's
 * d->sm_partitions sub-partitions of regs_per_sm / sm_partitions each; a block whose warps,
 * rounded up to a multiple of the partitions, need more than d->regs_per_block does not
 * fit at all (blocks_per_sm 0). blocks_per_sm_known > 0 overrides the computed limit (the
 * driver's cuOccupancyMaxActiveBlocksPerMultiprocessor, which counts registers too). */
void gl_run_occupancy_of(const gl_device_info *d, const unsigned grid[3], const unsigned block[3],
                         unsigned shared_bytes, int regs, int blocks_per_sm_known, gl_occupancy *o);

/* o in one line of text for the Result (buf, n bytes): "occupancy: 100% theoretical
 * (limit: threads), about 12% achieved on the 4 SMs with work: 104 of 108 SMs idle" (the
 * achieved figure is of the SMs with work: the idle ones are said apart), or ": 217 blocks
 * in 2 waves on 108 SMs, the last on 1" (the SMs the last wave keeps busy); modelled: the
 * simulator's model, with the registers ptxas counted for its target ("occupancy
 * (modelled, 72 registers per thread for sm_75): 75% theoretical (limit: registers)"), or
 * with none: "occupancy (modelled): at most 100% theoretical (limit without registers:
 * threads; registers per thread unknown: no CUDA Toolkit (ptxas) to count them)". */
void gl_run_occupancy_describe(const gl_occupancy *o, int modelled, char *buf, size_t n);

/* The kernels (.entry directives, in the order of the PTX) of a module's PTX text and
 * the number of parameters of each: names[i] (malloc'd, the PTX name: mangled unless
 * extern "C") and nparams[i]. Returns how many, 0 when none, or -1 when the PTX does not
 * parse or memory runs out (nothing to free then). Free with gl_run_ptx_kernels_free. */
int gl_run_ptx_kernels(const char *ptx, char ***names, int **nparams);
void gl_run_ptx_kernels_free(char **names, int *nparams, int n);

/* Everything one run produced. Free with gl_run_result_free. */
typedef struct gl_run_result {
    gl_backend_kind backend; /* SIM or GPU: what actually ran */
    char note[512];          /* e.g. "no NVIDIA driver found: running on the simulator" */
    gl_compiler compiler;    /* which compiler produced the PTX */
    gl_buffer *buffers;      /* after the kernel, one per arg (scalars: NULL data) */
    int nargs;
    char *stdout_text;      /* device printf output ("" if none) */
    gl_fault fault;         /* the fault that ended the launch, kind GL_FAULT_NONE if none; on the
                          GPU kind GL_FAULT_GPU (the TUI offers a re-run on the simulator) */
    gl_stats stats;         /* simulator counters (zero on the GPU) */
    unsigned block_threads; /* the threads the simulator ran the launch's blocks on
                             (sim_result.threads; 0 when not known: the GPU, a sandbox) */
    double elapsed_ms;      /* GPU kernel time, 0 on the simulator */
    char *ptx;              /* the PTX that ran */
    /* GPU: isolation, timing */
    int cached;                /* the PTX came from the compilation cache */
    char compile_command[512]; /* the compiler's command line / options (gl_compiled) */
    char *compile_log;         /* gl_run_spec: the compiler's warnings (and gpulearn's
                                 notes on the compilation), or NULL */
    gl_diag *diags;            /* gl_run_spec: the compiler's messages, parsed
                                 (gl_compiled.diags): the errors on GL_ERR_COMPILE, else
                                 its warnings; NULL when none */
    int ndiags;
    gl_timing timing; /* opts.time_reps > 0 on the GPU; reps 0 otherwise */
    /* end GPU */
    /* trace, checkers, metrics */
    trace_t *trace;             /* opts.trace_level != OFF, or NULL (freed by
                                 gl_run_result_free_trace) */
    struct gl_metrics *metrics; /* opts.metrics, or NULL (trace/analysis.h) */
    gl_finding *findings;       /* checker errors and warnings, or NULL */
    int nfindings, findings_dropped;
    int nerrors, nwarnings; /* occurrences; nerrors > 0: the kernel is wrong even when
                                 it completed (a race) */
    /* end trace, checkers, metrics */
    /* buffer addresses: the device address each argument's buffer had in the run, one
     * per arg (0 for scalars; nargs entries, malloc'd, or NULL when nothing was
     * allocated). Simulator: sim_malloc's addresses; GPU: cuMemAlloc's, sent back by
     * the worker (the instrumented trace run uses the same buffers). Lets traces of the
     * two back ends be compared as (argument, offset) and views name the buffer. */
    uint64_t *dptr;
    /* end buffer addresses */
    gl_occupancy occupancy; /* of the launch that ran (valid 0 when none did) */
    gl_peaks peaks;         /* the simulator's device profile; on the GPU when the worker
                               sent its properties (timed runs), else zeros */
} gl_run_result;
void gl_run_result_free(gl_run_result *r);
/* Frees the issue-3 parts of r (trace, metrics, findings) and clears them; to be called
 * from gl_run_result_free. */
void gl_run_result_free_trace(gl_run_result *r);

/* Compiles spec->source (or opts->source_override), allocates and initialises the
 * buffers, launches on the chosen back end and copies every buffer back.
 * Returns GL_OK, GL_ERR_FAULT (res->fault and err->msg say where: "kernel.cu:5: block
 * (3,0,0) thread (232,0,0): out-of-bounds store ..."), GL_ERR_COMPILE, GL_ERR_LAUNCH
 * (argument count or sizes do not match the kernel), GL_ERR_NODEVICE (backend GPU
 * with no GPU), GL_ERR_CUDA, GL_ERR_UNSUPPORTED. res is initialised in every case and
 * keeps what was produced (buffers after a fault, stdout). */
gl_status gl_run_spec(const gl_spec *spec, const gl_run_opts *opts, gl_run_result *res,
                      gl_error *err);

/* The .entry of m that a spec's "kernel" names: the exact name, else a C++ mangled
 * name _Z<len><name>... (a kernel declared without extern "C"). NULL if none. */
const char *gl_run_resolve_kernel(const ptx_module_t *m, const char *name);

/* How a spec's arguments fit a kernel's .param list (gl_run_params_fit). */
typedef struct gl_param_fit {
    int found;            /* 0: m has no .entry of that name */
    int nparams;          /* the kernel's parameter count (0 when not found) */
    int bad_arg;          /* counts equal: the first argument whose size is not its
                              parameter's, else -1 */
    unsigned param_bytes; /* that parameter's size, bytes */
} gl_param_fit;

/* Whether spec's arguments fit the .param list of `kernel` of m: as many, each the size
 * of its parameter (a pointer 8 bytes, a scalar its type's). 1 when they do; else 0 and
 * *fit says how they do not (callers word the error for their audience). */
int gl_run_params_fit(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                      gl_param_fit *fit);

/* A scalar argument's value as the kernel receives it: its type's width of raw bytes
 * (little-endian on host and device) at the start of *slot, the rest zero. */
void gl_run_scalar_bytes(const gl_arg *a, uint64_t *slot);

/* Same with already-compiled PTX (the grader compiles each file once). */
gl_status gl_run_ptx(const gl_spec *spec, const char *ptx, const gl_run_opts *opts,
                     gl_run_result *res, gl_error *err);

/* The one simulator run of gpulearn (`run`, the TUI and every run of the grader): runs
 * `kernel` of module m (an .entry, as gl_run_resolve_kernel names it) once on a fresh
 * simulator over spec's grid, block, dynamic shared memory and arguments. The caller has
 * checked the arguments against the kernel's parameters and owns m. The simulator's
 * fault and findings are converted here, the one place, into res->fault and
 * res->findings (runtime/result.h: file names copied, warp and lane filled in).
 * res->buffers (res->nargs == spec->nargs) hold the initial contents on entry
 * (spec_buffers_new), or no data (spec_buffers_sized: each buffer is then generated from
 * its init straight into simulated memory, and that memory handed over into
 * res->buffers afterwards: one copy of each buffer, not two); on return, what the
 * kernel left, also after a fault.
 * opts (NULL: defaults) as for gl_run_spec; the simulator reads step_limit, timeout_s,
 * schedule_random/seed, checks_off, uninit_zero_buffers, the trace fields, metrics and
 * trace_sink. Sets res->fault, stats, stdout_text, findings, occupancy, trace, metrics
 * and dptr (the buffers' simulated addresses), and may append to res->note.
 * Returns GL_OK; GL_ERR_FAULT or GL_ERR_UNSUPPORTED when the kernel faulted (err->msg:
 * "kernel.cu:5: block (3,0,0) thread (232,0,0): out-of-bounds store ..."); GL_ERR_LAUNCH
 * when the simulator refused the launch (res->fault.message says why); GL_ERR_NOMEM. */
gl_status gl_run_sim(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                     const gl_run_opts *opts, gl_run_result *res, gl_error *err);

/* The device profile a simulator run models, by precedence: the run's target
 * (opts->compile.arch: --arch), else the spec's "arch", else the default (sim_device).
 * *origin says which, for messages ("--arch", "\"arch\" of the launch", "the
 * default"). A GPU run of gl_run_spec with neither compiles for the GPU's own compute
 * capability instead. */
struct sim_device_model;
const struct sim_device_model *gl_run_profile(const gl_spec *spec, const gl_run_opts *opts,
                                              const char **origin);

/* Device properties of the back end `kind` would run on (AUTO: GPU if present, else
 * the simulator's model; note says which). */
gl_status gl_run_device_query(gl_backend_kind kind, gl_device_info *info, char *note,
                              size_t note_len, gl_error *err);

#endif
