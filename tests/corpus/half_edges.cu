// f16 and bf16 conversions and arithmetic at their edges (PTX ISA §9.7.4, §9.7.9.21 cvt):
// every bit pattern through f32 and back, f32 to f16/bf16 in the four rounding modes,
// scalar and packed (x2) arithmetic with rounding ties, NaN, infinities, subnormals.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// Each 16-bit pattern as f16 (or bf16) widened to f32 (exact), then narrowed again (.rn):
// a NaN keeps its sign and becomes canonical or keeps its payload as the GPU does.
extern "C" __global__ void half_roundtrip(const unsigned short *in, unsigned *f,
                                          unsigned short *back, int n, int bf)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = bf ? __bfloat162float(__ushort_as_bfloat16(in[i]))
                 : __half2float(__ushort_as_half(in[i]));
    f[i] = __float_as_uint(x);
    back[i] = bf ? __bfloat16_as_ushort(__float2bfloat16_rn(x))
                 : __half_as_ushort(__float2half_rn(x));
}

// An f32 bit pattern to f16 and bf16 in .rn, .rz, .rm, .rp (cvt.rX.f16.f32 / .bf16.f32).
extern "C" __global__ void f32_to_half(const unsigned *in, unsigned short *h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = __uint_as_float(in[i]);
    unsigned short *o = h + 8 * i;
    o[0] = __half_as_ushort(__float2half_rn(x));
    o[1] = __half_as_ushort(__float2half_rz(x));
    o[2] = __half_as_ushort(__float2half_rd(x));
    o[3] = __half_as_ushort(__float2half_ru(x));
    o[4] = __bfloat16_as_ushort(__float2bfloat16_rn(x));
    o[5] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
    o[6] = __bfloat16_as_ushort(__float2bfloat16_rd(x));
    o[7] = __bfloat16_as_ushort(__float2bfloat16_ru(x));
}

// Scalar f16 arithmetic on bit patterns a, b, c (16 results per element).
extern "C" __global__ void half_arith(const unsigned short *a, const unsigned short *b,
                                      const unsigned short *c, unsigned short *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]), z = __ushort_as_half(c[i]);
    unsigned short *r = o + 16 * i;
    r[0] = __half_as_ushort(__hadd(x, y));
    r[1] = __half_as_ushort(__hsub(x, y));
    r[2] = __half_as_ushort(__hmul(x, y));
    r[3] = __half_as_ushort(__hfma(x, y, z));
    r[4] = __half_as_ushort(__hadd_sat(x, y));
    r[5] = __half_as_ushort(__hfma_sat(x, y, z));
    r[6] = __half_as_ushort(__hfma_relu(x, y, z));
    r[7] = __half_as_ushort(__hmin(x, y));
    r[8] = __half_as_ushort(__hmax(x, y));
    r[9] = __half_as_ushort(__hmin_nan(x, y));
    r[10] = __half_as_ushort(__hmax_nan(x, y));
    r[11] = __half_as_ushort(__hneg(x));
    r[12] = __half_as_ushort(__habs(y));
    r[13] = (unsigned short)(__hlt(x, y) | __hle(x, z) << 1 | __hgt(y, z) << 2 |
                             __heq(x, y) << 3 | __hne(x, y) << 4 | __hltu(x, y) << 5 |
                             __hgeu(y, z) << 6 | __hisnan(x) << 7 | __hisinf(y) << 8);
    r[14] = __half_as_ushort(__hadd_rn(x, z));
    r[15] = __half_as_ushort(__hmul_rn(y, z));
}

// Scalar bf16 arithmetic on bit patterns a, b, c (compiled for sm_80 the header builds
// add/sub/mul from fma.rn.bf16; for sm_90 they are add/sub/mul.bf16).
extern "C" __global__ void bf16_arith(const unsigned short *a, const unsigned short *b,
                                      const unsigned short *c, unsigned short *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat16 x = __ushort_as_bfloat16(a[i]), y = __ushort_as_bfloat16(b[i]),
                  z = __ushort_as_bfloat16(c[i]);
    unsigned short *r = o + 12 * i;
    r[0] = __bfloat16_as_ushort(__hadd(x, y));
    r[1] = __bfloat16_as_ushort(__hsub(x, y));
    r[2] = __bfloat16_as_ushort(__hmul(x, y));
    r[3] = __bfloat16_as_ushort(__hfma(x, y, z));
    r[4] = __bfloat16_as_ushort(__hfma_relu(x, y, z));
    r[5] = __bfloat16_as_ushort(__hmin(x, y));
    r[6] = __bfloat16_as_ushort(__hmax(x, y));
    r[7] = __bfloat16_as_ushort(__hmin_nan(x, y));
    r[8] = __bfloat16_as_ushort(__hmax_nan(x, y));
    r[9] = __bfloat16_as_ushort(__hneg(x));
    r[10] = __bfloat16_as_ushort(__habs(y));
    r[11] = (unsigned short)(__hlt(x, y) | __hle(x, z) << 1 | __hgt(y, z) << 2 |
                             __heq(x, y) << 3 | __hne(x, y) << 4 | __hisnan(x) << 5);
}

// Packed f16x2 and bf16x2 arithmetic: a[i] and b[i], c[i] are two halves each.
extern "C" __global__ void half2_arith(const unsigned *a, const unsigned *b, const unsigned *c,
                                       unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 x = *(const __half2 *)&a[i], y = *(const __half2 *)&b[i], z = *(const __half2 *)&c[i];
    __nv_bfloat162 p = *(const __nv_bfloat162 *)&a[i], q = *(const __nv_bfloat162 *)&b[i],
                   s = *(const __nv_bfloat162 *)&c[i];
    __half2 h[8] = {__hadd2(x, y), __hsub2(x, y), __hmul2(x, y), __hfma2(x, y, z),
                    __hfma2_relu(x, y, z), __hmax2(x, y), __hmin2_nan(x, y), __hneg2(x)};
    __nv_bfloat162 g[6] = {__hadd2(p, q),         __hmul2(p, q),    __hfma2(p, q, s),
                           __hfma2_relu(p, q, s), __hmin2(p, q),    __habs2(q)};
    for (int k = 0; k < 8; k++)
        o[14 * i + k] = *(unsigned *)&h[k];
    for (int k = 0; k < 6; k++)
        o[14 * i + 8 + k] = *(unsigned *)&g[k];
}

// f16/bf16 to and from integers and f32 pairs (cvt.rni/rzi.s32.f16, cvt.rn.f16.s32,
// cvt.rn.f16x2.f32, ...).
extern "C" __global__ void half_int_cvt(const float *a, const int *k, int *oi,
                                        unsigned short *oh, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = __float2half_rn(a[i]);
    __nv_bfloat16 y = __float2bfloat16_rn(a[i]);
    oi[6 * i + 0] = __half2int_rn(x);
    oi[6 * i + 1] = __half2int_rz(x);
    oi[6 * i + 2] = (int)__half2uint_rd(x);
    oi[6 * i + 3] = __bfloat162int_rn(y);
    oi[6 * i + 4] = (int)__half2short_rz(x);
    oi[6 * i + 5] = (int)__bfloat162uint_ru(y);
    __half2 p = __floats2half2_rn(a[i], a[i] * 3.0f);
    __nv_bfloat162 q = __floats2bfloat162_rn(a[i] * 0.1f, a[i]);
    oh[6 * i + 0] = __half_as_ushort(__int2half_rn(k[i]));
    oh[6 * i + 1] = __half_as_ushort(__int2half_rz(k[i]));
    oh[6 * i + 2] = __bfloat16_as_ushort(__int2bfloat16_rn(k[i]));
    oh[6 * i + 3] = __half_as_ushort(__high2half(p));
    oh[6 * i + 4] = __bfloat16_as_ushort(__low2bfloat16(q));
    oh[6 * i + 5] = __half_as_ushort(__ushort2half_rn((unsigned short)k[i]));
}
