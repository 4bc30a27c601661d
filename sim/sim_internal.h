/* sim_internal.h — private to sim/: simulator instance, launch context, memory access.
 *
 * Address windows (generic addressing, PTX ISA §6.4.1 "Generic addressing"):
 *   global allocations   [SIM_GLOBAL_BASE, SIM_SHARED_WIN)
 *   shared window        [SIM_SHARED_WIN, +4 GiB)  shared address = generic - window
 *   local window         [SIM_LOCAL_WIN,  +4 GiB)  local address  = generic - window
 * Parameter space: kernel parameters at [0, kparam_size); a thread's function
 * parameter frames at SIM_PARAM_FRAME + offset.
 */
#ifndef GL_SIM_INTERNAL_H
#define GL_SIM_INTERNAL_H

#include "sim/ptx/ptx.h"
#include "sim/sim.h"

#define SIM_GLOBAL_BASE 0x0000700000000000ull
#define SIM_SHARED_WIN 0x00007e0000000000ull
#define SIM_LOCAL_WIN 0x00007f0000000000ull
#define SIM_WIN_SIZE 0x0000000100000000ull
#define SIM_PARAM_FRAME 0x0000010000000000ull
/* Distributed shared memory (PTX ISA §5.1.5.1, the .shared::cluster window, sm_90): the
 * shared address (rank + 1) << SIM_DSMEM_SHIFT | off is byte off of the shared memory of
 * the CTA of cluster rank `rank` (what mapa returns); addresses below 1 << SIM_DSMEM_SHIFT
 * are the executing CTA's own (.shared::cta addresses are valid .shared::cluster ones).
 * In generic addresses it sits inside the shared window. */
#define SIM_DSMEM_SHIFT 24
#define SIM_DSMEM_OFF_MASK ((1ull << SIM_DSMEM_SHIFT) - 1)
/* Racecheck's name for thread u of the cluster's CTA of rank r when it accesses another
 * CTA's shared memory: SIM_CLUSTER_TID | r << 10 | u (u < 1024, r < 16), in the shadows of
 * the CTA it accessed (sim_race.c sim_race_check_remote). */
#define SIM_CLUSTER_TID 0x8000u
#define SIM_MAX_DEPTH 32
#define SIM_ITS_WARPS 32 /* warps per block at most (1024 threads) */
#define SIM_SHREL 8      /* release writes to shared memory racecheck remembers */
#define SIM_AHEAD_MAX 32 /* register-only instructions a warp may run ahead of its turn */

/* The global-memory race detector's record of one access (sim_mem.h grace_check). */
typedef struct sim_gacc {
    uint32_t block; /* the launch's tag << 23 | (linear block index + 1); a record of
                        another launch, or 0, is empty (sim_mem.h GRACE_KEY) */
    int32_t pc;     /* the instruction */
    uint16_t epoch; /* the block's barrier interval at the access (sim_ctx.epoch) */
    uint16_t tid;   /* linear thread index in the block */
    uint8_t rel;    /* the block's releases before the access (mod 256) */
    uint8_t bits;   /* bits 0-3: the bytes of the word; 4-5: op (0 load, 1 store,
                        2 atomic); 6: strong (atomic or volatile/relaxed/acquire/release) */
    uint16_t pad;
} sim_gacc;

/* Per 4-byte word of a global allocation: its last store or atomic, and one read since
 * then (sim_mem.h grace_check). */
typedef struct sim_gword {
    sim_gacc w, r;
} sim_gword;

/* One global allocation (sim_malloc or a module variable). */
typedef struct sim_alloc {
    uint64_t base;
    size_t size;
    char label[64];
    unsigned char *data;
    unsigned char *written; /* initcheck: 1 bit per byte written (htod or kernel) */
    int mapped;             /* data is mmap'd at host address base (sim_malloc_mapped) */
    sim_gword *gsh;         /* race detector: one per word, or NULL (allocated when a
                               launch first checks the allocation) */
    uint64_t gsh_launch;    /* sim.launches when gsh was last used */
} sim_alloc;

/* Launches of more blocks than this go without the global-memory race detector (its
 * per-block state would take over 17 bytes per block). */
#define SIM_GRACE_MAX_BLOCKS (1u << 22)
/* Allocations larger than this go unchecked by it (its shadow takes 8 bytes per byte):
 * 16 MiB, 4 Mi words, beyond every graded size. */
#define SIM_GRACE_MAX_BYTES ((size_t)1 << 24)

/* The global-memory race detector's state of one launch, shared by the contexts of its
 * resident blocks; times are the launch's warp instructions (sim_ctx.steps) + 1. */
typedef struct sim_grace {
    uint32_t tag;       /* the launch's 9-bit tag in its records (sim_mem.h GRACE_KEY) */
    uint64_t *rel_time; /* per block: its latest release (a non-.cta fence, or a
                           .release store/atomic); 0 none */
    uint8_t *rel_count; /* per block: its releases (mod 256) */
    uint64_t *acq_time; /* per block: its latest acquire (an atomic or a strong load of
                           global memory); 0 none */
} sim_grace;

struct sim {
    sim_config cfg;
    sim_alloc *allocs; /* sorted by base (allocated in increasing order) */
    int nallocs, cap;
    uint64_t next;
    int last;           /* index of the last allocation the host's calls hit (lookup cache;
                           a block context has its own, sim_ctx.alloc_hint) */
    uint64_t mod_id;    /* module whose variables var_addr holds (0 none) */
    uint64_t *var_addr; /* its variables' device addresses: one of mods[].addr */
    int nvars;
    /* every module whose variables were instantiated, and where: a module's variables
     * keep their values when launches alternate between modules (a program's .cu files) */
    struct sim_modvars {
        uint64_t id; /* ptx_module.id */
        uint64_t *addr;
    } * mods;
    int nmods;
    uint64_t fast_mod_id;      /* module whose fast-path kinds `fast` holds (sim.c
                             module_fast), 0 none */
    uint8_t *fast;             /* its sim_fast_kinds table */
    uint64_t launches;         /* sim_launch calls so far (the race detector's shadows) */
    uint64_t mem_used;         /* bytes of the global allocations (memory_limit) */
    struct sim_jit_state *jit; /* the translating tier's module (sim/jit.c), or NULL */
};

/* The device profile a simulator instance models (sim_config.device, else the
 * default). */
static inline const sim_device_model *sim_model(const sim_t *s)
{
    return s->cfg.device ? s->cfg.device : sim_device();
}

enum { SIM_T_RUN, SIM_T_BAR, SIM_T_EXIT };

typedef struct sim_frame {
    int32_t ret_pc, call;
    uint32_t rbase, pbase, lbase, ldyn;
} sim_frame;
/* Bytes of local memory per thread for alloca (PTX ISA §9.7.17.3) in a module that uses
 * it: the GPU's default stack size (cudaLimitStackSize, 1 KiB). */
#define SIM_ALLOCA_BYTES 1024

/* A release write to shared memory that racecheck remembers (st/atom/red .release,
 * .acq_rel, .sc; sim_mem.h sim_race_released): byte offset, barrier interval, thread. */
struct sim_shrel {
    uint32_t a, epoch;
    uint16_t tid;
};

/* Everything one launch needs; the hot state of the interpreter. */
typedef struct sim_ctx {
    sim_t *s;
    int alloc_hint; /* index of the last allocation this context's accesses hit (sim_mem.c
                       find_alloc): per context, as worker threads share no written word */
    const ptx_module *m;
    const ptx_func *entry;
    const ptx_insn *code;
    const uint8_t *fast; /* per PC: the fast-path kind of code[pc] (sim_fast_kinds,
                              owned by the sim: s->fast) */
    unsigned grid[3], block[3];
    unsigned bid[3]; /* current block */
    unsigned nthreads, nwarps;
    /* per thread */
    uint32_t *pc;
    uint8_t *state;
    uint8_t *depth;
    uint32_t *rbase, *pbase, *lbase;
    uint32_t *ldyn;  /* bytes alloca'd above the current function's locals (§9.7.17) */
    int frames_used; /* a call or alloca may have moved depth, rbase, pbase, lbase or ldyn
                        from 0 since block_start last reset them (it resets them then) */
    int32_t *bar_pc;
    sim_frame *frames;     /* nthreads * SIM_MAX_DEPTH */
    uint64_t *regs;        /* lane-major per warp: nwarps * regcap * 32, see sim_reg */
    unsigned char *params; /* nthreads * paramcap */
    unsigned char *local;  /* nthreads * localcap */
    size_t regcap, paramcap, localcap;
    /* per warp */
    int32_t *loop_pc; /* last backward branch taken (for step-limit messages) */
    /* per CTA */
    unsigned char *shared;
    size_t shared_size; /* static + dynamic, and the reserved window (reserved_off) */
    unsigned dynshared_off;
    /* where the driver's reserved shared memory starts (PTX ISA §10
     * %reserved_smem_offset_begin): after the kernel's static and dynamic shared memory,
     * aligned to 16 bytes, sim_device_model.shared_reserved_per_block bytes up to
     * shared_size, in a kernel that reads a %reserved_smem_offset_* register (the
     * Toolkit's cooperative_groups on sm_80 and later); elsewhere shared_size (no window:
     * an access past the kernel's own shared memory faults) */
    size_t reserved_off;
    size_t own_shared; /* the kernel's static + dynamic bytes */
    size_t total_smem; /* %total_smem_size: own_shared rounded up to the device's shared
                          allocation unit (an H200 reads 256 for 136 bytes) */
    unsigned char *kparams;
    size_t kparam_size;
    /* results */
    uint64_t steps, step_limit;
    double deadline;      /* CLOCK_MONOTONIC seconds the launch must end by; 0 = none */
    uint32_t clock_check; /* warp instructions until the deadline is checked again */
    int faulted;
    sim_result *res;
    size_t printf_cap;
    /* ---- trace, checkers, scheduling (sim.c) ---- */
    trace_t *trace;          /* non-NULL while tracing: the issue hook's one branch */
    int trace_mem;           /* TRACE_MEMORY: sim_mem collects lane addresses */
    uint32_t block_linear;   /* current block, x fastest */
    unsigned slot;           /* which of the launch's resident blocks this context runs */
    const ptx_insn *mreq_in; /* pending memory request of the last issued instruction */
    unsigned mreq_warp;
    uint32_t mreq_mask;
    uint8_t mreq_space, mreq_op, mreq_width;
    uint64_t mreq_addr[32];
    int32_t last_pc; /* last issued instruction (printf attribution) */
    unsigned last_warp;
    uint32_t last_mask;
    uint32_t last_pred;            /* its lanes whose guard was true (they ran it) */
    int reg_pending;               /* trace->record_regs and it writes registers: trace_flush
                              records their values (TRACE_EV_REG) */
    size_t printf_seen;            /* printf bytes already turned into PRINTF events */
    unsigned checks;               /* SIM_CHECK_* bits that are on */
    sim_grace *grace;              /* global-memory race detector (launch-wide), or NULL */
    struct sim_shadow *shadow;     /* racecheck: one per shared byte (whole words) */
    struct sim_wshadow *wshadow;   /* racecheck: one per word, standing for its four bytes
                                    while its shadow_same flag is set (sim_race.c sim_race_check);
                                    fields of four words side by side, so that a warp's
                                    unit-stride access is checked with vector operations */
    uint8_t *shadow_same;          /* racecheck: per 4-byte word, its 4 shadows agree (sim_race.c
                                  race_check) */
    unsigned char *shared_written; /* initcheck for shared: 1 per byte */
    struct sim_async *async;       /* cp.async copies in flight (exec_async.c), NULL
                                      until the launch's first cp.async */
    uint32_t epoch;                /* barrier interval of the CTA (racecheck) */
    uint16_t *wsync;               /* per warp: __syncwarp count (racecheck) */
    uint64_t rng;                  /* schedule_random state */
    uint64_t poison;               /* seed of the poison that shared memory, local memory and
                              registers start as (sim_poison): fixed in the deterministic
                              schedule, from schedule_seed in random ones */
    /* racecheck: the last release writes to shared memory, a ring (sim_race_released) */
    struct sim_shrel shrel[SIM_SHREL];
    unsigned nshrel; /* release writes recorded so far */
    /* ---- where the block runs (sim.c sim_place; PTX ISA §10.4 %warpid, §10.8 %smid) */
    struct sim_place *place;      /* the launch's modelled SMs and their warp slots */
    unsigned sm;                  /* this slot's modelled SM: place->sm[sm] */
    uint32_t smid;                /* its %smid (the trace's BLOCK_START/END aux) */
    unsigned nwarpid;             /* warp slots per SM (%nwarpid): place's nslots */
    uint8_t wslot[SIM_ITS_WARPS]; /* per warp of the block: its warp slot on the SM
                                     (%warpid), while the block runs */
    uint64_t wslot_mask;          /* those slots (bit k: slot k) */
    /* ---- independent thread scheduling (exec_issue.c sim_warp_step) ----
     * Fixed arrays (a block has at most SIM_ITS_WARPS warps) so that sim.c needs no
     * allocation; its_block says which block the state belongs to (block_linear + 1,
     * 0 never), so a new block starts with no yields. */
    /* ---- spin detection (exec_issue.c sim_back_edge): a warp whose whole state (its
     * registers, lanes and the branch it takes) repeats from one backward branch to the
     * next while no thread of the launch writes memory loops for ever on its own; when
     * every live warp of every resident block waits at a barrier or loops so, nothing
     * can change again: a deadlock, reported at once (sim.c) ---- */
    uint64_t mwrites;                  /* st and value-changing atom/red lanes of the
                                          launch so far (kept in the launch's base
                                          between block turns, as steps) */
    uint64_t spin_seen[SIM_ITS_WARPS]; /* mwrites at the warp's last backward branch */
    uint32_t spin_n[SIM_ITS_WARPS];    /* backward branches taken since mwrites changed */
    int32_t spin_pc[SIM_ITS_WARPS];    /* the sampled branch (at spin_n = 2^k) */
    uint64_t spin_hash[SIM_ITS_WARPS]; /* the warp's state hash there */
    uint64_t spin_flag[SIM_ITS_WARPS]; /* mwrites + 1 when the state repeated, else 0 */
    uint64_t stuck;                    /* mwrites + 1 when every live warp of the block
                                          waited at a barrier or repeated, else 0 */
    uint32_t its_yield[SIM_ITS_WARPS]; /* lanes that yielded to the warp's other lanes */
    uint32_t its_spin[SIM_ITS_WARPS];  /* backward branches taken while lanes waited */
    uint32_t its_block[SIM_ITS_WARPS];
    uint8_t its_syncmem[SIM_ITS_WARPS]; /* an atomic or volatile/strong load since the
                                           warp's last backward branch (a spin loop) */
    /* ---- interpreter fast paths (exec_fast.h exec_fast) ---- */
    uint32_t wconv[SIM_ITS_WARPS];   /* per warp: PC + 1 at which all 32 lanes are
                                        runnable after a straight-line instruction
                                        (sim_warp_step skips its scan); 0 unknown */
    uint8_t w_called[SIM_ITS_WARPS]; /* per warp: lanes inside a device-function call
                                        (depth > 0); 0: the warp's registers are one
                                        lane-major block (every rbase is 0) */
    /* ---- thread block clusters (exec_cluster.c; sim.c starts a cluster's CTAs together in
     * consecutive contexts, so that they are resident at once) ---- */
    unsigned cl_dim[3];     /* CTAs per cluster in x, y, z: 1, 1, 1 without clusters */
    unsigned cl_n;          /* CTAs per cluster (%cluster_nctarank) */
    int cl_explicit;        /* launched with a cluster shape (%is_explicit_cluster) */
    unsigned cl_rank;       /* the current block's %cluster_ctarank */
    struct sim_ctx *cl_ctx; /* the cluster's contexts, cl_n of them in rank order */
    uint32_t clb_arrived;   /* in the rank-0 context: threads of the cluster that arrived
                                at barrier.cluster in its current phase */
    unsigned clb_phase;     /* in the rank-0 context: the current phase's parity */
    uint8_t clb_thr[SIM_ITS_WARPS * 32]; /* per thread: bit 0 arrived and not yet waited,
                                            bit 1 the parity of the phase it arrived in */
    /* ---- CTA barriers (sim_barrier.c sim_barrier_exec, sim_resolve_barrier), PTX ISA
     * §9.7.13.1 bar/barrier: 16 barriers per CTA, each with the arrivals of its current
     * phase. Reset at each block start. */
    uint8_t bar_id[SIM_ITS_WARPS * 32]; /* per thread: the barrier it waits at */
    uint32_t bar_waiting[16];           /* threads waiting (bar.sync/bar.red) in this phase */
    uint32_t bar_arrived[16];           /* threads that executed bar.arrive in this phase */
    uint32_t bar_expect[16];            /* the phase's thread count b; 0: every thread */
    /* ---- speed bookkeeping (sim.c block_start; sim_barrier.c) ---- */
    uint32_t bar_lanes[16][SIM_ITS_WARPS]; /* per barrier id and warp: the lanes waiting
                                              there (state SIM_T_BAR, bar_id == id) */
    int32_t bar_pc_any[16];                /* per barrier id: the PC of one waiting thread */
    uint8_t bar_mixed[16];                 /* per barrier id: threads wait at different PCs */
    unsigned nexited;                      /* threads of the block in state SIM_T_EXIT */
    int zero_all;        /* block_start clears the whole register file per block */
    uint16_t *zero_regs; /* else: the kernel's slots that a thread may read before
                                  writing them (sim_regs_read_first), nzero_regs of them */
    unsigned nzero_regs;
    uint32_t wdone;        /* bit w: no lane of warp w can run until a barrier
                                  releases some (every lane exited or waits at a
                                  barrier); sim_warp_step returns 0 at once and
                                  sim_warp_round passes it by */
    struct sim_fops *fops; /* per PC: operand rows and full-warp kernels
                                  (sim_fops_build); NULL: exec_fast decodes operands
                                  and expands immediates per issue */
    uint64_t *imm_rows;    /* the immediate operands of fops' instructions, each
                                  repeated in a row of 32 lanes */
    /* ---- run-ahead (exec_issue.c warp_step): a converged warp runs the register-only
     * instructions that follow its issued one at once; its next turns then count them
     * (steps, stats, their trace issue events) instead of issuing, so every event others
     * can see keeps its place in the schedule. */
    uint8_t ahead[SIM_ITS_WARPS];      /* per warp: instructions run ahead, not yet counted */
    uint8_t ahead_head[SIM_ITS_WARPS]; /* per warp: the oldest of them in ahead_q */
    uint32_t ahead_q[SIM_ITS_WARPS][SIM_AHEAD_MAX][2]; /* while tracing: each one's PC and
                                                          guard-true lanes, oldest first
                                                          from ahead_head (a ring) */
    const struct sim_jit_table *jit; /* the translated blocks (sim/jit.h), NULL: none */
    /* ---- lockstep regions (exec_issue.c sim_region_turn): a block whose warps that can
     * issue are converged at one PC runs the straight-line region there as that many
     * rounds in one turn of the launch's schedule */
    uint8_t *rlen;           /* per PC (ncode + 1): the region starting there, its length
                                in instructions (SIM_RLEN_MASK bits; 1: none) and
                                SIM_RLEN_LEADER where warps arrive together (after a
                                non-region instruction, at a branch target, the entry);
                                NULL: no regions (random schedules, no fops) */
    uint64_t *rk;            /* per PC: the value of a region's FH_BCAST instruction (its
                                k) or FH_SREG one (of the block running the region) */
    uint32_t rg_pc, rg_wm;   /* the running region's first PC and its warps (bit w) */
    unsigned rg_n;           /* how many warps rg_wm names */
    uint64_t rg_steps0;      /* c->steps when it began */
    uint64_t rg_wi0, rg_ti0; /* the warp- and thread-instruction statistics then */
    /* ---- a block run by a worker thread (sim.c par_launch, sim_par.c) */
    struct sim_par *par; /* the launch's word ownership, NULL on one thread */
    unsigned par_w;      /* this worker's index */
} sim_ctx;

#define SIM_REGION_MAX 48     /* longest region, instructions */
#define SIM_RLEN_MASK 0x7fu   /* sim_ctx.rlen: the length bits */
#define SIM_RLEN_LEADER 0x80u /* sim_ctx.rlen: run_ahead does not start there */

/* Blocks on worker threads (sim_par.c; docs/architecture.md "Blocks on all cores"): the
 * ownership of the launch's global words that proves a parallel run equal to the
 * one-thread run, and its undo. */
typedef struct sim_par sim_par;
/* The ownership state of a launch of s over nworkers workers (init: initcheck is on);
 * NULL without memory. sim_par_free frees it. */
sim_par *sim_par_new(sim_t *s, unsigned nworkers, int init);
void sim_par_free(sim_par *p);
/* Claims bytes [off, off+n) of allocation al for the block running in c (kind: 0 load,
 * 1 store, 2 atomic), and checks a read's bytes as initcheck does. Returns 0, 1 when a
 * word is read by other blocks too (the global race detector then leaves it alone: its
 * record is not this block's), or -1 when the launch cannot be proved equal to one
 * thread's (a word another block wrote or touches, a read of unwritten bytes, no
 * memory): the run is halted and the caller must not access the bytes. */
int sim_par_claim(sim_ctx *c, sim_alloc *al, uint64_t off, uint64_t n, int kind);
/* sim_par_claim for the lanes em of a warp's request, lane l's `size` bytes at global
 * address addr[l] of al: the lanes whose words other blocks read too; *halted set (and
 * 0 returned) when one cannot be claimed. */
uint32_t sim_par_claim_lanes(sim_ctx *c, sim_alloc *al, uint32_t em, const uint64_t *addr,
                             unsigned size, int kind, int *halted);
/* Halts the parallel run (every worker stops at its next turn); whether it is halted. */
void sim_par_halt(sim_par *p);
int sim_par_halted(const sim_par *p);
/* After a run without a halt: sets the initcheck bits of the bytes worker w's blocks
 * wrote. Runs beside the other workers' commits: a line written whole is one block's, so
 * its 16 bitmap bytes are this worker's alone (runs of such lines set with one memset); a
 * word's 4 bits share a bitmap byte with the word beside it, which another worker may
 * have written, so they are set with an atomic or. */
void sim_par_commit_log(sim_par *p, unsigned w);
/* After a halted run: puts back every word the blocks wrote, as it was before. */
void sim_par_rollback(sim_par *p);

/* Population count without a libgcc call (the build targets baseline x86-64). */
static inline unsigned sim_pop32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

/* Registers are stored lane-major per warp (STYLE.md "Interpreter core": the loop over
 * a warp's lanes reads and writes contiguous memory): slot r of the frame of thread t
 * (absolute slot rbase[t] + r) is regs[((t/32) * regcap + rbase[t] + r) * 32 + t%32].
 * sim_lane_regs gives thread t's frame base, whose slot r is at [r * 32] (RG(r) in
 * exec.h); sim_reg gives one register. */
static inline uint64_t *sim_lane_regs(const sim_ctx *c, unsigned t)
{
    return c->regs + (((size_t)(t >> 5) * c->regcap + c->rbase[t]) << 5) + (t & 31);
}
static inline uint64_t *sim_reg(const sim_ctx *c, unsigned t, unsigned r)
{
    return sim_lane_regs(c, t) + ((size_t)r << 5);
}

/* Trace hook, called by sim_warp_step for each issued warp instruction when c->trace
 * is set, after the guard predicate is evaluated and before the instruction runs:
 * flushes the previous instruction's memory request and printf, then records the issue
 * (and a barrier arrival). mask: lanes at pc; pred: those whose guard is true. */
void sim_trace_issue(sim_ctx *c, unsigned w, uint32_t pc, uint32_t mask, uint32_t pred);
/* Records a shfl.sync of warp w at pc (TRACE_EV_SHFL): for each lane of `lanes`, the lane
 * it read (src) or, where ok is 0, that it kept its own value. */
void sim_trace_shfl(sim_ctx *c, unsigned w, uint32_t pc, uint32_t lanes, const uint32_t src[32],
                    const uint8_t ok[32]);
/* Records a vote.sync of warp w at pc (TRACE_EV_VOTE): `lanes` voted, `yes` of them
 * with a true predicate; kind is a trace_vote_kind. */
void sim_trace_vote(sim_ctx *c, unsigned w, uint32_t pc, uint32_t lanes, uint32_t yes, int kind);
/* Records a memory request of warp w at pc that is not the instruction's one pending
 * request (trace.h MEM: cp.async's global read and shared write, a cp.async.bulk copy's
 * pieces, wmma's per-register requests): `space`, `op` (trace_mem_op), width bytes per
 * lane, the lanes `mask` with their addresses addr[lane]. Only with c->trace_mem. */
void sim_trace_mem(sim_ctx *c, unsigned w, uint32_t pc, int space, int op, unsigned width,
                   uint32_t mask, const uint64_t addr[32]);

/* Racecheck hook for bar.warp.sync (__syncwarp): hazards between lanes of warp w
 * before this point and after it are ordered. */
void sim_check_warp_sync(sim_ctx *c, unsigned w);

/* bar/barrier .sync/.arrive/.red (PTX ISA §9.7.13.1) executed by the lanes em of the
 * warp whose first thread is base, at instruction pc (sim_barrier.c): the waiting lanes block,
 * and a barrier with a thread count is released as soon as that many threads arrived
 * (one without is released by the scheduler when the CTA can make no other progress). */
void sim_barrier_exec(sim_ctx *c, const ptx_insn *in, uint32_t pc, unsigned base, uint32_t em);

/* The register slots of kernel f (of module m, whose fast-path kinds are fast) that a
 * thread may read before it has written them on every path from the kernel's entry (a
 * forward must-be-written data-flow over the kernel's control flow), plus every slot a
 * cross-lane instruction (shfl, vote, match, redux) reads, since it reads lanes that may
 * not have written it. Only these need to be zero when a block starts (registers start
 * as zeros in the simulator). Returns their number with a malloc'ed list in *out (NULL
 * when 0), or -1 when the kernel is beyond the analysis (device-function calls, unknown
 * slots, no memory): clear them all. */
int sim_regs_read_first(const ptx_module *m, const uint8_t *fast, const ptx_func *f,
                        uint16_t **out);

/* Liveness of kernel f's register slots (f of module m, fast-path kinds fast): per PC
 * of the kernel (index pc - f->entry_pc), *nw words of bits, the slots that some path
 * from there may read before writing them (a backward may-be-read data-flow over the
 * kernel's control flow, brx.idx's lists included; a guarded write or one of a kind
 * other than the fast path's does not count as a write), and one more entry for the
 * kernel's end (nothing live). What a slot holds where it is not live changes no
 * result. Malloc'ed; NULL when the kernel is beyond the analysis (as sim_regs_read_first)
 * or memory is short. */
uint64_t *sim_regs_live(const ptx_module *m, const uint8_t *fast, const ptx_func *f, size_t *nw);

/* Decode once (STYLE.md "Interpreter core"): the fast-path kind of each of m's ncode
 * instructions (exec_fast.h FK_*; 0: the general handler, which follows the PTX ISA
 * section of the op, runs it), one byte per PC and a 0 past the last. The executor's
 * view of the module, apart from its IR; sim.c builds it once per module. NULL without
 * memory; caller frees. */
uint8_t *sim_fast_kinds(const ptx_module *m);

/* One instruction decoded for a launch (sim_fops_build), for the fast paths (exec_fast.h).
 * A fast-path ALU instruction's (sim_ctx.fast kinds below FK_LD) operands, in a
 * warp whose registers are one lane-major block W (no device call under way): row k
 * (operand k + 1) at W + src[k], or, with SIM_FOP_IMM set, at c->imm_rows + (src[k] &
 * ~SIM_FOP_IMM) (an immediate repeated in every lane). */
#define SIM_FOP_IMM 0x80000000u
struct sim_fops {
    uint32_t src[3]; /* operands 1..3 (0 when absent: never read) */
    uint32_t d;      /* the destination's row: slot << 5 */
    uint32_t d2;     /* setp's second destination (the negation): slot << 5;
                        UINT32_MAX none */
    uint8_t fh;      /* exec_fast.h's full-warp vector kernel for it (FH_*), 0 none; for
                        special registers, symbol addresses and kernel-parameter loads
                        set by run_ahead when it first meets them */
    uint8_t sa;      /* that kernel's immediate shift amount */
    uint8_t ahead;   /* run_ahead may run it: 0 not known yet, 1 no, 2 yes */
    uint8_t bra;     /* a bra (fast-path kind FK_BRA) */
    uint32_t g;      /* the guard predicate's row (slot << 5), with bit 0 set for a
                        negated guard (@!p); UINT32_MAX unguarded */
    uint32_t next;   /* the PC after it when every lane runs it: the target of a bra,
                        else its own PC + 1 */
    uint64_t k;      /* that kernel's constant (an address window, a value, a mask) */
};

/* Fills c->fops for the module's ncode instructions, once per launch, and c->imm_rows
 * with the immediate operands of its fast-path ALU instructions, which exec_fast then
 * reads as it reads a register's row. Leaves both NULL without memory (exec_fast then
 * decodes operands per issue). Caller frees both. */
void sim_fops_build(sim_ctx *c, int ncode);

/* Fills c->rlen for the launch (deterministic schedules with c->fops; else leaves it
 * NULL): each PC's lockstep region and whether it is a leader. Needs the kernel
 * parameters in c->kparams (a parameter load is decoded with its value). Caller frees. */
void sim_region_build(sim_ctx *c);

/* A block's turn when its warps that can issue (no lane at a barrier or exited) are
 * converged at the first PC of a region (sim_ctx.rlen), none with instructions run ahead
 * or inside a call, and the step limit is far: runs the region's L instructions as L
 * rounds of the deterministic schedule would (each instruction for those warps in index
 * order, steps, statistics and the trace as warp_step counts them), through the
 * translating tier's function for it when there is one and nothing is traced, else
 * instruction by instruction. The warps end converged after it. Returns 1 when it ran
 * (c->faulted set if an instruction faulted), 0 when the block is not so (the caller
 * runs an ordinary round). */
int sim_region_turn(sim_ctx *c);

/* Runs instruction pc of the running region (sim_region_turn) for its warps: the
 * translating tier's functions call it for what they do not translate. With
 * SIM_REGION_ISSUED in pc, only counts it as issued to each warp (steps, statistics,
 * the trace's issue events): the tier ran it. ctx: the sim_ctx. Returns 1 when it
 * faulted (the region stops), else 0. */
int sim_region_insn(void *ctx, uint32_t pc);
#define SIM_REGION_ISSUED 0x80000000u

/* Executes one warp instruction for warp w (exec_issue.c). Returns 0 when no lane of the
 * warp can run (all exited or waiting at a barrier). */
int sim_warp_step(sim_ctx *c, unsigned w);

/* One round of the deterministic schedule (sim.c block_turn): sim_warp_step for warps
 * 0, 1, ... in order, stopping after a step that faulted. Returns whether any warp
 * issued an instruction. */
int sim_warp_round(sim_ctx *c);

/* Checked memory access for thread t (sim_mem.c): a host pointer to `size` bytes at `addr`
 * of `space`, or NULL after recording a fault. kind: 0 load, 1 store, 2 atomic. */
void *sim_mem(sim_ctx *c, unsigned t, int space, uint64_t addr, unsigned size, int kind,
              const ptx_insn *in);

/* Warp-level sim_mem for the lanes em of the warp whose first thread is base: addr[l]
 * is lane l's address; on success fills ptr[l] (host pointers to `size` bytes) for
 * every lane of em and returns 1, having run the checkers and the trace for each lane
 * in lane order as sim_mem does; 2 instead when every lane of the warp takes part and
 * the 32 accesses are one range of host memory, having filled ptr[0] only (lane l's
 * pointer is ptr[0] + l * size; the caller fills ptr[1..31] if it needs them); 3 or 4,
 * having filled every ptr[l], when every lane takes part and each half-warp's accesses
 * are one range from ptr[0] and ptr[16] (3: lane l's at ptr[l & 16] + (l & 15) * size)
 * or one address each (4: lanes 0-15 at ptr[0], 16-31 at ptr[16]). Returns
 * 0, having changed nothing, when the request
 * is not the common case (a lane misaligned or out of bounds, local or parameter
 * space, generic addresses in several windows): the caller then uses sim_mem. */
int sim_mem_warp(sim_ctx *c, unsigned base, uint32_t em, int space, const uint64_t *addr,
                 unsigned size, int kind, const ptx_insn *in, unsigned char **ptr);

/* sim_mem_warp's common global request, for a caller (instruction in, the warp whose
 * first thread is base) that knows that the full warp's 32 accesses of `size` bytes (a
 * power of two) are unit-stride from global address a (lane l's at a + l * size): the
 * host pointer of lane 0's access when every access is aligned, inside one global
 * allocation and, for a load with initcheck on, to bytes written before; having marked a
 * store's bytes written and, with a memory trace, recorded the lanes' addresses, as
 * sim_mem_warp returning 2 does. NULL, having changed nothing, in every other case: the
 * caller then calls sim_mem_warp, which finds or reports the rest. kind: 0 load, 1 store. */
unsigned char *sim_global_row(sim_ctx *c, unsigned base, uint64_t a, unsigned size, int kind,
                              const ptx_insn *in);

/* The same for shared memory and words (size 4): the host pointer of lane 0's word when
 * the 32 words from shared address a (lane l's at a + 4 * l) are aligned and inside the
 * CTA's shared memory and, with racecheck on, each word's shadow is one (c->shadow_same),
 * and for a load with initcheck on every byte was stored before; having run racecheck
 * on the 32 words, marked a store's bytes written and recorded a memory trace's
 * addresses, as sim_mem_warp returning 2 does. NULL, having changed nothing, in every
 * other case. kind: 0 load, 1 store. */
unsigned char *sim_shared_row(sim_ctx *c, unsigned base, uint64_t a, int kind, const ptx_insn *in);

/* Global-memory race detector hooks (sim_race.c). sim_grace_release: thread t's block
 * releases its earlier accesses (membar/fence at GPU or system scope, PTX ISA §9.7.13.4;
 * called before a .release store or atomic too). */
void sim_grace_release(sim_ctx *c);

/* Where the warps of c's block are, for a step-limit or deadlock message: "; warps of
 * block (x,y,z): 0 waits at the barrier at k.cu:6, 1 loops at k.cu:7, 2-3 exited" (at
 * most 6 named, then a count), or "" for a block of one warp that is simply looping. */
void sim_warps_state(const sim_ctx *c, char *buf, size_t n);

/* Names shared-memory offset off, accessed `size` bytes wide, by the .shared variable
 * of c's kernel holding it: "s[63]", "s" (a scalar), "s+2" (not on an element
 * boundary); "" when none does. */
void sim_shared_name(const sim_ctx *c, uint64_t off, unsigned size, char *buf, size_t n);

/* Backward branches before a warp's state is sampled for spin detection. */
#define SIM_SPIN_MIN 64

/* Warp w took the backward branch at pc with lanes `mask`: records it (loop_pc, for
 * messages) and runs spin detection (the fields above): samples the warp's state at the
 * 2^k-th such branch since memory last changed and compares it at the next one; on a
 * match flags the warp and sets c->stuck when every live warp of the block waits. */
void sim_back_edge(sim_ctx *c, unsigned w, uint32_t pc, uint32_t mask);

/* Records a fault of `kind` for thread t at instruction in (message formatted). */
void sim_fault_at(sim_ctx *c, unsigned t, const ptx_insn *in, sim_fault_kind kind, const char *fmt,
                  ...) __attribute__((format(printf, 5, 6)));

/* "file:line" (basename) of an instruction's CUDA source, or "PTX line N". */
void sim_where(const sim_ctx *c, const ptx_insn *in, char *buf, size_t n);

/* Warp instructions between two looks at the clock (sim_config.time_limit_s). */
enum { SIM_CLOCK_EVERY = 1 << 16 };
/* CLOCK_MONOTONIC, in seconds. */
double sim_now(void);

/* Formats device printf (PTX `vprintf`, CUDA C++ Programming Guide "Formatted Output"):
 * fmt is the format string, args the packed argument buffer (each argument aligned to
 * its size; %f arguments are doubles). Appends to the buffer (*out, *len, *cap). Returns
 * the number of arguments consumed; -1 when reading memory failed (the callback reported
 * it); -2 when the format uses what CUDA's device printf does not support (the Guide's
 * grammar: flags "#0+- ", width digits or '*', precision digits, size h/l/ll, type one of
 * "cdiouxXpeEfgGaAs"), with the reason in why (whylen bytes). Specifiers past the 32nd
 * argument are printed as written, as the Guide says. */
typedef int (*sim_read_fn)(void *ctx, uint64_t addr, void *dst, unsigned size);
int sim_vprintf_format(void *ctx, sim_read_fn rd, uint64_t fmt, uint64_t args, char **out,
                       size_t *len, size_t *cap, char *why, size_t whylen);

#endif
