// The second file of multi_vars: a __device__ variable of its own module.
__device__ int hits_b;
__global__ void bump_b() { hits_b += 10; }

void run_b() { bump_b<<<1, 1>>>(); }

int read_b()
{
    int b = 0;
    cudaMemcpyFromSymbol(&b, hits_b, sizeof b);
    return b;
}
