// Wrong: guards against the number of threads launched (gridDim.x * blockDim.x) instead of n, which lets every thread through.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}
