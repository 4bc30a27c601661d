// A kernel that never ends (it waits for a flag nothing sets): gpulearn stops it as a
// deadlock with the loop's line, and the next synchronising call returns
// cudaErrorLaunchTimeout; the program goes on.
#include <cstdio>
__global__ void wait_for(volatile int *flag)
{
    while (flag[0] == 0) {
    }
}
int main(void)
{
    int *flag;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    wait_for<<<1, 32>>>(flag);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(flag);
    return 0;
}
