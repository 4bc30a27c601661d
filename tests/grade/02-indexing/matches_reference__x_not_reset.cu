// Wrong: x is declared outside the y loop, so it is not reset for the next row and each thread updates only its first row.
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += gridDim.y * blockDim.y)
        for (; x < w; x += gridDim.x * blockDim.x)
            c[y * w + x] += 2.0f * a[y * w + x];
}
