// Thread block clusters (sm_90; PTX ISA §10 %clusterid, %cluster_ctarank, ...; §9.7.13.1
// barrier.cluster; §9.7.9.21 mapa; distributed shared memory through ld/st/atom
// .shared::cluster). The cluster shape is fixed at compile time (__cluster_dims__,
// .reqnctapercluster), so a plain launch runs clusters.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned sreg_ctarank()
{
    unsigned r;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

// Each thread records the cluster special registers of its block.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_ids(unsigned *out)
{
    unsigned r[8];
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(r[0]));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(r[1]));
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(r[2]));
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(r[3]));
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r[4]));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(r[5]));
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }"
        : "=r"(r[6]));
    r[7] = cg::this_cluster().block_rank();
    if (threadIdx.x == 0)
        for (int k = 0; k < 8; k++)
            out[blockIdx.x * 8 + k] = r[k];
}

// Distributed shared memory: every block of a cluster of 4 fills its shared array, the
// cluster syncs, and each block reads its neighbour's array through map_shared_rank
// (mapa + ld.shared::cluster), then syncs again before any block may exit.
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_dsmem(const int *in, int *out)
{
    __shared__ int mine[128];
    cg::cluster_group cl = cg::this_cluster();
    unsigned rank = cl.block_rank();
    int t = threadIdx.x;
    mine[t] = in[blockIdx.x * blockDim.x + t] * (int)(rank + 1);
    cl.sync();
    int *other = cl.map_shared_rank(mine, (rank + 1) % cl.num_blocks());
    out[blockIdx.x * blockDim.x + t] = other[(t + 3) % blockDim.x] - mine[t];
    cl.sync();
}

// A histogram spread over the cluster's shared memory: bin b lives in block b % 2;
// atomics go to the owner's shared memory (atom.shared::cluster), split arrive/wait.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_histogram(const int *in, int *out,
                                                                       int n)
{
    __shared__ int bins[32];
    cg::cluster_group cl = cg::this_cluster();
    int t = threadIdx.x;
    if (t < 32)
        bins[t] = 0;
    cl.sync();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) {
        int b = in[i] & 63;
        int *owner = cl.map_shared_rank(bins, (unsigned)(b & 1));
        atomicAdd(&owner[b >> 1], 1);
    }
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
    if (t < 32)
        atomicAdd(&out[(t << 1) | (int)sreg_ctarank()], bins[t]);
    cl.sync();
}

// No __cluster_dims__: the launch gives the cluster shape (the spec's "cluster", as
// cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension). A 2-D grid of 2x2
// clusters; each block records where it sits.
extern "C" __global__ void cluster_ids_launch(unsigned *out)
{
    unsigned r[7];
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(r[0]));
    asm("mov.u32 %0, %%clusterid.y;" : "=r"(r[1]));
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(r[2]));
    asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(r[3]));
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r[4]));
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(r[5]));
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }"
        : "=r"(r[6]));
    if (threadIdx.x == 0)
        for (int k = 0; k < 7; k++)
            out[((blockIdx.y * gridDim.x) + blockIdx.x) * 7 + k] = r[k];
}
