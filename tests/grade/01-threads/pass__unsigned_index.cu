// Right: an unsigned global index, compared with n converted to unsigned.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (unsigned)n)
        c[i] = b[i] + a[i];
}
