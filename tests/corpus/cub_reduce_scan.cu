// cub_reduce_scan.cu — CUB's block- and warp-wide reductions and scans: BlockReduce with
// each algorithm (warp reductions, raking, raking commutative-only; Sum, Sum of a
// partial tile, Reduce with a max, a float Sum), BlockScan with each algorithm
// (exclusive and inclusive sums with the block's total, a max scan of 4 items per
// thread), WarpReduce (Sum, max, a partial warp, head-segmented sums) and WarpScan
// (inclusive and exclusive sums, on 32 and on 16-thread logical warps, Broadcast).
// 128 threads a block.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

struct max_op {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

template <cub::BlockReduceAlgorithm A>
__device__ void reduce(const int *in, const float *fin, int *out, float *fout, int n_valid)
{
    typedef cub::BlockReduce<int, 128, A> R;
    typedef cub::BlockReduce<float, 128, A> RF;
    __shared__ typename R::TempStorage tmp;
    __shared__ typename RF::TempStorage ftmp;
    const int t = threadIdx.x, g = blockIdx.x * 128 + t;
    const int s = R(tmp).Sum(in[g]);
    __syncthreads();
    const int p = R(tmp).Sum(in[g], n_valid); /* threads below n_valid only */
    __syncthreads();
    const int m = R(tmp).Reduce(in[g], max_op());
    const float f = RF(ftmp).Sum(fin[g]);
    if (t == 0) {
        out[blockIdx.x * 3] = s;
        out[blockIdx.x * 3 + 1] = p;
        out[blockIdx.x * 3 + 2] = m;
        fout[blockIdx.x] = f;
    }
}

template <cub::BlockScanAlgorithm A>
__device__ void scan(const int *in, int *out)
{
    typedef cub::BlockScan<int, 128, A> S;
    __shared__ typename S::TempStorage tmp;
    const int t = threadIdx.x, g = blockIdx.x * 128 + t;
    int x, total;
    S(tmp).ExclusiveSum(in[g], x, total);
    out[g * 3] = x;
    __syncthreads();
    S(tmp).InclusiveSum(in[g], x);
    out[g * 3 + 1] = x + (t == 127 ? total : 0);
    __syncthreads();
    int items[4];
    for (int i = 0; i < 4; i++)
        items[i] = in[(g * 4 + i) % (gridDim.x * 128)];
    S(tmp).InclusiveScan(items, items, max_op());
    out[g * 3 + 2] = items[0] ^ items[3];
}

// in, fin: 128 per block; red: 3 x 3 ints per block (Sum, partial Sum, max per
// algorithm), fred: 3 floats per block; scans: 3 x 3 ints per thread; warp: 8 ints per
// thread
extern "C" __global__ void cub_reduce_scan(const int *in, const float *fin, int *red, float *fred,
                                           int *scans, int *warp, int n_valid)
{
    const int nb = gridDim.x;
    reduce<cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in, fin, red, fred, n_valid);
    reduce<cub::BLOCK_REDUCE_RAKING>(in, fin, red + 3 * nb, fred + nb, n_valid);
    reduce<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(in, fin, red + 6 * nb, fred + 2 * nb,
                                                      n_valid);
    const int total = nb * 128;
    scan<cub::BLOCK_SCAN_RAKING>(in, scans);
    scan<cub::BLOCK_SCAN_RAKING_MEMOIZE>(in, scans + 3 * total);
    scan<cub::BLOCK_SCAN_WARP_SCANS>(in, scans + 6 * total);

    typedef cub::WarpReduce<int> WR;
    typedef cub::WarpScan<int> WS;
    typedef cub::WarpScan<int, 16> WS16;
    __shared__ typename WR::TempStorage wr[4];
    __shared__ typename WS::TempStorage ws[4];
    __shared__ typename WS16::TempStorage ws16[8];
    const int t = threadIdx.x, g = blockIdx.x * 128 + t, w = t / 32, lane = t % 32;
    const int v = in[g];
    int *o = warp + g * 8;
    o[0] = WR(wr[w]).Sum(v);
    o[1] = WR(wr[w]).Reduce(v, max_op());
    o[2] = WR(wr[w]).Sum(v, 20); /* lanes 0..19 */
    o[3] = WR(wr[w]).HeadSegmentedSum(v, lane % 7 == 0);
    int x, agg;
    WS(ws[w]).InclusiveSum(v, x);
    o[4] = x;
    WS(ws[w]).ExclusiveSum(v, x, agg);
    o[5] = x ^ agg;
    WS16(ws16[t / 16]).InclusiveSum(v, x);
    o[6] = x;
    o[7] = WS(ws[w]).Broadcast(v, 5);
}
