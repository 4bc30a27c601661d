// cp.async as CUDA C++ writes it: the cuda_pipeline.h primitives (__pipeline_memcpy_async,
// __pipeline_commit, __pipeline_wait_prior) and cuda::memcpy_async with a cuda::barrier
// (libcu++: mbarrier plus cp.async.mbarrier.arrive). PTX ISA §9.7.9.25, §9.7.13.15.
#include <cuda_pipeline.h>
#include <cuda/barrier>
// a __shared__ cuda::barrier is initialised by init(), not by its constructor (CUDA C++
// Programming Guide, "Asynchronous Barrier"), as the guide's examples say to the compiler
#pragma nv_diag_suppress static_var_with_dynamic_init

extern "C" __global__ void pipeline_prim(const float4 *in, float *out, int tiles)
{
    __shared__ float4 buf[2][64];
    int t = threadIdx.x;
    float acc = 0;
    __pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(float4));
    __pipeline_commit();
    for (int i = 0; i < tiles; i++) {
        if (i + 1 < tiles)
            __pipeline_memcpy_async(&buf[(i + 1) & 1][t], &in[(i + 1) * 64 + t], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = buf[i & 1][63 - t];
        acc += v.x - v.y * 0.5f + v.z * 0.25f - v.w;
        __syncthreads();
    }
    out[t] = acc;
}

extern "C" __global__ void memcpy_async_barrier(const int *in, int *out, int n)
{
    __shared__ int buf[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * n + threadIdx.x], sizeof(int), bar);
    bar.arrive_and_wait();
    out[blockIdx.x * n + threadIdx.x] = buf[n - 1 - threadIdx.x] - buf[threadIdx.x];
}
