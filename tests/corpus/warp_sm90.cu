// Warp-level instructions of sm_80/sm_90: redux.sync (PTX ISA §9.7.13.11) for every
// operation and type sm_90 has (.add/.min/.max on .u32/.s32, .and/.or/.xor on .b32;
// .f32 min/max need sm_100a), under full and partial masks, and elect.sync (§9.7.13.12,
// sm_90): one lane of the membermask, the lowest, gets the predicate.
extern "C" __global__ void redux_types(const int *in, int *out)
{
    int t = threadIdx.x, v = in[blockIdx.x * blockDim.x + t];
    unsigned u = (unsigned)v, full = 0xffffffffu;
    int *o = out + (blockIdx.x * blockDim.x + t) * 8;
    o[0] = __reduce_add_sync(full, v);
    o[1] = __reduce_min_sync(full, v);
    o[2] = __reduce_max_sync(full, v);
    o[3] = (int)__reduce_min_sync(full, u);
    o[4] = (int)__reduce_max_sync(full, u);
    o[5] = (int)__reduce_and_sync(full, u);
    o[6] = (int)__reduce_or_sync(full, u);
    o[7] = (int)__reduce_xor_sync(full, u);
}

// Lanes split into even and odd; each half reduces over its own membermask.
extern "C" __global__ void redux_partial(const unsigned *in, unsigned *out)
{
    int t = threadIdx.x, l = t % 32;
    unsigned v = in[t];
    if (l & 1) {
        out[3 * t] = __reduce_add_sync(0xaaaaaaaau, v);
        out[3 * t + 1] = (unsigned)__reduce_max_sync(0xaaaaaaaau, (int)v);
        out[3 * t + 2] = __reduce_xor_sync(0xaaaaaaaau, v);
    } else if (l < 20) {
        out[3 * t] = __reduce_add_sync(0x55555u, v);
        out[3 * t + 1] = __reduce_min_sync(0x55555u, v);
        out[3 * t + 2] = __reduce_or_sync(0x55555u, v);
    } else {
        out[3 * t] = out[3 * t + 1] = out[3 * t + 2] = 7;
    }
}

__device__ __forceinline__ unsigned elect(unsigned mask, unsigned *leader)
{
    unsigned is, who;
    asm volatile("{ .reg .pred p; elect.sync %1|p, %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(is), "=r"(who)
                 : "r"(mask));
    *leader = who;
    return is;
}

// elect.sync over the full warp, then in a branch where a data-dependent subset of the
// lanes is active (membermask = __activemask()).
extern "C" __global__ void elect_sync(const int *in, unsigned *out)
{
    int t = threadIdx.x;
    unsigned leader, is = elect(0xffffffffu, &leader);
    out[4 * t] = is;
    out[4 * t + 1] = leader;
    out[4 * t + 2] = out[4 * t + 3] = 99;
    if (in[t] > 0) {
        unsigned m = __activemask(), l2, is2 = elect(m, &l2);
        out[4 * t + 2] = is2;
        out[4 * t + 3] = l2;
    }
}
