// CUDA's single-precision math functions over their whole range: every sign, every
// exponent from subnormal to huge, infinities and NaNs (the inputs are bit patterns
// hashed from the thread's index), each result stored as its bits. libdevice builds these
// from IEEE operations and the approximate instructions the simulator gives bit for bit
// (ex2, rcp, rsqrt .approx: sim/sfu.h), so the simulator must equal the GPU exactly; the
// functions on lg2/sin/cos/tanh.approx (__logf, __sinf, cbrtf, erfinvf, ...) are
// tests/corpus/approx's, within their bounds.
extern "C" __global__ void libm_range(unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned h = (unsigned)i * 0x9e3779b1u;
    const float x = __uint_as_float(h ^ (h >> 15)), y = __uint_as_float((unsigned)i * 0x85ebca6bu + 0x3f000000u);
    const float g = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
    const float r[24] = {expf(x),  exp2f(x),  exp10f(x), expm1f(x), logf(x),     log2f(x),
                         log10f(x), log1pf(x), sinf(x),  cosf(x),   tanf(x),     tanhf(x),
                         sqrtf(x), rsqrtf(x), normcdff(x), erff(x), erfcf(x),   powf(x, y),
                         __expf(x), __exp10f(x), __fdividef(x, y), sinhf(x), coshf(x), g};
    for (int k = 0; k < 24; k++)
        o[i * 24 + k] = __float_as_uint(r[k]);
}
