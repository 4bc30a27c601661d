// Shuffles and ballots inside a divergent branch with the matching partial mask (lanes 0-15 only), __activemask outside divergence, __syncwarp(mask).
extern "C" __global__ void shfl_partial_mask(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int v = in[i];
    unsigned full = __activemask();
    int r = -1;
    unsigned b = 0;
    if (lane < 16) {
        r = __shfl_down_sync(0x0000ffffu, v, 1, 16) + __shfl_sync(0x0000ffffu, v, 15 - lane);
        b = __ballot_sync(0x0000ffffu, v > 0);
        __syncwarp(0x0000ffffu);
    }
    out[i * 3 + 0] = r;
    out[i * 3 + 1] = (int)b;
    out[i * 3 + 2] = (int)full;
}
