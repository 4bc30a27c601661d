/* jit.c — the translating tier: straight-line runs of register-only instructions of a
 * converged warp, and the lockstep regions of a block (exec_issue.c sim_region_turn),
 * become host code, generated C compiled by the system C compiler into a shared object
 * that the simulator loads.
 *
 * Regions. A region is straight-line code that every warp of a block that can issue
 * runs in lockstep, loads and stores included; sim_region_turn runs it as that many
 * rounds (instruction i for each warp in index order, then i + 1). Its function,
 * `int gl_jitr_<pc>(R0, ws, wm, x, insn, traced, K)`, runs each run of translatable
 * instructions for every warp of wm in turn (one loop over the lanes per warp, as
 * below), and calls insn(x, pc) = sim_region_insn for each other instruction: the
 * interpreter's own code for it over the warps in index order, with the checkers,
 * faults and trace events. A register-only instruction reads and writes its own warp's
 * registers only, so running instruction i's translated neighbours for all warps
 * before the next load or store is the rounds' order for everything anyone sees; a
 * fault stops the function at once with the same warps' PCs, steps and statistics as
 * the interpreter's region (tests: test_sim_jit, tests/jit.sh). Kernel-parameter loads,
 * symbol addresses and uniform special registers read K[pc] (sim_ctx.rk: the launch's
 * and the block's values); %tid.x of a one-dimensional block is computed. While
 * tracing (traced = 1) the function also calls insn(x, pc | SIM_REGION_ISSUED) after
 * each translated run, which counts and traces those instructions' issue in order;
 * while the registers view records values the interpreter runs the region.
 *
 * Unit. A block is a run of consecutive instructions that each have a full-warp vector
 * kernel in exec_fast.h (struct sim_fops.fh: integer and f32 ALU, mov, setp, shifts by
 * an immediate, cvta) and no guard predicate: exactly what run_ahead (exec_issue.c)
 * would run one by one through exec_fh for a converged warp. A block ends before any
 * other instruction (a branch, a memory access, a barrier, a guarded or unknown op),
 * before a branch target, and after SIM_JIT_MAX instructions; one of fewer than
 * SIM_JIT_MIN is not translated. Everything else — branches, memory and its checkers,
 * barriers, divergent warps, device-function calls, independent thread scheduling —
 * stays with the interpreter, which remains the reference.
 *
 * Calling convention. One function per block, `void gl_jit_<pc>(uint64_t *R)`, R the
 * warp's lane-major register block (slot r of lane l at R[r * 32 + l], sim_internal.h).
 * Its body is one loop over the 32 lanes that runs the whole block for a lane, each
 * value in a local variable, 32-bit operations on the low halves, so that the C compiler keeps
 * temporaries in host registers and vectorises the loop at the host's vector width
 * (-ftree-vectorize; -mavx2 -mfma where the CPU has them). It compiles with -Wall
 * -Wextra -Werror: a warning is a generator bug, and the interpreter runs the module. Each
 * instruction is a call of its kernel's function, defined at the top of the generated
 * source from the kernel's row of SIM_FH_OPS (exec_fast.h): the row's expression as text,
 * the same expression exec_fh compiles (zero-extended 32-bit results, canonical f32
 * NaNs, fused fma), so each semantic is written once; the block stores every register
 * it wrote at the end. -ffp-contract=off keeps the float operations unfused, as the interpreter
 * computes them.
 *
 * Identical results. run_ahead calls a block where it would run its first instruction
 * and counts its length into c->ahead[w] as it counts each instruction it runs ahead
 * (the issue loop's later turns count the steps, the warp-instruction statistics and,
 * while tracing, the issue events from c->ahead_q, which a block fills too); a block
 * that would pass SIM_AHEAD_MAX is left to the interpreter. The instructions are
 * register-only and cannot fault, so memory, findings, the trace and the step limit see
 * the same schedule either way; tests/jit.sh compares every corpus case's output and
 * metrics byte for byte. Memory instructions are not translated: their checked access
 * paths (sim_mem.c) stay the interpreter's.
 *
 * Cache. The key is a 128-bit hash of the generated C (which holds every operand, type
 * and immediate of the translated instructions: a finer key than the PTX text), the
 * generator's version, the compiler's flags and `cc --version`; the shared object is
 * sim_config.jit_dir/jit-<key>.so (runtime passes a folder under the PTX cache; the sim
 * layer does not depend on runtime). It is compiled to a temporary name and renamed,
 * so concurrent runs never load half a file. The compile is one posix_spawnp of $CC
 * (default cc) here in sim/ — a dozen lines, so that sim/ builds and is tested alone
 * rather than being handed a function table by runtime's child-process module.
 */
#define _GNU_SOURCE /* posix_spawn, mkstemp, dlopen */
#include "sim/jit.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/exec_fast.h"

extern char **environ;

#define SIM_JIT_VERSION 6 /* the generator's version: part of the cache key */
#define SIM_JIT_MIN 2     /* shortest block worth a call */
#define SIM_JIT_MAX 24    /* longest block (below SIM_AHEAD_MAX, so that blocks fit) */
_Static_assert(SIM_JIT_MAX < SIM_AHEAD_MAX, "a block fits in the run-ahead window");

/* The state kept in the sim for the module last translated. */
struct sim_jit_state {
    uint64_t mod_id; /* module translated (ptx_module.id), 0 none */
    int failed;      /* translating it failed: the interpreter runs it */
    int regions;     /* it was translated with its lockstep regions (sim_ctx.rlen) */
    int tidx_1d;     /* ... for a one-dimensional block (%tid.x is FH_TIDX, ahead_decode) */
    void *so;        /* dlopen handle */
    sim_jit_table t;
};

static unsigned long jit_compiles; /* compiler runs in this process (sim_jit_compiles) */

unsigned long sim_jit_compiles(void)
{
    return jit_compiles;
}

/* ------------------------------------------------------------ a growable string */
typedef struct jbuf {
    char *p;
    size_t n, cap;
    int oom;
} jbuf;

static void jb_printf(jbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jb_printf(jbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        const int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        const size_t cap = (b->cap + (size_t)k + 1) * 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
}

/* ------------------------------------------------------------ generation */

/* Whether the instruction at pc can be in a block: a full-warp kernel that run_ahead
 * runs with exec_fh (not FH_SREG/FH_TIDX/FH_BCAST, which depend on the launch), no
 * guard. */
static int jit_ok(const sim_ctx *c, int pc)
{
    const struct sim_fops *F = &c->fops[pc];
    const unsigned fk = c->fast[pc];
    return fk && fk < FK_LD && F->fh && F->fh < FH_BCAST && F->g == UINT32_MAX;
}

/* Whether the instruction at pc of a lockstep region is translated: jit_ok's, and the
 * values run_ahead broadcasts (FH_BCAST, FH_SREG: from the region's K table) or computes
 * (FH_TIDX). */
static int region_jit_ok(const sim_ctx *c, int pc)
{
    const unsigned fh = c->fops[pc].fh;
    return jit_ok(c, pc) || fh == FH_BCAST || fh == FH_SREG || fh == FH_TIDX;
}

/* Per-lane generator state of one block: the C variable holding each register slot's
 * current value (v<slot>), whether it was loaded or written. */
typedef struct jgen {
    jbuf *b;
    uint8_t *have; /* per slot: 0 not yet, 1 loaded or written */
    uint8_t *dirty;
    uint16_t *slots; /* slots written, in order */
    unsigned nslots, nregs;
    /* the kernel's slots live at each of its PCs (sim_regs_live, nw words a PC, from
     * PC pc0), or NULL: every slot written is stored */
    const uint64_t *live;
    size_t nw;
    int pc0, pc1;
} jgen;

/* The C expression for operand k (1..3) of in as a uint64_t: a register's variable
 * (loaded at first use) or the immediate. */
static void operand(jgen *g, const ptx_insn *in, unsigned k, char *out, size_t n)
{
    const ptx_operand *o = &in->o[k];
    if (o->kind == PTX_OPK_REG) {
        const unsigned r = o->reg;
        if (!g->have[r]) {
            jb_printf(g->b, "    uint64_t v%u = R[%u + l];\n", r, r * 32);
            g->have[r] = 1;
        }
        snprintf(out, n, "v%u", r);
    } else {
        snprintf(out, n, "UINT64_C(0x%llx)", (unsigned long long)o->imm);
    }
}

/* Assigns expression e to register slot r (declaring its variable if new). */
static void assign(jgen *g, unsigned r, const char *e)
{
    if (!g->have[r])
        jb_printf(g->b, "    uint64_t v%u = %s;\n", r, e);
    else
        jb_printf(g->b, "    v%u = %s;\n", r, e);
    g->have[r] = 1;
    if (!g->dirty[r]) {
        g->dirty[r] = 1;
        g->slots[g->nslots++] = (uint16_t)r;
    }
}

/* Each kernel's function in the generated C (gen_source defines one per row of
 * SIM_FH_OPS, its body the row's expression as text) and its number of sources. */
#define JIT_ROW(H, N, EXPR) [H] = {#H, N, #EXPR},
static const struct {
    const char *name;
    unsigned nsrc;
    const char *expr;
} jit_rows[] = {SIM_FH_OPS(JIT_ROW)};
#undef JIT_ROW

/* Emits the per-lane C of instruction in (its sim_fops F): a call of its kernel's
 * function, exactly the expression exec_fh computes (SIM_FH_OPS). */
static void emit_insn(jgen *g, const ptx_insn *in, const struct sim_fops *F, unsigned t, int pc)
{
    char src[3][48] = {"0", "0", "0"}, e[320];
    if (F->fh == FH_BCAST || F->fh == FH_SREG) {
        snprintf(e, sizeof e, "K[%d]", pc); /* the launch's or the block's value */
    } else if (F->fh == FH_TIDX) {
        snprintf(e, sizeof e, "(wb + l) & UINT64_C(0x%llx)", (unsigned long long)F->k);
    } else { /* jit_ok: a row of SIM_FH_OPS */
        for (unsigned k = 0; k < jit_rows[F->fh].nsrc && k + 1 < in->nopnd; k++)
            operand(g, in, k + 1, src[k], sizeof src[k]);
        snprintf(e, sizeof e, "%s(%s, %s, %s, %uu, UINT64_C(0x%llx))", jit_rows[F->fh].name, src[0],
                 src[1], src[2], (unsigned)F->sa, (unsigned long long)F->k);
    }
    /* a temporary first: the destination may be a source */
    jb_printf(g->b, "    const uint64_t t%u = %s;\n", t, e);
    snprintf(e, sizeof e, "t%u", t);
    assign(g, F->d >> 5, e);
    if (F->d2 != UINT32_MAX) { /* setp's second destination: the negation (exec_fh's D2) */
        snprintf(e, sizeof e, "t%u ^ 1", t);
        assign(g, F->d2 >> 5, e);
    }
}

/* Emits the body of a loop over the lanes l that runs instructions p..q-1 (each one
 * jit_ok or region_jit_ok) on the lane-major registers R: sources loaded at first use,
 * each result in a local, every register written stored at the end that is live at q
 * (what follows may read it: the interpreter, the next block, a load's address). */
static void emit_lanes(jgen *g, const sim_ctx *c, int p, int q)
{
    memset(g->have, 0, g->nregs);
    memset(g->dirty, 0, g->nregs);
    g->nslots = 0;
    for (int i = p; i < q; i++)
        emit_insn(g, &c->code[i], &c->fops[i], (unsigned)(i - p), i);
    const uint64_t *live =
        g->live && p >= g->pc0 && q <= g->pc1 ? g->live + (size_t)(q - g->pc0) * g->nw : NULL;
    for (unsigned i = 0; i < g->nslots; i++) {
        const unsigned r = g->slots[i];
        if (!live || r / 64 >= g->nw || ((live[r / 64] >> (r % 64)) & 1))
            jb_printf(g->b, "    R[%u + l] = v%u;\n", r * 32u, r);
        else
            jb_printf(g->b, "    (void)v%u; /* dead at %d */\n", r, q);
    }
}

/* The C source of c's module's blocks (the block starts and lengths into len[]), with
 * the flags it is compiled with; NULL on out of memory. Caller frees. */
static char *gen_source(const sim_ctx *c, uint8_t *len, unsigned *nblocks, unsigned *nregions)
{
    const int ncode = c->m->ncode;
    uint8_t *leader = calloc((size_t)ncode + 1, 1);
    unsigned nregs = 1;
    for (int pc = 0; pc < ncode; pc++) {
        const ptx_insn *in = &c->code[pc];
        if (c->fast[pc] == FK_BRA && in->target >= 0 && in->target < ncode && leader)
            leader[in->target] = 1;
        for (unsigned k = 0; k < in->nopnd && k < 4; k++) {
            if (in->o[k].kind == PTX_OPK_REG && in->o[k].reg != PTX_NOREG && in->o[k].reg >= nregs)
                nregs = in->o[k].reg + 1u;
            if (in->o[k].kind == PTX_OPK_REG && in->o[k].sub == 2 && in->o[k].imm >= nregs &&
                in->o[k].imm != PTX_NOREG)
                nregs = (unsigned)in->o[k].imm + 1u;
        }
    }
    jbuf b = {0};
    jgen g = {.b = &b, .nregs = nregs, .pc0 = c->entry->entry_pc, .pc1 = c->entry->end_pc};
    uint64_t *live = sim_regs_live(c->m, c->fast, c->entry, &g.nw);
    g.live = live;
    g.have = calloc(nregs, 1);
    g.dirty = calloc(nregs, 1);
    g.slots = calloc(nregs, sizeof *g.slots);
    if (!leader || !g.have || !g.dirty || !g.slots) {
        free(leader);
        free(live);
        free(g.have);
        free(g.dirty);
        free(g.slots);
        return NULL;
    }
    jb_printf(
        &b,
        "/* gpulearn translating tier (sim/jit.c), generator version %d */\n"
        "#include <stdint.h>\n#include <string.h>\n"
        "static inline __attribute__((unused)) float f32(uint64_t v)\n{\n    const uint32_t "
        "u = (uint32_t)v;\n"
        "    float f;\n    memcpy(&f, &u, 4);\n    return f;\n}\n"
        "static inline __attribute__((unused)) uint64_t canon32(float f)\n{\n    uint32_t u;\n"
        "    memcpy(&u, &f, 4);\n    return f != f ? 0x%xu : u;\n}\n%s",
        SIM_JIT_VERSION, NAN32, SIM_FH_SCALAR);
    for (size_t i = 0; i < sizeof jit_rows / sizeof jit_rows[0]; i++)
        if (jit_rows[i].name)
            jb_printf(&b,
                      "static inline __attribute__((unused)) uint64_t %s(uint64_t a, uint64_t b, "
                      "uint64_t c, unsigned sa, uint64_t k)\n{\n    (void)a;\n    (void)b;\n"
                      "    (void)c;\n    (void)sa;\n    (void)k;\n    return %s;\n}\n",
                      jit_rows[i].name, jit_rows[i].expr);
    *nblocks = 0;
    *nregions = 0;
    for (int pc = 0; pc < ncode;) {
        int end = pc;
        while (end < ncode && end - pc < SIM_JIT_MAX && jit_ok(c, end) &&
               (end == pc || !leader[end]))
            end++;
        if (end - pc < SIM_JIT_MIN) {
            pc = end > pc ? end : pc + 1;
            continue;
        }
        len[pc] = (uint8_t)(end - pc);
        (*nblocks)++;
        jb_printf(&b,
                  "void gl_jit_%d(uint64_t *restrict R);\nvoid gl_jit_%d(uint64_t *restrict R)\n"
                  "{\n  for (unsigned l = 0; l < 32; l++) {\n",
                  pc, pc);
        emit_lanes(&g, c, pc, end);
        jb_printf(&b, "  }\n}\n");
        pc = end;
    }
    /* lockstep regions (sim_region_turn) at their leaders: each run of translatable
     * instructions for every warp of wm, the others through insn() */
    for (int pc = 0; c->rlen && pc < ncode; pc++) {
        if (!(c->rlen[pc] & SIM_RLEN_LEADER))
            continue;
        const int end = pc + (int)(c->rlen[pc] & SIM_RLEN_MASK);
        (*nregions)++;
        jb_printf(&b,
                  "int gl_jitr_%d(uint64_t *restrict R0, size_t ws, uint32_t wm, void *x,\n"
                  "    int (*insn)(void *, uint32_t), int traced, const uint64_t *K);\n"
                  "int gl_jitr_%d(uint64_t *restrict R0, size_t ws, uint32_t wm, void *x,\n"
                  "    int (*insn)(void *, uint32_t), int traced, const uint64_t *K)\n{\n"
                  "  (void)R0;\n  (void)ws;\n  (void)wm;\n  (void)x;\n  (void)insn;\n",
                  pc, pc);
        for (int p = pc; p < end;) {
            if (!region_jit_ok(c, p)) {
                jb_printf(&b, "  if (insn(x, %du))\n    return 1;\n", p);
                p++;
                continue;
            }
            int q = p;
            while (q < end && region_jit_ok(c, q))
                q++;
            jb_printf(&b, "  for (uint32_t m = wm; m; m &= m - 1) {\n"
                          "    uint64_t *restrict R = R0 + (size_t)__builtin_ctz(m) * ws;\n"
                          "    const uint64_t wb = 32u * (uint64_t)__builtin_ctz(m);\n"
                          "    (void)wb;\n"
                          "  for (unsigned l = 0; l < 32; l++) {\n");
            emit_lanes(&g, c, p, q);
            jb_printf(&b, "  }\n  }\n  if (traced) {\n");
            for (int i = p; i < q; i++)
                jb_printf(&b, "    insn(x, %du | 0x%xu);\n", i, SIM_REGION_ISSUED);
            jb_printf(&b, "  }\n");
            p = q;
        }
        jb_printf(&b, "  (void)traced;\n  (void)K;\n  return 0;\n}\n");
    }
    free(leader);
    free(live);
    free(g.have);
    free(g.dirty);
    free(g.slots);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* ------------------------------------------------------------ compiling */

/* The C compiler: $CC, else cc. */
static const char *jit_cc(void)
{
    const char *cc = getenv("CC");
    return cc && *cc && !strchr(cc, ' ') ? cc : "cc";
}

/* Runs argv (argv[0] looked up in PATH) with stdout into fd out (or /dev/null, -1) and
 * stderr to /dev/null; returns its exit status, -1 when it could not run. */
static int spawn_wait(char *const argv[], int out)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    if (out >= 0)
        posix_spawn_file_actions_adddup2(&fa, out, 1);
    else
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    const int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* 64-bit FNV-1a of n bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}

/* `cc --version` (its first 4 KiB), read once per process through a file in dir; ""
 * when it did not run. */
static const char *cc_version(const char *dir)
{
    static char ver[4096];
    static int done;
    if (done)
        return ver;
    done = 1;
    char path[4200];
    snprintf(path, sizeof path, "%s/ccver-XXXXXX", dir);
    const int fd = mkstemp(path);
    if (fd < 0)
        return ver;
    unlink(path);
    char *argv[] = {(char *)jit_cc(), "--version", NULL};
    if (spawn_wait(argv, fd) == 0 && lseek(fd, 0, SEEK_SET) == 0) {
        const ssize_t k = read(fd, ver, sizeof ver - 1);
        ver[k > 0 ? k : 0] = 0;
    }
    close(fd);
    return ver;
}

/* Compiles src into the shared object path (through a temporary name); 0 ok. */
static int compile(const char *dir, const char *src, const char *path, char *const *flags,
                   int nflags)
{
    char cpath[4200], tmp[4200];
    snprintf(cpath, sizeof cpath, "%s/jit-tmp-%ld.c", dir, (long)getpid());
    snprintf(tmp, sizeof tmp, "%s/jit-tmp-%ld.so", dir, (long)getpid());
    FILE *f = fopen(cpath, "w");
    if (!f)
        return -1;
    const int wok = fputs(src, f) >= 0;
    if (fclose(f) != 0 || !wok) {
        unlink(cpath);
        return -1;
    }
    char *argv[24];
    int n = 0;
    argv[n++] = (char *)jit_cc();
    for (int i = 0; i < nflags && n < 18; i++)
        argv[n++] = flags[i];
    argv[n++] = "-o";
    argv[n++] = tmp;
    argv[n++] = cpath;
    argv[n] = NULL;
    jit_compiles++;
    const int rc = spawn_wait(argv, -1);
#ifndef NDEBUG
    /* debug builds (the tests'): generated C that does not compile is a generator bug;
     * say so, and keep the source (tests/jit.sh then sees the tiers' stderr differ) */
    if (rc != 0) {
        fprintf(stderr,
                "gpulearn: internal error: the translating tier's C did not compile "
                "(%s)\n",
                cpath);
        unlink(tmp);
        return -1;
    }
#endif
    unlink(cpath);
    if (rc != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Generates, compiles (or finds in the cache) and loads c's module's blocks into J. */
static int translate(sim_ctx *c, struct sim_jit_state *J)
{
    const char *dir = c->s->cfg.jit_dir;
    if (!dir || !*dir)
        return -1;
    const int ncode = c->m->ncode;
    J->t.len = calloc((size_t)ncode + 1, 1);
    J->t.fn = calloc((size_t)ncode + 1, sizeof *J->t.fn);
    J->t.region = calloc((size_t)ncode + 1, sizeof *J->t.region);
    if (!J->t.len || !J->t.fn || !J->t.region)
        return -1;
    unsigned nblocks = 0, nregions = 0;
    char *src = gen_source(c, J->t.len, &nblocks, &nregions);
    if (!src)
        return -1;
    J->regions = c->rlen != NULL;
    J->tidx_1d = c->block[0] == c->nthreads;
    if (!nblocks && !nregions) {
        free(src);
        return -1;
    }
    /* the host's vector width: AVX2 (with FMA) where the CPU has it, else baseline */
    char *flags[14];
    int nf = 0;
    flags[nf++] = "-O2";
    flags[nf++] = "-ftree-vectorize";
    flags[nf++] = "-ffp-contract=off";
    flags[nf++] = "-fno-math-errno";
    flags[nf++] = "-Wall";
    flags[nf++] = "-Wextra";
    flags[nf++] = "-Werror";
    flags[nf++] = "-shared";
    flags[nf++] = "-fPIC";
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        flags[nf++] = "-mavx2";
        flags[nf++] = "-mfma";
    }
#endif
    uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
    const int ver = SIM_JIT_VERSION;
    mkdir(dir, 0700); /* its parent exists (runtime's PTX cache) */
    const char *ccv = cc_version(dir);
    if (!*ccv) {
        free(src);
        return -1; /* no compiler */
    }
    h1 = fnv(h1, &ver, sizeof ver);
    h1 = fnv(h1, ccv, strlen(ccv));
    for (int i = 0; i < nf; i++)
        h1 = fnv(h1, flags[i], strlen(flags[i]) + 1);
    h1 = fnv(h1, src, strlen(src));
    h2 = fnv(h2 ^ h1, src, strlen(src));
    char path[4200];
    snprintf(path, sizeof path, "%s/jit-%016llx%016llx.so", dir, (unsigned long long)h1,
             (unsigned long long)h2);
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (compile(dir, src, path, flags, nf) != 0) {
            free(src);
            return -1;
        }
    }
    free(src);
    J->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!J->so)
        return -1;
    for (int pc = 0; pc < ncode; pc++) {
        char name[32];
        if (J->t.len[pc]) {
            snprintf(name, sizeof name, "gl_jit_%d", pc);
            void *sym = dlsym(J->so, name);
            if (!sym)
                return -1;
            /* POSIX dlsym: a function's address through a data pointer */
            memcpy(&J->t.fn[pc], &sym, sizeof sym);
        }
        if (c->rlen && (c->rlen[pc] & SIM_RLEN_LEADER)) {
            snprintf(name, sizeof name, "gl_jitr_%d", pc);
            void *sym = dlsym(J->so, name);
            if (!sym)
                return -1;
            memcpy(&J->t.region[pc], &sym, sizeof sym);
        }
    }
    return 0;
}

static void state_clear(struct sim_jit_state *J)
{
    if (J->so)
        dlclose(J->so);
    free(J->t.fn);
    free(J->t.len);
    free(J->t.region);
    memset(J, 0, sizeof *J);
}

void sim_jit_free(sim_t *s)
{
    if (!s->jit)
        return;
    state_clear(s->jit);
    free(s->jit);
    s->jit = NULL;
}

void sim_jit_attach(sim_ctx *c, uint64_t nwarps_grid)
{
    c->jit = NULL;
    const int tier = c->s->cfg.tier;
    if (tier == SIM_TIER_INTERP || !c->fops)
        return;
    if (tier == SIM_TIER_AUTO && nwarps_grid < SIM_JIT_AUTO_WARPS)
        return;
    sim_t *s = c->s;
    if (!s->jit && !(s->jit = calloc(1, sizeof *s->jit)))
        return;
    struct sim_jit_state *J = s->jit;
    const int tidx_1d = c->block[0] == c->nthreads;
    if (J->mod_id != c->m->id || (!J->regions && c->rlen && !J->failed) ||
        (J->regions && J->tidx_1d != tidx_1d)) {
        state_clear(J);
        J->mod_id = c->m->id;
        if (translate(c, J) != 0) {
            state_clear(J);
            J->mod_id = c->m->id;
            J->failed = 1;
        }
    }
    if (!J->failed)
        c->jit = &J->t;
}
