// Reduction 3 (sequential addressing): s halves from blockDim/2, tid < s adds sdata[tid + s]; float partials.
extern "C" __global__ void reduce_sequential(const float *in, float *partial, int n)
{
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}
