// Shared memory has 32 banks; word w lives in bank w % 32. Lane i of `stride2` reads
// word 2i: lanes i and i + 16 hit the same bank (a 2-way conflict). `padded` reads a
// column of a 32 x 33 tile: the extra column puts each row's start in a new bank.
extern "C" __global__ void stride2(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    s[threadIdx.x + 32] = threadIdx.x + 32;
    __syncthreads();
    out[threadIdx.x] = s[2 * threadIdx.x];
}

extern "C" __global__ void column(int *out)
{
    __shared__ int tile[32][32];
    for (int r = 0; r < 32; r++)
        tile[r][threadIdx.x] = r * 32 + threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][0]; // 32 lanes, one bank: 32-way conflict
}

extern "C" __global__ void padded(int *out)
{
    __shared__ int tile[32][33];
    for (int r = 0; r < 32; r++)
        tile[r][threadIdx.x] = r * 32 + threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][0]; // word 33 * i: banks i, no conflict
}
