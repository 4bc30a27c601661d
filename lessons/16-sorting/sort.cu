// Radix sort within a block. A 1-bit split moves the keys whose bit is 0 before those
// whose bit is 1 and keeps the order within each group (stable); repeating it for bit
// 0, 1, ..., 31 sorts (least significant digit first: each pass keeps the order of the
// ones before it among equal digits).
#define B 256
#define WARPS (B / 32)
#define FULL 0xffffffffu

// The lanes below this one: the bits of lanes 0 .. lane-1 (PTX %lanemask_lt).
__device__ unsigned lanes_below(void)
{
    return (1u << (threadIdx.x % 32)) - 1u;
}

// One stable split of B (key, value) pairs by bit `bit`, one block. Each warp learns
// which of its lanes hold a 0 with one __ballot_sync; a lane's rank among its warp's
// zeros is __popc of the zero lanes below it. The warps' zero counts, scanned, give each
// warp's first position.
extern "C" __global__ void split_bit(const unsigned *keys, const int *vals, unsigned *keys_out,
                                     int *vals_out, int bit)
{
    __shared__ int zeros[WARPS];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    unsigned key = keys[t];
    bool one = (key >> bit) & 1;
    unsigned zero_lanes = __ballot_sync(FULL, !one);
    if (lane == 0)
        zeros[warp] = __popc(zero_lanes);
    __syncthreads();
    int zeros_before = 0, total_zeros = 0; // in warps before this one; in the block
    for (int w = 0; w < WARPS; w++) {
        zeros_before += w < warp ? zeros[w] : 0;
        total_zeros += zeros[w];
    }
    int zeros_below = zeros_before + __popc(zero_lanes & lanes_below());
    // A one goes after every zero and after the ones of the threads below it.
    int dst = one ? total_zeros + (t - zeros_below) : zeros_below;
    keys_out[dst] = key;
    vals_out[dst] = vals[t];
}

// LSD radix sort of B keys by 4-bit digits: 8 passes of a counting sort in shared memory.
// __match_any_sync gives each lane the lanes of its warp with the same digit: their
// number is the warp's count of that digit (a histogram, written by the lowest such
// lane), and those below it give its rank. The counts, scanned digit by digit and warp
// by warp, give the position of each (digit, warp) group.
extern "C" __global__ void radix_sort_block(const unsigned *keys, unsigned *keys_out)
{
    __shared__ unsigned s[B];
    __shared__ int count[16][WARPS]; // keys of digit d in warp w; then their first position
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    s[t] = keys[t];
    for (int shift = 0; shift < 32; shift += 4) {
        for (int c = t; c < 16 * WARPS; c += B)
            count[c / WARPS][c % WARPS] = 0;
        __syncthreads(); // s is written and count zeroed
        unsigned key = s[t], d = (key >> shift) & 15;
        unsigned peers = __match_any_sync(FULL, d);
        if (lane == __ffs(peers) - 1)
            count[d][warp] = __popc(peers);
        __syncthreads();
        if (t == 0) { // exclusive scan of the 16 x WARPS counts, digit-major
            int sum = 0;
            for (int c = 0; c < 16 * WARPS; c++) {
                int k = count[c / WARPS][c % WARPS];
                count[c / WARPS][c % WARPS] = sum;
                sum += k;
            }
        }
        __syncthreads();
        s[count[d][warp] + __popc(peers & lanes_below())] = key;
        __syncthreads(); // every key is in place and count read before the next pass
    }
    keys_out[t] = s[t];
}
