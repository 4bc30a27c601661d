/* test_winnow.c — runtime/similar.h, copied work's fingerprints with exact values: the
 * lexer's normalised token stream (identifiers and literals as classes, keywords and CUDA
 * builtins as themselves, comments and layout dropped, an #include's operand one token),
 * FNV-1a's published test vector, the Karp-Rabin k-gram hashes, winnowing on the paper's
 * own example (Schleimer, Wilkerson, Aiken, SIGMOD 2003, Figure 2) and its robust tie
 * rule, and a folder compared with a base file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/similar.h"

/* The normalised text of src's tokens, space-separated, into out[n]; each token's line
 * appended to lines (space-separated) when lines is not NULL. */
static void normalised(const char *src, char *out, size_t n, char *lines, size_t nl)
{
    gl_similar_token *t = NULL;
    const int nt = similar_tokenize(src, strlen(src), &t);
    ck_assert_int_ge(nt, 0);
    out[0] = '\0';
    if (lines)
        lines[0] = '\0';
    for (int i = 0; i < nt; i++) {
        char buf[64];
        snprintf(out + strlen(out), n - strlen(out), "%s%s", i ? " " : "",
                 similar_token_norm(src, &t[i], buf, sizeof buf));
        if (lines)
            snprintf(lines + strlen(lines), nl - strlen(lines), "%s%u", i ? " " : "", t[i].line);
    }
    free(t);
}

START_TEST(test_tokens_are_normalised_and_keep_cuda_builtins)
{
    const char *src = "#include \"/etc/shadow\"\n"
                      "// a comment\n"
                      "__global__ void k(float *out, int n) { /* another\n"
                      "   one */ out[threadIdx.x] = 1.5f + n * 'a' + sizeof(\"s\") + 0x1F;\n"
                      "    __syncthreads(); x <<= R\"d(raw \" )d\" u8\"s\" 1e-3 .5 1'000;\n"
                      "}\n";
    char out[1024], lines[512];
    normalised(src, out, sizeof out, lines, sizeof lines);
    ck_assert_str_eq(out, "#include HDR __global__ void ID ( float * ID , int ID ) { ID [ "
                          "threadIdx . ID ] = FLT + ID * CHR + sizeof ( STR ) + INT ; "
                          "__syncthreads ( ) ; ID <<= STR STR FLT FLT INT ; }");
    ck_assert_str_eq(lines, "1 1 3 3 3 3 3 3 3 3 3 3 3 3 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 "
                            "5 5 5 5 5 5 5 5 5 5 5 5 6");
}
END_TEST

START_TEST(test_directives_are_one_token_and_lines_continue)
{
    char out[512], lines[256];
    normalised("  #  define N 256 \\\n + 1\n#pragma unroll\nx # y\n", out, sizeof out, lines,
               sizeof lines);
    /* "#  define" is "#define"; a '#' not first on its line is a punctuator */
    ck_assert_str_eq(out, "#define ID INT + INT #pragma ID ID # ID");
    ck_assert_str_eq(lines, "1 1 1 2 2 3 3 4 4 4");
}
END_TEST

START_TEST(test_renamed_and_reformatted_code_has_the_same_ids)
{
    const char *a = "__device__ int add(int x, int y) { return x + y * 2; } // sum\n";
    const char *b = "/* mine */\n__device__ int plus(int first,\n   int second)\n{\n"
                    "\treturn first+second*7;\n}\n";
    char na[512], nb[512];
    normalised(a, na, sizeof na, NULL, 0);
    normalised(b, nb, sizeof nb, NULL, 0);
    ck_assert_str_eq(na, nb);
    ck_assert_str_eq(na, "__device__ int ID ( int ID , int ID ) { return ID + ID * INT ; }");
}
END_TEST

START_TEST(test_token_ids_are_fnv1a_of_the_normalised_text)
{
    /* FNV-1a 64's published test vectors: "" and "a" */
    ck_assert_uint_eq(similar_fnv1a("", 0), 0xcbf29ce484222325ull);
    ck_assert_uint_eq(similar_fnv1a("a", 1), 0xaf63dc4c8601ec8cull);
    gl_similar_token *t = NULL;
    ck_assert_int_eq(similar_tokenize("count", 5, &t), 1);
    ck_assert_uint_eq(t[0].id, 0x09240e07b5b8d640ull); /* FNV-1a 64 of "ID" */
    free(t);
}
END_TEST

START_TEST(test_kgram_hashes_are_karp_rabin)
{
    const uint64_t ids[] = {1, 2, 3, 4};
    uint64_t h[4];
    ck_assert_int_eq(similar_kgrams(ids, 4, 2, h), 3);
    ck_assert_uint_eq(h[0], 0x100000001b5ull); /* 1 * B + 2, B = 0x100000001b3 */
    ck_assert_uint_eq(h[1], 0x20000000369ull);
    ck_assert_uint_eq(h[2], 0x3000000051dull);
    ck_assert_int_eq(similar_kgrams(ids, 4, 5, h), 0);
    /* rolling equals computed afresh, with wrap-around modulo 2^64 */
    const uint64_t big[] = {~0ull, 12345, ~0ull - 7, 99, 1ull << 63, 3};
    uint64_t r[6];
    ck_assert_int_eq(similar_kgrams(big, 6, 3, r), 4);
    for (int p = 0; p < 4; p++) {
        const uint64_t B = 0x100000001b3ull;
        ck_assert_uint_eq(r[p], (big[p] * B + big[p + 1]) * B + big[p + 2]);
    }
}
END_TEST

START_TEST(test_winnowing_the_papers_example)
{
    /* Figure 2 (e)-(h): hashes of the 5-grams of "adorunrunrunadorunrun", window 4 */
    const uint64_t h[] = {77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98};
    gl_similar_fp fp[17];
    const int n = similar_winnow(h, 17, 4, fp);
    const gl_similar_fp want[] = {{17, 3}, {17, 6}, {8, 8}, {39, 11}, {17, 15}};
    ck_assert_int_eq(n, 5);
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_eq(fp[i].hash, want[i].hash);
        ck_assert_int_eq(fp[i].pos, want[i].pos);
    }
}
END_TEST

START_TEST(test_robust_winnowing_keeps_an_equal_minimum)
{
    /* a low-entropy run: rightmost-minimum winnowing would take positions 2, 3, 4, 5;
     * robust winnowing keeps 2 while it is in the window */
    const uint64_t h[] = {5, 5, 5, 5, 5, 5};
    gl_similar_fp fp[6];
    ck_assert_int_eq(similar_winnow(h, 6, 3, fp), 2);
    ck_assert_int_eq(fp[0].pos, 2);
    ck_assert_int_eq(fp[1].pos, 5);
    /* fewer hashes than the window: one window, its rightmost minimum */
    const uint64_t s[] = {9, 3, 7, 3};
    ck_assert_int_eq(similar_winnow(s, 4, 8, fp), 1);
    ck_assert_uint_eq(fp[0].hash, 3);
    ck_assert_int_eq(fp[0].pos, 3);
    ck_assert_int_eq(similar_winnow(s, 0, 8, fp), 0);
}
END_TEST

/* Writes text to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_compare_ranks_a_copy_and_removes_the_base)
{
    char dir[] = "/tmp/gl-similar-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *starter = "__global__ void k(float *a, int n) {\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    if (i < n) a[i] = a[i] * 2.0f + 1.0f;\n}\n";
    const char *body = "__device__ float f(float v) { float s = 0; for (int j = 0; j < 8; "
                       "j++) s += v * j - s / 3; return s; }\n";
    char orig[1024], copy[1024];
    snprintf(orig, sizeof orig, "%s%s", starter, body);
    snprintf(copy, sizeof copy,
             "// copied\n%s__device__ float g(float w) { float t = 0; "
             "for (int q = 0; q < 9; q++) t += w * q - t / 4; return t; }\n",
             starter);
    put(dir, "a.cu", orig);
    put(dir, "b.cu", copy);
    put(dir, "c.cu", starter);
    put(dir, "notes.txt", body); /* not a .cu: not compared */
    char base_path[600];
    snprintf(base_path, sizeof base_path, "%s/starter.base", dir);
    put(dir, "starter.base", starter);
    const char *base[] = {base_path};

    gl_similar_report r;
    gl_error err = {0};
    gl_similar_opts o = {.dir = dir, .base = base, .nbase = 1};
    ck_assert_int_eq(similar_compare(&o, &r, &err), GL_OK);
    ck_assert_int_eq(r.ndocs, 3);
    ck_assert_str_eq(r.docs[0].name, "a.cu");
    ck_assert_int_eq(r.docs[2].nhashes, 0); /* c.cu is the starter alone */
    ck_assert_int_eq(r.npairs, 1);          /* a and b: the copied function */
    ck_assert_int_eq(r.pairs[0].a, 0);
    ck_assert_int_eq(r.pairs[0].b, 1);
    ck_assert(r.pairs[0].score == 1.0);
    ck_assert_int_eq(similar_regions(&r, &r.pairs[0]), 0);
    ck_assert_int_eq(r.pairs[0].nregions, 1);
    ck_assert_int_eq(r.pairs[0].regions[0].a_first, 5);
    ck_assert_int_eq(r.pairs[0].regions[0].b_first, 6);
    similar_report_free(&r);

    /* without the base, the starter is what all three share */
    o.nbase = 0;
    ck_assert_int_eq(similar_compare(&o, &r, &err), GL_OK);
    ck_assert_int_eq(r.npairs, 3);
    similar_report_free(&r);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *similar_suite(void)
{
    Suite *s = suite_create("similar");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_tokens_are_normalised_and_keep_cuda_builtins);
    tcase_add_test(tc, test_directives_are_one_token_and_lines_continue);
    tcase_add_test(tc, test_renamed_and_reformatted_code_has_the_same_ids);
    tcase_add_test(tc, test_token_ids_are_fnv1a_of_the_normalised_text);
    tcase_add_test(tc, test_kgram_hashes_are_karp_rabin);
    tcase_add_test(tc, test_winnowing_the_papers_example);
    tcase_add_test(tc, test_robust_winnowing_keeps_an_equal_minimum);
    tcase_add_test(tc, test_compare_ranks_a_copy_and_removes_the_base);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(similar_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
