// Reverse each block's 64 elements through shared memory.
// Without the barrier, a thread may read s[63 - t] before the thread that owns it
// (in another warp) has written it.
extern "C" __global__ void reverse_racy(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    out[blockIdx.x * 64 + t] = s[63 - t];
}

extern "C" __global__ void reverse_sync(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    out[blockIdx.x * 64 + t] = s[63 - t];
}
