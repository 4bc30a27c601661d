/* test_sim_half_convert.c — f16 and bf16 conversions, exhaustively, against a reference
 * written here with integer arithmetic only (independent of the simulator's
 * half_bits/half_val, which work through double):
 *   - every one of the 65,536 f16 and bf16 bit patterns to f32 (cvt.f32.f16,
 *     cvt.f32.bf16) and back (cvt.rn.f16.f32, cvt.rn.bf16.f32);
 *   - f32 to f16 and bf16 in .rn, .rz, .rm and .rp for every finite f16 and bf16 value v
 *     of either sign, and around each rounding boundary: v, the midpoint m between v and
 *     the next value away from zero (the overflow threshold past the largest finite
 *     one), and the f32 values just below and above m; then zeros, infinities, NaNs and
 *     f32 subnormals.
 * PTX ISA §9.7.9.21 cvt: one rounding from the exact value, subnormals kept. Where it
 * says only "NaN" (measured on an H100: corpus half_roundtrip_f16, half_roundtrip_bf16,
 * f32_to_half_edges): f16 NaN to f32 is 0x7fffffff, bf16 NaN to f32 keeps sign and
 * payload, and every NaN to f16 or bf16 is 0x7fff in every rounding. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

/* ------------------------------------------------------------ the reference */

/* f16 (bf = 0) or bf16 (bf = 1) bits h to f32 bits: exact. */
static uint32_t ref_widen(uint32_t h, int bf)
{
    if (bf)
        return h << 16; /* bf16 is the upper half of an f32, NaN payloads included */
    uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 31, m = h & 1023;
    if (e == 31)
        return m ? 0x7fffffffu : s | 0x7f800000u;
    if (e == 0) {
        if (m == 0)
            return s;
        e = 1; /* a subnormal m 2^-24: shift m up to a leading 1 at bit 10 */
        while (!(m & 1024)) {
            m <<= 1;
            e--;
        }
        m &= 1023;
    }
    return s | (e + 112) << 23 | m << 13; /* exponent bias 15 -> 127 */
}

enum { RN, RZ, RM, RP };

/* f32 bits u to f16 (bf = 0) or bf16 (bf = 1) bits, rounded by mode (RN: to nearest,
 * ties to even; RZ toward zero; RM toward -inf; RP toward +inf). */
static uint32_t ref_narrow(uint32_t u, int bf, int mode)
{
    const int mbits = bf ? 7 : 10, ebits = bf ? 8 : 5, bias = (1 << (ebits - 1)) - 1;
    const int emin = 1 - bias;
    const uint32_t neg = u >> 31, e = (u >> 23) & 255, m = u & 0x7fffffu;
    const uint32_t hs = neg << 15, inf = ((1u << ebits) - 1) << mbits, maxfin = inf - 1;
    if (e == 255)
        return m ? 0x7fffu : hs | inf;
    if (e == 0 && m == 0)
        return hs;
    const uint64_t sig = e ? m | 1u << 23 : m; /* the value is sig 2^x */
    const int x = e ? (int)e - 150 : -149;
    const int lg = 63 - __builtin_clzll(sig) + x; /* floor(log2(value)) */
    int q = (lg > emin ? lg : emin) - mbits;      /* the exponent of the result's ulp */
    uint64_t n;
    int below = 0, tie = 0, above = 0;
    if (q <= x) {
        n = sig << (x - q);
    } else if (q - x > 40) {
        n = 0; /* below half the smallest subnormal */
        below = 1;
    } else {
        const int sh = q - x;
        const uint64_t r = sig & ((1ull << sh) - 1), half = 1ull << (sh - 1);
        n = sig >> sh;
        below = r && r < half;
        tie = r == half;
        above = r > half;
    }
    const int inexact = below || tie || above;
    int up = 0;
    switch (mode) {
    case RN: up = above || (tie && (n & 1)); break;
    case RM: up = neg && inexact; break;
    case RP: up = !neg && inexact; break;
    default: break;
    }
    n += (uint64_t)up;
    if (n == 1ull << (mbits + 1)) {
        n >>= 1;
        q++;
    }
    if (n < 1ull << mbits)
        return hs | (uint32_t)n; /* subnormal or zero */
    const int E = q + mbits + bias;
    if (E >= (1 << ebits) - 1) {
        const int to_inf = mode == RN || (mode == RM && neg) || (mode == RP && !neg);
        return hs | (to_inf ? inf : maxfin);
    }
    return hs | (uint32_t)E << mbits | (uint32_t)(n & ((1u << mbits) - 1));
}

static float bits_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* ------------------------------------------------------------ the kernels */

/* widen: thread i (< n) converts the pattern i both ways as f16 and as bf16;
 * out[4i .. 4i+3] = f32 of f16, f16 back, f32 of bf16, bf16 back.
 * narrow: in[i] (f32 bits) to f16 in .rn .rz .rm .rp, then bf16 in the same order:
 * h[8i .. 8i+7]. */
static const char kernels[] =
    ".version 7.8\n.target sm_90\n.address_size 64\n"
    ".visible .entry widen(.param .u64 out, .param .u32 n)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .f32 %f<4>;\n  .reg .b16 %h<6>;\n"
    "  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r0, %r1, %r2, %r3;\n  ld.param.u32 %r4, [n];\n"
    "  setp.ge.u32 %p1, %r0, %r4;\n  @%p1 bra DONE;\n"
    "  cvt.u16.u32 %h1, %r0;\n"
    "  cvt.f32.f16 %f1, %h1;\n  cvt.rn.f16.f32 %h2, %f1;\n"
    "  cvt.f32.bf16 %f2, %h1;\n  cvt.rn.bf16.f32 %h3, %f2;\n"
    "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r0, 16;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  mov.b32 %r5, %f1;\n  cvt.u32.u16 %r6, %h2;\n  st.global.v2.u32 [%rd3], {%r5, %r6};\n"
    "  mov.b32 %r5, %f2;\n  cvt.u32.u16 %r6, %h3;\n  st.global.v2.u32 [%rd3+8], {%r5, %r6};\n"
    "DONE:\n  ret;\n}\n"
    ".visible .entry narrow(.param .u64 in, .param .u64 h, .param .u32 n)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .f32 %f<4>;\n  .reg .b16 %h<10>;\n"
    "  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r0, %r1, %r2, %r3;\n  ld.param.u32 %r4, [n];\n"
    "  setp.ge.u32 %p1, %r0, %r4;\n  @%p1 bra DONE;\n"
    "  ld.param.u64 %rd1, [in];\n  mul.wide.u32 %rd2, %r0, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.f32 %f1, [%rd3];\n"
    "  cvt.rn.f16.f32 %h1, %f1;\n  cvt.rz.f16.f32 %h2, %f1;\n"
    "  cvt.rm.f16.f32 %h3, %f1;\n  cvt.rp.f16.f32 %h4, %f1;\n"
    "  cvt.rn.bf16.f32 %h5, %f1;\n  cvt.rz.bf16.f32 %h6, %f1;\n"
    "  cvt.rm.bf16.f32 %h7, %f1;\n  cvt.rp.bf16.f32 %h8, %f1;\n"
    "  ld.param.u64 %rd4, [h];\n  mul.wide.u32 %rd5, %r0, 16;\n  add.s64 %rd6, %rd4, %rd5;\n"
    "  st.global.v4.u16 [%rd6], {%h1, %h2, %h3, %h4};\n"
    "  st.global.v4.u16 [%rd6+8], {%h5, %h6, %h7, %h8};\n"
    "DONE:\n  ret;\n}\n";

/* Runs kernel over n threads with one output buffer of out_bytes (and an input buffer
 * of in_bytes when in != NULL); copies the output into out. */
static void run(const char *kernel, const void *in, size_t in_bytes, void *out, size_t out_bytes,
                uint32_t n)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(kernels, strlen(kernels), "half_convert", &m, &diag);
    ck_assert_msg(st == SIM_OK, "parse failed:\n%s", diag ? diag : "");
    free(diag);
    sim_t *s = sim_new(NULL);
    uint64_t din = 0, dout = 0;
    ck_assert_int_eq(sim_malloc(s, out_bytes, "out", &dout), SIM_OK);
    if (in) {
        ck_assert_int_eq(sim_malloc(s, in_bytes, "in", &din), SIM_OK);
        sim_memcpy_htod(s, din, in, in_bytes);
    }
    void *p_widen[] = {&dout, &n}, *p_narrow[] = {&din, &dout, &n};
    unsigned g[3] = {(n + 255) / 256, 1, 1}, b[3] = {256, 1, 1};
    sim_result res;
    st = sim_launch(s, m, kernel, g, b, 0, in ? p_narrow : p_widen, &res);
    ck_assert_msg(st == SIM_OK, "%s: launch failed: %s", kernel, res.fault.message);
    sim_memcpy_dtoh(s, out, dout, out_bytes);
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}

/* ------------------------------------------------------------ the tests */

/* The reference itself, on values worked out by hand from the formats. */
START_TEST(test_reference_on_known_values)
{
    ck_assert_uint_eq(ref_widen(0x3c00, 0), 0x3f800000u);      /* 1.0 */
    ck_assert_uint_eq(ref_widen(0x0001, 0), 0x33800000u);      /* 2^-24 */
    ck_assert_uint_eq(ref_widen(0x83ff, 0), 0xb87fc000u);      /* -(2^-14 - 2^-24) */
    ck_assert_uint_eq(ref_widen(0x7bff, 0), 0x477fe000u);      /* 65504 */
    ck_assert_uint_eq(ref_widen(0xfe01, 0), 0x7fffffffu);      /* NaN */
    ck_assert_uint_eq(ref_widen(0xff81, 1), 0xff810000u);      /* NaN payload kept */
    ck_assert_uint_eq(ref_narrow(0x477ff000, 0, RN), 0x7c00u); /* 65520: tie to inf */
    ck_assert_uint_eq(ref_narrow(0x477fefff, 0, RN), 0x7bffu);
    ck_assert_uint_eq(ref_narrow(0x477ff000, 0, RZ), 0x7bffu);
    ck_assert_uint_eq(ref_narrow(0xc77ff000, 0, RP), 0xfbffu);
    ck_assert_uint_eq(ref_narrow(0xc77ff000, 0, RM), 0xfc00u);
    ck_assert_uint_eq(ref_narrow(0x33000000, 0, RN), 0x0000u); /* 2^-25: tie to 0 */
    ck_assert_uint_eq(ref_narrow(0x33000001, 0, RN), 0x0001u);
    ck_assert_uint_eq(ref_narrow(0x00000001, 0, RP), 0x0001u); /* f32 2^-149 */
    ck_assert_uint_eq(ref_narrow(0x80000001, 0, RM), 0x8001u);
    ck_assert_uint_eq(ref_narrow(0x80000001, 0, RP), 0x8000u);
    ck_assert_uint_eq(ref_narrow(0x3f808000, 1, RN), 0x3f80u); /* tie to even */
    ck_assert_uint_eq(ref_narrow(0x3f818000, 1, RN), 0x3f82u);
    ck_assert_uint_eq(ref_narrow(0x3f808000, 1, RP), 0x3f81u);
    ck_assert_uint_eq(ref_narrow(0x7f7fffff, 1, RN), 0x7f80u);
    ck_assert_uint_eq(ref_narrow(0x7f7fffff, 1, RZ), 0x7f7fu);
    ck_assert_uint_eq(ref_narrow(0x00010000, 1, RN), 0x0001u); /* bf16 subnormal 2^-133 */
    ck_assert_uint_eq(ref_narrow(0x7f800001, 1, RZ), 0x7fffu);
}
END_TEST

/* Every f16 and bf16 pattern to f32 and back (.rn). */
START_TEST(test_every_f16_and_bf16_pattern_to_f32_and_back)
{
    const uint32_t n = 65536;
    uint32_t *out = malloc(16 * (size_t)n);
    ck_assert_ptr_nonnull(out);
    run("widen", NULL, 0, out, 16 * (size_t)n, n);
    int bad = 0;
    for (uint32_t h = 0; h < n && bad < 10; h++) {
        for (int bf = 0; bf < 2; bf++) {
            const uint32_t f = out[4 * h + 2 * bf], back = out[4 * h + 2 * bf + 1];
            const uint32_t wf = ref_widen(h, bf), wb = ref_narrow(wf, bf, RN);
            if (f != wf || back != wb) {
                fprintf(stderr, "%s 0x%04x: f32 0x%08x (want 0x%08x), back 0x%04x (want 0x%04x)\n",
                        bf ? "bf16" : "f16", h, f, wf, back, wb);
                bad++;
            }
        }
    }
    free(out);
    ck_assert_msg(bad == 0, "conversions differ from the reference (listed above)");
}
END_TEST

/* f32 values around every f16 and bf16 rounding boundary, in all four roundings. */
START_TEST(test_f32_to_f16_and_bf16_at_every_rounding_boundary)
{
    const size_t cap = 2 * (32768 + 32768) * 4 + 64;
    uint32_t *in = malloc(4 * cap);
    ck_assert_ptr_nonnull(in);
    size_t n = 0;
    for (int bf = 0; bf < 2; bf++) {
        const uint32_t last = bf ? 0x7f7fu : 0x7bffu; /* the largest finite value */
        for (uint32_t h = 0; h <= last; h++) {
            const double v = (double)bits_f32(ref_widen(h, bf));
            const double next = (double)bits_f32(ref_widen(h + 1, bf)); /* last + 1: inf */
            /* past the largest finite value the next value is 2^(emax + 1) */
            const double w = h == last ? (bf ? 0x1p128 : 0x1p16) : next;
            const uint32_t mid = f32_bits((float)((v + w) / 2)); /* exact in f32 */
            const uint32_t vals[4] = {f32_bits((float)v), mid - 1, mid, mid + 1};
            for (int k = 0; k < 4; k++) {
                in[n++] = vals[k];
                in[n++] = vals[k] | 0x80000000u;
            }
        }
    }
    const uint32_t special[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                0xffc00001, 0x7f800001, 0x7fa12345, 0x00000001, 0x80000001,
                                0x007fffff, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
                                0x3f800001, 0xbf800001, 0x33000000, 0x32ffffff, 0xb3000001};
    for (size_t k = 0; k < sizeof special / sizeof special[0]; k++)
        in[n++] = special[k];
    ck_assert_uint_le(n, cap);
    uint16_t *h = malloc(16 * n);
    ck_assert_ptr_nonnull(h);
    run("narrow", in, 4 * n, h, 16 * n, (uint32_t)n);
    static const char *const mode_name[] = {"rn", "rz", "rm", "rp"};
    int bad = 0;
    for (size_t i = 0; i < n && bad < 10; i++)
        for (int bf = 0; bf < 2; bf++)
            for (int mode = RN; mode <= RP; mode++) {
                const uint32_t got = h[8 * i + 4 * (size_t)bf + (size_t)mode];
                const uint32_t want = ref_narrow(in[i], bf, mode);
                if (got != want) {
                    fprintf(stderr, "cvt.%s.%s.f32 0x%08x: 0x%04x, want 0x%04x\n", mode_name[mode],
                            bf ? "bf16" : "f16", in[i], got, want);
                    bad++;
                }
            }
    free(h);
    free(in);
    ck_assert_msg(bad == 0, "conversions differ from the reference (listed above)");
}
END_TEST

static Suite *half_convert_suite(void)
{
    Suite *s = suite_create("sim_half_convert");
    TCase *tc = tcase_create("convert");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_reference_on_known_values);
    tcase_add_test(tc, test_every_f16_and_bf16_pattern_to_f32_and_back);
    tcase_add_test(tc, test_f32_to_f16_and_bf16_at_every_rounding_boundary);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(half_convert_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
