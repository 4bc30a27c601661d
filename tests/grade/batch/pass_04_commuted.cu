extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (n > i)
        c[i] = b[i] + a[i];
}
