// What the prelude must provide for clang: printf, atomicAdd (int and float),
// __syncthreads, __shared__, threadIdx/blockIdx/blockDim.
extern "C" __global__ void features(int *count, float *sum, int *order)
{
    __shared__ int slot[64];
    int t = threadIdx.x;
    slot[t] = t * 2;
    __syncthreads();
    order[blockIdx.x * blockDim.x + t] = slot[blockDim.x - 1 - t];
    atomicAdd(count, 1);
    atomicAdd(sum, 0.5f);
    if (t == 0)
        printf("block %d of %d\n", (int)blockIdx.x, (int)gridDim.x);
}
