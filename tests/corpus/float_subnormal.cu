// Subnormal f32 results without ftz (mul, div, fma, add near FLT_MIN), sqrt of subnormals, and overflow to infinity.
extern "C" __global__ void float_subnormal(const float *a, float *o, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    float tiny = x * 1e-38f;
    o[i * 6 + 0] = tiny;
    o[i * 6 + 1] = __fmul_rn(tiny, 0.0625f);
    o[i * 6 + 2] = __fdiv_rn(tiny, 3.0f);
    o[i * 6 + 3] = __fmaf_rn(tiny, 0.5f, -tiny);
    o[i * 6 + 4] = __fsqrt_rn(fabsf(tiny) * 1e-5f);
    o[i * 6 + 5] = __fmul_rn(x, 1e38f) * 10.0f;
}
