// cudaFree of a pointer cudaMalloc did not return, or returned and was freed already:
// each is refused with cudaErrorInvalidValue (CUDA Runtime API §6.10 cudaFree: "an error
// is returned"), which is not sticky: the allocation still in use stays usable.
#include <cstdio>
#include <cstdlib>

static const char *name(cudaError_t e)
{
    cudaGetLastError(); /* each call on its own */
    return cudaGetErrorName(e);
}

int main(void)
{
    int *d, *kept, *pinned, local = 0;
    int *h = (int *)malloc(64);
    cudaMalloc(&d, 256);
    cudaMalloc(&kept, 256);
    printf("cudaFree(d): %s\n", name(cudaFree(d)));
    printf("cudaFree(d) again: %s\n", name(cudaFree(d)));
    printf("cudaFree(kept + 1): %s\n", name(cudaFree(kept + 1)));
    printf("cudaFree(malloc'd): %s\n", name(cudaFree(h)));
    printf("cudaFree(&local): %s\n", name(cudaFree(&local)));
    cudaMallocHost(&pinned, 64);
    printf("cudaFree(cudaMallocHost'd): %s\n", name(cudaFree(pinned)));
    printf("cudaFreeHost(pinned): %s\n", name(cudaFreeHost(pinned)));
    printf("cudaFree(NULL): %s\n", name(cudaFree(NULL)));
    int v = 7, back = 0;
    cudaMemcpy(kept, &v, sizeof v, cudaMemcpyHostToDevice);
    cudaMemcpy(&back, kept, sizeof back, cudaMemcpyDeviceToHost);
    printf("kept still holds %d; cudaFree(kept): %s\n", back, name(cudaFree(kept)));
    free(h);
    return 0;
}
