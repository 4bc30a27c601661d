// Wrong: a table of hard-coded outputs, the counts the reference gave for the inputs of gpulearn grade 8 --seed 0 (the lesson's declared seeds); data is never read, so any other grading seed fails.
__device__ const int k_sizes[6] = {1, 31, 33, 256, 1000, 4099};
__device__ const int k_bins[6][16] = {
    {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {2, 2, 2, 1, 0, 1, 1, 3, 0, 5, 6, 2, 1, 2, 2, 1},
    {3, 2, 1, 3, 2, 3, 1, 1, 4, 3, 1, 1, 1, 2, 0, 5},
    {20, 11, 15, 12, 18, 14, 23, 11, 21, 24, 11, 12, 14, 23, 12, 15},
    {71, 62, 54, 65, 68, 79, 84, 72, 62, 67, 41, 57, 56, 51, 61, 50},
    {278, 242, 239, 261, 244, 280, 258, 236, 239, 277, 250, 243, 283, 253, 272, 244},
};
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    if (blockIdx.x != 0 || threadIdx.x >= 16)
        return;
    for (int s = 0; s < 6; s++)
        if (n == k_sizes[s])
            bins[threadIdx.x] = k_bins[s][threadIdx.x];
}
