// An atomicCAS spin lock taken by every lane of one warp (needs independent thread scheduling, Volta+): a non-atomic critical section.
extern "C" __global__ void cas_lock_warp(int *lock, int *counter, int *maxseen, const int *in)
{
    int t = threadIdx.x;
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    volatile int *c = counter, *m = maxseen;
    *c = *c + in[t];
    if (in[t] > *m)
        *m = in[t];
    __threadfence();
    atomicExch(lock, 0);
}
