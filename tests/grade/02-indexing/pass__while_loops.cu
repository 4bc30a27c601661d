// Right: while loops with explicit steps, and the row offset kept in a variable.
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    while (y < h) {
        int row = y * w;
        int x = blockIdx.x * blockDim.x + threadIdx.x;
        while (x < w) {
            c[row + x] += a[row + x] + a[row + x];
            x += gridDim.x * blockDim.x;
        }
        y += gridDim.y * blockDim.y;
    }
}
