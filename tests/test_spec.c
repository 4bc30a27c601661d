/* test_spec.c — launch specs: loading, validation messages, buffers, the random
 * generator and the exact JSON writer. Run from the repository root. */
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/gl.h"
#include "runtime/spec.h"

#define FIX "tests/fixtures/specs/"

/* ------------------------------------------------------------------ helpers */

/* What spec_json_write_value writes for one value. Caller frees. */
static char *value_json(gl_type t, gl_value v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    spec_json_write_value(f, t, v);
    fclose(f);
    return buf;
}

static void assert_value_json(gl_type t, gl_value v, const char *want)
{
    char *got = value_json(t, v);
    ck_assert_str_eq(got, want);
    free(got);
}

static gl_value F(double d)
{
    gl_value v = {.f = d};
    return v;
}

/* Parses text and runs spec_from_json with file "k.json", base dir FIX. */
static gl_status from_text(const char *text, const gl_vars *vars, gl_spec *s, gl_error *err)
{
    cJSON *j = cJSON_Parse(text);
    ck_assert_msg(j != NULL, "test JSON does not parse: %s", text);
    gl_status st = spec_from_json(j, "k.json", FIX, vars, s, err);
    cJSON_Delete(j);
    return st;
}

/* A test's buffer as the JSON array spec_json_write_result writes for it. */
static char *result_json(const gl_spec *s, const gl_buffer *b, const char *out)
{
    char *buf = NULL;
    size_t len = 0;
    gl_error err;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(spec_json_write_result(f, s, b, out, &err), GL_OK);
    fclose(f);
    return buf;
}

/* ------------------------------------------------------------ good specs */

START_TEST(test_saxpy_spec_loads_with_defaults_and_resolved_source)
{
    gl_spec s;
    gl_error err = {0};
    gl_status st = spec_load_file(FIX "saxpy.json", &s, &err);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    ck_assert_str_eq(s.file, FIX "saxpy.json");
    ck_assert_str_eq(s.source, FIX "saxpy.cu");
    ck_assert_str_eq(s.kernel, "saxpy");
    ck_assert_uint_eq(s.grid[0], 4);
    ck_assert_uint_eq(s.grid[1], 1);
    ck_assert_uint_eq(s.grid[2], 1);
    ck_assert_uint_eq(s.block[0], 256);
    ck_assert_uint_eq(s.block[1], 1);
    ck_assert_uint_eq(s.block[2], 1);
    ck_assert_uint_eq(s.dynamic_shared_bytes, 0);
    ck_assert_int_eq(s.nargs, 4);
    ck_assert_int_eq(spec_find_arg(&s, "y"), 2);
    ck_assert_int_eq(spec_find_arg(&s, "z"), -1);
    ck_assert(!s.args[0].is_ptr);
    ck_assert_int_eq(s.args[0].type, GL_F32);
    ck_assert(s.args[0].value.f == 2.5);
    ck_assert(s.args[1].is_ptr);
    ck_assert_uint_eq(s.args[1].len, 1000);
    ck_assert_int_eq(s.args[1].init.kind, GL_INIT_IOTA);
    ck_assert_int_eq(s.args[3].value.i, 1000);

    gl_buffer *b;
    ck_assert_int_eq(spec_buffers_new(&s, &b, &err), GL_OK);
    ck_assert_ptr_null(b[0].data);
    ck_assert_uint_eq(b[1].bytes, 4000);
    const float *x = b[1].data, *y = b[2].data;
    ck_assert(x[0] == 0.0f && x[999] == 999.0f && y[0] == 1.0f && y[999] == 1.0f);
    spec_buffers_free(b, s.nargs);
    spec_free(&s);
    ck_assert_ptr_null(s.args);
}
END_TEST

START_TEST(test_every_type_and_init_kind_fills_exact_buffers)
{
    gl_spec s;
    gl_error err = {0};
    gl_status st = spec_load_file(FIX "all_types.json", &s, &err);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    ck_assert_uint_eq(s.grid[0], 2);
    ck_assert_uint_eq(s.grid[1], 3);
    ck_assert_uint_eq(s.grid[2], 1);
    ck_assert_uint_eq(s.block[2], 2);
    ck_assert_uint_eq(s.dynamic_shared_bytes, 1024);
    gl_buffer *b;
    ck_assert_int_eq(spec_buffers_new(&s, &b, &err), GL_OK);

    const int8_t *i8 = b[0].data;
    ck_assert_int_eq(i8[0], -128);
    ck_assert_int_eq(i8[1], 127);
    ck_assert_int_eq(i8[2], -1);
    ck_assert_int_eq(i8[3], 0); /* values shorter than len: the rest is zero */
    const uint8_t *u8 = b[1].data;
    ck_assert(u8[0] == 255 && u8[2] == 255);
    const int16_t *i16 = b[2].data;
    ck_assert(i16[0] == -2 && i16[1] == 1 && i16[2] == 4 && i16[3] == 7);
    const uint16_t *u16 = b[3].data;
    ck_assert(u16[0] == 10 && u16[1] == 5 && u16[2] == 0);
    const uint32_t *u32 = b[5].data;
    ck_assert(u32[0] == 0 && u32[1] == 0);
    const int64_t *i64 = b[6].data;
    ck_assert(i64[0] == INT64_MIN && i64[1] == INT64_MAX && i64[2] == 9007199254740991);
    const float *b32 = b[10].data;
    ck_assert(b32[0] == 0.0f && signbit(b32[0]) && isnan(b32[1]) && isinf(b32[2]) && b32[2] < 0 &&
              b32[3] == 1e30f);

    /* Scalars: signed in .i, unsigned in .u, floats in .f (f32 rounded to float). */
    ck_assert_int_eq(s.args[13].value.i, -5);
    ck_assert(s.args[14].value.u == UINT64_MAX);
    ck_assert(s.args[15].value.f == (double)0.1f);
    ck_assert(s.args[16].value.f == 16777217.0);

    /* Every buffer, exactly, as gpulearn run --dump-json writes it. Random values were
     * computed independently with the splitmix64 reference (Python) from the doc
     * comment of spec_random_fill. */
    char *json = result_json(&s, b, "hi \"there\"\n");
    const char *want =
        "{\n"
        "  \"buffers\": {\n"
        "    \"a_i8\": [-128, 127, -1, 0],\n"
        "    \"a_u8\": [255, 255, 255],\n"
        "    \"a_i16\": [-2, 1, 4, 7],\n"
        "    \"a_u16\": [10, 5, 0],\n"
        "    \"a_i32\": [-8, -3, 5, 4],\n"
        "    \"a_u32\": [0, 0],\n"
        "    \"a_i64\": [-9223372036854775808, 9223372036854775807, 9007199254740991],\n"
        "    \"a_u64\": [16490336266968443936, 16834447057089888969, 4048727598324417001],\n"
        "    \"a_f32\": [0.0, 0.1, 0.2, 0.3],\n"
        "    \"a_f64\": [0.4831297575436466, -0.6801792142461598, -0.4427977394897227],\n"
        "    \"b_f32\": [-0.0, \"nan\", \"-inf\", 1e+30],\n"
        "    \"b_u8\": [253, 250, 250, 253, 254],\n"
        "    \"b_f32r\": [0.11345029, 0.7002935]\n"
        "  },\n"
        "  \"stdout\": \"hi \\\"there\\\"\\n\"\n"
        "}\n";
    ck_assert_str_eq(json, want);
    free(json);

    /* The simulator's way: sized buffers without data, each filled in place by
     * spec_buffer_fill into memory that is not zeroed: the same bytes, every byte
     * written (a_i8's fourth element and a_u32 are zeros). */
    gl_buffer *sized;
    ck_assert_int_eq(spec_buffers_sized(&s, &sized, &err), GL_OK);
    for (int k = 0; k < s.nargs; k++) {
        ck_assert_ptr_null(sized[k].data);
        ck_assert_uint_eq(sized[k].bytes, b[k].bytes);
        if (!s.args[k].is_ptr)
            continue;
        unsigned char poisoned[64];
        ck_assert_uint_le(b[k].bytes, sizeof poisoned);
        memset(poisoned, 0xA5, sizeof poisoned);
        spec_buffer_fill(&s.args[k], poisoned);
        ck_assert_msg(memcmp(poisoned, b[k].data, b[k].bytes) == 0, "%s", s.args[k].name);
        ck_assert_uint_eq(poisoned[b[k].bytes], 0xA5); /* nothing past the buffer */
    }
    spec_buffers_free(sized, s.nargs);
    spec_buffers_free(b, s.nargs);
    spec_free(&s);
}
END_TEST

/* A fill of any length writes exactly len copies of its value and nothing past them
 * (spec_buffer_fill copies the filled part after itself, doubling). */
START_TEST(test_fill_writes_every_element_and_nothing_past)
{
    static const size_t lens[] = {1, 2, 3, 7, 8, 1000, 1000003};
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        const size_t n = lens[k];
        gl_arg f64 = {.name = "d",
                      .type = GL_F64,
                      .is_ptr = true,
                      .len = n,
                      .init = {.kind = GL_INIT_FILL, .a = {.f = -2.5}}};
        gl_arg i16 = {.name = "h",
                      .type = GL_I16,
                      .is_ptr = true,
                      .len = n,
                      .init = {.kind = GL_INIT_FILL, .a = {.i = -3}}};
        double *d = malloc((n + 1) * sizeof *d);
        int16_t *h = malloc((n + 1) * sizeof *h);
        ck_assert(d && h);
        memset(d, 0xA5, (n + 1) * sizeof *d);
        memset(h, 0xA5, (n + 1) * sizeof *h);
        spec_buffer_fill(&f64, d);
        spec_buffer_fill(&i16, h);
        for (size_t i = 0; i < n; i++) {
            ck_assert_msg(d[i] == -2.5, "len %zu: d[%zu] = %g", n, i, d[i]);
            ck_assert_msg(h[i] == -3, "len %zu: h[%zu] = %d", n, i, h[i]);
        }
        const unsigned char *dp = (const unsigned char *)(d + n),
                            *hp = (const unsigned char *)(h + n);
        ck_assert(dp[0] == 0xA5 && dp[7] == 0xA5 && hp[0] == 0xA5 && hp[1] == 0xA5);
        free(d);
        free(h);
    }
}
END_TEST

START_TEST(test_string_expressions_use_vars)
{
    const char *text =
        "{\"source\": \"saxpy.cu\", \"kernel\": \"k\", \"grid\": [\"(n + 255) / 256\", \"m\"],"
        " \"block\": \"256\", \"dynamic_shared_bytes\": \"4 * (m + 1)\", \"args\": ["
        "  {\"name\": \"x\", \"type\": \"i32*\", \"len\": \"n\","
        "   \"init\": {\"iota\": {\"start\": \"-n\", \"step\": \"m % 2 - 1 + 2\"}}},"
        "  {\"name\": \"y\", \"type\": \"u64*\", \"len\": \"n*n\","
        "   \"init\": {\"fill\": \"0x10 * -(-m)\"}},"
        "  {\"name\": \"z\", \"type\": \"f64*\", \"len\": 2,"
        "   \"init\": {\"values\": [\"n / 3\", \"1.5e3\"]}},"
        "  {\"name\": \"n\", \"type\": \"i32\", \"value\": \" n - 1 \"}]}";
    gl_vars vars = {.names = {"n", "m"}, .values = {1000, 3}, .count = 2};
    gl_spec s;
    gl_error err = {0};
    gl_status st = from_text(text, &vars, &s, &err);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    ck_assert_str_eq(s.source, FIX "saxpy.cu");
    ck_assert_uint_eq(s.grid[0], 4);
    ck_assert_uint_eq(s.grid[1], 3);
    ck_assert_uint_eq(s.block[0], 256);
    ck_assert_uint_eq(s.dynamic_shared_bytes, 16);
    ck_assert_uint_eq(s.args[0].len, 1000);
    ck_assert_uint_eq(s.args[1].len, 1000000);
    ck_assert_int_eq(s.args[3].value.i, 999);
    gl_buffer *b;
    ck_assert_int_eq(spec_buffers_new(&s, &b, &err), GL_OK);
    const int32_t *x = b[0].data;
    ck_assert_int_eq(x[0], -1000);
    ck_assert_int_eq(x[999], -1000 + 999 * 2);
    const uint64_t *y = b[1].data;
    ck_assert(y[0] == 48 && y[999999] == 48);
    const double *z = b[2].data;
    ck_assert(z[0] == 333.0 && z[1] == 1500.0);
    spec_buffers_free(b, s.nargs);
    spec_free(&s);
}
END_TEST

/* ------------------------------------------------------------- bad specs */

static gl_status status_named(const char *name)
{
    if (strcmp(name, "INPUT") == 0)
        return GL_ERR_INPUT;
    if (strcmp(name, "LAUNCH") == 0)
        return GL_ERR_LAUNCH;
    ck_abort_msg("unknown status '%s' in an .expect file", name);
    return GL_OK;
}

/* Every tests/fixtures/specs/bad/NAME.json fails with NAME.expect: the status (INPUT or
 * LAUNCH) on the first line, then the exact message. Adding a case needs no C code.
 * Malformed JSON (malformed, truncated, trailing_garbage) is reported at file:line:col. */
START_TEST(test_bad_specs_fail_with_the_expected_status_and_message)
{
    DIR *d = opendir(FIX "bad");
    ck_assert_ptr_nonnull(d);
    int checked = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char spec[512], expect[512];
        snprintf(spec, sizeof spec, FIX "bad/%s", e->d_name);
        snprintf(expect, sizeof expect, FIX "bad/%.*s.expect", (int)(n - 5), e->d_name);
        gl_error err = {0};
        char *want = gl_read_file(expect, NULL, &err);
        ck_assert_msg(want != NULL, "%s", err.msg);
        char *nl = strchr(want, '\n');
        ck_assert_ptr_nonnull(nl);
        *nl = '\0';
        char *msg = nl + 1;
        size_t ml = strlen(msg);
        while (ml > 0 && msg[ml - 1] == '\n')
            msg[--ml] = '\0';
        gl_spec s;
        gl_status st = spec_load_file(spec, &s, &err);
        ck_assert_msg(st == status_named(want), "%s: status %d, message: %s", spec, st, err.msg);
        ck_assert_int_eq(err.status, st);
        ck_assert_msg(strcmp(err.msg, msg) == 0, "%s:\n got: %s\nwant: %s", spec, err.msg, msg);
        ck_assert_int_eq(gl_exit_code(st), 2);
        ck_assert_ptr_null(s.args);
        free(want);
        checked++;
    }
    closedir(d);
    ck_assert_int_ge(checked, 40);
}
END_TEST

START_TEST(test_missing_spec_file_names_the_file)
{
    gl_spec s;
    gl_error err = {0};
    ck_assert_int_eq(spec_load_file(FIX "nope.json", &s, &err), GL_ERR_INPUT);
    ck_assert_str_eq(err.msg, FIX "nope.json: No such file or directory");
}
END_TEST

static void assert_var_error(const char *field_json, const char *want)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"source\": \"saxpy.cu\", \"kernel\": \"k\", \"grid\": [1], \"block\": [32],"
             " \"args\": [{\"name\": \"x\", \"type\": \"i32*\", \"len\": %s}]}",
             field_json);
    gl_vars vars = {.names = {"n"}, .values = {100}, .count = 1};
    gl_spec s;
    gl_error err = {0};
    ck_assert_int_eq(from_text(text, &vars, &s, &err), GL_ERR_INPUT);
    ck_assert_str_eq(err.msg, want);
}

START_TEST(test_expression_errors_name_the_field)
{
    assert_var_error("\"m * 2\"",
                     "k.json: args[0].len: unknown variable 'm' in \"m * 2\" (variables: n)");
    assert_var_error("\"n / (n - 100)\"",
                     "k.json: args[0].len: division by zero in \"n / (n - 100)\"");
    assert_var_error("\"n % 0\"", "k.json: args[0].len: division by zero in \"n % 0\"");
    assert_var_error("\"(n + 1\"", "k.json: args[0].len: expected ')' at column 7 of \"(n + 1\"");
    assert_var_error(
        "\"n +\"", "k.json: args[0].len: \"n +\" ends early: expected a number, a variable or '('");
    assert_var_error("\"n ^ 2\"", "k.json: args[0].len: unexpected '^' at column 3 of \"n ^ 2\"");
    assert_var_error("\"n * 9223372036854775807\"",
                     "k.json: args[0].len: \"n * 9223372036854775807\" overflows 64-bit integers");
    assert_var_error("\"n - 200\"", "k.json: args[0].len: must be > 0");
    assert_var_error("\"\"", "k.json: args[0].len: must be a number, not an empty string");
    assert_var_error("null", "k.json: args[0].len: must be a number, not null");
    assert_var_error("2.5", "k.json: args[0].len: must be an integer, got 2.5");
}
END_TEST

START_TEST(test_spec_from_json_rejects_non_object)
{
    gl_spec s;
    gl_error err = {0};
    ck_assert_int_eq(spec_from_json(NULL, "k.json", ".", NULL, &s, &err), GL_ERR_INPUT);
    ck_assert_str_eq(err.msg, "k.json: a launch spec must be a JSON object, not nothing");
}
END_TEST

/* ------------------------------------------------------------ JSON writer */

START_TEST(test_json_floats_are_shortest_round_trip_with_a_point)
{
    assert_value_json(GL_F32, F(-0.0), "-0.0");
    assert_value_json(GL_F64, F(-0.0), "-0.0");
    assert_value_json(GL_F32, F(0.0), "0.0");
    assert_value_json(GL_F32, F(1.0), "1.0");
    assert_value_json(GL_F32, F(0.1f), "0.1");
    assert_value_json(GL_F64, F(0.1f), "0.10000000149011612");
    assert_value_json(GL_F64, F(0.1), "0.1");
    assert_value_json(GL_F32, F(1e30f), "1e+30");
    assert_value_json(GL_F64, F(1e30), "1e+30");
    assert_value_json(GL_F32, F(16777217.0), "16777216.0"); /* rounds to the float */
    assert_value_json(GL_F64, F(16777217.0), "16777217.0");
    assert_value_json(GL_F32, F(3.4028234663852886e38), "3.4028235e+38");
    assert_value_json(GL_F32, F(1.401298464324817e-45), "1e-45");
    assert_value_json(GL_F64, F(5e-324), "5e-324");
    assert_value_json(GL_F64, F(1.0 / 3.0), "0.3333333333333333");
    assert_value_json(GL_F32, F(NAN), "\"nan\"");
    assert_value_json(GL_F64, F(-NAN), "\"nan\"");
    assert_value_json(GL_F32, F(INFINITY), "\"inf\"");
    assert_value_json(GL_F64, F(-INFINITY), "\"-inf\"");
}
END_TEST

START_TEST(test_json_integers_are_exact_at_64_bits)
{
    gl_value v;
    v.i = INT64_MIN;
    assert_value_json(GL_I64, v, "-9223372036854775808");
    v.u = UINT64_MAX;
    assert_value_json(GL_U64, v, "18446744073709551615");
    v.i = -1;
    assert_value_json(GL_I8, v, "-1");
    v.u = 4294967295u;
    assert_value_json(GL_U32, v, "4294967295");
}
END_TEST

START_TEST(test_buffer_get_sign_extends_signed_and_zero_extends_unsigned_elements)
{
    static const unsigned char ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    static const struct {
        gl_type t;
        int64_t i;
        uint64_t u;
    } rows[] = {
        {GL_I8, -1, 0},  {GL_U8, 0, 0xff},         {GL_I16, -1, 0}, {GL_U16, 0, 0xffff},
        {GL_I32, -1, 0}, {GL_U32, 0, 0xffffffffu}, {GL_I64, -1, 0}, {GL_U64, 0, UINT64_MAX},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        gl_value v = spec_buffer_get(ones, rows[r].t, 0);
        if (spec_type_is_signed(rows[r].t))
            ck_assert_msg(v.i == rows[r].i, "%s", spec_type_name(rows[r].t));
        else
            ck_assert_msg(v.u == rows[r].u, "%s", spec_type_name(rows[r].t));
    }
    const int16_t i16[2] = {INT16_MIN, 0x7fff};
    ck_assert_int_eq(spec_buffer_get(i16, GL_I16, 0).i, INT16_MIN);
    ck_assert_int_eq(spec_buffer_get(i16, GL_I16, 1).i, 0x7fff);
    const float f32[2] = {-0.0f, 0x1.fffffep127f};
    ck_assert(spec_buffer_get(f32, GL_F32, 1).f == 0x1.fffffep127);
    ck_assert(signbit(spec_buffer_get(f32, GL_F32, 0).f));
    const double f64[1] = {0x1.0000000000001p0};
    ck_assert(spec_buffer_get(f64, GL_F64, 0).f == 0x1.0000000000001p0);
}
END_TEST

START_TEST(test_json_strings_escape_controls_and_invalid_utf8)
{
    gl_spec s = {0};
    char *json = result_json(&s, NULL,
                             "a\tb\x01\x7f\"\\ caf\xc3\xa9 \xe2\x82\xac \xff\xc0\xafz"
                             " \xed\xa0\x80!");
    ck_assert_str_eq(json, "{\n  \"buffers\": {},\n  \"stdout\": "
                           "\"a\\tb\\u0001\\u007f\\\"\\\\ caf\xc3\xa9 \xe2\x82\xac "
                           "\\ufffd\\ufffd\\ufffdz \\ufffd\\ufffd\\ufffd!\"\n}\n");
    free(json);
    json = result_json(&s, NULL, NULL);
    ck_assert_str_eq(json, "{\n  \"buffers\": {},\n  \"stdout\": \"\"\n}\n");
    free(json);
}
END_TEST

START_TEST(test_json_result_parses_back_with_cjson)
{
    gl_spec s;
    gl_error err = {0};
    ck_assert_int_eq(spec_load_file(FIX "saxpy.json", &s, &err), GL_OK);
    gl_buffer *b;
    ck_assert_int_eq(spec_buffers_new(&s, &b, &err), GL_OK);
    char *json = result_json(&s, b, "x");
    cJSON *j = cJSON_Parse(json);
    ck_assert_ptr_nonnull(j);
    cJSON *x = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "buffers"), "x");
    ck_assert_int_eq(cJSON_GetArraySize(x), 1000);
    ck_assert(cJSON_GetArrayItem(x, 999)->valuedouble == 999.0);
    ck_assert_ptr_null(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "buffers"), "a"));
    cJSON_Delete(j);
    free(json);
    spec_buffers_free(b, s.nargs);
    spec_free(&s);
}
END_TEST

/* ------------------------------------------------------------ random */

START_TEST(test_random_is_splitmix64_with_known_first_values)
{
    /* Seed 0: splitmix64's first outputs are 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
     * 0x06C45D188009454F (Vigna's reference splitmix64.c). */
    uint64_t out[3];
    gl_value lo = {.u = 0}, hi = {.u = UINT64_MAX};
    spec_random_fill(out, GL_U64, 3, 0, lo, hi);
    ck_assert(out[0] == 0xE220A8397B1DCDAFu);
    ck_assert(out[1] == 0x6E789E6AA1B965F4u);
    ck_assert(out[2] == 0x06C45D188009454Fu);

    /* Full signed range: min + r, wrapping. */
    int64_t sout[3];
    gl_value slo = {.i = INT64_MIN}, shi = {.i = INT64_MAX};
    spec_random_fill(sout, GL_I64, 3, 0, slo, shi);
    ck_assert((uint64_t)sout[0] == 0xE220A8397B1DCDAFu + 0x8000000000000000u);

    /* Small range: min + r % (max - min + 1). */
    int32_t d[3];
    gl_value dlo = {.i = 1}, dhi = {.i = 6};
    spec_random_fill(d, GL_I32, 3, 0, dlo, dhi);
    ck_assert_int_eq(d[0], 1 + (int)(0xE220A8397B1DCDAFu % 6));
    ck_assert_int_eq(d[1], 1 + (int)(0x6E789E6AA1B965F4u % 6));
    ck_assert_int_eq(d[2], 1 + (int)(0x06C45D188009454Fu % 6));

    /* Floats: f32 uses the top 24 bits, f64 the top 53. */
    float f[1];
    double g[1];
    spec_random_fill(f, GL_F32, 1, 0, F(0), F(1));
    spec_random_fill(g, GL_F64, 1, 0, F(0), F(1));
    ck_assert(f[0] == (float)((double)(0xE220A8397B1DCDAFu >> 40) * 0x1p-24));
    ck_assert(g[0] == (double)(0xE220A8397B1DCDAFu >> 11) * 0x1p-53);
}
END_TEST

START_TEST(test_random_is_deterministic_and_in_range)
{
    enum { N = 10000 };
    static int16_t a[N], b[N];
    gl_value lo = {.i = -3}, hi = {.i = 3};
    spec_random_fill(a, GL_I16, N, 12345, lo, hi);
    spec_random_fill(b, GL_I16, N, 12345, lo, hi);
    ck_assert(memcmp(a, b, sizeof a) == 0);
    int seen[7] = {0};
    for (int i = 0; i < N; i++) {
        ck_assert(a[i] >= -3 && a[i] <= 3);
        seen[a[i] + 3]++;
    }
    for (int k = 0; k < 7; k++)
        ck_assert_int_gt(seen[k], N / 7 / 2);
    spec_random_fill(b, GL_I16, N, 12346, lo, hi);
    ck_assert(memcmp(a, b, sizeof a) != 0);

    static float f[N];
    spec_random_fill(f, GL_F32, N, 9, F(-2.0), F(2.0));
    for (int i = 0; i < N; i++)
        ck_assert(f[i] >= -2.0f && f[i] <= 2.0f);
}
END_TEST

/* The classes of "random" (spec_rng.c's documentation, computed independently from it
 * for these seeds): full_range of i32 mixes the extremes into uniform draws; full_range
 * of f32 spreads values over every binade (here the largest float, the largest denormal
 * and a denormal among them); bit_ranges of u32 gives keys that differ only in one byte,
 * or only in bit 31, per fifth of the buffer. */
START_TEST(test_random_classes_draw_as_documented)
{
    gl_init in = {.kind = GL_INIT_RANDOM, .rclass = GL_RANDOM_FULL_RANGE, .seed = 5};
    in.a.i = INT32_MIN;
    in.b.i = INT32_MAX;
    int32_t d[8];
    spec_random_fill_init(d, GL_I32, 8, &in);
    static const int32_t want_d[8] = {328677112,  1510324549, 805781572,  -2036732117,
                                      2147483646, -721049796, -594228467, -1720640938};
    ck_assert(memcmp(d, want_d, sizeof d) == 0);

    float f[8];
    in = (gl_init){.kind = GL_INIT_RANDOM, .rclass = GL_RANDOM_FULL_RANGE, .seed = 11};
    in.a.f = -FLT_MAX;
    in.b.f = FLT_MAX;
    in.nonfinite = true;
    spec_random_fill_init(f, GL_F32, 8, &in);
    static const float want_f[8] = {-0x1.3624dap-10f,  0x1.fffffep+127f, 0x1.3592ecp+38f,
                                    -0x1.7a183ap-112f, -0x1.e8ae82p+57f, 0x1.fffffcp-127f,
                                    -0x1.99f78p-129f,  -0x1.eb89cap+61f};
    for (int i = 0; i < 8; i++)
        ck_assert_msg(f[i] == want_f[i], "f[%d] = %a, not %a", i, (double)f[i], (double)want_f[i]);
    in.seed = 17; /* all negative: [-FLT_MAX, -1] */
    in.b.f = -1;
    in.nonfinite = false;
    spec_random_fill_init(f, GL_F32, 8, &in);
    static const float want_neg[8] = {
        -0x1.a83718p+81f, -0x1.8e65d4p+94f, -0x1.137a74p+53f,  -1.0f,
        -0x1.cf3c6ap+22f, -0x1.e8ce56p+15f, -0x1.54e946p+101f, -FLT_MAX};
    ck_assert(memcmp(f, want_neg, sizeof f) == 0);

    uint32_t k[10];
    in = (gl_init){.kind = GL_INIT_RANDOM, .rclass = GL_RANDOM_BIT_RANGES, .seed = 13};
    in.b.u = UINT32_MAX;
    spec_random_fill_init(k, GL_U32, 10, &in);
    static const uint32_t want_k[10] = {0xf8ad8a8e, 0xf8ad8a37, 0x2eefcf73, 0x2eefee73, 0x2ee0d297,
                                        0x2eb4d297, 0xa2ee950f, 0x3cee950f, 0x67c99b12, 0xe7c99b12};
    ck_assert(memcmp(k, want_k, sizeof k) == 0);
    /* each pair of a part differs only in its range: bits 0-7, 8-15, 16-23, 24-31, 31 */
    for (int p = 0; p < 5; p++)
        ck_assert_uint_eq((k[2 * p] ^ k[2 * p + 1]) & ~(p < 4 ? 0xffu << (8 * p) : 1u << 31), 0);
}
END_TEST

/* A "random" class is checked where the spec names it: bit_ranges needs an integer type
 * and its whole range, quantum and nonfinite a full_range of floats, the bounds multiples
 * of the quantum. */
START_TEST(test_random_class_keys_are_validated)
{
    static const struct {
        const char *arg, *msg;
    } cases[] = {
        {"\"type\": \"f32*\", \"init\": {\"random\": {\"seed\": 1, \"min\": 0, \"max\": 1, "
         "\"class\": \"bit_ranges\"}}",
         "args[0].init.random: bit_ranges draws integer keys, not f32"},
        {"\"type\": \"u32*\", \"init\": {\"random\": {\"seed\": 1, \"min\": 0, \"max\": 7, "
         "\"class\": \"bit_ranges\"}}",
         "args[0].init.random: bit_ranges draws from every value of u32: min and max must be its "
         "limits"},
        {"\"type\": \"i32*\", \"init\": {\"random\": {\"seed\": 1, \"min\": 0, \"max\": 7, "
         "\"class\": \"full_range\", \"quantum\": 1}}",
         "args[0].init.random.quantum: only a full_range of f32 or f64 takes this key"},
        {"\"type\": \"f32*\", \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1.3, "
         "\"class\": \"full_range\", \"quantum\": 0.25}}",
         "args[0].init.random.quantum: min and max must be multiples of the quantum"},
        {"\"type\": \"f32*\", \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1, "
         "\"class\": \"full_range\", \"quantum\": 0.3}}",
         "args[0].init.random.quantum: must be a power of two"},
        {"\"type\": \"f32*\", \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1, "
         "\"class\": \"widest\"}}",
         "args[0].init.random.class: must be \"uniform\", \"full_range\" or \"bit_ranges\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"source\": \"saxpy.cu\", \"kernel\": \"k\", \"grid\": [1], \"block\": [32], "
                 "\"args\": [{\"name\": \"a\", \"len\": 4, %s}]}",
                 cases[i].arg);
        gl_spec s;
        gl_error err = {0};
        ck_assert_int_eq(from_text(text, NULL, &s, &err), GL_ERR_INPUT);
        ck_assert_msg(strstr(err.msg, cases[i].msg), "%s\nnot: %s", err.msg, cases[i].msg);
    }
}
END_TEST

/* ------------------------------------------------------------------ gl.c */

START_TEST(test_exit_codes_follow_the_architecture)
{
    ck_assert_int_eq(gl_exit_code(GL_OK), 0);
    ck_assert_int_eq(gl_exit_code(GL_ERR_USAGE), 2);
    ck_assert_int_eq(gl_exit_code(GL_ERR_INPUT), 2);
    ck_assert_int_eq(gl_exit_code(GL_ERR_LAUNCH), 2);
    ck_assert_int_eq(gl_exit_code(GL_ERR_COMPILE), 1);
    ck_assert_int_eq(gl_exit_code(GL_ERR_UNSUPPORTED), 1);
    ck_assert_int_eq(gl_exit_code(GL_ERR_FAULT), 1);
    ck_assert_int_eq(gl_exit_code(GL_ERR_CHECK), 1);
    ck_assert_int_eq(gl_exit_code(GL_ERR_NODEVICE), 1);
    ck_assert_int_eq(gl_exit_code(GL_ERR_CUDA), 1);
    ck_assert_int_eq(gl_exit_code(GL_ERR_TOOL), 1);
    ck_assert_int_eq(gl_exit_code(GL_ERR_NOMEM), 1);
    gl_error err;
    ck_assert_int_eq(gl_fail(&err, GL_ERR_CHECK, "k.cu:%d: %s", 5, "wrong"), GL_ERR_CHECK);
    ck_assert_int_eq(err.status, GL_ERR_CHECK);
    ck_assert_str_eq(err.msg, "k.cu:5: wrong");
    ck_assert_int_eq(gl_fail(NULL, GL_ERR_FAULT, "x"), GL_ERR_FAULT);
}
END_TEST

START_TEST(test_atomic_write_then_read_round_trips)
{
    char dir[] = "/tmp/gl_test_spec_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.json", dir);
    gl_error err = {0};
    ck_assert_int_eq(gl_write_file_atomic(path, "first", 5, &err), GL_OK);
    ck_assert_int_eq(gl_write_file_atomic(path, "second\0x", 8, &err), GL_OK);
    size_t len;
    char *text = gl_read_file(path, &len, &err);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, 8);
    ck_assert(memcmp(text, "second\0x", 9) == 0);
    free(text);
    /* No temporary file is left behind. */
    DIR *d = opendir(dir);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        files += e->d_name[0] != '.';
    closedir(d);
    ck_assert_int_eq(files, 1);
    unlink(path);

    char bad[300];
    snprintf(bad, sizeof bad, "%s/no/such/dir/x.json", dir);
    ck_assert_int_eq(gl_write_file_atomic(bad, "x", 1, &err), GL_ERR_INPUT);
    ck_assert(strstr(err.msg, "x.json: No such file or directory") != NULL);
    ck_assert_ptr_null(gl_read_file(dir, NULL, &err));
    char want[300];
    snprintf(want, sizeof want, "%s: Is a directory", dir);
    ck_assert_str_eq(err.msg, want);
    rmdir(dir);
}
END_TEST

static Suite *spec_suite(void)
{
    Suite *s = suite_create("spec");
    TCase *tc = tcase_create("spec");
    tcase_add_test(tc, test_saxpy_spec_loads_with_defaults_and_resolved_source);
    tcase_add_test(tc, test_every_type_and_init_kind_fills_exact_buffers);
    tcase_add_test(tc, test_fill_writes_every_element_and_nothing_past);
    tcase_add_test(tc, test_string_expressions_use_vars);
    tcase_add_test(tc, test_bad_specs_fail_with_the_expected_status_and_message);
    tcase_add_test(tc, test_missing_spec_file_names_the_file);
    tcase_add_test(tc, test_expression_errors_name_the_field);
    tcase_add_test(tc, test_spec_from_json_rejects_non_object);
    tcase_add_test(tc, test_json_floats_are_shortest_round_trip_with_a_point);
    tcase_add_test(tc, test_json_integers_are_exact_at_64_bits);
    tcase_add_test(tc, test_buffer_get_sign_extends_signed_and_zero_extends_unsigned_elements);
    tcase_add_test(tc, test_json_strings_escape_controls_and_invalid_utf8);
    tcase_add_test(tc, test_json_result_parses_back_with_cjson);
    tcase_add_test(tc, test_random_is_splitmix64_with_known_first_values);
    tcase_add_test(tc, test_random_is_deterministic_and_in_range);
    tcase_add_test(tc, test_random_classes_draw_as_documented);
    tcase_add_test(tc, test_random_class_keys_are_validated);
    tcase_add_test(tc, test_exit_codes_follow_the_architecture);
    tcase_add_test(tc, test_atomic_write_then_read_round_trips);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(spec_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
