// cub_sort.cu — CUB's block- and warp-wide sorts as courses use them: BlockRadixSort
// (keys with values, all bits and a bit range, descending), BlockMergeSort and
// WarpMergeSort (stable, keys with values). 128 threads, 4 keys each: the block sorts
// 512 keys, each warp its own 128. Each primitive's header, as CUB's NVRTC support asks.
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>

struct less_u32 {
    __device__ bool operator()(unsigned a, unsigned b) const { return a < b; }
};

// keys: 512 keys; radix, radix_bits, radix_desc, merge, warp: 512 sorted keys each, with
// the input position of each (vals) in the second half (out[512 + i])
extern "C" __global__ void cub_sort(const unsigned *keys, unsigned *radix, unsigned *radix_bits,
                                    unsigned *radix_desc, unsigned *merge, unsigned *warp)
{
    typedef cub::BlockRadixSort<unsigned, 128, 4, int> RS;
    typedef cub::BlockMergeSort<unsigned, 128, 4, int> MS;
    typedef cub::WarpMergeSort<unsigned, 4, 32, int> WS;
    __shared__ union {
        typename RS::TempStorage rs;
        typename MS::TempStorage ms;
        typename WS::TempStorage ws[4];
    } tmp;
    const int t = threadIdx.x;
    unsigned k[4];
    int v[4];
#define LOAD()                                                                                     \
    for (int i = 0; i < 4; i++) {                                                                  \
        k[i] = keys[t * 4 + i];                                                                    \
        v[i] = t * 4 + i;                                                                          \
    }
#define STORE(out)                                                                                 \
    for (int i = 0; i < 4; i++) {                                                                  \
        out[t * 4 + i] = k[i];                                                                     \
        out[512 + t * 4 + i] = v[i];                                                               \
    }
    LOAD();
    RS(tmp.rs).Sort(k, v);
    STORE(radix);
    __syncthreads();
    LOAD();
    RS(tmp.rs).Sort(k, v, 8, 20); /* bits [8, 20) only; stable */
    STORE(radix_bits);
    __syncthreads();
    LOAD();
    RS(tmp.rs).SortDescending(k, v);
    STORE(radix_desc);
    __syncthreads();
    LOAD();
    MS(tmp.ms).StableSort(k, v, less_u32());
    STORE(merge);
    __syncthreads();
    LOAD();
    WS(tmp.ws[t / 32]).StableSort(k, v, less_u32());
    STORE(warp);
}
