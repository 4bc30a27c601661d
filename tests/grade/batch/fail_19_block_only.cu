extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
