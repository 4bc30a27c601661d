// Wrong: uses gridDim.x where blockDim.x belongs in the global index, so blocks overlap and the high elements are never written.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * gridDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
