// Multi-block exclusive scan in one launch without inter-block waits: each block first sums all earlier segments itself.
extern "C" __global__ void scan_multiblock_redundant(const int *in, int *out, int n)
{
    __shared__ int s[64];
    __shared__ int before;
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    if (t == 0)
        before = 0;
    __syncthreads();
    int part = 0;
    for (int j = t; j < base; j += blockDim.x)
        part += in[j];
    atomicAdd(&before, part);
    s[t] = base + t < n ? in[base + t] : 0;
    __syncthreads();
    for (int off = 1; off < (int)blockDim.x; off *= 2) {
        int v = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    if (base + t < n)
        out[base + t] = before + s[t] - in[base + t];
}
