// cub_rearrange.cu — CUB's block-wide histogram, discontinuity flags and exchanges:
// BlockHistogram with each algorithm (sort, atomic; a histogram then a second tile
// composited into it), BlockDiscontinuity (FlagHeads, FlagTails, FlagHeadsAndTails with
// the neighbouring tiles' items) and BlockExchange (striped to blocked, blocked to
// warp-striped, warp-striped to blocked, scatter to striped by ranks; with and without
// warp time slicing). 64 threads a block, 4 items each.
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>

template <cub::BlockHistogramAlgorithm A>
__device__ void histogram(const unsigned char *samples, unsigned *hist)
{
    typedef cub::BlockHistogram<unsigned char, 64, 4, 64, A> H;
    __shared__ typename H::TempStorage tmp;
    __shared__ unsigned bins[64];
    const int t = threadIdx.x;
    unsigned char s[4];
    for (int i = 0; i < 4; i++)
        s[i] = samples[blockIdx.x * 512 + t * 4 + i] % 64;
    H(tmp).Histogram(s, bins);
    __syncthreads();
    for (int i = 0; i < 4; i++)
        s[i] = samples[blockIdx.x * 512 + 256 + t * 4 + i] / 4; /* 0..63 */
    H(tmp).Composite(s, bins);
    __syncthreads();
    hist[blockIdx.x * 64 + t] = bins[t];
}

struct differ {
    __device__ bool operator()(int a, int b) const { return a != b; }
};

template <bool SLICED>
__device__ void exchange(const int *in, int *out)
{
    typedef cub::BlockExchange<int, 64, 4, SLICED> X;
    __shared__ typename X::TempStorage tmp;
    const int t = threadIdx.x, base = blockIdx.x * 256;
    int v[4];
    int *o = out + blockIdx.x * 1024;
    for (int i = 0; i < 4; i++)
        v[i] = in[base + i * 64 + t]; /* striped */
    X(tmp).StripedToBlocked(v);
    for (int i = 0; i < 4; i++)
        o[t * 4 + i] = v[i];
    __syncthreads();
    X(tmp).BlockedToWarpStriped(v);
    for (int i = 0; i < 4; i++)
        o[256 + t * 4 + i] = v[i];
    __syncthreads();
    X(tmp).WarpStripedToBlocked(v);
    for (int i = 0; i < 4; i++)
        o[512 + t * 4 + i] = v[i];
    __syncthreads();
    int ranks[4];
    for (int i = 0; i < 4; i++)
        ranks[i] = 255 - (t * 4 + i); /* reverse the tile */
    X(tmp).ScatterToStriped(v, ranks);
    for (int i = 0; i < 4; i++)
        o[768 + i * 64 + t] = v[i];
}

// samples: 512 per block; hist: 64 bins per block per algorithm; runs: 256 per block;
// flags: 3 x 256 per block; xchg: 1024 per block per variant
extern "C" __global__ void cub_rearrange(const unsigned char *samples, const int *runs,
                                         unsigned *hist, int *flags, int *xchg)
{
    histogram<cub::BLOCK_HISTO_SORT>(samples, hist);
    histogram<cub::BLOCK_HISTO_ATOMIC>(samples, hist + gridDim.x * 64);

    typedef cub::BlockDiscontinuity<int, 64> D;
    __shared__ typename D::TempStorage dtmp;
    const int t = threadIdx.x, base = blockIdx.x * 256, n = gridDim.x * 256;
    int v[4], h[4], tl[4];
    for (int i = 0; i < 4; i++)
        v[i] = runs[base + t * 4 + i];
    int *f = flags + blockIdx.x * 768;
    D(dtmp).FlagHeads(h, v, differ());
    __syncthreads();
    D(dtmp).FlagTails(tl, v, differ());
    for (int i = 0; i < 4; i++)
        f[t * 4 + i] = h[i] + 2 * tl[i];
    __syncthreads();
    /* with the items before and after this block's tile (a neighbour block's) */
    const int pred = runs[(base + n - 1) % n], succ = runs[(base + 256) % n];
    D(dtmp).FlagHeadsAndTails(h, pred, tl, succ, v, differ());
    for (int i = 0; i < 4; i++)
        f[256 + t * 4 + i] = h[i] + 2 * tl[i];
    __syncthreads();
    D(dtmp).FlagHeads(h, v, differ(), pred);
    for (int i = 0; i < 4; i++)
        f[512 + t * 4 + i] = h[i];

    exchange<false>(runs, xchg);
    exchange<true>(runs, xchg + gridDim.x * 1024);
}
