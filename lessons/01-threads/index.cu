// Each thread writes its global index into out[]: thread t of block b covers
// element b * blockDim.x + t.
extern "C" __global__ void global_index(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i;
}
