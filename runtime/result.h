/* result.h — what a compilation and a run report, in runtime's own types: the fault that
 * ended a launch (gl_fault), the checkers' findings (gl_finding), the launch's counters
 * (gl_stats) and the compiler's messages (gl_diag). Everything above runtime/ (tui/,
 * cli/) sees these, never the simulator's types; runtime/run.c converts the simulator's
 * records into them in one place (gl_run_sim).
 *
 * Every record is plain data: file names are copied into the record (not pointers into
 * a PTX module), so a record outlives the run and travels between processes as bytes. */
#ifndef GL_RESULT_H
#define GL_RESULT_H

#include <stdint.h>

#include "sim/kinds.h"
#include "trace/trace.h"

/* Longest file name a record keeps (longer ones are cut), bytes with the NUL. */
#define GL_FILE_MAX 256

/* What ended a launch: sim/kinds.h's SIM_FAULT_LIST (what each means), with the same
 * values, then GL_FAULT_GPU: the kernel failed on the GPU, a CUDA error (cuda_error), a
 * run past the time limit or a worker that died; the GPU names no thread, the simulator
 * shows where. */
typedef enum gl_fault_kind {
#define GL_FAULT_ENUM(n, v) GL_FAULT_##n = v,
    SIM_FAULT_LIST(GL_FAULT_ENUM) /* then runtime's own: */
    GL_FAULT_GPU
#undef GL_FAULT_ENUM
} gl_fault_kind;

/* A state space (PTX ISA §5.1): trace/trace.h's TRACE_SPACE_LIST, as the simulator's. */
typedef enum gl_space {
#define GL_SPACE_ENUM(n, v) GL_SPACE_##n = v,
    TRACE_SPACE_LIST(GL_SPACE_ENUM)
#undef GL_SPACE_ENUM
} gl_space;

/* The fault that ended a launch: kind, where (block, thread, its warp and lane, the PTX
 * line and the CUDA source file and line) and, for memory faults, the access. */
typedef struct gl_fault {
    gl_fault_kind kind; /* GL_FAULT_NONE: the kernel completed */
    gl_space space;
    int is_store;               /* 1 store, 0 load, 2 atomic */
    uint64_t address;           /* as accessed (generic, or an offset in its space) */
    unsigned size;              /* access size, bytes */
    unsigned block[3];          /* blockIdx of the faulting thread */
    unsigned thread[3];         /* threadIdx of the faulting thread */
    int warp, lane;             /* the thread's warp in its block and lane in the warp
                                    (linear thread id / 32 and % 32); -1 for a
                                    deadlock or an unsupported instruction, which name
                                    no thread */
    int ptx_line;               /* line in the PTX text, 1-based; 0 unknown */
    char src_file[GL_FILE_MAX]; /* CUDA source file from .file/.loc, "" unknown */
    int src_line;               /* CUDA source line from .loc, 0 unknown */
    char message[512];          /* a complete sentence, e.g. "out-of-bounds store of 4
                                    bytes at 0x...: 0 bytes past the end of 'c' ..." */
    /* An out-of-bounds access next to an allocation (alloc_bytes > 0): the allocation
     * (a buffer's argument name or a __shared__ variable), its size and how far the
     * access lies past its end (alloc_after 1: distance bytes from the end to the
     * access) or before its start (0). alloc_bytes 0: not known. */
    char alloc_name[64];
    uint64_t alloc_bytes;
    uint64_t alloc_distance;
    int alloc_after;
    /* GL_FAULT_GPU: the CUDA driver's error name (CUDA Driver API, "Error Handling":
     * cuGetErrorName), e.g. "CUDA_ERROR_ILLEGAL_ADDRESS"; "" for a time-out or a worker
     * that died (message says which). */
    char cuda_error[64];
} gl_fault;

/* A checker's finding (compute-sanitizer's memcheck, racecheck, synccheck, initcheck):
 * sim/kinds.h's SIM_FINDING_LIST (what each means), with the same values. */
typedef enum gl_finding_kind {
#define GL_FIND_ENUM(n, v) GL_FIND_##n = v,
    SIM_FINDING_LIST(GL_FIND_ENUM)
#undef GL_FIND_ENUM
} gl_finding_kind;

/* A race's order: read after write, write after read, write after write
 * (sim/kinds.h SIM_HAZARD_LIST). */
typedef enum gl_hazard {
#define GL_HAZ_ENUM(n, v) GL_HAZ_##n = v,
    SIM_HAZARD_LIST(GL_HAZ_ENUM)
#undef GL_HAZ_ENUM
} gl_hazard;

/* One access of a finding. */
typedef struct gl_access {
    int op;                     /* 0 load, 1 store, 2 atomic */
    unsigned thread[3];         /* threadIdx */
    unsigned block[3];          /* blockIdx */
    int warp;                   /* the thread's warp in its block: linear thread id / 32 */
    int ptx_line;               /* 0 unknown */
    char src_file[GL_FILE_MAX]; /* "" unknown */
    int src_line;               /* 0 unknown */
} gl_access;

/* A finding: kind, the access that found it and, for races, the earlier one. */
typedef struct gl_finding {
    gl_finding_kind kind;
    int is_error; /* 1 error, 0 warning */
    gl_space space;
    uint64_t address;   /* as accessed: global absolute, shared/local offsets */
    unsigned size;      /* bytes of the access */
    gl_hazard hazard;   /* races: which order */
    gl_access access;   /* the access that found it (the later one for races) */
    gl_access other;    /* races: the earlier access; zero otherwise */
    uint64_t count;     /* times seen (same kind and lines are reported once) */
    char message[1024]; /* a complete sentence for learners, naming both lines */
    char var[64];       /* shared accesses: the variable and element, "s[63]", or "" */
    int other_async;    /* GL_FIND_RACE: other is a cp.async (by the thread that issued
                           it) that had not completed when access read its bytes */
} gl_finding;

/* A launch's counters (simulator; zero on the GPU). */
typedef struct gl_stats {
    uint64_t warp_instructions;   /* warp-level instructions issued */
    uint64_t thread_instructions; /* sum of active lanes over issued instructions */
} gl_stats;

/* How serious a compiler message is. */
typedef enum gl_diag_severity {
    GL_DIAG_ERROR,   /* "error", "fatal error" (nvcc's "catastrophic error") */
    GL_DIAG_WARNING, /* "warning", "remark" */
    GL_DIAG_NOTE,    /* "note": context of the message before it */
} gl_diag_severity;

/* One compiler message with a place, parsed once from NVRTC's, nvcc's ("file(12): error:
 * ...") or clang's ("file:12:5: error: ...") output by runtime/compile. */
typedef struct gl_diag {
    char file[GL_FILE_MAX]; /* as the caller named the source when it is the compiled
                               file, else as the compiler wrote it (a header) */
    int line;               /* 1-based */
    int col;                /* 1-based; 1 when the compiler gave none */
    gl_diag_severity severity;
    char text[512]; /* the message after "severity: ", e.g. "identifier \"x\" is
                       undefined" (nvcc's "#20" number appended as " [#20]") */
} gl_diag;

/* "error", "warning" or "note". */
const char *gl_result_severity_name(gl_diag_severity s);

#endif
