// Measures on a GPU how sparse mma (mma.sp, PTX ISA §9.7.14.6) places the compressed A
// fragment and reads the metadata, for every shape and type sm_90 has: the ISA gives the
// metadata's layout only as pictures (§9.7.14.6.2, Figures 119-139).
//
//   nvcc -std=c++17 -arch=sm_90 -o /tmp/mma_sp_probe tools/mma_sp_probe.cu
//   for f in $(seq 0 10); do for s in 0 1 2 3; do /tmp/mma_sp_probe $f $s; done; done
//
// Every probe reads back the whole decompressed A (16 x K) of one mma.sp: A's compressed
// registers hold 0 or 1, C is 0, and B is one-hot (slice s: B[8s + j][j] = 1, by B's
// fragment layout, the dense mma's one extended to K) so that D's column j is A's column
// 8s + j. Two kinds of probe, one block each:
//   A lane r j -> row col   one compressed element (lane, register r, element j of it) is
//                           1, every metadata nibble 0x4 (indices 0 and 1): where it lands
//   M lane q v: cells       every element 1, every nibble 0x4 but nibble q of lane's
//                           metadata v: the cells of A that differ from all-0x4's
// Output: one line a probe, text. What an H200 printed is the layout sim/mma.c
// mma_sp_meta_pos follows; the corpus cases tests/corpus/mma_sp_*.json (random data and
// metadata for every form and selector, goldens recorded on the H200) check it.
#include <cstdio>
#include <cstdlib>
#include <cstring>

// f: the form (below), PER: elements per 32-bit register, ONE: the bits of 1 in the type.
struct Form {
    const char *name;
    int K, NA, NB, PER, nsel;
    unsigned one;
};
static const Form forms[] = {
    {"m16n8k16.f32.f16", 16, 2, 2, 2, 4, 0x3c00},      {"m16n8k32.f32.f16", 32, 4, 4, 2, 4, 0x3c00},
    {"m16n8k16.f32.bf16", 16, 2, 2, 2, 4, 0x3f80},     {"m16n8k32.f32.bf16", 32, 4, 4, 2, 2, 0x3f80},
    {"m16n8k8.f32.tf32", 8, 2, 2, 1, 4, 0x3f800000},   {"m16n8k16.f32.tf32", 16, 4, 4, 1, 2, 0x3f800000},
    {"m16n8k32.s32.s8", 32, 2, 2, 4, 2, 1},            {"m16n8k64.s32.s8", 64, 4, 4, 4, 1, 1},
    {"m16n8k64.s32.u4", 64, 2, 2, 8, 2, 1},            {"m16n8k128.s32.u4", 128, 4, 4, 8, 1, 1},
    {"m16n8k64.f32.e4m3", 64, 4, 4, 4, 1, 0x38},
};

#define SP_ASM(SHAPE, TYPES, C, O, Z, NA, NB)                                                 \
    asm volatile("mma.sp.sync.aligned." SHAPE ".row.col." TYPES " {%0,%1,%2,%3}, " NA ", " NB \
                 ", {%12,%13,%14,%15}, %16, %17;"                                             \
                 : "=" C(O[0]), "=" C(O[1]), "=" C(O[2]), "=" C(O[3])                         \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),          \
                   "r"(b[2]), "r"(b[3]), C(Z), C(Z), C(Z), C(Z), "r"(e), "n"(SEL))
#define A2 "{%4,%5}"
#define A4 "{%4,%5,%6,%7}"
#define B2 "{%8,%9}"
#define B4 "{%8,%9,%10,%11}"
#define FLT(SHAPE, TYPES, NA, NB) SP_ASM(SHAPE, TYPES, "f", d, 0.f, NA, NB)
#define INT(SHAPE, TYPES, NA, NB) SP_ASM(SHAPE, TYPES, "r", di, 0, NA, NB)

// One mma.sp of form F with sparsity selector SEL; d: D's four registers (s32 for the
// integer forms).
template <int F, int SEL> __device__ void mma_sp(const unsigned *a, const unsigned *b, unsigned e, float *d)
{
    int *di = (int *)d;
    (void)di;
    if constexpr (F == 0) FLT("m16n8k16", "f32.f16.f16.f32", A2, B2);
    if constexpr (F == 1) FLT("m16n8k32", "f32.f16.f16.f32", A4, B4);
    if constexpr (F == 2) FLT("m16n8k16", "f32.bf16.bf16.f32", A2, B2);
    if constexpr (F == 3 && SEL < 2) FLT("m16n8k32", "f32.bf16.bf16.f32", A4, B4);
    if constexpr (F == 4) FLT("m16n8k8", "f32.tf32.tf32.f32", A2, B2);
    if constexpr (F == 5 && SEL < 2) FLT("m16n8k16", "f32.tf32.tf32.f32", A4, B4);
    if constexpr (F == 6 && SEL < 2) INT("m16n8k32", "s32.s8.s8.s32", A2, B2);
    if constexpr (F == 7 && SEL < 1) INT("m16n8k64", "s32.s8.s8.s32", A4, B4);
    if constexpr (F == 8 && SEL < 2) INT("m16n8k64", "s32.u4.u4.s32", A2, B2);
    if constexpr (F == 9 && SEL < 1) INT("m16n8k128", "s32.u4.u4.s32", A4, B4);
    if constexpr (F == 10 && SEL < 1) FLT("m16n8k64", "f32.e4m3.e4m3.f32", A4, B4);
}

// out: per block 16 x K bytes, A's decompressed elements (as integers).
template <int F, int SEL>
__global__ void probe(Form f, int kind, unsigned v, unsigned char *out)
{
    const int lane = threadIdx.x, g = lane >> 2, t = lane & 3, p = blockIdx.x;
    const unsigned bits = 32 / f.PER, emask = bits == 32 ? ~0u : (1u << bits) - 1;
    unsigned a[4] = {0, 0, 0, 0}, e = 0x44444444u;
    for (int r = 0; r < f.NA; r++)
        for (int j = 0; j < f.PER; j++) {
            const int id = (lane * f.NA + r) * f.PER + j;
            if (kind == 1 || id == p)
                a[r] |= (f.one & emask) << (bits * j);
        }
    if (kind == 1 && lane == p / 8)
        e = (e & ~(0xfu << (4 * (p % 8)))) | v << (4 * (p % 8));
    for (int s = 0; s < f.K / 8; s++) {
        unsigned b[4] = {0, 0, 0, 0};
        for (int r = 0; r < f.NB; r++)
            for (int j = 0; j < f.PER; j++) /* B (K x 8): row t*PER + 4*PER*r + j, column g */
                if (t * f.PER + 4 * f.PER * r + j == 8 * s + g)
                    b[r] |= (f.one & emask) << (bits * j);
        float d[4];
        mma_sp<F, SEL>(a, b, e, d);
        for (int i = 0; i < 4; i++) {
            const int row = g + 8 * (i / 2), col = 8 * s + 2 * t + i % 2;
            const int x = F >= 6 && F <= 9 ? ((int *)d)[i] : (int)d[i];
            out[(size_t)p * 16 * f.K + row * f.K + col] = (unsigned char)x;
        }
    }
}

template <int F, int SEL> static void run(const Form &f)
{
    if (SEL >= f.nsel)
        return;
    const int na = 32 * f.NA * f.PER, nm = 256;
    unsigned char *dev, *host = new unsigned char[(size_t)(na > nm ? na : nm) * 16 * f.K];
    unsigned char *base = new unsigned char[16 * f.K];
    cudaMalloc(&dev, (size_t)(na > nm ? na : nm) * 16 * f.K);
    probe<F, SEL><<<1, 32>>>(f, 1, 4, dev); /* nibble 0 of lane 0 set to 0x4: the all-0x4 base */
    cudaMemcpy(base, dev, 16 * f.K, cudaMemcpyDeviceToHost);
    probe<F, SEL><<<na, 32>>>(f, 0, 0, dev);
    cudaError_t err = cudaMemcpy(host, dev, (size_t)na * 16 * f.K, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        printf("%s sel %d: %s\n", f.name, SEL, cudaGetErrorString(err));
        return;
    }
    for (int p = 0; p < na; p++) {
        printf("%s sel %d A lane %d r %d j %d ->", f.name, SEL, p / (f.NA * f.PER),
               p / f.PER % f.NA, p % f.PER);
        for (int i = 0; i < 16 * f.K; i++)
            if (host[(size_t)p * 16 * f.K + i])
                printf(" (%d,%d)=%d", i / f.K, i % f.K, host[(size_t)p * 16 * f.K + i]);
        printf("\n");
    }
    const unsigned vs[] = {0xe, 0x9, 0x1};
    for (unsigned v : vs) {
        probe<F, SEL><<<nm, 32>>>(f, 1, v, dev);
        cudaMemcpy(host, dev, (size_t)nm * 16 * f.K, cudaMemcpyDeviceToHost);
        for (int p = 0; p < nm; p++) {
            int any = 0;
            for (int i = 0; i < 16 * f.K; i++)
                any |= host[(size_t)p * 16 * f.K + i] != base[i];
            if (!any)
                continue;
            printf("%s sel %d M lane %d q %d v %x:", f.name, SEL, p / 8, p % 8, v);
            for (int i = 0; i < 16 * f.K; i++)
                if (host[(size_t)p * 16 * f.K + i] != base[i])
                    printf(" (%d,%d)%d>%d", i / f.K, i % f.K, base[i], host[(size_t)p * 16 * f.K + i]);
            printf("\n");
        }
    }
    cudaFree(dev);
    delete[] host;
    delete[] base;
}

template <int F> static void run_form(int sel)
{
    if (sel == 0) run<F, 0>(forms[F]);
    if (sel == 1) run<F, 1>(forms[F]);
    if (sel == 2) run<F, 2>(forms[F]);
    if (sel == 3) run<F, 3>(forms[F]);
}

// probe F SEL: form F (0 ... 10, the table above), selector SEL; one process each, as an
// illegal instruction (what an H200 does for some forms) ends the CUDA context.
int main(int argc, char **argv)
{
    const int f = argc > 2 ? atoi(argv[1]) : -1, sel = argc > 2 ? atoi(argv[2]) : 0;
    switch (f) {
    case 0: run_form<0>(sel); break;
    case 1: run_form<1>(sel); break;
    case 2: run_form<2>(sel); break;
    case 3: run_form<3>(sel); break;
    case 4: run_form<4>(sel); break;
    case 5: run_form<5>(sel); break;
    case 6: run_form<6>(sel); break;
    case 7: run_form<7>(sel); break;
    case 8: run_form<8>(sel); break;
    case 9: run_form<9>(sel); break;
    case 10: run_form<10>(sel); break;
    default: fprintf(stderr, "usage: mma_sp_probe FORM(0-10) SEL(0-3)\n"); return 2;
    }
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess)
        printf("%s sel %d: %s\n", forms[f].name, sel, cudaGetErrorString(err));
    return err != cudaSuccess;
}
