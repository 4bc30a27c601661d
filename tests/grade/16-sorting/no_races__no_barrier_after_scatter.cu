// Wrong: no barrier after the scatter: the next pass reads sk and sv, and lane 0
// overwrites zeros, while other warps still write and read them.
#define B 256
#define WARPS (B / 32)
#define FULL 0xffffffffu

extern "C" __global__ void block_radix_sort(const unsigned *keys, const int *vals,
                                            unsigned *keys_out, int *vals_out, int n)
{
    __shared__ unsigned sk[B];
    __shared__ int sv[B];
    __shared__ int zeros[WARPS];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    int i = blockIdx.x * B + t;
    // Past the end: the largest key. It starts after every real key of the tile, and
    // stable splits keep it there, even behind real keys equal to it.
    sk[t] = i < n ? keys[i] : 0xffffffffu;
    sv[t] = i < n ? vals[i] : 0;
    __syncthreads();
    for (int bit = 0; bit < 32; bit++) {
        unsigned key = sk[t];
        int val = sv[t];
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
        sk[dst] = key;
        sv[dst] = val;
    }
    if (i < n) {
        keys_out[i] = sk[t];
        vals_out[i] = sv[t];
    }
}
