// A grid-stride loop: the grid is smaller than the array, so each thread handles
// elements i, i + stride, i + 2 * stride, ... where stride is the number of threads
// in the grid. owner[j] records which thread wrote element j.
extern "C" __global__ void grid_stride(int *owner, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        owner[i] = blockIdx.x * blockDim.x + threadIdx.x;
}
