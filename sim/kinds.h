/* kinds.h — what a launch reports, each list written once: every X(NAME, value) makes
 * sim.h's enum constant (SIM_FAULT_NAME, SIM_FIND_NAME, SIM_HAZ_NAME, SIM_ROOF_NAME) and
 * runtime's (runtime/result.h and backend.h: GL_FAULT_NAME, ...), which tui/ and cli/ see
 * instead of the simulator's, with the same value, so runtime/run.c copies a record's
 * kinds as they are. Public to runtime/: lists only, no type or function. The state
 * spaces are trace/trace.h's TRACE_SPACE_LIST (trace events name them too). */
#ifndef GL_SIM_KINDS_H
#define GL_SIM_KINDS_H

/* What ended a launch, as a value (compute-sanitizer memcheck's vocabulary):
 *   NONE           the kernel completed
 *   OUT_OF_BOUNDS  an access outside every allocation of its space
 *   MISALIGNED     an address not a multiple of the access size
 *   DEADLOCK       a barrier (bar.sync) that can never be released
 *   STEP_LIMIT     the endless-loop guard (sim_config.step_limit or time_limit_s)
 *   UNSUPPORTED    an instruction the simulator does not implement (the message names it)
 *   TRAP           trap / brkpt (PTX ISA §9.7.19) / a failed assert()
 * runtime's list goes on with GL_FAULT_GPU (a failure only the GPU reports). */
#define SIM_FAULT_LIST(X)                                                                          \
    X(NONE, 0)                                                                                     \
    X(OUT_OF_BOUNDS, 1)                                                                            \
    X(MISALIGNED, 2)                                                                               \
    X(DEADLOCK, 3)                                                                                 \
    X(STEP_LIMIT, 4)                                                                               \
    X(UNSUPPORTED, 5)                                                                              \
    X(TRAP, 6)

/* A checker's finding, reported like compute-sanitizer's memcheck, racecheck, synccheck
 * and initcheck. Errors end the launch only where noted; warnings never do.
 *   OUT_OF_BOUNDS, MISALIGNED   errors that end the launch (= the fault)
 *   UNINIT_READ       warning: a load of global bytes nothing wrote (not
 *                     sim_memcpy_htod, not a kernel), or of shared bytes no thread of the
 *                     block stored (poison here, arbitrary values on a GPU)
 *   RACE              error, the launch goes on: threads of different warps touch the same
 *                     shared bytes, at least one writes, with no barrier between
 *                     (RAW/WAR/WAW)
 *   WARP_RACE         error, the launch goes on: the same between lanes of one warp with
 *                     no __syncwarp between: a race under independent thread scheduling
 *                     (Volta+), which no GPU since Volta promises to run in lockstep
 *   DIVERGENT_BARRIER warning: threads of a block waited at different bar.sync
 *                     instructions (same id) and were released together; synccheck
 *                     reports it
 *   DEADLOCK, STEP_LIMIT   errors (= the fault)
 *   OTHER             error (= the fault): trap, unsupported, ...
 *   EXITED_BARRIER    warning: a barrier without a thread count released while threads
 *                     of the block had exited: legal PTX (exited threads do not count,
 *                     PTX ISA "bar"), but __syncthreads() in code part of the block
 *                     returned from breaks the CUDA C++ Programming Guide's rule (a
 *                     condition the same for the whole block)
 *   GLOBAL_RACE       error, the launch goes on: two accesses to the same global bytes,
 *                     at least one a store and not both strong (atomic, volatile,
 *                     .relaxed, .acquire, .release), from different blocks, or from
 *                     different warps of one block with no barrier between, with no
 *                     release (__threadfence(), a .release store or atomic) by the first
 *                     one's block after it followed by an acquire (an atomic or strong
 *                     load) by the second one's block before it (PTX ISA §8 "Memory
 *                     Consistency Model": the pair is a data race). An atomic and a plain
 *                     load are not reported (the CAS loop idiom). compute-sanitizer's
 *                     racecheck covers shared memory only. Within one warp it is not
 *                     checked, nor in allocations over 16 MiB or launches of over 2^22
 *                     blocks. */
#define SIM_FINDING_LIST(X)                                                                        \
    X(OUT_OF_BOUNDS, 1)                                                                            \
    X(MISALIGNED, 2)                                                                               \
    X(UNINIT_READ, 3)                                                                              \
    X(RACE, 4)                                                                                     \
    X(WARP_RACE, 5)                                                                                \
    X(DIVERGENT_BARRIER, 6)                                                                        \
    X(DEADLOCK, 7)                                                                                 \
    X(STEP_LIMIT, 8)                                                                               \
    X(OTHER, 9)                                                                                    \
    X(EXITED_BARRIER, 10)                                                                          \
    X(GLOBAL_RACE, 11)

/* A race's order: read after write, write after read, write after write. */
#define SIM_HAZARD_LIST(X) X(NONE, 0) X(RAW, 1) X(WAR, 2) X(WAW, 3)

/* The kinds of arithmetic a roofline gives a roof of their own (sim_device_model
 * flops_per_clk): the CUDA cores' FP32, FP64 and FP16 (half2: 2 lanes x 2 FLOPs per
 * fma), and the tensor cores' by input type (f16, bf16, tf32, int8, fp8 e4m3/e5m2,
 * f64; PTX ISA §9.7.14 "Warp-level matrix multiply-accumulate instructions"), dense.
 * Each enum ends with its count (SIM_ROOFS, GL_ROOFS). */
#define SIM_ROOF_LIST(X)                                                                           \
    X(FP32, 0)                                                                                     \
    X(FP64, 1)                                                                                     \
    X(FP16, 2)                                                                                     \
    X(TC_F16, 3)                                                                                   \
    X(TC_BF16, 4)                                                                                  \
    X(TC_TF32, 5)                                                                                  \
    X(TC_INT8, 6)                                                                                  \
    X(TC_FP8, 7)                                                                                   \
    X(TC_F64, 8)

#endif
