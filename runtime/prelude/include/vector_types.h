/* vector_types.h — for clang without a CUDA Toolkit. What kernels use from it (built-in variables,
 * vector types and make_ functions, atomics, intrinsics) is in gpulearn_prelude.h, which
 * every kernel gets; the host API is not needed to compile device code. This header
 * lets a kernel that includes it compile, whether or not a Toolkit's headers are on the
 * host compiler's path (clang searches this folder first). */
