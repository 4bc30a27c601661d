/* cub/cub.cuh for NVRTC — gpulearn's stand-in for CUB's umbrella header, searched before
 * the CUDA Toolkit's include/cccl when NVRTC compiles a kernel (compile_nvrtc.c). CUB
 * supports NVRTC for its block-, warp- and thread-level primitives; its own cub/cub.cuh
 * also includes the device-wide algorithms (cub/device/: cub::DeviceReduce, DeviceScan,
 * ...) and the caching allocator, which are host code (they launch kernels, allocate
 * memory) and do not compile under NVRTC ("A function explicitly marked as a __host__
 * function is not allowed in JIT mode"). This header includes every other header of the
 * Toolkit's cub/cub.cuh (CCCL 3.0), in its order, each where this Toolkit has it. */
#pragma once

#include <cub/config.cuh>

#if __has_include(<cub/block/block_adjacent_difference.cuh>)
#include <cub/block/block_adjacent_difference.cuh>
#endif
#if __has_include(<cub/block/block_discontinuity.cuh>)
#include <cub/block/block_discontinuity.cuh>
#endif
#if __has_include(<cub/block/block_exchange.cuh>)
#include <cub/block/block_exchange.cuh>
#endif
#if __has_include(<cub/block/block_histogram.cuh>)
#include <cub/block/block_histogram.cuh>
#endif
#if __has_include(<cub/block/block_load.cuh>)
#include <cub/block/block_load.cuh>
#endif
#if __has_include(<cub/block/block_merge_sort.cuh>)
#include <cub/block/block_merge_sort.cuh>
#endif
#if __has_include(<cub/block/block_radix_rank.cuh>)
#include <cub/block/block_radix_rank.cuh>
#endif
#if __has_include(<cub/block/block_radix_sort.cuh>)
#include <cub/block/block_radix_sort.cuh>
#endif
#if __has_include(<cub/block/block_reduce.cuh>)
#include <cub/block/block_reduce.cuh>
#endif
#if __has_include(<cub/block/block_scan.cuh>)
#include <cub/block/block_scan.cuh>
#endif
#if __has_include(<cub/block/block_store.cuh>)
#include <cub/block/block_store.cuh>
#endif
#if __has_include(<cub/grid/grid_even_share.cuh>)
#include <cub/grid/grid_even_share.cuh>
#endif
#if __has_include(<cub/grid/grid_mapping.cuh>)
#include <cub/grid/grid_mapping.cuh>
#endif
#if __has_include(<cub/grid/grid_queue.cuh>)
#include <cub/grid/grid_queue.cuh>
#endif
#if __has_include(<cub/thread/thread_load.cuh>)
#include <cub/thread/thread_load.cuh>
#endif
#if __has_include(<cub/thread/thread_operators.cuh>)
#include <cub/thread/thread_operators.cuh>
#endif
#if __has_include(<cub/thread/thread_reduce.cuh>)
#include <cub/thread/thread_reduce.cuh>
#endif
#if __has_include(<cub/thread/thread_scan.cuh>)
#include <cub/thread/thread_scan.cuh>
#endif
#if __has_include(<cub/thread/thread_store.cuh>)
#include <cub/thread/thread_store.cuh>
#endif
#if __has_include(<cub/warp/warp_exchange.cuh>)
#include <cub/warp/warp_exchange.cuh>
#endif
#if __has_include(<cub/warp/warp_load.cuh>)
#include <cub/warp/warp_load.cuh>
#endif
#if __has_include(<cub/warp/warp_merge_sort.cuh>)
#include <cub/warp/warp_merge_sort.cuh>
#endif
#if __has_include(<cub/warp/warp_reduce.cuh>)
#include <cub/warp/warp_reduce.cuh>
#endif
#if __has_include(<cub/warp/warp_scan.cuh>)
#include <cub/warp/warp_scan.cuh>
#endif
#if __has_include(<cub/warp/warp_store.cuh>)
#include <cub/warp/warp_store.cuh>
#endif
#if __has_include(<cub/iterator/arg_index_input_iterator.cuh>)
#include <cub/iterator/arg_index_input_iterator.cuh>
#endif
#if __has_include(<cub/iterator/cache_modified_input_iterator.cuh>)
#include <cub/iterator/cache_modified_input_iterator.cuh>
#endif
#if __has_include(<cub/iterator/cache_modified_output_iterator.cuh>)
#include <cub/iterator/cache_modified_output_iterator.cuh>
#endif
#if __has_include(<cub/iterator/tex_obj_input_iterator.cuh>)
#include <cub/iterator/tex_obj_input_iterator.cuh>
#endif
#if __has_include(<cub/util_debug.cuh>)
#include <cub/util_debug.cuh>
#endif
#if __has_include(<cub/util_device.cuh>)
#include <cub/util_device.cuh>
#endif
#if __has_include(<cub/util_ptx.cuh>)
#include <cub/util_ptx.cuh>
#endif
#if __has_include(<cub/util_temporary_storage.cuh>)
#include <cub/util_temporary_storage.cuh>
#endif
#if __has_include(<cub/util_type.cuh>)
#include <cub/util_type.cuh>
#endif
