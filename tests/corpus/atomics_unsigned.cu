// Atomics on unsigned: add (wrapping), sub, min, max, inc and dec with wrap limits, and/or/xor, a CAS loop (wrapping add of 3v).
extern "C" __global__ void atomics_unsigned(const unsigned *in, unsigned *g, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = in[i];
    atomicAdd(&g[0], v);
    atomicSub(&g[1], v);
    atomicMin(&g[2], v);
    atomicMax(&g[3], v);
    atomicInc(&g[4], 17u);
    atomicDec(&g[5], 137u);
    atomicAnd(&g[6], v | 0x00ff00ffu);
    atomicOr(&g[7], v & 0x11111111u);
    atomicXor(&g[8], v);
    unsigned old = g[9], assumed;
    do {
        assumed = old;
        old = atomicCAS(&g[9], assumed, assumed + v * 3u);
    } while (old != assumed);
}
