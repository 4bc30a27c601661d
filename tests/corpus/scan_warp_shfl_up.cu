// Block inclusive scan: warp scans with __shfl_up_sync, then a scan of the warp totals by warp 0.
extern "C" __global__ void scan_warp_shfl_up(const int *in, int *out, int n)
{
    __shared__ int sums[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += u;
    }
    if (lane == 31)
        sums[w] = v;
    __syncthreads();
    if (w == 0) {
        int s = lane < (int)(blockDim.x >> 5) ? sums[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, s, d);
            if (lane >= d)
                s += u;
        }
        sums[lane] = s;
    }
    __syncthreads();
    if (w > 0)
        v += sums[w - 1];
    if (i < n)
        out[i] = v;
}
