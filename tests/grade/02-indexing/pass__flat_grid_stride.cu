// Right: one flat grid-stride loop over the w * h elements, with a linear thread id built from both block and thread indices.
extern "C" __global__ void add2d(const float *a, float *c, int w, int h)
{
    int threads = blockDim.x * blockDim.y;
    int tid = (blockIdx.y * gridDim.x + blockIdx.x) * threads + threadIdx.y * blockDim.x + threadIdx.x;
    int stride = gridDim.x * gridDim.y * threads;
    for (int k = tid; k < w * h; k += stride)
        c[k] += 2.0f * a[k];
}
