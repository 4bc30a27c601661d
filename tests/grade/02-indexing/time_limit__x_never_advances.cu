// Wrong: the x step is gridDim.x * (blockDim.x / 32), which is 0 for blocks of 16:
// the inner loop never ends.
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += gridDim.y * blockDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += gridDim.x * (blockDim.x / 32))
            c[y * w + x] += 2.0f * a[y * w + x];
}
