// Wrong: the tile holds only the original indices; every pass reads each key again
// from global memory: 33 loads of keys and values for 2 outputs per element.
#define B 256
#define WARPS (B / 32)
#define FULL 0xffffffffu

extern "C" __global__ void block_radix_sort(const unsigned *keys, const int *vals,
                                            unsigned *keys_out, int *vals_out, int n)
{
    __shared__ int sv[B];
    __shared__ int zeros[WARPS];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    int i = blockIdx.x * B + t;
    // Past the end: the largest key. It starts after every real key of the tile, and
    // stable splits keep it there, even behind real keys equal to it.
    sv[t] = i; // the original index
    __syncthreads();
    for (int bit = 0; bit < 32; bit++) {
        int idx = sv[t];
        unsigned key = idx < n ? keys[idx] : 0xffffffffu;
        int val = idx;
        bool one = (key >> bit) & 1;
        unsigned zero_lanes = __ballot_sync(FULL, !one);
        if (lane == 0)
            zeros[warp] = __popc(zero_lanes);
        __syncthreads(); // zeros are written, and every thread holds its pair
        int zeros_below = 0, total_zeros = 0;
        for (int w = 0; w < WARPS; w++) {
            zeros_below += w < warp ? zeros[w] : 0;
            total_zeros += zeros[w];
        }
        zeros_below += __popc(zero_lanes & ((1u << lane) - 1));
        int dst = one ? total_zeros + (t - zeros_below) : zeros_below;
        sv[dst] = val;
        __syncthreads(); // the pass is in place and zeros read before the next pass
    }
    if (i < n) {
        keys_out[i] = keys[sv[t]];
        vals_out[i] = vals[sv[t]];
    }
}
