// Right, without warp votes: each pass scans the 256 "bit is 0" flags in shared memory
// (Hillis-Steele, two buffers); the exclusive scan is each key's rank among the zeros.
#define B 256

extern "C" __global__ void block_radix_sort(const unsigned *keys, const int *vals,
                                            unsigned *keys_out, int *vals_out, int n)
{
    __shared__ unsigned sk[B];
    __shared__ int sv[B];
    __shared__ int scan[2][B];
    int t = threadIdx.x;
    int i = blockIdx.x * B + t;
    sk[t] = i < n ? keys[i] : 0xffffffffu;
    sv[t] = i < n ? vals[i] : 0;
    __syncthreads();
    for (int bit = 0; bit < 32; bit++) {
        unsigned key = sk[t];
        int val = sv[t];
        int zero = !((key >> bit) & 1);
        int cur = 0;
        scan[cur][t] = zero;
        __syncthreads();
        for (int off = 1; off < B; off <<= 1) {
            int v = scan[cur][t] + (t >= off ? scan[cur][t - off] : 0);
            cur ^= 1;
            scan[cur][t] = v;
            __syncthreads();
        }
        int zeros_below = scan[cur][t] - zero; // inclusive to exclusive
        int total_zeros = scan[cur][B - 1];
        int dst = zero ? zeros_below : total_zeros + (t - zeros_below);
        __syncthreads(); // every thread read the scan before the next pass writes it
        sk[dst] = key;
        sv[dst] = val;
        __syncthreads();
    }
    if (i < n) {
        keys_out[i] = sk[t];
        vals_out[i] = sv[t];
    }
}
