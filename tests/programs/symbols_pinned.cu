// Device addresses a program gets other than from cudaMalloc: a __device__ variable's
// from cudaGetSymbolAddress, which cudaMemcpy, cudaMemset and kernels take; pinned host
// memory (cudaMallocHost, cudaHostAlloc), which a kernel may use directly on a 64-bit
// GPU (unified virtual addressing) or through cudaHostGetDevicePointer (zero-copy, as
// "CUDA by Example" teaches it). And the error calls: cudaPeekAtLastError leaves the
// error, cudaGetLastError clears it, cudaDeviceReset ends a sticky fault.
// Its golden (symbols_pinned.stdout/.status), written first from NVIDIA's CUDA Runtime
// API documentation, is what tools/programs_gpu_record.sh recorded on an NVIDIA H200
// (driver 580.159.04, CUDA 13.0): the two agreed byte for byte.
#include <cstdio>

__device__ int table[4];

__global__ void add_table(int *p, int n)
{
    int i = threadIdx.x;
    if (i < n)
        p[i] += table[i % 4];
}

__global__ void fault(int *p)
{
    p[(size_t)1 << 30] = 1; // far past any allocation: a GPU faults too
}

int main(void)
{
    printf("cudaSetDeviceFlags: %s\n", cudaGetErrorName(cudaSetDeviceFlags(cudaDeviceMapHost)));

    int *t = NULL;
    printf("cudaGetSymbolAddress: %s\n", cudaGetErrorName(cudaGetSymbolAddress((void **)&t, table)));
    int init[4] = {1, 2, 3, 4}, back[4] = {0};
    printf("cudaMemcpy to it: %s\n",
           cudaGetErrorName(cudaMemcpy(t, init, sizeof init, cudaMemcpyHostToDevice)));
    printf("cudaMemset of it: %s\n", cudaGetErrorName(cudaMemset(t + 3, 0, sizeof(int))));
    cudaMemcpyFromSymbol(back, table, sizeof back);
    printf("table: %d %d %d %d\n", back[0], back[1], back[2], back[3]);

    int *pinned = NULL, *mapped = NULL, *dev = NULL;
    cudaMallocHost(&pinned, 8 * sizeof(int));
    cudaHostAlloc(&mapped, 8 * sizeof(int), cudaHostAllocMapped);
    for (int i = 0; i < 8; i++)
        pinned[i] = mapped[i] = 10 * i;
    add_table<<<1, 8>>>(pinned, 8);
    printf("kernel on cudaMallocHost memory: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    printf("cudaHostGetDevicePointer: %s\n",
           cudaGetErrorName(cudaHostGetDevicePointer((void **)&dev, mapped, 0)));
    add_table<<<1, 8>>>(dev, 8);
    printf("kernel on its device pointer: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    add_table<<<1, 4>>>(t, 4);
    printf("kernel on the symbol's address: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(back, t, sizeof back, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++)
        printf("%d %d%s", pinned[i], mapped[i], i == 7 ? "\n" : ", ");
    printf("table: %d %d %d %d\n", back[0], back[1], back[2], back[3]);
    int on_stack = 0;
    printf("cudaHostGetDevicePointer of a stack variable: %s\n",
           cudaGetErrorName(cudaHostGetDevicePointer((void **)&dev, &on_stack, 0)));
    cudaError_t e1 = cudaPeekAtLastError(), e2 = cudaPeekAtLastError();
    printf("cudaPeekAtLastError: %s, again %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2));
    e1 = cudaGetLastError();
    e2 = cudaGetLastError();
    printf("cudaGetLastError: %s, then %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2));
    printf("cudaHostAlloc with an unknown flag: %s\n",
           cudaGetErrorName(cudaHostAlloc(&dev, 16, 0x100)));
    cudaGetLastError();
    cudaFreeHost(pinned);
    cudaFreeHost(mapped);

    int *d = NULL;
    cudaMalloc(&d, 64);
    fault<<<1, 1>>>(d);
    printf("fault: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    printf("cudaMalloc after it: %s\n", cudaGetErrorName(cudaMalloc(&d, 64)));
    printf("cudaDeviceReset: %s\n", cudaGetErrorName(cudaDeviceReset()));
    printf("cudaMalloc after the reset: %s\n", cudaGetErrorName(cudaMalloc(&d, 64)));
    cudaFree(d);
    return 0;
}
