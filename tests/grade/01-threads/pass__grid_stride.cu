// Right: a grid-stride loop instead of a single guarded element per thread.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}
