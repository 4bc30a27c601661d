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
sim_status ptx_entry_params(const ptx_module_t *m, const char *kernel,
                            ptx_param_info *params, int max, int *count);

/* Source file named by `.file` index `file` in the module, or NULL. */
const char *ptx_source_file(const ptx_module_t *m, int file);

/* ------------------------------------------------------------------- simulator */

/* The simulator's model of a device (what lesson 0 shows for the simulator). */
typedef struct sim_device_model {
    const char *name;              /* "gpulearn SIMT simulator" */
    int sm_count;                  /* modelled SMs (blocks are assigned round-robin) */
    int warp_size;                 /* 32 lanes */
    int max_threads_per_block;     /* 1024 */
    int max_block_dim[3];          /* 1024, 1024, 64 */
    unsigned max_grid_dim[3];      /* 2^31-1, 65535, 65535 */
    size_t shared_bytes_per_block; /* 48 KiB static + dynamic default */
    int compute_major, compute_minor; /* PTX target modelled: 7.5 */
} sim_device_model;

/* The simulator's device model (static storage). */
const sim_device_model *sim_device(void);

typedef struct sim sim_t;

/* Knobs of one simulator instance. Zero-initialise for defaults. */
typedef struct sim_config {
    uint64_t step_limit; /* max warp instructions per launch; 0 = default (2^32) */
    /* Barrier semantics. 0 (default, as Volta and later GPUs behave; ARCHITECTURE.md):
     * a barrier is released once every non-exited thread of the CTA waits at the same
     * barrier id, so a bar.sync that only part of the block reaches completes when the
     * rest has exited. 1 (strict, like compute-sanitizer synccheck): released only when
     * every thread of the CTA waits at the same bar.sync instruction; threads that
     * exited while others wait make it a deadlock. */
    int barrier_strict;
} sim_config;

/* A new simulator with empty global memory; cfg may be NULL. NULL on out of memory. */
sim_t *sim_new(const sim_config *cfg);
void sim_free(sim_t *s);

/* Allocates `bytes` of simulated global memory (zero-filled, 256-byte aligned, with an
 * unmapped gap after it so overruns fault). label names the allocation in fault
 * reports (e.g. the launch-spec argument "c"). */
sim_status sim_malloc(sim_t *s, size_t bytes, const char *label, uint64_t *dptr);
/* Copies between host memory and a simulated global allocation.
 * SIM_ERR_LAUNCH if the range is not inside one allocation. */
sim_status sim_memcpy_htod(sim_t *s, uint64_t dst, const void *src, size_t bytes);
sim_status sim_memcpy_dtoh(sim_t *s, void *dst, uint64_t src, size_t bytes);

/* What went wrong in a launch, as a value (the process never aborts). */
typedef enum sim_fault_kind {
    SIM_FAULT_NONE = 0,
    SIM_FAULT_OUT_OF_BOUNDS, /* access outside every allocation of its space */
    SIM_FAULT_MISALIGNED,    /* address not a multiple of the access size */
    SIM_FAULT_DEADLOCK,      /* bar.sync that can never be released */
    SIM_FAULT_STEP_LIMIT,    /* endless loop guard (sim_config.step_limit) */
    SIM_FAULT_UNSUPPORTED,   /* instruction not implemented: message names it */
    SIM_FAULT_TRAP,          /* trap / brkpt / assert */
} sim_fault_kind;

typedef enum sim_space {
    SIM_SPACE_GENERIC, SIM_SPACE_GLOBAL, SIM_SPACE_SHARED, SIM_SPACE_LOCAL,
    SIM_SPACE_CONST, SIM_SPACE_PARAM,
} sim_space;

/* A fault record: kind, where (block, thread, PTX line, CUDA source line) and, for
 * memory faults, the access. message is a complete human-readable sentence. */
typedef struct sim_fault {
    sim_fault_kind kind;
    sim_space space;
    int is_store;           /* 1 store, 0 load, 2 atomic */
    uint64_t address;       /* faulting address (generic or space-relative as accessed) */
    unsigned size;          /* access size, bytes */
    unsigned block[3];      /* blockIdx of the faulting thread */
    unsigned thread[3];     /* threadIdx of the faulting thread */
    int ptx_line;           /* line in the PTX text, 1-based; 0 unknown */
    const char *src_file;   /* from .file/.loc, or NULL (owned by the module) */
    int src_line;           /* from .loc, 0 unknown */
    char message[512];      /* e.g. "out-of-bounds store of 4 bytes at 0x... : 0 bytes
                               past the end of 'c' (4000 bytes)" */
} sim_fault;

/* Counters collected during a launch (always on; cheap). */
typedef struct sim_stats {
    uint64_t warp_instructions;   /* warp-level instructions issued */
    uint64_t thread_instructions; /* sum of active lanes over issued instructions */
} sim_stats;

/* Result of sim_launch. Free with sim_result_free. */
typedef struct sim_result {
    sim_fault fault;  /* fault.kind == SIM_FAULT_NONE when the kernel completed */
    char *printf_out; /* device printf output, in issue order (malloc'd, may be NULL) */
    size_t printf_len;
    sim_stats stats;
} sim_result;
void sim_result_free(sim_result *r);

/* Runs `kernel` of module m over grid x block threads, like cuLaunchKernel:
 * params[i] points at the value of the i-th .param (its size from ptx_entry_params).
 * dynamic_shared: bytes of `extern __shared__` memory per block.
 * Returns SIM_OK when the kernel ran to completion, SIM_ERR_FAULT with res->fault
 * filled in when it faulted (memory stays as the kernel left it), SIM_ERR_NOT_FOUND,
 * SIM_ERR_LAUNCH (block over 1024 threads, zero dimension; message in
 * res->fault.message) or SIM_ERR_NOMEM. res is always initialised. */
sim_status sim_launch(sim_t *s, const ptx_module_t *m, const char *kernel,
                      const unsigned grid[3], const unsigned block[3],
                      unsigned dynamic_shared, void **params, sim_result *res);

#endif
