// f32 <-> integer conversions: __float2int_rn/rz/rd/ru, __float2uint_*, __float2ll_*, C casts (saturating, NaN -> 0), __int2float_r*, __uint2float_r*, __ll2float_rn, rintf/floorf/ceilf/truncf/roundf.
extern "C" __global__ void cvt_float_int(const float *f, const int *k, int *oi, long long *ol, float *of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = f[i];
    int v = k[i];
    int *ri = oi + i * 10;
    ri[0] = __float2int_rn(x); ri[1] = __float2int_rz(x); ri[2] = __float2int_rd(x); ri[3] = __float2int_ru(x);
    ri[4] = (int)__float2uint_rn(x); ri[5] = (int)__float2uint_rz(x); ri[6] = (int)__float2uint_rd(x);
    ri[7] = (int)__float2uint_ru(x); ri[8] = (int)x; ri[9] = (int)(unsigned)x;
    ol[i * 3 + 0] = __float2ll_rn(x); ol[i * 3 + 1] = (long long)x; ol[i * 3 + 2] = (long long)__float2ull_rz(x);
    float *rf = of + i * 13;
    rf[0] = __int2float_rn(v); rf[1] = __int2float_rz(v); rf[2] = __int2float_ru(v); rf[3] = __int2float_rd(v);
    rf[4] = __uint2float_rn((unsigned)v); rf[5] = __uint2float_rz((unsigned)v);
    rf[6] = __ll2float_rn((long long)v * 1234567LL); rf[7] = (float)((unsigned long long)(long long)v * 99ull);
    rf[8] = rintf(x); rf[9] = floorf(x); rf[10] = ceilf(x); rf[11] = truncf(x); rf[12] = roundf(x);
}
