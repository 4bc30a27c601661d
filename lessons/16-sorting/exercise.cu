// Exercise: sort each tile of B = 256 (key, value) pairs by key, unsigned, ascending,
// and stable (equal keys keep their order, so their values stay in input order).
// Block b sorts elements b * B .. b * B + B - 1 (those below n) in place: keys_out and
// vals_out hold the sorted tile at the same positions.
//
// The starter does one split by bit 0, within each warp: __ballot_sync tells every lane
// which lanes hold a 0 bit, and __popc of those below it is its rank among the zeros.
// Make the split block-wide (count each warp's zeros in shared memory: a warp's zeros go
// after the zeros of the warps before it, the ones after all zeros), keep the tile in
// shared memory, and repeat it for bits 0 to 31 (least significant first).
#define B 256
#define FULL 0xffffffffu

extern "C" __global__ void block_radix_sort(const unsigned *keys, const int *vals,
                                            unsigned *keys_out, int *vals_out, int n)
{
    int t = threadIdx.x, lane = t % 32;
    int i = blockIdx.x * B + t;
    // Past the end: the largest key, so that it sorts after the real keys.
    unsigned key = i < n ? keys[i] : 0xffffffffu;
    int val = i < n ? vals[i] : 0;
    bool one = key & 1;
    unsigned zero_lanes = __ballot_sync(FULL, !one);
    int zeros_below = __popc(zero_lanes & ((1u << lane) - 1));
    int dst = one ? __popc(zero_lanes) + (lane - zeros_below) : zeros_below;
    if (i < n) {
        keys_out[blockIdx.x * B + (t - lane) + dst] = key;
        vals_out[blockIdx.x * B + (t - lane) + dst] = val;
    }
}
