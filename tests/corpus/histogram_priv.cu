// Histogram with shared-memory privatization: per-block bins with shared atomics, then one global atomic per bin.
#define BINS 37
extern "C" __global__ void histogram_priv(const unsigned *in, unsigned *hist, int n)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&hist[b], local[b]);
}
