// Inclusive scan within each warp by __shfl_up_sync, plus a width-8 segmented scan.
extern "C" __global__ void warp_scan(const int *in, int *out, int *seg8)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i], s = v;
    for (int d = 1; d < 32; d *= 2) {
        int t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += t;
    }
    out[i] = v;
    for (int d = 1; d < 8; d *= 2) {
        int t = __shfl_up_sync(0xffffffffu, s, d, 8);
        if ((lane & 7) >= d)
            s += t;
    }
    seg8[i] = s;
}
