// Exercise: partial[blockIdx.x] = sum of in[blockIdx.x * 256 .. + 255] (elements >= n
// count as 0). Blocks of 256 threads.
// The starter is correct but uses interleaved addressing: most lanes of every warp
// idle at every step. Reduce each warp with __shfl_down_sync instead, then combine
// the 8 warp sums.
extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int st = 1; st < 256; st <<= 1) {
        if (t % (2 * st) == 0)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
