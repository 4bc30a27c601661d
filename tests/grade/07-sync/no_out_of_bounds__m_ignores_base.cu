// Wrong: m = min(64, n) leaves out the block's base, so a partial last block acts as if it had 64 elements and writes past n.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int base = blockIdx.x * 64;
    int m = min(64, n);
    if (t < m)
        s[t] = data[base + t];
    __syncthreads();
    int v = 0;
    if (t < m)
        v = s[m - 1 - t];
    __syncthreads();
    if (t < m)
        s[t] = v;
    __syncthreads();
    if (t < m)
        data[base + t] = s[t];
}
