// Wrong: off by one in the early return (i > n instead of i >= n), so thread i == n writes c[n].
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > n)
        return;
    c[i] = a[i] + b[i];
}
