// 64-bit atomics (unsigned long long and long long): add, min, max, and, or, xor, exch per slot, CAS increment loop.
extern "C" __global__ void atomics_ull(const unsigned long long *in, unsigned long long *g, long long *s,
                                       unsigned long long *slot, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long v = in[i];
    atomicAdd(&g[0], v);
    atomicMin(&g[1], v);
    atomicMax(&g[2], v);
    atomicAnd(&g[3], v | 0xffff0000ffff0000ull);
    atomicOr(&g[4], v & 0x0101010101010101ull);
    atomicXor(&g[5], v);
    unsigned long long old = g[6], assumed;
    do {
        assumed = old;
        old = atomicCAS(&g[6], assumed, assumed + (v >> 40));
    } while (old != assumed);
    atomicMin(&s[0], (long long)v);
    atomicMax(&s[1], (long long)v);
    slot[i] = atomicExch(&slot[i], v ^ 0x8000000000000000ull) >> 3;
}
