// PTX `{ }` blocks scope their declarations (PTX ISA §9.7.12.1). The compilers write
// __syncthreads_or/_and/_count as blocks that declare a predicate of their own (NVRTC
// and nvcc: %p1, the name of the kernel's first predicate; clang: p, q), and the inline
// asm below adds blocks whose registers reuse the kernel's names (%p1, %r1), a block
// nested in another, and sibling blocks with the same label (the loop is unrolled).
// Fixtures: nvrtc, nvcc, clang (tools/gen_ptx_fixtures.sh).
// Thread t of 64, n = 40, in[t] = t: out[t] = v + 100 (v > 20) + 2 * 1003
// + 100000 * or + 200000 * and + 1000000 * count, v = in[t], for t < n.
extern "C" __global__ void scoped_blocks(const int *in, int *out, int n)
{
    int t = threadIdx.x;
    int v = t < n ? in[t] : 0;
    int o = __syncthreads_or(v & 1);
    int a = __syncthreads_and(v < 100);
    int c = __syncthreads_count(v > 10);
    int r;
    asm("{\n\t.reg .pred %%p1;\n\t.reg .b32 %%r1;\n\tsetp.gt.s32 %%p1, %1, 20;\n"
        "\tselp.b32 %%r1, 100, 0, %%p1;\n\tadd.s32 %0, %1, %%r1;\n\t}"
        : "=r"(r)
        : "r"(v));
#pragma unroll
    for (int k = 0; k < 2; k++)
        asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 i;\n\tmov.b32 i, 0;\n"
                     "LOOP:\n\tadd.s32 %0, %0, 1;\n\tadd.s32 i, i, 1;\n"
                     "\tsetp.lt.s32 p, i, 3;\n\t@p bra LOOP;\n"
                     "\t{\n\t.reg .pred p;\n\tsetp.eq.s32 p, i, 3;\n"
                     "\t@p add.s32 %0, %0, 1000;\n\t}\n\t}"
                     : "+r"(r));
    if (t < n)
        out[t] = r + 100000 * o + 200000 * a + 1000000 * c;
}
