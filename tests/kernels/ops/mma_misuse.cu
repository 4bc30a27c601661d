// An mma.sync reached by half a warp (the other lanes returned): `.aligned` needs all 32
// lanes (PTX ISA §9.7.14), so the simulator reports it, naming the instruction.
extern "C" __global__ void mma_half_warp(const int *in, int *out)
{
    if (threadIdx.x >= 16)
        return;
    unsigned a = in[threadIdx.x], b = in[threadIdx.x + 32];
    int d0, d1;
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=r"(d0), "=r"(d1)
                 : "r"(a), "r"(b), "r"(0), "r"(0));
    out[threadIdx.x] = d0 + d1;
}
