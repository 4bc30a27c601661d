/* assert.h — for NVRTC, which has no C library headers ("cannot open source file assert.h"):
 * assert is built into NVRTC (a false one calls __assertfail); nothing to declare. */
