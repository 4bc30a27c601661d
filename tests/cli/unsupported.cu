// A kernel with an instruction the simulator does not implement (tests/cli.sh): with the
// default --backend auto and no GPU, gpulearn must say which instruction and where.
extern "C" __global__ void perf_event(int *out)
{
    asm volatile("pmevent 1;");
    out[threadIdx.x] = 1;
}
