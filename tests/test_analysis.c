/* test_analysis.c — Nsight-style metrics computed from simulator traces
 * (trace/analysis.h) on real kernels: tests/kernels/check/metrics.cu compiled by nvcc
 * and clang (tests/fixtures/ptx/metrics.{nvcc,clang}.ptx). Source lines asserted here
 * are lines of metrics.cu. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/arch.h"
#include "runtime/backend.h"
#include "runtime/spec.h"
#include "sim/sim.h"
#include "trace/analysis.h"
#include "trace/perfetto.h"
#include "trace/trace.h"
#include "tests/fixture.h"

static ptx_module_t *load(int ci)
{
    return fixture_load("metrics", ci);
}

/* One launch with a memory-level trace; metrics computed from the stored trace. */
typedef struct run {
    sim_t *s;
    trace_t *tr;
    gl_metrics met;
    sim_result r;
} run;

static uint64_t buf(run *R, const void *data, size_t bytes, const char *label)
{
    uint64_t d = 0;
    ck_assert_int_eq(sim_malloc(R->s, bytes, label, &d), SIM_OK);
    if (data)
        ck_assert_int_eq(sim_memcpy_htod(R->s, d, data, bytes), SIM_OK);
    return d;
}

static void begin(run *R)
{
    memset(R, 0, sizeof *R);
    R->tr = trace_new(TRACE_MEMORY, 0);
    sim_config cfg = {.trace = R->tr};
    R->s = sim_new(&cfg);
}

static void launch(run *R, const ptx_module_t *m, const char *kernel, unsigned grid, unsigned block,
                   void **params)
{
    unsigned g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    sim_status st = sim_launch(R->s, m, kernel, g, b, 0, params, &R->r);
    ck_assert_msg(st == SIM_OK, "%s: %s", kernel, R->r.fault.message);
    ck_assert_int_eq(gl_metrics_from_trace(R->tr, &R->met), 0);
    ck_assert_int_eq(R->met.incomplete, 0);
}

static void end(run *R)
{
    gl_metrics_free(&R->met);
    sim_result_free(&R->r);
    sim_free(R->s);
    trace_free(R->tr);
}

/* The counters of source line `line` (zeros if it has none). */
static gl_counts line_counts(const gl_metrics *m, int line)
{
    gl_counts c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < m->nlines; i++)
        if (m->lines[i].src_line == line)
            return m->lines[i].c;
    return c;
}

START_TEST(test_coalesced_f32_loads_take_4_sectors_per_request_strided_take_32)
{
    ptx_module_t *m = load(_i);
    static float in[32 * 128];
    for (int i = 0; i < 32 * 128; i++)
        in[i] = (float)i;
    /* 2 blocks of 64: 4 warps, each one request */
    run R;
    begin(&R);
    uint64_t din = buf(&R, in, sizeof in, "in"), dout = buf(&R, NULL, 128 * 4, "out");
    void *params[] = {&din, &dout};
    launch(&R, m, "copy_coalesced", 2, 64, params);
    const gl_counts *c = &R.met.total;
    ck_assert_uint_eq(c->gld_requests, 4);
    ck_assert_uint_eq(c->gld_sectors, 16);
    ck_assert_uint_eq(c->gst_requests, 4);
    ck_assert_uint_eq(c->gst_sectors, 16);
    ck_assert_double_eq(gl_gld_sectors_per_request(c), 4.0);
    ck_assert_uint_eq(c->gld_bytes, 512); /* 128 lanes x 4 bytes */
    ck_assert_double_eq(gl_global_sector_efficiency(c), 100.0);
    ck_assert_double_eq(gl_warp_execution_efficiency(c), 1.0);
    ck_assert_double_eq(gl_branch_efficiency(c), 1.0);
    gl_counts l6 = line_counts(&R.met, 6); /* out[i] = in[i]; */
    ck_assert_uint_eq(l6.gld_sectors, 16);
    ck_assert_uint_eq(l6.gst_sectors, 16);
    end(&R);

    begin(&R);
    din = buf(&R, in, sizeof in, "in");
    dout = buf(&R, NULL, 128 * 4, "out");
    void *params2[] = {&din, &dout};
    launch(&R, m, "copy_strided", 2, 64, params2);
    c = &R.met.total;
    ck_assert_uint_eq(c->gld_requests, 4);
    ck_assert_uint_eq(c->gld_sectors, 128);
    ck_assert_double_eq(gl_gld_sectors_per_request(c), 32.0);
    ck_assert_double_eq(gl_gst_sectors_per_request(c), 4.0);
    /* 512 bytes asked for in 128 sectors, 512 stored in 16: 1024 of 4608 bytes used */
    ck_assert_uint_eq(c->gld_bytes, 512);
    ck_assert_double_eq_tol(gl_global_sector_efficiency(c), 100.0 * 1024 / 4608, 1e-9);
    ck_assert_uint_eq(line_counts(&R.met, 12).gld_sectors, 128);
    end(&R);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_stride_2_shared_access_is_a_2_way_bank_conflict)
{
    ptx_module_t *m = load(_i);
    run R;
    begin(&R);
    uint64_t dout = buf(&R, NULL, 32 * 4, "out");
    void *params[] = {&dout};
    launch(&R, m, "shared_stride2", 1, 32, params);
    gl_counts st = line_counts(&R.met, 20), ld = line_counts(&R.met, 22);
    ck_assert_uint_eq(st.shst_requests, 1);
    ck_assert_uint_eq(st.shst_wavefronts, 2);
    ck_assert_uint_eq(st.shst_bank_conflicts, 1);
    ck_assert_uint_eq(ld.shld_requests, 1);
    ck_assert_uint_eq(ld.shld_wavefronts, 2);
    ck_assert_uint_eq(ld.shld_bank_conflicts, 1);
    ck_assert_uint_eq(R.met.total.shld_bank_conflicts, 1);
    ck_assert_uint_eq(R.met.total.shst_bank_conflicts, 1);
    end(&R);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_column_reads_conflict_32_ways_and_padding_removes_it)
{
    ptx_module_t *m = load(_i);
    run R;
    begin(&R);
    uint64_t dout = buf(&R, NULL, 32 * 4, "out");
    void *params[] = {&dout};
    launch(&R, m, "tile_column", 1, 32, params);
    gl_counts col = line_counts(&R.met, 36), pad = line_counts(&R.met, 37),
              bc = line_counts(&R.met, 38);
    ck_assert_uint_eq(col.shld_requests, 1);
    ck_assert_uint_eq(col.shld_wavefronts, 32); /* tile[t][0]: every lane in bank 0 */
    ck_assert_uint_eq(col.shld_bank_conflicts, 31);
    ck_assert_uint_eq(pad.shld_requests, 1);
    ck_assert_uint_eq(pad.shld_wavefronts, 1); /* padded[t][0]: bank t */
    ck_assert_uint_eq(pad.shld_bank_conflicts, 0);
    ck_assert_uint_eq(bc.shld_wavefronts, 1); /* tile[0][0]: a broadcast */
    ck_assert_uint_eq(bc.shld_bank_conflicts, 0);
    /* row writes in the loop: 32 + 32 requests, conflict-free */
    gl_counts w1 = line_counts(&R.met, 32), w2 = line_counts(&R.met, 33);
    ck_assert_uint_eq(w1.shst_requests, 32);
    ck_assert_uint_eq(w1.shst_wavefronts, 32);
    ck_assert_uint_eq(w2.shst_requests, 32);
    ck_assert_uint_eq(w2.shst_bank_conflicts, 0);
    end(&R);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_divergent_if_else_halves_warp_execution_efficiency)
{
    ptx_module_t *m = load(_i);
    float in[1000];
    for (int i = 0; i < 1000; i++)
        in[i] = 1.0f;
    run R;
    begin(&R);
    uint64_t din = buf(&R, in, sizeof in, "in"), dout = buf(&R, NULL, 32 * 4, "out");
    int n = 1000;
    void *params[] = {&din, &dout, &n};
    launch(&R, m, "divergent_loops", 1, 32, params);
    gl_counts a = line_counts(&R.met, 50), b = line_counts(&R.met, 53);
    ck_assert_uint_gt(a.inst_executed, 1000);
    ck_assert_uint_gt(b.inst_executed, 1000);
    ck_assert_double_eq(gl_warp_execution_efficiency(&a), 0.5);
    ck_assert_double_eq(gl_warp_execution_efficiency(&b), 0.5);
    double k = gl_warp_execution_efficiency(&R.met.total);
    ck_assert_msg(k > 0.5 && k < 0.51, "kernel warp execution efficiency %f", k);
    /* branch efficiency: the if splits the warp once; every loop's back edge is taken or
     * not by all of its 16 lanes alike (n = 1000 iterations in each half) */
    ck_assert_uint_eq(R.met.total.divergent_branches, 1);
    ck_assert_uint_ge(R.met.total.branches, 2000);
    ck_assert_double_eq(gl_branch_efficiency(&R.met.total),
                        1.0 - 1.0 / (double)R.met.total.branches);
    end(&R);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_atomics_per_address_name_the_hot_counters)
{
    ptx_module_t *m = load(_i);
    int zero[4] = {0};
    run R;
    begin(&R);
    uint64_t dbins = buf(&R, zero, sizeof zero, "bins");
    void *params[] = {&dbins};
    launch(&R, m, "four_counters", 1, 64, params);
    ck_assert_uint_eq(R.met.total.global_atom_requests, 2);
    ck_assert_uint_eq(R.met.total.global_atom_threads, 64);
    ck_assert_int_eq(R.met.ntop_atomics, 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(R.met.top_atomics[i].count, 16);
        ck_assert_uint_eq(R.met.top_atomics[i].address, dbins + 4u * (unsigned)i);
        ck_assert_int_eq(R.met.top_atomics[i].space, TRACE_SPACE_GLOBAL);
    }
    int bins[4];
    ck_assert_int_eq(sim_memcpy_dtoh(R.s, bins, dbins, sizeof bins), SIM_OK);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(bins[i], 16);
    end(&R);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_scan_counts_the_additions_it_performs)
{
    ptx_module_t *m = load(_i);
    float in[32];
    for (int i = 0; i < 32; i++)
        in[i] = 1.0f;
    run R;
    begin(&R);
    uint64_t din = buf(&R, in, sizeof in, "in"), dout = buf(&R, NULL, sizeof in, "out");
    void *params[] = {&din, &dout};
    launch(&R, m, "scan32", 1, 32, params);
    /* Hillis-Steele over 32 values: sum over off = 1, 2, 4, 8, 16 of (32 - off) */
    ck_assert_uint_eq(line_counts(&R.met, 75).thread_fadds, 129);
    ck_assert_uint_eq(R.met.total.thread_fadds, 129);
    /* 11 barriers, one warp (whose lanes may arrive in more than one group) */
    ck_assert_uint_ge(R.met.total.barrier_arrivals, 11);
    ck_assert_uint_eq(R.met.total.barrier_releases, 11);
    end(&R);
    ptx_module_free(m);
}
END_TEST

/* The metrics of `kernel` of fixture `name` (compiler ci) over grid x block threads,
 * with two zeroed buffers of `bytes` each as its parameters. */
static void run_two_buffers(run *R, const char *name, int ci, const char *kernel, unsigned grid,
                            unsigned block, size_t bytes)
{
    ptx_module_t *m = fixture_load(name, ci);
    begin(R);
    void *zero = calloc(1, bytes);
    uint64_t d0 = buf(R, zero, bytes, "a"), d1 = buf(R, zero, bytes, "b");
    free(zero);
    void *params[] = {&d0, &d1};
    launch(R, m, kernel, grid, block, params);
    ptx_module_free(m);
}

/* tests/kernels/ops/traffic.cu: a cp.async of 16 bytes per lane reads 32 x 16 = 512
 * contiguous bytes per warp, 16 sectors (PTX ISA §9.7.9.25.3; Nsight Compute's LDGSTS
 * counters), and writes shared memory in quarter-warps of 128 bytes (4 wavefronts); the
 * same copy through registers reads the same sectors as ld.global.v4. */
START_TEST(test_cp_async_global_reads_are_counted_like_the_loads_they_replace)
{
    run A, S;
    run_two_buffers(&A, "traffic", _i, "async_copy16", 2, 64, 128 * 16);
    const gl_counts *a = &A.met.total;
    ck_assert_uint_eq(a->ldgsts_requests, 4);
    ck_assert_uint_eq(a->ldgsts_sectors, 64);
    ck_assert_uint_eq(a->ldgsts_bytes, 2048);
    ck_assert_uint_eq(a->ldgsts_wavefronts, 16);
    ck_assert_uint_eq(a->ldgsts_bank_conflicts, 0);
    ck_assert_uint_eq(a->gld_requests, 0);
    ck_assert_uint_eq(gl_global_sectors(a), 64 + a->gst_sectors);
    ck_assert_uint_eq(gl_global_bytes(a), 2048 + a->gst_bytes);
    run_two_buffers(&S, "traffic", _i, "sync_copy16", 2, 64, 128 * 16);
    const gl_counts *b = &S.met.total;
    if (_i == 0) { /* nvcc: ld.global.v4 (clang loads a float4 as two 8-byte halves) */
        ck_assert_uint_eq(b->gld_requests, 4);
        ck_assert_uint_eq(b->gld_sectors, a->ldgsts_sectors);
        ck_assert_uint_eq(b->shst_wavefronts, a->ldgsts_wavefronts);
        ck_assert_uint_eq(gl_global_sectors(b), gl_global_sectors(a));
    }
    /* the metrics JSON names them as Nsight Compute does */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(gl_metrics_write_json(&A.met, f), 0);
    fclose(f);
    cJSON *js = cJSON_Parse(text);
    ck_assert_ptr_nonnull(js);
    const cJSON *mt = cJSON_GetObjectItem(js, "metrics");
    ck_assert_double_eq(
        cJSON_GetObjectItem(mt, "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum")->valuedouble,
        64);
    ck_assert_double_eq(
        cJSON_GetObjectItem(mt, "smsp__sass_data_bytes_mem_global_op_ldgsts.sum")->valuedouble,
        2048);
    ck_assert_double_eq(
        cJSON_GetObjectItem(mt, "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum")->valuedouble,
        4);
    ck_assert_double_eq(cJSON_GetObjectItem(mt, "gpulearn__sectors_global.sum")->valuedouble,
                        (double)gl_global_sectors(a));
    cJSON_Delete(js);
    free(text);
    end(&A);
    end(&S);
}
END_TEST

/* cp.async's shared write conflicts like a store (a stride of two words: 2-way), and a
 * lane whose src-size is 0 reads nothing (zero fill). */
START_TEST(test_cp_async_shared_writes_conflict_and_zero_fill_reads_nothing)
{
    run R;
    run_two_buffers(&R, "traffic", _i, "async_copy4_stride2", 1, 32, 256);
    ck_assert_uint_eq(R.met.total.ldgsts_requests, 1);
    ck_assert_uint_eq(R.met.total.ldgsts_sectors, 4);
    ck_assert_uint_eq(R.met.total.ldgsts_bytes, 128);
    ck_assert_uint_eq(R.met.total.ldgsts_wavefronts, 2);
    ck_assert_uint_eq(R.met.total.ldgsts_bank_conflicts, 1);
    end(&R);
    run_two_buffers(&R, "traffic", _i, "async_copy_zfill", 1, 32, 128);
    ck_assert_uint_eq(R.met.total.ldgsts_requests, 1);
    ck_assert_uint_eq(R.met.total.ldgsts_bytes, 16 * 4); /* the 16 even lanes */
    ck_assert_uint_eq(R.met.total.ldgsts_sectors, 4);
    ck_assert_uint_eq(R.met.total.ldgsts_wavefronts, 1); /* every lane writes its word */
    end(&R);
}
END_TEST

/* tests/kernels/ops/traffic.cu: every instruction that adds counts, whatever its form: per
 * lane add.f32, fma.rn.f32 by 1, red.global.add.f32 and add.rn.f16x2 (two): 5 x 32 float
 * additions, 32 of them at the fma's line (75); the Nsight add/sub count sees 64. The
 * bytes read from global memory are the same through cp.async and ld (2 blocks of 64
 * lanes x 16: 2048, whether ld.v4 or clang's two ld.u64), and a zero-fill lane reads
 * none. */
START_TEST(test_additions_of_every_form_and_load_bytes_of_every_kind)
{
    run R;
    run_two_buffers(&R, "traffic", _i, "adds_every_form", 1, 32, 33 * 4);
    ck_assert_uint_eq(R.met.total.float_additions, 160);
    ck_assert_uint_eq(line_counts(&R.met, 75).float_additions, 32);
    ck_assert_uint_eq(line_counts(&R.met, 79).float_additions, 64);
    ck_assert_uint_ge(R.met.total.additions, 160);
    ck_assert_uint_eq(R.met.total.thread_fadds, 64); /* add.f32 and add.rn.f16x2 */
    end(&R);
    run_two_buffers(&R, "traffic", _i, "async_copy16", 2, 64, 128 * 16);
    ck_assert_uint_eq(gl_global_load_bytes(&R.met.total), 2048);
    end(&R);
    run_two_buffers(&R, "traffic", _i, "sync_copy16", 2, 64, 128 * 16);
    ck_assert_uint_eq(gl_global_load_bytes(&R.met.total), 2048);
    end(&R);
    run_two_buffers(&R, "traffic", _i, "async_copy_zfill", 1, 32, 128);
    ck_assert_uint_eq(gl_global_load_bytes(&R.met.total), 64);
    end(&R);
}
END_TEST

/* tests/kernels/ops/traffic.cu's pipeline: with wait_group 1 the waits for tiles 1, 2 and
 * 3 land a group that was in flight while the warp read the tile before it (3 of 4);
 * with wait_group 0 right after the commit, none. The most bytes one block of
 * uneven_blocks writes: block 2's 3 x 32 floats. */
START_TEST(test_pipeline_overlap_and_block_writes)
{
    run R;
    run_two_buffers(&R, "traffic", _i, "pipeline_wait1", 1, 32, 128 * 4);
    ck_assert_uint_eq(R.met.total.async_waits, 4);
    ck_assert_uint_eq(R.met.total.async_waits_overlapped, 3);
    end(&R);
    run_two_buffers(&R, "traffic", _i, "pipeline_wait0", 1, 32, 128 * 4);
    ck_assert_uint_eq(R.met.total.async_waits, 4);
    ck_assert_uint_eq(R.met.total.async_waits_overlapped, 0);
    end(&R);
    run_two_buffers(&R, "traffic", _i, "uneven_blocks", 3, 32, 3 * 96 * 4);
    ck_assert_uint_eq(R.met.block_write_max, 384);
    end(&R);
}
END_TEST

/* atom and red are counted apart, as Nsight Compute's _op_atom and _op_red. */
START_TEST(test_atom_and_red_are_counted_apart)
{
    run R;
    run_two_buffers(&R, "traffic", _i, "atom_red", 1, 32, 128);
    ck_assert_uint_eq(R.met.total.global_atom_requests, 1);
    ck_assert_uint_eq(R.met.total.global_red_requests, 1);
    ck_assert_uint_eq(R.met.total.global_atom_sectors, 1);
    ck_assert_uint_eq(R.met.total.global_red_sectors, 1);
    ck_assert_uint_eq(R.met.total.global_atom_threads, 64);
    end(&R);
}
END_TEST

/* tests/kernels/ops/ldmatrix.cu: .x1, .x2, .x4 with and without .trans, one warp, eight
 * 16-byte rows of a matrix in 32 consecutive words: one wavefront per matrix, counted as
 * LDSM (PTX ISA §9.7.14.5.15), not as ld.shared. */
START_TEST(test_ldmatrix_is_counted_as_ldsm)
{
    ptx_module_t *m = fixture_load("ldmatrix", _i);
    run R;
    begin(&R);
    unsigned short in[4 * 9 * 8] = {0};
    uint64_t din = buf(&R, in, sizeof in, "in"), dout = buf(&R, NULL, 448 * 4, "out");
    void *params[] = {&din, &dout};
    launch(&R, m, "ldmatrix_all", 1, 32, params);
    ck_assert_uint_eq(R.met.total.ldsm_requests, 6);
    ck_assert_uint_eq(R.met.total.ldsm_wavefronts, 1 + 1 + 2 + 2 + 4 + 4);
    ck_assert_uint_eq(R.met.total.ldsm_bank_conflicts, 0);
    ck_assert_uint_eq(R.met.total.shld_requests, 0);
    end(&R);
    ptx_module_free(m);
}
END_TEST

/* Tensor-core FLOPs by the type of A and B: 2 x M x N x K per warp mma.sync (PTX ISA
 * §9.7.14.5.14), four tiles (warps) per launch (tests/kernels/ops/mma_sync.cu). */
START_TEST(test_mma_flops_are_2mnk_per_warp_instruction_by_type)
{
    static const struct {
        const char *kernel;
        int kind;
        uint64_t flops; /* per warp */
        size_t esz;
    } rows[] = {
        {"mma_m16n8k16_f16_f32", TRACE_FLOP_TENSOR_F16, 2 * 16 * 8 * 16, 4},
        {"mma_m16n8k8_bf16_f32", TRACE_FLOP_TENSOR_BF16, 2 * 16 * 8 * 8, 4},
        {"mma_m16n8k8_tf32", TRACE_FLOP_TENSOR_TF32, 2 * 16 * 8 * 8, 4},
        {"mma_m8n8k4_f64", TRACE_FLOP_TENSOR_F64, 2 * 8 * 8 * 4, 8},
        {"mma_m16n8k32_s8_sat", TRACE_FLOP_TENSOR_INT8, 2 * 16 * 8 * 32, 4},
    };
    ptx_module_t *m = fixture_load("mma_sync", _i);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        run R;
        begin(&R);
        const size_t n = 4 * 16 * 32 * rows[i].esz; /* the largest tile, 4 of them */
        uint64_t d[4];
        for (int k = 0; k < 4; k++)
            d[k] = buf(&R, NULL, n, "m");
        int exact = 1;
        void *params[] = {&d[0], &d[1], &d[2], &d[3], &exact};
        launch(&R, m, rows[i].kernel, 4, 32, params);
        ck_assert_uint_eq(R.met.total.tensor_insts, 4);
        for (int k = TRACE_FLOP_NONE + 1; k < TRACE_FLOP_COUNT; k++)
            if (TRACE_FLOP_IS_TENSOR(k))
                ck_assert_msg(gl_flops(&R.met.total, k) ==
                                  (k == rows[i].kind ? 4 * rows[i].flops : 0),
                              "%s: kind %d: %llu", rows[i].kernel, k,
                              (unsigned long long)gl_flops(&R.met.total, k));
        ck_assert_uint_eq(R.met.total.flops_fp32, 0); /* the tiles' index arithmetic */
        end(&R);
    }
    ptx_module_free(m);
}
END_TEST

/* FP32 FLOPs as Nsight Compute's roofline counts them: saxpy's fma is 2 per lane
 * (tests/kernels/sim/saxpy.cu: y[i] = a * x[i] + y[i] for i < n). */
START_TEST(test_saxpy_does_2_fp32_flops_per_element)
{
    ptx_module_t *m = fixture_load("saxpy", _i);
    run R;
    begin(&R);
    float x[100] = {0}, y[100] = {0};
    uint64_t dx = buf(&R, x, sizeof x, "x"), dy = buf(&R, y, sizeof y, "y");
    int n = 100;
    float a = 2.0f;
    void *params[] = {&n, &a, &dx, &dy};
    launch(&R, m, "saxpy", 1, 128, params);
    ck_assert_uint_eq(R.met.total.thread_ffma, 100);
    ck_assert_uint_eq(R.met.total.flops_fp32, 200);
    ck_assert_uint_eq(gl_flops(&R.met.total, TRACE_FLOP_FP32), 200);
    ck_assert_uint_eq(R.met.total.flops_fp64, 0);
    end(&R);
    ptx_module_free(m);
}
END_TEST

/* cp.async.bulk (PTX ISA §9.7.9.25.4, tests/corpus/cp_async_bulk.cu, sm_90): three
 * blocks each bring 2 x 512 bytes in (global to shared) and write 1024 back: every
 * byte in both directions, 32-byte aligned, so sectors = bytes / 32. */
START_TEST(test_cp_async_bulk_copies_count_every_byte)
{
    gl_spec spec;
    gl_error err = {0};
    ck_assert_msg(spec_load_file("tests/corpus/cp_async_bulk.json", &spec, &err) == GL_OK, "%s",
                  err.msg);
    /* NVRTC: clang cannot compile it (tests/corpus/cp_async_bulk.skip) */
    gl_run_opts o = {.backend = GL_BACKEND_SIM,
                     .trace_level = TRACE_MEMORY,
                     .metrics = 1,
                     .compile = {.compiler = GL_CC_NVRTC}};
    gl_run_result res;
    gl_status st = gl_run_spec(&spec, &o, &res, &err);
    if (st == GL_ERR_TOOL) { /* no NVRTC here */
        printf("SKIP: cp.async.bulk's byte counts need NVRTC: %s\n", err.msg);
        spec_free(&spec);
        return;
    }
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    const gl_counts *c = &res.metrics->total;
    ck_assert_uint_eq(c->bulk_copies, 9);
    ck_assert_uint_eq(c->bulk_ld_bytes, 3 * 1024);
    ck_assert_uint_eq(c->bulk_ld_sectors, 3 * 1024 / 32);
    ck_assert_uint_eq(c->bulk_st_bytes, 3 * 1024);
    ck_assert_uint_eq(c->bulk_st_sectors, 3 * 1024 / 32);
    ck_assert_uint_eq(gl_global_sectors(c), 2 * 3 * 1024 / 32);
    gl_run_result_free(&res);
    spec_free(&spec);
}
END_TEST

START_TEST(test_streamed_metrics_stay_exact_when_the_stored_trace_is_truncated)
{
    ptx_module_t *m = load(_i);
    float in[1000];
    for (int i = 0; i < 1000; i++)
        in[i] = 1.0f;
    int n = 1000;
    gl_metrics full, streamed;
    for (int pass = 0; pass < 2; pass++) {
        trace_t *tr = trace_new(TRACE_MEMORY, pass ? 100 : 0);
        gl_metrics *gm = pass ? &streamed : &full;
        memset(gm, 0, sizeof *gm);
        if (pass) {
            tr->sink = gl_metrics_sink;
            tr->sink_ctx = gm;
        }
        sim_config cfg = {.trace = tr};
        sim_t *s = sim_new(&cfg);
        uint64_t din, dout;
        ck_assert_int_eq(sim_malloc(s, sizeof in, "in", &din), SIM_OK);
        ck_assert_int_eq(sim_memcpy_htod(s, din, in, sizeof in), SIM_OK);
        ck_assert_int_eq(sim_malloc(s, 64 * 4, "out", &dout), SIM_OK);
        void *params[] = {&din, &dout, &n};
        unsigned g[3] = {2, 1, 1}, b[3] = {32, 1, 1};
        sim_result r;
        ck_assert_int_eq(sim_launch(s, m, "divergent_loops", g, b, 0, params, &r), SIM_OK);
        if (pass) {
            ck_assert_int_eq(tr->truncated, 1);
            ck_assert_int_eq(gl_metrics_finish(gm, tr), 0);
        } else {
            ck_assert_int_eq(gl_metrics_from_trace(tr, gm), 0);
        }
        ck_assert_uint_eq(gm->total.inst_executed, r.stats.warp_instructions);
        ck_assert_uint_eq(gm->total.thread_inst_executed, r.stats.thread_instructions);
        sim_result_free(&r);
        sim_free(s);
        trace_free(tr);
    }
    ck_assert_int_eq(memcmp(&full.total, &streamed.total, sizeof full.total), 0);
    ck_assert_int_eq(full.nlines, streamed.nlines);
    gl_metrics_free(&full);
    gl_metrics_free(&streamed);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_metrics_json_uses_nsight_names)
{
    ptx_module_t *m = load(_i);
    static float in[32 * 128];
    run R;
    begin(&R);
    uint64_t din = buf(&R, in, sizeof in, "in"), dout = buf(&R, NULL, 128 * 4, "out");
    void *params[] = {&din, &dout};
    launch(&R, m, "copy_strided", 2, 64, params);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(gl_metrics_write_json(&R.met, f), 0);
    fclose(f);
    cJSON *j = cJSON_Parse(text);
    ck_assert_msg(j != NULL, "invalid JSON:\n%s", text);
    ck_assert_str_eq(cJSON_GetObjectItem(j, "kernel")->valuestring, "copy_strided");
    cJSON *mt = cJSON_GetObjectItem(j, "metrics");
    ck_assert_double_eq(
        cJSON_GetObjectItem(mt, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")->valuedouble,
        128);
    ck_assert_double_eq(
        cJSON_GetObjectItem(mt, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")->valuedouble, 4);
    ck_assert_double_eq(
        cJSON_GetObjectItem(mt, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld"
                                ".ratio")
            ->valuedouble,
        32);
    ck_assert_double_eq(cJSON_GetObjectItem(mt, "branch_efficiency")->valuedouble, 1.0);
    ck_assert_ptr_nonnull(
        cJSON_GetObjectItem(mt, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"));
    cJSON *lines = cJSON_GetObjectItem(j, "lines");
    ck_assert_int_gt(cJSON_GetArraySize(lines), 0);
    int found = 0;
    for (int i = 0; i < cJSON_GetArraySize(lines); i++) {
        cJSON *l = cJSON_GetArrayItem(lines, i);
        if (cJSON_GetObjectItem(l, "line")->valueint == 12) {
            found = 1;
            ck_assert_ptr_nonnull(
                strstr(cJSON_GetObjectItem(l, "file")->valuestring, "metrics.cu"));
        }
    }
    ck_assert_int_eq(found, 1);
    cJSON_Delete(j);
    free(text);
    end(&R);
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------------ through the runtime */

/* Runs fixture NAME.COMPILER.ptx with a launch spec given as JSON text. */
static gl_status run_spec(const char *fixture, int ci, const char *json, const gl_run_opts *o,
                          gl_run_result *res, gl_spec *spec)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/%s.%s.ptx", fixture, fixture_compilers[ci]);
    size_t len;
    char *ptx = fixture_read(path, &len);
    ck_assert_ptr_nonnull(ptx);
    cJSON *j = cJSON_Parse(json);
    ck_assert_ptr_nonnull(j);
    gl_error err;
    memset(&err, 0, sizeof err);
    gl_status sst = spec_from_json(j, "test.json", "tests/kernels/check", NULL, spec, &err);
    ck_assert_msg(sst == GL_OK, "%s", err.msg);
    cJSON_Delete(j);
    gl_run_opts opts = *o;
    opts.backend = GL_BACKEND_SIM;
    gl_status st = gl_run_ptx(spec, ptx, &opts, res, &err);
    free(ptx);
    return st;
}

START_TEST(test_run_returns_metrics_trace_and_findings)
{
    const char *json =
        "{\"source\": \"metrics.cu\", \"kernel\": \"copy_strided\", \"grid\": [2,1,1], "
        "\"block\": [64,1,1], \"args\": ["
        "{\"name\": \"in\", \"type\": \"f32*\", \"len\": 4096, "
        "\"init\": {\"iota\": {\"start\": 0, \"step\": 1}}},"
        "{\"name\": \"out\", \"type\": \"f32*\", \"len\": 128}]}";
    gl_run_opts o;
    memset(&o, 0, sizeof o);
    o.metrics = 1;
    o.trace_level = TRACE_ISSUE;
    gl_run_result res;
    gl_spec spec;
    ck_assert_int_eq(run_spec("metrics", _i, json, &o, &res, &spec), GL_OK);
    ck_assert_ptr_nonnull(res.metrics);
    ck_assert_uint_eq(res.metrics->total.gld_sectors, 128);
    ck_assert_uint_eq(res.metrics->total.inst_executed, res.stats.warp_instructions);
    ck_assert_ptr_nonnull(res.trace);
    ck_assert_int_eq(res.trace->level, TRACE_MEMORY); /* metrics need memory events */
    ck_assert_int_eq(res.nfindings, 0);
    /* 2 blocks of 2 warps on the simulator's model (4 SMs of 64 warps): 32 blocks per
     * SM (the block limit), 2 of 4 SMs busy with 2 of their 64 warp slots */
    ck_assert_int_eq(res.occupancy.valid, 1);
    ck_assert_int_eq(res.occupancy.warps_per_block, 2);
    ck_assert_int_eq(res.occupancy.blocks_per_sm, 32);
    ck_assert_str_eq(res.occupancy.limiter, "blocks");
    ck_assert_double_eq_tol(res.occupancy.achieved, 2.0 / 64, 1e-12);
    gl_run_result_free_trace(&res);
    gl_run_result_free(&res);
    spec_free(&spec);
}
END_TEST

/* The CUDA Occupancy Calculator's arithmetic on an A100-like device (108 SMs, 2048
 * threads, 32 blocks, 164 KiB of shared memory and 65536 registers per SM), and the
 * wave estimate of achieved occupancy, and the line that describes it (gl_run_occupancy_describe). */
/* gl_run_opts.trace_sink of the test below: lane-level global loads. */
static void count_global_load_lanes(void *ctx, const trace_t *t, const trace_event *ev,
                                    const uint64_t *addrs)
{
    (void)t;
    (void)addrs;
    if (ev->kind == TRACE_EV_MEM && ev->space == TRACE_SPACE_GLOBAL && ev->op == TRACE_LOAD)
        *(uint64_t *)ctx += (uint64_t)__builtin_popcount(ev->mask);
}

/* The grader's way in: its own module, initial buffers and a second trace sink beside
 * the metrics. */
START_TEST(test_run_sim_starts_from_the_callers_buffers_and_feeds_its_sink)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/metrics.%s.ptx", fixture_compilers[_i]);
    size_t len;
    char *ptx = fixture_read(path, &len);
    ck_assert_ptr_nonnull(ptx);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_int_eq(ptx_parse(ptx, len, "metrics.ptx", &m, &diag), SIM_OK);
    free(diag);
    cJSON *j =
        cJSON_Parse("{\"source\": \"metrics.cu\", \"kernel\": \"copy_strided\", \"grid\": [2,1,1], "
                    "\"block\": [64,1,1], \"args\": [{\"name\": \"in\", \"type\": \"f32*\", "
                    "\"len\": 4096}, {\"name\": \"out\", \"type\": \"f32*\", \"len\": 128}]}");
    gl_spec spec;
    gl_error err = {0};
    ck_assert_msg(spec_from_json(j, "test.json", "tests/kernels/check", NULL, &spec, &err) == GL_OK,
                  "%s", err.msg);
    cJSON_Delete(j);
    gl_run_result res = {0};
    ck_assert_int_eq(spec_buffers_new(&spec, &res.buffers, &err), GL_OK);
    res.nargs = spec.nargs;
    ((float *)res.buffers[0].data)[32] = 42.0f; /* out[1] = in[32] */
    uint64_t lanes = 0;
    gl_run_opts o = {.metrics = 1, .trace_sink = count_global_load_lanes, .trace_sink_ctx = &lanes};
    ck_assert_msg(gl_run_sim(&spec, m, gl_run_resolve_kernel(m, "copy_strided"), &o, &res, &err) ==
                      GL_OK,
                  "%s", err.msg);
    ck_assert(((float *)res.buffers[1].data)[1] == 42.0f);
    ck_assert(((float *)res.buffers[1].data)[2] == 0.0f);
    ck_assert_uint_eq(lanes, 128);
    ck_assert_ptr_nonnull(res.metrics);
    ck_assert_uint_eq(res.metrics->total.gld_sectors, 128);
    ck_assert_ptr_null(res.trace); /* metrics only: no stored trace */
    ck_assert_ptr_nonnull(res.dptr);
    gl_run_result_free(&res);
    spec_free(&spec);
    ptx_module_free(m);
    free(ptx);
}
END_TEST

/* Buffers generated in simulated memory (spec_buffers_sized: no host copy before the
 * launch) and buffers copied in from the host (spec_buffers_new) give the same bytes and
 * findings: copy_strided reads in[32 i] (in: iota 0.5, 1.5, ...) into out[i]; out's
 * last 64 floats are never written and stay zeros. */
START_TEST(test_run_sim_generated_buffers_equal_copied_ones)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/metrics.%s.ptx", fixture_compilers[_i]);
    size_t len;
    char *ptx = fixture_read(path, &len);
    ck_assert_ptr_nonnull(ptx);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_int_eq(ptx_parse(ptx, len, "metrics.ptx", &m, &diag), SIM_OK);
    free(diag);
    cJSON *j = cJSON_Parse("{\"source\": \"metrics.cu\", \"kernel\": \"copy_strided\", "
                           "\"grid\": [2,1,1], \"block\": [64,1,1], \"args\": [{\"name\": "
                           "\"in\", \"type\": \"f32*\", \"len\": 4096, \"init\": {\"iota\": "
                           "{\"start\": 0.5, \"step\": 1}}}, {\"name\": \"out\", \"type\": "
                           "\"f32*\", \"len\": 192}]}");
    gl_spec spec;
    gl_error err = {0};
    ck_assert_msg(spec_from_json(j, "test.json", "tests/kernels/check", NULL, &spec, &err) == GL_OK,
                  "%s", err.msg);
    cJSON_Delete(j);
    gl_run_result gen = {0}, copied = {0};
    ck_assert_int_eq(spec_buffers_sized(&spec, &gen.buffers, &err), GL_OK);
    ck_assert_int_eq(spec_buffers_new(&spec, &copied.buffers, &err), GL_OK);
    gen.nargs = copied.nargs = spec.nargs;
    const char *kernel = gl_run_resolve_kernel(m, "copy_strided");
    ck_assert_msg(gl_run_sim(&spec, m, kernel, NULL, &gen, &err) == GL_OK, "%s", err.msg);
    ck_assert_msg(gl_run_sim(&spec, m, kernel, NULL, &copied, &err) == GL_OK, "%s", err.msg);
    for (int k = 0; k < 2; k++) {
        ck_assert_ptr_nonnull(gen.buffers[k].data);
        ck_assert_uint_eq(gen.buffers[k].bytes, copied.buffers[k].bytes);
        ck_assert(memcmp(gen.buffers[k].data, copied.buffers[k].data, gen.buffers[k].bytes) == 0);
    }
    const float *in = gen.buffers[0].data, *out = gen.buffers[1].data;
    ck_assert(in[0] == 0.5f && in[4095] == 4095.5f);
    for (int i = 0; i < 192; i++)
        ck_assert(out[i] == (i < 128 ? (float)(32 * i) + 0.5f : 0.0f));
    ck_assert_int_eq(gen.nfindings, 0);
    ck_assert_int_eq(copied.nfindings, 0);
    gl_run_result_free(&gen);
    gl_run_result_free(&copied);
    spec_free(&spec);
    ptx_module_free(m);
    free(ptx);
}
END_TEST

/* A block's shared memory is taken with the driver's reserve, in allocation units (the
 * Toolkit's cuda_occupancy.h): lesson 18's starter (256 threads, (8192 + 8) floats = 32800
 * bytes) holds 6 blocks per sm_90 SM (32800 + 1024 rounded to 128 = 33920; 228 KiB / 33920
 * = 6), 75 %, as cuOccupancyMaxActiveBlocksPerMultiprocessor gives on an H200 (before:
 * 7 blocks, 88 %); on sm_75 (no reserve, 256-byte units) 64 KiB / 33024 = 1 block. */
START_TEST(test_occupancy_counts_the_drivers_shared_memory_reserve)
{
    gl_device_info d;
    gl_arch_device_info(sim_device_find("sm_90"), &d);
    gl_occupancy o;
    gl_run_occupancy_of(&d, (unsigned[3]){8, 1, 1}, (unsigned[3]){256, 1, 1}, 32800, 24, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 6);
    ck_assert_str_eq(o.limiter, "shared memory");
    ck_assert_double_eq_tol(o.theoretical, 0.75, 1e-12);
    /* 7 blocks fit exactly when each takes 228 KiB / 7 rounded down to 128 bytes */
    gl_run_occupancy_of(&d, (unsigned[3]){8, 1, 1}, (unsigned[3]){256, 1, 1},
                        228 * 1024 / 7 / 128 * 128 - 1024, 24, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 7);
    gl_arch_device_info(sim_device_find("sm_75"), &d);
    gl_run_occupancy_of(&d, (unsigned[3]){8, 1, 1}, (unsigned[3]){256, 1, 1}, 32800, 24, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 1);
    gl_run_occupancy_of(&d, (unsigned[3]){8, 1, 1}, (unsigned[3]){256, 1, 1}, 32768, 24, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 2);
}
END_TEST

START_TEST(test_occupancy_follows_the_limits_and_the_waves)
{
    const gl_device_info d = {.warp_size = 32,
                              .sm_count = 108,
                              .max_threads_per_sm = 2048,
                              .max_blocks_per_sm = 32,
                              .shared_bytes_per_sm = 164 * 1024,
                              .regs_per_sm = 65536};
    gl_occupancy o;
    /* 4 blocks of 256 threads: 8 per SM (threads), but only 4 SMs busy, 8 of 64 warps each */
    gl_run_occupancy_of(&d, (unsigned[3]){4, 1, 1}, (unsigned[3]){256, 1, 1}, 0, 0, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 8);
    ck_assert_str_eq(o.limiter, "threads");
    ck_assert_double_eq_tol(o.theoretical, 1.0, 1e-12);
    ck_assert_double_eq_tol(o.achieved, 0.125, 1e-12);
    ck_assert_int_eq(o.sms_used, 4);
    ck_assert_uint_eq(o.waves, 1);
    /* the achieved figure is of the 4 busy SMs: the idle ones are said apart */
    char line[400];
    gl_run_occupancy_describe(&o, 0, line, sizeof line);
    ck_assert_str_eq(line, "occupancy: 100% theoretical (limit: threads), about 12% achieved on "
                           "the 4 SMs with work: 104 of 108 SMs idle");
    /* 48 KiB of shared memory per block of 4 warps: 3 per SM; two full waves */
    gl_run_occupancy_of(&d, (unsigned[3]){648, 1, 1}, (unsigned[3]){128, 1, 1}, 48 * 1024, -1, 0,
                        &o);
    ck_assert_int_eq(o.blocks_per_sm, 3);
    ck_assert_str_eq(o.limiter, "shared memory");
    ck_assert_double_eq_tol(o.theoretical, 12.0 / 64, 1e-12);
    ck_assert_double_eq_tol(o.achieved, 12.0 / 64, 1e-12);
    ck_assert_uint_eq(o.waves, 2);
    gl_run_occupancy_describe(&o, 1, line, sizeof line);
    ck_assert_str_eq(line, "occupancy (modelled, registers unknown): at most 19% theoretical "
                           "(limit: shared memory), about 19% achieved: 648 blocks in 2 waves on "
                           "108 SMs; registers: not counted");
    /* 64 registers per thread: 2048 per warp, 32 warps per SM, 4 blocks of 8 warps */
    gl_run_occupancy_of(&d, (unsigned[3]){1, 1, 1}, (unsigned[3]){256, 1, 1}, 0, 64, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 4);
    ck_assert_str_eq(o.limiter, "registers");
    ck_assert_double_eq_tol(o.theoretical, 0.5, 1e-12);
    /* a last wave of one block: 217 blocks of 32 warps, 2 per SM = 216 per wave */
    gl_run_occupancy_of(&d, (unsigned[3]){217, 1, 1}, (unsigned[3]){1024, 1, 1}, 0, 0, 0, &o);
    ck_assert_uint_eq(o.waves, 2);
    ck_assert_double_eq_tol(o.achieved, 217.0 * 32 / (109.0 * 64), 1e-12);
    gl_run_occupancy_describe(&o, 0, line, sizeof line);
    ck_assert_str_eq(line, "occupancy: 100% theoretical (limit: threads), about 100% achieved: "
                           "217 blocks in 2 waves on 108 SMs, the last on 1");
    /* one block: one SM with work */
    gl_run_occupancy_of(&d, (unsigned[3]){1, 1, 1}, (unsigned[3]){256, 1, 1}, 0, 64, 0, &o);
    gl_run_occupancy_describe(&o, 0, line, sizeof line);
    ck_assert_str_eq(line, "occupancy: 50% theoretical (limit: registers), about 12% achieved on "
                           "the 1 SM with work: 107 of 108 SMs idle; 64 registers per thread");
    /* a partial warp counts as a warp; the driver's figure wins */
    gl_run_occupancy_of(&d, (unsigned[3]){1, 1, 1}, (unsigned[3]){48, 1, 1}, 0, 255, 1, &o);
    ck_assert_int_eq(o.warps_per_block, 2);
    ck_assert_int_eq(o.blocks_per_sm, 1);
    ck_assert_str_eq(o.limiter, "registers");
    ck_assert_double_eq_tol(o.theoretical, 2.0 / 64, 1e-12);
}
END_TEST

/* gl_run_sim's conversion of the simulator's fault (runtime/result.h): tests/cli/oob.cu
 * compiled from CUDA C, 4 blocks of 256 threads filling 1000 ints: thread 232 of block 3
 * (element 1000) stores first past the end, at source line 6. */
START_TEST(test_run_converts_an_out_of_bounds_fault_with_file_line_block_thread_warp_lane)
{
    gl_spec spec;
    gl_error err;
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(spec_load_file("tests/cli/oob.json", &spec, &err), GL_OK);
    gl_run_opts o;
    memset(&o, 0, sizeof o);
    o.backend = GL_BACKEND_SIM;
    gl_run_result res;
    ck_assert_int_eq(gl_run_spec(&spec, &o, &res, &err), GL_ERR_FAULT);
    const gl_fault *f = &res.fault;
    ck_assert_int_eq(f->kind, GL_FAULT_OUT_OF_BOUNDS);
    ck_assert_int_eq(f->space, GL_SPACE_GLOBAL);
    ck_assert_int_eq(f->is_store, 1);
    ck_assert_uint_eq(f->size, 4);
    ck_assert_str_eq(f->src_file, "tests/cli/oob.cu");
    ck_assert_int_eq(f->src_line, 6);
    ck_assert_uint_eq(f->block[0], 3);
    ck_assert_uint_eq(f->block[1], 0);
    ck_assert_uint_eq(f->block[2], 0);
    ck_assert_uint_eq(f->thread[0], 232);
    ck_assert_uint_eq(f->thread[1], 0);
    ck_assert_uint_eq(f->thread[2], 0);
    ck_assert_int_eq(f->warp, 7);
    ck_assert_int_eq(f->lane, 8);
    ck_assert_uint_eq(f->address, res.dptr[0] + 4000);
    ck_assert_msg(strstr(f->message, "0 bytes past the end of 'out' (4000 bytes)"), "%s",
                  f->message);
    ck_assert_str_eq(f->alloc_name, "out");
    ck_assert_uint_eq(f->alloc_bytes, 4000);
    ck_assert_uint_eq(f->alloc_distance, 0);
    ck_assert_int_eq(f->alloc_after, 1);
    ck_assert_msg(strstr(err.msg, "oob.cu:6: block (3,0,0) thread (232,0,0): out-of-bounds"), "%s",
                  err.msg);
    gl_run_result_free_trace(&res);
    gl_run_result_free(&res);
    spec_free(&spec);
}
END_TEST

/* The allocation an out-of-bounds fault names comes from the simulator's fields: a kernel
 * (CUDA C, compiled here) whose thread 0 stores to out[-2], 8 bytes before the start of
 * the 128 bytes of 'out'. */
START_TEST(test_run_names_the_allocation_a_store_lies_before)
{
    char dir[] = "/tmp/gl-oob-XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/before.cu", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("extern \"C\" __global__ void shift(int *out)\n"
          "{\n"
          "    int i = threadIdx.x;\n"
          "    out[i - 2] = i;\n"
          "}\n",
          f);
    fclose(f);
    cJSON *j = cJSON_Parse("{\"source\": \"before.cu\", \"kernel\": \"shift\", \"grid\": [1], "
                           "\"block\": [32], \"args\": [{\"name\": \"out\", \"type\": \"i32*\", "
                           "\"len\": 32}]}");
    gl_spec spec;
    gl_error err;
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(spec_from_json(j, "before.json", dir, NULL, &spec, &err), GL_OK);
    cJSON_Delete(j);
    gl_run_opts o;
    memset(&o, 0, sizeof o);
    o.backend = GL_BACKEND_SIM;
    gl_run_result res;
    ck_assert_int_eq(gl_run_spec(&spec, &o, &res, &err), GL_ERR_FAULT);
    const gl_fault *ft = &res.fault;
    ck_assert_int_eq(ft->kind, GL_FAULT_OUT_OF_BOUNDS);
    ck_assert_uint_eq(ft->thread[0], 0);
    ck_assert_int_eq(ft->src_line, 4);
    ck_assert_uint_eq(ft->address, res.dptr[0] - 8);
    ck_assert_str_eq(ft->alloc_name, "out");
    ck_assert_uint_eq(ft->alloc_bytes, 128);
    ck_assert_uint_eq(ft->alloc_distance, 8);
    ck_assert_int_eq(ft->alloc_after, 0);
    ck_assert_msg(strstr(ft->message, "8 bytes before the start of 'out' (128 bytes)"), "%s",
                  ft->message);
    gl_run_result_free_trace(&res);
    gl_run_result_free(&res);
    spec_free(&spec);
    remove(path);
    rmdir(dir);
}
END_TEST

START_TEST(test_run_reports_a_race_and_an_unwritten_buffer_as_findings)
{
    const char *json =
        "{\"source\": \"races.cu\", \"kernel\": \"reverse_racy\", \"grid\": [1,1,1], "
        "\"block\": [256,1,1], \"args\": ["
        "{\"name\": \"in\", \"type\": \"i32*\", \"len\": 256},"
        "{\"name\": \"out\", \"type\": \"i32*\", \"len\": 256}]}";
    gl_run_opts o;
    memset(&o, 0, sizeof o);
    o.uninit_zero_buffers = 1;
    gl_run_result res;
    gl_spec spec;
    ck_assert_int_eq(run_spec("races", _i, json, &o, &res, &spec), GL_OK);
    ck_assert_ptr_null(res.trace);
    ck_assert_ptr_null(res.metrics);
    ck_assert_int_gt(res.nerrors, 0);
    ck_assert_int_gt(res.nwarnings, 0);
    int race = 0, uninit = 0;
    for (int i = 0; i < res.nfindings; i++) {
        race |= res.findings[i].kind == GL_FIND_RACE;
        uninit |= res.findings[i].kind == GL_FIND_UNINIT_READ;
        /* the file name (the fixture's .file, a path ending in races.cu) is copied out of
         * the module, which the run has freed */
        const char *file = res.findings[i].access.src_file;
        const size_t n = strlen(file);
        ck_assert_msg(n >= 9 && strcmp(file + n - 9, "/races.cu") == 0, "%s", file);
    }
    ck_assert_int_eq(race, 1);
    ck_assert_int_eq(uninit, 1);
    gl_run_result_free_trace(&res);
    gl_run_result_free(&res);
    spec_free(&spec);
}
END_TEST

/* trace/perfetto.h's Chrome JSON of a simulator trace: scan32 (tests/kernels/check/
 * metrics.cu) is one warp: one barrier at line 71, then five rounds with a barrier at
 * line 76 and one at 78, each a wait slice; the running slices between them hold the
 * addition of line 75. */
START_TEST(test_perfetto_trace_has_running_slices_and_a_wait_per_barrier)
{
    ptx_module_t *m = load(_i);
    float in[32];
    for (int i = 0; i < 32; i++)
        in[i] = 1.0f;
    run R;
    begin(&R);
    uint64_t din = buf(&R, in, sizeof in, "in"), dout = buf(&R, NULL, sizeof in, "out");
    void *params[] = {&din, &dout};
    launch(&R, m, "scan32", 1, 32, params);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(gl_perfetto_write(f, R.tr, NULL), GL_PERFETTO_OK);
    fclose(f);
    cJSON *j = cJSON_Parse(text);
    ck_assert_msg(j != NULL, "invalid JSON:\n%s", text);
    cJSON *evs = cJSON_GetObjectItem(j, "traceEvents");
    int with75 = 0, waits71 = 0, waits76 = 0, waits78 = 0, waits = 0;
    for (int i = 0; i < cJSON_GetArraySize(evs); i++) {
        cJSON *e = cJSON_GetArrayItem(evs, i);
        const char *ph = cJSON_GetObjectItem(e, "ph")->valuestring;
        const char *name = cJSON_GetObjectItem(e, "name")->valuestring;
        if (strcmp(ph, "X") != 0)
            continue;
        cJSON *lines = cJSON_GetObjectItem(cJSON_GetObjectItem(e, "args"), "lines");
        int lo = 0, hi = 0;
        if (strcmp(name, "running") == 0 && lines &&
            sscanf(lines->valuestring, "%d-%d", &lo, &hi) == 2)
            with75 += lo <= 75 && 75 <= hi;
        if (strncmp(name, "bar.sync wait", 13) == 0)
            waits++;
        waits71 += strcmp(name, "bar.sync wait, line 71") == 0;
        waits76 += strcmp(name, "bar.sync wait, line 76") == 0;
        waits78 += strcmp(name, "bar.sync wait, line 78") == 0;
    }
    ck_assert_int_ge(with75, 5); /* one per round at least (a slice gives its lowest and
                                    highest line) */
    ck_assert_int_eq(waits71, 1);
    ck_assert_int_eq(waits78, 5);
    ck_assert_int_ge(waits76, 5); /* clang's fixture: 10 (two wait slices per round) */
    ck_assert_int_eq(waits, waits71 + waits76 + waits78);
    cJSON_Delete(j);
    free(text);
    end(&R);
    ptx_module_free(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("analysis");
    TCase *tc = tcase_create("metrics");
    tcase_add_loop_test(tc, test_coalesced_f32_loads_take_4_sectors_per_request_strided_take_32, 0,
                        2);
    tcase_add_loop_test(tc, test_stride_2_shared_access_is_a_2_way_bank_conflict, 0, 2);
    tcase_add_loop_test(tc, test_column_reads_conflict_32_ways_and_padding_removes_it, 0, 2);
    tcase_add_loop_test(tc, test_divergent_if_else_halves_warp_execution_efficiency, 0, 2);
    tcase_add_loop_test(tc, test_atomics_per_address_name_the_hot_counters, 0, 2);
    tcase_add_loop_test(tc, test_scan_counts_the_additions_it_performs, 0, 2);
    tcase_add_loop_test(tc, test_streamed_metrics_stay_exact_when_the_stored_trace_is_truncated, 0,
                        2);
    tcase_add_loop_test(tc, test_metrics_json_uses_nsight_names, 0, 2);
    tcase_add_loop_test(tc, test_cp_async_global_reads_are_counted_like_the_loads_they_replace, 0,
                        2);
    tcase_add_loop_test(tc, test_cp_async_shared_writes_conflict_and_zero_fill_reads_nothing, 0, 2);
    tcase_add_loop_test(tc, test_atom_and_red_are_counted_apart, 0, 2);
    tcase_add_loop_test(tc, test_additions_of_every_form_and_load_bytes_of_every_kind, 0, 2);
    tcase_add_loop_test(tc, test_pipeline_overlap_and_block_writes, 0, 2);
    tcase_add_loop_test(tc, test_ldmatrix_is_counted_as_ldsm, 0, 2);
    tcase_add_loop_test(tc, test_mma_flops_are_2mnk_per_warp_instruction_by_type, 0, 2);
    tcase_add_loop_test(tc, test_saxpy_does_2_fp32_flops_per_element, 0, 2);
    tcase_add_test(tc, test_cp_async_bulk_copies_count_every_byte);
    tcase_add_loop_test(tc, test_perfetto_trace_has_running_slices_and_a_wait_per_barrier, 0, 2);
    tcase_add_test(tc, test_occupancy_follows_the_limits_and_the_waves);
    tcase_add_test(tc, test_occupancy_counts_the_drivers_shared_memory_reserve);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("runtime");
    tcase_add_loop_test(tr, test_run_returns_metrics_trace_and_findings, 0, 2);
    tcase_add_loop_test(tr, test_run_reports_a_race_and_an_unwritten_buffer_as_findings, 0, 2);
    tcase_add_test(tr,
                   test_run_converts_an_out_of_bounds_fault_with_file_line_block_thread_warp_lane);
    tcase_add_test(tr, test_run_names_the_allocation_a_store_lies_before);
    tcase_add_loop_test(tr, test_run_sim_starts_from_the_callers_buffers_and_feeds_its_sink, 0, 2);
    tcase_add_loop_test(tr, test_run_sim_generated_buffers_equal_copied_ones, 0, 2);
    suite_add_tcase(s, tr);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
