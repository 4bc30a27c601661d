// Right: 8 passes of 4-bit digits. __match_any_sync gives each lane the lanes of its
// warp with the same digit: their number is the warp's count of that digit, those
// below the lane its rank. The 16 x 8 counts, scanned digit-major, place each group.
#define B 256
#define WARPS (B / 32)
#define FULL 0xffffffffu

extern "C" __global__ void block_radix_sort(const unsigned *keys, const int *vals,
                                            unsigned *keys_out, int *vals_out, int n)
{
    __shared__ unsigned sk[B];
    __shared__ int sv[B];
    __shared__ int count[16 * WARPS]; // [digit][warp]
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    int i = blockIdx.x * B + t;
    sk[t] = i < n ? keys[i] : 0xffffffffu;
    sv[t] = i < n ? vals[i] : 0;
    for (int shift = 0; shift < 32; shift += 4) {
        if (t < 16 * WARPS)
            count[t] = 0;
        __syncthreads();
        unsigned key = sk[t], d = (key >> shift) & 15;
        int val = sv[t];
        unsigned peers = __match_any_sync(FULL, d);
        if (lane == __ffs(peers) - 1)
            count[d * WARPS + warp] = __popc(peers);
        __syncthreads();
        if (t < 32) { // warp 0 scans the 128 counts, 4 per lane, with shuffles
            int c[4], sum = 0;
            for (int k = 0; k < 4; k++) {
                c[k] = count[4 * t + k];
                sum += c[k];
            }
            int incl = sum;
            for (int off = 1; off < 32; off <<= 1) {
                int up = __shfl_up_sync(FULL, incl, off);
                if (t >= off)
                    incl += up;
            }
            int run = incl - sum;
            for (int k = 0; k < 4; k++) {
                count[4 * t + k] = run;
                run += c[k];
            }
        }
        __syncthreads();
        int dst = count[d * WARPS + warp] + __popc(peers & ((1u << lane) - 1));
        sk[dst] = key;
        sv[dst] = val;
        __syncthreads();
    }
    if (i < n) {
        keys_out[i] = sk[t];
        vals_out[i] = sv[t];
    }
}
