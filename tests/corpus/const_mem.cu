// __constant__ memory with initializers: a coefficient table read uniformly and by divergent indices, a constant struct, a constant double.
struct params { int scale; float bias; short tag[4]; };
__constant__ float coef[8] = {0.5f, -1.25f, 2.0f, 3.75f, -0.125f, 8.0f, -16.5f, 0.0625f};
__constant__ params P = {3, -2.5f, {7, -8, 9, -10}};
__constant__ double half_pi = 1.5707963267948966;
extern "C" __global__ void const_mem(const float *in, float *out, double *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i], s = 0.0f;
    for (int k = 0; k < 8; ++k)
        s = s * x + coef[k];
    out[i] = s * P.scale + P.bias + coef[i & 7] * P.tag[i & 3];
    d[i] = half_pi * i;
}
