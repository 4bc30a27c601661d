// Grid-stride loop: a small grid covers n elements; each element also counts which thread handled it.
extern "C" __global__ void grid_stride(const float *x, float *y, int *who, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = 2.5f * x[i] - 1.0f;
        who[i] = blockIdx.x * blockDim.x + threadIdx.x;
    }
}
