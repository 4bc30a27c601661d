/* spec_internal.h — private to runtime/spec*.c: what the files of the launch-spec module
 * (spec.c, spec_expr.c, spec_buffer.c, spec_rng.c, spec_json.c) share. */
#ifndef GL_SPEC_INTERNAL_H
#define GL_SPEC_INTERNAL_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/spec.h"

/* The thread's locale switched to the C numeric locale (spec_json.c). */
typedef struct spec_cloc {
    locale_t c, old;
} spec_cloc;
void spec_cloc_enter(spec_cloc *l);
void spec_cloc_leave(spec_cloc *l);

/* Shortest round-trip text of v as an f32 (f32) or f64, with a '.' or an exponent;
 * "nan", "inf", "-inf" for the others. Needs the C numeric locale (spec_json.c). */
void spec_fmt_float(char *buf, size_t n, double v, bool f32);

/* Evaluates the integer expression src over vars (spec.h gl_vars): + - * / %,
 * parentheses, unary minus and plus, decimal or 0x literals. false with a message in
 * msg (msglen bytes) on a syntax error, 64-bit overflow, division by zero or an unknown
 * variable (spec_expr.c). */
bool spec_expr_eval(const char *src, const gl_vars *vars, int64_t *out, char *msg, size_t msglen);

/* Element i of the buffer dst of type t: the low bits of an integer (two's complement),
 * a double rounded to the nearest f32 for f32, or a gl_value (spec_buffer.c). */
void spec_store_bits(void *dst, gl_type t, size_t i, uint64_t v);
void spec_store_float(void *dst, gl_type t, size_t i, double d);
void spec_store_value(void *dst, gl_type t, size_t i, gl_value v);

#endif
