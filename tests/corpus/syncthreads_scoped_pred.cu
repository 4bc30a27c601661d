// __syncthreads_or/_and/_count compile to a `{ .reg .pred %p1; ... bar.red ...; }` block
// whose %p1 is not the kernel's own %p1 (PTX ISA: a block scopes its declarations): the
// predicate t < n stays live across each call. Thread t of 64 writes for t < n = 40.
extern "C" __global__ void syncthreads_scoped_pred(const int *in, int *out, int n)
{
    int t = threadIdx.x;
    int v = t < n ? in[t] : 0;
    int o = __syncthreads_or(v & 1);
    int a = __syncthreads_and(v < 100);
    int c = __syncthreads_count(v > 10);
    if (t < n)
        out[t] = v + o + 10 * a + 1000 * c;
}
