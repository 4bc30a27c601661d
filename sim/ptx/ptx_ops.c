/* ptx_ops.c — what ptx_ops.def says of each PTX operation, as one table: its mnemonic,
 * its trace class and the operand count the parser checks (PTX ISA §9.7
 * "Instructions"). The parser, the trace's instruction table, the executor's messages
 * and gpulearn's PTX instrumentation all read it; nothing else lists op names. */
#include "sim/ptx/ptx_ir.h"

#include <string.h>

const ptx_op_info ptx_op_table[PTX_OP_COUNT] = {
#define BIN(n, cls, i, f, d) {#n, TRACE_CLASS_##cls, 3},
#define UN(n, cls, i, f, d) {#n, TRACE_CLASS_##cls, 2},
#define OP(n, cls, k) {#n, TRACE_CLASS_##cls, k},
#include "sim/ptx/ptx_ops.def"
#undef BIN
#undef UN
#undef OP
};

int ptx_op_lookup(const char *name, size_t len)
{
    for (int i = 0; i < PTX_OP_COUNT; i++)
        if (strlen(ptx_op_table[i].name) == len && memcmp(ptx_op_table[i].name, name, len) == 0)
            return i;
    return -1;
}

int ptx_op_class(const char *name, size_t len)
{
    const int op = ptx_op_lookup(name, len);
    return op < 0 ? TRACE_CLASS_OTHER : ptx_op_table[op].cls;
}
