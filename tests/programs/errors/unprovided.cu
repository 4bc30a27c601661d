// CUDA graphs are not provided by gpulearn's CUDA runtime (yet): gpulearn names the call.
#include <cstdio>

int main(void)
{
    cudaGraphCreate(0, 0);
    printf("not reached\n");
    return 0;
}
