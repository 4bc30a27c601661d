// CUB through its umbrella header, as courses write it (tests/test_compile.c): NVRTC
// takes <cub/cub.cuh> (gpulearn's stand-in without the device-wide algorithms, which are
// host code) and gives no warning of gpulearn's own (libcu++'s INFINITY and NAN over the
// prelude's math.h); nvcc takes CUB's own; clang says CUB is not available with it.
#include <cub/cub.cuh>

extern "C" __global__ void block_sum(const float *in, float *out)
{
    typedef cub::BlockReduce<float, 64> BR;
    __shared__ typename BR::TempStorage tmp;
    const float s = BR(tmp).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0)
        out[0] = s < INFINITY ? s : NAN;
}
