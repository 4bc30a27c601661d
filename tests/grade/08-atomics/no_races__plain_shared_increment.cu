// Wrong: the private histogram is incremented with a plain local[v]++ instead of atomicAdd, so threads with the same value race on it.
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    __shared__ int local[16];
    if (threadIdx.x < 16)
        local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        local[data[i]]++;
    __syncthreads();
    if (threadIdx.x < 16 && local[threadIdx.x] != 0)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
// expect-advice: Several threads write local[
// expect-advice:  at line 10. If each adds to it (x += v), make that one atomic
