// schedule.cu — the simulator's round-robin warp schedule seen from memory and from the
// trace (test_sim_check.c): warp 0 computes longer than warp 1, in registers only,
// before lane 0 of each warp takes a ticket and reads the clock. One warp instruction
// is one step of simulated time, so the tickets and clocks say where each warp was.
extern "C" __global__ void arrive(unsigned *order, unsigned *when, unsigned *counter,
                                  unsigned *sink, int rounds)
{
    unsigned x = threadIdx.x;
    if (threadIdx.x < 32)
        for (int i = 0; i < rounds; i++)
            x = x * 2654435761u + 12345u;
    if (threadIdx.x % 32 == 0) {
        unsigned k = atomicAdd(counter, 1);
        order[k] = threadIdx.x / 32;
        when[k] = (unsigned)clock();
    }
    sink[threadIdx.x] = x;
}
