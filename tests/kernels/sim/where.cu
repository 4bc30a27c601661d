// Where each thread ran: %warpid, %nwarpid, %smid and %nsmid (PTX ISA §10.4-10.9), four
// words per thread at out[4 * (linear block * threads per block + linear thread)].
extern "C" __global__ void where(unsigned *out)
{
    unsigned w, nw, sm, nsm;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nw));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    unsigned nt = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned g = 4 * (b * nt + t);
    out[g] = w;
    out[g + 1] = nw;
    out[g + 2] = sm;
    out[g + 3] = nsm;
}
