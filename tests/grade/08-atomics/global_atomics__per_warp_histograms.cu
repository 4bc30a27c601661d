// Wrong: correct, but each warp keeps its own private histogram and merges it into global memory itself: 8 warps x 16 bins = 128 global atomics per block instead of 16.
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    __shared__ int local[8][16];
    int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane < 16)
        local[w][lane] = 0;
    __syncwarp();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&local[w][data[i]], 1);
    __syncwarp();
    if (lane < 16)
        atomicAdd(&bins[lane], local[w][lane]);
}
