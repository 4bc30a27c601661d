// Right: the right halo is loaded by the last three threads (tile[t + R] = in[i + R]) instead of by the first three.
#define R 3
#define B 128
extern "C" __global__ void stencil(const int *in, int *out, int n)
{
    __shared__ int tile[B + 2 * R];
    int i = blockIdx.x * B + threadIdx.x;
    int t = threadIdx.x + R;
    tile[t] = i < n ? in[i] : 0;
    if (threadIdx.x < R)
        tile[t - R] = i - R >= 0 && i - R < n ? in[i - R] : 0;
    if (threadIdx.x >= B - R)
        tile[t + R] = i + R < n ? in[i + R] : 0;
    __syncthreads();
    if (i < n) {
        int s = 0;
        for (int k = -R; k <= R; k++)
            s += tile[t + k];
        out[i] = s;
    }
}
