// Wrong: the barrier is inside if (i < n), a branch that is not uniform in a partial last block: threads past n skip it.
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
    if (i < n) {
        __syncthreads();
        int s = 0;
        for (int k = -R; k <= R; k++)
            s += tile[t + k];
        out[i] = s;
    }
}
// expect-advice: skipped the branch or loop that holds it
