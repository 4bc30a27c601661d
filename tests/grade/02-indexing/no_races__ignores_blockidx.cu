// Wrong: one-block-only code, with loops starting at threadIdx and stepping by blockDim, so each of the 4 blocks updates every element (4 times in all).
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    for (int y = threadIdx.y; y < h; y += blockDim.y)
        for (int x = threadIdx.x; x < w; x += blockDim.x)
            c[y * w + x] += 2.0f * a[y * w + x];
}
// expect-advice: let each block own the elements it writes (index them with blockIdx)
