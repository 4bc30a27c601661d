// Every thread prints who it is: its block, its place in the block, its global index.
extern "C" __global__ void hello()
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("block %d, thread %d: global index %d\n", blockIdx.x, threadIdx.x, i);
}
