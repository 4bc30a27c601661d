/* test_ptx.c — the PTX front end: every fixture from nvcc and clang parses, entries and
 * parameters are reported, source files are mapped, and malformed or unsupported PTX is
 * reported as "name:line:col: message" with every error found. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/ptx.h"
#include "sim/sim.h"
#include "tests/fixture.h"

static const char *const fixtures[] = {"vec_add", "saxpy",   "mat_add", "reduce",   "hello",
                                       "devfunc", "diverge", "oob",     "deadlock", "endless"};
static const char *const kernels[] = {"vec_add",       "saxpy",      "mat_add", "reduce_sum",
                                      "hello",         "apply_poly", "diverge", "oob_write",
                                      "bar_divergent", "spin"};
enum { NFIX = sizeof fixtures / sizeof fixtures[0] };

START_TEST(test_every_fixture_parses_with_its_entry_and_source_file)
{
    const char *comp = _i < NFIX ? "nvcc" : "clang";
    int k = _i % NFIX;
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/%s.%s.ptx", fixtures[k], comp);
    size_t len;
    char *text = fixture_read(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, len, path, &m, &diag);
    ck_assert_msg(st == SIM_OK, "%s:\n%s", path, diag ? diag : "");
    ck_assert_ptr_null(diag);
    ck_assert_int_eq(ptx_entry_count(m), 1);
    ck_assert_str_eq(ptx_entry_name(m, 0), kernels[k]);
    ck_assert_ptr_null(ptx_entry_name(m, 1));
    char want[64];
    snprintf(want, sizeof want, "/%s.cu", fixtures[k]);
    ck_assert_ptr_nonnull(ptx_source_file(m, 1));
    ck_assert_ptr_nonnull(strstr(ptx_source_file(m, 1), want));
    ck_assert_ptr_null(ptx_source_file(m, 99));
    ptx_module_free(m);
    free(text);
}
END_TEST

START_TEST(test_entry_params_give_sizes_and_alignment_in_order)
{
    const char *path =
        _i ? "tests/fixtures/ptx/vec_add.clang.ptx" : "tests/fixtures/ptx/vec_add.nvcc.ptx";
    size_t len;
    char *text = fixture_read(path, &len);
    ck_assert_ptr_nonnull(text);
    ptx_module_t *m = NULL;
    ck_assert_int_eq(ptx_parse(text, len, path, &m, NULL), SIM_OK);
    ptx_param_info p[8];
    int count = 0;
    ck_assert_int_eq(ptx_entry_params(m, "vec_add", p, 8, &count), SIM_OK);
    ck_assert_int_eq(count, 4);
    unsigned sizes[4] = {8, 8, 8, 4};
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(p[i].size, sizes[i]);
        ck_assert_uint_eq(p[i].align, sizes[i]);
        char nm[32];
        snprintf(nm, sizeof nm, "vec_add_param_%d", i);
        ck_assert_str_eq(p[i].name, nm);
    }
    ck_assert_int_eq(ptx_entry_params(m, "nope", p, 8, &count), SIM_ERR_NOT_FOUND);
    ptx_module_free(m);
    free(text);
}
END_TEST

static const char bad_ptx[] = ".version 7.0\n"                     /* 1 */
                              ".target sm_75\n"                    /* 2 */
                              ".address_size 64\n"                 /* 3 */
                              ".visible .entry k(.param .u64 p)\n" /* 4 */
                              "{\n"                                /* 5 */
                              "  .reg .b32 %r<4>;\n"               /* 6 */
                              "  add.s32 %r1, %r2, ;\n"            /* 7: missing operand */
                              "  mov.u32 %r9, 1;\n"                /* 8: unknown register */
                              "  bra NOWHERE;\n"                   /* 9: unknown label */
                              "  ret;\n"                           /* 10 */
                              "}\n";

START_TEST(test_parse_errors_name_line_and_column_and_report_all)
{
    ptx_module_t *m = (ptx_module_t *)1;
    char *diag = NULL;
    sim_status st = ptx_parse(bad_ptx, strlen(bad_ptx), "bad.ptx", &m, &diag);
    ck_assert_int_eq(st, SIM_ERR_PARSE);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(diag);
    ck_assert_msg(strstr(diag, "bad.ptx:7:21: expected an operand") != NULL, "%s", diag);
    ck_assert_msg(strstr(diag, "bad.ptx:8:11: unknown register '%r9'") != NULL, "%s", diag);
    ck_assert_msg(strstr(diag, "bad.ptx:9:7: unknown label 'NOWHERE'") != NULL, "%s", diag);
    free(diag);
}
END_TEST

static const char unsupported_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, 1;\n"                                     /* 7 */
    "  suld.b.1d.b32.trap {%r2}, [s, {%r1}];\n"               /* 8 */
    "  tex.1d.v4.f32.s32 {%r1, %r2, %r3, %r1}, [t, {%r1}];\n" /* 9 */
    "  ret;\n}\n";

/* brx.idx (PTX ISA §9.7.12.4) names a `.branchtargets` list of the same function: a list
 * that does not exist, and a label in a list that does not, are errors with their line */
START_TEST(test_brx_idx_lists_are_checked)
{
    static const char text[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k()\n{\n"
                               "  .reg .b32 %r<4>;\n"
                               "  mov.u32 %r1, 0;\n"                   /* 7 */
                               "  brx.idx %r1, $Lnone;\n"              /* 8 */
                               "$Lt: .branchtargets $La, $Lmissing;\n" /* 9 */
                               "  brx.idx.uni %r1, $Lt;\n"             /* 10 */
                               "$La:\n  ret;\n}\n";
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_int_ne(ptx_parse(text, strlen(text), "b.ptx", &m, &diag), SIM_OK);
    ck_assert_ptr_null(m);
    ck_assert_msg(diag && strstr(diag, "b.ptx:8:") &&
                      strstr(diag, "'$Lnone' names no .branchtargets list"),
                  "%s", diag ? diag : "");
    ck_assert_msg(strstr(diag, "b.ptx:9:") && strstr(diag, "unknown label '$Lmissing'"), "%s",
                  diag);
    free(diag);
}
END_TEST

/* What the PTX ISA leaves undefined stops the launch naming it: a brx.idx index past its
 * list (§9.7.12.4), an alloca past the stack (§9.7.17.3: 1 KiB per thread here, the GPU's
 * default), a stackrestore below the function's frame (§9.7.17.2). */
START_TEST(test_brx_past_its_list_and_stack_overflow_are_faults)
{
    static const struct {
        const char *body, *msg;
    } cases[] = {
        {"mov.u32 %r1, 5; brx.idx %r1, $Lt; $Lt: .branchtargets $La, $La; $La: ret;",
         "brx.idx index 5 is past its list of 2 labels"},
        {"alloca.u64 %rd1, 600, 8; alloca.u64 %rd2, 600, 8; ret;",
         "alloca of 600 bytes overflows the thread's stack"},
        {"stacksave.u64 %rd1; sub.u64 %rd1, %rd1, 8; stackrestore.u64 %rd1; ret;",
         "which no stacksave of this function returned"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                 "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n  %s\n}\n",
                 cases[i].body);
        ptx_module_t *m = NULL;
        char *diag = NULL;
        sim_status st = ptx_parse(text, strlen(text), "f.ptx", &m, &diag);
        ck_assert_msg(st == SIM_OK, "%s", diag ? diag : "");
        free(diag);
        sim_t *s = sim_new(NULL);
        unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
        sim_result r;
        st = sim_launch(s, m, "k", grid, block, 0, NULL, &r);
        ck_assert_int_ne(st, SIM_OK);
        ck_assert_msg(strstr(r.fault.message, cases[i].msg), "want \"%s\" in: %s", cases[i].msg,
                      r.fault.message);
        sim_result_free(&r);
        sim_free(s);
        ptx_module_free(m);
    }
}
END_TEST

/* cuda_fp16.hpp's inline assembly, as nvcc and NVRTC copy it into the PTX (CUDA 13,
 * hexp2): ".reg.b32 f, ULP;" with no space after .reg, registers named f, r and ULP, and
 * a hexadecimal literal with a U suffix. The simulator refused every half math function
 * ("unsupported directive '.reg.b32'"). hexp2 is ex2.approx.ftz.f32 of the input, plus
 * the result times 2^-24 (fma), rounded to f16: 1.0 gives 0x4000 (2), 0.5 0x3da8
 * (sqrt 2 = 1.41421: 1 + 424/1024), -1.0 0x3800 (0.5). */
START_TEST(test_dotted_directives_of_cuda_fp16_inline_asm)
{
    static const char text[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k(.param .u64 p)\n{\n"
                               "  .reg .b16 %rs<3>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<4>;\n"
                               "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n"
                               "  mul.wide.u32 %rd2, %r1, 2;\n  add.s64 %rd3, %rd1, %rd2;\n"
                               "  ld.global.u16 %rs2, [%rd3];\n"
                               "  {.reg.b32         f, ULP;         \n"
                               " .reg.b16         r;              \n"
                               "  mov.b16         r,%rs2;           \n"
                               "  cvt.f32.f16     f,r;            \n"
                               "  ex2.approx.ftz.f32      f,f;    \n"
                               "  mov.b32         ULP, 0x33800000U;\n"
                               "  fma.rn.f32      f,f,ULP,f;      \n"
                               "  cvt.rn.f16.f32      r,f;        \n"
                               "  mov.b16         %rs1,r;           \n"
                               "}\n"
                               "  st.global.u16 [%rd3], %rs1;\n  ret;\n}\n";
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_msg(ptx_parse(text, strlen(text), "h.ptx", &m, &diag) == SIM_OK, "%s",
                  diag ? diag : "");
    free(diag);
    sim_t *s = sim_new(NULL);
    uint16_t h[3] = {0x3c00, 0x3800, 0xbc00};
    uint64_t d = 0;
    ck_assert_int_eq(sim_malloc(s, sizeof h, "h", &d), SIM_OK);
    sim_memcpy_htod(s, d, h, sizeof h);
    void *params[] = {&d};
    unsigned grid[3] = {1, 1, 1}, block[3] = {3, 1, 1};
    sim_result r;
    ck_assert_msg(sim_launch(s, m, "k", grid, block, 0, params, &r) == SIM_OK, "%s",
                  r.fault.message);
    sim_result_free(&r);
    sim_memcpy_dtoh(s, h, d, sizeof h);
    ck_assert_uint_eq(h[0], 0x4000);
    ck_assert_uint_eq(h[1], 0x3da8);
    ck_assert_uint_eq(h[2], 0x3800);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_unsupported_instruction_is_named_with_its_line)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(unsupported_ptx, strlen(unsupported_ptx), "u.ptx", &m, &diag);
    ck_assert_int_eq(st, SIM_ERR_UNSUPPORTED);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(diag);
    ck_assert_msg(strstr(diag, "u.ptx:8:3: unsupported instruction 'suld.b.1d.b32.trap'"), "%s",
                  diag);
    ck_assert_msg(strstr(diag, "u.ptx:9:3: unsupported instruction 'tex.1d.v4.f32.s32'"), "%s",
                  diag);
    free(diag);
}
END_TEST

/* An instruction newer than the module's .version is refused, as ptxas refuses it
 * ("Feature 'elect' requires PTX ISA .version 8.0 or later"): the PTX clang 14 writes
 * (.version 7.1) with inline elect.sync or cvt.satfinite to f16. */
static const char version_ptx[] =
    ".version %s\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %%r<4>;\n  .reg .pred %%p<2>;\n  .reg .f32 %%f<2>;\n  .reg .b16 %%rs<2>;\n"
    "  elect.sync %%r1|%%p1, -1;\n"              /* 10 */
    "  cvt.rn.satfinite.f16.f32 %%rs1, %%f1;\n"  /* 11 */
    "  cvt.rna.satfinite.tf32.f32 %%r2, %%f1;\n" /* 12 */
    "  ret;\n}\n";

START_TEST(test_instructions_newer_than_the_ptx_version_are_refused)
{
    char text[512];
    snprintf(text, sizeof text, version_ptx, "7.1");
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_int_ne(ptx_parse(text, strlen(text), "v.ptx", &m, &diag), SIM_OK);
    ck_assert_ptr_nonnull(diag);
    ck_assert_msg(strstr(diag, "v.ptx:10:3: 'elect.sync' needs PTX ISA .version 8.0 or later, "
                               "and this PTX is .version 7.1"),
                  "%s", diag);
    ck_assert_msg(strstr(diag, "v.ptx:11:3: 'cvt.rn.satfinite.f16.f32' needs PTX ISA .version "
                               "8.1 or later"),
                  "%s", diag);
    ck_assert_msg(strstr(diag, "v.ptx:12:3: 'cvt.rna.satfinite.tf32.f32' needs PTX ISA .version "
                               "8.1 or later"),
                  "%s", diag);
    free(diag);
    snprintf(text, sizeof text, version_ptx, "8.1"); /* the same at 8.1 parses */
    diag = NULL;
    ck_assert_msg(ptx_parse(text, strlen(text), "v.ptx", &m, &diag) == SIM_OK, "%s",
                  diag ? diag : "");
    ptx_module_free(m);
    free(diag);
}
END_TEST

/* bar/barrier forms (PTX ISA §9.7.13.1): sync/arrive with a thread count, red with and
 * without one, negated predicates; a register named without '%' inside a scoped block
 * (as inline asm writes `.reg .u64 g;`) used as an address. */
static const char barrier_ptx[] =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 40;\n"
    "  bar.arrive 1, 64;\n  barrier.sync.aligned 1, 64;\n  bar.sync 2, %r1;\n"
    "  bar.red.popc.u32 %r2, 0, %p1;\n  bar.red.and.pred %p2, 3, 64, !%p1;\n"
    "  barrier.red.or.pred %p3, 0, %p1;\n  barrier.cta.sync.aligned 0;\n"
    "  { .reg .u64 g; cvta.to.global.u64 g, %rd1; ld.global.nc.u32 %r3, [g+4]; }\n"
    "  ret;\n}\n";

START_TEST(test_barrier_forms_and_scoped_registers_in_addresses_parse)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(barrier_ptx, strlen(barrier_ptx), "b.ptx", &m, &diag);
    ck_assert_msg(st == SIM_OK, "%s", diag ? diag : "");
    ptx_module_free(m);
    free(diag);
    static const char bad[] =
        ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
        "  .reg .pred %p<2>;\n  bar.red.popc.pred %p1, 0, %p0;\n  ret;\n}\n";
    m = NULL;
    diag = NULL;
    st = ptx_parse(bad, strlen(bad), "r.ptx", &m, &diag);
    ck_assert_int_ne(st, SIM_OK);
    ck_assert_msg(diag && strstr(diag, "r.ptx:7:3:") && strstr(diag, ".popc.u32"), "%s",
                  diag ? diag : "");
    free(diag);
}
END_TEST

static const char module_ptx[] =
    "// a hand-written module: globals with initializers, .const, a .func with two\n"
    "/* params and a return value, scoped blocks, .pragma and debug sections */\n"
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".global .align 4 .u32 table[4] = {10, 20, 30, 40};\n"
    ".const .align 4 .f32 scale = 0f40000000;\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".func (.param .b32 ret) twice(.param .b32 x)\n{\n"
    "  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [x];\n  add.s32 %r2, %r1, %r1;\n"
    "  st.param.b32 [ret], %r2;\n  ret;\n}\n"
    ".visible .entry k(.param .u64 out, .param .align 8 .b8 pad[16]) .maxntid 64, 1, 1\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<3>;\n  .reg .b64 %rd<6>;\n"
    "  .pragma \"nounroll\";\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  mov.u64 %rd3, table;\n  add.s64 %rd4, %rd3, %rd2;\n  ld.global.u32 %r2, [%rd4];\n"
    "  ld.const.f32 %f1, [scale];\n  cvt.rzi.s32.f32 %r3, %f1;\n  mul.lo.s32 %r2, %r2, %r3;\n"
    "  mov.u32 %r5, dyn;\n  shl.b32 %r6, %r1, 2;\n  add.s32 %r5, %r5, %r6;\n"
    "  st.shared.u32 [%r5], %r2;\n  bar.sync 0;\n"
    "  xor.b32 %r6, %r6, 4;\n  mov.u32 %r5, dyn;\n  add.s32 %r5, %r5, %r6;\n"
    "  ld.shared.u32 %r2, [%r5];\n"
    "  { // callseq\n  .reg .b32 tmp;\n  .param .b32 a0;\n  st.param.b32 [a0+0], %r2;\n"
    "  .param .b32 rv;\n  call.uni (rv), twice, (a0);\n  ld.param.b32 %r7, [rv+0];\n  }\n"
    "  add.s64 %rd5, %rd1, %rd2;\n  st.global.u32 [%rd5], %r7;\n  ret;\n}\n"
    "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 95,90,0\n\t}\n";

START_TEST(test_module_variables_func_calls_and_dynamic_shared_run)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(module_ptx, strlen(module_ptx), "mod.ptx", &m, &diag);
    ck_assert_msg(st == SIM_OK, "%s", diag ? diag : "");
    ptx_param_info p[4];
    int count = 0;
    ck_assert_int_eq(ptx_entry_params(m, "k", p, 4, &count), SIM_OK);
    ck_assert_int_eq(count, 2);
    ck_assert_uint_eq(p[1].size, 16);
    ck_assert_uint_eq(p[1].align, 8);
    sim_t *s = sim_new(NULL);
    uint64_t d = 0;
    ck_assert_int_eq(sim_malloc(s, 16, "out", &d), SIM_OK);
    char pad[16] = {0};
    void *params[] = {&d, pad};
    unsigned grid[3] = {1, 1, 1}, block[3] = {4, 1, 1};
    sim_result r;
    st = sim_launch(s, m, "k", grid, block, 16, params, &r);
    ck_assert_msg(st == SIM_OK, "%s", r.fault.message);
    int out[4];
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, d, sizeof out), SIM_OK);
    /* thread t reads table[t^1] * 2 from its neighbour's shared slot, then twice() */
    ck_assert_int_eq(out[0], 80);
    ck_assert_int_eq(out[1], 40);
    ck_assert_int_eq(out[2], 160);
    ck_assert_int_eq(out[3], 120);
    /* too little dynamic shared memory: the neighbour's slot is out of bounds */
    st = sim_launch(s, m, "k", grid, block, 8, params, &r);
    ck_assert_int_eq(st, SIM_ERR_FAULT);
    ck_assert_int_eq(r.fault.kind, SIM_FAULT_OUT_OF_BOUNDS);
    ck_assert_int_eq(r.fault.space, SIM_SPACE_SHARED);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* PTX ISA §4.4 and §5.1: a `{ }` block scopes its .reg declarations. NVRTC writes
 * __syncthreads_or as `{ .reg .pred %p1; ... }` inside a kernel that has its own %p1;
 * inline asm blocks reuse names (`p`) in sibling and nested blocks. Each inner name is a
 * register of its own, and the outer one means itself again after the '}'. */
static const char scoped_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd1, %rd1, %rd2;\n"
    "  setp.lt.u32 %p1, %r1, 2;\n"                                /* outer %p1: t < 2 */
    "  {\n  .reg .pred %p1;\n  setp.ge.u32 %p1, %r1, 100;\n"      /* inner %p1: false */
    "  selp.b32 %r2, 7, 1, %p1;\n"                                /* r2 = 1 */
    "  { .reg .pred %p1; setp.lt.u32 %p1, %r1, 100; }\n"          /* nested: true, unused */
    "  selp.b32 %r3, 7, 1, %p1;\n  add.s32 %r2, %r2, %r3;\n  }\n" /* still inner: r2 = 2 */
    "  { .reg .pred p; setp.eq.u32 p, %r1, 0; @p add.s32 %r2, %r2, 100; }\n"
    "  { .reg .pred p; setp.eq.u32 p, %r1, 1; @p add.s32 %r2, %r2, 200; }\n"
    "  selp.b32 %r3, 10, 0, %p1;\n  add.s32 %r2, %r2, %r3;\n" /* outer %p1 again */
    "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";

START_TEST(test_braces_scope_register_declarations)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(scoped_ptx, strlen(scoped_ptx), "scope.ptx", &m, &diag);
    ck_assert_msg(st == SIM_OK, "%s", diag ? diag : "");
    sim_t *s = sim_new(NULL);
    uint64_t d = 0;
    ck_assert_int_eq(sim_malloc(s, 16, "out", &d), SIM_OK);
    void *params[] = {&d};
    unsigned grid[3] = {1, 1, 1}, block[3] = {4, 1, 1};
    sim_result r;
    st = sim_launch(s, m, "k", grid, block, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "%s", r.fault.message);
    int out[4];
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, d, sizeof out), SIM_OK);
    /* 2 from the inner blocks, +100/+200 from the sibling blocks' p, +10 where the
     * outer %p1 (t < 2) survived the inner declarations */
    ck_assert_int_eq(out[0], 112);
    ck_assert_int_eq(out[1], 212);
    ck_assert_int_eq(out[2], 2);
    ck_assert_int_eq(out[3], 2);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* Runs kernel k of m with one block of `threads` threads and params, fails on a fault. */
static void run_block(ptx_module_t *m, const char *k, unsigned threads, void **params, sim_t *s)
{
    unsigned grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    sim_result r;
    sim_status st = sim_launch(s, m, k, grid, block, 0, params, &r);
    ck_assert_msg(st == SIM_OK, "%s", r.fault.message);
    sim_result_free(&r);
}

/* The other declarations a block scopes, as ptxas reads them (PTX ISA §9.7.12.1 {}):
 * labels (sibling blocks define the same label; a branch finds the label of its own
 * block first, then of the blocks around it, defined before or after it), .local and
 * .shared variables (an inner one hides an outer one of the same name until the '}'),
 * and registers and variables in one name space (a block's register g hides the module's
 * variable g until its '}'). Thread t of 4 writes 21015 (t = 0) or 21115: 3 loop rounds
 * + 7 from the inner buf, +100 unless the inner %p1 (t == 0) skips it, +1000 from the
 * outer buf, +0 from the outer %p1 (false: the loop's last setp), +20000 through the
 * block's shared sh, +5 from g. Before, the second label L was an error and the outer
 * buf read the inner one's 7. */
static const char scoped_vars_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".global .align 4 .u32 g = 5;\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  .local .align 4 .b8 buf[8];\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd1, %rd1, %rd2;\n"
    "  mov.u32 %r4, 1000;\n  st.local.u32 [buf], %r4;\n  mov.u32 %r2, 0;\n"
    "  {\n  .reg .b32 n;\n  .local .align 4 .b8 buf[8];\n  mov.u32 %r4, 7;\n"
    "  st.local.u32 [buf], %r4;\n  mov.u32 n, 3;\n"
    "L:\n  add.s32 %r2, %r2, 1;\n  sub.s32 n, n, 1;\n  setp.ne.u32 %p1, n, 0;\n  @%p1 bra L;\n"
    "  ld.local.u32 %r3, [buf];\n  add.s32 %r2, %r2, %r3;\n  }\n"
    "  {\n  .reg .pred %p1;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra L;\n"
    "  add.s32 %r2, %r2, 100;\n"
    "L:\n  { .reg .b32 %r2; mov.u32 %r2, 5000; @%p1 bra OUT; }\n  }\n"
    "OUT:\n  ld.local.u32 %r3, [buf];\n  add.s32 %r2, %r2, %r3;\n"
    "  selp.b32 %r3, 1, 0, %p1;\n  add.s32 %r2, %r2, %r3;\n"
    "  {\n  .shared .align 4 .b32 sh;\n  .reg .b64 buf;\n  mov.u64 buf, sh;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  mov.u32 %r4, 20000;\n  @%p1 st.shared.u32 [buf], %r4;\n"
    "  bar.sync 0;\n  ld.shared.u32 %r3, [sh];\n  add.s32 %r2, %r2, %r3;\n  }\n"
    "  { .reg .b32 g; mov.u32 g, 9; }\n  ld.global.u32 %r3, [g];\n  add.s32 %r2, %r2, %r3;\n"
    "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";

START_TEST(test_braces_scope_labels_local_and_shared_variables)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(scoped_vars_ptx, strlen(scoped_vars_ptx), "v.ptx", &m, &diag);
    ck_assert_msg(st == SIM_OK, "%s", diag ? diag : "");
    sim_t *s = sim_new(NULL);
    uint64_t d = fixture_upload(s, NULL, 16, "out");
    void *params[] = {&d};
    run_block(m, "k", 4, params, s);
    int out[4];
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, d, sizeof out), SIM_OK);
    ck_assert_int_eq(out[0], 21015);
    for (int t = 1; t < 4; t++)
        ck_assert_int_eq(out[t], 21115);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* What ptxas refuses about declarations in blocks is an error at the name's line and
 * column (each verdict checked with ptxas 13.0): a name declared twice in one block (a
 * kernel parameter and the body count as one block), a label of the same name as a
 * declaration of its block, a label of an inner block branched to from outside it, a
 * register or variable used after its block, and .extern in a function. */
static const struct {
    const char *body, *want;
} scope_errors[] = {
    {"{ .reg .b32 %r1;\n .reg .b32 %r1; }",
     "e.ptx:7:12: '%r1' is declared twice in the same block"},
    {".reg .b32 %r<10>;\n .reg .b32 %r5;", "e.ptx:7:12: '%r5' is declared twice in the same block"},
    {".reg .b64 out;", "e.ptx:6:11: 'out' is declared twice in the same block"},
    {".reg .b32 x;\n .local .b32 x;", "e.ptx:7:14: 'x' is declared twice in the same block"},
    {"{ L2:\n L2: ret; }", "e.ptx:7:2: label 'L2' defined twice in the same block"},
    {".reg .b32 L1;\nL1: ret;", "e.ptx:7:1: 'L1' is declared in this block and again as a label"},
    {"bra L1;\n{ L1: ret; }", "e.ptx:6:5: unknown label 'L1'"},
    {"{ .reg .b32 %r9; }\n mov.u32 %r9, 2;", "e.ptx:7:10: unknown register '%r9'"},
    {".reg .b64 %rd1;\n{ .local .b32 buf; }\n mov.u64 %rd1, buf;",
     "e.ptx:8:16: unknown symbol 'buf'"},
    {".extern .shared .b8 dyn[];", "e.ptx:6:1: .extern declarations belong at module scope"},
};

START_TEST(test_declarations_ptxas_refuses_in_blocks_are_errors)
{
    char text[512];
    snprintf(text, sizeof text,
             ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out)\n"
             "{\n%s\n ret;\n}\n",
             scope_errors[_i].body); /* the body from line 6 */
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, strlen(text), "e.ptx", &m, &diag);
    ck_assert_int_ne(st, SIM_OK);
    ck_assert_msg(diag && strstr(diag, scope_errors[_i].want), "want '%s' in:\n%s\n(text:\n%s)",
                  scope_errors[_i].want, diag ? diag : "", text);
    free(diag);
}
END_TEST

/* Indirect calls (PTX ISA §9.7.12.5 call through a register) need a .callprototype
 * (§11.3.3) of as many parameters as the call passes; what ptxas 13.0 refuses ("Call
 * target not recognized", "Call has wrong number of parameters", "Unknown symbol") is an
 * error at the call, and the last form, which it takes, parses. */
static const struct {
    const char *body, *want;
} fptr_forms[] = {
    {".reg .b64 %rd<2>;\n.param .b32 p0;\ncall %rd1, (p0);",
     "e.ptx:8:1: an indirect call needs a .callprototype"},
    {".reg .b64 %rd<2>;\n.param .b32 p0;\npr: .callprototype _ (.param .b32 _, .param .b32 "
     "_);\ncall %rd1, (p0), pr;",
     "e.ptx:9:1: indirect call with 1 arguments; its .callprototype 'pr' has 2"},
    {".reg .b64 %rd<2>;\n.param .b32 p0;\ncall %rd1, (p0), nope;",
     "e.ptx:8:18: 'nope' names no .callprototype"},
    {".reg .b64 %rd<2>;\n.param .b32 p0;\n.param .b32 r0;\npr: .callprototype (.param .b32 _) "
     "_ (.param .b32 _);\ncall (r0), %rd1, (p0), pr;",
     NULL},
};

START_TEST(test_indirect_calls_need_a_matching_callprototype)
{
    char text[512];
    snprintf(text, sizeof text,
             ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out)\n"
             "{\n%s\n ret;\n}\n",
             fptr_forms[_i].body); /* the body from line 6 */
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, strlen(text), "e.ptx", &m, &diag);
    if (!fptr_forms[_i].want) {
        ck_assert_msg(st == SIM_OK, "%s", diag ? diag : "");
        ptx_module_free(m);
    } else {
        ck_assert_int_ne(st, SIM_OK);
        ck_assert_msg(diag && strstr(diag, fptr_forms[_i].want), "want '%s' in:\n%s",
                      fptr_forms[_i].want, diag ? diag : "");
    }
    free(diag);
}
END_TEST

/* ptxas takes a special register only as the source of mov or cvt (checked with ptxas
 * 13.0: add, setp, selp, shl, mul.lo and st refuse %tid.x; WARP_SZ is a constant). */
static const struct {
    const char *body;
    int ok;
} sreg_uses[] = {
    {" .reg .b32 r; mov.u32 r, %tid.x;", 1},
    {" .reg .b64 r; cvt.u64.u32 r, %tid.x;", 1},
    {" .reg .b32 r; add.u32 r, %tid.x, 2;", 0},
    {" .reg .pred p; setp.eq.u32 p, %laneid, 0;", 0},
    {" .reg .b64 a; ld.param.u64 a, [out]; st.global.u32 [a], %ntid.x;", 0},
    {" .reg .b32 r; mov.u32 r, 1; shl.b32 r, r, WARP_SZ;", 1},
};

START_TEST(test_special_registers_are_read_by_mov_and_cvt_only)
{
    char text[512];
    snprintf(text, sizeof text,
             ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out)\n"
             "{\n%s\n ret;\n}\n",
             sreg_uses[_i].body);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, strlen(text), "s.ptx", &m, &diag);
    if (sreg_uses[_i].ok)
        ck_assert_msg(st == SIM_OK, "%s: %s", sreg_uses[_i].body, diag ? diag : "");
    else
        ck_assert_msg(st != SIM_OK && diag && strstr(diag, "s.ptx:6:") &&
                          strstr(diag, "cannot take a special register"),
                      "%s: %s", sreg_uses[_i].body, diag ? diag : "(accepted)");
    ptx_module_free(m);
    free(diag);
}
END_TEST

/* tests/kernels/sim/scoped_blocks.cu as NVRTC, nvcc and clang compile it: the
 * __syncthreads_or/_and/_count blocks and inline-asm blocks that declare the kernel's own
 * register names (%p1, %p2, %r1), nested, and sibling blocks with one label. Thread t of
 * 64 (n = 40, in[t] = t) writes v + 100 (v > 20) + 2006 + 100000 * or (1) + 200000 *
 * and (1) + 1000000 * count (29: v = 11 .. 39); the others write nothing. */
static const char *const scoped_compilers[] = {"nvrtc", "nvcc", "clang"};

START_TEST(test_every_compilers_scoped_blocks_run_exactly)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/scoped_blocks.%s.ptx", scoped_compilers[_i]);
    size_t len;
    char *text = fixture_read(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, len, path, &m, &diag);
    ck_assert_msg(st == SIM_OK, "%s:\n%s", path, diag ? diag : "");
    free(text);
    sim_t *s = sim_new(NULL);
    int in[40], out[64];
    for (int t = 0; t < 40; t++)
        in[t] = t;
    for (int t = 0; t < 64; t++)
        out[t] = -1;
    uint64_t din = fixture_upload(s, in, sizeof in, "in");
    uint64_t dout = fixture_upload(s, out, sizeof out, "out");
    int n = 40;
    void *params[] = {&din, &dout, &n};
    run_block(m, "scoped_blocks", 64, params, s);
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    for (int t = 0; t < 64; t++) {
        int want = t < 40 ? t + (t > 20 ? 100 : 0) + 2006 + 100000 + 200000 + 29000000 : -1;
        ck_assert_msg(out[t] == want, "%s: out[%d] = %d, want %d", path, t, out[t], want);
    }
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* ptx_parse_bindings lists each name an instruction uses with the declaration the parser
 * bound it to: in scoped_ptx, the inner blocks' %p1 (lines 16 and 19) and the outer one
 * (line 6) are three declarations, and each use names the one of its block. */
START_TEST(test_bindings_name_the_declaration_of_the_innermost_block)
{
    ptx_module_t *m = NULL;
    ptx_binding *b = NULL;
    int nb = 0;
    sim_status st =
        ptx_parse_bindings(scoped_ptx, strlen(scoped_ptx), "scope.ptx", &m, NULL, &b, &nb);
    ck_assert_int_eq(st, SIM_OK);
    /* every use of %p1: its line -> the line of the declaration it means */
    static const int want[][2] = {{14, 6}, {17, 16}, {18, 16}, {19, 19}, {20, 16}, {25, 6}};
    int seen = 0;
    for (int i = 0; i < nb; i++) {
        const char *line = scoped_ptx;
        for (int l = 1; l < b[i].line; l++)
            line = strchr(line, '\n') + 1;
        if (b[i].kind != PTX_BIND_REG || strncmp(line + b[i].col - 1, "%p1", 3) != 0)
            continue;
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
            if (want[k][0] == b[i].line) {
                ck_assert_msg(b[i].decl_line == want[k][1], "%%p1 on line %d: declared on %d",
                              b[i].line, b[i].decl_line);
                seen++;
            }
    }
    ck_assert_int_eq(seen, 6);
    free(b);
    ptx_module_free(m);
}
END_TEST

static Suite *ptx_suite(void)
{
    Suite *s = suite_create("ptx");
    TCase *tc = tcase_create("parse");
    tcase_add_loop_test(tc, test_every_fixture_parses_with_its_entry_and_source_file, 0, 2 * NFIX);
    tcase_add_loop_test(tc, test_entry_params_give_sizes_and_alignment_in_order, 0, 2);
    tcase_add_test(tc, test_parse_errors_name_line_and_column_and_report_all);
    tcase_add_loop_test(tc, test_special_registers_are_read_by_mov_and_cvt_only, 0,
                        (int)(sizeof sreg_uses / sizeof *sreg_uses));
    tcase_add_test(tc, test_dotted_directives_of_cuda_fp16_inline_asm);
    tcase_add_test(tc, test_unsupported_instruction_is_named_with_its_line);
    tcase_add_test(tc, test_brx_idx_lists_are_checked);
    tcase_add_test(tc, test_brx_past_its_list_and_stack_overflow_are_faults);
    tcase_add_test(tc, test_instructions_newer_than_the_ptx_version_are_refused);
    tcase_add_test(tc, test_barrier_forms_and_scoped_registers_in_addresses_parse);
    tcase_add_test(tc, test_module_variables_func_calls_and_dynamic_shared_run);
    tcase_add_test(tc, test_braces_scope_register_declarations);
    tcase_add_test(tc, test_braces_scope_labels_local_and_shared_variables);
    tcase_add_loop_test(tc, test_every_compilers_scoped_blocks_run_exactly, 0, 3);
    tcase_add_test(tc, test_bindings_name_the_declaration_of_the_innermost_block);
    tcase_add_loop_test(tc, test_indirect_calls_need_a_matching_callprototype, 0,
                        (int)(sizeof fptr_forms / sizeof fptr_forms[0]));
    tcase_add_loop_test(tc, test_declarations_ptxas_refuses_in_blocks_are_errors, 0,
                        (int)(sizeof scope_errors / sizeof scope_errors[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ptx_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
