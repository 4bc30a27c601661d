/* test_srcvars.c — source variable names from a debug build's DWARF (sim/ptx/ptx_dwarf.h):
 * real kernels compiled from CUDA C, checked against a simulator run, and malformed
 * DWARF that must be an error, never a crash. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/compile.h"
#include "sim/ptx/ptx_dwarf.h"
#include "sim/ptx/ptx.h"
#include "sim/sim.h"
#include "trace/trace.h"
#include "tests/temp_cache.h"

#define KERNEL "tests/kernels/compile/srcvars.cu"

/* Compiles KERNEL with c (debug: -G). 0 (SKIP printed) when c is not installed. */
static int compile(gl_compiler c, int debug, gl_compiled *out)
{
    gl_compile_opts o = {.compiler = c, .debug = debug, .no_cache = 1};
    gl_error err = {0};
    gl_status st = gl_compile_cuda(KERNEL, &o, out, &err);
    if (st == GL_ERR_TOOL) {
        printf("SKIP: %s not available (%s)\n", gl_compiler_name(c), err.msg);
        return 0;
    }
    ck_assert_msg(st == GL_OK, "%s: %s", gl_compiler_name(c), err.msg);
    return 1;
}

static ptx_module_t *parse(const char *ptx)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(ptx, strlen(ptx), "srcvars.ptx", &m, &diag);
    ck_assert_msg(st == SIM_OK, "parse: %s", diag ? diag : "?");
    free(diag);
    return m;
}

static const ptx_srcvar *find_var(const ptx_module_t *m, const char *name)
{
    for (int i = 0; i < m->nsrcvars; i++)
        if (strcmp(m->srcvars[i].name, name) == 0)
            return &m->srcvars[i];
    return NULL;
}

/* The lane's last value of register r in the trace at instructions before pc_end (-1:
 * any); 1 when there is one. */
static int last_value(const trace_t *t, int r, uint32_t block, unsigned lane_id, int pc_end,
                      uint64_t *v)
{
    int found = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_REG || e->barrier != r || e->block != block ||
            e->warp != lane_id / 32 || !((e->mask >> (lane_id % 32)) & 1u) ||
            (pc_end >= 0 && e->pc >= pc_end))
            continue;
        *v = trace_event_values(t, e)[lane_id % 32];
        found = 1;
    }
    return found;
}

static const gl_compiler nv[] = {GL_CC_NVRTC, GL_CC_NVCC};

/* -G: i and sum are named, and the registers the table gives hold their values in a
 * simulator run (i = the global index; sum, where out[i] = sum stores it, x * s + 1). */
START_TEST(test_debug_build_names_i_and_sum_by_the_registers_holding_them)
{
    gl_compiled c = {0};
    if (!compile(nv[_i], 1, &c))
        return;
    ptx_module_t *m = parse(c.ptx);
    const ptx_srcvar *vi = find_var(m, "i"), *vs = find_var(m, "sum");
    ck_assert_msg(vi && vs, "%s -G: no DWARF names for i and sum (%d variables)",
                  gl_compiler_name(nv[_i]), m->nsrcvars);
    ck_assert_str_eq(vi->reg, "%r1"); /* NVRTC and nvcc 13: mad/add of the index into %r1 */
    ck_assert_int_eq(vi->decl_line, 4);
    ck_assert_int_eq(vs->decl_line, 5);
    const ptx_srcvar *va = find_var(m, "s"); /* a float parameter: a register */
    ck_assert(va && va->is_param);

    enum { N = 50, T = 64 };
    sim_t *s = sim_new(NULL);
    trace_t *tr = trace_new(TRACE_ISSUE, 0);
    tr->record_regs = 1;
    sim_config cfg = {.trace = tr};
    sim_free(s);
    s = sim_new(&cfg);
    float a[N];
    for (int k = 0; k < N; k++)
        a[k] = (float)k;
    uint64_t da = 0, dout = 0;
    ck_assert_int_eq(sim_malloc(s, sizeof a, "a", &da), SIM_OK);
    ck_assert_int_eq(sim_memcpy_htod(s, da, a, sizeof a), SIM_OK);
    ck_assert_int_eq(sim_malloc(s, sizeof a, "out", &dout), SIM_OK);
    int n = N;
    float sc = 2.0f;
    void *params[] = {&da, &dout, &n, &sc};
    unsigned grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "scale", grid, block, 0, params, &r), SIM_OK);
    ck_assert_int_gt(tr->nvars, 0);
    /* the store of out[i]: the only st */
    int st_pc = -1;
    for (int pc = 0; pc < tr->ninsns; pc++)
        if (tr->insns[pc].cls == TRACE_CLASS_STORE)
            st_pc = pc;
    ck_assert_int_ge(st_pc, 0);
    const trace_var *ti = NULL, *ts = NULL;
    for (int k = 0; k < tr->nvars; k++) {
        const trace_var *v = &tr->vars[k];
        if (strcmp(v->name, "i") == 0 && v->pc_lo <= st_pc && st_pc < v->pc_hi)
            ti = v;
        if (strcmp(v->name, "sum") == 0 && v->pc_lo <= st_pc && st_pc < v->pc_hi)
            ts = v;
    }
    ck_assert_msg(ti && ts, "no i or sum at the store (pc %d)", st_pc);
    ck_assert_str_eq(tr->regs[ti->reg].name, "%r1");
    for (uint32_t b = 0; b < 2; b++)
        for (unsigned l = 0; l < 32; l++) {
            unsigned gi = b * 32 + l;
            uint64_t v;
            ck_assert_msg(last_value(tr, ti->reg, b, l, -1, &v), "no value of i for thread %u", gi);
            ck_assert_uint_eq((uint32_t)v, gi);
            if (gi >= N)
                continue;
            ck_assert_msg(last_value(tr, ts->reg, b, l, st_pc, &v), "no value of sum for thread %u",
                          gi);
            float f, want = (float)gi * 2.0f + 1.0f;
            uint32_t u = (uint32_t)v;
            memcpy(&f, &u, sizeof f);
            ck_assert_msg(f == want, "sum of thread %u: %g, want %g", gi, (double)f, (double)want);
        }
    sim_result_free(&r);
    sim_free(s);
    trace_free(tr);
    ptx_module_free(m);
    gl_compiled_free(&c);
}
END_TEST

/* The optimised build (-lineinfo; -G --dopt=on emits the same PTX) records no
 * variable locations: no names, and the registers view shows PTX names only. */
START_TEST(test_optimised_build_has_no_variable_locations)
{
    gl_compiled c = {0};
    if (!compile(nv[_i], 0, &c))
        return;
    ptx_module_t *m = parse(c.ptx);
    ck_assert_int_eq(m->nsrcvars, 0);
    ptx_module_free(m);
    gl_compiled_free(&c);
}
END_TEST

/* ------------------------------------------------------------ hand-made DWARF */

static int labels(void *ctx, const char *name, size_t len)
{
    (void)ctx;
    if (len == 3 && memcmp(name, "$L0", 3) == 0)
        return 0;
    if (len == 3 && memcmp(name, "$L1", 3) == 0)
        return 10;
    return -1;
}

/* A unit (DWARF 2) with a subprogram [$L0, $L1) holding variable "i" in %r1 (DW_OP_regx
 * 0x257231 = ULEB b1 e4 95 01). */
static const char abbrev_ok[] =
    ".b8 1\n.b8 17\n.b8 1\n.b8 0\n.b8 0\n" /* 1: compile_unit, children */
    ".b8 2\n.b8 46\n.b8 1\n.b8 17\n.b8 1\n.b8 18\n.b8 1\n.b8 0\n.b8 0\n" /* 2: subprogram low/high addr */
    ".b8 3\n.b8 52\n.b8 0\n.b8 3\n.b8 8\n.b8 59\n.b8 11\n.b8 2\n.b8 10\n.b8 0\n.b8 0\n" /* 3: variable */
    ".b8 0\n";
static const char info_ok[] = ".b32 37\n.b8 2, 0\n.b32 .debug_abbrev\n.b8 8\n"
                              ".b8 1\n"
                              ".b8 2\n.b64 $L0\n.b64 $L1\n"
                              ".b8 3\n.b8 105, 0\n.b8 4\n.b8 5, 144, 177, 228, 149, 1\n"
                              ".b8 0\n.b8 0\n";

static int read_two(const char *abbrev, const char *info, ptx_srcvar **v, int *n, char *err,
                    size_t errlen)
{
    ptx_dwarf_sec secs[2] = {{".debug_abbrev", 13, abbrev, strlen(abbrev)},
                             {".debug_info", 11, info, strlen(info)}};
    return ptx_dwarf_read(secs, 2, labels, NULL, v, n, err, errlen);
}

START_TEST(test_hand_made_dwarf_names_r1_over_its_scope)
{
    ptx_srcvar *v;
    int n;
    char err[160];
    ck_assert_int_eq(read_two(abbrev_ok, info_ok, &v, &n, err, sizeof err), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(v[0].name, "i");
    ck_assert_str_eq(v[0].reg, "%r1");
    ck_assert_int_eq(v[0].pc_lo, 0);
    ck_assert_int_eq(v[0].pc_hi, 10);
    ck_assert_int_eq(v[0].decl_line, 4);
    free(v);
}
END_TEST

static void expect_error(const char *abbrev, const char *info, const char *why)
{
    ptx_srcvar *v = (ptx_srcvar *)1;
    int n = 7;
    char err[160] = "";
    ck_assert_msg(read_two(abbrev, info, &v, &n, err, sizeof err) == -1, "%s: not an error", why);
    ck_assert_msg(v == NULL && n == 0, "%s: output left set", why);
    ck_assert_msg(err[0], "%s: no message", why);
}

START_TEST(test_malformed_dwarf_is_an_error_not_a_crash)
{
    /* the unit's length runs past the section */
    expect_error(abbrev_ok, ".b32 99\n.b8 2, 0\n.b32 .debug_abbrev\n.b8 8\n.b8 1\n",
                 "unit too long");
    /* an abbreviation code the table does not have */
    expect_error(abbrev_ok, ".b32 9\n.b8 2, 0\n.b32 .debug_abbrev\n.b8 8\n.b8 1\n.b8 77\n",
                 "bad abbreviation code");
    /* a string without its NUL, at the end of the unit */
    expect_error(abbrev_ok,
                 ".b32 27\n.b8 2, 0\n.b32 .debug_abbrev\n.b8 8\n.b8 1\n.b8 2\n.b64 $L0\n.b64 "
                 "$L1\n.b8 3\n.b8 105\n",
                 "unterminated string");
    /* an unknown form in the abbreviations */
    expect_error(".b8 1\n.b8 17\n.b8 0\n.b8 3\n.b8 127\n.b8 0\n.b8 0\n.b8 0\n",
                 ".b32 9\n.b8 2, 0\n.b32 .debug_abbrev\n.b8 8\n.b8 1\n.b8 0, 0\n", "unknown form");
    /* truncated abbreviations (no terminating pair) */
    expect_error(".b8 1\n.b8 17\n.b8 0\n.b8 3\n",
                 ".b32 8\n.b8 2, 0\n.b32 .debug_abbrev\n.b8 8\n.b8 1\n", "truncated abbreviations");
    /* an abbreviation offset past the section */
    expect_error(abbrev_ok, ".b32 8\n.b8 2, 0\n.b32 .debug_abbrev+900\n.b8 8\n.b8 1\n",
                 "abbrev offset");
    /* not data */
    expect_error(abbrev_ok, "add.s32 %r1, %r2, %r3;\n", "an instruction in a section");
    /* DWARF version 9, address size 3 */
    expect_error(abbrev_ok, ".b32 7\n.b8 9, 0\n.b32 .debug_abbrev\n.b8 8\n", "version");
    expect_error(abbrev_ok, ".b32 7\n.b8 2, 0\n.b32 .debug_abbrev\n.b8 3\n", "address size");
    /* a ULEB that never ends */
    expect_error(abbrev_ok,
                 ".b32 20\n.b8 2, 0\n.b32 .debug_abbrev\n.b8 8\n"
                 ".b8 255,255,255,255,255,255,255,255,255,255,255,255,255\n",
                 "endless LEB128");
}
END_TEST

/* Every prefix of a real -G build's .debug_info (cut at each line): an error or a
 * (partial) table, never a read past the bytes (run it under MODE=asan). */
START_TEST(test_truncated_real_dwarf_never_crashes)
{
    gl_compiled c = {0};
    if (!compile(GL_CC_NVCC, 1, &c) && !compile(GL_CC_NVRTC, 1, &c))
        return;
    ptx_dwarf_sec secs[4];
    int nsecs = 0;
    static const char *const names[] = {".debug_abbrev", ".debug_info", ".debug_loc", ".debug_str"};
    for (int k = 0; k < 4; k++) {
        const char *p = strstr(c.ptx, names[k]);
        while (p && p[strlen(names[k])] != '\n' && p[strlen(names[k])] != '\r' &&
               p[strlen(names[k])] != ' ')
            p = strstr(p + 1, names[k]);
        if (!p || !strchr(p, '{'))
            continue;
        const char *b = strchr(p, '{') + 1, *e = strstr(b, "\n\t}");
        if (!e)
            continue;
        secs[nsecs++] = (ptx_dwarf_sec){names[k], strlen(names[k]), b, (size_t)(e - b)};
    }
    int info = -1;
    for (int k = 0; k < nsecs; k++)
        if (strcmp(secs[k].name, ".debug_info") == 0)
            info = k;
    ck_assert_int_ge(info, 0);
    const size_t full = secs[info].len;
    int errors = 0, cuts = 0;
    for (size_t cut = 0; cut < full; cut++) {
        if (secs[info].text[cut] != '\n')
            continue;
        secs[info].len = cut;
        ptx_srcvar *v;
        int n;
        char err[160];
        int rc = ptx_dwarf_read(secs, nsecs, labels, NULL, &v, &n, err, sizeof err);
        ck_assert(rc == 0 || rc == -1);
        errors += rc == -1;
        cuts++;
        free(v);
    }
    ck_assert_int_gt(errors, cuts / 2); /* most prefixes cut a unit short */
    gl_compiled_free(&c);
}
END_TEST

static Suite *srcvars_suite(void)
{
    Suite *s = suite_create("srcvars");
    TCase *tc = tcase_create("compiled");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_debug_build_names_i_and_sum_by_the_registers_holding_them, 0, 2);
    tcase_add_loop_test(tc, test_optimised_build_has_no_variable_locations, 0, 2);
    tcase_add_test(tc, test_truncated_real_dwarf_never_crashes);
    suite_add_tcase(s, tc);
    TCase *hm = tcase_create("hand-made");
    tcase_add_test(hm, test_hand_made_dwarf_names_r1_over_its_scope);
    tcase_add_test(hm, test_malformed_dwarf_is_an_error_not_a_crash);
    suite_add_tcase(s, hm);
    return s;
}

int main(void)
{
    return temp_cache_run_suite(srcvars_suite());
}
