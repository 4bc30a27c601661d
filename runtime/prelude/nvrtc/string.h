/* string.h — for NVRTC, which has no C library headers ("cannot open source file string.h"):
 * memcpy and memset are built into NVRTC; nothing to declare. */
