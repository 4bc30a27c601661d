// Single-pass scan with decoupled look-back (D. Merrill and M. Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", NVIDIA Technical Report NVR-2016-002).
//
// Each block scans one tile of TILE ints, then learns the sum of everything before its
// tile from the blocks before it, without a second pass over memory:
//  - it publishes its tile's total at once (status AGGREGATE), then
//  - looks back, 32 predecessors at a time, adding AGGREGATEs until it meets an
//    INCLUSIVE prefix (the sum of everything up to and including that tile);
//  - then publishes its own INCLUSIVE prefix, which ends the look-back of later blocks.
// Status and value share one 64-bit word, written and read in one access, so a block
// never sees a status with a stale value. Tiles are numbered in the order blocks start
// (an atomic counter), not by blockIdx.x: a block only ever waits for blocks that have
// already started, so the wait always ends, whatever order the GPU starts blocks in.
// flags[] (one per tile) and *next_tile must be zero before the launch.
#define B 128            // threads per block
#define C 16             // int4 chunks per thread
#define TILE (B * C * 4) // ints per tile: 8192
#define AGGREGATE 1ull
#define INCLUSIVE 2ull

extern "C" __global__ void scan_lookback(const int *in, int *out, int n,
                                         unsigned long long *flags, unsigned *next_tile)
{
    __shared__ int tile_s, warp_sums[B / 32], prefix_s;
    int t = threadIdx.x, lane = t % 32, w = t / 32;
    if (t == 0)
        tile_s = atomicAdd(next_tile, 1);
    __syncthreads();
    int tile = tile_s;

    // Load: warp w owns C * 128 consecutive ints; chunk k of lane l is the int4 at
    // (k * 32 + l) * 4, so each load instruction of the warp reads 512 consecutive bytes.
    long wbase = (long)tile * TILE + (long)w * C * 128;
    bool full = (long)(tile + 1) * TILE <= n;
    int4 x[C];
    for (int k = 0; k < C; k++) {
        long i = wbase + (k * 32 + lane) * 4;
        if (full) {
            x[k] = *(const int4 *)(in + i);
        } else {
            x[k].x = i < n ? in[i] : 0;
            x[k].y = i + 1 < n ? in[i + 1] : 0;
            x[k].z = i + 2 < n ? in[i + 2] : 0;
            x[k].w = i + 3 < n ? in[i + 3] : 0;
        }
    }
    // Scan the warp's part, chunk by chunk: four adds in the thread, then a warp scan of
    // the four-element totals; carry is what the chunks before this one summed to.
    int carry = 0;
    for (int k = 0; k < C; k++) {
        int a = x[k].x, b = a + x[k].y, c = b + x[k].z, d = c + x[k].w;
        int inc = d;
        for (int s = 1; s < 32; s *= 2) {
            int u = __shfl_up_sync(0xffffffffu, inc, s);
            if (lane >= s)
                inc += u;
        }
        int ex = carry + inc - d; // exclusive prefix of this lane's first element
        x[k] = make_int4(ex, ex + a, ex + b, ex + c);
        carry += __shfl_sync(0xffffffffu, inc, 31);
    }
    if (lane == 0)
        warp_sums[w] = carry;
    __syncthreads();

    // Warp 0: the warps' offsets, the tile's total, and the look-back.
    if (w == 0) {
        int v = lane < B / 32 ? warp_sums[lane] : 0, inc = v;
        for (int s = 1; s < 32; s *= 2) {
            int u = __shfl_up_sync(0xffffffffu, inc, s);
            if (lane >= s)
                inc += u;
        }
        int total = __shfl_sync(0xffffffffu, inc, B / 32 - 1);
        if (lane < B / 32)
            warp_sums[lane] = inc - v;
        volatile unsigned long long *f = flags;
        int before = 0; // sum of all tiles before this one
        if (tile == 0) {
            if (lane == 0)
                f[0] = INCLUSIVE << 32 | (unsigned)total;
        } else {
            if (lane == 0)
                f[tile] = AGGREGATE << 32 | (unsigned)total;
            for (int p = tile - 1;; p -= 32) {
                // lane l reads tile p - l; tiles before 0 count as an INCLUSIVE 0
                unsigned long long s = p - lane >= 0 ? f[p - lane] : INCLUSIVE << 32;
                if (__any_sync(0xffffffffu, s >> 32 == 0)) {
                    p += 32; // a predecessor has not published yet: read again
                    continue;
                }
                unsigned inclusive = __ballot_sync(0xffffffffu, s >> 32 == INCLUSIVE);
                int last = inclusive ? __ffs(inclusive) - 1 : 31; // nearest INCLUSIVE
                int add = lane <= last ? (int)(unsigned)s : 0;
                for (int o = 16; o > 0; o /= 2)
                    add += __shfl_xor_sync(0xffffffffu, add, o);
                before += add;
                if (inclusive)
                    break;
            }
            if (lane == 0)
                f[tile] = INCLUSIVE << 32 | (unsigned)(before + total);
        }
        if (lane == 0)
            prefix_s = before;
    }
    __syncthreads();

    int offset = prefix_s + warp_sums[w];
    for (int k = 0; k < C; k++) {
        long i = wbase + (k * 32 + lane) * 4;
        int4 y = make_int4(x[k].x + offset, x[k].y + offset, x[k].z + offset, x[k].w + offset);
        if (full) {
            *(int4 *)(out + i) = y;
        } else {
            if (i < n)
                out[i] = y.x;
            if (i + 1 < n)
                out[i + 1] = y.y;
            if (i + 2 < n)
                out[i + 2] = y.z;
            if (i + 3 < n)
                out[i + 3] = y.w;
        }
    }
}
