// Line info of Cooperative Groups (tests/test_compile.c), as lines.cu for the intrinsics:
// every instruction is on a line of this file, and the barriers and the activemasks in
// both arms of the if stay two of each, on their lines (clang's cooperative_groups.h is
// gpulearn's own, runtime/prelude/include/).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void lines_cg(int *g, unsigned *out)
{
    cg::thread_block b = cg::this_thread_block();
    int t = threadIdx.x;
    if (t < 16) {
        b.sync(); // expect: barrier A
        out[t] = cg::coalesced_threads().size(); // expect: activemask A
    } else {
        cg::sync(b); // expect: barrier B
        out[t] = cg::coalesced_threads().size(); // expect: activemask B
    }
    atomicAdd(&g[0], t); // expect: add
    atomicMax(&g[1], t); // expect: max
}
