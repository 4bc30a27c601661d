// Wrong: a shared-memory tree whose load is if (i < n) s[t] = in[i] with no else, so in a partial block the slots past n keep whatever shared memory held.
extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    if (i < n)
        s[t] = in[i];
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
