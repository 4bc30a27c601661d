// Fast approximate intrinsics (ex2/lg2/sin/cos/tanh/rcp/rsqrt .approx): compare within the ulp bounds in README.md.
extern "C" __global__ void approx_intrinsics(const float *x, const float *y, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = x[i], b = y[i], pa = fabsf(a) + 0.5f;
    float *r = o + i * 14;
    r[0] = __expf(a);
    r[1] = __exp10f(a * 0.25f);
    r[2] = __logf(pa);
    r[3] = __log2f(pa);
    r[4] = __log10f(pa);
    r[5] = __sinf(a);
    r[6] = __cosf(a);
    r[7] = __tanf(a * 0.4f);
    r[8] = __powf(pa, b);
    r[9] = __fdividef(a, b);
    r[10] = rsqrtf(pa);
    r[11] = __tanhf(a);
    r[12] = exp2f(a);
    r[13] = __saturatef(a) + __frsqrt_rn(pa);
}
