// Wrong: the left halo is loaded without checking l >= 0, so block 0 reads in[-3..-1].
#define R 3
#define B 128
extern "C" __global__ void stencil(const int *in, int *out, int n)
{
    __shared__ int tile[B + 2 * R];
    int i = blockIdx.x * B + threadIdx.x;
    int t = threadIdx.x + R;
    tile[t] = i < n ? in[i] : 0;
    if (threadIdx.x < R) {
        int l = i - R, r = i + B;
        tile[t - R] = l < n ? in[l] : 0;
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
// expect-advice: an index went below 0
