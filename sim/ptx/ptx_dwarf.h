/* ptx_dwarf.h — source variable names from the DWARF sections a debug build (-G) writes
 * into its PTX (PTX ISA §11.1.2 .section: `.debug_abbrev`, `.debug_info`, `.debug_loc`,
 * `.debug_str` as `.b8`/`.b16`/`.b32`/`.b64` data, some of it label references).
 *
 * What it reads (DWARF 2-5, 32-bit format, as NVRTC, nvcc and clang emit): the DIEs
 * DW_TAG_subprogram, DW_TAG_inlined_subroutine, DW_TAG_lexical_block (scopes with
 * DW_AT_low_pc/DW_AT_high_pc), DW_TAG_variable and DW_TAG_formal_parameter (DW_AT_name,
 * or DW_AT_abstract_origin's name; DW_AT_decl_line; DW_AT_location as an expression or
 * a DWARF 2-4 .debug_loc list). A location names a PTX register with DW_OP_regx whose
 * ULEB operand is the register's name as ASCII bytes, most significant first (NVPTX:
 * "%r1" is 0x257231). Locations of any other kind (memory, a parameter's address,
 * DW_OP_reg0..31) are left out.
 *
 * Only a debug build has locations: NVRTC's and nvcc's `-G --dopt=on` and clang's -O2
 * `-g` record line numbers only (see README, "Source variable names"). */
#ifndef GL_PTX_DWARF_H
#define GL_PTX_DWARF_H

#include <stddef.h>
#include <stdint.h>

/* One `.section NAME { ... }` of the PTX text: NAME (".debug_info", ...) and the text
 * between the braces. Pointers into the caller's PTX text, not owned. */
typedef struct ptx_dwarf_sec {
    const char *name;
    size_t name_len;
    const char *text;
    size_t len;
} ptx_dwarf_sec;

/* Resolves a code label ("$L__tmp3", "Lfunc_begin0") to the index of the instruction
 * it precedes (its PC in the module), or -1 when no such label exists. */
typedef int (*ptx_dwarf_label_fn)(void *ctx, const char *name, size_t len);

/* A source variable held in a PTX register over a range of instructions. */
typedef struct ptx_srcvar {
    char name[32]; /* the source name ("i", "sum"; longer names truncated) */
    char reg[16];  /* the PTX register holding it ("%r1", "%fd3") */
    int32_t pc_lo; /* it holds for instructions [pc_lo, pc_hi) of the module */
    int32_t pc_hi;
    int32_t decl_line; /* DW_AT_decl_line, 0 unknown */
    uint8_t is_param;  /* DW_TAG_formal_parameter */
} ptx_srcvar;

/* Reads the DWARF of the sections secs[0..nsecs) (others than .debug_abbrev,
 * .debug_info, .debug_loc and .debug_str are ignored) into *out (caller frees; NULL
 * when none) and *nout. Variables whose scope or location range cannot be resolved to
 * PCs with `label` are left out. Returns 0 (also when there is no .debug_info: no
 * variables), -1 on malformed input (truncated data, unknown abbreviation or form, a
 * directive that is not data; err says what, errlen bytes) or -2 when memory ran out;
 * on error *out is NULL and *nout 0. Never reads outside the sections' text. */
int ptx_dwarf_read(const ptx_dwarf_sec *secs, int nsecs, ptx_dwarf_label_fn label, void *ctx,
                   ptx_srcvar **out, int *nout, char *err, size_t errlen);

#endif
