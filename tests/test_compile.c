/* test_compile.c — CUDA C to PTX with every compiler this machine has (NVRTC, nvcc,
 * clang + prelude), diagnostics in "path:line:col:" form, and the GPU back end (the
 * no-driver path here; a real run where a GPU is present). Run from the repository root.
 * A compiler that is not installed prints "SKIP: <name> not available" and passes. */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/backend.h"
#include "runtime/cache.h"
#include "runtime/compile.h"
#include "runtime/sandbox.h"
#include "sim/sim.h"
#include "tests/temp_cache.h"

#define KDIR "tests/kernels/compile/"

static const gl_compiler compilers[] = {GL_CC_NVRTC, GL_CC_NVCC, GL_CC_CLANG};
#define NCOMPILERS ((int)(sizeof compilers / sizeof compilers[0]))

/* Compiles `path` with compiler c. Returns 0 (after printing SKIP) when c is not
 * installed here, else 1 with *st set. */
static int compile_with(gl_compiler c, const char *path, gl_compiled *out, gl_error *err,
                        gl_status *st)
{
    gl_compile_opts opts = {.compiler = c};
    *st = gl_compile_cuda(path, &opts, out, err);
    if (*st == GL_ERR_TOOL) {
        printf("SKIP: %s not available (%s)\n", gl_compiler_name(c), err->msg);
        return 0;
    }
    return 1;
}

/* compile_with for a source that must compile: 0 (SKIP printed) when c is not
 * installed, else 1 after asserting that it compiled. */
static int compile_ok(gl_compiler c, const char *path, gl_compiled *out)
{
    gl_error err = {0};
    gl_status st;
    if (!compile_with(c, path, out, &err, &st))
        return 0;
    ck_assert_msg(st == GL_OK, "%s: %s", gl_compiler_name(c), err.msg);
    return 1;
}

/* The 1-based line of `path` holding `marker`, or 0. */
static int line_of(const char *path, const char *marker)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char buf[512];
    int n = 0, found = 0;
    while (!found && fgets(buf, sizeof buf, f)) {
        n++;
        if (strstr(buf, marker))
            found = n;
    }
    fclose(f);
    return found;
}

/* The next line of text *p (copied into buf, n bytes, cut short if longer), without its
 * leading blanks; *p moves past it. NULL at the end. */
static const char *next_line(const char **p, char *buf, size_t n)
{
    if (!**p)
        return NULL;
    const char *eol = strchr(*p, '\n');
    size_t len = eol ? (size_t)(eol - *p) : strlen(*p);
    len = len < n - 1 ? len : n - 1;
    memcpy(buf, *p, len);
    buf[len] = '\0';
    *p = eol ? eol + 1 : *p + strlen(*p);
    return buf + strspn(buf, " \t");
}

START_TEST(test_good_kernel_compiles_to_ptx_with_entry_and_line_info)
{
    gl_compiler c = compilers[_i];
    gl_compiled out;
    if (!compile_ok(c, KDIR "good.cu", &out))
        return;
    ck_assert_int_eq(out.used, c);
    ck_assert_ptr_nonnull(out.ptx);
    ck_assert_msg(strstr(out.ptx, ".entry vec_add("), "%s: no .entry vec_add", gl_compiler_name(c));
    ck_assert_msg(strstr(out.ptx, ".loc"), "%s: no .loc line info", gl_compiler_name(c));
    /* .file names the file as we gave it, not an absolute or temporary path */
    ck_assert_msg(strstr(out.ptx, "\"" KDIR "good.cu\""), "%s: .file is not %s",
                  gl_compiler_name(c), KDIR "good.cu");
    /* the default target, sm_90 (clang 14 knows targets up to sm_86 only) */
    ck_assert_msg(strstr(out.command, c == GL_CC_CLANG ? "--cuda-gpu-arch=sm_" : "compute_90"),
                  "command: %s", out.command);
    gl_compiled_free(&out);
}
END_TEST

START_TEST(test_syntax_error_reports_path_line_and_column)
{
    gl_compiler c = compilers[_i];
    gl_compiled out;
    gl_error err = {0};
    gl_status st;
    if (!compile_with(c, KDIR "bad.cu", &out, &err, &st))
        return;
    int line = line_of(KDIR "bad.cu", "expect: error");
    ck_assert_int_gt(line, 0);
    char want[128];
    /* "    out[x] = y + 1;": y is column 14 for every compiler */
    snprintf(want, sizeof want, KDIR "bad.cu:%d:14: error: ", line);
    ck_assert_int_eq(st, GL_ERR_COMPILE);
    ck_assert_int_eq(err.status, GL_ERR_COMPILE);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s: got \"%s\", want \"%s...\"",
                  gl_compiler_name(c), err.msg, want);
    ck_assert_msg(strstr(err.msg, "\"y\"") || strstr(err.msg, "'y'"), "%s", err.msg);
    /* no compiler summary lines survive the rewrite */
    ck_assert_ptr_null(strstr(err.msg, "detected in the compilation"));
    ck_assert_ptr_null(strstr(err.msg, "generated"));
    ck_assert_ptr_null(out.ptx);
    /* the same message parsed once into a record: file as given, line, column */
    ck_assert_int_ge(out.ndiags, 1);
    const gl_diag *d = &out.diags[0];
    ck_assert_str_eq(d->file, KDIR "bad.cu");
    ck_assert_int_eq(d->line, line);
    ck_assert_int_eq(d->col, 14);
    ck_assert_int_eq(d->severity, GL_DIAG_ERROR);
    ck_assert_msg(strstr(d->text, "\"y\"") || strstr(d->text, "'y'"), "%s", d->text);
    ck_assert_msg(strncmp(err.msg + strlen(want), d->text, strlen(d->text)) == 0,
                  "%s: diag text \"%s\" is not the message's", gl_compiler_name(c), d->text);
    gl_compiled_free(&out);
}
END_TEST

START_TEST(test_printf_atomics_and_syncthreads_compile_without_includes)
{
    gl_compiler c = compilers[_i];
    gl_compiled out;
    if (!compile_ok(c, KDIR "features.cu", &out))
        return;
    const char *p = out.ptx;
    ck_assert(strstr(p, ".entry features("));
    ck_assert_msg(strstr(p, "atom.global.add.f32") || strstr(p, "red.global.add.f32"),
                  "%s: no float atomic add", gl_compiler_name(c));
    ck_assert_msg(strstr(p, "atom.global.add.u32") || strstr(p, "red.global.add.u32") ||
                      strstr(p, "atom.global.add.s32") || strstr(p, "red.global.add.s32"),
                  "%s: no int atomic add", gl_compiler_name(c));
    ck_assert_msg(strstr(p, "bar.sync") || strstr(p, "barrier.sync"), "%s: no barrier",
                  gl_compiler_name(c));
    ck_assert_msg(strstr(p, "vprintf"), "%s: no vprintf", gl_compiler_name(c));
    ck_assert(strstr(p, "%tid.x"));
    ck_assert(strstr(p, ".shared"));
    gl_compiled_free(&out);
}
END_TEST

/* Where each instruction of lines.cu (intrinsics) and lines_cg.cu (Cooperative Groups)
 * is, as its PTX's line info says: every live .loc names the learner's file (the
 * prelude's and the toolchains' headers become the calling line: NVRTC does this itself,
 * nvcc through inlined_at, clang through nodebug), the two barriers (and lines_cg.cu's
 * two activemasks) are two instructions on their own lines, and the atomics are on
 * theirs. Loop: compiler _i % NCOMPILERS, file _i / NCOMPILERS. */
START_TEST(test_intrinsics_are_on_the_lines_that_call_them)
{
    gl_compiler c = compilers[_i % NCOMPILERS];
    const int cg = _i / NCOMPILERS;
    const char *path = cg ? KDIR "lines_cg.cu" : KDIR "lines.cu";
    gl_compiled out;
    if (!compile_ok(c, path, &out))
        return;
    const char *name = gl_compiler_name(c);
    /* .file N "path": the learner's index */
    int mine = -1;
    for (const char *p = strstr(out.ptx, ".file"); p; p = strstr(p + 1, ".file")) {
        int idx = 0;
        char file[256];
        if (sscanf(p, ".file %d \"%255[^\"]\"", &idx, file) == 2 && strcmp(file, path) == 0)
            mine = idx;
    }
    ck_assert_msg(mine > 0, "%s: no .file for %s", name, path);
    int line = 0, bars[4] = {0}, nbar = 0, add = 0, max = 0, ams[4] = {0}, nam = 0;
    char buf[512];
    for (const char *p = out.ptx, *q; (q = next_line(&p, buf, sizeof buf)) != NULL;) {
        int f = 0, l = 0;
        if (sscanf(q, ".loc %d %d", &f, &l) == 2) {
            ck_assert_msg(f == mine, "%s: %s names file %d, not %s", name, q, f, path);
            if (l)
                line = l;
        } else if (strncmp(q, "bar.sync", 8) == 0 || strncmp(q, "barrier.sync", 12) == 0) {
            if (nbar < 4)
                bars[nbar] = line;
            nbar++;
        } else if (strncmp(q, "activemask", 10) == 0) {
            if (nam < 4)
                ams[nam] = line;
            nam++;
        } else if (strstr(q, ".add.") &&
                   (strncmp(q, "atom.", 5) == 0 || strncmp(q, "red.", 4) == 0)) {
            add = line;
        } else if (strstr(q, ".max.") &&
                   (strncmp(q, "atom.", 5) == 0 || strncmp(q, "red.", 4) == 0)) {
            max = line;
        }
    }
    ck_assert_msg(nbar == 2, "%s: %d barriers, want the 2 of the source", name, nbar);
    ck_assert_int_eq(bars[0] + bars[1],
                     line_of(path, "expect: barrier A") + line_of(path, "expect: barrier B"));
    ck_assert_int_ne(bars[0], bars[1]);
    if (cg) {
        ck_assert_msg(nam == 2, "%s: %d activemasks, want the 2 of the source", name, nam);
        ck_assert_int_eq(ams[0] + ams[1], line_of(path, "expect: activemask A") +
                                              line_of(path, "expect: activemask B"));
        ck_assert_int_ne(ams[0], ams[1]);
    }
    ck_assert_int_eq(add, line_of(path, "expect: add"));
    ck_assert_int_eq(max, line_of(path, "expect: max"));
    gl_compiled_free(&out);
}
END_TEST

/* The line each instruction of the PTX is on (the last .loc with a line before it) for
 * the instructions that start with one of the prefixes in `ops` (NULL-terminated), in
 * order: up to max of them into lines[]; returns how many there are. */
static int lines_of_ops(const char *ptx, const char *const *ops, int *lines, int max)
{
    int line = 0, n = 0;
    char buf[512];
    for (const char *p = ptx, *q; (q = next_line(&p, buf, sizeof buf)) != NULL;) {
        int f, l;
        if (sscanf(q, ".loc %d %d", &f, &l) == 2) {
            if (l)
                line = l;
            continue;
        }
        for (const char *const *o = ops; *o; o++)
            if (strncmp(q, *o, strlen(*o)) == 0) {
                if (n < max)
                    lines[n] = line;
                n++;
                break;
            }
    }
    return n;
}

/* Code nested many levels deep in the CUDA Toolkit's headers counts on the learner's line
 * that called it, whatever the compiler interleaved it with: lines_cub.cu's two CUB
 * reductions (nvcc and NVRTC: clang has no CUB) each have their barrier and their shared
 * stores and loads on their own line. Loop: compiler. */
START_TEST(test_nested_header_code_is_on_the_line_that_called_it)
{
    const char *path = KDIR "lines_cub.cu";
    gl_compiler c = compilers[_i];
    if (c == GL_CC_CLANG) {
        printf("SKIP: clang has no CUB\n");
        return;
    }
    gl_compiled out;
    if (!compile_ok(c, path, &out))
        return;
    const int first = line_of(path, "expect: first"), second = line_of(path, "expect: second");
    static const char *const bars[] = {"bar.sync", "barrier.sync", NULL};
    static const char *const shared[] = {"ld.shared", "st.shared", NULL};
    int lines[64];
    const int nbar = lines_of_ops(out.ptx, bars, lines, 64);
    ck_assert_msg(nbar == 2, "%s: %d barriers, want CUB's 2", gl_compiler_name(c), nbar);
    ck_assert_msg(lines[0] + lines[1] == first + second && lines[0] != lines[1],
                  "%s: the barriers are on lines %d and %d, want %d and %d", gl_compiler_name(c),
                  lines[0], lines[1], first, second);
    const int nsh = lines_of_ops(out.ptx, shared, lines, 64);
    int on[2] = {0, 0};
    for (int i = 0; i < nsh && i < 64; i++) {
        ck_assert_msg(lines[i] == first || lines[i] == second,
                      "%s: a shared access on line %d, not %d or %d", gl_compiler_name(c), lines[i],
                      first, second);
        on[lines[i] == second]++;
    }
    ck_assert_msg(on[0] && on[1], "%s: %d shared accesses on line %d, %d on line %d",
                  gl_compiler_name(c), on[0], first, on[1], second);
    gl_compiled_free(&out);
}
END_TEST

/* <cub/cub.cuh> compiles with NVRTC (gpulearn's stand-in: CUB's block, warp and thread
 * primitives) and with nvcc, with no warning from NVRTC; clang's error says CUB is not
 * available with it. Loop: compiler. */
START_TEST(test_cub_umbrella_header_compiles_where_cub_is_available)
{
    const char *path = KDIR "cub_umbrella.cu";
    gl_compiler c = compilers[_i];
    gl_compiled out;
    gl_error err = {0};
    gl_status st;
    if (!compile_with(c, path, &out, &err, &st))
        return;
    if (c == GL_CC_CLANG) {
        ck_assert_int_eq(st, GL_ERR_COMPILE);
        ck_assert_msg(strstr(err.msg, "not available with clang"), "%s", err.msg);
        gl_compiled_free(&out);
        return;
    }
    ck_assert_msg(st == GL_OK, "%s: %s", gl_compiler_name(c), err.msg);
    ck_assert_ptr_nonnull(strstr(out.ptx, "block_sum"));
    ck_assert_msg(!out.log || !strstr(out.log, "warning"), "%s: %s", gl_compiler_name(c), out.log);
    gl_compiled_free(&out);
}
END_TEST

/* CUB's device-wide algorithms under NVRTC: the error's first line says they are host
 * code and what NVRTC takes instead. */
START_TEST(test_device_wide_cub_under_nvrtc_says_it_is_host_code)
{
    gl_compiled out;
    gl_error err = {0};
    gl_status st;
    if (!compile_with(GL_CC_NVRTC, KDIR "cub_device.cu", &out, &err, &st))
        return;
    ck_assert_int_eq(st, GL_ERR_COMPILE);
    ck_assert_msg(strncmp(err.msg, KDIR "cub_device.cu: CUB's device-wide algorithms", 56) == 0 &&
                      strstr(err.msg, "host code") && strstr(err.msg, "<cub/cub.cuh>"),
                  "%s", err.msg);
    gl_compiled_free(&out);
}
END_TEST

/* The race of lines_cub.cu, run on the simulator: the second reduction's writes to the
 * shared TempStorage race with the first one's reads, and the finding names the two
 * calls (the earlier access on the first's line, the later on the second's), not one
 * line twice or a CUB header's. Loop: compiler (nvcc and NVRTC). */
START_TEST(test_race_in_nested_header_code_names_the_calling_lines)
{
    const char *path = KDIR "lines_cub.cu";
    gl_compiler c = compilers[_i];
    if (c == GL_CC_CLANG) {
        printf("SKIP: clang has no CUB\n");
        return;
    }
    gl_compiled out;
    if (!compile_ok(c, path, &out))
        return;
    const int first = line_of(path, "expect: first"), second = line_of(path, "expect: second");
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_msg(ptx_parse(out.ptx, strlen(out.ptx), path, &m, &diag) == SIM_OK, "%s",
                  diag ? diag : "?");
    sim_t *s = sim_new(NULL);
    int in[64];
    for (int k = 0; k < 64; k++)
        in[k] = k;
    uint64_t din = 0, dout = 0;
    ck_assert_int_eq(sim_malloc(s, sizeof in, "in", &din), SIM_OK);
    ck_assert_int_eq(sim_memcpy_htod(s, din, in, sizeof in), SIM_OK);
    ck_assert_int_eq(sim_malloc(s, 2 * sizeof(int), "out", &dout), SIM_OK);
    void *params[] = {&din, &dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "two_reductions", grid, block, 0, params, &r), SIM_OK);
    int races = 0;
    for (int i = 0; i < r.nfindings; i++) {
        const sim_finding *f = &r.findings[i];
        if (f->kind != SIM_FIND_RACE && f->kind != SIM_FIND_WARP_RACE)
            continue;
        races++;
        ck_assert_msg(f->other.src_line == first && f->access.src_line == second,
                      "%s: a race between lines %d and %d, want %d then %d: %s",
                      gl_compiler_name(c), f->other.src_line, f->access.src_line, first, second,
                      f->message);
    }
    ck_assert_msg(races > 0, "%s: no race found", gl_compiler_name(c));
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
    free(diag);
    gl_compiled_free(&out);
}
END_TEST

/* An inline asm statement in a function of the learner's counts on the line that called
 * the function (nvcc, NVRTC), or on the statement (clang, which writes no inlined_at),
 * never on the line of one of its operands: lines_asm.cu. Loop: compiler. */
START_TEST(test_inline_asm_is_on_the_calling_line_not_an_operand_line)
{
    const char *path = KDIR "lines_asm.cu";
    gl_compiler c = compilers[_i];
    gl_compiled out;
    if (!compile_ok(c, path, &out))
        return;
    static const char *const st[] = {"st.volatile.global", NULL};
    int lines[8];
    const int n = lines_of_ops(out.ptx, st, lines, 8);
    ck_assert_msg(n == 2, "%s: %d volatile stores, want 2", gl_compiler_name(c), n);
    if (c == GL_CC_CLANG) {
        const int at = line_of(path, "expect: asm");
        ck_assert_msg(lines[0] == at && lines[1] == at, "clang: the stores are on lines %d, %d",
                      lines[0], lines[1]);
    } else {
        const int a = line_of(path, "expect: call A"), b = line_of(path, "expect: call B");
        ck_assert_msg(lines[0] + lines[1] == a + b && lines[0] != lines[1],
                      "%s: the stores are on lines %d and %d, want %d and %d (line %d is an "
                      "operand's)",
                      gl_compiler_name(c), lines[0], lines[1], a, b,
                      line_of(path, "expect: operand"));
    }
    gl_compiled_free(&out);
}
END_TEST

/* Every `inlined_at F L C` of the PTX gpulearn keeps names a location a preceding .loc
 * used, as ptxas requires ("Source location ... used in inlined_at directive must be used
 * in a preceding .loc directive"): after ptx_fix_locs rewrote the headers' lines, for
 * lines.cu, lines_cg.cu, functor.cu (a functor CUB inlines), lines_cub.cu (nvcc and NVRTC
 * only: clang has no CUB) and lines_asm.cu.
 * Loop: compiler _i % NCOMPILERS, file _i / NCOMPILERS. */
START_TEST(test_inlined_at_names_a_preceding_loc)
{
    static const char *const files[] = {KDIR "lines.cu", KDIR "lines_cg.cu", KDIR "functor.cu",
                                        KDIR "lines_cub.cu", KDIR "lines_asm.cu"};
    gl_compiler c = compilers[_i % NCOMPILERS];
    const char *path = files[_i / NCOMPILERS];
    if (c == GL_CC_CLANG && (strstr(path, "functor") || strstr(path, "cub"))) {
        printf("SKIP: clang has no CUB\n");
        return;
    }
    gl_compiled out;
    if (!compile_ok(c, path, &out))
        return;
    enum { MAXLOC = 4096 };
    static long seen[MAXLOC][3];
    int nseen = 0, functor_line = 0;
    char buf[512];
    for (const char *p = out.ptx, *q; (q = next_line(&p, buf, sizeof buf)) != NULL;) {
        long f, l, col;
        if (sscanf(q, ".loc %ld %ld %ld", &f, &l, &col) == 3) {
            if (l == line_of(path, "expect: functor"))
                functor_line = 1;
            const char *at = strstr(q, "inlined_at");
            long f2, l2, c2;
            if (at && sscanf(at, "inlined_at %ld %ld %ld", &f2, &l2, &c2) == 3) {
                int found = 0;
                for (int i = 0; i < nseen && !found; i++)
                    found = seen[i][0] == f2 && seen[i][1] == l2 && seen[i][2] == c2;
                ck_assert_msg(found, "%s: %s: inlined_at %ld %ld %ld has no preceding .loc",
                              gl_compiler_name(c), q, f2, l2, c2);
            }
            if (nseen < MAXLOC) {
                seen[nseen][0] = f, seen[nseen][1] = l, seen[nseen][2] = col;
                nseen++;
            }
        }
    }
    if (strstr(path, "functor"))
        ck_assert_msg(functor_line, "%s: no .loc on the functor's line", gl_compiler_name(c));
    gl_compiled_free(&out);
}
END_TEST

START_TEST(test_warnings_go_to_log_not_error)
{
    gl_compiler c = compilers[_i];
    gl_compiled out;
    if (!compile_ok(c, KDIR "warn.cu", &out))
        return;
    int line = line_of(KDIR "warn.cu", "expect: warning");
    char want[128];
    snprintf(want, sizeof want, KDIR "warn.cu:%d:", line);
    ck_assert_msg(out.log && strstr(out.log, want) && strstr(out.log, "warning:"),
                  "%s: log \"%s\" lacks %s", gl_compiler_name(c), out.log ? out.log : "(null)",
                  want);
    ck_assert_int_ge(out.ndiags, 1);
    ck_assert_str_eq(out.diags[0].file, KDIR "warn.cu");
    ck_assert_int_eq(out.diags[0].line, line);
    ck_assert_int_eq(out.diags[0].severity, GL_DIAG_WARNING);
    gl_compiled_free(&out);
}
END_TEST

START_TEST(test_unknown_compiler_in_env_fails_cleanly)
{
    setenv("GPULEARN_COMPILER", "fortran", 1);
    gl_compiled out;
    gl_error err = {0};
    gl_status st = gl_compile_cuda(KDIR "good.cu", NULL, &out, &err);
    unsetenv("GPULEARN_COMPILER");
    ck_assert_int_eq(st, GL_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "GPULEARN_COMPILER=fortran"));
    ck_assert_ptr_null(out.ptx);
    gl_compiled_free(&out);
}
END_TEST

START_TEST(test_env_forces_one_compiler)
{
    setenv("GPULEARN_COMPILER", "clang", 1);
    gl_compiled out;
    gl_error err = {0};
    gl_status st = gl_compile_cuda(KDIR "good.cu", NULL, &out, &err);
    unsetenv("GPULEARN_COMPILER");
    if (st == GL_ERR_TOOL) {
        printf("SKIP: clang not available\n");
        return;
    }
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    ck_assert_int_eq(out.used, GL_CC_CLANG);
    gl_compiled_free(&out);
}
END_TEST

START_TEST(test_missing_compiler_says_what_to_install)
{
    char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", "/nonexistent-gpulearn", 1);
    gl_compile_opts opts = {.compiler = GL_CC_CLANG};
    gl_compiled out;
    gl_error err = {0};
    gl_status st = gl_compile_cuda(KDIR "good.cu", &opts, &out, &err);
    if (path) {
        setenv("PATH", path, 1);
        free(path);
    }
    ck_assert_int_eq(st, GL_ERR_TOOL);
    ck_assert_msg(strstr(err.msg, "apt-get install clang"), "%s", err.msg);
    ck_assert_ptr_null(out.ptx);
}
END_TEST

START_TEST(test_unreadable_file_is_input_error)
{
    gl_compiled out;
    gl_error err = {0};
    ck_assert_int_eq(gl_compile_cuda(KDIR "no-such-file.cu", NULL, &out, &err), GL_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "no-such-file.cu"));
}
END_TEST

START_TEST(test_bad_arch_is_usage_error)
{
    gl_compile_opts opts = {.arch = "compute_x; rm -rf"};
    gl_compiled out;
    gl_error err = {0};
    ck_assert_int_eq(gl_compile_cuda(KDIR "good.cu", &opts, &out, &err), GL_ERR_USAGE);
}
END_TEST

/* Runs vec_add and features on the GPU: exact values and captured printf output. */
static void gpu_run(gpu_t *g)
{
    gl_error err = {0};
    gl_device_info info;
    ck_assert_msg(gpu_device_info(g, &info, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(info.warp_size, 32);
    ck_assert_int_gt(info.sm_count, 0);
    ck_assert_int_gt((int)strlen(info.name), 0);
    ck_assert(info.global_bytes > 0);
    printf("GPU: %s, CC %d.%d, %d SMs, driver %s, %.0f GB/s\n", info.name, info.compute_major,
           info.compute_minor, info.sm_count, info.driver, info.peak_bandwidth_gbs);

    gl_compiled out;
    gl_status st = gl_compile_cuda(KDIR "good.cu", NULL, &out, &err);
    if (st == GL_ERR_TOOL) {
        printf("SKIP: no compiler for the GPU test\n");
        return;
    }
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    ck_assert_msg(gpu_load_ptx(g, out.ptx, &err) == GL_OK, "%s", err.msg);
    gl_compiled_free(&out);

    enum { N = 1000 };
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * (float)i;
        c[i] = -1.0f;
    }
    uint64_t da, db, dc;
    ck_assert(gpu_malloc(g, sizeof a, &da, &err) == GL_OK);
    ck_assert(gpu_malloc(g, sizeof b, &db, &err) == GL_OK);
    ck_assert(gpu_malloc(g, sizeof c, &dc, &err) == GL_OK);
    ck_assert(gpu_htod(g, da, a, sizeof a, &err) == GL_OK);
    ck_assert(gpu_htod(g, db, b, sizeof b, &err) == GL_OK);
    ck_assert(gpu_htod(g, dc, c, sizeof c, &err) == GL_OK);
    int n = N;
    void *params[] = {&da, &db, &dc, &n};
    unsigned grid[3] = {(N + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
    char *text = NULL;
    double ms = -1;
    st = gpu_launch(g, "vec_add", grid, block, 0, params, &text, &ms, &err);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    ck_assert_str_eq(text, "");
    free(text);
    ck_assert(ms >= 0);
    ck_assert(gpu_dtoh(g, c, dc, sizeof c, &err) == GL_OK);
    for (int i = 0; i < N; i++)
        ck_assert_msg(c[i] == 3.0f * (float)i, "c[%d] = %g", i, (double)c[i]);

    st = gpu_launch(g, "no_such_kernel", grid, block, 0, params, NULL, NULL, &err);
    ck_assert_int_eq(st, GL_ERR_LAUNCH);

    /* printf capture, atomics, shared memory and __syncthreads */
    st = gl_compile_cuda(KDIR "features.cu", NULL, &out, &err);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    ck_assert_msg(gpu_load_ptx(g, out.ptx, &err) == GL_OK, "%s", err.msg);
    gl_compiled_free(&out);
    int zero = 0;
    float fzero = 0, sum = 0;
    int count = 0, order[128];
    uint64_t dcount, dsum, dorder;
    ck_assert(gpu_malloc(g, sizeof count, &dcount, &err) == GL_OK);
    ck_assert(gpu_malloc(g, sizeof sum, &dsum, &err) == GL_OK);
    ck_assert(gpu_malloc(g, sizeof order, &dorder, &err) == GL_OK);
    ck_assert(gpu_htod(g, dcount, &zero, sizeof zero, &err) == GL_OK);
    ck_assert(gpu_htod(g, dsum, &fzero, sizeof fzero, &err) == GL_OK);
    void *fparams[] = {&dcount, &dsum, &dorder};
    unsigned g2[3] = {2, 1, 1}, b64[3] = {64, 1, 1};
    st = gpu_launch(g, "features", g2, b64, 0, fparams, &text, NULL, &err);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    ck_assert_msg(strstr(text, "block 0 of 2\n") && strstr(text, "block 1 of 2\n"),
                  "printf output: \"%s\"", text);
    ck_assert_int_eq((int)strlen(text), 2 * (int)strlen("block 0 of 2\n"));
    free(text);
    ck_assert(gpu_dtoh(g, &count, dcount, sizeof count, &err) == GL_OK);
    ck_assert(gpu_dtoh(g, &sum, dsum, sizeof sum, &err) == GL_OK);
    ck_assert(gpu_dtoh(g, order, dorder, sizeof order, &err) == GL_OK);
    ck_assert_int_eq(count, 128);
    ck_assert(sum == 64.0f);
    for (int i = 0; i < 128; i++)
        ck_assert_int_eq(order[i], (63 - i % 64) * 2);
    printf("GPU: ran\n");
}

START_TEST(test_gpu_runs_vec_add_or_reports_no_driver)
{
    gpu_t *g = NULL;
    gl_error err = {0};
    gl_status st = gpu_open(&g, &err);
    if (st == GL_ERR_NODEVICE) {
        ck_assert_ptr_null(g);
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!h)
            ck_assert_msg(strncmp(err.msg, "no NVIDIA driver found (libcuda.so.1: ", 38) == 0 ||
                              strstr(err.msg, "built without cuda.h"),
                          "%s", err.msg);
        else
            dlclose(h);
        printf("SKIP: no GPU (%s)\n", err.msg);
        return;
    }
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    gpu_run(g);
    gpu_close(g);
}
END_TEST

/* ------------------------------------------------------------ compilation cache */

/* Points XDG_CACHE_HOME at a fresh folder; returns the cache folder path in dir
 * ("<fresh>/gpulearn", not created: the cache creates it). */
static void fresh_cache(char *dir, size_t n)
{
    char tmpl[sizeof temp_cache_root + 16];
    snprintf(tmpl, sizeof tmpl, "%s/c-XXXXXX", temp_cache_root);
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    setenv("XDG_CACHE_HOME", tmpl, 1);
    unsetenv("GPULEARN_NO_CACHE");
    snprintf(dir, n, "%s/gpulearn", tmpl);
}

/* Number of files in dir whose name ends with `suffix` (0 if dir is absent). */
static int count_files(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name), sl = strlen(suffix);
        if (e->d_name[0] != '.' && l >= sl && strcmp(e->d_name + l - sl, suffix) == 0)
            n++;
    }
    closedir(d);
    return n;
}

/* Writes text to path. */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_sha256_matches_fips_180_vectors)
{
    gl_cache_sha256 h;
    char hex[65];
    gl_cache_sha256_init(&h);
    gl_cache_sha256_update(&h, "abc", 3);
    gl_cache_sha256_hex(&h, hex);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    gl_cache_sha256_init(&h);
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    gl_cache_sha256_update(&h, two, 20); /* in pieces across the 64-byte block boundary */
    gl_cache_sha256_update(&h, two + 20, strlen(two) - 20);
    gl_cache_sha256_hex(&h, hex);
    ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    gl_cache_sha256_init(&h);
    gl_cache_sha256_hex(&h, hex);
    ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    /* FIPS 180-4's long vector: a million 'a', a thousand bytes at a time */
    char a[1000];
    memset(a, 'a', sizeof a);
    gl_cache_sha256_init(&h);
    for (int i = 0; i < 1000; i++)
        gl_cache_sha256_update(&h, a, sizeof a);
    gl_cache_sha256_hex(&h, hex);
    ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

/* Cache keys and entries stay what earlier builds wrote: a key made of fields
 * (gl_cache_sha256_field) and an entry file, both written by the hand-written SHA-256 that
 * nettle replaced, give the same digests and the entry is still a hit. */
START_TEST(test_cache_key_and_entry_of_an_earlier_build_are_still_found)
{
    static const char src[] = "extern \"C\" __global__ void k(){}";
    gl_cache_sha256 h;
    char key[65];
    gl_cache_sha256_init(&h);
    gl_cache_sha256_field(&h, "gpulearn", "3", 1);
    gl_cache_sha256_field(&h, "source", src, strlen(src));
    gl_cache_sha256_field(&h, "debug", "", 0);
    gl_cache_sha256_hex(&h, key);
    ck_assert_str_eq(key, "f1044f2cc2ce5dd15869c597d15d2380eb83eb8274a25db16bfeb931024dcf2a");
    char dir[400], path[900];
    fresh_cache(dir, sizeof dir);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/%s.ptx", dir, key);
    write_text(path, "gpulearn-ptx-cache 3\ncompiler nvrtc\ncommand x\nregs_why x\n"
                     "sha256 6b71360ce810536b973404660ab672b6753d333601911095fa3fc1dd2f8fcbd7\n"
                     "log 0\nregs 0\nptx 13\n.version 8.0\n");
    gl_cache_entry e;
    ck_assert_int_eq(gl_cache_get(key, &e), 1);
    ck_assert_str_eq(e.ptx, ".version 8.0\n");
    ck_assert_str_eq(e.regs_why, "x");
    gl_cache_entry_free(&e);
}
END_TEST

START_TEST(test_second_compile_comes_from_cache_without_recompiling)
{
    char dir[400];
    fresh_cache(dir, sizeof dir);
    gl_compiled a, b;
    gl_error err = {0};
    ck_assert_msg(gl_compile_cuda(KDIR "good.cu", NULL, &a, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(a.cached, 0);
    ck_assert_int_eq(count_files(dir, ".ptx"), 1);
    ck_assert_int_eq(count_files(dir, ""), 1); /* written atomically: no temporary left */
    ck_assert_msg(gl_compile_cuda(KDIR "good.cu", NULL, &b, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(b.cached, 1);
    ck_assert_str_eq(a.ptx, b.ptx);
    ck_assert_int_eq(a.used, b.used);
    ck_assert_str_eq(a.command, b.command);
    gl_compiled_free(&a);
    gl_compiled_free(&b);
}
END_TEST

/* A sandboxed compilation (a submission's) is cached apart from an unsandboxed one of
 * the same file: the first of each kind compiles, the second sandboxed one is a hit with
 * the same PTX; two sandboxed jobs (a grading's optimised and debug builds) run at once
 * and each gives what gl_compile_cuda gives; a compile error is never cached. */
START_TEST(test_sandboxed_compiles_are_cached_apart_and_run_at_once)
{
    if (!gl_sandbox_available()) {
        printf("SKIP: sandboxed compilation cache: the kernel offers no Landlock\n");
        return;
    }
    char dir[400], src[500], bad[500];
    fresh_cache(dir, sizeof dir);
    snprintf(src, sizeof src, "%.*s/s.cu", (int)(strlen(dir) - 9), dir);
    snprintf(bad, sizeof bad, "%.*s/bad.cu", (int)(strlen(dir) - 9), dir);
    write_text(src, "extern \"C\" __global__ void k(int *p) { p[threadIdx.x] = 7; }\n");
    write_text(bad, "extern \"C\" __global__ void k(int *p) { p[threadIdx.x] = q; }\n");
    gl_compiled plain, a, b, opt, dbg;
    gl_error err = {0};
    ck_assert_msg(gl_compile_cuda(src, NULL, &plain, &err) == GL_OK, "%s", err.msg);
    const gl_compile_opts sb = {.sandbox = 1};
    ck_assert_msg(gl_compile_cuda(src, &sb, &a, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(a.cached, 0); /* not the unsandboxed entry */
    ck_assert_msg(gl_compile_cuda(src, &sb, &b, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(b.cached, 1);
    ck_assert_str_eq(a.ptx, b.ptx);
    ck_assert_int_eq(a.used, b.used);
    ck_assert_int_eq(count_files(dir, ".ptx"), 2);

    const gl_compile_opts sbd = {.sandbox = 1, .debug = 1}, fresh = {.sandbox = 1, .no_cache = 1};
    gl_compile_job *j1 = gl_compile_start(src, &fresh), *j2 = gl_compile_start(src, &sbd);
    ck_assert(j1 && j2);
    ck_assert_msg(gl_compile_finish(j1, &opt, &err) == GL_OK, "%s", err.msg);
    ck_assert_msg(gl_compile_finish(j2, &dbg, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(opt.cached, 0);
    ck_assert_str_eq(opt.ptx, a.ptx);
    ck_assert_int_eq(dbg.cached, 0);
    ck_assert_str_ne(dbg.ptx, a.ptx); /* -G: another build */
    ck_assert_int_eq(count_files(dir, ".ptx"), 3);

    gl_compiled e1, e2;
    ck_assert_int_eq(gl_compile_cuda(bad, &sb, &e1, &err), GL_ERR_COMPILE);
    ck_assert_ptr_nonnull(strstr(err.msg, "bad.cu:1:"));
    ck_assert_int_eq(gl_compile_cuda(bad, &sb, &e2, &err), GL_ERR_COMPILE);
    ck_assert_int_eq(count_files(dir, ".ptx"), 3);
    gl_compiled_free(&plain);
    gl_compiled_free(&a);
    gl_compiled_free(&b);
    gl_compiled_free(&opt);
    gl_compiled_free(&dbg);
    gl_compiled_free(&e1);
    gl_compiled_free(&e2);
}
END_TEST

START_TEST(test_changed_source_or_arch_or_compiler_misses_the_cache)
{
    char dir[400], src[500];
    fresh_cache(dir, sizeof dir);
    snprintf(src, sizeof src, "%.*s/k.cu", (int)(strlen(dir) - 9), dir);
    write_text(src, "extern \"C\" __global__ void k(int *p) { p[threadIdx.x] = 1; }\n");
    gl_compiled c;
    gl_error err = {0};
    ck_assert_msg(gl_compile_cuda(src, NULL, &c, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(c.cached, 0);
    gl_compiled_free(&c);
    write_text(src, "extern \"C\" __global__ void k(int *p) { p[threadIdx.x] = 2; }\n");
    ck_assert_msg(gl_compile_cuda(src, NULL, &c, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(c.cached, 0);
    ck_assert_ptr_nonnull(strstr(c.ptx, "2"));
    gl_compiled_free(&c);
    /* another architecture than the default (the simulator's sm_90) */
    gl_compile_opts arch = {.arch = "compute_75"};
    ck_assert_msg(gl_compile_cuda(src, &arch, &c, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(c.cached, 0);
    ck_assert_ptr_nonnull(strstr(c.ptx, ".target sm_75"));
    gl_compiled_free(&c);
    gl_compile_opts clang = {.compiler = GL_CC_CLANG};
    gl_status st = gl_compile_cuda(src, &clang, &c, &err);
    if (st == GL_OK) {
        ck_assert_int_eq(c.cached, 0);
        ck_assert_int_eq(c.used, GL_CC_CLANG);
        gl_compiled_free(&c);
        ck_assert_int_eq(gl_compile_cuda(src, &clang, &c, &err), GL_OK);
        ck_assert_int_eq(c.cached, 1);
        ck_assert_int_eq(c.used, GL_CC_CLANG);
        gl_compiled_free(&c);
        ck_assert_int_eq(count_files(dir, ".ptx"), 4);
    }
}
END_TEST

/* The prelude's folders are part of the key whole: a header added to include/ (clang) or
 * nvrtc/ (NVRTC), or one changed deep in include/, misses the cache; a dot file (an
 * editor's temporary file) does not. Runs on a copy of runtime/prelude. */
START_TEST(test_any_prelude_header_added_or_changed_misses_the_cache)
{
    char dir[400], pre[500], cmd[1200], file[700];
    fresh_cache(dir, sizeof dir);
    snprintf(pre, sizeof pre, "%.*s/prelude", (int)(strlen(dir) - 9), dir);
    snprintf(cmd, sizeof cmd, "cp -R runtime/prelude '%s'", pre);
    ck_assert_int_eq(system(cmd), 0);
    setenv("GPULEARN_PRELUDE_DIR", pre, 1);
    /* per compiler: a file of its folder, how it is edited, whether the cache still hits */
    static const struct {
        gl_compiler cc;
        const char *rel, *mode;
        int hit;
    } edits[] = {
        {GL_CC_CLANG, "include/cooperative_groups/unused.h", "w", 0},
        {GL_CC_CLANG, "include/cooperative_groups/details/functional.h", "a", 0},
        {GL_CC_CLANG, "include/.functional.h.swp", "w", 1},
        {GL_CC_NVRTC, "nvrtc/unused.h", "w", 0},
        {GL_CC_NVRTC, "nvrtc/cmath", "a", 0},
        {GL_CC_NVRTC, "nvrtc/.cmath.swp", "w", 1},
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        gl_compile_opts o = {.compiler = edits[e].cc};
        gl_compiled c;
        gl_error err = {0};
        if (gl_compile_cuda(KDIR "good.cu", &o, &c, &err) != GL_OK) {
            printf("SKIP: %s not installed (%s)\n", gl_compiler_name(o.compiler), err.msg);
            continue;
        }
        gl_compiled_free(&c);
        snprintf(file, sizeof file, "%s/%s", pre, edits[e].rel);
        FILE *f = fopen(file, edits[e].mode);
        ck_assert_msg(f != NULL, "%s", file);
        fputs("/* edited */\n", f);
        fclose(f);
        ck_assert_msg(gl_compile_cuda(KDIR "good.cu", &o, &c, &err) == GL_OK, "%s", err.msg);
        ck_assert_msg(c.cached == edits[e].hit, "%s after editing %s: cached %d",
                      gl_compiler_name(o.compiler), edits[e].rel, c.cached);
        gl_compiled_free(&c);
    }
    unsetenv("GPULEARN_PRELUDE_DIR");
}
END_TEST

START_TEST(test_cache_off_and_quoted_includes_always_compile)
{
    char dir[400], src[500], hdr[500];
    fresh_cache(dir, sizeof dir);
    gl_compiled c;
    gl_error err = {0};
    gl_compile_opts off = {.no_cache = 1};
    ck_assert_int_eq(gl_compile_cuda(KDIR "good.cu", &off, &c, &err), GL_OK);
    ck_assert_int_eq(c.cached, 0);
    gl_compiled_free(&c);
    ck_assert_int_eq(count_files(dir, ".ptx"), 0);
    setenv("GPULEARN_NO_CACHE", "1", 1);
    ck_assert_int_eq(gl_compile_cuda(KDIR "good.cu", NULL, &c, &err), GL_OK);
    gl_compiled_free(&c);
    ck_assert_int_eq(gl_compile_cuda(KDIR "good.cu", NULL, &c, &err), GL_OK);
    ck_assert_int_eq(c.cached, 0);
    gl_compiled_free(&c);
    ck_assert_int_eq(count_files(dir, ".ptx"), 0);
    unsetenv("GPULEARN_NO_CACHE");
    /* A header of the learner's own is not in the key: never cached. */
    snprintf(hdr, sizeof hdr, "%.*s/k.h", (int)(strlen(dir) - 9), dir);
    snprintf(src, sizeof src, "%.*s/k.cu", (int)(strlen(dir) - 9), dir);
    write_text(hdr, "#define VALUE 1\n");
    write_text(src, "#include \"k.h\"\nextern \"C\" __global__ void k(int *p) { p[0] = VALUE; }\n");
    ck_assert_msg(gl_compile_cuda(src, NULL, &c, &err) == GL_OK, "%s", err.msg);
    gl_compiled_free(&c);
    ck_assert_int_eq(gl_compile_cuda(src, NULL, &c, &err), GL_OK);
    ck_assert_int_eq(c.cached, 0);
    gl_compiled_free(&c);
    ck_assert_int_eq(count_files(dir, ".ptx"), 0);
}
END_TEST

START_TEST(test_damaged_cache_entry_is_a_miss_and_is_replaced)
{
    char dir[400];
    fresh_cache(dir, sizeof dir);
    gl_compiled c;
    gl_error err = {0};
    ck_assert_int_eq(gl_compile_cuda(KDIR "good.cu", NULL, &c, &err), GL_OK);
    char *good = strdup(c.ptx);
    gl_compiled_free(&c);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    char path[800] = "";
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    closedir(d);
    write_text(path, "gpulearn-ptx-cache 1\ncompiler nvrtc\ncommand x\nlog 0\nptx 99999\n.ver");
    ck_assert_int_eq(gl_compile_cuda(KDIR "good.cu", NULL, &c, &err), GL_OK);
    ck_assert_int_eq(c.cached, 0);
    ck_assert_str_eq(c.ptx, good);
    gl_compiled_free(&c);
    ck_assert_int_eq(gl_compile_cuda(KDIR "good.cu", NULL, &c, &err), GL_OK);
    ck_assert_int_eq(c.cached, 1);
    ck_assert_str_eq(c.ptx, good);
    gl_compiled_free(&c);
    /* a current entry whose PTX changed (one byte) no longer matches its SHA-256: it is
     * removed, compiled again with a warning that names it, and cached again */
    char *text = NULL;
    size_t len = 0;
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    text = malloc(1 << 20);
    len = fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    text[len] = '\0';
    char *entry = strstr(text, ".entry");
    ck_assert_ptr_nonnull(entry);
    entry[1] = 'E';
    f = fopen(path, "wb");
    fwrite(text, 1, len, f);
    fclose(f);
    free(text);
    ck_assert_int_eq(gl_compile_cuda(KDIR "good.cu", NULL, &c, &err), GL_OK);
    ck_assert_int_eq(c.cached, 0);
    ck_assert_str_eq(c.ptx, good);
    ck_assert_ptr_nonnull(c.log);
    ck_assert_msg(strstr(c.log, "was damaged: removed it and compiled again") &&
                      strstr(c.log, path),
                  "%s", c.log);
    gl_compiled_free(&c);
    ck_assert_int_eq(gl_compile_cuda(KDIR "good.cu", NULL, &c, &err), GL_OK);
    ck_assert_int_eq(c.cached, 1);
    ck_assert(!c.log || !strstr(c.log, "damaged"));
    gl_compiled_free(&c);
    free(good);
}
END_TEST

START_TEST(test_cache_keeps_the_compilers_warnings)
{
    char dir[400];
    fresh_cache(dir, sizeof dir);
    gl_compiled a, b;
    gl_error err = {0};
    ck_assert_int_eq(gl_compile_cuda(KDIR "warn.cu", NULL, &a, &err), GL_OK);
    ck_assert_int_eq(gl_compile_cuda(KDIR "warn.cu", NULL, &b, &err), GL_OK);
    ck_assert_int_eq(b.cached, 1);
    if (a.log)
        ck_assert_str_eq(a.log, b.log);
    else
        ck_assert_ptr_null(b.log);
    gl_compiled_free(&a);
    gl_compiled_free(&b);
}
END_TEST

static Suite *compile_suite(void)
{
    Suite *s = suite_create("compile");
    TCase *tc = tcase_create("compilers");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_good_kernel_compiles_to_ptx_with_entry_and_line_info, 0,
                        NCOMPILERS);
    tcase_add_loop_test(tc, test_syntax_error_reports_path_line_and_column, 0, NCOMPILERS);
    tcase_add_loop_test(tc, test_printf_atomics_and_syncthreads_compile_without_includes, 0,
                        NCOMPILERS);
    tcase_add_loop_test(tc, test_warnings_go_to_log_not_error, 0, NCOMPILERS);
    tcase_add_loop_test(tc, test_intrinsics_are_on_the_lines_that_call_them, 0, 2 * NCOMPILERS);
    tcase_add_loop_test(tc, test_inlined_at_names_a_preceding_loc, 0, 5 * NCOMPILERS);
    tcase_add_loop_test(tc, test_nested_header_code_is_on_the_line_that_called_it, 0, NCOMPILERS);
    tcase_add_loop_test(tc, test_race_in_nested_header_code_names_the_calling_lines, 0, NCOMPILERS);
    tcase_add_loop_test(tc, test_cub_umbrella_header_compiles_where_cub_is_available, 0,
                        NCOMPILERS);
    tcase_add_test(tc, test_device_wide_cub_under_nvrtc_says_it_is_host_code);
    tcase_add_loop_test(tc, test_inline_asm_is_on_the_calling_line_not_an_operand_line, 0,
                        NCOMPILERS);
    tcase_add_test(tc, test_unknown_compiler_in_env_fails_cleanly);
    tcase_add_test(tc, test_env_forces_one_compiler);
    tcase_add_test(tc, test_missing_compiler_says_what_to_install);
    tcase_add_test(tc, test_unreadable_file_is_input_error);
    tcase_add_test(tc, test_bad_arch_is_usage_error);
    suite_add_tcase(s, tc);
    TCase *cache = tcase_create("cache");
    tcase_set_timeout(cache, 120);
    tcase_add_test(cache, test_sha256_matches_fips_180_vectors);
    tcase_add_test(cache, test_cache_key_and_entry_of_an_earlier_build_are_still_found);
    tcase_add_test(cache, test_second_compile_comes_from_cache_without_recompiling);
    tcase_add_test(cache, test_sandboxed_compiles_are_cached_apart_and_run_at_once);
    tcase_add_test(cache, test_changed_source_or_arch_or_compiler_misses_the_cache);
    tcase_add_test(cache, test_any_prelude_header_added_or_changed_misses_the_cache);
    tcase_add_test(cache, test_cache_off_and_quoted_includes_always_compile);
    tcase_add_test(cache, test_damaged_cache_entry_is_a_miss_and_is_replaced);
    tcase_add_test(cache, test_cache_keeps_the_compilers_warnings);
    suite_add_tcase(s, cache);
    TCase *gpu = tcase_create("gpu");
    tcase_set_timeout(gpu, 120);
    tcase_add_test(gpu, test_gpu_runs_vec_add_or_reports_no_driver);
    suite_add_tcase(s, gpu);
    return s;
}

int main(void)
{
    return temp_cache_run_suite(compile_suite());
}
