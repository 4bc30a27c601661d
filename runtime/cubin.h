/* cubin.h — registers per thread of a cubin's kernels, read from its ELF file.
 *
 * ptxas (or NVRTC for a real sm_XX target) writes a cubin: an ELF64 file with one
 * ".text.<name>" section per function, whose sh_info holds the registers each thread of
 * the function uses in its top 8 bits (what `cuobjdump --dump-resource-usage` and
 * `ptxas -v`'s "Used N registers" report; CU_FUNC_ATTRIBUTE_NUM_REGS on a GPU). The
 * cubin is made from untrusted code: every offset and size is checked against the
 * file's length before it is read. */
#ifndef GL_CUBIN_H
#define GL_CUBIN_H

#include <stddef.h>

/* The register table of a cubin compiled for target sm (e.g. 75): "sm_75\n" then one
 * line per function, "<registers> <name>\n" (names as in the PTX: mangled unless
 * extern "C"; a name with a byte outside '!'..'~' is left out). Returns the table
 * (malloc'd, caller frees), or NULL with why (whylen bytes) saying what is wrong with
 * the file: not an ELF64 cubin, a header, section or name outside the file, no
 * function. */
char *gl_cubin_regs(const void *elf, size_t len, int sm, char *why, size_t whylen);

/* The registers per thread of kernel in a table of gl_cubin_regs, or -1 when the table
 * has no such function. *sm (if not NULL) is the target the table was counted for (0
 * when the table has no "sm_N" line). */
int gl_cubin_regs_of(const char *table, const char *kernel, int *sm);

#endif
