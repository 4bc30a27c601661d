/* trace.h — the trace of one kernel launch: one event format for every back end.
 *
 * The simulator records it while it runs (sim_config.trace); the GPU back end will
 * produce the same events from instrumented PTX (per-warp SM id and clock, per memory
 * instruction the lane addresses and activemask). Everything a learner sees or is
 * graded on (trace/analysis.h, the TUI views) is computed from these events and the
 * static instruction table, never from back-end internals (docs/architecture.md
 * "gpulearn architecture": PTX is the common currency).
 *
 * Levels: TRACE_OFF records nothing; TRACE_ISSUE records warp instruction issue,
 * barriers, blocks and printf; TRACE_MEMORY adds one memory-request event per warp
 * memory instruction with the 32 lane addresses. Independently of the level,
 * record_regs = 1 adds the register values each warp instruction wrote (TRACE_EV_REG;
 * the simulator only: the registers view of the TUI).
 *
 * Storage: events are kept up to max_events (then `truncated` is set and later events
 * are only counted in `dropped`); a sink callback, when set, sees every event, stored
 * or not, so that streaming analyses (analysis.h) stay exact on long runs.
 *
 * Ownership: trace_new returns a trace the caller frees with trace_free. A back end
 * fills it (trace_begin_launch, then trace_append*); it never frees it.
 */
#ifndef GL_TRACE_H
#define GL_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* How much is recorded. */
typedef enum trace_level {
    TRACE_OFF = 0,    /* nothing (the default; costs one branch per warp instruction) */
    TRACE_ISSUE = 1,  /* issue, barrier, block and printf events */
    TRACE_MEMORY = 2, /* TRACE_ISSUE plus memory requests with lane addresses */
} trace_level;

typedef enum trace_kind {
    TRACE_EV_ISSUE = 1,   /* a warp issued an instruction */
    TRACE_EV_MEM,         /* a warp memory instruction (one request, 32 lanes) */
    TRACE_EV_BAR_ARRIVE,  /* lanes of a warp arrived at a barrier */
    TRACE_EV_BAR_RELEASE, /* a CTA's barrier released its waiting threads */
    TRACE_EV_BLOCK_START, /* a block started on an SM */
    TRACE_EV_BLOCK_END,   /* a block finished (or the launch stopped in it) */
    TRACE_EV_PRINTF,      /* device printf output of one warp instruction */
    TRACE_EV_REG,         /* the values one warp instruction wrote to a register */
    TRACE_EV_SHFL,        /* a shfl.sync: each lane's source lane (values: the lane
                                 0..31 it read, or 32 + its own lane when the source was
                                 out of range and it kept its own value; PTX ISA
                                 §9.7.8.6), after the warp's TRACE_EV_ISSUE */
    TRACE_EV_VOTE,        /* a vote.sync (PTX ISA §9.7.13.x vote.sync): mask = the
                                 lanes that voted, aux = those whose predicate was true,
                                 barrier = trace_vote_kind; after the warp's
                                 TRACE_EV_ISSUE */
} trace_kind;

/* The mode of a TRACE_EV_VOTE (vote.sync.all, .any, .uni, .ballot.b32: __all_sync,
 * __any_sync, __uni_sync, __ballot_sync); the parser's vote modes (sim/ptx/ptx.h
 * PTX_VOTE_*) are these. */
typedef enum trace_vote_kind {
    TRACE_VOTE_ALL = 1,
    TRACE_VOTE_ANY,
    TRACE_VOTE_UNI,
    TRACE_VOTE_BALLOT
} trace_vote_kind;

/* Memory operation of a TRACE_EV_MEM event. */
typedef enum trace_mem_op { TRACE_LOAD = 0, TRACE_STORE = 1, TRACE_ATOMIC = 2 } trace_mem_op;

/* The state spaces (PTX ISA §5.1), listed once for every layer: X(NAME, value) makes
 * TRACE_SPACE_NAME here, sim_space (sim/sim.h SIM_SPACE_NAME) and runtime's gl_space
 * (runtime/result.h GL_SPACE_NAME). GENERIC is an address as written through a generic
 * pointer; a TRACE_EV_MEM event records the space the address resolved to. */
#define TRACE_SPACE_LIST(X)                                                                        \
    X(GENERIC, 0) X(GLOBAL, 1) X(SHARED, 2) X(LOCAL, 3) X(CONST, 4) X(PARAM, 5)
enum {
#define TRACE_SPACE_ENUM(n, v) TRACE_SPACE_##n = v,
    TRACE_SPACE_LIST(TRACE_SPACE_ENUM)
#undef TRACE_SPACE_ENUM
};

/* One event (32 bytes). Which fields mean something depends on kind:
 *   all:            kind, block (linear block index, x fastest), time
 *   ISSUE:          warp, pc, mask (lanes at the PC: the active threads), aux = the
 *                   lanes of mask whose guard predicate is true (= mask if none)
 *   MEM:            warp, pc, mask (lanes that accessed memory), space, op,
 *                   width (bytes per lane; .v4.f32 is 16), aux = index of the 32 lane
 *                   addresses in trace.addrs (aux*32 .. aux*32+31; inactive lanes 0).
 *                   One per warp memory instruction, after its ISSUE, except:
 *                   - cp.async (trace_insn.cls TRACE_CLASS_ASYNC_COPY): two, both at
 *                     the copy's issue (its bytes land in shared memory by the wait,
 *                     PTX ISA §9.7.9.25.3): the global read (op TRACE_LOAD, the lanes
 *                     whose src-size is not 0) then the shared write (op TRACE_STORE,
 *                     every lane that issued it), width the cp-size (4, 8 or 16; a
 *                     lane whose src-size is smaller still counts cp-size bytes);
 *                   - cp.async.bulk (TRACE_INSN_BULK): each lane's copy of N bytes is
 *                     a run of events per side, the source read (op TRACE_LOAD) then
 *                     the destination write (op TRACE_STORE), each holding the 16-byte
 *                     pieces of the copy that fall in one aligned 512-byte block of
 *                     addresses (slot i: piece i, not lane i; width 16);
 *                   - wmma.load / wmma.store: one per fragment register (each lane's
 *                     address of that register's elements, width their bytes), or per
 *                     element where a register's elements are not adjacent in memory.
 *   BAR_ARRIVE:     warp, pc, mask (arriving lanes), barrier (id)
 *   BAR_RELEASE:    pc (the barrier of the first waiting thread), barrier,
 *                   aux = snapshot index in trace.snaps, or UINT32_MAX for none
 *   BLOCK_START/END: aux = SM id
 *   PRINTF:         warp, pc, mask, aux = offset of the text in trace.text,
 *                   barrier = its length in bytes (capped at 65535)
 *   REG:            warp, pc, mask (lanes that wrote: those issued whose guard was
 *                   true), barrier = the register (index into trace.regs), width =
 *                   its size in bytes, aux = index of the 32 lane values in
 *                   trace.addrs (trace_event_values; lanes not in mask 0). One event
 *                   per destination register (ld.v4: four), after the instruction ran
 *                   and after its MEM and PRINTF events.
 * Addresses: global as the kernel saw them; shared and local relative to the start of
 * the block's shared memory / the thread's local memory.
 * time: the back end's clock; on the simulator the number of warp instructions issued
 * so far in the launch (the same clock %clock64 reads). */
typedef struct trace_event {
    uint8_t kind;     /* trace_kind */
    uint8_t space;    /* MEM: TRACE_SPACE_* */
    uint8_t op;       /* MEM: trace_mem_op */
    uint8_t width;    /* MEM: bytes per lane */
    uint16_t warp;    /* warp index within the block */
    uint16_t barrier; /* BAR_*: barrier id; PRINTF: text length */
    uint32_t block;   /* linear block index */
    uint32_t mask;    /* active lanes */
    int32_t pc;       /* instruction index (trace.insns), -1 none */
    uint32_t aux;     /* see above */
    uint64_t time;
} trace_event;
_Static_assert(sizeof(trace_event) == 32, "trace_event is meant to stay 32 bytes");

/* What an instruction is (trace_insn.cls): the class of its op in sim/ptx/ptx_ops.def,
 * one per op, refined by the instruction's modifiers where noted. */
enum {
    TRACE_CLASS_OTHER = 0,  /* none of the below: prefetch, trap, brkpt, nanosleep */
    TRACE_CLASS_ALU,        /* integer, logic, move, conversion, comparison, selection,
                               min/max/abs/neg (any type), bit and SIMD video ops */
    TRACE_CLASS_ADD,        /* add, sub, addc, subc: integer or float (trace_insn.type)
                               (the scan lesson's "additions") */
    TRACE_CLASS_MUL,        /* mul, mul24: integer or float */
    TRACE_CLASS_FMA,        /* mad, fma, mad24, madc: integer or float */
    TRACE_CLASS_DIV,        /* div, rem; rcp and sqrt without .approx (IEEE-rounded) */
    TRACE_CLASS_SFU,        /* the .approx functions (the special function unit, MUFU):
                               sin, cos, lg2, ex2, tanh, rsqrt, rcp.approx, sqrt.approx */
    TRACE_CLASS_TENSOR,     /* mma, wmma.mma: warp-wide matrix multiply-accumulate on the
                               tensor cores (PTX ISA §9.7.14) */
    TRACE_CLASS_LOAD,       /* ld, ldu, ldmatrix, wmma.load */
    TRACE_CLASS_STORE,      /* st, stmatrix, wmma.store */
    TRACE_CLASS_ATOMIC,     /* atom, red */
    TRACE_CLASS_ASYNC_COPY, /* cp.async and cp.async.bulk copies (PTX ISA §9.7.9.25): a
                               read of one space and a write of another */
    TRACE_CLASS_BRANCH,     /* bra */
    TRACE_CLASS_CALL,       /* call, ret, exit */
    TRACE_CLASS_BARRIER,    /* bar, barrier, barrier.cluster */
    TRACE_CLASS_SYNC,       /* memory ordering and asynchronous completion: membar,
                               fence, mbarrier.*, cp.async.commit_group / wait_group /
                               wait_all / mbarrier.arrive and their .bulk forms */
    TRACE_CLASS_WARP,       /* shfl, vote, match, redux, activemask, bar.warp.sync,
                               elect, movmatrix */
    TRACE_CLASS_COUNT
};

/* trace_insn.flags. */
enum {
    TRACE_INSN_VECTOR = 1u << 0,    /* .v2 / .v4 access (trace_insn.vec elements) */
    TRACE_INSN_MATRIX = 1u << 1,    /* ldmatrix / stmatrix: 8x8 .b16 matrices, one 16-byte
                                      row per lane address (PTX ISA §9.7.14.5.15-16) */
    TRACE_INSN_WMMA = 1u << 2,      /* wmma.load / .store / .mma (PTX ISA §9.7.14.4) */
    TRACE_INSN_FRAGMENTS = 1u << 3, /* a tensor-core instruction whose registers hold
                                      matrix fragments: mma, wmma.*, ldmatrix, stmatrix,
                                      movmatrix (the fragment view shows it) */
    TRACE_INSN_BULK = 1u << 4,      /* cp.async.bulk and its commit / wait forms */
    TRACE_INSN_REDUCTION = 1u << 5, /* red (an atomic that returns nothing) */
    TRACE_INSN_APPROX = 1u << 6,    /* .approx */
    TRACE_INSN_STRONG = 1u << 7,    /* .volatile, .relaxed, .acquire, .release, .sc */
    TRACE_INSN_GUARDED = 1u << 8,   /* executed under a guard predicate (@p / @!p) */
    TRACE_INSN_UNIFORM = 1u << 9,   /* .uni: the PTX promises all active lanes agree */
    TRACE_INSN_NC = 1u << 10,       /* ld.global.nc: through the non-coherent cache */
};

/* trace_insn.async_group: the cp.async (not .bulk) forms that open, close and wait for
 * a thread's groups of copies (PTX ISA §9.7.9.25.3.1-3). */
enum {
    TRACE_ASYNC_NONE = 0,
    TRACE_ASYNC_COPY,     /* cp.async: a copy joins the thread's open group */
    TRACE_ASYNC_COMMIT,   /* cp.async.commit_group: the open group is committed */
    TRACE_ASYNC_WAIT,     /* cp.async.wait_group N: all but the newest N groups land */
    TRACE_ASYNC_WAIT_ALL, /* cp.async.wait_all: every copy lands */
};

/* Data types of trace_insn.type, encoded as the simulator's (PTX ISA §5.2.1
 * "Fundamental Types"): the low nibble is the size in bytes, the high nibble the kind. */
enum {
    TRACE_TYPE_NONE = 0,
    TRACE_TYPE_KIND_B = 0x00, /* .b8 .. .b64: untyped bits */
    TRACE_TYPE_KIND_U = 0x10, /* .u8 .. .u64 */
    TRACE_TYPE_KIND_S = 0x20, /* .s8 .. .s64 */
    TRACE_TYPE_KIND_F = 0x30, /* .f16 .f32 .f64 */
    TRACE_TYPE_KIND_PRED = 0x40,
    TRACE_TYPE_KIND_BF16 = 0x50,   /* .bf16 (2 bytes) */
    TRACE_TYPE_KIND_F16X2 = 0x60,  /* .f16x2: two .f16 in 4 bytes */
    TRACE_TYPE_KIND_BF16X2 = 0x70, /* .bf16x2 */
    TRACE_TYPE_KIND_U16X2 = 0x80,  /* .u16x2 */
    TRACE_TYPE_KIND_S16X2 = 0x90,  /* .s16x2 */
};
#define TRACE_TYPE_BYTES(t) ((unsigned)((t)&0x0f))
#define TRACE_TYPE_KIND(t) ((unsigned)((t)&0xf0))
/* Whether type t holds floating-point values (f16/f32/f64, bf16, packed pairs). */
#define TRACE_TYPE_IS_FLOAT(t)                                                                     \
    (TRACE_TYPE_KIND(t) == TRACE_TYPE_KIND_F || TRACE_TYPE_KIND(t) == TRACE_TYPE_KIND_BF16 ||      \
     TRACE_TYPE_KIND(t) == TRACE_TYPE_KIND_F16X2 || TRACE_TYPE_KIND(t) == TRACE_TYPE_KIND_BF16X2)

/* Which roof an instruction's floating-point (or tensor integer) operations count
 * against (trace_insn.flop_kind). The CUDA-core kinds count per lane whose guard is
 * true, trace_insn.flops each: an add, sub or mul 1 per element, an fma/mad 2 (Nsight
 * Compute's roofline counts fadd + fmul + 2 x ffma); a packed .f16x2/.bf16x2 op does
 * two elements. The tensor kinds count per warp instruction, trace_insn.mma_flops:
 * 2 x M x N x K of the shape (a multiply and an add per product term), by the type of
 * the A and B matrices (PTX ISA §9.7.14.1 "Matrix Data-types"). */
enum {
    TRACE_FLOP_NONE = 0,
    TRACE_FLOP_FP32,        /* .f32 add/sub/mul/fma/mad */
    TRACE_FLOP_FP64,        /* .f64 */
    TRACE_FLOP_FP16,        /* .f16, .f16x2 */
    TRACE_FLOP_BF16,        /* .bf16, .bf16x2 */
    TRACE_FLOP_TENSOR_F16,  /* mma / wmma.mma with .f16 A and B */
    TRACE_FLOP_TENSOR_BF16, /* .bf16 A and B */
    TRACE_FLOP_TENSOR_TF32, /* .tf32 */
    TRACE_FLOP_TENSOR_F64,  /* .f64 */
    TRACE_FLOP_TENSOR_INT8, /* .s8 / .u8: integer operations, not floating point */
    TRACE_FLOP_TENSOR_INT4, /* .s4 / .u4 */
    TRACE_FLOP_TENSOR_B1,   /* .b1 (and/xor + popc) */
    TRACE_FLOP_TENSOR_FP8,  /* .e4m3 / .e5m2 */
    TRACE_FLOP_COUNT
};
#define TRACE_FLOP_IS_TENSOR(k) ((k) >= TRACE_FLOP_TENSOR_F16 && (k) < TRACE_FLOP_COUNT)

/* One static instruction (pc = index): what the back end ran there, decoded once by the
 * simulator's PTX front end (sim_trace_describe) for both back ends. Consumers read
 * these facts; the mnemonic is for display only and never parsed. */
typedef struct trace_insn {
    int32_t src_line;             /* CUDA source line, 0 unknown */
    int16_t src_file;             /* index into trace.files, 0 unknown */
    uint8_t cls;                  /* TRACE_CLASS_* */
    uint8_t type;                 /* TRACE_TYPE_*: the instruction's data type (the destination's
                           for cvt; the element's for vector accesses); NONE for none */
    int32_t ptx_line;             /* line in the PTX text */
    uint16_t op;                  /* the op (its line in sim/ptx/ptx_ops.def): equal ids are the
                           same op; for identity only, its name is in mnemonic */
    uint16_t flags;               /* TRACE_INSN_* */
    uint8_t src_space;            /* TRACE_SPACE_* the instruction reads memory of, as written
                           (0: none, or generic: the MEM event's space is where the
                           address went): ld, ldu, atom, red, ldmatrix, wmma.load,
                           cp.async's source */
    uint8_t dst_space;            /* the space it writes: st, atom, red, stmatrix, wmma.store,
                           cp.async's destination */
    uint8_t vec;                  /* elements of a vector access (1, 2 or 4) */
    uint8_t bytes;                /* bytes per lane per address: ld.v4.f32 16, atom.u64 8,
                           ldmatrix / stmatrix 16 (a row), cp.async its cp-size; 0 when
                           an operand decides it (cp.async.bulk), for wmma.load/store (per
                           register, as their MEM events say) and for no access */
    uint8_t flop_kind;            /* TRACE_FLOP_* */
    uint8_t flops;                /* CUDA-core kinds: FLOPs per lane whose guard is true */
    uint16_t mma_m, mma_n, mma_k; /* tensor-core shape (mma, wmma.*), else 0 */
    uint32_t mma_flops;           /* tensor kinds: FLOPs per warp instruction (2 x M x N x K, four
                           such products for the quad-pair mma.m8n8k4 .f16) */
    uint8_t adds;                 /* additions one lane whose guard is true performs, of any
                           type: add, sub, addc, subc, mad, fma, mad24, madc (whatever the
                           operands: fma(1, v, s) adds), and atom / red .add; one per
                           element (a packed .f16x2 / .bf16x2 / .u16x2 / .s16x2 pair 2, a
                           .v2 / .v4 atom or red 2 or 4); 0 for every other instruction */
    uint8_t async_group;          /* TRACE_ASYNC_*: what a (non-bulk) cp.async instruction
                           does to its thread's bulk-async groups (PTX ISA §9.7.9.25.3) */
    uint8_t async_wait_n;         /* TRACE_ASYNC_WAIT: N of cp.async.wait_group N (the
                           newest groups it lets stay in flight), capped at 255 */
    char mnemonic[96];            /* the full PTX mnemonic as written, every modifier included
                           ("cp.async.ca.shared.global", "mma.sync.aligned.m16n8k16.row
                           .col.f32.f16.f16.f32"); display only, cut at 95 bytes */
} trace_insn;

/* A register of the PTX the back end ran, for TRACE_EV_REG (index = trace.regs slot). */
enum { TRACE_REG_B = 0, TRACE_REG_U, TRACE_REG_S, TRACE_REG_F, TRACE_REG_PRED };
typedef struct trace_reg {
    char name[30]; /* "%r3", "%f1", "%p2"; registers of a called device function are
                       prefixed with it ("_Z3addii:%r1"; truncated) */
    uint8_t cls;   /* TRACE_REG_*: how a value is shown */
    uint8_t size;  /* bytes: 1 (pred), 2, 4 or 8 */
    int32_t func;  /* the function declaring it: 0 = the kernel, 1.. = device functions */
} trace_reg;

/* A source variable held in a register over a range of instructions, from a debug
 * build's DWARF (sim/ptx/ptx_dwarf.h): "i" in regs[3] ("%r1") for PCs [4, 28). */
typedef struct trace_var {
    char name[32]; /* as in the source ("i", "sum"; truncated) */
    int32_t reg;   /* index into trace.regs */
    int32_t pc_lo; /* it holds for the instructions [pc_lo, pc_hi) */
    int32_t pc_hi;
    int32_t decl_line; /* where it is declared, 0 unknown */
    int32_t is_param;  /* 1: a parameter of the kernel or function */
} trace_var;

/* The block's shared memory as it was when a barrier released (reduction/scan views). */
typedef struct trace_snapshot {
    uint32_t block;  /* linear block index */
    int32_t pc;      /* the barrier */
    uint64_t time;   /* when it released */
    uint64_t offset; /* into trace.snap_bytes */
    uint32_t size;   /* bytes (the block's whole shared memory, or cut at the cap) */
} trace_snapshot;

typedef struct trace trace_t;

/* Called for every event, stored or not (addrs: the 32 lane addresses of a MEM event,
 * else NULL). ctx is trace.sink_ctx. */
typedef void (*trace_sink_fn)(void *ctx, const trace_t *t, const trace_event *ev,
                              const uint64_t *addrs);

struct trace {
    trace_level level;
    /* launch */
    char kernel[128];
    unsigned grid[3], block[3];
    unsigned nwarps_per_block;
    /* static instructions (pc -> info), files (index -> path; [0] = NULL) */
    trace_insn *insns;
    int ninsns;
    char **files;
    int nfiles;
    /* registers (for TRACE_EV_REG; filled when record_regs is set) */
    trace_reg *regs;
    int nregs;
    int record_regs; /* set by the caller: 1 = record TRACE_EV_REG events */
    trace_var *vars; /* source variables in registers (with regs; none without a
                            debug build's DWARF): so the registers view can name them */
    int nvars;
    /* events */
    trace_event *events;
    size_t nevents, cap_events;
    size_t max_events; /* 0 = default (1 Mi events: 32 MiB, plus 256 bytes of lane
                            addresses per stored memory event) */
    int truncated;     /* 1 when events were dropped (counted in dropped) */
    uint64_t dropped;
    uint64_t *addrs;          /* 32 per stored MEM and REG event */
    size_t naddrs, cap_addrs; /* in units of 32 addresses */
    char *text;               /* printf output referenced by PRINTF events */
    size_t ntext, cap_text;
    /* shared-memory snapshots at barrier releases */
    size_t snap_max_bytes; /* 0 = none taken; otherwise total cap on snap_bytes */
    trace_snapshot *snaps;
    size_t nsnaps, cap_snaps;
    unsigned char *snap_bytes;
    size_t nsnap_bytes, cap_snap_bytes;
    int snaps_truncated; /* 1 when a snapshot did not fit under snap_max_bytes */
    /* streaming consumer (optional) */
    trace_sink_fn sink;
    void *sink_ctx;
};

/* A new empty trace recording at `level`; max_events 0 = default. NULL on no memory. */
trace_t *trace_new(trace_level level, size_t max_events);
void trace_free(trace_t *t);

/* Clears events, instructions, text and snapshots (keeps level, caps and sink) and
 * records the launch. Returns 0, or -1 on no memory. */
int trace_begin_launch(trace_t *t, const char *kernel, const unsigned grid[3],
                       const unsigned block[3]);
/* Sets the static instruction table (copied) and file names (copied). -1 no memory. */
int trace_set_insns(trace_t *t, const trace_insn *insns, int n, const char *const *files,
                    int nfiles);

/* Sets the register table (copied; trace_begin_launch clears it). -1 no memory. */
int trace_set_regs(trace_t *t, const trace_reg *regs, int n);

/* Sets the source variable table (copied; indexes into the regs table set before;
 * trace_begin_launch and trace_set_regs clear it). -1 no memory. */
int trace_set_vars(trace_t *t, const trace_var *vars, int n);

/* Appends an event (passes it to the sink first). addrs: 32 lane addresses for a MEM
 * event, 32 lane values for a REG event, else NULL. When the event cap is reached, sets truncated and counts it in
 * dropped. Returns 0, or -1 when memory ran out (the trace is then truncated). */
int trace_append(trace_t *t, const trace_event *ev, const uint64_t *addrs);
/* Appends printf text; returns its offset in t->text (text beyond 64 MiB is dropped). */
uint32_t trace_add_text(trace_t *t, const char *s, size_t n);
/* Appends a snapshot of `n` shared bytes; returns its index, or UINT32_MAX when
 * snapshots are off or over snap_max_bytes (snaps_truncated is then set). */
uint32_t trace_add_snapshot(trace_t *t, uint32_t block, int32_t pc, uint64_t time,
                            const void *bytes, size_t n);

/* The 32 lane addresses of a stored MEM event. */
static inline const uint64_t *trace_event_addrs(const trace_t *t, const trace_event *ev)
{
    return t->addrs + (size_t)ev->aux * 32;
}

/* The 32 lane values of a stored REG event (the low `width` bytes of each mean
 * something). */
static inline const uint64_t *trace_event_values(const trace_t *t, const trace_event *ev)
{
    return t->addrs + (size_t)ev->aux * 32;
}

/* Whether MEM event ev holds a cp.async.bulk copy's 16-byte pieces (slot i: piece i of
 * one lane's copy) rather than one address per lane: consumers that read its slots as
 * lanes skip it. */
static inline int trace_event_is_bulk(const trace_t *t, const trace_event *ev)
{
    return ev->kind == TRACE_EV_MEM && ev->pc >= 0 && ev->pc < t->ninsns &&
           (t->insns[ev->pc].flags & TRACE_INSN_BULK) != 0;
}

/* The name of a state space for messages and JSON: "global", "shared", ... */
const char *trace_space_name(int space);

#endif
