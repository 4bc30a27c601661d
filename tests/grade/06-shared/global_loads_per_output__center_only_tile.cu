// Wrong: correct, but only the centre element comes from the tile: the 6 neighbours are
// still read from global memory by every thread.
#define R 3
extern "C" __global__ void stencil(const int *in, int *out, int n)
{
    __shared__ int tile[128];
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (i >= n)
        return;
    int s = tile[threadIdx.x];
    for (int k = -R; k <= R; k++)
        if (k != 0 && i + k >= 0 && i + k < n)
            s += in[i + k];
    out[i] = s;
}
