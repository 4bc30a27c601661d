/* sim_initcheck.c — initcheck: loads of bytes nothing wrote (global: one bit per
 * byte, set by sim_memcpy_htod and kernel stores; shared: one byte per byte, per block),
 * reported as warnings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_mem.h"

/* ------------------------------------------------------------------ initcheck */

/* Whether the n bits from bit o of the initcheck bitmap b are all set. */
int sim_bits_all_set(const unsigned char *b, uint64_t o, uint64_t n)
{
    uint64_t i = o;
    const uint64_t end = o + n;
    for (; i < end && (i & 7); i++)
        if (!((b[i >> 3] >> (i & 7)) & 1))
            return 0;
    for (; i + 64 <= end; i += 64) {
        uint64_t v;
        memcpy(&v, b + (i >> 3), 8);
        if (v != UINT64_MAX)
            return 0;
    }
    for (; i + 8 <= end; i += 8)
        if (b[i >> 3] != 0xff)
            return 0;
    for (; i < end; i++)
        if (!((b[i >> 3] >> (i & 7)) & 1))
            return 0;
    return 1;
}

static int all_written(const unsigned char *bits, uint64_t off, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        if (!(bits[(off + i) >> 3] & (1u << ((off + i) & 7))))
            return 0;
    return 1;
}

__attribute__((cold, noinline)) void sim_report_uninit(sim_ctx *c, unsigned t, const ptx_insn *in,
                                                       sim_space sp, uint64_t addr, unsigned size,
                                                       const char *what)
{
    int32_t pc = (int32_t)(in - c->code);
    sim_finding *f = sim_add_finding(c, SIM_FIND_UNINIT_READ, 0, sp, addr, size, SIM_HAZ_NONE, t,
                                     pc, 0, -1, -1, 0);
    if (!f)
        return;
    char where[200], wa[80];
    sim_where(c, in, where, sizeof where);
    sim_who(c, t, wa, sizeof wa);
    snprintf(f->message, sizeof f->message,
             "read of uninitialised memory: %s reads %u bytes at %s address 0x%llx (%s) at "
             "%s, but nothing wrote them: %s",
             wa, size, sp == SIM_SPACE_SHARED ? "shared" : "global", (unsigned long long)addr, what,
             where,
             sp == SIM_SPACE_SHARED
                 ? "shared memory starts with arbitrary values on a GPU (the simulator fills "
                   "it with a poison pattern)"
                 : "it was neither copied from the host nor stored by a kernel");
}

void sim_global_init_check(sim_ctx *c, unsigned t, sim_alloc *al, uint64_t a, unsigned size,
                           int kind, const ptx_insn *in)
{
    uint64_t off = a - al->base;
    if ((off & 7) + size <= 8) { /* the common case: all bits in one byte */
        unsigned char bits = (unsigned char)(((1u << size) - 1) << (off & 7));
        if (kind == 1 || (al->written[off >> 3] & bits) == bits) {
            al->written[off >> 3] |= bits;
            return;
        }
    }
    /* a load, or an atomic (it reads the word before it writes it) */
    if (kind != 1 && !all_written(al->written, off, size)) {
        char what[120];
        snprintf(what, sizeof what, "byte offset %llu of '%s'", (unsigned long long)off, al->label);
        sim_report_uninit(c, t, in, SIM_SPACE_GLOBAL, a, size, what);
    }
    if (kind != 0)
        for (unsigned i = 0; i < size; i++)
            al->written[(off + i) >> 3] |= (unsigned char)(1u << ((off + i) & 7));
}
