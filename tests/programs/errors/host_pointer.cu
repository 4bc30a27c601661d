// A host pointer (malloc) given to a kernel: the simulator faults and says so.
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *p)
{
    p[threadIdx.x] *= 2.0f;
}

int main(void)
{
    float *h = (float *)calloc(32, sizeof(float));
    scale<<<1, 32>>>(h);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    free(h);
    return 1;
}
