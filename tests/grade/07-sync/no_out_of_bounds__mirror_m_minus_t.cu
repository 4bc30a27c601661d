// Wrong: off by one in the mirror index (s[m - t] instead of s[m - 1 - t]): thread 0 of a full block reads s[64], past the end of s.
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
        v = s[m - t];
    __syncthreads();
    if (t < m)
        s[t] = v;
    __syncthreads();
    if (t < m)
        data[base + t] = s[t];
}
