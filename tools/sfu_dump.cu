// sfu_dump.cu — the GPU's special-function unit results that sim/sfu.c's tables hold,
// and the checks that those tables with the exponent rules of sim/sfu.c give the GPU's
// result on every positive normal input (rcp, rsqrt, sqrt, lg2) and on every ex2 input, and
// the quarter-wave table with its phase rules every sin and cos input.
//
//   nvcc -arch=sm_90 -o sfu_dump tools/sfu_dump.cu && ./sfu_dump DIR
//
// writes DIR/rcp.d8 (rcp.approx.ftz.f32 of 1 + k 2^-23, k < 2^23), DIR/rsqrt.d8 and
// DIR/sqrt.d8 (of the f32 0x3f800000 + k, k < 2^24: [1, 4)), DIR/ex2.d8
// (ex2.approx.ftz.f32 of 1 + k 2^-23: 2 times the table's 2^f), DIR/lg2.d8
// (lg2.approx.ftz.f32 of the f32 0x3f000000 + k, k < 2^24: [0.5, 2), what
// tools/sfu_tables.c fits lg2's segments to) and DIR/sin.d8 (sin.approx.ftz.f32 of an
// input of phase k 2^-25 turns, k < 2^23) and DIR/tanh.d8 (tanh.approx.f32 of the f32
// 0x3b000000 + k, k < 12 2^23: [2^-9, 8), the binades of sim/sfu.c's tanh segments,
// which tools/sfu_tanh_fit.py fits),
// each result as the
// difference from the one before in one signed byte, or 0x80 and the result's 4 bytes
// (little-endian); then prints, per form, how many inputs the rules get wrong (0 is what
// sim/sfu.c relies on; sin and cos .approx.ftz.f32 on all 2^32 inputs). It also writes
// DIR/ex2_f16.u16, ex2_bf16.u16, tanh_f16.u16 and tanh_bf16.u16: ex2.approx.f16,
// ex2.approx.ftz.bf16, tanh.approx.f16 and tanh.approx.bf16 of every one of the 2^16
// inputs, in input order (little-endian u16).
// tools/sfu_tables.c makes sim/sfu/*.z from the files (and checks the ex2 half models);
// tests/isa/sfu_half/ holds the half files gzip'd.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define FORM(name, ins)                                                                            \
    __global__ void k_##name(uint32_t base, uint32_t n, uint32_t *out)                            \
    {                                                                                              \
        uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;                                        \
        if (i >= n)                                                                                \
            return;                                                                                \
        float y;                                                                                   \
        asm volatile(ins " %0, %1;" : "=f"(y) : "f"(__uint_as_float(base + i)));                  \
        out[i] = __float_as_uint(y);                                                               \
    }
FORM(rcp, "rcp.approx.ftz.f32")
FORM(tanh, "tanh.approx.f32")
FORM(rsqrt, "rsqrt.approx.ftz.f32")
FORM(sqrt, "sqrt.approx.ftz.f32")
FORM(ex2, "ex2.approx.ftz.f32")
FORM(lg2, "lg2.approx.ftz.f32")

// lg2's exponent rule (sim/sfu.c sfu_lg2_unit): w = e 2^36 + V in units of 2^-36 as an
// f32, truncated; w < 0: its one's complement's magnitude, negative.
__device__ uint32_t lg2_truncated(int64_t w)
{
    const uint32_t s = w < 0 ? 0x80000000u : 0;
    const uint64_t mag = w < 0 ? (uint64_t)(-w - 1) : (uint64_t)w;
    if (mag == 0)
        return s;
    const int top = 63 - __clzll((long long)mag);
    const uint64_t m = top >= 23 ? mag >> (top - 23) : mag << (23 - top);
    return s | (uint32_t)(top - 36 + 127) << 23 | ((uint32_t)m & 0x7fffffu);
}

// Every positive normal input (op 0 rcp, 1 rsqrt, 2 sqrt, 4 lg2: 2^31 threads) or every
// normal ex2 input with |x| < 128 (op 3: 2^32 threads), against the rules; counts those
// that differ. lg2's rule: the result of 2^e m for e other than 0 and -1 is the e = 0
// result's value V (in 2^-36 units: below the truncation's step for those e) plus e
// 2^36, truncated (lg2_truncated).
__global__ void k_rules(int op, const uint32_t *tab, unsigned long long *bad)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; // 2^31 of them
    const uint32_t a = i & 0x7fffffffu, e = a >> 23, m = a & 0x7fffffu;
    if (e == 0 || e == 255)
        return;
    float x = __uint_as_float(a), y;
    uint32_t want;
    const int ee = (int)e - 127;
    if (op == 0) {
        asm volatile("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
        const uint32_t t = tab[m];
        const int re = (int)(t >> 23) - ee;
        want = re <= 0 ? 0 : (uint32_t)re << 23 | (t & 0x7fffffu);
    } else if (op < 3) {
        if (op == 1)
            asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
        else
            asm volatile("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
        const int odd = ee & 1, half = (ee - odd) / 2;
        const uint32_t t = tab[(uint32_t)odd << 23 | m];
        want = (uint32_t)((int)(t >> 23) + (op == 1 ? -half : half)) << 23 | (t & 0x7fffffu);
    } else if (op == 4) {
        if (ee == 0 || ee == -1)
            return; // the dump itself
        asm volatile("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
        const int64_t v = (int64_t)((double)__uint_as_float(tab[(1u << 23) | m]) * 0x1p36);
        want = lg2_truncated((int64_t)ee * ((int64_t)1 << 36) + v);
    } else {
        if (a >= 0x43000000u)
            return;
        const uint32_t s = i >> 31;
        x = __uint_as_float(a | s << 31);
        asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
        const uint32_t mm = 0x800000u | m;
        const uint32_t fx = ee >= 0 ? mm << ee : ee > -24 ? mm >> -ee : 0;
        const int ip = (int)(fx >> 23);
        const uint32_t f = fx & 0x7fffffu;
        if (!s)
            want = tab[f] + ((uint32_t)ip << 23);
        else if (f == 0)
            want = 127 - ip <= 0 ? 0 : (uint32_t)(127 - ip) << 23;
        else {
            const int ex = 127 - ip - 1;
            want = ex <= 0 ? 0 : (uint32_t)ex << 23 | (tab[~f & 0x7fffffu] & 0x7fffffu);
        }
    }
    if (__float_as_uint(y) != want)
        atomicAdd(bad, 1ull);
}

// sin.approx and cos.approx (sim/sfu.h sfu_sin): the phase of x's bits, frac(RZ(|x|
// 0x3e22f983)) in 2^-25 turns, truncated, computed exactly in integers.
__host__ __device__ static uint32_t sin_phase(uint32_t x)
{
    const uint32_t a = x & 0x7fffffffu;
    if (a < 0x00800000u) // zero or subnormal
        return 0;
    const int e = (int)(a >> 23) - 127;
    uint64_t p = (uint64_t)(0x800000u | (a & 0x7fffffu)) * 0xa2f983u; // 47 or 48 bits
    p &= ~((1ull << (p >> 47 ? 24 : 23)) - 1); // t = RZ(p) 2^(e-49)
    const int sh = e - 24;
    const uint64_t f = sh >= 25 ? 0 : sh >= 0 ? p << sh : sh <= -48 ? 0 : p >> -sh;
    return (uint32_t)(f & ((1u << 25) - 1));
}

// The sin/cos rule on the quarter-wave table tab: q's low 23 bits, inverted in odd
// quarters, negated in the second half-wave (and by sign).
__host__ __device__ static uint32_t sin_rule(const uint32_t *tab, uint32_t q, uint32_t sign)
{
    const uint32_t low = q & 0x7fffffu, k = q & 0x800000u ? 0x7fffffu - low : low;
    return tab[k] ^ sign ^ (q >> 24 & 1u) << 31;
}

// Every input bit pattern (2^32 threads) of sin.approx.ftz.f32 (op 0) or
// cos.approx.ftz.f32 (op 1) against sin_rule; counts those that differ.
__global__ void k_trig(int op, const uint32_t *tab, unsigned long long *bad)
{
    const uint32_t u = blockIdx.x * blockDim.x + threadIdx.x, a = u & 0x7fffffffu;
    const float x = __uint_as_float(u);
    float y;
    uint32_t want;
    if (op == 0)
        asm volatile("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    else
        asm volatile("cos.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    if (a >= 0x7f800000u)
        want = 0x7fffffffu;
    else if (op == 0)
        want = sin_rule(tab, sin_phase(u), u & 0x80000000u);
    else
        want = sin_rule(tab, (sin_phase(u) + 0x800000u) & 0x1ffffffu, 0);
    if (__float_as_uint(y) != want)
        atomicAdd(bad, 1ull);
}

// The half forms: thread i computes form op (0 ex2.approx.f16, 1 ex2.approx.ftz.bf16,
// 2 tanh.approx.f16, 3 tanh.approx.bf16) on the input bits i.
__global__ void k_half(int op, uint16_t *out)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned short x = (unsigned short)i, y;
    if (op == 0)
        asm volatile("ex2.approx.f16 %0, %1;" : "=h"(y) : "h"(x));
    else if (op == 1)
        asm volatile("ex2.approx.ftz.bf16 %0, %1;" : "=h"(y) : "h"(x));
    else if (op == 2)
        asm volatile("tanh.approx.f16 %0, %1;" : "=h"(y) : "h"(x));
    else
        asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(y) : "h"(x));
    out[i] = y;
}

// Writes the half forms' results of every input to DIR/<form>.u16.
static void dump_halves(const char *dir)
{
    static const char *const names[4] = {"ex2_f16", "ex2_bf16", "tanh_f16", "tanh_bf16"};
    uint16_t *d;
    cudaMalloc(&d, 65536 * 2);
    std::vector<uint8_t> h(65536 * 2);
    for (int op = 0; op < 4; op++) {
        k_half<<<256, 256>>>(op, d);
        std::vector<uint16_t> r(65536);
        cudaMemcpy(r.data(), d, 65536 * 2, cudaMemcpyDeviceToHost);
        for (int i = 0; i < 65536; i++) // little-endian whatever the host
            h[2 * i] = (uint8_t)r[i], h[2 * i + 1] = (uint8_t)(r[i] >> 8);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.u16", dir, names[op]);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(h.data(), 1, h.size(), f) != h.size() || fclose(f) != 0) {
            perror(path);
            exit(2);
        }
    }
    cudaFree(d);
}

typedef void (*kfn)(uint32_t, uint32_t, uint32_t *);

// sin.approx.ftz.f32 of inputs in[i] (thread i).
__global__ void k_sin_of(const uint32_t *in, uint32_t n, uint32_t *out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float y;
    asm volatile("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(__uint_as_float(in[i])));
    out[i] = __float_as_uint(y);
}

// Writes results h to DIR/<name>.d8: each as the difference from the one before in one
// signed byte, or 0x80 and the result's 4 bytes.
static void write_d8(const char *dir, const char *name, const std::vector<uint32_t> &h)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.d8", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    uint32_t prev = 0;
    for (size_t i = 0; i < h.size(); i++) {
        const int64_t dl = (int64_t)h[i] - (int64_t)prev;
        if (i > 0 && dl > -128 && dl < 128) {
            const int8_t c = (int8_t)dl;
            fwrite(&c, 1, 1, f);
        } else {
            const uint8_t esc = 0x80;
            fwrite(&esc, 1, 1, f);
            fwrite(&h[i], 4, 1, f);
        }
        prev = h[i];
    }
    if (fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

static std::vector<uint32_t> dump(const char *dir, const char *name, kfn k, uint32_t base,
                                  uint32_t n)
{
    uint32_t *d;
    cudaMalloc(&d, (size_t)n * 4);
    k<<<(n + 255) / 256, 256>>>(base, n, d);
    std::vector<uint32_t> h(n);
    cudaMemcpy(h.data(), d, (size_t)n * 4, cudaMemcpyDeviceToHost);
    cudaFree(d);
    write_d8(dir, name, h);
    return h;
}

// sin.approx's quarter-wave table: for each phase k < 2^23 (2^-25 turns), an input x_k
// of that phase (sin_phase; below pi/2 every phase has one), and sin.approx.ftz.f32 of
// it, written to DIR/sin.d8.
static std::vector<uint32_t> dump_sin(const char *dir)
{
    const uint32_t n = 1u << 23;
    std::vector<uint32_t> in(n);
    const double c = 0.15915493667125701904; // 0x3e22f983
    for (uint32_t k = 0; k < n; k++) {
        float x = k ? (float)(((double)k + 0.5) * 0x1p-25 / c) : 0.0f;
        int tries = 0;
        uint32_t u;
        while ((memcpy(&u, &x, 4), sin_phase(u) != k) && tries++ < 64)
            x = nextafterf(x, sin_phase(u) < k ? 2.0f : 0.0f);
        if (sin_phase(u) != k) {
            fprintf(stderr, "sfu_dump: no input of phase %u found\n", k);
            exit(2);
        }
        in[k] = u;
    }
    uint32_t *din, *dout;
    cudaMalloc(&din, (size_t)n * 4);
    cudaMalloc(&dout, (size_t)n * 4);
    cudaMemcpy(din, in.data(), (size_t)n * 4, cudaMemcpyHostToDevice);
    k_sin_of<<<n / 256, 256>>>(din, n, dout);
    std::vector<uint32_t> h(n);
    cudaMemcpy(h.data(), dout, (size_t)n * 4, cudaMemcpyDeviceToHost);
    cudaFree(din);
    cudaFree(dout);
    write_d8(dir, "sin", h);
    return h;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sfu_dump DIR\n");
        return 2;
    }
    std::vector<uint32_t> t[5] = {
        dump(argv[1], "rcp", k_rcp, 0x3f800000u, 1u << 23),
        dump(argv[1], "rsqrt", k_rsqrt, 0x3f800000u, 1u << 24),
        dump(argv[1], "sqrt", k_sqrt, 0x3f800000u, 1u << 24),
        dump(argv[1], "ex2", k_ex2, 0x3f800000u, 1u << 23),
        dump(argv[1], "lg2", k_lg2, 0x3f000000u, 1u << 24),
    };
    dump_halves(argv[1]);
    dump(argv[1], "tanh", k_tanh, 0x3b000000u, 12u << 23);
    for (uint32_t &v : t[3])
        v -= 1u << 23; // 2^(1+f) to the table's 2^f
    const char *names[] = {"rcp", "rsqrt", "sqrt", "ex2", "lg2"};
    uint32_t *tab;
    unsigned long long *bad;
    cudaMalloc(&tab, (size_t)4 << 24);
    cudaMalloc(&bad, 8);
    int rc = 0;
    for (int op = 0; op < 5; op++) {
        cudaMemcpy(tab, t[op].data(), t[op].size() * 4, cudaMemcpyHostToDevice);
        cudaMemset(bad, 0, 8);
        k_rules<<<op == 3 ? 1u << 24 : 1u << 23, 256>>>(op, tab, bad); // 2^32, 2^31 inputs
        unsigned long long n = 0;
        cudaMemcpy(&n, bad, 8, cudaMemcpyDeviceToHost);
        printf("%s.approx.ftz.f32: %llu inputs differ from the table and its exponent rules\n",
               names[op], n);
        rc |= n != 0;
    }
    const std::vector<uint32_t> sin_tab = dump_sin(argv[1]);
    cudaMemcpy(tab, sin_tab.data(), sin_tab.size() * 4, cudaMemcpyHostToDevice);
    for (int op = 0; op < 2; op++) {
        cudaMemset(bad, 0, 8);
        k_trig<<<1u << 24, 256>>>(op, tab, bad); // 2^32 inputs
        unsigned long long n = 0;
        cudaMemcpy(&n, bad, 8, cudaMemcpyDeviceToHost);
        printf("%s.approx.ftz.f32: %llu inputs differ from the quarter-wave table and its "
               "phase rules\n",
               op ? "cos" : "sin", n);
        rc |= n != 0;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "sfu_dump: %s\n", cudaGetErrorString(e));
        return 2;
    }
    return rc;
}
