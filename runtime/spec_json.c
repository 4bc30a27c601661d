/* spec_json.c — exact JSON output (`gpulearn run --dump-json`, README "Command line";
 * docs/architecture.md "Contracts"): values in a round-trip form, strings always valid UTF-8, in the C numeric
 * locale. */
#include "runtime/spec_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The TUI calls setlocale(LC_ALL, ""), which may make printf/strtod use ','. JSON and
 * our messages always use '.': switch this thread to the C numeric locale meanwhile. */
void spec_cloc_enter(spec_cloc *l)
{
    l->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    l->old = l->c ? uselocale(l->c) : (locale_t)0;
}

void spec_cloc_leave(spec_cloc *l)
{
    if (l->c) {
        uselocale(l->old);
        freelocale(l->c);
    }
}

/* Shortest text that reads back as the same float (f32: strtof) or double, always with
 * a '.' or an exponent so that readers see a float: "-0.0", "0.1", "1e+30". NaN and
 * infinities give "nan", "inf", "-inf" (without quotes). Needs the C numeric locale. */
void spec_fmt_float(char *buf, size_t n, double v, bool f32)
{
    if (isnan(v)) {
        snprintf(buf, n, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, n, v < 0 ? "-inf" : "inf");
        return;
    }
    if (f32) {
        float x = (float)v;
        for (int p = 1; p <= 9; p++) {
            snprintf(buf, n, "%.*g", p, (double)x);
            if (strtof(buf, NULL) == x)
                break;
        }
    } else {
        for (int p = 1; p <= 17; p++) {
            snprintf(buf, n, "%.*g", p, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    }
    if (!strpbrk(buf, ".e")) {
        size_t l = strlen(buf);
        if (l + 3 <= n)
            memcpy(buf + l, ".0", 3);
    }
}

/* ------------------------------------------------------------------ JSON output */

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no surrogates,
 * nothing above U+10FFFF), or 0 if s does not start one. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    unsigned lo = 0x80, hi = 0xBF;
    size_t n;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

/* Writes s as a JSON string: '"' and '\' escaped, \n \t \r \b \f by name, other
 * control characters (and DEL) as \u00XX, valid UTF-8 as is, and each byte that is not
 * part of valid UTF-8 as \ufffd (U+FFFD REPLACEMENT CHARACTER), so the output is
 * always valid JSON and valid UTF-8. */
static void write_json_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', f);
    while (*s) {
        unsigned c = *s;
        switch (c) {
        case '"':
            fputs("\\\"", f);
            s++;
            continue;
        case '\\':
            fputs("\\\\", f);
            s++;
            continue;
        case '\n':
            fputs("\\n", f);
            s++;
            continue;
        case '\t':
            fputs("\\t", f);
            s++;
            continue;
        case '\r':
            fputs("\\r", f);
            s++;
            continue;
        case '\b':
            fputs("\\b", f);
            s++;
            continue;
        case '\f':
            fputs("\\f", f);
            s++;
            continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7F) {
            fprintf(f, "\\u%04x", c);
            s++;
            continue;
        }
        size_t n = utf8_len(s);
        if (n == 0) {
            fputs("\\ufffd", f);
            s++;
        } else {
            fwrite(s, 1, n, f);
            s += n;
        }
    }
    fputc('"', f);
}

/* spec_json_write_value in the C numeric locale (the caller switched). */
static void write_value(FILE *f, gl_type t, gl_value v)
{
    if (!spec_type_is_float(t)) {
        if (spec_type_is_signed(t))
            fprintf(f, "%" PRId64, v.i);
        else
            fprintf(f, "%" PRIu64, v.u);
        return;
    }
    char buf[40];
    spec_fmt_float(buf, sizeof buf, v.f, t == GL_F32);
    if (isnan(v.f) || isinf(v.f))
        fprintf(f, "\"%s\"", buf);
    else
        fputs(buf, f);
}

void spec_json_write_value(FILE *f, gl_type t, gl_value v)
{
    spec_cloc l;
    spec_cloc_enter(&l);
    write_value(f, t, v);
    spec_cloc_leave(&l);
}

gl_status spec_json_write_result(FILE *f, const gl_spec *s, const gl_buffer *buffers,
                                 const char *stdout_text, gl_error *err)
{
    spec_cloc l;
    spec_cloc_enter(&l);
    fputs("{\n  \"buffers\": {", f);
    bool first = true;
    for (int k = 0; k < s->nargs; k++) {
        const gl_arg *a = &s->args[k];
        if (!a->is_ptr)
            continue;
        fputs(first ? "\n    " : ",\n    ", f);
        first = false;
        write_json_string(f, a->name ? a->name : "");
        fputs(": [", f);
        size_t n = buffers && buffers[k].data ? buffers[k].bytes / spec_type_size(a->type) : 0;
        for (size_t i = 0; i < n; i++) {
            if (i)
                fputs(", ", f);
            write_value(f, a->type, spec_buffer_get(buffers[k].data, a->type, i));
        }
        fputc(']', f);
    }
    fputs(first ? "},\n" : "\n  },\n", f);
    fputs("  \"stdout\": ", f);
    write_json_string(f, stdout_text ? stdout_text : "");
    fputs("\n}\n", f);
    spec_cloc_leave(&l);
    if (fflush(f) != 0 || ferror(f))
        return gl_fail(err, GL_ERR_INPUT, "writing JSON: %s", strerror(errno));
    return GL_OK;
}
