// Dynamic shared memory: extern __shared__ sized at launch (dynamic_shared_bytes), carved into an int array and a double array.
extern "C" __global__ void dyn_shared(const int *in, double *out, int n)
{
    extern __shared__ int dyn[];
    int *ints = dyn;
    double *dbl = (double *)(dyn + 2 * blockDim.x);
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    ints[t] = i < n ? in[i] : 0;
    ints[blockDim.x + t] = t * t;
    __syncthreads();
    dbl[t] = ints[blockDim.x - 1 - t] * 0.5 + ints[blockDim.x + (t + 1) % blockDim.x];
    __syncthreads();
    if (i < n)
        out[i] = dbl[(t + 3) % blockDim.x] - dbl[t];
}
