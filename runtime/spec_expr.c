/* spec_expr.c — the integer expressions a spec's numeric fields may be written in
 * ("(n + 255) / 256", spec.h gl_vars), evaluated by recursive descent. */
#include "runtime/spec_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Integer expressions over gl_vars: + - * / % (C semantics: truncating division),
 * parentheses, unary minus and plus; literals are decimal or 0x hex. 64-bit overflow,
 * division by zero and unknown variables are errors. */
typedef struct expr {
    const char *src, *p;
    const gl_vars *vars;
    char msg[256];
    bool failed;
} expr;

__attribute__((format(printf, 2, 3))) static void ex_fail(expr *e, const char *fmt, ...)
{
    if (e->failed)
        return;
    e->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

static void ex_space(expr *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static int64_t ex_sum(expr *e);

static int64_t ex_primary(expr *e)
{
    ex_space(e);
    const char *s = e->p;
    if (*s == '(') {
        e->p++;
        int64_t v = ex_sum(e);
        ex_space(e);
        if (*e->p != ')') {
            ex_fail(e, "expected ')' at column %d of \"%s\"", (int)(e->p - e->src) + 1, e->src);
            return 0;
        }
        e->p++;
        return v;
    }
    if (isdigit((unsigned char)*s)) {
        int base = 10;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
            base = 16;
            s += 2;
        }
        uint64_t v = 0;
        bool over = false;
        for (; isxdigit((unsigned char)*s); s++) {
            int d = isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10);
            if (d >= base)
                break;
            if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
                over = true;
            v = v * (uint64_t)base + (uint64_t)d;
        }
        if (over || v > (uint64_t)INT64_MAX)
            ex_fail(e, "a number in \"%s\" does not fit in 64 bits", e->src);
        e->p = s;
        return (int64_t)(v & (uint64_t)INT64_MAX);
    }
    if (isalpha((unsigned char)*s) || *s == '_') {
        while (isalnum((unsigned char)*e->p) || *e->p == '_')
            e->p++;
        size_t n = (size_t)(e->p - s);
        if (e->vars)
            for (int i = 0; i < e->vars->count; i++)
                if (strlen(e->vars->names[i]) == n && strncmp(e->vars->names[i], s, n) == 0)
                    return e->vars->values[i];
        if (!e->vars || e->vars->count == 0) {
            ex_fail(e, "\"%s\" is not a number (no variables are defined here)", e->src);
        } else {
            char names[128] = "";
            for (int i = 0; i < e->vars->count; i++) {
                size_t l = strlen(names);
                snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "", e->vars->names[i]);
            }
            ex_fail(e, "unknown variable '%.*s' in \"%s\" (variables: %s)", (int)n, s, e->src,
                    names);
        }
        return 0;
    }
    if (*s == '\0')
        ex_fail(e, "\"%s\" ends early: expected a number, a variable or '('", e->src);
    else
        ex_fail(e, "unexpected '%c' at column %d of \"%s\"", *s, (int)(s - e->src) + 1, e->src);
    return 0;
}

static int64_t ex_unary(expr *e)
{
    ex_space(e);
    if (*e->p == '-' || *e->p == '+') {
        bool neg = *e->p++ == '-';
        int64_t v = ex_unary(e);
        if (neg) {
            if (v == INT64_MIN) {
                ex_fail(e, "\"%s\" overflows 64-bit integers", e->src);
                return 0;
            }
            return -v;
        }
        return v;
    }
    return ex_primary(e);
}

static int64_t ex_product(expr *e)
{
    int64_t v = ex_unary(e);
    for (;;) {
        ex_space(e);
        char op = *e->p;
        if (e->failed || (op != '*' && op != '/' && op != '%'))
            return v;
        e->p++;
        int64_t r = ex_unary(e);
        if (e->failed)
            return 0;
        if (op == '*') {
            if (__builtin_mul_overflow(v, r, &v))
                ex_fail(e, "\"%s\" overflows 64-bit integers", e->src);
        } else if (r == 0) {
            ex_fail(e, "division by zero in \"%s\"", e->src);
        } else if (v == INT64_MIN && r == -1) {
            ex_fail(e, "\"%s\" overflows 64-bit integers", e->src);
        } else {
            v = op == '/' ? v / r : v % r;
        }
    }
}

static int64_t ex_sum(expr *e)
{
    int64_t v = ex_product(e);
    for (;;) {
        ex_space(e);
        char op = *e->p;
        if (e->failed || (op != '+' && op != '-'))
            return v;
        e->p++;
        int64_t r = ex_product(e);
        if (e->failed)
            return 0;
        bool over = op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v);
        if (over)
            ex_fail(e, "\"%s\" overflows 64-bit integers", e->src);
    }
}

bool spec_expr_eval(const char *src, const gl_vars *vars, int64_t *out, char *msg, size_t msglen)
{
    expr e = {.src = src, .p = src, .vars = vars};
    int64_t v = ex_sum(&e);
    ex_space(&e);
    if (!e.failed && *e.p)
        ex_fail(&e, "unexpected '%c' at column %d of \"%s\"", *e.p, (int)(e.p - src) + 1, src);
    if (e.failed) {
        snprintf(msg, msglen, "%s", e.msg);
        return false;
    }
    *out = v;
    return true;
}
