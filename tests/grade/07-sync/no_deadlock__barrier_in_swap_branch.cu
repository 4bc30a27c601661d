// Wrong: swaps pairs, but the barrier after the swap is inside if (t < m / 2), which only half of the block takes.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int base = blockIdx.x * 64;
    int m = min(64, n - base);
    if (t < m)
        s[t] = data[base + t];
    __syncthreads();
    if (t < m / 2) {
        int a = s[t];
        s[t] = s[m - 1 - t];
        s[m - 1 - t] = a;
        __syncthreads();
    }
    if (t < m)
        data[base + t] = s[t];
}
