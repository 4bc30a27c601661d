// Several noinline device functions: many parameters of mixed types, a struct returned by value, a pointer out-parameter, a call chain.
struct pair { int lo; long long hi; };
__device__ __attribute__((noinline)) pair split(long long v, int shift)
{
    pair p;
    p.lo = (int)(v & ((1LL << shift) - 1));
    p.hi = v >> shift;
    return p;
}
__device__ __attribute__((noinline)) float mix(int a, float b, double c, char d, unsigned short e, long long f, float *out)
{
    *out = b * 2.0f + d;
    return (float)(a + c) + (float)e - (float)(f % 1000);
}
__device__ __attribute__((noinline)) long long chain(long long v, int depth)
{
    pair p = split(v, 5 + depth);
    return p.hi * 3 + p.lo - depth;
}
extern "C" __global__ void devfunc_many(const long long *in, long long *o, float *f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long v = in[i];
    float side;
    o[i] = chain(v, i % 7);
    f[2 * i] = mix(i, (float)i * 0.5f, (double)v * 1e-12, (char)(v & 0x7f), (unsigned short)(i * 1000), v, &side);
    f[2 * i + 1] = side;
}
