// Shared-memory float and double atomicAdd (atom.shared.add.f32/.f64) on exact binary fractions, so any order gives the same sum.
extern "C" __global__ void atomics_shared_float(const int *in, float *fo, double *dout, int n)
{
    __shared__ float fs[4];
    __shared__ double ds[2];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 4) fs[t] = 0.25f * t;
    if (t < 2) ds[t] = -1.5 * t;
    __syncthreads();
    if (i < n) {
        atomicAdd(&fs[t & 3], (float)in[i] * 0.125f);
        atomicAdd(&ds[t & 1], (double)in[i] * 0.0625);
    }
    __syncthreads();
    if (t < 4) fo[blockIdx.x * 4 + t] = fs[t];
    if (t < 2) dout[blockIdx.x * 2 + t] = ds[t];
}
