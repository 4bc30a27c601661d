// Special registers, only their deterministic properties: %laneid, %lanemask_lt/le/gt/ge, %warpid < %nwarpid, %smid < %nsmid, clock64/%globaltimer monotonic.
extern "C" __global__ void special_regs(int *ok)
{
    unsigned lane, lt, le, gt, ge, wid, nwid, sm, nsm;
    unsigned long long g0, g1;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(wid));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwid));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    long long c0 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    unsigned x = lane;
    for (int k = 0; k < 100; ++k)
        x = x * 1664525u + 1013904223u;
    long long c1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    int t = threadIdx.x, L = t & 31;
    unsigned bit = 1u << L;
    ok[blockIdx.x * blockDim.x + t] = (lane == (unsigned)L) | (lt == bit - 1) << 1 | (le == (bit | (bit - 1))) << 2 |
                                      (gt == ~(bit | (bit - 1))) << 3 | (ge == ~(bit - 1)) << 4 | (wid < nwid) << 5 |
                                      (sm < nsm) << 6 | (c1 > c0) << 7 | (g1 >= g0) << 8 | (x != 12345u) << 9;
}
