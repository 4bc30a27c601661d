/* test_arch.c — the target of a compilation and a run (--arch, "arch"): every compiler
 * writes it into the PTX, the cache keeps targets apart, a feature the target lacks is
 * named with the first target that has it, and the simulator models the target's
 * limits (shared memory, occupancy). Kernels: tests/kernels/arch/. */
#include <check.h>
#include <math.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/arch.h"
#include "runtime/backend.h"
#include "runtime/lesson.h"
#include "sim/sim.h"

#define KDIR "tests/kernels/arch/"

static const gl_compiler compilers[] = {GL_CC_NVRTC, GL_CC_NVCC, GL_CC_CLANG};

/* Compiles path for arch with compiler c, uncached. 0 when c is not installed here. */
static int compile_for(gl_compiler c, const char *path, const char *arch, gl_compiled *out)
{
    gl_compile_opts o = {.compiler = c, .arch = arch, .no_cache = 1};
    gl_error err = {0};
    gl_status st = gl_compile_cuda(path, &o, out, &err);
    if (st == GL_ERR_TOOL) {
        fprintf(stderr, "skipped: %s is not available\n", gl_compiler_name(c));
        return 0;
    }
    ck_assert_msg(st == GL_OK, "%s for %s: %s", gl_compiler_name(c), arch, err.msg);
    return 1;
}

START_TEST(test_every_compiler_writes_the_chosen_target_into_the_ptx)
{
    gl_compiler c = compilers[_i];
    gl_compiled a, b;
    if (!compile_for(c, KDIR "dyn_shared.cu", "sm_75", &a))
        return;
    ck_assert_msg(strstr(a.ptx, "\n.target sm_75"), "%s: no .target sm_75", gl_compiler_name(c));
    ck_assert_int_eq(gl_arch_ptx_target_sm(a.ptx), 75);
    ck_assert_int_eq(compile_for(c, KDIR "dyn_shared.cu", "9.0", &b), 1);
    const int got = gl_arch_ptx_target_sm(b.ptx);
    if (c == GL_CC_CLANG && got != 90) {
        /* a clang that knows no sm_90 (clang 14: up to sm_86) compiles for the newest
         * target it knows, and says so */
        ck_assert_int_ge(got, 80);
        ck_assert_int_lt(got, 90);
        ck_assert_msg(b.log && strstr(b.log, "this clang knows GPU targets up to sm_"),
                      "no note: %s", b.log ? b.log : "(no log)");
    } else {
        ck_assert_msg(got == 90, "%s: .target sm_%d", gl_compiler_name(c), got);
    }
    gl_compiled_free(&a);
    gl_compiled_free(&b);
}
END_TEST

START_TEST(test_the_cache_keeps_targets_apart)
{
    char tmpl[] = "/tmp/gl-arch-cache-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    setenv("XDG_CACHE_HOME", tmpl, 1);
    unsetenv("GPULEARN_NO_CACHE");
    const char *arch[3] = {"sm_75", "sm_80", "sm_75"};
    const int want_cached[3] = {0, 0, 1}, want_sm[3] = {75, 80, 75};
    for (int i = 0; i < 3; i++) {
        gl_compile_opts o = {.arch = arch[i]};
        gl_compiled c;
        gl_error err = {0};
        ck_assert_msg(gl_compile_cuda(KDIR "dyn_shared.cu", &o, &c, &err) == GL_OK, "%s", err.msg);
        ck_assert_int_eq(c.cached, want_cached[i]);
        ck_assert_int_eq(gl_arch_ptx_target_sm(c.ptx), want_sm[i]);
        gl_compiled_free(&c);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpl);
    ck_assert_int_eq(system(cmd), 0);
    setenv("GPULEARN_NO_CACHE", "1", 1);
}
END_TEST

/* A launch spec of text (JSON) in tests/kernels/arch/. */
static void load_spec(const char *text, gl_spec *spec)
{
    cJSON *js = cJSON_Parse(text);
    ck_assert_ptr_nonnull(js);
    gl_error err = {0};
    gl_status st = spec_from_json(js, "t.json", KDIR, NULL, spec, &err);
    cJSON_Delete(js);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
}

static const char reduce_spec[] =
    "{\"source\": \"reduce.cu\", \"kernel\": \"warp_sum\", \"grid\": [1,1,1], "
    "\"block\": [32,1,1], \"arch\": \"sm_75\", "
    "\"args\": [{\"name\": \"out\", \"type\": \"u32*\", \"len\": 32}]}";

START_TEST(test_reduce_add_sync_on_sm_75_names_the_feature_and_sm_80)
{
    gl_spec spec;
    load_spec(reduce_spec, &spec);
    ck_assert_str_eq(spec.arch, "sm_75");
    gl_run_opts o = {.backend = GL_BACKEND_SIM, .compile = {.compiler = compilers[_i]}};
    gl_run_result res;
    gl_error err = {0};
    gl_status st = gl_run_spec(&spec, &o, &res, &err);
    if (st == GL_ERR_TOOL)
        goto out;
    ck_assert_int_eq(st, GL_ERR_COMPILE);
    ck_assert_msg(strstr(err.msg, "reduce.cu: __reduce_add_sync needs sm_80 or newer; this run "
                                  "targets sm_75 (\"arch\" of the launch)\n"),
                  "%s", err.msg);
    gl_run_result_free(&res);
    /* --arch comes before the spec's "arch", and says so */
    o.compile.arch = "sm_75";
    o.compile.arch_origin = "--arch";
    ck_assert_int_eq(gl_run_spec(&spec, &o, &res, &err), GL_ERR_COMPILE);
    ck_assert_msg(strstr(err.msg, "this run targets sm_75 (--arch)"), "%s", err.msg);
    gl_run_result_free(&res);
    o.compile.arch = "sm_80";
    st = gl_run_spec(&spec, &o, &res, &err);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    const unsigned *out = res.buffers[0].data;
    for (int i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], 496);
    gl_run_result_free(&res);
out:
    spec_free(&spec);
}
END_TEST

START_TEST(test_redux_sync_in_sm_75_ptx_is_named_before_it_runs)
{
    gl_spec spec;
    load_spec("{\"source\": \"redux_asm.cu\", \"kernel\": \"warp_sum\", \"grid\": [1,1,1], "
              "\"block\": [32,1,1], \"args\": [{\"name\": \"out\", \"type\": \"u32*\", "
              "\"len\": 32}]}",
              &spec);
    gl_run_opts o = {
        .backend = GL_BACKEND_SIM,
        .compile = {.compiler = compilers[_i], .arch = "7.5", .arch_origin = "--arch"}};
    gl_run_result res;
    gl_error err = {0};
    gl_status st = gl_run_spec(&spec, &o, &res, &err);
    if (st != GL_ERR_TOOL) {
        ck_assert_int_eq(st, GL_ERR_COMPILE);
        ck_assert_msg(strstr(err.msg, "redux_asm.cu:6: redux.sync (__reduce_*_sync) needs sm_80 "
                                      "or newer; this run targets sm_75 (--arch)"),
                      "%s", err.msg);
        gl_run_result_free(&res);
    }
    spec_free(&spec);
}
END_TEST

/* The feature check reads the parsed module's op facts (ptx_ops.def's first target of
 * each op and of its later forms, PTX ISA "Target ISA notes"), not the text: each row is
 * one instruction in a kernel for `target`, and the first target that has it. */
START_TEST(test_features_come_from_the_decoded_instructions)
{
    static const struct {
        const char *insn;
        int target;
        const char *feature; /* NULL: the target has it */
        int first_sm;
    } rows[] = {
        {"redux.sync.add.u32 %r2, %r1, -1;", 75, "redux.sync", 80},
        {"redux.sync.add.u32 %r2, %r1, -1;", 80, NULL, 0},
        {"mov.u32 %r1, %cluster_ctarank;", 80, "%cluster", 90},
        {"elect.sync %r1|%p1, -1;", 89, "elect.sync", 90},
        {"fence.proxy.async.shared::cta;", 80, "fence.proxy.async", 90},
        {"fence.acq_rel.gpu;", 75, NULL, 0},
        {"cp.async.ca.shared.global [%r1], [%rd1], 4;", 75, "cp.async", 80},
        {"mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r3}, "
         "{%f1,%f2,%f3,%f4};",
         75, "mma with .bf16", 80},
        {"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r3}, "
         "{%f1,%f2,%f3,%f4};",
         75, NULL, 0},
        {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
         "{%r1,%r2}, {%f1,%f2,%f3,%f4};",
         75, "mma.m16n8k16 with .f16", 80},
        {"add.rn.bf16 %h1, %h2, %h3;", 89, "add/sub/mul/setp/tanh/ex2 .bf16", 90},
        {"fma.rn.bf16 %h1, %h2, %h3, %h1;", 75, "fma/min/max/neg/abs .bf16", 80},
        {"mbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd1], %r1;", 80, "mbarrier.try_wait", 90},
        {"tanh.approx.f32 %f1, %f2;", 75, NULL, 0},
        {"// redux.sync.add.u32 %r2, %r1, -1; in a comment is no instruction\n", 75, NULL, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx,
                 ".version 8.3\n.target sm_%d\n.address_size 64\n"
                 ".visible .entry k(.param .u64 p)\n{\n"
                 "  .reg .pred %%p<2>;\n  .reg .b16 %%h<4>;\n  .reg .b32 %%r<5>;\n"
                 "  .reg .f32 %%f<5>;\n  .reg .b64 %%rd<2>;\n"
                 "  %s\n  ret;\n}\n",
                 rows[i].target, rows[i].insn);
        ptx_module_t *m = NULL;
        char *diag = NULL;
        ck_assert_msg(ptx_parse(ptx, strlen(ptx), "t.ptx", &m, &diag) == SIM_OK, "%s: %s",
                      rows[i].insn, diag ? diag : "");
        ck_assert_int_eq(ptx_module_target_sm(m), rows[i].target);
        gl_error err = {0};
        gl_status st = gl_arch_check_ptx_features(m, rows[i].target, "k.cu", "--arch", &err);
        if (!rows[i].feature) {
            ck_assert_msg(st == GL_OK, "%s: %s", rows[i].insn, err.msg);
        } else {
            char want[256];
            snprintf(want, sizeof want, "k.cu (PTX line 11): %s", rows[i].feature);
            ck_assert_int_eq(st, GL_ERR_COMPILE);
            ck_assert_msg(strstr(err.msg, want), "%s: %s", rows[i].insn, err.msg);
            snprintf(want, sizeof want, "needs sm_%d or newer; this run targets sm_%d (--arch)",
                     rows[i].first_sm, rows[i].target);
            ck_assert_msg(strstr(err.msg, want), "%s: %s", rows[i].insn, err.msg);
        }
        ptx_module_free(m);
    }
}
END_TEST

START_TEST(test_spec_arch_must_be_a_known_target)
{
    static const struct {
        const char *arch, *msg;
    } rows[] = {
        {"\"sm_70\"", "t.json: arch: 'sm_70' is not a known target (known: sm_75, sm_80, sm_86, "
                      "sm_89, sm_90)"},
        {"\"sm_100\"", "'sm_100' is not a known target"},
        {"80", "t.json: arch: must be a target such as \"sm_80\", not a number"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[400];
        snprintf(text, sizeof text,
                 "{\"source\": \"reduce.cu\", \"kernel\": \"warp_sum\", \"grid\": [1,1,1], "
                 "\"block\": [32,1,1], \"arch\": %s, \"args\": []}",
                 rows[i].arch);
        cJSON *js = cJSON_Parse(text);
        gl_spec spec;
        gl_error err = {0};
        ck_assert_int_eq(spec_from_json(js, "t.json", KDIR, NULL, &spec, &err), GL_ERR_INPUT);
        ck_assert_msg(strstr(err.msg, rows[i].msg), "%s: %s", rows[i].arch, err.msg);
        cJSON_Delete(js);
    }
    gl_spec spec;
    load_spec("{\"source\": \"reduce.cu\", \"kernel\": \"warp_sum\", \"grid\": [1,1,1], "
              "\"block\": [32,1,1], \"arch\": \"8.6\", \"args\": []}",
              &spec);
    ck_assert_str_eq(spec.arch, "sm_86");
    spec_free(&spec);
}
END_TEST

/* fill_shared with 100 KiB of dynamic shared memory (25600 words). */
static gl_status run_shared(const char *arch, unsigned block_dyn, unsigned grid, gl_run_result *res,
                            gl_error *err)
{
    char text[600];
    snprintf(text, sizeof text,
             "{\"source\": \"dyn_shared.cu\", \"kernel\": \"fill_shared\", \"grid\": [%u,1,1], "
             "\"block\": [128,1,1], \"dynamic_shared_bytes\": %u, \"arch\": \"%s\", "
             "\"args\": [{\"name\": \"out\", \"type\": \"u32*\", \"len\": %u}, "
             "{\"name\": \"n\", \"type\": \"i32\", \"value\": %u}]}",
             grid, block_dyn, arch, grid, block_dyn / 4);
    gl_spec spec;
    load_spec(text, &spec);
    gl_run_opts o = {.backend = GL_BACKEND_SIM};
    gl_status st = gl_run_spec(&spec, &o, res, err);
    spec_free(&spec);
    return st;
}

START_TEST(test_100_kib_of_dynamic_shared_fits_sm_90_not_sm_75)
{
    gl_run_result res;
    gl_error err = {0};
    gl_status st = run_shared("sm_90", 100 * 1024, 1, &res, &err);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    ck_assert_uint_eq(((const unsigned *)res.buffers[0].data)[0], 25599);
    gl_run_result_free(&res);
    ck_assert_int_eq(run_shared("sm_75", 100 * 1024, 1, &res, &err), GL_ERR_LAUNCH);
    ck_assert_msg(strstr(err.msg, "102400 bytes of shared memory per block (0 static + 102400 "
                                  "dynamic) is over the limit of sm_75 (compute capability "
                                  "7.5): 48 KiB by default, 64 KiB (65536 bytes) with the "
                                  "opt-in maximum"),
                  "%s", err.msg);
    gl_run_result_free(&res);
}
END_TEST

START_TEST(test_occupancy_uses_the_targets_limits)
{
    /* 8 blocks of 4 warps with 40 KiB of shared memory each: Turing's 64 KiB per SM
     * holds one, Hopper's 228 KiB five (CUDA Occupancy Calculator) */
    gl_run_result res;
    gl_error err = {0};
    ck_assert_msg(run_shared("sm_75", 40 * 1024, 8, &res, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(res.occupancy.blocks_per_sm, 1);
    ck_assert_str_eq(res.occupancy.limiter, "shared memory");
    ck_assert_int_eq(res.occupancy.sm_count, 40);
    ck_assert_int_eq(res.occupancy.max_warps_per_sm, 32);
    gl_run_result_free(&res);
    ck_assert_msg(run_shared("sm_90", 40 * 1024, 8, &res, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(res.occupancy.blocks_per_sm, 5);
    ck_assert_int_eq(res.occupancy.sm_count, 132);
    ck_assert_int_eq(res.occupancy.max_warps_per_sm, 64);
    gl_run_result_free(&res);
}
END_TEST

/* Each profile's roofline is its GPU's data sheet: DRAM GB/s, and FP32 GFLOP/s = SMs x
 * FP32 lanes x 2 x boost clock (T4 8.1, A100 19.5, A10 31.2, L4 30.3, H100 SXM 66.9
 * TFLOP/s); a GPU's is computed from its SMs, compute capability and clock. A run
 * reports the peaks of the profile it modelled. */
START_TEST(test_profiles_carry_the_data_sheet_roofline)
{
    const struct {
        const char *name;
        double gbs, gflops;
    } want[] = {{"sm_75", 320, 40 * 64 * 2 * 1.590},
                {"sm_80", 1555, 108 * 64 * 2 * 1.410},
                {"sm_86", 600, 72 * 128 * 2 * 1.695},
                {"sm_89", 300, 58 * 128 * 2 * 2.040},
                {"sm_90", 3350, 132 * 128 * 2 * 1.980}};
    ck_assert_int_eq(gl_arch_target_count(), 5);
    for (int i = 0; i < 5; i++) {
        char name[16], gpu[64];
        gl_device_info d;
        gl_arch_target(i, name, gpu, &d);
        ck_assert_str_eq(name, want[i].name);
        gl_peaks p;
        gl_arch_peaks(&d, &p);
        ck_assert_double_eq_tol(p.gbs, want[i].gbs, 1e-9);
        ck_assert_double_eq_tol(p.gflops[GL_ROOF_FP32], want[i].gflops, 1e-6);
    }
    gl_peaks p;
    gl_device_info h100 = {.compute_major = 9, .sm_count = 132, .clock_khz = 1980000};
    gl_arch_peaks(&h100, &p);
    ck_assert_double_eq_tol(p.gflops[GL_ROOF_FP32], 66908.16, 1e-6);
    gl_device_info t4 = {
        .compute_major = 7, .compute_minor = 5, .sm_count = 40, .clock_khz = 1590000};
    gl_arch_peaks(&t4, &p);
    ck_assert_double_eq_tol(p.gflops[GL_ROOF_FP32], 8140.8, 1e-6);
    gl_device_info unknown = {.compute_major = 9, .sm_count = 132};
    gl_arch_peaks(&unknown, &p);
    ck_assert_double_eq(p.gflops[GL_ROOF_FP32], 0);
    gl_run_result res;
    gl_error err = {0};
    ck_assert_msg(run_shared("sm_80", 1024, 1, &res, &err) == GL_OK, "%s", err.msg);
    ck_assert_double_eq_tol(res.peaks.gbs, 1555, 1e-9);
    ck_assert_double_eq_tol(res.peaks.gflops[GL_ROOF_FP32], 19491.84, 1e-6);
    ck_assert_double_eq_tol(res.peaks.gflops[GL_ROOF_TC_F16], 311869.44, 1e-6);
    ck_assert_uint_eq(res.peaks.l2_bytes, 40u << 20);
    ck_assert_str_eq(res.peaks.device, "A100 (Ampere), sm_80");
    gl_run_result_free(&res);
}
END_TEST

/* Every profile has a roof per kind of arithmetic, each its GPU's dense data-sheet
 * figure in TFLOP/s (int8: TOP/s), 0 where the GPU has no such unit (device.c cites the
 * data sheets and whitepapers): FP32, FP64, FP16 (half2), then the tensor cores' f16,
 * bf16, tf32, int8, fp8, f64. The H100's low-precision tensor figures are at 1830 MHz, its
 * FP32, FP64 and f64 tensor ones at 1980. A GPU of a profile's compute capability scales
 * the same per-SM, per-clock figures by its own SMs and clock. */
START_TEST(test_profiles_have_a_roof_per_kind_of_arithmetic)
{
    static const double want[5][GL_ROOFS] = {
        /* T4: 8.1, 1/32 FP64, 16.3 FP16, 65 f16, 130 int8 */
        {8.1408, 0.2544, 16.2816, 65.1264, 0, 0, 130.2528, 0, 0},
        /* A100: 19.5, 9.7, 78, 312 f16/bf16, 156 tf32, 624 int8, 19.5 f64 tensor */
        {19.49184, 9.74592, 77.96736, 311.86944, 311.86944, 155.93472, 623.73888, 0, 19.49184},
        /* A10: 31.2, 125 f16/bf16, 62.5 tf32, 250 int8 */
        {31.24224, 0.48816, 31.24224, 124.96896, 124.96896, 62.48448, 249.93792, 0, 0},
        /* L4: 30.3, 121 f16/bf16, 60 tf32, 242 fp8/int8 */
        {30.28992, 0.47328, 30.28992, 121.15968, 121.15968, 60.57984, 242.31936, 242.31936, 0},
        /* H100 SXM: 66.9, 33.5, 133.8, 989.4 f16/bf16, 494.7 tf32, 1979 fp8/int8, 66.9 f64 */
        {66.90816, 33.45408, 133.81632, 989.42976, 989.42976, 494.71488, 1978.85952, 1978.85952,
         66.90816}};
    for (int i = 0; i < 5; i++) {
        char name[16], gpu[64];
        gl_device_info d;
        gl_arch_target(i, name, gpu, &d);
        gl_peaks p;
        gl_arch_peaks(&d, &p);
        for (int k = 0; k < GL_ROOFS; k++)
            ck_assert_msg(fabs(p.gflops[k] / 1e3 - want[i][k]) < 1e-6, "%s %s: %g TFLOP/s, want %g",
                          name, gl_arch_roof_name((gl_roof)k), p.gflops[k] / 1e3, want[i][k]);
    }
    /* an H200 (132 SMs at 1980 MHz, compute capability 9.0): the H100's figures */
    gl_device_info h200 = {.compute_major = 9, .sm_count = 132, .clock_khz = 1980000};
    gl_peaks p;
    gl_arch_peaks(&h200, &p);
    ck_assert_double_eq_tol(p.gflops[GL_ROOF_TC_F16], 989429.76, 1e-6);
    ck_assert_double_eq_tol(p.gflops[GL_ROOF_TC_F64], 66908.16, 1e-6);
    /* an H100 PCIe (114 SMs, 1755 MHz): 114 x 4096 x 1755 x 1830 / 1980 */
    gl_device_info pcie = {.compute_major = 9, .sm_count = 114, .clock_khz = 1755000};
    gl_arch_peaks(&pcie, &p);
    ck_assert_double_eq_tol(p.gflops[GL_ROOF_TC_F16], 114 * 4096 * 1755 * (1830.0 / 1980) / 1e3,
                            1e-6);
    ck_assert_str_eq(gl_arch_roof_name(GL_ROOF_TC_BF16), "bf16 tensor");
}
END_TEST

START_TEST(test_lesson_arch_reaches_steps_and_exercise)
{
    static const char text[] =
        "{\"format\": 1, \"id\": \"t\", \"title\": \"T\", \"summary\": \"s\", \"arch\": \"sm_80\","
        " \"steps\": [{\"title\": \"a\", \"text\": \"x\", \"kernel\": \"reduce.cu\","
        "   \"launch\": {\"kernel\": \"warp_sum\", \"grid\": [1,1,1], \"block\": [32,1,1],"
        "               \"args\": []}},"
        "  {\"title\": \"b\", \"text\": \"x\", \"kernel\": \"reduce.cu\", \"arch\": \"7.5\","
        "   \"launch\": {\"kernel\": \"warp_sum\", \"grid\": [1,1,1], \"block\": [32,1,1],"
        "               \"args\": []}}]}";
    gl_lesson l;
    gl_error err = {0};
    ck_assert_msg(lesson_parse(text, strlen(text), "tests/kernels/arch", &l, &err) == GL_OK, "%s",
                  err.msg);
    gl_spec spec;
    ck_assert_msg(lesson_step_spec(&l, 0, &spec, &err) == GL_OK, "%s", err.msg);
    ck_assert_str_eq(spec.arch, "sm_80");
    spec_free(&spec);
    ck_assert_msg(lesson_step_spec(&l, 1, &spec, &err) == GL_OK, "%s", err.msg);
    ck_assert_str_eq(spec.arch, "sm_75");
    spec_free(&spec);
    lesson_free(&l);
    char bad[sizeof text];
    snprintf(bad, sizeof bad, "%s", text);
    memcpy(strstr(bad, "\"sm_80\""), "\"sm_70\"", 7);
    ck_assert_int_eq(lesson_parse(bad, strlen(bad), "tests/kernels/arch", &l, &err), GL_ERR_INPUT);
    ck_assert_msg(strstr(err.msg, "arch: 'sm_70' is not a known target (known: sm_75"), "%s",
                  err.msg);
}
END_TEST

static Suite *arch_suite(void)
{
    Suite *s = suite_create("arch");
    TCase *tc = tcase_create("arch");
    tcase_set_timeout(tc, 180);
    tcase_add_loop_test(tc, test_every_compiler_writes_the_chosen_target_into_the_ptx, 0, 3);
    tcase_add_test(tc, test_the_cache_keeps_targets_apart);
    tcase_add_loop_test(tc, test_reduce_add_sync_on_sm_75_names_the_feature_and_sm_80, 0, 3);
    tcase_add_loop_test(tc, test_redux_sync_in_sm_75_ptx_is_named_before_it_runs, 0, 3);
    tcase_add_test(tc, test_features_come_from_the_decoded_instructions);
    tcase_add_test(tc, test_spec_arch_must_be_a_known_target);
    tcase_add_test(tc, test_100_kib_of_dynamic_shared_fits_sm_90_not_sm_75);
    tcase_add_test(tc, test_occupancy_uses_the_targets_limits);
    tcase_add_test(tc, test_profiles_carry_the_data_sheet_roofline);
    tcase_add_test(tc, test_profiles_have_a_roof_per_kind_of_arithmetic);
    tcase_add_test(tc, test_lesson_arch_reaches_steps_and_exercise);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    setenv("GPULEARN_NO_CACHE", "1", 1);
    SRunner *r = srunner_create(arch_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
