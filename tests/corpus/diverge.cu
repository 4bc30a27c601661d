// Divergent if/else on lane parity; both sides write.
extern "C" __global__ void diverge(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v;
    if (threadIdx.x % 2 == 0) {
        v = i * 3;
        for (int k = 0; k < (i & 3); ++k)
            v += k;
    } else {
        v = -i;
    }
    out[i] = v;
}
