// cudaMemcpy2D is not provided by gpulearn's CUDA runtime (yet): gpulearn names it.
#include <cstdio>

int main(void)
{
    float *d;
    size_t pitch;
    cudaMallocPitch((void **)&d, &pitch, 64, 4);
    cudaMemcpy2D(d, pitch, d, pitch, 64, 4, cudaMemcpyDeviceToDevice);
    printf("not reached\n");
    return 0;
}
