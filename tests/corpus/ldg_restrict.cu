// Read-only loads: __ldg (ld.global.nc) on int, float2 and double, and const __restrict__ pointers.
extern "C" __global__ void ldg_restrict(const int *__restrict__ a, const float2 *__restrict__ b, const double *d,
                                        float *__restrict__ o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = __ldg(&a[i]);
    float2 f = __ldg(&b[i]);
    double y = __ldg(&d[n - 1 - i]);
    o[i] = (float)x * f.x - f.y + (float)y;
}
