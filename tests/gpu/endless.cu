// Spins until flag[0] becomes nonzero, which nothing does: an endless loop that the GPU
// worker's time limit must stop (tests/test_gpu.c). volatile keeps the load in the loop.
extern "C" __global__ void endless(volatile int *flag, int *out)
{
    while (flag[0] == 0) {
    }
    out[threadIdx.x] = 1;
}
