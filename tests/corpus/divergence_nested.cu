// Nested divergence: if/else inside a data-dependent loop with break and continue, then reconvergence.
extern "C" __global__ void divergence_nested(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i], acc = 0;
    for (int k = 0; k < 40; ++k) {
        if ((v + k) % 3 == 0)
            continue;
        if (v & 1)
            acc += k * v;
        else
            acc -= k;
        if (acc > 5000 || acc < -5000)
            break;
    }
    int lane = threadIdx.x & 31;
    out[i] = (lane < 10 ? acc : -acc) + lane;
}
