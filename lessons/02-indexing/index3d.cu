// A 3D grid over a w x h x d volume: element (x, y, z) is at (z * h + y) * w + x.
extern "C" __global__ void index3d(int *out, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d)
        out[(z * h + y) * w + x] = z * 100 + y * 10 + x;
}
