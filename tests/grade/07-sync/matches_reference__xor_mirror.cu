// Wrong: power-of-two-only code, the mirror index is t ^ (m - 1), which equals m - 1 - t only when m is a power of two.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int base = blockIdx.x * 64;
    int m = min(64, n - base);
    if (t < m)
        s[t] = data[base + t];
    __syncthreads();
    int v = 0;
    if (t < m)
        v = s[t ^ (m - 1)];
    __syncthreads();
    if (t < m)
        data[base + t] = v;
}
