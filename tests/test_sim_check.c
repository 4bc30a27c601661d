/* test_sim_check.c — the simulator's checkers (memcheck, initcheck, racecheck,
 * synccheck), its trace and its random schedule, on real kernels compiled from CUDA C
 * (tests/kernels/check/NAME.cu → tests/fixtures/ptx/NAME.{nvcc,clang}.ptx, same
 * commands as tools/gen_ptx_fixtures.sh). Source lines asserted here are the lines of
 * those .cu files. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "tests/fixture.h"
#include "trace/trace.h"

/* The first finding of `kind`, or NULL. */
static const sim_finding *find(const sim_result *r, sim_finding_kind kind)
{
    for (int i = 0; i < r->nfindings; i++)
        if (r->findings[i].kind == kind)
            return &r->findings[i];
    return NULL;
}

static void dump(const sim_result *r)
{
    for (int i = 0; i < r->nfindings; i++)
        fprintf(stderr, "  finding %d (kind %d, x%llu): %s\n", i, r->findings[i].kind,
                (unsigned long long)r->findings[i].count, r->findings[i].message);
}

/* Runs a kernel over one block of `threads` with two int buffers (in: 0..n-1, copied;
 * out: written). */
static sim_status run_in_out(sim_t *s, ptx_module_t *m, const char *kernel, unsigned threads,
                             int *out, sim_result *r)
{
    int in[256];
    for (int i = 0; i < 256; i++)
        in[i] = i;
    uint64_t din = fixture_upload(s, in, sizeof in, "in"),
             dout = fixture_upload(s, out, 256 * sizeof *out, "out");
    void *params[] = {&din, &dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    sim_status st = sim_launch(s, m, kernel, grid, block, 0, params, r);
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, 256 * sizeof *out), SIM_OK);
    return st;
}

/* ------------------------------------------------- where warps are, atomics and init */

/* Warp 0 waits at the barrier (waits.cu:6) while warp 1 spins on a flag nobody sets
 * (waits.cu:8-9): a deadlock found as soon as warp 1's state repeats, well before the
 * step limit, naming where every warp of the block is. */
START_TEST(test_spin_deadlock_is_found_at_once_naming_each_warp)
{
    ptx_module_t *m = fixture_load("waits", _i);
    sim_config cfg = {.step_limit = 20000};
    sim_t *s = sim_new(&cfg);
    uint64_t dflag = fixture_upload(s, NULL, 4, "flag");
    void *params[] = {&dflag};
    unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "spin_past_barrier", grid, block, 0, params, &r),
                     SIM_ERR_FAULT);
    ck_assert_int_eq(r.fault.kind, SIM_FAULT_DEADLOCK);
    ck_assert_msg(strstr(r.fault.message, "deadlock: no thread can make progress: warp 1 loops "
                                          "at waits.cu:"),
                  "%s", r.fault.message);
    ck_assert_msg(strstr(r.fault.message, "warps of block (0,0,0): 0 waits at the barrier at "
                                          "waits.cu:6 "),
                  "%s", r.fault.message);
    ck_assert_msg(strstr(r.fault.message, ", 1 loops at waits.cu:"), "%s", r.fault.message);
    ck_assert_msg(r.stats.warp_instructions < 2000, "found after %llu warp instructions",
                  (unsigned long long)r.stats.warp_instructions);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* An atomic reads the word it updates: on shared memory nothing stored it is an
 * uninitialised read (the poison, not zero, is what it adds 1 to). */
START_TEST(test_atomic_on_unwritten_shared_word_is_an_uninitialised_read)
{
    ptx_module_t *m = fixture_load("waits", _i);
    sim_t *s = sim_new(NULL);
    uint64_t dout = fixture_upload(s, NULL, 64 * 4, "out");
    void *params[] = {&dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "atomic_uninit", grid, block, 0, params, &r), SIM_OK);
    const sim_finding *f = find(&r, SIM_FIND_UNINIT_READ);
    if (!f)
        dump(&r);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->space, SIM_SPACE_SHARED);
    /* (nvcc attributes the atom to its device_atomic_functions.hpp) */
    ck_assert_uint_eq(f->count, 64);
    int out[64];
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    ck_assert_int_ne(out[0], 1); /* poison + 1 */
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------- global-memory races, half-warp rows */

/* grace_halves.cu: each warp stores 32 words as two half-warp rows with a gap between
 * them (words 0-15 and 32-47), the global race detector's one-pass form
 * (sim_mem.h grace_rows). Without a barrier warp 1's store overwrites warp 0's: one
 * write-after-write finding per lane of warp 1, the first naming thread 32 and thread 0;
 * with barriers between them nothing is reported and every thread reads warp 1's 2.0,
 * also after the records of the first store (live, another warp's) sent the second
 * through the per-lane checks. */
START_TEST(test_global_half_warp_rows_race_and_barrier)
{
    ptx_module_t *m = fixture_load("grace_halves", _i);
    for (int sync = 0; sync < 2; sync++) {
        sim_t *s = sim_new(NULL);
        uint64_t dbuf = fixture_upload(s, NULL, 64 * 4, "buf"),
                 dout = fixture_upload(s, NULL, 64 * 4, "out");
        void *params[] = {&dbuf, &dout, &sync};
        unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
        sim_result r;
        ck_assert_int_eq(sim_launch(s, m, "store_halves", grid, block, 0, params, &r), SIM_OK);
        const sim_finding *f = find(&r, SIM_FIND_GLOBAL_RACE);
        if (sync) {
            if (f)
                dump(&r);
            ck_assert_ptr_null(f);
            float out[64];
            ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
            for (int t = 0; t < 64; t++)
                ck_assert_float_eq(out[t], 2.0f);
        } else {
            if (!f)
                dump(&r);
            ck_assert_ptr_nonnull(f);
            ck_assert_int_eq(f->hazard, SIM_HAZ_WAW);
            ck_assert_uint_eq(f->access.thread[0], 32);
            ck_assert_uint_eq(f->other.thread[0], 0);
            ck_assert_uint_eq(f->address % 256, 0); /* word 0 of buf */
            ck_assert_uint_eq(f->count, 32);
        }
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------------------ racecheck */

START_TEST(test_reverse_without_syncthreads_reports_race_naming_both_lines)
{
    ptx_module_t *m = fixture_load("races", _i);
    sim_t *s = sim_new(NULL);
    int out[256] = {0};
    sim_result r;
    sim_status st = run_in_out(s, m, "reverse_racy", 256, out, &r);
    ck_assert_int_eq(st, SIM_OK); /* a race is reported, the launch goes on */
    const sim_finding *f = find(&r, SIM_FIND_RACE);
    if (!f)
        dump(&r);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->is_error, 1);
    ck_assert_int_eq(f->space, SIM_SPACE_SHARED);
    ck_assert_int_eq(f->hazard, SIM_HAZ_RAW);
    ck_assert_int_eq(f->size, 4);
    ck_assert_int_eq(f->access.op, 0);
    ck_assert_int_eq(f->access.src_line, 8); /* out[t] = s[blockDim.x - 1 - t]; */
    ck_assert_int_eq(f->other.op, 1);
    ck_assert_int_eq(f->other.src_line, 7); /* s[t] = in[t]; */
    ck_assert_uint_ne(f->access.thread[0] / 32, f->other.thread[0] / 32);
    ck_assert_msg(strstr(f->message, "races.cu:8") && strstr(f->message, "races.cu:7") &&
                      strstr(f->message, "__syncthreads()"),
                  "%s", f->message);
    /* the element by its source name, from the PTX's mangled .shared symbol */
    char want[32];
    snprintf(want, sizeof want, "s[%llu]", (unsigned long long)(f->address / 4));
    ck_assert_str_eq(f->var, want);
    ck_assert_msg(strstr(f->message, want), "%s", f->message);
    ck_assert_int_gt(r.nerrors, 0);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_reverse_with_syncthreads_reports_nothing)
{
    ptx_module_t *m = fixture_load("races", _i);
    sim_t *s = sim_new(NULL);
    int out[256] = {0};
    sim_result r;
    ck_assert_int_eq(run_in_out(s, m, "reverse_fixed", 256, out, &r), SIM_OK);
    if (r.nfindings)
        dump(&r);
    ck_assert_int_eq(r.nfindings, 0);
    ck_assert_int_eq(r.nerrors + r.nwarnings, 0);
    for (int i = 0; i < 256; i++)
        ck_assert_int_eq(out[i], 255 - i);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_hazard_inside_one_warp_is_an_error)
{
    ptx_module_t *m = fixture_load("races", _i);
    sim_t *s = sim_new(NULL);
    int out[256] = {0};
    sim_result r;
    ck_assert_int_eq(run_in_out(s, m, "swap_in_warp", 64, out, &r), SIM_OK);
    const sim_finding *f = find(&r, SIM_FIND_WARP_RACE);
    if (!f)
        dump(&r);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->is_error, 1);
    ck_assert_int_eq(f->access.src_line, 26);
    ck_assert_int_eq(f->other.src_line, 25);
    ck_assert_uint_eq(f->access.thread[0] / 32, f->other.thread[0] / 32);
    ck_assert_msg(strstr(f->message, "independent thread scheduling") != NULL, "%s", f->message);
    ck_assert_ptr_null(find(&r, SIM_FIND_RACE));
    ck_assert_int_gt(r.nerrors, 0);
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(out[i], i ^ 1);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_overwriting_what_another_warp_read_is_a_write_after_read_race)
{
    ptx_module_t *m = fixture_load("races", _i);
    sim_t *s = sim_new(NULL);
    int data[256];
    for (int i = 0; i < 256; i++)
        data[i] = i;
    uint64_t d = fixture_upload(s, data, sizeof data, "data");
    void *params[] = {&d};
    unsigned grid[3] = {1, 1, 1}, block[3] = {256, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "rotate_by_a_warp", grid, block, 0, params, &r), SIM_OK);
    const sim_finding *f = find(&r, SIM_FIND_RACE);
    if (!f)
        dump(&r);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->hazard, SIM_HAZ_WAR);
    ck_assert_int_eq(f->access.op, 1);
    ck_assert_int_eq(f->access.src_line, 56); /* s[t] = v; */
    ck_assert_int_eq(f->other.op, 0);
    ck_assert_int_eq(f->other.src_line, 55); /* int v = s[(t + 32) % blockDim.x]; */
    ck_assert_msg(strstr(f->message, "write after read") != NULL, "%s", f->message);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_checks_off_silences_racecheck)
{
    ptx_module_t *m = fixture_load("races", _i);
    sim_config cfg = {.checks_off = SIM_CHECK_RACE};
    sim_t *s = sim_new(&cfg);
    int out[256] = {0};
    sim_result r;
    ck_assert_int_eq(run_in_out(s, m, "reverse_racy", 256, out, &r), SIM_OK);
    ck_assert_int_eq(r.nfindings, 0);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------------------ initcheck */

START_TEST(test_read_of_unwritten_shared_memory_warns)
{
    ptx_module_t *m = fixture_load("races", _i);
    sim_t *s = sim_new(NULL);
    int out[256] = {0};
    uint64_t dout = fixture_upload(s, out, sizeof out, "out");
    void *params[] = {&dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "half_filled", grid, block, 0, params, &r), SIM_OK);
    const sim_finding *f = find(&r, SIM_FIND_UNINIT_READ);
    if (!f)
        dump(&r);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->is_error, 0);
    ck_assert_int_eq(f->space, SIM_SPACE_SHARED);
    ck_assert_int_eq(f->access.src_line, 37);
    ck_assert_uint_ge(f->access.thread[0], 32);
    ck_assert_uint_eq(f->count, 32); /* threads 32..63, one report */
    ck_assert_ptr_null(find(&r, SIM_FIND_RACE));
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_read_of_never_written_global_memory_warns_and_runs_on)
{
    ptx_module_t *m = fixture_load("races", _i);
    for (int copied = 0; copied < 2; copied++) {
        sim_t *s = sim_new(NULL);
        float in[64], out[64];
        for (int i = 0; i < 64; i++)
            in[i] = (float)i;
        uint64_t din = fixture_upload(s, copied ? in : NULL, sizeof in, "in");
        uint64_t dout = fixture_upload(s, NULL, sizeof out, "out");
        void *params[] = {&din, &dout};
        unsigned grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
        sim_result r;
        ck_assert_int_eq(sim_launch(s, m, "copy_in", grid, block, 0, params, &r), SIM_OK);
        const sim_finding *f = find(&r, SIM_FIND_UNINIT_READ);
        if (copied) {
            ck_assert_ptr_null(f);
            ck_assert_int_eq(r.nwarnings, 0);
        } else {
            ck_assert_ptr_nonnull(f);
            ck_assert_int_eq(f->space, SIM_SPACE_GLOBAL);
            ck_assert_uint_eq(f->address, din);
            ck_assert_int_eq(f->access.src_line, 44);
            ck_assert_uint_eq(f->count, 64);
            ck_assert_msg(strstr(f->message, "'in'") != NULL, "%s", f->message);
            ck_assert_int_eq(r.nerrors, 0);
        }
        /* what the kernel stored counts as written */
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

/* sim_fill_fn of the test below: floats 0, 1, 2, ... over memory that is not zeroed;
 * adds the bytes it was given to *ctx. */
static void fill_iota(void *ctx, void *dst, size_t bytes)
{
    *(size_t *)ctx += bytes;
    for (size_t i = 0; i < bytes / 4; i++) {
        const float x = (float)i;
        memcpy((char *)dst + 4 * i, &x, 4);
    }
}

/* sim_malloc_init writes an allocation's contents in place (init_rows.cu reads g,
 * filled by the callback, and out, zeros) and counts every byte as written, as
 * sim_memcpy_htod does: no uninitialised read. sim_release_data hands out's memory
 * over, once, and only for an allocation's own address. */
START_TEST(test_malloc_init_fills_in_place_and_counts_every_byte_written)
{
    ptx_module_t *m = fixture_load("init_rows", _i);
    sim_t *s = sim_new(NULL);
    size_t filled = 0;
    uint64_t dg, dout;
    ck_assert_int_eq(sim_malloc_init(s, 256 * 4, "g", fill_iota, &filled, &dg), SIM_OK);
    ck_assert_uint_eq(filled, 256 * 4);
    ck_assert_int_eq(sim_malloc_init(s, 256 * 4, "out", NULL, NULL, &dout), SIM_OK);
    float zeros[256];
    ck_assert_int_eq(sim_memcpy_dtoh(s, zeros, dout, sizeof zeros), SIM_OK);
    for (int i = 0; i < 256; i++)
        ck_assert_float_eq(zeros[i], 0.0f);
    void *params[] = {&dg, &dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {16, 16, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "rows", grid, block, 0, params, &r), SIM_OK);
    if (r.nfindings)
        dump(&r);
    ck_assert_int_eq(r.nfindings, 0);
    ck_assert_ptr_null(sim_release_data(s, dout + 4));
    float *out = sim_release_data(s, dout);
    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_null(sim_release_data(s, dout));
    for (int i = 0; i < 256; i++)
        ck_assert_float_eq(out[i], (float)i + (float)(i / 16));
    free(out);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* initcheck of whole warps' global loads in two half-warp patterns (init_rows.cu: a
 * 16x16 block, each warp reading two rows of 16 words and one word per half-warp). The
 * never-written reads are counted per lane, whichever way the warp's request is checked. */
START_TEST(test_read_of_never_written_global_rows_and_broadcasts_counts_each_lane)
{
    ptx_module_t *m = fixture_load("init_rows", _i);
    /* unwritten: [first, first + n) floats of g; expected: lanes that read them */
    const struct {
        unsigned first, n, lanes;
    } cases[] = {
        {128, 128, 128},   /* rows 8-15: warps 4-7's row loads */
        {0, 16, 16 + 256}, /* g[0..15]: row 0 (half of warp 0) and every broadcast */
        {16, 16, 16},      /* row 1: warp 0's second half-warp only */
        {1, 1, 1 + 16},    /* g[1]: one lane of row 0, warp 0's second broadcast */
        {0, 0, 0},         /* all written */
    };
    for (unsigned k = 0; k < sizeof cases / sizeof *cases; k++) {
        sim_t *s = sim_new(NULL);
        float g[256], out[256];
        for (int i = 0; i < 256; i++)
            g[i] = (float)i;
        uint64_t dg = fixture_upload(s, g, sizeof g, "g");
        uint64_t dout = fixture_upload(s, NULL, sizeof out, "out");
        if (cases[k].n)
            ck_assert_int_eq(sim_set_written(s, dg + 4 * cases[k].first, 4 * cases[k].n, 0),
                             SIM_OK);
        void *params[] = {&dg, &dout};
        unsigned grid[3] = {1, 1, 1}, block[3] = {16, 16, 1};
        sim_result r;
        ck_assert_int_eq(sim_launch(s, m, "rows", grid, block, 0, params, &r), SIM_OK);
        uint64_t lanes = 0;
        const sim_finding *first = NULL;
        for (int i = 0; i < r.nfindings; i++) {
            const sim_finding *f = &r.findings[i];
            ck_assert_int_eq(f->kind, SIM_FIND_UNINIT_READ);
            ck_assert_int_eq(f->space, SIM_SPACE_GLOBAL);
            ck_assert_int_eq(f->access.src_line, 7);
            lanes += f->count;
            if (!first)
                first = f;
        }
        ck_assert_uint_eq(lanes, cases[k].lanes);
        if (cases[k].n)
            ck_assert_uint_eq(first->address, dg + 4 * cases[k].first);
        ck_assert_int_eq(r.nerrors, 0);
        ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
        for (int i = 0; i < 256; i++) /* the kernel runs on: g's values as uploaded */
            ck_assert_float_eq(out[i], g[i] + g[i / 16]);
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------------------ memcheck */

START_TEST(test_shared_overrun_faults_with_its_line)
{
    ptx_module_t *m = fixture_load("faults", _i);
    sim_t *s = sim_new(NULL);
    int out[256];
    uint64_t dout = fixture_upload(s, NULL, sizeof out, "out");
    void *params[] = {&dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "shared_overrun", grid, block, 0, params, &r), SIM_ERR_FAULT);
    ck_assert_int_eq(r.fault.kind, SIM_FAULT_OUT_OF_BOUNDS);
    ck_assert_int_eq(r.fault.space, SIM_SPACE_SHARED);
    ck_assert_int_eq(r.fault.src_line, 6);
    ck_assert_uint_eq(r.fault.thread[0], 64);
    ck_assert_msg(strstr(r.fault.message, "256 bytes of shared memory") != NULL, "%s",
                  r.fault.message);
    const sim_finding *f = find(&r, SIM_FIND_OUT_OF_BOUNDS);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->is_error, 1);
    ck_assert_int_eq(f->access.src_line, 6);
    ck_assert_msg(strstr(f->message, "faults.cu:6: block (0,0,0) thread (64,0,0)") != NULL, "%s",
                  f->message);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* Whole warps' unit-stride words (warp_rows.cu), which the simulator checks 32 at a time:
 * a fault still names the first lane that faults, its block and the access. */
START_TEST(test_whole_warp_rows_past_the_end_fault_at_their_first_lane)
{
    ptx_module_t *m = fixture_load("warp_rows", _i);
    /* in and out of `in_n` and `out_n` ints; 2 blocks of 32 threads */
    const struct {
        unsigned in_n, out_n;
        int is_store;
        unsigned block, thread;
    } cases[] = {
        {40, 64, 0, 1, 8},  /* block 1 loads in[40..63]: lane 8 first past the end */
        {64, 33, 1, 1, 1},  /* block 1 stores out[32..63]: lane 1 first */
        {64, 64, -1, 0, 0}, /* every access inside: runs to the end */
    };
    for (unsigned k = 0; k < sizeof cases / sizeof *cases; k++) {
        sim_t *s = sim_new(NULL);
        int in[64], out[64];
        for (int i = 0; i < 64; i++)
            in[i] = 10 * i;
        uint64_t din = fixture_upload(s, in, 4 * cases[k].in_n, "in");
        uint64_t dout = fixture_upload(s, NULL, 4 * cases[k].out_n, "out");
        void *params[] = {&din, &dout};
        unsigned grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
        sim_result r;
        sim_status st = sim_launch(s, m, "copy_plus_one", grid, block, 0, params, &r);
        if (cases[k].is_store < 0) {
            ck_assert_int_eq(st, SIM_OK);
            ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
            for (int i = 0; i < 64; i++)
                ck_assert_int_eq(out[i], 10 * i + 1);
        } else {
            ck_assert_int_eq(st, SIM_ERR_FAULT);
            ck_assert_int_eq(r.fault.kind, SIM_FAULT_OUT_OF_BOUNDS);
            ck_assert_int_eq(r.fault.space, SIM_SPACE_GLOBAL);
            ck_assert_int_eq(r.fault.is_store, cases[k].is_store);
            ck_assert_uint_eq(r.fault.block[0], cases[k].block);
            ck_assert_uint_eq(r.fault.thread[0], cases[k].thread);
            ck_assert_uint_eq(r.fault.address,
                              (cases[k].is_store ? dout : din) + 4 * (32 + cases[k].thread));
            ck_assert_int_eq(r.fault.src_line, 7);
        }
        sim_result_free(&r);
        sim_free(s);
    }
    /* two bytes past the words' alignment: lane 0 of block 0 is misaligned */
    sim_t *s = sim_new(NULL);
    uint64_t din = fixture_upload(s, NULL, 4 * 65, "in"),
             dout = fixture_upload(s, NULL, 256, "out");
    void *params[] = {&din, &dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "copy_misaligned", grid, block, 0, params, &r),
                     SIM_ERR_FAULT);
    ck_assert_int_eq(r.fault.kind, SIM_FAULT_MISALIGNED);
    ck_assert_uint_eq(r.fault.thread[0], 0);
    ck_assert_uint_eq(r.fault.address, din + 2);
    ck_assert_int_eq(r.fault.src_line, 15);
    sim_result_free(&r);
    sim_free(s);
    /* 64 threads, 48 shared words: warp 1's store runs past them at thread 48, with the
     * checkers that look at shared memory on and off */
    for (int off = 0; off < 2; off++) {
        sim_config cfg = {.checks_off = off ? SIM_CHECK_RACE | SIM_CHECK_INIT : 0};
        s = sim_new(&cfg);
        din = fixture_upload(s, NULL, 256, "in");
        dout = fixture_upload(s, NULL, 256, "out");
        void *params2[] = {&din, &dout};
        block[0] = 64;
        ck_assert_int_eq(sim_launch(s, m, "shared_rows", grid, block, 0, params2, &r),
                         SIM_ERR_FAULT);
        ck_assert_int_eq(r.fault.kind, SIM_FAULT_OUT_OF_BOUNDS);
        ck_assert_int_eq(r.fault.space, SIM_SPACE_SHARED);
        ck_assert_int_eq(r.fault.is_store, 1);
        ck_assert_uint_eq(r.fault.thread[0], 48);
        ck_assert_int_eq(r.fault.src_line, 24);
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

START_TEST(test_local_array_overrun_faults_with_its_line)
{
    ptx_module_t *m = fixture_load("faults", _i);
    sim_t *s = sim_new(NULL);
    int idx[32], out[32];
    for (int i = 0; i < 32; i++) {
        idx[i] = i == 5 ? 100 : i % 8;
        out[i] = 1;
    }
    uint64_t didx = fixture_upload(s, idx, sizeof idx, "idx"),
             dout = fixture_upload(s, out, sizeof out, "out");
    void *params[] = {&didx, &dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "local_overrun", grid, block, 0, params, &r), SIM_ERR_FAULT);
    ck_assert_int_eq(r.fault.kind, SIM_FAULT_OUT_OF_BOUNDS);
    ck_assert_int_eq(r.fault.space, SIM_SPACE_LOCAL);
    ck_assert_int_eq(r.fault.src_line, 18);
    ck_assert_uint_eq(r.fault.thread[0], 5);
    ck_assert_msg(strstr(r.fault.message, "local memory") != NULL, "%s", r.fault.message);
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------------------ synccheck */

START_TEST(test_threads_at_different_named_barriers_deadlock_naming_both_lines)
{
    ptx_module_t *m = fixture_load("faults", _i);
    sim_t *s = sim_new(NULL);
    uint64_t dout = fixture_upload(s, NULL, 64 * sizeof(int), "out");
    void *params[] = {&dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "two_barriers", grid, block, 0, params, &r), SIM_ERR_FAULT);
    ck_assert_int_eq(r.fault.kind, SIM_FAULT_DEADLOCK);
    ck_assert_msg(strstr(r.fault.message, "32 thread(s) wait at faults.cu:27") &&
                      strstr(r.fault.message, "32 thread(s) wait at faults.cu:29") &&
                      strstr(r.fault.message, "(barrier 1)") &&
                      strstr(r.fault.message, "(barrier 2)"),
                  "%s", r.fault.message);
    ck_assert_ptr_nonnull(find(&r, SIM_FIND_DEADLOCK));
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_syncthreads_in_both_arms_of_an_if_warns_but_completes)
{
    ptx_module_t *m = fixture_load("faults", _i);
    sim_t *s = sim_new(NULL);
    int out[256] = {0};
    sim_result r;
    ck_assert_int_eq(run_in_out(s, m, "split_barrier", 32, out, &r), SIM_OK);
    const sim_finding *f = find(&r, SIM_FIND_DIVERGENT_BARRIER);
    if (_i == 0) { /* nvcc keeps the two barriers */
        if (!f)
            dump(&r);
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(f->is_error, 0);
        ck_assert_msg(strstr(f->message, "16 thread(s) wait at faults.cu:41") &&
                          strstr(f->message, "16 thread(s) wait at faults.cu:44"),
                      "%s", f->message);
    } else { /* clang hoists one __syncthreads() above the if */
        ck_assert_ptr_null(f);
    }
    sim_result_free(&r);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------------------ schedule */

static char *hello_blocks(const ptx_module_t *m, int random, uint64_t seed)
{
    sim_config cfg = {.schedule_random = random, .schedule_seed = seed};
    sim_t *s = sim_new(&cfg);
    uint64_t dout = fixture_upload(s, NULL, 8 * sizeof(int), "out");
    void *params[] = {&dout};
    unsigned grid[3] = {8, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "hello_blocks", grid, block, 0, params, &r), SIM_OK);
    char *text = strndup(r.printf_out ? r.printf_out : "", r.printf_len);
    int out[8];
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(out[i], i);
    sim_result_free(&r);
    sim_free(s);
    return text;
}

START_TEST(test_racecheck_finds_the_race_under_every_schedule)
{
    ptx_module_t *m = fixture_load("races", _i);
    for (uint64_t seed = 0; seed < 4; seed++) {
        sim_config cfg = {.schedule_random = seed > 0, .schedule_seed = seed};
        sim_t *s = sim_new(&cfg);
        int out[256] = {0};
        sim_result r;
        ck_assert_int_eq(run_in_out(s, m, "reverse_racy", 256, out, &r), SIM_OK);
        const sim_finding *f = find(&r, SIM_FIND_RACE);
        ck_assert_msg(f != NULL, "seed %llu: no race found", (unsigned long long)seed);
        /* whichever access came second names the other */
        ck_assert(f->access.src_line + f->other.src_line == 15);
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

START_TEST(test_random_schedule_changes_printf_order_between_seeds)
{
    ptx_module_t *m = fixture_load("faults", _i);
    char *def = hello_blocks(m, 0, 0);
    ck_assert_str_eq(def, "block 0\nblock 1\nblock 2\nblock 3\nblock 4\nblock 5\nblock 6\n"
                          "block 7\n");
    char *a = hello_blocks(m, 1, 1), *a2 = hello_blocks(m, 1, 1), *b = hello_blocks(m, 1, 2);
    ck_assert_str_eq(a, a2); /* deterministic per seed */
    ck_assert_str_ne(a, b);
    ck_assert_str_ne(a, def);
    ck_assert_uint_eq(strlen(a), strlen(def)); /* the same lines, in another order */
    for (int i = 0; i < 8; i++) {
        char line[32];
        snprintf(line, sizeof line, "block %d\n", i);
        ck_assert_ptr_nonnull(strstr(a, line));
        ck_assert_ptr_nonnull(strstr(b, line));
    }
    free(def);
    free(a);
    free(a2);
    free(b);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_random_schedule_keeps_a_correct_reduction_exact)
{
    ptx_module_t *m = fixture_load("reduce", _i);
    enum { N = 3000 };
    int in[N];
    long long want = 0;
    for (int i = 0; i < N; i++) {
        in[i] = (i * 37) % 101 - 50;
        want += in[i];
    }
    for (uint64_t seed = 0; seed < 6; seed++) {
        sim_config cfg = {.schedule_random = seed > 0, .schedule_seed = seed};
        sim_t *s = sim_new(&cfg);
        int zero = 0, got = -1, n = N;
        uint64_t din = fixture_upload(s, in, sizeof in, "in"),
                 dout = fixture_upload(s, &zero, 4, "out");
        void *params[] = {&din, &dout, &n};
        unsigned grid[3] = {(N + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
        sim_result r;
        ck_assert_int_eq(sim_launch(s, m, "reduce_sum", grid, block, 0, params, &r), SIM_OK);
        ck_assert_int_eq(sim_memcpy_dtoh(s, &got, dout, 4), SIM_OK);
        ck_assert_int_eq(got, (int)want);
        if (r.nerrors)
            dump(&r);
        ck_assert_int_eq(r.nerrors, 0);
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------------------ trace */

static int count_kind(const trace_t *t, int kind)
{
    int n = 0;
    for (size_t i = 0; i < t->nevents; i++)
        n += t->events[i].kind == kind;
    return n;
}

START_TEST(test_trace_levels_record_issue_and_memory_events)
{
    ptx_module_t *m = fixture_load("races", _i);
    for (int level = TRACE_OFF; level <= TRACE_MEMORY; level++) {
        trace_t *tr = trace_new((trace_level)level, 0);
        sim_config cfg = {.trace = tr};
        sim_t *s = sim_new(&cfg);
        int out[256] = {0};
        sim_result r;
        ck_assert_int_eq(run_in_out(s, m, "reverse_fixed", 64, out, &r), SIM_OK);
        if (level == TRACE_OFF) {
            ck_assert_uint_eq(tr->nevents, 0);
        } else {
            ck_assert_uint_eq((uint64_t)count_kind(tr, TRACE_EV_ISSUE), r.stats.warp_instructions);
            ck_assert_int_eq(count_kind(tr, TRACE_EV_BLOCK_START), 1);
            ck_assert_int_eq(count_kind(tr, TRACE_EV_BLOCK_END), 1);
            ck_assert_int_eq(count_kind(tr, TRACE_EV_BAR_ARRIVE), 2); /* 2 warps */
            ck_assert_int_eq(count_kind(tr, TRACE_EV_BAR_RELEASE), 1);
            ck_assert_int_gt(tr->ninsns, 0);
            ck_assert_int_eq(tr->truncated, 0);
        }
        if (level == TRACE_MEMORY) {
            /* per warp: ld.global, st.shared, ld.shared, st.global */
            ck_assert_int_eq(count_kind(tr, TRACE_EV_MEM), 8);
            int shared_loads = 0;
            for (size_t i = 0; i < tr->nevents; i++) {
                const trace_event *e = &tr->events[i];
                if (e->kind != TRACE_EV_MEM)
                    continue;
                ck_assert_uint_eq(e->mask, 0xffffffffu);
                ck_assert_uint_eq(e->width, 4);
                ck_assert_int_eq(tr->insns[e->pc].src_line, e->space == TRACE_SPACE_SHARED
                                                                ? (e->op ? 15 : 17)
                                                                : (e->op ? 17 : 15));
                if (e->space == TRACE_SPACE_SHARED && e->op == TRACE_LOAD) {
                    const uint64_t *a = trace_event_addrs(tr, e);
                    for (unsigned l = 0; l < 32; l++) /* s[63 - t], relative to shared */
                        ck_assert_uint_eq(a[l], 4u * (63 - (e->warp * 32 + l)));
                    shared_loads++;
                }
            }
            ck_assert_int_eq(shared_loads, 2);
        } else {
            ck_assert_int_eq(count_kind(tr, TRACE_EV_MEM), 0);
        }
        sim_result_free(&r);
        sim_free(s);
        trace_free(tr);
    }
    ptx_module_free(m);
}
END_TEST

/* The round-robin schedule (README "Simulator"): warp 0 runs a long loop of
 * register-only instructions, which the simulator runs ahead of its turns; every event
 * others can see must still come at its round-robin step. Traced, the issue events are
 * one per step and alternate warp 0, warp 1 while both run; warp 1, on the shorter path,
 * takes the first ticket; each warp's clock read returns the step of its issue; and
 * tickets and clocks are the same untraced. */
START_TEST(test_round_robin_schedule_holds_across_long_register_only_runs)
{
    ptx_module_t *m = fixture_load("schedule", _i);
    unsigned order[2][2], when[2][2];
    for (int traced = 0; traced < 2; traced++) {
        trace_t *tr = traced ? trace_new(TRACE_ISSUE, 0) : NULL;
        sim_config cfg = {.trace = tr};
        sim_t *s = sim_new(&cfg);
        uint64_t dorder = fixture_upload(s, NULL, 8, "order");
        uint64_t dwhen = fixture_upload(s, NULL, 8, "when");
        uint64_t dcount = fixture_upload(s, NULL, 4, "counter");
        uint64_t dsink = fixture_upload(s, NULL, 64 * 4, "sink");
        int rounds = 50;
        void *params[] = {&dorder, &dwhen, &dcount, &dsink, &rounds};
        unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
        sim_result r;
        ck_assert_int_eq(sim_launch(s, m, "arrive", grid, block, 0, params, &r), SIM_OK);
        ck_assert_int_eq(sim_memcpy_dtoh(s, order[traced], dorder, 8), SIM_OK);
        ck_assert_int_eq(sim_memcpy_dtoh(s, when[traced], dwhen, 8), SIM_OK);
        ck_assert_uint_eq(order[traced][0], 1);
        ck_assert_uint_eq(order[traced][1], 0);
        ck_assert_uint_lt(when[traced][0] + 20, when[traced][1]); /* the loop: later */
        if (tr) {
            ck_assert_uint_eq((uint64_t)count_kind(tr, TRACE_EV_ISSUE), r.stats.warp_instructions);
            size_t last1 = 0; /* warp 1's last issue */
            for (size_t i = 0; i < tr->nevents; i++)
                if (tr->events[i].kind == TRACE_EV_ISSUE && tr->events[i].warp == 1)
                    last1 = i;
            uint64_t step = 0;
            int32_t clock_pc[2] = {-1, -1};
            for (size_t i = 0; i < tr->nevents; i++) {
                const trace_event *e = &tr->events[i];
                if (e->kind != TRACE_EV_ISSUE)
                    continue;
                ck_assert_uint_eq(e->time, ++step);
                if (i <= last1)
                    ck_assert_msg(e->warp == (step - 1) % 2, "step %llu issued by warp %u",
                                  (unsigned long long)step, e->warp);
                for (int k = 0; k < 2; k++)
                    if (e->warp == order[1][k] && e->time == when[1][k])
                        clock_pc[k] = e->pc;
            }
            ck_assert_int_ge(clock_pc[0], 0);
            ck_assert_int_eq(clock_pc[0], clock_pc[1]); /* the same mov of %clock64 */
        }
        sim_result_free(&r);
        sim_free(s);
        trace_free(tr);
    }
    ck_assert_mem_eq(order[0], order[1], sizeof order[0]);
    ck_assert_mem_eq(when[0], when[1], sizeof when[0]);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_trace_cap_sets_truncated_and_counts_dropped)
{
    ptx_module_t *m = fixture_load("races", _i);
    trace_t *tr = trace_new(TRACE_ISSUE, 10);
    sim_config cfg = {.trace = tr};
    sim_t *s = sim_new(&cfg);
    int out[256] = {0};
    sim_result r;
    ck_assert_int_eq(run_in_out(s, m, "reverse_fixed", 64, out, &r), SIM_OK);
    ck_assert_uint_eq(tr->nevents, 10);
    ck_assert_int_eq(tr->truncated, 1);
    ck_assert_uint_gt(tr->dropped, 0);
    sim_result_free(&r);
    sim_free(s);
    trace_free(tr);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_trace_snapshots_shared_memory_at_each_barrier)
{
    ptx_module_t *m = fixture_load("metrics", _i);
    trace_t *tr = trace_new(TRACE_ISSUE, 0);
    tr->snap_max_bytes = 1 << 20;
    sim_config cfg = {.trace = tr};
    sim_t *s = sim_new(&cfg);
    float in[32], out[32];
    for (int i = 0; i < 32; i++)
        in[i] = (float)(i + 1);
    uint64_t din = fixture_upload(s, in, sizeof in, "in"),
             dout = fixture_upload(s, NULL, sizeof out, "out");
    void *params[] = {&din, &dout};
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "scan32", grid, block, 0, params, &r), SIM_OK);
    ck_assert_int_eq(r.nfindings, 0);
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    for (int i = 0; i < 32; i++)
        ck_assert_float_eq(out[i], (float)((i + 1) * (i + 2) / 2));
    /* 1 + 2 per step * 5 steps = 11 barriers */
    ck_assert_uint_eq(tr->nsnaps, 11);
    ck_assert_int_eq(count_kind(tr, TRACE_EV_BAR_RELEASE), 11);
    const trace_snapshot *last = &tr->snaps[10];
    ck_assert_uint_eq(last->size, 128);
    float v[32];
    memcpy(v, tr->snap_bytes + last->offset, sizeof v);
    for (int i = 0; i < 32; i++)
        ck_assert_float_eq(v[i], (float)((i + 1) * (i + 2) / 2));
    /* after the first barrier: the input as loaded */
    memcpy(v, tr->snap_bytes + tr->snaps[0].offset, sizeof v);
    for (int i = 0; i < 32; i++)
        ck_assert_float_eq(v[i], (float)(i + 1));
    sim_result_free(&r);
    sim_free(s);
    trace_free(tr);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_trace_records_printf_text_with_its_warp)
{
    ptx_module_t *m = fixture_load("faults", _i);
    trace_t *tr = trace_new(TRACE_ISSUE, 0);
    sim_config cfg = {.trace = tr};
    sim_t *s = sim_new(&cfg);
    uint64_t dout = fixture_upload(s, NULL, 8 * sizeof(int), "out");
    void *params[] = {&dout};
    unsigned grid[3] = {3, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "hello_blocks", grid, block, 0, params, &r), SIM_OK);
    ck_assert_int_eq(count_kind(tr, TRACE_EV_PRINTF), 3);
    for (size_t i = 0, k = 0; i < tr->nevents; i++) {
        const trace_event *e = &tr->events[i];
        if (e->kind != TRACE_EV_PRINTF)
            continue;
        char want[32];
        snprintf(want, sizeof want, "block %zu\n", k++);
        ck_assert_uint_eq(e->barrier, strlen(want));
        ck_assert_int_eq(memcmp(tr->text + e->aux, want, e->barrier), 0);
        ck_assert_uint_eq(e->mask, 1);
    }
    sim_result_free(&r);
    sim_free(s);
    trace_free(tr);
    ptx_module_free(m);
}
END_TEST

/* The REG events of a trace with record_regs: every lane value of a register as the
 * simulator computed it, named as the PTX declares it. */
static const trace_event *reg_event_with(const trace_t *tr, uint32_t block, const uint32_t *want,
                                         uint32_t mask, int size, int cls, int callee)
{
    for (size_t i = 0; i < tr->nevents; i++) {
        const trace_event *e = &tr->events[i];
        if (e->kind != TRACE_EV_REG || e->block != block || e->mask != mask)
            continue;
        const trace_reg *R = &tr->regs[e->barrier];
        if (R->size != size || R->cls != cls || (R->func != 0) != callee)
            continue;
        const uint64_t *v = trace_event_values(tr, e);
        int same = 1;
        for (unsigned l = 0; l < 32 && same; l++)
            if ((mask >> l) & 1)
                same = (uint32_t)v[l] == want[l];
        if (same)
            return e;
    }
    return NULL;
}

START_TEST(test_trace_records_register_values_of_every_lane)
{
    ptx_module_t *m = fixture_load("vec_add", _i);
    for (int regs = 0; regs < 2; regs++) {
        trace_t *tr = trace_new(TRACE_ISSUE, 0);
        tr->record_regs = regs;
        sim_config cfg = {.trace = tr};
        sim_t *s = sim_new(&cfg);
        enum { N = 40 };
        float a[N], b[N], c[N];
        for (int i = 0; i < N; i++)
            a[i] = (float)i * 0.5f, b[i] = (float)(100 - i);
        uint64_t da = fixture_upload(s, a, sizeof a, "a"), db = fixture_upload(s, b, sizeof b, "b"),
                 dc = fixture_upload(s, NULL, sizeof c, "c");
        int n = N;
        void *params[] = {&da, &db, &dc, &n};
        unsigned grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
        sim_result r;
        ck_assert_int_eq(sim_launch(s, m, "vec_add", grid, block, 0, params, &r), SIM_OK);
        if (!regs) {
            ck_assert_int_eq(count_kind(tr, TRACE_EV_REG), 0);
        } else {
            ck_assert_int_gt(tr->nregs, 0);
            /* block 1: the global index 32..63 in some 32-bit register, every lane */
            uint32_t idx[32], sum[32], pred[32];
            for (unsigned l = 0; l < 32; l++) {
                idx[l] = 32 + l;
                float f = a[32 + l < N ? 32 + l : 0] + b[32 + l < N ? 32 + l : 0];
                memcpy(&sum[l], &f, 4);
                pred[l] = 32 + l >= N; /* the guard's "i >= n" */
            }
            const trace_event *e = reg_event_with(tr, 1, idx, 0xffffffffu, 4, TRACE_REG_B, 0);
            if (!e)
                e = reg_event_with(tr, 1, idx, 0xffffffffu, 4, TRACE_REG_S, 0);
            ck_assert_msg(e != NULL, "no register holds the global index in block 1");
            ck_assert_int_eq(tr->regs[e->barrier].name[0], '%');
            /* the float sum, by the 8 lanes below n only */
            e = reg_event_with(tr, 1, sum, 0xffu, 4, TRACE_REG_F, 0);
            ck_assert_msg(e != NULL, "no .f32 register holds a[i] + b[i] for lanes 0-7 of block 1");
            ck_assert_int_eq(tr->insns[e->pc].cls, TRACE_CLASS_ADD);
            ck_assert_int_eq(tr->insns[e->pc].type, TRACE_TYPE_KIND_F | 4);
            ck_assert_str_eq(tr->insns[e->pc].mnemonic, "add.f32");
            /* the bounds predicate, every lane */
            int found_pred = 0;
            for (size_t i = 0; i < tr->nevents; i++) {
                const trace_event *p = &tr->events[i];
                if (p->kind != TRACE_EV_REG || p->block != 1 ||
                    tr->regs[p->barrier].cls != TRACE_REG_PRED)
                    continue;
                ck_assert_uint_eq(p->width, 1);
                const uint64_t *v = trace_event_values(tr, p);
                int same = 1; /* equal where the guard is equal, different elsewhere */
                for (unsigned l = 1; l < 32; l++)
                    same &= (v[l] & 1) == (v[0] & 1) ? pred[l] == pred[0] : pred[l] != pred[0];
                found_pred |= same;
            }
            ck_assert_msg(found_pred, "no predicate register holds i < n / i >= n");
            /* each REG event follows the ISSUE of its instruction by the same warp */
            for (size_t i = 0; i < tr->nevents; i++) {
                const trace_event *p = &tr->events[i];
                if (p->kind != TRACE_EV_REG)
                    continue;
                size_t k = i;
                while (k > 0 && tr->events[k - 1].kind != TRACE_EV_ISSUE)
                    k--;
                ck_assert_uint_gt(k, 0);
                ck_assert_int_eq(tr->events[k - 1].pc, p->pc);
                ck_assert_uint_eq(tr->events[k - 1].warp, p->warp);
                ck_assert_uint_eq(tr->events[k - 1].aux, p->mask);
            }
        }
        sim_result_free(&r);
        sim_free(s);
        trace_free(tr);
    }
    ptx_module_free(m);
}
END_TEST

/* A warp reduction by __shfl_down_sync with offsets 16, 8, 4, 2, 1 (warp_reduce.cu):
 * five TRACE_EV_SHFL events, in that order, where lane l read lane l + offset, and the
 * lanes past 31 kept their own value (32 + l; PTX ISA 9.7.8.6 shfl.sync .down). */
START_TEST(test_trace_records_each_shuffles_source_lanes)
{
    ptx_module_t *m = fixture_load("warp_reduce", _i);
    trace_t *tr = trace_new(TRACE_ISSUE, 0);
    sim_config cfg = {.trace = tr};
    sim_t *s = sim_new(&cfg);
    int in[32], out[1];
    for (int i = 0; i < 32; i++)
        in[i] = i;
    uint64_t din = fixture_upload(s, in, sizeof in, "in"),
             dout = fixture_upload(s, NULL, sizeof out, "out");
    int n = 32;
    void *params[] = {&din, &dout, &n};
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "warp_reduce", grid, block, 0, params, &r), SIM_OK);
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    ck_assert_int_eq(out[0], 31 * 32 / 2);
    int k = 0;
    const int offsets[5] = {16, 8, 4, 2, 1};
    for (size_t i = 0; i < tr->nevents; i++) {
        const trace_event *e = &tr->events[i];
        if (e->kind != TRACE_EV_SHFL)
            continue;
        ck_assert_int_lt(k, 5);
        ck_assert_uint_eq(e->mask, 0xffffffffu);
        ck_assert_int_eq(i > 0 && tr->events[i - 1].kind == TRACE_EV_ISSUE,
                         1); /* after its issue */
        const uint64_t *v = trace_event_values(tr, e);
        for (int l = 0; l < 32; l++) {
            const uint64_t want =
                l + offsets[k] <= 31 ? (uint64_t)(l + offsets[k]) : (uint64_t)(32 + l);
            ck_assert_msg(v[l] == want, "shuffle %d (offset %d): lane %d read %llu, not %llu", k,
                          offsets[k], l, (unsigned long long)v[l], (unsigned long long)want);
        }
        k++;
    }
    ck_assert_int_eq(k, 5);
    sim_result_free(&r);
    sim_free(s);
    trace_free(tr);
    ptx_module_free(m);
}
END_TEST

/* vote.cu's five votes (ballot, any, all, then a ballot per half warp) give five
 * TRACE_EV_VOTE events whose mask is the lanes that voted and whose aux is those that
 * voted true (in[i] > 0 for i % 3 == 0), with the mode in barrier (PTX ISA vote.sync). */
START_TEST(test_trace_records_who_voted_what)
{
    ptx_module_t *m = fixture_load("vote", _i);
    trace_t *tr = trace_new(TRACE_ISSUE, 0);
    sim_config cfg = {.trace = tr};
    sim_t *s = sim_new(&cfg);
    int in[32];
    for (int i = 0; i < 32; i++)
        in[i] = i % 3 == 0 ? 1 : -1;
    uint64_t din = fixture_upload(s, in, sizeof in, "in");
    uint64_t dout[4];
    for (int k = 0; k < 4; k++)
        dout[k] = fixture_upload(s, NULL, 32 * 4, "out");
    void *params[] = {&din, &dout[0], &dout[1], &dout[2], &dout[3]};
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "vote", grid, block, 0, params, &r), SIM_OK);
    const uint32_t yes = 0x49249249u;
    int seen[5] = {0}; /* ballot (full), any, all, ballot low half, ballot high half */
    for (size_t i = 0; i < tr->nevents; i++) {
        const trace_event *e = &tr->events[i];
        if (e->kind != TRACE_EV_VOTE)
            continue;
        ck_assert_int_eq(i > 0 && tr->events[i - 1].kind == TRACE_EV_ISSUE,
                         1); /* after its issue */
        ck_assert_uint_eq(e->aux, yes & e->mask);
        switch (e->barrier) {
        case TRACE_VOTE_ANY:
        case TRACE_VOTE_ALL:
            ck_assert_uint_eq(e->mask, 0xffffffffu);
            seen[e->barrier == TRACE_VOTE_ANY ? 1 : 2]++;
            break;
        case TRACE_VOTE_BALLOT:
            ck_assert_msg(e->mask == 0xffffffffu || e->mask == 0xffffu || e->mask == 0xffff0000u,
                          "ballot mask 0x%x", e->mask);
            seen[e->mask == 0xffffffffu ? 0 : e->mask == 0xffffu ? 3 : 4]++;
            break;
        default: ck_abort_msg("vote mode %d", e->barrier);
        }
    }
    for (int k = 0; k < 5; k++)
        ck_assert_msg(seen[k] == 1, "vote %d recorded %d times", k, seen[k]);
    sim_result_free(&r);
    sim_free(s);
    trace_free(tr);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_trace_names_registers_of_a_called_device_function)
{
    ptx_module_t *m = fixture_load("devfunc", _i);
    trace_t *tr = trace_new(TRACE_ISSUE, 0);
    tr->record_regs = 1;
    sim_config cfg = {.trace = tr};
    sim_t *s = sim_new(&cfg);
    int x[32], y[32];
    for (int i = 0; i < 32; i++)
        x[i] = i - 5;
    uint64_t dx = fixture_upload(s, x, sizeof x, "x"), dy = fixture_upload(s, NULL, sizeof y, "y");
    int n = 32;
    void *params[] = {&dx, &dy, &n};
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    sim_result r;
    ck_assert_int_eq(sim_launch(s, m, "apply_poly", grid, block, 0, params, &r), SIM_OK);
    /* poly(x, y) = x * x + 3 * y - 7: its result lives in a register of poly's own */
    uint32_t want[32];
    for (int i = 0; i < 32; i++)
        want[i] = (uint32_t)(x[i] * x[i] + 3 * i - 7);
    const trace_event *e = reg_event_with(tr, 0, want, 0xffffffffu, 4, TRACE_REG_B, 1);
    if (!e)
        e = reg_event_with(tr, 0, want, 0xffffffffu, 4, TRACE_REG_S, 1);
    if (!e)
        e = reg_event_with(tr, 0, want, 0xffffffffu, 4, TRACE_REG_U, 1);
    ck_assert_msg(e != NULL, "no register of poly holds x*x + 3*y - 7");
    ck_assert_msg(strstr(tr->regs[e->barrier].name, "poly") != NULL &&
                      strchr(tr->regs[e->barrier].name, ':') != NULL,
                  "callee register named %s", tr->regs[e->barrier].name);
    sim_result_free(&r);
    sim_free(s);
    trace_free(tr);
    ptx_module_free(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("sim_check");
    TCase *tc = tcase_create("checkers");
    tcase_add_loop_test(tc, test_reverse_without_syncthreads_reports_race_naming_both_lines, 0, 2);
    tcase_add_loop_test(tc, test_global_half_warp_rows_race_and_barrier, 0, 2);
    tcase_add_loop_test(tc, test_reverse_with_syncthreads_reports_nothing, 0, 2);
    tcase_add_loop_test(tc, test_spin_deadlock_is_found_at_once_naming_each_warp, 0, 2);
    tcase_add_loop_test(tc, test_atomic_on_unwritten_shared_word_is_an_uninitialised_read, 0, 2);
    tcase_add_loop_test(tc, test_hazard_inside_one_warp_is_an_error, 0, 2);
    tcase_add_loop_test(tc, test_overwriting_what_another_warp_read_is_a_write_after_read_race, 0,
                        2);
    tcase_add_loop_test(tc, test_checks_off_silences_racecheck, 0, 2);
    tcase_add_loop_test(tc, test_read_of_unwritten_shared_memory_warns, 0, 2);
    tcase_add_loop_test(tc, test_read_of_never_written_global_memory_warns_and_runs_on, 0, 2);
    tcase_add_loop_test(tc, test_shared_overrun_faults_with_its_line, 0, 2);
    tcase_add_loop_test(tc, test_local_array_overrun_faults_with_its_line, 0, 2);
    tcase_add_loop_test(tc, test_whole_warp_rows_past_the_end_fault_at_their_first_lane, 0, 2);
    tcase_add_loop_test(tc, test_threads_at_different_named_barriers_deadlock_naming_both_lines, 0,
                        2);
    tcase_add_loop_test(tc, test_syncthreads_in_both_arms_of_an_if_warns_but_completes, 0, 2);
    tcase_add_loop_test(tc, test_read_of_never_written_global_rows_and_broadcasts_counts_each_lane,
                        0, 2);
    tcase_add_loop_test(tc, test_malloc_init_fills_in_place_and_counts_every_byte_written, 0, 2);
    suite_add_tcase(s, tc);
    TCase *ts = tcase_create("schedule");
    tcase_add_loop_test(ts, test_random_schedule_changes_printf_order_between_seeds, 0, 2);
    tcase_add_loop_test(ts, test_random_schedule_keeps_a_correct_reduction_exact, 0, 2);
    tcase_add_loop_test(ts, test_racecheck_finds_the_race_under_every_schedule, 0, 2);
    suite_add_tcase(s, ts);
    TCase *tt = tcase_create("trace");
    tcase_add_loop_test(tt, test_trace_levels_record_issue_and_memory_events, 0, 2);
    tcase_add_loop_test(tt, test_trace_cap_sets_truncated_and_counts_dropped, 0, 2);
    tcase_add_loop_test(tt, test_round_robin_schedule_holds_across_long_register_only_runs, 0, 2);
    tcase_add_loop_test(tt, test_trace_snapshots_shared_memory_at_each_barrier, 0, 2);
    tcase_add_loop_test(tt, test_trace_records_printf_text_with_its_warp, 0, 2);
    tcase_add_loop_test(tt, test_trace_records_register_values_of_every_lane, 0, 2);
    tcase_add_loop_test(tt, test_trace_records_each_shuffles_source_lanes, 0, 2);
    tcase_add_loop_test(tt, test_trace_records_who_voted_what, 0, 2);
    tcase_add_loop_test(tt, test_trace_names_registers_of_a_called_device_function, 0, 2);
    suite_add_tcase(s, tt);
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
