/* sfu_check.c — the special-function unit's approximate instructions on a GPU against
 * the simulator, on every input: each f32 form (ex2, lg2, sin, cos, rcp, rsqrt, sqrt,
 * tanh .approx, with and without .ftz: PTX ISA §9.7.3.13-22) over all 2^32 bit
 * patterns, each f16/bf16 form (§9.7.4.9-10) over all 2^16, and the f64 forms of rcp and
 * rsqrt over all 2^32 high words (the unit reads no more). The GPU runs a kernel of the
 * form over the inputs (gpulearn's GPU back end, runtime/gpu.c); the simulator runs the
 * same PTX (sim.h) in worker processes on the host's cores; the results are compared bit
 * for bit. Issue 34 wants 0 differences; until the models equal the hardware, the counts
 * say how far they are.
 *
 * Usage (on a machine with an NVIDIA GPU, after `make`):
 *   build/debug/tools/sfu_check [-j JOBS] [-l LOG2] [FORM...]
 * FORM: a form's name as the output names it ("ex2.approx.f32"); default all. -j: worker
 * processes for the simulator (default the cores); -l: inputs of the f32 and f64 forms, 2^LOG2
 * of them spread evenly over the bit patterns (default 32: all). Prints one line per
 * form: inputs, how many differ, the differences in units in the last place (ulps,
 * signed, GPU minus simulator, for results of the same sign and class), and the first
 * differing inputs. Exits 0 when nothing differs, 1 when something does, 2 when the GPU
 * or the simulator cannot run, 77 with no GPU. SFU_CHECK_GPU=sim puts the simulator in
 * the GPU's place (the harness against itself: 0 differences). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/backend.h"
#include "sim/sim.h"

/* A form: its instruction text and the operand width in bits (16: f16/bf16, the input
 * in the low half of a .b16 register, the result zero-extended; 64: f64, the input's
 * high word the bit pattern and its low word the pattern times 0x85ebca6b (every high
 * word, with low words of all kinds), the result folded to 32 bits as its high word XOR
 * its low word times 0x9e3779b1, a bijection of the low word, so that a difference in
 * either word shows). */
typedef struct form {
    const char *name;
    int bits;
} form;

static const form forms[] = {
    {"ex2.approx.f32", 32},      {"ex2.approx.ftz.f32", 32},  {"lg2.approx.f32", 32},
    {"lg2.approx.ftz.f32", 32},  {"sin.approx.f32", 32},      {"sin.approx.ftz.f32", 32},
    {"cos.approx.f32", 32},      {"cos.approx.ftz.f32", 32},  {"rcp.approx.f32", 32},
    {"rcp.approx.ftz.f32", 32},  {"rsqrt.approx.f32", 32},    {"rsqrt.approx.ftz.f32", 32},
    {"sqrt.approx.f32", 32},     {"sqrt.approx.ftz.f32", 32}, {"tanh.approx.f32", 32},
    {"ex2.approx.f16", 16},      {"ex2.approx.ftz.bf16", 16}, {"tanh.approx.f16", 16},
    {"tanh.approx.bf16", 16},    {"rcp.approx.ftz.f64", 64},  {"rsqrt.approx.ftz.f64", 64},
    {"rsqrt.approx.f64", 64},
};
#define NFORMS (sizeof forms / sizeof forms[0])

enum { CHUNK_LOG2 = 24, BLOCK = 256 }; /* inputs per launch; threads per block */

/* The kernel: thread i of a launch computes the form on input bits base + i * stride and
 * stores the result as a u32 at out[i]. */
static void kernel_ptx(const form *f, char *buf, size_t n)
{
    char body[256];
    if (f->bits == 32)
        snprintf(body, sizeof body,
                 "mov.b32 %%f1, %%r6;\n    %s %%f2, %%f1;\n    mov.b32 %%r7, %%f2;", f->name);
    else if (f->bits == 64)
        snprintf(body, sizeof body,
                 "mul.lo.u32 %%r9, %%r6, 0x85ebca6b;\n    mov.b64 %%fd1, {%%r9, %%r6};\n"
                 "    %s %%fd2, %%fd1;\n    mov.b64 {%%r9, %%r10}, %%fd2;\n"
                 "    mul.lo.u32 %%r9, %%r9, 0x9e3779b1;\n    xor.b32 %%r7, %%r10, %%r9;",
                 f->name);
    else
        snprintf(body, sizeof body,
                 "cvt.u16.u32 %%h1, %%r6;\n    %s %%h2, %%h1;\n    cvt.u32.u16 %%r7, %%h2;", f->name);
    snprintf(buf, n,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 out, .param .u32 base, .param .u32 stride)\n{\n"
             "    .reg .b32 %%r<11>;\n    .reg .f32 %%f<3>;\n    .reg .b16 %%h<3>;\n"
             "    .reg .f64 %%fd<3>;\n"
             "    .reg .b64 %%rd<4>;\n"
             "    mov.u32 %%r1, %%ctaid.x;\n    mov.u32 %%r2, %%ntid.x;\n"
             "    mov.u32 %%r3, %%tid.x;\n    mad.lo.u32 %%r4, %%r1, %%r2, %%r3;\n"
             "    ld.param.u32 %%r5, [base];\n    ld.param.u32 %%r8, [stride];\n"
             "    mad.lo.u32 %%r6, %%r4, %%r8, %%r5;\n    %s\n"
             "    ld.param.u64 %%rd1, [out];\n    mul.wide.u32 %%rd2, %%r4, 4;\n"
             "    add.u64 %%rd3, %%rd1, %%rd2;\n    st.global.u32 [%%rd3], %%r7;\n    ret;\n}\n",
             body);
}

/* What the workers found, in shared memory. */
typedef struct tally {
    uint64_t differ;
    uint64_t ulps[9]; /* GPU - simulator in ulps: -4 .. +4 (clamped) */
    uint64_t other;   /* differences of sign or class (NaN, inf, zero against a number) */
    uint32_t first_in[4], first_gpu[4], first_sim[4];
    int nfirst;
    int failed;          /* the simulator could not run */
    uint32_t *chunk_out; /* worker with nw < 0: launch w's results (malloc'd), no compare */
} tally;

static int is_special(uint32_t x, int bits)
{
    if (bits == 32)
        return (x & 0x7f800000u) == 0x7f800000u || (x & 0x7fffffffu) == 0;
    return (x & 0x7fffu) == 0 || (x & 0x7c00u) == 0x7c00u;
}

/* Worker w of nw: runs the form on the simulator over its share of the launches and
 * compares with gpu[] (the GPU's results of every input, in order). nw < 0: runs launch
 * w alone and hands its results over in t->chunk_out. */
static void worker(const char *ptx, const form *f, uint64_t total, uint32_t stride,
                   const uint32_t *gpu, int w, int nw, tally *t)
{
    memset(t, 0, sizeof *t);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.checks_off = SIM_CHECK_RACE | SIM_CHECK_INIT | SIM_CHECK_SYNC | SIM_CHECK_GLOBAL_RACE;
    cfg.tier = SIM_TIER_INTERP;
    sim_t *s = sim_new(&cfg);
    const uint64_t chunk = total < (1ull << CHUNK_LOG2) ? total : 1ull << CHUNK_LOG2;
    uint32_t *out = malloc(chunk * 4);
    uint64_t dout = 0;
    if (!s || !out || ptx_parse(ptx, strlen(ptx), "sfu.ptx", &m, &diag) != SIM_OK ||
        sim_malloc(s, chunk * 4, "out", &dout) != SIM_OK) {
        fprintf(stderr, "sfu_check: the simulator cannot run %s: %s\n", f->name,
                diag ? diag : "out of memory");
        t->failed = 1;
        return;
    }
    for (uint64_t c = (uint64_t)w; c * chunk < total; c += nw < 0 ? total : (uint64_t)nw) {
        uint32_t base = (uint32_t)(c * chunk * stride);
        void *params[] = {&dout, &base, &stride};
        unsigned grid[3] = {(unsigned)(chunk / BLOCK), 1, 1}, block[3] = {BLOCK, 1, 1};
        sim_result r;
        if (sim_launch(s, m, "k", grid, block, 0, params, &r) != SIM_OK) {
            fprintf(stderr, "sfu_check: %s stopped on the simulator: %s\n", f->name,
                    r.fault.message);
            sim_result_free(&r);
            t->failed = 1;
            break;
        }
        sim_result_free(&r);
        sim_memcpy_dtoh(s, out, dout, chunk * 4);
        if (nw < 0) {
            t->chunk_out = out;
            out = NULL;
            break;
        }
        const uint32_t *g = gpu + c * chunk;
        for (uint64_t i = 0; i < chunk; i++) {
            if (g[i] == out[i])
                continue;
            t->differ++;
            const uint32_t sign = f->bits == 32 ? 0x80000000u : 0x8000u;
            if (f->bits == 64 || (g[i] ^ out[i]) & sign || is_special(g[i], f->bits) ||
                is_special(out[i], f->bits)) { /* a folded f64 result: no ulps */
                t->other++;
            } else {
                int64_t d = (int64_t)(g[i] & ~sign) - (int64_t)(out[i] & ~sign);
                t->ulps[(d < -4 ? -4 : d > 4 ? 4 : d) + 4]++;
            }
            if (t->nfirst < 4) {
                t->first_in[t->nfirst] = base + (uint32_t)i * stride;
                t->first_gpu[t->nfirst] = g[i];
                t->first_sim[t->nfirst++] = out[i];
            }
        }
    }
    free(out);
    ptx_module_free(m);
    sim_free(s);
}

/* Runs form f on the GPU over every input (results into gpu[]), then on the simulator
 * in nw worker processes; prints the line; returns the number of differences, or -1
 * when something could not run. */
static int64_t check_form(gpu_t *g, const form *f, int log2n, int nw)
{
    char ptx[2048];
    gl_error err = {0};
    kernel_ptx(f, ptx, sizeof ptx);
    const int lg = f->bits == 16 ? 16 : log2n;
    const uint64_t total = 1ull << lg;
    const uint32_t stride = (uint32_t)(1ull << ((f->bits == 16 ? 16 : 32) - lg)); /* f64: high words */
    const uint64_t chunk = total < (1ull << CHUNK_LOG2) ? total : 1ull << CHUNK_LOG2;
    uint32_t *gpu = mmap(NULL, total * 4, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    tally *tl = mmap(NULL, sizeof(tally) * (size_t)nw, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (gpu == MAP_FAILED || tl == MAP_FAILED) {
        fprintf(stderr, "sfu_check: out of memory for %llu results\n", (unsigned long long)total);
        return -1;
    }
    uint64_t dout = 0;
    if (g && (gpu_load_ptx(g, ptx, &err) != GL_OK || gpu_malloc(g, chunk * 4, &dout, &err) != GL_OK)) {
        fprintf(stderr, "sfu_check: %s on the GPU: %s\n", f->name, err.msg);
        return -1;
    }
    for (uint64_t c = 0; c * chunk < total; c++) {
        uint32_t base = (uint32_t)(c * chunk * stride), st = stride;
        void *params[] = {&dout, &base, &st};
        unsigned grid[3] = {(unsigned)(chunk / BLOCK), 1, 1}, block[3] = {BLOCK, 1, 1};
        double ms;
        if (!g) { /* SFU_CHECK_GPU=sim: the harness checked against itself */
            tally t;
            worker(ptx, f, total, stride, NULL, (int)c, -1, &t);
            if (t.failed)
                return -1;
            memcpy(gpu + c * chunk, t.chunk_out, chunk * 4);
            free(t.chunk_out);
            continue;
        }
        if (gpu_launch(g, "k", grid, block, 0, params, NULL, &ms, &err) != GL_OK ||
            gpu_dtoh(g, gpu + c * chunk, dout, chunk * 4, &err) != GL_OK) {
            fprintf(stderr, "sfu_check: %s on the GPU: %s\n", f->name, err.msg);
            return -1;
        }
    }
    fflush(stdout);
    for (int w = 0; w < nw; w++) {
        pid_t p = fork();
        if (p == 0) {
            worker(ptx, f, total, stride, gpu, w, nw, &tl[w]);
            _exit(0);
        }
        if (p < 0) {
            perror("sfu_check: fork");
            return -1;
        }
    }
    int failed = 0, st;
    while (wait(&st) > 0)
        failed |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    tally sum = {0};
    for (int w = 0; w < nw; w++) {
        failed |= tl[w].failed;
        sum.differ += tl[w].differ;
        sum.other += tl[w].other;
        for (int k = 0; k < 9; k++)
            sum.ulps[k] += tl[w].ulps[k];
        for (int k = 0; k < tl[w].nfirst && sum.nfirst < 4; k++) {
            sum.first_in[sum.nfirst] = tl[w].first_in[k];
            sum.first_gpu[sum.nfirst] = tl[w].first_gpu[k];
            sum.first_sim[sum.nfirst++] = tl[w].first_sim[k];
        }
    }
    printf("%-22s %11llu inputs %11llu differ", f->name, (unsigned long long)total,
           (unsigned long long)sum.differ);
    if (sum.differ) {
        printf(" (ulps gpu-sim:");
        for (int k = 0; k < 9; k++)
            if (sum.ulps[k])
                printf(" %s%d:%llu", k == 0 ? "<=" : k == 8 ? ">=" : "", k - 4,
                       (unsigned long long)sum.ulps[k]);
        printf("; sign/class %llu) e.g.", (unsigned long long)sum.other);
        for (int k = 0; k < sum.nfirst; k++)
            printf(" %#x: gpu %#x sim %#x", sum.first_in[k], sum.first_gpu[k], sum.first_sim[k]);
    }
    printf("\n");
    fflush(stdout);
    munmap(gpu, total * 4);
    munmap(tl, sizeof(tally) * (size_t)nw);
    return failed ? -1 : (int64_t)sum.differ;
}

int main(int argc, char **argv)
{
    int nw = (int)sysconf(_SC_NPROCESSORS_ONLN), log2n = 32, first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "-j") == 0 && first + 1 < argc)
            nw = atoi(argv[++first]);
        else if (strcmp(argv[first], "-l") == 0 && first + 1 < argc)
            log2n = atoi(argv[++first]);
        else {
            fprintf(stderr, "usage: sfu_check [-j JOBS] [-l LOG2] [FORM...]\n");
            return 2;
        }
    }
    if (nw < 1 || log2n < CHUNK_LOG2 || log2n > 32) {
        fprintf(stderr, "sfu_check: -j at least 1, -l from %d to 32\n", CHUNK_LOG2);
        return 2;
    }
    gpu_t *g = NULL;
    gl_error err = {0};
    const char *fake = getenv("SFU_CHECK_GPU");
    if (!(fake && strcmp(fake, "sim") == 0) && gpu_open(&g, &err) != GL_OK) {
        printf("SKIP: no GPU here (%s)\n", err.msg);
        return 77;
    }
    int bad = 0, broken = 0;
    for (size_t i = 0; i < NFORMS; i++) {
        int want = first == argc;
        for (int a = first; a < argc && !want; a++)
            want = strcmp(argv[a], forms[i].name) == 0;
        if (!want)
            continue;
        int64_t d = check_form(g, &forms[i], log2n, nw);
        broken |= d < 0;
        bad |= d > 0;
    }
    if (g)
        gpu_close(g);
    return broken ? 2 : bad;
}
