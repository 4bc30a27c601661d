// 3D grid and 3D block: each thread writes a code of its (x,y,z) ids into a 3D volume with guards.
extern "C" __global__ void idx3d(int *vol, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) {
        int lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        int blk = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
        vol[(z * ny + y) * nx + x] = blk * 1000 + lin;
    }
}
