/* test_sim.c — the SIMT simulator on real kernels (tests/kernels/sim/NAME.cu) compiled by
 * nvcc and by clang (tests/fixtures/ptx/NAME.{nvcc,clang}.ptx, made by
 * tools/gen_ptx_fixtures.sh). Expected values are computed here in C; floats are
 * compared bit for bit where the operation is correctly rounded. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "tests/fixture.h"

static void assert_f32_bits(float got, float want, int i)
{
    uint32_t g, w;
    memcpy(&g, &got, 4);
    memcpy(&w, &want, 4);
    ck_assert_msg(g == w, "element %d: got %a (0x%08x), want %a (0x%08x)", i, (double)got, g,
                  (double)want, w);
}

START_TEST(test_vec_add_computes_every_element_and_guards_the_tail)
{
    enum { N = 1000 };
    ptx_module_t *m = fixture_load("vec_add", _i);
    sim_t *s = sim_new(NULL);
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f + 0.1f;
        b[i] = 1000.0f - (float)i * 0.25f;
    }
    uint64_t da = fixture_upload(s, a, sizeof a, "a"), db = fixture_upload(s, b, sizeof b, "b");
    uint64_t dc = fixture_upload(s, NULL, sizeof c, "c");
    int n = N;
    void *params[] = {&da, &db, &dc, &n};
    unsigned grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    sim_result r;
    sim_status st = sim_launch(s, m, "vec_add", grid, block, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "launch: %s", r.fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, c, dc, sizeof c), SIM_OK);
    for (int i = 0; i < N; i++)
        assert_f32_bits(c[i], a[i] + b[i], i);
    ck_assert_uint_gt(r.stats.warp_instructions, 0);
    /* 1024 threads in 32 warps; the last 24 threads skip the store */
    ck_assert_uint_lt(r.stats.thread_instructions, r.stats.warp_instructions * 32);
    ck_assert_uint_gt(r.stats.thread_instructions, r.stats.warp_instructions * 30);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_saxpy_is_fused_multiply_add_bit_exact)
{
    enum { N = 300 };
    ptx_module_t *m = fixture_load("saxpy", _i);
    sim_t *s = sim_new(NULL);
    float x[N], y[N], want[N];
    float alpha = 1.7f;
    for (int i = 0; i < N; i++) {
        x[i] = 1.0f / (float)(i + 1);
        y[i] = (float)i * 0.3f - 7.0f;
        want[i] = fmaf(alpha, x[i], y[i]); /* both compilers contract to fma.rn.f32 */
    }
    uint64_t dx = fixture_upload(s, x, sizeof x, "x"), dy = fixture_upload(s, y, sizeof y, "y");
    int n = N;
    void *params[] = {&n, &alpha, &dx, &dy};
    unsigned grid[3] = {3, 1, 1}, block[3] = {128, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "saxpy", grid, block, 0, params, &r), SIM_OK);
    ck_assert_int_eq(sim_memcpy_dtoh(s, y, dy, sizeof y), SIM_OK);
    for (int i = 0; i < N; i++)
        assert_f32_bits(y[i], want[i], i);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_mat_add_2d_indexing_guards_rows_and_columns)
{
    enum { ROWS = 37, COLS = 50 };
    ptx_module_t *m = fixture_load("mat_add", _i);
    sim_t *s = sim_new(NULL);
    static int A[ROWS * COLS], B[ROWS * COLS], C[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; i++) {
        A[i] = i * 7 - 3000;
        B[i] = (i % 13) - 6;
    }
    uint64_t dA = fixture_upload(s, A, sizeof A, "A"), dB = fixture_upload(s, B, sizeof B, "B");
    uint64_t dC = fixture_upload(s, NULL, sizeof C, "C");
    int rows = ROWS, cols = COLS;
    void *params[] = {&dA, &dB, &dC, &rows, &cols};
    unsigned block[3] = {16, 16, 1}, grid[3] = {(COLS + 15) / 16, (ROWS + 15) / 16, 1};
    sim_result r;
    sim_status st = sim_launch(s, m, "mat_add", grid, block, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "launch: %s", r.fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, C, dC, sizeof C), SIM_OK);
    for (int row = 0; row < ROWS; row++)
        for (int col = 0; col < COLS; col++) {
            int i = row * COLS + col;
            ck_assert_int_eq(C[i], A[i] + B[i] * (row + 1));
        }
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_shared_memory_reduction_with_barriers_and_atomic_add)
{
    enum { N = 1000 };
    ptx_module_t *m = fixture_load("reduce", _i);
    sim_t *s = sim_new(NULL);
    int in[N], out = 5;
    long long want = 5;
    for (int i = 0; i < N; i++) {
        in[i] = (i * 37) % 101 - 50;
        want += in[i];
    }
    uint64_t din = fixture_upload(s, in, sizeof in, "in"),
             dout = fixture_upload(s, &out, sizeof out, "out");
    int n = N;
    void *params[] = {&din, &dout, &n};
    unsigned grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    sim_result r;
    sim_status st = sim_launch(s, m, "reduce_sum", grid, block, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "launch: %s", r.fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, &out, dout, sizeof out), SIM_OK);
    ck_assert_int_eq(out, want);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_printf_from_threads_in_issue_order)
{
    ptx_module_t *m = fixture_load("hello", _i);
    sim_t *s = sim_new(NULL);
    float scale = 0.5f;
    void *params[] = {&scale};
    unsigned grid[3] = {2, 1, 1}, block[3] = {4, 1, 1};
    sim_result r;
    sim_status st = sim_launch(s, m, "hello", grid, block, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "launch: %s", r.fault.message);
    char want[1024] = "";
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 4; t++) {
            int i = b * 4 + t;
            char line[128];
            snprintf(line, sizeof line, "block %d thread %d: i=%3d x=%.2f hex=%#x %s\n", b, t, i,
                     (double)((float)i * scale), i * 255, i % 2 ? "odd" : "even");
            strcat(want, line);
        }
    ck_assert_ptr_nonnull(r.printf_out);
    ck_assert_str_eq(r.printf_out, want);
    ck_assert_uint_eq(r.printf_len, strlen(want));
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_device_function_call_passes_params_and_return_value)
{
    enum { N = 70 };
    ptx_module_t *m = fixture_load("devfunc", _i);
    sim_t *s = sim_new(NULL);
    int x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = i - 20;
    uint64_t dx = fixture_upload(s, x, sizeof x, "x"), dy = fixture_upload(s, NULL, sizeof y, "y");
    int n = N;
    void *params[] = {&dx, &dy, &n};
    unsigned grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
    sim_result r;
    sim_status st = sim_launch(s, m, "apply_poly", grid, block, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "launch: %s", r.fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, y, dy, sizeof y), SIM_OK);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(y[i], x[i] * x[i] + 3 * i - 7);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_divergent_if_else_runs_both_sides_and_reconverges)
{
    enum { N = 100 };
    ptx_module_t *m = fixture_load("diverge", _i);
    sim_t *s = sim_new(NULL);
    int out[N + 28];
    uint64_t dout = fixture_upload(s, NULL, sizeof out, "out");
    int n = N;
    void *params[] = {&dout, &n};
    unsigned grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
    sim_result r;
    sim_status st = sim_launch(s, m, "diverge", grid, block, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "launch: %s", r.fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    for (int i = 0; i < N + 28; i++) {
        int v = 0;
        if (i < N) {
            if (i % 2 == 0) {
                v = i * 3;
                for (int k = 0; k < (i & 3); ++k)
                    v += k;
            } else {
                v = -i;
            }
        }
        ck_assert_int_eq(out[i], v);
    }
    /* divergence: fewer active lanes than 32 per issued instruction on average */
    ck_assert_uint_lt(r.stats.thread_instructions * 10, r.stats.warp_instructions * 32 * 9);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_out_of_bounds_store_reports_block_thread_line_and_allocation)
{
    ptx_module_t *m = fixture_load("oob", _i);
    sim_t *s = sim_new(NULL);
    uint64_t dc = fixture_upload(s, NULL, 100 * sizeof(float), "c");
    int n = 100;
    void *params[] = {&dc, &n};
    unsigned grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "oob_write", grid, block, 0, params, &r), SIM_ERR_FAULT);
    const sim_fault *f = &r.fault;
    ck_assert_int_eq(f->kind, SIM_FAULT_OUT_OF_BOUNDS);
    ck_assert_int_eq(f->space, SIM_SPACE_GLOBAL);
    ck_assert_int_eq(f->is_store, 1);
    ck_assert_uint_eq(f->size, 4);
    ck_assert_uint_eq(f->address, dc + 400);
    ck_assert_uint_eq(f->block[0], 0);
    ck_assert_uint_eq(f->thread[0], 100);
    ck_assert_int_eq(f->src_line, 5);
    ck_assert_ptr_nonnull(f->src_file);
    ck_assert_ptr_nonnull(strstr(f->src_file, "oob.cu"));
    ck_assert_int_gt(f->ptx_line, 0);
    ck_assert_msg(strstr(f->message, "0 bytes past the end of 'c' (400 bytes)") != NULL, "%s",
                  f->message);
    /* memory stays as the kernel left it: lanes before the fault stored */
    float c[100];
    ck_assert_int_eq(sim_memcpy_dtoh(s, c, dc, sizeof c), SIM_OK);
    ck_assert(c[0] == 100.0f && c[99] == 100.0f);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_strict_bar_sync_in_divergent_branch_reports_deadlock)
{
    ptx_module_t *m = fixture_load("deadlock", _i);
    sim_config cfg = {.barrier_strict = 1};
    sim_t *s = sim_new(&cfg);
    uint64_t dout = fixture_upload(s, NULL, 64 * sizeof(int), "out");
    void *params[] = {&dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "bar_divergent", grid, block, 0, params, &r), SIM_ERR_FAULT);
    ck_assert_int_eq(r.fault.kind, SIM_FAULT_DEADLOCK);
    ck_assert_int_eq(r.fault.src_line, 7);
    ck_assert_uint_lt(r.fault.thread[0], 32);
    ck_assert_msg(strstr(r.fault.message, "32 thread(s) wait at deadlock.cu:7") != NULL, "%s",
                  r.fault.message);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_bar_sync_in_divergent_branch_releases_when_the_rest_exited_like_volta)
{
    ptx_module_t *m = fixture_load("deadlock", _i);
    sim_t *s = sim_new(NULL);
    int out[64];
    uint64_t dout = fixture_upload(s, NULL, sizeof out, "out");
    void *params[] = {&dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    sim_result r;
    sim_status st = sim_launch(s, m, "bar_divergent", grid, block, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "%s", r.fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    for (int t = 0; t < 64; t++)
        ck_assert_int_eq(out[t], t < 32 ? t + 1 : 1);
    /* legal PTX, but __syncthreads() that the exited half skipped: a synccheck warning */
    const sim_finding *f = NULL;
    for (int i = 0; i < r.nfindings; i++)
        if (r.findings[i].kind == SIM_FIND_EXITED_BARRIER)
            f = &r.findings[i];
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->is_error, 0);
    ck_assert_int_eq(f->access.src_line, 7);
    ck_assert_msg(strstr(f->message, "32 thread(s) wait at deadlock.cu:7") &&
                      strstr(f->message, "32 thread(s) of the block had exited"),
                  "%s", f->message);
    ck_assert_int_eq(r.nerrors, 0);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_endless_loop_hits_step_limit_naming_the_loop_line)
{
    ptx_module_t *m = fixture_load("endless", _i);
    sim_config cfg = {.step_limit = 20000};
    sim_t *s = sim_new(&cfg);
    uint64_t dflag = fixture_upload(s, NULL, 4, "flag"),
             dout = fixture_upload(s, NULL, 32 * 4, "out");
    void *params[] = {&dflag, &dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "spin", grid, block, 0, params, &r), SIM_ERR_FAULT);
    ck_assert_int_eq(r.fault.kind, SIM_FAULT_STEP_LIMIT);
    ck_assert_int_eq(r.fault.src_line, 5);
    ck_assert_msg(strstr(r.fault.message, "endless.cu:5") != NULL, "%s", r.fault.message);
    ck_assert_uint_eq(r.stats.warp_instructions, 20000);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_launch_rejects_blocks_over_1024_threads)
{
    ptx_module_t *m = fixture_load("vec_add", _i);
    sim_t *s = sim_new(NULL);
    uint64_t d = 0;
    int n = 0;
    void *params[] = {&d, &d, &d, &n};
    unsigned grid[3] = {1, 1, 1}, block[3] = {1025, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "vec_add", grid, block, 0, params, &r), SIM_ERR_LAUNCH);
    ck_assert_ptr_nonnull(strstr(r.fault.message, "1025"));
    ck_assert_int_eq(sim_launch(s, m, "nope", grid, block, 0, params, &r), SIM_ERR_NOT_FOUND);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_device_model_is_the_documented_one)
{
    /* the default profile: sm_90, an H100 SXM (CUDA C++ Programming Guide, "Compute
     * Capabilities", Technical Specifications, 9.0) */
    const sim_device_model *d = sim_device();
    ck_assert_str_eq(d->name, "sm_90");
    ck_assert_int_eq(d->compute_major * 10 + d->compute_minor, 90);
    ck_assert_int_eq(d->sm_count, 132);
    ck_assert_int_eq(d->warp_size, 32);
    ck_assert_int_eq(d->max_threads_per_block, 1024);
    ck_assert_uint_eq(d->shared_bytes_per_block, 48 * 1024);
    ck_assert_uint_eq(d->shared_bytes_per_block_optin, 227 * 1024);
    ck_assert_uint_eq(d->shared_bytes_per_sm, 228 * 1024);
    ck_assert_uint_eq(d->l2_bytes, 50u << 20);
    ck_assert_int_eq(d->sector_bytes, 32);
    ck_assert_int_eq(d->regs_per_sm, 65536);
    ck_assert_int_eq(d->regs_per_thread, 255);
    ck_assert_int_eq(d->max_threads_per_sm, 2048);
    ck_assert_int_eq(d->max_blocks_per_sm, 32);
    ck_assert_int_eq(d->max_warps_per_sm, 64);
}
END_TEST

START_TEST(test_device_profiles_are_found_by_every_spelling)
{
    static const char *const sm80[] = {"sm_80", "80", "8.0", "compute_80"};
    for (int i = 0; i < 4; i++) {
        const sim_device_model *d = sim_device_find(sm80[i]);
        ck_assert_msg(d != NULL, "%s", sm80[i]);
        ck_assert_str_eq(d->name, "sm_80");
        ck_assert_uint_eq(d->shared_bytes_per_block_optin, 163 * 1024);
    }
    static const char *const unknown[] = {"sm_70", "7.0", "sm_8", "800", "sm_80x", "", " 8.0"};
    for (int i = 0; i < 7; i++)
        ck_assert_msg(sim_device_find(unknown[i]) == NULL, "'%s' was found", unknown[i]);
    ck_assert_ptr_null(sim_device_find(NULL));
    /* Turing: 1024 threads, 16 blocks per SM; a block may opt in to all 64 KiB */
    const sim_device_model *t = sim_device_find("7.5");
    ck_assert_int_eq(t->max_threads_per_sm, 1024);
    ck_assert_int_eq(t->max_blocks_per_sm, 16);
    ck_assert_uint_eq(t->shared_bytes_per_block_optin, 64 * 1024);
    /* sm_86 and sm_89: 1536 threads per SM, 99 KiB opt-in */
    ck_assert_int_eq(sim_device_find("sm_86")->max_threads_per_sm, 1536);
    ck_assert_uint_eq(sim_device_find("sm_89")->shared_bytes_per_block_optin, 99 * 1024);
    ck_assert_int_eq(sim_device_find("sm_89")->max_blocks_per_sm, 24);
    ck_assert_int_eq(sim_device_count(), 5);
    ck_assert_str_eq(sim_device_at(0)->name, "sm_75");
    ck_assert_ptr_null(sim_device_at(5));
    char names[128];
    sim_device_names(names, sizeof names);
    ck_assert_str_eq(names, "sm_75, sm_80, sm_86, sm_89, sm_90");
}
END_TEST

/* ---- table-driven semantics: one row = one PTX instruction, inputs, expected bits.
 * The row's instruction reads %r1/%r2 (and %f1/%f2, the same bits as floats) and
 * writes %r3 or %f3; the harness stores both. PTX ISA chapter 9.7 gives each result. */
typedef struct op_row {
    const char *insn;
    uint32_t a, b;
    int out_float; /* 1: compare %f3's bits, 0: %r3 */
    uint32_t want;
} op_row;

static const op_row op_rows[] = {
    {"add.s32 %r3, %r1, %r2;", 0x7fffffff, 1, 0, 0x80000000},
    {"sub.u32 %r3, %r1, %r2;", 0, 1, 0, 0xffffffff},
    {"mul.lo.s32 %r3, %r1, %r2;", 0x10001, 0x10001, 0, 0x00020001},
    {"mul.hi.s32 %r3, %r1, %r2;", 0xfffffffe, 0x40000000, 0, 0xffffffff},
    {"mul.hi.u32 %r3, %r1, %r2;", 0xffffffff, 0xffffffff, 0, 0xfffffffe},
    {"mad.lo.s32 %r3, %r1, %r2, 7;", 3, 0xfffffffb, 0, 0xfffffff8},
    {"div.s32 %r3, %r1, %r2;", (uint32_t)-7, 2, 0, (uint32_t)-3},
    {"rem.s32 %r3, %r1, %r2;", (uint32_t)-7, 2, 0, (uint32_t)-1},
    {"div.u32 %r3, %r1, %r2;", 7, 0, 0, 0xffffffff},
    {"shr.s32 %r3, %r1, %r2;", 0x80000000, 31, 0, 0xffffffff},
    {"shr.u32 %r3, %r1, %r2;", 0x80000000, 31, 0, 1},
    {"shl.b32 %r3, %r1, %r2;", 1, 32, 0, 0},
    {"min.s32 %r3, %r1, %r2;", 0xffffffff, 1, 0, 0xffffffff},
    {"min.u32 %r3, %r1, %r2;", 0xffffffff, 1, 0, 1},
    {"max.s32 %r3, %r1, %r2;", 0xffffffff, 1, 0, 1},
    {"abs.s32 %r3, %r1;", (uint32_t)-5, 0, 0, 5},
    {"neg.s32 %r3, %r1;", 5, 0, 0, (uint32_t)-5},
    {"not.b32 %r3, %r1;", 0x0f0f0f0f, 0, 0, 0xf0f0f0f0},
    {"xor.b32 %r3, %r1, %r2;", 0xff00ff00, 0x0ff00ff0, 0, 0xf0f0f0f0},
    {"clz.b32 %r3, %r1;", 1, 0, 0, 31},
    {"popc.b32 %r3, %r1;", 0xff, 0, 0, 8},
    {"brev.b32 %r3, %r1;", 1, 0, 0, 0x80000000},
    {"bfe.u32 %r3, %r1, 4, 8;", 0xf0f0, 0, 0, 0x0f},
    {"bfe.s32 %r3, %r1, 4, 4;", 0x80, 0, 0, 0xfffffff8},
    {"setp.lt.s32 %p1, %r1, %r2; selp.u32 %r3, 1, 0, %p1;", 0xffffffff, 1, 0, 1},
    {"setp.lt.u32 %p1, %r1, %r2; selp.u32 %r3, 1, 0, %p1;", 0xffffffff, 1, 0, 0},
    {"setp.lt.f32 %p1, %f1, %f2; selp.u32 %r3, 1, 0, %p1;", 0x7fc00000, 0x3f800000, 0, 0},
    {"setp.ltu.f32 %p1, %f1, %f2; selp.u32 %r3, 1, 0, %p1;", 0x7fc00000, 0x3f800000, 0, 1},
    {"setp.nan.f32 %p1, %f1, %f2; selp.u32 %r3, 1, 0, %p1;", 0x7fc00000, 0x3f800000, 0, 1},
    {"setp.ne.f32 %p1, %f1, %f2; selp.u32 %r3, 1, 0, %p1;", 0x7fc00000, 0x3f800000, 0, 0},
    {"cvt.rzi.s32.f32 %r3, %f1;", 0xc02ccccd /* -2.7 */, 0, 0, (uint32_t)-2},
    {"cvt.rni.s32.f32 %r3, %f1;", 0x40200000 /* 2.5 */, 0, 0, 2},
    {"cvt.rmi.s32.f32 %r3, %f1;", 0xc0200000 /* -2.5 */, 0, 0, (uint32_t)-3},
    {"cvt.rpi.s32.f32 %r3, %f1;", 0x40200000, 0, 0, 3},
    {"cvt.rzi.s32.f32 %r3, %f1;", 0x501502f9 /* 1e10 */, 0, 0, 0x7fffffff},
    {"cvt.rzi.u32.f32 %r3, %f1;", 0xc0a00000 /* -5 */, 0, 0, 0},
    {"cvt.rzi.s32.f32 %r3, %f1;", 0x7fc00000 /* NaN */, 0, 0, 0},
    {"cvt.rn.f32.s32 %f3, %r1;", 16777217, 0, 1, 0x4b800000},
    {"cvt.rz.f32.u32 %f3, %r1;", 0xffffffff, 0, 1, 0x4f7fffff},
    {"cvt.rn.f32.u32 %f3, %r1;", 0xffffffff, 0, 1, 0x4f800000},
    {"cvt.sat.f32.f32 %f3, %f1;", 0x3fc00000 /* 1.5 */, 0, 1, 0x3f800000},
    {"cvt.s32.s8 %r3, %r1;", 0x180, 0, 0, 0xffffff80},
    {"cvt.u32.u16 %r3, %r1;", 0x12345678, 0, 0, 0x5678},
    {"add.rn.f32 %f3, %f1, %f2;", 0x3f800000, 0x33800000 /* 2^-24 */, 1, 0x3f800000},
    {"add.rp.f32 %f3, %f1, %f2;", 0x3f800000, 0x33800000, 1, 0x3f800001},
    {"sub.rm.f32 %f3, %f1, %f2;", 0x3f800000, 0x33000000, 1, 0x3f7fffff},
    {"div.rn.f32 %f3, %f1, %f2;", 0x3f800000, 0x40400000, 1, 0x3eaaaaab},
    {"sqrt.rn.f32 %f3, %f1;", 0x40000000, 0, 1, 0x3fb504f3},
    {"fma.rn.f32 %f3, %f1, %f2, %f1;", 0x3f800001, 0x3f800001, 1, 0x40000002},
    {"mul.rn.f32 %f3, %f1, %f2;", 0x3f800001, 0x3f800001, 1, 0x3f800002},
    {"min.f32 %f3, %f1, %f2;", 0x7fc00000, 0x3f800000, 1, 0x3f800000},
    {"abs.f32 %f3, %f1;", 0xbf800000, 0, 1, 0x3f800000},
    {"neg.f32 %f3, %f1;", 0x00000000, 0, 1, 0x80000000},
    {"add.ftz.f32 %f3, %f1, %f2;", 0x00000001, 0, 1, 0x00000000},
    {"mul.wide.s32 %rd3, %r1, %r2; cvt.u32.u64 %r3, %rd3;", 0xffffffff, 2, 0, 0xfffffffe},
    {"mul.wide.s32 %rd3, %r1, %r2; shr.u64 %rd3, %rd3, 32; cvt.u32.u64 %r3, %rd3;", 0xffffffff, 2,
     0, 0xffffffff},
    {"mov.b64 %rd3, {%r1, %r2}; shr.u64 %rd3, %rd3, 32; cvt.u32.u64 %r3, %rd3;", 1, 2, 0, 2},
    {"selp.b32 %r3, %r1, %r2, 0;", 1, 2, 0, 2},
};

static const char op_template[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_p)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<5>;\n.reg .f32 %f<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [k_p];\n"
    "ld.global.u32 %r1, [%rd1];\nld.global.u32 %r2, [%rd1+4];\n"
    "mov.b32 %f1, %r1;\nmov.b32 %f2, %r2;\nmov.u32 %r3, 0;\nmov.f32 %f3, 0f00000000;\n"
    "@@\n"
    "mov.b32 %r4, %f3;\nst.global.u32 [%rd1+8], %r3;\nst.global.u32 [%rd1+12], %r4;\n"
    "ret;\n}\n";

START_TEST(test_instruction_semantics_table)
{
    const op_row *row = &op_rows[_i];
    char text[2048];
    const char *at = strstr(op_template, "@@");
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - op_template), op_template, row->insn,
             at + 2);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, strlen(text), "row.ptx", &m, &diag);
    ck_assert_msg(st == SIM_OK, "%s: %s", row->insn, diag ? diag : "");
    sim_t *s = sim_new(NULL);
    uint32_t io[4] = {row->a, row->b, 0, 0};
    uint64_t d = fixture_upload(s, io, sizeof io, "io");
    void *params[] = {&d};
    unsigned one[3] = {1, 1, 1};
    sim_result r;
    st = sim_launch(s, m, "k", one, one, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "%s: %s", row->insn, r.fault.message);
    ck_assert_int_eq(sim_memcpy_dtoh(s, io, d, sizeof io), SIM_OK);
    uint32_t got = io[row->out_float ? 3 : 2];
    ck_assert_msg(got == row->want, "%s with a=0x%08x b=0x%08x: got 0x%08x, want 0x%08x", row->insn,
                  row->a, row->b, got, row->want);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

static Suite *sim_suite(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_vec_add_computes_every_element_and_guards_the_tail, 0, 2);
    tcase_add_loop_test(tc, test_saxpy_is_fused_multiply_add_bit_exact, 0, 2);
    tcase_add_loop_test(tc, test_mat_add_2d_indexing_guards_rows_and_columns, 0, 2);
    tcase_add_loop_test(tc, test_shared_memory_reduction_with_barriers_and_atomic_add, 0, 2);
    tcase_add_loop_test(tc, test_printf_from_threads_in_issue_order, 0, 2);
    tcase_add_loop_test(tc, test_device_function_call_passes_params_and_return_value, 0, 2);
    tcase_add_loop_test(tc, test_divergent_if_else_runs_both_sides_and_reconverges, 0, 2);
    tcase_add_loop_test(tc, test_out_of_bounds_store_reports_block_thread_line_and_allocation, 0,
                        2);
    tcase_add_loop_test(tc, test_strict_bar_sync_in_divergent_branch_reports_deadlock, 0, 2);
    tcase_add_loop_test(
        tc, test_bar_sync_in_divergent_branch_releases_when_the_rest_exited_like_volta, 0, 2);
    tcase_add_loop_test(tc, test_endless_loop_hits_step_limit_naming_the_loop_line, 0, 2);
    tcase_add_loop_test(tc, test_launch_rejects_blocks_over_1024_threads, 0, 2);
    tcase_add_test(tc, test_device_model_is_the_documented_one);
    tcase_add_test(tc, test_device_profiles_are_found_by_every_spelling);
    suite_add_tcase(s, tc);
    TCase *ops = tcase_create("semantics");
    tcase_add_loop_test(ops, test_instruction_semantics_table, 0,
                        (int)(sizeof op_rows / sizeof op_rows[0]));
    suite_add_tcase(s, ops);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sim_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
