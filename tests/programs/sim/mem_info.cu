// cudaMemGetInfo on the simulator's modelled device (80 GiB, as cudaGetDeviceProperties'
// totalGlobalMem): free memory falls by what cudaMalloc and cudaMallocManaged hold and
// comes back with cudaFree. And cudaStreamWaitEvent: one stream waits for an event
// recorded in another (streams run in order here, so it has happened).
#include <cstdio>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
__global__ void inc(int *p) { p[threadIdx.x] += 1; }

int main(void)
{
    size_t free0, total, free1, free2;
    cudaMemGetInfo(&free0, &total);
    int *d, *m;
    cudaMalloc(&d, 1 << 20);
    cudaMallocManaged(&m, 4096);
    cudaMemGetInfo(&free1, &total);
    cudaFree(d);
    cudaMemGetInfo(&free2, &total);
    printf("total %zu MiB, used by 1 MiB + 4 KiB: %zu bytes, after cudaFree: %zu bytes\n",
           total >> 20, free0 - free1, free0 - free2);
    printf("cudaMemGetInfo(NULL, ...): %s\n", cudaGetErrorName(cudaMemGetInfo(NULL, &total)));
    cudaGetLastError();

    cudaStream_t a, b;
    cudaEvent_t done;
    cudaStreamCreate(&a);
    cudaStreamCreate(&b);
    cudaEventCreate(&done);
    fill<<<1, 32, 0, a>>>(m, 7);
    cudaEventRecord(done, a);
    printf("cudaStreamWaitEvent: %s\n", cudaGetErrorName(cudaStreamWaitEvent(b, done, 0)));
    inc<<<1, 32, 0, b>>>(m); // after a's fill: the event orders them
    cudaStreamSynchronize(b);
    printf("m[31] = %d\n", m[31]);
    printf("an unknown flag: %s\n", cudaGetErrorName(cudaStreamWaitEvent(b, done, 4)));
    cudaEventDestroy(done);
    cudaStreamDestroy(a);
    cudaStreamDestroy(b);
    cudaFree(m);
    return 0;
}
