/* simd_video.h — the CUDA Math API's SIMD intrinsics (CUDA Math API reference, "SIMD
 * Intrinsics": __vadd4, __vabsdiffu4, __vcmpgtu2, ...) for clang without the CUDA
 * Toolkit. Included by gpulearn_prelude.h, which defines GL_DEV.
 *
 * Each function treats its 32-bit arguments as 2 half-words (the ...2 functions) or 4
 * bytes (...4), lane 0 in the low bits, computes every lane on its own and packs the
 * lanes back: w is the lane width, a and b the lane's values (sign-extended for the
 * signed functions, the "s" in their names; zero-extended otherwise), lo and hi the
 * lane's range for saturation. As documented there (and as libdevice computes them):
 *   __vadd/__vsub wrap; ...ss saturate to the signed range, ...us to the unsigned one;
 *   __vavgs/__vavgu round half away from zero ((a + b + 1) >> 1 for a + b >= 0, else
 *   (a + b) >> 1: PTX's vavrg), __vhaddu truncates; __vabsdiff: |a - b| in the lane;
 *   __vcmpXX: all ones in each lane where a XX b holds, else 0; __vsetXX: 1 in each
 *   such lane; __vsad: the sum of the lanes' |a - b| (a plain 32-bit value); __vabs and
 *   __vneg wrap (|-128| = -(-128) = 0x80), __vabsss/__vnegss saturate to +127/+32767.
 * __vabsdiffu4, __vsadu4 and __vsadu2 use PTX's vabsdiff4/vabsdiff2 (PTX ISA §9.7.16.2),
 * as nvcc's do; the rest is plain C that clang folds per lane. */
#ifndef GL_SIMD_VIDEO_H
#define GL_SIMD_VIDEO_H

/* lane i (of width w) of x, sign- or zero-extended */
GL_DEV int gl_vlane(unsigned x, int i, int w, int sgn)
{
    unsigned v = (x >> (i * w)) & ((1u << w) - 1);
    return sgn && (v >> (w - 1)) ? (int)v - (1 << w) : (int)v;
}
GL_DEV int gl_vclamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

/* name##2 and name##4 with lanes r = expr(a, b, lo, hi), sgn: signed lanes */
#define GL_VLANES(w, sgn, expr)                                                            \
    {                                                                                      \
        unsigned r_ = 0;                                                                   \
        for (int i_ = 0; i_ < 32 / (w); i_++) {                                            \
            const int a = gl_vlane(x_, i_, (w), (sgn)), b = gl_vlane(y_, i_, (w), (sgn));   \
            const int hi = (sgn) ? (1 << ((w) - 1)) - 1 : (1 << (w)) - 1;                   \
            const int lo = (sgn) ? -hi - 1 : 0;                                            \
            (void)a, (void)b, (void)lo, (void)hi;                                          \
            r_ |= ((unsigned)(expr) & ((1u << (w)) - 1)) << (i_ * (w));                    \
        }                                                                                  \
        return r_;                                                                         \
    }
#define GL_VBIN(name, sgn, expr)                                                           \
    GL_DEV unsigned name##2(unsigned x_, unsigned y_) GL_VLANES(16, sgn, expr)             \
    GL_DEV unsigned name##4(unsigned x_, unsigned y_) GL_VLANES(8, sgn, expr)
#define GL_VUN(name, sgn, expr)                                                            \
    GL_DEV unsigned name##2(unsigned x_) { const unsigned y_ = 0; GL_VLANES(16, sgn, expr) } \
    GL_DEV unsigned name##4(unsigned x_) { const unsigned y_ = 0; GL_VLANES(8, sgn, expr) }
/* comparisons: __vcmpXX (all ones per lane) and __vsetXX (1 per lane) */
#define GL_VCMP(cc, sgn, op)                                                               \
    GL_VBIN(__vcmp##cc, sgn, -(a op b))                                                    \
    GL_VBIN(__vset##cc, sgn, a op b)

GL_VBIN(__vadd, 0, a + b)
GL_VBIN(__vaddss, 1, gl_vclamp(a + b, lo, hi))
GL_VBIN(__vaddus, 0, gl_vclamp(a + b, lo, hi))
GL_VBIN(__vsub, 0, a - b)
GL_VBIN(__vsubss, 1, gl_vclamp(a - b, lo, hi))
GL_VBIN(__vsubus, 0, gl_vclamp(a - b, lo, hi))
GL_VBIN(__vavgs, 1, a + b >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1)
GL_VBIN(__vavgu, 0, (a + b + 1) >> 1)
GL_VBIN(__vhaddu, 0, (a + b) >> 1)
GL_VBIN(__vabsdiffs, 1, a > b ? a - b : b - a)
GL_VBIN(__vmaxs, 1, a > b ? a : b)
GL_VBIN(__vmaxu, 0, a > b ? a : b)
GL_VBIN(__vmins, 1, a < b ? a : b)
GL_VBIN(__vminu, 0, a < b ? a : b)
GL_VUN(__vabs, 1, a < 0 ? -a : a)
GL_VUN(__vabsss, 1, gl_vclamp(a < 0 ? -a : a, lo, hi))
GL_VUN(__vneg, 1, -a)
GL_VUN(__vnegss, 1, gl_vclamp(-a, lo, hi))
GL_VCMP(eq, 0, ==)
GL_VCMP(ne, 0, !=)
GL_VCMP(ges, 1, >=)
GL_VCMP(geu, 0, >=)
GL_VCMP(gts, 1, >)
GL_VCMP(gtu, 0, >)
GL_VCMP(les, 1, <=)
GL_VCMP(leu, 0, <=)
GL_VCMP(lts, 1, <)
GL_VCMP(ltu, 0, <)

GL_DEV unsigned __vabsdiffu2(unsigned x_, unsigned y_) GL_VLANES(16, 0, a > b ? a - b : b - a)
GL_DEV unsigned __vabsdiffu4(unsigned a, unsigned b)
{
    unsigned r;
    asm("vabsdiff4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0u));
    return r;
}
/* sums of absolute differences: one 32-bit value */
GL_DEV unsigned __vsadu2(unsigned a, unsigned b)
{
    unsigned r;
    asm("vabsdiff2.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0u));
    return r;
}
GL_DEV unsigned __vsadu4(unsigned a, unsigned b)
{
    unsigned r;
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0u));
    return r;
}
GL_DEV unsigned __vsads2(unsigned a, unsigned b)
{
    unsigned d = __vabsdiffs2(a, b);
    return (d & 0xffffu) + (d >> 16);
}
GL_DEV unsigned __vsads4(unsigned a, unsigned b)
{
    unsigned d = __vabsdiffs4(a, b);
    return (d & 0xff) + ((d >> 8) & 0xff) + ((d >> 16) & 0xff) + (d >> 24);
}

#undef GL_VCMP
#undef GL_VUN
#undef GL_VBIN
#undef GL_VLANES
#endif
