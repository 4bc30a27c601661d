// Reduction 2 (strided index, bank conflicts): index = 2*s*tid, float partial sums per block.
extern "C" __global__ void reduce_strided_index(const float *in, float *partial, int n)
{
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}
