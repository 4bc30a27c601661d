// No guard: with 1000 elements and 4 blocks of 256 threads, threads 1000..1023 write
// past the end of out.
extern "C" __global__ void fill(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i;
}
