// Right: warp-aggregated counting; for each value the warp takes a __ballot_sync of the lanes holding it, and lane 0 adds the __popc of the mask to the private histogram.
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    __shared__ int local[16];
    if (threadIdx.x < 16)
        local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? data[i] : -1;
    for (int b = 0; b < 16; b++) {
        unsigned m = __ballot_sync(0xffffffffu, v == b);
        if (threadIdx.x % 32 == 0 && m)
            atomicAdd(&local[b], __popc(m));
    }
    __syncthreads();
    if (threadIdx.x < 16 && local[threadIdx.x] != 0)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
