// Line info of inline asm in a function of the learner's (tests/test_compile.c): nvcc and
// NVRTC write no .loc for an asm statement, so its instruction would keep the line of the
// operand computed last; it counts on the line that calls the function (clang, which
// writes no inlined_at, puts it on the asm statement).
__device__ __forceinline__ void store_volatile(int *p, int v, bool twice)
{
    asm volatile("st.volatile.global.s32 [%0], %1;" // expect: asm
                 ::"l"(p),
                 "r"(twice ? 2 * v : v) // expect: operand
                 : "memory");
}

extern "C" __global__ void asm_lines(int *out)
{
    const int t = threadIdx.x;
    store_volatile(&out[t], t, t & 1);      // expect: call A
    store_volatile(&out[t + 64], t, t & 2); // expect: call B
}
