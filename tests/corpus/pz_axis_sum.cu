// Puzzle "axis sum": one block per row (blockIdx.y), a shared tree reduction over the columns of that row.
#define TPB 16
extern "C" __global__ void pz_axis_sum(const int *a, int *out, int cols)
{
    __shared__ int sh[TPB];
    int r = blockIdx.y, t = threadIdx.x;
    int s = 0;
    for (int c = t; c < cols; c += TPB)
        s += a[r * cols + c];
    sh[t] = s;
    __syncthreads();
    for (int h = TPB / 2; h > 0; h /= 2) {
        if (t < h)
            sh[t] += sh[t + h];
        __syncthreads();
    }
    if (t == 0)
        out[r] = sh[0];
}
