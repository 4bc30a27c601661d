// The learner's code inlined into a CUDA Toolkit header's (tests/test_compile.c): CUB
// calls this functor, so nvcc and NVRTC write its .loc with an inlined_at inside CUB,
// a location gpulearn rewrites to the calling line. ptxas (the GPU back end) rejects an
// inlined_at whose location no preceding .loc used.
#include <cub/block/block_reduce.cuh>

struct max_op {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; } // expect: functor
};

extern "C" __global__ void functor(const int *in, int *out)
{
    typedef cub::BlockReduce<int, 64> BR;
    __shared__ typename BR::TempStorage tmp;
    const int m = BR(tmp).Reduce(in[threadIdx.x], max_op());
    if (threadIdx.x == 0)
        out[0] = m;
}
