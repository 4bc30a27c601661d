// Histograms of a 4-bit digit of 32-bit keys: bin = (key >> shift) & 15. Counting one
// digit is the first half of a radix sort pass (the digit's counts, scanned, give each
// digit's first output position).
#define BINS 16

// Lost updates: every thread reads bins[d], adds 1 and writes it back. Threads that
// read the same old value write back the same new one, and all but one update is lost.
extern "C" __global__ void hist_racy(const unsigned *keys, int *bins, int n, int shift)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        bins[(keys[i] >> shift) & (BINS - 1)]++;
}

// One global atomicAdd per key: correct, but all threads of the grid contend for the
// same 16 words, and the memory system performs the updates of one word one at a time.
extern "C" __global__ void hist_global(const unsigned *keys, int *bins, int n, int shift)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[(keys[i] >> shift) & (BINS - 1)], 1);
}

// Privatised: each block counts in its own 16 bins in shared memory (shared-memory
// atomics), then adds each non-zero bin to global memory once.
extern "C" __global__ void hist_private(const unsigned *keys, int *bins, int n, int shift)
{
    __shared__ int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads(); // the bins are zero before anyone counts
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[(keys[i] >> shift) & (BINS - 1)], 1);
    __syncthreads(); // every count is in before the block's bins are read
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&bins[b], local[b]);
}

// Privatised and warp-aggregated: __match_any_sync gives each lane the mask of lanes
// holding the same digit; the lowest of them adds __popc(mask) for all of them. A warp
// does one shared atomic per distinct digit instead of one per key.
extern "C" __global__ void hist_aggregated(const unsigned *keys, int *bins, int n, int shift)
{
    __shared__ int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    int lane = threadIdx.x % 32;
    // Every lane of a warp runs the same number of iterations (the bound is rounded up
    // to a whole warp), so that all 32 lanes take part in __match_any_sync.
    int stride = gridDim.x * blockDim.x;
    int start = blockIdx.x * blockDim.x + threadIdx.x;
    for (int base = start - lane; base < n; base += stride) {
        int i = base + lane;
        bool valid = i < n;
        unsigned d = valid ? (keys[i] >> shift) & (BINS - 1) : BINS; // BINS: no digit
        unsigned peers = __match_any_sync(0xffffffffu, d);
        if (valid && lane == __ffs(peers) - 1)
            atomicAdd(&local[d], __popc(peers));
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&bins[b], local[b]);
}
