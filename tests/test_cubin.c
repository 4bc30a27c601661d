/* test_cubin.c — registers per thread read from a cubin (runtime/cubin.h) and the
 * simulator's occupancy with them: the committed cubins tests/fixtures/cubin/window_sm75
 * and _sm90 (ptxas of CUDA 13.0 on nvcc's PTX of
 * tests/grade/18-occupancy/theoretical_occupancy__window_of_40_in_registers.cu; `ptxas
 * -v`: "Used 72 registers" for sm_75, 76 for sm_90) on every machine; the same count as
 * `ptxas -v` for PTX compiled here, through ptxas and through NVRTC's own cubin, where a
 * CUDA Toolkit is (else a SKIP line); and
 * truncated and damaged cubins, which are refused without reading outside the file.
 * Run from the repository root. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/backend.h"
#include "runtime/compile.h"
#include "runtime/cubin.h"
#include "tests/fixture.h"
#include "tests/temp_cache.h"

#define WINDOW "tests/grade/18-occupancy/theoretical_occupancy__window_of_40_in_registers.cu"

START_TEST(test_registers_of_a_kernel_from_its_cubin_for_sm75_and_sm90)
{
    static const struct {
        const char *file;
        int sm, regs;
    } cases[] = {{"tests/fixtures/cubin/window_sm75.cubin", 75, 72},
                 {"tests/fixtures/cubin/window_sm90.cubin", 90, 76}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = 0;
        char *bin = fixture_read(cases[i].file, &len);
        ck_assert_ptr_nonnull(bin);
        char why[256] = "";
        char *table = gl_cubin_regs(bin, len, cases[i].sm, why, sizeof why);
        ck_assert_msg(table != NULL, "%s: %s", cases[i].file, why);
        char want[64];
        snprintf(want, sizeof want, "sm_%d\n%d moving_sum\n", cases[i].sm, cases[i].regs);
        ck_assert_str_eq(table, want);
        int sm = 0;
        ck_assert_int_eq(gl_cubin_regs_of(table, "moving_sum", &sm), cases[i].regs);
        ck_assert_int_eq(sm, cases[i].sm);
        ck_assert_int_eq(gl_cubin_regs_of(table, "moving", NULL), -1);
        ck_assert_int_eq(gl_cubin_regs_of(table, "moving_sum2", NULL), -1);
        free(table);
        free(bin);
    }
}
END_TEST

/* `ptxas -v -arch=sm_<sm>` on ptx: its "Used N registers", or -1. */
static int ptxas_says(const char *ptxas, const char *ptx, int sm)
{
    char dir[] = "/tmp/gl-cubin-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char in[64], cmd[4400];
    snprintf(in, sizeof in, "%s/k.ptx", dir);
    FILE *f = fopen(in, "w");
    ck_assert_ptr_nonnull(f);
    fputs(ptx, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' -v -arch=sm_%d -o %s/k.cubin %s 2>&1", ptxas, sm, dir, in);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    char line[512];
    int regs = -1;
    while (fgets(line, sizeof line, p)) {
        const char *u = strstr(line, "Used ");
        if (u && strstr(u, " registers"))
            regs = atoi(u + 5);
    }
    pclose(p);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    return regs;
}

START_TEST(test_the_compilation_counts_what_ptxas_v_says_for_the_target)
{
    char ptxas[4096];
    if (!gl_compile_find_ptxas(ptxas, sizeof ptxas)) {
        printf("SKIP: no ptxas (CUDA Toolkit): registers per thread are not counted here\n");
        gl_compiled c = {0};
        gl_error err = {0};
        const gl_compile_opts o = {.arch = "sm_75", .no_cache = 1, .compiler = GL_CC_CLANG};
        if (gl_compile_cuda(WINDOW, &o, &c, &err) == GL_OK) { /* clang alone: why not */
            ck_assert_ptr_null(c.regs);
            ck_assert_str_eq(c.regs_why, "no CUDA Toolkit (ptxas) to count them");
        }
        gl_compiled_free(&c);
        return;
    }
    /* NVRTC without ptxas: its own cubin for the target gives the same count */
    setenv("GPULEARN_PTXAS", "none", 1);
    for (int sm = 75; sm <= 90; sm += 15) {
        gl_compiled c = {0};
        gl_error err = {0};
        char a[16];
        snprintf(a, sizeof a, "sm_%d", sm);
        const gl_compile_opts o = {.arch = a, .no_cache = 1, .compiler = GL_CC_NVRTC};
        if (gl_compile_cuda(WINDOW, &o, &c, &err) == GL_ERR_TOOL) {
            printf("SKIP: NVRTC not available: %s\n", err.msg);
            break;
        }
        ck_assert_msg(c.regs != NULL, "%s: %s", a, c.regs_why);
        ck_assert_int_eq(gl_cubin_regs_of(c.regs, "moving_sum", NULL),
                         ptxas_says(ptxas, c.ptx, sm));
        gl_compiled_free(&c);
    }
    unsetenv("GPULEARN_PTXAS");
    static const char *const arch[] = {"sm_75", "sm_90"};
    for (int i = 0; i < 2; i++)
        for (int cached = 0; cached < 2; cached++) { /* compiled, then from the cache */
            gl_compiled c = {0};
            gl_error err = {0};
            const gl_compile_opts o = {.arch = arch[i]};
            ck_assert_msg(gl_compile_cuda(WINDOW, &o, &c, &err) == GL_OK, "%s", err.msg);
            ck_assert_int_eq(c.cached, cached);
            ck_assert_msg(c.regs != NULL, "%s: %s", arch[i], c.regs_why);
            int sm = 0;
            const int regs = gl_cubin_regs_of(c.regs, "moving_sum", &sm);
            ck_assert_int_eq(sm, atoi(arch[i] + 3));
            ck_assert_int_eq(regs, ptxas_says(ptxas, c.ptx, sm));
            ck_assert_int_gt(regs, 64); /* what makes registers the limit on sm_75 */
            gl_compiled_free(&c);
        }
    /* a debug build is not counted (its registers are not the graded kernel's) */
    gl_compiled c = {0};
    gl_error err = {0};
    const gl_compile_opts dbg = {.arch = "sm_75", .debug = 1};
    ck_assert_msg(gl_compile_cuda(WINDOW, &dbg, &c, &err) == GL_OK, "%s", err.msg);
    ck_assert_ptr_null(c.regs);
    gl_compiled_free(&c);
}
END_TEST

/* Every prefix of a real cubin, and the cubin with each header field that locates
 * something pointed outside it, is refused or read within the file (ASan and the
 * debug build's checks see any read past it); none gives a count it does not hold. */
START_TEST(test_truncated_and_damaged_cubins_are_refused_within_the_file)
{
    size_t len = 0;
    char *bin = fixture_read("tests/fixtures/cubin/window_sm75.cubin", &len);
    ck_assert_ptr_nonnull(bin);
    char why[256];
    for (size_t n = 0; n < len; n++) {
        /* a copy of exactly n bytes, so that a read past it is a heap overflow */
        char *cut = malloc(n ? n : 1);
        ck_assert_ptr_nonnull(cut);
        memcpy(cut, bin, n);
        char *t = gl_cubin_regs(cut, n, 75, why, sizeof why);
        ck_assert_msg(!t || gl_cubin_regs_of(t, "moving_sum", NULL) == 72, "%zu bytes: %s", n, t);
        free(t);
        free(cut);
    }
    ck_assert_ptr_null(gl_cubin_regs(NULL, 0, 75, why, sizeof why));
    ck_assert_str_eq(why, "not an ELF file");
    /* header fields and every byte of the section headers and .nv.info, one at a time,
     * set to 0xff: never a read outside, never a count past 255 */
    char *bad = malloc(len);
    ck_assert_ptr_nonnull(bad);
    for (size_t at = 0; at < len; at++) {
        memcpy(bad, bin, len);
        bad[at] = (char)0xff;
        char *t = gl_cubin_regs(bad, len, 75, why, sizeof why);
        const int regs = t ? gl_cubin_regs_of(t, "moving_sum", NULL) : -1;
        ck_assert_msg(regs <= 255, "byte %zu: %d registers", at, regs);
        free(t);
    }
    /* the header's section table pointing past the end; a machine other than CUDA's */
    memcpy(bad, bin, len);
    const uint64_t far = (uint64_t)len;
    memcpy(bad + 0x28, &far, sizeof far); /* e_shoff */
    ck_assert_ptr_null(gl_cubin_regs(bad, len, 75, why, sizeof why));
    ck_assert_str_eq(why, "its section headers lie outside the file");
    memcpy(bad, bin, len);
    bad[0x12] = 62; /* e_machine: x86-64 */
    ck_assert_ptr_null(gl_cubin_regs(bad, len, 75, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "not a 64-bit CUDA ELF file"));
    free(bad);
    free(bin);
}
END_TEST

/* The simulator's occupancy of a launch of the window kernel on sm_75 (120 blocks of 256
 * threads: one wave of 3 blocks on each of the 40 SMs): with the 72 registers of the sm_75 cubin, 3 blocks per SM,
 * 75% (limit: registers); without a count, at most 100% (limit: threads), an upper
 * bound that says why. */
START_TEST(test_the_simulator_occupancy_counts_registers_or_says_it_is_a_bound)
{
    size_t len = 0;
    char *bin = fixture_read("tests/fixtures/cubin/window_sm75.cubin", &len);
    ck_assert_ptr_nonnull(bin);
    char why[256];
    char *table = gl_cubin_regs(bin, len, 75, why, sizeof why);
    ck_assert_ptr_nonnull(table);
    const gl_device_info t4 = {.warp_size = 32,
                               .sm_count = 40,
                               .max_threads_per_sm = 1024,
                               .max_blocks_per_sm = 16,
                               .shared_bytes_per_sm = 64 * 1024,
                               .regs_per_sm = 65536,
                               .regs_per_block = 65536,
                               .regs_per_thread = 255,
                               .reg_alloc_unit = 256,
                               .sm_partitions = 4};
    gl_occupancy o;
    const unsigned grid[3] = {120, 1, 1}, block[3] = {256, 1, 1};
    gl_run_occupancy_of(&t4, grid, block, 0, gl_cubin_regs_of(table, "moving_sum", NULL), 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 3);
    ck_assert_str_eq(o.limiter, "registers");
    ck_assert_double_eq_tol(o.theoretical, 0.75, 1e-12);
    ck_assert_int_eq(o.bound, 0);
    char line[512];
    gl_run_occupancy_describe(&o, 1, line, sizeof line);
    ck_assert_str_eq(line, "occupancy (modelled, 72 registers per thread): 75% theoretical "
                           "(limit: registers), about 75% achieved: 120 blocks on 40 SMs");
    gl_run_occupancy_of(&t4, grid, block, 0, -1, 0, &o);
    snprintf(o.regs_why, sizeof o.regs_why, "no CUDA Toolkit (ptxas) to count them");
    ck_assert_int_eq(o.bound, 1);
    ck_assert_double_eq_tol(o.theoretical, 1.0, 1e-12);
    gl_run_occupancy_describe(&o, 1, line, sizeof line);
    ck_assert_str_eq(line, "occupancy (modelled, registers unknown): at most 100% theoretical "
                           "(limit: threads), about 75% achieved: 120 blocks on 40 SMs; "
                           "registers: no CUDA Toolkit (ptxas) to count them");
    /* a block of 1024 threads at 72 registers needs 73728 of the 65536 a block may have:
     * it does not launch on a GPU */
    gl_run_occupancy_of(&t4, grid, (unsigned[3]){1024, 1, 1}, 0, 72, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 0);
    ck_assert_double_eq_tol(o.theoretical, 0, 1e-12);
    gl_run_occupancy_describe(&o, 1, line, sizeof line);
    ck_assert_ptr_nonnull(strstr(line, "a GPU refuses this launch"));
    /* 84 registers (the kernel): 2816 per warp, 5 warps per sub-partition, 20 per
     * SM: 2 blocks of 8 warps, 50% on a T4 */
    gl_run_occupancy_of(&t4, grid, block, 0, 84, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 2);
    ck_assert_double_eq_tol(o.theoretical, 0.5, 1e-12);
    /* registers per sub-partition, not per SM: 80 registers, blocks of one warp on an
     * H100 (64 warps, 32 blocks): 16384 / 2560 = 6 warps in each of 4 partitions, 24
     * blocks (65536 / 2560 would say 25) */
    gl_device_info h100 = t4;
    h100.max_threads_per_sm = 2048, h100.max_blocks_per_sm = 32, h100.sm_count = 132;
    gl_run_occupancy_of(&h100, grid, (unsigned[3]){32, 1, 1}, 0, 80, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 24);
    /* 255 registers: a block of 8 warps fits once; one of 9 warps counts as 12 (a multiple
     * of the 4 partitions), 98304 registers: it does not fit */
    gl_run_occupancy_of(&h100, grid, (unsigned[3]){256, 1, 1}, 0, 255, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 1);
    gl_run_occupancy_of(&h100, grid, (unsigned[3]){288, 1, 1}, 0, 255, 0, &o);
    ck_assert_int_eq(o.blocks_per_sm, 0);
    free(table);
    free(bin);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cubin");
    TCase *tc = tcase_create("registers");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_registers_of_a_kernel_from_its_cubin_for_sm75_and_sm90);
    tcase_add_test(tc, test_the_compilation_counts_what_ptxas_v_says_for_the_target);
    tcase_add_test(tc, test_truncated_and_damaged_cubins_are_refused_within_the_file);
    tcase_add_test(tc, test_the_simulator_occupancy_counts_registers_or_says_it_is_a_bound);
    suite_add_tcase(s, tc);
    return temp_cache_run_suite(s);
}
