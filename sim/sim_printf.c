/* sim_printf.c — device printf (PTX `vprintf`), CUDA C++ Programming Guide
 * "Formatted Output": the format string is a generic address; the arguments are packed
 * into a buffer, each aligned to its own size, float arguments promoted to double.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

/* Each conversion is formatted by the host's snprintf with a format assembled here from
 * the parsed specification (only flags, width, precision and one conversion, which
 * matches the argument's type), so the format is not a literal by design. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static int append(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t nc = (*cap ? *cap : 256);
        while (nc < *len + n + 1)
            nc *= 2;
        char *p = realloc(*out, nc);
        if (!p)
            return 0;
        *out = p;
        *cap = nc;
    }
    memcpy(*out + *len, s, n);
    *len += n;
    (*out)[*len] = 0;
    return 1;
}

/* Checks one conversion specification f[0..n) ("%...X") against the grammar of the CUDA
 * C++ Programming Guide, "Formatted Output" > "Format Specifiers": %[flags][width]
 * [.precision][size]type with flags "#0+- ", width '*' or digits, precision digits only,
 * size h, l or ll, type one of "cdiouxXpeEfgGaAs". The device packs the arguments by
 * this grammar and the host formats them with its C library, so anything else takes
 * the arguments out of step: wrong output, or a fault where a later %s reads a value
 * that is not a pointer (an H200 gave CUDA_ERROR_ILLEGAL_ADDRESS for a "%.*f" followed
 * by "%s", tests/kernels/ops/printf_all.cu before it was fixed). Returns 1 when
 * supported, else 0 with the reason in why. */
static int spec_supported(const char *f, size_t n, char *why, size_t whylen)
{
    size_t j = 1;
    while (j < n && strchr("-+ #0", f[j]))
        j++;
    if (j < n && f[j] == '*')
        j++;
    else
        while (j < n && f[j] >= '0' && f[j] <= '9')
            j++;
    if (j < n && f[j] == '.') {
        j++;
        if (j < n && f[j] == '*') {
            snprintf(why, whylen,
                     "printf format \"%.*s\": CUDA's device printf has no '*' precision "
                     "(CUDA C++ Programming Guide, Formatted Output: the precision is digits "
                     "only); on the GPU the arguments after it go out of step (write the "
                     "precision as a number)",
                     (int)n, f);
            return 0;
        }
        while (j < n && f[j] >= '0' && f[j] <= '9')
            j++;
    }
    size_t s0 = j;
    while (j < n - 1)
        j++;
    size_t sl = j - s0; /* the size letters */
    char type = f[n - 1];
    int size_ok = sl == 0 || (sl == 1 && (f[s0] == 'h' || f[s0] == 'l')) ||
                  (sl == 2 && f[s0] == 'l' && f[s0 + 1] == 'l');
    if (!size_ok) {
        snprintf(why, whylen,
                 "printf format \"%.*s\": CUDA's device printf supports only the sizes h, l "
                 "and ll (CUDA C++ Programming Guide, Formatted Output), not \"%.*s\"; on the "
                 "GPU the arguments after it go out of step (for a char, print it as an int "
                 "with %%d)",
                 (int)n, f, (int)sl, f + s0);
        return 0;
    }
    if (!strchr("cdiouxXpeEfgGaAs", type)) {
        snprintf(why, whylen,
                 "printf format \"%.*s\": CUDA's device printf has no '%%%c' conversion (CUDA "
                 "C++ Programming Guide, Formatted Output: the types are %%c %%d %%i %%o %%u "
                 "%%x %%X %%p %%e %%E %%f %%g %%G %%a %%A %%s)",
                 (int)n, f, type);
        return 0;
    }
    if (sl && (type == 's' || type == 'c')) {
        snprintf(why, whylen,
                 "printf format \"%.*s\": a wide %s is not supported by CUDA's device printf "
                 "(the host would read the argument as wchar_t)",
                 (int)n, f, type == 's' ? "string (%ls)" : "character (%lc)");
        return 0;
    }
    return 1;
}

/* The length of the conversion specification at f[i] ('%'), up to and including its type
 * letter (the first character that is not a flag, digit, '*', '.' or size letter); 0
 * when the format ends first. */
static size_t spec_length(const char *f, size_t i, size_t fl)
{
    size_t j = i + 1;
    while (j < fl && strchr("-+ #0123456789*.hlLqjzt", f[j]))
        j++;
    return j < fl ? j + 1 - i : 0;
}

/* Checks every conversion of the format f[0..fl) with spec_supported. */
static int format_supported(const char *f, size_t fl, char *why, size_t whylen)
{
    for (size_t i = 0; i < fl; i++) {
        if (f[i] != '%')
            continue;
        if (i + 1 < fl && f[i + 1] == '%') {
            i++;
            continue;
        }
        size_t n = spec_length(f, i, fl);
        if (n == 0)
            break;
        if (!spec_supported(f + i, n, why, whylen))
            return 0;
        i += n - 1;
    }
    return 1;
}

int sim_printf_check_ptx(const char *ptx, char *why, size_t whylen)
{
    if (!strstr(ptx, "vprintf"))
        return 0;
    /* string literals: ".global .align 1 .b8 $str$1[N] = {104, 101, ...};" (nvcc and
     * NVRTC name them $str..., clang _$_str...); other byte arrays (a lesson's tables)
     * are not formats, and neither is one holding a byte that is not text */
    for (const char *p = strstr(ptx, ".b8 "); p; p = strstr(p + 1, ".b8 ")) {
        const char *eol = strchr(p, '\n');
        const char *open = strstr(p, "= {");
        const char *bol = p;
        while (bol > ptx && bol[-1] != '\n')
            bol--;
        const char *name = strstr(p, "str");
        if (!open || (eol && open > eol) || !name || name > open || strncmp(bol, ".global", 7) != 0)
            continue;
        char f[1024];
        size_t fl = 0;
        int text = 1;
        const char *q = open + 3;
        while (*q && *q != '}' && fl + 1 < sizeof f) {
            char *end;
            long v = strtol(q, &end, 10);
            if (end == q || v == 0)
                break;
            text &= (v >= 32 && v < 256) || v == 9 || v == 10 || v == 13;
            f[fl++] = (char)v;
            q = end;
            while (*q == ',' || *q == ' ')
                q++;
        }
        f[fl] = 0;
        if (text && memchr(f, '%', fl) && !format_supported(f, fl, why, whylen))
            return -1;
    }
    return 0;
}

int sim_vprintf_format(void *ctx, sim_read_fn rd, uint64_t fmt, uint64_t args, char **out,
                       size_t *len, size_t *cap, char *why, size_t whylen)
{
    char f[1024];
    size_t fl = 0;
    /* read the format string */
    for (;;) {
        char ch;
        if (!rd(ctx, fmt + fl, &ch, 1))
            return -1;
        if (ch == 0 || fl + 1 >= sizeof f)
            break;
        f[fl++] = ch;
    }
    f[fl] = 0;
    /* the whole format is checked first: the GPU's output is undefined past an
     * unsupported specification, so none of this call's output is kept */
    if (!format_supported(f, fl, why, whylen))
        return -2;
    uint64_t ap = args;
    int nargs = 0;
    for (size_t i = 0; i < fl;) {
        if (f[i] != '%') {
            size_t j = i;
            while (j < fl && f[j] != '%')
                j++;
            if (!append(out, len, cap, f + i, j - i))
                return -1;
            i = j;
            continue;
        }
        if (f[i + 1] == '%') {
            append(out, len, cap, "%", 1);
            i += 2;
            continue;
        }
        /* "at most 32 arguments in addition to the format string. Additional arguments
         * beyond this will be ignored, and the format specifier output as-is" (CUDA C++
         * Programming Guide, Formatted Output, Limitations) */
        size_t whole = spec_length(f, i, fl);
        if (nargs >= 32 && whole) {
            append(out, len, cap, f + i, whole);
            i += whole;
            continue;
        }
        /* %[flags][width][.precision][length]conversion */
        char spec[64];
        size_t sl = 0;
        size_t j = i + 1;
        spec[sl++] = '%';
        while (j < fl && strchr("-+ #0", f[j]) && sl < 40)
            spec[sl++] = f[j++];
        /* width and precision: digits, or `*` taking an int argument */
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (j >= fl || f[j] != '.')
                    break;
                spec[sl++] = f[j++];
            }
            if (j < fl && f[j] == '*') {
                ap = (ap + 3) / 4 * 4;
                int32_t wv = 0;
                if (!rd(ctx, ap, &wv, 4))
                    return -1;
                ap += 4;
                nargs++;
                if (part == 0 && wv < 0 && sl < 40) { /* negative width: left-justify */
                    spec[sl++] = '-';
                    wv = wv == INT32_MIN ? INT32_MAX : -wv;
                }
                if (part == 1 && wv < 0) { /* negative precision: as if omitted */
                    sl--;
                    wv = -1;
                }
                if (wv > 4096) /* the output buffer is bounded */
                    wv = 4096;
                if (wv >= 0)
                    sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", (int)wv);
                j++;
            } else if (j < fl && f[j] >= '0' && f[j] <= '9') {
                /* digits, clamped like `*` (the output buffer is bounded): a width of
                 * 999999999 would cost the host seconds per thread to pad */
                long long wv = 0;
                while (j < fl && f[j] >= '0' && f[j] <= '9') {
                    if (wv <= 4096)
                        wv = wv * 10 + (f[j] - '0');
                    j++;
                }
                sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d",
                                       (int)(wv > 4096 ? 4096 : wv));
            }
        }
        int longs = 0, shorts = 0;
        while (j < fl && strchr("hlLqjzt", f[j])) {
            if (f[j] == 'l' || f[j] == 'L' || f[j] == 'q' || f[j] == 'j' || f[j] == 'z' ||
                f[j] == 't')
                longs++;
            if (f[j] == 'h')
                shorts++;
            j++;
        }
        if (j >= fl) {
            append(out, len, cap, f + i, fl - i);
            break;
        }
        char conv = f[j++];
        unsigned size = 4;
        if (strchr("fFeEgGaA", conv) || conv == 's' || conv == 'p' || longs)
            size = 8;
        ap = (ap + size - 1) / size * size;
        uint64_t v = 0;
        if (!rd(ctx, ap, &v, size))
            return -1;
        ap += size;
        nargs++;
        /* h / hh: the int argument is converted to short / char before printing */
        if (!longs && shorts == 1)
            v = strchr("di", conv) ? (uint64_t)(int64_t)(int16_t)v : (uint64_t)(uint16_t)v;
        else if (!longs && shorts >= 2)
            v = strchr("di", conv) ? (uint64_t)(int64_t)(int8_t)v : (uint64_t)(uint8_t)v;
        char buf[4200];
        int n = 0;
        switch (conv) {
        case 'd':
        case 'i':
            spec[sl++] = 'l';
            spec[sl++] = 'l';
            spec[sl++] = conv;
            spec[sl] = 0;
            n = snprintf(buf, sizeof buf, spec,
                         size == 8 || shorts ? (long long)(int64_t)v : (long long)(int32_t)v);
            break;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
            spec[sl++] = 'l';
            spec[sl++] = 'l';
            spec[sl++] = conv;
            spec[sl] = 0;
            n = snprintf(buf, sizeof buf, spec,
                         size == 8 || shorts ? (unsigned long long)v
                                             : (unsigned long long)(uint32_t)v);
            break;
        case 'c':
            spec[sl++] = 'c';
            spec[sl] = 0;
            n = snprintf(buf, sizeof buf, spec, (int)(unsigned char)v);
            break;
        case 'p': n = snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v); break;
        case 's': {
            char s[512];
            size_t k = 0;
            if (v == 0) {
                strcpy(s, "(null)");
            } else {
                for (; k + 1 < sizeof s; k++) {
                    if (!rd(ctx, v + k, &s[k], 1))
                        return -1;
                    if (!s[k])
                        break;
                }
                s[k] = 0;
            }
            spec[sl++] = 's';
            spec[sl] = 0;
            n = snprintf(buf, sizeof buf, spec, s);
            break;
        }
        default:
            if (strchr("fFeEgGaA", conv)) {
                double d;
                memcpy(&d, &v, 8);
                spec[sl++] = conv;
                spec[sl] = 0;
                n = snprintf(buf, sizeof buf, spec, d);
            } else {
                /* unknown conversion: print it as written */
                n = snprintf(buf, sizeof buf, "%.*s", (int)(j - i), f + i);
            }
        }
        if (n > 0)
            append(out, len, cap, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
        i = j;
    }
    return nargs;
}
