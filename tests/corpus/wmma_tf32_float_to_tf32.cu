// tf32 WMMA as cuda-samples' tf32TensorCoreGemm writes it (CUDA C++ Programming Guide
// "Warp Matrix Functions", "Alternate Floating Point": m16n16k8 with precision::tf32
// fragments, each element rounded by wmma::__float_to_tf32, which is PTX ISA §9.7.9.21
// cvt.rna.tf32.f32). A's and B's low 13 mantissa bits sit at, below and above the tie
// (0x1000), so a conversion that truncates or ties to even gives other products. At and
// Bt hold the conversions themselves, element by element. One warp, one tile. Needs the
// CUDA headers (mma.h).
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_tf32_float_to_tf32(const float *A, const float *B, const float *C,
                                                   float *D, float *At, float *Bt)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::load_matrix_sync(fa, A, 8);
    wmma::load_matrix_sync(fb, B, 8);
    wmma::load_matrix_sync(fc, C, 16, wmma::mem_row_major);
    for (int t = 0; t < fa.num_elements; t++)
        fa.x[t] = wmma::__float_to_tf32(fa.x[t]);
    for (int t = 0; t < fb.num_elements; t++)
        fb.x[t] = wmma::__float_to_tf32(fb.x[t]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(D, fc, 16, wmma::mem_row_major);
    for (int i = threadIdx.x; i < 16 * 8; i += 32) {
        At[i] = wmma::__float_to_tf32(A[i]);
        Bt[i] = wmma::__float_to_tf32(B[i]);
    }
}
