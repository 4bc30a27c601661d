// histogram256 kind: bytes packed four to a u32, per-warp sub-histograms in shared memory, merged per block into global bins.
#define WARPS 4
extern "C" __global__ void histogram256(const unsigned *words, unsigned *hist, int nwords)
{
    __shared__ unsigned sub[WARPS][256];
    int w = threadIdx.x / 32;
    for (int b = threadIdx.x; b < WARPS * 256; b += blockDim.x)
        (&sub[0][0])[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += gridDim.x * blockDim.x) {
        unsigned d = words[i];
        atomicAdd(&sub[w][d & 0xff], 1u);
        atomicAdd(&sub[w][(d >> 8) & 0xff], 1u);
        atomicAdd(&sub[w][(d >> 16) & 0xff], 1u);
        atomicAdd(&sub[w][d >> 24], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        unsigned s = 0;
        for (int k = 0; k < WARPS; ++k)
            s += sub[k][b];
        atomicAdd(&hist[b], s);
    }
}
