// f16 and bf16 through cuda_fp16.h / cuda_bf16.h: conversions with rounding, __hadd/__hmul/__hfma, half2 arithmetic, back to float.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void half_types(const float *a, const float *b, float *o, unsigned short *bits, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = __float2half_rn(a[i]), y = __float2half_rz(b[i]);
    __half s = __hadd(x, y), p = __hmul(x, y), f = __hfma(x, y, s);
    __half2 v = __halves2half2(x, y);
    __half2 w = __hmul2(v, __floats2half2_rn(0.5f, -2.0f));
    __nv_bfloat16 bx = __float2bfloat16(a[i]), by = __float2bfloat16(b[i]);
    o[i * 6 + 0] = __half2float(s);
    o[i * 6 + 1] = __half2float(p);
    o[i * 6 + 2] = __half2float(f);
    o[i * 6 + 3] = __low2float(w) + __high2float(w);
    o[i * 6 + 4] = __bfloat162float(bx) * __bfloat162float(by);
    o[i * 6 + 5] = __bfloat162float(__float2bfloat16(a[i] * 1e-3f));
    bits[i * 3 + 0] = __half_as_ushort(x);
    bits[i * 3 + 1] = __half_as_ushort(__float2half_rn(a[i] * 1000.0f));
    bits[i * 3 + 2] = __bfloat16_as_ushort(bx);
}
