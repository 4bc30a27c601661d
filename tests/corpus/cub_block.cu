// cub_block.cu — CUB's block- and warp-wide collectives, as intermediate courses use
// them: BlockReduce (Sum, Reduce with a max), BlockScan (ExclusiveSum) and WarpReduce.
// NVRTC finds CUB in CUDA 13's include/cccl; clang has no CUB (cub_block.skip).
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>

struct max_op {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

extern "C" __global__ void cub_block(const int *in, int *sum, int *max, int *scan, int *warp)
{
    typedef cub::BlockReduce<int, 128> BR;
    typedef cub::BlockScan<int, 128> BS;
    typedef cub::WarpReduce<int> WR;
    __shared__ typename BR::TempStorage tr;
    __shared__ typename BS::TempStorage ts;
    __shared__ typename WR::TempStorage tw[4];
    const int g = blockIdx.x * 128 + threadIdx.x;
    const int v = in[g];
    const int s = BR(tr).Sum(v);
    __syncthreads();
    const int m = BR(tr).Reduce(v, max_op());
    if (threadIdx.x == 0) {
        sum[blockIdx.x] = s;
        max[blockIdx.x] = m;
    }
    int x;
    BS(ts).ExclusiveSum(v, x);
    scan[g] = x;
    const int w = WR(tw[threadIdx.x / 32]).Sum(v);
    if (threadIdx.x % 32 == 0)
        warp[g / 32] = w;
}
