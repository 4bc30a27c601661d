// Wrong: guards threadIdx.x < n instead of the global index, which lets the last block's extra threads through once n >= 128.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < n)
        c[i] = a[i] + b[i];
}
