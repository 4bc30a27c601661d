// Line info of code nested many levels deep in CUDA Toolkit headers (tests/test_compile.c):
// two CUB reductions share one TempStorage with no __syncthreads() between them (the race
// CUB's documentation warns of). nvcc and NVRTC interleave the two inlined reductions, and
// a header .loc whose inlined_at names another header location belongs to the call it
// was inlined from: each reduction's barrier and shared accesses stay on its own line.
#include <cub/block/block_reduce.cuh>

struct max_op {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

extern "C" __global__ void two_reductions(const int *in, int *out)
{
    typedef cub::BlockReduce<int, 64> BR;
    __shared__ typename BR::TempStorage tmp;
    const int m = BR(tmp).Reduce(in[threadIdx.x], max_op()); // expect: first
    const int s = BR(tmp).Sum(in[threadIdx.x]);              // expect: second
    if (threadIdx.x == 0) {
        out[0] = m;
        out[1] = s;
    }
}
