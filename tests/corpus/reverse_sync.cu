// In-place reverse of each block's segment through shared memory; __syncthreads between read and write.
extern "C" __global__ void reverse_sync(int *data, int n)
{
    extern __shared__ int s[];
    int base = blockIdx.x * blockDim.x;
    int len = min((int)blockDim.x, n - base);
    int t = threadIdx.x;
    if (t < len)
        s[t] = data[base + t];
    __syncthreads();
    if (t < len)
        data[base + t] = s[len - 1 - t];
}
