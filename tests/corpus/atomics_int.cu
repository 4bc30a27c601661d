// simpleAtomicIntrinsics kind on int: every atomic op with order-independent final values (exch/CAS per slot or via a CAS loop).
__device__ int cas_max(int *p, int v)
{
    int old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, max(assumed, v));
    } while (old != assumed);
    return old;
}
extern "C" __global__ void atomics_int(const int *in, int *g, int *exch, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    atomicAdd(&g[0], v);
    atomicSub(&g[1], v);
    atomicMax(&g[2], v);
    atomicMin(&g[3], v);
    atomicAnd(&g[4], ~(1 << (i % 31)));
    atomicOr(&g[5], 1 << (i % 29));
    atomicXor(&g[6], v);
    cas_max(&g[7], v * 3);
    exch[i] = atomicExch(&exch[i], v) + 1;
    atomicCAS(&g[8], 0, 0);
    atomicCAS(&g[9], i, -i);
}
