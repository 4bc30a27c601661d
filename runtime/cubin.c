/* cubin.c — the register table of a cubin (cubin.h): its ELF64 sections, read with every
 * offset and size checked against the file (the cubin comes from untrusted code, through
 * ptxas). Little-endian ELF64 of machine EM_CUDA (190), as ptxas writes for every 64-bit
 * target.
 *
 * Where the count lies: the ".nv.info" section is a list of attributes, each a format
 * byte, an attribute byte and a value (format 4: a 16-bit size and that many bytes;
 * formats 1-3: a value of at most 2 bytes, 4 bytes in all). Attribute 0x2f
 * (EIATTR_REGCOUNT in cuobjdump -elf's listing) holds a function's symbol index and its
 * registers per thread, two 32-bit words. Up to CUDA 12, ptxas also put the count in the
 * top 8 bits of sh_info of the function's ".text.<name>" section (CUDA 13's ptxas no
 * longer does for sm_90): that is read only when .nv.info has no count. Both checked
 * against `ptxas -v`'s "Used N registers" for sm_75 and sm_90 (tests/test_compile.c). */
#include "runtime/cubin.h"

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EIATTR_REGCOUNT 0x2f
#define EIFMT_SVAL 0x04 /* a 16-bit size and that many bytes */

/* Whether [off, off + n) lies within len bytes. */
static int within(uint64_t off, uint64_t n, size_t len)
{
    return off <= len && n <= len - off;
}

/* A checked view of the file's sections. */
typedef struct cubin {
    const unsigned char *b;
    size_t len;
    Elf64_Ehdr eh;
} cubin;

/* Section i's header into *sh (i < e_shnum, checked by the caller's header check); 0, or
 * -1 when its contents lie outside the file (SHT_NOBITS has none). */
static int section(const cubin *c, unsigned i, Elf64_Shdr *sh)
{
    memcpy(sh, c->b + c->eh.e_shoff + (uint64_t)i * c->eh.e_shentsize, sizeof *sh);
    return sh->sh_type == SHT_NOBITS || within(sh->sh_offset, sh->sh_size, c->len) ? 0 : -1;
}

/* The NUL-terminated string at offset off of string section sh, or NULL when it does not
 * end inside the section. */
static const char *string_at(const cubin *c, const Elf64_Shdr *sh, uint64_t off)
{
    if (sh->sh_type == SHT_NOBITS || off >= sh->sh_size)
        return NULL;
    const char *s = (const char *)c->b + sh->sh_offset + off;
    return memchr(s, '\0', sh->sh_size - off) ? s : NULL;
}

/* Whether name is one the table can hold: 1 to 4095 bytes of '!'..'~'. */
static int printable(const char *name)
{
    size_t n = 0;
    for (; name[n]; n++)
        if (name[n] < '!' || name[n] > '~' || n >= 4095)
            return 0;
    return n > 0;
}

/* The name of symbol sym of symbol table symtab (its strings in section sh_link), or
 * NULL. */
static const char *symbol_name(const cubin *c, const Elf64_Shdr *symtab, uint32_t sym)
{
    Elf64_Shdr strtab;
    if (symtab->sh_entsize < sizeof(Elf64_Sym) || sym >= symtab->sh_size / symtab->sh_entsize ||
        symtab->sh_link >= c->eh.e_shnum || section(c, symtab->sh_link, &strtab) != 0)
        return NULL;
    Elf64_Sym s;
    memcpy(&s, c->b + symtab->sh_offset + (uint64_t)sym * symtab->sh_entsize, sizeof s);
    return string_at(c, &strtab, s.st_name);
}

/* Appends "<regs> <name>\n" for each EIATTR_REGCOUNT of .nv.info section info; returns
 * how many. */
static int from_nv_info(const cubin *c, const Elf64_Shdr *info, const Elf64_Shdr *symtab, FILE *m)
{
    const unsigned char *d = c->b + info->sh_offset;
    int n = 0;
    for (uint64_t i = 0; i + 4 <= info->sh_size;) {
        const unsigned fmt = d[i], attr = d[i + 1];
        if (fmt != EIFMT_SVAL) {
            i += 4;
            continue;
        }
        const uint16_t size = (uint16_t)(d[i + 2] | d[i + 3] << 8);
        if (size > info->sh_size - i - 4)
            break; /* a value past the section's end */
        if (attr == EIATTR_REGCOUNT && size >= 8 && symtab) {
            uint32_t sym, regs;
            memcpy(&sym, d + i + 4, 4);
            memcpy(&regs, d + i + 8, 4);
            const char *name = symbol_name(c, symtab, sym);
            if (name && printable(name) && regs <= 255) {
                fprintf(m, "%u %s\n", (unsigned)regs, name);
                n++;
            }
        }
        i += 4 + (uint64_t)size;
    }
    return n;
}

char *gl_cubin_regs(const void *elf, size_t len, int sm, char *why, size_t whylen)
{
    cubin c = {.b = elf, .len = len};
    if (!c.b || len < sizeof c.eh || memcmp(c.b, ELFMAG, SELFMAG) != 0) {
        snprintf(why, whylen, "not an ELF file");
        return NULL;
    }
    memcpy(&c.eh, c.b, sizeof c.eh);
    if (c.eh.e_ident[EI_CLASS] != ELFCLASS64 || c.eh.e_ident[EI_DATA] != ELFDATA2LSB ||
        c.eh.e_machine != EM_CUDA) {
        snprintf(why, whylen, "not a 64-bit CUDA ELF file (class %d, machine %d)",
                 c.eh.e_ident[EI_CLASS], c.eh.e_machine);
        return NULL;
    }
    Elf64_Shdr names;
    if (c.eh.e_shentsize < sizeof(Elf64_Shdr) || c.eh.e_shnum == 0 ||
        c.eh.e_shstrndx >= c.eh.e_shnum ||
        !within(c.eh.e_shoff, (uint64_t)c.eh.e_shnum * c.eh.e_shentsize, len) ||
        section(&c, c.eh.e_shstrndx, &names) != 0) {
        snprintf(why, whylen, "its section headers lie outside the file");
        return NULL;
    }
    /* the symbol table, the attributes and the functions' code sections */
    Elf64_Shdr symtab, info;
    int have_symtab = 0, have_info = 0;
    for (unsigned i = 0; i < c.eh.e_shnum; i++) {
        Elf64_Shdr sh;
        const char *name;
        if (section(&c, i, &sh) != 0 || !(name = string_at(&c, &names, sh.sh_name)))
            continue;
        if (sh.sh_type == SHT_SYMTAB && !have_symtab)
            symtab = sh, have_symtab = 1;
        else if (strcmp(name, ".nv.info") == 0 && sh.sh_type != SHT_NOBITS && !have_info)
            info = sh, have_info = 1;
    }
    char *out = NULL;
    size_t outlen = 0;
    FILE *m = open_memstream(&out, &outlen);
    if (!m) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    fprintf(m, "sm_%d\n", sm);
    int nfuncs = have_info ? from_nv_info(&c, &info, have_symtab ? &symtab : NULL, m) : 0;
    static const char text[] = ".text.";
    for (unsigned i = 0; i < c.eh.e_shnum && nfuncs == 0; i++) {
        Elf64_Shdr sh;
        const char *name;
        if (section(&c, i, &sh) != 0 || !(name = string_at(&c, &names, sh.sh_name)) ||
            strncmp(name, text, sizeof text - 1) != 0 || !printable(name) ||
            (sh.sh_info >> 24) == 0)
            continue;
        /* sh_info: the registers in bits 24..31 (the low bits: the function's symbol) */
        fprintf(m, "%u %s\n", (unsigned)(sh.sh_info >> 24), name + sizeof text - 1);
        nfuncs++;
    }
    if (fclose(m) != 0 || nfuncs == 0) {
        free(out);
        snprintf(why, whylen, nfuncs ? "out of memory" : "it holds no function's register count");
        return NULL;
    }
    return out;
}

int gl_cubin_regs_of(const char *table, const char *kernel, int *sm)
{
    if (sm)
        *sm = 0;
    if (!table || !kernel)
        return -1;
    if (sm && strncmp(table, "sm_", 3) == 0)
        *sm = atoi(table + 3);
    const size_t klen = strlen(kernel);
    for (const char *line = strchr(table, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        const char *p = line + 1, *sp = strchr(p, ' ');
        const char *end = strchr(p, '\n');
        if (!sp || (end && sp > end))
            continue;
        const size_t nlen = end ? (size_t)(end - sp - 1) : strlen(sp + 1);
        if (nlen == klen && memcmp(sp + 1, kernel, klen) == 0)
            return atoi(p);
    }
    return -1;
}
