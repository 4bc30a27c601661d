// Corner cases that NVIDIA's documents leave open, recorded on a GPU: what min.f64/max.f64
// (fmin/fmax) return with one NaN operand or the same NaN twice (quiet, with a payload,
// negative, signalling: two different NaNs are nan_minmax_f64_two_nans), and the sign of
// a saturated negative zero or tiny negative (cvt.sat / add.sat: __saturatef), as bit
// patterns. Golden recorded on an NVIDIA H200 (driver 580): a saturated -0.0 is +0.0, and
// equal for the PTX of NVRTC, nvcc and clang.
extern "C" __global__ void nan_minmax(const unsigned long long *a, const unsigned long long *b,
                                      unsigned long long *o, const unsigned *fa, const unsigned *fb,
                                      unsigned *fo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = __longlong_as_double((long long)a[i]), y = __longlong_as_double((long long)b[i]);
    o[i * 2 + 0] = (unsigned long long)__double_as_longlong(fmin(x, y));
    o[i * 2 + 1] = (unsigned long long)__double_as_longlong(fmax(x, y));
    float u = __uint_as_float(fa[i]), v = __uint_as_float(fb[i]);
    fo[i * 4 + 0] = __float_as_uint(__saturatef(u));
    fo[i * 4 + 1] = __float_as_uint(__saturatef(u + v));
    fo[i * 4 + 2] = __float_as_uint(fminf(u, v));
    fo[i * 4 + 3] = __float_as_uint(__saturatef(u * v));
}
