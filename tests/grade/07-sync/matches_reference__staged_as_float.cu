// Wrong: stages the segment in a float array, each value stored at its mirrored place.
// A float holds every integer up to 2^24 in magnitude, so values in [-100000, 100000]
// survive the round trip; 16777217, or any int near the type's extremes, comes back
// rounded.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ float s[64];
    const int t = threadIdx.x, base = blockIdx.x * 64;
    const int m = n - base < 64 ? n - base : 64;
    if (t < m)
        s[m - 1 - t] = (float)data[base + t];
    __syncthreads();
    if (t < m)
        data[base + t] = (int)s[t];
}
