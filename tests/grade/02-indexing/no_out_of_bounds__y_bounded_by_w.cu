// Wrong: the y loop is bounded by w instead of h, and the matrix has more columns than rows.
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < w; y += gridDim.y * blockDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += gridDim.x * blockDim.x)
            c[y * w + x] += 2.0f * a[y * w + x];
}
