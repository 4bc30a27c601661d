// shfl_scan kind: inclusive scans of 16-lane segments with __shfl_up_sync(width = 16), unsigned.
extern "C" __global__ void scan_shfl_width(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? in[i] : 0u;
    int seg_lane = threadIdx.x & 15;
    for (int d = 1; d < 16; d *= 2) {
        unsigned u = __shfl_up_sync(0xffffffffu, v, d, 16);
        if (seg_lane >= d)
            v += u;
    }
    if (i < n)
        out[i] = v;
}
