// printf from threads: each thread says who it is.
extern "C" __global__ void hello(float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("block %d thread %d: i=%3d x=%.2f hex=%#x %s\n", (int)blockIdx.x,
           (int)threadIdx.x, i, i * scale, i * 255, i % 2 ? "odd" : "even");
}
