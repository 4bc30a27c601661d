// cp.async's destination read before the copy completed (Needs CUDA headers (nvcc)).
extern "C" __global__ void cp_async_early(const int *in, int *out, int early)
{
    __shared__ int buf[64];
    const unsigned sa = (unsigned)__cvta_generic_to_shared(&buf[threadIdx.x]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(sa), "l"(in + threadIdx.x));
    asm volatile("cp.async.commit_group;");
    int v = 0;
    if (early)
        v = ((volatile int *)buf)[threadIdx.x]; // before the wait: a race
    __syncthreads();
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[threadIdx.x] = buf[threadIdx.x] + v;
}
