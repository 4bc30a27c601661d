// An endless loop: *flag is never set, so the loop spins until the step limit.
extern "C" __global__ void spin(volatile int *flag, int *out)
{
    int n = 0;
    while (*flag == 0)
        ++n;
    out[threadIdx.x] = n;
}
