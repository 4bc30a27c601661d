// A spin lock on atomicCAS taken by every lane of one warp (needs independent thread
// scheduling: Volta and later). Each lane adds its value under the lock, non-atomically.
extern "C" __global__ void warp_lock(int *lock, int *sum, const int *in)
{
    int v = in[threadIdx.x];
    bool done = false;
    while (!done) {
        if (atomicCAS(lock, 0, 1) == 0) {
            volatile int *s = sum;
            *s = *s + v;
            __threadfence();
            atomicExch(lock, 0);
            done = true;
        }
    }
}

// The textbook form that deadlocks before Volta: the loop spins on the CAS itself.
extern "C" __global__ void warp_lock_spin(int *lock, int *sum, const int *in)
{
    int v = in[threadIdx.x];
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    volatile int *s = sum;
    *s = *s + v;
    __threadfence();
    atomicExch(lock, 0);
}
