/* test_trace_file.c — a launch trace saved and read back (trace/trace_file.h): every
 * array comes back as it was, and a damaged file (cut short, an event whose instruction,
 * lane addresses or printf text lie outside the trace) is refused with a reason rather
 * than handed to the views that index the arrays with it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace.h"
#include "trace/trace_file.h"

/* A trace of a <<<2, 64>>> launch: 2 instructions in "k.cu", an issue, a memory request,
 * a printf, a register write and a barrier release with a snapshot. */
static trace_t *sample(void)
{
    trace_t *t = trace_new(TRACE_MEMORY, 0);
    const unsigned g[3] = {2, 1, 1}, b[3] = {64, 1, 1};
    ck_assert_int_eq(trace_begin_launch(t, "_Z1kPi", g, b), 0);
    t->nwarps_per_block = 2;
    trace_insn in[2];
    memset(in, 0, sizeof in);
    in[0].src_line = 3, in[0].src_file = 1, in[1].src_line = 4, in[1].src_file = 1;
    snprintf(in[1].mnemonic, sizeof in[1].mnemonic, "st.global.u32");
    const char *files[] = {NULL, "k.cu"};
    ck_assert_int_eq(trace_set_insns(t, in, 2, files, 2), 0);
    trace_reg r = {.name = "%r1", .cls = TRACE_REG_U, .size = 4};
    ck_assert_int_eq(trace_set_regs(t, &r, 1), 0);
    uint64_t lanes[32];
    for (int i = 0; i < 32; i++)
        lanes[i] = 0x1000 + 4 * (uint64_t)i;
    trace_event e = {
        .kind = TRACE_EV_ISSUE, .block = 1, .warp = 1, .pc = 0, .mask = ~0u, .time = 5};
    ck_assert_int_eq(trace_append(t, &e, NULL), 0);
    e.kind = TRACE_EV_MEM, e.pc = 1, e.space = TRACE_SPACE_GLOBAL, e.op = TRACE_STORE, e.width = 4;
    ck_assert_int_eq(trace_append(t, &e, lanes), 0);
    e.kind = TRACE_EV_PRINTF, e.aux = trace_add_text(t, "hi\n", 3), e.barrier = 3;
    ck_assert_int_eq(trace_append(t, &e, NULL), 0);
    e.kind = TRACE_EV_REG, e.barrier = 0, e.width = 4;
    ck_assert_int_eq(trace_append(t, &e, lanes), 0);
    t->snap_max_bytes = 64;
    const unsigned char shared[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    e.kind = TRACE_EV_BAR_RELEASE, e.aux = trace_add_snapshot(t, 1, 1, 6, shared, 8);
    ck_assert_int_eq(trace_append(t, &e, NULL), 0);
    return t;
}

/* t saved to a temporary file, then cut by -cut bytes (0: whole) and read back. */
static trace_t *round_trip(const trace_t *t, long cut, char *why, size_t n)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(trace_save(t, f), 0);
    if (cut) {
        ck_assert_int_eq(fflush(f), 0);
        ck_assert_int_eq(ftruncate(fileno(f), ftell(f) + cut), 0);
    }
    rewind(f);
    trace_t *u = trace_load(f, why, n);
    fclose(f);
    return u;
}

START_TEST(test_round_trip)
{
    trace_t *t = sample();
    char why[256] = "";
    trace_t *u = round_trip(t, 0, why, sizeof why);
    ck_assert_msg(u != NULL, "refused: %s", why);
    ck_assert_str_eq(u->kernel, "_Z1kPi");
    ck_assert_uint_eq(u->grid[0], 2);
    ck_assert_uint_eq(u->block[0], 64);
    ck_assert_int_eq(u->ninsns, 2);
    ck_assert_str_eq(u->insns[1].mnemonic, "st.global.u32");
    ck_assert_int_eq(u->nfiles, 2);
    ck_assert_ptr_null(u->files[0]);
    ck_assert_str_eq(u->files[1], "k.cu");
    ck_assert_int_eq(u->nregs, 1);
    ck_assert_str_eq(u->regs[0].name, "%r1");
    ck_assert_uint_eq(u->nevents, 5);
    ck_assert_uint_eq(u->events[0].time, 5);
    ck_assert_uint_eq(trace_event_addrs(u, &u->events[1])[31], 0x1000 + 124);
    ck_assert_int_eq(memcmp(u->text + u->events[2].aux, "hi\n", 3), 0);
    ck_assert_uint_eq(u->nsnaps, 1);
    ck_assert_int_eq(u->snap_bytes[u->snaps[0].offset + 7], 8);
    trace_free(u);
    trace_free(t);
}
END_TEST

START_TEST(test_damaged)
{
    trace_t *t = sample();
    char why[256] = "";
    /* cut short: the last snapshot byte is missing */
    ck_assert_ptr_null(round_trip(t, -1, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "cut short"));
    /* an instruction outside the table */
    t->events[0].pc = 7;
    ck_assert_ptr_null(round_trip(t, 0, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "instruction"));
    t->events[0].pc = 0;
    /* lane addresses outside the trace */
    t->events[1].aux = 9;
    ck_assert_ptr_null(round_trip(t, 0, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "addresses"));
    t->events[1].aux = 0;
    /* printf text past its end */
    t->events[2].barrier = 200;
    ck_assert_ptr_null(round_trip(t, 0, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "text"));
    t->events[2].barrier = 3;
    /* a block past the grid */
    t->events[3].block = 2;
    ck_assert_ptr_null(round_trip(t, 0, why, sizeof why));
    t->events[3].block = 1;
    char ok[256];
    trace_t *u = round_trip(t, 0, ok, sizeof ok);
    ck_assert_msg(u != NULL, "the repaired trace is refused: %s", ok);
    trace_free(u);
    trace_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trace_file");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_damaged);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
