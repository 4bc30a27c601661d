// CUB's device-wide algorithms in a kernel file (tests/test_compile.c): host code, which
// NVRTC does not compile; its error says so before the compiler's own.
#include <cub/device/device_reduce.cuh>

extern "C" __global__ void nothing(int *out)
{
    out[threadIdx.x] = 0;
}
