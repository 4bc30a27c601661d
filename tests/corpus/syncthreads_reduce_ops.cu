// __syncthreads_count/_and/_or (bar.red.popc/and/or) on data-dependent predicates, per block.
extern "C" __global__ void syncthreads_reduce_ops(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int c = __syncthreads_count(v > 0);
    int a = __syncthreads_and(v > -950);
    int o = __syncthreads_or(v > 990);
    if (threadIdx.x == 0) {
        out[blockIdx.x * 3 + 0] = c;
        out[blockIdx.x * 3 + 1] = a;
        out[blockIdx.x * 3 + 2] = o;
    }
}
