/* float.h — for NVRTC, which has no C library headers ("cannot open source file
 * float.h"): the characteristics of float and double (C11 §5.2.4.2.2, IEEE 754 binary32
 * and binary64). */
#ifndef GPULEARN_NVRTC_FLOAT_H
#define GPULEARN_NVRTC_FLOAT_H
#define FLT_RADIX 2
#define FLT_MANT_DIG 24
#define DBL_MANT_DIG 53
#define FLT_DIG 6
#define DBL_DIG 15
#define FLT_EPSILON 1.19209290e-7F
#define DBL_EPSILON 2.2204460492503131e-16
#define FLT_MIN 1.17549435e-38F
#define DBL_MIN 2.2250738585072014e-308
#define FLT_MAX 3.40282347e+38F
#define DBL_MAX 1.7976931348623157e+308
#define FLT_TRUE_MIN 1.40129846e-45F
#define DBL_TRUE_MIN 4.9406564584124654e-324
#endif
