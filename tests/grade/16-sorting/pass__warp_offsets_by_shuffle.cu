// Right: ballot and popc as in the reference, but warp 0 scans the 8 warp counts with
// __shfl_up_sync and stores each warp's offset and the total; keys and values travel
// between two shared buffers.
#define B 256
#define WARPS (B / 32)
#define FULL 0xffffffffu

extern "C" __global__ void block_radix_sort(const unsigned *keys, const int *vals,
                                            unsigned *keys_out, int *vals_out, int n)
{
    __shared__ unsigned sk[2][B];
    __shared__ int sv[2][B];
    __shared__ int zeros[WARPS], offset[WARPS + 1];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    int i = blockIdx.x * B + t;
    sk[0][t] = i < n ? keys[i] : 0xffffffffu;
    sv[0][t] = i < n ? vals[i] : 0;
    __syncthreads();
    for (int bit = 0; bit < 32; bit++) {
        int from = bit & 1;
        unsigned key = sk[from][t];
        int val = sv[from][t];
        bool one = (key >> bit) & 1;
        unsigned zero_lanes = __ballot_sync(FULL, !one);
        if (lane == 0)
            zeros[warp] = __popc(zero_lanes);
        __syncthreads();
        if (warp == 0) {
            int z = lane < WARPS ? zeros[lane] : 0, incl = z;
            for (int off = 1; off < WARPS; off <<= 1) {
                int up = __shfl_up_sync(FULL, incl, off);
                if (lane >= off)
                    incl += up;
            }
            if (lane < WARPS)
                offset[lane] = incl - z;
            if (lane == WARPS - 1)
                offset[WARPS] = incl;
        }
        __syncthreads();
        int zeros_below = offset[warp] + __popc(zero_lanes & ((1u << lane) - 1));
        int dst = one ? offset[WARPS] + (t - zeros_below) : zeros_below;
        sk[from ^ 1][dst] = key;
        sv[from ^ 1][dst] = val;
        __syncthreads();
    }
    if (i < n) {
        keys_out[i] = sk[0][t];
        vals_out[i] = sv[0][t];
    }
}
