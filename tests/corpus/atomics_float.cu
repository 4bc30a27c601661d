// Float and double atomicAdd with integer-valued inputs (exact in any order), atomicExch on float per slot.
extern "C" __global__ void atomics_float(const int *in, float *fsum, double *dsum, float *slot, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicAdd(&fsum[i % 3], (float)in[i]);
    atomicAdd(&dsum[i % 2], (double)in[i] * 1024.0);
    slot[i] = atomicExch(&slot[i], (float)in[i] * 0.5f) - 1.0f;
}
