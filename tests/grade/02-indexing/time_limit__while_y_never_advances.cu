// Wrong: the outer loop became a while loop without its y += step, so every thread with a row loops forever.
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    while (y < h) {
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += gridDim.x * blockDim.x)
            c[y * w + x] += 2.0f * a[y * w + x];
    }
}
