// matrixMul kind: a C++ template kernel body (BLOCK = 8) over int matrices whose sizes are multiples of the block, wrapped in extern "C".
template <int BLOCK>
__device__ void matmul_block(const int *A, const int *B, int *C, int wA, int wB)
{
    __shared__ int As[BLOCK][BLOCK];
    __shared__ int Bs[BLOCK][BLOCK];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int sum = 0;
    for (int a = wA * BLOCK * by, b = BLOCK * bx; a < wA * BLOCK * by + wA; a += BLOCK, b += BLOCK * wB) {
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK; ++k)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(by * BLOCK + ty) * wB + bx * BLOCK + tx] = sum;
}
extern "C" __global__ void matrix_mul_template(const int *A, const int *B, int *C, int wA, int wB)
{
    matmul_block<8>(A, B, C, wA, wB);
}
