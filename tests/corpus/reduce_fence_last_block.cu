// threadFenceReduction kind: per-block partials, __threadfence, atomicInc ticket; the last block sums the partials in order.
extern "C" __global__ void reduce_fence_last_block(const float *in, float *partial, float *total,
                                                   unsigned *ticket, int n)
{
    __shared__ float sdata[128];
    __shared__ bool last;
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 64; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = sdata[0];
        __threadfence();
        last = atomicInc(ticket, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && tid == 0) {
        float t = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b)
            t += ((volatile float *)partial)[b];
        *total = t;
    }
}
