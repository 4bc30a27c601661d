// Wrong: loads a[i] and b[i] before the bounds check, out of bounds for i >= n. The
// optimiser sinks the loads under the guard, so only the debug build (-G) shows it.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = a[i] + b[i];
    if (i < n)
        c[i] = s;
}
