// Wrong: takes each row's maximum with an integer atomicMax on the floats' bits, an order
// that is the floats' own only for values >= 0 (a negative float with a larger magnitude
// has larger bits). Rows drawn from [-50, 150] hold a positive maximum, and a row that is
// all negative only gets a smaller shift m, harmless while exp(x - m) stays finite; a
// row of negative values spread wider than 88 overflows expf, and y becomes NaN.
#define B 128
#define PER 8 // columns per thread: cols <= 1024

extern "C" __global__ void softmax_rows(const float *x, float *y, int rows, int cols)
{
    __shared__ int max_bits;
    __shared__ float warp_sum[B / 32];
    const float *row = x + (size_t)blockIdx.x * cols;
    const int lowest = -2147483647 - 1;
    float v[PER];
    if (threadIdx.x == 0)
        max_bits = lowest;
    __syncthreads();
    int mine = lowest;
    for (int k = 0; k < PER; k++) {
        const int j = threadIdx.x + k * B;
        v[k] = j < cols ? row[j] : 0.0f;
        if (j < cols)
            mine = max(mine, __float_as_int(v[k]));
    }
    atomicMax(&max_bits, mine);
    __syncthreads();
    const float m = __int_as_float(max_bits);
    float d = 0.0f;
    for (int k = 0; k < PER; k++)
        if (threadIdx.x + k * B < cols) {
            v[k] = expf(v[k] - m);
            d += v[k];
        }
    for (int off = 16; off > 0; off >>= 1)
        d += __shfl_xor_sync(0xffffffffu, d, off);
    if (threadIdx.x % 32 == 0)
        warp_sum[threadIdx.x / 32] = d;
    __syncthreads();
    d = warp_sum[0] + warp_sum[1] + warp_sum[2] + warp_sum[3];
    for (int k = 0; k < PER; k++) {
        const int j = threadIdx.x + k * B;
        if (j < cols)
            y[(size_t)blockIdx.x * cols + j] = v[k] / d;
    }
}
