// Wrong: correct, but the centre element is read again from global memory (in[i]) instead of the tile: two global loads per output.
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
        tile[t - R] = l >= 0 && l < n ? in[l] : 0;
        tile[t + B] = r < n ? in[r] : 0;
    }
    __syncthreads();
    if (i < n) {
        int s = in[i];
        for (int k = -R; k <= R; k++)
            if (k != 0)
                s += tile[t + k];
        out[i] = s;
    }
}
