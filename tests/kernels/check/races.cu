// Shared-memory races for the racecheck tests (tests/test_sim_check.c). Line numbers
// are asserted by the tests: edit with care.
extern "C" __global__ void reverse_racy(const int *in, int *out)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[blockDim.x - 1 - t];
}

extern "C" __global__ void reverse_fixed(const int *in, int *out)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[blockDim.x - 1 - t];
}

// Neighbours inside one warp: lane t reads what lane t^1 wrote with no __syncwarp().
extern "C" __global__ void swap_in_warp(const int *in, int *out)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[t ^ 1];
}

// Reads of shared memory that no thread wrote: only the first half is filled.
extern "C" __global__ void half_filled(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 32)
        s[t] = t;
    __syncthreads();
    out[t] = s[t];
}

// Reads a global buffer that nothing wrote.
extern "C" __global__ void copy_in(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 2.0f;
}

// Every thread reads the slot one warp ahead, then overwrites its own, with no barrier
// between: a write-after-read hazard across warps.
extern "C" __global__ void rotate_by_a_warp(int *data)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    int v = s[(t + 32) % blockDim.x];
    s[t] = v;
    __syncthreads();
    data[t] = s[t];
}
