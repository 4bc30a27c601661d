// Which NaN neg, abs, sub, mul and fma return in CUDA C (-x, fabsf, fabs, 1 - x, x * 2,
// fma) for NaN inputs of each payload class (quiet, signalling, both signs, payload
// bits). The PTX ISA says only "NaN"; an H200 gives f32 the canonical NaN 0x7fffffff
// (neg and abs too) and f64 the NaN operand made quiet, its sign kept (tests/isa/nan.txt).
extern "C" __global__ void nan_payloads(const unsigned *fa, const unsigned long long *da,
                                        unsigned *fo, unsigned long long *dout, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    float x = __uint_as_float(fa[i]);
    double y = __longlong_as_double((long long)da[i]);
    fo[i * 4 + 0] = __float_as_uint(-x);
    fo[i * 4 + 1] = __float_as_uint(fabsf(x));
    fo[i * 4 + 2] = __float_as_uint(1.0f - x);
    fo[i * 4 + 3] = __float_as_uint(x * 2.0f);
    dout[i * 4 + 0] = (unsigned long long)__double_as_longlong(-y);
    dout[i * 4 + 1] = (unsigned long long)__double_as_longlong(fabs(y));
    dout[i * 4 + 2] = (unsigned long long)__double_as_longlong(1.0 - y);
    dout[i * 4 + 3] = (unsigned long long)__double_as_longlong(fma(y, 2.0, 1.0));
}
