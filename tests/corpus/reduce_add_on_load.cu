// Reduction 4 (first add during load): each thread loads two elements blockDim apart; sequential addressing after.
extern "C" __global__ void reduce_add_on_load(const int *in, long long *partial, int n)
{
    __shared__ long long sdata[128];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + tid;
    long long v = i < n ? in[i] : 0;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}
