// A kernel with an instruction the simulator does not implement (tests/cli.sh): with the
// default --backend auto and no GPU, gpulearn must say which instruction and where.
extern "C" __global__ void multicast_add(int *out)
{
    asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], 1;" ::"l"(out) : "memory");
    out[threadIdx.x] = 1;
}
