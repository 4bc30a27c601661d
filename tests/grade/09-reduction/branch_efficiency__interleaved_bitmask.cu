// Wrong: correct, but still interleaved addressing, with the modulo written as a bit mask ((t & (2 * st - 1)) == 0): most lanes of every warp still idle at each step.
extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int st = 1; st < 256; st <<= 1) {
        if ((t & (2 * st - 1)) == 0)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
