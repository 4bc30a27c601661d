/* Tests of the simulator's translating tier (sim/jit.c): the same kernels on the
 * interpreter and the tier give the same buffers and statistics, the tier's compiled
 * blocks are cached (a second simulator loads them without compiling), a fault inside a
 * lockstep region is the same fault at the same step on both, and what the tier cannot
 * translate (divergent code, no cache folder) runs in the interpreter with the
 * same results; the register liveness it stores by (sim_regs_live) follows every read,
 * a bar.red predicate and brx.idx's targets included. Kernels: tests/kernels/sim/NAME.cu
 * through their PTX fixtures. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"
#include "tests/fixture.h"
#include "tests/temp_cache.h"

/* The tier's folder for these tests, under the temporary cache. */
static const char *jit_dir(void)
{
    static char dir[600];
    snprintf(dir, sizeof dir, "%s/jit", temp_cache_root);
    return dir;
}

/* A simulator on tier (SIM_TIER_*) with the tests' folder. */
static sim_t *sim_on(int tier)
{
    sim_config cfg = {.tier = tier, .jit_dir = jit_dir()};
    sim_t *s = sim_new(&cfg);
    ck_assert_ptr_nonnull(s);
    return s;
}

enum { VN = 1000 };

/* vec_add over VN elements on tier; c gets the result, *r the launch's result. */
static void run_vec_add(int tier, int ci, float *c, sim_result *r)
{
    ptx_module_t *m = fixture_load("vec_add", ci);
    sim_t *s = sim_on(tier);
    static float a[VN], b[VN];
    for (int i = 0; i < VN; i++) {
        a[i] = (float)i * 0.5f + 0.1f;
        b[i] = 1000.0f - (float)i * 0.25f;
    }
    uint64_t da = fixture_upload(s, a, sizeof a, "a"), db = fixture_upload(s, b, sizeof b, "b");
    uint64_t dc = fixture_upload(s, NULL, VN * sizeof *c, "c");
    int n = VN;
    void *params[] = {&da, &db, &dc, &n};
    unsigned grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    sim_status st = sim_launch(s, m, "vec_add", grid, block, 0, params, r);
    ck_assert_msg(st == SIM_OK, "launch: %s", r->fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, c, dc, VN * sizeof *c), SIM_OK);
    for (int i = 0; i < VN; i++) {
        const float want = a[i] + b[i];
        ck_assert_msg(memcmp(&c[i], &want, 4) == 0, "c[%d] = %a, want %a", i, (double)c[i],
                      (double)want);
    }
    sim_free(s);
    ptx_module_free(m);
}

START_TEST(test_vec_add_on_the_tier_matches_the_interpreter_and_runs_blocks)
{
    static float ci[VN], cj[VN];
    sim_result ri, rj;
    run_vec_add(SIM_TIER_INTERP, _i, ci, &ri);
    run_vec_add(SIM_TIER_JIT, _i, cj, &rj);
    ck_assert_mem_eq(ci, cj, sizeof ci);
    ck_assert_mem_eq(&ri.stats, &rj.stats, sizeof ri.stats);
    ck_assert_uint_eq(ri.jit_blocks, 0);
    ck_assert_uint_gt(rj.jit_blocks, 0); /* the address arithmetic is translated */
    /* both tiers run the same lockstep regions: 2 per block (before and after the bounds
     * check's branch) but the last, whose warp 7 diverges there (elements 992-999 of
     * its 992-1023): only the first */
    ck_assert_uint_eq(ri.regions, 2 * 3 + 1);
    ck_assert_uint_eq(rj.regions, ri.regions);
    sim_result_free(&ri);
    sim_result_free(&rj);
}
END_TEST

/* vec_add told that n is 1100 with buffers of VN = 1000 on tier: the load of a[1000]
 * faults inside a lockstep region (block 3, warp 7); *r the launch's result. */
static void run_vec_add_past_the_end(int tier, int ci, sim_result *r)
{
    ptx_module_t *m = fixture_load("vec_add", ci);
    sim_t *s = sim_on(tier);
    static float a[VN], b[VN];
    for (int i = 0; i < VN; i++)
        a[i] = b[i] = (float)i;
    uint64_t da = fixture_upload(s, a, sizeof a, "a"), db = fixture_upload(s, b, sizeof b, "b");
    uint64_t dc = fixture_upload(s, NULL, sizeof a, "c");
    int n = 1100;
    void *params[] = {&da, &db, &dc, &n};
    unsigned grid[3] = {5, 1, 1}, block[3] = {256, 1, 1};
    ck_assert_int_eq(sim_launch(s, m, "vec_add", grid, block, 0, params, r), SIM_ERR_FAULT);
    sim_free(s);
    ptx_module_free(m);
}

START_TEST(test_fault_inside_a_region_is_the_same_on_both_tiers)
{
    sim_result ri, rj;
    run_vec_add_past_the_end(SIM_TIER_INTERP, _i, &ri);
    run_vec_add_past_the_end(SIM_TIER_JIT, _i, &rj);
    ck_assert_int_eq(ri.fault.kind, SIM_FAULT_OUT_OF_BOUNDS);
    ck_assert_uint_eq(ri.fault.block[0], 3);
    ck_assert_uint_eq(ri.fault.thread[0], 1000 - 3 * 256); /* the first lane past the end */
    ck_assert_str_eq(ri.fault.message, rj.fault.message);
    ck_assert_mem_eq(ri.fault.block, rj.fault.block, sizeof ri.fault.block);
    ck_assert_mem_eq(ri.fault.thread, rj.fault.thread, sizeof ri.fault.thread);
    ck_assert_mem_eq(&ri.stats, &rj.stats, sizeof ri.stats);
    ck_assert_int_eq(ri.nfindings, rj.nfindings);
    ck_assert_str_eq(ri.findings[0].message, rj.findings[0].message);
    ck_assert_uint_gt(rj.jit_blocks, 0);
    sim_result_free(&ri);
    sim_result_free(&rj);
}
END_TEST

/* reduce_sum of 1..4096 on tier (every block adds its sum into out): the sum. */
static int64_t run_reduce(int tier, int ci, sim_result *r)
{
    enum { N = 4096 };
    ptx_module_t *m = fixture_load("reduce", ci);
    sim_t *s = sim_on(tier);
    static int in[N];
    for (int i = 0; i < N; i++)
        in[i] = i + 1;
    int out = 0;
    uint64_t din = fixture_upload(s, in, sizeof in, "in");
    uint64_t dout = fixture_upload(s, &out, sizeof out, "out");
    int n = N;
    void *params[] = {&din, &dout, &n};
    unsigned grid[3] = {N / 256, 1, 1}, block[3] = {256, 1, 1};
    sim_status st = sim_launch(s, m, "reduce_sum", grid, block, 0, params, r);
    ck_assert_msg(st == SIM_OK, "launch: %s", r->fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, &out, dout, sizeof out), SIM_OK);
    sim_free(s);
    ptx_module_free(m);
    return out;
}

START_TEST(test_shared_memory_reduction_on_the_tier_matches_the_interpreter)
{
    sim_result ri, rj;
    ck_assert_int_eq(run_reduce(SIM_TIER_INTERP, _i, &ri), 4096 * 4097 / 2);
    ck_assert_int_eq(run_reduce(SIM_TIER_JIT, _i, &rj), 4096 * 4097 / 2);
    ck_assert_mem_eq(&ri.stats, &rj.stats, sizeof ri.stats);
    ck_assert_int_eq(ri.nfindings, rj.nfindings);
    sim_result_free(&ri);
    sim_result_free(&rj);
}
END_TEST

START_TEST(test_second_simulator_loads_cached_blocks_without_compiling)
{
    static float c1[VN], c2[VN];
    sim_result r1, r2;
    run_vec_add(SIM_TIER_JIT, _i, c1, &r1);
    const unsigned long compiles = sim_jit_compiles();
    run_vec_add(SIM_TIER_JIT, _i, c2, &r2); /* a new sim and module: only the disk cache */
    ck_assert_uint_eq(sim_jit_compiles(), compiles);
    ck_assert_uint_gt(r2.jit_blocks, 0);
    ck_assert_uint_eq(r1.jit_blocks, r2.jit_blocks);
    ck_assert_mem_eq(c1, c2, sizeof c1);
    sim_result_free(&r1);
    sim_result_free(&r2);
}
END_TEST

/* diverge(out, n): lane-parity branches (tests/kernels/sim/diverge.cu) on tier. */
static void run_diverge(int tier, const char *dir, int ci, int *out, sim_result *r)
{
    enum { N = 100 };
    ptx_module_t *m = fixture_load("diverge", ci);
    sim_config cfg = {.tier = tier, .jit_dir = dir};
    sim_t *s = sim_new(&cfg);
    uint64_t dout = fixture_upload(s, NULL, N * sizeof *out, "out");
    int n = N;
    void *params[] = {&dout, &n};
    unsigned grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
    sim_status st = sim_launch(s, m, "diverge", grid, block, 0, params, r);
    ck_assert_msg(st == SIM_OK, "launch: %s", r->fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, N * sizeof *out), SIM_OK);
    for (int i = 0; i < N; i++) {
        int v = -i;
        if (i % 2 == 0) {
            v = i * 3;
            for (int k = 0; k < (i & 3); ++k)
                v += k;
        }
        ck_assert_msg(out[i] == v, "out[%d] = %d, want %d", i, out[i], v);
    }
    sim_free(s);
    ptx_module_free(m);
}

START_TEST(test_divergent_code_falls_back_to_the_interpreter_with_the_same_results)
{
    int oi[100], oj[100], on[100];
    sim_result ri, rj, rn;
    run_diverge(SIM_TIER_INTERP, jit_dir(), _i, oi, &ri);
    run_diverge(SIM_TIER_JIT, jit_dir(), _i, oj, &rj);
    run_diverge(SIM_TIER_JIT, NULL, _i, on, &rn); /* no folder: the tier is off */
    ck_assert_mem_eq(oi, oj, sizeof oi);
    ck_assert_mem_eq(oi, on, sizeof oi);
    ck_assert_mem_eq(&ri.stats, &rj.stats, sizeof ri.stats);
    ck_assert_mem_eq(&ri.stats, &rn.stats, sizeof ri.stats);
    ck_assert_uint_eq(rn.jit_blocks, 0);
    /* the converged prologue may run translated; the divergent lanes cannot */
    ck_assert_uint_lt(rj.jit_blocks, ri.stats.warp_instructions / 2);
    sim_result_free(&ri);
    sim_result_free(&rj);
    sim_result_free(&rn);
}
END_TEST

START_TEST(test_auto_tier_leaves_small_launches_to_the_interpreter)
{
    static float c[VN];
    sim_result r;
    run_vec_add(SIM_TIER_AUTO, _i, c, &r); /* 32 warps, far below SIM_JIT_AUTO_WARPS */
    ck_assert_uint_eq(r.jit_blocks, 0);
    sim_result_free(&r);
}
END_TEST

/* Liveness for the tier's stores: a kernel in PTX with a bar.red whose predicate sits in
 * o[3] (3 operands) and a brx.idx whose one target alone reads %r5, L0, which only
 * brx.idx reaches (not its fall-through). */
static const char live_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry live(.param .u64 p, .param .u32 n)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  add.s32 %r3, %r2, %r1;\n"
    "  setp.ne.u32 %p1, %r3, 0;\n"
    "  bar.red.popc.u32 %r4, 0, %p1;\n"
    "  mov.u32 %r5, 7;\n"
    "  and.b32 %r6, %r2, 1;\n"
    "ts: .branchtargets L0, L1;\n"
    "  brx.idx %r6, ts;\n"
    "L1:\n  add.s32 %r4, %r4, 1;\n  bra.uni L2;\n"
    "L0:\n  add.s32 %r4, %r4, %r5;\n"
    "L2:\n  cvta.to.global.u64 %rd2, %rd1;\n  st.global.u32 [%rd2], %r4;\n  ret;\n}\n";

/* Whether slot r is live at PC pc (sim_regs_live's table live, nw words a PC). */
static int is_live(const uint64_t *live, size_t nw, int pc0, int pc, unsigned r)
{
    return (int)((live[(size_t)(pc - pc0) * nw + r / 64] >> (r % 64)) & 1);
}

START_TEST(test_register_liveness_follows_bar_red_and_brx_targets)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_msg(ptx_parse(live_ptx, sizeof live_ptx - 1, "live.ptx", &m, &diag) == SIM_OK, "%s",
                  diag ? diag : "");
    free(diag);
    const ptx_func *f = &m->funcs[0];
    uint8_t *fast = sim_fast_kinds(m);
    ck_assert_ptr_nonnull(fast);
    size_t nw = 0;
    uint64_t *live = sim_regs_live(m, fast, f, &nw);
    ck_assert_ptr_nonnull(live);
    /* the PCs by their instructions, the slots by the operands naming them */
    int add3 = -1, bar = -1, brx = -1, use5 = -1;
    for (int pc = f->entry_pc; pc < f->end_pc; pc++) {
        const ptx_insn *in = &m->code[pc];
        if (in->op == PTX_OP_add && add3 < 0)
            add3 = pc;
        else if (in->op == PTX_OP_bar)
            bar = pc;
        else if (in->op == PTX_OP_brx)
            brx = pc;
        else if (in->op == PTX_OP_add && in->o[2].kind == PTX_OPK_REG)
            use5 = pc;
    }
    ck_assert(add3 >= 0 && bar > add3 && brx > bar && use5 > brx);
    const unsigned r1 = m->code[add3].o[2].reg, r2 = m->code[add3].o[1].reg,
                   r3 = m->code[add3].o[0].reg, p1 = m->code[bar].o[3].reg,
                   r5 = m->code[use5].o[2].reg, rd1 = m->code[f->entry_pc].o[0].reg;
    const int pc0 = f->entry_pc;
    /* nothing is read before the kernel writes it, but bar.red's destination: it is
     * written at the barrier's release, not surely by the instruction, so the analysis
     * counts it as read there (conservative: a slot kept live is only stored) */
    const unsigned r4 = m->code[bar].o[0].reg;
    for (unsigned r = 0; r < (unsigned)f->nregs; r++)
        ck_assert_msg(r == r4 || !is_live(live, nw, pc0, pc0, r), "slot %u live at the entry", r);
    ck_assert(is_live(live, nw, pc0, pc0, r4));
    ck_assert(is_live(live, nw, pc0, add3, r1) && is_live(live, nw, pc0, add3, r2));
    ck_assert(!is_live(live, nw, pc0, add3, r3) && is_live(live, nw, pc0, add3, rd1));
    /* bar.red reads its predicate (o[3]); nothing reads it after */
    ck_assert(is_live(live, nw, pc0, bar, p1) && !is_live(live, nw, pc0, bar + 1, p1));
    ck_assert(!is_live(live, nw, pc0, bar, r3) && !is_live(live, nw, pc0, bar, r1));
    /* %r5 is read at L0 only, which brx.idx reaches through its list */
    ck_assert(is_live(live, nw, pc0, brx, r5) && is_live(live, nw, pc0, use5, r5));
    ck_assert(!is_live(live, nw, pc0, use5 + 1, r5));
    free(live);
    free(fast);
    ptx_module_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim_jit");
    TCase *tc = tcase_create("tier");
    tcase_set_timeout(tc, 120);
    const int nc = (int)(sizeof fixture_compilers / sizeof *fixture_compilers);
    tcase_add_loop_test(tc, test_vec_add_on_the_tier_matches_the_interpreter_and_runs_blocks, 0,
                        nc);
    tcase_add_loop_test(tc, test_shared_memory_reduction_on_the_tier_matches_the_interpreter, 0,
                        nc);
    tcase_add_loop_test(tc, test_fault_inside_a_region_is_the_same_on_both_tiers, 0, nc);
    tcase_add_loop_test(tc, test_second_simulator_loads_cached_blocks_without_compiling, 0, nc);
    tcase_add_loop_test(tc, test_divergent_code_falls_back_to_the_interpreter_with_the_same_results,
                        0, nc);
    tcase_add_loop_test(tc, test_auto_tier_leaves_small_launches_to_the_interpreter, 0, nc);
    tcase_add_test(tc, test_register_liveness_follows_bar_red_and_brx_targets);
    suite_add_tcase(s, tc);
    return temp_cache_run_suite(s);
}
