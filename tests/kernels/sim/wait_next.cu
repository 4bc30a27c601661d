// Block 2k waits, counting, until block 2k + 1 sets its flag (a volatile load in a loop
// whose registers change each iteration, so that spin detection never ends it); launch
// with blocks of 32 threads. The deterministic schedule interleaves the resident blocks,
// so the launch completes; blocks on worker threads (sim/sim_par.c) each run a block to
// its end, and a worker whose chunk holds both blocks of a pair waits for ever: the
// parallel run is halted at half the wall-time limit and the launch runs on one
// thread with the whole limit (tests/test_sim_par.c).
extern "C" __global__ void wait_next(volatile int *flag, int *spins)
{
    const int b = blockIdx.x;
    if (threadIdx.x != 0)
        return;
    if (b % 2 == 0) {
        int n = 0;
        while (flag[b + 1] == 0)
            n++;
        spins[b] = n;
    } else {
        flag[b] = 1;
        spins[b] = -1;
    }
}
