// Faults for the memcheck tests (tests/test_sim_check.c). Line numbers are asserted.
extern "C" __global__ void shared_overrun(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    out[t] = s[63 - (t & 63)];
}

// A local array indexed past its end (the index comes from memory, so the array
// lives in local memory).
extern "C" __global__ void local_overrun(const int *idx, int *out)
{
    int a[8];
    for (int i = 0; i < 8; i++)
        a[i] = i * out[i];
    out[threadIdx.x] = a[idx[threadIdx.x]];
}

// Named barriers: warp 0 waits at barrier 1, the other warps at barrier 2; neither can
// ever be released.
extern "C" __global__ void two_barriers(int *out)
{
    int t = threadIdx.x;
    if (t < 32)
        asm volatile("bar.sync 1;" ::: "memory");
    else
        asm volatile("bar.sync 2;" ::: "memory");
    out[t] = t;
}

// __syncthreads() in both arms of a divergent if: released together on Volta+, but
// a synccheck warning.
extern "C" __global__ void split_barrier(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t < 16) {
        __syncthreads();
        out[t] = s[t + 16] + 1;
    } else {
        __syncthreads();
        out[t] = s[63 - t] * 3;
    }
}

// Each block's thread 0 prints its block index: the order follows the block schedule.
extern "C" __global__ void hello_blocks(int *out)
{
    if (threadIdx.x == 0) {
        printf("block %d\n", (int)blockIdx.x);
        out[blockIdx.x] = (int)blockIdx.x;
    }
}
