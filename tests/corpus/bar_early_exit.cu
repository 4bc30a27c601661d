// bar.sync after a divergent early exit: threads past n return before __syncthreads (exited threads do not block the barrier).
extern "C" __global__ void bar_early_exit(const int *in, int *out, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= n)
        return;
    s[t] = in[i];
    __syncthreads();
    int last = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x)) - 1;
    out[i] = s[t] - s[last - t];
}
