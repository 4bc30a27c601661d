// simpleVoteIntrinsics kind: __all_sync, __any_sync, __ballot_sync and __popc of the ballot, per warp, on data-dependent predicates.
extern "C" __global__ void vote_intrinsics(const int *in, int *all, int *any, unsigned *ballot, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int a = __all_sync(0xffffffffu, v > -900);
    int y = __any_sync(0xffffffffu, v > 990);
    unsigned b = __ballot_sync(0xffffffffu, v & 1);
    all[i] = a;
    any[i] = y;
    ballot[i] = b;
    count[i] = __popc(b) * 100 + __popc(b & ((1u << (threadIdx.x & 31)) - 1u));
}
