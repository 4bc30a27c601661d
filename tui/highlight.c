/* highlight.c — CUDA C highlighting: the attribute of every byte of a source line
 * (keywords, types, built-ins, numbers, strings, comments, preprocessor), for the source
 * pane and the built-in editor. */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "tui/pane.h"
#include "tui/term.h"

static bool word_in(const char *w, size_t n, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && memcmp(list[i], w, n) == 0)
            return true;
    return false;
}

static const char *const k_kw[] = {"if",
                                   "else",
                                   "for",
                                   "while",
                                   "do",
                                   "return",
                                   "break",
                                   "continue",
                                   "switch",
                                   "case",
                                   "default",
                                   "goto",
                                   "sizeof",
                                   "struct",
                                   "union",
                                   "enum",
                                   "typedef",
                                   "const",
                                   "volatile",
                                   "static",
                                   "extern",
                                   "inline",
                                   "__forceinline__",
                                   "template",
                                   "typename",
                                   "namespace",
                                   "using",
                                   "constexpr",
                                   "auto",
                                   "__global__",
                                   "__device__",
                                   "__host__",
                                   "__shared__",
                                   "__constant__",
                                   "__managed__",
                                   "__restrict__",
                                   "__launch_bounds__",
                                   "__noinline__",
                                   "true",
                                   "false",
                                   "nullptr",
                                   NULL};
static const char *const k_types[] = {
    "void",     "char",    "short",    "int",      "long",     "float",   "double",
    "unsigned", "signed",  "bool",     "size_t",   "int8_t",   "int16_t", "int32_t",
    "int64_t",  "uint8_t", "uint16_t", "uint32_t", "uint64_t", "dim3",    "float2",
    "float3",   "float4",  "int2",     "int3",     "int4",     "uint2",   "uint3",
    "uint4",    "double2", "half",     "__half",   "__half2",  NULL};
static const char *const k_builtins[] = {"threadIdx",
                                         "blockIdx",
                                         "blockDim",
                                         "gridDim",
                                         "warpSize",
                                         "__syncthreads",
                                         "__syncwarp",
                                         "__syncthreads_count",
                                         "__syncthreads_and",
                                         "__syncthreads_or",
                                         "__threadfence",
                                         "__threadfence_block",
                                         "atomicAdd",
                                         "atomicSub",
                                         "atomicExch",
                                         "atomicMin",
                                         "atomicMax",
                                         "atomicInc",
                                         "atomicDec",
                                         "atomicCAS",
                                         "atomicAnd",
                                         "atomicOr",
                                         "atomicXor",
                                         "__shfl_sync",
                                         "__shfl_up_sync",
                                         "__shfl_down_sync",
                                         "__shfl_xor_sync",
                                         "__ballot_sync",
                                         "__any_sync",
                                         "__all_sync",
                                         "__activemask",
                                         "__popc",
                                         "__clz",
                                         "__ffs",
                                         "__ldg",
                                         "printf",
                                         "assert",
                                         "min",
                                         "max",
                                         "sqrtf",
                                         "expf",
                                         "fabsf",
                                         "fmaf",
                                         NULL};

void view_code_attrs(const char *line, int *attrs, bool *in_comment)
{
    size_t n = strlen(line), i = 0;
    bool preproc = false;
    {
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t'))
            k++;
        preproc = !*in_comment && k < n && line[k] == '#';
    }
    while (i < n) {
        if (*in_comment) {
            size_t s0 = i;
            while (i < n && !(line[i] == '*' && i + 1 < n && line[i + 1] == '/'))
                i++;
            if (i < n)
                i += 2, *in_comment = false;
            for (size_t k = s0; k < i; k++)
                attrs[k] = term_attr(TC_CODE_COMMENT);
            continue;
        }
        char c = line[i];
        if (c == '/' && i + 1 < n && line[i + 1] == '/') {
            for (size_t k = i; k < n; k++)
                attrs[k] = term_attr(TC_CODE_COMMENT);
            return;
        }
        if (c == '/' && i + 1 < n && line[i + 1] == '*') {
            *in_comment = true;
            attrs[i] = attrs[i + 1] = term_attr(TC_CODE_COMMENT);
            i += 2;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t s0 = i++;
            while (i < n && line[i] != c)
                i += (line[i] == '\\' && i + 1 < n) ? 2 : 1;
            if (i < n)
                i++;
            for (size_t k = s0; k < i && k < n; k++)
                attrs[k] = term_attr(TC_CODE_STRING);
            continue;
        }
        if ((c >= '0' && c <= '9') ||
            (c == '.' && i + 1 < n && line[i + 1] >= '0' && line[i + 1] <= '9')) {
            size_t s0 = i;
            while (i < n && (isalnum((unsigned char)line[i]) || line[i] == '.' ||
                             ((line[i] == '+' || line[i] == '-') &&
                              (line[i - 1] == 'e' || line[i - 1] == 'E'))))
                i++;
            for (size_t k = s0; k < i; k++)
                attrs[k] = term_attr(TC_CODE_NUMBER);
            continue;
        }
        if (isalpha((unsigned char)c) || c == '_') {
            size_t s0 = i;
            while (i < n && (isalnum((unsigned char)line[i]) || line[i] == '_'))
                i++;
            int at = preproc ? term_attr(TC_CODE_PREPROC) : PLAIN;
            if (!preproc) {
                if (word_in(line + s0, i - s0, k_kw))
                    at = term_attr(TC_CODE_KW);
                else if (word_in(line + s0, i - s0, k_types))
                    at = term_attr(TC_CODE_TYPE);
                else if (word_in(line + s0, i - s0, k_builtins))
                    at = term_attr(TC_CODE_BUILTIN);
            }
            for (size_t k = s0; k < i; k++)
                attrs[k] = at;
            continue;
        }
        attrs[i++] = preproc ? term_attr(TC_CODE_PREPROC) : PLAIN;
    }
}
