// Right: the loops are nested the other way round (x outer, y inner).
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    int sx = gridDim.x * blockDim.x, sy = gridDim.y * blockDim.y;
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += sx)
        for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += sy)
            c[y * w + x] = c[y * w + x] + a[y * w + x] * 2.0f;
}
