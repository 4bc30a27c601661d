/* gpulearn/vector_types.h — CUDA's built-in vector types, dim3 and the make_ functions
 * (CUDA C++ Programming Guide §7.3.1), for gpulearn_prelude.h (kernels and the device
 * side of whole programs) and for a whole program's host-only C++ files, which get them
 * from cudart/include/cuda_runtime.h. The includer defines GL_HD (the make_ functions'
 * qualifiers) and, outside CUDA, __host__ and __device__ as nothing. */
#ifndef GPULEARN_VECTOR_TYPES_H
#define GPULEARN_VECTOR_TYPES_H
/* Every built-in vector type TN (T char, uchar, short, ushort, int, uint, long, ulong,
 * longlong, ulonglong, float, double; N 1 to 4) with the alignment the Programming
 * Guide's table in §7.3.1 gives it: 1- and 3-element types that of their element, 2- and
 * 4-element ones their size, at most 16 bytes (the 16-byte-aligned double4, long4, ...
 * that CUDA 13 calls *_16a). Each with its make_TN. */
#define GL_VEC(T, E, A2, A4)                                                               \
    struct T##1 { E x; };                                                                   \
    struct __attribute__((aligned(A2))) T##2 { E x, y; };                                  \
    struct T##3 { E x, y, z; };                                                             \
    struct __attribute__((aligned(A4))) T##4 { E x, y, z, w; };                            \
    GL_HD T##1 make_##T##1(E x) { T##1 v = {x}; return v; }                              \
    GL_HD T##2 make_##T##2(E x, E y) { T##2 v = {x, y}; return v; }                      \
    GL_HD T##3 make_##T##3(E x, E y, E z) { T##3 v = {x, y, z}; return v; }              \
    GL_HD T##4 make_##T##4(E x, E y, E z, E w) { T##4 v = {x, y, z, w}; return v; }
GL_VEC(char, signed char, 2, 4)
GL_VEC(uchar, unsigned char, 2, 4)
GL_VEC(short, short, 4, 8)
GL_VEC(ushort, unsigned short, 4, 8)
GL_VEC(int, int, 8, 16)
GL_VEC(uint, unsigned, 8, 16)
GL_VEC(long, long, 16, 16)
GL_VEC(ulong, unsigned long, 16, 16)
GL_VEC(longlong, long long, 16, 16)
GL_VEC(ulonglong, unsigned long long, 16, 16)
GL_VEC(float, float, 8, 16)
GL_VEC(double, double, 16, 16)
#undef GL_VEC
struct dim3 {
    unsigned x, y, z;
    __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1)
        : x(vx), y(vy), z(vz) {}
    __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
#endif
