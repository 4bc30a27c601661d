/* stdlib.h — for NVRTC, which has no C library headers ("cannot open source file stdlib.h"):
 * malloc, free and abs are built into NVRTC; nothing to declare. */
