/* test_sim_sreg.c — where the simulator says a thread runs: %warpid, %nwarpid, %smid and
 * %nsmid (PTX ISA §10.4-10.9) read by tests/kernels/sim/where.cu (its PTX fixtures from
 * nvcc and clang). Several resident blocks share a modelled SM, each warp in its own
 * warp slot there, so %warpid is not the warp's index in its block, in the deterministic
 * schedule and in random ones; %smid is the SM of the trace's BLOCK_START event; both
 * execution tiers read the same. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fixture.h"
#include "tests/temp_cache.h"
#include "trace/trace.h"

/* One launch of where(): its four words per thread, and the SM and the start and end
 * times of each block from its BLOCK_START and BLOCK_END events, and the blocks in the
 * order they started. */
enum { MAXB = 64, MAXT = 1024 };
typedef struct where_run {
    unsigned nblocks, nthreads;
    uint32_t *out; /* 4 * nblocks * nthreads words: %warpid, %nwarpid, %smid, %nsmid */
    int64_t sm[MAXB];
    uint64_t start[MAXB], end[MAXB];
    unsigned order[MAXB];
    sim_result r;
} where_run;

static const uint32_t *at(const where_run *w, unsigned b, unsigned t)
{
    return w->out + 4 * ((size_t)b * w->nthreads + t);
}

/* Runs where() on grid x block (one-dimensional) with cfg (trace and tier set here). */
static void run_where(int ci, sim_config cfg, unsigned nblocks, unsigned nthreads, where_run *w)
{
    ck_assert_uint_le(nblocks, MAXB);
    ck_assert_uint_le(nthreads, MAXT);
    ptx_module_t *m = fixture_load("where", ci);
    trace_t *tr = trace_new(TRACE_ISSUE, 0);
    ck_assert_ptr_nonnull(tr);
    cfg.trace = tr;
    sim_t *s = sim_new(&cfg);
    ck_assert_ptr_nonnull(s);
    memset(w, 0, sizeof *w);
    w->nblocks = nblocks;
    w->nthreads = nthreads;
    const size_t bytes = (size_t)4 * nblocks * nthreads * sizeof *w->out;
    w->out = malloc(bytes);
    ck_assert_ptr_nonnull(w->out);
    uint64_t d = fixture_upload(s, NULL, bytes, "out");
    void *params[] = {&d};
    unsigned grid[3] = {nblocks, 1, 1}, block[3] = {nthreads, 1, 1};
    sim_status st = sim_launch(s, m, "where", grid, block, 0, params, &w->r);
    ck_assert_msg(st == SIM_OK, "launch: %s", w->r.fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, w->out, d, bytes), SIM_OK);
    for (unsigned b = 0; b < MAXB; b++)
        w->sm[b] = -1;
    unsigned started = 0;
    for (size_t i = 0; i < tr->nevents; i++) {
        const trace_event *e = &tr->events[i];
        if (e->kind == TRACE_EV_BLOCK_START) {
            ck_assert_int_eq(w->sm[e->block], -1); /* each block starts once */
            w->order[started++] = e->block;
            w->sm[e->block] = e->aux;
            w->start[e->block] = e->time;
        } else if (e->kind == TRACE_EV_BLOCK_END) {
            ck_assert_int_eq(w->sm[e->block], (int64_t)e->aux);
            w->end[e->block] = e->time;
        }
    }
    sim_free(s);
    trace_free(tr);
    ptx_module_free(m);
}

static void where_free(where_run *w)
{
    free(w->out);
    sim_result_free(&w->r);
}

/* What every launch reads, whatever the schedule: each thread's %smid is its block's SM
 * in the trace; %nwarpid and %nsmid are the profile's warps per SM and SMs; a warp's
 * lanes read one %warpid, below %nwarpid, and the warps of a block different ones; two
 * blocks resident on one SM at once never read the same %warpid. Returns how many pairs
 * of blocks were resident on one SM at once. */
static unsigned check_where(const where_run *w, const sim_device_model *dm)
{
    const unsigned nwarps = (w->nthreads + 31) / 32;
    unsigned shared = 0;
    for (unsigned b = 0; b < w->nblocks; b++) {
        ck_assert_msg(w->sm[b] >= 0, "block %u has no BLOCK_START event", b);
        uint64_t slots = 0;
        for (unsigned t = 0; t < w->nthreads; t++) {
            const uint32_t *v = at(w, b, t);
            ck_assert_uint_eq(v[1], (unsigned)dm->max_warps_per_sm);
            ck_assert_uint_eq(v[3], (unsigned)dm->sm_count);
            ck_assert_msg(v[2] == (uint32_t)w->sm[b],
                          "block %u thread %u: %%smid %u, its "
                          "BLOCK_START event's SM %lld",
                          b, t, v[2], (long long)w->sm[b]);
            ck_assert_uint_lt(v[0], v[1]);
            ck_assert_uint_eq(v[0], at(w, b, t / 32 * 32)[0]); /* one per warp */
            slots |= 1ull << v[0];
        }
        ck_assert_uint_eq((unsigned)__builtin_popcountll(slots), nwarps);
        for (unsigned o = 0; o < b; o++) {
            if (w->sm[o] != w->sm[b] || w->end[o] <= w->start[b] || w->end[b] <= w->start[o])
                continue;
            shared++;
            for (unsigned t = 0; t < w->nthreads; t += 32)
                for (unsigned u = 0; u < w->nthreads; u += 32)
                    ck_assert_msg(at(w, b, t)[0] != at(w, o, u)[0],
                                  "blocks %u and %u share SM %lld at once and both read "
                                  "%%warpid %u",
                                  o, b, (long long)w->sm[b], at(w, b, t)[0]);
        }
    }
    return shared;
}

/* A 2-block launch in the deterministic schedule: both blocks on SM 0, whose
 * sub-partition counter starts at 1: block 0's warps 0 and 1 go to sub-partitions 1 and
 * 2 (slots 1 and 2), block 1's to 2 and 3 (slots 6, the next of sub-partition 2, and 3):
 * neither reads its warp indices 0 and 1 (lesson 3's exercise launch). */
START_TEST(test_two_blocks_on_one_sm_read_different_warpid_ranges)
{
    where_run w;
    run_where(_i, (sim_config){0}, 2, 64, &w);
    ck_assert_uint_eq(check_where(&w, sim_device()), 1);
    ck_assert_int_eq(w.sm[0], 0);
    ck_assert_int_eq(w.sm[1], 0);
    const uint32_t want[2][2] = {{1, 2}, {6, 3}};
    for (unsigned b = 0; b < 2; b++)
        for (unsigned t = 0; t < 64; t++)
            ck_assert_msg(at(&w, b, t)[0] == want[b][t / 32],
                          "block %u thread %u: %%warpid %u, want %u", b, t, at(&w, b, t)[0],
                          want[b][t / 32]);
    where_free(&w);
}
END_TEST

/* 24 blocks of 3 warps in the deterministic schedule: 8 resident, 2 on each of SMs 0-3
 * (%smid of the BLOCK_START events), 6 blocks on each SM in all. The first two on an SM
 * read 1, 2, 3 and 6, 7, 0 (sub-partitions from 1 and from 2, the lowest free slot of
 * each); every block that starts on an SM after another has each warp in another
 * sub-partition than that block's same warp (the counter moved on), so its warp w reads
 * another %warpid. */
START_TEST(test_blocks_that_replace_finished_ones_take_other_slots)
{
    where_run w;
    run_where(_i, (sim_config){0}, 24, 96, &w);
    ck_assert_uint_ge(check_where(&w, sim_device()), 4);
    unsigned per_sm[4] = {0}, last[4];
    for (unsigned i = 0; i < 24; i++) {
        const unsigned b = w.order[i];
        ck_assert_int_lt(w.sm[b], 4);
        const unsigned k = (unsigned)w.sm[b];
        static const uint32_t first[2][3] = {{1, 2, 3}, {6, 7, 0}};
        for (unsigned t = 0; t < 96; t += 32) {
            if (per_sm[k] < 2)
                ck_assert_uint_eq(at(&w, b, t)[0], first[per_sm[k]][t / 32]);
            else
                ck_assert_msg(at(&w, b, t)[0] % 4 != at(&w, last[k], t)[0] % 4,
                              "block %u warp %u reads %u in the sub-partition of block %u's", b,
                              t / 32, at(&w, b, t)[0], last[k]);
        }
        per_sm[k]++;
        last[k] = b;
    }
    for (unsigned k = 0; k < 4; k++)
        ck_assert_uint_eq(per_sm[k], 6);
    where_free(&w);
}
END_TEST

/* Random schedules (seeds 1-12): under every one, some two blocks share an SM at once and
 * read different %warpid values; the same seed reads the same values again; and even a
 * launch of one block of 4 warps reads slots that are not 0-3 in order under some seed
 * (the SM's counter starts at random), as under the deterministic schedule (1, 2, 3, 0,
 * as an H200 whose SM ran one block before). */
START_TEST(test_random_schedules_share_sms_and_place_warps_at_random)
{
    unsigned not_in_order = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        const sim_config cfg = {.schedule_random = 1, .schedule_seed = seed};
        where_run a, b;
        run_where(_i, cfg, 24, 96, &a);
        ck_assert_msg(check_where(&a, sim_device()) > 0, "seed %llu: no two blocks shared an SM",
                      (unsigned long long)seed);
        run_where(_i, cfg, 24, 96, &b);
        ck_assert_mem_eq(a.out, b.out, (size_t)4 * 24 * 96 * sizeof *a.out);
        where_free(&a);
        where_free(&b);
        where_run one;
        run_where(_i, cfg, 1, 128, &one);
        check_where(&one, sim_device());
        for (unsigned t = 0; t < 128; t += 32)
            not_in_order += at(&one, 0, t)[0] != t / 32;
        where_free(&one);
    }
    ck_assert_uint_gt(not_in_order, 0);
    where_run det;
    run_where(_i, (sim_config){0}, 1, 128, &det);
    for (unsigned t = 0; t < 128; t++)
        ck_assert_uint_eq(at(&det, 0, t)[0], (t / 32 + 1) % 4);
    where_free(&det);
}
END_TEST

/* Every device profile: %nwarpid its warps per SM (64 on sm_80 and sm_90, 48 on sm_86 and
 * sm_89, 32 on sm_75), %nsmid its SM count, in both schedules. */
START_TEST(test_nwarpid_and_nsmid_follow_the_device_profile)
{
    for (int i = 0; i < sim_device_count(); i++) {
        const sim_device_model *dm = sim_device_at(i);
        for (int random = 0; random < 2; random++) {
            where_run w;
            run_where(_i, (sim_config){.device = dm, .schedule_random = random, .schedule_seed = 5},
                      12, 256, &w);
            check_where(&w, dm);
            where_free(&w);
        }
    }
}
END_TEST

/* The interpreter and the translating tier (whose lockstep regions read %smid, %nwarpid
 * and %nsmid from a table per block, and %warpid per warp) read the same values, in the
 * deterministic schedule and a random one. */
START_TEST(test_both_tiers_read_the_same_special_registers)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/jit", temp_cache_root);
    for (int random = 0; random < 2; random++) {
        where_run w[2];
        const int tiers[2] = {SIM_TIER_INTERP, SIM_TIER_JIT};
        for (int k = 0; k < 2; k++) {
            sim_config cfg = {
                .tier = tiers[k], .jit_dir = dir, .schedule_random = random, .schedule_seed = 3};
            run_where(_i, cfg, 24, 96, &w[k]);
            check_where(&w[k], sim_device());
        }
        ck_assert_mem_eq(w[0].out, w[1].out, (size_t)4 * 24 * 96 * sizeof *w[0].out);
        ck_assert_mem_eq(&w[0].r.stats, &w[1].r.stats, sizeof w[0].r.stats);
        ck_assert_uint_eq(w[0].r.jit_blocks, 0);
        ck_assert_uint_gt(w[1].r.jit_blocks, 0);
        where_free(&w[0]);
        where_free(&w[1]);
    }
}
END_TEST

/* The driver's registers cooperative_groups reads (cooperative_groups/details/memory.h,
 * driver_abi.h): %reserved_smem_offset_* (PTX ISA §10, sm_80) name the block's
 * reserved shared memory, 1 KiB from sm_80 on (sim_device_model.shared_reserved_per_block)
 * after the kernel's own (here 100 static bytes at 0, 24 dynamic at 112: 136 bytes), and
 * a thread stores to and loads from it through a generic address, as cooperative_groups'
 * multi-warp tiles do; %envreg1:%envreg2 (§10 %envreg<32>), a cooperative launch's grid
 * workspace, are 0 (no cooperative launch); %total_smem_size is the kernel's own 136
 * bytes rounded up to the 128-byte allocation unit, 256, as an H200 reads it
 * (tools/sreg_gpu_check.sh, driver 580). The H200 places the window differently
 * ([0, 288) of a 1 KiB cap, %envreg0 nonzero: docs/architecture.md). On sm_75 (no
 * reserve) the window is empty. */
static const char reserved_ptx[] =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .shared .align 4 .b8 s[100];\n .reg .b32 %r<16>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd0, [out];\n cvta.to.global.u64 %rd0, %rd0;\n"
    " mov.u32 %r0, %reserved_smem_offset_begin;\n mov.u32 %r1, %reserved_smem_offset_end;\n"
    " mov.u32 %r2, %reserved_smem_offset_cap;\n mov.u32 %r3, %reserved_smem_offset_0;\n"
    " mov.u32 %r4, %reserved_smem_offset_1;\n mov.u32 %r5, %envreg0;\n"
    " mov.u32 %r6, %envreg1;\n mov.u32 %r7, %envreg31;\n mov.u32 %r8, %total_smem_size;\n"
    " mov.u32 %r9, %dynamic_smem_size;\n"
    " cvt.u64.u32 %rd1, %r4;\n cvta.shared.u64 %rd2, %rd1;\n"
    " st.u32 [%rd2], 1234;\n ld.u32 %r10, [%rd2];\n"
    " st.global.u32 [%rd0], %r0;\n st.global.u32 [%rd0+4], %r1;\n"
    " st.global.u32 [%rd0+8], %r2;\n st.global.u32 [%rd0+12], %r3;\n"
    " st.global.u32 [%rd0+16], %r4;\n st.global.u32 [%rd0+20], %r5;\n"
    " st.global.u32 [%rd0+24], %r6;\n st.global.u32 [%rd0+28], %r7;\n"
    " st.global.u32 [%rd0+32], %r8;\n st.global.u32 [%rd0+36], %r9;\n"
    " st.global.u32 [%rd0+40], %r10;\n ret;\n}\n";

START_TEST(test_reserved_shared_memory_and_envregs_read_the_driver_model)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_msg(ptx_parse(reserved_ptx, strlen(reserved_ptx), "reserved", &m, &diag) == SIM_OK,
                  "%s", diag ? diag : "");
    free(diag);
    const char *const devs[2] = {"sm_90", "sm_75"};
    for (int k = 0; k < 2; k++) {
        sim_config cfg = {.device = sim_device_find(devs[k])};
        ck_assert_ptr_nonnull(cfg.device);
        sim_t *s = sim_new(&cfg);
        uint32_t out[11] = {0};
        uint64_t d = fixture_upload(s, out, sizeof out, "out");
        void *params[] = {&d};
        unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
        sim_result r;
        sim_status st = sim_launch(s, m, "k", grid, block, 24, params, &r);
        if (k == 0) {
            ck_assert_msg(st == SIM_OK, "launch: %s", r.fault.message);
            ck_assert_int_eq(sim_memcpy_dtoh(s, out, d, sizeof out), SIM_OK);
            const uint32_t want[11] = {144, 1168, 1024, 144, 656, 0, 0, 0, 256, 24, 1234};
            for (int i = 0; i < 11; i++)
                ck_assert_msg(out[i] == want[i], "%s: word %d = %u, want %u", devs[k], i, out[i],
                              want[i]);
        } else { /* no reserve: the window is empty, the store past the kernel's own faults */
            ck_assert_int_eq(st, SIM_ERR_FAULT);
            ck_assert_msg(strstr(r.fault.message, "shared memory"), "%s", r.fault.message);
        }
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim_sreg");
    TCase *tc = tcase_create("where");
    tcase_set_timeout(tc, 120);
    const int nc = (int)(sizeof fixture_compilers / sizeof fixture_compilers[0]);
    tcase_add_loop_test(tc, test_two_blocks_on_one_sm_read_different_warpid_ranges, 0, nc);
    tcase_add_loop_test(tc, test_blocks_that_replace_finished_ones_take_other_slots, 0, nc);
    tcase_add_loop_test(tc, test_random_schedules_share_sms_and_place_warps_at_random, 0, nc);
    tcase_add_loop_test(tc, test_nwarpid_and_nsmid_follow_the_device_profile, 0, nc);
    tcase_add_loop_test(tc, test_both_tiers_read_the_same_special_registers, 0, nc);
    tcase_add_test(tc, test_reserved_shared_memory_and_envregs_read_the_driver_model);
    suite_add_tcase(s, tc);
    return temp_cache_run_suite(s);
}
