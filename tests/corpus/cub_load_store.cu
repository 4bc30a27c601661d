// cub_load_store.cu — CUB's BlockLoad and BlockStore with every algorithm (direct,
// striped, vectorize, transpose, warp transpose, warp transpose time-sliced), for a full
// tile (block 0) and a partial one with out-of-bounds items defaulted (block 1): each
// algorithm loads the block's tile, writes the items as this thread holds them (held:
// the arrangement the load gives), and stores them, doubled, with the same algorithm.
// 64 threads a block, 4 ints each.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

template <cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S>
__device__ void load_store(const int *in, int *held, int *out, int valid)
{
    typedef cub::BlockLoad<int, 64, 4, L> BL;
    typedef cub::BlockStore<int, 64, 4, S> BS;
    __shared__ union {
        typename BL::TempStorage load;
        typename BS::TempStorage store;
    } tmp;
    const int t = threadIdx.x, base = blockIdx.x * 256;
    int v[4];
    if (valid == 256)
        BL(tmp.load).Load(in + base, v);
    else
        BL(tmp.load).Load(in + base, v, valid, -1);
    for (int i = 0; i < 4; i++) {
        held[base + t * 4 + i] = v[i];
        v[i] *= 2;
    }
    __syncthreads();
    if (valid == 256)
        BS(tmp.store).Store(out + base, v);
    else
        BS(tmp.store).Store(out + base, v, valid);
    __syncthreads();
}

// in: 256 ints per block; held, out: 6 x 256 ints per block (one tile per algorithm);
// block 1's tile has valid items only
extern "C" __global__ void cub_load_store(const int *in, int *held, int *out, int valid)
{
    const int v = blockIdx.x == 0 ? 256 : valid, n = gridDim.x * 256;
    load_store<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(in, held, out, v);
    load_store<cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>(in, held + n, out + n, v);
    load_store<cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>(in, held + 2 * n,
                                                                      out + 2 * n, v);
    load_store<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(in, held + 3 * n,
                                                                      out + 3 * n, v);
    load_store<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(
        in, held + 4 * n, out + 4 * n, v);
    load_store<cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
               cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>(in, held + 5 * n, out + 5 * n, v);
}
