/* stdio.h — for NVRTC, which has no C library headers ("cannot open source file stdio.h"):
 * printf is built into NVRTC; nothing to declare. */
