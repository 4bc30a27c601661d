// Wrong: each key takes the next free position of its group from a shared-memory
// atomicAdd. The order of the atomics is the order threads happen to run in, so equal
// keys (and the values with them) may swap: the split is not stable.
#define B 256
#define WARPS (B / 32)
#define FULL 0xffffffffu

extern "C" __global__ void block_radix_sort(const unsigned *keys, const int *vals,
                                            unsigned *keys_out, int *vals_out, int n)
{
    __shared__ unsigned sk[B];
    __shared__ int sv[B];
    __shared__ int next[2], total_zeros;
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
        if (t == 0)
            next[0] = next[1] = total_zeros = 0;
        __syncthreads();
        if (!one)
            atomicAdd(&total_zeros, 1);
        __syncthreads(); // zeros are written, and every thread holds its pair
        int dst = atomicAdd(&next[one], 1) + (one ? total_zeros : 0);
        sk[dst] = key;
        sv[dst] = val;
        __syncthreads(); // the pass is in place and zeros read before the next pass
    }
    if (i < n) {
        keys_out[i] = sk[t];
        vals_out[i] = sv[t];
    }
}
