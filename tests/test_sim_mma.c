/* test_sim_mma.c — the tensor-core instructions (PTX ISA §9.7.14): mma.sync of every
 * shape and type, wmma, ldmatrix, stmatrix and movmatrix, run from kernels compiled
 * from CUDA C (tests/kernels/ops/{mma_sync,mma_b1_and,wmma,ldmatrix,stmatrix,movmatrix,
 * mma_misuse}.cu; fixtures tests/fixtures/ptx/NAME.{nvcc,nvccG,clang}.ptx made by
 * tools/gen_ptx_fixtures.sh; mma_sm90.cu: the quad-pair m8n8k4 .f16, f64 m16n8k*, fp8). Inputs are small integers, so every result is exact
 * whatever the hardware's accumulation order; the expected matrices are computed here
 * row-major (D = A B + C), independently of the fragment layouts the kernels and the
 * simulator use. The floating-point accumulation model itself is checked by table rows
 * against values worked out by hand. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/mma.h"
#include "tests/fixture.h"
#include "trace/trace.h"

static const char *const compilers[] = {"nvcc", "nvccG", "clang"};

/* tests/fixtures/ptx/NAME.<compilers[ci]>.ptx, or NULL when there is none (clang for
 * kernels that need the CUDA headers or sm_90). */
static ptx_module_t *load(const char *name, int ci)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/%s.%s.ptx", name, compilers[ci]);
    size_t len;
    char *text = fixture_read(path, &len);
    if (!text && ci == 2)
        return NULL;
    ck_assert_msg(text != NULL, "cannot read %s (run tests from the repo root)", path);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, len, path, &m, &diag);
    ck_assert_msg(st == SIM_OK, "parse of %s failed:\n%s", path, diag ? diag : "");
    free(text);
    free(diag);
    return m;
}

static void launch(sim_t *s, ptx_module_t *m, const char *k, unsigned grid, void **params, int ci)
{
    unsigned g[3] = {grid, 1, 1}, b[3] = {32, 1, 1};
    sim_result res;
    sim_status st = sim_launch(s, m, k, g, b, 0, params, &res);
    ck_assert_msg(st == SIM_OK, "%s (%s): launch failed: %s", k, compilers[ci], res.fault.message);
}

/* A deterministic small integer in [lo, hi] (xorshift). */
static int small(uint32_t *st, int lo, int hi)
{
    *st ^= *st << 13;
    *st ^= *st >> 17;
    *st ^= *st << 5;
    return lo + (int)(*st % (uint32_t)(hi - lo + 1));
}

/* ---------------------------------------------------------------- mma.sync */

typedef struct mma_kernel {
    const char *name;       /* kernel in mma_sync.cu or mma_b1_and.cu */
    int m, k;               /* n is 8 */
    char kind;              /* 'f': float inputs (f16, bf16, tf32), 'h': the same with an f16 D,
                         'd': f64, 'i': integer, 'x': b1 xor, 'a': b1 and; in mma_sm90.cu:
                         'q'/'Q': m8n8k4 .f16 quad-pairs (one 8x8 tile each, four a block;
                         'Q': f16 D), 'D': f64, 'e': fp8 given as bytes (.e4m3 A and B),
                         'E': the same with an .e5m2 A */
    int alo, ahi, blo, bhi; /* input ranges (integers) */
    int sat;                /* .satfinite */
} mma_kernel;

static const mma_kernel mma_kernels[] = {
    {"mma_m16n8k16_f16_f32", 16, 16, 'f', -8, 8, -8, 8, 0},
    {"mma_m16n8k8_f16_f32", 16, 8, 'f', -8, 8, -8, 8, 0},
    {"mma_m16n8k16_bf16_f32", 16, 16, 'f', -8, 8, -8, 8, 0},
    {"mma_m16n8k8_bf16_f32", 16, 8, 'f', -8, 8, -8, 8, 0},
    {"mma_m16n8k16_f16_f16", 16, 16, 'h', -8, 8, -8, 8, 0},
    {"mma_m16n8k8_tf32", 16, 8, 'f', -8, 8, -8, 8, 0},
    {"mma_m16n8k4_tf32", 16, 4, 'f', -8, 8, -8, 8, 0},
    {"mma_m8n8k4_f64", 8, 4, 'd', -8, 8, -8, 8, 0},
    {"mma_m16n8k16_s8", 16, 16, 'i', -128, 127, -128, 127, 0},
    {"mma_m16n8k16_u8s8_sat", 16, 16, 'i', 0, 255, -128, 127, 1},
    {"mma_m16n8k32_s8_sat", 16, 32, 'i', -128, 127, -128, 127, 1},
    {"mma_m16n8k32_u8", 16, 32, 'i', 0, 255, 0, 255, 0},
    {"mma_m16n8k32_s4", 16, 32, 'i', -8, 7, -8, 7, 0},
    {"mma_m16n8k64_u4s4_sat", 16, 64, 'i', 0, 15, -8, 7, 1},
    {"mma_m16n8k128_b1_xor", 16, 128, 'x', 0, 1, 0, 1, 0},
    {"mma_m8n8k16_s8", 8, 16, 'i', -128, 127, -128, 127, 0},
    {"mma_m8n8k32_s4_sat", 8, 32, 'i', -8, 7, -8, 7, 1},
    {"mma_m8n8k128_b1_xor", 8, 128, 'x', 0, 1, 0, 1, 0},
    {"mma_m16n8k256_b1_and", 16, 256, 'a', 0, 1, 0, 1, 0},
    {"mma_m8n8k4_f16_f32_rc", 8, 4, 'q', -8, 8, -8, 8, 0},
    {"mma_m8n8k4_f16_f16_cr", 8, 4, 'Q', -8, 8, -8, 8, 0},
    {"mma_m16n8k4_f64", 16, 4, 'D', -8, 8, -8, 8, 0},
    {"mma_m16n8k8_f64", 16, 8, 'D', -8, 8, -8, 8, 0},
    {"mma_m16n8k16_f64", 16, 16, 'D', -8, 8, -8, 8, 0},
    {"mma_m16n8k32_e4m3", 16, 32, 'e', -8, 8, -8, 8, 0},
    {"mma_m16n8k32_e5m2_e4m3", 16, 32, 'E', -8, 8, -8, 8, 0},
};
enum { NMMA = sizeof mma_kernels / sizeof mma_kernels[0], BLOCKS = 4 };

/* The fp8 bits of a small integer v (|v| <= 8, exact in both formats): .e4m3 (e5m2 = 0,
 * bias 7, 3 fraction bits) or .e5m2 (bias 15, 2 fraction bits). */
static uint8_t fp8_of(int v, int e5m2)
{
    const int fb = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    const unsigned s = v < 0 ? 0x80 : 0, a = (unsigned)abs(v);
    if (a == 0)
        return (uint8_t)s;
    int e = 0;
    while ((a >> e) > 1)
        e++;
    const unsigned f = ((a << fb) >> e) & ((1u << fb) - 1); /* exact: a has <= fb + 1 bits */
    return (uint8_t)(s | (unsigned)(e + bias) << fb | f);
}

/* mma.sync of every shape and type (PTX ISA §9.7.14.5.14), exact integer inputs: D equals
 * A B + C computed row-major; with .satfinite, C near the s32 limits makes it clamp. */
START_TEST(test_mma_sync_every_shape_gives_the_exact_product)
{
    const int ci = _i / NMMA;
    const mma_kernel *mk = &mma_kernels[_i % NMMA];
    const char *file = mk->kind == 'a'             ? "mma_b1_and"
                       : strchr("qQDeE", mk->kind) ? "mma_sm90"
                                                   : "mma_sync";
    ptx_module_t *m = load(file, ci);
    if (!m)
        return;
    const int M = mk->m, N = 8, K = mk->k, T = BLOCKS;
    const size_t na = (size_t)T * M * K, nb = (size_t)T * K * N, nc = (size_t)T * M * N;
    int *ia = malloc(na * sizeof *ia), *ib = malloc(nb * sizeof *ib), *ic = malloc(nc * 4);
    int64_t *want = malloc(nc * sizeof *want);
    uint32_t st = 12345u + (uint32_t)_i;
    for (size_t i = 0; i < na; i++)
        ia[i] = small(&st, mk->alo, mk->ahi);
    for (size_t i = 0; i < nb; i++)
        ib[i] = small(&st, mk->blo, mk->bhi);
    for (size_t i = 0; i < nc; i++) /* .satfinite: C at the s32 limits, to clamp */
        ic[i] = mk->sat && i % 3 == 0 ? (i % 2 ? INT32_MAX - 5 : INT32_MIN + 5)
                : mk->kind == 'i' || mk->kind == 'x' || mk->kind == 'a' ? small(&st, -1000, 1000)
                                                                        : small(&st, -32, 32);
    for (int t = 0; t < T; t++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                int64_t s = ic[(size_t)t * M * N + i * N + j];
                for (int k = 0; k < K; k++) {
                    const int a = ia[(size_t)t * M * K + i * K + k];
                    const int b = ib[(size_t)t * K * N + k * N + j];
                    s += mk->kind == 'x' ? (a ^ b) : mk->kind == 'a' ? (a & b) : (int64_t)a * b;
                }
                if (mk->sat)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                want[(size_t)t * M * N + i * N + j] = s;
            }
    sim_t *s = sim_new(NULL);
    const int isf = strchr("fhqQ", mk->kind) != NULL, isd = mk->kind == 'd' || mk->kind == 'D';
    const int fp8 = mk->kind == 'e' || mk->kind == 'E';
    const size_t esz = isd ? 8 : 4;
    void *ha = malloc(na * esz), *hb = malloc(nb * esz), *hc = malloc(nc * esz);
    void *hd = calloc(nc, esz);
    for (size_t i = 0; i < na; i++) {
        if (fp8)
            ((uint8_t *)ha)[i] = fp8_of(ia[i], mk->kind == 'E');
        else if (isd)
            ((double *)ha)[i] = ia[i];
        else if (isf)
            ((float *)ha)[i] = (float)ia[i];
        else
            ((int *)ha)[i] = ia[i];
    }
    for (size_t i = 0; i < nb; i++) {
        if (fp8)
            ((uint8_t *)hb)[i] = fp8_of(ib[i], 0);
        else if (isd)
            ((double *)hb)[i] = ib[i];
        else if (isf)
            ((float *)hb)[i] = (float)ib[i];
        else
            ((int *)hb)[i] = ib[i];
    }
    for (size_t i = 0; i < nc; i++) {
        if (isd)
            ((double *)hc)[i] = ic[i];
        else if (isf || fp8)
            ((float *)hc)[i] = (float)ic[i];
        else
            ((int *)hc)[i] = ic[i];
    }
    uint64_t da = fixture_upload(s, ha, na * esz, "A"), db = fixture_upload(s, hb, nb * esz, "B");
    uint64_t dc = fixture_upload(s, hc, nc * esz, "C"), dd = fixture_upload(s, hd, nc * esz, "D");
    int exact = 1;
    void *p5[] = {&da, &db, &dc, &dd, &exact};
    launch(s, m, mk->name, mk->kind == 'q' || mk->kind == 'Q' ? T / 4 : T, p5, ci);
    ck_assert_int_eq(sim_memcpy_dtoh(s, hd, dd, nc * esz), SIM_OK);
    for (size_t i = 0; i < nc; i++) {
        /* (the f16 D of mma_m16n8k16_f16_f16 comes back converted to float) */
        double got;
        if (isd)
            got = ((double *)hd)[i];
        else if (isf || fp8)
            got = ((float *)hd)[i];
        else
            got = ((int *)hd)[i];
        ck_assert_msg(got == (double)want[i], "%s (%s): D[%zu] = %.17g, want %lld", mk->name,
                      compilers[ci], i, got, (long long)want[i]);
    }
    free(ia), free(ib), free(ic), free(want), free(ha), free(hb), free(hc), free(hd);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------- the float model */

/* One dot product c + sum p_k of the model (mma.h), worked out by hand. */
typedef struct model_row {
    const char *what;
    mma_fp_model md;
    float c;
    float a[16], b[16]; /* f16 values (a b of 0 stands for 1.0) */
    float want;
} model_row;

#define P(e) ((float)ldexp(1.0, e))
static const model_row model_rows[] = {
    /* frac_bits: -2^-24 (half an ulp of 1) survives the alignment to 1 with 24 bits */
    {"1 - 2^-24, 24 bits", {16, 24}, 1.0f, {-P(-24)}, {0}, 1.0f - P(-24)},
    {"1 - 2^-24, 23 bits", {16, 23}, 1.0f, {-P(-24)}, {0}, 1.0f},
    /* two -2^-25 (2^-12 times -2^-13) survive with 25 bits, not with 24 */
    {"1 - 2 x 2^-25, 25 bits", {16, 25}, 1.0f, {P(-12), P(-12)}, {-P(-13), -P(-13)}, 1.0f - P(-24)},
    {"1 - 2 x 2^-25, 24 bits", {16, 24}, 1.0f, {P(-12), P(-12)}, {-P(-13), -P(-13)}, 1.0f},
    /* the f32 result is truncated: 1 + 3 x 2^-25 (0.75 ulp) gives 1 */
    {"1 + 0.75 ulp truncated", {16, 25}, 1.0f, {P(-12), P(-12)}, {P(-12), P(-13)}, 1.0f},
    /* block: eight 2^-24 before a 1 at k = 8 add up first (block 8: 2^-21, then 1 +
     * 2^-21) or are cut off beside the 1 (block 16) */
    {"block 8",
     {8, 23},
     0.0f,
     {P(-24), P(-24), P(-24), P(-24), P(-24), P(-24), P(-24), P(-24), 1.0f},
     {0},
     1.0f + P(-21)},
    {"block 16",
     {16, 23},
     0.0f,
     {P(-24), P(-24), P(-24), P(-24), P(-24), P(-24), P(-24), P(-24), 1.0f},
     {0},
     1.0f},
    /* exact sums are exact whatever the model */
    {"integers",
     {4, 23},
     3.0f,
     {1, 2, 3, 4, 5, 6, 7, 8, -9, 10, 11, 12, 13, 14, 15, 16},
     {0},
     121.0f},
};
#undef P

static uint64_t to_half(float f)
{
    /* the rows' values are f16-exact: powers of two >= 2^-24 and small integers */
    if (f == 0)
        return 0;
    int e;
    const double m = frexp(fabs((double)f), &e); /* f = m 2^e, m in [0.5, 1) */
    uint64_t h = e - 1 >= -14 ? ((uint64_t)(e + 14) << 10) | ((uint64_t)(m * 2048) - 1024)
                              : (uint64_t)ldexp(fabs((double)f), 24);
    return f < 0 ? h | 0x8000 : h;
}

/* The accumulation model of mma with f16 inputs (mma.h mma_fp_model, after MMA-Sim):
 * one m16n8k16 whose D[0][0] is the row's dot product. */
START_TEST(test_mma_float_model_rows)
{
    const model_row *r = &model_rows[_i];
    mma_desc d = {.kind = MMA_K_MMA,
                  .m = 16,
                  .n = 8,
                  .k = 16,
                  .atype = MMA_T_F16,
                  .btype = MMA_T_F16,
                  .ctype = MMA_T_F32,
                  .dtype = MMA_T_F32,
                  .arow = 1};
    static uint64_t A[16 * 16], B[16 * 8], C[16 * 8], D[16 * 8];
    memset(A, 0, sizeof A), memset(B, 0, sizeof B), memset(C, 0, sizeof C);
    for (int k = 0; k < 16; k++) {
        A[k] = to_half(r->a[k]);
        B[k * 8] = to_half(r->b[k] != 0 ? r->b[k] : 1.0f);
    }
    uint32_t cb;
    memcpy(&cb, &r->c, 4);
    C[0] = cb;
    mma_compute_model(&d, &r->md, A, B, C, D);
    float got;
    uint32_t gb = (uint32_t)D[0];
    memcpy(&got, &gb, 4);
    ck_assert_msg(got == r->want, "%s: got %.9g (0x%08x), want %.9g", r->what, got, gb, r->want);
}
END_TEST

/* GPULEARN_MMA_MODEL picks Ampere's table or overrides a type's entry; malformed entries
 * are ignored. Without it: Hopper's (MMA-Sim: whole K, 25 bits). */
START_TEST(test_mma_model_environment_override)
{
    unsetenv("GPULEARN_MMA_MODEL");
    mma_fp_model h = mma_model(MMA_T_F16), t = mma_model(MMA_T_TF32);
    ck_assert_int_eq(h.block, 16);
    ck_assert_int_eq(h.frac_bits, 25);
    ck_assert_int_eq(t.block, 8);
    setenv("GPULEARN_MMA_MODEL", "ampere", 1);
    h = mma_model(MMA_T_F16), t = mma_model(MMA_T_TF32);
    ck_assert_int_eq(h.block, 8);
    ck_assert_int_eq(h.frac_bits, 24);
    ck_assert_int_eq(t.block, 4);
    setenv("GPULEARN_MMA_MODEL", "bf16:2,27;f16:4,23;tf32:x", 1);
    mma_fp_model b = mma_model(MMA_T_BF16);
    h = mma_model(MMA_T_F16), t = mma_model(MMA_T_TF32);
    unsetenv("GPULEARN_MMA_MODEL");
    ck_assert_int_eq(b.block, 2);
    ck_assert_int_eq(b.frac_bits, 27);
    ck_assert_int_eq(h.block, 4);
    ck_assert_int_eq(h.frac_bits, 23);
    ck_assert_int_eq(t.block, 8);
    ck_assert_int_eq(t.frac_bits, 25);
}
END_TEST

/* tf32 (mma.h, measured on an H100: corpus wmma_m16n16k8_tf32_rc_float, mma_probe_tf32):
 * D[0][0] = 1 - 1 (k = 0, 1) + 2^-30 (k = 4). mma.sync m16n8k8 fuses all 8 products, so
 * 2^-30 is cut off beside the 1s (25 fractional bits): 0; wmma.mma m16n16k8 adds k 0-3
 * (0) and then k 4-7: 2^-30. */
START_TEST(test_wmma_tf32_adds_in_blocks_of_four_mma_sync_in_one)
{
    unsetenv("GPULEARN_MMA_MODEL");
    static uint64_t A[16 * 8], B[8 * 16], C[16 * 16], D[16 * 16];
    const uint32_t one = 0x3f800000u, m_one = 0xbf800000u, p15 = 0x38000000u; /* 2^-15 */
    for (int wmma = 0; wmma < 2; wmma++) {
        const int n = wmma ? 16 : 8;
        mma_desc d = {.kind = wmma ? MMA_K_WMMA : MMA_K_MMA,
                      .m = 16,
                      .n = (uint8_t)n,
                      .k = 8,
                      .atype = MMA_T_TF32,
                      .btype = MMA_T_TF32,
                      .ctype = MMA_T_F32,
                      .dtype = MMA_T_F32,
                      .arow = 1};
        memset(A, 0, sizeof A), memset(B, 0, sizeof B), memset(C, 0, sizeof C);
        A[0] = one, A[1] = one, A[4] = p15;
        B[0 * n] = one, B[1 * n] = m_one, B[4 * n] = p15;
        mma_compute(&d, A, B, C, D);
        ck_assert_msg(D[0] == (wmma ? 0x30800000u : 0u), "%s: D[0][0] = 0x%08llx",
                      wmma ? "wmma" : "mma.sync", (unsigned long long)D[0]);
    }
}
END_TEST

/* mma.m8n8k4 .f16 (mma.c quad_pair_compute, measured on an H100: corpus
 * mma_m8n8k4_f16_*_float, tools/mma_m8n8k4_model.py): an f32 fma chain over k = 0 ... 3.
 * f32 D: three products 2^-24 add up to 3 x 2^-24 from 0, then 1 + 1.5 ulp rounds (tie,
 * even) to 1 + 2^-22 (0x3f800002); the fused model would truncate to 1 + 2^-23. f16 D:
 * from C = 1, 1 + 2^-11 (k = 0) is an f16 tie; the two 2^-24 are each a tie in f32 and
 * vanish (1 + 2^-11 stays), so the f16 result rounds to even: 1 (0x3c00), where the
 * exact sum rounds up to 1 + 2^-10. */
START_TEST(test_mma_m8n8k4_f16_is_an_fma_chain)
{
    static uint64_t A[8 * 4], B[4 * 8], C[8 * 8], D[8 * 8];
    for (int f16d = 0; f16d < 2; f16d++) {
        const uint8_t t = f16d ? MMA_T_F16 : MMA_T_F32;
        mma_desc d = {.kind = MMA_K_MMA,
                      .m = 8,
                      .n = 8,
                      .k = 4,
                      .atype = MMA_T_F16,
                      .btype = MMA_T_F16,
                      .ctype = t,
                      .dtype = t,
                      .arow = 1};
        memset(A, 0, sizeof A), memset(B, 0, sizeof B), memset(C, 0, sizeof C);
        const uint64_t p12 = 0x0c00; /* 2^-12 */
        for (int k = f16d; k < 3; k++)
            A[k] = p12, B[k * 8] = p12;
        if (f16d) {
            A[0] = 0x2800, B[0] = 0x2400; /* 2^-5 x 2^-6 = 2^-11 */
            C[0] = 0x3c00;
        } else {
            C[0] = 0x3f800000u;
        }
        mma_compute(&d, A, B, C, D);
        ck_assert_msg(D[0] == (f16d ? 0x3c00u : 0x3f800002u), "%s D: D[0][0] = 0x%llx",
                      f16d ? "f16" : "f32", (unsigned long long)D[0]);
    }
}
END_TEST

/* fp8 mma.m16n8k32 (mma.c mma_fp8_order, measured on an H100: corpus mma_m16n8k32_*,
 * tools/mma_fp8_model.py): two f16 steps, k % 4 < 2 then k % 4 >= 2, then C.
 * D[0][0] = 16 x 16 (k = 0) - 16 x 16 (k = 2) + 2^-9 x 2^-9 (k = 16): 2^-18 meets 256 in
 * the first step and is cut off (25 bits below 2^8), so D = 0 (k halves 0-15, 16-31 would
 * give 2^-18). D[1][1] = 1 + 0.5 + C = 2^24: the products give 1.5, and 2^24 + 1.5 rounds
 * to nearest: 2^24 + 2 (0x4b800001; C inside the truncating fused addition: 2^24). */
START_TEST(test_mma_fp8_is_two_f16_steps_then_c)
{
    static uint64_t A[16 * 32], B[32 * 8], C[16 * 8], D[16 * 8];
    mma_desc d = {.kind = MMA_K_MMA,
                  .m = 16,
                  .n = 8,
                  .k = 32,
                  .atype = MMA_T_E4M3,
                  .btype = MMA_T_E4M3,
                  .ctype = MMA_T_F32,
                  .dtype = MMA_T_F32,
                  .arow = 1};
    memset(A, 0, sizeof A), memset(B, 0, sizeof B), memset(C, 0, sizeof C);
    A[0] = 0x58, B[0] = 0x58;              /* 16 x 16 */
    A[2] = 0x58, B[2 * 8] = 0xd8;          /* 16 x -16 */
    A[16] = 0x01, B[16 * 8] = 0x01;        /* 2^-9 x 2^-9 (subnormal) */
    A[32] = 0x38, B[1] = 0x38;             /* 1 x 1 */
    A[32 + 2] = 0x30, B[2 * 8 + 1] = 0x38; /* 0.5 x 1 */
    C[8 + 1] = 0x4b800000u;                /* 2^24 */
    mma_compute(&d, A, B, C, D);
    ck_assert_msg(D[0] == 0, "D[0][0] = 0x%08llx", (unsigned long long)D[0]);
    ck_assert_msg(D[9] == 0x4b800001u, "D[1][1] = 0x%08llx", (unsigned long long)D[9]);
}
END_TEST

/* ------------------------------------------------- ldmatrix, stmatrix, movmatrix */

/* ldmatrix .x1/.x2/.x4, with and without .trans (PTX ISA §9.7.14.5.15): register i of
 * lane l holds row l/4, columns 2(l%4) and 2(l%4)+1 of matrix i (of its transpose with
 * .trans); lanes 8i..8i+7 named its rows, here in reverse order (ldmatrix.cu). */
START_TEST(test_ldmatrix_every_count_and_trans)
{
    ptx_module_t *m = load("ldmatrix", _i);
    if (!m)
        return;
    sim_t *s = sim_new(NULL);
    uint16_t in[288];
    for (int i = 0; i < 288; i++)
        in[i] = (uint16_t)(i * 7 + 3);
    uint64_t din = fixture_upload(s, in, sizeof in, "in"),
             dout = fixture_upload(s, NULL, 448 * 4, "out");
    void *p[] = {&din, &dout};
    launch(s, m, "ldmatrix_all", 1, p, _i);
    uint32_t out[448];
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    int off = 0;
    for (int num = 1; num <= 4; num *= 2)
        for (int tr = 0; tr < 2; tr++) {
            for (int l = 0; l < 32; l++)
                for (int i = 0; i < num; i++) {
                    const int r = l / 4, c = 2 * (l % 4);
                    /* matrix i's logical row k is stored at row 7 - k */
#define E(row, col) in[(i * 9 + 7 - (row)) * 8 + (col)]
                    const uint32_t want = tr ? E(c, r) | (uint32_t)E(c + 1, r) << 16
                                             : E(r, c) | (uint32_t)E(r, c + 1) << 16;
#undef E
                    ck_assert_msg(out[off + l * num + i] == want,
                                  "x%d%s lane %d reg %d (%s): 0x%08x, want 0x%08x", num,
                                  tr ? ".trans" : "", l, i, compilers[_i], out[off + l * num + i],
                                  want);
                }
            off += 32 * num;
        }
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* stmatrix (PTX ISA §9.7.14.5.16, sm_90): the inverse of ldmatrix; rows not stored keep
 * the kernel's 0xffff. */
START_TEST(test_stmatrix_every_count_and_trans)
{
    ptx_module_t *m = load("stmatrix", _i);
    if (!m)
        return;
    sim_t *s = sim_new(NULL);
    uint32_t in[128];
    for (int i = 0; i < 128; i++)
        in[i] = (uint32_t)(i * 0x00030001u + 0x01000100u);
    uint64_t din = fixture_upload(s, in, sizeof in, "in");
    uint64_t dout = fixture_upload(s, NULL, 6 * 288 * 2, "out");
    void *p[] = {&din, &dout};
    launch(s, m, "stmatrix_all", 1, p, _i);
    uint16_t out[6 * 288];
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    for (int v = 0; v < 6; v++) {
        const int num = 1 << (v / 2), tr = v % 2;
        uint16_t want[288];
        memset(want, 0xff, sizeof want);
        for (int l = 0; l < 32; l++)
            for (int i = 0; i < num; i++)
                for (int j = 0; j < 2; j++) {
                    const int r = l / 4, c = 2 * (l % 4) + j;
                    const uint16_t e = (uint16_t)(in[i * 32 + l] >> (16 * j));
                    const int row = tr ? c : r, col = tr ? r : c;
                    want[(i * 9 + 7 - row) * 8 + col] = e;
                }
        for (int k = 0; k < 288; k++)
            ck_assert_msg(out[v * 288 + k] == want[k],
                          "store %d (%s): half %d = 0x%04x, want 0x%04x", v, compilers[_i], k,
                          out[v * 288 + k], want[k]);
    }
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* movmatrix.trans (PTX ISA §9.7.14.5.17): the fragment of the transpose; twice: the
 * input. */
START_TEST(test_movmatrix_transposes_the_fragment)
{
    ptx_module_t *m = load("movmatrix", _i);
    if (!m)
        return;
    sim_t *s = sim_new(NULL);
    uint32_t in[64], out[128];
    for (int i = 0; i < 64; i++)
        in[i] = (uint32_t)(i * 2) | (uint32_t)(i * 2 + 1) << 16;
    uint64_t din = fixture_upload(s, in, sizeof in, "in"),
             dout = fixture_upload(s, NULL, sizeof out, "out");
    void *p[] = {&din, &dout};
    launch(s, m, "movmatrix_trans", 2, p, _i);
    ck_assert_int_eq(sim_memcpy_dtoh(s, out, dout, sizeof out), SIM_OK);
    for (int b = 0; b < 2; b++)
        for (int l = 0; l < 32; l++) {
            /* element (r, c) of block b is lane r*4 + c/2's half c%2: the value
             * 2 * (b*32 + r*4 + c/2) + c%2 = b*64 + r*8 + c */
            const int r = 2 * (l % 4), c = l / 4;
            const uint32_t want =
                (uint32_t)(b * 64 + r * 8 + c) | (uint32_t)(b * 64 + (r + 1) * 8 + c) << 16;
            ck_assert_msg(out[b * 64 + l] == want, "lane %d (%s): 0x%08x, want 0x%08x", l,
                          compilers[_i], out[b * 64 + l], want);
            ck_assert_uint_eq(out[b * 64 + 32 + l], in[b * 32 + l]);
        }
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* ------------------------------------------------------------------- wmma */

/* wmma.load/mma/store (PTX ISA §9.7.14.4) through CUDA's nvcuda::wmma: a few shapes and
 * layouts, exact integer inputs (nvcc only: mma.h needs the CUDA headers). */
START_TEST(test_wmma_load_mma_store_exact)
{
    static const struct {
        const char *name;
        int m, n, k, lc, out; /* out: 0 f32, 1 f64, 2 s32 */
    } ks[] = {
        {"wmma_m16n16k16_f16_rr", 16, 16, 16, 1, 0}, {"wmma_m16n16k16_f16_cc", 16, 16, 16, 0, 0},
        {"wmma_m32n8k16_f16_cr", 32, 8, 16, 0, 0},   {"wmma_m8n32k16_bf16_cc", 8, 32, 16, 1, 0},
        {"wmma_m16n16k8_tf32_rc", 16, 16, 8, 1, 0},  {"wmma_m8n8k4_f64_rc", 8, 8, 4, 0, 1},
        {"wmma_m32n8k16_u8_cr", 32, 8, 16, 1, 2},
    };
    ptx_module_t *m = load("wmma", _i);
    for (size_t q = 0; q < sizeof ks / sizeof ks[0]; q++) {
        const int M = ks[q].m, N = ks[q].n, K = ks[q].k;
        float a[2 * 512], b[2 * 512], c[2 * 256];
        uint32_t st = 777u + (uint32_t)q;
        const int lo = ks[q].out == 2 ? 0 : -8, hi = ks[q].out == 2 ? 255 : 8;
        for (int i = 0; i < 2 * M * K; i++)
            a[i] = (float)small(&st, lo, hi);
        for (int i = 0; i < 2 * K * N; i++)
            b[i] = (float)small(&st, lo, hi);
        for (int i = 0; i < 2 * M * N; i++)
            c[i] = (float)small(&st, -40, 40);
        sim_t *s = sim_new(NULL);
        uint64_t da = fixture_upload(s, a, sizeof a, "A"), db = fixture_upload(s, b, sizeof b, "B");
        uint64_t dc = fixture_upload(s, c, sizeof c, "C"),
                 dd = fixture_upload(s, NULL, 2 * 256 * 8, "D");
        int lc = ks[q].lc, exact = 1;
        void *p[] = {&da, &db, &dc, &dd, &lc, &exact};
        launch(s, m, ks[q].name, 2, p, _i);
        double got[512];
        unsigned char raw[2 * 256 * 8];
        ck_assert_int_eq(sim_memcpy_dtoh(s, raw, dd, sizeof raw), SIM_OK);
        for (int i = 0; i < 2 * M * N; i++) {
            float f;
            int32_t v;
            if (ks[q].out == 1)
                memcpy(&got[i], raw + 8 * i, 8);
            else if (ks[q].out == 2)
                memcpy(&v, raw + 4 * i, 4), got[i] = v;
            else
                memcpy(&f, raw + 4 * i, 4), got[i] = f;
        }
        for (int t = 0; t < 2; t++)
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    double w = c[t * M * N + i * N + j];
                    for (int k = 0; k < K; k++)
                        w += (double)a[t * M * K + i * K + k] * b[t * K * N + k * N + j];
                    const int at = t * M * N + (lc ? i * N + j : j * M + i);
                    ck_assert_msg(got[at] == w, "%s (%s): D[%d][%d] of tile %d = %g, want %g",
                                  ks[q].name, compilers[_i], i, j, t, got[at], w);
                }
        sim_free(s);
    }
    ptx_module_free(m);
}
END_TEST

/* ----------------------------------------------------------------- errors */

/* .aligned (PTX ISA §9.7.14): an mma.sync reached by half the warp is reported, naming the
 * instruction and the lanes. */
START_TEST(test_mma_in_half_a_warp_is_an_error_naming_the_instruction)
{
    ptx_module_t *m = load("mma_misuse", _i);
    if (!m)
        return;
    sim_t *s = sim_new(NULL);
    int in[64] = {0};
    uint64_t din = fixture_upload(s, in, sizeof in, "in"),
             dout = fixture_upload(s, NULL, 128, "out");
    void *p[] = {&din, &dout};
    unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    sim_result res;
    sim_launch(s, m, "mma_half_warp", g, b, 0, p, &res);
    ck_assert_int_eq(res.fault.kind, SIM_FAULT_DEADLOCK);
    ck_assert_msg(strstr(res.fault.message, "mma.sync.aligned") &&
                      strstr(res.fault.message, "lanes 0x0000ffff") &&
                      strstr(res.fault.message, "all 32 lanes"),
                  "message: %s", res.fault.message);
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

/* Forms the simulator does not know, and wrong register lists, are parse errors naming the
 * instruction. */
START_TEST(test_bad_tensor_core_forms_are_parse_errors)
{
    static const struct {
        const char *insn, *want;
    } rows[] = {
        {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
         "{%r1,%r2}, {%r3,%r4}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
         "operand 0 needs 8 registers, found 4"},
        {"mma.sync.aligned.m8n8k4.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
         "{%r1,%r2}, {%r3,%r4}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
         "unsupported shape .m8n8k4"},
        {"mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16 {%r1,%r2}, {%r1,%r2,%r3,%r4}, "
         "{%r3,%r4}, {%r1,%r2};",
         "unsupported combination of types"},
        {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, "
         "{%r3,%r4}, {%f1,%f2,%f3,%f4};",
         "operand 1 needs 4 registers, found 2"},
        {"mma.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
         "{%r3,%r4}, {%f1,%f2,%f3,%f4};",
         "unsupported shape .m16n8k32"},
        {"mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32 {%f1,%f2,%f3,%f4}, "
         "{%r1,%r2,%r3,%r4}, {%r3,%r4}, {%f1,%f2,%f3,%f4};",
         "unsupported combination of types"},
        {"mma.sync.aligned.m16n8k32.row.col.s32.s8.s4.s32 {%r1,%r2,%r3,%r4}, "
         "{%r1,%r2,%r3,%r4}, {%r3,%r4}, {%r1,%r2,%r3,%r4};",
         "unsupported combination of types"},
        {"ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1}, [%r2];", "needs 2 registers"},
        {"ldmatrix.sync.aligned.m8n8.x1.global.b16 {%r1}, [%r2];", "needs .shared"},
        {"wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4}, [%rd1], %r5;",
         "needs 8 registers, found 4"},
        /* mma.sp (PTX ISA §9.7.14.6): ptxas 13's selector ranges, .row.col only */
        {"mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, "
         "{%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%f1,%f2,%f3,%f4}, %r5, 2;",
         "selector (operand 5) must be an integer constant 0 ... 1"},
        {"mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%r1,%r2,%r3,%r4}, "
         "{%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, %r5, 1;",
         "0 ... 0"},
        {"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
         "{%r1,%r2}, {%r3,%r4}, {%f1,%f2,%f3,%f4}, %r5, %r6;",
         "must be an integer constant"},
        {"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
         "{%r1,%r2}, {%r3,%r4}, {%f1,%f2,%f3,%f4}, 7, 0;",
         "metadata (operand 4) must be a .b32 register"},
        {"mma.sp.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
         "{%r1,%r2}, {%r3,%r4}, {%f1,%f2,%f3,%f4}, %r5, 0;",
         "mma.sp needs .row.col"},
        {"mma.sp.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
         "{%r1}, {%r3}, {%f1,%f2,%f3,%f4}, %r5, 0;",
         "unsupported shape .m16n8k8"},
        {"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
         "{%r1,%r2,%r3,%r4}, {%r3,%r4}, {%f1,%f2,%f3,%f4}, %r5, 0;",
         "operand 1 needs 2 registers, found 4"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                 ".reg .b32 %%r<8>;\n.reg .f32 %%f<9>;\n.reg .b64 %%rd<2>;\n%s\nret;\n}\n",
                 rows[i].insn);
        ptx_module_t *m = NULL;
        char *diag = NULL;
        sim_status st = ptx_parse(text, strlen(text), "t.ptx", &m, &diag);
        ck_assert_msg(st != SIM_OK && diag && strstr(diag, rows[i].want), "%s:\n%s", rows[i].insn,
                      diag ? diag : "(parsed)");
        free(diag);
        ptx_module_free(m);
    }
}
END_TEST

/* mma.sp m16n8k16 .f16 / m16n8k32 .f16 run by one warp from hand-written PTX: every A
 * element and B element 1, C 0, each lane's metadata register `meta` (lane 0's own:
 * meta0) and sparsity selector sel; the result is D[0][0] (lane 0's d0) in *out. */
static sim_result run_sp(int k32, int sel, uint32_t meta, uint32_t meta0, float *out)
{
    char text[2048];
    snprintf(text, sizeof text,
             ".version 8.0\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 out)\n{\n"
             ".reg .b32 %%a<4>, %%b<4>, %%e, %%l;\n.reg .f32 %%c<4>, %%d<4>;\n.reg .pred %%p;\n"
             ".reg .b64 %%o;\n"
             "mov.b32 %%a0, 0x3c003c00; mov.b32 %%a1, 0x3c003c00; mov.b32 %%a2, 0x3c003c00;\n"
             "mov.b32 %%a3, 0x3c003c00; mov.b32 %%b0, 0x3c003c00; mov.b32 %%b1, 0x3c003c00;\n"
             "mov.b32 %%b2, 0x3c003c00; mov.b32 %%b3, 0x3c003c00; mov.f32 %%c0, 0f00000000;\n"
             "mov.f32 %%c1, 0f00000000; mov.f32 %%c2, 0f00000000; mov.f32 %%c3, 0f00000000;\n"
             "mov.u32 %%l, %%laneid; setp.eq.u32 %%p, %%l, 0;\n"
             "selp.b32 %%e, %u, %u, %%p;\n"
             "mma.sp.sync.aligned.m16n8k%d.row.col.f32.f16.f16.f32 {%%d0,%%d1,%%d2,%%d3}, %s, "
             "%s, {%%c0,%%c1,%%c2,%%c3}, %%e, %d;\n"
             "@!%%p bra $done;\nld.param.u64 %%o, [out];\nst.global.f32 [%%o], %%d0;\n"
             "$done:\nret;\n}\n",
             meta0, meta, k32 ? 32 : 16, k32 ? "{%a0,%a1,%a2,%a3}" : "{%a0,%a1}",
             k32 ? "{%b0,%b1,%b2,%b3}" : "{%b0,%b1}", sel);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, strlen(text), "sp.ptx", &m, &diag);
    ck_assert_msg(st == SIM_OK, "parse failed:\n%s", diag ? diag : "");
    free(diag);
    sim_t *s = sim_new(NULL);
    uint64_t dout = fixture_upload(s, NULL, 4, "out");
    void *p[] = {&dout};
    unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    sim_result res;
    sim_launch(s, m, "k", g, b, 0, p, &res);
    *out = -1;
    if (res.fault.kind == SIM_FAULT_NONE)
        sim_memcpy_dtoh(s, out, dout, 4);
    sim_free(s);
    ptx_module_free(m);
    return res;
}

/* The metadata of mma.sp (PTX ISA §9.7.14.6.1): only the lanes the selector names are
 * read (as an H200 does: tools/mma_sp_probe.cu), so a garbage register elsewhere changes
 * nothing; a field with two equal indices in a lane that is read is undefined behaviour,
 * a fault naming the lane, the bits and the row; and selectors 2 and 3 of m16n8k32 .f16,
 * which ptxas takes, stop as the H200 does, with an illegal instruction. */
START_TEST(test_mma_sp_metadata_is_read_from_the_selected_lanes_only)
{
    float d;
    sim_result res = run_sp(0, 0, 0x44444444u, 0x44444444u, &d);
    ck_assert_int_eq(res.fault.kind, SIM_FAULT_NONE);
    ck_assert_msg(d == 8.0f, "all ones, K = 16 with 8 kept: D[0][0] = %g, want 8", d);
    sim_result_free(&res);
    /* selector 1: lane 0 is not read, its fields all-zero (undefined) do no harm */
    res = run_sp(0, 1, 0x44444444u, 0x00000000u, &d);
    ck_assert_int_eq(res.fault.kind, SIM_FAULT_NONE);
    ck_assert(d == 8.0f);
    sim_result_free(&res);
    /* selector 0 reads lane 0: bits 0-3 = 0x0 (indices 0 and 0) for row 0 */
    res = run_sp(0, 0, 0x44444444u, 0x44444440u, &d);
    ck_assert_int_eq(res.fault.kind, SIM_FAULT_TRAP);
    ck_assert_msg(strstr(res.fault.message, "metadata 0x0 (bits 3-0 of lane 0's register)") &&
                      strstr(res.fault.message, "row 0, elements 0-3") &&
                      strstr(res.fault.message, "§9.7.14.6.1"),
                  "message: %s", res.fault.message);
    sim_result_free(&res);
    res = run_sp(1, 1, 0x44444444u, 0x44444444u, &d);
    ck_assert_int_eq(res.fault.kind, SIM_FAULT_NONE);
    ck_assert_msg(d == 16.0f, "K = 32 with 16 kept: D[0][0] = %g, want 16", d);
    sim_result_free(&res);
    res = run_sp(1, 2, 0x44444444u, 0x44444444u, &d);
    ck_assert_int_eq(res.fault.kind, SIM_FAULT_TRAP);
    ck_assert_msg(strstr(res.fault.message, "illegal instruction") &&
                      strstr(res.fault.message, "selector 2"),
                  "message: %s", res.fault.message);
    sim_result_free(&res);
}
END_TEST

/* The trace's registers view (TRACE_EV_REG with record_regs) shows what an mma.sync's
 * destination register list received, like any destination: for each of the four f32
 * registers of m16n8k16's D, an event whose 32 lane values are the D fragment
 * (element i of lane l at row l/4 + 8 (i/2), column 2 (l%4) + i%2). */
START_TEST(test_trace_records_mma_destination_registers)
{
    const int ci = _i;
    ptx_module_t *m = load("mma_sync", ci);
    if (!m)
        return;
    enum { M = 16, N = 8, K = 16 };
    float a[M * K], b[K * N], c[M * N], d[M * N];
    uint32_t st = 777u;
    for (int i = 0; i < M * K; i++)
        a[i] = (float)small(&st, -8, 8);
    for (int i = 0; i < K * N; i++)
        b[i] = (float)small(&st, -8, 8);
    for (int i = 0; i < M * N; i++)
        c[i] = (float)small(&st, -32, 32);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = c[i * N + j];
            for (int k = 0; k < K; k++)
                s += a[i * K + k] * b[k * N + j];
            d[i * N + j] = s;
        }
    trace_t *tr = trace_new(TRACE_ISSUE, 0);
    tr->record_regs = 1;
    sim_config cfg = {.trace = tr};
    sim_t *s = sim_new(&cfg);
    uint64_t da = fixture_upload(s, a, sizeof a, "A"), db = fixture_upload(s, b, sizeof b, "B");
    uint64_t dc = fixture_upload(s, c, sizeof c, "C"), dd = fixture_upload(s, NULL, sizeof d, "D");
    int exact = 1;
    void *p[] = {&da, &db, &dc, &dd, &exact};
    launch(s, m, "mma_m16n8k16_f16_f32", 1, p, ci);
    for (int i = 0; i < 4; i++) {
        uint32_t want[32];
        for (unsigned l = 0; l < 32; l++)
            memcpy(&want[l], &d[(l / 4 + 8 * (i / 2)) * N + 2 * (l % 4) + i % 2], 4);
        int found = 0;
        for (size_t e = 0; e < tr->nevents && !found; e++) {
            const trace_event *ev = &tr->events[e];
            if (ev->kind != TRACE_EV_REG || ev->mask != UINT32_MAX)
                continue;
            const uint64_t *v = trace_event_values(tr, ev);
            found = 1;
            for (unsigned l = 0; l < 32 && found; l++)
                found = (uint32_t)v[l] == want[l];
        }
        ck_assert_msg(found, "%s: no register event holds D register %d", compilers[ci], i);
    }
    sim_free(s);
    trace_free(tr);
    ptx_module_free(m);
}
END_TEST

/* ldmatrix reads shared memory like ld.shared (PTX ISA §9.7.14.5.15): one 16-byte row per
 * lane address, racechecked. Warp 1 stores rows that warp 0 reads with no barrier. */
START_TEST(test_ldmatrix_is_racechecked_against_other_warps_stores)
{
    static const char ptx[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                              ".visible .entry race()\n{\n"
                              ".reg .b32 %r<8>;\n.reg .pred %p1;\n.shared .align 16 .b8 s[128];\n"
                              "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra LD;\n"
                              "sub.u32 %r2, %r1, 32;\nshl.b32 %r2, %r2, 2;\nmov.u32 %r3, s;\n"
                              "add.u32 %r3, %r3, %r2;\nst.shared.u32 [%r3], %r1;\nret;\n"
                              "LD:\nand.b32 %r4, %r1, 7;\nshl.b32 %r4, %r4, 4;\nmov.u32 %r5, s;\n"
                              "add.u32 %r5, %r5, %r4;\n"
                              "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r6}, [%r5];\nret;\n}\n";
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_msg(ptx_parse(ptx, strlen(ptx), "race.ptx", &m, &diag) == SIM_OK, "%s",
                  diag ? diag : "");
    sim_t *s = sim_new(NULL);
    unsigned g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
    sim_result res;
    ck_assert_int_eq(sim_launch(s, m, "race", g, b, 0, NULL, &res), SIM_OK);
    int race = 0;
    for (int i = 0; i < res.nfindings; i++)
        if (res.findings[i].kind == SIM_FIND_RACE &&
            strstr(res.findings[i].message, "PTX line 23")) /* the ldmatrix */
            race = 1;
    for (int i = 0; !race && i < res.nfindings; i++)
        fprintf(stderr, "finding %d: %s\n", res.findings[i].kind, res.findings[i].message);
    ck_assert_msg(race, "no race naming the ldmatrix among %d findings", res.nfindings);
    sim_result_free(&res);
    sim_free(s);
    ptx_module_free(m);
}
END_TEST

static Suite *mma_suite(void)
{
    Suite *s = suite_create("sim_mma");
    TCase *tc = tcase_create("mma");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_mma_sync_every_shape_gives_the_exact_product, 0, 3 * NMMA);
    tcase_add_loop_test(tc, test_mma_float_model_rows, 0,
                        (int)(sizeof model_rows / sizeof model_rows[0]));
    tcase_add_test(tc, test_mma_model_environment_override);
    tcase_add_test(tc, test_wmma_tf32_adds_in_blocks_of_four_mma_sync_in_one);
    tcase_add_test(tc, test_mma_m8n8k4_f16_is_an_fma_chain);
    tcase_add_test(tc, test_mma_fp8_is_two_f16_steps_then_c);
    suite_add_tcase(s, tc);
    tc = tcase_create("matrix");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_ldmatrix_every_count_and_trans, 0, 3);
    tcase_add_loop_test(tc, test_stmatrix_every_count_and_trans, 0, 2);
    tcase_add_loop_test(tc, test_movmatrix_transposes_the_fragment, 0, 3);
    tcase_add_loop_test(tc, test_wmma_load_mma_store_exact, 0, 2);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_mma_in_half_a_warp_is_an_error_naming_the_instruction, 0, 3);
    tcase_add_test(tc, test_bad_tensor_core_forms_are_parse_errors);
    tcase_add_test(tc, test_mma_sp_metadata_is_read_from_the_selected_lanes_only);
    tcase_add_test(tc, test_ldmatrix_is_racechecked_against_other_warps_stores);
    tcase_add_loop_test(tc, test_trace_records_mma_destination_registers, 0, 3);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(mma_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
