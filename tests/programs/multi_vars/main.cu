// Two .cu files, each with a __device__ variable, their kernels launched in turn: each
// file is its own module, and each variable keeps its value between the launches
// (CUDA C++ Programming Guide, "Device Memory Space Specifiers": a __device__ variable
// lives as long as the application). Prints "a 3 b 30".
#include <cstdio>

__device__ int hits_a;
__global__ void bump_a() { hits_a += 1; }

void run_b();
int read_b();

int main()
{
    for (int i = 0; i < 3; i++) {
        bump_a<<<1, 1>>>();
        run_b();
    }
    int a = 0;
    cudaMemcpyFromSymbol(&a, hits_a, sizeof a);
    printf("a %d b %d\n", a, read_b());
    return 0;
}
