// Wrong: the row stride is h instead of w (y * h + x), so for w != h rows overlap and some elements are never updated.
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += gridDim.y * blockDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += gridDim.x * blockDim.x)
            c[y * h + x] += 2.0f * a[y * h + x];
}
