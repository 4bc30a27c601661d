// Wrong: drops every input smaller than 0.001 in magnitude, the check's tolerance, on the
// theory that such a value cannot move a sum by more than that. Random inputs in
// [-10, 10] hold few of them, far apart; inputs spread over every binade down to 2^-12
// hold one in eight, and a block's prefix sums lose dozens of them at once.
#define N 256

extern "C" __global__ void block_exclusive_scan(const float *in, float *out, int n)
{
    __shared__ float s[N];
    const int t = threadIdx.x, i = blockIdx.x * N + t;
    const float x = i < n ? in[i] : 0.0f;
    s[t] = fabsf(x) < 0.001f ? 0.0f : x;
    __syncthreads();
    for (int d = N / 2, offset = 1; d > 0; d >>= 1, offset <<= 1) {
        if (t < d)
            s[offset * (2 * t + 2) - 1] += s[offset * (2 * t + 1) - 1];
        __syncthreads();
    }
    if (t == 0)
        s[N - 1] = 0.0f;
    __syncthreads();
    for (int d = 1, offset = N / 2; d < N; d <<= 1, offset >>= 1) {
        if (t < d) {
            const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            const float left = s[ai];
            s[ai] = s[bi];
            s[bi] += left;
        }
        __syncthreads();
    }
    if (i < n)
        out[i] = s[t];
}
