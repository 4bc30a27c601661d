/* test_approx_compare.c — the approximate-instruction cases of the ground-truth corpus
 * (tests/corpus/approx/, README.md there): the simulator's output must lie within the
 * documented error bound of the golden recorded on a GPU (NVIDIA H200, driver 580, CUDA
 * 13.0, NVRTC), for every compiler that compiles the case (NAME.skip lists those that
 * cannot, with the reason). Bit-exact comparison is tests/corpus.sh's job; these
 * instructions (ex2/lg2/sin/cos/tanh/rcp/rsqrt .approx and the libdevice routines built on
 * them) are specified only to within a bound (CUDA C++ Programming Guide, "Mathematical
 * Functions"). Both the GPU and the simulator are within the bound of the exact value, so
 * they may differ by twice the bound, plus one ulp for the rounding of each.
 *
 * Runs `$GPULEARN run NAME.json --backend sim --compiler CC --dump-json FILE` (make check
 * sets GPULEARN; the default is build/debug/gpulearn) and reads both JSON files with
 * cJSON. */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DIR "tests/corpus/approx"

/* How one output compares: ULP (f32 ulps of the golden value), ULP64 (f64 ulps), ABS
 * (absolute), REL (relative to the golden value, plus an absolute part `a`: a quotient
 * of approximations near zero inherits its numerator's absolute error), EXACT (the same
 * bits). */
typedef enum { ULP, ULP64, ABS, REL, EXACT } bound_kind;

typedef struct bound {
    bound_kind kind;
    double b; /* the bound against the exact value, from README.md */
    double a; /* REL: the absolute part */
} bound;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

static cJSON *load_json(const char *path)
{
    char *text = slurp(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    return j;
}

/* A value of a --dump-json buffer: a number, or "nan"/"inf"/"-inf". */
static double num(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return v->valuedouble;
    if (cJSON_IsString(v))
        return strtod(v->valuestring, NULL);
    return NAN;
}

static double ulp32(double x)
{
    x = fabs(x);
    if (x < 0x1p-126)
        return 0x1p-149;
    return ldexp(1.0, ilogb(x) - 23);
}

static double ulp64(double x)
{
    x = fabs(x);
    if (x < 0x1p-1022)
        return 0x1p-1074;
    return ldexp(1.0, ilogb(x) - 52);
}

/* Whether got is within twice bound bd of the golden value g (is_f32: the buffer is
 * f32, so EXACT compares f32 bits). */
static int within(double got, double g, bound bd, int is_f32)
{
    if (isnan(g) || isnan(got))
        return isnan(g) && isnan(got);
    if (isinf(g) || isinf(got))
        return got == g;
    if (bd.kind == EXACT)
        return is_f32 ? (float)got == (float)g : got == g;
    double d = fabs(got - g);
    switch (bd.kind) {
    case ABS: return d <= 2 * bd.b;
    case REL: return d <= 2 * (bd.b * fabs(g) + bd.a) + 0x1p-149;
    case ULP: return d <= (2 * bd.b + 1) * ulp32(g);
    default: return d <= (2 * bd.b + 1) * ulp64(g);
    }
}

/* The compiler of the case being compared (the test sets it). */
static const char *bound_cc = "";

/* Whether the case was compiled by NVIDIA's compilers (NVRTC, nvcc: libdevice, the
 * golden's code) rather than clang (the prelude's own functions). */
static int nvidia_code(void)
{
    return strcmp(bound_cc, "clang") != 0;
}

/* approx_intrinsics.cu: output k of element i (x, y its inputs); README.md's table.
 * Those built on ex2, lg2, rcp, rsqrt, sin, cos and tanh .approx are the GPU's bits
 * (sim/sfu.h), so every output but the last compares EXACT with NVIDIA's compilers (the
 * golden's code); clang's prelude computes some of them otherwise. */
static bound intrinsics_bound(int k, double x)
{
    double pa = (float)(fabs(x) + 0.5);
    int in_range = pa >= 0.5 && pa <= 2.0;
    const int same_code = nvidia_code();
    const bound exact = {EXACT, 0, 0};
    switch (k) {
    case 0: return same_code ? exact : (bound){ULP, 2 + floor(fabs(1.173 * x)), 0}; /* __expf */
    case 1:
        return same_code ? exact : (bound){ULP, 2 + floor(fabs(2.97 * x * 0.25)), 0}; /* __exp10f */
    case 2:                                                                           /* __logf */
        return same_code ? exact : in_range ? (bound){ABS, exp2(-21.41), 0} : (bound){ULP, 3, 0};
    case 3: /* __log2f */
        return same_code ? exact : in_range ? (bound){ABS, 0x1p-22, 0} : (bound){ULP, 2, 0};
    case 4: /* __log10f */
        return same_code ? exact : in_range ? (bound){ABS, 0x1p-24, 0} : (bound){ULP, 3, 0};
    case 5: return same_code ? exact : (bound){ABS, exp2(-21.41), 0}; /* __sinf */
    case 6:
        return same_code ? exact : (bound){ABS, exp2(-21.19), 0}; /* __cosf */
    /* __tanf = __sinf / __cosf: near 0 the absolute error of __sinf dominates */
    case 7: return same_code ? exact : (bound){REL, 0x1p-19, exp2(-21.41)}; /* __tanf */
    case 8: return same_code ? exact : (bound){REL, 0x1p-18, 0};            /* __powf */
    case 9: return same_code ? exact : (bound){ULP, 2, 0};                  /* __fdividef */
    case 10: return same_code ? exact : (bound){ULP, 2, 0};                 /* rsqrtf */
    case 11: return same_code ? exact : (bound){REL, exp2(-10.987), 0};     /* __tanhf */
    case 12: return same_code ? exact : (bound){ULP, 2, 0};                 /* exp2f */
    default:
        return (bound){ULP, 0.5, 0}; /* __saturatef + __frsqrt_rn: correctly rounded
                                          (clang's prelude rounds twice: half an ulp) */
    }
}

/* approx_libm.cu: f32 outputs o (9 per element) and f64 outputs od (4 per element).
 * libdevice's code on the simulator is the GPU's bits: its approximate instructions (ex2,
 * rcp, rsqrt .approx, f32 and f64) are (sim/sfu.h). */
static bound libm_bound(int k, int dbl)
{
    static const double f[9] = {2, 1, 2, 2, 4, 4, 2, 2, 0};
    static const double d[4] = {1, 1, 2, 2};
    if (nvidia_code())
        return (bound){EXACT, 0, 0};
    if (dbl)
        return (bound){ULP64, d[k], 0};
    return k == 8 ? (bound){EXACT, 0, 0} : (bound){ULP, f[k], 0}; /* 1.0f / sqrtf(p): div.rn */
}

/* approx_libm_f32.cu: output k (26 per element); README.md's table. With NVIDIA's
 * compilers every output is the GPU's bits. */
static bound libm_f32_bound(int k)
{
    static const double f[26] = {2, 2, 2, 1, 1, 2, 1, 1, 2, 2, 4, 2, 4,
                                 2, 2, 3, 1, 2, 3, 2, 2, 3, 2, 3, 4, 3};
    return nvidia_code() ? (bound){EXACT, 0, 0} : (bound){ULP, f[k], 0};
}

/* approx_libm_f64.cu: f64 outputs od (46 per element) and f32 outputs o (12 per element);
 * README.md's table (0: exact). With NVIDIA's compilers every output is the GPU's bits
 * (rsqrt, hypot, rhypot and rcbrt use rcp and rsqrt .approx .f64; erfinvf, erfcinvf,
 * normcdfinvf and rcbrtf lg2.approx: sim/sfu.h). */
static bound libm_f64_bound(int k, int dbl)
{
    static const double d[46] = {1, 1, 1, 1, 1,  1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2,
                                 2, 2, 2, 2, 2,  1, 1, 3, 3, 2, 1, 1, 2, 1, 2, 5,
                                 4, 5, 6, 4, 10, 5, 8, 1, 2, 2, 0, 0, 0, 0};
    static const double f[12] = {4, 4, 2, 4, 6, 5, 5, 5, 1, 1, 1, 2};
    const double b = dbl ? d[k] : f[k];
    if (b == 0 || nvidia_code())
        return (bound){EXACT, 0, 0};
    return (bound){dbl ? ULP64 : ULP, b, 0};
}

/* Whether compiler cc is listed in DIR/name.skip ("clang: reason" lines). */
static int skipped(const char *name, const char *cc)
{
    char path[256];
    snprintf(path, sizeof path, DIR "/%s.skip", name);
    char *text = slurp(path);
    if (!text)
        return 0;
    int found = 0;
    size_t n = strlen(cc);
    for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, cc, n) == 0 && l[n] == ':')
            found = 1;
    free(text);
    return found;
}

static const char *const compilers[] = {"nvrtc", "nvcc", "clang"};
static const char *const cases[] = {"approx_intrinsics", "approx_libm", "approx_libm_f32",
                                    "approx_libm_f64"};

/* Runs the case on the simulator; returns its --dump-json, or NULL with *unavailable set
 * when the compiler is not installed here. */
static cJSON *run_sim(const char *name, const char *cc, int *unavailable)
{
    const char *g = getenv("GPULEARN");
    if (!g || !*g)
        g = "build/debug/gpulearn";
    char out[] = "/tmp/gl-approx-XXXXXX";
    int fd = mkstemp(out);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char err[sizeof out + 8];
    snprintf(err, sizeof err, "%s.err", out);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' run " DIR "/%s.json --backend sim --compiler %s --dump-json %s >/dev/null "
             "2>%s",
             g, name, cc, out, err);
    int rc = system(cmd);
    char *why = slurp(err);
    *unavailable =
        rc != 0 && why &&
        (strstr(why, "not available") || strstr(why, "no compiler") || strstr(why, "not found"));
    cJSON *j = NULL;
    if (!*unavailable) {
        ck_assert_msg(rc == 0, "%s with %s: gpulearn failed (%d): %s", name, cc, rc,
                      why ? why : "");
        j = load_json(out);
        ck_assert_msg(j != NULL, "%s with %s: cannot read %s", name, cc, out);
    }
    free(why);
    unlink(out);
    unlink(err);
    return j;
}

/* Compares buffer `buf` (per elements of `per` outputs) of got against golden; returns
 * the number of values outside the bound, printing the first few. which: the case's
 * index in cases[] (its table of bounds). */
static int compare(const char *name, const char *cc, const cJSON *got, const cJSON *gold,
                   const char *buf, int per, int dbl, int which)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(got, buf);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(gold, buf);
    const cJSON *xs = cJSON_GetObjectItemCaseSensitive(gold, "x");
    ck_assert_msg(cJSON_IsArray(a) && cJSON_IsArray(b), "%s: no buffer %s", name, buf);
    int n = cJSON_GetArraySize(b), bad = 0;
    ck_assert_int_eq(cJSON_GetArraySize(a), n);
    for (int i = 0; i < n; i++) {
        int k = i % per;
        double x = num(cJSON_GetArrayItem(xs, i / per));
        bound bd = which == 0   ? intrinsics_bound(k, x)
                   : which == 1 ? libm_bound(k, dbl)
                   : which == 2 ? libm_f32_bound(k)
                                : libm_f64_bound(k, dbl);
        double gv = num(cJSON_GetArrayItem(a, i)), want = num(cJSON_GetArrayItem(b, i));
        if (!within(gv, want, bd, !dbl) && ++bad <= 5)
            fprintf(stderr, "%s (%s): %s[%d] (output %d): simulator %.*g, GPU %.*g\n", name, cc,
                    buf, i, k, dbl ? 17 : 9, gv, dbl ? 17 : 9, want);
    }
    return bad;
}

START_TEST(test_approx_cases_are_within_twice_the_documented_bound_of_the_gpu)
{
    const char *name = cases[_i / 3], *cc = compilers[_i % 3];
    bound_cc = cc;
    if (skipped(name, cc)) {
        printf("SKIP %s with %s (see " DIR "/%s.skip)\n", name, cc, name);
        return;
    }
    char path[256];
    snprintf(path, sizeof path, DIR "/%s.golden.json", name);
    cJSON *gold = load_json(path);
    ck_assert_msg(gold != NULL, "cannot read %s (run tests from the repo root)", path);
    int unavailable = 0;
    cJSON *got = run_sim(name, cc, &unavailable);
    if (!got) {
        printf("SKIP %s with %s: compiler not available\n", name, cc);
        cJSON_Delete(gold);
        return;
    }
    const cJSON *gb = cJSON_GetObjectItemCaseSensitive(gold, "buffers");
    const cJSON *sb = cJSON_GetObjectItemCaseSensitive(got, "buffers");
    /* the inputs must be the very same bits */
    const int which = _i / 3;
    const char *in0 = "x", *in1 = which == 1 ? "d" : "y";
    ck_assert_msg(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(sb, in0),
                                cJSON_GetObjectItemCaseSensitive(gb, in0), 1) &&
                      cJSON_Compare(cJSON_GetObjectItemCaseSensitive(sb, in1),
                                    cJSON_GetObjectItemCaseSensitive(gb, in1), 1),
                  "%s: the inputs differ from the golden's", name);
    int bad = which == 0   ? compare(name, cc, sb, gb, "o", 14, 0, which)
              : which == 1 ? compare(name, cc, sb, gb, "o", 9, 0, which) +
                                 compare(name, cc, sb, gb, "od", 4, 1, which)
              : which == 2 ? compare(name, cc, sb, gb, "o", 26, 0, which)
                           : compare(name, cc, sb, gb, "od", 46, 1, which) +
                                 compare(name, cc, sb, gb, "o", 12, 0, which);
    ck_assert_msg(bad == 0, "%s with %s: %d values outside twice the bound of the GPU's", name, cc,
                  bad);
    cJSON_Delete(got);
    cJSON_Delete(gold);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("approx_compare");
    TCase *tc = tcase_create("approx");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_approx_cases_are_within_twice_the_documented_bound_of_the_gpu, 0,
                        12);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
