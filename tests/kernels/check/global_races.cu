// Global-memory races between blocks and between warps of a block (tests/race_edges.sh
// runs each spec of tests/kernels/check/race_edges/global_*.json). The simulator runs
// the blocks of these small grids at the same time, as a GPU does.

// Wrong: every block adds its count to total with a plain read-modify-write; blocks
// that load total before another block stores it lose that block's update.
extern "C" __global__ void merge_plain(const int *in, int *total)
{
    __shared__ int sum;
    if (threadIdx.x == 0)
        sum = 0;
    __syncthreads();
    atomicAdd(&sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0)
        *total += sum;
}

// Right: NVIDIA's threadFenceReduction pattern (CUDA samples): each block writes its
// partial sum, makes it visible with __threadfence(), and takes a ticket with an atomic;
// the block that takes the last ticket adds the partial sums.
extern "C" __global__ void fence_reduction(const int *in, int *partial, unsigned *ticket,
                                           int *total)
{
    __shared__ int sum;
    __shared__ bool last;
    if (threadIdx.x == 0)
        sum = 0;
    __syncthreads();
    atomicAdd(&sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
        __threadfence();
        unsigned t = atomicInc(ticket, gridDim.x);
        last = t == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int s = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            s += partial[b];
        *total = s;
    }
}

// Block 0 publishes data for block 1 through a flag. With fence = 1 it is right (data,
// __threadfence(), then the flag; block 1 polls the flag with volatile loads); with
// fence = 0 nothing orders block 0's store of data before block 1's load of it.
extern "C" __global__ void flag_publish(int *data, volatile int *flag, int *out, int fence)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 42;
        if (fence)
            __threadfence();
        *flag = 1;
    } else {
        while (*flag == 0)
            ;
        if (fence)
            __threadfence();
        out[0] = data[0];
    }
}

// Warp 1 writes out[0..31], warp 0 reads them: with barrier = 0 there is no
// __syncthreads() between the store and the load.
extern "C" __global__ void warps_share(int *out, int barrier)
{
    int t = threadIdx.x;
    if (t >= 32)
        out[t - 32] = t;
    if (barrier)
        __syncthreads();
    if (t < 32)
        out[32 + t] = out[t] + 1;
}

// Right: each block updates only its own slot, read-modify-write included.
extern "C" __global__ void own_slots(int *slots)
{
    if (threadIdx.x == 0)
        slots[blockIdx.x] += (int)blockIdx.x;
}
