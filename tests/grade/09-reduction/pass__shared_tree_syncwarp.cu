// Right, and unlike the reference: a shared-memory tree, the last warp with a
// __syncwarp() between its reads and its writes at every step.
extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int k = 128; k > 32; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) {
        int v = s[t];
        for (int k = 32; k > 0; k >>= 1) {
            v += s[t + k];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
