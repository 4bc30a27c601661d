// Reduction 1 (interleaved addressing, divergent): tid % (2*s) == 0 adds sdata[tid + s]; one partial per block.
extern "C" __global__ void reduce_interleaved(const int *in, int *partial, int n)
{
    __shared__ int sdata[128];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}
