// Multi-block inclusive scan in one launch: block tickets via atomicAdd, each block waits (volatile spin) for its predecessor's prefix.
extern "C" __global__ void scan_multiblock_chained(const int *in, int *out, int *prefix, int *flag,
                                                   unsigned *ticket, int n)
{
    __shared__ int s[128];
    __shared__ int blk, carry;
    int t = threadIdx.x;
    if (t == 0)
        blk = atomicAdd(ticket, 1u);
    __syncthreads();
    int i = blk * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < (int)blockDim.x; off *= 2) {
        int v = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    if (t == 0) {
        int c = 0;
        if (blk > 0) {
            while (((volatile int *)flag)[blk - 1] == 0) {
            }
            __threadfence();
            c = ((volatile int *)prefix)[blk - 1];
        }
        carry = c;
        prefix[blk] = c + s[blockDim.x - 1];
        __threadfence();
        atomicExch(&flag[blk], 1);
    }
    __syncthreads();
    if (i < n)
        out[i] = s[t] + carry;
}
