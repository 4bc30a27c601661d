// A device-side assert() that fails in thread 40 (tests/cli.sh): the kernel stops with
// the condition, the line and the thread, with every compiler.
#include <assert.h>
extern "C" __global__ void check_zero(const int *in, int *out)
{
    assert(in[threadIdx.x] == 0 || threadIdx.x < 40);
    out[threadIdx.x] = in[threadIdx.x] + 1;
}
