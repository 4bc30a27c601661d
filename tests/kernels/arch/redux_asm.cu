// redux.sync written as inline asm: it compiles for any target (NVRTC and nvcc -ptx run
// no ptxas), but only sm_80 and later have it (PTX ISA "redux.sync", Target ISA notes).
extern "C" __global__ void warp_sum(unsigned *out)
{
    unsigned r;
    asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(threadIdx.x), "r"(0xffffffffu));
    out[threadIdx.x] = r;
}
