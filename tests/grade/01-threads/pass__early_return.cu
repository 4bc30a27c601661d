// Right: an early return for threads past the end instead of wrapping the body in if (i < n).
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    c[i] = a[i] + b[i];
}
