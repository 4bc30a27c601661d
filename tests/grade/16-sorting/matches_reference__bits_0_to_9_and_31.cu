// Wrong: splits only on bits 0-9 and 31, "the bits the keys vary in". Keys drawn from
// 2^31 - 512 to 2^31 + 511 differ nowhere else, so 11 passes look like 32; keys that
// differ in bits 10-30 (the whole range of u32, or a part of the bit-range inputs that
// varies bits 16-23) keep their input order.
#define B 256
#define WARPS (B / 32)

extern "C" __global__ void block_radix_sort(const unsigned *keys, const int *vals,
                                            unsigned *keys_out, int *vals_out, int n)
{
    __shared__ unsigned sk[B];
    __shared__ int sv[B];
    __shared__ int warp_zeros[WARPS];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const int i = blockIdx.x * B + t;
    sk[t] = i < n ? keys[i] : ~0u;
    sv[t] = i < n ? vals[i] : 0;
    __syncthreads();
    for (int bit = 0; bit < 32; bit = bit == 9 ? 31 : bit + 1) {
        const unsigned key = sk[t];
        const int val = sv[t];
        const int zero = ((key >> bit) & 1u) == 0;
        const unsigned mask = __ballot_sync(0xffffffffu, zero);
        if (lane == 0)
            warp_zeros[warp] = __popc(mask);
        __syncthreads();
        int before = __popc(mask & ((1u << lane) - 1u)), total = 0;
        for (int w = 0; w < WARPS; w++) {
            before += w < warp ? warp_zeros[w] : 0;
            total += warp_zeros[w];
        }
        const int dst = zero ? before : total + t - before;
        __syncthreads();
        sk[dst] = key;
        sv[dst] = val;
        __syncthreads();
    }
    if (i < n) {
        keys_out[i] = sk[t];
        vals_out[i] = sv[t];
    }
}
