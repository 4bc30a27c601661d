/* test_fragments.c — runtime/fragments.c against the PTX ISA's documented fragment
 * layouts, on PTX compiled from CUDA C (tests/kernels/ops/mma_sync.cu and ldmatrix.cu,
 * fixtures tests/fixtures/ptx/NAME.nvcc.ptx): mma.m16n8k16 .f16 A and .f32 D (PTX ISA
 * §9.7.14.5.8), ldmatrix .x4 with and without .trans (§9.7.14.5.15); and the decoding of
 * element values. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fragments.h"
#include "sim/sim.h"
#include "tests/fixture.h"

static char *read_ptx(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/%s.nvcc.ptx", name);
    size_t len;
    char *text = fixture_read(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s (run tests from the repo root)", path);
    return text;
}

/* The first instruction of ptx whose mnemonic is mn, described into *f. */
static void find_insn(const char *ptx, const char *mn, gl_frags *f)
{
    for (int pc = 0; pc < 20000; pc++) {
        if (gl_fragments_of(ptx, pc, f) && strcmp(f->what, mn) == 0)
            return;
        gl_fragments_free(f);
    }
    ck_abort_msg("no %s in the fixture", mn);
}

static gl_frag_cell cell(const gl_frag_mat *m, int row, int col)
{
    return m->cells[row * m->cols + col];
}

START_TEST(test_mma_m16n8k16_f16_a_follows_the_ptx_isa_layout)
{
    char *ptx = read_ptx("mma_sync");
    gl_frags f;
    find_insn(ptx, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", &f);
    ck_assert_int_eq(f.kind, GL_FRAG_MMA);
    ck_assert_int_eq(f.nmats, 4);
    ck_assert_int_eq(f.m * 100 + f.n * 10 + f.k, 1696);
    const gl_frag_mat *A = &f.mat[0];
    ck_assert_str_eq(A->name, "A");
    ck_assert_str_eq(A->type, "f16");
    ck_assert_int_eq(A->rows, 16);
    ck_assert_int_eq(A->cols, 16);
    ck_assert_int_eq(A->nregs, 4);
    ck_assert_int_eq(A->written, 0);
    /* §9.7.14.5.8: a_i of lane l, groupID g = l / 4, threadID_in_group t = l % 4:
     * row g for a0, a1, a4, a5 and g + 8 for a2, a3, a6, a7; column t * 2 + (i & 1),
     * plus 8 for i >= 4; a_i is half i % 2 of register i / 2 */
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 8; i++) {
            const int row = l / 4 + ((i == 2 || i == 3 || i == 6 || i == 7) ? 8 : 0);
            const int col = (l % 4) * 2 + (i & 1) + (i >= 4 ? 8 : 0);
            const gl_frag_cell c = cell(A, row, col);
            ck_assert_msg(c.lane == l && c.reg == i / 2 && c.elem == i % 2 && c.copies == 0,
                          "A(%d,%d): lane %d reg %d elem %d, expected lane %d a%d", row, col,
                          c.lane, c.reg, c.elem, l, i);
        }
    /* the first row of A as the view shows it: lanes 0 0 1 1 2 2 3 3 0 0 1 1 ... */
    const int row0[16] = {0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3};
    for (int c = 0; c < 16; c++)
        ck_assert_int_eq(cell(A, 0, c).lane, row0[c]);
    /* D (f32): d0, d1 row g, d2, d3 row g + 8; column t * 2 + (i & 1) */
    const gl_frag_mat *D = &f.mat[3];
    ck_assert_str_eq(D->name, "D");
    ck_assert_str_eq(D->type, "f32");
    ck_assert_int_eq(D->rows * 100 + D->cols, 1608);
    ck_assert_int_eq(D->written, 1);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) {
            const gl_frag_cell c = cell(D, l / 4 + (i >= 2 ? 8 : 0), (l % 4) * 2 + (i & 1));
            ck_assert_int_eq(c.lane, l);
            ck_assert_int_eq(c.reg, i);
            ck_assert_int_eq(c.elem, 0);
        }
    /* the operand lists' registers are four different registers of the trace */
    for (int r = 0; r < 4; r++)
        for (int q = 0; q < r; q++)
            ck_assert_int_ne(A->trace_reg[r], A->trace_reg[q]);
    gl_fragments_free(&f);
    free(ptx);
}
END_TEST

START_TEST(test_ldmatrix_x4_rows_addresses_and_elements)
{
    char *ptx = read_ptx("ldmatrix");
    for (int trans = 0; trans < 2; trans++) {
        gl_frags f;
        find_insn(ptx,
                  trans ? "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"
                        : "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                  &f);
        ck_assert_int_eq(f.kind, GL_FRAG_LDMATRIX);
        ck_assert_int_eq(f.nmats, 4);
        for (int m = 0; m < 4; m++) {
            const gl_frag_mat *M = &f.mat[m];
            ck_assert_int_eq(M->name[1], '0' + m);
            ck_assert_int_eq(M->written, 1);
            /* §9.7.14.5.15: threads 8m ... 8m + 7 give the addresses of matrix m's rows */
            for (int r = 0; r < 8; r++)
                ck_assert_int_eq(M->addr_lane[r], 8 * m + r);
            /* lane l holds row l / 4, columns 2 (l % 4) and + 1; .trans: the transpose */
            for (int r = 0; r < 8; r++)
                for (int c = 0; c < 8; c++) {
                    const gl_frag_cell x = cell(M, r, c);
                    const int lane = trans ? 4 * c + r / 2 : 4 * r + c / 2;
                    const int elem = trans ? r % 2 : c % 2;
                    ck_assert_int_eq(x.lane, lane);
                    ck_assert_int_eq(x.elem, elem);
                    ck_assert_int_eq(x.reg, 0);
                }
        }
        gl_fragments_free(&f);
    }
    free(ptx);
}
END_TEST

/* mma.sp (PTX ISA §9.7.14.6.2): A's two registers hold the compressed 16 x 8 (the layout
 * of the dense m16n8k8's A), B is the whole 16 x 8 of K = 16. */
START_TEST(test_mma_sp_a_is_the_compressed_matrix)
{
    static const char ptx[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
        ".reg .b32 %a<2>, %b<2>, %e;\n.reg .f32 %c<4>, %d<4>;\n"
        "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%d0,%d1,%d2,%d3}, {%a0,%a1}, "
        "{%b0,%b1}, {%c0,%c1,%c2,%c3}, %e, 0;\nret;\n}\n";
    gl_frags f;
    find_insn(ptx, "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", &f);
    ck_assert_int_eq(f.k, 16);
    const gl_frag_mat *A = &f.mat[0], *B = &f.mat[1];
    ck_assert_int_eq(A->rows * 100 + A->cols, 1608);
    ck_assert_int_eq(A->nregs, 2);
    ck_assert_int_eq(B->rows * 100 + B->cols, 1608);
    ck_assert_int_eq(B->nregs, 2);
    /* lane 5 (g 1, t 1): a0 = row 1, columns 2 and 3; a1 row 9 */
    ck_assert_int_eq(cell(A, 1, 2).lane, 5);
    ck_assert_int_eq(cell(A, 9, 3).lane, 5);
    ck_assert_int_eq(cell(A, 9, 3).reg, 1);
    gl_fragments_free(&f);
}
END_TEST

START_TEST(test_non_tensor_instruction_has_no_fragments)
{
    char *ptx = read_ptx("ldmatrix");
    gl_frags f;
    ck_assert_int_eq(gl_fragments_of(ptx, 0, &f), 0);
    ck_assert_int_eq(f.kind, GL_FRAG_NONE);
    ck_assert_int_eq(gl_fragments_of("not ptx", 0, &f), 0);
    /* the trace's facts say which instructions have fragments, not their names */
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_int_eq(ptx_parse(ptx, strlen(ptx), "ldmatrix.ptx", &m, &diag), SIM_OK);
    trace_t *t = trace_new(TRACE_ISSUE, 0);
    const unsigned one[3] = {1, 1, 1};
    ck_assert_int_eq(trace_begin_launch(t, "k", one, one), 0);
    ck_assert_int_eq(sim_trace_describe(m, t), 0);
    int tensor = 0, plain = 0;
    for (int pc = 0; pc < t->ninsns; pc++) {
        const trace_insn *ti = &t->insns[pc];
        const int is_ldm = strncmp(ti->mnemonic, "ldmatrix.", 9) == 0;
        ck_assert_int_eq(gl_fragments_is_tensor(ti), is_ldm);
        tensor += is_ldm, plain += !is_ldm;
    }
    ck_assert_int_gt(tensor, 0);
    ck_assert_int_gt(plain, 0);
    ck_assert_int_eq(gl_fragments_is_tensor(NULL), 0);
    trace_free(t);
    ptx_module_free(m);
    free(ptx);
}
END_TEST

/* Rows: type, bits, register, element, expected text. */
START_TEST(test_element_values_decode_by_type)
{
    static const struct {
        const char *type;
        int bits;
        uint64_t reg;
        int elem;
        const char *want;
    } rows[] = {
        {"f16", 16, 0xc0003c00u, 0, "1"},
        {"f16", 16, 0xc0003c00u, 1, "-2"},
        {"f16", 16, 0x00000001u, 0, "5.96e-08"},
        {"f16", 16, 0x00007c00u, 0, "inf"},
        {"bf16", 16, 0x3fc0bf80u, 0, "-1"},
        {"bf16", 16, 0x3fc0bf80u, 1, "1.5"},
        {"f32", 32, 0x40490fdbu, 0, "3.14"},
        {"s32", 32, 0xfffffff9u, 0, "-7"},
        {"e4m3", 8, 0x7f38u, 0, "1"},
        {"e4m3", 8, 0x7f38u, 1, "nan"},
        {"b16", 16, 0x4500u, 0, "5"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gl_frag_mat m = {0};
        snprintf(m.type, sizeof m.type, "%s", rows[i].type);
        m.elem_bits = rows[i].bits;
        char buf[32];
        gl_fragments_format(&m, rows[i].reg, rows[i].elem, 3, buf, sizeof buf);
        ck_assert_msg(strcmp(buf, rows[i].want) == 0, "row %zu (%s): got %s, want %s", i,
                      rows[i].type, buf, rows[i].want);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fragments");
    TCase *tc = tcase_create("layouts");
    tcase_add_test(tc, test_mma_m16n8k16_f16_a_follows_the_ptx_isa_layout);
    tcase_add_test(tc, test_ldmatrix_x4_rows_addresses_and_elements);
    tcase_add_test(tc, test_non_tensor_instruction_has_no_fragments);
    tcase_add_test(tc, test_mma_sp_a_is_the_compressed_matrix);
    tcase_add_test(tc, test_element_values_decode_by_type);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
