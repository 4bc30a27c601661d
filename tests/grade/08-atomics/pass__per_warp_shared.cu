// Right: one private histogram per warp in shared memory (less contention), summed over the 8 warps by threads 0..15 before one global atomic per bin.
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    __shared__ int local[8][16];
    int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane < 16)
        local[w][lane] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&local[w][data[i]], 1);
    __syncthreads();
    if (threadIdx.x < 16) {
        int c = 0;
        for (int k = 0; k < 8; k++)
            c += local[k][threadIdx.x];
        atomicAdd(&bins[threadIdx.x], c);
    }
}
