// 1D indexing: every thread records its global index, block and thread ids (n not a multiple of the block).
extern "C" __global__ void idx1d(int *gid, int *bid, int *tid, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        gid[i] = i * 7 - 3;
        bid[i] = blockIdx.x + 100 * gridDim.x;
        tid[i] = threadIdx.x + 1000 * blockDim.x;
    }
}
