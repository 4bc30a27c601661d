// Wrong: the classic unrolled last warp: once 32 partial sums are left, the first warp adds
// them in shared memory with no __syncwarp() between the steps, relying on the warp
// running in lockstep. Independent thread scheduling (Volta+) does not promise that:
// a lane may read s[t + 8] before the lane that owns it has written it.
extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int k = 128; k > 32; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) {
        volatile int *v = s;
        v[t] += v[t + 32];
        v[t] += v[t + 16];
        v[t] += v[t + 8];
        v[t] += v[t + 4];
        v[t] += v[t + 2];
        v[t] += v[t + 1];
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
// expect-advice: Lanes of warp 0 touched
// expect-advice: Put __syncwarp() after line 18 and before line 19
// expect-no-advice: __syncthreads
