// Wrong: one-block thinking, the left halo is always set to 0 (true only at the start of the array), so every block after the first misses its left neighbours.
#define R 3
#define B 128
extern "C" __global__ void stencil(const int *in, int *out, int n)
{
    __shared__ int tile[B + 2 * R];
    int i = blockIdx.x * B + threadIdx.x;
    int t = threadIdx.x + R;
    tile[t] = i < n ? in[i] : 0;
    if (threadIdx.x < R) {
        int r = i + B;
        tile[t - R] = 0;
        tile[t + B] = r < n ? in[r] : 0;
    }
    __syncthreads();
    if (i < n) {
        int s = 0;
        for (int k = -R; k <= R; k++)
            s += tile[t + k];
        out[i] = s;
    }
}
