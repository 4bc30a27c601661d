// Scan-then-propagate for arrays larger than a block: (1) each block scans its part
// and writes its total to sums[]; (2) the block totals are scanned; (3) each block adds
// the scanned total of the blocks before it. This kernel is phase 3.
extern "C" __global__ void add_offsets(int *data, const int *scanned_sums)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0)
        data[i] += scanned_sums[blockIdx.x - 1];
}
