// Where warps wait when a launch hits the step limit, and atomics on memory nothing
// wrote (test_sim_check.c). Line numbers are asserted there.
extern "C" __global__ void spin_past_barrier(volatile int *flag)
{
    if (threadIdx.x < 32)
        __syncthreads();
    else
        while (flag[0] == 0)
            ;
}

extern "C" __global__ void atomic_uninit(int *out)
{
    __shared__ int s[64];
    atomicAdd(&s[threadIdx.x], 1);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
