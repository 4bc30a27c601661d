// The device's properties: the simulator's modelled device (its --arch profile), the same
// bytes whether the program was compiled against gpulearn's header (clang) or the
// Toolkit's (nvcc).
#include <cstdio>

int main(void)
{
    int count = 0, dev = -1, sms = 0;
    cudaGetDeviceCount(&count);
    cudaGetDevice(&dev);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    printf("%d device(s), device %d: compute %d.%d, %d SMs (%d), warp %d, %d threads a block, "
           "%zu bytes of shared memory a block (%zu opt-in), %zu a SM, L2 %d bytes\n",
           count, dev, prop.major, prop.minor, prop.multiProcessorCount, sms, prop.warpSize,
           prop.maxThreadsPerBlock, prop.sharedMemPerBlock, prop.sharedMemPerBlockOptin,
           prop.sharedMemPerMultiprocessor, prop.l2CacheSize);
    printf("set device 1: %s\n", cudaGetErrorName(cudaSetDevice(1)));
    return 0;
}
