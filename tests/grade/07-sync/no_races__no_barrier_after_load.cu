// Wrong: a barrier between reading the mirror and writing, but none after loading s, so a thread may read s[m - 1 - t] before its owner has stored it.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int base = blockIdx.x * 64;
    int m = min(64, n - base);
    if (t < m)
        s[t] = data[base + t];
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
// expect-advice: warp 1's write at line 9 and warp 0's read at line 12
// expect-advice: Put __syncthreads() after line 9 and before line 12
// expect-no-advice: __syncwarp
