// Right: the same tiles, multiplied with mma.sync.m16n8k16 (two per warp and slice, one
// per 8-column half of the warp's quarter) on fragments loaded by ldmatrix.
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

extern "C" __global__ void wmma_gemm(const signed char *A, const signed char *B, float *C, int M,
                                     int N, int K)
{
    __shared__ __align__(16) half As[32][16];
    __shared__ __align__(16) half Bs[16][32];
    const int l = threadIdx.x, tid = threadIdx.y * 32 + l;
    const int wr = threadIdx.y / 2, wc = threadIdx.y % 2;
    const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    float c[2][4] = {};
    for (int t = 0; t < K; t += 16) {
        for (int i = tid; i < 512; i += 128) {
            const int ar = i / 16, ac = i % 16, br = i / 32, bc = i % 32;
            As[ar][ac] = __int2half_rn(row0 + ar < M ? A[(row0 + ar) * K + t + ac] : 0);
            Bs[br][bc] = __int2half_rn(col0 + bc < N ? B[(t + br) * N + col0 + bc] : 0);
        }
        __syncthreads();
        unsigned a[4];
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                     : "r"(smem(&As[16 * wr + l % 8 + 8 * (l / 8 % 2)][8 * (l / 16)])));
        for (int j = 0; j < 2; j++) {
            unsigned b[2];
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                         : "=r"(b[0]), "=r"(b[1])
                         : "r"(smem(&Bs[l % 16][16 * wc + 8 * j])));
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                         "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                         : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        }
        __syncthreads();
    }
    const int row = row0 + 16 * wr + l / 4;
    if (row0 + 16 * wr < M && col0 + 16 * wc < N)
        for (int j = 0; j < 2; j++) {
            const int col = col0 + 16 * wc + 8 * j + 2 * (l % 4);
            C[row * N + col] = c[j][0];
            C[row * N + col + 1] = c[j][1];
            C[(row + 8) * N + col] = c[j][2];
            C[(row + 8) * N + col + 1] = c[j][3];
        }
}
