/* ptx_lex.c — tokens of PTX text (PTX ISA §4 "Syntax").
 *
 * Identifiers may contain dots, so a whole mnemonic (`ld.global.v2.u32`), a directive
 * (`.reg`) or a special register (`%tid.x`) is one token; the parser splits them.
 * Numbers: decimal, hex (0x), octal (leading 0), binary (0b), an optional U suffix,
 * float bit patterns 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX and decimal floats (§4.5.1).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/ptx.h"

void ptx_lex_init(ptx_lexer *lx, const char *src, size_t len)
{
    lx->src = lx->cur = lx->line_start = src;
    lx->end = src + len;
    lx->line = 1;
}

static int is_ident_start(int c)
{
    return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.';
}
static int is_ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '.';
}

static void skip_space(ptx_lexer *lx)
{
    while (lx->cur < lx->end) {
        char c = *lx->cur;
        if (c == '\n') {
            lx->cur++;
            lx->line++;
            lx->line_start = lx->cur;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->cur++;
        } else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '/') {
            while (lx->cur < lx->end && *lx->cur != '\n')
                lx->cur++;
        } else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '*') {
            lx->cur += 2;
            while (lx->cur < lx->end &&
                   !(lx->cur[0] == '*' && lx->cur + 1 < lx->end && lx->cur[1] == '/')) {
                if (*lx->cur == '\n') {
                    lx->line++;
                    lx->line_start = lx->cur + 1;
                }
                lx->cur++;
            }
            lx->cur = lx->cur + 2 <= lx->end ? lx->cur + 2 : lx->end;
        } else {
            break;
        }
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void lex_number(ptx_lexer *lx, ptx_tok *t)
{
    const char *p = lx->cur;
    t->kind = PTX_TOK_INT;
    t->ival = 0;
    if (p[0] == '0' && p + 1 < lx->end &&
        (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        int digits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
        const char *q = p + 2;
        uint64_t v = 0;
        int n = 0;
        while (q < lx->end && hexval(*q) >= 0 && n < digits) {
            v = (v << 4) | (uint64_t)hexval(*q);
            q++;
            n++;
        }
        if (n == digits) {
            t->kind = PTX_TOK_FLOAT;
            t->fbits = digits * 4;
            t->ival = v;
            lx->cur = q;
            return;
        }
    }
    if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'x' || p[1] == 'X')) {
        const char *q = p + 2;
        while (q < lx->end && hexval(*q) >= 0) {
            t->ival = (t->ival << 4) | (uint64_t)hexval(*q);
            q++;
        }
        lx->cur = q;
    } else if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'b' || p[1] == 'B')) {
        const char *q = p + 2;
        while (q < lx->end && (*q == '0' || *q == '1')) {
            t->ival = (t->ival << 1) | (uint64_t)(*q - '0');
            q++;
        }
        lx->cur = q;
    } else {
        const char *q = p;
        while (q < lx->end && isdigit((unsigned char)*q))
            q++;
        if (q < lx->end && (*q == '.' || *q == 'e' || *q == 'E')) {
            char buf[128];
            size_t n = 0;
            const char *r = p;
            while (r < lx->end && n + 1 < sizeof buf &&
                   (isdigit((unsigned char)*r) || *r == '.' || *r == 'e' || *r == 'E' ||
                    ((*r == '-' || *r == '+') && (r[-1] == 'e' || r[-1] == 'E'))))
                buf[n++] = *r++;
            buf[n] = 0;
            t->kind = PTX_TOK_FLOAT;
            t->fbits = 0;
            t->fval = strtod(buf, NULL);
            lx->cur = r;
            return;
        }
        int octal = p[0] == '0' && q - p > 1;
        for (const char *r = p; r < q; r++)
            t->ival = t->ival * (octal ? 8u : 10u) + (uint64_t)(*r - '0');
        lx->cur = q;
    }
    if (lx->cur < lx->end && (*lx->cur == 'U' || *lx->cur == 'u'))
        lx->cur++;
}

int ptx_lex_next(ptx_lexer *lx, ptx_tok *t)
{
    skip_space(lx);
    memset(t, 0, sizeof *t);
    t->line = lx->line;
    t->col = (int)(lx->cur - lx->line_start) + 1;
    t->p = lx->cur;
    if (lx->cur >= lx->end) {
        t->kind = PTX_TOK_EOF;
        return 1;
    }
    unsigned char c = (unsigned char)*lx->cur;
    if (isdigit(c)) {
        lex_number(lx, t);
    } else if (is_ident_start(c)) {
        lx->cur++;
        /* `::` joins the parts of a qualifier inside a mnemonic (ld.global.L1::no_allocate,
         * ld.shared::cta, PTX ISA §9.7.9.8): part of the identifier when a letter follows.
         * A word that begins with a dot (a directive, state space or type) ends at the next
         * dot: ".reg.b32 f;" is ".reg .b32 f;", as ptxas reads it and as cuda_fp16.hpp's
         * inline assembly (hexp2, hsin, ...) writes it. */
        while (lx->cur < lx->end && !(c == '.' && *lx->cur == '.') &&
               (is_ident_char((unsigned char)*lx->cur) ||
                (*lx->cur == ':' && lx->cur + 2 < lx->end && lx->cur[1] == ':' &&
                 isalnum((unsigned char)lx->cur[2]) && lx->cur[-1] != ':')))
            lx->cur += *lx->cur == ':' ? 2 : 1;
        t->kind = PTX_TOK_IDENT;
    } else if (c == '"') {
        lx->cur++;
        while (lx->cur < lx->end && *lx->cur != '"' && *lx->cur != '\n') {
            if (*lx->cur == '\\' && lx->cur + 1 < lx->end)
                lx->cur++;
            lx->cur++;
        }
        if (lx->cur < lx->end && *lx->cur == '"')
            lx->cur++;
        t->kind = PTX_TOK_STRING;
    } else {
        lx->cur++;
        t->kind = PTX_TOK_PUNCT;
        t->len = 1;
        return strchr(",;:[](){}+-<>@!=|", c) != NULL;
    }
    t->len = (size_t)(lx->cur - t->p);
    return 1;
}
