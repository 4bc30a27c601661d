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

#include "sim/ptx_ir.h"
#include "sim/sim.h"

#define SIM_GLOBAL_BASE 0x0000700000000000ull
#define SIM_SHARED_WIN 0x00007e0000000000ull
#define SIM_LOCAL_WIN 0x00007f0000000000ull
#define SIM_WIN_SIZE 0x0000000100000000ull
#define SIM_PARAM_FRAME 0x0000010000000000ull
#define SIM_MAX_DEPTH 32

/* One global allocation (sim_malloc or a module variable). */
typedef struct sim_alloc {
    uint64_t base;
    size_t size;
    char label[64];
    unsigned char *data;
} sim_alloc;

struct sim {
    sim_config cfg;
    sim_alloc *allocs; /* sorted by base (allocated in increasing order) */
    int nallocs, cap;
    uint64_t next;
    int last; /* index of the last allocation hit (lookup cache) */
    uint64_t mod_id; /* module whose variables are instantiated */
    uint64_t *var_addr;
    int nvars;
};

enum { SIM_T_RUN, SIM_T_BAR, SIM_T_EXIT };

typedef struct sim_frame {
    int32_t ret_pc, call;
    uint32_t rbase, pbase, lbase;
} sim_frame;

/* Everything one launch needs; the hot state of the interpreter. */
typedef struct sim_ctx {
    sim_t *s;
    const ptx_module *m;
    const ptx_func *entry;
    const ptx_insn *code;
    unsigned grid[3], block[3];
    unsigned bid[3];       /* current block */
    unsigned nthreads, nwarps;
    /* per thread */
    uint32_t *pc;
    uint8_t *state;
    uint8_t *depth;
    uint32_t *rbase, *pbase, *lbase;
    int32_t *bar_pc;
    sim_frame *frames; /* nthreads * SIM_MAX_DEPTH */
    uint64_t *regs;    /* nthreads * regcap */
    unsigned char *params; /* nthreads * paramcap */
    unsigned char *local;  /* nthreads * localcap */
    size_t regcap, paramcap, localcap;
    /* per warp */
    int32_t *loop_pc; /* last backward branch taken (for step-limit messages) */
    /* per CTA */
    unsigned char *shared;
    size_t shared_size; /* static + dynamic */
    unsigned dynshared_off;
    unsigned char *kparams;
    size_t kparam_size;
    /* results */
    uint64_t steps, step_limit;
    int faulted;
    sim_result *res;
    size_t printf_cap;
} sim_ctx;

/* Executes one warp instruction for warp w (sim_exec.c). Returns 0 when no lane of the
 * warp can run (all exited or waiting at a barrier). */
int sim_warp_step(sim_ctx *c, unsigned w);

/* Checked memory access for thread t (sim.c): a host pointer to `size` bytes at `addr`
 * of `space`, or NULL after recording a fault. kind: 0 load, 1 store, 2 atomic. */
void *sim_mem(sim_ctx *c, unsigned t, int space, uint64_t addr, unsigned size, int kind,
              const ptx_insn *in);

/* Records a fault of `kind` for thread t at instruction in (message formatted). */
void sim_fault_at(sim_ctx *c, unsigned t, const ptx_insn *in, sim_fault_kind kind,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "file:line" (basename) of an instruction's CUDA source, or "PTX line N". */
void sim_where(const sim_ctx *c, const ptx_insn *in, char *buf, size_t n);

#endif
