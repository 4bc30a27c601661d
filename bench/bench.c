/* bench.c — `make bench`: simulator speed.
 *
 * For each kernel of bench/ptx (vector add, shared-memory reduction, tiled 16x16
 * SGEMM, block scan; PTX from `nvcc -O3 -arch=compute_75 -lineinfo`, see
 * bench/README.md) this program parses the PTX once, runs the kernel on the simulator
 * through sim.h (sim_new / sim_malloc / sim_launch) and runs the same computation as a
 * plain C loop compiled into this binary (-O2 in MODE=release). Both are timed in this
 * one process over BENCH_RUNS runs (default 3), taking turns; every figure is reported
 * as its median over the runs with the min and max beside it, and only ratios measured
 * here are compared. Reported: simulated warp instructions per second, threads per second, the
 * slowdown against the C loop, the cost of memory-level tracing and of the checkers. Each kernel also runs on the translating tier (SIM_TIER_JIT,
 * blocks compiled into a temporary folder by the first such launch), interleaved with
 * the interpreter's launches; a second table gives both tiers and their ratio. A table
 * compares each figure with its target (bench/README.md), for both tiers.
 *
 * Exit status: 0 when every kernel's result is right (targets missed are reported, not
 * failed), 1 when a result is wrong or a launch fails, 2 on bad usage or a missing
 * PTX file. Usage: bench [PTX_DIR] [--quick | --full]. Sizes: the full ones, unless the
 * launches of a kernel would take over BENCH_BUDGET seconds (default 20; estimated from
 * a calibration launch at the smallest size), then the largest size that fits, marked
 * '*' in the table. --quick (or BENCH_QUICK=1): smallest sizes, one run unless
 * BENCH_RUNS says otherwise; --full (or
 * BENCH_FULL=1): the full sizes whatever the time. BENCH_BUDGET=S sets the budget,
 * BENCH_ONLY=name runs one kernel (for perf record). See bench/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/spread.h"

#include "sim/sim.h"
#include "trace/trace.h"

/* ------------------------------------------------------------------ helpers */

/* CPU seconds used by this process (all its threads): what "on one core" measures, and
 * robust against other processes sharing the machine, unlike wall time. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Parses dir/name.ptx. NULL on failure, with the reason on stderr; *unreadable 1 when
 * the file cannot be read (0 when the simulator cannot load it). */
static ptx_module_t *load_kernel(const char *dir, const char *name, int *unreadable)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.ptx", dir, name);
    size_t len = 0;
    char *text = read_text(path, &len);
    *unreadable = !text;
    if (!text) {
        fprintf(stderr, "bench: cannot read %s\n", path);
        return NULL;
    }
    ptx_module_t *m = NULL;
    char *diag = NULL;
    if (ptx_parse(text, len, path, &m, &diag) != SIM_OK) {
        fprintf(stderr, "bench: %s: the simulator cannot load nvcc's PTX:\n%s", name,
                diag ? diag : "parse error\n");
        m = NULL;
    }
    free(diag);
    free(text);
    return m;
}

/* Deterministic small integers (xorshift), so that float sums are exact. */
static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* Keeps the optimiser from dropping a C loop whose result is checked later anyway. */
static volatile uint32_t bench_sink;

/* ------------------------------------------------------------------ kernels */

/* One benchmark: its host data, the C loop and the check. */
typedef struct bench_case {
    const char *name;    /* kernel and PTX file name */
    char size_label[32]; /* e.g. "2^24", "512^3" */
    unsigned grid[3], block[3];
    int nbufs; /* device buffers: inputs first, then outputs */
    int ninputs;
    size_t bytes[3];
    void *host[3]; /* inputs (and, after the sim run, the sim's outputs) */
    void *ref;     /* the C loop's output (same layout as the first output) */
    size_t ref_bytes;
    int n; /* the kernel's int parameter */
    void (*c_loop)(struct bench_case *b);
    int target_c; /* 1: a slowdown target against C applies (vec_add, reduce) */
} bench_case;

static void c_vec_add(bench_case *b)
{
    const float *x = b->host[0], *y = b->host[1];
    float *z = b->ref;
    for (int i = 0; i < b->n; i++)
        z[i] = x[i] + y[i];
    bench_sink = (uint32_t)z[b->n / 2];
}

static void c_reduce(bench_case *b)
{
    const uint32_t *in = b->host[0];
    uint32_t *out = b->ref;
    int nb = (b->n + 255) / 256;
    for (int blk = 0; blk < nb; blk++) {
        uint32_t s = 0;
        for (int i = blk * 256; i < blk * 256 + 256 && i < b->n; i++)
            s += in[i];
        out[blk] = s;
    }
    bench_sink = out[0];
}

static void c_sgemm(bench_case *b)
{
    const float *A = b->host[0], *B = b->host[1];
    float *C = b->ref;
    int n = b->n;
    memset(C, 0, (size_t)n * (size_t)n * sizeof *C);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            float a = A[(size_t)i * (size_t)n + (size_t)k];
            for (int j = 0; j < n; j++)
                C[(size_t)i * (size_t)n + (size_t)j] += a * B[(size_t)k * (size_t)n + (size_t)j];
        }
    bench_sink = (uint32_t)C[0];
}

static void c_scan(bench_case *b)
{
    const uint32_t *in = b->host[0];
    uint32_t *out = b->ref;
    uint32_t s = 0;
    for (int i = 0; i < b->n; i++) {
        if (i % 1024 == 0)
            s = 0;
        s += in[i];
        out[i] = s;
    }
    bench_sink = out[b->n - 1];
}

/* Problem sizes: log2 of the element count (SGEMM: of n), from the smallest
 * (calibration) to the full size; work grows as 2^(lg * work_exp). */
typedef struct bench_size {
    const char *name;
    int min_lg, max_lg, work_exp;
} bench_size;
static const bench_size sizes[] = {
    {"vec_add", 16, 24, 1}, /* full: 2^24 elements */
    {"reduce", 16, 24, 1},  /* full: 2^24 */
    {"sgemm", 6, 9, 3},     /* full: 512^3 */
    {"scan", 14, 22, 1},    /* full: 2^22 */
};

/* Sets up one case at size lg (log2 of the element count, or of n for SGEMM). */
static int case_init(bench_case *b, const char *name, int lg)
{
    memset(b, 0, sizeof *b);
    b->name = name;
    b->block[1] = b->block[2] = b->grid[1] = b->grid[2] = 1;
    if (strcmp(name, "vec_add") == 0) {
        b->n = 1 << lg;
        snprintf(b->size_label, sizeof b->size_label, "2^%d", lg);
        b->block[0] = 256;
        b->grid[0] = (unsigned)(b->n + 255) / 256;
        b->nbufs = 3, b->ninputs = 2;
        for (int i = 0; i < 3; i++)
            b->bytes[i] = (size_t)b->n * 4;
        b->ref_bytes = b->bytes[2];
        b->c_loop = c_vec_add;
        b->target_c = 1;
    } else if (strcmp(name, "reduce") == 0) {
        b->n = 1 << lg;
        snprintf(b->size_label, sizeof b->size_label, "2^%d", lg);
        b->block[0] = 256;
        b->grid[0] = (unsigned)(b->n + 255) / 256;
        b->nbufs = 2, b->ninputs = 1;
        b->bytes[0] = (size_t)b->n * 4;
        b->bytes[1] = (size_t)b->grid[0] * 4;
        b->ref_bytes = b->bytes[1];
        b->c_loop = c_reduce;
        b->target_c = 1;
    } else if (strcmp(name, "sgemm") == 0) {
        b->n = 1 << lg;
        snprintf(b->size_label, sizeof b->size_label, "%d^3", b->n);
        b->block[0] = b->block[1] = 16;
        b->grid[0] = b->grid[1] = (unsigned)b->n / 16;
        b->nbufs = 3, b->ninputs = 2;
        for (int i = 0; i < 3; i++)
            b->bytes[i] = (size_t)b->n * (size_t)b->n * 4;
        b->ref_bytes = b->bytes[2];
        b->c_loop = c_sgemm;
    } else if (strcmp(name, "scan") == 0) {
        b->n = 1 << lg;
        snprintf(b->size_label, sizeof b->size_label, "2^%d", lg);
        b->block[0] = 1024;
        b->grid[0] = (unsigned)(b->n + 1023) / 1024;
        b->nbufs = 2, b->ninputs = 1;
        b->bytes[0] = b->bytes[1] = (size_t)b->n * 4;
        b->ref_bytes = b->bytes[1];
        b->c_loop = c_scan;
    } else {
        return -1;
    }
    for (int i = 0; i < b->nbufs; i++) {
        b->host[i] = calloc(1, b->bytes[i]);
        if (!b->host[i])
            return -1;
    }
    b->ref = calloc(1, b->ref_bytes);
    if (!b->ref)
        return -1;
    /* Inputs: small integers, exact in float and in any summation order. */
    for (int i = 0; i < b->ninputs; i++) {
        size_t cnt = b->bytes[i] / 4;
        if (strcmp(name, "vec_add") == 0 || strcmp(name, "sgemm") == 0) {
            float *f = b->host[i];
            for (size_t j = 0; j < cnt; j++)
                f[j] = (float)((int)(rnd() % 7) - 3);
        } else {
            uint32_t *u = b->host[i];
            for (size_t j = 0; j < cnt; j++)
                u[j] = rnd() % 1000;
        }
    }
    return 0;
}

static void case_free(bench_case *b)
{
    for (int i = 0; i < b->nbufs; i++)
        free(b->host[i]);
    free(b->ref);
}

/* ------------------------------------------------------------------ runs */

/* Most runs BENCH_RUNS may ask for (each run: two C loops and one launch of each kind). */
enum { MAX_RUNS = 100 };

/* The times of one kernel's runs, in CPU seconds: run i timed c_s[2i], c_s[2i + 1],
 * then sim_s[i], jit_s[i], trace_s[i], nocheck_s[i] (see run_case). */
typedef struct bench_result {
    int ok;
    int runs;                 /* runs completed */
    int have_trace;           /* trace_s measured (a trace is available, not BENCH_PLAIN_ONLY) */
    int have_nocheck;         /* nocheck_s measured */
    double c_s[2 * MAX_RUNS]; /* C loops */
    double sim_s[MAX_RUNS];   /* untraced launches, every checker on */
    double trace_s[MAX_RUNS]; /* launches traced at memory level */
    /* launches with racecheck, initcheck, synccheck and the global race detector off */
    double nocheck_s[MAX_RUNS];
    /* untraced launches on the translating tier (SIM_TIER_JIT), blocks from the cache */
    double jit_s[MAX_RUNS];
    uint64_t warp_insns;   /* per launch */
    uint64_t threads;      /* per launch */
    uint64_t trace_events; /* events seen by the trace sink in one traced launch */
    /* wall seconds of the first launch on the tier (with its allocations and copies),
     * which compiles the blocks */
    double jit_first_s;
} bench_result;

/* Streaming consumer: counts events (what an analysis would do in one pass). */
static void count_sink(void *ctx, const trace_t *t, const trace_event *ev, const uint64_t *addrs)
{
    (void)t;
    (void)ev;
    (void)addrs;
    (*(uint64_t *)ctx)++;
}

/* How a launch is configured. */
enum run_mode {
    RUN_PLAIN = 0,   /* defaults: untraced, every checker on */
    RUN_TRACED = 1,  /* memory-level trace */
    RUN_NOCHECK = 2, /* untraced, racecheck / initcheck / synccheck / global racecheck off */
    RUN_JIT = 3,     /* as RUN_PLAIN, on the translating tier (the others: the interpreter) */
};

/* The translating tier's folder: a fresh temporary one per run (main), so that the
 * first launch of each kernel on the tier compiles its blocks. */
static char jit_dir[256];

/* The launches' worker threads (sim_config.threads): 0, one thread, but in the per-core
 * table (run_threads); and the threads the last launch ran on (sim_result.threads). */
static unsigned sim_threads, sim_threads_used;
/* CPU seconds of this process (all threads) during the last launch. */
static double sim_cpu_s;
/* 1: the per-core table's launches run on the tier a run picks (SIM_TIER_AUTO), not the
 * interpreter; and the last launch's blocks run on the translating tier. */
static int tier_auto;
static uint64_t sim_jit_blocks;
/* 1: launches are timed in wall seconds (the per-core table), else in CPU seconds. */
static int time_wall;

/* One launch on a fresh simulator sharing nothing with other runs; outputs are copied
 * back into b->host[ninputs..]. Returns seconds for sim_launch alone (CPU seconds, or
 * wall seconds with time_wall), or -1. */
static double sim_run(bench_case *b, const ptx_module_t *m, enum run_mode mode,
                      uint64_t *warp_insns, uint64_t *events)
{
    sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.threads = sim_threads;
    cfg.tier = mode == RUN_JIT ? SIM_TIER_JIT : tier_auto ? SIM_TIER_AUTO : SIM_TIER_INTERP;
    cfg.jit_dir = jit_dir;
    if (mode == RUN_NOCHECK)
        cfg.checks_off = SIM_CHECK_RACE | SIM_CHECK_INIT | SIM_CHECK_SYNC | SIM_CHECK_GLOBAL_RACE;
    trace_t *tr = NULL;
    uint64_t nev = 0;
    if (mode == RUN_TRACED) {
        /* Store up to 1 Mi events (as a view would), stream every event to the sink. */
        tr = trace_new(TRACE_MEMORY, (size_t)1 << 20);
        if (!tr)
            return -1;
        tr->sink = count_sink;
        tr->sink_ctx = &nev;
        cfg.trace = tr;
    }
    sim_t *s = sim_new(&cfg);
    double t = -1;
    uint64_t d[3] = {0, 0, 0};
    void *params[4];
    if (!s)
        goto out;
    for (int i = 0; i < b->nbufs; i++) {
        if (sim_malloc(s, b->bytes[i], "buf", &d[i]) != SIM_OK)
            goto out;
        if (i < b->ninputs && sim_memcpy_htod(s, d[i], b->host[i], b->bytes[i]) != SIM_OK)
            goto out;
    }
    for (int i = 0; i < b->nbufs; i++)
        params[i] = &d[i];
    params[b->nbufs] = &b->n;
    sim_result res;
    double (*clock_s)(void) = time_wall ? wall_s : now_s;
    const double c0 = now_s(), t0 = clock_s();
    sim_status st = sim_launch(s, m, b->name, b->grid, b->block, 0, params, &res);
    double t1 = clock_s();
    sim_cpu_s = now_s() - c0;
    sim_threads_used = res.threads;
    sim_jit_blocks = res.jit_blocks;
    if (st != SIM_OK) {
        fprintf(stderr, "bench: %s: launch failed (status %d): %s\n", b->name, (int)st,
                res.fault.message);
        sim_result_free(&res);
        goto out;
    }
    *warp_insns = res.stats.warp_instructions;
    sim_result_free(&res);
    for (int i = b->ninputs; i < b->nbufs; i++)
        if (sim_memcpy_dtoh(s, b->host[i], d[i], b->bytes[i]) != SIM_OK)
            goto out;
    t = t1 - t0;
out:
    sim_free(s);
    if (tr) {
        if (events)
            *events = nev;
        trace_free(tr);
    }
    return t;
}

/* Compares the simulator's output with the C loop's: exact (inputs are small integers,
 * so every sum is exact in float too). Prints the first mismatch. */
static int check(const bench_case *b)
{
    const uint32_t *got = b->host[b->ninputs], *want = b->ref;
    size_t n = b->ref_bytes / 4;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "bench: %s: wrong result at element %zu: 0x%08x, expected 0x%08x\n",
                    b->name, i, got[i], want[i]);
            return 0;
        }
    return 1;
}

/* BENCH_PLAIN_ONLY=1: untraced launches with every checker on only (one kind of launch,
 * e.g. for instruction counts per launch under callgrind). */
static int plain_only;

/* One simulator launch of `mode` with its result checked: seconds, or -1 (r->ok = 0). */
static double timed_launch(bench_case *b, const ptx_module_t *m, enum run_mode mode,
                           bench_result *r)
{
    uint64_t wi = 0, ev = 0;
    memset(b->host[b->ninputs], 0xff, b->bytes[b->ninputs]);
    const double t = sim_run(b, m, mode, &wi, &ev);
    if (t < 0 || !check(b)) {
        r->ok = 0;
        return -1;
    }
    if (mode == RUN_PLAIN)
        r->warp_insns = wi;
    if (mode == RUN_JIT && wi != r->warp_insns) {
        fprintf(stderr,
                "bench: %s: %llu warp instructions on the translating tier, %llu on "
                "the interpreter\n",
                b->name, (unsigned long long)wi, (unsigned long long)r->warp_insns);
        r->ok = 0;
        return -1;
    }
    if (mode == RUN_TRACED)
        r->trace_events = ev;
    return t;
}

/* Times the C loop and the launches over `runs` runs. The kinds of measurement take
 * turns within each run (two C loops, then one launch of each kind), so that a machine
 * whose speed drifts (other tenants, frequency changes) slows all of them alike and the
 * ratios of one run stay meaningful. One untimed C loop comes first: it touches the pages
 * of its output. Stops at the first failure (r->ok = 0). */
static void run_case(bench_case *b, const ptx_module_t *m, int runs, bench_result *r)
{
    memset(r, 0, sizeof *r);
    r->threads =
        (uint64_t)b->grid[0] * b->grid[1] * b->grid[2] * b->block[0] * b->block[1] * b->block[2];
    r->ok = 1;
    b->c_loop(b);
    r->have_trace = !plain_only;
    r->have_nocheck = !plain_only;
    for (int i = 0; i < runs; i++) {
        for (int k = 0; k < 2; k++) {
            const double t1 = now_s();
            b->c_loop(b);
            r->c_s[2 * i + k] = now_s() - t1;
        }
        if ((r->sim_s[i] = timed_launch(b, m, RUN_PLAIN, r)) < 0)
            return;
        if (i == 0) { /* wall time: the compile runs in a child process */
            const double w0 = wall_s();
            if (timed_launch(b, m, RUN_JIT, r) < 0)
                return;
            r->jit_first_s = wall_s() - w0;
        }
        if ((r->jit_s[i] = timed_launch(b, m, RUN_JIT, r)) < 0)
            return;
        if (r->have_trace && (r->trace_s[i] = timed_launch(b, m, RUN_TRACED, r)) < 0)
            return;
        if (r->have_nocheck && (r->nocheck_s[i] = timed_launch(b, m, RUN_NOCHECK, r)) < 0)
            return;
        r->runs = i + 1;
    }
}

/* ------------------------------------------------------------------ report */

static const char *yes_no(int met)
{
    return met ? "met" : "NOT met";
}

/* The figures of the tables. Each is computed for every run from that run's times (the
 * ratios from times measured side by side), then summarised by spread_of. */
enum figure {
    FIG_SIM_MS,       /* interpreter, untraced: milliseconds of one launch */
    FIG_SIM_MWIS,     /* its million warp instructions per second */
    FIG_SIM_MTHREADS, /* its million threads per second */
    FIG_C_MS,         /* the C loop: milliseconds, every timed loop (two a run) */
    FIG_SLOWDOWN,     /* interpreter launch / the mean of the run's two C loops */
    FIG_TRACED_X,     /* memory-traced launch / untraced launch */
    FIG_NOCHECK_X,    /* launch with the optional checkers off / untraced launch */
    FIG_JIT_MS,       /* translating tier, untraced, blocks cached: milliseconds */
    FIG_JIT_MWIS,     /* its million warp instructions per second */
    FIG_SPEEDUP,      /* interpreter launch / tier launch */
    FIG_JIT_SLOWDOWN, /* tier launch / the mean of the run's two C loops */
    NFIG
};

/* Median, min and max of figure f over r's runs (r->runs >= 1). */
static spread figure_of(const bench_result *r, enum figure f)
{
    double v[2 * MAX_RUNS];
    if (f == FIG_C_MS) {
        for (int i = 0; i < 2 * r->runs; i++)
            v[i] = r->c_s[i] * 1e3;
        return spread_of(v, 2 * r->runs);
    }
    const double wi = (double)r->warp_insns, th = (double)r->threads;
    for (int i = 0; i < r->runs; i++) {
        const double c = 0.5 * (r->c_s[2 * i] + r->c_s[2 * i + 1]);
        const double t = r->sim_s[i], j = r->jit_s[i];
        switch (f) {
        case FIG_SIM_MS: v[i] = t * 1e3; break;
        case FIG_SIM_MWIS: v[i] = wi / t / 1e6; break;
        case FIG_SIM_MTHREADS: v[i] = th / t / 1e6; break;
        case FIG_SLOWDOWN: v[i] = t / c; break;
        case FIG_TRACED_X: v[i] = r->trace_s[i] / t; break;
        case FIG_NOCHECK_X: v[i] = r->nocheck_s[i] / t; break;
        case FIG_JIT_MS: v[i] = j * 1e3; break;
        case FIG_JIT_MWIS: v[i] = wi / j / 1e6; break;
        case FIG_SPEEDUP: v[i] = t / j; break;
        case FIG_JIT_SLOWDOWN: v[i] = j / c; break;
        case FIG_C_MS:
        case NFIG: v[i] = 0; break;
        }
    }
    return spread_of(v, r->runs);
}

/* Which value of a spread a table row shows: the median, or the min or max row under it. */
enum row { ROW_MED, ROW_MIN, ROW_MAX };

static double pick(spread s, enum row w)
{
    return w == ROW_MED ? s.med : w == ROW_MIN ? s.min : s.max;
}

/* "2.6M (2.5-2.7)": the median, then min-max unless there was one run. */
static void fmt_target(char *buf, size_t n, spread s, int prec, const char *unit, int runs)
{
    if (runs > 1)
        snprintf(buf, n, "%.*f%s (%.*f-%.*f)", prec, s.med, unit, prec, s.min, prec, s.max);
    else
        snprintf(buf, n, "%.*f%s", prec, s.med, unit);
}

/* One line of the targets: kernel, what, the figure with its spread, met or not. */
static void print_target(const char *kernel, const char *what, spread s, int prec, const char *unit,
                         int runs, int met, const char *extra)
{
    char v[64];
    fmt_target(v, sizeof v, s, prec, unit, runs);
    printf("  %-8s %-37s  %-22s %s%s\n", kernel, what, v, yes_no(met), extra);
}

/* Picks the size of case k: the full size unless the estimated time of all its
 * `runs` runs (from calibration launches at the smallest size, untraced, traced and with
 * the checkers off, which also check the result) is over budget_s; then the largest size
 * that fits. */
static int pick_size(int k, const ptx_module_t *m, int runs, double budget_s, int *ok)
{
    const bench_size *z = &sizes[k];
    bench_case b;
    *ok = 0;
    if (case_init(&b, z->name, z->min_lg) != 0)
        return z->min_lg;
    uint64_t wi = 0;
    b.c_loop(&b);
    double tu = sim_run(&b, m, RUN_PLAIN, &wi, NULL);
    int good = tu >= 0 && check(&b);
    double tt = 0;
    if (good) {
        memset(b.host[b.ninputs], 0xff, b.bytes[b.ninputs]);
        tt = sim_run(&b, m, RUN_TRACED, &wi, NULL);
        good = tt >= 0 && check(&b);
    }
    double tn = 0;
    if (good) {
        memset(b.host[b.ninputs], 0xff, b.bytes[b.ninputs]);
        tn = sim_run(&b, m, RUN_NOCHECK, &wi, NULL);
        good = tn >= 0 && check(&b);
    }
    case_free(&b);
    if (!good)
        return z->min_lg;
    *ok = 1;
    double per = (double)runs * (tu + tt + tn);
    int lg = z->min_lg;
    while (lg < z->max_lg && per * (double)(1u << ((lg + 1 - z->min_lg) * z->work_exp)) <= budget_s)
        lg++;
    return lg;
}

/* ------------------------------------------------------------------ per core */

/* Most thread counts in the per-core table. */
enum { MAX_TCOUNTS = 16 };

/* One kernel's launches on 1, 2, 4, ... worker threads: wall seconds per run of each
 * count, and the threads its launches ran on (sim_result.threads; fewer when the launch
 * ran again on one thread, sim_par.c). */
typedef struct par_result {
    int ok;
    double wall[MAX_TCOUNTS][MAX_RUNS];
    double cpu[MAX_TCOUNTS][MAX_RUNS]; /* CPU seconds of all threads */
    unsigned used[MAX_TCOUNTS];
} par_result;

/* The cores this process may run on (at least 1), or BENCH_THREADS. */
static unsigned bench_cores(void)
{
    const char *e = getenv("BENCH_THREADS");
    if (e && atoi(e) > 0)
        return (unsigned)atoi(e);
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* Times `runs` untraced launches (the interpreter, every checker on) of b on each of the
 * ncounts thread counts, taking turns within each run as run_case does. */
static void run_threads(bench_case *b, const ptx_module_t *m, int runs, const unsigned *counts,
                        int ncounts, par_result *p)
{
    memset(p, 0, sizeof *p);
    p->ok = 1;
    bench_result scratch;
    memset(&scratch, 0, sizeof scratch);
    scratch.ok = 1;
    time_wall = 1;
    for (int i = 0; i < runs && p->ok; i++)
        for (int k = 0; k < ncounts && p->ok; k++) {
            sim_threads = counts[k];
            p->wall[k][i] = timed_launch(b, m, RUN_PLAIN, &scratch);
            p->cpu[k][i] = sim_cpu_s;
            p->ok = scratch.ok;
            if (i == 0 || sim_threads_used < p->used[k])
                p->used[k] = sim_threads_used;
        }
    time_wall = 0;
    sim_threads = 0;
}

/* Prints one kernel's rows of the per-core table: per thread count the median wall time,
 * Mwi/s (warp_insns a launch), speed-up over counts[0] = 1 thread, efficiency, the
 * threads the launches ran on and CPU/1. */
static void print_threads(const char *name, const par_result *p, uint64_t warp_insns, int runs,
                          const unsigned *counts, int ncounts)
{
    double one[MAX_RUNS], c1[MAX_RUNS];
    memcpy(one, p->wall[0], sizeof one);
    memcpy(c1, p->cpu[0], sizeof c1);
    const spread s1 = spread_of(one, runs);
    for (int t = 0; t < ncounts; t++) {
        double w[MAX_RUNS], cp[MAX_RUNS];
        memcpy(w, p->wall[t], sizeof w);
        memcpy(cp, p->cpu[t], sizeof cp);
        const spread st = spread_of(w, runs);
        const double sp = s1.med / st.med;
        const double cpu_x = spread_of(cp, runs).med / spread_of(c1, runs).med;
        printf("%-8s %7u %9.1f %9.1f %8.2fx %9.0f%% %4u %6.2fx\n", t ? "" : name, counts[t],
               st.med * 1e3, (double)warp_insns / st.med / 1e6, sp, 100 * sp / counts[t],
               p->used[t], cpu_x);
    }
}

/* vec_add at 2^26 elements (issue 32's size for its 600 M target) on the tier a run of
 * that size gets (SIM_TIER_AUTO), on the thread counts `counts`, after one untimed
 * launch on the last count (it fills the translating tier's cache). Returns 1 when the
 * launches ran on the translating tier, 0 on the interpreter, -1 on a failure. */
static int run_big(const char *dir, int runs, const unsigned *counts, int ncounts, par_result *p,
                   uint64_t *warp_insns)
{
    int unreadable;
    ptx_module_t *m = load_kernel(dir, "vec_add", &unreadable);
    bench_case b;
    if (!m || case_init(&b, "vec_add", 26)) {
        fprintf(stderr, "bench: vec_add at 2^26: cannot load the PTX or out of memory\n");
        ptx_module_free(m);
        return -1;
    }
    b.c_loop(&b);
    tier_auto = 1;
    bench_result r;
    memset(&r, 0, sizeof r);
    r.ok = 1;
    sim_threads = counts[ncounts - 1];
    time_wall = 1;
    (void)timed_launch(&b, m, RUN_PLAIN, &r);
    time_wall = 0;
    run_threads(&b, m, runs, counts, ncounts, p);
    tier_auto = 0;
    *warp_insns = r.warp_insns;
    const int jit = sim_jit_blocks > 0;
    case_free(&b);
    ptx_module_free(m);
    if (!r.ok || !p->ok) {
        fprintf(stderr, "bench: vec_add at 2^26: WRONG RESULT or launch failure (see above)\n");
        return -1;
    }
    return jit;
}

int main(int argc, char **argv)
{
    const char *dir = "bench/ptx";
    int quick = 0, full = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--full") == 0)
            full = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench [PTX_DIR] [--quick | --full]\n");
            return 2;
        } else
            dir = argv[i];
    }
    const char *env = getenv("BENCH_QUICK");
    if (env && *env && strcmp(env, "0") != 0)
        quick = 1;
    env = getenv("BENCH_FULL");
    if (env && *env && strcmp(env, "0") != 0)
        full = 1;
    double budget = 20.0;
    env = getenv("BENCH_PLAIN_ONLY");
    if (env && *env && strcmp(env, "0") != 0)
        plain_only = 1;
    env = getenv("BENCH_BUDGET");
    if (env && atof(env) > 0)
        budget = atof(env);
    int runs = quick ? 1 : 3;
    env = getenv("BENCH_RUNS");
    if (env && *env) {
        char *end;
        const long n = strtol(env, &end, 10);
        if (*end || n < 1 || n > MAX_RUNS) {
            fprintf(stderr, "bench: BENCH_RUNS=%s: a number of runs from 1 to %d\n", env, MAX_RUNS);
            return 2;
        }
        runs = (int)n;
    }
    double wall0 = wall_s(), cpu0 = now_s();
    {
        const char *t = getenv("TMPDIR");
        snprintf(jit_dir, sizeof jit_dir, "%s/gpulearn-bench-jit-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(jit_dir)) {
            perror("bench: mkdtemp");
            return 2;
        }
    }
    enum { NCASES = 4 };
    bench_case cases[NCASES];
    bench_result res[NCASES];
    int ran[NCASES] = {0};
    int all_ok = 1;

    printf("gpulearn simulator benchmark, one core: %d run%s (BENCH_RUNS) of two C loops and "
           "one launch\nof each kind, taking turns;\n",
           runs, runs > 1 ? "s" : "");
    if (quick)
        printf("sizes: --quick (the smallest of each kernel)\n");
    else if (full)
        printf("sizes: --full (the full sizes)\n");
    else
        printf("sizes: the full ones, scaled down (marked *) where all launches of a kernel\n"
               "would take over %g s (BENCH_BUDGET; --full forces them)\n",
               budget);
    fflush(stdout);
    const char *only = getenv("BENCH_ONLY"); /* one kernel, e.g. for perf record */
    for (int k = 0; k < NCASES; k++) {
        const char *name = sizes[k].name;
        if (only && *only && strcmp(only, name) != 0) {
            memset(&res[k], 0, sizeof res[k]);
            res[k].ok = 1; /* skipped, not failed */
            ran[k] = 0;
            continue;
        }
        int unreadable;
        ptx_module_t *m = load_kernel(dir, name, &unreadable);
        if (!m && unreadable)
            return 2;
        if (!m) {
            all_ok = 0;
            continue;
        }
        int lg = quick ? sizes[k].min_lg : sizes[k].max_lg, ok = 1;
        if (!quick && !full)
            lg = pick_size(k, m, runs, budget, &ok);
        if (ok && case_init(&cases[k], name, lg) != 0) {
            fprintf(stderr, "bench: %s: out of memory\n", name);
            return 1;
        }
        if (ok) {
            if (lg < sizes[k].max_lg) {
                size_t l = strlen(cases[k].size_label);
                snprintf(cases[k].size_label + l, sizeof cases[k].size_label - l, "*");
            }
            run_case(&cases[k], m, runs, &res[k]);
        } else {
            memset(&res[k], 0, sizeof res[k]);
            cases[k].name = name;
            snprintf(cases[k].size_label, sizeof cases[k].size_label, "-");
        }
        ran[k] = ok;
        ptx_module_free(m);
        if (!ok || !res[k].ok)
            all_ok = 0;
    }

    const char *row_name[] = {NULL, "  min", "  max"};
    const int nrows = runs > 1 ? 3 : 1;
    printf("\n%-8s %-7s %12s %9s %9s %10s %9s %9s %9s %9s\n", "kernel", "size", "warp insns",
           "sim ms", "Mwi/s", "Mthreads/s", "C ms", "slowdown", "traced/x", "nochk/x");
    for (int k = 0; k < NCASES; k++) {
        bench_case *b = &cases[k];
        bench_result *r = &res[k];
        if (!ran[k] && r->ok)
            continue; /* BENCH_ONLY skipped it */
        if (!ran[k] && !r->ok) {
            printf("%-8s %-7s  not run: PTX did not load, or a wrong result (see above)\n",
                   sizes[k].name, "-");
            continue;
        }
        if (!r->ok) {
            printf("%-8s %-7s  WRONG RESULT or launch failure (see above)\n", b->name,
                   b->size_label);
            continue;
        }
        spread f[NFIG];
        for (int i = 0; i < NFIG; i++)
            f[i] = figure_of(r, (enum figure)i);
        for (int w = 0; w < nrows; w++) {
            char wi[24] = "", tr[32] = "n/a", nc[32] = "n/a";
            if (w == ROW_MED)
                snprintf(wi, sizeof wi, "%llu", (unsigned long long)r->warp_insns);
            if (r->have_trace)
                snprintf(tr, sizeof tr, "%.2f", pick(f[FIG_TRACED_X], (enum row)w));
            if (r->have_nocheck)
                snprintf(nc, sizeof nc, "%.2f", pick(f[FIG_NOCHECK_X], (enum row)w));
            printf("%-8s %-7s %12s %9.1f %9.1f %10.2f %9.2f %8.0fx %9s %9s\n",
                   w == ROW_MED ? b->name : row_name[w], w == ROW_MED ? b->size_label : "", wi,
                   pick(f[FIG_SIM_MS], (enum row)w), pick(f[FIG_SIM_MWIS], (enum row)w),
                   pick(f[FIG_SIM_MTHREADS], (enum row)w), pick(f[FIG_C_MS], (enum row)w),
                   pick(f[FIG_SLOWDOWN], (enum row)w), tr, nc);
        }
    }
    printf("Mwi/s: million simulated warp instructions per second. slowdown: simulator time / "
           "plain C -O2 time.\ntraced/x: time with a memory-level trace / untraced time. "
           "nochk/x: time with racecheck,\ninitcheck and synccheck off / time with every "
           "checker on (the default, used everywhere else).\n* scaled down from the "
           "full size.\n");
    if (runs > 1)
        printf("Each figure is computed per run, ratios from the run's own launches and C loops;"
               "\nthe kernel's row gives the median over the %d runs, min and max the spread.\n",
               runs);
    else
        printf("One run (BENCH_RUNS=1): no spread.\n");
    double load = 0;
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (fscanf(lf, "%lf", &load) != 1)
            load = 0;
        fclose(lf);
    }
    printf("Times are CPU seconds of this process. The run took %.1f s of CPU, %.1f s of wall "
           "time;\nload average %.2f (wall >> CPU: other processes shared the machine).\n",
           now_s() - cpu0, wall_s() - wall0, load);

    printf("\ntranslating tier (sim/jit.c) against the interpreter, same runs, untraced:\n");
    printf("%-8s %9s %9s %9s %9s %9s %10s %12s\n", "kernel", "interp ms", "jit ms", "speed-up",
           "interp", "jit", "jit slow-", "1st jit ms");
    printf("%-8s %9s %9s %9s %9s %9s %10s %12s\n", "", "", "", "", "Mwi/s", "Mwi/s", "down x C",
           "(compile)");
    for (int k = 0; k < NCASES; k++) {
        const bench_result *r = &res[k];
        if (!r->ok || !ran[k])
            continue;
        spread f[NFIG];
        for (int i = 0; i < NFIG; i++)
            f[i] = figure_of(r, (enum figure)i);
        for (int w = 0; w < nrows; w++) {
            const enum row rw = (enum row)w;
            printf("%-8s %9.1f %9.1f %8.2fx %9.1f %9.1f %9.1fx",
                   w == ROW_MED ? cases[k].name : row_name[w], pick(f[FIG_SIM_MS], rw),
                   pick(f[FIG_JIT_MS], rw), pick(f[FIG_SPEEDUP], rw), pick(f[FIG_SIM_MWIS], rw),
                   pick(f[FIG_JIT_MWIS], rw), pick(f[FIG_JIT_SLOWDOWN], rw));
            if (w == ROW_MED)
                printf(" %12.0f", r->jit_first_s * 1e3);
            printf("\n");
        }
    }
    printf("1st jit ms: wall time of the first launch on the tier, which compiles the kernel's "
           "blocks\n(cc, then cached), with its allocations and copies: one launch, no "
           "spread.\n");

    /* the same kernels on 1, 2, 4, ... threads up to the cores (and the cores) */
    unsigned counts[MAX_TCOUNTS];
    int ncounts = 0;
    const unsigned cores = bench_cores();
    for (unsigned t = 1; t < cores && ncounts < MAX_TCOUNTS - 1; t *= 2)
        counts[ncounts++] = t;
    counts[ncounts++] = cores;
    static par_result pres[NCASES];
    printf("\nblocks on worker threads (sim_config.threads, --sim-threads): %d run%s of "
           "untraced\nlaunches (interpreter, every checker on) on each count, wall time; "
           "speed-up over one\nthread, efficiency = speed-up / threads; 'on': the threads the "
           "launch ran on (1: run\nagain on one thread, sim_par.c); CPU/1: the CPU time of all "
           "threads over one thread's\n(the workers' overhead, whatever the machine's load):\n",
           runs, runs > 1 ? "s" : "");
    printf("%-8s %7s %9s %9s %9s %10s %4s %7s\n", "kernel", "threads", "wall ms", "Mwi/s",
           "speed-up", "efficiency", "on", "CPU/1");
    for (int k = 0; k < NCASES; k++) {
        bench_result *r = &res[k];
        if (!r->ok || !ran[k])
            continue;
        /* the module again (the first tables freed theirs) */
        int unreadable;
        ptx_module_t *m = load_kernel(dir, cases[k].name, &unreadable);
        if (!m)
            continue;
        run_threads(&cases[k], m, runs, counts, ncounts, &pres[k]);
        ptx_module_free(m);
        if (!pres[k].ok) {
            printf("%-8s  WRONG RESULT or launch failure on worker threads (see above)\n",
                   cases[k].name);
            all_ok = 0;
            continue;
        }
        print_threads(cases[k].name, &pres[k], r->warp_insns, runs, counts, ncounts);
    }
    /* issue 32's 600 M target: vec_add at 2^26, on the tier a run of that size gets */
    static par_result big;
    uint64_t big_insns = 0;
    const int have_big = ran[0] && res[0].ok && !quick;
    if (have_big) {
        const unsigned bc[2] = {1, cores};
        const int nbc = cores > 1 ? 2 : 1;
        const int jit = run_big(dir, runs, bc, nbc, &big, &big_insns);
        if (jit < 0) {
            all_ok = 0;
        } else {
            printf("%-8s  2^26, the tier a run of that size gets (%s: SIM_TIER_AUTO, from %llu "
                   "warps):\n",
                   "vec_add", jit ? "translating tier" : "interpreter",
                   (unsigned long long)SIM_JIT_AUTO_WARPS);
            print_threads("vec_add", &big, big_insns, runs, bc, nbc);
        }
    }
    fflush(stdout);

    printf("\ntargets (judged on the median over the runs%s):\n",
           runs > 1 ? "; min-max in brackets" : "");
    for (int k = 0; k < NCASES; k++) {
        bench_case *b = &cases[k];
        bench_result *r = &res[k];
        if (!r->ok || !ran[k])
            continue;
        const spread wis = figure_of(r, FIG_SIM_MWIS), wjs = figure_of(r, FIG_JIT_MWIS);
        print_target(b->name, ">= 100M warp insns/s untraced, interp", wis, 1, "M", runs,
                     wis.med >= 100, "");
        print_target(b->name, ">= 100M warp insns/s untraced, jit", wjs, 1, "M", runs,
                     wjs.med >= 100, "");
        if (b->target_c) {
            const spread si = figure_of(r, FIG_SLOWDOWN), sj = figure_of(r, FIG_JIT_SLOWDOWN);
            print_target(b->name, "within 10x of plain C -O2, interp", si, 1, "x", runs,
                         si.med <= 10.0, "");
            print_target(b->name, "within 10x of plain C -O2, jit", sj, 1, "x", runs,
                         sj.med <= 10.0, "");
        }
        for (int t = 1; t < ncounts && pres[k].ok; t++) {
            double w1[MAX_RUNS], wt[MAX_RUNS];
            memcpy(w1, pres[k].wall[0], sizeof w1);
            memcpy(wt, pres[k].wall[t], sizeof wt);
            const spread a = spread_of(w1, runs), bt = spread_of(wt, runs);
            const spread sp = {a.med / bt.med, a.min / bt.max, a.max / bt.min};
            char what[64];
            if (counts[t] == 2) {
                print_target(b->name, "2 threads >= 1.8x one thread", sp, 2, "x", runs,
                             sp.med >= 1.8, "");
            } else if (counts[t] == 16) {
                const spread ef = {sp.med / 16 * 100, sp.min / 16 * 100, sp.max / 16 * 100};
                snprintf(what, sizeof what, "16 threads: efficiency >= 75%%");
                print_target(b->name, what, ef, 0, "%", runs, ef.med >= 75, "");
                if (strcmp(b->name, "vec_add") == 0 && have_big && big.ok) {
                    double wb[MAX_RUNS];
                    memcpy(wb, big.wall[1], sizeof wb);
                    const spread bb = spread_of(wb, runs);
                    const double wi = (double)big_insns / 1e6;
                    const spread mw = {wi / bb.med, wi / bb.max, wi / bb.min};
                    print_target(b->name, "2^26, 16 threads: >= 600M warp insns/s", mw, 1, "M",
                                 runs, mw.med >= 600, "");
                }
            }
        }
        if (r->have_trace) {
            const spread st = figure_of(r, FIG_TRACED_X);
            char ev[48];
            snprintf(ev, sizeof ev, " (%llu events)", (unsigned long long)r->trace_events);
            print_target(b->name, "memory trace within 3x of untraced", st, 2, "x", runs,
                         st.med <= 3.0, ev);
        } else if (plain_only) {
            printf("  %-8s %-37s  n/a: not measured (BENCH_PLAIN_ONLY)\n", b->name,
                   "memory trace within 3x of untraced");
        } else {
            printf("  %-8s %-37s  n/a: trace not available yet\n", b->name,
                   "memory trace within 3x of untraced");
        }
    }
    for (int k = 0; k < NCASES; k++)
        if (ran[k])
            case_free(&cases[k]);
    char rm[300];
    snprintf(rm, sizeof rm, "rm -rf '%s'", jit_dir);
    if (system(rm) != 0)
        fprintf(stderr, "bench: could not remove %s\n", jit_dir);
    if (!all_ok) {
        printf("\nbench: FAILED: a kernel did not load or gave a wrong result (see above)\n");
        return 1;
    }
    return 0;
}
