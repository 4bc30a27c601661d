// In a 2D block, warps are made of consecutive linear thread ids
// t = threadIdx.x + threadIdx.y * blockDim.x. Each thread writes its linear id and
// its warp into the element of its (x, y) position.
extern "C" __global__ void warps2d(int *linear, int *warp)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int w = gridDim.x * blockDim.x;
    linear[y * w + x] = t;
    warp[y * w + x] = t / 32;
}
