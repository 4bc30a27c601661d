// Wrong: one-block-only code, i = threadIdx.x, so every block adds elements 0..127 and the rest are never written.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
