/* sfu_tables.c — the tables of sim/sfu/ from a GPU's special-function unit results (sim/sfu.h).
 *
 * Usage: build/debug/tools/sfu_tables DUMPDIR OUTDIR [TABLE...]
 *
 * DUMPDIR holds rcp.d8, rsqrt.d8, sqrt.d8, ex2.d8, lg2.d8 and sin.d8, and ex2_f16.u16,
 * ex2_bf16.u16, tanh_f16.u16 and tanh_bf16.u16, as tools/sfu_dump.cu writes them on a
 * machine with an NVIDIA GPU. TABLE: rcp, rsqrt, sqrt, ex2, lg2, sin, tanh_f16 or
 * tanh_bf16, or ex2_f16 or ex2_bf16 for the models' checks (default all). lg2 is no table
 * of results but the 64 segments of the unit's polynomial (sim/sfu.h sfu_lg2_segment),
 * fitted to the GPU's results of [0.5, 2), the model checked against every one of them,
 * and written as C to OUTDIR/lg2.h (saying whether it equals the simulator's). For each
 * other f32 table but sin, every entry's correction (the GPU's result minus sim/sfu.c's
 * correctly rounded reference, in ulps: -2..+1) is packed in 2 bits; sin's quarter wave
 * is the GPU's results themselves, each as its step's change from the step before
 * (sim/sfu.c); for each half table, the GPU's results of the inputs +0 to +inf as steps
 * from the one before (one byte each), after checking that the form is odd and gives
 * 0x7fff for every NaN (what sim/sfu.c assumes). Each is zlib-compressed into
 * OUTDIR/<table>.z (written to a temporary file, then renamed). ex2_f16 and ex2_bf16
 * compare sim/sfu.c's models of those forms with the GPU's results, every input. Prints
 * each table's figures and size.
 * Exits 0, or 1 naming the entry that does not fit or the input that differs,
 * or 2 for a missing or short dump. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "sim/sfu.h"

static const char *const names[SFU_NTABLES] = {"rcp", "rsqrt", "sqrt", "ex2"};
static const char *const half_names[SFU_NHALF_TABLES] = {"tanh_f16", "tanh_bf16"};

/* Writes n bytes of data zlib-compressed to OUTDIR/<name>.z (a temporary file, then
 * renamed); its compressed size, or 0 after a message. */
static unsigned long write_z(const char *outdir, const char *name, const unsigned char *data,
                             size_t n)
{
    uLongf zlen = compressBound((uLong)n);
    unsigned char *z = malloc(zlen);
    if (!z || compress2(z, &zlen, data, (uLong)n, 9) != Z_OK) {
        fprintf(stderr, "sfu_tables: zlib failed on %s\n", name);
        free(z);
        return 0;
    }
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s.z", outdir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(z, 1, zlen, f) != zlen || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "sfu_tables: %s: %s\n", path, strerror(errno));
        free(z);
        return 0;
    }
    free(z);
    return (unsigned long)zlen;
}

/* Reads the 2^16 results of a half form (little-endian u16, in input order) from
 * DUMPDIR/<name>.u16. 0, or -1 after a message. */
static int read_half(const char *dir, const char *name, unsigned short *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.u16", dir, name);
    FILE *f = fopen(path, "rb");
    unsigned char b[2];
    unsigned i = 0;
    while (f && i < 65536 && fread(b, 1, 2, f) == 2)
        out[i++] = (unsigned short)(b[0] | b[1] << 8);
    if (f)
        fclose(f);
    if (i < 65536) {
        fprintf(stderr, "sfu_tables: %s: %s\n", path,
                f ? "fewer than 65536 results" : strerror(errno));
        return -1;
    }
    return 0;
}

/* Whether table `name` was asked for (argv[3..], none: all). */
static int wanted(int argc, char **argv, const char *name)
{
    for (int i = 3; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return argc <= 3;
}

/* The half tables and the ex2 half models' check; the exit status main returns. */
static int half_tables(int argc, char **argv)
{
    static unsigned short gpu[65536];
    for (int t = 0; t < SFU_NHALF_TABLES; t++) {
        if (!wanted(argc, argv, half_names[t]))
            continue;
        if (read_half(argv[1], half_names[t], gpu) != 0)
            return 2;
        const unsigned n = sfu_half_table_size((sfu_half_table_id)t), inf = n - 1;
        unsigned char *steps = malloc(n);
        if (!steps) {
            fprintf(stderr, "sfu_tables: out of memory\n");
            return 2;
        }
        for (unsigned k = 0; k < 65536; k++) {
            const unsigned a = k & 0x7fff;
            const unsigned want = a > inf ? 0x7fff : (k & 0x8000) | gpu[a];
            if (gpu[k] != want) {
                fprintf(stderr,
                        "sfu_tables: %s of 0x%04x is 0x%04x, not 0x%04x (odd, NaN 0x7fff): "
                        "sim/sfu.c's rules do not hold\n",
                        half_names[t], k, gpu[k], want);
                free(steps);
                return 1;
            }
            if (k < n) {
                const int step = (int)gpu[k] - (k ? (int)gpu[k - 1] : 0);
                if (step < 0 || step > 255) {
                    fprintf(stderr, "sfu_tables: %s of 0x%04x: a step of %d from the one before\n",
                            half_names[t], k, step);
                    free(steps);
                    return 1;
                }
                steps[k] = (unsigned char)step;
            }
        }
        const unsigned long z = write_z(argv[2], half_names[t], steps, n);
        free(steps);
        if (!z)
            return 2;
        printf("%-9s %6u entries (+0 to +inf): %s/%s.z %lu bytes\n", half_names[t], n, argv[2],
               half_names[t], z);
    }
    static const char *const ex2_names[2] = {"ex2_f16", "ex2_bf16"};
    for (int bf = 0; bf < 2; bf++) {
        if (!wanted(argc, argv, ex2_names[bf]))
            continue;
        if (read_half(argv[1], ex2_names[bf], gpu) != 0)
            return 2;
        unsigned differ = 0, first = 0;
        for (unsigned k = 0; k < 65536; k++) {
            const unsigned short sim = bf ? sfu_ex2_bf16((unsigned short)k)
                                          : sfu_ex2_f16((unsigned short)k);
            if (sim != gpu[k] && !differ++)
                first = k;
        }
        printf("%-9s the model against the GPU: %u of 65536 inputs differ", ex2_names[bf], differ);
        if (differ)
            printf(" (first 0x%04x: GPU 0x%04x)", first, gpu[first]);
        printf("\n");
        if (differ)
            return 1;
    }
    return 0;
}

/* Reads n results from dump file path (sfu_dump.cu's coding) into out. 0, or -1 after a
 * message. */
static int read_dump(const char *path, uint32_t *out, unsigned n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "sfu_tables: %s: %s\n", path, strerror(errno));
        return -1;
    }
    uint32_t prev = 0;
    unsigned i = 0;
    int c;
    while (i < n && (c = getc(f)) != EOF) {
        if (c == 0x80) {
            unsigned char b[4];
            if (fread(b, 1, 4, f) != 4)
                break;
            prev = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        } else {
            prev += (uint32_t)(int32_t)(int8_t)c;
        }
        out[i++] = prev;
    }
    fclose(f);
    if (i < n) {
        fprintf(stderr, "sfu_tables: %s: %u results, %u expected\n", path, i, n);
        return -1;
    }
    return 0;
}

/* A positive f32's value in units of 2^-36 (*v) and its ulp's (*ulp, at least 1); -1 when
 * it is not a whole number of them (lg2's results all are). */
static int lg2_units(uint32_t f, int64_t *v, int64_t *ulp)
{
    const int e = (int)(f >> 23 & 0xff), sh = e - 150 + 36; /* value = m 2^(e - 150) */
    const int64_t m = (int64_t)(f & 0x7fffffu) | (e ? 1 << 23 : 0);
    if (f == 0) {
        *v = 0, *ulp = 1;
        return 0;
    }
    if (sh < 0 && (m & (((int64_t)1 << -sh) - 1)))
        return -1;
    *v = sh >= 0 ? m << sh : m >> -sh;
    *ulp = sh >= 0 ? (int64_t)1 << sh : 1;
    return 0;
}

/* lg2's 64 segments (sim/sfu.h sfu_lg2_segment) fitted to the GPU's results of [0.5, 2)
 * (gpu[i]: lg2.approx.ftz.f32 of the f32 0x3f000000 + i): each result bounds the unit's
 * V(m), the e = 0 one (truncated V) and the e = -1 one (truncated one's complement of
 * 2^36 - V) from two sides; c1 and c2 are searched around a least-squares estimate for
 * the pair that leaves an interval for c0 under every bound, c0 its lowest. 0, or 1
 * after a message. */
static int lg2_fit(const uint32_t *gpu, sfu_lg2_segment seg[64])
{
    enum { N = 1 << 17 };
    int64_t *lo = malloc(N * sizeof *lo), *hi = malloc(N * sizeof *hi),
            *sq = malloc(N * sizeof *sq);
    if (!lo || !hi || !sq) {
        fprintf(stderr, "sfu_tables: out of memory\n");
        return 1;
    }
    for (uint32_t t = 0; t < N; t++)
        sq[t] = sfu_lg2_square(t);
    int rc = 0;
    for (int g = 0; g < 64 && !rc; g++) {
        double sum[3][4] = {{0}};
        for (uint32_t t = 0; t < N; t++) {
            const uint32_t k = (uint32_t)g << 17 | t;
            int64_t a, ua, b, ub;
            if (lg2_units(gpu[(1u << 23) + k], &a, &ua) || !(gpu[k] >> 31) ||
                lg2_units(gpu[k] & 0x7fffffffu, &b, &ub)) {
                fprintf(stderr,
                        "sfu_tables: lg2 of 1 + %u 2^-23: the GPU's 0x%08x, 0x%08x do not "
                        "fit sim/sfu.c's model (multiples of 2^-36, the one below 1 "
                        "negative)\n",
                        k, gpu[(1u << 23) + k], gpu[k]);
                rc = 1;
                break;
            }
            /* V in [a, a + ua - 1] (x = 1 gives +0, whatever V); 2^36 - 1 - V in [b, b + ub - 1] */
            lo[t] = 0x1000000000ll - b - ub;
            hi[t] = 0x1000000000ll - 1 - b;
            if (k) {
                lo[t] = a > lo[t] ? a : lo[t];
                hi[t] = a + ua - 1 < hi[t] ? a + ua - 1 : hi[t];
            }
            const double row[4] = {1.0, (double)t / N, -(double)sq[t] / N,
                                   (double)(lo[t] + hi[t]) / 2};
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 4; j++)
                    sum[i][j] += row[i] * row[j];
        }
        if (rc)
            break;
        for (int i = 0; i < 3; i++) /* the normal equations, Gauss-Jordan */
            for (int r = 0; r < 3; r++)
                if (r != i) {
                    const double f = sum[r][i] / sum[i][i];
                    for (int j = 0; j < 4; j++)
                        sum[r][j] -= f * sum[i][j];
                }
        const long long e1 = llround(sum[1][3] / sum[1][1] / N * 32),
                        e2 = llround(sum[2][3] / sum[2][2] / N * 2);
        int found = 0;
        for (long long c2 = e2 - 3; c2 <= e2 + 3 && !found; c2++)
            for (long long c1 = e1 - 8; c1 <= e1 + 8 && !found; c1++) {
                int64_t L = INT64_MIN, H = INT64_MAX;
                for (uint32_t t = 0; t < N && L <= H; t++) {
                    const int64_t f = c1 * t - 16 * c2 * sq[t];
                    L = 32 * lo[t] - f > L ? 32 * lo[t] - f : L;
                    H = 32 * hi[t] + 31 - f < H ? 32 * hi[t] + 31 - f : H;
                }
                if (L <= H) {
                    seg[g] = (sfu_lg2_segment){L, (int)c1, (int)c2};
                    found = 1;
                }
            }
        if (!found) {
            fprintf(stderr,
                    "sfu_tables: lg2 segment %d: no c1, c2 near %lld/32, %lld/2 fit the "
                    "GPU's results\n",
                    g, e1, e2);
            rc = 1;
        }
    }
    free(lo);
    free(hi);
    free(sq);
    return rc;
}

/* lg2: DUMPDIR/lg2.d8 (lg2.approx.ftz.f32 of [0.5, 2), 2^24 results) fitted (lg2_fit),
 * the model with the fit checked against every result, OUTDIR/lg2.h written (the
 * initializer sim/sfu.c includes). The exit status main returns. */
static int lg2_table(const char *dumpdir, const char *outdir)
{
    uint32_t *gpu = malloc((size_t)4 << 24);
    sfu_lg2_segment seg[64];
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/lg2.d8", dumpdir);
    if (!gpu || read_dump(path, gpu, 1u << 24) != 0) {
        free(gpu);
        return 2;
    }
    if (lg2_fit(gpu, seg) != 0) {
        free(gpu);
        return 1;
    }
    unsigned differ = 0, first = 0;
    for (uint32_t i = 0; i < 1u << 24; i++)
        if (sfu_lg2_unit(seg, 0x3f000000u + i) != gpu[i] && !differ++)
            first = i;
    free(gpu);
    if (differ) {
        fprintf(stderr,
                "sfu_tables: lg2: the fitted model differs from the GPU on %u inputs "
                "(first 0x%08x)\n",
                differ, 0x3f000000u + first);
        return 1;
    }
    snprintf(path, sizeof path, "%s/lg2.h", outdir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int ok = f != NULL;
    if (ok) {
        fprintf(f, "/* sim/sfu/lg2.h — lg2.approx's 64 segments (sim/sfu.h sfu_lg2_segment: "
                   "c0, c1, c2),\n * written by tools/sfu_tables.c from a GPU's results of "
                   "[0.5, 2); do not edit. */\n");
        for (int g = 0; g < 64; g++)
            fprintf(f, "    {%lld, %d, %d},\n", seg[g].c0, seg[g].c1, seg[g].c2);
        ok = fclose(f) == 0 && rename(tmp, path) == 0;
    }
    if (!ok) {
        fprintf(stderr, "sfu_tables: %s: %s\n", path, strerror(errno));
        return 2;
    }
    const int same = memcmp(seg, sfu_lg2_segments, sizeof seg) == 0;
    printf("lg2   64 segments fitted; the model equals the GPU on all 2^24 inputs of [0.5, 2); "
           "%s (%s sim/sfu/lg2.h's)\n",
           path, same ? "the same as" : "NOT the same as");
    return 0;
}

/* sin.approx's quarter-wave table from DUMPDIR/sin.d8 (sin.approx.ftz.f32 of an input of
 * phase k 2^-25 turns, k < 2^23: tools/sfu_dump.cu), coded as sim/sfu.c reads it (each
 * entry's step minus the step before, a byte, or 0x80 and the entry) and checked by
 * decoding it back; the exit status main returns. */
static int sin_table(const char *dumpdir, const char *outdir)
{
    const unsigned n = SFU_SIN_ENTRIES;
    uint32_t *gpu = malloc((size_t)n * 4), *back = malloc((size_t)n * 4);
    unsigned char *code = malloc((size_t)n * 5);
    if (!gpu || !back || !code) {
        fprintf(stderr, "sfu_tables: out of memory\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/sin.d8", dumpdir);
    if (read_dump(path, gpu, n) != 0)
        return 2;
    size_t len = 0;
    unsigned escapes = 0;
    uint32_t prev = 0, step = 0;
    for (unsigned k = 0; k < n; k++) {
        const uint32_t s = gpu[k] - prev;
        const int32_t d = (int32_t)(s - step);
        if (d >= -127 && d <= 127) {
            code[len++] = (unsigned char)(signed char)d;
        } else {
            code[len++] = 0x80;
            for (int b = 0; b < 4; b++)
                code[len++] = (unsigned char)(gpu[k] >> (8 * b));
            escapes++;
        }
        prev = gpu[k];
        step = s;
    }
    if (len > SFU_SIN_CODE_MAX) {
        fprintf(stderr, "sfu_tables: sin: %u escapes, more than sim/sfu.h allows\n", escapes);
        return 1;
    }
    if (sfu_sin_decode(code, len, back) != 0 || memcmp(back, gpu, (size_t)n * 4) != 0) {
        fprintf(stderr, "sfu_tables: sin: the coded table does not decode to the dump\n");
        return 1;
    }
    const unsigned long zlen = write_z(outdir, "sin", code, len);
    free(gpu);
    free(back);
    free(code);
    if (!zlen)
        return 2;
    printf("sin   %8u entries (a quarter wave): %u escapes; %s/sin.z %lu bytes\n", n, escapes,
           outdir, zlen);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: sfu_tables DUMPDIR OUTDIR [TABLE...]\n");
        return 2;
    }
    for (int t = 0; t < SFU_NTABLES; t++) {
        if (!wanted(argc, argv, names[t]))
            continue;
        const unsigned n = sfu_table_size((sfu_table_id)t);
        uint32_t *gpu = malloc((size_t)n * 4);
        unsigned char *packed = calloc(n / 4, 1);
        if (!gpu || !packed) {
            fprintf(stderr, "sfu_tables: out of memory\n");
            return 2;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.d8", argv[1], names[t]);
        if (read_dump(path, gpu, n) != 0)
            return 2;
        unsigned long long count[4] = {0};
        for (unsigned k = 0; k < n; k++) {
            /* ex2's dump is of 1 + f: twice the table's 2^f */
            const uint32_t hw = t == SFU_EX2 ? gpu[k] - (1u << 23) : gpu[k];
            const int corr = (int)hw - (int)sfu_table_reference((sfu_table_id)t, k);
            if (corr < -2 || corr > 1) {
                fprintf(stderr,
                        "sfu_tables: %s entry %u: the GPU's 0x%08x is %d ulps from the "
                        "reference: more than 2 bits hold\n",
                        names[t], k, hw, corr);
                return 1;
            }
            count[corr + 2]++;
            packed[k >> 2] |= (unsigned char)((corr + 2) << (2 * (k & 3)));
        }
        const unsigned long zlen = write_z(argv[2], names[t], packed, n / 4);
        if (!zlen)
            return 2;
        printf("%-5s %8u entries: corrections -2: %llu, -1: %llu, 0: %llu, +1: %llu; %s/%s.z "
               "%lu bytes\n",
               names[t], n, count[0], count[1], count[2], count[3], argv[2], names[t], zlen);
        free(gpu);
        free(packed);
    }
    if (wanted(argc, argv, "lg2")) {
        const int rc = lg2_table(argv[1], argv[2]);
        if (rc)
            return rc;
    }
    if (wanted(argc, argv, "sin")) {
        const int rc = sin_table(argv[1], argv[2]);
        if (rc)
            return rc;
    }
    return half_tables(argc, argv);
}
