// cg_tiles.cu — the Cooperative Groups API a course uses, on a 2D block of 16x6 threads
// (3 warps): thread_block indices, grid_group ranks, thread_block_tile<4/8/16> shuffles,
// votes, match_any and scans, meta_group_rank/size, and a thread_group from the run-time
// tiled_partition(parent, 8). Each thread writes 12 values to out[12 * grid rank + k].
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_tiles(const int *in, int *out)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    const unsigned long long g = grid.thread_rank();
    int *o = out + 12 * g;
    const int v = in[g];

    o[0] = (int)(cta.thread_rank() + 1000 * cta.group_index().x + 100 * cta.thread_index().y);
    o[1] = (int)(grid.size() + 10000 * grid.block_rank() + 100000 * grid.num_blocks() +
                 cta.dim_threads().x * cta.dim_threads().y);

    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cta);
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(t16);
    o[2] = (int)(t16.thread_rank() + 100 * t16.meta_group_rank() + 10000 * t16.meta_group_size());
    o[3] = (int)(t4.thread_rank() + 100 * t4.meta_group_rank() + 10000 * t4.meta_group_size());
    o[4] = t16.shfl(v, 5) + t8.shfl_xor(v, 3);
    o[5] = t8.shfl_down(v, 2) - t8.shfl_up(v, 3);
    o[6] = (int)t16.ballot(v > 0) + (t8.any(v > 900) << 20) + (t8.all(v > -900) << 21);
    o[7] = (int)t16.match_any(v & 3);
    o[8] = cg::inclusive_scan(t8, v);
    o[9] = cg::exclusive_scan(t16, v, cg::bit_xor<int>());
    o[10] = cg::inclusive_scan(t4, v, cg::less<int>());

    cg::thread_group tg = cg::tiled_partition(cta, 8);
    tg.sync();
    cg::sync(t16);
    o[11] = (int)(tg.thread_rank() + 100 * tg.size());
}
