// Wrong: off by one in the x loop (x <= w), so column w is visited: the next row's first element, and past the end on the last row.
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += gridDim.y * blockDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x <= w; x += gridDim.x * blockDim.x)
            c[y * w + x] += 2.0f * a[y * w + x];
}
