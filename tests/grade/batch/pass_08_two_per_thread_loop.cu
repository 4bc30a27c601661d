extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 1; k++)
        if (i + k < n)
            c[i + k] = a[i + k] + b[i + k];
}
