// Wrong: __syncwarp() where __syncthreads() is needed; it orders the lanes of one warp only, and the block has two warps that read each other's halves.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int base = blockIdx.x * 64;
    int m = min(64, n - base);
    if (t < m)
        s[t] = data[base + t];
    __syncwarp();
    int v = 0;
    if (t < m)
        v = s[m - 1 - t];
    __syncwarp();
    if (t < m)
        s[t] = v;
    __syncwarp();
    if (t < m)
        data[base + t] = s[t];
}
