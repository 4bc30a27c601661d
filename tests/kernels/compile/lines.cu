// Line info of intrinsics (tests/test_compile.c): every instruction is on a line of this
// file, the atomics and barriers on the lines that call them, and the barriers in both
// arms of the if stay two barriers (synccheck reports such code).
extern "C" __global__ void lines(int *g, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 16) {
        __syncthreads(); // expect: barrier A
        out[t] = s[t + 16];
    } else {
        __syncthreads(); // expect: barrier B
        out[t] = s[63 - t];
    }
    atomicAdd(&g[0], t); // expect: add
    atomicMax(&g[1], t); // expect: max
}
