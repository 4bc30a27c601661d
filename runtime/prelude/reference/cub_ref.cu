// cub_ref.cu — CUB's device-wide sum and exclusive scan of 32-bit ints, built by
// gpulearn with nvcc into a shared library (runtime/cub.h) and timed beside a lesson's
// kernel on the GPU. Each function follows CUB's two-call protocol: with tmp NULL it
// only sets *tmp_bytes; otherwise it queues the work on the default stream. Returns the
// cudaError_t (0: success).
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

extern "C" int gl_cub_reduce_sum_i32(const int *in, int *out, int n, void *tmp,
                                     size_t *tmp_bytes)
{
    return (int)cub::DeviceReduce::Sum(tmp, *tmp_bytes, in, out, n);
}

extern "C" int gl_cub_exclusive_sum_i32(const int *in, int *out, int n, void *tmp,
                                        size_t *tmp_bytes)
{
    return (int)cub::DeviceScan::ExclusiveSum(tmp, *tmp_bytes, in, out, n);
}
