// Thread block clusters (Needs sm_90): distributed shared memory through
// cooperative_groups (mapa + ld/st/atom through generic addresses) and barrier.cluster.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Each block of a cluster of 4 stores tid * (rank + 1) in its shared array; after
// cluster.sync every thread adds the value of the next block's thread (t + 1) % 64,
// and stores 1000 * rank + t into the previous block's spare array.
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_ring(int *out)
{
    __shared__ int vals[64], spare[64];
    cg::cluster_group cl = cg::this_cluster();
    const unsigned rank = cl.block_rank(), n = cl.num_blocks();
    const int t = threadIdx.x;
    vals[t] = t * (int)(rank + 1);
    cl.sync();
    const int *next = cl.map_shared_rank(vals, (rank + 1) % n);
    int *prev = cl.map_shared_rank(spare, (rank + n - 1) % n);
    prev[t] = 1000 * (int)rank + t;
    const int sum = vals[t] + next[(t + 1) % 64];
    cl.sync();
    out[blockIdx.x * 64 + t] = sum * 10000 + spare[t];
}

// No cluster.sync between a block's stores and the next block's loads of them: a race
// across the cluster's CTAs.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_race(int *out)
{
    __shared__ int vals[64];
    cg::cluster_group cl = cg::this_cluster();
    const unsigned rank = cl.block_rank();
    vals[threadIdx.x] = (int)threadIdx.x;
    const int *next = cl.map_shared_rank(vals, rank ^ 1);
    out[blockIdx.x * 64 + threadIdx.x] = next[threadIdx.x];
    cl.sync();
}

// Reads past the end of the other block's 64-int array (its shared memory is 256 bytes).
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_oob(int *out, int k)
{
    __shared__ int vals[64];
    cg::cluster_group cl = cg::this_cluster();
    vals[threadIdx.x] = 1;
    cl.sync();
    const int *next = cl.map_shared_rank(vals, cl.block_rank() ^ 1);
    out[blockIdx.x * 64 + threadIdx.x] = next[threadIdx.x + k];
    cl.sync();
}
