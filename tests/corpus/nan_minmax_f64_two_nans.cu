// min.f64/max.f64 (fmin/fmax) of two different NaNs. The PTX ISA says only that the
// result is NaN; an NVIDIA H200 (driver 580) returns the first PTX operand made quiet for
// the PTX NVRTC and nvcc emit, and the second for clang's: ptxas may swap the operands of
// a commutative min/max, so which NaN comes back is not fixed by the PTX. The simulator
// gives the first (as NVRTC's and nvcc's code gets); clang is skipped (.skip).
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
